"""Round scoring (Q31–Q33), preparation (Q34), final scoring (Q35), shared victory (Q36) and the score floor
(Q37). Wheel faces are stand-ins in data (Q32 [S]); tests that need particular faces set them explicitly."""

from __future__ import annotations

import dataclasses

import pytest

from engine.queens_garden import RULES, components, scoring
from engine.queens_garden.actions import Pass
from engine.queens_garden.state import Piece, Placed
from tests.engine.queens_garden.scenario import act, exp, game, plants, seat, tiles

YELLOW, LIGHT_BLUE, DARK_GREEN, DARK_PURPLE = 0, 1, 3, 5


@pytest.fixture
def wheel(monkeypatch):
    """Fix the wheel and per-round pattern points for a test (they are provisional data, Q32)."""

    def set_face(round_no, *criteria, pattern_points=None):
        monkeypatch.setitem(components.WHEEL, round_no, tuple(criteria))
        if pattern_points is not None:
            monkeypatch.setitem(components.PATTERN_POINTS_BY_ROUND, round_no, pattern_points)

    return set_face


def _events(s, kind, player=None):
    return [e for e in s.log if e.kind == kind and (player is None or e.player == player)]


# ------------------------------------------------------------------------------------------------ final scoring


def test_QT10_Q35_storage_at_the_end():
    """QT10 (Q35.1): 2 jokers, a green flower (4) and a bird expansion (2) left: +2 −4 −2 = −4."""
    me = seat(tiles_=tiles("G4"), exps=(exp("Y2"),), jokers=2)
    assert sum(scoring.storage_value(me)) == -4


def test_QT11_Q35_colour_group_scores_the_sum_of_its_values():
    """QT11 (Q35.2): a yellow group {tree, bird, butterfly} scores 1+2+3 = 6."""
    colour, pattern = scoring.scored_groups(seat(plants=plants(M1="Y1", M2="Y2", M3="Y3")))
    assert [(g["key"], g["points"], g["bonus"]) for g in colour] == [(YELLOW, 6, 0)] and pattern == []


def test_QT12_Q35_pattern_group_of_birds():
    """QT12 (Q35.2): birds {yellow, light blue, light purple} score 2+2+2 = 6."""
    colour, pattern = scoring.scored_groups(seat(plants=plants(M1="Y2", M2="B2", M3="L2")))
    assert [(g["key"], g["points"], g["bonus"]) for g in pattern] == [(2, 6, 0)] and colour == []


def test_QT13_Q35_yellow_group_with_all_six_patterns():
    """QT13 (Q35.3): 21 + 6 bonus = 27."""
    ring = plants(M1="Y1", M2="Y2", M3="Y3", M4="Y4", M5="Y5", M6="Y6")
    colour, _ = scoring.scored_groups(seat(plants=ring))
    assert [(g["points"], g["bonus"]) for g in colour] == [(21, 6)]


def test_QT16_Q35_pattern_group_of_six_butterflies():
    """QT16 (Q35.3): six butterflies in six colours: 18 + 6 = 24; the bonus is not for colour groups only."""
    ring = plants(M1="Y3", M2="B3", M3="G3", M4="F3", M5="L3", M6="P3")
    _, pattern = scoring.scored_groups(seat(plants=ring))
    assert [(g["points"], g["bonus"]) for g in pattern] == [(18, 6)]


def test_Q35_small_groups_do_not_score_and_every_big_group_does():
    """Q35.2: groups of 2 score nothing; two yellow groups of 3 both score (no limit per step)."""
    me = seat(
        plants=plants(M1="Y1", M2="Y2", M3="Y3", S1="Y4", S2="Y5", S3="Y6", M5="B1", M6="B2"),
        placed=(Placed(exp("P1"), "S", 0, False),),
    )
    colour, pattern = scoring.scored_groups(me)
    assert sorted(g["points"] for g in colour) == [6, 15] and pattern == []


def test_Q35_Q36_final_scoring_end_to_end(wheel):
    """Q35: after round 4's Phase 2: storage, then colour groups, then pattern groups, +6 per group of 6;
    the log carries the breakdown, and the seat keeps it for the results. Q36: the best total wins."""
    wheel(4, ("colour", DARK_PURPLE))
    ring = plants(M1="Y1", M2="Y2", M3="Y3", M4="Y4", M5="Y5", M6="Y6")
    s = game(2, seat(plants=ring, jokers=2, tiles_=tiles("G4"), exps=(exp("Y2"),)), seat(), round=4, stacks=())
    s = act(act(s, Pass()), Pass())
    assert RULES.is_over(s) and RULES.to_move(s) == []
    final = _events(s, "final_scoring", "p0")[0].data
    assert final["before"] == 14 and final["storage"] == {"jokers": 2, "tiles": -4, "expansions": -2}
    assert final["after_storage"] == 10 and final["bonus"] == 6 and final["total"] == 10 + 21 + 6
    kept = s.seats[0].final
    assert (kept.before, kept.after_storage, kept.colour_points + kept.pattern_points, kept.bonus) == (14, 10, 21, 6)
    assert RULES.scores(s) == {"p0": 37, "p1": 15} and RULES.winners(s) == ["p0"]
    assert s.log[-1].kind == "game_over" and s.log[-1].data["winners"] == ["p0"]


def test_Q36_ties_are_shared(wheel):
    """Q36: equal totals share the victory; there is no tie-breaker."""
    wheel(4, ("colour", DARK_PURPLE))
    s = game(2, seat(score=15), seat(score=14), round=4, stacks=())
    s = act(act(s, Pass()), Pass())
    assert RULES.scores(s) == {"p0": 14, "p1": 14} and RULES.winners(s) == ["p0", "p1"]


def test_Q37_final_storage_cannot_take_the_score_below_zero(wheel):
    """Q37: the storage deduction stops at 0; group points come after it."""
    wheel(4, ("colour", DARK_PURPLE))
    s = game(
        2, seat(score=3, tiles_=tiles("P6", "L6"), plants=plants(M1="Y1", M2="Y2", M3="Y3")), seat(), round=4, stacks=()
    )
    s = act(act(s, Pass()), Pass())
    final = _events(s, "final_scoring", "p0")[0].data
    assert final["after_storage"] == 0 and s.seats[0].score == 6


def test_rulebook_final_scoring_example(wheel):
    """RB's final-scoring example as far as its text goes (Q32/Q33/Q35): 5 pavilions score 1+1+1+1+1 = 5 in
    round 4's Phase 2, and the group tree+bird+butterfly+lily scores 1+2+3+6 = 12 at the end."""
    wheel(4, ("colour", DARK_PURPLE))
    placed = tuple(
        Placed(exp(code), area, 0, True)
        for code, area in zip(["B1", "G2", "L3", "P4", "F5"], ["N", "NE", "SE", "S", "SW"], strict=True)
    )
    me = seat(plants=plants(M6="Y6", M1="Y1", M2="Y2", M3="Y3"), placed=placed)
    s = game(2, me, seat(), round=4, stacks=())
    s = act(act(s, Pass()), Pass())
    lines = _events(s, "round_scoring", "p0")[0].data["lines"]
    assert lines[-1] == {"criterion": "pavilions", "key": 0, "hexagons": 5, "points": 5}
    final = _events(s, "final_scoring", "p0")[0].data
    assert [g["points"] for g in final["colour_groups"]] == [12] and final["pattern_groups"] == []


# ------------------------------------------------------------------------------------------------ round scoring


def test_Q31_Q32_round_scoring_by_the_wheel(wheel):
    """Q31: each hexagon matching a wheel criterion scores, twice if both its colour and pattern match;
    Q32 [S]: colours 1 point, patterns the round's value. Scoring starts with the first player."""
    wheel(1, ("colour", DARK_GREEN), ("colour", LIGHT_BLUE), ("pattern", 1), pattern_points=1)
    me = seat(plants=plants(M1="F1", M3="B2", M5="Y4"))
    s = game(2, me, seat())
    s = act(act(s, Pass()), Pass())
    ev = _events(s, "round_scoring")
    assert [e.player for e in ev] == ["p0", "p1"]
    assert ev[0].data["points"] == 3 and ev[0].data["score"] == 15 - 1 + 3
    assert [ln["points"] for ln in ev[0].data["lines"]] == [1, 1, 1, 0]
    assert "dark green" in str(ev[0].text)


def test_Q32_pattern_points_rise_by_round(wheel):
    """Q32 [S]: a pattern criterion pays the round's per-hexagon points (here 3 in round 4)."""
    wheel(4, ("pattern", 6), pattern_points=3)
    total, _ = scoring.round_score(seat(plants=plants(M1="Y6", M3="B6")), 4)
    assert total == 6


def test_QT25_Q33_one_point_per_visible_pavilion(wheel):
    """QT25 (Q33): 3 face-up expansions and 1 blank: +3 in Phase 2, surrounded or not."""
    wheel(1, ("colour", DARK_GREEN))
    placed = (Placed(exp("Y2"), "N"), Placed(exp("Y3"), "NE"), Placed(exp("G4"), "S"), Placed(0, "SW", 0, False))
    total, lines = scoring.round_score(seat(placed=placed), 1)
    assert total == 3 and lines[-1]["hexagons"] == 3


# ------------------------------------------------------------------------------------------------ preparation


def test_Q34_preparation_between_rounds():
    """Q34, Q17: the wheel turns (round 2), tiles on face-down display expansions go to the tower, every display
    expansion and the rest of the stack go to the bottom of the supply, the next stack comes out with 4 tiles,
    and the first passer starts with the marker back in the display."""
    s = game(3)
    face_down = Piece(s.stack[0], tiles("Y1", "Y2"))
    face_up = Piece(s.stack[1], (), True)
    s = dataclasses.replace(s, stack=s.stack[2:], display=(face_down, face_up))
    old_supply, rest, tiles_out = s.supply, s.stack, set(s.stack_tiles) | set(tiles("Y1", "Y2"))
    next_stack = s.stacks[0]
    s = act(s, Pass())  # p0 passes first
    s = act(s, Pass())
    # p2 passes last, ending the round; p0 took the marker
    s2 = act(s, Pass())
    assert s2.round == 2 and s2.current == 0 and s2.first_player == 0 and s2.marker is None
    assert s2.supply == old_supply + (face_down.expansion, face_up.expansion) + rest
    assert tiles_out <= set(s2.tower)
    assert s2.stack == next_stack and len(s2.stack_tiles) == 4 and s2.display == () and len(s2.stacks) == 2
    assert not any(seat.passed for seat in s2.seats)
    assert _events(s2, "round_start")[-1].data["round"] == 2 and _events(s2, "round_start")[-1].player == "p0"


def test_Q17_Q15_the_marker_holder_starts_the_next_round():
    """Q15, Q17: whoever passed first in round 1 starts round 2, not the round-1 start player."""
    s = game(3)
    s = act(s, legal_first_acquire(s))  # p0 acquires
    s = act(s, Pass())  # p1 passes first
    s = act(s, Pass())
    s = act(s, Pass())
    assert s.round == 2 and s.current == 1 and s.first_player == 1


def legal_first_acquire(s):
    from engine.queens_garden.actions import Acquire

    return [a for a in RULES.legal_actions(s, s.players[s.current]) if isinstance(a, Acquire)][0]
