"""Game variants from the command line (TWX parameters on top of a preset), end to end, and the
no-module representation that leaves the numbers readable."""

import json

import pytest

from bct.agents import OracleAgent
from bct.agents.rollout import rollout
from bct.core.errors import UserError
from bct.core.results import collect
from bct.jobs.generalize import main as generalize
from bct.seq2seq.training import train
from bct.worlds.registry import from_record, get_game

pytestmark = pytest.mark.slow  # integration: JVMs, training, subprocesses


@pytest.mark.parametrize(
    "preset, params, n",
    [("mapreader", {"numLocations": 30, "maxDistanceApart": 8}, 20), ("twc", {"numLocations": 3}, 10)],
)
def test_gold_paths_with_module_calls_score_one_on_variants(preset, params, n):
    game = get_game(preset).with_params(params)
    results = rollout(OracleAgent(game), game, "test", range(20000, 20000 + n), True, batch_size=5, step_limit=100)
    assert len(results) == n and all(r.score == 1.0 and r.module_steps > 0 for r in results)


def test_a_variant_is_named_by_what_it_changes_and_read_back_from_its_record():
    game = get_game("mapreader").with_params({"numLocations": 30, "maxDistanceApart": 8, "includeDoors": None})
    assert game.name == "mapreader-maxDistanceApart8-numLocations30" and game.preset == "mapreader"
    assert "numLocations=30" in game.params and from_record(game.record()) == game
    assert get_game("twc").with_params({"numLocations": 1}) == get_game("twc")  # the preset's own value: no variant
    with pytest.raises(UserError, match="mapreader accepts a whole number from 2 to 50"):
        get_game("mapreader").with_params({"numLocations": 80})


def test_a_checkpoint_plays_each_game_with_the_module_it_was_trained_with():
    """A task given a module after a run trained (the tertiary paints' `colours`, after the lever row) is played by
    that run without it, and a module the run recorded under an earlier name by today's; a run of no record keeps
    the game's own."""
    from bct.worlds.registry import as_trained

    tertiary = get_game("scienceworld-chemistry-mix-paint-tertiary-color").with_memory(False)
    thermometer = get_game("scienceworld-use-thermometer").with_memory(False)
    assert tertiary.module == "colours" and thermometer.module == "threshold"
    record = {
        "modules": True,
        "games": [g.record() for g in (tertiary, thermometer)],
        "played_with": {thermometer.name: ["compare"]},  # before `colours`; the threshold module by its old name
    }
    assert as_trained(tertiary, record).module == ""
    assert as_trained(thermometer, record) is thermometer
    with_colours = {**record, "played_with": {**record["played_with"], tertiary.name: ["colours"]}}
    assert as_trained(tertiary, with_colours) is tertiary
    # no `played_with` recorded, a run without modules, a game the run never trained on: as the game is now
    assert as_trained(tertiary, {k: v for k, v in record.items() if k != "played_with"}) is tertiary
    assert as_trained(tertiary, {**record, "modules": False}) is tertiary
    other = get_game("scienceworld-test-conductivity")
    assert as_trained(other.with_memory(False), record) == other.with_memory(False)
    # a variant of the entry it trained on is played with that entry's module; another entry keeps its own
    searched = get_game("scienceworld-chemistry-mix-paint-tertiary-color-search1").with_memory(False)
    assert as_trained(searched, record).module == ""
    mapreader, directions = get_game("mapreader"), get_game("mapreader-directions")
    trained = {"modules": True, "game": mapreader.name, "played_with": {mapreader.name: [mapreader.module]}}
    assert as_trained(directions, trained) == directions and directions.module != mapreader.module
    # a module recorded as it is today: the game as it is (the same object, equal to the registry's)
    assert as_trained(mapreader, trained) is mapreader
    no_record = {"modules": True, "game": tertiary.name}  # no game of it had a module: none recorded
    assert as_trained(tertiary, no_record) is tertiary


def test_an_unknown_parameter_is_one_line(cli, one_line):
    line = one_line(
        cli("bct.evaluate", "agent=oracle", "+game=mapreader", "game.params.rooms=30"),
        "game.params.rooms: mapreader has no such parameter",
    )
    assert "numLocations (2-50)" in line


def test_a_variant_generates_trains_evaluates_and_reports_in_its_own_folders(train_config, eval_config, tmp_path):
    variant = ["+game=twc", "game.params.numLocations=2"]
    run = train(train_config(*variant, "model=t5-tiny-scratch", "epochs=1", "num_games=2"))
    assert run.name.startswith("twc-numLocations2-modules-")
    assert (tmp_path / "data" / "twc-numLocations2" / "modules" / "train.jsonl").exists()
    manifest = json.loads((tmp_path / "data" / "manifest.json").read_text())
    assert manifest["files"]["twc-numLocations2/modules/train.jsonl"]["game_params"] == {"numLocations": 2}
    settings = json.loads((run / "bct_config.json").read_text())["settings"]
    assert (settings["game_preset"], settings["game_params"]) == ("twc", {"numLocations": 2})
    preset_run = train(train_config("+game=twc", "model=t5-tiny-scratch", "epochs=1", "num_games=2"))
    assert preset_run != run  # a variant never shares a folder with its preset
    reseeded = train(train_config("+game=twc", "model=t5-tiny-scratch", "epochs=1", "num_games=2", "seed=7"))

    from bct.jobs.evaluation import evaluate

    out = evaluate(eval_config(f"checkpoint={run}", "num_variations=2", "batch_size=2"))  # plays what it learned
    results = json.loads((out / "results.json").read_text())
    assert results["game"] == "twc-numLocations2" and results["game_params"] == {"numLocations": 2}
    assert [r["game"] for r in collect(tmp_path / "results")] == ["twc-numLocations2"]

    generalize(
        [
            "--checkpoints",
            str(run),
            str(preset_run),
            str(reseeded),
            "--games",
            "twc",
            "twc numLocations=2 step_limit=20",
            "--fold",
            "dev",
            "--num-variations",
            "2",
            "--results-dir",
            str(tmp_path / "gen"),
            "--threads",
            "1",
        ]
    )
    table = (tmp_path / "gen" / "generalization.md").read_text()
    assert "| twc-numLocations2 (modules) |" in table
    # two rows trained on the same game are both there, each named by its folder
    assert f"| twc (modules) {preset_run.name} |" in table and f"| twc (modules) {reseeded.name} |" in table
    assert "twc-numLocations2 (limit 20)" in table and "twc (limit 50)" in table
    assert (tmp_path / "gen" / "generalization.png").stat().st_size > 3000


def test_the_no_module_agent_reads_the_numbers(train_config, eval_config):
    run = train(train_config("+game=arithmetic", "modules=false", "model=t5-tiny-scratch", "epochs=1", "num_games=2"))
    settings = json.loads((run / "bct_config.json").read_text())["settings"]
    assert settings["entities"] == "names" and settings["modules"] is False

    from bct.jobs.evaluation import evaluate

    out = evaluate(eval_config(f"checkpoint={run}", "num_variations=1", "step_limit=3"))
    history = json.loads((out / "histories.jsonl").read_text().splitlines()[0])["history"]
    first = history[0]  # the room's items with their quantities ("8 <e6>, and 506 <e7>"), numbers as written
    numbers = {w.strip(".,") for w in first["prompt"].split() if w.strip(".,").isdigit()}
    assert numbers and all(f" {n} " in first["model_input"] for n in numbers)
    assert "<n1>" not in first["model_input"] and "<e1>" in first["model_input"]


def test_a_variant_its_world_cannot_make_is_marked_refused(tmp_path):
    from bct.jobs.generalize import chart, markdown

    chart(
        {"mapreader (modules)": {"mapreader": (1.0, 10.1), "mapreader-numLocations50": None}},
        ["mapreader", "mapreader-numLocations50"],
        tmp_path / "g.png",
    )
    assert (tmp_path / "g.png").stat().st_size > 3000
    table = markdown(
        {
            "mapreader (modules)": {
                "mapreader": "1.00 (10.1)",
                "mapreader-numLocations50": "not made (its world refused)",
            }
        },
        [("mapreader", 50), ("mapreader-numLocations50", 100)],
        "test",
        100,
    )
    assert "| mapreader (modules) | 1.00 (10.1) | not made (its world refused) |" in table


def test_a_variant_twx_refuses_to_make_is_cannot_make_in_one_line():
    """mapreader with 50 rooms: TWX's generator refuses it, and the environment says so as `CannotMake` (a sweep marks
    the cell; a single run prints the line), naming the game, the seed and what to change."""
    from bct.core.errors import CannotMake
    from bct.worlds.registry import open_game

    game = get_game("mapreader").with_params({"numLocations": 50})
    with (
        open_game(game, True) as env,
        pytest.raises(
            CannotMake, match=r"TextWorldExpress cannot make mapreader-numLocations50 .*choose other game.params"
        ),
    ):
        env.reset(10000, "dev")
