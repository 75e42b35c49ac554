"""ScienceWorld's modules (compare, notes, slides, circuit, the working memory) answer facts and results, never
the action to take, and the gold paths call them where they help and still reach score 1.0."""

import re

import pytest

from bct.worlds.gold import play_gold
from bct.worlds.registry import fold_seeds, get_game, open_game

HALL = (
    "This room is called the hallway. In it, you see: the agent a picture You also see: A door to the kitchen "
    "(that is open) A door to the greenhouse (that is closed)"
)
KITCHEN = (
    "This room is called the kitchen. In it, you see: the agent a thermometer a stove You also see: "
    "A door to the hallway (that is open) A door to the outside (that is closed)"
)
TASK = (
    "Your task is to measure the melting point of lead. If the melting point of lead is above 300.0 degrees "
    "celsius, focus on the blue box. If the melting point of lead is below 300.0 degrees celsius, focus on the "
    "orange box."
)


def played(memory, steps):
    """Feed the memory a sequence of (action, observation, look) as the module interface would."""
    for action, observation, look in steps:
        memory.acted(action)
        memory.observe(observation, look, "In your inventory, you see: a thermometer")


def test_scienceworld_memory_answers_what_was_done_and_seen_never_what_to_do():
    from bct.worlds.registry import make_module

    memory = make_module("memory-scienceworld")
    memory.given(TASK)
    assert memory.run("recall progress") == "Focused on: nothing yet. Done 0 actions."
    played(memory, [("look around", HALL, HALL), ("go to kitchen", "You move to the kitchen.", KITCHEN)])
    played(memory, [("focus on lead", "You focus on the lead.", KITCHEN)])
    for reading in (20, 150, 320):
        played(memory, [("examine lead", "a substance called lead", KITCHEN)])
        played(
            memory,
            [
                (
                    "use thermometer in inventory on lead",
                    f"the thermometer measures a temperature of {reading} degrees celsius",
                    KITCHEN,
                )
            ],
        )
    answer = memory.run("recall progress")
    assert "Focused on: lead." in answer
    assert "Readings of lead: 20, 150, 320 C (latest above 300)." in answer  # the comparison, with the task's threshold
    assert "Done 9 actions" in answer and "examine lead; use thermometer in inventory on lead (x3)" in answer
    assert "focus on the blue box" not in answer and "blue box" not in answer  # a fact, never the next action
    memory.acted("recall progress")  # a module call is not an action done
    assert "Done 9 actions" in memory.run("recall progress")
    assert memory.run("recall route greenhouse") == "Route to the greenhouse: kitchen -> hallway -> greenhouse."
    assert memory.run("recall route kitchen") == "You are in the kitchen."
    assert memory.run("recall route bathroom") == "No door to the bathroom seen yet."
    assert memory.run("recall where stove") == "The stove was seen in: kitchen."
    assert "kitchen: doors to hallway (open), outside (closed)" in memory.run("recall map")
    assert memory.run("recall tomorrow").startswith("Unknown recall form 'tomorrow'. Usage: recall progress")
    assert "Where is what?" in memory.run("recall where")
    memory.reset()
    assert "Done 0 actions" in memory.run("recall progress")


@pytest.mark.slow
def test_gold_paths_with_memory_keep_its_answer_in_every_prompt():
    """Every RECALL_EVERY game actions the gold path asks the memory: from then on each game action is chosen
    with its answer in the prompt, as the observation or the previous one; the episode still reaches 100."""
    from bct.data.prompt import prompt_at
    from bct.worlds.scienceworld.gold import RECALL

    g = get_game("scienceworld-boil")
    assert g.memory and g.memory_module == "memory-scienceworld"
    with open_game(g, False, list_actions=False) as env:
        traj = play_gold(env, 0, "train", False)
    assert traj.ok, traj.error
    recalls = [i for i, a in enumerate(traj.actions, 1) if a == RECALL]
    assert recalls and all(traj.steps[i].from_module and "Done " in traj.steps[i].observation for i in recalls)
    for i in range(recalls[0], len(traj.steps) - 1):  # each game action is chosen with the answer in view
        if traj.steps[i + 1].action != RECALL:
            assert "Focused on:" in prompt_at(traj.steps, i), i
    assert "Focused on: water." in traj.steps[recalls[-1]].observation


def test_the_compare_module_says_which_side_of_the_threshold_a_reading_lies_never_which_box():
    from bct.worlds.registry import make_module

    compare = make_module("threshold")
    compare.given(TASK)  # "above 300.0 degrees celsius, focus on the blue box"
    compare.observe("the thermometer measures a temperature of 327 degrees celsius", KITCHEN, "")
    assert compare.commands() == ["compare 327 300", "compare reading 300"]
    assert compare.run("compare 327 300.0") == "327 is above 300."
    compare.observe("You move to the kitchen.", KITCHEN, "")  # the reading out of view: the module remembers it
    assert compare.run("compare reading 300.0") == "327 is above 300." and compare.commands() == ["compare reading 300"]
    assert compare.run("compare 327 with 300") == "327 is above 300."
    assert "box" not in compare.run("compare 327 300")  # a fact, never the next action
    compare.observe("the thermometer measures a temperature of -12 degrees celsius", KITCHEN, "")
    assert compare.run("compare -12 300.0") == "-12 is below 300."
    assert compare.run("compare 300 300") == "300 is equal to 300."
    # bad input is answered, not raised
    assert compare.run("compare 327").startswith("'compare' takes two numbers, got 1. Usage: compare A B")
    assert "are not both numbers" in compare.run("compare lead 300")
    assert "I have not observed the number 999" in compare.run("compare 999 300")
    compare.reset()
    assert compare.commands() == [] and "not observed" in compare.run("compare 327 300")
    assert "not observed a reading" in compare.run("compare reading 300")


def test_the_notes_module_answers_with_the_text_last_read_word_for_word_never_what_to_fetch():
    from bct.worlds.registry import make_module

    notes = make_module("notes")
    assert notes.run("notes") == "You have read nothing yet; read something first." and notes.commands() == []
    notes.observe("No known action matches that input.", KITCHEN, "")  # a refusal is not a text read
    assert notes.run("notes") == "You have read nothing yet; read something first."
    notes.observe("The recipe reads:\nTo make sugar water, you need to mix sugar, water.", KITCHEN, "")
    notes.observe("The oven is now open.", KITCHEN, "")  # out of view: the module keeps it
    assert notes.run("notes") == "The recipe reads: To make sugar water, you need to mix sugar, water."
    assert notes.commands() == ["notes"]  # offered once there is something to read back
    assert notes.run("notes please").startswith("'notes' takes no arguments, got 'notes please'. Usage: notes")
    notes.reset()
    assert "nothing yet" in notes.run("notes")


def test_the_slides_module_keeps_each_planes_slide_and_orders_them_by_speed_never_naming_the_one_to_choose():
    from bct.worlds.registry import make_module

    slides = make_module("slides")
    assert slides.commands() == [] and "not seen a block on an inclined plane" in slides.run("slides")
    paper = "an inclined plane with a paper surface, with: a wood block approximately 55% down the plane"
    slides.observe(paper, "", "")
    slides.observe("a stopwatch, which is deactivated. The time reads 13 ticks.", "", "")
    assert slides.commands() == ["slides"]
    assert slides.run("slides") == (
        "The block slid down the inclined plane with a paper surface: 55% down in 13 ticks; no other plane measured yet."
    )
    slides.observe("You move the wood block to the inclined plane.", "", "")  # out of view: kept
    slides.observe("an inclined plane C, with: a wood block approximately 9% down the plane", "", "")
    slides.observe("a stopwatch, which is deactivated. The time reads 13 ticks.", "", "")
    both = slides.run("slides")
    assert both == (
        "The block slid fastest down the inclined plane with a paper surface: 55% down in 13 ticks; "
        "then the inclined plane C: 9% down in 13 ticks."
    )
    assert "focus" not in both and "friction" not in both  # facts and their order, never the plane to choose
    # speed is distance over time: 30% in 4 ticks is faster than 55% in 13; a look with no time read is said so
    slides.observe("an inclined plane C, with: a wood block approximately 30% down the plane", "", "")
    assert slides.run("slides").endswith("then the inclined plane with a paper surface: 55% down in 13 ticks.")
    assert "the inclined plane C: 30% down, time not read" in slides.run("slides")
    slides.observe("an inclined plane C, with: a wood block at the bottom of the plane", "", "")
    slides.observe("The time reads 20 ticks.", "", "")
    assert "the inclined plane C: to the bottom in 20 ticks" in slides.run("slides")
    assert slides.run("slides now").startswith("'slides' takes no arguments, got 'slides now'. Usage: slides")
    slides.reset()
    assert slides.commands() == []


@pytest.mark.slow
@pytest.mark.parametrize("task", ["inclined-plane-determine-angle", "inclined-plane-friction-unnamed-surfaces"])
def test_the_inclined_planes_time_both_slides_alike_and_ask_slides_before_the_focus_well_within_100_actions(task):
    """search=1: one wait and one look on each plane (the simulator's path looks once a tick until the block is at
    the bottom: up to 368 actions); with modules=true `slides` just before the focus, its answer both planes' slides
    over the same time; each variation reaches 100 in under 30 actions."""
    g = get_game(f"scienceworld-{task}-search1").with_memory(False)
    assert g.module == "slides"
    with open_game(g, True, list_actions=False) as env:
        for seed in fold_seeds(g, "train", 2):
            traj = play_gold(env, seed, "train", True)
            assert traj.ok and traj.steps[-1].score == 1.0 and len(traj.actions) < 30, (traj.error, traj.actions)
            looks = [a for a in traj.actions if a.startswith("look at inclined plane")]
            assert len(looks) == 2 and len(set(looks)) == 2 and traj.actions.count("wait") == 2, traj.actions
            assert traj.actions[-2] == "slides" and traj.actions[-1].startswith("focus on inclined plane")
            answer = traj.steps[-2].observation
            assert (
                answer.startswith("The block slid fastest down the inclined plane") and answer.count("in 13 ticks") == 2
            )


def gold_with_module(name: str, module: str):
    """The gold paths of two drawn train variations of game `name` played with its module (`module`), each reaching 100."""
    g = get_game(name).with_memory(False)
    assert g.module == module
    with open_game(g, True, list_actions=False) as env:
        for seed in fold_seeds(g, "train", 2):
            traj = play_gold(env, seed, "train", True)
            assert traj.ok and traj.steps[-1].score == 1.0, traj.error
            yield traj


@pytest.mark.slow
def test_with_modules_a_conductivity_test_asks_circuit_after_each_connection_and_reaches_100():
    """The `circuit` answer after each connection holds the wire end the next one uses where a connection made before
    holds that wire (the fifth's wire, connected at the second, is out of the prompt without it); after the sixth it
    says no end is free."""
    for traj in gold_with_module("scienceworld-test-conductivity", "circuit"):
        connects = [i for i, a in enumerate(traj.actions) if a.startswith("connect ")]
        made = [i for i in connects if "is now connected to" in traj.steps[i + 1].observation]  # some are refused
        assert all(traj.actions[i + 1] == "circuit" for i in made) and traj.actions.count("circuit") == len(made)
        if len(made) < 6:  # the simulator's path connects a book by a name the parser refuses ("book terminal 1")
            continue
        fifth, answer = traj.actions[connects[4]], traj.steps[connects[4]].observation
        wire = re.search(r"to ([a-z]+ wire terminal \d)$", fifth).group(1)
        assert wire in answer.partition("Free wire ends:")[2], (fifth, answer)
        assert "No wire end in use is free." in traj.steps[connects[5] + 2].observation


@pytest.mark.slow
@pytest.mark.parametrize("task", ["power-component", "power-component-renewable-vs-nonrenewable-energy"])
def test_with_modules_a_power_circuit_asks_circuit_after_each_connection_but_the_last_and_reaches_100(task):
    """A half-built power circuit shows no free wire end in the look: the `circuit` answer after each connection names
    the wire ends still free until the last connection, which lights the bulb (or turns the motor) and ends it."""
    for traj in gold_with_module(f"scienceworld-{task}", "circuit"):
        connects = [i for i, a in enumerate(traj.actions) if a.startswith("connect ")]
        assert len(connects) == 4 and traj.actions.count("circuit") >= 3, traj.actions
        for i in connects[:3]:
            # steps[k] is the step that sent actions[k], its observation the one before it: the answer is at i + 2
            assert traj.actions[i + 1] == "circuit" and "Free wire ends:" in traj.steps[i + 2].observation
        second = traj.steps[connects[1] + 2].observation  # both source terminals wired, the two wires' far ends free
        assert second.partition("Free wire ends:")[2].count("terminal 2") == 2, second


@pytest.mark.slow
def test_with_modules_chemistry_mix_asks_its_notes_before_every_game_action_after_the_recipe_and_reaches_100():
    for traj in gold_with_module("scienceworld-chemistry-mix", "notes"):
        read = next(i for i, a in enumerate(traj.actions) if a.startswith("read "))
        after = traj.actions[read + 2 :]  # the game action right after the reading: the recipe is in view
        assert after[0::2] == ["notes"] * len(after[0::2]) and "notes" not in after[1::2], traj.actions
        recipe = " ".join(traj.steps[read + 1].observation.split())
        assert {traj.steps[i + 1].observation for i in range(read + 2, len(traj.actions), 2)} == {recipe}


@pytest.mark.slow
def test_with_modules_a_threshold_task_compares_its_reading_just_before_the_box_and_the_side_is_the_boxs():
    """measure-melting-point-known-substance with modules=true: the compare module's call comes right before the
    first action that names a box, with the module's latest reading and the task's threshold; its answer says the side of
    the box the gold path then chooses; the episode reaches 100. A task of no module plays the same both ways."""
    import re

    from bct.worlds.registry import data_modules

    g = get_game("scienceworld-measure-melting-point-known-substance").with_memory(False)
    assert g.module == "threshold" and data_modules(g, True) is True
    assert data_modules(get_game("scienceworld-boil").with_memory(False), True) is False
    with open_game(g, True, list_actions=False) as env:
        for seed in fold_seeds(g, "train", 2):
            traj = play_gold(env, seed, "train", True)
            assert traj.ok, traj.error
            calls = [i for i, a in enumerate(traj.actions, 1) if a.startswith("compare ")]
            assert len(calls) == 1 and traj.actions[calls[0] - 1].startswith("compare reading "), traj.actions
            step, chosen = traj.steps[calls[0]], traj.actions[calls[0]]
            assert step.from_module and re.fullmatch(r"-?\d+ is (above|below|equal to) -?\d+\.", step.observation)
            task = step.task
            above = re.search(r"is above [-\d.]+ degrees celsius, focus on the (\w+ box)", task).group(1)
            assert chosen.startswith("focus on") and (above in chosen) == (" is above " in step.observation)


def test_the_circuit_module_keeps_the_connections_and_the_free_wire_ends_never_naming_the_next_connection():
    from bct.worlds.registry import make_module

    circuit = make_module("circuit")
    assert circuit.commands() == [] and "Nothing is connected yet" in circuit.run("circuit")
    look = (
        "This room is called the workshop. In it, you see: a table. On the table is: a battery, a green wire, a orange"
        " wire, a red light bulb, which is off, a red wire, a switch, which is off."
    )
    circuit.observe("anode on battery is now connected to terminal 1 on orange wire", look, "")
    assert circuit.commands() == ["circuit"]
    circuit.observe("cathode on battery is now connected to terminal 1 on green wire", look, "")
    circuit.observe("You move to the hallway.", "This room is called the hallway.", "")  # out of view: kept
    circuit.observe("terminal 2 on orange wire is now connected to cathode on green light bulb", look, "")
    circuit.observe("terminal 2 on red wire is now connected to anode on green light bulb", look, "")
    answer = circuit.run("circuit")
    assert answer == (
        "Connected: battery anode - orange wire terminal 1; battery cathode - green wire terminal 1; orange wire"
        " terminal 2 - green light bulb cathode; red wire terminal 2 - green light bulb anode. Free wire ends: green"
        " wire terminal 2, red wire terminal 1. Every wire in sight is connected."
    )
    assert "connect " not in answer and "foil" not in answer  # facts, in a command's words, never the next command
    circuit.observe("orange wire has been disconnected", look, "")  # the game disconnects whole things
    assert circuit.run("circuit").startswith(
        "Connected: battery cathode - green wire terminal 1; red wire terminal 2 - green light bulb anode. Free wire"
        " ends: green wire terminal 2, red wire terminal 1. Wires not connected: orange wire."
    )
    assert circuit.run("circuit now").startswith("'circuit' takes no arguments, got 'circuit now'. Usage: circuit")
    circuit.reset()
    assert circuit.commands() == []


def test_the_colours_module_answers_the_painters_wheel_never_which_cup_to_pour():
    from bct.worlds.registry import make_module

    colours = make_module("colours")
    colours.given("Your task is to use chemistry to create violet-red paint. When you are part-way done, focus on ...")
    assert colours.commands() == ["colours violet-red"]  # the colours the task names that the wheel mixes
    # a tertiary: its two paints as its name orders them, then what makes its secondary
    assert colours.run("colours violet-red paint") == (
        "violet-red paint is violet paint and red paint mixed; violet paint is red paint and blue paint mixed."
    )
    assert colours.run("colours green-blue") == (
        "green-blue paint is green paint and blue paint mixed; green paint is yellow paint and blue paint mixed."
    )
    assert colours.run("colours orange") == "orange paint is red paint and yellow paint mixed."
    assert colours.run("colours purple") == "purple paint is red paint and blue paint mixed."
    assert colours.run("colours red") == "red is a primary colour: no two paints mix into it."
    # no wheel's neighbours: red is not beside green; an unknown colour; no argument
    assert colours.run("colours red-green").startswith("'red-green' is not on the painter's colour wheel")
    assert colours.run("colours pink").startswith("'pink' is not on the painter's colour wheel")
    assert colours.run("colours").startswith("'colours' takes one colour's name, got 'colours'. Usage: colours NAME")
    assert colours.run("colours blue-violet").endswith("violet paint is red paint and blue paint mixed.")


@pytest.mark.slow
def test_with_modules_a_tertiary_paint_asks_the_wheel_before_each_pour_in_its_order_and_reaches_100():
    for traj in gold_with_module("scienceworld-chemistry-mix-paint-tertiary-color", "colours"):
        pours = [i for i, a in enumerate(traj.actions) if a.startswith("pour cup containing")]
        assert len(pours) >= 3 and all(traj.actions[i - 1].startswith("colours ") for i in pours), traj.actions
        answer = traj.steps[pours[0]].observation  # the answer to the call right before the first pour
        secondary_mix = answer.split("; ")[1]  # "green paint is yellow paint and blue paint mixed."
        first, second = re.findall(r"(\w+) paint and (\w+) paint", secondary_mix)[0]
        assert [re.search(r"containing (\w+) paint", traj.actions[i]).group(1) for i in pours[:2]] == [first, second]


def test_the_tertiary_gold_pours_the_wheels_first_primary_first_where_both_go_into_one_container():
    from bct.worlds.scienceworld.paints import poured_as_named

    sim = ["look around", "pour cup containing blue paint in art studio in jug",
           "pour cup containing yellow paint in art studio in jug", "mix jug", "pour cup containing blue paint in jug"]  # fmt: skip
    assert poured_as_named(sim, "green-blue")[1:3] == [sim[2], sim[1]]  # the wheel says yellow, then blue
    assert poured_as_named(sim, "green-blue")[4] == sim[4]  # the pour into the secondary stays where it was
    into_cup = ["pour cup containing blue paint in art studio in cup containing nothing",
                "pour cup containing yellow paint in art studio in cup containing blue paint in table", "mix cup"]  # fmt: skip
    assert poured_as_named(into_cup, "green-blue") == into_cup  # the second cup is named by the first pour: kept
