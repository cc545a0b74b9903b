"""The four actions (Q18–Q30): acquiring and the display, paying and placing tiles and expansions, passing,
surrounding garden elements. Test ids QTn are the spec's table of examples."""

from __future__ import annotations

import dataclasses

import pytest

from engine import IllegalAction
from engine.queens_garden import RULES, geometry
from engine.queens_garden.actions import Acquire, BuyExpansion, Pass, PlaceExpansion, PlaceTile
from engine.queens_garden.components import JOKER_REWARD, TILE_KIND
from engine.queens_garden.geometry import AREA_CELLS, AREAS, FOUNTAIN_ELEMENTS
from engine.queens_garden.state import Piece, Placed
from tests.engine.queens_garden.scenario import act, exp, game, kind, legal, plants, seat, tile, tiles, why

B = 1  # light blue
Y = 0  # yellow

# ------------------------------------------------------------------------------------------------ Q25 payment


def test_QT1_Q25_a_tree_costs_nothing_else():
    """QT1 (Q25): a yellow tree is planted for free; offering a joker as well is refused."""
    s = game(2, seat(tiles_=tiles("Y1"), jokers=1))
    assert why(s, PlaceTile(tile("Y1"), "M1", jokers=1)) is not None
    s2 = act(s, PlaceTile(tile("Y1"), "M1"))
    me = s2.seats[0]
    assert me.garden == {"M1": tile("Y1")} and me.tiles == () and me.jokers == 1 and s2.tower == s.tower


def test_QT2_Q25_blue_butterfly_paid_with_blue_tree_and_blue_bird():
    """QT2 (Q25): same colour, different patterns: legal, both payment tiles go to the tower."""
    s = game(2, seat(tiles_=tiles("B3", "B1", "B2")))
    s2 = act(s, PlaceTile(tile("B3"), "M1", pay_tiles=tiles("B1", "B2")))
    assert s2.seats[0].tiles == () and set(tiles("B1", "B2")) <= set(s2.tower)


def test_QT3_Q25_mixed_colour_and_pattern_payment_is_illegal():
    """QT3 (Q25): blue tree + green butterfly for a blue butterfly mixes colour and pattern."""
    s = game(2, seat(tiles_=tiles("B3", "B1", "G3")))
    msg = why(s, PlaceTile(tile("B3"), "M1", pay_tiles=tiles("B1", "G3")))
    assert msg and "Q25" in msg and "mix" in msg


def test_QT4_Q25_duplicate_hexagons_in_a_payment_are_illegal():
    """QT4 (Q25): two blue trees for a blue butterfly are two identical hexagons."""
    s = game(2, seat(tiles_=tiles("B3", "B1", "B1")))
    assert "identical" in why(s, PlaceTile(tile("B3"), "M1", pay_tiles=tiles("B1", "B1")))


def test_QT5_Q25_a_joker_stands_in():
    """QT5 (Q25): blue tree + 1 joker pays for a blue butterfly; the joker goes back to the supply."""
    s = game(2, seat(tiles_=tiles("B3", "B1"), jokers=1))
    s2 = act(s, PlaceTile(tile("B3"), "M1", pay_tiles=tiles("B1"), jokers=1))
    assert s2.seats[0].jokers == 0 and s2.seats[0].tiles == ()


def test_Q25_same_pattern_in_other_colours_and_expansions_as_payment():
    """Q25: butterflies of other colours pay too; a storage expansion counts as its printed hexagon and goes
    face down to the bottom of the supply; the wrong number of hexagons is refused with the price."""
    s = game(2, seat(tiles_=tiles("B3", "Y3"), exps=(exp("G3"),)))
    assert "costs 3" in why(s, PlaceTile(tile("B3"), "M1", pay_tiles=tiles("Y3")))
    assert "only 0 jokers" in why(s, PlaceTile(tile("B3"), "M1", pay_tiles=tiles("Y3"), jokers=1))
    s2 = act(s, PlaceTile(tile("B3"), "M1", pay_tiles=tiles("Y3"), pay_expansions=(exp("G3"),)))
    assert s2.supply[-1] == exp("G3") and s2.seats[0].expansions == ()


def test_Q25_equivalent_payments_are_collapsed_in_legal_actions():
    """Q25: copies of one kind give one payment; options are the distinct multisets, fewest jokers first."""
    s = game(2, seat(tiles_=tiles("B3", "B1", "B1", "B2"), jokers=2))
    pays = [(a.pay_tiles, a.jokers) for a in legal(s, PlaceTile) if a.tile == tile("B3") and a.space == "M1"]
    b1, b2 = tile("B1"), tile("B2")
    assert pays == [((b1, b2), 0), ((b1,), 1), ((b2,), 1), ((), 2)]
    for a in legal(s, PlaceTile):  # every listed payment really is legal
        assert why(s, a) is None


def test_Q27_jokers_are_never_planted():
    """Q27: a storage of only jokers offers no tile to plant; a tile not in storage is refused."""
    s = game(2, seat(jokers=5))
    assert legal(s, PlaceTile) == []
    assert "jokers never" in why(s, PlaceTile(tile("Y1"), "M1"))


# ------------------------------------------------------------------------------------------------ Q26 placement


def test_QT6_Q26a_yellow_bird_next_only_to_blue_tree_is_illegal():
    """QT6 (Q26a)."""
    s = game(2, seat(tiles_=tiles("Y2"), jokers=1, plants=plants(M1="B1")))
    assert "Q26a" in why(s, PlaceTile(tile("Y2"), "M2", jokers=1))


def test_QT7_Q26a_one_matching_neighbour_is_enough():
    """QT7 (Q26a, adjacency 'any'): next to a yellow tree and a blue tree is legal."""
    s = game(2, seat(tiles_=tiles("Y2"), jokers=1, plants=plants(M1="Y1", M3="B1")))
    assert why(s, PlaceTile(tile("Y2"), "M2", jokers=1)) is None


def test_Q26a_adjacency_mode_all_is_switchable(monkeypatch):
    """Q26a: with the withdrawn 'all' reading from data, QT7's placement would be refused."""
    from engine.queens_garden import components

    monkeypatch.setattr(components, "ADJACENCY", "all")
    s = game(2, seat(tiles_=tiles("Y2"), jokers=1, plants=plants(M1="Y1", M3="B1")))
    assert "every neighbour" in why(s, PlaceTile(tile("Y2"), "M2", jokers=1))


def test_QT8_Q26b_no_second_yellow_bird_in_a_yellow_group():
    """QT8 (Q26b): a yellow bird joining a yellow group that already holds a yellow bird."""
    s = game(2, seat(tiles_=tiles("Y2"), jokers=1, plants=plants(M1="Y2", M2="Y1")))
    assert "identical" in why(s, PlaceTile(tile("Y2"), "M3", jokers=1))
    assert why(s, PlaceTile(tile("Y2"), "M5", jokers=1)) is None  # apart from the group it is fine


def test_Q26b_identical_hexagons_never_touch_and_pattern_groups_count_too():
    """Q26b: identical hexagons may not be adjacent; a pattern group may not get two of one colour either."""
    s = game(2, seat(tiles_=tiles("Y2", "B2"), jokers=2, plants=plants(M1="Y2", M4="B2", M5="G2")))
    assert "identical" in why(s, PlaceTile(tile("Y2"), "M2", jokers=1))
    assert "pattern group" in why(s, PlaceTile(tile("B2"), "M6", jokers=1))  # joins G2-B2 via M5


def test_QT9_Q26a_a_tile_with_no_neighbours_is_legal():
    """QT9 (Q26a)."""
    s = game(2, seat(tiles_=tiles("P4"), jokers=3, plants=plants(M1="Y1")))
    assert why(s, PlaceTile(tile("P4"), "M4", jokers=3)) is None


def test_QT23_Q26b_joining_two_groups_with_the_same_hexagon_is_illegal():
    """QT23 (Q26b): a yellow tree between yellow bird A and yellow bird B would join two yellow birds."""
    s = game(2, seat(tiles_=tiles("Y1"), plants=plants(M1="Y2", M3="Y2")))
    assert "identical" in why(s, PlaceTile(tile("Y1"), "M2"))
    assert all(a.space != "M2" for a in legal(s, PlaceTile))


def test_Q26_Q39_only_free_spaces():
    """Q26, Q39: not on a hexagon, not on a garden element, not in an area without an expansion."""
    s = game(2, seat(tiles_=tiles("Y1"), plants=plants(M1="Y2")))
    assert "already holds" in why(s, PlaceTile(tile("Y1"), "M1"))
    assert "fountain" in why(s, PlaceTile(tile("Y1"), "M0"))
    assert FOUNTAIN_ELEMENTS["M8"] in why(s, PlaceTile(tile("Y1"), "M8"))
    assert "no expansion yet" in why(s, PlaceTile(tile("Y1"), "SE2"))
    assert "no space" in why(s, PlaceTile(tile("Y1"), "Z9"))


# ------------------------------------------------------------------------------------------------ Q28 expansions


def test_Q28_place_storage_expansion_paid_and_turned():
    """Q28 (i): a yellow bird expansion paid with a yellow tree; its hexagon obeys Q26 (SE6 touches M3's blue
    tree, so turn 5 is refused, turn 0 puts it on SE1 with no neighbour); the centre becomes a pavilion."""
    s = game(2, seat(tiles_=tiles("Y1"), exps=(exp("Y2"),), plants=plants(M3="B1")))
    assert "Q26a" in why(s, PlaceExpansion(exp("Y2"), "SE", 5, pay_tiles=tiles("Y1")))
    assert "costs 2" in why(s, PlaceExpansion(exp("Y2"), "SE", 0))
    s2 = act(s, PlaceExpansion(exp("Y2"), "SE", 0, pay_tiles=tiles("Y1")))
    me = s2.seats[0]
    assert me.placed == (Placed(exp("Y2"), "SE", 0, True),) and me.expansions == ()
    assert geometry.hexagons(me)["SE1"] == kind("Y2")
    assert geometry.elements(me)["SE0"] == "pavilion"
    assert set(geometry.free_spaces(me)) == {"M1", "M2", "M4", "M5", "M6", "SE2", "SE3", "SE4", "SE5", "SE6"}
    assert "already holds an expansion" in why(dataclasses.replace(s2, current=0), BuyExpansion("SE"))


def test_Q28_every_turn_is_offered_for_a_face_up_expansion():
    """Q28: any orientation on any free area (6 areas × 6 turns on an empty garden)."""
    s = game(2, seat(exps=(exp("Y1"),)))
    spots = {(a.area, a.turn) for a in legal(s, PlaceExpansion)}
    assert spots == {(a, t) for a in AREAS for t in range(6)}


def test_QT19_Q28_blank_expansion_costs_exactly_six_points():
    """QT19 (Q28 ii, Q37): with 5 points it is refused; with 6 the score drops to 0 and 7 free spaces appear."""
    s = game(2, seat(score=5))
    assert "exactly 6" in why(s, BuyExpansion("N"))
    assert legal(s, BuyExpansion) == []
    s = game(2, seat(score=6))
    top = s.supply[0]
    s2 = act(s, BuyExpansion("N"))
    me = s2.seats[0]
    assert me.score == 0 and me.placed == (Placed(top, "N", 0, False),) and s2.supply == s.supply[1:]
    assert set(geometry.free_spaces(me)) == set(AREA_CELLS["N"]) | {f"M{i}" for i in range(1, 7)}
    assert "pavilion" not in geometry.elements(me).values()


def test_Q7_Q28_at_most_six_expansions():
    """Q7: with all six areas used there is nowhere to put another expansion."""
    full = tuple(Placed(e, a, 0, False) for e, a in zip(range(6), AREAS, strict=True))
    s = game(2, seat(score=30, exps=(exp("Y1"),), placed=full))
    assert legal(s, BuyExpansion) == [] and legal(s, PlaceExpansion) == []


# ------------------------------------------------------------------------------------------------ Q19–Q24 acquire


def _display(s, stack_tiles, display=(), stack=None, bag=None, tower=None):
    changes = {"stack_tiles": tuple(stack_tiles), "display": tuple(display)}
    if stack is not None:
        changes["stack"] = tuple(stack)
    if bag is not None:
        changes["bag"] = tuple(bag)
    if tower is not None:
        changes["tower"] = tuple(tower)
    return dataclasses.replace(s, **changes)


def test_Q19_take_every_hexagon_of_the_colour_including_face_up_expansions():
    """Q19: choosing yellow takes every yellow tile and face-up yellow expansion; leaving one out is refused."""
    s = _display(game(2), tiles("Y1", "B2", "Y3", "G4"), [Piece(exp("Y5"), (), True)])
    acts = [a for a in legal(s, Acquire) if a.by == "colour" and a.value == Y]
    assert acts == [Acquire("colour", Y, tiles("Y1", "Y3"), (exp("Y5"),))]
    assert "left out" in why(s, Acquire("colour", Y, tiles("Y1", "Y3"), ()))
    assert "is not yellow" in why(s, Acquire("colour", Y, tiles("Y1", "Y3", "B2"), (exp("Y5"),)))
    assert "no light purple" in why(s, Acquire("colour", 4, (), ()))
    s2 = act(s, acts[0])
    assert s2.seats[0].tiles == tiles("Y1", "Y3") and s2.seats[0].expansions == (exp("Y5"),)


def test_QT15_Q20_one_of_two_identical_tiles_of_the_players_choice():
    """QT15 (Q20): two yellow birds showing: take exactly one (either copy) plus the other yellows."""
    y2a, y2b = tile("Y2", 0), tile("Y2", 1)
    piece = Piece(exp("P6"), (y2b, tile("B1")))
    s = _display(game(2), (y2a, tile("Y4"), tile("G1"), tile("G2")), [piece])
    acts = [a for a in legal(s, Acquire) if a.by == "colour" and a.value == Y]
    assert sorted(a.tiles for a in acts) == sorted([tuple(sorted((y2a, tile("Y4")))), tuple(sorted((y2b, tile("Y4"))))])
    assert "exactly one" in why(s, Acquire("colour", Y, tuple(sorted((y2a, y2b, tile("Y4")))), ()))
    texts = sorted(str(RULES.describe_in(s, a)) for a in acts)
    assert texts == [
        "takes all yellow from the display: Y2 from display piece 1, Y4",
        "takes all yellow from the display: Y2 from the stack, Y4",
    ]
    assert RULES.describe_in(RULES.view(s, None), acts[0]) == RULES.describe_in(s, acts[0])


def test_QT22_Q20_a_face_up_expansion_and_an_identical_tile_are_duplicates():
    """QT22 (Q20): a blue-bird expansion and a blue-bird tile: take one of the two."""
    s = _display(game(2), tiles("B2", "Y1", "Y3", "Y4"), [Piece(exp("B2"), (), True)])
    acts = sorted((a.tiles, a.expansions) for a in legal(s, Acquire) if a.by == "colour" and a.value == B)
    assert acts == [((), (exp("B2"),)), (tiles("B2"), ())]
    assert "exactly one" in why(s, Acquire("colour", B, tiles("B2"), (exp("B2"),)))


def test_QT14_Q21_a_selection_that_does_not_fit_storage_is_not_allowed():
    """QT14 (Q21, Q8): 10 in storage (7 tiles + 3 jokers) cannot take 4 tiles; a 2-tile selection fits."""
    s = _display(
        game(2, seat(tiles_=tiles("P1", "P2", "P3", "P4", "P5", "P6", "L1"), jokers=3)),
        tiles("Y1", "Y2", "Y3", "Y4"),
        [Piece(exp("G6"), tiles("G1", "G2"))],
    )
    assert "room for 2" in why(s, Acquire("colour", Y, tiles("Y1", "Y2", "Y3", "Y4"), ()))
    assert not [a for a in legal(s, Acquire) if a.by == "colour" and a.value == Y]
    assert why(s, Acquire("colour", 2, tiles("G1", "G2"), ())) is None


def test_Q21_expansion_storage_holds_two():
    """Q21, Q8: with 2 expansions stored, a selection with another expansion is not allowed."""
    s = _display(
        game(2, seat(exps=(exp("P1"), exp("P2")))), tiles("G1", "G2", "G3", "G4"), [Piece(exp("Y5"), (), True)]
    )
    assert "expansion" in why(s, Acquire("colour", Y, (), (exp("Y5"),)))


def test_QT20_Q22_taking_only_from_a_display_expansion_does_not_grow_the_display():
    """QT20 (Q22): tiles only from an expansion beside the stack: the stack stays, no new tiles come out."""
    s = _display(game(2), tiles("G1", "G2", "G3", "G4"), [Piece(exp("P6"), tiles("Y1", "B1"))])
    s2 = act(s, Acquire("colour", Y, tiles("Y1"), ()))
    assert s2.stack == s.stack and s2.stack_tiles == s.stack_tiles and s2.bag == s.bag
    assert s2.display == (Piece(exp("P6"), tiles("B1")),)  # Q23: still holds a tile, stays face down


def test_QT21_Q22_Q23_taking_the_last_tiles_from_the_top_moves_it_out_face_up_and_refills():
    """QT21 (Q22, Q23): the emptied top expansion moves beside the stack face up; the new top gets 4 tiles."""
    s = _display(game(2), tiles("Y1", "Y2"))
    top, nxt = s.stack[0], s.stack[1]
    s2 = act(s, Acquire("colour", Y, tiles("Y1", "Y2"), ()))
    assert s2.display == (Piece(top, (), True),)
    assert s2.stack[0] == nxt and len(s2.stack) == len(s.stack) - 1
    assert s2.stack_tiles == s.bag[:4] and s2.bag == s.bag[4:]


def test_Q22_leftover_tiles_travel_with_the_top_expansion():
    """Q22: taking one tile from the top moves it out with the others still on it (face down)."""
    s = _display(game(2), tiles("Y1", "B2", "G3"))
    top = s.stack[0]
    s2 = act(s, Acquire("colour", Y, tiles("Y1"), ()))
    assert s2.display == (Piece(top, tiles("B2", "G3"), False),)
    assert len(s2.stack_tiles) == 4


def test_Q24_bag_shortage_refills_from_the_tower_then_runs_short():
    """Q24: a short bag is refilled from the tower; with no tiles at all the stack's expansions turn face up."""
    base = game(2)
    s = _display(base, tiles("Y1"), bag=tiles("B1", "B2"), tower=tiles("G1", "G2", "G3"))
    s2 = act(s, Acquire("colour", Y, tiles("Y1"), ()))
    assert len(s2.stack_tiles) == 4 and len(s2.bag) == 1 and s2.tower == ()
    s = _display(base, tiles("Y1"), bag=tiles("B1"), tower=())
    s2 = act(s, Acquire("colour", Y, tiles("Y1"), ()))
    assert s2.stack_tiles == tiles("B1") and s2.bag == ()
    s = _display(base, tiles("Y1"), bag=(), tower=())
    s2 = act(s, Acquire("colour", Y, tiles("Y1"), ()))
    assert s2.stack == () and s2.stack_tiles == ()
    assert [p.expansion for p in s2.display] == list(s.stack) and all(p.face_up for p in s2.display)


# ------------------------------------------------------------------------------------------------ Q29 pass, Q18 turns


def test_QT17_QT18_Q29_first_passer_takes_the_marker_later_passers_only_pay_discards():
    """QT17 (Q29): first to pass with 10 takes the marker and has 9. QT18: the second, discarding a flower (4)
    with 10, has 6 and no marker; the flower goes to the tower."""
    s = game(3, seat(score=10), seat(score=10, tiles_=tiles("G4")))
    s = act(s, Pass())
    assert s.marker == 0 and s.seats[0].score == 9 and s.seats[0].passed
    assert s.log[-1].kind == "first_pass"
    s = act(s, Pass(tiles=tiles("G4")))
    assert s.marker == 0 and s.seats[1].score == 6 and s.seats[1].tiles == () and tile("G4") in s.tower


def test_Q29_Q37_pass_discards_and_penalty_clamp_at_zero():
    """Q29, Q37: discards and the −1 cannot take a score below 0; jokers are kept (not hexagons) [?]."""
    s = game(3, seat(score=3, tiles_=tiles("P6"), jokers=2))
    assert "keep them" in why(s, Pass(jokers=1))
    s = act(s, Pass(tiles=tiles("P6")))
    assert s.seats[0].score == 0 and s.seats[0].jokers == 2
    assert "only discard" in why(s, Pass(tiles=tiles("Y1")))


def test_Q18_turns_go_clockwise_and_skip_players_who_passed():
    """Q18: one action per turn, clockwise; passed players are skipped; pass is always available."""
    s = game(3)
    s = act(s, Pass())  # p0 passes
    assert s.current == 1
    s = act(s, legal(s, Acquire)[0])
    assert s.current == 2
    s = act(s, Pass())
    assert s.current == 1  # p0 and p2 passed: p1 again
    assert Pass() in legal(s)
    with pytest.raises(IllegalAction, match="not your turn"):
        RULES.apply(s, "p0", Pass())


# ------------------------------------------------------------------------------------------------ Q30 surrounding


def test_Q30_Q4_surrounding_the_fountain_gives_jokers_once():
    """Q30: filling the sixth space around the fountain pays its jokers (from an unlimited supply, Q4), once."""
    ring = plants(M1="Y1", M2="Y2", M3="Y3", M4="Y4", M5="Y5")
    s = game(2, seat(tiles_=tiles("Y6", "B1"), jokers=5, plants=ring))
    s2 = act(s, PlaceTile(tile("Y6"), "M6", jokers=5))
    me = s2.seats[0]
    assert me.jokers == JOKER_REWARD["fountain"] and me.rewarded == frozenset({"M0"})
    assert s2.log[-1].kind == "jokers" and s2.log[-1].data["element"] == "fountain"
    assert geometry.newly_surrounded(me, geometry.hexagons(me)) == []


def test_QT24_Q30_surplus_jokers_are_lost():
    """QT24 (Q30, Q8): surrounding the statue at M8 with storage at 11 after placing: 1 joker taken, 1 lost."""
    assert FOUNTAIN_ELEMENTS["M8"] == "statue" and JOKER_REWARD["statue"] == 2
    ring = plants(M2="Y2", M3="Y3", SE6="Y4", SE1="Y5", NE4="Y6")
    placed = (Placed(exp("P1"), "NE", 0, False), Placed(exp("P2"), "SE", 0, False))
    store = tiles("Y1", "L1", "L2", "L3", "L4", "L5", "L6", "G6", "B6")  # 9 tiles + 3 jokers = 12
    s = game(2, seat(tiles_=store, jokers=3, plants=ring, placed=placed))
    s2 = act(s, PlaceTile(tile("Y1"), "NE5"))
    me = s2.seats[0]
    assert me.jokers == 4 and len(me.tiles) + me.jokers == 12
    ev = s2.log[-1]
    assert ev.kind == "jokers" and ev.data == {"element": "statue", "space": "M8", "jokers": 1, "lost": 1}


def test_Q30_rim_elements_need_the_neighbouring_expansions():
    """Q30 [?]: a statue on the rim is not surrounded while an adjacent expansion area is empty."""
    ring = plants(M1="Y1", M2="Y2", M3="Y3", M4="Y4", M5="Y5", M6="Y6")
    me = seat(plants=ring, rewarded=frozenset({"M0"}))
    assert geometry.newly_surrounded(me, geometry.hexagons(me)) == []


def test_Q30_surrounding_a_pavilion():
    """Q30: the pavilion of a face-up expansion pays its jokers when its six ring spaces hold hexagons."""
    placed = (Placed(exp("Y1"), "S", 0, True),)  # its Y1 hexagon on S1
    ring = plants(S2="Y2", S3="Y3", S4="Y4", S5="Y5")
    s = game(2, seat(tiles_=tiles("Y6"), jokers=5, plants=ring, placed=placed))
    s2 = act(s, PlaceTile(tile("Y6"), "S6", jokers=5))
    assert s2.seats[0].jokers == JOKER_REWARD["pavilion"] and "S0" in s2.seats[0].rewarded


def test_tile_ids_match_kinds():
    """The scenario helpers pick tiles of the right kind (guards the tests themselves)."""
    assert TILE_KIND[tile("F6", 2)] == (3, 6) and len(set(tiles("Y1", "Y1", "Y1"))) == 3
