"""The coach's cost (cogs/_coach.py, ai/coach.py): a review's CPU per move and per game, a hint's latency, and the
bot's event-loop stall while a review runs.

    python bench/review.py                  # a 6-player Alhambra with every module, the bot's budgets
    python bench/review.py --iterations 60 --hint 400 --stall-seconds 20

1. CPU: a 6-player Alhambra game with the Vizier's Favour, the huts, the exchange and the bonus cards is played
   to the end by easy AIs (a fixed seed); then every move is judged as a review job does (`coach.judge` at
   REVIEW_ITERATIONS), timed with the process's CPU clock: per move (median, p95, max) and the whole game.
2. Hint: `coach.analyse` at HINT_ITERATIONS on every 10th position of that game (CPU seconds: the wait a player
   sees, on an idle worker, but for the round trip).
3. Stall: a real bot (the network-boundary harness, one AI worker process) with that game stored as finished;
   a player clicks Review and, while the review runs in the worker in chunks, a 1 ms ticker measures the event
   loop: the CPU its thread spent between two ticks (the stall the bot causes itself) and the wall-clock
   overshoot (which a loaded machine inflates with other processes' time): for the first half of the run
   with the review alone, then with a `/game status` in another channel every half second (timed from arrival
   to answer). The worker has started before (once per bot run, as the AI seats' pool).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai  # noqa: E402
import engine  # noqa: E402
from ai import coach  # noqa: E402
from storage import GameRow, MoveRow, Seat  # noqa: E402
from tests.bot.harness import CHANNEL_ID, GUILD_ID, OTHER_CHANNEL_ID, Harness, User  # noqa: E402

GAME = "alhambra"
OPTIONS = {"vizier": True, "huts": True, "exchange": True, "bonus": True}
PLAYERS = [str(100000000000000001 + i) for i in range(6)]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def play(seed: int) -> tuple[list[Any], list[tuple[str, Any]]]:
    """A whole game by easy AIs: the state before each move, and the log (player, action)."""
    rules = engine.get_rules(GAME)
    state = rules.new_game(PLAYERS, OPTIONS, seed)
    states, log = [], []
    rnd = random.Random(seed)
    while not rules.is_over(state):
        p = rules.to_move(state)[0]
        a = ai.choose(GAME, state, p, "easy", rnd.getrandbits(32))
        states.append(state)
        log.append((p, a))
        state = rules.apply(state, p, a)
    return states, log


def cpu(states: list[Any], log: list[tuple[str, Any]], seed: int, iterations: int) -> list[float]:
    out = []
    for n, (state, (p, a)) in enumerate(zip(states, log, strict=True)):
        t = time.process_time()
        coach.judge(GAME, state, p, a, seed + n, iterations, number=n + 1)
        out.append(time.process_time() - t)
    return out


def hints(states: list[Any], log: list[tuple[str, Any]], iterations: int) -> list[float]:
    out = []
    for n in range(0, len(states), 10):
        t = time.process_time()
        coach.analyse(GAME, states[n], log[n][0], n, iterations)
        out.append(time.process_time() - t)
    return out


async def stall(log: list[tuple[str, Any]], seed: int, iterations: int, seconds: float) -> dict[str, Any]:
    """The bot with the game stored as finished; Review clicked; the loop's overshoot while the review runs."""
    rules = engine.get_rules(GAME)
    with tempfile.TemporaryDirectory() as tmp:
        h = await Harness.start(Path(tmp) / "bench.sqlite3", ai_processes=1, review_iterations=iterations)
        storage = h.bot.storage
        seats = [Seat(p, f"P{i + 1}") for i, p in enumerate(PLAYERS)]
        state = rules.new_game(PLAYERS, OPTIONS, seed)
        g = await storage.create_game(
            guild_id=GUILD_ID, channel_id=CHANNEL_ID, game=GAME, options=OPTIONS, seed=seed, creator=seats[0]
        )
        row: GameRow = await storage.start_game(g.id, seats=seats, state_json=json.dumps(rules.to_json(state)))
        for n, (p, a) in enumerate(log):
            state = rules.apply(state, p, a)
            row = await storage.commit_move(
                row,
                player=p,
                action=rules.action_to_json(a),
                state_json=json.dumps(rules.to_json(state)),
                finished=n == len(log) - 1,
            )
        assert row.status == "finished"
        moves: list[MoveRow] = await storage.moves(row.id)
        assert len(moves) == len(log)
        coach_ = h.bot.get_cog("CoachCog").coach
        lags: list[float] = []
        busy: list[float] = []  # the loop thread's CPU between two ticks (what other work on a loaded machine
        # cannot inflate: wall-clock overshoot also counts the time the OS gave the CPU to another process)
        acks: list[float] = []
        stop = asyncio.Event()

        async def tick() -> None:
            while not stop.is_set():
                t, c = time.perf_counter(), time.thread_time()
                await asyncio.sleep(0.001)
                lags.append((time.perf_counter() - t - 0.001) * 1000)
                busy.append((time.thread_time() - c) * 1000)

        await h.bot.get_cog("AISeatsCog").run(sum, [1])  # the worker process has started (once per bot run)
        ticker = asyncio.create_task(tick())
        await asyncio.sleep(0.2)
        lags.clear()
        busy.clear()
        began = time.perf_counter()
        await coach_.review(row)  # what the Review button does first: begin, and run in the background
        await asyncio.sleep(seconds / 2)  # the first half: the review alone
        alone, alone_busy = list(lags), list(busy)
        asker = User(100000000000000011, "Zed")
        while time.perf_counter() - began < seconds and coach_.running(row.id) is not None:
            await asyncio.sleep(0.5)  # the second half: a player's /game status now and then
            payload, ia = h._base(asker, 2, OTHER_CHANNEL_ID)  # noqa: SLF001 (the harness's own builder)
            payload["data"] = h._command_data("game status", {})  # noqa: SLF001
            h.send(payload, ia)
            while ia.responded_at is None:
                await asyncio.sleep(0.001)
            acks.append((ia.responded_at - ia.arrived) * 1000)
        judged = coach_.judged
        elapsed = time.perf_counter() - began
        stop.set()
        await ticker
        await h.close()
    return {
        "lags": alone,
        "all": lags,
        "busy": alone_busy,
        "all_busy": busy,
        "acks": acks,
        "judged": judged,
        "elapsed": elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=60, help="REVIEW_ITERATIONS (the bot's default: 60)")
    parser.add_argument("--hint", type=int, default=250, help="HINT_ITERATIONS (the bot's default: 250)")
    parser.add_argument("--skip-cpu", action="store_true", help="only the hint and the stall")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--stall-seconds", type=float, default=20.0)
    args = parser.parse_args()
    states, log = play(args.seed)
    print(f"{GAME}, 6 players, {', '.join(OPTIONS)}: {len(log)} moves")
    per = [] if args.skip_cpu else cpu(states, log, args.seed, args.iterations)
    if per:
        print(
            f"review CPU per move at {args.iterations} iterations: median {statistics.median(per) * 1000:.0f} ms, "
            f"p95 {pct(per, 95) * 1000:.0f} ms, max {max(per) * 1000:.0f} ms; whole game {sum(per):.1f} s"
        )
    hs = hints(states, log, args.hint)
    print(
        f"hint CPU at {args.hint} iterations ({len(hs)} positions): median {statistics.median(hs):.2f} s, "
        f"p95 {pct(hs, 95):.2f} s, max {max(hs):.2f} s"
    )
    r = asyncio.run(stall([(p, a) for p, a in log], args.seed, args.iterations, args.stall_seconds))
    print(f"{r['elapsed']:.1f} s, {r['judged']} moves judged in the worker")
    for what, lags, busy in (
        ("the review alone", r["lags"], r["busy"]),
        ("with /game status", r["all"], r["all_busy"]),
    ):
        print(
            f"event loop, {what}: the loop thread's CPU between two 1 ms ticks median {statistics.median(busy):.2f} "
            f"ms, p99 {pct(busy, 99):.2f} ms, max {max(busy):.2f} ms; wall-clock overshoot median "
            f"{statistics.median(lags):.2f} ms, p99 {pct(lags, 99):.2f} ms, max {max(lags):.2f} ms"
        )
    if r["acks"]:
        acks = r["acks"]
        print(f"/game status meanwhile ({len(acks)}): median {statistics.median(acks):.1f} ms, max {max(acks):.1f} ms")


if __name__ == "__main__":
    main()
