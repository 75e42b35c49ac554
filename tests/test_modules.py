"""Each module answers correctly from what it observed, and answers (never raises) on bad commands."""

import pytest

from bct.core.errors import UserError
from bct.worlds.registry import MODULES, WORLDS, make_module


def observed(name, observation="", look="", inventory=""):
    m = make_module(name)
    m.observe(observation, look, inventory)
    return m


@pytest.mark.parametrize(
    "problem, command, answer",
    [
        ("add 42 and 9", "add 42 9", "The result of adding 42 and 9 is 51."),
        ("subtract 23 from 26", "sub 26 23", "The result of subtracting 23 from 26 is 3."),
        ("multiply 34 and 5", "mul 34 5", "The result of multiplying 34 and 5 is 170."),
        ("divide 22 by 11", "div 22 11", "The result of dividing 22 by 11 is 2."),
    ],
)
def test_calc_reads_the_problem_and_computes_in_the_right_order(problem, command, answer):
    calc = observed("calc", f"Your task is to solve the following math problem: {problem} . Then, pick up ...")
    assert calc.command_for(calc.problems[-1]) == command
    assert command in calc.commands()
    assert calc.run(command) == answer


@pytest.mark.parametrize(
    "command, says",
    [
        ("div 22 0", "divide by zero"),
        ("add 22", "two numbers"),
        ("add 22 11 5", "two numbers"),
        ("mul 22 eleven", "not both numbers"),
        ("add 22 99", "not observed the number 99"),
    ],
)
def test_calc_answers_bad_arguments(command, says):
    calc = observed("calc", "divide 22 by 11 . There is also 0 apples.")
    assert says in calc.run(command)


MAP = (
    "The map reads:\n  The garage connects to the launderette and backyard.\n"
    "  The parlor connects to the side yard and backyard.\n  The alley connects to the backyard.\n"
    "  The side yard connects to the closet and parlor.\n  The backyard connects to the alley, parlor and garage.\n"
    "  The launderette connects to the bathroom and garage.\n"
)
HERE = "You are in the parlor. In one part of the room you see a box. \nTo the North you see the backyard. To the South you see the side yard. "


def test_navigation_finds_the_shortest_path_on_a_read_map():
    nav = observed("navigation", MAP, HERE)
    assert nav.here == "parlor" and nav.exits == {"backyard": "north", "side yard": "south"}
    assert "next step to bathroom" in nav.commands()
    answer = nav.run("next step to bathroom")
    assert answer.startswith("The next location to go to is the backyard.")
    assert nav.last_path == ["parlor", "backyard", "garage", "launderette", "bathroom"]
    assert nav.path("alley") == ["parlor", "backyard", "alley"]


@pytest.mark.parametrize(
    "command, says",
    [
        ("next step to moon base", "don't know a room called 'moon base'"),
        ("next step to", "Which room?"),
        ("next step to parlor", "already in the parlor"),
    ],
)
def test_navigation_answers_bad_rooms(command, says):
    assert says in observed("navigation", MAP, HERE).run(command)


def test_navigation_before_the_map_is_read():
    nav = observed("navigation", HERE, HERE)
    # only the rooms seen from here are known: an unseen one is named, with the rooms it does know
    assert (
        nav.run("next step to closet")
        == "I don't know a room called 'closet'. Rooms I know: backyard, parlor, side yard."
    )
    assert nav.run("next step to backyard").startswith("The next location to go to is the backyard.")


def sort_answer(look):
    return observed("sortquantity", look=look).run("sort ascending").split(": ", 1)[1].rstrip(".").split(", ")


@pytest.mark.parametrize(
    "look, order",
    [
        (
            "a table that has 2kg of oak, 50mg of wood, and 10g of brick on it.",
            ["50mg of wood", "10g of brick", "2kg of oak"],
        ),
        (
            "a shelf that has 4m of cedar, 32cm of oak, and 300mm of marble on it.",
            ["300mm of marble", "32cm of oak", "4m of cedar"],
        ),
        ("a shelf that has 2l of oak, and 900ml of marble on it.", ["900ml of marble", "2l of oak"]),
        (
            "a counter that has 40 oranges, 6 bananas, and 22 pineapples on it.",
            ["6 bananas", "22 pineapples", "40 oranges"],
        ),
    ],
)
def test_sortquantity_orders_by_quantity_with_units(look, order):
    assert sort_answer(look) == order


def test_sortquantity_descending_and_bad_arguments():
    m = observed("sortquantity", look="a table that has 4m of oak, and 32cm of wood on it.")
    assert m.run("sort descending").endswith("4m of oak, 32cm of wood.")
    assert "Usage" in m.run("sort sideways")
    assert "Usage" in m.run("sort")
    assert "not observed any items" in make_module("sortquantity").run("sort ascending")


def test_kb_answers_for_dev_and_test_objects():
    from bct.worlds.twx.objects import knowledge

    kb = make_module("kb-twc")
    # objects of the dev ("valid") and test folds, which never occur in training games
    kb.observe("", "You see a magazine. You also see a newspaper.", "")
    assert (
        kb.run("query magazine")
        == "magazine is expected to be located at end table. magazine is expected to be located at side table."
    )
    assert kb.run("query newspaper").startswith("newspaper is expected to be located at ")
    assert len(knowledge()) == 501


def test_kb_offers_queries_for_objects_in_view_and_answers_bad_queries():
    kb = observed(
        "kb-twc",
        look="You see a bed. In another part of the room you see a black blanket.",
        inventory="Inventory:\n  a dirty teal dress\n",
    )
    assert kb.commands() == ["query black blanket", "query dirty teal dress"]
    assert "have not seen 'moon rock'" in kb.run("query moon rock")


def test_modules_use_only_what_was_seen_and_keep_answers_short():
    kb = make_module("kb-twc")
    assert kb.run("query magazine").startswith("You have not seen 'magazine'")  # a known object, never seen
    kb.observe("", "You see a magazine.", "")
    assert kb.run("query magazine").startswith("magazine is expected to be located at")
    calc = observed("calc", observation="Your task is to solve the following math problem: divide 12 by 6 .")
    for spelling in ["١٢", "６", "1_0", "1e1", "+6"]:
        assert "not both numbers" in calc.run(f"div {spelling} 6"), spelling
    assert calc.run("div 12 6") == "The result of dividing 12 by 6 is 2."
    for module in [
        kb,
        calc,
        make_module("navigation"),
        make_module("sortquantity"),
        make_module("threshold"),
        make_module("notes"),
        make_module("colours"),
        make_module("slides"),
        make_module("circuit"),
    ]:
        verb = module.verbs[0]
        answer = module.run(f"{verb} " + "x" * 100_000 + " y")
        assert len(answer) < 300, (module.name, len(answer))
    assert "Which object?" in kb.run("query")


def test_registry_and_ownership():
    """Every module by name: the shared ones and each world's own (a world's are its folder's business)."""
    assert set(MODULES) == {"calc", "threshold", "sortquantity", "notes", "colours"} | {
        name for world in WORLDS.values() for name in world.modules
    }
    assert {"navigation", "kb-twc", "memory-twx", "memory-scienceworld", "slides", "circuit"} <= set(MODULES)
    with pytest.raises(UserError, match=r"unknown module 'abacus'.*valid choices: calc, circuit, .*threshold"):
        make_module("abacus")
    assert make_module("navigation").owns("next step to kitchen")
    assert not make_module("navigation").owns("move north")
    assert make_module("calc").owns("div 4 2") and not make_module("calc").owns("take 4 apples")


def test_the_directions_navigator_also_says_which_way_to_move():
    nav = observed(
        "navigation-directions",
        observation="The map reads: The kitchen connects to the pantry.",
        look="You are in the kitchen. To the North you see the pantry.",
    )
    assert nav.run("next step to pantry") == (
        "The next location to go to is the pantry. The full path from the "
        "kitchen to the pantry is: kitchen, pantry. To go there, move north."
    )
    plain = observed(
        "navigation",
        observation="The map reads: The kitchen connects to the pantry.",
        look="You are in the kitchen. To the North you see the pantry.",
    )
    assert plain.run("next step to pantry").endswith("kitchen, pantry.")
