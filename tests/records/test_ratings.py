"""Ratings (records/ratings.py): after a scripted series of games they are exactly openskill's own Plackett–Luce
computation; ties, AI seats, stand-ins and players who abandoned follow the rules of records/ratings.py."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from records.figures import Finish, Move, SeatFinish, rebuild, settle
from records.ratings import (
    AI_RATINGS,
    NEW,
    PROVISIONAL_GAMES,
    Rating,
    SeatResult,
    places,
    rate,
    replay,
)

MODEL = PlackettLuce()  # openskill's defaults, called directly


def direct(teams: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    out = MODEL.rate([[MODEL.rating(mu=m, sigma=s)] for m, s in teams], ranks=ranks)
    return [(t[0].mu, t[0].sigma) for t in out]


SERIES = [  # (players and scores), in order: winners are the top scores
    [("ana", 50), ("bo", 40), ("cyd", 30)],
    [("bo", 70), ("ana", 70), ("dee", 10), ("cyd", 20)],  # Ana and Bo share first
    [("cyd", 5), ("dee", 9)],
    [("ana", 1), ("bo", 2), ("cyd", 3), ("dee", 4), ("eve", 5), ("fay", 6)],
    [("eve", 30), ("ana", 30), ("bo", 30)],  # a three-way tie
]


def seats_of(game: list[tuple[str, int]]) -> list[SeatResult]:
    best = max(s for _p, s in game)
    return [SeatResult(p, s, s == best) for p, s in game]


def test_a_series_of_games_equals_openskills_own_computation():
    ratings: dict[str, Rating] = {}
    expected: dict[str, tuple[float, float]] = {}
    for game in SERIES:
        ratings.update(rate(seats_of(game), ratings))
        # openskill itself: ranks from the scores, equal scores equal ranks
        ranks = [1 + sum(1 for _q, t in game if t > s) for _p, s in game]
        new = direct([expected.get(p, (25.0, 25.0 / 3)) for p, _s in game], ranks)
        expected.update({p: r for (p, _s), r in zip(game, new, strict=True)})
    assert {p: (r.mu, r.sigma) for p, r in ratings.items()} == expected
    assert ratings["ana"].games == 4 and ratings["fay"].games == 1
    assert ratings["fay"].provisional and NEW.shown == pytest.approx(0.0)
    assert replay([seats_of(g) for g in SERIES])[0] == ratings


def test_shared_places_are_ties():
    seats = [SeatResult("a", 10, True), SeatResult("b", 10, True), SeatResult("c", 3), SeatResult("d", 3)]
    assert places(seats) == [1, 1, 3, 3]
    new = rate(seats, {})
    assert new["a"] == new["b"] and new["c"] == new["d"] and new["a"].mu > 25 > new["c"].mu
    # the engine's winners break a tie for first where the rules do: the winner is ahead on equal points
    assert places([SeatResult("a", 10, True), SeatResult("b", 10, False)]) == [1, 2]


def test_ai_seats_are_fixed_level_opponents_never_rated():
    seats = [SeatResult("ana", 40, True), SeatResult("ai:hard:1", 30, ai_level="hard"), SeatResult("bo", 20)]
    new = rate(seats, {"bo": Rating(30.0, 4.0, 9)})
    assert set(new) == {"ana", "bo"}  # the AI has no rating to change
    hard = AI_RATINGS["hard"]
    want = direct([(25.0, 25.0 / 3), hard, (30.0, 4.0)], [1, 2, 3])
    assert (new["ana"].mu, new["ana"].sigma) == want[0] and (new["bo"].mu, new["bo"].sigma) == want[2]
    assert new["bo"].games == 10
    # the same AI level is the same opponent in every game: its constants never move
    assert rate(seats, {}) == rate(seats, {})
    # a table of one human against AI seats still rates the human; only AI seats rate nobody
    assert set(rate([SeatResult("ana", 1), SeatResult("ai:easy:1", 2, True, "easy")], {})) == {"ana"}
    assert rate([SeatResult("ai:easy:1", 2, True, "easy"), SeatResult("ai:hard:2", 1, ai_level="hard")], {}) == {}


def test_a_seat_mostly_played_by_a_stand_in_is_not_rated_and_counts_as_the_stand_in():
    mostly = SeatResult("bo", 50, True, moves=10, standin_moves=6)
    half = SeatResult("cyd", 10, moves=10, standin_moves=5)  # exactly half: still the player's own game
    seats = [SeatResult("ana", 30), mostly, half]
    assert not mostly.rated and half.rated and mostly.fixed == AI_RATINGS["normal"]
    new = rate(seats, {})
    assert set(new) == {"ana", "cyd"}
    want = direct([(25.0, 25.0 / 3), AI_RATINGS["normal"], (25.0, 25.0 / 3)], [2, 1, 3])
    assert (new["ana"].mu, new["ana"].sigma) == want[0] and (new["cyd"].mu, new["cyd"].sigma) == want[2]


def test_a_player_who_abandoned_is_ranked_last_and_rated():
    left = SeatResult("bo", 99, True, abandoned=True, moves=10, standin_moves=9)  # the AI played on for him
    seats = [SeatResult("ana", 30, False), left, SeatResult("cyd", 20), SeatResult("dee", 1, abandoned=True)]
    assert places(seats) == [1, 3, 2, 3]  # the two who left share the last place, whatever the scores say
    new = rate(seats, {})
    assert set(new) == {"ana", "bo", "cyd", "dee"} and new["bo"] == new["dee"]
    want = direct([(25.0, 25.0 / 3)] * 4, [1, 3, 2, 3])
    assert [(new[p].mu, new[p].sigma) for p in ("ana", "bo", "cyd", "dee")] == want


def test_provisional_for_the_first_games_and_shown_conservatively():
    r = Rating()
    for n in range(PROVISIONAL_GAMES):
        assert r.provisional
        r = rate([SeatResult("ana", 2, True), SeatResult("ai:easy:1", 1, ai_level="easy")], {"ana": r})["ana"]
        assert r.games == n + 1
    assert not r.provisional and r.shown == pytest.approx(r.mu - 3 * r.sigma)


def test_settle_takes_turn_times_and_stand_in_shares_from_the_move_log():
    finish = Finish(
        (
            SeatFinish("ana", "Ana", 20, True, figures={"longest_wall": 4}),
            SeatFinish("bo", "Bo", 10),
            SeatFinish("ai:easy:1", "AI (easy) 1", 5, ai_level="easy"),
        )
    )
    moves = [
        Move("ana", 100.0),
        Move("bo", 160.0),
        Move("ai:easy:1", 161.0),
        Move("ana", 200.0),
        Move("ana", 201.0),  # the same turn goes on: not a new turn
        Move("bo", 500.0, standin=True),
        Move("ai:easy:1", 501.0),
        Move("bo", 900.0, standin=True),
    ]
    records = settle(finish, moves, {"bo": Rating(20.0, 3.0, 7)})
    ana, bo, ai = records
    assert (ana.place, bo.place, ai.place) == (1, 2, 3)
    assert (ana.turns, ana.turn_seconds, ana.turn_median) == (1, 39.0, 39.0)
    assert (bo.turns, bo.turn_seconds, bo.turn_median) == (3, 60 + 299 + 399, 299.0)
    assert (bo.moves, bo.standin_moves, bo.rated) == (3, 2, False) and bo.before is None and bo.change is None
    assert ana.rated and ana.before == NEW and ana.after is not None and ana.change is not None
    assert not ai.rated and ana.figures == {"longest_wall": 4}
    assert settle(finish, moves, {}, rated=False)[0].after is None  # outside a server: nobody is rated


def test_a_rebuild_of_stored_records_gives_the_same_ratings():
    games, ratings = [], {}
    for n, game in enumerate(SERIES):
        best = max(s for _p, s in game)
        finish = Finish(tuple(SeatFinish(p, p.title(), s, s == best) for p, s in game))
        records = settle(finish, [Move(p, float(n * 10 + i)) for i, (p, _s) in enumerate(game)], ratings)
        ratings.update({r.player: r.after for r in records if r.after is not None})
        games.append(records)
    again, rerated = rebuild(games)
    assert again == ratings and rerated == games
