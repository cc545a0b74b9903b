"""Set-up and components: A1–A17, A60, A62."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import get_rules
from engine.alhambra import RULES
from engine.alhambra.components import (
    BUILDING_TILES,
    CURRENCIES,
    SCORING_1,
    SCORING_2,
    SCORING_CARDS,
    TILES,
    TYPE_OF,
    TYPES,
    WALLS,
    currency_of,
    money_cards,
    value_of,
)
from tests.engine.alhambra.helpers import new, players


def test_registry_and_metadata():
    """get_rules('alhambra') is this engine; 2–6 players; the only options are the four Vizier's Favour modules,
    all off by default (so the base game is played unless asked)."""
    rules = get_rules("alhambra")
    assert rules is RULES
    assert (rules.name, rules.title) == ("alhambra", "Alhambra")
    assert list(rules.player_counts) == [2, 3, 4, 5, 6]
    assert {k: o.default for k, o in rules.options.items()} == dict.fromkeys(
        ("vizier", "huts", "exchange", "bonus"), False
    )


@pytest.mark.parametrize("n", [1, 7])
def test_bad_player_count_is_refused(n):
    with pytest.raises(ValueError, match="2–6"):
        RULES.new_game(players(n) if n < 7 else [str(i) for i in range(7)], {}, 1)


def test_unknown_option_is_refused():
    with pytest.raises(ValueError, match="Unknown option"):
        RULES.new_game(players(3), {"wesir": True}, 1)


def test_A1_A2_A3_tiles():
    """A1: fountains have no walls and no type; A2/A3: 54 tiles, counts and price ranges per type."""
    counts = Counter(TYPE_OF[t] for t in BUILDING_TILES)
    assert counts == {"pavilion": 7, "seraglio": 7, "arcades": 9, "chambers": 9, "garden": 11, "tower": 11}
    ranges = dict(zip(TYPES, [(2, 8), (3, 9), (4, 10), (5, 11), (6, 12), (7, 13)], strict=True))  # in table order
    for t in BUILDING_TILES:
        lo, hi = ranges[TILES[t].type]
        assert lo <= TILES[t].price <= hi
    assert sum(1 for t in BUILDING_TILES if WALLS[t] == 0) == 10
    s = new(3)
    for seat in s.seats:
        (start,) = seat.alhambra.values()
        assert WALLS[start] == 0 and TILES[start].type == "fountain"


def test_A4_A60_money_cards():
    """A4: 108 cards, 4 currencies x 1–9 x 3, each currency 135; A60: 72 cards with 2 players."""
    cards = money_cards(3)
    assert len(cards) == 108
    for cur in range(4):
        assert sum(value_of(c) for c in cards if currency_of(c) == cur) == 135
    two = money_cards(2)
    assert len(two) == 72
    assert Counter((currency_of(c), value_of(c)) for c in two) == {(c, v): 2 for c in range(4) for v in range(1, 10)}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_A10_A11_A15_A62_layout(n):
    """A10 fountain at M13, score 0; A11 market of 4 from a 54-tile bag; A7/A15 four cards on display;
    A62 Dirk gets 6 tiles in the 2-player game."""
    s = new(n, seed=n)
    for seat in s.seats:
        assert list(seat.alhambra) == [(0, 0)] and seat.score == 0 and seat.reserve == ()
    assert all(t is not None for t in s.market)
    assert len(s.display) == 4 and not set(s.display) & set(SCORING_CARDS)
    assert len(s.dirk) == (6 if n == 2 else 0)
    assert len(s.bag) == 54 - 4 - len(s.dirk)
    assert len(set(s.seats[0].alhambra.values()) | set(s.seats[-1].alhambra.values())) == 2  # own colours


@pytest.mark.parametrize("seed", range(20))
def test_A13_A14_start_money_and_start_player(seed):
    """A13: hands dealt one at a time up to >= 20 (so 20–28); A12: never a scoring card; A14: the start player has
    the fewest cards, then the lowest total."""
    n = 2 + seed % 5
    s = new(n, seed)
    keys = []
    for seat in s.seats:
        total = sum(value_of(c) for c in seat.hand)
        assert 20 <= total <= 28
        assert not set(seat.hand) & set(SCORING_CARDS)
        keys.append((len(seat.hand), total))
    assert keys[s.current] == min(keys)
    assert s.phase == "action" and RULES.to_move(s) == [s.players[s.current]]
    assert s.log[-1].kind == "start_player" and s.log[-1].player == s.players[s.current]


def test_A13_dealing_is_sequential_per_player():
    """A13: the first player's hand is exactly the first cards of the shuffled deck up to >= 20."""
    from engine._common import shuffled

    s = new(4, seed=3)
    deck, _ = shuffled(money_cards(4), 3, 1)
    top = list(deck)[::-1]
    hand = []
    while sum(value_of(c) for c in hand) < 20:
        hand.append(top.pop(0))
    assert tuple(sorted(hand)) == s.seats[0].hand


@pytest.mark.parametrize("n", [2, 4, 6])
def test_A16_deck_split_places_scoring_cards(n):
    """A5/A16: the scoring cards wait in the money deck: card 1 in its 2nd fifth, card 2 in its 4th (pile 1 on top)."""
    for seed in range(30):
        s = new(n, seed)
        top_first = list(s.deck)[::-1]
        rest = len(top_first) - 2
        size, extra = divmod(rest, 5)
        sizes = [size + (k < extra) for k in range(5)]
        starts = [sum(sizes[:k]) for k in range(5)]
        i1, i2 = top_first.index(SCORING_1), top_first.index(SCORING_2)
        assert starts[1] <= i1 <= starts[1] + sizes[1]
        assert starts[3] + 1 <= i2 <= starts[3] + 1 + sizes[3]
        assert len(top_first) == (72 if n == 2 else 108) - sum(len(x.hand) for x in s.seats) - 4 + 2


def test_A6_market_spaces_have_fixed_currencies():
    """A6 [U]: space 1 denar, 2 dirham, 3 ducat, 4 florin."""
    assert CURRENCIES == ("denar", "dirham", "ducat", "florin")


def test_same_seed_same_game_and_different_seed_differs():
    """Determinism: the same players, options and seed give the same state."""
    assert new(4, 9) == new(4, 9)
    assert new(4, 9) != new(4, 10)
