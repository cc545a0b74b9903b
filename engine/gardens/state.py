"""The Gardens of the Alhambra game state (a frozen dataclass, JSON via the shared codec).

Positions use the notation of `geometry.py` ("C3" gardens, "d4" buildings). Hidden tiles in a view are `HIDDEN`.
"""

from __future__ import annotations

import dataclasses

from engine._common import Event

HIDDEN = "?"  # a tile id the viewer may not see (another player's hand, the supply order; G19)

COLOURS = "colours"  # G17: players choose their tree kind(s), in seat order
PLAY = "play"  # G21: players place tiles in turn
OVER = "over"  # G34: every garden filled, every building scored


@dataclasses.dataclass(frozen=True, slots=True)
class GardensState:
    """Everything about one game.

    `board[g]` is `(tile id, rotation)` or None for garden index g (r*6+c); `buildings[b]` the value of the
    building at index b (i*7+j, G16). A building is scored exactly when it is complete (G26, G32), so
    "scored" is derived from the board (`engine.gardens.completed_buildings`). `colours[seat]` are the kinds
    that seat plays (one, or two in the G37 variant; empty until chosen); `kind_scores` are the points per kind
    in `components.KINDS` order (G37 keeps a player's two kinds apart; a player's score is the sum over their kinds).
    `supply` lists the garden tiles still to draw, next first (hidden in views).
    """

    players: tuple[str, ...]
    seed: int
    counter: int
    hand_size: int  # G18: 1, or 3 with the G36 variant
    two_colours: bool  # G37
    buildings: tuple[int, ...]
    board: tuple[tuple[str, int] | None, ...]
    hands: tuple[tuple[str, ...], ...]
    supply: tuple[str, ...]
    colours: tuple[tuple[str, ...], ...]
    kind_scores: tuple[int, int, int, int]
    phase: str
    turn: int  # seat index of the player to act
    last_space: str | None = None  # the garden placed last (renderers highlight it)
    log: tuple[Event, ...] = ()  # the last action's events only (rules.py)
