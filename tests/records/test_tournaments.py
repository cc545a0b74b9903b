"""The tournaments' arithmetic (records/tournaments.py) on its own: byes fair, Swiss pairings without repeats
while avoidable, the circle method, the knockout bracket, points and Buchholz."""

from __future__ import annotations

import itertools

from records import tournaments as tr


def test_points_at_a_table_count_opponents_beaten_with_halves_for_ties_and_leavers_last():
    assert tr.table_points({"a": 10, "b": 7, "c": 7, "d": 1}) == {"a": 3.0, "b": 1.5, "c": 1.5, "d": 0.0}
    assert tr.table_points({"a": 10, "b": 2}, left=("a",)) == {"a": 0.0, "b": 1.0}


def test_standings_rank_by_points_then_buchholz_then_score_and_byes_score_a_win():
    rounds = [
        tr.Round((tr.Table(("a", "b"), {"a": 5, "b": 3}), tr.Table(("c", "d"), {"c": 9, "d": 1})), ("e",)),
        tr.Round((tr.Table(("a", "c"), {"a": 2, "c": 4}), tr.Table(("e", "b"), {"e": 0, "b": 6})), ("d",)),
    ]
    rows = tr.standings(["a", "b", "c", "d", "e"], rounds, 2)
    # c 2 points; a, b, d, e 1 each: a's Buchholz 3 (b 1 + c 2), b's and d's 2 (then b's score 9 beats d's 1)
    assert [s.player for s in rows] == ["c", "a", "b", "d", "e"]
    by = {s.player: s for s in rows}
    assert by["e"].points == 1.0 and by["e"].byes == 1 and by["d"].points == 1.0
    assert by["a"].buchholz == by["b"].points + by["c"].points  # the opponents' final points


def test_byes_go_to_the_lowest_who_had_the_fewest():
    order = ["a", "b", "c", "d", "e"]
    assert tr.pick_byes(order, 1, {}) == ["e"]
    assert tr.pick_byes(order, 1, {"e": 1}) == ["d"]
    assert tr.pick_byes(order, 1, dict.fromkeys(order, 1)) == ["e"]  # everyone had one: the lowest again


def test_a_swiss_of_six_in_twos_never_repeats_while_it_can_be_avoided():
    players = list("abcdef")
    rounds: list[tr.Round] = []
    for _r in range(5):  # 5 rounds of 3 pairs: a perfect schedule exists, so no pair may meet twice
        rnd = tr.swiss_round(players, 2, 2, tr.met_pairs(rounds), {})
        rounds.append(rnd)
    met = tr.met_pairs(rounds)
    assert max(met.values()) == 1 and len(met) == 15


def test_table_sizes_balance_and_leave_byes_only_below_the_games_least():
    assert tr.table_sizes(8, 4, 2) == ([4, 4], 0)
    assert tr.table_sizes(9, 4, 2) == ([3, 3, 3], 0)
    assert tr.table_sizes(5, 2, 2) == ([2, 2], 1)
    assert tr.table_sizes(1, 2, 2) == ([], 1)


def test_the_circle_method_pairs_everyone_once_with_a_bye_each_round_when_odd():
    for n in (4, 5, 8):
        players = [str(i) for i in range(n)]
        rounds = tr.round_robin(players, 2, 2)
        assert len(rounds) == (n - 1 if n % 2 == 0 else n)
        pairs = [frozenset(t.players) for r in rounds for t in r.tables]
        assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
        if n % 2:
            assert sorted(p for r in rounds for p in r.byes) == sorted(players)


def test_a_round_robin_in_fours_meets_everyone():
    players = [str(i) for i in range(8)]
    rounds = tr.round_robin(players, 4, 2)
    assert set(tr.met_pairs(rounds)) == {frozenset(pq) for pq in itertools.combinations(players, 2)}


def test_the_knockout_bracket_keeps_the_best_seeds_apart_and_gives_the_top_seeds_the_byes():
    assert tr.bracket(list("abcdefgh"), 2) == list("ahdebgcf")
    slots = tr.bracket(list("abcde"), 2)
    first = tr.knockout_round(slots, 2)
    assert set(first.byes) == {"a", "b", "c"} and [t.players for t in first.tables] == [("d", "e")]
    done = tr.Round((tr.Table(("d", "e"), {"d": 1, "e": 5}),), first.byes)
    assert tr.next_slots(slots, done, 2) == ["a", "e", "b", "c"]
    assert tr.knockout_rounds(5, 2) == 3 and tr.knockout_rounds(16, 4) == 2
