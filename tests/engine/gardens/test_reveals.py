"""The optional contract for The Gardens of the Alhambra: what an action reveals (for undo), and the defaults
of the features this game does not have (out-of-turn players, free and private actions, limits)."""

from __future__ import annotations

import dataclasses

from engine.gardens import ChooseColours
from tests.engine.gardens._position import RULES, started
from tests.engine.playout import players_for


def played(state, action):
    player = state.players[state.turn]
    after = RULES.apply(state, player, action)
    return RULES.reveals(state, player, action, after), after


def test_G17_choosing_colours_reveals_nothing():
    """G17: the choice is public and nothing hidden moves (no tile is drawn)."""
    state = RULES.new_game(players_for(2), {}, 1)
    shown, after = played(state, ChooseColours(("purple",)))
    assert not shown and after.hands == state.hands and after.supply == state.supply


def test_G19_G21_placing_shows_a_hidden_hand_tile_and_draws_from_the_supply():
    """G19: hands are hidden; G21: the placed tile is shown and a new one is drawn from the hidden supply."""
    state = started(2)
    shown, after = played(state, RULES.legal_actions(state, state.players[state.turn])[0])
    assert shown and len(after.supply) == len(state.supply) - 1


def test_G25_with_the_supply_empty_placing_still_shows_a_hidden_tile():
    """G25: no draw once the supply is empty, but the placed tile came out of a hidden hand (G19)."""
    state = started(2, three_tile_hand=True)
    keep = state.hands[state.turn]
    state = dataclasses.replace(
        state, hands=tuple(h if i == state.turn else h + state.supply for i, h in enumerate(state.hands)), supply=()
    )
    shown, after = played(state, RULES.legal_actions(state, state.players[state.turn])[0])
    assert shown and after.supply == () and len(after.hands[state.turn]) == len(keep) - 1


def test_no_out_of_turn_free_or_private_actions_and_no_limits():
    """G21: one player acts at a time, every action is a turn action and announced; nothing to limit."""
    state = started(3)
    assert RULES.out_of_turn(state) == [] and RULES.limits == {}
    for p in state.players:
        assert RULES.free_actions(state, p) == []
    for a in RULES.legal_actions(state, state.players[state.turn]):
        assert not RULES.is_free_action(a) and not RULES.is_private(a)
    assert not RULES.has_free_actions({"three_tile_hand": True, "two_colours": True})
