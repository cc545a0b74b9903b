"""Alhambra states stored by earlier versions of the engine, brought up to date (`Rules.migrate`).

Version 1 kept the whole history in `log`. Version 2 keeps only the last action's events there, with what the
images and the AI need across actions in fields of their own: `marks` (the last move and each player's turn so
far, `marks.mark`) and `reshuffled` (A41). A version-1 payload becomes the state the engine would have reached
by playing the same moves: the marks are folded over the old log, `reshuffled` says whether it holds a
reshuffle, and the log is cut to the last action's events: from its last "move" event on (every action but a
V66 standing order writes one first), or the private note of a standing order when that came last. A log
written before move events existed (it has none) cannot be cut into actions: it is kept only when it is
still the deal's (`new_game`'s events), else dropped.
"""

from __future__ import annotations

from typing import Any

from engine._common import Event, from_jsonable, to_jsonable
from engine.alhambra.marks import mark
from engine.alhambra.state import Marks

DEAL_KINDS = frozenset({"start_player", "bonus_dealt"})  # what new_game writes (and Dirk's tiles, A62)


def migrate(version: Any, payload: Any) -> Any:
    """The payload of a stored state of JSON `version`, in the current form. ValueError for unknown versions."""
    if version != 1:
        raise ValueError(f"unknown Alhambra state version {version!r}")
    if not isinstance(payload, dict):
        raise ValueError("an Alhambra state must be an object")
    log: tuple[Event, ...] = from_jsonable(tuple[Event, ...], payload.get("log", []))
    return {
        **payload,
        "log": to_jsonable(last_action(log)),
        "marks": to_jsonable(mark(Marks(), log)),
        "reshuffled": any(e.kind == "reshuffle" for e in log),
    }


def last_action(log: tuple[Event, ...]) -> tuple[Event, ...]:
    """The events of the last action in a whole-history log (see the module docstring)."""
    if log and log[-1].kind == "bonus_autoplay_set":  # V66: a standing order writes its private note alone
        return log[-1:]
    starts = [i for i, e in enumerate(log) if e.kind == "move"]
    if starts:
        return log[starts[-1] :]
    if all(e.kind in DEAL_KINDS or (e.kind == "dirk_tiles" and e.data.get("reason") == "setup") for e in log):
        return log
    return ()
