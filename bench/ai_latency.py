"""How an AI seat thinking in one game affects the humans of another game, with the AI deciding in a thread of
the bot's process (AI_PROCESSES=0) or in a worker process (AI_PROCESSES=1).

    python bench/ai_latency.py               # 40 human moves per mode
    python bench/ai_latency.py -n 80 --game gardens
    python bench/ai_latency.py --game alhambra --decisions 100 process   # hard's decision p95 while serving

Game A keeps an AI "hard" seat thinking without pause (`AISeatsCog.decide`, the cog's own path, default time
budget ~1 s a decision, on positions from the opening to the end of one random game: the decision times, p95 and
max, are the issue's "while the bot serves other games"); game B, in another channel, is played by two humans
through the harness (real discord.py parsing, SQLite, rendering; only the network is fake). For each human move:
the ack (interaction arrival -> first response) and the post (arrival -> public move post); and the event loop's
lag (a 5 ms ticker's overshoot) over the whole run. Modes: no AI thinking (baseline), thread, process.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from tests.bot.driver import create_and_start, movers, play_one_action  # noqa: E402
from tests.bot.harness import OTHER_CHANNEL_ID, Harness, User  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def thinking_positions(game: str, every: int = 5) -> list[tuple[object, str]]:
    """Positions of `game` with an AI seat to move: every `every`-th position of one random game (fixed seed) from
    the 12th action on, so the decisions cover the opening, the middle and the end (the set-up before the search,
    ranking every legal move, differs a lot between them)."""
    rules = engine.get_rules(game)
    seats = ["ai:hard:1", "ai:hard:2"]
    state = rules.new_game(seats, {}, seed=7)
    rnd = random.Random(7)
    found: list[tuple[object, str]] = []
    n = 0
    while not rules.is_over(state):
        p = rules.to_move(state)[0]
        if n >= 12 and n % every == 0 and len(rules.legal_actions(state, p)) > 1:
            found.append((state, p))
        state = rules.apply(state, p, rnd.choice(rules.legal_actions(state, p)))
        n += 1
    return found


async def measure(mode: str, moves: int, game: str, decisions: int = 0) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"ack": [], "post": [], "lag": [], "decisions": []}
    with tempfile.TemporaryDirectory() as tmp:
        h = await Harness.start(Path(tmp) / "bench.sqlite3")
        cog = h.bot.get_cog("AISeatsCog")
        cog.processes = 1 if mode == "process" else 0
        cog.budget = None  # the bot's default: ~1 s of search a decision
        positions = thinking_positions(game)
        stop = asyncio.Event()

        async def think() -> None:  # game A: the AI thinks, decision after decision, position after position
            n = 0
            while not stop.is_set():
                state, seat = positions[n % len(positions)]
                t = time.perf_counter()
                await cog.decide(game, state, seat, n)
                out["decisions"].append(time.perf_counter() - t)
                n += 1

        async def tick() -> None:  # the event loop's responsiveness
            while not stop.is_set():
                t = time.perf_counter()
                await asyncio.sleep(0.005)
                out["lag"].append((time.perf_counter() - t - 0.005) * 1000)

        if mode == "process":
            await cog.decide(game, *positions[0], -1)  # the worker has started (once per bot run)
        users = [User(100000000000000001 + i, n) for i, n in enumerate(["Bo", "Cyd"])]
        by_id = {u.id: u for u in users}
        rnd = random.Random(1)
        post = await create_and_start(h, game, users, channel_id=OTHER_CHANNEL_ID)
        background = [asyncio.create_task(tick())]
        if mode != "none":
            background.append(asyncio.create_task(think()))
        await asyncio.sleep(0.3)
        while len(out["post"]) < moves or (mode != "none" and len(out["decisions"]) < decisions):
            if "Game over" in post.content:
                row = await h.bot.session.storage.last_game_in_channel(OTHER_CHANNEL_ID)
                await h.bot.session.storage.cancel_game(row.id)
                post = await create_and_start(h, game, users, channel_id=OTHER_CHANNEL_ID)
            user = by_id[rnd.choice(movers(post, users))]
            confirm = await play_one_action(h, user, post, rnd, page_chance=0)
            post = h.last_public(OTHER_CHANNEL_ID)
            out["ack"].append((confirm.responded_at - confirm.arrived) * 1000)
            out["post"].append((post.at - confirm.arrived) * 1000)
        stop.set()
        await asyncio.gather(*background)
        await h.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--moves", type=int, default=40)
    parser.add_argument("--game", default="gardens")
    parser.add_argument("--decisions", type=int, default=0, help="play on until the AI has made this many decisions")
    parser.add_argument("modes", nargs="*", default=["none", "thread", "process"])
    args = parser.parse_args()
    print(f"{'mode':<8} {'what':<6} {'n':>5} {'p50':>8} {'p95':>8} {'max':>8}  (ms)")
    for mode in args.modes:
        r = asyncio.run(measure(mode, args.moves, args.game, args.decisions))
        for what in ("ack", "post", "lag"):
            v = r[what]
            print(f"{mode:<8} {what:<6} {len(v):>5} {statistics.median(v):>8.1f} {pct(v, 95):>8.1f} {max(v):>8.1f}")
        if r["decisions"]:
            d = r["decisions"]
            print(
                f"{mode:<8} AI decisions: {len(d)}, median {statistics.median(d):.2f} s, p95 {pct(d, 95):.2f} s, "
                f"max {max(d):.2f} s"
            )


if __name__ == "__main__":
    main()
