"""Scoring: A43–A49 (majorities, ties, walls), A65 (Dirk), A83 (public information only)."""

from __future__ import annotations

from dataclasses import replace

from engine.alhambra import RULES
from engine.alhambra.actions import TakeMoney
from engine.alhambra.components import SCORING_1, SCORING_2
from engine.alhambra.geometry import alhambra_problem, longest_wall
from engine.alhambra.scoring import majority_points, score_round
from tests.engine.alhambra.helpers import act, arrange, card, cells, new


def test_A46_tie_examples():
    """A46: A=5, B=5, C=3 -> 17, 17, 6; A=4, B=C=D=2 -> 21, 6, 6, 6 (round 3 towers 21/13/6)."""
    assert majority_points([5, 5, 3], (21, 13, 6)) == [17, 17, 6]
    assert majority_points([4, 2, 2, 2], (21, 13, 6)) == [21, 6, 6, 6]


def test_A45_places_per_round_and_A47_zero_never_scores():
    """A45: round 1 pays 1st only, round 2 1st/2nd, round 3 1st–3rd; A47: 0 buildings never score."""
    assert majority_points([3, 2, 1], (6,)) == [6, 0, 0]
    assert majority_points([3, 2, 1], (13, 6)) == [13, 6, 0]
    assert majority_points([3, 2, 1], (21, 13, 6)) == [21, 13, 6]
    assert majority_points([2, 0, 0], (21, 13, 6)) == [21, 0, 0]
    assert majority_points([0, 0], (21, 13, 6)) == [0, 0]
    assert majority_points([1, 1], (6,)) == [3, 3]  # A46: 1st place shared, 2nd place worth nothing in round 1


def test_A48_straight_wall():
    """A48: four north walls in a row make a wall of 4."""
    alh = cells({"N13": "pavilion-6-N", "O13": "arcades-8-N", "P13": "garden-10-N", "Q13": "tower-11-N"})
    assert alhambra_problem(alh) is None
    assert longest_wall(alh) == 4


def test_A48_L_shaped_wall_is_continuous():
    """A48: walls meeting at a corner are one wall."""
    alh = cells({"M12": "pavilion-5-NW", "N12": "pavilion-6-N"})
    assert longest_wall(alh) == 3


def test_A48_a_gap_breaks_the_wall():
    """A48: an open tile between two walls splits them; the longest piece counts."""
    alh = cells({"N13": "pavilion-6-N", "O13": "garden-10-open", "P13": "tower-11-N", "Q13": "arcades-8-N"})
    assert longest_wall(alh) == 2


def test_A48_back_to_back_walls_do_not_count():
    """A48: a wall on a side shared by two tiles is a double wall and never counts."""
    alh = cells(
        {
            "N13": "pavilion-7-E",
            "M14": "chambers-10-open",
            "N14": "garden-11-open",
            "O14": "garden-10-open",
            "O13": "tower-10-W",
        }
    )
    assert alhambra_problem(alh) is None
    assert longest_wall(alh) == 0
    assert longest_wall({k: v for k, v in alh.items() if k != (2, 0)}) == 1  # alone it faces outside


def test_A48_closed_ring_scores_every_segment():
    """A48: a fully walled outline (3x3 around the fountain) scores all 12 segments, not 11."""
    ring = cells(
        {
            "L12": "pavilion-5-NW",
            "M12": "pavilion-6-N",
            "N12": "seraglio-4-NE",
            "N13": "pavilion-7-E",
            "N14": "pavilion-4-ES",
            "M14": "seraglio-8-S",
            "L14": "pavilion-3-SW",
            "L13": "seraglio-7-W",
        }
    )
    assert alhambra_problem(ring) is None
    assert longest_wall(ring) == 12


def scoring_state(n=3, layouts=None, reserves=None, dirk=None, seed=8):
    s = new(n, seed)
    return arrange(
        s,
        alhambras=layouts or {},
        reserves=reserves or {},
        dirk=dirk,
        current=0,
        display=(card("denar", 1), card("dirham", 9), card("ducat", 9), card("florin", 9)),
    )


def trigger(s, scoring_card):
    """Put `scoring_card` on top of the deck and end a turn by taking one card."""
    s = replace(s, deck=tuple(c for c in s.deck if c != scoring_card) + (scoring_card,))
    return act(s, TakeMoney((card("denar", 1),)))


def test_A43_A44_round_1_counts_only_the_alhambra():
    """A43/A44: round 1 when scoring card 1 is drawn; reserve tiles and the fountain don't count."""
    s = scoring_state(
        layouts={0: {"N13": "tower-11-open", "O13": "tower-12-open"}, 1: {"N13": "tower-11-N"}},
        reserves={2: ["tower-9-NE", "tower-13-E", "tower-7-NEW"]},
    )
    t = trigger(s, SCORING_1)
    (rnd,) = t.scorings
    assert rnd.round == 1
    line0, line1, line2 = rnd.lines
    assert line0.counts["tower"] == 2 and line0.majorities == {"tower": 6} and line0.wall == 0
    assert line1.majorities == {} and line1.wall == 1 and line1.total == 1
    assert line2.counts["tower"] == 0 and line2.total == 0
    assert [seat.score for seat in t.seats] == [6, 1, 0]
    events = [e for e in t.log if e.kind == "score"]
    assert events[0].player == s.players[0] and events[0].data["majorities"] == {"tower": 6}
    assert "Tower 6" in str(events[0].text)


def test_A49_scores_are_cumulative_and_re_evaluated():
    """A49: round 2 adds to round 1, recounting from scratch with the round-2 table (A45)."""
    s = scoring_state(layouts={0: {"N13": "tower-11-open", "O13": "tower-12-open"}, 1: {"N13": "tower-11-N"}})
    t = trigger(s, SCORING_1)
    u = arrange(t, current=0, display=(card("denar", 1), card("dirham", 8), card("ducat", 8), card("florin", 8)))
    v = trigger(u, SCORING_2)
    assert [r.round for r in v.scorings] == [1, 2]
    assert v.scorings[1].lines[0].majorities == {"tower": 13}
    assert v.scorings[1].lines[1].majorities == {"tower": 6} and v.scorings[1].lines[1].wall == 1
    assert [seat.score for seat in v.seats] == [6 + 13, 1 + 6 + 1, 0]


def test_A65_dirk_takes_part_in_majorities_but_not_walls():
    """A65: Dirk ranks like a player and scores; A48: never for walls (2-player game)."""
    s = scoring_state(
        n=2,
        layouts={0: {"N13": "tower-11-N"}, 1: {"N13": "garden-10-open"}},
        dirk=["tower-11-open", "tower-12-open", "garden-10-N", "pavilion-2-NEW", "seraglio-3-ESW", "arcades-4-NES"],
    )
    t = trigger(s, SCORING_1)
    me, other, dirk = t.scorings[0].lines
    assert dirk.player is None and dirk.majorities["tower"] == 6 and dirk.wall == 0
    assert me.majorities == {} and me.wall == 1
    assert other.majorities == {"garden": 2} and dirk.majorities["garden"] == 2  # tie 5 -> floor(5/2)
    assert t.dirk_score == dirk.total == 6 + 2 + 1 + 2 + 3
    assert RULES.scores(t) == {s.players[0]: 1, s.players[1]: 2}  # A68: humans only


def test_A83_scoring_uses_public_information_only():
    """A83: the round computed from the spectator view equals the real one."""
    s = scoring_state(layouts={0: {"N13": "tower-11-open"}, 1: {"N13": "pavilion-6-N"}})
    v = RULES.view(s, None)
    parts = [(p, seat.alhambra.values(), seat.alhambra, seat.score) for p, seat in zip(s.players, s.seats, strict=True)]
    vparts = [
        (p, seat.alhambra.values(), seat.alhambra, seat.score) for p, seat in zip(v.players, v.seats, strict=True)
    ]
    assert score_round(2, parts) == score_round(2, vparts)
