"""End of game and the 2-player game: A50–A53, A60–A69."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import IllegalAction
from engine.alhambra import RULES
from engine.alhambra.actions import BuyTile, GiveToDirk, Pass, PlaceTile, ReserveTile, TakeMoney
from engine.alhambra.components import SCORING_1, SCORING_2
from tests.engine.alhambra.helpers import act, arrange, card, new

MARKET = ("pavilion-2-NEW", "seraglio-3-ESW", "arcades-4-NES", "chambers-5-NSW")


def ending(n=3, hands=None, bag=(), seed=11, **kw):
    """Player 0 to act, market MARKET, bag as given (empty: the next purchase ends the game)."""
    s = new(n, seed)
    return arrange(
        s,
        market=MARKET,
        bag=bag,
        hands=hands or {},
        current=0,
        display=(card("denar", 9), card("dirham", 9), card("ducat", 9), card("florin", 9)),
        **kw,
    )


def finish(s):
    """Put every leftover tile on its recipient's reserve (A51) until the game is over."""
    while s.phase == "final":
        p = RULES.to_move(s)[0]
        s = act(s, ReserveTile(s.seat(p).pending[0]), p)
    return s


def test_A50_game_ends_only_when_the_market_cannot_be_refilled():
    """A50: an empty bag alone does not end the game; a purchase that can't be replaced does."""
    s = ending(hands={0: (card("denar", 3),)})
    t = act(s, TakeMoney((card("denar", 9),)))
    assert t.phase == "action" and not RULES.is_over(t)
    u = act(s, BuyTile("pavilion-2-NEW", (card("denar", 3),)))
    u = act(u, ReserveTile("pavilion-2-NEW"))
    assert u.phase in ("final", "over")
    assert any(e.kind == "game_end_trigger" for e in u.log)


def test_A51_leftover_tiles_go_to_the_most_money_of_the_space_currency_and_ties_stay_out():
    """A51: most money of that currency gets the tile (price irrelevant); a tie or nobody: out of the game."""
    hands = {
        0: (card("denar", 3), card("dirham", 1)),
        1: (card("dirham", 5), card("ducat", 2)),
        2: (card("dirham", 4), card("dirham", 1, 1), card("ducat", 1), card("ducat", 1, 1)),
    }
    s = ending(hands=hands)
    s = act(s, BuyTile("pavilion-2-NEW", (card("denar", 3),)))
    s = act(s, ReserveTile("pavilion-2-NEW"))
    # dirham: 1 / 5 / 5 -> tie, out; ducat: 0 / 2 / 2 -> tie, out; florin: nobody -> out
    assert s.removed[-3:] == ("seraglio-3-ESW", "arcades-4-NES", "chambers-5-NSW")
    assert RULES.is_over(s)
    texts = [str(e.text) for e in s.log if e.kind == "leftover"]
    assert any("tie for most dirham" in t for t in texts) and any("nobody" in t for t in texts)


def test_A51_recipients_place_leftovers_in_any_order_and_then_A52_final_scoring():
    """A51: recipients (several at once) place their tiles by the normal rules, not to Dirk; then A52."""
    hands = {0: (card("denar", 3), card("dirham", 9, 1)), 1: (card("ducat", 7),), 2: (card("florin", 1),)}
    s = ending(hands=hands)
    s = act(s, BuyTile("pavilion-2-NEW", (card("denar", 3),)))
    s = act(s, ReserveTile("pavilion-2-NEW"))
    assert s.phase == "final"
    assert RULES.to_move(s) == list(s.players)
    assert [seat.pending for seat in s.seats] == [("seraglio-3-ESW",), ("arcades-4-NES",), ("chambers-5-NSW",)]
    with pytest.raises(IllegalAction, match="A51"):
        act(s, TakeMoney(s.display[:1]), s.players[1])
    s = act(s, ReserveTile("chambers-5-NSW"), s.players[2])
    assert RULES.to_move(s) == list(s.players[:2])
    assert RULES.legal_actions(s, s.players[2]) == []
    s = act(s, PlaceTile("arcades-4-NES", (1, 0)), s.players[1])  # N13: its open west side meets the fountain
    assert s.seats[1].alhambra[(1, 0)] == "arcades-4-NES"
    assert not RULES.is_over(s)
    s = act(s, ReserveTile("seraglio-3-ESW"), s.players[0])
    assert RULES.is_over(s) and s.scorings[-1].round == 3
    end = s.log[-1]
    assert end.kind == "game_end" and set(end.data["winners"]) <= set(s.players)


def test_A52_a_scoring_card_in_the_final_refill_is_scored_first_and_A43_round_2_may_be_skipped():
    """A52: a scoring card drawn in the refill that ends the game is scored before round 3."""
    s = ending(hands={0: (card("denar", 2),)})
    s = replace(s, deck=tuple(c for c in s.deck if c != SCORING_2) + (SCORING_2,))
    s = act(s, BuyTile("pavilion-2-NEW", (card("denar", 2),)))
    s = act(s, TakeMoney((card("denar", 9),)))
    s = finish(act(s, ReserveTile("pavilion-2-NEW")))
    assert [r.round for r in s.scorings] == [2, 3]
    t = ending(hands={0: (card("denar", 3),)})
    t = act(t, BuyTile("pavilion-2-NEW", (card("denar", 3),)))
    t = finish(act(t, ReserveTile("pavilion-2-NEW")))
    assert [r.round for r in t.scorings] == [3]  # A43 [U]: round 2 never came; the final uses table 3


def test_A53_equal_top_scores_share_the_victory():
    """A53: no tie-breaker."""
    s = ending(hands={0: (card("denar", 3),)})
    s = act(s, BuyTile("pavilion-2-NEW", (card("denar", 3),)))
    s = finish(act(s, ReserveTile("pavilion-2-NEW")))
    assert RULES.is_over(s)
    assert RULES.winners(s) == list(s.players)  # everybody 0


def test_A62_A63_A64_dirk_draws_6_6_and_a_third_of_the_bag():
    """A62: 6 at setup; A63: 6 after round 1; A64: floor(bag/3) after round 2."""
    s = new(2, seed=12)
    assert len(s.dirk) == 6 and len(s.bag) == 44
    assert [e.data.get("reason") for e in s.log if e.kind == "dirk_tiles"] == ["setup"]  # the deal's events
    s = arrange(s, current=0, display=(card("denar", 9), card("dirham", 9), card("ducat", 9), card("florin", 9)))
    s = replace(s, deck=tuple(c for c in s.deck if c != SCORING_1) + (SCORING_1,))
    bag = s.bag
    t = act(s, TakeMoney((card("denar", 9),)))
    assert len(t.dirk) == 12 and t.dirk[6:] == tuple(reversed(bag[-6:])) and len(t.bag) == 38
    assert [e.data.get("reason") for e in t.log if e.kind == "dirk_tiles"] == ["round 1"]
    u = arrange(t, current=0, display=(card("denar", 9), card("dirham", 9), card("ducat", 9), card("florin", 9)))
    u = replace(u, deck=tuple(c for c in u.deck if c != SCORING_2) + (SCORING_2,))
    v = act(u, TakeMoney((card("denar", 9),)))
    assert len(v.dirk) == 12 + 38 // 3 and len(v.bag) == 38 - 38 // 3


def test_A63_dirk_scores_before_drawing():
    """A63: the 6 new tiles arrive after round 1 is scored (they don't count in it)."""
    s = new(2, seed=13)
    s = arrange(s, current=0, display=(card("denar", 9), card("dirham", 9), card("ducat", 9), card("florin", 9)))
    s = replace(s, deck=tuple(c for c in s.deck if c != SCORING_1) + (SCORING_1,))
    t = act(s, TakeMoney((card("denar", 9),)))
    assert sum(t.scorings[0].lines[-1].counts.values()) == 6


def test_A66_a_bought_tile_may_go_to_dirk_but_not_a_reserve_tile():
    """A66: at turn end a bought tile may be given to Dirk; reserve tiles can't."""
    s = new(2, seed=14)
    s = arrange(s, market=MARKET, hands={0: (card("denar", 2),)}, reserves={0: ["tower-11-open"]}, current=0)
    s = act(s, BuyTile("pavilion-2-NEW", (card("denar", 2),)))
    s = act(s, Pass())
    assert GiveToDirk("pavilion-2-NEW") in RULES.legal_actions(s, s.players[0])
    with pytest.raises(IllegalAction, match="not reserve tiles .A66"):
        act(s, GiveToDirk("tower-11-open"))
    t = act(s, GiveToDirk("pavilion-2-NEW"))
    assert t.dirk[-1] == "pavilion-2-NEW" and t.current == 1
    assert t.log[-1].kind == "dirk_tiles" or any(e.kind == "dirk_tiles" and e.data["reason"] == "gift" for e in t.log)


def test_A67_dirk_gets_no_leftovers_and_A68_only_humans_win():
    """A67: leftover tiles never go to Dirk or to him by gift; A68: scores() and winners() are the humans'."""
    s = new(2, seed=15)
    s = arrange(
        s,
        market=MARKET,
        bag=(),
        current=0,
        hands={0: (card("denar", 3),), 1: (card("dirham", 4),)},
        display=(card("denar", 9), card("dirham", 9), card("ducat", 9), card("florin", 9)),
        dirk=["tower-11-open", "tower-12-open", "tower-13-E", "garden-10-open", "garden-11-open", "garden-12-S"],
    )
    s = act(s, BuyTile("pavilion-2-NEW", (card("denar", 3),)))
    s = act(s, ReserveTile("pavilion-2-NEW"))
    assert s.phase == "final" and RULES.to_move(s) == [s.players[1]]
    assert GiveToDirk("seraglio-3-ESW") not in RULES.legal_actions(s, s.players[1])
    with pytest.raises(IllegalAction, match="A67"):
        act(s, GiveToDirk("seraglio-3-ESW"))
    s = act(s, ReserveTile("seraglio-3-ESW"))
    assert RULES.is_over(s)
    assert set(RULES.scores(s)) == set(s.players)
    assert s.dirk_score > max(RULES.scores(s).values())
    assert RULES.winners(s) == list(s.players)
    assert "Dirk finished ahead" in str(s.log[-1].text) and s.log[-1].data["dirk_score"] == s.dirk_score


def test_A69_dirk_can_empty_the_bag_and_end_the_game_soon():
    """A69: after round 2 Dirk may take the last tiles; the next purchase then ends the game."""
    s = new(2, seed=16)
    s = arrange(
        s,
        current=0,
        market=MARKET,
        bag=("garden-10-open", "garden-11-open"),
        hands={0: (card("denar", 3),)},
        display=(card("denar", 9), card("dirham", 9), card("ducat", 9), card("florin", 9)),
    )
    s = replace(s, deck=tuple(c for c in s.deck if c not in (SCORING_1, SCORING_2)) + (SCORING_2,), scorings=())
    # scoring card 1 is still somewhere in the deck: move it to the bottom, as if round 1 were far away
    s = replace(s, deck=(SCORING_1,) + s.deck)
    t = act(s, TakeMoney((card("denar", 9),)))
    assert len(t.bag) == 2 - 2 // 3
    t = arrange(
        t, current=0, bag=(), display=(card("denar", 8), card("dirham", 9), card("ducat", 9), card("florin", 9))
    )
    u = act(t, BuyTile("pavilion-2-NEW", (card("denar", 3),)))
    u = act(u, ReserveTile("pavilion-2-NEW"))
    assert u.phase in ("final", "over")
