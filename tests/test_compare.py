"""`python -m bct.compare`: our rows beside the published ones, blank where results are missing, and a chart."""

import json
import subprocess
import sys
from pathlib import Path

from hydra import compose, initialize_config_dir

from bct.config import CONF
from bct.evaluate import evaluate

ROOT = Path(__file__).resolve().parent.parent


def test_compare_table_and_chart(tmp_path):
    for overrides in (["agent=oracle", "+game=twc"], ["agent=random", "+game=sorting", "modules=false"]):
        with initialize_config_dir(str(CONF), version_base="1.3"):
            cfg = compose("evaluate", overrides=[*overrides, "num_variations=2", "batch_size=2", "progress=false",
                                                 f"results_dir={tmp_path}"])
        evaluate(cfg)
    r = subprocess.run([sys.executable, "-m", "bct.compare", str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert "on dev" in lines[0]  # no test results here: the dev results are compared
    assert any(line.startswith("| Oracle+mod |  |  |  | 1.00 (") and line.endswith("|  |") for line in lines)
    oracle = json.loads(next(tmp_path.glob("oracle-twc-modules/dev/results.json")).read_text())
    env_steps = f"1.00 ({oracle['avg_env_steps']:.0f})"  # environment steps, as published: module calls not counted
    assert f"|  |  |  | {env_steps} |" in r.stdout and oracle["avg_env_steps"] < oracle["avg_steps"]
    assert any(line.startswith("| Random |  |  | ") for line in lines)
    assert "| BCT t5-base+mod (published) | 1.00 (5) | 1.00 (10) | 0.98 (8) | 0.97 (3) | 0.99 (7) |" in lines
    assert (tmp_path / "comparison-dev.md").read_text().strip() in r.stdout
    png = tmp_path / "comparison-dev.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
