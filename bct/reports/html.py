"""One self-contained HTML page per results folder: the results table, the comparison chart and every
played episode, browsable offline (no server, no CDN: styles, script and images are inside the file).

python -m bct.report results --html report.html
"""

from __future__ import annotations

import base64
import html
import tempfile
import time
from pathlib import Path

from bct.core.files import write_atomic
from bct.core.results import episodes, invalid_share, solved
from bct.data.prompt import unpack
from bct.worlds.registry import WORLDS, modules_label

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 1200px; color: #222; }
table { border-collapse: collapse; }
th, td { padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.filters { position: sticky; top: 0; background: #fff; padding: 6px 0; border-bottom: 1px solid #ccc; }
details.episode { margin: 2px 0 2px 1em; }
details.episode > summary { cursor: pointer; }
.unsolved > summary { color: #b00020; }
.solved > summary { color: #1b5e20; }
tr.module td.act, tr.module td.obs { color: #6a1b9a; background: #f6effa; }
td.gain-up { color: #1b5e20; } td.gain-down { color: #b00020; }
td.cands { color: #777; font-size: 12px; }
.task { color: #00607a; margin: 4px 0; }
.warn { color: #b00020; }
img.chart { max-width: 100%; }
"""

SCRIPT = """
function applyFilters() {
  const agent = document.getElementById('agent-filter').value;
  const game = document.getElementById('game-filter').value;
  const failed = document.getElementById('failed-only').checked;
  let shown = 0;
  document.querySelectorAll('section.run').forEach(run => {
    const runOk = (!agent || run.dataset.agent === agent) && (!game || run.dataset.game === game);
    let visible = 0;
    run.querySelectorAll('details.episode').forEach(ep => {
      const ok = runOk && (!failed || ep.dataset.solved === 'false');
      ep.style.display = ok ? '' : 'none';
      if (ok) { visible++; }
    });
    run.style.display = runOk && visible ? '' : 'none';
    shown += visible;
  });
  document.getElementById('shown').textContent = shown;
}
document.querySelectorAll('.filters select, .filters input').forEach(
  el => el.addEventListener('change', applyFilters));
applyFilters();
"""


def esc(value) -> str:
    return html.escape(str(value), quote=True)


def results_table(rows: list[dict]) -> str:
    head = ["run", "agent", "game", "modules", "memory", "fold", "n", "score", "steps", "env", "module"]
    head += ["wasted", "invalid"]
    numeric = {"n", "score", "steps", "env", "module", "wasted", "invalid"}
    out = ['<table id="results"><thead><tr>']
    out += [f'<th class="{"num" if h in numeric else ""}">{h}</th>' for h in head]
    out.append("</tr></thead><tbody>")
    for r in rows:
        share = invalid_share(r)
        cells = {
            # the game has its column: a run that played one game of several is named without it
            "run": esc(r["run"].removesuffix(f"-on-{r['game']}")),
            "agent": esc(r["agent"]),
            "game": esc(r["game"]),
            "modules": modules_label(r["modules"]),
            "memory": "memory" if r.get("memory") else "",
            "fold": esc(r["fold"]),
            "n": r["num_variations"],
            "score": f"{r['avg_score']:.3f}",
            "steps": f"{r['avg_steps']:.1f}",
            "env": f"{r['avg_env_steps']:.1f}",
            "module": f"{r['avg_module_steps']:.1f}",
            # module calls to a module the game's gold path never calls (modules=all)
            "wasted": f"{r['wasted_module_calls']:.0%}" if r.get("wasted_module_calls") is not None else "",
            "invalid": "" if share is None else f"{share:.0%}",
        }
        out.append(f'<tr data-run="{esc(r["run"])}">')
        out += [f'<td class="{h}{" num" if h in numeric else ""}">{cells[h]}</td>' for h in head]
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def markdown_html(text: str) -> str:
    """A Markdown text (the tables' paragraphs, pipe tables, bold, lists) as HTML; raw HTML in it is escaped."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table").render(text)


def world_tables(rows: list[dict]) -> str:
    """Each world's own tables (`World.reports`), under a heading of the world's, only those its games have rows for."""
    out = []
    for world in WORLDS.values():
        drawn = [(report, md) for report in world.reports if (md := report.table(rows))]
        if not drawn:
            continue
        out.append(f'<section class="world" id="world-{esc(world.name)}"><h2>{esc(world.title or world.name)}</h2>')
        out += [f'<h3 id="{esc(report.file)}">{esc(report.title)}</h3>' + markdown_html(md) for report, md in drawn]
        out.append("</section>")
    return "".join(out)


def chart_image(results_dir: Path, rows: list[dict]) -> str:
    """Each world's comparison with a paper's table (bct.compare) as an embedded PNG, where the results hold its
    games; '' without any."""
    from bct.reports.compare import agent_rows, chart, comparisons

    folds = {r["fold"] for r in rows}
    fold = "test" if "test" in folds else "dev"
    out = []
    for against in comparisons().values():
        _, ours = agent_rows(results_dir, fold, against)
        if not ours:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            png = Path(tmp) / "comparison.png"
            chart(ours, against, png, fold)
            data = base64.b64encode(png.read_bytes()).decode()
        out.append(
            f'<h2>{esc(against.title)}</h2><img class="chart" alt="comparison chart" src="data:image/png;base64,{data}">'
        )
    return "".join(out)


def episode_html(ep: dict) -> str:
    history = ep.get("history", [])
    ok = solved(ep)
    summary = (
        f'seed <span class="seed">{ep["seed"]}</span>: {"solved" if ok else "unsolved"}, score '
        f"{ep['score']:.2f} in {ep['steps']} steps ({esc(ep['stop'])})"
    )
    out = [f'<details class="episode {"solved" if ok else "unsolved"}" data-solved="{str(ok).lower()}">']
    out.append(f"<summary>{summary}</summary>")
    if history:
        first = unpack(history[0]["prompt"])
        out.append(f'<div class="task">{esc(first.get("task", ""))}</div>')
    if ep.get("error"):
        out.append(f'<div class="warn">{esc(ep["error"])}</div>')
    out.append('<table class="steps"><thead><tr><th class="num">#</th><th>action</th><th>observation</th>')
    out.append('<th class="num">score</th><th>considered</th></tr></thead><tbody>')
    if history:
        out.append(f'<tr class="start"><td></td><td><i>start</i></td><td class="obs">{esc(first.get("obs", ""))}</td>')
        out.append("<td></td><td></td></tr>")
    before = 0.0
    for h in history:
        gain, before = h["score"] - before, h["score"]
        scores = h.get("scores") or []
        considered = ", ".join(
            esc(c) + (f" ({scores[i]:.2f})" if i < len(scores) else "")
            for i, c in enumerate(h.get("candidates", [])[:3])
        )
        note = ""
        if h.get("valid_reply") is False:
            note = f'<span class="warn">replied {esc(repr(h.get("reply", "")))}: no valid action</span> '
        if h.get("fallback"):
            note = '<span class="warn">no valid candidate: the closest valid action played</span> '
        kind = "module" if h.get("from_module") else "game"
        gain_class = "gain-up" if gain > 0 else "gain-down" if gain < 0 else ""
        out.append(
            f'<tr class="step {kind}"><td class="num">{h["step"] + 1}</td><td class="act">{esc(h["action"])}</td>'
            f'<td class="obs">{note}{esc(h["observation"])}</td>'
            f'<td class="num {gain_class}">{f"{gain:+.2f}" if gain else ""}</td><td class="cands">{considered}</td></tr>'
        )
    out.append("</tbody></table></details>")
    return "".join(out)


def write_html(results_dir: str | Path, path: str | Path, rows: list[dict]) -> Path:
    """Write the page for these results rows (bct.core.results.collect); returns its path."""
    results_dir, path = Path(results_dir), Path(path)
    agents = sorted({r["agent"] for r in rows})
    games = sorted({r["game"] for r in rows})
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>bct results: {esc(results_dir)}</title><style>{STYLE}</style></head><body>",
        f"<h1>bct results: {esc(results_dir)}</h1>",
        f"<p>{len(rows)} evaluations; written {time.strftime('%Y-%m-%d %H:%M')}. Score: the final state's "
        "normalised score, averaged over variations; steps include module calls (env: game actions only).</p>",
        # each world's own tables first, tasks and agents named as a reader would; every evaluation's row after them
        world_tables(rows),
        chart_image(results_dir, rows),
        "<h2>Every evaluation</h2>",
        results_table(rows),
        "<h2>Episodes</h2>",
        '<div class="filters">agent <select id="agent-filter"><option value="">all</option>',
        *(f'<option value="{esc(a)}">{esc(a)}</option>' for a in agents),
        '</select> game <select id="game-filter"><option value="">all</option>',
        *(f'<option value="{esc(g)}">{esc(g)}</option>' for g in games),
        '</select> <label><input type="checkbox" id="failed-only"> unsolved only</label> ',
        '<span id="shown"></span> episodes shown; module commands and answers in purple</div>',
    ]
    for r in rows:
        eps = episodes(r)
        unsolved = sum(not solved(e) for e in eps)
        parts.append(
            f'<section class="run" data-run="{esc(r["run"])}" data-agent="{esc(r["agent"])}" data-game="{esc(r["game"])}">'
            f"<h3>{esc(r['run'])} · {esc(r['game'])} {modules_label(r['modules'])} · {esc(r['fold'])}: score "
            f"{r['avg_score']:.3f}, {len(eps)} episodes, {unsolved} unsolved</h3>"
        )
        parts += [episode_html(e) for e in eps]
        parts.append("</section>")
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    write_atomic(path, "".join(parts))
    return path
