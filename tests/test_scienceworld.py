"""ScienceWorld as a second world: its 30 tasks in the registry, their folds, their gold paths replayed to
score 1.0 through bct's environment interface, simplifications as parameters, an unknown task's one line."""

import json
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

from bct.core.errors import UserError
from bct.worlds.gold import play_gold
from bct.worlds.registry import GAMES, expand_games, fold_seeds, get_game, open_game, world_of
from bct.worlds.scienceworld.games import VARIATIONS, simplifications

SW = [name for name in GAMES if name.startswith("scienceworld-")]


def test_the_thirty_tasks_are_games_and_scienceworld_names_them_all():
    assert len(SW) == 30 and "scienceworld-boil" in SW and "scienceworld-mendelian-genetics-known-plant" in SW
    assert expand_games(["scienceworld"]) == SW
    assert expand_games(["twc", "scienceworld"]) == ["twc", *SW]
    assert set(SW) <= set(expand_games("all"))
    # the same 30 with the searches' demonstrations where a task has one (boil's tour, the paints' pairs)
    searched = expand_games(["scienceworld-search"])
    assert len(searched) == 30 and "scienceworld-find-animal" in searched
    assert {"scienceworld-boil-moved1-search1", "scienceworld-chemistry-mix-paint-secondary-color-search1"} <= set(
        searched
    )
    assert [get_game(n).preset or n for n in searched] == SW
    # the tertiary paints keep the simulator's paths there (their search taught the secondary's agent yellow pairs);
    # their search stays a game of its own
    assert "scienceworld-chemistry-mix-paint-tertiary-color" in searched
    assert get_game("scienceworld-chemistry-mix-paint-tertiary-color-search1").param_values["search"] == 1
    # both melting points are read until a reading settles them (measures.py, `settled_reading`)
    assert "scienceworld-measure-melting-point-known-substance-search1" in searched
    # the known plant learns from its answer: no experiment, so no search (searches.py, `answered`)
    assert "scienceworld-mendelian-genetics-known-plant-answer1" in searched
    assert "answer" not in get_game("scienceworld-mendelian-genetics-unknown-plant").accepts
    boil = get_game("scienceworld-boil")
    assert world_of(boil).name == "scienceworld" and boil.world_game == "boil" and boil.params == ""


def test_folds_are_the_tasks_own_variations_train_then_dev_then_test():
    boil = get_game("scienceworld-boil")  # 14 train, 7 dev, 9 test
    assert fold_seeds(boil, "train", 14) == list(range(14))
    assert fold_seeds(boil, "test", 9)[-1] == 29
    dev = fold_seeds(boil, "dev", 2)
    assert len(set(dev)) == 2 and all(14 <= s < 21 for s in dev)
    # drawn over the fold, not its first n (a task's first variations repeat one thing: test-conductivity's
    # first 20 train variations all test aluminum foil)
    wires = fold_seeds(get_game("scienceworld-test-conductivity"), "train", 20)
    assert len(set(wires)) == 20 and wires == sorted(wires) and max(wires) > 225 and wires != list(range(20))
    assert fold_seeds(boil, "test", 10) == list(range(21, 30))  # a fold with fewer: all of it
    with pytest.raises(UserError, match="num_variations=0: choose 1 to 9"):
        fold_seeds(boil, "test", 0)
    assert sum(VARIATIONS["inclined-plane-friction-named-surfaces"]) == 1386


def test_an_unknown_task_is_one_line_naming_the_closest():
    with pytest.raises(UserError, match="unknown game 'scienceworld-boill'; did you mean 'scienceworld-boil'"):
        get_game("scienceworld-boill")
    with pytest.raises(UserError, match="did you mean 'scienceworld-find-plant'"):
        expand_games(["scienceworld-find-plants"])


def test_simplifications_are_parameters_default_none():
    boil = get_game("scienceworld-boil")
    assert simplifications(boil) == ""
    assert simplifications(boil.with_params({"easy": 1})) == "easy"
    assert simplifications(boil.with_params({"openDoors": 1, "teleportAction": 1})) == "openDoors,teleportAction"
    circuit = get_game("scienceworld-power-component").with_params({"easy": 1})
    assert "noElectricalAction" not in simplifications(circuit) and "openDoors" in simplifications(circuit)
    with pytest.raises(UserError, match="game.params.noElectricalAction: scienceworld-power-component has no such"):
        get_game("scienceworld-power-component").with_params({"noElectricalAction": 1})


def test_a_variant_s_name_is_a_game_name_so_a_list_of_games_can_hold_it():
    from bct.worlds.registry import expand_games

    paint = "scienceworld-chemistry-mix-paint-secondary-color"
    names = expand_games([f"{paint}-search1", "mapreader-numLocations30-maxDistanceApart8", "scienceworld-boil"])
    assert names == [f"{paint}-search1", "mapreader-maxDistanceApart8-numLocations30", "scienceworld-boil"]
    g = get_game(f"{paint}-search1")
    assert g == get_game(paint).with_params({"search": 1}) and g.preset == paint  # its records read it back
    with pytest.raises(
        UserError, match="unknown game 'scienceworld-find-animal-search1'; did you mean 'scienceworld-find-animal'"
    ):
        get_game("scienceworld-find-animal-search1")  # find-animal has no search
    with pytest.raises(UserError, match="accepts a whole number from 0 to 1"):
        get_game(f"{paint}-search2")


@pytest.mark.slow
def test_the_variation_counts_are_the_packages():
    from scienceworld import ScienceWorldEnv

    env = ScienceWorldEnv("", envStepLimit=100)
    try:
        for task, (train, dev, test) in VARIATIONS.items():
            env.load(task, 0, "")
            got = [list(env.get_variations_train()), list(env.get_variations_dev()), list(env.get_variations_test())]
            assert got == [
                list(range(train)),
                list(range(train, train + dev)),
                list(range(train + dev, train + dev + test)),
            ]
    finally:
        env.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    "game",
    [
        "scienceworld-find-plant",
        "scienceworld-lifespan-longest-lived",
        "scienceworld-power-component",
        "scienceworld-use-thermometer",
        "scienceworld-chemistry-mix",
    ],
)
def test_gold_paths_replay_to_score_one_on_two_train_variations(game):
    g = get_game(game)
    with open_game(g, False, list_actions=False) as env:
        for seed in fold_seeds(g, "train", 2):
            traj = play_gold(env, seed, "train", False)
            assert traj.ok and traj.steps[-1].success and traj.steps[-1].done, traj.error
            assert traj.steps[0].task.startswith("Task Description:") and " is called the " in traj.steps[0].look
            # every gold command names only things its step mentions: the check an agent that writes its
            # commands makes never turns the right one away
            for step, after in zip(traj.steps, traj.steps[1:]):
                text = " ".join((step.observation, step.look, step.inventory))
                assert world_of(g).knows(after.action, text), (after.action, text)


@pytest.mark.slow
def test_gold_steps_the_game_answers_as_idle_are_dropped_and_the_path_without_them_still_scores_one():
    # chemistry-mix's simulator path pours a cup into itself ("You can't move something into itself") and opens
    # doors that stand open: a cloned agent learns those refused steps; the kept path is played again without them
    g = replace(get_game("scienceworld-chemistry-mix"), memory=False)
    idle = world_of(g).idle_answers
    with open_game(g, False, list_actions=False) as env:
        env.reset(9, "train")  # a train variation whose path holds both kinds
        gold = env.gold_actions()
        traj = play_gold(env, 9, "train", False)
    assert traj.ok and traj.steps[-1].success, traj.error
    assert traj.dropped >= 2 and traj.idle_kept == 0
    assert len(traj.actions) <= len(gold) - traj.dropped  # those steps left out (the game may end before the last)
    assert not [s.observation for s in traj.steps[1:] if any(re.fullmatch(a, s.observation.strip()) for a in idle)]
    assert all(not re.fullmatch(a, "The stove appears broken, and can't be activated or deactivated.") for a in idle)


def test_a_scienceworld_step_says_what_the_game_says():
    g = get_game("scienceworld-find-living-thing")
    with open_game(g, False) as env:
        step = env.reset(seed=fold_seeds(g, "dev", 1)[0], fold="dev")
        assert len(step.valid_actions) > 100 and "look around" in step.valid_actions
        assert 0.0 <= step.score < 1.0 and not step.done and "In your inventory" in step.inventory  # partial credit
        with pytest.raises(UserError, match="variation 0 is not in its dev fold"):
            env.reset(seed=0, fold="dev")
        # its JVM runs with the capped heap beside bct's own option (no perf data): ten uncapped took 2-3 GB
        # each and ran a 23 GB machine out of memory; play's JVM keeps the default hash codes (data's: below)
        environ = Path(f"/proc/{env.env.sw._gateway.java_process.pid}/environ").read_bytes().split(b"\0")
        tool = next(o for o in environ if o.startswith(b"JAVA_TOOL_OPTIONS="))
        assert b"-Xmx1g" in tool and b"-XX:-UsePerfData" in tool and b"hashCode" not in tool


@pytest.mark.slow
def test_data_s_games_give_a_variation_one_gold_path_and_look_on_every_load_in_any_jvm():
    """The default JVM orders a room's things by its hash codes, which follow its history: a variation loaded again
    can give another gold path (chemistry-mix's variation 9: three in six loads). Data's environments do not, so
    data made twice is the same data; the option goes with their JVM alone."""
    from bct.worlds.scienceworld.env import ScienceWorldEnv

    g = get_game("scienceworld-chemistry-mix")

    def loads(env) -> list[tuple]:
        return [(env.reset(seed, "train").look, tuple(env.gold_actions())) for seed in (9, 3, 9, 9)]

    def tool_options(env) -> bytes:
        environ = Path(f"/proc/{env.sw._gateway.java_process.pid}/environ").read_bytes().split(b"\0")
        return next(o for o in environ if o.startswith(b"JAVA_TOOL_OPTIONS="))

    played = []
    for _ in range(2):
        env = ScienceWorldEnv(g, list_actions=False, reproducible=True)
        try:
            assert b"-XX:hashCode=2" in tool_options(env)
            played.append(loads(env))
        finally:
            env.close()
    first, again = played
    assert first == again and first[0] == first[2] == first[3] and first[0] != first[1]
    assert "hashCode" not in os.environ.get("JAVA_TOOL_OPTIONS", "")  # the next JVM launched plays by default
    assert world_of(g).version()["jvm"] == "-XX:+UnlockExperimentalVMOptions -XX:hashCode=2"  # data's manifests


@pytest.mark.slow
def test_an_unknown_task_on_the_command_line_is_one_line(tmp_path, cli, one_line):
    r = cli("bct.generate", "+game=scienceworld-boill", f"out_dir={tmp_path}", "progress=false")
    one_line(r, "unknown game 'scienceworld-boill'; did you mean 'scienceworld-boil'?")


@pytest.mark.slow
def test_one_jvm_plays_several_tasks_in_turn_each_to_its_gold_score(monkeypatch):
    """An evaluation of many tasks starts its JVMs once: a ScienceWorld environment switches task between
    episodes, and each episode is the task it was asked for (the oracle reaches 1.0 in each)."""
    import bct.agents.rollout as ro
    from bct.agents import OracleAgent

    opened = []
    real = ro.open_game
    monkeypatch.setattr(ro, "open_game", lambda game, *a, **k: opened.append(game.name) or real(game, *a, **k))
    games = [get_game(f"scienceworld-{t}").with_memory(False) for t in ("lifespan-longest-lived", "find-living-thing")]
    jobs = [ro.EpisodeRequest(g, seed, g.step_limit, None) for seed in (0, 1) for g in games]
    agent = OracleAgent(games[0], False)
    try:
        results = ro.play(agent, jobs, "train", False, batch_size=1)
    finally:
        agent.close()
    assert [r.score for r in results] == [1.0] * 4 and [r.seed for r in results] == [0, 0, 1, 1]
    assert opened == [games[0].name]  # one JVM, switched from task to task
    assert "longest" in results[0].history[0]["prompt"] and "living thing" in results[1].history[0]["prompt"]


@pytest.mark.slow
def test_a_tiny_model_trained_on_two_tasks_plays_both(tmp_path, train_config):
    """One checkpoint of two ScienceWorld tasks, evaluated with no game named: a results folder for each
    task, its episodes played by writing actions (no valid-action list read) through the same rollout."""
    import json

    from bct.config.settings import EvaluateSettings
    from bct.jobs.evaluation import evaluate_all
    from bct.seq2seq.training import train

    games = ["scienceworld-lifespan-longest-lived", "scienceworld-find-non-living-thing"]
    tiny = ["modules=false", "entities=text", "model=t5-tiny-scratch", "epochs=2", "num_games=3"]
    run = train(train_config(f"games=[{','.join(games)}]", *tiny))
    outs = evaluate_all(
        EvaluateSettings(
            checkpoint=str(run), num_variations=2, step_limit=12, results_dir=str(tmp_path / "results"), progress=False
        )
    )
    assert [json.loads((out / "results.json").read_text())["game"] for out in outs] == games
    for out in outs:
        r = json.loads((out / "results.json").read_text())
        assert r["num_variations"] == 2 and r["settings"]["decoding"] == "generate" and 0.0 <= r["avg_score"] <= 1.0
        episodes = [json.loads(line) for line in (out / "histories.jsonl").read_text().splitlines()]
        assert sorted(e["seed"] for e in episodes) == fold_seeds(get_game(r["game"]), r["fold"], 2)
        assert all(e["history"] for e in episodes)


@pytest.mark.slow
def test_the_one_command_goes_from_nothing_to_the_per_task_table_on_one_task(tmp_path):
    """runscripts/scienceworld.sh in reduced form (one task, two train variations, a tiny model, one test variation):
    data, an agent, its play beside the oracle and random, and the table, each where the settings say."""
    import os
    import subprocess

    script = Path(__file__).resolve().parents[1] / "runscripts" / "scienceworld.sh"
    task = "scienceworld-power-component"  # its mix entry (three passes an epoch) is kept; the others are dropped
    small = {"TASKS": task, "VARIATIONS": "1", "STEPS": "5", "TALES_SEEDS": "1"}  # dev only (FOLDS' default)
    where = {k: str(tmp_path / k.lower()) for k in ("RESULTS", "DATA", "CHECKPOINTS")}
    recipe = ["num_games=2", "epochs=1", "model=t5-tiny-scratch"]  # Hydra overrides of the recipe
    r = subprocess.run(
        ["bash", str(script), *recipe], env={**os.environ, **small, **where}, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert [p.name for p in (tmp_path / "data").glob(f"{task}*/*/train.jsonl")] == ["train.jsonl"]
    from bct.seq2seq.model import load_checkpoint

    _, _, run = load_checkpoint(tmp_path / "checkpoints" / "scienceworld-nomemory")
    (trained,) = [g["game"] for g in run["settings"]["games"]]
    assert trained.startswith(task) and run["settings"]["mix"][trained]["passes"] == 3
    results = tmp_path / "results"
    table = (results / "scienceworld-table.md").read_text()
    assert "| power-component |" in table and "oracle" in table and "random" in table
    assert (results / "report.html").is_file()
    # one model plays its candidates reranked by their plain likelihood with the choice's levers (agent=t5-scienceworld),
    # filed under the run's name for both, on dev alone, by bct's loop and by TALES's; the oracle and random alike
    played = sorted(
        p.parent.name.split("-")[0] for p in results.glob("seed42/scienceworld-nomemory-rerank*/*/results.json")
    )
    assert played == ["dev", "dev"], r.stdout[-2000:]
    loops = [json.loads(p.read_text()).get("protocol") for p in results.glob("*/*/dev-*/results.json")]
    assert sorted(map(str, loops)) == ["None"] * 3 + ["tales"] * 3  # the agent, oracle and random, each both ways
    assert (
        "| scienceworld-nomemory-rerank-per-life-answers-best-decisive-widen16 | "
        in (results / "recipes.md").read_text()
    )
    assert "done in" in r.stdout


def test_the_per_task_table_has_a_row_per_task_played_three_scores_and_the_published_means(tmp_path):
    import json

    from bct.worlds.scienceworld.report import scienceworld_table

    def row(run, agent, game, score, best, late=None):
        """An episode reaching `best` in play and ending at `score`; with `late`, it reaches `late` only after
        100 game actions (150 module calls among them do not count)."""
        path = tmp_path / run / game
        path.mkdir(parents=True)
        history = [{"score": 0.0}, {"score": best}, {"score": score}]
        if late is not None:
            calls = [{"score": best, "from_module": True}] * 150
            history = history[:2] + calls + [{"score": best}] * 98 + [{"score": late}, {"score": score}]
        (path / "histories.jsonl").write_text(json.dumps({"seed": 1, "history": history}) + "\n")
        return {"run": run, "agent": agent, "game": game, "avg_score": score, "avg_steps": 3.0, "path": str(path)}

    rows = [
        row("sw-run", "t5", "scienceworld-boil", 0.5, 0.75),
        row("sw-run-on-scienceworld-melt", "t5", "scienceworld-melt", 1.0, 0.5, late=1.0),
        row("random-scienceworld-boil-nomodules", "random", "scienceworld-boil", 0.0, 0.1),
        row("sw-nomemory-on-scienceworld-boil-nomemory", "t5", "scienceworld-boil-nomemory", 0.25, 0.25),
        row("oracle", "oracle", "twc", 1.0, 1.0),  # another world's: left out
    ]
    md = scienceworld_table(rows)
    lines = md.splitlines()
    assert lines[0].startswith("| task | sw-run: final (best in play; TALES)") and "random" in lines[0]
    assert sum(line.startswith("|") for line in lines) == 2 + 2 + 1  # head, rule, the 2 tasks played, the mean
    assert "| boil | 0.50 (0.75; 0.75), 3 | 0.25 (0.25; 0.25), 3 | 0.00 (0.10; 0.10), 3 |" in md  # the baseline's
    assert lines[0].index("sw-nomemory") < lines[0].index("random")
    assert "| melt | 1.00 (1.00; 0.50), 3 |" in md  # its best came after TALES's 100 game steps
    assert "| mean | **0.750 (0.875; 0.625)**, 2 tasks" in md and "SwiftSage" in md and "0.940" in md


def test_scienceworld_names_are_the_things_its_sentences_list_and_the_task_names():
    """What `entities=names` numbers in a ScienceWorld prompt: rooms, each item a look lists (and what a
    substance is called), the task's things; never the agent or a generic word."""
    from bct.worlds.scienceworld.text import names

    task = (
        "Your task is to measure the melting point of tin, which is located around the kitchen. "
        "If the melting point of tin is above 150.0 degrees celsius, focus on the orange box."
    )
    look = (
        "This room is called the kitchen. In it, you see:   the agent  a substance called air  a counter. On "
        "the counter is: a bowl (containing a red apple, a banana), a drawer.  a oven, which is turned off.  "
        "a picture You also see:  A door to the hallway (that is open)"
    )
    found = names(task + " </s> LOOK " + look)
    for name in (
        "kitchen",
        "hallway",
        "tin",
        "orange box",
        "air",
        "counter",
        "bowl",
        "red apple",
        "drawer",
        "oven",
        "picture",
    ):
        assert name in found, name
    assert not {"agent", "melting point", "door", "substance"} & set(found)
    assert not [n for n in found if "you" in n.split()]  # the last item before "You also see" ends there


@pytest.mark.slow
def test_scienceworld_limits_count_game_actions_and_a_loop_of_recalls_still_stops():
    """Module calls pass no time in the game: 3 game actions with recalls between reach a step limit of 3; the
    same game action between recalls is a loop (repeat limit); recalls alone stop at twice the limit."""
    from bct.agents.base import Agent, Decision
    from bct.agents.rollout import rollout

    class Scripted(Agent):
        name, reads_valid_actions = "scripted", False

        def __init__(self, game, script):
            super().__init__(game, False)
            self.script = script

        def act(self, batch):
            return [Decision(self.script(ob.actions)) for ob in batch]

    g = get_game("scienceworld-find-living-thing")
    seeds = fold_seeds(g, "test", 1)
    alternate = Scripted(g, lambda done: "recall progress" if len(done) % 2 else "look around")
    [r] = rollout(alternate, g, "test", seeds, False, batch_size=1, step_limit=3, repeat_limit=None)
    assert (r.env_steps, r.module_steps, r.stop) == (3, 2, "step_limit")
    [r] = rollout(alternate, g, "test", seeds, False, batch_size=1, step_limit=50, repeat_limit=3)
    assert (r.env_steps, r.stop) == (3, "repeats")
    recalls = Scripted(g, lambda done: "recall progress")
    [r] = rollout(recalls, g, "test", seeds, False, batch_size=1, step_limit=4, repeat_limit=None)
    assert (r.env_steps, r.module_steps, r.stop) == (0, 8, "step_limit")


def test_a_written_command_is_known_where_every_thing_it_names_is_mentioned():
    """ScienceWorld's check of a written command against the step's text: names in sight pass, in the longer
    forms its parser takes (in inventory, a part, a life stage); a name never seen, or two names run together,
    does not, nor one that starts as a form but fills none (a degenerate "focus on2"); commands with nothing to
    name pass (the game or a module judges them)."""
    from bct.worlds.scienceworld.check import knows

    text = (
        "This room is called the greenhouse. In it, you see: a flower pot 8 (containing a peach tree in the adult "
        "stage), soil. A door to the hallway (that is open). In your inventory, you see: a thermometer, a battery, a "
        "metal pot (containing a substance called water), an orange wire"
    )
    for command in (
        "focus on flower pot 8",
        "move adult peach tree to flower pot 8",
        "use thermometer in inventory on substance in metal pot",
        "connect battery anode to orange wire terminal 1",
        "open door to hallway",
        "go to hallway",
        "look around",
        "wait1",
        "recall progress",
        "pour metal pot in flower pot 8",  # the gold chemistry paths' form
    ):
        assert knows(command, text), command
    # the game runs a name into the next sentence ("a wireits terminal 1"); a number answers its question
    assert knows("focus on wire in inventory", "In your inventory, you see: a wireits terminal 1 is connected to")
    # as the game writes it: a choice a line, its number and a tab before it
    asked = (
        "Ambiguous request: Please enter the number for the action you intended (or blank to cancel):\n"
        "0:\tmove soil (in flower pot 1, in greenhouse) to flower pot 2 (in greenhouse)\n"
        "1:\tmove soil (in flower pot 3, in greenhouse) to flower pot 2 (in greenhouse)"
    )
    assert knows("0", asked) and knows("1", asked) and not knows("2", asked) and not knows("3", asked)
    for command in (
        "focus on dove",
        "focus on flower pot 8 peach",
        "move peach tree to blue box",
        "go to kitchen",
        "focus on2",
        "move2 to blue box",
        "move thermometer",
        "move  to blue box",
        "move soil in inventory to flower pot 8",  # soil is in sight, not in the inventory
        "0",  # no ambiguous request to answer
        "focus on juvenile adult peach tree",  # a thing is at one life stage
        "focus on soil containing soil containing soil",  # a thing linked to itself: degenerate
    ):
        assert not knows(command, text), command
    # a thing at a life stage is at the stage the look shows it at: stages aside, "baby parrot" read as "parrot egg",
    # and an agent that focused on the baby training showed, where the egg lay, was refused and missed the egg's stage
    outside = "This outside location is called the outside. Here you see: a parrot egg, a baby wolf, a turtle egg"
    for command in ("focus on parrot egg", "focus on baby wolf", "focus on egg turtle in outside", "look around"):
        assert knows(command, outside), command
    for command in ("focus on baby parrot", "focus on wolf egg", "focus on adult turtle"):
        assert not knows(command, outside), command
    assert knows("focus on adult peach tree", text) and not knows("focus on seedling peach tree", text)


def test_an_agent_that_writes_sends_its_best_candidate_that_names_what_is_in_sight():
    from bct.agents.base import Observation
    from bct.agents.t5 import T5Agent
    from bct.agents.t5_choice import untried_setting
    from bct.data.representation import TextMap
    from bct.modules.stack import Step

    g = get_game("scienceworld-find-living-thing")
    look = "This room is called the outside. In it, you see: a frog egg, an axe. A door to the kitchen (that is open)"
    step = Step(
        task="Task Description: find a living thing.",
        observation="You move to the outside.",
        look=look,
        inventory="In your inventory, you see: an orange",
        valid_actions=[],
        score=0.1,
        done=False,
    )
    ob = Observation(g, "test", 0, False, step, prompt="... dove ...", actions=[])
    m, world = TextMap("", []), world_of(g)
    agent = T5Agent.__new__(T5Agent)  # the choice alone: no model
    agent.untried, agent._sent, agent._left = False, {}, {}
    write = lambda *a: agent._write(*a)[0]  # noqa: E731  (the command; the candidates it would send next aside)
    assert write(["focus on dove", "focus on frog egg", "look around"], m, ob, world) == "focus on frog egg"
    assert write(["focus on dove", "focus on blue jay"], m, ob, world) == "focus on dove"  # none: its best

    # untried: a command already sent at this very prompt is passed over (a loop), waiting is not
    agent.untried = True
    agent.start(g, "test", 0, False)
    agent._sent[g.name, "test", 0].update({((ob.prompt,), c) for c in ("focus on frog egg", "wait1", "pick up axe")})
    assert write(["focus on frog egg", "look around"], m, ob, world) == "look around"
    assert write(["wait1", "look around"], m, ob, world) == "wait1"
    # ... until it waited there as often as the gold paths ever do (world.patience): then a loop like any other
    agent._sent[g.name, "test", 0][(ob.prompt,), "wait1"] = world.patience
    assert write(["wait1", "look around"], m, ob, world) == "look around"
    assert write(["pick up axe"], m, ob, world) == "pick up axe"  # nothing else: the same again
    # all it wrote is a focus it already made (a second one would end the task): the world's neutral command
    assert write(["focus on frog egg"], m, ob, world) == world.neutral == "look around"
    # every candidate in sight sent here: an unsent one naming what is not breaks the loop, a focus never does
    assert write(["focus on frog egg", "focus on dove", "pick up blue jay"], m, ob, world) == "pick up blue jay"
    assert write(["focus on frog egg", "focus on dove"], m, ob, world) == "look around"
    # a focus already sent in the episode is not sent again at another prompt; other commands are
    elsewhere = Observation(g, "test", 0, False, step, prompt="... back in the kitchen ...", actions=[])
    assert write(["focus on frog egg", "look around"], m, elsewhere, world) == "look around"
    agent._sent[g.name, "test", 0][(ob.prompt,), "look around"] += 1
    assert write(["look around", "focus on frog egg"], m, elsewhere, world) == "look around"
    assert write(["focus on frog egg"] * 8, m, elsewhere, world) == "look around"  # candidates collapsed to it
    assert write(["", "look around"], m, ob, world) == "look around"  # an empty candidate is no command
    assert write(["", " "], m, ob, world) == ""  # nothing written at all: sent as it is, no crash
    agent.start(g, "test", 0, False)  # a new episode forgets
    assert write(["focus on frog egg", "look around"], m, ob, world) == "focus on frog egg"

    # untried=state: sent in the same observed state, whatever the previous action (the prompt differs)
    agent.untried = "state"
    agent.start(g, "test", 0, False)
    agent._sent[g.name, "test", 0][(step.observation, step.look, step.inventory), "focus on frog egg"] += 1
    other = Observation(g, "test", 0, False, step, prompt="... the door is already open ...", actions=[])
    assert write(["focus on frog egg", "look around"], m, other, world) == "look around"
    with pytest.raises(UserError, match="agent.untried=maybe: choose false, true"):
        untried_setting("maybe")

    # a module's command (the only ones the list of a world of written commands holds) ranks as any other: the
    # model's best, a game command in sight, goes first; sent once at a prompt, the module's is passed over too
    listed = replace(step, valid_actions=["notes"])
    at = Observation(g, "test", 0, False, listed, prompt="... the recipe ...", actions=[])
    agent.untried, agent.retry_refused, agent.fallback_skip = True, False, 4
    agent.start(g, "test", 0, False)
    m = TextMap("", ["notes"])
    assert agent._choose(["pick up axe", "notes"], m, at) == ("pick up axe", False)
    again = replace(at, prompt="... the recipe, asked ...")
    assert agent._choose(["notes", "pick up axe"], m, again) == ("notes", False)
    assert agent._choose(["notes", "pick up axe"], m, again) == ("pick up axe", False)  # asked here already


def test_a_command_the_game_answered_as_idle_is_passed_over_while_the_look_and_inventory_stay():
    """agent.skip_idle: "The glass jar is already open." in a kitchen; sent again there it would change nothing, so the
    next candidate goes; in a look that changed (the jar closed) it is a command again; a module's answer is no idle one."""
    from dataclasses import replace

    from bct.agents.base import Observation
    from bct.agents.t5 import T5Agent
    from bct.data.representation import TextMap
    from bct.modules.stack import Step

    g = get_game("scienceworld-chemistry-mix")
    look = "This room is called the kitchen. In it, you see: a glass jar (containing sodium chloride), a recipe."
    base = Step("Task Description: make salt water.", "", look, "In your inventory, you see: an orange", [], 0.1, False)
    idle = replace(base, observation="The glass jar is already open.", action="open glass jar")
    m, world = TextMap("", []), world_of(g)
    assert world.idle(idle) and not world.idle(replace(idle, from_module=True))
    assert not world.idle(replace(idle, observation="The glass jar is now open."))
    wire = "terminal 2 on blue wire is already connected, and must be disconnected before it can be connected to something else."
    assert world.idle(replace(idle, observation=wire, action="connect blue wire terminal 2 to anode in battery"))
    assert world.idle(replace(idle, observation="There is only one thing (paper)", action="mix metal pot"))
    assert world.idle(replace(idle, observation="The door is not open.", action="go to hallway"))
    agent = T5Agent.__new__(T5Agent)  # the choice alone: no model
    agent.untried, agent._sent, agent._left, agent.retry_refused = True, {}, {}, False
    agent.skip_idle, agent._idle = True, {}
    agent.start(g, "test", 0, False)
    cands = ["open glass jar", "pick up recipe"]

    def sent(step: Step, prompt: str) -> str:
        ob = Observation(g, "test", 0, False, step, prompt=prompt, actions=[step.action or ""])
        agent._note_idle(ob)
        return agent._write(cands, m, ob, world)[0]

    assert sent(replace(base, observation="You move to the kitchen.", action="go to kitchen"), "a") == "open glass jar"
    assert sent(idle, "b") == "pick up recipe"  # answered idle in this look and inventory: passed over
    assert sent(replace(base, observation="You read the recipe.", action="read recipe"), "c") == "pick up recipe"
    closed = replace(base, look=look.replace("a glass jar", "a closed glass jar"), action="close glass jar")
    assert sent(closed, "d") == "open glass jar"  # the look changed: it may change something now
    # every candidate answered idle here: the best goes as before (the untried rule still passes over loops)
    assert agent._write(["open glass jar"], m, Observation(g, "test", 0, False, idle, "e", []), world)[0] == (
        "open glass jar"
    )
    agent.skip_idle = False  # off (the default): nothing passed over
    assert sent(idle, "f") == "open glass jar"


def test_a_question_is_answered_first_a_focus_counts_once_a_life_and_no_lower_focus_follows_an_unseen_best():
    """The choice's three levers (agent.answer_questions, decisive_per_life, decisive_best_only), each against the
    choice without it, on one kitchen where the game asks which soap was meant."""
    from bct.agents.base import Observation
    from bct.agents.settings import T5Settings
    from bct.agents.t5 import T5Agent
    from bct.data.representation import TextMap
    from bct.modules.stack import Step

    g = get_game("scienceworld-boil")
    look = "This room is called the kitchen. In it, you see: a bar of soap, a metal pot, a thermometer. A door to the hallway"
    question = (
        "Ambiguous request: Please enter the number for the action you intended (or blank to cancel):\n"
        "0:\tfocus on soap (in kitchen)\n1:\tfocus on soap (in metal pot)"
    )

    def seen(observation: str, actions: list[str], prompt: str) -> Observation:
        step = Step("Task Description: boil soap.", observation, look, "In your inventory:", [], 0.0, False)
        return Observation(g, "test", 0, False, step, prompt=prompt, actions=actions)

    def agent(**levers) -> T5Agent:
        a = T5Agent.__new__(T5Agent)  # the choice alone: no model
        a._start_choosing(T5Settings(untried=True, **levers))
        a.start(g, "test", 0, False)
        return a

    m, world = TextMap("", []), world_of(g)
    asked = seen(question, ["focus on soap"], "... Ambiguous request ...")
    assert agent(answer_questions=True)._write(["focus on soap", "0"], m, asked, world)[0] == "0"
    assert agent()._write(["focus on soap", "0"], m, asked, world)[0] == "focus on soap"  # asked again, forever

    unseen = seen("You move to the kitchen.", [], "... kitchen ...")
    best = ["focus on dove", "focus on thermometer", "pick up metal pot"]  # no dove here: its best is unseen
    assert agent(decisive_best_only=True)._write(best, m, unseen, world)[0] == "pick up metal pot"
    assert agent()._write(best, m, unseen, world)[0] == "focus on thermometer"  # a lower guess ends the task

    # the focus asked, answered and made; then TALES's loop restarts the lost game: the focus is to be made again
    lives, whole = agent(decisive_per_life=True), agent()
    for a in (lives, whole):
        first = seen("You move to the kitchen.", [], "... start ...")
        a._note_made(first)
        a._remember(first, "focus on soap")
        a._note_made(asked)
        a._remember(asked, "0")
        made = seen("You focus on the soap.", ["focus on soap", "0"], "... focused ...")
        a._note_made(made)
        assert a._write(["focus on soap", "look around"], m, made, world)[0] == "look around"  # made: not again
    restarted = seen("You move to the kitchen.", [], "... restarted ...")
    lives._note_made(restarted)
    whole._note_made(restarted)
    assert lives._write(["focus on soap"], m, restarted, world)[0] == "focus on soap"
    assert whole._write(["focus on soap"], m, restarted, world)[0] == "look around"  # kept from the lost life


def test_where_every_candidate_in_sight_was_tried_here_widen_asks_the_model_for_more_and_the_choice_takes_one():
    from types import SimpleNamespace

    import torch

    from bct.agents.base import Observation
    from bct.agents.settings import T5Settings
    from bct.agents.t5 import T5Agent
    from bct.data.representation import TextMap
    from bct.modules.stack import Step

    g = get_game("scienceworld-find-non-living-thing")
    look = "This room is called the kitchen. In it, you see: a glass jar, a chair, a yellow box. A door to the hallway"
    step = Step("Task Description: find a non-living thing.", "You focus on the glass jar.", look, "", [], 0.75, False)
    ob = Observation(g, "test", 0, False, step, prompt="... kitchen ...", actions=["focus on glass jar"])
    m, world = TextMap("", []), world_of(g)
    agent = T5Agent.__new__(T5Agent)  # the choice alone, and a model call that writes what it is asked for
    agent._start_choosing(T5Settings(untried=True, decisive_per_life=True, widen=16))
    agent.widen, agent.model, agent.tokenizer = 16, None, None
    asked = []

    def beams(model, tokenizer, read, num_beams=0, groups=0):
        asked.append((len(read[0].input_ids), num_beams, groups))
        return [
            [
                "look around",
                "focus on chair",
                "look at dove",
                "move glass jar to yellow box",
                "move glass jar to yellow box",
            ]
        ]

    agent._beams = beams
    agent.start(g, "test", 0, False)
    agent._note_made(Observation(g, "test", 0, False, step, prompt="... start ...", actions=[]))
    agent._note_made(ob)  # the focus was made this life: not again
    agent._remember(ob, "look around")  # and it looked around at this very prompt already
    pool = ["focus on glass jar", "look around"]
    assert agent._write(pool, m, ob, world)[0] == "look around"  # without more: again
    assert not agent._spent(pool, m, ob)  # a second look is often right (the recipe read again): no more asked
    agent._remember(ob, "look around")
    assert agent._spent(pool, m, ob)  # a third: a loop
    read = (SimpleNamespace(input_ids=torch.zeros(2, 3), attention_mask=torch.ones(2, 3)), torch.zeros(2, 3, 4))
    fresh = Observation(g, "test", 1, False, step, prompt="... elsewhere ...", actions=[])
    agent.start(g, "test", 1, False)
    pools = [list(pool), ["look around"]]
    agent._widen([ob, fresh], [m, m], pools, read)
    assert asked == [(1, 16, 1)]  # one model call, for the spent episode alone, by plain beam search
    # the new ones after the model's own, only those in sight (no dove here: sent, it would break a repeat that was
    # right), never a focus (one this far down is a guess the game does not forgive)
    assert pools[0] == [*pool, "move glass jar to yellow box"] and pools[1] == ["look around"]
    assert agent._write(pools[0], m, ob, world)[0] == "move glass jar to yellow box"  # the focus made stays made


def test_a_command_the_parser_refuses_is_followed_by_the_same_steps_next_candidate_without_a_model_call():
    from bct.agents.base import Observation
    from bct.agents.t5 import T5Agent
    from bct.data.representation import TextMap
    from bct.modules.stack import Step

    g = get_game("scienceworld-chemistry-mix")
    look = "This room is called the kitchen. In it, you see: a recipe, a ceramic cup. A door to the hallway"
    step = Step(
        "Task Description: make salt water.", "You move to the kitchen.", look, "In your inventory:", [], 0.1, False
    )
    ob = Observation(g, "test", 0, False, step, prompt="... kitchen ...", actions=[])
    m, world = TextMap("", []), world_of(g)
    agent = T5Agent.__new__(T5Agent)  # the choice alone: no model
    agent.untried, agent._sent, agent._left, agent.retry_refused = True, {}, {}, True
    agent.start(g, "test", 0, False)
    cands = ["pick up cup containing recipe", "pick up recipe", "pick up ceramic cup", "pick up dove"]
    # the command sent, and the candidates in sight it would send next, in order
    assert agent._write(cands, m, ob, world) == (
        "pick up cup containing recipe",
        ["pick up recipe", "pick up ceramic cup"],
    )
    agent._left[g.name, "test", 0] = ["pick up recipe", "pick up ceramic cup"]

    refused = Step(step.task, "No known action matches that input.", look, step.inventory, [], 0.1, False)
    after = Observation(
        g, "test", 0, False, refused, prompt="... No known action ...", actions=["pick up cup containing recipe"]
    )
    agent.model = agent.decoding = None  # a model call would fail: the retry asks none
    (d,) = agent.act([after])
    assert (
        d.action == "pick up recipe" and d.info["retried"] and d.candidates == ["pick up recipe", "pick up ceramic cup"]
    )
    assert ((after.prompt,), "pick up recipe") in agent._sent[
        g.name, "test", 0
    ]  # remembered as sent, as a model's choice is
    (d,) = agent.act([after])  # refused again: the next one
    assert d.action == "pick up ceramic cup"
    assert agent._retry(after) is None  # none left: the model decides
    agent._left[g.name, "test", 0] = ["pick up ceramic cup"]
    took = Observation(g, "test", 0, False, step, prompt="... You move the recipe ...", actions=["pick up recipe"])
    assert agent._retry(took) is None and (g.name, "test", 0) not in agent._left  # a taken command ends the retries
    agent.retry_refused, agent._left[g.name, "test", 0] = False, ["pick up ceramic cup"]
    assert agent._retry(after) is None  # off (the default): the model is asked
    assert world.refusals and world_of(get_game("twc")).refusals == ()  # TWX's agents choose from its list


@pytest.mark.slow
def test_the_gpu_budget_script_trains_seeds_side_by_side_hands_back_in_parts_and_lands(tmp_path):
    """runscripts/gpu-scienceworld.sh in reduced form on the CPU: two trainings of the recipe (seeds 42 and 43, a
    tiny model, one task) side by side under the clock limit, handed back in parts of at most 15 MB with their logs,
    and landed elsewhere in scienceworld.sh's folders, where each checkpoint loads as done."""
    import os
    import subprocess
    import sys
    import tarfile
    from pathlib import Path

    from bct.seq2seq.model import load_checkpoint

    script = Path(__file__).resolve().parents[1] / "runscripts" / "gpu-scienceworld.sh"
    task = "scienceworld-lifespan-longest-lived"
    out = tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "PY": sys.executable, "OUT": str(out), "SEEDS": "2", "MODULES": "false", "MINUTES": "1"}
    small = [f"games=[{task}]", "num_games=2", "model=t5-tiny-scratch", "~mix", "+mix={}", "epochs=1"]
    there = tmp_path / "there"
    r = subprocess.run(
        ["bash", str(script), f"data_dir={tmp_path / 'data'}", *small],
        env={**env, "CHECKPOINTS": str(there)},
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    run = "scienceworld-nomemory-nomodules"
    assert f"{run}: 2 trainings trained and packed" in r.stdout and "seed 43: {" in r.stdout
    parts = sorted(p.name for p in out.iterdir())
    assert parts == [f"{run}.ckpt.tar.partaa", f"{run}.logs.tar.xz"]
    assert all((out / p).stat().st_size <= 15 * 2**20 for p in parts)
    with tarfile.open(out / f"{run}.logs.tar.xz") as logs:
        assert {"logs/train-seed42.log", "logs/train-seed43.log"} <= set(logs.getnames())

    here = tmp_path / "here"
    wrong = subprocess.run(
        ["bash", str(script), "land", str(out)],
        env={**env, "CHECKPOINTS": str(here), "MODULES": "true"},
        capture_output=True,
        text=True,
    )
    assert wrong.returncode == 2 and "no scienceworld-nomemory.ckpt.tar.part* in" in wrong.stderr
    r = subprocess.run(
        ["bash", str(script), "land", str(out)], env={**env, "CHECKPOINTS": str(here)}, capture_output=True, text=True
    )
    assert r.returncode == 0 and f"2 trainings of {run}" in r.stdout, r.stdout + r.stderr
    for folder in (here / run, here / "seed43" / run):
        model, _, meta = load_checkpoint(folder)
        assert meta["status"] == "done" and model.num_parameters() > 0
