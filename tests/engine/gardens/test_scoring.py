"""Building completion and scoring (G26–G33): the spec's worked cases GT1–GT17, each built as a real position and
completed by a real `apply`, then checked for who scores, how many kinds count and how many points."""

import pytest

from engine.gardens import KINDS, PlaceTile, rotation_facing
from tests.engine.gardens._position import (
    RULES,
    G,
    O,
    P,
    Y,
    around,
    lay_out,
    scoring_of,
    seat_of,
    started,
    tile_with,
)

# (case, building, tiles "trees→kind" facing it, players, colours, options, counts P/G/Y/O, winner kind, kinds, value)
CASES = [
    ("GT1 G29 clear leader", "d4", [(4, G), (2, P), (3, Y), (5, O)], 4, None, {}, (2, 4, 3, 5), O, 4, 4),
    ("GT2 G29", "d4", [(2, O), (3, O), (1, P), (5, P)], 4, None, {}, (6, 0, 0, 5), P, 2, 5),
    ("GT3 G29 top tie passes to the next", "d4", [(5, P), (5, O), (3, G), (2, Y)], 4, None, {}, (5, 3, 2, 5), G, 4, 2),
    ("GT4 G29 three-way tie, 0 wins", "d4", [(1, G), (3, G), (4, P), (4, O)], 4, None, {}, (4, 4, 0, 4), Y, 3, 1),
    ("GT5 G29 all four tie", "d4", [(3, P), (3, G), (3, Y), (3, O)], 4, None, {}, (3, 3, 3, 3), None, 4, 5),
    ("GT6 G29 two pairs tie", "d4", [(5, O), (5, G), (3, P), (3, Y)], 4, None, {}, (3, 5, 3, 5), None, 4, 5),
    (
        "GT7 G29 two pairs tie incl. zeros",
        "d4",
        [(2, O), (4, O), (1, G), (5, G)],
        4,
        None,
        {},
        (0, 6, 0, 6),
        None,
        2,
        5,
    ),
    ("GT8 G30 four kinds", "d4", [(6, O), (4, G), (2, P), (1, Y)], 4, None, {}, (2, 4, 1, 6), O, 4, 3),
    ("GT9 G30 three kinds, top tie", "d4", [(5, O), (2, P), (3, P), (4, G)], 4, None, {}, (5, 4, 0, 5), G, 3, 3),
    ("GT10 G33 edge building", "a4", [(3, P), (5, Y)], 4, None, {}, (3, 0, 5, 0), Y, 2, 5),
    ("GT11 edge, equal values, 4p", "a4", [(3, P), (3, Y)], 4, None, {}, (3, 0, 3, 0), None, 2, 5),
    ("GT12 edge, equal values, 3p", "a4", [(3, P), (3, Y)], 3, None, {}, (3, 0, 3, 0), G, 2, 4),
    ("GT13 G33 corner building", "a1", [(6, G)], 4, None, {}, (0, 6, 0, 0), G, 1, 4),
    ("GT14 G31 2p, unowned kinds", "d4", [(1, P), (2, G), (6, Y), (3, O)], 2, [(P,), (O,)], {}, (1, 2, 6, 3), O, 2, 5),
    ("GT15 G31 2p, only unowned kinds", "a4", [(4, G), (5, Y)], 2, [(P,), (O,)], {}, (0, 4, 5, 0), None, 0, 5),
    ("GT16 G31 3p, unowned largest", "d4", [(6, O), (2, P), (1, G), (3, Y)], 3, None, {}, (2, 1, 3, 6), Y, 3, 2),
    (
        "GT17 G37 two colours, self-knockout",
        "d4",
        [(4, P), (4, G), (2, Y), (1, O)],
        2,
        [(P, G), (Y, O)],
        {"two_colours": True},
        (4, 4, 2, 1),
        Y,
        4,
        2,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0].split()[0] for c in CASES])
def test_GT_cases_G26_G28_G29_G30_G31(case):
    """GT1–GT17: completing the building scores it at once (G26); trees are summed per kind (G28); the unique
    highest count among players' kinds wins (G29); points are owned kinds × value (G30, G31)."""
    _, building, tiles, n, colours, options, counts, winner_kind, kinds, value = case
    state, action = around(building, tiles, value=value, n=n, colours=colours, **options)
    before = RULES.scores(state)
    mover = RULES.to_move(state)[0]
    assert action in RULES.legal_actions(state, mover)
    after = RULES.apply(state, mover, action)
    data = scoring_of(after, building)
    assert tuple(data["trees"][k] for k in KINDS) == counts
    assert data["kinds"] == kinds
    assert data["value"] == value
    # Points from this building alone (a1 is completed together with the edge building b1, G27).
    others = [e.data for e in after.log if e.kind == "building" and e.data["building"] != building]
    gained = {
        p: RULES.scores(after)[p] - before[p] - sum(d["points"] for d in others if d["winner"] == p)
        for p in state.players
    }
    if winner_kind is None:
        assert data["winner"] is None and data["points"] == 0
        assert set(gained.values()) == {0}
    else:
        who = seat_of(after, winner_kind)
        assert data["winner"] == who and data["colour"] == winner_kind
        assert data["points"] == kinds * value
        assert gained[who] == kinds * value
        assert all(v == 0 for p, v in gained.items() if p != who)
        if not others:
            idx = KINDS.index(winner_kind)
            assert after.kind_scores[idx] - state.kind_scores[idx] == kinds * value


def test_GT8_rulebook_points_example_is_12():
    """G30 (rulebook points example 1): 6 orange, 4 green, 2 purple, 1 yellow at a 3-building: orange scores 12."""
    state, action = around("d4", [(6, O), (4, G), (2, P), (1, Y)], value=3)
    after = RULES.apply(state, RULES.to_move(state)[0], action)
    assert RULES.scores(after)[seat_of(after, O)] == 12


def test_GT17_two_colours_score_goes_to_the_yellow_account():
    """G37: each kind keeps its own score; B's yellow scores 8, B's total is the sum of yellow and orange."""
    state, action = around(
        "d4", [(4, P), (4, G), (2, Y), (1, O)], value=2, n=2, colours=[(P, G), (Y, O)], two_colours=True
    )
    after = RULES.apply(state, RULES.to_move(state)[0], action)
    assert after.kind_scores == (0, 0, 8, 0)
    assert RULES.scores(after) == {state.players[0]: 0, state.players[1]: 8}


def test_G27_one_tile_completes_four_buildings_scored_NW_NE_SE_SW():
    """G27: the last tile of a 3×3 block completes its four buildings; all are scored, in the order NW, NE, SE, SW."""
    state = started(4)
    used: set[str] = set()
    placed = {
        s: (tile_with(1 + i % 6, used), 0) for i, s in enumerate(["C3", "D3", "E3", "C4", "E4", "C5", "D5", "E5"])
    }
    last = tile_with(6, used)
    state = lay_out(state, placed, last)
    after = RULES.apply(state, state.players[0], PlaceTile(last, "D4", 0))
    scored = [e.data["building"] for e in after.log if e.kind == "building"]
    assert scored == ["d4", "e4", "e5", "d5"]
    awarded = sum(e.data["points"] for e in after.log if e.kind == "building")
    assert sum(RULES.scores(after).values()) == awarded > 0


def test_G26_building_not_scored_until_every_neighbour_is_filled():
    """G26: with three of its four gardens filled, an interior building is not scored."""
    state, action = around("d4", [(4, G), (2, P), (3, Y), (5, O)])
    # Place the hand tile elsewhere (B3, next to C3): d4 stays incomplete.
    other = PlaceTile(action.tile, "B3", 0)
    after = RULES.apply(state, state.players[0], other)
    assert not any(e.kind == "building" and e.data["building"] == "d4" for e in after.log)


def test_G32_a_scored_building_is_never_scored_again():
    """G32: after d4 is scored (even with nobody winning), later tiles next to it do not score it again."""
    state, action = around("d4", [(3, P), (3, G), (3, Y), (3, O)])
    state = RULES.apply(state, state.players[0], action)
    assert scoring_of(state, "d4")["winner"] is None
    assert [e.data["building"] for e in state.log if e.kind == "building"] == ["d4"]
    for space in ("E4", "E3", "C5", "D5"):
        mover = RULES.to_move(state)[0]
        tile = state.hands[state.turn][0]
        state = RULES.apply(state, mover, PlaceTile(tile, space, 0))
        assert not any(e.kind == "building" and e.data["building"] == "d4" for e in state.log)
    assert scoring_of(state, "d4")["winner"] is None  # the results still show it, as scored then


def test_G33_corner_building_is_worth_exactly_its_value_and_edge_at_most_double():
    """G33: a corner building has one garden, so one kind: 1× its value; an edge building at most 2×."""
    state, action = around("a1", [(6, G)], value=5)
    after = RULES.apply(state, state.players[0], action)
    assert scoring_of(after, "a1")["points"] == 5
    state, action = around("a4", [(1, P), (2, G)], value=5)
    after = RULES.apply(state, state.players[0], action)
    assert scoring_of(after, "a4")["points"] == 10


def test_G28_trees_of_one_kind_add_up_over_tiles():
    """G28: two tiles both showing purple toward the building add up (2 + 5 = 7), however many tiles supply them."""
    state, action = around("d4", [(2, P), (5, P), (6, G), (1, Y)])
    after = RULES.apply(state, state.players[0], action)
    data = scoring_of(after, "d4")
    assert data["trees"] == {P: 7, G: 6, Y: 1, O: 0}
    assert data["winner"] == seat_of(after, P)


def test_G14_every_long_side_faces_a_building_so_edge_trees_count_normally():
    """G14: an edge tile's long sides all face building spaces (its short sides face off the board and carry no
    trees), so the edge garden A4's trees count at the edge building a4 and the corner garden's at a1."""
    state, action = around("a4", [(3, P), (5, Y)], value=1)
    after = RULES.apply(state, state.players[0], action)
    assert scoring_of(after, "a4")["trees"][Y] == 5


def test_building_event_says_why():
    """Events: the building log line names the building, the tree counts and the arithmetic (for the bot)."""
    state, action = around("d4", [(6, O), (4, G), (2, P), (1, Y)], value=3)
    after = RULES.apply(state, state.players[0], action)
    event = next(e for e in after.log if e.kind == "building")
    assert event.player == seat_of(after, O)
    text = str(event.text)
    assert "d4" in text and "orange 6" in text and "4 kinds × 3" in text
    tie, action = around("d4", [(3, P), (3, G), (3, Y), (3, O)])
    after = RULES.apply(tie, tie.players[0], action)
    event = next(e for e in after.log if e.kind == "building")
    assert event.player is None and str(event.text).startswith("Nobody scores")


def test_rotation_facing_helper_points_the_right_kind():
    """G15 helper: rotation_facing(tile, kind, direction) turns `kind` toward `direction`."""
    for tile in ("T01", "T17", "T36"):
        for d in range(4):
            for k in KINDS:
                from engine.gardens import facing_kinds

                assert facing_kinds(tile, rotation_facing(tile, k, d))[d] == k
