"""Representations: placeholders exact on every gold step of every TWX game preset (they rewrite the valid
actions; ScienceWorld's data lists none), single tokens for the model."""

import json
import re

import pytest

from bct.core.errors import UserError
from bct.data.entities import MAX_ENTITIES, PLACEHOLDERS, EntityMap, action_entities, shuffle_numbering
from bct.data.generation import generate
from bct.data.prompt import training_pair
from bct.data.representation import get_representation, of_checkpoint
from bct.seq2seq.tokenizer import train_tokenizer
from bct.worlds.registry import data_modules
from bct.worlds.scienceworld.text import things
from bct.worlds.twx.games import GAMES

PLACEHOLDERS_REP = get_representation("placeholders")


@pytest.fixture(scope="module")
def gold_maps(tmp_path_factory):
    """Every gold step (the final one aside) of a game of each TWX preset in train and in test, with modules and
    without (8,655 steps from 2 games took 48 s to play, the most of them Simon Says'), with its placeholder map,
    made once for the tests below."""
    out = tmp_path_factory.mktemp("data")
    generate(list(GAMES), [True, False], ["train", "test"], num_games=1, out_dir=out, progress=False)
    rows = [json.loads(line) for f in sorted(out.rglob("*.jsonl")) for line in f.read_text().splitlines()]
    return [(r, PLACEHOLDERS_REP.map(r["source"], r["valid_actions"])) for r in rows if not r["final"]]


@pytest.mark.slow  # plays gold paths of every game
def test_every_gold_target_is_an_abstract_valid_action_and_maps_back(gold_maps):
    seen = set()
    for row, m in gold_maps:
        target = m.rewrite(row["target"])
        assert target in m.actions, (row["game"], row["target"], target)
        assert m.restore(target) == row["target"]
        # one to one: distinct valid actions stay distinct, and each maps back to itself
        assert len(set(m.actions)) == len(set(row["valid_actions"]))
        assert all(m.restore(a) == v for a, v in zip(m.actions, row["valid_actions"]))
        assert len(set(m.names.values())) == len(m.names)
        seen.add((row["game"], row["modules"], row["fold"]))
    # a game no module changes (modules=true plays it as false) has one data file for both
    assert seen == {(g, data_modules(GAMES[g], m), f) for g in GAMES for m in (True, False) for f in ("train", "test")}


@pytest.mark.slow  # plays gold paths of every game
def test_no_name_of_the_current_step_survives_in_the_prompt(gold_maps):
    for row, m in gold_maps:
        source = f" {m.source} ".replace(".", " ").replace(",", " ")
        for name in {name for action in row["valid_actions"] for name in action_entities(action)}:
            assert f" {name} " not in source, (row["game"], name)


def test_names_within_names_common_words_units_and_first_occurrence():
    source = (
        "Put the oven glove in the box. </s> OBS You see an oven, an oven glove, 25g of oak and 12 boxes. "
        "</s> PACT take 3 apples </s> POBS 3 apples </s>"
    )
    m = EntityMap(source, ["take oven glove", "take 25g of oak", "put oven glove in box", "open oven"])
    assert m.source == (
        "Put the <e1> in the <e2>. </s> OBS You see an <e3>, an <e1>, <n1>g of <e4> and <n2> boxes. "
        "</s> PACT take <n3> <e5> </s> POBS <n3> <e5> </s>"
    )
    assert m.actions == ["take <e1>", "take <n1>g of <e4>", "put <e1> in <e2>", "open <e3>"]
    assert m.restore("take <n1> g of <e4>") == "take 25g of oak"  # spaces a tokenizer adds do not matter
    assert m.restore("take <e9>") is None and m.concrete("take <e1> from <e2>") == "take oven glove from box"


def test_tagged_writes_each_name_with_its_placeholder_and_actions_by_placeholder():
    """`entities=tagged`: the model reads "oven glove <e1>" (what it is and how to name it) and writes
    "take <e1>"; numbers stay as written; an unseen name is still written by its placeholder."""
    source = "Put the oven glove in the box. </s> OBS You see an oven, an oven glove and 25g of lead. </s> PACT </s>"
    actions = ["take oven glove", "take 25g of lead", "put oven glove in box", "open oven"]
    m = get_representation("tagged").map(source, actions)
    assert m.source == (
        "Put the oven glove <e1> in the box <e2>. </s> OBS You see an oven <e3>, an oven glove <e1> and "
        "25g of lead <e4>. </s> PACT </s>"
    )
    assert m.actions == ["take <e1>", "take 25g of <e4>", "put <e1> in <e2>", "open <e3>"]
    assert m.rewrite("take lead") == "take <e4>" and m.restore("take 25g of <e4>") == "take 25g of lead"
    assert m.concrete("focus on <e4>") == "focus on lead"


def _sw_prompt(room: str, things: list[str], task: str = "find a(n) animal") -> str:
    look = f"This room is called the {room}. In it, you see:  {'  '.join('a ' + t for t in things)}  You also see:  A door to the hallway (that is closed)"
    return f"Task Description: Your task is to {task}. </s> OBS {look} </s> INV  </s> LOOK {look} </s> <extra_id_0> </s> PACT  </s> POBS  </s>"


def test_common_writes_the_names_many_games_show_and_numbers_the_rest():
    """`entities=common` learns from a run's rows which names stay words: the kitchen, its stove and the
    hallway, in every episode of three games, do; each episode's own animal or substance, and the thermometer
    that one game alone shows, do not. At evaluation an unseen thing (lead) is a placeholder beside the words."""
    own = {
        "find-animal": ["dove", "crow", "frog", "wolf", "bee", "ant"],
        "boil": ["water", "ice", "milk", "tea", "oil", "jam"],
    }
    parts = []
    for game in ["find-animal", "boil", "melt"]:
        rows = [
            _sw_prompt("kitchen", ["stove", *own.get(game, [])[seed : seed + 1], *["thermometer"] * (game == "boil")])
            for seed in range(6)
        ]
        parts.append({"game": [game] * 6, "seed": list(range(6)), "source": rows, "valid_actions": [[]] * 6})
    common = get_representation("common").fit(parts)
    assert common.known == {"kitchen", "stove", "hallway"}
    m = common.map(_sw_prompt("kitchen", ["stove", "lead", "thermometer"], "boil lead"), [])
    assert m.source.startswith("Task Description: Your task is to boil <e1>. </s> OBS This room is called the kitchen.")
    assert "a stove  a <e1>  a <e2>" in m.source and m.rewrite("focus on lead") == "focus on <e1>"
    assert m.rewrite("open door to hallway") == "open door to hallway"
    assert m.concrete("pick up <e2>") == "pick up thermometer"
    only_common = _sw_prompt("kitchen", ["stove"])  # nothing to number: the prompt as it is
    assert common.map(only_common, []).source == only_common
    assert get_representation("common").from_run(common.state(), "ck").known == common.known
    with pytest.raises(UserError, match="keeps no common_names"):
        get_representation("common").from_run({}, "ck")


def test_common_task_numbers_the_task_s_own_thing_even_where_it_is_common():
    """`entities=common-task`: boil *water* names its water by placeholder as boil *lead* names its lead, while
    the kitchen and stove stay words (from rule 9 the common word stays beside its placeholder)."""
    rep = get_representation("common-task").fit([])
    rep = type(rep)({"kitchen", "stove", "water", "substance called water", "hallway"}, rule=8)
    m = rep.map(_sw_prompt("kitchen", ["stove", "substance called water"], "boil water"), [])
    assert m.source.startswith("Task Description: Your task is to boil <e1>. </s> OBS This room is called the kitchen.")
    assert "a stove  a substance called <e1>" in m.source and m.rewrite("focus on water") == "focus on <e1>"
    now = type(rep)(rep.known).map(_sw_prompt("kitchen", ["stove", "substance called water"], "boil water"), [])
    assert "boil water <e1>." in now.source and "a substance called water <e1>" in now.source
    plain = get_representation("common").from_run({"common_names": sorted(rep.known)}, "ck")
    assert "boil water" in plain.map(_sw_prompt("kitchen", ["stove"], "boil water"), []).source
    # power-component: training turns on light bulbs, test a motor; both are the task's <e1>, the rest words
    rep = type(rep)({"workshop", "red light bulb", "electric motor", "battery", "hallway"}, rule=8)
    task = "turn on the {} by powering it using a renewable power source. First, focus on the {}"
    for thing in ("red light bulb", "electric motor"):
        m = rep.map(
            _sw_prompt("workshop", ["red light bulb", "electric motor", "battery"], task.format(thing, thing)), []
        )
        assert m.source.startswith("Task Description: Your task is to turn on the <e1> by powering it")
        assert m.rewrite(f"focus on {thing}") == "focus on <e1>" and m.rewrite("pick up battery") == "pick up battery"
        now = type(rep)(rep.known).map(
            _sw_prompt("workshop", ["red light bulb", "electric motor"], task.format(thing, thing)), []
        )
        assert f"turn on the {thing} <e1> by" in now.source and now.rewrite(f"focus on {thing}") == "focus on <e1>"
        # <e1> even where the latest observation names another placeholder's thing first
        later = _sw_prompt("workshop", ["solar panel", "red light bulb", "electric motor"], task.format(thing, thing))
        m = rep.map(later, [])
        assert (
            m.rewrite(f"focus on {thing}") == "focus on <e1>" and m.rewrite("focus on solar panel") == "focus on <e2>"
        )


def test_common_task_rule_7_numbers_what_a_task_asks_to_create_so_a_mix_reads_against_the_task():
    """The paints: "create violet paint" is <e1>, and a mix that produced it says "produce <e1>" while a mix of another
    colour says its colour, though the training data showed every colour often enough to keep it a word. Rule 6
    (checkpoints trained on it are still read by it) left the paint to the word list."""
    known = {"art studio", "violet paint", "green paint", "orange paint", "wood cup"}
    task = "use chemistry to create violet paint. When you are done, focus on the violet paint"
    made = _sw_prompt("art studio", ["wood cup"], task).replace(
        " </s> INV", " Red and blue paint mix to produce violet paint. </s> INV", 1
    )
    rep = type(get_representation("common-task"))(known, rule=7)
    m = rep.map(made, [])
    assert "create <e1>." in m.source and "mix to produce <e1>." in m.source
    other = rep.map(made.replace("produce violet paint", "produce green paint"), [])
    assert "create <e1>." in other.source and "mix to produce green paint." in other.source
    old = type(rep)(known, rule=6)
    assert "create violet paint." in old.map(made, []).source and old.record()["entity_rule"] == 6
    run = {"settings": {"entities": "common-task", "entity_rule": 6}, "common_names": sorted(known)}
    assert of_checkpoint(run, "ck").rule == 6  # read by its own rule
    with pytest.raises(UserError, match="numbered by an older rule"):
        of_checkpoint({**run, "settings": {"entities": "common-task", "entity_rule": 5}}, "ck")
    # a recipe's ingredients stay names; what a mix produced is not a thing called "to produce ..."
    assert things("To make salt water, you need to mix sodium chloride, water.") == ("sodium chloride",)
    assert things("Red and blue paint mix to produce violet paint.") == ()


def test_a_whole_action_the_observation_quotes_is_one_entity():
    """Simon's gestures differ between folds (`wave hello` only in test): the quoted action is chosen by
    its placeholder, so an unseen verb never has to be spelled; moves stay moves."""
    source = (
        "Your task is to do exactly what Simon says. </s> OBS Simon says, take these actions in order: "
        "wave hello, touch your ears, move north. </s> INV </s> LOOK </s> PACT </s> POBS </s>"
    )
    actions = ["touch your ears", "wave hello", "move north", "smell onion", "recall sequence"]
    m = EntityMap(source, actions)
    assert "take these actions in order: <e1>, <e2>, move north." in m.source
    assert m.actions[:3] == ["<e2>", "<e1>", "move north"]
    assert m.restore("<e1>") == "wave hello" and m.actions[3].startswith("smell <e")


def test_more_entities_than_placeholders_keep_the_surplus_as_text():
    names = [f"thing{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(MAX_ENTITIES + 3)]
    m = EntityMap("You see " + ", ".join(names) + ".", [f"take {n}" for n in names])
    assert m.actions[MAX_ENTITIES - 1] == f"<e{MAX_ENTITIES}>".join(["take ", ""])
    assert m.actions[-1] == f"take {names[-1]}" and m.restore(f"take {names[-1]}") == f"take {names[-1]}"
    assert len(set(m.actions)) == len(names)


def test_text_representation_is_the_paper_prompt():
    row = {"source": "task </s> OBS You see an apple. </s>", "target": "take apple", "valid_actions": ["take apple"]}
    assert training_pair(row, get_representation("text")) == (row["source"], "take apple")
    assert training_pair(row, PLACEHOLDERS_REP) == ("task </s> OBS You see an <e1>. </s>", "take <e1>")


def test_placeholders_are_single_tokens_that_decoding_keeps():
    tok = train_tokenizer(["take <e1> from <e12> </s> OBS <n3>g of <e2>"] * 3, vocab_size=200, tokens=PLACEHOLDERS)
    ids = tok("put <n1>g of <e2> in <e12>").input_ids
    pieces = tok.convert_ids_to_tokens(ids)
    assert {"<n1>", "<e2>", "<e12>"} <= set(pieces)
    assert all(len(tok(p, add_special_tokens=False).input_ids) == 1 for p in PLACEHOLDERS)
    text = tok.decode(ids, skip_special_tokens=True)
    assert EntityMap("", ["put 5g of oak in box"]).actions == ["put <n1>g of <e1> in <e2>"]
    assert "<n1>" in text and "<e12>" in text


@pytest.mark.slow  # plays gold paths of every game
def test_the_latest_observation_numbers_its_entities_first(gold_maps):
    # what the next action acts on gets the same placeholder whatever the step: the navigator's next
    # room is always <e1> (mapreader), the object just taken <e1> and its place <e2> (twc)
    maps = [(r, m) for r, m in gold_maps if r["modules"]]
    for m in [m for r, m in maps if r["game"] == "mapreader" and r["target"].startswith("move")]:
        assert " </s> OBS The next location to go to is the <e1>. " in m.source, m.source[:300]
    puts = [
        (r, m)
        for r, m in maps
        if r["game"] == "twc" and r["target"].startswith("put") and " </s> PACT query " in r["source"]
    ]
    assert puts
    for row, m in puts:
        assert " </s> OBS <e1> is expected to be located at <e2>. " in m.source and m.rewrite(row["target"]).startswith(
            "put <e1> in "
        )


def test_shuffled_numbering_renumbers_source_and_target_alike():
    import random

    source, target = shuffle_numbering(
        ["You see <e1>, <e2> and <n1>g of <e3>. </s>", "take <n1>g of <e3>"], random.Random(3)
    )
    ids = re.findall(r"<[en]\d+>", source)
    assert len(set(ids)) == 4 and "<e1>" not in source  # one new number each, all distinct
    assert target == f"take {ids[2]}g of {ids[3]}"  # the target names what the source's names became


def test_common_task_numbers_the_task_s_boxes_and_rooms_after_its_thing_in_sight_or_not():
    """use-thermometer names its thing, a room, two boxes and the boxes' room: <e1> to <e5> in that order in
    every prompt of the variation, whether the look shows them or not; rooms the task does not name stay words."""
    rep = get_representation("common-task").fit([])
    rep = type(rep)({"hallway", "kitchen", "bedroom", "bathroom", "blue box", "orange box", "thermometer"})
    task = (
        "measure the temperature of unknown substance B, which is located around the bedroom. First, focus on the "
        "thermometer. If the unknown substance B temperature is above 200.0 degrees celsius, place it in the blue "
        "box. If it is below 200.0 degrees celsius, place it in the orange box. The boxes are located around the "
        "bathroom"
    )
    far = rep.map(_sw_prompt("kitchen", ["thermometer"], task), [])  # nothing of the task in sight
    near = rep.map(_sw_prompt("bathroom", ["orange box", "blue box", "unknown substance B"], task), [])
    for m in (far, near):
        assert [m.rewrite(n) for n in ("unknown substance B", "bedroom", "blue box", "orange box", "bathroom")] == [
            "<e1>",
            "<e2>",
            "<e3>",
            "<e4>",
            "<e5>",
        ]
        assert (
            m.rewrite("go to kitchen") == "go to kitchen" and m.rewrite("pick up thermometer") == "pick up thermometer"
        )
    assert "This room is called the <e5>" in near.source and "a <e4>" in near.source
    # find-animal: no thing of its own; its box and room first
    m = rep.map(
        _sw_prompt("kitchen", ["blue box"], "find a(n) animal. Then, move it to the blue box in the bedroom"), []
    )
    assert m.rewrite("move dog to blue box") == "move dog to <e1>" and m.rewrite("go to bedroom") == "go to <e2>"


def test_common_task_rule_8_reads_a_longer_name_around_the_tasks_thing_so_a_metal_in_sight_is_e1():
    """Boil lead's test worlds show "a glass cup (containing a substance called lead)" in the workshop: a name no
    training row has, which rule 7 numbered whole (<e3>), so the lead in sight was not the task's <e1>."""
    known = {"workshop", "glass cup", "table"}
    prompt = _sw_prompt("workshop", ["table"], "boil lead").replace(
        "a table", "a table. On the table is: a glass cup (containing a substance called lead)", 1
    )
    rep = type(get_representation("common-task"))(known)
    assert rep.rule >= 8
    m = rep.map(prompt, ["focus on lead", "pick up substance called lead"])
    assert "boil <e1>." in m.source and "a glass cup (containing a substance called <e1>)" in m.source
    assert m.actions == ["focus on <e1>", "pick up substance called <e1>"]
    assert m.restore("pick up substance called <e1>") == "pick up substance called lead"
    old = type(rep)(known, rule=7).map(prompt, ["focus on lead"])
    assert "substance called lead" not in old.source and "substance called <e1>" not in old.source  # one name, <e2>


def test_common_task_rule_9_writes_a_common_task_thing_beside_its_placeholder_so_water_reads_apart():
    """Boil water fills a pot at the sink; boil orange juice looks for the juice. Under rule 8 both read "boil <e1>"
    in the same kitchen, so the one choice that tells them apart was a coin's. A task's thing whose name is a common
    one keeps its word beside the placeholder; an uncommon one (orange juice, a test's lead) is <e1> alone."""
    known = {"kitchen", "sink", "water", "substance called water", "chocolate"}
    rep = type(get_representation("common-task"))(known, rule=9)
    assert rep.rule == 9
    water = rep.map(_sw_prompt("kitchen", ["sink"], "boil water"), ["focus on water"])
    assert "boil water <e1>." in water.source and water.actions == ["focus on <e1>"]
    juice = rep.map(_sw_prompt("kitchen", ["sink"], "boil orange juice"), ["focus on orange juice"])
    assert "boil <e1>." in juice.source and juice.actions == ["focus on <e1>"]
    assert water.rewrite("focus on water") == juice.rewrite("focus on orange juice") == "focus on <e1>"
    old = type(rep)(known, rule=8)
    assert "boil <e1>." in old.map(_sw_prompt("kitchen", ["sink"], "boil water"), []).source
    # the paints keep rule 7's point: the mix asked for is the one that reads <e1>
    task = "use chemistry to create violet paint. When you are done, focus on the violet paint"
    made = _sw_prompt("art studio", ["wood cup"], task).replace(
        " </s> INV", " Red and blue paint mix to produce violet paint. </s> INV", 1
    )
    paints = type(rep)({"art studio", "violet paint", "green paint", "wood cup"}, rule=9)
    assert "mix to produce violet paint <e1>." in paints.map(made, []).source
    assert "mix to produce green paint." in paints.map(made.replace("produce violet", "produce green"), []).source


def test_common_task_rule_10_reads_around_the_tasks_thing_only_where_it_ends_a_longer_name():
    """Boil tin's kitchen holds a tin cup. Under rule 9 it read "a <e1> cup", so the tin seemed in sight in the
    kitchen and the agent focused on it there; a tin cup is a cup, and the substance's own name ends its name."""
    known = {"kitchen", "cupboard", "glass cup", "table"}
    prompt = (
        _sw_prompt("kitchen", ["cupboard", "table"], "boil tin")
        .replace("a cupboard", "a cupboard. In the cupboard is: a tin cup (containing nothing)", 1)
        .replace("a table", "a table. On the table is: a glass cup (containing a substance called tin)", 1)
    )
    rep = type(get_representation("common-task"))(known, rule=10)
    m = rep.map(prompt, ["focus on tin", "pick up tin cup"])
    assert "a substance called <e1>)" in m.source and "<e1> cup" not in m.source
    assert m.actions[0] == "focus on <e1>" and m.actions[1] not in ("pick up <e1> cup", "pick up tin cup")
    assert m.restore(m.actions[1]) == "pick up tin cup"
    assert "a <e1> cup" in type(rep)(known, rule=9).map(prompt, []).source  # the older rule, for its checkpoints
    # an agent that writes sends only what it sees by the prompt's numbering: the tin is <e1> in the glass cup only
    kitchen = prompt.replace("a glass cup (containing a substance called tin)", "nothing")
    assert rep.map(prompt, []).in_sight("focus on <e1>") and not rep.map(kitchen, []).in_sight("focus on <e1>")
    assert rep.map(kitchen, []).in_sight("open <e2>") and rep.map(kitchen, []).in_sight("look around")
    # a tin cup common enough to stay a word stays "tin cup", not "<e1> cup"
    common = type(rep)(known | {"tin cup"}).map(kitchen, [])
    assert "a tin cup (containing nothing)" in common.source and common.rewrite("pick up tin cup") == "pick up tin cup"
    assert not common.in_sight("focus on <e1>")


def test_common_task_rule_11_writes_what_a_task_asks_to_create_beside_its_placeholder():
    """A tertiary paint's name is its recipe (violet-red: red and violet). Under rule 10 an uncommon one read
    "create <e1>" alone and the agent mixed at random; it keeps its words beside its placeholder, and the
    action the agent writes is still the placeholder's."""
    known = {"art studio", "wood cup", "red paint", "blue paint"}
    task = "use chemistry to create violet-red paint. When you are completely done, focus on the violet-red paint"
    prompt = _sw_prompt("art studio", ["wood cup"], task)
    rep = type(get_representation("common-task"))(known)
    assert rep.rule >= 11
    m = rep.map(prompt, ["focus on violet-red paint"])
    assert "create violet-red paint <e1>." in m.source and m.actions == ["focus on <e1>"]
    assert "create <e1>." in type(rep)(known, rule=10).map(prompt, []).source  # the older rule, for its checkpoints
    # a thing the task is about but does not create stays a placeholder alone where its name is uncommon
    assert "boil <e1>." in rep.map(_sw_prompt("kitchen", ["sink"], "boil lead"), []).source


def test_common_task_rule_12_numbers_what_a_recipe_read_says_to_mix_so_a_test_recipe_reads_like_a_train_one():
    """chemistry-mix's test recipes name ingredients no train recipe does. Under rule 11 the train recipes' common
    ingredients stayed words ("pick up sodium chloride"), and an agent reading "mix sugar, water" fetched soap; from
    rule 12 what a recipe in the prompt says to mix is numbered after the task's things, common or not, with its
    words beside, wherever the prompt names it."""
    known = {"kitchen", "sodium chloride", "water", "soap", "glass jar"}
    task = "use chemistry to create the substance 'salt water'. When you are done, focus on the salt water"
    prompt = _sw_prompt("kitchen", ["glass jar (containing a substance called sodium chloride)", "soap"], task)
    prompt = prompt.replace(
        " </s> INV", " The recipe reads:\nTo make salt water, you need to mix sodium chloride, water. </s> INV", 1
    )
    rep = type(get_representation("common-task"))(known)
    assert rep.rule >= 12
    m = rep.map(prompt, ["pick up sodium chloride"])
    assert "mix sodium chloride <e2>, water <e3>." in m.source and "substance called sodium chloride <e2>" in m.source
    assert m.actions == ["pick up <e2>"] and m.restore("pick up <e2>") == "pick up sodium chloride"
    old = type(rep)(known, rule=11).map(prompt, [])  # the older rule, for its checkpoints
    assert "mix sodium chloride, water." in old.source
    # no recipe in the prompt: as rule 11
    plain = _sw_prompt("kitchen", ["soap"], task)
    assert rep.map(plain, []).source == type(rep)(known, rule=11).map(plain, []).source


def test_common_task_rule_13_reads_a_life_stage_organism_inside_every_stage_name():
    """identify-life-stages names one animal at each stage by a longer name ("a giant tortoise egg", "a hatchling
    giant tortoise"). Under rule 12 each stage was a placeholder of its own among five animals' hatchlings, and the
    agent focused on a caterpillar after the tortoise's egg; from rule 13 the organism the task follows is <e1>
    inside every stage name, wherever it stands in it, and a plant by its own word ("<e1> seed")."""
    known = {"outside", "caterpillar", "apple"}
    task = "focus on the 4 life stages of the giant tortoise, starting from earliest to latest"
    look = ["giant tortoise egg", "hatchling crocodile", "hatchling giant tortoise", "caterpillar"]
    rep = type(get_representation("common-task"))(known)
    assert rep.rule >= 13
    m = rep.map(_sw_prompt("outside", look, task), ["focus on hatchling giant tortoise"])
    assert "a <e1> egg  a <e2>  a hatchling <e1>  a caterpillar" in m.source and m.actions == [
        "focus on hatchling <e1>"
    ]
    assert m.restore("focus on hatchling <e1>") == "focus on hatchling giant tortoise"
    old = type(rep)(known, rule=12).map(_sw_prompt("outside", look, task), [])  # for its checkpoints
    assert "hatchling <e1>" not in old.source
    plant = "focus on the life stages of the apple plant, starting from earliest to latest"
    m = rep.map(_sw_prompt("outside", ["apple seed", "apple tree in the seedling stage", "tin cup"], plant), [])
    assert "a apple <e1> seed  a apple <e1> tree in the seedling stage  a <e2>" in m.source  # common: words beside
    # a task of no life stages reads as under rule 12 ("tin cup" stays whole where the task boils tin)
    boil = _sw_prompt("kitchen", ["tin cup", "stove"], "boil tin")
    assert rep.map(boil, []).source == type(rep)(known, rule=12).map(boil, []).source


def test_common_task_rule_15_follows_a_growing_tasks_fruit_so_a_common_fruit_reads_like_a_rare_one():
    """Every agent carries "an orange", so under rule 14 "grow a orange" kept the fruit a word while "grow a pear"
    numbered it, and its seeds were a placeholder of their own: an agent trained on both wrote the pear's seed
    placeholder in an orange world, where no prompt showed it. From rule 15 the fruit is <e1> inside its seed, tree
    and the task's "grown" fruit, whichever fruit a variation draws."""
    known = frozenset({"orange", "greenhouse", "kitchen", "seed jar", "flower pot 1", "soil"})
    rep = type(get_representation("common-task"))(known)
    assert rep.rule >= 15
    read = {}
    for fruit in ("orange", "pear"):
        task = f"grow a {fruit}. Seeds can be found in the kitchen. To complete the task, focus on the grown {fruit}"
        look = [f"seed jar (containing a {fruit} seed, a {fruit} seed)", f"flower pot 1 (containing a {fruit} tree)"]
        m = rep.map(
            _sw_prompt("greenhouse", look, task),
            [f"move {fruit} seed in seed jar to flower pot 1", f"focus on {fruit}"],
        )
        assert (
            m.actions == ["move <e1> seed in seed jar to flower pot 1", "focus on <e1>"]
            and "focus on the grown" in m.source
        )
        assert m.restore("focus on <e1>") == f"focus on {fruit}"
        read[fruit] = m.source.replace("orange <e1>", "<e1>")  # a common fruit's word stands beside its placeholder
    assert read["orange"] == read["pear"]
    old = type(rep)(known, rule=14).map(_sw_prompt("greenhouse", ["orange seed"], "grow a orange"), [])
    assert "<e1> seed" not in old.source  # the older rule, for its checkpoints


def test_common_task_rule_16_follows_the_crossed_plant_so_a_test_letter_reads_like_a_train_one():
    """The unknown plant's letter is drawn per variation (train B and E, test D): under rule 15 the train letters were
    words, and an agent trained on them wrote "unknown B seed" in a world of unknown D plants. From rule 16 the plant a
    genetics task crosses is <e1> inside every longer name, its traits before it as words."""
    known = frozenset({"greenhouse", "seed jar", "flower pot 1", "flower pot 2", "soil", "red box", "green box"})
    rep = type(get_representation("common-task"))(known, rule=16)  # rule 17 numbers "round" too (below)
    read = {}
    for letter in ("E", "D"):
        task = (
            f"determine whether round seed shape is a dominant or recessive trait in the unknown {letter} plant. If the"
            " trait is dominant, focus on the red box. If the trait is recessive, focus on the green box."
        )
        look = [
            f"seed jar (containing a round unknown {letter} seed)",
            f"flower pot 1 (containing a unknown {letter} plant)",
        ]
        m = rep.map(_sw_prompt("greenhouse", look, task), [f"move unknown {letter} seed in seed jar to flower pot 2"])
        assert m.actions == ["move <e1> seed in seed jar to flower pot 2"] and "a round <e1> seed" in m.source
        assert (
            m.restore("move <e1> seed in seed jar to flower pot 2")
            == f"move unknown {letter} seed in seed jar to flower pot 2"
        )
        read[letter] = m.source
    assert read["E"] == read["D"]
    old = type(rep)(known, rule=15).map(_sw_prompt("greenhouse", ["round unknown D seed"], task), [])
    assert "<e1> seed" not in old.source  # the older rule, for its checkpoints


def test_common_task_rule_17_numbers_the_trait_asked_of_so_a_child_shows_it_or_not_in_any_name():
    """Test variations ask of trait values no train variation has (red flower color, medium flower size). Under rule
    16 a flower was one placeholder ("a <e7>") whatever it showed. From rule 17 the value the task asks of is <e2>, in
    the task and inside every longer name, its word beside (the known plant's answer is the word's), so a child's
    "wilting large red flower" reads "wilting large red <e2> flower" whichever value a variation draws, and a flower
    without it reads otherwise."""
    known = frozenset({"greenhouse", "flower pot 1", "flower pot 2", "soil", "red box", "green box"})
    rep = type(get_representation("common-task"))(known)
    assert rep.rule >= 17
    read = {}
    for value, other in (("orange", "yellow"), ("red", "white")):
        task = (
            f"determine whether {value} flower color is a dominant or recessive trait in the unknown D plant. If the"
            " trait is dominant, focus on the red box. If the trait is recessive, focus on the green box."
        )
        look = [
            f"flower pot 1 (containing soil, a unknown D plant in the reproducing stage with a short height. On the"
            f" unknown D plant you see: a wilting large {value} flower. )",
            f"flower pot 2 (containing soil, a unknown D plant in the adult stage. On it: a small {other} flower. )",
        ]
        m = rep.map(_sw_prompt("greenhouse", look, task), ["focus on red box", "focus on green box"])
        assert f"whether {value} <e2> flower color" in m.source and f"a wilting large {value} <e2> flower" in m.source
        assert m.actions == ["focus on <e3>", "focus on <e4>"]  # the boxes after the plant and the trait
        assert m.restore("focus on <e3>") == "focus on red box"  # a box named by the trait's word stays whole
        read[value] = m.source.replace(other, "OTHER").replace(value, "VALUE")
    assert read["orange"] == read["red"]
    old = type(rep)(known, rule=16).map(_sw_prompt("greenhouse", look, task), [])
    assert "<e2> flower" not in old.source  # the older rule, for its checkpoints


def test_common_task_rule_14_numbers_the_two_planes_a_task_compares_and_keeps_what_it_asks_of_them_as_words():
    """Under rule 13 an inclined plane was written by its letter or surface and "the most friction" was one
    placeholder, as was "the least friction": the agent wrote train worlds' letters and could not read which plane
    the task wants. From rule 14 the two planes the task names are <e1> and <e2> in the order it names them, in the
    look, the `slides` answer and the commands; what it asks of them stays words."""
    task = "determine which of the two inclined planes (unknown material E, unknown material H) has the least friction"
    planes = ["inclined plane with a unknown material H surface", "inclined plane with a unknown material E surface"]
    rep = type(get_representation("common-task"))({"workshop", "stopwatch"})
    assert rep.rule >= 14
    prompt = _sw_prompt("workshop", [*planes, "stopwatch"], task)
    m = rep.map(prompt, ["move block to inclined plane with a unknown material h surface"])
    assert "has the least friction" in m.source and "a <e2>  a <e1>  a stopwatch" in m.source
    assert m.actions == ["move block to <e2>"] and m.rewrite(
        "focus on inclined plane with a unknown material e surface"
    ) == ("focus on <e1>")
    angle = _sw_prompt(
        "workshop",
        ["inclined plane C", "inclined plane B"],
        "determine which of the two inclined planes (C, B) has the steepest angle",
    )
    assert "a <e1>  a <e2>" in rep.map(angle, []).source and "the steepest angle" in rep.map(angle, []).source
    old = type(rep)(rep.known, rule=13).map(prompt, [])  # for its checkpoints: planes by their words
    assert "unknown material H surface" in old.source and "least friction" in old.source
    boil = _sw_prompt("kitchen", ["tin cup", "stove"], "boil tin")
    assert rep.map(boil, []).source == type(rep)(rep.known, rule=13).map(boil, []).source


def test_a_thing_a_task_names_after_an_article_is_numbered_as_the_seeds_the_gold_path_moves():
    """grow-fruit's task writes "grow a apple": read with its article, "a apple" was a name of its own, numbered in
    the prompt ("<e2> seed" in the seed jar) apart from the "apple" of the gold path's "move apple seed in seed jar to
    flower pot 3", which then wrote a placeholder the prompt never showed; every test episode's agent wrote it, and
    the game refused it. The article is no part of a name: every placeholder the target writes is in the prompt."""
    assert "apple" in things("Your task is to grow a apple.") and "a apple" not in things(
        "Your task is to grow a apple."
    )
    task = "grow a apple. This will require growing several plants. Seeds can be found in the kitchen"
    prompt = _sw_prompt("greenhouse", ["seed jar (containing a apple seed, a apple seed)", "flower pot 3"], task)
    rep = type(get_representation("common-task"))({"greenhouse", "seed jar", "flower pot 3"})
    m = rep.map(prompt, [])
    target = m.rewrite("move apple seed in seed jar to flower pot 3")
    written = set(re.findall(r"<e\d+>", target))
    assert written and written <= set(re.findall(r"<e\d+>", m.source)), (target, m.source)


def test_a_titled_thing_is_named_by_its_kind_as_the_parser_takes_it():
    """chemistry-mix's look writes "A recipe titled instructions to make rust" and its task "A recipe ... might be
    found"; the gold path picks it up as "pick up recipe". Read as "recipe titled instructions", the look's recipe
    and the task's were two placeholders, the target wrote the task's (never in sight), and an agent sent "pick up
    recipe titled instructions", which the parser refuses. Its kind is its name: the target's placeholder is in
    sight."""
    assert things("In it, you see:\n\tA recipe titled instructions to make rust\n\ta table") == ("recipe", "table")
    task = "use chemistry to create the substance 'rust'. A recipe and some of the ingredients might be found near the kitchen"
    prompt = _sw_prompt("kitchen", ["recipe titled instructions to make rust", "table"], task)
    rep = type(get_representation("common-task"))({"kitchen", "table"})
    m = rep.map(prompt, [])
    target = m.rewrite("pick up recipe")
    assert target != "pick up recipe" and m.in_sight(target), (target, m.source)


def test_a_training_chooses_the_entity_rule_to_measure_one_against_another(compose):
    """`entity_rule` trains on an older rule (to measure a new rule against the recipe's on dev); the run records it,
    and a rule the representation does not number by is one clear line."""
    from bct.config.runs import train_settings

    latest = get_representation("common-task").rule
    assert train_settings(compose("train", "+experiment=scienceworld"))["entity_rule"] == latest
    assert train_settings(compose("train", "+experiment=scienceworld", "entity_rule=16"))["entity_rule"] == 16
    rep = get_representation("common-task", 16)
    assert rep.rule == 16 and rep.knowing({"kitchen"}).rule == 16  # fitting keeps the rule
    task = "determine whether red flower color is a dominant or recessive trait in the unknown D plant"
    cross = _sw_prompt("greenhouse", ["wilting large red flower"], task)
    assert "red <e2> flower" in get_representation("common-task").map(cross, []).source  # the latest (17) numbers it
    assert "red <e2> flower" not in rep.map(cross, []).source  # rule 16 did not
    with pytest.raises(UserError, match="entity_rule=3: entities=common-task numbers by rules 6, 7, .*; choose one"):
        get_representation("common-task", 3)
    with pytest.raises(UserError, match="entity_rule=2: entities=text numbers by no rule"):
        get_representation("text", 2)
