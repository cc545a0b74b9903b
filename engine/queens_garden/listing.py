"""Azul: Queen's Garden candidate listing: exactly the legal actions, equivalent choices collapsed to one
representative: a payment per multiset of (kind, tile-or-expansion) used, one copy per kind in storage, one copy
per kind and display source when acquiring. Passing lists no discard, one hexagon of each kind, or everything
(`check` accepts any subset of storage: a menu may offer a multi-select).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
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
    AREA_CELLS,
    AREAS,
    FOUNTAIN_ELEMENTS,
    FOUNTAIN_FREE,
    NEIGHBOURS,
    SPACES,
    printed_space,
)
from engine.queens_garden.state import Piece, QGState, Seat

Payment = tuple[tuple[int, ...], tuple[int, ...], int]  # (tile ids, expansion ids, jokers)

# The listed actions are made by fast positional constructors (a listing makes dozens); a few kinds are shared.
_place = maker(PlaceTile)  # (tile, space, pay_tiles, pay_expansions, jokers)
_place_expansion = maker(PlaceExpansion)  # (expansion, area, turn, pay_tiles, pay_expansions, jokers)
_acquire = maker(Acquire)  # (by, value, tiles, expansions)


def candidates(state: QGState, player: str) -> Iterator[Action]:
    """Exactly the legal actions of `player` (the one to move), one representative per equivalent choice."""
    return iter(listed(state, player))


def listed(state: QGState, player: str) -> list[Action]:
    """`candidates` as a list: acquisitions, tile placements, expansions (placed, bought), passes."""
    seat = state.seats[state.players.index(player)]
    room_tiles = STORAGE_TILES - len(seat.tiles) - seat.jokers
    room_exps = STORAGE_EXPANSIONS - len(seat.expansions)
    offer = _offer(state.stack_tiles, state.display)
    if room_tiles >= offer.most_tiles and room_exps >= offer.most_exps:
        out: list[Action] = list(offer.actions)
    else:
        out = [a for a, n_tiles, n_exps in offer.sized if n_tiles <= room_tiles and n_exps <= room_exps]
    garden = _garden(seat)
    tiles, exps, jokers = seat.tiles, seat.expansions, seat.jokers
    held = _tiles(tiles)
    firsts = held.firsts
    for k, t in firsts:
        spaces = garden.spaces(k)
        if spaces:
            payments = _pay(held, exps, jokers, k)
            if len(payments) == 1:
                pt, pe, j = payments[0]
                out.extend([_place(t, sp, pt, pe, j) for sp in spaces])
            else:
                out.extend([_place(t, sp, pt, pe, j) for sp in spaces for pt, pe, j in payments])
    for e in exps:
        k = EXPANSION_INDEX[e]
        spots = garden.spots(k)
        if spots:
            payments = _pay(held, exps, jokers, k)
            out.extend([_place_expansion(e, a, turn, pt, pe, j) for a, turn in spots for pt, pe, j in payments])
    if state.supply and seat.score >= BLANK_EXPANSION_COST:
        out.extend([_BUY[a] for a in garden.areas])
    out.extend(_passes(firsts, tiles, exps, jokers))
    return out


# ------------------------------------------------------------------------------------------ cells and kinds
# The listing works on ints: a space is its index in SPACES (a "cell"), a hexagon kind (colour c, pattern value
# v) is the index 6c + v - 1, and sets of kinds are 36-bit masks.

_CELL: dict[str, int] = {s: i for i, s in enumerate(SPACES)}
_NAME: tuple[str, ...] = SPACES
_NB: tuple[tuple[int, ...], ...] = tuple(tuple(_CELL[n] for n in NEIGHBOURS[s]) for s in SPACES)
_N_CELLS = len(SPACES)
_FOUNTAIN_FREE = tuple(_CELL[s] for s in FOUNTAIN_FREE if s not in FOUNTAIN_ELEMENTS)
_AREA_FREE: dict[tuple[str, bool], tuple[int, ...]] = {
    (a, up): tuple(_CELL[s] for s in (AREA_CELLS[a][1:] if up else AREA_CELLS[a]))
    for a in AREAS
    for up in (False, True)
}  # (area, face up) -> its free cells in a new expansion (a face-up centre is a pavilion)
_PRINTED: dict[str, tuple[int, ...]] = {a: tuple(_CELL[printed_space(a, t)] for t in range(6)) for a in AREAS}
_AREA_TURNS: dict[str, tuple[tuple[str, int], ...]] = {a: tuple((a, t) for t in range(6)) for a in AREAS}
_BUY: dict[str, BuyExpansion] = {a: BuyExpansion(a) for a in AREAS}

_KIND_OF: tuple[Kind, ...] = tuple((c, v) for c in range(6) for v in range(1, 7))
TILE_INDEX: tuple[int, ...] = tuple(6 * c + v - 1 for c, v in TILE_KIND)
EXPANSION_INDEX: tuple[int, ...] = tuple(6 * c + v - 1 for c, v in EXPANSION_KIND)
_ALL = (1 << 36) - 1
_ROW = tuple(0b111111 << (6 * c) for c in range(6))  # every kind of colour c
_COLUMN = tuple(sum(1 << (6 * c + v) for c in range(6)) for v in range(6))  # every kind of pattern value v + 1
_MATCH = tuple(_ROW[k // 6] | _COLUMN[k % 6] for k in range(36))  # the kinds sharing colour or pattern with k
_RELATED = tuple(_MATCH[k] & ~(1 << k) for k in range(36))  # ... other than k itself: what may pay for k (Q25)
_SPREAD = tuple(sum(1 << (6 * c) for c in range(6) if m >> c & 1) for m in range(64))  # colour bits -> kinds, v=1


def _kind_groups(kinds: list[int], by: int) -> tuple[list[int], list[int]]:
    """The groups of hexagons sharing their colour (by=0) or pattern (by=1): each cell's group number (-1: no
    hexagon), and per group a mask of the other feature of its hexagons (pattern bits v-1, or colour bits), or -1
    if it holds one twice (never in a legal garden, Q26b)."""
    group = [-1] * _N_CELLS
    masks: list[int] = []
    for start, k in enumerate(kinds):
        if k < 0 or group[start] >= 0:
            continue
        g = len(masks)
        key = k // 6 if by == 0 else k % 6
        group[start] = g
        todo = [start]
        mask = count = 0
        while todo:
            cell = todo.pop()
            kc = kinds[cell]
            mask |= 1 << (kc % 6 if by == 0 else kc // 6)
            count += 1
            for n in _NB[cell]:
                if group[n] < 0 and (kn := kinds[n]) >= 0 and (kn // 6 if by == 0 else kn % 6) == key:
                    group[n] = g
                    todo.append(n)
        masks.append(mask if mask.bit_count() == count else -1)
    return group, masks


class _Garden:
    """What the listing asks of one garden (a seat's `garden` dict and `placed` tuple, never mutated): its
    hexagon kind per cell, free cells and areas, its colour and pattern groups, per cell the mask of kinds that
    may go there (Q26), and per kind where it may go (Q26, Q28), each computed once."""

    __slots__ = (
        "garden",
        "placed",
        "kinds",
        "free_cells",
        "areas",
        "groups",
        "_allowed",
        "_masks",
        "_spaces",
        "_spots",
    )

    def __init__(self, seat: Seat) -> None:
        self.garden = seat.garden
        self.placed = seat.placed
        kinds = [-1] * _N_CELLS
        for space, t in seat.garden.items():
            kinds[_CELL[space]] = TILE_INDEX[t]
        used = set()
        for p in seat.placed:
            used.add(p.area)
            if p.face_up:
                kinds[_PRINTED[p.area][p.turn % 6]] = EXPANSION_INDEX[p.expansion]
        self.kinds = kinds
        free = [c for c in _FOUNTAIN_FREE if kinds[c] < 0]
        for p in seat.placed:
            free.extend(c for c in _AREA_FREE[p.area, p.face_up] if kinds[c] < 0)
        self.free_cells = free
        self.areas = [a for a in AREAS if a not in used]
        self.groups = (_kind_groups(kinds, 0), _kind_groups(kinds, 1))
        self._allowed: dict[int, int] = {}
        self._masks: list[tuple[str, int]] | None = None  # (name, allowed kinds) per free cell, in order
        self._spaces: dict[int, list[str]] = {}
        self._spots: dict[int, list[tuple[str, int]]] = {}

    @property
    def free(self) -> list[str]:
        """The free spaces' names (geometry.free_spaces' order)."""
        return [_NAME[c] for c in self.free_cells]

    @property
    def hexmap(self) -> dict[str, Kind]:
        """geometry.hexagons of the garden."""
        return {_NAME[c]: _KIND_OF[k] for c, k in enumerate(self.kinds) if k >= 0}

    def allowed(self, cell: int) -> int:
        """The mask of kinds a hexagon on the empty `cell` may have (Q26): (a) a lone hexagon always fits, else it
        shares its colour or pattern with a neighbour (with every neighbour, by the rules' adjacency 'all'); (b)
        the colour group and the pattern group it would join (joining groups together) hold no two identical
        hexagons with it."""
        mask = self._allowed.get(cell)
        if mask is not None:
            return mask
        kinds = self.kinds
        (colour_group, colour_masks), (pattern_group, pattern_masks) = self.groups
        every = components.ADJACENCY == "all"
        near = _ALL if every else 0
        by_colour: dict[int, list[int]] = {}
        by_pattern: dict[int, list[int]] = {}
        lonely = True
        for n in _NB[cell]:
            k = kinds[n]
            if k < 0:
                continue
            lonely = False
            if every:
                near &= _MATCH[k]
            else:
                near |= _MATCH[k]
            g = colour_group[n]
            gs = by_colour.get(k // 6)
            if gs is None:
                by_colour[k // 6] = [g]
            elif g not in gs:
                gs.append(g)
            g = pattern_group[n]
            gs = by_pattern.get(k % 6)
            if gs is None:
                by_pattern[k % 6] = [g]
            elif g not in gs:
                gs.append(g)
        if lonely:
            mask = self._allowed[cell] = _ALL
            return mask
        block = 0
        for c, gs in by_colour.items():
            joined = _joined(gs, colour_masks)
            block |= _ROW[c] if joined < 0 else joined << (6 * c)
        for v, gs in by_pattern.items():
            joined = _joined(gs, pattern_masks)
            block |= _COLUMN[v] if joined < 0 else _SPREAD[joined] << v
        mask = self._allowed[cell] = near & ~block
        return mask

    def fits(self, space: str, kind: Kind) -> bool:
        """placement_verdict(hexmap, space, kind) == 0 (Q26), for an empty space."""
        return bool(self.allowed(_CELL[space]) >> (6 * kind[0] + kind[1] - 1) & 1)

    def spaces(self, k: int) -> list[str]:
        """The free spaces a tile of kind index `k` may go on (Q26)."""
        found = self._spaces.get(k)
        if found is None:
            masks = self._masks
            if masks is None:
                allowed = self.allowed
                masks = self._masks = [(_NAME[c], allowed(c)) for c in self.free_cells]
            found = self._spaces[k] = [name for name, mask in masks if mask >> k & 1]
        return found

    def spots(self, k: int) -> list[tuple[str, int]]:
        """The (free area, turn) an expansion printed with kind index `k` may be placed with (Q26, Q28)."""
        found = self._spots.get(k)
        if found is None:
            allowed = self.allowed
            found = self._spots[k] = [
                spot
                for a in self.areas
                for spot, cell in zip(_AREA_TURNS[a], _PRINTED[a], strict=True)
                if allowed(cell) >> k & 1
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


class _Tiles:
    """A storage's tiles as the listing reads them: each kind (its index) with its lowest id (sorted storage: it
    represents its copies), in storage order, the same as a dict, and the mask of the kinds held."""

    __slots__ = ("firsts", "first_of", "mask")

    def __init__(self, tiles: tuple[int, ...]) -> None:
        first_of: dict[int, int] = {}
        for t in tiles:
            first_of.setdefault(TILE_INDEX[t], t)
        self.first_of = first_of
        self.firsts = tuple(first_of.items())
        self.mask = sum(1 << k for k in first_of)


_tiles = functools.lru_cache(maxsize=1 << 12)(_Tiles)


class _Offer:
    """What a display offers (Q19–Q21): every acquisition with how many tiles and expansions it takes (the
    storage room decides which are legal, Q21), and the most of each any of them takes."""

    __slots__ = ("stack_tiles", "display", "sized", "actions", "most_tiles", "most_exps")

    def __init__(self, stack_tiles: tuple[int, ...], display: tuple[Piece, ...]) -> None:
        self.stack_tiles = stack_tiles
        self.display = display
        self.sized = sized = _acquire_options(stack_tiles, display)
        self.actions = [a for a, _, _ in sized]
        self.most_tiles = max([n for _, n, _ in sized], default=0)
        self.most_exps = max([n for _, _, n in sized], default=0)


_OFFERS: dict[tuple[int, int], _Offer] = {}


def _offer(stack_tiles: tuple[int, ...], display: tuple[Piece, ...]) -> _Offer:
    """The _Offer of a display, cached by the identity of its two tuples (as _garden: a step that leaves the
    display alone keeps them, so the listings after placements and passes reuse it)."""
    key = (id(stack_tiles), id(display))
    hit = _OFFERS.get(key)
    if hit is not None and hit.stack_tiles is stack_tiles and hit.display is display:
        return hit
    if len(_OFFERS) > 1024:
        _OFFERS.clear()
    hit = _OFFERS[key] = _Offer(stack_tiles, display)
    return hit


def _acquires(stack_tiles: tuple[int, ...], display: tuple[Piece, ...]) -> list[tuple[Acquire, int, int]]:
    """Every acquisition the display offers, each with how many tiles and expansions it takes (see _Offer)."""
    return _offer(stack_tiles, display).sized


def _acquire_options(stack_tiles: tuple[int, ...], display: tuple[Piece, ...]) -> list[tuple[Acquire, int, int]]:
    """Q19–Q21: every colour/pattern in the display, every choice among identical hexagons (storage room aside),
    each with how many tiles and expansions it takes."""
    # kind index -> the distinct ways to take that kind, in the order the display shows them: a tile per source
    # (the stack's top, then each display piece; copies on one source are interchangeable, Q20), as its id, then
    # each face-up expansion e, as -1 - e
    ways: dict[int, list[int]] = {}
    for tiles in (stack_tiles, *[p.tiles for p in display if p.tiles]):
        here = 0
        for t in tiles:
            k = TILE_INDEX[t]
            if not here >> k & 1:
                here |= 1 << k
                w = ways.get(k)
                if w is None:
                    ways[k] = [t]
                else:
                    w.append(t)
    shown = False
    for p in display:
        if p.face_up:
            shown = True
            ways.setdefault(EXPANSION_INDEX[p.expansion], []).append(-1 - p.expansion)
    colours: dict[int, list[list[int]]] = {}
    patterns: dict[int, list[list[int]]] = {}
    several = False
    for k, w in ways.items():
        colours.setdefault(k // 6, []).append(w)
        patterns.setdefault(k % 6 + 1, []).append(w)
        several = several or len(w) > 1
    out: list[tuple[Acquire, int, int]] = []
    criteria: tuple[tuple[Literal["colour", "pattern"], dict[int, list[list[int]]]], ...] = (
        ("colour", colours),
        ("pattern", patterns),
    )
    for by, table in criteria:
        for value in sorted(table):
            group = table[value]
            choices: Any = product(*group) if several else ([w[0] for w in group],)
            for choice in choices:
                if shown:
                    tiles = tuple(sorted([i for i in choice if i >= 0]))
                    exps = tuple(sorted([-1 - i for i in choice if i < 0]))
                else:
                    tiles, exps = tuple(sorted(choice)), ()
                out.append((_acquire(by, value, tiles, exps), len(tiles), len(exps)))
    return out


def payment_options(seat: Seat, kind: Kind, *, tile: int | None = None, expansion: int | None = None) -> list[Payment]:
    """Q25: every distinct way to pay for a hexagon of `kind` (the placed `tile` or `expansion` left out: it is
    of that kind, and a hexagon of its own kind never pays), one representative per multiset of (kind,
    tile-or-expansion) used, fewest jokers first."""
    return list(_pay(_tiles(seat.tiles), seat.expansions, seat.jokers, 6 * kind[0] + kind[1] - 1))


_FREE: tuple[Payment, ...] = (((), (), 0),)  # a tree (value 1) costs nothing but itself


def _pay(held: _Tiles, expansions: tuple[int, ...], jokers: int, k: int) -> tuple[Payment, ...]:
    """payment_options for a storage (its `_tiles`, expansions, jokers) and a kind index `k`. What pays for a
    kind is only its related hexagons (the other kinds of its colour or of its pattern, Q25), one tile per kind
    (the lowest id) and every expansion, and at most value-1 jokers: the payments are cached by those alone, so
    a storage that changed elsewhere finds them again."""
    need = k % 6  # value - 1
    if not need:
        return _FREE
    related = _RELATED[k]
    rel = held.mask & related
    ts: tuple[int, ...] = ()
    if rel:
        first_of = held.first_of
        found = []
        while rel:
            low = rel & -rel
            found.append(first_of[low.bit_length() - 1])
            rel ^= low
        ts = tuple(found)
    es = tuple([e for e in expansions if related >> EXPANSION_INDEX[e] & 1]) if expansions else ()
    return _payments(k, ts, es, min(jokers, need))


@functools.lru_cache(maxsize=1 << 14)
def _payments(k: int, tiles: tuple[int, ...], expansions: tuple[int, ...], jokers: int) -> tuple[Payment, ...]:
    """The payments for kind index `k` from related hexagons only (see _pay)."""
    kind = _KIND_OF[k]
    need = kind[1] - 1
    families: tuple[dict[Kind, list[tuple[str, int]]], dict[Kind, list[tuple[str, int]]]] = ({}, {})
    for t in tiles:
        kt = TILE_KIND[t]
        families[0 if kt[0] == kind[0] else 1][kt] = [("t", t)]
    for e in expansions:
        ke = EXPANSION_KIND[e]
        families[0 if ke[0] == kind[0] else 1].setdefault(ke, []).append(("e", e))
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


_PASS = Pass()
_PASS_JOKER = Pass(jokers=1)
_PASS_TILE = tuple(Pass(tiles=(t,)) for t in range(len(TILE_KIND)))  # the one-hexagon discards, made once
_PASS_EXPANSION = tuple(Pass(expansions=(e,)) for e in range(len(EXPANSION_KIND)))
_pass = maker(Pass)  # (tiles, expansions, jokers)


def _passes(
    firsts: tuple[tuple[int, int], ...], tiles: tuple[int, ...], expansions: tuple[int, ...], jokers: int
) -> list[Pass]:
    """Q29: pass plainly, discarding one hexagon (one per kind), or discarding all of them. Any other subset is
    legal too (`check` accepts it): a menu can build it as a multi-select; the list stays short."""
    out = [_PASS]
    out.extend([_PASS_TILE[t] for _, t in firsts])
    out.extend([_PASS_EXPANSION[e] for e in expansions])
    if len(tiles) + len(expansions) > 1:
        out.append(_pass(tiles, expansions, 0))
    if PASS_DISCARDS_JOKERS and jokers:
        out.append(_PASS_JOKER)
    return out


def _joined(groups: list[int], masks: Sequence[int]) -> int:
    """The kinds the neighbouring groups of one colour (or pattern) already hold, joined (a group's mask), or -1
    if two of them hold the same kind or one cannot grow: a hexagon joining them would repeat a kind (Q26)."""
    joined = 0
    for g in groups:
        gm = masks[g]
        if gm < 0 or joined & gm:
            return -1
        joined |= gm
    return joined
