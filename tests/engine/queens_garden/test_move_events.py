"""The public "move" event every applied action writes first in the log, which holds that action's events only
(the board image marks the last move from it, the bot skips it because it prints the action itself), and what
it must never reveal (Q28 ii: a face-down expansion from the supply)."""

from __future__ import annotations

import dataclasses
import random

from engine.queens_garden import RULES
from engine.queens_garden.actions import BuyExpansion, PlaceExpansion, PlaceTile
from tests.engine.queens_garden.scenario import act, exp, game, seat, tile, tiles


def test_Q25_planting_writes_one_move_event_first_with_the_space():
    """Q25: the move event comes before the events the move causes, with describe's words and the action."""
    s = game(2, seat(tiles_=tiles("Y1")))
    t = act(s, PlaceTile(tile("Y1"), "M1"))
    new = t.log
    assert new[0].kind == "move" and new[0].player == "p0" and new[0].private_to is None
    assert new[0].text == RULES.describe(PlaceTile(tile("Y1"), "M1"))
    assert new[0].data["action"] == RULES.action_to_json(PlaceTile(tile("Y1"), "M1"))
    assert [e.kind for e in new].count("move") == 1


def test_Q28_a_placed_expansion_names_the_space_of_its_printed_hexagon():
    """Q28: the event adds `space`, where the expansion's printed hexagon lies (the action names the area)."""
    s = game(2, seat(exps=(exp("Y1"),)))
    a = PlaceExpansion(exp("Y1"), "SE", 2)
    t = act(s, a)
    move = next(e for e in t.log if e.kind == "move")
    assert move.data == {"action": RULES.action_to_json(a), "space": "SE3"}
    assert t.seats[0].placed[-1].area == "SE"


def test_Q28_buying_a_blank_expansion_never_names_the_face_down_one():
    """Q28 ii: the supply's top expansion is placed blank side up; its identity stays hidden, so two games that
    differ only in the supply's order give the same public log (and the event names only the area)."""
    s = game(2, seat(score=6))
    other = dataclasses.replace(s, supply=tuple(reversed(s.supply)))
    assert other.supply[0] != s.supply[0]
    t, u = act(s, BuyExpansion("N")), act(other, BuyExpansion("N"))
    assert t.log[0].kind == "move" and len(t.log) == 1
    move = next(e for e in t.log if e.kind == "move")
    assert move.data == {"action": {"kind": "buy_expansion", "area": "N"}}
    assert RULES.view(t, None).log == RULES.view(u, None).log
    assert t.seats[0].placed[-1].expansion != u.seats[0].placed[-1].expansion


def test_Q18_every_action_of_a_random_game_has_exactly_one_move_event():
    """Q18–Q29: over a whole random game, each action adds one move event (first), by the mover, public."""
    s = RULES.new_game(["a", "b", "c"], {}, 3)
    rnd = random.Random(3)
    while not RULES.is_over(s):
        p = RULES.to_move(s)[0]
        a = rnd.choice(RULES.legal_actions(s, p))
        t = RULES.apply(s, p, a)
        new = t.log
        assert new[0].kind == "move" and new[0].player == p and new[0].private_to is None
        assert sum(e.kind == "move" for e in new) == 1
        assert RULES.action_from_json(new[0].data["action"]) == a
        s = t
