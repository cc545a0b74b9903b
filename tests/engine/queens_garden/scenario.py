"""Small helpers to build explicit Queen's Garden positions for the rule tests (hexagons by code, e.g. 'Y2')."""

from __future__ import annotations

import dataclasses
from collections import Counter

from engine.queens_garden import RULES
from engine.queens_garden.components import EXPANSION_KIND, LETTER_INDEX, TILE_KIND
from engine.queens_garden.state import Placed, QGState, Seat


def kind(code: str) -> tuple[int, int]:
    return (LETTER_INDEX[code[0]], int(code[1:]))


def tile(code: str, copy: int = 0) -> int:
    """The id of copy `copy` (0–2) of the tile with this code."""
    return [i for i, k in enumerate(TILE_KIND) if k == kind(code)][copy]


def tiles(*codes: str) -> tuple[int, ...]:
    """Distinct tile ids for these codes (repeated codes get the next copy)."""
    seen: Counter[str] = Counter()
    out = []
    for c in codes:
        out.append(tile(c, seen[c]))
        seen[c] += 1
    return tuple(sorted(out))


def exp(code: str) -> int:
    """The id of the expansion printed with this hexagon."""
    return EXPANSION_KIND.index(kind(code))


def plants(**spaces: str) -> dict[str, int]:
    """{'M1': 'Y2', ...} -> space -> tile id (copies 2 and up used, so storage helpers can take copies 0–1)."""
    seen: Counter[str] = Counter()
    out = {}
    for space, code in spaces.items():
        out[space] = tile(code, 2 - seen[code])
        seen[code] += 1
    return out


def seat(
    *,
    tiles_: tuple[int, ...] = (),
    exps: tuple[int, ...] = (),
    jokers: int = 0,
    score: int = 15,
    plants: dict[str, int] | None = None,
    placed: tuple[Placed, ...] = (),
    **kw,
) -> Seat:
    return Seat(
        tiles=tuple(sorted(tiles_)),
        expansions=tuple(sorted(exps)),
        jokers=jokers,
        score=score,
        garden=plants or {},
        placed=placed,
        **kw,
    )


def game(n: int = 2, *seats: Seat, seed: int = 5, **changes) -> QGState:
    """A fresh game with player 0 to move and start, then these seats and state fields swapped in."""
    s = RULES.new_game([f"p{i}" for i in range(n)], {}, seed)
    all_seats = list(s.seats)
    for i, st in enumerate(seats):
        all_seats[i] = st
    return dataclasses.replace(s, current=0, first_player=0, seats=tuple(all_seats), **changes)


def legal(s: QGState, cls: type | None = None) -> list:
    p = s.players[s.current]
    acts = RULES.legal_actions(s, p)
    return [a for a in acts if cls is None or isinstance(a, cls)]


def act(s: QGState, action) -> QGState:
    return RULES.apply(s, s.players[s.current], action)


def why(s: QGState, action) -> str | None:
    """The refusal of `action` by the player to move, in English (None: legal)."""
    refusal = RULES.check(s, s.players[s.current], action)
    return None if refusal is None else str(refusal)
