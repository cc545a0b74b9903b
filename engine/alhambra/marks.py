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
    for e in events:
        data = e.data or {}
        action = data.get("action")
        if e.player is None or not (e.kind in MOVE_EVENTS or isinstance(action, dict)):
            continue
        changed = True
        player, text = e.player, e.text
        if not data.get("free"):
            cells = {player: cells[player]} if player in cells else {}
            spaces = {player: spaces[player]} if player in spaces else {}
        new_cells: set[tuple[int, int]] = set()
        new_spaces: set[int] = set()
        for src in (data, action) if isinstance(action, dict) else (data,):
            if isinstance(src.get("cell"), (list, tuple)):
                new_cells.add(_as_cell(src["cell"]))
            for c in src.get("cells", ()):
                new_cells.add(_as_cell(c))
            if isinstance(src.get("space"), int):
                new_spaces.add(src["space"])
        if new_cells:
            cells = {**cells, player: tuple(sorted(new_cells.union(cells.get(player, ()))))}
        if new_spaces:
            spaces = {**spaces, player: tuple(sorted(new_spaces.union(spaces.get(player, ()))))}
    return Marks(player, text, cells, spaces) if changed else marks


def _as_cell(value: Any) -> tuple[int, int]:
    x, y = value
    return int(x), int(y)
