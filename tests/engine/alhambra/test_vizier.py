"""Module 1, The Vizier's Favour (V1–V12): the out-of-turn exact purchase through to_move, its window, the
placement sub-step, priority (V7), re-activation (V8), and the interactions with the other modules and Dirk."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine import IllegalAction
from engine.alhambra import RULES
from engine.alhambra import actions as move
from engine.alhambra.components import SCORING_1
from engine.alhambra.state import ACTION, FINAL, OVER, VIZIER
from tests.engine.alhambra.helpers import act, arrange, card, new

# market spaces: denar, dirham, ducat, florin
MARKET = ("pavilion-8-open", "seraglio-9-open", "arcades-10-open", "tower-12-open")
DISPLAY = (card("denar", 1), card("dirham", 1), card("ducat", 1), card("florin", 1))


def window(n=3, hands=None, current=1, seed=3, **kw):
    """The moment after player current-1's turn ended: player `current` to act, the vizier window open."""
    s = new(n, seed, vizier=True, **{k: kw.pop(k) for k in ("huts", "exchange", "bonus") if k in kw})
    kw.setdefault("window", True)
    return arrange(s, market=MARKET, display=DISPLAY, hands=hands or {}, current=current, **kw)


def P(s, i):
    return s.players[i]


def test_V1_V2_every_player_starts_with_an_active_vizier_and_the_options_are_off_by_default():
    """V1, V2: one vizier per player, active at set-up; the modules are yes/no options, default off."""
    s = new(4, 1, vizier=True)
    assert all(seat.vizier for seat in s.seats)
    assert not any(seat.vizier for seat in new(4, 1).seats)
    for name in ("vizier", "huts", "exchange", "bonus"):
        opt = RULES.options[name]
        assert opt.default is False and 0 < len(str(opt.description)) <= 100
    assert not s.window and RULES.to_move(s) == [s.current_player]  # V4: nobody has finished a turn yet


def test_V4_V12_the_window_opens_after_a_turn_ends_with_the_refill_and_lists_claimants_in_V7_order():
    """V4, V12: after player 0's turn (refill done) the next player and every player whose active vizier can pay
    a market tile exactly may act; V7: to_move lists the next player first and the one who just finished last."""
    hands = {0: (card("denar", 8),), 1: (card("ducat", 2),), 2: (card("florin", 5), card("florin", 7))}
    s = window(hands=hands, current=0, window=False)
    s = act(s, move.TakeMoney((card("dirham", 1),)))  # player 0's whole turn
    assert s.current == 1 and s.window and s.phase == ACTION
    assert len(s.display) == 4  # V4 [I]: the window opens after the refill
    # player 1 (next) cannot pay anything exactly but acts anyway; player 2 can (12 florin); player 0 (8 denar)
    assert RULES.to_move(s) == [P(s, 1), P(s, 2), P(s, 0)]
    assert RULES.vizier_claimants(s) == [P(s, 2), P(s, 0)]
    assert RULES.legal_actions(s, P(s, 2)) == [move.VizierBuy("tower-12-open", (card("florin", 5), card("florin", 7)))]
    assert RULES.legal_actions(s, P(s, 0)) == [move.VizierBuy("pavilion-8-open", (card("denar", 8),))]
    assert not any(isinstance(a, move.VizierBuy) for a in RULES.legal_actions(s, P(s, 1)))


def test_V7_priority_helper_orders_simultaneous_claims_from_the_next_player_to_the_one_who_just_finished():
    """V7: the bot resolves claims that arrive together in turn order starting with the next player."""
    s = window(n=5, current=3)
    ps = s.players
    assert RULES.vizier_priority(s, [ps[2], ps[0], ps[4], ps[3]]) == [ps[3], ps[4], ps[0], ps[2]]
    assert RULES.vizier_priority(s, [ps[1], "stranger", ps[1]]) == [ps[1]]


def test_V5_the_vizier_pays_exactly_in_the_space_currency():
    """V5: overpaying is not allowed with the vizier; the A21 currency rule applies; the tile must be on the market."""
    hands = {2: (card("florin", 5), card("florin", 8), card("denar", 4), card("denar", 8))}
    s = window(hands=hands)
    p = P(s, 2)
    with pytest.raises(IllegalAction, match="exactly.*costs 12; you offered 13 .V5"):
        act(s, move.VizierBuy("tower-12-open", (card("florin", 5), card("florin", 8))), p)
    with pytest.raises(IllegalAction, match="A21"):
        act(s, move.VizierBuy("pavilion-8-open", (card("denar", 4), card("florin", 5))), p)
    with pytest.raises(IllegalAction, match="not on the market"):
        act(s, move.VizierBuy("tower-13-E", (card("florin", 5), card("florin", 8))), p)
    t = act(s, move.VizierBuy("pavilion-8-open", (card("denar", 8),)), p)
    assert t.phase == VIZIER


def test_V3_V6_flip_pay_take_place_immediately_refill_no_bonus_then_play_resumes():
    """V3: one tile, out of turn. V6: the vizier turns inactive, the exact payment is discarded, the tile is placed at once (only the
    claimant acts meanwhile), the market is refilled, no extra action; the turn player is still to act."""
    hands = {1: (card("dirham", 3),), 2: (card("florin", 3), card("florin", 9))}
    s = window(hands=hands)
    p2 = P(s, 2)
    t = act(s, move.VizierBuy("tower-12-open", (card("florin", 3), card("florin", 9))), p2)
    assert t.phase == VIZIER and t.seat(p2).vizier is False and t.seat(p2).pending == ("tower-12-open",)
    assert [e.kind for e in t.log] == ["move", "vizier"] and t.log[1].player == p2
    assert RULES.to_move(t) == [p2]  # honest: only the claimant may act during the placement sub-step
    assert t.market[3] is None and set(t.discard) >= {card("florin", 3), card("florin", 9)}
    assert all(not isinstance(a, move.VizierBuy | move.TakeMoney) for a in RULES.legal_actions(t, p2))  # V3: one tile
    with pytest.raises(IllegalAction, match="V6"):
        act(t, move.TakeMoney((card("denar", 1),)), P(t, 1))
    with pytest.raises(IllegalAction, match="V6"):
        act(t, move.Pass(), p2)
    u = act(t, move.PlaceTile("tower-12-open", (1, 0)), p2)
    assert u.seat(p2).alhambra[(1, 0)] == "tower-12-open"
    assert u.phase == ACTION and u.current == 1 and not u.bonus  # no extra action, the next player resumes
    assert u.market[3] is not None  # refilled to 4 tiles
    assert RULES.to_move(u)[0] == P(u, 1)
    assert u.log[0].kind == "move" and not any(e.kind == "vizier" for e in u.log)  # the placement's events only
    # still 1's first action to come: the window stays open for the other players (V7)
    assert u.window


def test_V6_the_tile_may_go_to_the_reserve_instead():
    """V6: the vizier purchase goes into the Alhambra or onto the reserve board."""
    s = window(hands={0: (card("denar", 8),)})
    t = act(s, move.VizierBuy("pavilion-8-open", (card("denar", 8),)), P(s, 0))
    assert move.ReserveTile("pavilion-8-open") in RULES.legal_actions(t, P(s, 0))
    u = act(t, move.ReserveTile("pavilion-8-open"), P(s, 0))
    assert u.seat(P(s, 0)).reserve[-1] == "pavilion-8-open" and u.phase == ACTION


def test_V7_after_one_vizier_purchase_the_others_decide_again():
    """V7: after the prioritised purchase and refill the remaining players may still use their viziers."""
    hands = {0: (card("denar", 8),), 2: (card("florin", 9), card("florin", 3))}
    s = window(hands=hands)
    assert RULES.to_move(s) == [P(s, 1), P(s, 2), P(s, 0)]
    t = act(s, move.VizierBuy("tower-12-open", (card("florin", 3), card("florin", 9))), P(s, 2))
    t = act(t, move.ReserveTile("tower-12-open"), P(s, 2))
    assert RULES.to_move(t) == [P(s, 1), P(s, 0)]  # 2's vizier is used up; 0 may still buy
    u = act(t, move.VizierBuy("pavilion-8-open", (card("denar", 8),)), P(s, 0))
    u = act(u, move.ReserveTile("pavilion-8-open"), P(s, 0))
    assert RULES.to_move(u) == [P(s, 1)] and u.window


def test_V4_V12_the_next_players_first_action_closes_the_window():
    """V12: once the next player acts the window is closed: later vizier claims are refused."""
    hands = {1: (card("dirham", 9),), 2: (card("florin", 3), card("florin", 9))}
    s = window(hands=hands)
    t = act(s, move.BuyTile("seraglio-9-open", (card("dirham", 9),)), P(s, 1))  # exact: 1 acts again (A22)
    assert not t.window and RULES.to_move(t) == [P(s, 1)]
    assert RULES.legal_actions(t, P(s, 2)) == []
    with pytest.raises(IllegalAction, match="between two turns.*V4, V12"):
        act(t, move.VizierBuy("tower-12-open", (card("florin", 3), card("florin", 9))), P(s, 2))


def test_V4_the_next_player_may_use_the_vizier_before_acting_and_then_takes_the_turn():
    """V4/V7: the player whose turn comes next is first in priority: a vizier purchase, then the normal turn."""
    s = window(hands={1: (card("dirham", 9), card("dirham", 2))})
    p1 = P(s, 1)
    assert move.VizierBuy("seraglio-9-open", (card("dirham", 9),)) in RULES.legal_actions(s, p1)
    t = act(s, move.VizierBuy("seraglio-9-open", (card("dirham", 9),)), p1)
    t = act(t, move.PlaceTile("seraglio-9-open", (0, 1)), p1)
    assert t.phase == ACTION and t.current == 1 and t.turn == s.turn
    assert any(isinstance(a, move.TakeMoney) for a in RULES.legal_actions(t, p1))


def test_V4_the_player_who_has_just_finished_may_use_the_vizier_too():
    """V4: including the player who has just finished (last in V7 priority)."""
    s = window(hands={0: (card("denar", 8),)})
    assert RULES.to_move(s)[-1] == P(s, 0)
    t = act(s, move.VizierBuy("pavilion-8-open", (card("denar", 8),)), P(s, 0))
    assert t.claimant == 0


def test_V4_V12_players_not_in_the_window_get_a_clear_reason():
    """V5/V6/V8: an inactive vizier, or no exact payment, means no claim."""
    s = window(hands={0: (card("denar", 9),), 2: (card("florin", 9), card("florin", 3))})
    s = replace(s, seats=(s.seats[0], s.seats[1], replace(s.seats[2], vizier=False)))
    assert RULES.to_move(s) == [P(s, 1)]
    with pytest.raises(IllegalAction, match="inactive.*V8"):
        act(s, move.VizierBuy("tower-12-open", (card("florin", 3), card("florin", 9))), P(s, 2))
    with pytest.raises(IllegalAction, match="V5"):
        act(s, move.VizierBuy("pavilion-8-open", (card("denar", 9),)), P(s, 0))
    with pytest.raises(IllegalAction, match="only use your vizier"):
        RULES.apply(
            replace(s, seats=(s.seats[0], s.seats[1], replace(s.seats[2], vizier=True))),
            P(s, 2),
            move.TakeMoney((card("denar", 1),)),
        )


def test_V8_reactivating_the_vizier_is_an_action_on_ones_own_turn():
    """V8: turning an inactive vizier back is a turn action (no further action), also after an exact purchase;
    impossible while it is active or out of turn."""
    hands = {1: (card("dirham", 9),)}
    s = window(hands=hands)
    p1 = P(s, 1)
    assert move.ReactivateVizier() not in RULES.legal_actions(s, p1)
    with pytest.raises(IllegalAction, match="already active"):
        act(s, move.ReactivateVizier(), p1)
    s = replace(s, seats=(s.seats[0], replace(s.seats[1], vizier=False), replace(s.seats[2], vizier=False)))
    assert move.ReactivateVizier() in RULES.legal_actions(s, p1)
    t = act(s, move.ReactivateVizier(), p1)
    assert t.seat(p1).vizier and t.current == 2  # the turn is over
    u = act(s, move.BuyTile("seraglio-9-open", (card("dirham", 9),)), p1)  # exact: another action
    assert move.ReactivateVizier() in RULES.legal_actions(u, p1)
    u = act(u, move.ReactivateVizier(), p1)
    assert u.phase == "place" and u.seat(p1).vizier
    with pytest.raises(IllegalAction):
        act(s, move.ReactivateVizier(), P(s, 2))


def test_V9_no_vizier_during_the_end_of_game_distribution():
    """V9: once the market cannot be refilled the leftover distribution runs without any vizier."""
    hands = {
        0: (card("denar", 8), card("denar", 8, 1)),
        1: (card("dirham", 9), card("dirham", 5)),
        2: (card("florin", 3), card("florin", 9)),
    }
    s = window(hands=hands, current=0, window=False, bag=())
    s = act(s, move.BuyTile("pavilion-8-open", (card("denar", 8),)))
    s = act(s, move.Pass())
    s = act(s, move.ReserveTile("pavilion-8-open"))
    assert s.phase == FINAL and not s.window  # most dirham / most florin received those tiles (A51)
    assert RULES.to_move(s) == [P(s, 1), P(s, 2)]  # only recipients place; no vizier claimant (V9)
    assert all(not isinstance(a, move.VizierBuy) for p in s.players for a in RULES.legal_actions(s, p))
    for p in (P(s, 0), P(s, 2)):  # an outsider, and a recipient with an active vizier and the exact money
        with pytest.raises(IllegalAction, match="V9"):
            act(s, move.VizierBuy("tower-12-open", (card("florin", 3), card("florin", 9))), p)


def test_V10_V31_a_vizier_cannot_take_a_hut():
    """V10 (V31): vizier + huts: huts are not for sale, not even with the vizier."""
    s = window(hands={2: (card("florin", 5),)}, huts=True)
    hut = s.huts[0][-1]
    with pytest.raises(IllegalAction, match="V10"):
        act(s, move.VizierBuy(hut, (card("florin", 5),)), P(s, 2))
    assert not any(isinstance(a, move.TakeHut) for a in RULES.legal_actions(s, P(s, 2)))


def test_V11_a_scoring_card_revealed_by_the_refill_after_a_vizier_purchase_is_scored_before_play_resumes():
    """V11: the refill after a vizier purchase can reveal a scoring card (display short): score, then resume."""
    s = window(hands={0: (card("denar", 8),)})
    s = replace(s, display=s.display[:3], deck=tuple(c for c in s.deck if c != SCORING_1) + (s.display[3], SCORING_1))
    t = act(s, move.VizierBuy("pavilion-8-open", (card("denar", 8),)), P(s, 0))
    t = act(t, move.PlaceTile("pavilion-8-open", (1, 0)), P(s, 0))
    assert [r.round for r in t.scorings] == [1]
    assert t.phase == ACTION and t.current == 1 and t.window and len(t.display) == 4
    line = next(ln for ln in t.scorings[0].lines if ln.player == P(s, 0))
    assert line.counts["pavilion"] == 1  # the vizier's tile was already in place


def test_V11_a_scoring_card_at_turn_end_is_scored_before_the_window_opens():
    """V11 [U]: the scoring triggered by the end-of-turn refill comes first, then the vizier window."""
    s = window(hands={2: (card("florin", 3), card("florin", 9))}, current=0, window=False)
    s = replace(s, deck=tuple(c for c in s.deck if c != SCORING_1) + (SCORING_1,))
    t = act(s, move.TakeMoney((card("denar", 1),)))
    assert [r.round for r in t.scorings] == [1] and t.window
    assert P(t, 2) in RULES.to_move(t)


def test_V11_an_empty_bag_after_a_vizier_purchase_ends_the_game_there():
    """V11 [U] / A50: if the market cannot be refilled after the vizier purchase the game ends at once."""
    s = window(hands={0: (card("denar", 8),)}, bag=())
    t = act(s, move.VizierBuy("pavilion-8-open", (card("denar", 8),)), P(s, 0))
    t = act(t, move.ReserveTile("pavilion-8-open"), P(s, 0))
    assert t.phase in (FINAL, OVER) and not t.window
    assert any(e.kind == "game_end_trigger" for e in t.log)


def test_V11_vizier_plus_exchange_an_exchange_card_may_make_the_exact_payment():
    """V11 [U], V45: vizier + exchange: 5 denar + 7 florin with the denar/florin card buy the 12 on florin."""
    x = 2003  # denar/florin
    s = window(hands={2: (card("denar", 5), card("florin", 7), x)}, exchange=True)
    s = arrange(s, display=DISPLAY)  # keep exchange cards out of the display
    buy = move.VizierBuy("tower-12-open", tuple(sorted((card("denar", 5), card("florin", 7), x))))
    assert buy in RULES.legal_actions(s, P(s, 2))
    t = act(s, buy, P(s, 2))
    assert x in t.discard and x not in t.seat(P(s, 2)).hand


def test_V11_vizier_plus_dirk_the_purchase_may_be_given_to_dirk():
    """V11 [U], A66: in the 2-player game a vizier purchase may go to Dirk instead."""
    s = window(n=2, hands={0: (card("denar", 8),)}, current=1)
    t = act(s, move.VizierBuy("pavilion-8-open", (card("denar", 8),)), P(s, 0))
    assert move.GiveToDirk("pavilion-8-open") in RULES.legal_actions(t, P(s, 0))
    u = act(t, move.GiveToDirk("pavilion-8-open"), P(s, 0))
    assert u.dirk[-1] == "pavilion-8-open" and u.phase == ACTION and u.current == 1


def test_V11_a_used_vizier_cannot_be_used_again_until_reactivated():
    """V11: after its purchase the vizier is inactive; the same player is no longer a claimant."""
    s = window(hands={0: (card("denar", 8), card("dirham", 9))})
    t = act(s, move.VizierBuy("pavilion-8-open", (card("denar", 8),)), P(s, 0))
    t = act(t, move.ReserveTile("pavilion-8-open"), P(s, 0))
    assert P(s, 0) not in RULES.to_move(t)
    with pytest.raises(IllegalAction, match="inactive"):
        act(t, move.VizierBuy("seraglio-9-open", (card("dirham", 9),)), P(s, 0))


def test_vizier_states_round_trip_describe_and_views():
    """JSON round trip in the VIZIER phase; describe; viziers are public in every view."""
    s = window(hands={0: (card("denar", 8),)})
    t = act(s, move.VizierBuy("pavilion-8-open", (card("denar", 8),)), P(s, 0))
    assert RULES.from_json(json.loads(json.dumps(RULES.to_json(t)))) == t
    assert (
        str(RULES.describe(move.VizierBuy("pavilion-8-open", (card("denar", 8),))))
        == "uses the vizier to buy the Pavilion (8) with 8 denar"
    )
    assert "active" in str(RULES.describe(move.ReactivateVizier()))
    v = RULES.view(t, None)
    assert [seat.vizier for seat in v.seats] == [False, True, True] and v.phase == VIZIER
    with pytest.raises(ValueError, match="V6"):
        RULES.from_json(RULES.to_json(replace(t, claimant=5)))


def test_the_module_off_means_no_vizier():
    """V1: without the module nobody may use or reactivate a vizier."""
    s = arrange(new(3, 3), market=MARKET, hands={0: (card("denar", 8),)}, current=1)
    with pytest.raises(IllegalAction, match="without the Vizier"):
        act(s, move.VizierBuy("pavilion-8-open", (card("denar", 8),)), P(s, 0))
    with pytest.raises(IllegalAction, match="without the Vizier"):
        act(s, move.ReactivateVizier(), P(s, 1))


def test_summary_explains_the_modules_that_are_on():
    """The /rules text adds a paragraph per module in play, citing its rules."""
    base = str(RULES.summary({}))
    text = str(RULES.summary({"vizier": True, "bonus": True}))
    assert text.startswith(base) and "Vizier** (V3" in text and "Bonus cards** (V60" in text
    assert "Huts" not in text[len(base) :] and len(str(RULES.summary(dict.fromkeys(RULES.options, True)))) <= 4000
