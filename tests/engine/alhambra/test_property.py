"""A80–A82 and the engine contract over random complete games, 2–6 players (PROPERTY_GAMES sets the size)."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.alhambra import RULES
from engine.alhambra import actions as move
from engine.alhambra.components import BUILDING_TILES, PRICE, currency_of, money_cards, value_of
from engine.alhambra.geometry import alhambra_problem, frontier, has_hole
from engine.alhambra.state import ACTION, FINAL, OVER, state_problem
from tests.conftest import property_games
from tests.engine.playout import play_random_game


def invariants(rules, s) -> None:
    """A80 tile conservation (54), A81 money conservation (108 / 72), A82 every Alhambra legal."""
    tiles = len(s.bag) + sum(t is not None for t in s.market) + len(s.dirk) + len(s.removed)
    for seat in s.seats:
        tiles += len(seat.alhambra) - 1 + len(seat.reserve) + len(seat.pending)
    assert tiles == 54, f"A80: {tiles} tiles"
    money = sum(1 for c in s.deck if c < 108) + len(s.display) + len(s.discard) + sum(len(x.hand) for x in s.seats)
    assert money == (72 if len(s.players) == 2 else 108), f"A81: {money} cards"
    for seat in s.seats:
        assert alhambra_problem(seat.alhambra) is None, "A82"
    assert state_problem(s) is None
    if s.phase == OVER:
        assert [r.round for r in s.scorings][-1] == 3


def illegal(rules, s, player, rnd: random.Random):
    """Random actions the rules forbid here: under-payment, wrong currency, cards not in hand, illegal positions,
    taking more than 5, acting in the wrong phase."""
    seat = s.seat(player)
    out = []
    hand = list(seat.hand)
    others = sorted(set(money_cards(len(s.players))) - set(hand))
    if s.phase == ACTION:
        for space, tile in enumerate(s.market):
            if tile is None:
                continue
            mine = [c for c in hand if currency_of(c) == space]
            under = [c for c in mine if value_of(c) < PRICE[tile]]
            if under:
                out.append(move.BuyTile(tile, (rnd.choice(under),)))  # A21 under-payment
            wrong = [c for c in hand if currency_of(c) != space]
            if wrong:
                out.append(move.BuyTile(tile, tuple(mine) + (rnd.choice(wrong),)))  # A21 wrong currency
            out.append(move.BuyTile(tile, (rnd.choice(others),)))  # A25 not in hand
            out.append(move.BuyTile(tile, ()))
        too_much = [pair for pair in itertools.combinations(s.display, 2) if sum(map(value_of, pair)) > 5]
        if too_much:
            out.append(move.TakeMoney(rnd.choice(too_much)))  # A19: several cards only up to 5
        not_shown = [c for c in others if c not in s.display]
        out.append(move.TakeMoney((rnd.choice(not_shown),)))
        out.append(move.TakeMoney(()))
        out.append(move.RedesignRemove(seat.alhambra[(0, 0)]))  # A32
        for tile in seat.reserve[:2]:
            far = (max(x for x, _ in seat.alhambra) + 2, rnd.randint(-9, 9))  # beyond the east edge
            out.append(move.RedesignAdd(tile, far))  # A31.1
            out.append(move.RedesignAdd(tile, (0, 0)))
            out.append(move.RedesignSwap(tile, seat.alhambra[(0, 0)]))
        loose = [t for t in BUILDING_TILES if t not in seat.reserve]
        out.append(move.RedesignAdd(rnd.choice(loose), (1, 0)))
        if not s.bonus and s.display:
            out.append(move.Pass())  # A18/A26
        for tile in seat.pending:
            out.append(move.PlaceTile(tile, (0, 1)))  # A27: not during the actions
    else:
        legal = set(rules.legal_actions(s, player))
        for tile in seat.pending[:2]:
            for cell in frontier(seat.alhambra):
                if move.PlaceTile(tile, cell) not in legal:
                    out.append(move.PlaceTile(tile, cell))  # A31 broken somewhere
            out.append(move.PlaceTile(tile, (0, 0)))
            if len(s.players) > 2 or s.phase == FINAL:
                out.append(move.GiveToDirk(tile))  # A66/A67
        out.append(move.ReserveTile(rnd.choice([t for t in BUILDING_TILES if t not in seat.pending])))
        out.append(move.TakeMoney(s.display[:1]) if s.display else move.Pass())
    return rnd.sample(out, min(len(out), 4))  # a few per action keep the runs fast; games supply thousands


def _check_listing(rules, s) -> None:
    """Minimal payments only, each multiset once; the fast listing equals the generous candidates filtered by check."""
    for p in rules.to_move(s):
        legal = rules.legal_actions(s, p)
        filtered = [a for a in rules.candidates(s, p) if rules.check(s, p, a) is None]
        fast_other = [a for a in legal if not isinstance(a, move.BuyTile | move.TakeMoney)]
        slow_other = [a for a in filtered if not isinstance(a, move.BuyTile | move.TakeMoney)]
        assert fast_other == slow_other
        keys = set()
        for a in legal:
            if isinstance(a, move.BuyTile):
                values = sorted(value_of(c) for c in a.cards)
                assert sum(values) >= PRICE[a.tile] > sum(values) - values[0], "A21: listed payments are minimal"
                key = (a.tile, tuple(values))
                assert key not in keys
                keys.add(key)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_A80_A81_A82_random_games(n):
    """A80, A81, A82 after every action of random complete games; every game reaches final scores (A52)."""
    # CI: 2 games per player count (the checker encodes the state several times per action)
    for g in range(property_games(2)):
        seed = 7919 * n + g
        state, log = play_random_game(RULES, n, {}, seed, invariants=invariants, illegal=illegal)
        assert RULES.is_over(state)
        assert state.scorings[-1].round == 3
        assert all(RULES.legal_actions(state, p) == [] for p in state.players)


def test_listing_matches_check_and_local_hole_test_matches_flood_fill():
    """A31.4: the local hole test equals the global flood fill on real positions; legal_actions equals the
    candidates that check accepts (A21 payments are minimal and listed once)."""
    from engine.alhambra.geometry import creates_hole

    rnd = random.Random(5)
    for n in (2, 4, 6):
        s = RULES.new_game([str(i) for i in range(n)], {}, n)
        while not RULES.is_over(s):
            _check_listing(RULES, s)
            for seat in s.seats:
                for cell in frontier(seat.alhambra):
                    assert creates_hole(seat.alhambra, cell) == has_hole({**seat.alhambra, cell: "pavilion-8-open"})
            p = rnd.choice(RULES.to_move(s))
            s = RULES.apply(s, p, rnd.choice(RULES.legal_actions(s, p)))
