"""The released agents under checkpoints/ (committed: the README names them and the commands that reproduce their
rows) load from a fresh clone and play, with the model card `bct.share` wrote beside the weights."""

import json
from pathlib import Path

import pytest

from bct.seq2seq.model import load_checkpoint, weights_fingerprint

ROOT = Path(__file__).resolve().parent.parent

# the other two trainings of the ScienceWorld recipe: with bct-scienceworld, one agent (the README's ensemble row)
MEMBERS = ("bct-scienceworld-seed43", "bct-scienceworld-seed44")
# the three trainings of the colour-wheel recipe and of the recipe now (`recent=5`), kept so that their test passes
# and ensembles need no retraining; and the recipe now's three on data made the same every time (`fixeddata`: the
# trainings a user repeats on the same data)
RECIPES = ("colours", "recent5", "fixeddata")
CANDIDATES = tuple(f"bct-scienceworld-{recipe}-seed{s}" for recipe in RECIPES for s in (42, 43, 44))
# each released agent, a game it plays, and how it plays there (the settings its row was measured with); the
# ScienceWorld agent plays as the three trainings it was released with, which loads each of them
RELEASED = {
    "bct-twx": ("twc", ["protocol=tales"]),
    "bct-scienceworld": (
        "scienceworld-find-plant",
        [
            "agent=t5-scienceworld",  # the recipe's way of playing (conf/agent/t5-scienceworld.yaml)
            "protocol=tales",
            f"agent.ensemble=[{','.join(f'checkpoints/{m}' for m in MEMBERS)}]",
        ],
    ),
}


@pytest.mark.parametrize("name", [*RELEASED, *MEMBERS, *CANDIDATES])
def test_a_released_agent_is_a_whole_checkpoint_with_its_model_card(name):
    folder = ROOT / "checkpoints" / name
    _, _, run = load_checkpoint(folder)  # a finished bct checkpoint, or a one-line error
    assert run["status"] == "done"
    card = (folder / "README.md").read_text()
    assert f"checkpoint=checkpoints/{name}" in card
    assert weights_fingerprint(folder)


@pytest.mark.slow
@pytest.mark.parametrize("name", RELEASED)
def test_a_released_agent_plays_one_episode_as_cloned(name, cli, tmp_path):
    game, settings = RELEASED[name]
    r = cli(
        "bct.evaluate", f"checkpoint=checkpoints/{name}", f"+game={game}", "fold=test", "num_variations=1", *settings,
        f"results_dir={tmp_path}", "progress=false",
    )  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    [results] = tmp_path.rglob("results.json")
    res = json.loads(results.read_text())
    assert res["complete"] and res["num_variations"] == 1 and res["trained"]
    assert len(res["settings"].get("ensemble", [])) == sum(f"checkpoints/{m}" in " ".join(settings) for m in MEMBERS)


def test_a_released_agent_is_offered_the_modules_it_was_trained_with_not_those_added_since():
    """The lever row's trainings came before the tertiary paints' colour wheel: they play that task without it, as
    their rows were measured; the recipe now's trainings have the wheel."""
    from bct.agents.t5_checkpoint import load_agent
    from bct.worlds.registry import as_trained, get_game, trained_games

    tertiary = get_game("scienceworld-chemistry-mix-paint-tertiary-color")
    assert tertiary.module == "colours"
    assert load_agent(str(ROOT / "checkpoints" / "bct-scienceworld"), tertiary).game.module == ""
    assert load_agent(str(ROOT / "checkpoints" / "bct-scienceworld-recent5-seed42"), tertiary).game.module == "colours"
    # a run of every module in every game (modules=all): each game it trained on is played as the registry has it
    _, _, run = load_checkpoint(ROOT / "checkpoints" / "bct-twx")
    assert run["settings"]["modules"] == "all"
    assert all(as_trained(g, run["settings"]) == g for g in trained_games(run["settings"]))


def test_a_model_card_says_how_the_agent_is_played_and_how_much_data_each_game_had():
    """A ScienceWorld agent is played by writing its commands (its card once said `rank`, its preset's default), and
    the recipe's games had 20 to 60 training games each, not the one number of `num_games`."""
    from bct.reports.share import model_card

    run = json.loads((ROOT / "checkpoints" / "bct-scienceworld-fixeddata-seed42" / "bct_config.json").read_text())
    card = model_card(
        "bct-scienceworld-fixeddata-seed42", run, [], Path("checkpoints/bct-scienceworld-fixeddata-seed42")
    )
    assert "decoding at evaluation: generate" in card
    assert "gold walkthroughs of 20-60 (per game" in card
    twx = json.loads((ROOT / "checkpoints" / "bct-twx" / "bct_config.json").read_text())
    assert "decoding at evaluation: generate" not in model_card("bct-twx", twx, [], Path("checkpoints/bct-twx"))


def test_a_model_card_plays_the_recipe_by_its_agent_preset_on_the_games_it_trained_on():
    """The card's command names `agent=t5-scienceworld` rather than its eight settings one by one (and what a pass
    changed on top of it), and lists no games where `checkpoint=...` alone plays those it was measured on."""
    from bct.reports.share import ways
    from bct.worlds.registry import trained_games

    run = json.loads((ROOT / "checkpoints" / "bct-scienceworld-fixeddata-seed42" / "bct_config.json").read_text())
    recipe = dict(num_beams=8, untried=True, skip_idle=True, rerank=True, decisive_per_life=True)
    recipe |= dict(answer_questions=True, decisive_best_only=True, widen=16, decoding="generate")

    def played(fold: str, **changed) -> list[dict]:
        return [
            {
                **g.record(),
                "fold": fold,
                "avg_score": 0.9,
                "settings": {"protocol": "tales", "agent_config": recipe | changed},
            }
            for g in trained_games(run["settings"])
        ]

    summary, command = ways([*played("test"), *played("dev", widen=0)], run, Path("checkpoints/it"))
    assert command.endswith("checkpoints/it fold=test num_variations=5 protocol=tales agent=t5-scienceworld")
    assert "| dev | tales | 1 | 30 | 0.900 | agent=t5-scienceworld agent.widen=0 |" in summary
    _, plain = ways(played("test", num_beams=16, untried=False, skip_idle=False, rerank=False), run, Path("it"))
    # half its settings changed back: fewer words without the preset
    assert "agent=" not in plain and "agent.decisive_per_life=true" in plain
