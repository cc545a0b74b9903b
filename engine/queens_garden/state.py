"""Azul: Queen's Garden state and action dataclasses (frozen, JSON through the engine codec).

Ids: tiles 0–107 and expansions 0–35 (see components.py); spaces and areas by name (see geometry.py).
In a `view()` every face-down expansion (round stacks, supply, display pieces still holding tiles, blank
expansions in gardens) shows as -1, the bag is sorted, and the seed and draw counter are 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine._common import Event, action

HIDDEN = -1  # an expansion id a viewer may not see


@dataclass(frozen=True, slots=True)
class Piece:
    """An expansion in the display beside the round stack (Q22): face down with the tiles still on it, or face
    up and empty (Q23), when it is acquirable as its printed hexagon."""

    expansion: int
    tiles: tuple[int, ...] = ()
    face_up: bool = False


@dataclass(frozen=True, slots=True)
class Placed:
    """An expansion in a garden (Q28): in `area`, turned `turn` sixth-turns; face_up False = blank side up."""

    expansion: int
    area: str
    turn: int = 0
    face_up: bool = True


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's garden, storage and score."""

    tiles: tuple[int, ...] = ()  # storage tiles (sorted ids); with jokers at most 12 (Q8)
    expansions: tuple[int, ...] = ()  # storage expansions (sorted ids), at most 2 (Q8)
    jokers: int = 0
    garden: dict[str, int] = field(default_factory=dict)  # space name -> placed tile id
    placed: tuple[Placed, ...] = ()  # expansions in the garden, in placing order
    rewarded: frozenset[str] = frozenset()  # garden elements already surrounded (Q30: each pays once)
    score: int = 0
    passed: bool = False


@dataclass(frozen=True, slots=True)
class QGState:
    players: tuple[str, ...]
    seed: int
    rng_counter: int
    round: int  # 1–4; the wheel shows WHEEL[round]
    current: int | None  # index of the player to move; None once the game is over
    first_player: int  # who started this round
    marker: int | None  # who took the first-player marker this round (None: it lies in the display, Q15)
    bag: tuple[int, ...]  # draw order, next first
    tower: tuple[int, ...]  # discarded tiles (Q25, Q29, Q34)
    stack: tuple[int, ...]  # the current round stack, top first, face down (Q13, Q16)
    stack_tiles: tuple[int, ...]  # the tiles resting on the stack's top expansion
    display: tuple[Piece, ...]  # expansions moved out beside the stack (Q22)
    stacks: tuple[tuple[int, ...], ...]  # the round stacks still to come
    supply: tuple[int, ...]  # face-down supply, top first (Q13, Q28 ii)
    seats: tuple[Seat, ...]
    over: bool = False
    log: tuple[Event, ...] = ()


# ------------------------------------------------------------------------------------------------ actions


@action("acquire")
class Acquire:
    """Action A (Q19–Q24): take every hexagon of one colour or pattern from the display, one of each kind."""

    by: Literal["colour", "pattern"]
    value: int  # colour index 0–5 or pattern value 1–6
    tiles: tuple[int, ...] = ()
    expansions: tuple[int, ...] = ()  # face-up display expansions taken


@action("place_tile")
class PlaceTile:
    """Action B (Q25–Q27): plant a storage tile on a free space, paying its value in hexagons."""

    tile: int
    space: str
    pay_tiles: tuple[int, ...] = ()
    pay_expansions: tuple[int, ...] = ()
    jokers: int = 0


@action("place_expansion")
class PlaceExpansion:
    """Action C (i) (Q28): place a storage expansion face up on a free area, paying its printed value."""

    expansion: int
    area: str
    turn: int  # 0–5: its printed hexagon lands on ring cell turn+1 (geometry.printed_space)
    pay_tiles: tuple[int, ...] = ()
    pay_expansions: tuple[int, ...] = ()
    jokers: int = 0


@action("buy_expansion")
class BuyExpansion:
    """Action C (ii) (Q28): pay 6 points for the supply's top expansion and place it blank side up."""

    area: str


@action("pass")
class Pass:
    """Action D (Q29): pass for the round, optionally discarding hexagons from storage at their value."""

    tiles: tuple[int, ...] = ()
    expansions: tuple[int, ...] = ()
    jokers: int = 0  # Q29 [?]: only when data's pass_discards_jokers is true (jokers are worth 0 here)


Action = Acquire | PlaceTile | PlaceExpansion | BuyExpansion | Pass
ACTION_TYPES: tuple[type, ...] = (Acquire, PlaceTile, PlaceExpansion, BuyExpansion, Pass)
