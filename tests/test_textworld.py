"""TextWorld's generated games as bct's third world: games made and cached, gold paths that win, its modules, its
folds, and the commands that generate, train and evaluate on it like on any world."""

import json

import pytest

from bct.worlds.gold import play_gold
from bct.worlds.registry import expand_games, fold_seeds, get_game, make_module, open_game
from bct.worlds.textworld import text
from bct.worlds.textworld.games import COOKING_LEVELS, FOLD_SEEDS, FOLD_SIZE
from bct.worlds.textworld.make import RETRIES, RETRY_STEP, game_file

RECIPE = """You open the copy of "Cooking: A Modern Approach (3rd Ed.)" and start reading:

Recipe #1
---------
Gather all following ingredients and follow the directions to prepare this tasty meal.

Ingredients:
carrot
  red apple

Directions:
slice the carrot
  grill the carrot
  prepare meal
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["textworld-cooking", "textworld-cooking-level9", "textworld-coin", "textworld-treasure-level15"]
)
def test_gold_paths_win_with_and_without_modules(name):
    game = get_game(name)
    for modules in (True, False):
        with open_game(game, modules) as env:
            traj = play_gold(env, fold_seeds(game, "train", 1)[0], "train", modules)
        assert traj.ok and traj.score == 1.0, traj.error
        calls = [a for a, s in zip(traj.actions, traj.steps[1:]) if s.from_module]
        assert bool(calls) == modules  # the module is asked where modules are on, never where they are off


@pytest.mark.slow
def test_gold_paths_win_where_the_walkthrough_opens_the_fridge_twice():
    # level 9's walkthrough fetches three ingredients one at a time and opens the fridge before each: the game does
    # not list "open fridge" once it stands open, and the gold path passes over it (dev seeds 0 and 2 did so)
    game = get_game("textworld-cooking-level9")
    with open_game(game, True) as env:
        trajs = [play_gold(env, seed, "dev", True) for seed in fold_seeds(game, "dev", 3)]
    assert [t.error for t in trajs] == [None] * 3 and all(t.score == 1.0 for t in trajs)


@pytest.mark.slow
@pytest.mark.parametrize("lvl", [6, 10])
def test_in_the_houses_of_many_rooms_the_gold_path_explores_by_the_map_and_wins(lvl):
    # the walkthrough crosses a house it knows; the gold path walks by the cookbook's map, asking it before moving
    game = get_game(f"textworld-cooking-level{lvl}")
    with open_game(game, True) as env:
        trajs = [play_gold(env, seed, "train", True) for seed in fold_seeds(game, "train", 3)]
    assert [t.error for t in trajs] == [None] * 3 and all(t.score == 1.0 for t in trajs)
    for t in trajs:
        moves = [i for i, a in enumerate(t.actions) if a.startswith("go ")]
        assert moves and all(t.actions[i - 1] in ("recall map", "recall recipe") for i in moves)


@pytest.mark.slow
def test_a_game_is_made_once_and_read_back_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BCT_TEXTWORLD_GAMES", str(tmp_path))
    game = get_game("textworld-coin")
    path = game_file(game, 7)
    made = path.stat().st_mtime_ns
    assert path.with_suffix(".json").exists() and game_file(game, 7).stat().st_mtime_ns == made
    path.unlink()  # a missing game is made again, the same game
    assert game_file(game, 7).exists()


def test_folds_are_disjoint_seeds_even_after_retries():
    used = {
        fold: {seed + k * RETRY_STEP for seed in range(start, start + FOLD_SIZE) for k in range(RETRIES)}
        for fold, start in FOLD_SEEDS.items()
    }
    assert not used["train"] & used["dev"] and not used["train"] & used["test"] and not used["dev"] & used["test"]
    assert fold_seeds(get_game("textworld-coin"), "test", 3) == [FOLD_SEEDS["test"] + i for i in range(3)]


def test_the_cooking_levels_are_tales_s_ten_and_the_group_names_the_three_games():
    assert sorted(COOKING_LEVELS) == list(range(1, 11))
    assert get_game("textworld-cooking-level10").param_values == {"level": 10}
    assert expand_games(["textworld"]) == ["textworld-cooking", "textworld-coin", "textworld-treasure"]


def test_an_unknown_level_is_one_line_naming_the_range(cli, one_line):
    r = cli("bct.generate", "+game=textworld-cooking", "game.params.level=11", "progress=false")
    one_line(r, "from 1 to 10")


def test_the_cookbook_keeps_the_recipe_and_what_was_done():
    cookbook = make_module("cookbook")
    assert cookbook.run("recall recipe") == "No recipe has been read yet." and not cookbook.commands()
    cookbook.observe(RECIPE, "-= Kitchen =-", "You are carrying: a carrot.")
    cookbook.observe("You slice the carrot.", "-= Kitchen =-", "You are carrying: a sliced carrot.")
    answer = cookbook.run("recall recipe")
    # what is not carried and what is left, in the recipe's order, each with what does it (grilling is the BBQ's)
    # and where that is: facts, not a choice
    assert answer.startswith("The recipe needs carrot, red apple. Not carried: red apple (not seen yet).")
    assert "To do: grill the carrot (with the BBQ, not seen yet); prepare meal (in the kitchen, here)." in answer
    assert "slice the carrot" not in answer and "a sliced carrot" in answer
    assert "Usage: recall recipe | recall map" in cookbook.run("recall recipe now")
    # an ingredient handed over prepared: the inventory shows the direction done, and the answer says so
    cookbook.observe(
        "You take the carrot.", "-= Kitchen =-", "You are carrying: a sliced grilled carrot and a red apple."
    )
    answer = cookbook.run("recall recipe")
    assert "Every ingredient is carried. To do: prepare meal (in the kitchen, here)." in answer
    assert "recall map" not in cookbook.commands()  # one room, no exit: nothing to map


def test_the_cookbook_maps_the_rooms_walked_and_where_things_were_seen():
    book = make_module("cookbook")
    corridor = "-= Corridor =-\nYou see a shoe rack.\n\nThere is a closed plain door leading north. There is an exit to the east."
    kitchen = "-= Kitchen =-\nYou see a fridge and a stove.\n\nThere is an exit to the west."
    garden = "-= Garden =-\nOn the ground you see a carrot.\n\nYou should try going north."
    book.observe(corridor, corridor, "You are carrying nothing.")
    assert "recall map" in book.commands()
    assert book.run("recall map") == (
        "You are in the corridor. Exits not yet taken here: north (the plain door is closed), east."
    )
    for action, room in [("go east", kitchen), ("examine cookbook", RECIPE), ("go west", corridor)]:
        book.acted(action)
        book.observe(room, kitchen if room == RECIPE else room, "You are carrying nothing.")
    book.acted("go south")  # a way the walk has not seen: learnt by walking it
    book.observe(garden, garden, "You are carrying nothing.")
    book.acted("go north")
    book.observe(corridor, corridor, "You are carrying nothing.")
    assert book.run("recall map") == (
        "You are in the corridor. Exits not yet taken here: north (the plain door is closed). The kitchen: go east, 1 move."
    )
    book.acted("go east")
    book.observe(kitchen, kitchen, "You are carrying nothing.")
    recipe = book.run("recall recipe")  # the carrot lies in the garden, two moves away: a fact and its route, no order
    assert "Not carried: carrot (in the garden, go west, 2 moves), red apple (not seen yet)." in recipe
    assert "prepare meal (in the kitchen, here)" in recipe
    assert "Every exit here was taken." in book.run("recall map")
    for action, room in [("go west", corridor), ("go south", garden)]:
        book.acted(action)
        book.observe(room, room, "You are carrying nothing.")
    recipe = book.run("recall recipe")  # walked here for it: the answer says so
    assert "Not carried: carrot (here)," in recipe and "prepare meal (in the kitchen, go north, 2 moves)" in recipe


def test_progress_counts_the_moves_the_game_took():
    progress = make_module("progress")
    progress.given("Welcome to TextWorld! First step, attempt to take a trip north. Got that? Good!")
    for action, answer in [("go north", "-= Kitchen =-"), ("go west", "You can't go that way."), ("go east", "ok")]:
        progress.acted(action)
        progress.observe(answer, "", "")
    assert progress.run("recall progress") == "The objective's steps: go north. 2 done so far: go north, go east."


def test_the_objective_s_prose_is_read_as_its_steps():
    # treasure hunter's level 25: moves, a key taken, a door unlocked and opened, the goal; greeting and sign-off
    # are no steps (every objective of 300 train games of coin and treasure, level 5, reads as its walkthrough)
    objective = (
        "Welcome to TextWorld! Your first objective is to attempt to go north. Once you succeed at that, go to the "
        "north. With that done, retrieve the American latchkey from the floor of the studio. After that, unlock the "
        "American gate within the cubicle. Then, doublecheck that the American gate within the cubicle is wide open. "
        "First off, make it so that the hatch inside the chamber is opened. Then, recover the loaf of bread from the "
        "counter. And once you've done that, you win!\n\n-= Studio =-\nThere is an exit to the east."
    )
    assert text.steps(objective) == [
        "go north",
        "go north",
        "take American latchkey",
        "unlock American gate",
        "open American gate",
        "open hatch",
        "take loaf of bread from counter",
    ]


def test_the_reader_drops_the_banner_and_status_line_and_names_rooms_and_things():
    first = "  $$$$$$$$\\  \n  | $$  | $$ >$$  $$\n\nWelcome to TextWorld!\n\n-= Pantry =-\nYou see a shelf.\n\n\n>" + (
        " " * 60 + "-= Pantry =-0/1"
    )
    assert text.clean(first) == "Welcome to TextWorld!\n\n-= Pantry =-\nYou see a shelf."
    assert text.speaks(first) and not text.speaks("You are in the kitchen. To the North you see the pantry.")
    assert text.names("-= Pantry =-\nYou see a shelf. There is a closed fridge.")[:3] == ["pantry", "shelf", "fridge"]
    assert text.recipe(RECIPE) == (["carrot", "red apple"], ["slice the carrot", "grill the carrot", "prepare meal"])


@pytest.mark.slow
def test_generate_train_and_evaluate_as_on_any_world(tmp_path, cli):
    where = [f"data_dir={tmp_path / 'data'}", f"checkpoint_dir={tmp_path / 'ck'}", "progress=false"]
    r = cli("bct.train", "+game=textworld-coin", "model=t5-tiny-scratch", "epochs=1", "num_games=4", *where)
    assert r.returncode == 0, r.stderr[-2000:]
    (run,) = (tmp_path / "ck").glob("textworld-coin-modules-*")
    r = cli(
        "bct.evaluate",
        f"checkpoint={run}",
        "fold=dev",
        "num_variations=2",
        f"results_dir={tmp_path / 'results'}",
        "progress=false",
    )
    assert r.returncode == 0, r.stderr[-2000:]
    (results,) = (tmp_path / "results").rglob("results.json")
    record = json.loads(results.read_text())
    assert record["game"] == "textworld-coin" and record["fold"] == "dev" and record["complete"]
    assert [v["seed"] for v in record["per_variation"]] == fold_seeds(get_game("textworld-coin"), "dev", 2)
    assert 0.0 <= record["avg_score"] <= 1.0 and record["avg_env_steps"] <= 100
    assert len((results.parent / "histories.jsonl").read_text().splitlines()) == 2


@pytest.mark.slow
def test_an_llm_agent_plays_textworld_through_its_module(tmp_path, monkeypatch):
    """The LLM agent on TextWorld, against a loopback chat server that replies with the gold path (module calls
    included): the same agent, prompts and module interface as on the other worlds."""
    from test_llm import KEY, ChatServer, oracle_policy

    from bct.agents.llm import LLMAgent, OpenAIBackend
    from bct.agents.rollout import rollout

    game = get_game("textworld-coin")
    seeds = fold_seeds(game, "dev", 2)
    with open_game(game, True) as env:
        trajs = [play_gold(env, s, "dev", True) for s in seeds]
    plans = {t.steps[0].observation.strip(): t.actions for t in trajs}
    monkeypatch.setenv("BCT_TEST_KEY", KEY)
    server = ChatServer(oracle_policy(plans))
    backend = OpenAIBackend("scripted", server.url, "BCT_TEST_KEY", retries=3)
    agent = LLMAgent(game, client=backend, cache_dir=tmp_path / "cache", concurrency=2, history_turns=50)
    results = rollout(agent, game, "dev", seeds, True, batch_size=2)
    assert [r.score for r in results] == [1.0, 1.0]
    user = server.requests[0]["body"]["messages"][1]["content"]
    assert "recall progress" in user  # the module's command is offered among the valid actions
