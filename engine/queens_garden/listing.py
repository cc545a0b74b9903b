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
    NEIGHBOURS,
    free_areas,
    free_spaces,
    hexagons,
    placement_verdict,
    printed_space,
)
from engine.queens_garden.state import Piece, QGState, Seat

Payment = tuple[tuple[int, ...], tuple[int, ...], int]  # (tile ids, expansion ids, jokers)

# The listed actions are made once and shared (frozen values): playouts list the same ones again and again.
_place = functools.lru_cache(maxsize=1 << 15)(PlaceTile)
_place_expansion = functools.lru_cache(maxsize=1 << 13)(PlaceExpansion)
_buy = functools.lru_cache(maxsize=64)(BuyExpansion)


def candidates(state: QGState, player: str) -> Iterator[Action]:
    """Exactly the legal actions of `player` (the one to move), one representative per equivalent choice."""
    return iter(listed(state, player))


def listed(state: QGState, player: str) -> list[Action]:
    """`candidates` as a list: acquisitions, tile placements, expansions (placed, bought), passes."""
    seat = state.seats[state.players.index(player)]
    room_tiles = STORAGE_TILES - len(seat.tiles) - seat.jokers
    room_exps = STORAGE_EXPANSIONS - len(seat.expansions)
    out: list[Action] = [
        a
        for a, n_tiles, n_exps in _acquires(state.stack_tiles, state.display)
        if n_tiles <= room_tiles and n_exps <= room_exps
    ]
    garden = _garden(seat)
    tiles, exps, jokers = seat.tiles, seat.expansions, seat.jokers
    for kind, t in _firsts(tiles):
        spaces = garden.spaces(kind)
        if spaces:
            payments = _payments(tiles, exps, jokers, kind, t, None)
            out.extend(_place(t, sp, pt, pe, j) for sp in spaces for pt, pe, j in payments)
    for e in exps:
        kind = EXPANSION_KIND[e]
        spots = garden.spots(kind)
        if spots:
            payments = _payments(tiles, exps, jokers, kind, None, e)
            out.extend(_place_expansion(e, a, turn, pt, pe, j) for a, turn in spots for pt, pe, j in payments)
    if state.supply and seat.score >= BLANK_EXPANSION_COST:
        out.extend(_buy(a) for a in garden.areas)
    out.extend(_passes(tiles, exps, jokers))
    return out


class _Garden:
    """What the listing asks of one garden (a seat's `garden` dict and `placed` tuple, never mutated): its
    hexagons, free spaces and areas, and per hexagon kind where it may go (Q26, Q28), each computed once."""

    __slots__ = ("garden", "placed", "hexmap", "free", "lonely", "areas", "_spaces", "_spots")

    def __init__(self, seat: Seat) -> None:
        self.garden = seat.garden
        self.placed = seat.placed
        self.hexmap = hexmap = hexagons(seat)
        self.free = free_spaces(seat, hexmap)
        # a free space with no neighbouring hexagon takes any hexagon (Q26a; it joins no group)
        self.lonely = {sp for sp in self.free if not any(n in hexmap for n in NEIGHBOURS[sp])}
        self.areas = free_areas(seat)
        self._spaces: dict[Kind, list[str]] = {}
        self._spots: dict[Kind, list[tuple[str, int]]] = {}

    def spaces(self, kind: Kind) -> list[str]:
        """The free spaces a tile of `kind` may go on (Q26)."""
        found = self._spaces.get(kind)
        if found is None:
            hexmap, lonely = self.hexmap, self.lonely
            found = self._spaces[kind] = [
                sp for sp in self.free if sp in lonely or not placement_verdict(hexmap, sp, kind)
            ]
        return found

    def spots(self, kind: Kind) -> list[tuple[str, int]]:
        """The (free area, turn) an expansion printed with `kind` may be placed with (Q26, Q28)."""
        found = self._spots.get(kind)
        if found is None:
            hexmap = self.hexmap
            found = self._spots[kind] = [
                (a, turn)
                for a in self.areas
                for turn in range(6)
                if not placement_verdict(hexmap, printed_space(a, turn), kind)
            ]
        return found


_GARDENS: dict[tuple[int, int], _Garden] = {}


def _garden(seat: Seat) -> _Garden:
    """The _Garden of a seat, cached by the identity of its garden and placed expansions (states share them and
    never mutate them; the entry keeps both alive, so their ids cannot be reused meanwhile)."""
    key = (id(seat.garden), id(seat.placed))
    hit = _GARDENS.get(key)
    if hit is not None and hit.garden is seat.garden and hit.placed is seat.placed:
        return hit
    if len(_GARDENS) > 1024:
        _GARDENS.clear()
    hit = _GARDENS[key] = _Garden(seat)
    return hit


@functools.lru_cache(maxsize=1 << 12)
def _firsts(tiles: tuple[int, ...]) -> tuple[tuple[Kind, int], ...]:
    """Each kind in storage with its lowest id (sorted storage: it represents its copies)."""
    firsts: dict[Kind, int] = {}
    for t in tiles:
        firsts.setdefault(TILE_KIND[t], t)
    return tuple(firsts.items())


@functools.lru_cache(maxsize=1 << 12)
def _acquires(stack_tiles: tuple[int, ...], display: tuple[Piece, ...]) -> tuple[tuple[Acquire, int, int], ...]:
    """Every acquisition the display offers (Q19–Q21), each with how many tiles and expansions it takes (the
    storage room decides which are legal, Q21)."""
    tiles_at = {t: -2 for t in stack_tiles}  # display_tiles: the stack's top, then the display's pieces
    for p in display:
        for t in p.tiles:
            tiles_at[t] = p.expansion
    return tuple((a, len(a.tiles), len(a.expansions)) for a in _acquire_options(tiles_at, display))


def _acquire_options(tiles_at: dict[int, int], display: tuple[Piece, ...]) -> Iterator[Acquire]:
    """Q19–Q21: every colour/pattern in the display, every choice among identical hexagons (storage room aside)."""
    # criterion -> kind -> the distinct ways to take that kind: a tile per source (copies on one source are
    # interchangeable, Q20) or the face-up expansion
    tables: tuple[dict[int, dict[Kind, list[tuple[str, int]]]], ...] = ({}, {})
    seen: set[tuple[Kind, int]] = set()
    for t, src in tiles_at.items():
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
    for by, table in zip(criteria, tables, strict=True):
        for value in sorted(table):
            for choice in product(*table[value].values()):
                tiles = tuple(sorted(i for s, i in choice if s == "t"))
                exps = tuple(sorted(i for s, i in choice if s == "e"))
                yield Acquire(by, value, tiles, exps)


def payment_options(seat: Seat, kind: Kind, *, tile: int | None = None, expansion: int | None = None) -> list[Payment]:
    """Q25: every distinct way to pay for a hexagon of `kind` (the placed `tile` or `expansion` left out), one
    representative per multiset of (kind, tile-or-expansion) used, fewest jokers first."""
    return list(_payments(seat.tiles, seat.expansions, seat.jokers, kind, tile, expansion))


@functools.lru_cache(maxsize=1 << 14)
def _payments(
    tiles: tuple[int, ...],
    expansions: tuple[int, ...],
    jokers: int,
    kind: Kind,
    tile: int | None,
    expansion: int | None,
) -> tuple[Payment, ...]:
    """payment_options for a storage (cached: storages repeat from listing to listing)."""
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


@functools.lru_cache(maxsize=1 << 12)
def _passes(tiles: tuple[int, ...], expansions: tuple[int, ...], jokers: int) -> tuple[Pass, ...]:
    """Q29: pass plainly, discarding one hexagon (one per kind), or discarding all of them. Any other subset is
    legal too (`check` accepts it): a menu can build it as a multi-select; the list stays short."""
    out = [Pass()]
    out.extend(Pass(tiles=(t,)) for _, t in _firsts(tiles))
    out.extend(Pass(expansions=(e,)) for e in expansions)
    if len(tiles) + len(expansions) > 1:
        out.append(Pass(tiles=tiles, expansions=expansions))
    if PASS_DISCARDS_JOKERS and jokers:
        out.append(Pass(jokers=1))
    return tuple(out)
