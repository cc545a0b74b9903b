"""The fast legal-move listings (issue 21: random playouts are mostly listing) equal straightforward references
over random complete games, played through the quiet step as the AI's playouts are.

Alhambra: an Alhambra made from another by one move derives its open slots and cells' needs from its parent's
(geometry.Layout, A31); at every step each seat's derived facts equal the plain computation (the frontier, the
local hole test A31.4 and `needs` of every cell, A31.2/A31.3), the removable cells equal removal_problem's
verdicts (A33b), and legal_actions equals the listing of the same state with fresh Alhambra dicts (computed from
scratch) and, in order, the generous candidates that check accepts (payments aside, A21).

Queen's Garden: the acquisitions (Q19–Q21, cached per display) equal the plain generator kept below, and the
listed placements (Q26) are exactly the spaces placement_problem accepts.

Size: $PROPERTY_GAMES games per configuration (CI: the small default).
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from engine import get_rules
from engine._common import replace
from engine.alhambra import geometry
from engine.alhambra.actions import BuyTile, PlaceTile, TakeMoney
from engine.queens_garden import listing as qg_listing
from engine.queens_garden.actions import Acquire
from engine.queens_garden.actions import PlaceTile as QGPlaceTile
from engine.queens_garden.components import EXPANSION_KIND, STORAGE_EXPANSIONS, STORAGE_TILES, TILE_KIND
from engine.queens_garden.geometry import free_spaces, hexagons, placement_problem
from engine.queens_garden.state import display_tiles
from tests.conftest import property_games

MODULES = {"vizier": True, "huts": True, "exchange": True, "bonus": True}


def _reference_slots(alh):
    """open_slots the plain way: every frontier cell that the local hole test allows, with its needs."""
    return tuple(
        (c, *geometry.needs(alh, c[0], c[1])) for c in geometry.frontier(alh) if not geometry.creates_hole(alh, c)
    )


def _fresh(state):
    """The same state with copies of every Alhambra dict (no Layout known or derivable: computed from scratch)."""
    return replace(state, seats=tuple(replace(s, alhambra=dict(s.alhambra)) for s in state.seats))


def _check_alhambra(rules, state) -> None:
    for seat in state.seats:
        alh = seat.alhambra
        lay = geometry.layout(alh)
        assert lay.slots() == _reference_slots(alh), "A31: derived open slots"
        assert lay.needs() == {c: geometry.needs(alh, c[0], c[1]) for c in alh}
        assert lay.removable() == {c for c in alh if geometry.removal_problem(alh, c) is None}, "A33b"
        for tile in seat.reserve + seat.pending:
            assert lay.fits(geometry.WALLS[tile]) == [
                c for c in geometry.frontier(alh) if geometry.placement_problem(alh, tile, c) is None
            ]
    fresh = _fresh(state)
    for p in rules.to_move(state):
        legal = rules.legal_actions(state, p)
        assert legal == rules.legal_actions(fresh, p)
        accepted = [a for a in rules.candidates(state, p) if rules.check(state, p, a) is None]
        assert [a for a in legal if not isinstance(a, BuyTile | TakeMoney)] == [
            a for a in accepted if not isinstance(a, BuyTile | TakeMoney)
        ]


@pytest.mark.parametrize(("n", "options"), [(2, {}), (4, {}), (6, {}), (4, MODULES)])
def test_A31_A33_alhambra_fast_listing_equals_the_plain_one(n, options):
    rules = get_rules("alhambra")
    placed = 0
    for g in range(property_games(1)):
        rnd = random.Random(31 * n + g)
        state = rules.new_game([str(10 + i) for i in range(n)], options, 500 + g)
        while not rules.is_over(state):
            _check_alhambra(rules, state)
            player = rnd.choice(rules.to_move(state))
            action = rnd.choice(rules.legal_actions(state, player))
            placed += isinstance(action, PlaceTile)
            state = rules.step(state, player, action, quiet=True)
    assert placed  # the games did build


def _reference_acquires(state, seat):
    """Q19–Q21 the plain way (the listing before its display cache): every colour and pattern in the display, one
    hexagon per kind, a tile per source, if storage has room."""
    tables = ({}, {})
    seen = set()
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
    out = []
    for by, table in zip(("colour", "pattern"), tables, strict=True):
        for value in sorted(table):
            for choice in product(*table[value].values()):
                tiles = tuple(sorted(i for s, i in choice if s == "t"))
                exps = tuple(sorted(i for s, i in choice if s == "e"))
                if len(tiles) <= room_tiles and len(exps) <= room_exps:
                    out.append(Acquire(by, value, tiles, exps))
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_Q19_Q21_Q26_queens_garden_fast_listing_equals_the_plain_one(n):
    rules = get_rules("queens_garden")
    for g in range(property_games(2)):
        rnd = random.Random(97 * n + g)
        state = rules.new_game([str(10 + i) for i in range(n)], {}, 700 + g)
        while not rules.is_over(state):
            (player,) = rules.to_move(state)
            seat = state.seats[state.players.index(player)]
            legal = rules.legal_actions(state, player)
            assert [a for a in legal if isinstance(a, Acquire)] == _reference_acquires(state, seat)
            hexmap = hexagons(seat)
            for t in seat.tiles:
                listed = {a.space for a in legal if isinstance(a, QGPlaceTile) and TILE_KIND[a.tile] == TILE_KIND[t]}
                fits = {sp for sp in free_spaces(seat, hexmap) if placement_problem(hexmap, sp, TILE_KIND[t]) is None}
                assert listed == fits or not qg_listing.payment_options(seat, TILE_KIND[t], tile=t)
            state = rules.step(state, player, rnd.choice(legal), quiet=True)
