"""Latency of the Discord layer, measured through the test harness (tests/bot/harness.py): real discord.py
parsing, our cogs, SQLite on disk and the real renderer; only the network is fake.

    python bench/bot_latency.py                  # every game, 150 moves each
    python bench/bot_latency.py alhambra -n 400  # one game, more moves
    python bench/bot_latency.py alhambra -p 6    # the largest table
    python bench/bot_latency.py --sync NORMAL     # SQLite's synchronous mode (default: FULL and NORMAL, side by side)
    python bench/bot_latency.py --lang en,de      # players and server in each language, one after the other

For each move confirmed in the ephemeral panel it records the time from the interaction's arrival to
  - ack:  the bot's first response (the panel is deferred at once: Discord's 3-second rule),
  - post: the public move post sent (engine apply + one SQLite transaction + board rendering + upload),
  - commit: the move's transaction alone (its cost is what DATABASE_SYNC=FULL vs NORMAL changes),
and the time to open the panel ("Play my turn" -> panel shown). Prints p50/p95/max in milliseconds.
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

from i18n import DISCORD_LOCALES, words  # noqa: E402
from tests.bot.driver import create_and_start, movers, play_one_action  # noqa: E402
from tests.bot.harness import Harness, User  # noqa: E402


class Speaking(Harness):
    """Players and server in one language (its first Discord locale); the driver reads its labels."""

    LANG = "en"

    @property
    def words(self):
        return words(self.LANG)

    def _base(self, user, kind, channel_id):
        payload, ia = super()._base(user, kind, channel_id)
        payload["locale"] = payload["guild_locale"] = DISCORD_LOCALES[self.LANG][0]
        return payload, ia

    def guild_payload(self):
        return {**super().guild_payload(), "preferred_locale": DISCORD_LOCALES[self.LANG][0]}


PLAYERS = {"alhambra": 3, "gardens": 2, "queens_garden": 4}
NAMES = ["Ana", "Bo", "Cyd", "Dee", "Eve", "Fay"]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def measure(
    game: str, moves: int, seed: int, players: int, sync: str, lang: str = "en"
) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"ack": [], "post": [], "panel": [], "commit": []}
    with tempfile.TemporaryDirectory(dir=".") as tmp:  # on the project's disk, as the bot's database would be
        Speaking.LANG = lang
        h = await Speaking.start(Path(tmp) / "bench.sqlite3", database_sync=sync)
        storage = h.bot.storage
        real_commit = storage.commit_move

        async def timed_commit(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return await real_commit(*args, **kwargs)
            finally:
                out["commit"].append((time.perf_counter() - t0) * 1000)

        storage.commit_move = timed_commit
        users = [User(100000000000000001 + i, NAMES[i]) for i in range(players)]
        by_id = {u.id: u for u in users}
        rnd = random.Random(seed)
        post = await create_and_start(h, game, users)
        while len(out["post"]) < moves:
            row = await h.bot.session.storage.last_game_in_channel(post.channel_id)
            if row.status != "active":  # the game is over: start another and keep measuring
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
    parser.add_argument(
        "--sync",
        choices=["FULL", "NORMAL"],
        action="append",
        help="SQLite synchronous mode(s) to measure (default: both)",
    )
    parser.add_argument("--lang", default="en", help="languages to measure, comma-separated (e.g. en,de)")
    args = parser.parse_args()
    print(
        f"{'game':<14} {'players':>7} {'sync':>6} {'lang':>4} {'moves':>6}   {'what':<6} {'p50':>7} {'p95':>7} "
        f"{'max':>7}  (ms)"
    )
    for game in args.games:
        players = args.players or PLAYERS.get(game, 2)
        for sync in args.sync or ["FULL", "NORMAL"]:
            medians: dict[str, dict[str, float]] = {}
            for lang in args.lang.split(","):
                result = asyncio.run(measure(game, args.moves, args.seed, players, sync, lang))
                medians[lang] = {what: statistics.median(v) for what, v in result.items()}
                for what in ("panel", "ack", "commit", "post"):
                    v = result[what]
                    print(
                        f"{game:<14} {players:>7} {sync:>6} {lang:>4} {len(v):>6}   {what:<6} "
                        f"{statistics.median(v):>7.1f} {pct(v, 95):>7.1f} {max(v):>7.1f}"
                    )
            first, *others = medians
            for lang in others:
                shares = ", ".join(
                    f"{what} {100 * medians[lang][what] / medians[first][what]:.0f} %" for what in ("panel", "post")
                )
                print(f"{'':<14} {lang} against {first}, medians: {shares}")


if __name__ == "__main__":
    main()
