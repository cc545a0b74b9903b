"""The optional contract for Alhambra: what an action reveals (for undo), who may act out of turn, free and
private actions, and the limits the UI shows. Each reveal test names the rule that makes it one."""

from __future__ import annotations

from dataclasses import replace

from engine.alhambra import RULES
from engine.alhambra import actions as move
from engine.alhambra.components import HUT_LIMIT, TYPES, is_money
from engine.alhambra.state import FINAL, OVER, PLACE
from tests.engine.alhambra.helpers import arrange, card, new

MARKET = ("pavilion-8-open", "seraglio-9-open", "arcades-10-open", "tower-12-open")
DISPLAY = (card("denar", 1), card("dirham", 1), card("ducat", 1), card("florin", 1))
G10 = "garden-10-open"


def game(n=3, seed=3, **kw):
    modules = {k: kw.pop(k) for k in ("vizier", "huts", "exchange", "bonus") if k in kw}
    kw.setdefault("market", MARKET)
    return arrange(new(n, seed, **modules), display=DISPLAY, **kw)


def played(s, action, player=None):
    """(reveals, state after) for `action` by `player` (default: the player whose turn it is)."""
    player = player or s.current_player
    after = RULES.apply(s, player, action)
    return RULES.reveals(s, player, action, after), after


def test_A33_a_redesign_turn_with_a_full_display_and_market_reveals_nothing():
    """A33, A24: a redesign ends the turn, but the display and the market are full: nothing is drawn (A39, A42)."""
    s = game(alhambras={0: {"N13": "arcades-9-open"}}, current=0)
    assert len(s.display) == 4 and None not in s.market
    shown, after = played(s, next(a for a in RULES.legal_actions(s, s.current_player) if a.kind == "redesign_remove"))
    assert not shown and after.current == 1 and after.deck == s.deck and after.bag == s.bag


def test_A39_taking_money_ends_the_turn_and_the_refill_draws_from_the_deck():
    """A19, A39: the taken card leaves a gap that the turn end fills from the face-down deck."""
    s = game(current=0)
    shown, after = played(s, move.TakeMoney(DISPLAY[:1]))
    assert shown and len(after.deck) == len(s.deck) - 1


def test_A41_a_reshuffle_reveals_even_when_the_deck_ends_as_empty_as_it_was():
    """A41: the deck is empty, the discard holds one card: it is shuffled into a deck and drawn at once."""
    s = game(current=0)
    cards = [c for c in s.deck if is_money(c)]
    seats = list(s.seats)
    seats[1] = replace(seats[1], hand=tuple(sorted(seats[1].hand + tuple(cards[1:]))))
    s = replace(s, deck=(), discard=(cards[0],), seats=tuple(seats))
    shown, after = played(s, move.TakeMoney(DISPLAY[:1]))
    assert shown and after.deck == s.deck == () and cards[0] in after.display


def test_A21_a_payment_shows_cards_from_a_hidden_hand():
    """A20, A21: the paid cards go face up to the discard; an exact payment (A22) ends nothing, draws nothing."""
    s = game(hands={0: (card("denar", 8),)}, current=0)
    shown, after = played(s, move.BuyTile("pavilion-8-open", (card("denar", 8),)))
    assert shown and after.bonus and after.deck == s.deck and after.bag == s.bag


def test_A27_A42_placing_the_last_bought_tile_ends_the_turn_and_refills_the_market_from_the_bag():
    """A27: the first of two bought tiles goes to the reserve, nothing drawn; the second ends the turn and the
    market is refilled from the bag (A42)."""
    s = game(pending={0: ["chambers-10-open", "garden-11-open"]}, market=(None, *MARKET[1:]), phase=PLACE, current=0)
    shown, after = played(s, move.ReserveTile("chambers-10-open"))
    assert not shown and after.phase == PLACE
    shown, after = played(after, move.ReserveTile("garden-11-open"))
    assert shown and len(after.bag) == len(s.bag) - 1


def test_A50_A51_the_end_of_the_game_reveals_who_holds_the_most_money():
    """A50, A51: the market cannot be refilled (the bag is empty): leftover tiles go by the money in hidden
    hands, which the log shows. Nothing is drawn."""
    s = game(pending={0: ["chambers-10-open"]}, market=(None, *MARKET[1:]), bag=(), phase=PLACE, current=0)
    shown, after = played(s, move.ReserveTile("chambers-10-open"))
    assert shown and after.phase in (FINAL, OVER) and after.deck == s.deck and after.bag == s.bag == ()


def test_V5_a_vizier_purchase_shows_the_cards_paid():
    """V5, V6: the vizier pays exactly, from a hidden hand, out of turn."""
    s = game(vizier=True, hands={2: (card("florin", 5), card("florin", 7))}, current=0, window=True)
    p2 = s.players[2]
    shown, _ = played(s, move.VizierBuy("tower-12-open", (card("florin", 5), card("florin", 7))), p2)
    assert shown


def test_V8_V12_a_reactivated_vizier_that_can_pay_exactly_is_named_when_the_window_opens():
    """V8: turning the vizier back is the turn's action; nothing is drawn, but the next window (V4, V12) names
    the player if their hidden hand pays a market tile exactly. If it cannot, the window names the same
    players as before."""
    for cards, named in (((card("denar", 8),), True), ((card("denar", 2),), False)):
        s = game(vizier=True, hands={0: cards}, current=0, window=True)
        s = replace(s, seats=(replace(s.seats[0], vizier=False), *s.seats[1:]))
        shown, after = played(s, move.ReactivateVizier())
        assert after.deck == s.deck and after.bag == s.bag and after.window
        assert shown is named and (s.players[0] in RULES.vizier_claimants(after)) is named


def test_V22_taking_a_hut_turns_the_next_one_up_but_the_last_of_a_stack_shows_nothing():
    """V22: the hut below the taken one turns face up; when the stack is used up, nothing new is seen."""
    s = game(huts=True, current=0)
    k = TYPES.index("tower")
    shown, after = played(s, move.TakeHut(s.huts[k][-1]))
    assert shown and after.phase == PLACE and len(after.huts[k]) == len(s.huts[k]) - 1
    last = replace(s, huts=tuple((st[-1],) if i == k else st for i, st in enumerate(s.huts)))
    shown, after = played(last, move.TakeHut(last.huts[k][-1]))
    assert not shown and after.huts[k] == ()


def test_V62_playing_a_bonus_card_shows_it_V66_a_standing_order_shows_nothing():
    """V61, V62: a played bonus card comes out of a hidden hand; V66: changing the standing order is private."""
    s = game(bonus=True, bonus_hands={2: [G10]}, alhambras={2: {"N13": G10}}, current=0)
    p2 = s.players[2]
    shown, _ = played(s, move.PlayBonus(G10), p2)
    assert shown
    shown, _ = played(s, move.SetBonusAutoplay("never"), p2)
    assert not shown


def test_V66_free_and_private_actions():
    """V62, V66: the bonus-card actions are free (not turn actions); only the standing order is private; only
    a game with the bonus cards module has free actions."""
    assert RULES.is_free_action(move.PlayBonus(G10)) and RULES.is_free_action(move.SetBonusAutoplay("final"))
    assert RULES.is_private(move.SetBonusAutoplay("final"))
    assert not RULES.is_private(move.PlayBonus(G10)) and not RULES.is_private(move.TakeMoney(DISPLAY[:1]))
    assert RULES.has_free_actions({"bonus": True}) and not RULES.has_free_actions({"vizier": True})


def test_V4_V7_V12_out_of_turn_are_the_vizier_claimants_other_than_the_player_to_move():
    """V4, V12: during the window the vizier claimants may act out of turn; V7: in priority order; the player
    whose turn it is must act and is never out of turn; V6: while a claimant places, nobody is."""
    hands = {0: (card("denar", 8),), 1: (card("ducat", 2),), 2: (card("florin", 5), card("florin", 7))}
    s = game(vizier=True, hands=hands, current=0)
    assert RULES.out_of_turn(s) == []  # V4: nobody has finished a turn yet
    s = RULES.apply(s, s.players[0], move.TakeMoney((card("dirham", 1),)))
    assert RULES.to_move(s) == [s.players[1], s.players[2], s.players[0]]
    assert RULES.out_of_turn(s) == [s.players[2], s.players[0]] == RULES.to_move(s)[1:]
    placing = RULES.apply(s, s.players[2], move.VizierBuy("tower-12-open", (card("florin", 5), card("florin", 7))))
    assert RULES.to_move(placing) == [s.players[2]] and RULES.out_of_turn(placing) == []


def test_V25_the_hut_limit_is_a_published_limit():
    """V25: at most 3 huts per player and game, published for the UI as limits["huts_taken"]."""
    assert RULES.limits == {"huts_taken": HUT_LIMIT} and HUT_LIMIT == 3
