"""Azul: Queen's Garden candidate listing: exactly the legal actions, equivalent choices collapsed to one
representative: a payment per multiset of (kind, tile-or-expansion) used, one copy per kind in storage, one copy
per kind and display source when acquiring. Passing lists no discard, one hexagon of each kind, or everything
(`check` accepts any subset of storage: a menu may offer a multi-select).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import combinations, product
from typing import Any, Literal

from engine._common import maker
from engine.queens_garden import components
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
    printed_space,
)
from engine.queens_garden.state import Piece, QGState, Seat

Payment = tuple[tuple[int, ...], tuple[int, ...], int]  # (tile ids, expansion ids, jokers)

# The listed actions are made by fast positional constructors (a listing makes dozens); a few kinds are shared.
_place = maker(PlaceTile)  # (tile, space, pay_tiles, pay_expansions, jokers)
_place_expansion = maker(PlaceExpansion)  # (expansion, area, turn, pay_tiles, pay_expansions, jokers)
_acquire = maker(Acquire)  # (by, value, tiles, expansions)
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
    hexagons, free spaces and areas, its colour and pattern groups, and per hexagon kind where it may go (Q26,
    Q28), each computed once."""

    __slots__ = ("garden", "placed", "hexmap", "free", "areas", "groups", "_near", "_spaces", "_spots")

    def __init__(self, seat: Seat) -> None:
        self.garden = seat.garden
        self.placed = seat.placed
        self.hexmap = hexmap = hexagons(seat)
        self.free = free_spaces(seat, hexmap)
        self.areas = free_areas(seat)
        self.groups = (_groups(hexmap, 0), _groups(hexmap, 1))
        self._near: dict[str, Any] = {}
        self._spaces: dict[Kind, list[str]] = {}
        self._spots: dict[Kind, list[tuple[str, int]]] = {}

    def _around(self, space: str) -> Any:
        """What a hexagon on the free `space` would meet: its neighbours' kinds, and per colour (then per pattern)
        among them the groups of that colour it would join: whether they hold no value twice, and their values."""
        near = self._near.get(space)
        if near is None:
            hexmap = self.hexmap
            around = [(n, k) for n in NEIGHBOURS[space] if (k := hexmap.get(n)) is not None]
            if not around:
                near = self._near[space] = _LONELY
                return near
            joins: list[dict[int, tuple[bool, frozenset[int]]]] = []
            for by in (0, 1):
                group_of, members = self.groups[by]
                joined: dict[int, set[int]] = {}
                for n, k in around:
                    joined.setdefault(k[by], set()).add(group_of[n])
                facts = {}
                for key, gs in joined.items():
                    values = [v for g in gs for v in members[g]]
                    facts[key] = (len(set(values)) == len(values), frozenset(values))
                joins.append(facts)
            near = self._near[space] = ([k for _, k in around], joins[0], joins[1])
        return near

    def fits(self, space: str, kind: Kind) -> bool:
        """placement_verdict(hexmap, space, kind) == 0 (Q26)."""
        near = self._near.get(space)
        return _fits(self._around(space) if near is None else near, kind)

    def spaces(self, kind: Kind) -> list[str]:
        """The free spaces a tile of `kind` may go on (Q26)."""
        found = self._spaces.get(kind)
        if found is None:
            found = self._spaces[kind] = [sp for sp in self.free if self.fits(sp, kind)]
        return found

    def spots(self, kind: Kind) -> list[tuple[str, int]]:
        """The (free area, turn) an expansion printed with `kind` may be placed with (Q26, Q28)."""
        found = self._spots.get(kind)
        if found is None:
            fits = self.fits
            found = self._spots[kind] = [
                (a, turn) for a in self.areas for turn in range(6) if fits(printed_space(a, turn), kind)
            ]
        return found


_LONELY: Any = ((), {}, {})  # what a free space without neighbouring hexagons meets


def _fits(near: Any, kind: Kind) -> bool:
    """Q26 from what a free space would meet (`_Garden._around`): (a) a lone hexagon always fits, else a neighbour
    must share its colour or pattern (or every neighbour must, by the rules' adjacency); (b) the colour group and
    the pattern group it would join (joining groups together) hold no two identical hexagons with it."""
    kinds, by_colour, by_pattern = near
    if not kinds:
        return True  # (a) allows it, and a lone hexagon joins no group
    colour, pattern = kind
    if components.ADJACENCY == "any":
        if colour not in by_colour and pattern not in by_pattern:
            return False
    elif components.ADJACENCY == "all" and any(k[0] != colour and k[1] != pattern for k in kinds):
        return False
    joined = by_colour.get(colour)
    if joined is not None and (not joined[0] or pattern in joined[1]):
        return False
    joined = by_pattern.get(pattern)
    return joined is None or (joined[0] and colour not in joined[1])


def _groups(hexmap: dict[str, Kind], by: int) -> tuple[dict[str, int], list[list[int]]]:
    """The groups of hexagons sharing their colour (by=0) or pattern (by=1): each hexagon's group number, and per
    group the other feature of its hexagons (a list: in a legal garden no value twice, Q26b)."""
    group_of: dict[str, int] = {}
    members: list[list[int]] = []
    other = 1 - by
    for start, kind in hexmap.items():
        if start in group_of:
            continue
        g = len(members)
        values: list[int] = []
        members.append(values)
        key = kind[by]
        group_of[start] = g
        todo = [start]
        while todo:
            space = todo.pop()
            values.append(hexmap[space][other])
            for n in NEIGHBOURS[space]:
                if n not in group_of and (k := hexmap.get(n)) is not None and k[by] == key:
                    group_of[n] = g
                    todo.append(n)
    return group_of, members


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
                yield _acquire(by, value, tiles, exps)


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
