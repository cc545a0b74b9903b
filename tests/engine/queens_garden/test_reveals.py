"""The optional contract for Azul: Queen's Garden: what an action reveals (for undo; storages are public, Q8, so
only the bag's order and face-down expansions are hidden), and the defaults of the features this game does not
have (out-of-turn players, free and private actions, limits)."""

from __future__ import annotations

import dataclasses

from engine.queens_garden import RULES
from engine.queens_garden.actions import Acquire, BuyExpansion, Pass, PlaceExpansion, PlaceTile
from engine.queens_garden.components import ROUNDS
from engine.queens_garden.state import Piece
from tests.engine.queens_garden.scenario import exp, game, legal, seat, tile, tiles

Y = 0  # yellow


def played(s, action):
    player = s.players[s.current]
    after = RULES.apply(s, player, action)
    return RULES.reveals(s, player, action, after), after


def display(s, stack_tiles, pieces=(), **changes):
    return dataclasses.replace(s, stack_tiles=tuple(stack_tiles), display=tuple(pieces), **changes)


def test_Q22_taking_from_the_stacks_top_draws_four_tiles_from_the_bag():
    """Q22, Q16: the top expansion moves out (face down, its leftover tiles on it) and the new top gets 4 bag tiles."""
    s = display(game(2), tiles("Y1", "B2", "G3"))
    shown, after = played(s, Acquire("colour", Y, tiles("Y1"), ()))
    assert shown and after.display[0].face_up is False and len(after.bag) == len(s.bag) - 4


def test_Q24_a_short_bag_is_refilled_by_shuffling_the_tower():
    """Q24: the bag holds too few tiles: the tower is shuffled into it before the draw."""
    s = display(game(2), tiles("Y1"), bag=tiles("B1", "B2"), tower=tiles("G1", "G2", "G3"))
    shown, after = played(s, Acquire("colour", Y, tiles("Y1"), ()))
    assert shown and after.tower == () and after.rng_counter == s.rng_counter + 1


def test_Q23_taking_the_last_tiles_of_a_display_piece_turns_its_expansion_face_up():
    """Q23: a display expansion with no tiles left turns face up: which one it is was hidden."""
    s = display(game(2), tiles("G1", "G2", "G3", "G4"), [Piece(exp("P6"), tiles("Y1"))])
    shown, after = played(s, Acquire("colour", Y, tiles("Y1"), ()))
    assert shown and after.display == (Piece(exp("P6"), (), True),) and after.bag == s.bag


def test_Q19_Q20_taking_some_tiles_of_a_display_piece_or_a_face_up_expansion_reveals_nothing():
    """Q19, Q20: tiles from a display piece that keeps a tile (it stays face down, Q23), and a face-up
    expansion: everything taken was in sight, nothing is drawn."""
    s = display(
        game(2), tiles("G1", "G2", "G3", "G4"), [Piece(exp("P6"), tiles("Y1", "B1")), Piece(exp("Y5"), (), True)]
    )
    shown, after = played(s, Acquire("colour", Y, tiles("Y1"), (exp("Y5"),)))
    assert not shown and after.display == (Piece(exp("P6"), tiles("B1")),)


def test_Q25_Q28_placing_and_buying_a_blank_expansion_reveal_nothing():
    """Q25: a planted tile and its payment were in the public storage; Q28: a placed expansion too; Q28 ii: the
    bought expansion comes from the face-down supply and stays face down (blank side up)."""
    s = game(2, seat(tiles_=tiles("B3", "B1"), exps=(exp("Y1"),), jokers=1, score=10))
    shown, _ = played(s, PlaceTile(tile("B3"), "M1", pay_tiles=tiles("B1"), jokers=1))
    assert not shown
    shown, _ = played(s, next(a for a in legal(s, PlaceExpansion) if a.expansion == exp("Y1")))
    assert not shown
    shown, after = played(s, BuyExpansion("N"))
    assert (
        not shown and not after.seats[0].placed[0].face_up and RULES.view(after, None).seats[0].placed[0].expansion < 0
    )


def test_Q29_a_pass_that_does_not_end_the_round_reveals_nothing():
    """Q29: passing, even with discards to the tower, shows nothing hidden."""
    s = game(3, seat(score=10, tiles_=tiles("G4")))
    shown, _ = played(s, Pass(tiles=tiles("G4")))
    assert not shown


def test_Q34_the_last_pass_of_a_round_prepares_the_next_one_from_the_bag():
    """Q34: the round ends: the next round stack comes out and its top gets 4 tiles from the bag (Q16)."""
    s = game(2)
    s = RULES.apply(s, s.players[0], Pass())
    shown, after = played(s, Pass())
    assert shown and after.round == 2


def test_Q35_Q36_the_final_scoring_reveals_nothing():
    """Q35, Q36: the last pass of the game scores storages and gardens, all public; nothing is drawn."""
    s = game(2, round=ROUNDS, stacks=())
    s = RULES.apply(s, s.players[0], Pass())
    shown, after = played(s, Pass())
    assert not shown and RULES.is_over(after)


def test_no_out_of_turn_free_or_private_actions_and_no_limits():
    """Q18: one player acts at a time, every action is a turn action and announced; nothing to limit."""
    s = game(3)
    assert RULES.out_of_turn(s) == [] and RULES.limits == {} and not RULES.has_free_actions({})
    assert all(RULES.free_actions(s, p) == [] for p in s.players)
    assert not any(RULES.is_free_action(a) or RULES.is_private(a) for a in legal(s))
