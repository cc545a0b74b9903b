"""Module 3, the Bureau de Change (V40–V48): exchange cards in the deck and display, taking one as the whole
take-money action, one mixed-currency payment, reshuffling, secrecy, and no effect at the game end."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine import IllegalAction
from engine.alhambra import RULES
from engine.alhambra.actions import BuyTile, GiveToDirk, Pass, ReserveTile, TakeMoney
from engine.alhambra.components import (
    CURRENCIES,
    EXCHANGE_CARDS,
    EXCHANGE_PAIRS,
    HIDDEN_CARD,
    SCORING_1,
    SCORING_2,
    SCORING_CARDS,
    is_money,
    money_cards,
)
from tests.engine.alhambra.helpers import act, arrange, card, new

MARKET = ("pavilion-8-open", "seraglio-9-open", "arcades-10-open", "tower-12-open")  # denar dirham ducat florin
DF, DD = 2003, 2002  # the denar/florin and the denar/ducat exchange cards
DISPLAY = (card("denar", 1), card("dirham", 1), card("ducat", 1), card("florin", 1))


def ex_game(n=3, hands=None, seed=9, display=DISPLAY, market=MARKET, current=0, **kw):
    s = new(n, seed, exchange=True)
    return arrange(s, market=market, display=display, hands=hands or {}, current=current, **kw)


def test_V40_six_cards_one_for_each_pair_of_currencies():
    """V40 [I]: six exchange cards, each with two different currencies, all six pairs."""
    pairs = {frozenset(EXCHANGE_PAIRS[c]) for c in EXCHANGE_CARDS}
    assert len(pairs) == 6 and all(len(p) == 2 for p in pairs)
    assert EXCHANGE_PAIRS[DF] == (CURRENCIES.index("denar"), CURRENCIES.index("florin"))


@pytest.mark.parametrize("n", [2, 3, 6])
def test_V41_V48_two_cards_each_in_piles_2_3_4_never_in_start_hands_or_the_first_display(n):
    """V41: 2 exchange cards shuffled into each of piles 2, 3 and 4 (with the scoring cards in 2 and 4, A16);
    V48: none in the starting hands or the first display; not part of the 108/72 money cards."""
    for seed in range(5):
        s = new(n, seed, exchange=True)
        assert not any(c in EXCHANGE_PAIRS for seat in s.seats for c in seat.hand)
        assert not any(c in EXCHANGE_PAIRS for c in s.display)
        top_first = s.deck[::-1]
        size, extra = divmod(len([c for c in s.deck if is_money(c)]), 5)
        sizes = [size + (k < extra) for k in range(5)]
        sizes[1] += 3  # scoring card 1 + 2 exchange cards
        sizes[2] += 2
        sizes[3] += 3
        piles, i = [], 0
        for sz in sizes:
            piles.append(top_first[i : i + sz])
            i += sz
        assert i == len(top_first)
        assert [sum(c in EXCHANGE_PAIRS for c in p) for p in piles] == [0, 2, 2, 2, 0]
        assert SCORING_1 in piles[1] and SCORING_2 in piles[3]
        assert len([c for c in s.deck if is_money(c)]) + len(s.display) + sum(len(x.hand) for x in s.seats) == len(
            money_cards(n)
        )


def test_V42_a_drawn_exchange_card_fills_the_display_like_money():
    """V42: the display always holds 4 cards in total, any mix of money and exchange cards."""
    s = ex_game()
    s = replace(s, deck=tuple(c for c in s.deck if c != DF) + (DF,))
    t = act(s, TakeMoney((card("denar", 1),)))
    assert DF in t.display and len(t.display) == 4


def test_V43_taking_one_exchange_card_is_the_whole_take_money_action():
    """V43 [I]: one exchange card alone; no money with it; it does not count toward the 5."""
    s = ex_game(display=(DF, card("dirham", 1), card("ducat", 2), card("florin", 9)))
    p = s.current_player
    legal = [a for a in RULES.legal_actions(s, p) if isinstance(a, TakeMoney)]
    assert TakeMoney((DF,)) in legal
    assert all(a.cards == (DF,) or DF not in a.cards for a in legal)
    with pytest.raises(IllegalAction, match="V43"):
        act(s, TakeMoney((card("dirham", 1), DF)))
    t = act(s, TakeMoney((DF,)))
    assert DF in t.seats[0].hand and t.current == 1  # the turn is over
    assert str(RULES.describe(TakeMoney((DF,)))) == "takes the denar/florin exchange card"


def test_V44_exchange_cards_are_unlimited_and_hidden_like_money():
    """V44: no hand limit; in other players' views an exchange card is a hidden card (count public)."""
    s = ex_game(hands={0: (DF, DD, card("denar", 3)), 1: (2001, 2004, 2005, 2006)})
    v = RULES.view(s, s.players[1])
    assert v.seats[0].hand == (HIDDEN_CARD,) * 3 and v.seats[1].hand == (2001, 2004, 2005, 2006)
    w = replace(
        s, seats=(replace(s.seats[0], hand=tuple(sorted((card("denar", 3), 2001, 2002)))), s.seats[1], *s.seats[2:])
    )
    assert RULES.view(w, None).seats[0] == RULES.view(s, None).seats[0]


def test_V45_one_tile_paid_with_any_mix_of_the_two_currencies():
    """V45: 5 denar + 7 florin buy the 12 on the florin space with the denar/florin card; the card is
    discarded; the exact payment grants another action (A22 [I])."""
    s = ex_game(hands={0: (card("denar", 5), card("florin", 7), DF)})
    p = s.current_player
    buy = BuyTile("tower-12-open", tuple(sorted((card("denar", 5), card("florin", 7), DF))))
    assert buy in RULES.legal_actions(s, p)
    t = act(s, buy)
    assert t.bonus and DF in t.discard and DF not in t.seats[0].hand
    assert "denar/florin exchange card" in str(RULES.describe(buy)) and "acts again" in str(RULES.describe(buy))


def test_V45_the_seed_example_seven_blue_pay_a_seven_on_the_yellow_space():
    """V45: only cards of the card's other currency (7 denar) pay a tile on the florin space."""
    s = ex_game(
        hands={0: (card("denar", 7), DF)},
        market=("pavilion-8-open", "seraglio-9-open", "arcades-10-open", "pavilion-7-E"),
    )
    t = act(s, BuyTile("pavilion-7-E", (card("denar", 7), DF)))
    assert t.bonus and t.seats[0].hand == ()


def test_V45_one_exchange_card_per_purchase_and_only_its_two_currencies():
    """V45 [U]: no chaining; the card must cover the space's currency; other currencies are refused."""
    s = ex_game(hands={0: (card("denar", 5), card("ducat", 4), card("florin", 3), DF, DD)})
    with pytest.raises(IllegalAction, match="Only one exchange card"):
        act(s, BuyTile("tower-12-open", (card("denar", 5), card("ducat", 4), card("florin", 3), DF, DD)))
    with pytest.raises(IllegalAction, match="neither"):
        act(s, BuyTile("tower-12-open", (card("denar", 5), card("ducat", 4), card("florin", 3), DF)))
    with pytest.raises(IllegalAction, match="only helps"):
        act(s, BuyTile("seraglio-9-open", (card("denar", 5), card("ducat", 4), DD)))  # dirham space
    with pytest.raises(IllegalAction, match="costs 12"):
        act(s, BuyTile("tower-12-open", (card("denar", 5), card("florin", 3), DF)))


def test_V45_the_card_is_used_up_by_a_single_purchase():
    """V45: after one purchase the card is on the discard pile and cannot pay a second tile."""
    s = ex_game(
        hands={0: (card("denar", 4), card("florin", 5), card("denar", 3), card("florin", 9), DF)},
        market=("pavilion-4-ES", "seraglio-9-open", "arcades-10-open", "garden-12-S"),
    )
    t = act(s, BuyTile("pavilion-4-ES", (card("denar", 4),)))  # exact, acts again
    t = act(t, BuyTile("garden-12-S", tuple(sorted((card("denar", 3), card("florin", 9), DF)))))  # exact
    assert t.bonus and DF in t.discard
    with pytest.raises(IllegalAction, match="in your hand"):
        act(t, BuyTile("seraglio-9-open", (card("florin", 5), DF)))


def test_V45_listed_mixed_payments_use_the_other_currency_and_are_minimal():
    """Listing: mixed payments appear only when they use the other currency (else the card is wasted)."""
    s = ex_game(hands={0: (card("denar", 5), card("denar", 9), card("florin", 7), DF)})
    buys = [a for a in RULES.legal_actions(s, s.current_player) if isinstance(a, BuyTile) and DF in a.cards]
    assert buys
    for a in buys:
        assert any(c in (card("florin", 7),) for c in a.cards) or a.tile == "tower-12-open"
        money = [c for c in a.cards if is_money(c)]
        currencies = {c // 27 for c in money}
        space = s.market.index(a.tile)
        other = ({0, 3} - {space}).pop()
        assert other in currencies


def test_V46_used_exchange_cards_are_reshuffled_with_the_discard_pile():
    """V46: when the deck is exhausted the discard pile, exchange cards included, becomes the new deck."""
    s = ex_game(hands={0: (card("denar", 5), card("florin", 7), DF)})
    s = act(s, BuyTile("tower-12-open", tuple(sorted((card("denar", 5), card("florin", 7), DF)))))
    rest = tuple(c for c in s.deck if c not in SCORING_CARDS)
    s = replace(s, deck=(), discard=s.discard + rest, display=s.display[:1])
    t = act(s, TakeMoney((s.display[0],)))
    t = act(t, ReserveTile("tower-12-open"))
    assert any(e.kind == "reshuffle" for e in t.log) and t.reshuffled
    assert sorted(c for c in (*t.deck, *t.display) if c in EXCHANGE_PAIRS) == sorted(EXCHANGE_CARDS)


def test_V47_exchange_cards_have_no_effect_in_the_end_distribution():
    """V47: only money counts for the leftover tiles (A51): an exchange card neither adds value nor lets another
    currency count."""
    hands = {0: (card("denar", 9), card("florin", 1, 1), DF, 2005), 1: (card("florin", 2),), 2: (card("dirham", 9),)}
    s = ex_game(hands=hands, bag=(), current=2)
    s = act(s, BuyTile("seraglio-9-open", (card("dirham", 9),)))  # exact: may act again
    s = act(s, Pass())
    s = act(s, ReserveTile("seraglio-9-open"))  # the market cannot be refilled: A50
    assert s.phase in ("final", "over")
    got = {e.data["tile"]: e.player for e in s.log if e.kind == "leftover"}
    assert got["tower-12-open"] == s.players[1]  # florin: 2 beats 1 (+ two exchange cards worth nothing)
    assert got["pavilion-8-open"] == s.players[0]  # denar 9
    assert got["arcades-10-open"] is None  # nobody holds ducats, exchange cards or not


def test_exchange_with_dirk_no_interaction():
    """Exchange + Dirk: 72 money cards plus the 6 exchange cards; a purchase made with one may go to Dirk."""
    s = new(2, 4, exchange=True)
    assert len([c for c in (*s.deck, *s.display) if is_money(c)]) + sum(len(x.hand) for x in s.seats) == 72
    assert sorted(c for c in s.deck if c in EXCHANGE_PAIRS) == list(EXCHANGE_CARDS)
    s = arrange(s, market=MARKET, display=DISPLAY, hands={0: (card("denar", 5), card("florin", 7), DF)}, current=0)
    t = act(s, BuyTile("tower-12-open", tuple(sorted((card("denar", 5), card("florin", 7), DF)))))
    t = act(t, Pass())
    assert GiveToDirk("tower-12-open") in RULES.legal_actions(t, t.current_player)
    u = act(t, GiveToDirk("tower-12-open"))
    assert u.dirk[-1] == "tower-12-open"


def test_exchange_json_round_trip_and_conservation():
    """V40: a stored state that lost an exchange card is refused."""
    s = ex_game(hands={0: (DF,)})
    assert RULES.from_json(json.loads(json.dumps(RULES.to_json(s)))) == s
    with pytest.raises(ValueError, match="V40"):
        RULES.from_json(RULES.to_json(replace(s, seats=(replace(s.seats[0], hand=()), *s.seats[1:]))))
