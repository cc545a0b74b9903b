"""AI arena: complete 2-player games between two AI levels, for every game; win rates and decision times.

    python bench/ai_arena.py                                    # every game, normal:easy and hard:normal, 20 games
    python bench/ai_arena.py gardens --pairs hard:normal --games 200 --processes 2
    python bench/ai_arena.py alhambra --pairs hard:normal --budget 1.0     # hard thinks 1.0 s a move
    python bench/ai_arena.py queens_garden --iterations 200     # hard uses 200 search iterations (reproducible)

Seats alternate between games (the first level sits first in even games). A shared win counts as half. Prints,
per game and pair, the first level's score rate with a Wilson 95% interval, and per level the decision times
(median, p95, max). Targets: normal beats easy in ≥ 90% of games, hard beats normal in ≥ 65%, hard
decides in ≤ 1.5 s at p95. Decision times are only meaningful with at most one process per core. Players who may
act out of turn (Alhambra's vizier claimants) are asked first, once per position, as the bot asks AI seats.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import Budget, ai_player_id, choose  # noqa: E402
from engine import GAMES, get_rules  # noqa: E402


def play_one(task: tuple) -> dict:
    """One complete game between levels a and b; returns the result for a and every decision time."""
    game, level_a, level_b, index, budget, options, seed = task
    rules = get_rules(game)
    seat_a, seat_b = ai_player_id(level_a, 1), ai_player_id(level_b, 2)
    players = [seat_a, seat_b] if index % 2 == 0 else [seat_b, seat_a]
    levels = {seat_a: level_a, seat_b: level_b}
    times: dict[str, list[float]] = {seat_a: [], seat_b: []}
    state = rules.new_game(players, options, seed)
    started = time.perf_counter()
    moves = 0
    declined: set[tuple[int, str]] = set()  # (move, seat): an out-of-turn chance let go, as the bot remembers it
    while not rules.is_over(state):
        movers = rules.to_move(state)
        # optional movers first (Alhambra's vizier claimants, V7 order), asked once per position as the bot does
        claim = None
        for seat in movers[1:]:
            if (moves, seat) in declined:
                continue
            t = time.perf_counter()
            claim = choose(game, state, seat, levels[seat], seed * 100_003 + moves + 50_000, budget, optional=True)
            times[seat].append(time.perf_counter() - t)
            if claim is not None:
                state = rules.apply(state, seat, claim)
                moves += 1
                break
            declined.add((moves, seat))
        if claim is not None:
            continue
        player = movers[0]
        t = time.perf_counter()
        action = choose(game, state, player, levels[player], seed * 100_003 + moves, budget)
        times[player].append(time.perf_counter() - t)
        state = rules.apply(state, player, action)
        moves += 1
    winners = rules.winners(state)
    result = (1.0 / len(winners)) if seat_a in winners else 0.0
    scores = rules.scores(state)
    return {
        "result": result,
        "a_first": index % 2 == 0,
        "times_a": times[seat_a],
        "times_b": times[seat_b],
        "margin": scores[seat_a] - scores[seat_b],
        "seconds": time.perf_counter() - started,
        "moves": moves,
    }


def wilson(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a rate of points/n (draws as half points)."""
    if n == 0:
        return 0.0, 1.0
    p = points / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))
    return xs[k]


def timing(xs: list[float]) -> str:
    if not xs:
        return "no decisions"
    return (
        f"median {statistics.median(xs) * 1000:7.1f} ms  p95 {percentile(xs, 0.95) * 1000:7.1f} ms  "
        f"max {max(xs) * 1000:7.1f} ms  ({len(xs)} decisions)"
    )


def run_pair(game: str, level_a: str, level_b: str, args, budget) -> dict:
    tasks = [(game, level_a, level_b, i, budget, args.options, args.seed + i) for i in range(args.games)]
    started = time.perf_counter()
    results = []
    if args.processes > 1:
        with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
            for r in pool.imap_unordered(play_one, tasks):
                results.append(r)
                progress(results, args)
    else:
        for t in tasks:
            results.append(play_one(t))
            progress(results, args)
    elapsed = time.perf_counter() - started
    points = sum(r["result"] for r in results)
    n = len(results)
    lo, hi = wilson(points, n)
    wins = sum(1 for r in results if r["result"] == 1.0)
    draws = sum(1 for r in results if 0 < r["result"] < 1)
    first = [r["result"] for r in results if r["a_first"]]
    second = [r["result"] for r in results if not r["a_first"]]
    times_a = [t for r in results for t in r["times_a"]]
    times_b = [t for r in results for t in r["times_b"]]
    print(
        f"{game} {level_a} vs {level_b}: {level_a} scores {points:g}/{n} = {points / n:.1%} "
        f"(Wilson 95% {lo:.1%}–{hi:.1%}); {wins} wins, {draws} draws, {n - wins - draws} losses; "
        f"as first seat {sum(first) / max(1, len(first)):.1%}, as second {sum(second) / max(1, len(second)):.1%}; "
        f"mean margin {statistics.mean(r['margin'] for r in results):+.1f} points"
    )
    print(f"  {level_a:>6} decision time: {timing(times_a)}")
    print(f"  {level_b:>6} decision time: {timing(times_b)}")
    print(
        f"  {n} games in {elapsed:.0f} s ({statistics.mean(r['moves'] for r in results):.0f} moves a game)", flush=True
    )
    return {
        "game": game,
        "a": level_a,
        "b": level_b,
        "games": n,
        "points": points,
        "wilson": [lo, hi],
        "p95_a": percentile(times_a, 0.95),
        "p95_b": percentile(times_b, 0.95),
    }


def progress(results: list, args) -> None:
    """With --verbose, a line every 10 games (so a long run left in the background shows where it stands)."""
    if args.verbose and (len(results) % 10 == 0 or len(results) == args.games):
        pts = sum(r["result"] for r in results)
        lo, hi = wilson(pts, len(results))
        times = sorted(t for r in results for t in r["times_a"])
        print(
            f"  ... {len(results)}/{args.games} games: first level {pts:g} points = {pts / len(results):.1%} "
            f"({lo:.1%}–{hi:.1%}), its p95 decision {percentile(times, 0.95) * 1000:.0f} ms",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_to_play", nargs="*", metavar="game", default=list(GAMES), help="games (default all)")
    parser.add_argument(
        "--pairs",
        default="normal:easy,hard:normal",
        help="comma-separated level pairs a:b (default normal:easy,hard:normal)",
    )
    parser.add_argument("-n", "--games", type=int, default=20, help="games per pair (default 20)")
    parser.add_argument("--budget", type=float, default=None, help="seconds per hard decision (default: ai's)")
    parser.add_argument("--iterations", type=int, default=None, help="search iterations per hard decision")
    parser.add_argument("-p", "--processes", type=int, default=1, help="games played in parallel")
    parser.add_argument("--options", type=json.loads, default={}, help="game options as JSON, e.g. '{\"x\": true}'")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (game i uses seed + i)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print a progress line every 10 games")
    parser.add_argument("--json", type=Path, default=None, help="also write the summary as JSON to this file")
    args = parser.parse_args()

    budget = None
    if args.budget is not None or args.iterations is not None:
        budget = Budget(iterations=args.iterations, seconds=args.budget)
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",") if p]
    summary = []
    for game in args.games_to_play:
        try:
            get_rules(game)
            __import__(f"ai.{game}")
        except (ImportError, AttributeError):
            print(f"{game}: not implemented yet, skipped", flush=True)
            continue
        for a, b in pairs:
            summary.append(run_pair(game, a, b, args, budget))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
