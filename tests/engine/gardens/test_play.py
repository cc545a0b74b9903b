"""Set-up, colours, turns, placement legality, hidden information, end of game and both variants (G16–G25,
G34–G37), through the public contract."""

import dataclasses
import json
import random
from collections import Counter

import pytest

from engine import IllegalAction, get_rules
from engine.gardens import (
    BUILDING_NAMES,
    HIDDEN,
    TILE_IDS,
    ChooseColours,
    PlaceTile,
    building_scores,
    open_spaces,
    rotation_facing,
)
from engine.gardens.components import BUILDING_VALUES
from engine.gardens.geometry import GARDEN_NAMES, INNER_GARDENS
from tests.engine.gardens._position import RULES, G, O, P, Y, lay_out, started, tile_with
from tests.engine.playout import players_for


def play_until(state, done, seed=0):
    """Random legal moves until done(state)."""
    rnd = random.Random(seed)
    while not done(state):
        mover = RULES.to_move(state)[0]
        state = RULES.apply(state, mover, rnd.choice(RULES.legal_actions(state, mover)))
    return state


def rejected(state, player, action, *words):
    with pytest.raises(IllegalAction) as err:
        RULES.apply(state, player, action)
    for w in words:
        assert w in str(err.value), str(err.value)
    return str(err.value)


# ------------------------------------------------------------------------------------------ set-up


def test_contract_basics():
    """name, title, player counts 2–4, the two variant options."""
    assert get_rules("gardens") is RULES
    assert RULES.name == "gardens" and RULES.title == "The Gardens of the Alhambra"
    assert RULES.player_counts == range(2, 5)
    assert set(RULES.options) == {"three_tile_hand", "two_colours"}


def test_G16_building_values_are_shuffled_with_the_seed():
    """G16: all 49 foundation tiles are laid out, value side up, in a seeded random order."""
    a = RULES.new_game(players_for(3), {}, 5)
    assert Counter(a.buildings) == Counter(BUILDING_VALUES)
    assert a.buildings == RULES.new_game(players_for(3), {}, 5).buildings
    assert a.buildings != RULES.new_game(players_for(3), {}, 6).buildings


@pytest.mark.parametrize("n", [2, 3, 4])
def test_G18_each_player_draws_one_tile(n):
    """G18: every player holds 1 tile; the rest is the supply; no tile on the board."""
    s = RULES.new_game(players_for(n), {}, 3)
    assert [len(h) for h in s.hands] == [1] * n
    assert len(s.supply) == 36 - n
    assert sorted([t for h in s.hands for t in h] + list(s.supply)) == sorted(TILE_IDS)


def test_G36_three_tile_hand_deals_three_each():
    """G36: with the three-tile hand, 4 players hold 12 tiles and 24 stay in the supply."""
    s = RULES.new_game(players_for(4), {"three_tile_hand": True}, 3)
    assert [len(h) for h in s.hands] == [3, 3, 3, 3] and len(s.supply) == 24


def test_G17_colours_are_chosen_in_seat_order_and_unchosen_kinds_are_unowned():
    """G17: each player picks a kind in seat order; a taken kind is refused; in a 3-player game one kind stays
    unowned; the last 4th player gets the last kind without being asked."""
    s = RULES.new_game(players_for(3), {}, 1)
    p0, p1, p2 = s.players
    assert RULES.to_move(s) == [p0]
    assert {a.colours for a in RULES.legal_actions(s, p0)} == {(P,), (G,), (Y,), (O,)}
    s = RULES.apply(s, p0, ChooseColours((O,)))
    rejected(s, p1, ChooseColours((O,)), "taken", "G17")
    rejected(s, p1, ChooseColours(("blue",)), "not a tree kind")
    rejected(s, p1, ChooseColours((P, G)), "one tree kind")
    s = RULES.apply(s, p1, ChooseColours((P,)))
    s = RULES.apply(s, p2, ChooseColours((G,)))
    assert s.colours == ((O,), (P,), (G,)) and s.phase == "play"
    assert Y not in {k for ks in s.colours for k in ks}

    four = started(4, [(Y,), (G,), (P,), (O,)])
    assert four.colours == ((Y,), (G,), (P,), (O,))
    # the last choice's events: the third seat's colour, then the fourth's, given without a question and announced
    assert [(e.kind, e.player) for e in four.log] == [("colour", four.players[2]), ("colour", four.players[3])]


def test_G37_two_colours_first_seat_picks_a_pair_second_gets_the_rest():
    """G37: in the two-colours game the first player chooses a pair of kinds; the other two go to the second."""
    s = RULES.new_game(players_for(2), {"two_colours": True}, 1)
    assert len(RULES.legal_actions(s, s.players[0])) == 6
    rejected(s, s.players[0], ChooseColours((P,)), "two different")
    s = RULES.apply(s, s.players[0], ChooseColours((O, G)))
    assert s.colours == ((G, O), (P, Y)) and s.phase == "play"


def test_G37_two_colours_needs_two_players():
    with pytest.raises(ValueError, match="G37"):
        RULES.new_game(players_for(3), {"two_colours": True}, 1)


def test_G20_first_seat_starts_and_play_goes_in_seat_order():
    """G20: after the colours, seat 0 places first, then seat 1, seat 2..."""
    s = started(3)
    order = []
    for _ in range(4):
        mover = RULES.to_move(s)[0]
        order.append(mover)
        s = RULES.apply(s, mover, RULES.legal_actions(s, mover)[0])
    assert order == [s.players[0], s.players[1], s.players[2], s.players[0]]


# ------------------------------------------------------------------------------------------ placing


def test_G22_first_tile_only_in_the_inner_4x4():
    """G22: the first placement lists only the 16 inner spaces; an edge space is refused, citing G22."""
    s = started(4)
    mover = s.players[0]
    legal = RULES.legal_actions(s, mover)
    assert {a.space for a in legal} == {GARDEN_NAMES[g] for g in INNER_GARDENS}
    assert len(legal) == 16 * 4
    tile = s.hands[0][0]
    rejected(s, mover, PlaceTile(tile, "A1", 0), "inner 4×4", "G22")
    rejected(s, mover, PlaceTile(tile, "F3", 0), "G22")
    assert RULES.apply(s, mover, PlaceTile(tile, "B2", 0)).board[7] == (tile, 0)


def test_G23_G11_later_tiles_must_touch_a_placed_tile_by_a_side():
    """G23/G11: after C3, C2/D3/C4/B3 are open; the diagonal D4 and far A1 are not; edges are fine later on."""
    s = started(4)
    used = set()
    s = lay_out(s, {"C3": (tile_with(2, used), 0)}, tile_with(3, used))
    assert {GARDEN_NAMES[g] for g in open_spaces(s.board)} == {"C2", "D3", "C4", "B3"}
    tile = s.hands[0][0]
    rejected(s, s.players[0], PlaceTile(tile, "D4", 0), "does not touch", "G23")
    rejected(s, s.players[0], PlaceTile(tile, "A1", 0), "G23")
    s = lay_out(s, {"C3": s.board[14], "B3": (tile_with(4, used), 0)}, tile)
    assert RULES.apply(s, s.players[0], PlaceTile(tile, "A3", 2)).board[12] == (tile, 2)  # an edge space


def test_G21_occupied_space_and_tile_not_in_hand_are_refused():
    """G21: a tile goes on an empty space, from your own hand."""
    s = started(4)
    used = set(s.hands[0])
    s = lay_out(s, {"C3": (tile_with(2, used), 0)}, s.hands[0][0])
    rejected(s, s.players[0], PlaceTile(s.hands[0][0], "C3", 0), "already holds", "G21")
    other = s.hands[1][0]
    rejected(s, s.players[0], PlaceTile(other, "C4", 0), "don't hold", "G21")
    rejected(s, s.players[0], PlaceTile("T99", "C4", 0), "don't hold")
    rejected(s, s.players[0], PlaceTile(HIDDEN, "C4", 0), "don't hold")


def test_G12_G13_four_quarter_turns_only():
    """G12/G13: rotations 0–3 quarter turns are offered for each space; anything else is refused."""
    s = started(2)
    tile = s.hands[0][0]
    legal = RULES.legal_actions(s, s.players[0])
    assert {a.rotation for a in legal if a.space == "C3"} == {0, 1, 2, 3}
    for bad in (4, -1, 45):
        rejected(s, s.players[0], PlaceTile(tile, "C3", bad), "90", "G12")
    rejected(s, s.players[0], PlaceTile(tile, "Z9", 0), "not a garden space")
    rejected(s, s.players[0], PlaceTile(tile, "c3", 0), "like C3")


def test_wrong_player_and_wrong_phase_are_refused():
    """Only the player to move acts; nobody places before colours are chosen (G17) or chooses colours after."""
    s = RULES.new_game(players_for(2), {}, 1)
    rejected(s, s.players[1], ChooseColours((P,)), "not your turn")
    rejected(s, s.players[0], PlaceTile(s.hands[0][0], "C3", 0), "G17")
    s = started(2)
    rejected(s, s.players[0], ChooseColours((Y,)), "G17")
    assert RULES.legal_actions(s, s.players[1]) == []


def test_G21_place_then_draw_the_top_of_the_supply():
    """G21: after placing, the player draws the next supply tile (a private event only they see)."""
    s = started(3)
    top = s.supply[0]
    mover = s.players[0]
    after = RULES.apply(s, mover, RULES.legal_actions(s, mover)[0])
    assert after.hands[0] == (top,) and after.supply == s.supply[1:]
    draw = [e for e in after.log if e.kind == "draw"]
    assert draw[-1].private_to == mover and draw[-1].data == {"tile": top}
    assert not any(e.kind == "draw" for e in RULES.view(after, s.players[1]).log)


def test_G24_G25_supply_runs_out_then_play_continues_until_hands_are_empty():
    """G25 with G36: once the supply is empty, players keep placing without drawing until every hand is empty;
    a legal placement always exists meanwhile (G24); the board ends full."""
    s = started(3, three_tile_hand=True)
    s = play_until(s, lambda st: not st.supply)
    sizes = [len(h) for h in s.hands]
    assert sum(sizes) + sum(x is not None for x in s.board) == 36
    while not RULES.is_over(s):
        mover = RULES.to_move(s)[0]
        legal = RULES.legal_actions(s, mover)
        assert legal  # G24
        before = len(s.hands[s.turn])
        seat = s.turn
        s = RULES.apply(s, mover, legal[0])
        assert len(s.hands[seat]) == before - 1  # no draw
    assert all(x is not None for x in s.board) and all(not h for h in s.hands)


# ------------------------------------------------------------------------------------------ end


def test_G34_game_ends_when_the_last_tile_is_placed_and_all_buildings_scored():
    """G34: the last placement ends the game: nobody is to move, all 49 buildings were scored, a game_end event."""
    s = play_until(started(4), lambda st: sum(x is not None for x in st.board) == 35, seed=3)
    assert not RULES.is_over(s)
    mover = RULES.to_move(s)[0]
    s = RULES.apply(s, mover, RULES.legal_actions(s, mover)[0])
    assert RULES.is_over(s) and RULES.to_move(s) == []
    assert set(building_scores(s)) == set(BUILDING_NAMES)  # every building complete, hence scored
    last = [e.data["building"] for e in s.log if e.kind == "building"]  # the ones the last tile completed
    assert last and len(set(last)) == len(last)
    end = s.log[-1]
    assert end.kind == "game_end" and end.data["scores"] == RULES.scores(s)
    assert end.data["winners"] == RULES.winners(s)
    rejected(s, mover, PlaceTile("T01", "A1", 0), "over")


def test_G35_all_tied_players_win():
    """G35: the most points wins; every player tied for most wins; no tie-break."""
    s = play_until(started(3), RULES.is_over, seed=4)
    tied = dataclasses.replace(s, kind_scores=(40, 40, 12, 0))
    tied = RULES.from_json(json.loads(json.dumps(RULES.to_json(tied))))
    assert RULES.winners(tied) == [s.players[0], s.players[1]]
    alone = dataclasses.replace(s, kind_scores=(40, 41, 12, 0))
    assert RULES.winners(alone) == [s.players[1]]


def test_G37_two_colours_totals_add_both_kinds():
    """G37: a player's score is the sum of their two kinds' separate scores, added for the winner at the end."""
    s = play_until(started(2, [(P, Y), (G, O)], two_colours=True), RULES.is_over, seed=5)
    k = s.kind_scores
    assert RULES.scores(s) == {s.players[0]: k[0] + k[2], s.players[1]: k[1] + k[3]}


# ------------------------------------------------------------------------------------------ information


def test_G19_view_hides_other_hands_supply_order_and_seed():
    """G19: a player sees their own hand only; the supply order and the seed are gone; counts remain."""
    s = play_until(started(4, three_tile_hand=True), lambda st: sum(x is not None for x in st.board) == 5)
    me = s.players[s.turn]
    seen = RULES.view(s, me)
    assert seen.hands[s.turn] == s.hands[s.turn]
    assert all(set(h) == {HIDDEN} for i, h in enumerate(seen.hands) if i != s.turn)
    assert set(seen.supply) == {HIDDEN} and len(seen.supply) == len(s.supply)
    assert seen.seed == 0
    assert RULES.legal_actions(seen, me) == RULES.legal_actions(s, me)  # the mover can plan on their own view
    public = RULES.view(s, None)
    assert all(set(h) == {HIDDEN} for h in public.hands)
    assert all(e.private_to is None for e in public.log)


def test_G19_states_differing_only_in_hidden_tiles_look_the_same():
    """Leak test: another supply order, other hands and another seed give the same public view."""
    s = started(4)
    other = dataclasses.replace(s, supply=tuple(reversed(s.supply)), seed=s.seed + 1, hands=tuple(reversed(s.hands)))
    assert RULES.to_json(RULES.view(s, None)) == RULES.to_json(RULES.view(other, None))


def test_json_round_trip_and_validation():
    """States survive JSON; from_json refuses a state with a duplicated tile or a wrong building set."""
    s = play_until(started(3), lambda st: sum(x is not None for x in st.board) == 10)
    data = json.loads(json.dumps(RULES.to_json(s)))
    assert RULES.from_json(data) == s
    bad = dataclasses.replace(s, supply=s.supply[:-1] + (s.hands[0][0],))
    with pytest.raises(ValueError):
        RULES.from_json(RULES.to_json(bad))
    bad = dataclasses.replace(s, buildings=(5,) * 49)
    with pytest.raises(ValueError):
        RULES.from_json(RULES.to_json(bad))
    action = PlaceTile("T05", "C3", 2)
    assert RULES.action_from_json(RULES.action_to_json(action)) == action


# ------------------------------------------------------------------------------------------ words


def test_describe_says_tile_space_rotation_and_facing():
    """describe: the tile in words, the space, the turn in degrees, and which building each kind faces."""
    tile = next(t for t in TILE_IDS if t.startswith("T1"))
    rot = rotation_facing(tile, P, "NE")
    text = str(RULES.describe(PlaceTile(tile, "C3", rot)))
    assert text.startswith(f"places the 2-tree tile at C3 turned {rot * 90}°")
    assert "purple → d3" in text
    assert str(RULES.describe(ChooseColours((P, G)))) == "plays purple and green"
    s = lay_out(started(4), {}, tile, {"d3": 5})
    long = str(RULES.describe_move(s, PlaceTile(tile, "C3", rot)))
    assert "purple facing the tower (5) at d3" in long


def test_preview_lists_what_a_placement_would_score():
    """The move preview (UX): the buildings a placement would complete, with winner and points; state unchanged."""
    from tests.engine.gardens._position import around

    s, action = around("d4", [(6, O), (4, G), (2, P), (1, Y)], value=3)
    mover = s.players[0]
    before = RULES.to_json(s)
    pre = RULES.preview(RULES.view(s, mover), mover, action)
    assert [(d["building"], d["points"]) for d in pre] == [("d4", 12)]
    assert RULES.to_json(s) == before


def test_summary_mentions_the_rules_and_the_stand_ins():
    text = str(RULES.summary({}))
    for word in ("inner 4×4", "cancel", "three_tile_hand", "two_colours", "[D]"):
        assert word in text
