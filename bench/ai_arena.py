"""AI arena: the AI levels measured against baseline players written only against the engine contract, and
against each other; win rates with Wilson 95 % intervals and decision times.

    python bench/ai_arena.py                                   # every table, every level vs greedy, 20 games
    python bench/ai_arena.py alhambra:3 alhambra:4:all --vs greedy --levels normal,hard --games 60 -p 2
    python bench/ai_arena.py gardens:2 --vs normal --levels hard --iterations 300   # head to head, reproducible
    python bench/ai_arena.py queens_garden:4 --vs rollout --rollout 0.2 --budget 1.0
    python bench/ai_arena.py gardens:3 --levels normal -n 200 --log full.jsonl   # kill it, run again: it resumes
    python bench/ai_arena.py --summary full.jsonl other.jsonl                      # the table, from the logs alone

The full run is long, so it accumulates over several sittings: `--log FILE.jsonl` appends one line per finished
game (table, subject level, opponents, seat, seed, budget, scores, winners, decision times, the code's git
commit) and skips the games already in it (same table, matchup, seed, seat, budget / iterations and, with the
rollout baseline, its settings), so a killed run picks up where it stopped and a longer one (`-n 200` after
`-n 40`) plays only the new games. Each match's line then sums up every logged game of it, old and new.
`--summary` prints that table from one or more logs without playing; games of several commits are summed
together and the line says how many commits they came from.

A table is `game:players[:options]` (options: `all` = every module / variant, or a comma list such as
`vizier,huts`). One seat holds the level measured (the *subject*); every other seat holds the opponent (`--vs`):
a baseline (`greedy`, `rollout`, `random`) or another AI level (head to head). The subject's seat rotates with
the game number (game i: seat i mod n), so each seat is measured equally. A shared win counts as a share
(two winners: half). The subject's fair share is 1/n; the targets: vs greedy, normal ≥ 1.3 ×
fair, hard ≥ 2 × fair (2-player: ≥ 80 %); hard beats normal ≥ 70 % head to head; normal beats easy ≥ 85 %.

Baselines see only `rules.view(state, seat)` and play through the contract (`legal_actions`, `step`, `scores`,
`to_move`, `is_over`, `winners`):
- greedy: the legal move after which its points minus the best opponent's are highest (`scores`; in Alhambra,
  where points come only at scoring rounds, plus what a scoring round held now would give, read with the
  engine's own scoring tables), ties broken by keeping the move (the player is still first to move afterwards:
  an extra action), then in Alhambra by the money left in hand (take the most, pay the least), then at random.
- rollout: flat Monte Carlo: every legal move (at most `--rollout-width` random ones) is tried in turn from a
  fresh re-deal of the hidden parts (`ai.adapter(game).determinise`: the view alone cannot draw cards) and played
  to the end by uniform random moves; the move with the best mean result (win share, then margin) is played.
  Its budget (`--rollout`) is seconds a move (a float) or playouts a move (an int).
- random: a uniformly random legal move.

Players who may act out of turn (Alhambra's vizier claimants) are asked first, once per position, as the bot asks
AI seats; baselines never claim. Decision times are only meaningful with at most one process per core.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import LEVELS, Budget, adapter, ai_player_id, choose  # noqa: E402
from engine import GAMES, get_rules  # noqa: E402

BASELINES = ("greedy", "rollout", "random")
MAX_MOVES = 4000  # actions; the longest real games are about 600
DEFAULT_TABLES = (
    "alhambra:2",
    "alhambra:3",
    "alhambra:4",
    "alhambra:6",
    "alhambra:4:all",
    "gardens:2",
    "gardens:3",
    "gardens:4",
    "gardens:2:three_tile_hand",
    "gardens:2:two_colours",
    "queens_garden:2",
    "queens_garden:3",
    "queens_garden:4",
)


def parse_table(text: str) -> tuple[str, int, dict[str, Any]]:
    """ "alhambra:4:all" -> ("alhambra", 4, every option on)."""
    parts = text.split(":")
    game = parts[0]
    rules = get_rules(game)
    n = int(parts[1]) if len(parts) > 1 else rules.player_counts[0]
    options: dict[str, Any] = {}
    if len(parts) > 2 and parts[2]:
        names = list(rules.options) if parts[2] == "all" else parts[2].split(",")
        if game == "gardens" and parts[2] == "all":
            names = ["two_colours"]  # its variants exclude each other in spirit; "all" picks one
        options = dict.fromkeys(names, True)
    return game, n, options


# --------------------------------------------------------------------------------------------- baselines


def _margin(scores: dict[str, Any], seat: str) -> float:
    others = [v for p, v in scores.items() if p != seat]
    return scores[seat] - (max(others) if others else 0)


def immediate(rules: Any, state: Any) -> dict[str, int]:
    """The points each player has now. In Alhambra, where points come only at the scoring rounds, "now" is the
    points plus what the next scoring round would give if it were held now (A43–A48: majorities by the round's
    table with Dirk in 2p, the longest outer wall), tiles still to be placed counted as built."""
    scores = rules.scores(state)
    if rules.name != "alhambra" or rules.is_over(state):
        return dict(scores)
    from engine.alhambra.components import POINTS, TYPE_OF, TYPES
    from engine.alhambra.geometry import longest_wall
    from engine.alhambra.scoring import majority_points

    done = {s.round for s in state.scorings}
    table = POINTS[min(r for r in (1, 2, 3) if r not in done)]
    counts = []
    for s in state.seats:
        c = dict.fromkeys(TYPES, 0)
        for t in (*s.alhambra.values(), *s.pending):
            if TYPE_OF.get(t) in c:
                c[TYPE_OF[t]] += 1
        counts.append(c)
    if state.two_player:
        counts.append({t: sum(1 for x in state.dirk if TYPE_OF[x] == t) for t in TYPES})
    out = {p: float(scores[p]) + longest_wall(s.alhambra) for p, s in zip(state.players, state.seats, strict=True)}
    for typ in TYPES:
        pts = majority_points([c[typ] for c in counts], table[typ])
        for p, v in zip(state.players, pts, strict=False):
            out[p] += v
    return out  # type: ignore[return-value]


def _money(rules: Any, state: Any, seat: str) -> int:
    """Alhambra: the money in the seat's hand (greedy's last tie-break: take the most, pay the least); else 0."""
    if rules.name != "alhambra":
        return 0
    from engine.alhambra.components import is_money, value_of

    return sum(value_of(c) for c in state.seat(seat).hand if is_money(c))


def greedy_move(rules: Any, state: Any, seat: str, rnd: random.Random) -> Any:
    """The legal move with the best immediate score margin (`immediate`); ties: an extra action first (the
    player is still first to move), then (Alhambra) the most money kept in hand, then at random."""
    view = rules.view(state, seat)
    actions = rules.legal_actions(state, seat)  # the view lists the same moves, but may lack what step needs
    if len(actions) == 1:
        return actions[0]
    best: tuple[float, int, int, float] | None = None
    choice = actions[0]
    for a in actions:
        try:
            after = rules.step(view, seat, a)
        except ValueError:  # the view cannot draw (no seed): judge the move on the full state's points only
            after = rules.step(state, seat, a)
        movers = rules.to_move(after)
        keeps = 1 if movers[:1] == [seat] else 0
        key = (_margin(immediate(rules, after), seat), keeps, _money(rules, after, seat), rnd.random())
        if best is None or key > best:
            best, choice = key, a
    return choice


def rollout_move(rules: Any, state: Any, seat: str, rnd: random.Random, budget: float | int, width: int) -> Any:
    """Flat Monte Carlo with uniformly random playouts from fresh re-deals of what the seat cannot see."""
    view = rules.view(state, seat)
    actions = rules.legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    if len(actions) > width:
        actions = rnd.sample(actions, width)
    deal = adapter(rules.name).determinise
    totals = [0.0] * len(actions)
    visits = [0] * len(actions)
    deadline = time.perf_counter() + budget if isinstance(budget, float) else math.inf
    limit = budget if isinstance(budget, int) else math.inf
    done = 0
    while done < limit and (done < len(actions) or time.perf_counter() < deadline):
        i = done % len(actions)
        s = rules.step(deal(rules, view, seat, rnd), seat, actions[i])
        while not rules.is_over(s):
            p = rules.to_move(s)[0]
            s = rules.step(s, p, rnd.choice(rules.legal_actions(s, p)))
        winners = rules.winners(s)
        share = 1.0 / len(winners) if seat in winners else 0.0
        totals[i] += share + 0.001 * _margin(rules.scores(s), seat)
        visits[i] += 1
        done += 1
    best = max(range(len(actions)), key=lambda j: (totals[j] / max(1, visits[j]), rnd.random()))
    return actions[best]


def baseline_move(kind: str, rules: Any, state: Any, seat: str, rnd: random.Random, args: dict[str, Any]) -> Any:
    if kind == "greedy":
        return greedy_move(rules, state, seat, rnd)
    if kind == "rollout":
        return rollout_move(rules, state, seat, rnd, args["rollout"], args["rollout_width"])
    return rnd.choice(rules.legal_actions(state, seat))


# --------------------------------------------------------------------------------------------- one game


def play_one(task: dict[str, Any]) -> dict[str, Any]:
    """One complete game: the subject level in seat `index mod n`, the opponent everywhere else."""
    game, n, options, index, seed = task["game"], task["n"], task["options"], task["index"], task["seed"]
    subject, opponent, budget = task["subject"], task["vs"], task["budget"]
    rules = get_rules(game)
    at = index % n
    players, kinds = [], {}
    for i in range(n):
        kind = subject if i == at else opponent
        pid = ai_player_id(kind, i + 1) if kind in LEVELS else f"{kind}:{i + 1}"
        players.append(pid)
        kinds[pid] = kind
    me = players[at]
    rnd = random.Random(seed * 7919 + 1)
    times: list[float] = []
    state = rules.new_game(players, options, seed)
    started = time.perf_counter()
    moves = 0
    declined: set[tuple[int, str]] = set()
    while not rules.is_over(state):
        if moves >= MAX_MOVES:  # a game nobody ends (e.g. nobody buys): counted as a loss, reported
            break
        movers = rules.to_move(state)
        claim = None
        for seat in movers[1:]:  # optional movers first (V7 order), once per position; baselines never claim
            if kinds[seat] not in LEVELS or (moves, seat) in declined:
                continue
            t = time.perf_counter()
            claim = choose(game, state, seat, kinds[seat], seed * 100_003 + moves + 50_000, budget, optional=True)
            if seat == me:
                times.append(time.perf_counter() - t)
            if claim is not None:
                state = rules.apply(state, seat, claim)
                moves += 1
                break
            declined.add((moves, seat))
        if claim is not None:
            continue
        player = movers[0]
        t = time.perf_counter()
        if kinds[player] in LEVELS:
            action = choose(game, state, player, kinds[player], seed * 100_003 + moves, budget)
        else:
            action = baseline_move(kinds[player], rules, state, player, rnd, task)
        if player == me:
            times.append(time.perf_counter() - t)
        state = rules.apply(state, player, action)
        moves += 1
    winners = rules.winners(state)
    scores = rules.scores(state)
    return {
        "stuck": not rules.is_over(state),
        "result": 1.0 / len(winners) if me in winners else 0.0,
        "seat": at,
        "seed": seed,
        "times": times,
        "margin": _margin(scores, me),
        "seconds": time.perf_counter() - started,
        "moves": moves,
        "players": players,
        "scores": {p: scores[p] for p in players},
        "winners": sorted(winners),
    }


# --------------------------------------------------------------------------------------------- figures


def wilson(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a rate of points/n (shared wins as fractions)."""
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
    return xs[min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))]


def budget_key(budget: Any) -> dict[str, Any] | None:
    """How long hard may think, as the log writes it: None (the AI's default) or iterations and seconds."""
    if budget is None:
        return None
    return {"iterations": budget.iterations, "seconds": budget.seconds}


def game_key(record: dict[str, Any]) -> str:
    """What makes two logged games the same game: table, matchup, seed, seat, budget (and rollout's settings when
    the rollout baseline plays)."""
    key = {k: record[k] for k in ("table", "subject", "vs", "seed", "seat", "budget")}
    if "rollout" in (record["subject"], record["vs"]):
        key |= {"rollout": record["rollout"], "rollout_width": record["rollout_width"]}
    return json.dumps(key, sort_keys=True)


def match_key(record: dict[str, Any]) -> tuple[str, str, str, str]:
    """The games one summary line adds up: the table, the matchup and the budget (and rollout's settings)."""
    extra = [record["budget"]]
    if "rollout" in (record["subject"], record["vs"]):
        extra += [record["rollout"], record["rollout_width"]]
    return record["table"], record["subject"], record["vs"], json.dumps(extra)


def code_commit() -> str:
    """The git commit of the code that plays (with "+dirty" if ai/, engine/ or bench/ differ from it)."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "ai", "engine", "bench"], cwd=root).returncode
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def read_log(paths: list[Path]) -> list[dict[str, Any]]:
    """Every game record of these logs (a missing file is empty; a half-written last line, from a killed run, is
    skipped)."""
    out = []
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return out


def summarise(records: list[dict[str, Any]], elapsed: float | None = None, logged: int = 0) -> dict[str, Any]:
    """One summary line from the records of one match (`logged` of them read from the log, not played now):
    prints it, returns the figures."""
    first = records[0]
    table, subject, vs = first["table"], first["subject"], first["vs"]
    n = len(first["players"])
    points = sum(r["result"] for r in records)
    games = len(records)
    lo, hi = wilson(points, games)
    times = [t for r in records for t in r["times"]]
    fair = 1 / n
    stuck = sum(1 for r in records if r["stuck"])
    mean_margin = statistics.mean(r["margin"] for r in records)
    commits = sorted({r.get("commit", "unknown") for r in records})
    notes = []
    if elapsed is not None:
        notes.append(f"{elapsed:.0f} s")
    if logged:
        notes.append(f"{logged} from the log")
    if stuck:
        notes.append(f"{stuck} stuck")
    if len(commits) > 1:
        notes.append(f"{len(commits)} commits")
    elif commits[0] != "unknown":
        notes.append(commits[0][:10] + ("+dirty" if commits[0].endswith("+dirty") else ""))
    budget = first.get("budget")
    label = ""
    if budget:
        label = " ".join(f"{k[0]}={v}" for k, v in budget.items() if v is not None)
    print(
        f"{table:<24} {subject:>6} vs {vs:<7} {round(points, 1):5g}/{games:<4} = {points / games:6.1%} "
        f"[{lo:5.1%}–{hi:5.1%}]  fair {fair:4.0%}  ×{points / games / fair:4.2f}  "
        f"margin {mean_margin:+6.1f}  "
        f"p95 {percentile(times, 0.95) * 1000:6.0f} ms  max {max(times, default=0) * 1000:6.0f} ms  "
        f"{label + '  ' if label else ''}({', '.join(notes)})",
        flush=True,
    )
    return {
        "table": table,
        "subject": subject,
        "vs": vs,
        "budget": budget,
        "games": games,
        "points": points,
        "rate": points / games,
        "wilson": [lo, hi],
        "fair": fair,
        "margin": mean_margin,
        "p95": percentile(times, 0.95),
        "max": max(times, default=0.0),
        "commits": commits,
    }


def run_match(
    table: str, subject: str, vs: str, args: argparse.Namespace, budget: Any, commit: str = "unknown"
) -> dict[str, Any]:
    """Play one match (`args.games` games, seats rotating); with `args.log`, only the games not logged yet, each
    appended as it finishes, and the line sums up every logged game of the match."""
    game, n, options = parse_table(table)
    base = {
        "game": game,
        "n": n,
        "options": options,
        "subject": subject,
        "vs": vs,
        "budget": budget,
        "rollout": args.rollout,
        "rollout_width": args.rollout_width,
    }
    head = {
        "table": table,
        "subject": subject,
        "vs": vs,
        "budget": budget_key(budget),
        "rollout": args.rollout,
        "rollout_width": args.rollout_width,
    }
    tasks = [{**base, "index": i, "seed": args.seed + i} for i in range(args.games)]
    logged: dict[str, dict[str, Any]] = {}
    if args.log:
        logged = {game_key(r): r for r in read_log([args.log])}
    mine = [logged[k] for t in tasks if (k := game_key({**head, "seed": t["seed"], "seat": t["index"] % n})) in logged]
    todo = [t for t in tasks if game_key({**head, "seed": t["seed"], "seat": t["index"] % n}) not in logged]
    started = time.perf_counter()
    records = []
    with open(args.log, "a") if args.log else contextlib.nullcontext() as log:
        if args.processes > 1 and len(todo) > 1:
            pool = multiprocessing.get_context("spawn").Pool(args.processes)
            results = pool.imap_unordered(play_one, todo)
        else:
            pool = None
            results = map(play_one, todo)
        try:
            for r in results:
                record = {
                    **head,
                    **r,
                    "times": [round(t, 4) for t in r["times"]],
                    "commit": commit,
                }
                records.append(record)
                if log is not None:
                    log.write(json.dumps(record, sort_keys=True) + "\n")
                    log.flush()
        finally:
            if pool is not None:
                pool.close()
                pool.join()
    elapsed = time.perf_counter() - started
    every = mine + records
    if not every:
        print(f"{table:<24} {subject:>6} vs {vs:<7} no games", flush=True)
        return {"table": table, "subject": subject, "vs": vs, "games": 0, "skipped": 0}
    row = summarise(every, elapsed, len(mine))
    row["skipped"] = len(mine)
    return row


def summary_of_logs(paths: list[Path]) -> list[dict[str, Any]]:
    """The table from logs alone (no game played): one line per table, matchup and budget."""
    groups: dict[tuple[str, str, str, str], dict[str, dict[str, Any]]] = {}
    for r in read_log(paths):
        groups.setdefault(match_key(r), {})[game_key(r)] = r  # the same game logged twice counts once
    return [summarise(list(groups[k].values())) for k in sorted(groups)]


def parse_rollout(text: str) -> float | int:
    return float(text) if "." in text else int(text)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("tables", nargs="*", default=list(DEFAULT_TABLES), help="game:players[:options] (default all)")
    parser.add_argument("--levels", default="easy,normal,hard", help="subject levels, comma-separated")
    parser.add_argument("--vs", default="greedy", help=f"opponents, comma-separated: {', '.join(BASELINES + LEVELS)}")
    parser.add_argument("-n", "--games", type=int, default=20, help="games per match (default 20)")
    parser.add_argument("--budget", type=float, default=None, help="seconds per hard decision (default: ai's)")
    parser.add_argument("--iterations", type=int, default=None, help="search iterations per hard decision")
    parser.add_argument(
        "--rollout", type=parse_rollout, default=0.2, help="rollout's budget: seconds (0.2) or playouts (50)"
    )
    parser.add_argument("--rollout-width", type=int, default=16, help="rollout tries at most this many moves")
    parser.add_argument("-p", "--processes", type=int, default=1, help="games played in parallel")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (game i uses seed + i)")
    parser.add_argument("--json", type=Path, default=None, help="also write the summary as JSON to this file")
    parser.add_argument("--log", type=Path, default=None, help="append each game to this JSONL file, skip logged ones")
    parser.add_argument(
        "--summary", type=Path, nargs="+", default=None, metavar="LOG", help="print the table of these logs, no play"
    )
    args = parser.parse_args(argv)
    if args.summary:
        rows = summary_of_logs(args.summary)
        if args.json:
            args.json.write_text(json.dumps(rows, indent=2))
        return rows
    budget = None
    if args.budget is not None or args.iterations is not None:
        budget = Budget(iterations=args.iterations, seconds=args.budget)
    summary = []
    commit = code_commit()
    for table in args.tables:
        if table.split(":")[0] not in GAMES:
            raise SystemExit(f"unknown game in {table!r} (games: {', '.join(GAMES)})")
        for vs in args.vs.split(","):
            for subject in args.levels.split(","):
                if subject != vs:
                    summary.append(run_match(table, subject, vs, args, budget, commit))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2))
    return summary


if __name__ == "__main__":
    main()
