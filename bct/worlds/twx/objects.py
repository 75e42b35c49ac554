"""TextWorldExpress's object data: where each household object usually belongs (twc_objects.folds.json,
shipped with the package). The knowledge-base module answers from it; it is the game's own data, the same
for every agent."""

from __future__ import annotations

import functools
import json
from importlib import resources


@functools.cache
def knowledge() -> dict[str, list[str]]:
    """Object name (lower case) -> its usual locations, over the train, dev and test folds."""
    raw = json.loads(resources.files("textworld_express").joinpath("twc_objects.folds.json").read_text())
    return {name.lower(): entry["locations"] for fold in raw.values() for name, entry in fold.items()}
