"""The turn: A18–A26 (take money, buy, exact bonus, passing), A39–A42 (refills)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import IllegalAction
from engine.alhambra import RULES
from engine.alhambra.actions import BuyTile, Pass, PlaceTile, RedesignAdd, ReserveTile, TakeMoney
from engine.alhambra.components import SCORING_1, value_of
from tests.engine.alhambra.helpers import act, arrange, card, new

MARKET = ("pavilion-2-NEW", "seraglio-3-ESW", "arcades-4-NES", "chambers-5-NSW")  # denar/dirham/ducat/florin


def base(**kw):
    s = new(3, seed=2)
    return arrange(s, market=kw.pop("market", MARKET), **kw)


def me(s):
    return s.players[s.current]


def test_A19_take_one_card_of_any_value():
    """A19: a single 9 may be taken; taking money ends the actions and (nothing bought) the turn."""
    s = base(display=(card("denar", 9), card("dirham", 1), card("ducat", 8), card("florin", 7)))
    p = me(s)
    t = act(s, TakeMoney((card("denar", 9),)))
    assert card("denar", 9) in t.seat(p).hand
    assert t.current == (s.current + 1) % 3 and t.phase == "action"
    assert len(t.display) == 4  # A24/A39: refilled at turn end


def test_A19_several_cards_at_most_five():
    """A19: 2+3 allowed, 4+3 refused with a message citing A19."""
    s = base(display=(card("denar", 2), card("dirham", 3), card("ducat", 4), card("florin", 3)))
    t = act(s, TakeMoney((card("denar", 2), card("dirham", 3))))
    assert {card("denar", 2), card("dirham", 3)} <= set(t.seat(me(s)).hand)
    with pytest.raises(IllegalAction, match=r"5 or less.*A19"):
        act(s, TakeMoney((card("ducat", 4), card("florin", 3))))
    with pytest.raises(IllegalAction, match="A19"):
        act(s, TakeMoney((card("denar", 5),)))  # not on display


def test_A19_listing_collapses_identical_cards():
    """A19: two identical cards on display give one 'take one' choice and one 'take both' choice."""
    s = base(display=(card("denar", 2), card("denar", 2, 1), card("ducat", 9), card("florin", 9)))
    takes = [a for a in RULES.legal_actions(s, me(s)) if isinstance(a, TakeMoney)]
    values = sorted(tuple(sorted(value_of(c) for c in a.cards)) for a in takes)
    assert values == [(2,), (2, 2), (9,), (9,)]  # the two 9s differ in currency


def test_A20_hand_counts_are_public_but_not_the_cards():
    """A20: view shows every hand's size, and only the viewer's own cards."""
    s = new(4, 5)
    p0, p1 = s.players[0], s.players[1]
    v = RULES.view(s, p0)
    assert v.seats[0].hand == s.seats[0].hand
    assert len(v.seats[1].hand) == len(s.seats[1].hand) and set(v.seats[1].hand) == {-1}
    spectator = RULES.view(s, None)
    assert all(set(seat.hand) == {-1} for seat in spectator.seats)
    assert RULES.view(s, p1).seats[1].hand == s.seats[1].hand


def test_A21_pay_in_the_space_currency_no_change():
    """A21: pay only with the space's currency, sum >= price; overpaying is accepted, no change, actions end;
    paid cards go to the discard pile; the tile waits beside the Alhambra; A23: the space stays empty."""
    hand = (card("ducat", 3), card("ducat", 2), card("denar", 9))
    s = base(hands={0: hand}, current=0)
    with pytest.raises(IllegalAction, match=r"costs 4 ducat; you offered 3 \(A21\)"):
        act(s, BuyTile("arcades-4-NES", (card("ducat", 3),)))
    with pytest.raises(IllegalAction, match=r"only with ducat cards.*9 denar.*A21"):
        act(s, BuyTile("arcades-4-NES", (card("denar", 9),)))
    t = act(s, BuyTile("arcades-4-NES", (card("ducat", 3), card("ducat", 2))))
    seat = t.seats[0]
    assert seat.hand == (card("denar", 9),)
    assert seat.pending == ("arcades-4-NES",)
    assert t.market[2] is None and t.phase == "place" and t.current == 0
    assert set(t.discard) >= {card("ducat", 3), card("ducat", 2)}


def test_A21_legal_payments_are_distinct_and_minimal_but_apply_accepts_any_valid_one():
    """A21: listed payments are each multiset once and minimal; apply also takes a non-minimal payment."""
    hand = (card("florin", 5), card("florin", 4), card("florin", 4, 1), card("florin", 3), card("denar", 8))
    market = ("pavilion-2-NEW", "seraglio-3-ESW", "arcades-4-NES", "chambers-8-NW")
    s = base(market=market, hands={0: hand}, current=0)
    pays = sorted(
        tuple(sorted(value_of(c) for c in a.cards))
        for a in RULES.legal_actions(s, s.players[0])
        if isinstance(a, BuyTile) and a.tile == "chambers-8-NW"
    )
    assert pays == [(3, 5), (4, 4), (4, 5)]
    t = act(s, BuyTile("chambers-8-NW", (card("florin", 5), card("florin", 4), card("florin", 4, 1))))
    assert t.phase == "place"


def test_A22_exact_payment_gives_another_action_and_a_chain_of_exact_purchases():
    """A22/A23: four exact purchases in a row, the market is not refilled meanwhile, then a fifth action."""
    hand = (card("denar", 2), card("dirham", 3), card("ducat", 4), card("florin", 5))
    s = base(
        hands={0: hand}, current=0, display=(card("denar", 1), card("dirham", 9), card("ducat", 9), card("florin", 9))
    )
    for tile, c in zip(MARKET, hand, strict=True):
        s = act(s, BuyTile(tile, (c,)))
        assert s.phase == "action" and s.bonus and s.current == 0
    assert s.market == (None,) * 4  # A23
    assert not any(isinstance(a, BuyTile) for a in RULES.legal_actions(s, s.players[0]))
    s = act(s, TakeMoney((card("denar", 1),)))  # the fifth action
    assert s.phase == "place" and set(s.seats[0].pending) == set(MARKET)


def test_A22_the_extra_action_may_be_skipped():
    """A22 ('may'): after an exact purchase the player can pass; without the bonus, passing is refused (A18)."""
    s = base(hands={0: (card("denar", 2),)}, current=0)
    with pytest.raises(IllegalAction, match="A18"):
        act(s, Pass())
    s = act(s, BuyTile("pavilion-2-NEW", (card("denar", 2),)))
    assert Pass() in RULES.legal_actions(s, s.players[0])
    s = act(s, Pass())
    assert s.phase == "place" and s.current == 0


def test_A24_A27_turn_end_places_then_refills_then_next_player():
    """A24: the bought tile is placed (A27), then the market and display refill, then the next player."""
    s = base(hands={0: (card("denar", 6),)}, current=0)
    s = act(s, BuyTile("pavilion-2-NEW", (card("denar", 6),)))
    assert s.market[0] is None and s.phase == "place"
    with pytest.raises(IllegalAction, match="A24"):
        act(s, TakeMoney(s.display[:1]))
    s = act(s, ReserveTile("pavilion-2-NEW"))
    assert s.market[0] is not None and s.current == 1 and s.phase == "action"
    assert s.seats[0].reserve == ("pavilion-2-NEW",)


def test_A25_cards_must_be_in_hand_and_used_once():
    """A25: every card paid must be in the hand, each once."""
    s = base(hands={0: (card("denar", 1),)}, current=0)
    with pytest.raises(IllegalAction, match="A25"):
        act(s, BuyTile("pavilion-2-NEW", (card("denar", 2),)))
    with pytest.raises(IllegalAction, match="only once"):
        act(s, BuyTile("pavilion-2-NEW", (card("denar", 1), card("denar", 1))))


def test_A26_pass_only_when_nothing_is_possible():
    """A26 [U]: with display and deck empty, no affordable tile and no redesign, passing ends the turn."""
    s = base(hands={0: (card("denar", 1),)}, current=0)
    deck = s.deck
    s = replace(s, display=(), deck=(), discard=s.discard + tuple(c for c in deck if c < 108) + s.display)
    s = replace(s, discard=tuple(c for c in s.discard if c < 108))
    s = replace(s, deck=tuple(c for c in deck if c >= 1000))
    assert RULES.legal_actions(s, s.players[0]) == [Pass()]
    t = act(s, Pass())
    assert t.current == 1


def test_A27_A28_bought_tiles_wait_until_turn_end():
    """A27: placing during the actions is refused; A28: a tile bought this turn can't be used in a redesign."""
    s = base(hands={0: (card("denar", 2),)}, current=0)
    s = act(s, BuyTile("pavilion-2-NEW", (card("denar", 2),)))
    with pytest.raises(IllegalAction, match="A27"):
        act(s, PlaceTile("pavilion-2-NEW", (0, 1)))
    with pytest.raises(IllegalAction, match="A28"):
        act(s, RedesignAdd("pavilion-2-NEW", (0, 1)))


def test_not_your_turn_is_refused():
    s = base()
    other = s.players[(s.current + 1) % 3]
    with pytest.raises(IllegalAction, match="not your turn"):
        RULES.apply(s, other, TakeMoney(s.display[:1]))
    assert RULES.legal_actions(s, other) == []


def test_A39_A40_scoring_card_is_set_aside_and_scored_before_the_next_turn():
    """A39/A40/A43: the refill skips a scoring card, keeps drawing to 4, and scores round 1 right away."""
    s = base(current=0, display=(card("denar", 1), card("dirham", 9), card("ducat", 9), card("florin", 9)))
    deck = tuple(c for c in s.deck if c != SCORING_1) + (SCORING_1,)  # scoring card 1 on top
    s = replace(s, deck=deck)
    t = act(s, TakeMoney((card("denar", 1),)))
    assert len(t.display) == 4 and SCORING_1 not in t.display and SCORING_1 not in t.deck
    assert [r.round for r in t.scorings] == [1]
    kinds = [e.kind for e in t.log]  # this action's events only
    assert kinds[:2] == ["move", "scoring_card"] and "scoring" in kinds  # the move first, then what it caused
    assert t.current == 1


def test_A41_discard_reshuffled_and_display_may_stay_incomplete():
    """A41: an empty deck is rebuilt from the discard pile; with both empty the display stays short."""
    s = base(current=0, display=(card("denar", 1), card("dirham", 9), card("ducat", 9), card("florin", 9)))
    money = tuple(c for c in s.deck if c < 108)
    s = replace(
        s, deck=(), discard=money[:2], seats=s.seats[:2] + (replace(s.seats[2], hand=s.seats[2].hand + money[2:]),)
    )
    t = act(s, TakeMoney((card("denar", 1),)))
    assert len(t.display) == 4 and len(t.deck) + len(t.discard) == 1
    assert any(e.kind == "reshuffle" for e in t.log) and t.reshuffled and not s.reshuffled  # A41, kept for the AI
    u = replace(s, discard=(), seats=s.seats[:2] + (replace(s.seats[2], hand=s.seats[2].hand + money[:2]),))
    v = act(u, TakeMoney((card("denar", 1),)))
    assert len(v.display) == 3


def test_A42_market_refilled_in_space_order():
    """A42: empty spaces are filled 1 -> 4 from the bag."""
    hand = (card("denar", 2), card("florin", 5))
    s = base(hands={0: hand}, current=0)
    s = act(s, BuyTile("chambers-5-NSW", (card("florin", 5),)))
    s = act(s, BuyTile("pavilion-2-NEW", (card("denar", 2),)))
    bag = s.bag
    s = act(s, Pass())
    s = act(s, ReserveTile("pavilion-2-NEW"))
    s = act(s, ReserveTile("chambers-5-NSW"))
    assert s.market[0] == bag[-1] and s.market[3] == bag[-2]
