"""Latency of the Discord layer, measured through the test harness (tests/bot/harness.py): real discord.py
parsing, our cogs, SQLite on disk and the real renderer; only the network is fake.

    python bench/bot_latency.py                  # every game, 150 moves each
    python bench/bot_latency.py alhambra -n 400  # one game, more moves
    python bench/bot_latency.py alhambra -p 6    # the largest table

For each move confirmed in the ephemeral panel it records the time from the interaction's arrival to
  - ack:  the bot's first response (the panel is deferred at once: Discord's 3-second rule),
  - post: the public move post sent (engine apply + one SQLite transaction + board rendering + upload),
and the time to open the panel ("Play my turn" -> panel shown). Prints p50/p95/max in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.bot.driver import create_and_start, movers, play_one_action  # noqa: E402
from tests.bot.harness import Harness, User  # noqa: E402

PLAYERS = {"alhambra": 3, "gardens": 2, "queens_garden": 4}
NAMES = ["Ana", "Bo", "Cyd", "Dee", "Eve", "Fay"]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def measure(game: str, moves: int, seed: int, players: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"ack": [], "post": [], "panel": []}
    with tempfile.TemporaryDirectory() as tmp:
        h = await Harness.start(Path(tmp) / "bench.sqlite3")
        users = [User(100000000000000001 + i, NAMES[i]) for i in range(players)]
        by_id = {u.id: u for u in users}
        rnd = random.Random(seed)
        post = await create_and_start(h, game, users)
        while len(out["post"]) < moves:
            if "Game over" in post.content:  # start another game and keep measuring
                row = await h.bot.session.storage.last_game_in_channel(post.channel_id)
                await h.bot.session.storage.cancel_game(row.id)
                post = await create_and_start(h, game, users)
            user = by_id[rnd.choice(movers(post, users))]
            before = len(h.fake.interactions)
            confirm = await play_one_action(h, user, post, rnd, page_chance=0)
            opened = list(h.fake.interactions.values())[before]
            out["panel"].append((opened.responded_at - opened.arrived) * 1000)
            post = h.last_public(post.channel_id)
            out["ack"].append((confirm.responded_at - confirm.arrived) * 1000)
            out["post"].append((post.at - confirm.arrived) * 1000)
        await h.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(PLAYERS))
    parser.add_argument("-n", "--moves", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-p", "--players", type=int, help="players per game (default: 3, 2 and 4)")
    args = parser.parse_args()
    print(f"{'game':<14} {'players':>7} {'moves':>6}   {'what':<6} {'p50':>7} {'p95':>7} {'max':>7}  (ms)")
    for game in args.games:
        players = args.players or PLAYERS.get(game, 2)
        result = asyncio.run(measure(game, args.moves, args.seed, players))
        for what in ("panel", "ack", "post"):
            v = result[what]
            print(f"{game:<14} {players:>7} {len(v):>6}   {what:<6} {statistics.median(v):>7.1f} "
                  f"{pct(v, 95):>7.1f} {max(v):>7.1f}")


if __name__ == "__main__":
    main()
