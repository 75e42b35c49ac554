"""One agent for every game: several games in one run, every module offered in every game (modules=all),
TALES's settings as presets, and a multi-game checkpoint evaluated game by game."""

import json

import pytest

from bct.config.cli import check_overrides
from bct.config.runs import mixture
from bct.core.errors import UserError
from bct.jobs.evaluation import module_use
from bct.worlds.gold import gold_modules, play_gold
from bct.worlds.registry import GAMES, WORLDS, expand_games, get_game, modules_label, modules_of, open_game
from bct.worlds.twx.games import TALES_ENVS, TWX_GAMES

TINY = ["model=t5-tiny-scratch", "epochs=1", "num_games=3", "modules=all"]


def test_all_modules_offers_every_module_once_beside_the_games_memory():
    twc = get_game("twc").with_memory(True)
    assert modules_of(twc, "all") == ["kb-twc", "calc", "navigation", "sortquantity", "memory-twc"]
    assert modules_of(get_game("coin"), "all") == [*WORLDS["twx"].all_modules, "memory-twx"]
    # a game's own navigator is kept and the other one, which speaks the same verbs, is left out
    own = modules_of(get_game("mapreader-directions"), "all")
    assert own[0] == "navigation-directions" and "navigation" not in own
    assert modules_label("all") == "allmodules" and modules_label(True) == "modules"


def test_modules_all_turns_the_memory_on_unless_told_otherwise(train_config):
    assert [g.name for g in train_config("+game=twc", "modules=all").trained()] == ["twc-memory"]
    assert [g.name for g in train_config("+game=twc", "modules=all", "memory=false").trained()] == ["twc"]
    with pytest.raises(UserError, match="modules=maybe: choose true or false or all"):
        train_config("+game=twc", "modules=maybe")


def test_games_all_is_every_registered_game_and_names_are_checked():
    assert expand_games("all") == list(GAMES)
    assert expand_games(["twc-easy", "coin"]) == ["twc", "coin"]
    with pytest.raises(UserError, match="unknown game 'chess'"):
        expand_games(["twc", "chess"])


def test_the_mix_caps_and_weighs_each_game_and_names_a_stranger(train_config):
    cfg = train_config("games=[twc,coin,cookingworld]", "model=t5-cpu-scratch", "modules=all", "+mix.twc.passes=15")
    mix = mixture(cfg, cfg.trained())
    # the preset's games per game (coin 500, cookingworld 300), the twc weight given, one pass otherwise
    assert mix == {
        "twc-memory": {"num_games": 1000, "passes": 15},
        "coin": {"num_games": 500, "passes": 1},
        "cookingworld": {"num_games": 300, "passes": 1},
    }
    with pytest.raises(UserError, match="mix.sorting: not a game of this run"):
        bad = train_config("games=[twc,coin]", "+mix.sorting.passes=2")
        mixture(bad, bad.trained())
    with pytest.raises(UserError, match="name one game"):
        train_config("+game=twc", "games=[twc,coin]").trained()


def test_a_per_game_mix_setting_is_taken_as_the_docs_write_it(train_config):
    """`mix.twc.passes=2` needs no `+` (Hydra would refuse a key the empty map lacks), sets a game an
    experiment's map already has, and takes game names with dashes."""
    for given in ("mix.twc.passes=2", "+mix.twc.passes=2", "++mix.twc.passes=2"):
        assert train_config("games=[twc,coin]", given).mix["twc"].passes == 2
    assert train_config("+experiment=generalist", "mix.twc.passes=3").mix["twc"].passes == 3
    cfg = train_config("games=[twc,cookingworld-tales]", "mix.cookingworld-tales.num_games=7")
    assert cfg.mix["cookingworld-tales"].num_games == 7
    with pytest.raises(UserError, match="unknown setting 'mix.twc.bogus'"):
        train_config("games=[twc,coin]", "mix.twc.bogus=2")


def test_tales_settings_are_presets_of_the_registry():
    assert len(TALES_ENVS) == 16
    for preset in TALES_ENVS.values():
        get_game(preset)  # every one resolves
    assert get_game("twc-tales") == get_game("twc")  # TALES's TWC is TWX's default easy level
    mem = get_game("simonsays-memory-verbose-tales-50").param_values
    assert mem == {"gameLength": 50, "numDistractors": 4, "memorization": 1, "verbose": 1}
    assert get_game("mapreader-tales").param_values["numLocations"] == 2


def test_module_calls_are_counted_and_calls_to_modules_the_game_never_needs_are_wasted():
    episodes = [
        {"history": [{"from_module": True, "module": "kb-twc"}, {"from_module": False}]},
        {"history": [{"from_module": True, "module": "calc"}, {"from_module": True, "module": "kb-twc"}]},
    ]
    assert module_use(episodes, {"kb-twc"}) == {"module_calls": {"calc": 1, "kb-twc": 2}, "wasted_module_calls": 0.3333}
    assert module_use([], {"kb-twc"})["wasted_module_calls"] == 0.0


def test_game_params_without_a_game_take_the_checkpoints_or_are_refused(tmp_path):
    with pytest.raises(UserError, match=r"name the game it applies to, e\.g\. \+game="):
        check_overrides(["game.params.numLocations=3"])
    one, two = tmp_path / "one", tmp_path / "two"
    for folder, settings in [
        (one, {"game": "mapreader", "memory": False, "modules": True}),
        (two, {"games": [{"game": "twc", "memory": True}, {"game": "coin", "memory": True}], "modules": "all"}),
    ]:
        folder.mkdir()
        (folder / "bct_config.json").write_text(json.dumps({"status": "done", "settings": settings}))
    argv = check_overrides([f"checkpoint={one}", "game.params.numLocations=5"])
    assert "+game=mapreader" in argv and "game.params.numLocations=5" in argv
    with pytest.raises(UserError, match=r"trained on 2 games \(twc, coin\); name the one it applies to"):
        check_overrides([f"checkpoint={two}", "game.params.numLocations=3"])


@pytest.mark.slow
@pytest.mark.parametrize("game", [*TWX_GAMES, *sorted(set(TALES_ENVS.values()))])
def test_gold_paths_with_every_module_offered_score_one_and_call_only_what_the_game_needs(game):
    g = get_game(game).with_memory(True)
    with open_game(g, "all") as env:
        for seed in (0, 1):
            traj = play_gold(env, seed, "train", "all")
            assert traj.ok, (game, seed, traj.error)
            offered = {m.name for m in env.modules}
            assert set(modules_of(g, "all")) == offered
            called = {env.stack.owner(a).name for a in traj.actions if env.stack.owner(a)}
            assert called <= gold_modules(g, "all"), (game, called)


@pytest.mark.slow
def test_oracle_and_random_with_every_module_offered(eval_config):
    from bct.jobs.evaluation import evaluate

    out = evaluate(eval_config("agent=oracle", "+game=arithmetic", "modules=all", "num_variations=3", "fold=test"))
    r = json.loads((out / "results.json").read_text())
    # arithmetic offers the knowledge base, navigator, sorter and memory too: its gold path needs none of them
    assert r["avg_score"] == 1.0 and r["modules"] == "all" and r["memory"] is True
    assert r["module_calls"] == {"calc": 3} and r["wasted_module_calls"] == 0.0
    out = evaluate(eval_config("agent=random", "+game=twc", "modules=all", "num_variations=5", "fold=test"))
    r = json.loads((out / "results.json").read_text())
    assert set(r["module_calls"]) - {"kb-twc", "memory-twc"}  # it calls modules twc never needs
    assert 0 < r["wasted_module_calls"] <= 1


@pytest.mark.slow
def test_one_run_trains_on_several_games_and_evaluate_plays_each(train_config, eval_config, tmp_path):
    from bct.config.runs import read_run
    from bct.jobs.evaluation import evaluate_all
    from bct.seq2seq.training import train

    run = train(train_config("games=[twc,arithmetic]", *TINY, "+mix.twc.passes=3"))
    assert run.name.startswith("2games-allmodules-t5-tiny-scratch-ep1-")
    record = read_run(run)
    s = record["settings"]
    assert [g["game"] for g in s["games"]] == ["twc-memory", "arithmetic-memory"] and s["modules"] == "all"
    assert s["mix"] == {"twc-memory": {"num_games": 3, "passes": 3}, "arithmetic-memory": {"num_games": 3, "passes": 1}}
    for game in ("twc-memory", "arithmetic-memory"):
        assert (tmp_path / "data" / game / "allmodules" / "train.jsonl").exists()
    outs = evaluate_all(eval_config(f"checkpoint={run}", "num_variations=2"))
    played = [json.loads((o / "results.json").read_text()) for o in outs]
    assert [r["game"] for r in played] == ["twc-memory", "arithmetic-memory"]
    assert len({o.parent for o in outs}) == 2 and all(r["num_variations"] == 2 for r in played)
    # a game the run never saw, at TALES's setting
    (out,) = evaluate_all(eval_config(f"checkpoint={run}", "+game=coin-tales", "num_variations=2"))
    assert json.loads((out / "results.json").read_text())["game"] == "coin-tales"


def test_the_table_puts_the_one_agent_beside_the_specialists_and_computes_tales_aggregate(tmp_path):
    from bct.reports.tables import main

    def write(name, game, score, agent="t5", games=None, history_scores=None, **r):
        folder = tmp_path / name / "test"
        folder.mkdir(parents=True)
        trained = {"games": games} if games else {}
        base = {"fold": "test", "agent": agent, "avg_steps": 9.0, "avg_env_steps": 5.0, "modules": "all"}
        (folder / "results.json").write_text(
            json.dumps({**base, "memory": True, "game": game, "avg_score": score, "trained": trained, **r})
        )
        if history_scores:  # one episode whose score rose to its best and fell back
            episode = {"seed": 20000, "score": score, "history": [{"score": s} for s in history_scores]}
            (folder / "histories.jsonl").write_text(json.dumps(episode) + "\n")

    both = ["twc-memory", "coin"]
    write("g-twc", "twc-memory", 1.0, games=both, game_preset="twc", game_params={})
    write("g-coin", "coin-tales", 0.5, games=both, history_scores=[0.0, 1.0, 0.5])
    write("s-twc", "twc", 0.98, modules=True, memory=False)
    write("r-twc", "twc-memory", 0.6, agent="random", game_preset="twc", game_params={})
    # the one agent through TALES's own loop: a column of its own, kept out of bct's cells
    tales = {"protocol": "tales", "num_variations": 5, "settings": {"protocol": "tales"}}
    write("g-coin-tales", "coin-tales", 0.8, games=both, **tales)
    main([str(tmp_path), "--only", "twx-table"])
    text = (tmp_path / "twx-table.md").read_text()
    rows = {line.split(" | ")[0].strip("| "): line for line in text.splitlines() if line.startswith("| ")}
    assert rows["twc"].startswith("| twc | 1.00 (5.0) | 0.98 (5.0) |  | 0.60 (5.0) |")
    assert rows["TWXTextWorldCommonsense (twc-tales)"].startswith("| TWXTextWorldCommonsense (twc-tales) | 1.00 (5.0)")
    assert rows["TWXCoinCollector (coin-tales)"].startswith("| TWXCoinCollector (coin-tales) | 0.50 (5.0)")
    assert "| 0.80 (5 runs) | about 1.00 |" in rows["TWXCoinCollector (coin-tales)"]
    assert "the one agent (over 1 of 16 environments): 0.800." in text
    # over the two environments played: final score (1.0 + 0.5) / 2; best in play (1.0 + 1.0) / 2
    assert "(over 2 of 16 environments), the one agent: 0.750 by the final score" in text
    assert "1.000 by the best score reached during play" in text and "claude-3.7-sonnet 0.958" in text


@pytest.mark.slow
def test_the_command_line_names_a_parameter_without_its_game_in_one_line(cli, one_line):
    one_line(cli("bct.evaluate", "game.params.numLocations=3"), "name the game it applies to, e.g. +game=")
