"""Each world's own results tables (`World.reports`), in the report command and on the HTML page: a family's table
where the results hold its games, none where they do not. Results folders written by hand: no game is played."""

import json
import re

import pytest

from bct.core.results import collect
from bct.reports.html import write_html
from bct.worlds.registry import WORLDS
from bct.worlds.textworld.report import textworld_table


def write(root, run, game, agent="t5", fold="test", score=1.0, env_steps=4.0, **more):
    """A results folder as bct.evaluate writes it (its summary; one episode reaching the score)."""
    out = root / run / fold
    out.mkdir(parents=True)
    row = {"game": game, "modules": True, "fold": fold, "agent": agent, "num_variations": 1, "avg_score": score,
           "avg_steps": env_steps + 1, "avg_env_steps": env_steps, "avg_module_steps": 1.0, "settings": {}, **more}  # fmt: skip
    (out / "results.json").write_text(json.dumps(row))
    episode = {"seed": 1, "score": score, "steps": 2, "stop": "done", "success": score >= 1, "history": []}
    (out / "histories.jsonl").write_text(json.dumps(episode) + "\n")


def sections(page: str) -> list[str]:
    """The worlds whose tables the page shows, in its order."""
    return re.findall(r'<section class="world" id="world-([\w-]+)">', page)


@pytest.fixture
def scienceworld(tmp_path):
    write(tmp_path, "sw-run-on-scienceworld-boil", "scienceworld-boil", score=0.5)
    write(tmp_path, "random-scienceworld-boil", "scienceworld-boil", agent="random", score=0.1)
    return tmp_path


def test_scienceworld_results_alone_show_its_tables_and_no_empty_twx_table(scienceworld, tmp_path):
    page = write_html(scienceworld, tmp_path / "report.html", collect(scienceworld)).read_text()
    assert sections(page) == ["scienceworld"]
    assert re.search(r"30 tasks</h3>\s*<table>", page) and "<td>boil</td>" in page  # Markdown rendered as HTML
    assert "twx-table" not in page and "TALES o3-medium" not in page  # no TWX table of published rows alone
    assert "comparison chart" not in page


def test_textworld_results_alone_show_its_table(tmp_path):
    write(tmp_path, "tw-run-on-textworld-cooking", "textworld-cooking", score=0.75, env_steps=9.0)
    write(tmp_path, "oracle-textworld-cooking", "textworld-cooking", agent="oracle")
    page = write_html(tmp_path, tmp_path / "report.html", collect(tmp_path)).read_text()
    assert sections(page) == ["textworld"]
    assert "<th>cooking</th>" in page and "<td>tw-run</td>" in page and "<td>0.75 (9.0)</td>" in page


def test_the_textworld_table_has_an_agent_a_row_and_a_game_a_column_on_the_test_fold(tmp_path):
    write(tmp_path, "tw-run-on-textworld-cooking", "textworld-cooking", score=0.5, env_steps=12.0)
    write(tmp_path, "tw-run-on-textworld-coin", "textworld-coin", score=1.0, env_steps=6.0)
    write(tmp_path, "tw-run-on-textworld-cooking-level3", "textworld-cooking-level3", score=0.25)
    write(tmp_path, "random-nomodules", "textworld-coin", agent="random", score=0.0, modules=False)
    write(tmp_path, "tw-dev", "textworld-coin", fold="dev", score=0.9)  # test results there: dev left out
    write(tmp_path, "oracle-twc", "twc", agent="oracle")  # another world's
    head, _, *rows = textworld_table(collect(tmp_path)).splitlines()[2:]
    assert head == "| agent | cooking | cooking-level3 | coin | mean |"
    assert rows == [
        "| tw-run | 0.50 (12.0) | 0.25 (4.0) | 1.00 (6.0) | 0.58 |",
        "| random (no modules) |  |  | 0.00 (4.0) | 0.00 (1 of 3 games) |",
    ]
    assert textworld_table(collect(tmp_path, "dev")).startswith("Score (game commands; module calls not counted), dev")
    assert textworld_table([r for r in collect(tmp_path) if r["game"] == "twc"]) == ""


def test_mixed_results_show_each_world_s_tables_and_the_report_writes_them(scienceworld, tmp_path, cli):
    write(tmp_path, "tw-run-on-textworld-coin", "textworld-coin")
    write(tmp_path, "oracle-twc", "twc", agent="oracle", env_steps=3.0)
    page = write_html(tmp_path, tmp_path / "report.html", collect(tmp_path)).read_text()
    assert sections(page) == list(WORLDS)  # each world once, in the registry's order
    assert "| oracle |" not in page and "<td>oracle</td>" in page
    r = cli("bct.report", str(tmp_path))
    assert r.returncode == 0, r.stderr[-2000:]
    written = sorted(p.name for p in tmp_path.glob("*.md"))
    assert written == ["recipes.md", "scienceworld-table.md", "textworld-table.md", "twx-table.md"]
    assert "| oracle |" in (tmp_path / "twx-table.md").read_text() and "wrote" in r.stdout


@pytest.mark.slow
def test_in_a_browser_the_page_leads_with_each_world_s_table_rendered_then_every_evaluation(
    scienceworld, tmp_path, browser
):
    """Opened in Debian's headless chromium: ScienceWorld's and TextWorld's tables come first, as HTML tables whose
    cells name tasks and agents (no Markdown left as text), and the list of every evaluation follows them."""
    from selenium.webdriver.common.by import By

    write(tmp_path, "tw-run-on-textworld-cooking", "textworld-cooking", score=0.75, env_steps=9.0)
    browser.get(write_html(tmp_path, tmp_path / "report.html", collect(tmp_path)).as_uri())
    headings = [h.text for h in browser.find_elements(By.TAG_NAME, "h2")]
    assert headings[:3] == ["ScienceWorld", "TextWorld", "Every evaluation"], headings
    science = browser.find_element(By.ID, "world-scienceworld")
    assert "boil" in [td.text for td in science.find_elements(By.CSS_SELECTOR, "table td")]
    assert "**" not in science.text and "| task" not in science.text  # rendered, not Markdown shown as text
    textworld = browser.find_element(By.ID, "world-textworld")
    row = textworld.find_element(By.XPATH, ".//table//tr[td[1]='tw-run']")
    assert "0.75 (9.0)" in [td.text for td in row.find_elements(By.TAG_NAME, "td")]
    assert not browser.find_elements(By.ID, "world-twx")  # no TWX results, no TWX table
