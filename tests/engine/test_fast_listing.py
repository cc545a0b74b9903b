"""Alhambra's fast legal-move listing (random playouts are mostly listing) equals straightforward references
over random complete games, played through the quiet step as the AI's playouts are.

Alhambra: an Alhambra made from another by one move derives its open slots and cells' needs from its parent's
(geometry.Layout, A31); at every step each seat's derived facts equal the plain computation (the frontier, the
local hole test A31.4 and `needs` of every cell, A31.2/A31.3), the removable cells equal removal_problem's
verdicts (A33b), and legal_actions equals the listing of the same state with fresh Alhambra dicts (computed from
scratch) and, in order, the generous candidates that check accepts (payments aside, A21). Queen's Garden: the
placement rule decided from each garden's groups equals the plain walk (Q26), and every listed action passes check.

The whole listing is also compared, in order, with a plain reference written from the rules alone (no layouts,
no caches, no packed facts): the money takes (A19, V43), the minimal payments per market space (A21), the
placements (A27, A31, A66), the redesigns (A33) and the pass (A22, A26), at every step of random games.

Size: $PROPERTY_GAMES games per configuration (CI: the small default).
"""

from __future__ import annotations

import itertools
import random

import pytest

from engine import get_rules
from engine._common import replace
from engine.alhambra import actions as move
from engine.alhambra import geometry, listing
from engine.alhambra.actions import BuyTile, PlaceTile, TakeMoney
from engine.alhambra.components import HUT_LIMIT, HUT_TYPE, PRICE, card_key, currency_of, is_money, value_of
from engine.alhambra.state import ACTION, FINAL
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


@pytest.mark.parametrize("n", [2, 4])
def test_Q26_Q28_queens_garden_fast_listing_equals_the_plain_rule(n):
    """Queen's Garden: the listing decides Q26 from each garden's groups (listing._Garden); at every step, for
    every free space (and every printed space of a free area) and every hexagon kind, its verdict is
    placement_problem's, and every listed action passes check."""
    from engine.queens_garden import geometry as qg_geometry
    from engine.queens_garden import listing as qg_listing
    from engine.queens_garden.components import EXPANSION_KIND, TILE_KIND

    rules = get_rules("queens_garden")
    kinds = sorted(set(TILE_KIND) | set(EXPANSION_KIND))
    compared = 0
    for g in range(property_games(1)):
        rnd = random.Random(26 * n + g)
        state = rules.new_game([str(10 + i) for i in range(n)], {}, 700 + g)
        while not rules.is_over(state):
            for seat in state.seats:
                garden = qg_listing._garden(seat)
                spaces = garden.free + [qg_geometry.printed_space(a, t) for a in garden.areas for t in range(6)]
                for space in spaces:
                    for kind in kinds:
                        plain = qg_geometry.placement_problem(garden.hexmap, space, kind) is None
                        assert garden.fits(space, kind) == plain, (space, kind)
                        compared += 1
            player = rnd.choice(rules.to_move(state))
            legal = rules.legal_actions(state, player)
            assert all(rules.check(state, player, a) is None for a in legal)
            state = rules.step(state, player, rnd.choice(legal), quiet=True)
    assert compared


def _reference_takes(display):
    """A19, V43: every distinct single card, then every distinct set of 2+ money cards worth at most 5 together,
    by size, then by position in the display."""
    out, seen = [], set()
    for size in range(1, len(display) + 1):
        for combo in itertools.combinations(display, size):
            if size > 1 and (not all(is_money(c) for c in combo) or sum(value_of(c) for c in combo) > 5):
                continue
            kinds = tuple(sorted(card_key(c) if is_money(c) else (c, 0) for c in combo))
            if kinds not in seen:
                seen.add(kinds)
                out.append(TakeMoney(tuple(sorted(combo))))
    return out


def _reference_buys(market, hand):
    """A21: per market space in order, every minimal payment (leaving out any card is too little), one per
    multiset of values (the lowest card ids of each value), cheapest first, then fewest cards, then lowest values."""
    out = []
    for space, tile in enumerate(market):
        own = [c for c in hand if is_money(c) and currency_of(c) == space]
        if tile is None or not own:
            continue
        found = {}
        for size in range(1, len(own) + 1):
            for combo in itertools.combinations(own, size):
                values = sorted(value_of(c) for c in combo)
                total = sum(values)
                if total >= PRICE[tile] and total - values[0] < PRICE[tile]:
                    ids = []
                    for v in set(values):
                        ids += [c for c in own if value_of(c) == v][: values.count(v)]
                    found.setdefault(tuple(values), tuple(sorted(ids)))
        for values in sorted(found, key=lambda vs: (sum(vs), len(vs), vs)):
            out.append(BuyTile(tile, found[values]))
    return out


def _reference_listing(state, player):
    """legal_actions the plain way: the rules' own checks (placement_problem, removal_problem, swap_problem) over
    every frontier cell and every tile, and the payments by brute force; the parts of the modules that the fast
    listing shares with nothing else (exchange and vizier payments) are taken as they are."""
    seat = state.seat(player)
    alh = seat.alhambra
    frontier = geometry.frontier(alh)
    out = []
    if state.phase != ACTION:
        for tile in seat.pending:
            out += [move.PlaceTile(tile, c) for c in frontier if geometry.placement_problem(alh, tile, c) is None]
            out.append(move.ReserveTile(tile))
            if state.two_player and state.phase != FINAL and tile not in HUT_TYPE:
                out.append(move.GiveToDirk(tile))
        return out
    if player != state.players[state.current]:
        return listing.vizier_buys(state, seat)
    out += _reference_takes(state.display)
    out += _reference_buys(state.market, seat.hand)
    if state.options.get("exchange") and any(c > 2000 for c in seat.hand):
        out += listing.exchange_buys(state, seat, move.BuyTile, exact=False)
    if state.options.get("huts") and seat.huts_taken < HUT_LIMIT:
        out += [move.TakeHut(stack[-1]) for stack in state.huts if stack]
    if state.options.get("vizier"):
        if state.window and seat.vizier:
            out += listing.vizier_buys(state, seat)
        if not seat.vizier:
            out.append(move.ReactivateVizier())
    for tile in seat.reserve:
        out += [
            move.RedesignAdd(tile, c)
            for c in frontier
            if geometry.placement_problem(alh, tile, c, redesign=True) is None
        ]
    for cell, tile in alh.items():
        if cell == (0, 0):
            continue
        if geometry.removal_problem(alh, cell) is None:
            out.append(move.RedesignRemove(tile))
        out += [move.RedesignSwap(new, tile) for new in seat.reserve if geometry.swap_problem(alh, cell, new) is None]
    if state.bonus or not out:
        out.append(move.Pass())
    return out


@pytest.mark.parametrize(("n", "options"), [(2, {}), (4, {}), (3, MODULES)])
def test_A19_A21_A27_A33_alhambra_listing_equals_a_plain_reference_in_order(n, options):
    rules = get_rules("alhambra")
    compared = 0
    for g in range(property_games(1)):
        rnd = random.Random(19 * n + g)
        state = rules.new_game([str(10 + i) for i in range(n)], options, 900 + g)
        while not rules.is_over(state):
            for p in rules.to_move(state):
                assert rules.legal_actions(state, p) == _reference_listing(state, p), (g, state.turn, p)
                compared += 1
            player = rnd.choice(rules.to_move(state))
            state = rules.step(state, player, rnd.choice(rules.legal_actions(state, player)), quiet=True)
    assert compared


def test_V4_V5_V7_vizier_claimants_are_the_seats_with_a_listed_vizier_purchase():
    """The claimants during the window (decided by the sums each currency's cards can make, or with an exchange
    card by the listing itself) are exactly the seats with an active vizier and some listed VizierBuy, in V7
    order, at every step of random games with every module and with the vizier alone."""
    rules = get_rules("alhambra")
    windows = 0
    for g in range(property_games(2)):
        n = 3 + g % 3
        options = MODULES if g % 2 else {"vizier": True}
        rnd = random.Random(70 + g)
        state = rules.new_game([str(10 + i) for i in range(n)], options, 700 + g)
        while not rules.is_over(state):
            if state.phase == ACTION and state.window:
                order = [(state.current + k) % n for k in range(n)]
                seats = {i: state.seats[i] for i in order}
                expected = [state.players[i] for i in order if seats[i].vizier and listing.vizier_buys(state, seats[i])]
                assert listing.vizier_claimants(state) == expected, (g, state.turn)
                windows += 1
            player = rnd.choice(rules.to_move(state))
            state = rules.step(state, player, rnd.choice(rules.legal_actions(state, player)), quiet=True)
    assert windows
