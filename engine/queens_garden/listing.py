"""Azul: Queen's Garden candidate listing: exactly the legal actions, equivalent choices collapsed to one
representative: a payment per multiset of (kind, tile-or-expansion) used, one copy per kind in storage, one copy
per kind and display source when acquiring. Passing lists no discard, one hexagon of each kind, or everything
(`check` accepts any subset of storage: a menu may offer a multi-select).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import combinations, product
from typing import Literal

from engine.queens_garden.actions import Acquire, Action, BuyExpansion, Pass, PlaceExpansion, PlaceTile
from engine.queens_garden.components import (
    BLANK_EXPANSION_COST,
    EXPANSION_KIND,
    PASS_DISCARDS_JOKERS,
    STORAGE_EXPANSIONS,
    STORAGE_TILES,
    TILE_KIND,
    Kind,
)
from engine.queens_garden.geometry import (
    AREAS,
    FITS,
    free_areas,
    free_spaces,
    hexagons,
    neighbour_kinds,
    placement_code,
    printed_space,
)
from engine.queens_garden.state import Piece, QGState, Seat, tile_sources

Payment = tuple[tuple[int, ...], tuple[int, ...], int]  # (tile ids, expansion ids, jokers)
_PRINTED = {a: tuple(printed_space(a, turn) for turn in range(6)) for a in AREAS}  # Q28, by area and turn
# Placements are made once and shared (frozen values): looking one up costs less than making it, and a game
# lists the same placements again and again.
_place_tile = functools.lru_cache(maxsize=1 << 16)(PlaceTile)
_place_expansion = functools.lru_cache(maxsize=1 << 14)(PlaceExpansion)


def candidates(state: QGState, player: str) -> Iterator[Action]:
    """Exactly the legal actions of `player` (the one to move), one representative per equivalent choice."""
    return iter(listed(state, player))


def listed(state: QGState, player: str) -> list[Action]:
    """`candidates` as a list (what legal_actions returns)."""
    seat = state.seats[state.players.index(player)]
    out: list[Action] = list(_acquire_options(state, seat))
    hexmap = hexagons(seat)
    free = free_spaces(seat, hexmap)
    firsts: dict[Kind, int] = {}
    for t in seat.tiles:  # sorted: the lowest id of each kind represents its copies
        firsts.setdefault(TILE_KIND[t], t)
    # the hexagons next to each free space; a space with none takes any hexagon (Q26a; it joins no group)
    near = {sp: neighbour_kinds(hexmap, sp) for sp in free} if firsts else {}
    for kind, t in firsts.items():
        payments = payment_options(seat, kind, tile=t)
        if not payments:
            continue
        for sp in free:
            ks = near[sp]
            if not ks or placement_code(hexmap, sp, kind, ks) == FITS:
                out.extend(_place_tile(t, sp, pt, pe, j) for pt, pe, j in payments)
    areas = free_areas(seat)
    for e in seat.expansions:
        kind = EXPANSION_KIND[e]
        payments = payment_options(seat, kind, expansion=e)
        if not payments:
            continue
        for a in areas:
            for turn, sp in enumerate(_PRINTED[a]):
                if placement_code(hexmap, sp, kind) == FITS:
                    out.extend(_place_expansion(e, a, turn, pt, pe, j) for pt, pe, j in payments)
    if state.supply and seat.score >= BLANK_EXPANSION_COST:
        out.extend(BuyExpansion(a) for a in areas)
    out.extend(_pass_options(seat))
    return out


def _acquire_options(state: QGState, seat: Seat) -> tuple[Acquire, ...]:
    """Q19–Q21: every colour/pattern in the display, every choice among identical hexagons, if it fits."""
    room_tiles = STORAGE_TILES - len(seat.tiles) - seat.jokers
    room_exps = STORAGE_EXPANSIONS - len(seat.expansions)
    every = _acquires(state.stack_tiles, state.display)
    if room_tiles >= every[1] and room_exps >= every[2]:
        return every[0]
    return tuple(a for a in every[0] if len(a.tiles) <= room_tiles and len(a.expansions) <= room_exps)


@functools.lru_cache(maxsize=1 << 10)
def _acquires(stack_tiles: tuple[int, ...], display: tuple[Piece, ...]) -> tuple[tuple[Acquire, ...], int, int]:
    """Every acquisition from a display (the stack's top tiles and the display pieces) with room enough, and the
    most tiles and expansions one takes; cached: the display stays while the others take their turns."""
    out = []
    # criterion -> kind -> the distinct ways to take that kind: a tile per source (copies on one source are
    # interchangeable, Q20) or the face-up expansion
    tables: tuple[dict[int, dict[Kind, list[tuple[str, int]]]], ...] = ({}, {})
    seen: set[tuple[Kind, int]] = set()
    for t, src in tile_sources(stack_tiles, display).items():
        k = TILE_KIND[t]
        if (k, src) not in seen:
            seen.add((k, src))
            for idx in (0, 1):
                tables[idx].setdefault(k[idx], {}).setdefault(k, []).append(("t", t))
    for p in display:
        if p.face_up:
            k = EXPANSION_KIND[p.expansion]
            for idx in (0, 1):
                tables[idx].setdefault(k[idx], {}).setdefault(k, []).append(("e", p.expansion))
    criteria: tuple[Literal["colour", "pattern"], ...] = ("colour", "pattern")
    most_tiles = most_exps = 0
    for by, table in zip(criteria, tables, strict=True):
        for value in sorted(table):
            for choice in product(*table[value].values()):
                tiles = tuple(sorted(i for s, i in choice if s == "t"))
                exps = tuple(sorted(i for s, i in choice if s == "e"))
                out.append(Acquire(by, value, tiles, exps))  # Q21: kept only if storage has room
                most_tiles = max(most_tiles, len(tiles))
                most_exps = max(most_exps, len(exps))
    return tuple(out), most_tiles, most_exps


def payment_options(
    seat: Seat, kind: Kind, *, tile: int | None = None, expansion: int | None = None
) -> tuple[Payment, ...]:
    """Q25: every distinct way to pay for a hexagon of `kind` (the placed `tile` or `expansion` left out), one
    representative per multiset of (kind, tile-or-expansion) used, fewest jokers first."""
    return _payments(seat.tiles, seat.expansions, seat.jokers, kind, tile, expansion)


@functools.lru_cache(maxsize=1 << 14)
def _payments(
    tiles: tuple[int, ...],
    expansions: tuple[int, ...],
    jokers: int,
    kind: Kind,
    tile: int | None,
    expansion: int | None,
) -> tuple[Payment, ...]:
    """payment_options from the storage (tiles, expansions, jokers); cached: a storage is listed again and again."""
    need = kind[1] - 1
    if need == 0:
        return (((), (), 0),)
    families: tuple[dict[Kind, list[tuple[str, int]]], dict[Kind, list[tuple[str, int]]]] = ({}, {})
    for t in tiles:
        k = TILE_KIND[t]
        if t == tile or k == kind or (k[0] != kind[0] and k[1] != kind[1]):
            continue
        opts = families[0 if k[0] == kind[0] else 1].setdefault(k, [])
        if not opts or opts[0][0] != "t":
            opts.insert(0, ("t", t))
    for e in expansions:
        k = EXPANSION_KIND[e]
        if e == expansion or k == kind or (k[0] != kind[0] and k[1] != kind[1]):
            continue
        families[0 if k[0] == kind[0] else 1].setdefault(k, []).append(("e", e))
    out: list[Payment] = []
    for family in families:
        keys = sorted(family)
        for size in range(min(need, len(keys)), max(1, need - jokers) - 1, -1):
            for combo in combinations(keys, size):
                for choice in product(*(family[x] for x in combo)):
                    pt = tuple(sorted(i for s, i in choice if s == "t"))
                    pe = tuple(sorted(i for s, i in choice if s == "e"))
                    out.append((pt, pe, need - size))
    if jokers >= need:
        out.append(((), (), need))
    out.sort(key=lambda p: p[2])
    return tuple(out)


def _pass_options(seat: Seat) -> Iterator[Pass]:
    """Q29: pass plainly, discarding one hexagon (one per kind), or discarding all of them. Any other subset is
    legal too (`check` accepts it): a menu can build it as a multi-select; the list stays short."""
    yield Pass()
    firsts: dict[Kind, int] = {}
    for t in seat.tiles:
        firsts.setdefault(TILE_KIND[t], t)
    for t in firsts.values():
        yield Pass(tiles=(t,))
    for e in seat.expansions:
        yield Pass(expansions=(e,))
    if len(seat.tiles) + len(seat.expansions) > 1:
        yield Pass(tiles=seat.tiles, expansions=seat.expansions)
    if PASS_DISCARDS_JOKERS and seat.jokers:
        yield Pass(jokers=1)
