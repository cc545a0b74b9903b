"""The AI arena's code paths (bench/ai_arena.py, issue 21): one quick game per game type through the arena, with
the baselines (greedy, rollout, random) and every level seated, the subject's seat rotating. It checks that the
games finish legally and the figures are well formed, never the rates (those come from the arena run by hand:
`python bench/ai_arena.py --games 200 -p 2`, see README's AI section)."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _arena():
    spec = importlib.util.spec_from_file_location("ai_arena", ROOT / "bench" / "ai_arena.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("ai_arena", module)
    spec.loader.exec_module(module)
    return module


ARENA = _arena()


@pytest.mark.parametrize(
    ("table", "subject", "vs"),
    [
        ("alhambra:3", "hard", "greedy"),
        ("alhambra:2:all", "normal", "rollout"),
        ("gardens:2", "easy", "greedy"),
        ("gardens:3", "hard", "normal"),
        ("queens_garden:2", "normal", "greedy"),
        ("queens_garden:3", "easy", "random"),
    ],
)
def test_one_arena_game_per_game_type_finishes_with_well_formed_figures(table, subject, vs, capsys):
    summary = ARENA.main(
        [table, "--levels", subject, "--vs", vs, "--games", "1", "--iterations", "2", "--rollout", "2", "--seed", "3"]
    )
    (row,) = summary
    assert row["table"] == table and row["subject"] == subject and row["vs"] == vs and row["games"] == 1
    assert 0.0 <= row["rate"] <= 1.0 and row["wilson"][0] <= row["rate"] <= row["wilson"][1]
    assert row["fair"] == pytest.approx(1 / int(table.split(":")[1]))
    assert table in capsys.readouterr().out


def test_the_subject_seat_rotates_and_baselines_play_legal_moves():
    """Game i seats the subject at seat i mod n; `play_one` applies every move through `rules.apply` (an illegal
    move would raise), so a finished game is a legal one."""
    base = {"game": "gardens", "n": 3, "options": {}, "subject": "normal", "vs": "greedy", "budget": 2}
    base |= {"rollout": 2, "rollout_width": 4}
    seats = [ARENA.play_one({**base, "index": i, "seed": i})["seat"] for i in range(3)]
    assert seats == [0, 1, 2]


def test_wilson_interval():
    lo, hi = ARENA.wilson(8, 10)
    assert 0.49 < lo < 0.5 and 0.94 < hi < 0.95
    assert ARENA.wilson(0, 0) == (0.0, 1.0)


def test_the_log_keeps_each_finished_game_and_a_second_run_skips_them(tmp_path, capsys):
    """`--log` appends one line per game (table, levels, seat, seed, scores, winners, decision times, commit); run
    again, the logged games are not played again (a killed run resumes), and `--summary` gives the same figures
    from the log alone."""
    log = tmp_path / "arena.jsonl"
    argv = ["gardens:2", "--levels", "easy", "--vs", "random", "--games", "2", "--seed", "5", "--log", str(log)]
    (first,) = ARENA.main(argv)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines) == 2 and first["games"] == 2 and first["skipped"] == 0
    assert {(r["seed"], r["seat"]) for r in lines} == {(5, 0), (6, 1)}
    for r in lines:
        assert r["table"] == "gardens:2" and r["subject"] == "easy" and r["vs"] == "random"
        assert set(r["scores"]) == set(r["players"]) and set(r["winners"]) <= set(r["players"])
        assert r["times"] and all(t >= 0 for t in r["times"]) and r["commit"]
    played = []
    real = ARENA.play_one
    ARENA.play_one = lambda task: played.append(task["seed"]) or real(task)
    try:
        (again,) = ARENA.main(argv)
        (longer,) = ARENA.main([*argv[:6], "3", *argv[7:]])  # one game more: only that one is played
    finally:
        ARENA.play_one = real
    assert played == [7]
    assert again["games"] == 2 and again["skipped"] == 2 and again["points"] == first["points"]
    assert longer["games"] == 3 and len(log.read_text().splitlines()) == 3
    capsys.readouterr()
    (summary,) = ARENA.main(["--summary", str(log)])
    assert summary["games"] == 3 and summary["points"] == longer["points"] and summary["wilson"] == longer["wilson"]
    assert "gardens:2" in capsys.readouterr().out
