"""Azul: Queen's Garden candidate listing: exactly the legal actions, equivalent choices collapsed to one
representative: a payment per multiset of (kind, tile-or-expansion) used, one copy per kind in storage, one copy
per kind and display source when acquiring. Passing lists no discard, one hexagon of each kind, or everything
(`check` accepts any subset of storage: a menu may offer a multi-select).
"""

from __future__ import annotations

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
    NEIGHBOURS,
    free_areas,
    free_spaces,
    hexagons,
    placement_problem,
    printed_space,
)
from engine.queens_garden.state import QGState, Seat, display_tiles

Payment = tuple[tuple[int, ...], tuple[int, ...], int]  # (tile ids, expansion ids, jokers)


def candidates(state: QGState, player: str) -> Iterator[Action]:
    """Exactly the legal actions of `player` (the one to move), one representative per equivalent choice."""
    seat = state.seats[state.players.index(player)]
    yield from _acquire_options(state, seat)
    hexmap = hexagons(seat)
    free = free_spaces(seat, hexmap)
    firsts: dict[Kind, int] = {}
    for t in seat.tiles:  # sorted: the lowest id of each kind represents its copies
        firsts.setdefault(TILE_KIND[t], t)
    # a free space with no neighbouring hexagon takes any hexagon (Q26a; it joins no group)
    lonely = {sp for sp in free if not any(n in hexmap for n in NEIGHBOURS[sp])}
    for kind, t in firsts.items():
        spaces = [sp for sp in free if sp in lonely or placement_problem(hexmap, sp, kind) is None]
        if not spaces:
            continue
        payments = payment_options(seat, kind, tile=t)
        for sp in spaces:
            for pt, pe, j in payments:
                yield PlaceTile(t, sp, pt, pe, j)
    areas = free_areas(seat)
    for e in seat.expansions:
        kind = EXPANSION_KIND[e]
        spots = [
            (a, turn)
            for a in areas
            for turn in range(6)
            if placement_problem(hexmap, printed_space(a, turn), kind) is None
        ]
        if not spots:
            continue
        payments = payment_options(seat, kind, expansion=e)
        for a, turn in spots:
            for pt, pe, j in payments:
                yield PlaceExpansion(e, a, turn, pt, pe, j)
    if state.supply and seat.score >= BLANK_EXPANSION_COST:
        for a in areas:
            yield BuyExpansion(a)
    yield from _pass_options(seat)


def _acquire_options(state: QGState, seat: Seat) -> Iterator[Acquire]:
    """Q19–Q21: every colour/pattern in the display, every choice among identical hexagons, if it fits."""
    # criterion -> kind -> the distinct ways to take that kind: a tile per source (copies on one source are
    # interchangeable, Q20) or the face-up expansion
    tables: tuple[dict[int, dict[Kind, list[tuple[str, int]]]], ...] = ({}, {})
    seen: set[tuple[Kind, int]] = set()
    for t, src in display_tiles(state).items():
        k = TILE_KIND[t]
        if (k, src) not in seen:
            seen.add((k, src))
            for idx in (0, 1):
                tables[idx].setdefault(k[idx], {}).setdefault(k, []).append(("t", t))
    for p in state.display:
        if p.face_up:
            k = EXPANSION_KIND[p.expansion]
            for idx in (0, 1):
                tables[idx].setdefault(k[idx], {}).setdefault(k, []).append(("e", p.expansion))
    room_tiles = STORAGE_TILES - len(seat.tiles) - seat.jokers
    room_exps = STORAGE_EXPANSIONS - len(seat.expansions)
    criteria: tuple[Literal["colour", "pattern"], ...] = ("colour", "pattern")
    for by, table in zip(criteria, tables, strict=True):
        for value in sorted(table):
            for choice in product(*table[value].values()):
                tiles = tuple(sorted(i for s, i in choice if s == "t"))
                if len(tiles) > room_tiles:  # Q21
                    continue
                exps = tuple(sorted(i for s, i in choice if s == "e"))
                if len(exps) <= room_exps:
                    yield Acquire(by, value, tiles, exps)


def payment_options(seat: Seat, kind: Kind, *, tile: int | None = None, expansion: int | None = None) -> list[Payment]:
    """Q25: every distinct way to pay for a hexagon of `kind` (the placed `tile` or `expansion` left out), one
    representative per multiset of (kind, tile-or-expansion) used, fewest jokers first."""
    need = kind[1] - 1
    if need == 0:
        return [((), (), 0)]
    families: tuple[dict[Kind, list[tuple[str, int]]], dict[Kind, list[tuple[str, int]]]] = ({}, {})
    for t in seat.tiles:
        k = TILE_KIND[t]
        if t == tile or k == kind or (k[0] != kind[0] and k[1] != kind[1]):
            continue
        opts = families[0 if k[0] == kind[0] else 1].setdefault(k, [])
        if not opts or opts[0][0] != "t":
            opts.insert(0, ("t", t))
    for e in seat.expansions:
        k = EXPANSION_KIND[e]
        if e == expansion or k == kind or (k[0] != kind[0] and k[1] != kind[1]):
            continue
        families[0 if k[0] == kind[0] else 1].setdefault(k, []).append(("e", e))
    out: list[Payment] = []
    for family in families:
        keys = sorted(family)
        for size in range(min(need, len(keys)), max(1, need - seat.jokers) - 1, -1):
            for combo in combinations(keys, size):
                for choice in product(*(family[x] for x in combo)):
                    pt = tuple(sorted(i for s, i in choice if s == "t"))
                    pe = tuple(sorted(i for s, i in choice if s == "e"))
                    out.append((pt, pe, need - size))
    if seat.jokers >= need:
        out.append(((), (), need))
    out.sort(key=lambda p: p[2])
    return out


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
