"""The one reader of TWX's fixed sentences, as the entity placeholders, gold paths and navigator use it."""

from bct.worlds.twx import text
from bct.worlds.twx.modules.navigation import Navigation

MAP = "The map reads:   The garage connects to the launderette and backyard.  The backyard connects to the garage."
LOOK = (
    "You are in the parlor. In one part of the room you see a box, that is empty. There is also a red apple. "
    "You also see a oven glove. To the North you see the backyard. To the South you see the side yard."
)
TASK = "Your task is to take the coin that is located in the hallway, and put it into the box found in the side yard."


def test_facts_of_the_fixed_sentences():
    assert text.facts(MAP) == [("edge", "garage", ("launderette", "backyard")), ("edge", "backyard", ("garage",))]
    facts = text.facts(LOOK)
    assert ("here", "parlor") in facts and ("exit", "north", "backyard") in facts
    assert ("exit", "south", "side yard") in facts
    assert {f[1] for f in facts if f[0] == "see"} >= {"box", "red apple", "oven glove"}
    assert text.task_rooms(TASK) == ("hallway", "side yard")
    assert text.facts("black blanket is expected to be located at bedroom, on the bed.") == [
        ("belongs", "bedroom, on the bed")
    ]


def test_a_sentence_that_breaks_the_template_is_no_fact():
    assert text.facts("You are in the parlor, sort of.") == []  # a name ends at its full stop, not at a comma
    assert text.facts("To the Up you see the attic.") == [("see", "attic")]  # not a direction: no exit
    assert text.facts("take the coin and run.") == []  # the task's sentence needs "that is located in"


def test_the_map_reading_after_its_colon_names_the_room_alone():
    """Rule 3 of the placeholders: "The map reads: The garage connects" names "garage", not "map reads: The garage"."""
    assert "garage" in text.names(MAP) and not any("map" in n for n in text.names(MAP))


def test_the_navigator_reads_through_the_same_reader():
    nav = Navigation()
    nav.observe(MAP, LOOK, "")
    assert nav.here == "parlor" and nav.exits == {"backyard": "north", "side yard": "south"}
    assert nav.graph["garage"] == ["launderette", "backyard"]
    assert nav.run("next step to garage").startswith("The next location to go to is the backyard.")
