"""Module 2, the Worker's Huts (V20–V31): the stacks, taking a hut as an action, the 3-hut limit, placing at
turn end, the adjacency value at scoring, walls, Dirk, and what a view shows of the stacks."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine import IllegalAction
from engine._common import load_data
from engine.alhambra import RULES
from engine.alhambra.actions import (
    BuyTile,
    GiveToDirk,
    PlaceTile,
    RedesignAdd,
    RedesignRemove,
    ReserveTile,
    TakeHut,
    TakeMoney,
)
from engine.alhambra.components import HUT_TYPE, HUTS, SCORING_1, TYPE_OF, TYPES, WALLS, tile_name
from engine.alhambra.geometry import longest_wall
from engine.alhambra.scoring import hut_counts
from engine.alhambra.state import HIDDEN, PLACE
from tests.engine.alhambra.helpers import act, arrange, card, cells, new

MARKET = ("pavilion-8-open", "seraglio-9-open", "arcades-10-open", "tower-12-open")


def huts_game(n=3, seed=5, **kw):
    return new(n, seed, huts=True, **kw)


def top(s, typ):
    return s.huts[TYPES.index(typ)][-1]


def test_V20_twenty_four_huts_by_colour_each_with_a_wall_and_the_stand_in_is_labelled():
    """V20: 3 blue, 3 red, 4 brown, 4 white, 5 green, 5 purple; no price; at least one wall each [I]; the
    wall layouts are a labelled stand-in in the data file (unknown from any source)."""
    counts = {t: sum(HUT_TYPE[h] == t for h in HUTS) for t in TYPES}
    assert counts == {"pavilion": 3, "seraglio": 3, "arcades": 4, "chambers": 4, "garden": 5, "tower": 5}
    assert all(WALLS[h] for h in HUTS)
    assert all(TYPE_OF[h] == "hut" for h in HUTS)  # never counted as a building itself (V27)
    data = load_data("alhambra_vizier_components.json")["worker_huts"]
    assert data["huts_stand_in"] is True and "STAND-IN" in data["huts_confidence"]
    assert len({tile_name(h) for h in HUTS}) == 24


def test_V21_six_stacks_by_colour_shuffled_separately_top_face_up_and_hidden_below_in_views():
    """V21: one stack per colour, each shuffled on its own; a view shows the top hut and the count only."""
    s = huts_game()
    assert [len(st) for st in s.huts] == [3, 3, 4, 4, 5, 5]
    assert all(HUT_TYPE[h] == TYPES[k] for k, st in enumerate(s.huts) for h in st)
    orders = {tuple(new(3, seed, huts=True).huts[5]) for seed in range(12)}
    assert len(orders) > 1  # shuffled
    for viewer in (None, s.players[0]):
        v = RULES.view(s, viewer)
        for st, vs in zip(s.huts, v.huts, strict=True):
            assert vs[-1] == st[-1] and len(vs) == len(st) and set(vs[:-1]) <= {HIDDEN}
    # leak test: a different order below the top gives the same view
    k = 5
    t = replace(s, huts=s.huts[:k] + ((s.huts[k][1], s.huts[k][0], *s.huts[k][2:]),))
    assert t.huts != s.huts and RULES.view(t, None) == RULES.view(s, None)
    assert new(3, 5).huts == ()  # module off: no huts at all


def test_V22_taking_a_face_up_hut_turns_up_the_next_and_an_exhausted_stack_is_gone():
    """V22: a turn action: any face-up hut; the next hut of that stack turns up; empty stacks offer nothing."""
    s = huts_game()
    p = s.current_player
    legal = RULES.legal_actions(s, p)
    assert [a for a in legal if isinstance(a, TakeHut)] == [TakeHut(st[-1]) for st in s.huts]
    hut = top(s, "garden")
    t = act(s, TakeHut(hut))
    k = TYPES.index("garden")
    assert t.huts[k] == s.huts[k][:-1] and t.seat(p).pending == (hut,) and t.seat(p).huts_taken == 1
    assert any(e.kind == "hut" and e.data["hut"] == hut for e in t.log)
    with pytest.raises(IllegalAction, match="not face up"):
        act(s, TakeHut(s.huts[k][0]))
    empty = replace(s, huts=s.huts[:k] + ((),) + s.huts[k + 1 :])
    assert TakeHut(hut) not in RULES.legal_actions(empty, p)
    with pytest.raises(IllegalAction, match="V22"):
        act(empty, TakeHut(hut))
    assert str(RULES.describe(TakeHut("hut-garden-NE"))) == "takes the Garden hut (walls NE)"


def test_V23_a_hut_never_grants_another_action_but_may_follow_an_exact_purchase():
    """V23: taking a hut ends the actions; after an exact purchase it may be the follow-up action, and the hut
    and the tile are placed together at turn end."""
    s = arrange(huts_game(), market=MARKET, hands={0: (card("denar", 8),)}, current=0)
    p = s.current_player
    t = act(s, TakeHut(top(s, "tower")))
    assert t.phase == PLACE and not t.bonus
    u = act(s, BuyTile("pavilion-8-open", (card("denar", 8),)))
    assert u.bonus and TakeHut(top(u, "tower")) in RULES.legal_actions(u, p)
    u = act(u, TakeHut(top(u, "tower")))
    assert u.phase == PLACE and set(u.seat(p).pending) == {"pavilion-8-open", top(s, "tower")}


def test_V24_the_hut_is_placed_at_turn_end_under_the_building_rules_or_on_the_reserve():
    """V24: like a bought tile (A27, A31): legal positions only, or the reserve."""
    s = huts_game()
    hut = "hut-tower-NE"  # walls N and E
    s = arrange(s, current=0)
    k = TYPES.index("tower")
    s = replace(s, huts=s.huts[:k] + (tuple(h for h in s.huts[k] if h != hut) + (hut,),) + s.huts[k + 1 :])
    t = act(s, TakeHut(hut))
    with pytest.raises(IllegalAction, match="A31"):
        act(t, PlaceTile(hut, (-1, 0)))  # its east wall would meet the fountain's open side
    assert PlaceTile(hut, (1, 0)) in RULES.legal_actions(t, t.current_player)
    u = act(t, PlaceTile(hut, (1, 0)))
    assert u.seats[0].alhambra[(1, 0)] == hut and u.current == 1
    w = act(t, ReserveTile(hut))
    assert w.seats[0].reserve == (hut,)


def test_V25_at_most_three_huts_per_game_wherever_they_are():
    """V25: acquisitions count (Alhambra or reserve); a fourth is refused; a redesign changes nothing."""
    s = arrange(
        huts_game(),
        current=0,
        reserves={0: ["hut-garden-S", "hut-tower-NE"]},
        alhambras={0: {"N13": "hut-pavilion-ES"}},
    )
    p = s.current_player
    assert s.seat(p).huts_taken == 3
    assert not any(isinstance(a, TakeHut) for a in RULES.legal_actions(s, p))
    with pytest.raises(IllegalAction, match="V25"):
        act(s, TakeHut(s.huts[1][-1]))
    t = act(s, RedesignRemove("hut-pavilion-ES"))
    assert t.seats[0].huts_taken == 3 and len(t.seats[0].reserve) == 3
    two = arrange(huts_game(), current=0, reserves={0: ["hut-garden-S", "hut-tower-NE"]})
    assert two.seat(p).huts_taken == 2 and any(isinstance(a, TakeHut) for a in RULES.legal_actions(two, p))


def test_V25_V30_huts_cannot_be_given_to_dirk():
    """V25 [I], V30: huts never leave their owner; Dirk never gets huts."""
    s = arrange(huts_game(n=2), current=0)
    t = act(s, TakeHut(top(s, "garden")))
    hut = t.seat(t.current_player).pending[0]
    assert GiveToDirk(hut) not in RULES.legal_actions(t, t.current_player)
    with pytest.raises(IllegalAction, match="V30"):
        act(t, GiveToDirk(hut))
    assert not any(h in HUT_TYPE for h in (*s.bag, *s.dirk, *(m for m in s.market if m)))


def test_V26_redesign_moves_huts_like_any_tile():
    """V26: a hut may go from the Alhambra to the reserve and back (A33)."""
    s = arrange(huts_game(), current=0, reserves={0: ["hut-tower-NE"]})
    assert RedesignAdd("hut-tower-NE", (1, 0)) in RULES.legal_actions(s, s.current_player)
    t = act(s, RedesignAdd("hut-tower-NE", (1, 0)))
    assert t.seats[0].alhambra[(1, 0)] == "hut-tower-NE"


# The seed's example (V27): 1 garden, 1 tower and 5 arcades in total: two real arcades, a brown hut between them
# (2), another touching one (1), and a purple hut walled off from the tower (0).
EXAMPLE = {
    "N13": "arcades-9-open",
    "O13": "hut-arcades-S",
    "P13": "arcades-10-open",
    "N14": "hut-arcades-W",
    "M12": "tower-10-W",
    "L12": "hut-tower-NE",
    "L13": "garden-10-open",
}


def test_V27_V28_hut_values_from_open_sides_to_same_type_buildings_only():
    """V27: one building per same-type neighbour sharing an open side; a wall between gives nothing; the hut
    itself is not a building. V28 [U]: neighbouring huts do not count for each other."""
    assert hut_counts(cells(EXAMPLE)) == {"arcades": 3}
    assert hut_counts(cells({"N13": "hut-arcades-S", "O13": "hut-arcades-NE"})) == {}
    assert hut_counts(cells({"N13": "hut-garden-S", "O13": "arcades-9-open"})) == {}  # another type


def test_V27_the_seed_example_scores_five_arcades_and_reserve_huts_count_nothing():
    """V27 through a real scoring round: 5 arcades, 1 tower, 1 garden; a hut on the reserve adds nothing."""
    s = arrange(
        huts_game(),
        current=0,
        alhambras={0: EXAMPLE, 1: {"N13": "chambers-10-open"}},
        reserves={1: ["hut-chambers-N"]},
        display=(card("denar", 1), card("dirham", 1), card("ducat", 1), card("florin", 1)),
    )
    s = replace(s, deck=tuple(c for c in s.deck if c != SCORING_1) + (SCORING_1,))
    t = act(s, TakeMoney((card("denar", 1),)))
    line = next(ln for ln in t.scorings[0].lines if ln.player == s.players[0])
    assert (line.counts["arcades"], line.counts["tower"], line.counts["garden"]) == (5, 1, 1)
    assert line.huts == {"arcades": 3}
    other = next(ln for ln in t.scorings[0].lines if ln.player == s.players[1])
    assert other.counts["chambers"] == 1 and other.huts == {}
    score = next(e for e in t.log if e.kind == "score" and e.player == s.players[0])
    assert "3 Arcades from huts" in str(score.text)


def test_V29_hut_walls_count_toward_the_longest_outer_wall():
    """V29: a hut's walls are ordinary wall segments (A48)."""
    assert longest_wall(cells({"N13": "hut-tower-NE"})) == 2 == longest_wall(cells({"N13": "tower-9-NE"}))
    # a hut and a real tile with the same walls make the same outer walls
    assert longest_wall(cells(EXAMPLE)) == longest_wall(cells({**EXAMPLE, "L12": "tower-9-NE"}))


def test_V30_huts_never_enter_the_market_bag_or_end_distribution():
    """V30: huts stay out of the bag and the market (and so out of A51 and Dirk's draws)."""
    s = huts_game(n=2)
    assert not set(HUTS) & set(s.bag) and not set(HUTS) & set(s.dirk)
    assert all(m not in HUT_TYPE for m in s.market)
    with pytest.raises(IllegalAction, match="V22"):
        act(s, BuyTile(top(s, "garden"), (card("denar", 1),)))


def test_huts_json_round_trip_and_conservation_check():
    """V20/V25: a stored state that lost a hut or miscounts acquisitions is refused."""
    s = arrange(huts_game(), current=0, reserves={0: ["hut-garden-S"]})
    assert RULES.from_json(json.loads(json.dumps(RULES.to_json(s)))) == s
    lost = replace(s, huts=s.huts[:5] + (s.huts[5][:-1],))
    with pytest.raises(ValueError, match="V20"):
        RULES.from_json(RULES.to_json(lost))
    wrong = replace(s, seats=(replace(s.seats[0], huts_taken=0), *s.seats[1:]))
    with pytest.raises(ValueError, match="V25"):
        RULES.from_json(RULES.to_json(wrong))


def test_V30_no_hut_during_the_end_of_game_distribution():
    """V30 / module interactions: nothing of the modules is used during the end distribution (A51): the
    recipients only place their leftover tiles; taking a hut is refused."""
    hands = {0: (card("denar", 8),), 1: (card("dirham", 9), card("dirham", 5))}
    s = arrange(
        huts_game(),
        market=MARKET,
        bag=(),
        current=0,
        hands=hands,
        display=(card("denar", 1), card("dirham", 1), card("ducat", 1), card("florin", 1)),
    )
    s = act(s, BuyTile("pavilion-8-open", (card("denar", 8),)))
    s = act(s, TakeHut(top(s, "garden")))  # the follow-up action (V23)
    s = act(s, ReserveTile("pavilion-8-open"))
    s = act(s, ReserveTile(s.seats[0].pending[0]))
    assert s.phase == "final" and s.players[1] in RULES.to_move(s)
    assert not any(isinstance(a, TakeHut) for a in RULES.legal_actions(s, s.players[1]))
    with pytest.raises(IllegalAction, match="A51"):
        act(s, TakeHut(top(s, "tower")), s.players[1])
