"""Module 4, the Bonus Cards (V60–V66): the ten cards, the deal, playing them as free actions at any time once
their building is in the Alhambra, one extra building each, back to hand when the tile leaves, standing orders
applied before each scoring round, and secrecy of unplayed cards."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine import IllegalAction
from engine._common import load_data
from engine.alhambra import RULES, rounds
from engine.alhambra.actions import (
    PlaceTile,
    PlayBonus,
    RedesignAdd,
    RedesignRemove,
    RedesignSwap,
    SetBonusAutoplay,
    TakeMoney,
)
from engine.alhambra.components import BONUS_CARDS, BUILDING_TILES, SCORING_1, WALLS
from engine.alhambra.state import HIDDEN
from tests.engine.alhambra.helpers import act, arrange, card, new

DISPLAY = (card("denar", 1), card("dirham", 1), card("ducat", 1), card("florin", 1))
G10 = "garden-10-open"


def bonus_game(n=3, seed=2, **kw):
    s = new(n, seed, bonus=True, **{k: kw.pop(k) for k in ("huts", "vizier", "exchange") if k in kw})
    return arrange(s, display=DISPLAY, **kw)


def scoring_next(s):
    """Scoring card 1 on top of the deck: the next refill triggers round 1."""
    return replace(s, deck=tuple(c for c in s.deck if c != SCORING_1) + (SCORING_1,))


def line_of(s, i, rnd=0):
    return next(ln for ln in s.scorings[rnd].lines if ln.player == s.players[i])


def test_V60_ten_cards_one_per_wall_less_building():
    """V60: 10 bonus cards (not 11): exactly the wall-less building tiles; the data file agrees."""
    assert sorted(BONUS_CARDS) == sorted(t for t in BUILDING_TILES if not WALLS[t])
    data = load_data("alhambra_vizier_components.json")["bonus_cards"]
    assert data["count"] == 10 == len(data["cards_known"])


@pytest.mark.parametrize(("n", "k"), [(2, 3), (3, 3), (4, 2), (5, 2), (6, 1)])
def test_V61_deal_by_player_count_and_the_rest_set_aside_unseen(n, k):
    """V61: 2–3 players 3 each, 4–5 players 2, 6 players 1; the rest aside, hidden from everyone."""
    s = new(n, 1, bonus=True)
    assert all(len(seat.bonus_hand) == k for seat in s.seats)
    assert len(s.bonus_aside) == 10 - n * k
    assert sorted([c for seat in s.seats for c in seat.bonus_hand] + list(s.bonus_aside)) == sorted(BONUS_CARDS)
    me = s.players[0]
    v = RULES.view(s, me)
    assert v.seats[0].bonus_hand == s.seats[0].bonus_hand
    assert all(seat.bonus_hand == (HIDDEN,) * k for seat in v.seats[1:])
    assert set(v.bonus_aside) <= {HIDDEN} and len(v.bonus_aside) == len(s.bonus_aside)
    dealt = [e for e in v.log if e.kind == "bonus_dealt"]
    assert [e.player for e in dealt] == [me]  # each player's deal is told to them only
    assert not any(e.kind == "bonus_dealt" for e in RULES.view(s, None).log)


def test_V62_a_card_is_played_once_its_building_is_in_the_alhambra_not_the_reserve():
    """V62: only with the depicted tile in the holder's Alhambra; on the reserve it cannot be played."""
    s = bonus_game(
        bonus_hands={0: [G10, "tower-12-open"]}, alhambras={0: {"N13": G10}}, reserves={0: ["tower-12-open"]}
    )
    p = s.players[0]
    assert RULES.free_actions(s, p)[:1] == [PlayBonus(G10)]
    assert PlayBonus("tower-12-open") not in RULES.free_actions(s, p)
    with pytest.raises(IllegalAction, match="on your reserve .V62"):
        act(s, PlayBonus("tower-12-open"), p)
    with pytest.raises(IllegalAction, match="no bonus card"):
        act(s, PlayBonus("arcades-9-open"), p)
    t = act(s, PlayBonus(G10), p)
    assert t.seats[0].bonus_played == (G10,) and t.seats[0].bonus_hand == ("tower-12-open",)
    assert RULES.view(t, None).seats[0].bonus_played == (G10,)  # played cards are public
    assert any(e.kind == "bonus_play" and e.player == p for e in RULES.view(t, None).log)
    with pytest.raises(IllegalAction, match="already played"):
        act(t, PlayBonus(G10), p)


def test_V62_playing_is_not_an_action_any_time_by_anyone_holding_one_and_to_move_is_untouched():
    """V62: at any time, out of turn, during another player's placement; never in legal_actions; to_move and
    the turn stay as they were."""
    s = bonus_game(bonus_hands={2: [G10]}, alhambras={2: {"N13": G10}}, current=0)
    p2 = s.players[2]
    assert p2 not in RULES.to_move(s)
    assert PlayBonus(G10) not in RULES.legal_actions(s, p2) and RULES.legal_actions(s, p2) == []
    t = act(s, PlayBonus(G10), p2)
    assert RULES.to_move(t) == RULES.to_move(s) and t.current == s.current and t.phase == s.phase
    assert RULES.is_free_action(PlayBonus(G10)) and not RULES.is_free_action(TakeMoney(DISPLAY[:1]))


def test_V62_a_card_may_be_played_right_after_placing_its_tile_even_in_the_final_placement():
    """V62: as soon as the tile is placed (here at the end of the game, A51) and before the final scoring."""
    s = bonus_game(bonus_hands={1: [G10]}, pending={1: [G10]}, phase="final", current=0)
    s = arrange(s, pending={0: ["tower-12-open"]})
    p1 = s.players[1]
    t = act(s, PlaceTile(G10, (1, 0)), p1)
    assert t.phase == "final" and PlayBonus(G10) in RULES.free_actions(t, p1)
    t = act(t, SetBonusAutoplay("never"), p1)
    t = act(t, PlayBonus(G10), p1)
    t = act(t, PlaceTile("tower-12-open", (1, 0)), t.players[0])
    assert RULES.is_over(t)
    assert line_of(t, 1, -1).bonus == {"garden": 1} and line_of(t, 1, -1).counts["garden"] == 2
    assert RULES.free_actions(t, p1) == []
    with pytest.raises(IllegalAction, match="over"):
        act(t, SetBonusAutoplay("every"), p1)


def test_V63_each_played_card_is_one_more_building_in_every_scoring_round():
    """V63: the played card counts as one extra building of its type (here it wins the garden majority)."""
    s = bonus_game(
        bonus_hands={0: [G10], 1: [], 2: []}, alhambras={0: {"N13": G10}, 1: {"N13": "garden-11-open"}}, current=0
    )
    s = act(s, PlayBonus(G10), s.players[0])
    t = act(scoring_next(s), TakeMoney((DISPLAY[0],)))
    l0, l1 = line_of(t, 0), line_of(t, 1)
    assert (l0.counts["garden"], l1.counts["garden"]) == (2, 1)
    assert l0.majorities.get("garden") == 5 and "garden" not in l1.majorities
    assert l0.bonus == {"garden": 1}


def test_V64_the_card_returns_to_hand_when_its_tile_leaves_and_can_be_played_again():
    """V64: redesign to the reserve (remove or swap) takes the card back; back in the Alhambra it can be
    played again."""
    s = bonus_game(bonus_played={0: [G10]}, alhambras={0: {"N13": G10}}, reserves={0: ["garden-11-open"]}, current=0)
    p = s.players[0]
    t = act(s, RedesignRemove(G10))
    assert t.seats[0].bonus_played == () and G10 in t.seats[0].bonus_hand
    assert any(e.kind == "bonus_returned" for e in t.log)
    u = act(s, RedesignSwap("garden-11-open", G10))
    assert u.seats[0].bonus_played == () and G10 in u.seats[0].bonus_hand
    # back in the Alhambra on a later turn: playable again
    w = replace(t, current=0, window=False)
    w = act(w, RedesignAdd(G10, (1, 0)))
    assert PlayBonus(G10) in RULES.free_actions(w, p)


def test_V65_cards_for_someone_elses_tile_or_dirks_can_never_be_played():
    """V65: the tile must be in the holder's own Alhambra; Dirk has no bonus cards."""
    s = bonus_game(n=2, bonus_hands={0: [G10, "tower-12-open"]}, alhambras={1: {"N13": G10}}, dirk=["tower-12-open"])
    p = s.players[0]
    assert [a for a in RULES.free_actions(s, p) if isinstance(a, PlayBonus)] == []
    with pytest.raises(IllegalAction, match="not in your Alhambra"):
        act(s, PlayBonus(G10), p)
    with pytest.raises(IllegalAction, match="V62"):
        act(s, PlayBonus("tower-12-open"), p)


def test_V66_standing_orders_every_final_never_applied_right_before_scoring():
    """V66 [BOT]: by default playable cards are played automatically before every scoring round; "final" keeps
    them for round 3; "never" leaves them in hand. The autoplay is logged publicly; setting it is private."""
    lay = {"N13": G10}
    s = bonus_game(
        bonus_hands={0: [G10], 1: ["garden-11-open"], 2: ["tower-12-open"]},
        alhambras={0: lay, 1: {"N13": "garden-11-open"}, 2: {"N13": "tower-12-open"}},
        current=0,
    )
    p0, p1, p2 = s.players
    s = act(s, SetBonusAutoplay("final"), p1)
    s = act(s, SetBonusAutoplay("never"), p2)
    assert [e for e in RULES.view(s, p0).log if e.kind == "bonus_autoplay_set"] == []
    assert RULES.view(s, p0).seats[1].bonus_auto == ""  # hidden
    assert RULES.view(s, p1).seats[1].bonus_auto == "final"
    t = act(scoring_next(s), TakeMoney((DISPLAY[0],)))
    assert t.seats[0].bonus_played == (G10,) and t.seats[1].bonus_hand == ("garden-11-open",)
    assert t.seats[2].bonus_hand == ("tower-12-open",)
    auto = [e for e in t.log if e.kind == "bonus_autoplay"]
    assert [e.player for e in auto] == [p0] and auto[0].data["round"] == 1
    assert line_of(t, 0).counts["garden"] == 2 and line_of(t, 1).counts["garden"] == 1
    # round 3: "final" plays now, "never" still not
    final = rounds.scoring_round(t, 3)
    assert final.seats[1].bonus_played == ("garden-11-open",) and final.seats[2].bonus_played == ()
    with pytest.raises(IllegalAction, match="already play"):
        act(s, SetBonusAutoplay("final"), p1)
    with pytest.raises(IllegalAction, match="Choose one of"):
        act(s, SetBonusAutoplay("sometimes"), p1)


def test_huts_plus_bonus_add_up_independently():
    """Huts + bonus: a garden hut next to the garden (V27) and the garden's bonus card (V63) both count."""
    s = bonus_game(huts=True, bonus_played={0: [G10]}, alhambras={0: {"N13": G10, "O13": "hut-garden-S"}}, current=0)
    t = act(scoring_next(s), TakeMoney((DISPLAY[0],)))
    line = line_of(t, 0)
    assert line.counts["garden"] == 3 and line.huts == {"garden": 1} and line.bonus == {"garden": 1}


def test_bonus_module_off_and_json_round_trip_and_conservation():
    """Without the module there are no bonus cards and no free actions; states round-trip; a lost card is
    refused (V60)."""
    s = new(3, 2)
    assert RULES.free_actions(s, s.players[0]) == [] and s.seats[0].bonus_hand == ()
    with pytest.raises(IllegalAction, match="without the bonus"):
        act(s, SetBonusAutoplay("never"), s.players[0])
    b = bonus_game()
    assert RULES.from_json(json.loads(json.dumps(RULES.to_json(b)))) == b
    with pytest.raises(ValueError, match="V60"):
        RULES.from_json(RULES.to_json(replace(b, bonus_aside=b.bonus_aside[1:])))
    assert str(RULES.describe(PlayBonus(G10))) == "plays the bonus card for the Garden (10, no walls): one more Garden"
    assert "final scoring" in str(RULES.describe(SetBonusAutoplay("final")))
