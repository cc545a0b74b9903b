"""Azul: Queen's Garden state (frozen dataclasses, JSON through the engine codec).

Ids: tiles 0–107 and expansions 0–35 (see components.py); spaces and areas by name (see geometry.py).
In a `view()` every face-down expansion (round stacks, supply, display pieces still holding tiles, blank
expansions in gardens) shows as -1, the bag is sorted, and the seed and draw counter are 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from engine._common import Event, native_dataclasses

HIDDEN = -1  # an expansion id a viewer may not see


@dataclass(frozen=True, slots=True, init=False)
class Piece:
    """An expansion in the display beside the round stack (Q22): face down with the tiles still on it, or face
    up and empty (Q23), when it is acquirable as its printed hexagon."""

    expansion: int
    tiles: tuple[int, ...] = ()
    face_up: bool = False

    def __init__(  # the fields in order (tests/engine/test_compiled.py): mypyc compiles it to native stores
        self,
        expansion: int,
        tiles: tuple[int, ...] = (),
        face_up: bool = False,
    ) -> None:
        object.__setattr__(self, "expansion", expansion)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "face_up", face_up)


@dataclass(frozen=True, slots=True, init=False)
class Placed:
    """An expansion in a garden (Q28): in `area`, turned `turn` sixth-turns; face_up False = blank side up."""

    expansion: int
    area: str
    turn: int = 0
    face_up: bool = True

    def __init__(  # the fields in order (tests/engine/test_compiled.py): mypyc compiles it to native stores
        self,
        expansion: int,
        area: str,
        turn: int = 0,
        face_up: bool = True,
    ) -> None:
        object.__setattr__(self, "expansion", expansion)
        object.__setattr__(self, "area", area)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "face_up", face_up)


@dataclass(frozen=True, slots=True)
class FinalScore:
    """Q35: how the final scoring changed one seat's score (the results sheet's columns)."""

    before: int  # the score before it (after round 4)
    after_storage: int  # after storage: +1 per joker, −value per hexagon left (Q35), never below 0 (Q37)
    colour_points: int  # colour groups of 3+: the sum of their values
    pattern_points: int  # pattern groups of 3+
    bonus: int  # +6 per group of 6


@dataclass(frozen=True, init=False)  # no slots: `replace` copies its instance dict at once
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
    round_points: tuple[int, ...] = ()  # Q31–Q33: what each round's scoring gave, rounds 1, 2, ... so far
    final: FinalScore | None = None  # Q35: the final scoring's breakdown, once the game is over

    def __init__(  # the fields in order (tests/engine/test_compiled.py): mypyc compiles it to native stores
        self,
        tiles: tuple[int, ...] = (),
        expansions: tuple[int, ...] = (),
        jokers: int = 0,
        garden: dict[str, int] | None = None,
        placed: tuple[Placed, ...] = (),
        rewarded: frozenset[str] = frozenset(),
        score: int = 0,
        passed: bool = False,
        round_points: tuple[int, ...] = (),
        final: FinalScore | None = None,
    ) -> None:
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "expansions", expansions)
        object.__setattr__(self, "jokers", jokers)
        object.__setattr__(self, "garden", {} if garden is None else garden)
        object.__setattr__(self, "placed", placed)
        object.__setattr__(self, "rewarded", rewarded)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "passed", passed)
        object.__setattr__(self, "round_points", round_points)
        object.__setattr__(self, "final", final)

    def copied(self, ch: dict[str, Any]) -> Seat:
        """`replace(self, **ch)` in compiled code (the steps call it; the test of the written-out classes checks it
        copies every field): a copy by the constructor (native loads and stores), then the changed fields set."""
        new = Seat(
            self.tiles,
            self.expansions,
            self.jokers,
            self.garden,
            self.placed,
            self.rewarded,
            self.score,
            self.passed,
            self.round_points,
            self.final,
        )
        for name, value in ch.items():
            if name not in _SEAT_FIELDS:
                raise TypeError(f"unknown field for Seat: {name}")
            object.__setattr__(new, name, value)
        return new


@dataclass(frozen=True, init=False)  # no slots: a step makes it from one dict (turn.Draft.freeze)
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
    log: tuple[Event, ...] = ()  # the last action's events only: its "move" event first (turn.py)

    def __init__(  # the fields in order (tests/engine/test_compiled.py): mypyc compiles it to native stores
        self,
        players: tuple[str, ...],
        seed: int,
        rng_counter: int,
        round: int,
        current: int | None,
        first_player: int,
        marker: int | None,
        bag: tuple[int, ...],
        tower: tuple[int, ...],
        stack: tuple[int, ...],
        stack_tiles: tuple[int, ...],
        display: tuple[Piece, ...],
        stacks: tuple[tuple[int, ...], ...],
        supply: tuple[int, ...],
        seats: tuple[Seat, ...],
        over: bool = False,
        log: tuple[Event, ...] = (),
    ) -> None:
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "rng_counter", rng_counter)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "current", current)
        object.__setattr__(self, "first_player", first_player)
        object.__setattr__(self, "marker", marker)
        object.__setattr__(self, "bag", bag)
        object.__setattr__(self, "tower", tower)
        object.__setattr__(self, "stack", stack)
        object.__setattr__(self, "stack_tiles", stack_tiles)
        object.__setattr__(self, "display", display)
        object.__setattr__(self, "stacks", stacks)
        object.__setattr__(self, "supply", supply)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "over", over)
        object.__setattr__(self, "log", log)


native_dataclasses(Piece, Placed, FinalScore, Seat, QGState)  # compiled, as their sources
_SEAT_FIELDS: Final = frozenset(Seat.__dataclass_fields__)  # what `copied` accepts


def display_tiles(state: QGState) -> dict[int, int]:
    """Every tile in the display -> its source: -2 for the stack's top, else the display expansion's id."""
    out = {t: -2 for t in state.stack_tiles}
    for p in state.display:
        for t in p.tiles:
            out[t] = p.expansion
    return out
