"""The rules of every game, behind one interface (see ENGINE_CONTRACT in the project notes and README.md).

    from engine import GAMES, get_rules, IllegalAction
    rules = get_rules("alhambra")
    state = rules.new_game(["111", "222"], options={}, seed=42)

Pure Python: no discord, no asyncio, no I/O at move time. Each game lives in its own package
(`engine/alhambra`, `engine/gardens`, `engine/queens_garden`) exposing `RULES`, with one skeleton: `state.py`
(frozen dataclasses), `actions.py` (the action classes, `describe`), `rules.py` (the `Rules` subclass: the
contract facade), `scoring.py`, `components.py` (data tables), `geometry.py` (the board); a rules file too long
to read splits into plain functions of the state (`setup`, `listing`, `check`, `turn`, `summary`). Modules are
imported by their own names (`from engine.alhambra import geometry`) or their names imported from them, never
under an alias.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine._common import Event, IllegalAction, MalformedAction, Option, Rules

GAMES: tuple[str, ...] = ("alhambra", "gardens", "queens_garden")

__all__ = ["GAMES", "Event", "IllegalAction", "MalformedAction", "Option", "Rules", "get_rules"]


def get_rules(game: str) -> Rules[Any, Any]:
    """The rules object of `game` (one of GAMES). ValueError for an unknown game."""
    if game not in GAMES:
        raise ValueError(f"Unknown game '{game}'. Games: {', '.join(GAMES)}.")
    rules: Rules[Any, Any] = importlib.import_module(f"engine.{game}").RULES
    return rules
