"""Alhambra: what the board image marks as the last move, kept in `state.marks` as actions happen (`mark`), so the
image needs no history: the latest move event's player and words, and each player's cells and market spaces since
another player's last turn move."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine._common import Event
from engine.alhambra.state import Marks

# Events that are a player's own move, which the board image marks: the "move" event of every action, and the
# receipt of a leftover tile at the end (A51); any event carrying an action's JSON counts too.
MOVE_EVENTS = frozenset({"move", "leftover"})


def mark(marks: Marks, events: Iterable[Event]) -> Marks:
    """`marks` after `events` (in order): the latest move event sets the player and words; its cells and market
    space join its player's marks; a move that is not free (not a bonus card) ends every other player's turn,
    so their marks go. The result is what scanning the whole history back from the latest move gives: that
    player's moves since another player's last turn move. Returns `marks` itself when nothing changed."""
    player, text = marks.player, marks.text
    cells, spaces = marks.cells, marks.spaces
    changed = False
    for e in events:  # (this runs on every action, AI playouts included: kept lean)
        who = e.player
        if who is None:
            continue
        data = e.data or {}
        action = data.get("action")
        if not isinstance(action, dict):
            if e.kind not in MOVE_EVENTS:
                continue
            action = None
        changed = True
        player, text = who, e.text
        if not data.get("free"):  # a turn move ends every other player's turn on the image
            if cells and (len(cells) > 1 or who not in cells):
                cells = {who: cells[who]} if who in cells else {}
            if spaces and (len(spaces) > 1 or who not in spaces):
                spaces = {who: spaces[who]} if who in spaces else {}
        for src in (data, action) if action is not None else (data,):
            if "cell" in src or "cells" in src:
                found = [src["cell"]] if isinstance(src.get("cell"), (list, tuple)) else []
                found += src.get("cells", ())
                if found:
                    had = cells.get(who, ())
                    cells = {**cells, who: tuple(sorted({*had, *(_as_cell(c) for c in found)}))}
            if "space" in src and isinstance(src["space"], int):
                had_spaces = spaces.get(who, ())
                if src["space"] not in had_spaces:
                    spaces = {**spaces, who: tuple(sorted((*had_spaces, src["space"])))}
    return Marks(player, text, cells, spaces) if changed else marks


def _as_cell(value: Any) -> tuple[int, int]:
    x, y = value
    return int(x), int(y)
