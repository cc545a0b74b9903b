"""Gardens states stored by earlier versions of the engine, brought up to date (`Rules.migrate`).

Version 1 kept the whole history in `log`; version 2 keeps only the last action's events there (the results
come from the board: `rules.building_scores`). A version-1 payload keeps the events of its last action: a
placement's, from its "place" event on (then the draw, the buildings it completed, the end of the game), or a
colour choice's: the chooser's "colour" event and those of the seats after it that had a single possibility
left and got it without a question (G17, G37). A new game's log is empty in both versions.
"""

from __future__ import annotations

import itertools
from typing import Any

from engine.gardens.components import KINDS


def migrate(version: Any, payload: Any) -> Any:
    """The payload of a stored state of JSON `version`, in the current form. ValueError for unknown versions."""
    if version != 1:
        raise ValueError(f"unknown Gardens state version {version!r}")
    if not isinstance(payload, dict) or not isinstance(payload.get("log", []), list):
        raise ValueError("a Gardens state must be an object with a list of events")
    log: list[Any] = payload.get("log", [])
    return {**payload, "log": last_action(log, bool(payload.get("two_colours")))}


def last_action(log: list[Any], two_colours: bool) -> list[Any]:
    """The events (JSON) of the last action in a whole-history log (see the module docstring)."""
    kinds = [e.get("kind") for e in log]
    if "place" in kinds:
        return log[len(kinds) - 1 - kinds[::-1].index("place") :]
    colours = [i for i, k in enumerate(kinds) if k == "colour"]
    taken: set[str] = set()
    start = None
    for i in colours:  # one event per seat, in seat order; a seat with a choice acted itself
        free = [k for k in KINDS if k not in taken]
        if len(list(itertools.combinations(free, 2 if two_colours else 1))) != 1:
            start = i
        taken.update(log[i].get("data", {}).get("colours", ()))
    return log[start:] if start is not None else []
