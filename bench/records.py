"""/leaderboard and /stats with 100,000 finished games in the database (the aim: p95 <= 100 ms).

    python bench/records.py                 # 100,000 games, 300 of each request
    python bench/records.py --games 20000 -n 100

The database is built quickly with direct inserts (SQLite, the bot's own schema): 100,000 finished games in 200
servers, one large server holding 40 % of them with 3,000 players, one of whom has played 5,000 games; 2–6 seats
a game (AI seats among them), three kinds of game; every seat's result and every player's rating. Then the real
bot answers through the test harness (tests/bot/harness.py: discord.py, our cogs, SQLite on disk, the image
worker process; only the network is fake), in the large server:

  - leaderboard: `/leaderboard` of a random game at a random page (one reply, the whole answer);
  - stats ack: `/stats` (a random player, the heavy one in a fifth of the requests, with or without a game): the
    first response (a deferral);
  - stats data: the storage reads /stats makes (summaries, latest games, standings, rating history);
  - stats: the whole /stats answer, the stats card drawn in the image worker included.

Prints p50/p95/max in milliseconds per request kind, and the database's size.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.records import player_stats  # noqa: E402
from records.ratings import Rating  # noqa: E402
from storage._rows import RESULT_COLUMNS  # noqa: E402
from storage.sqlite import SQLiteStorage  # noqa: E402
from tests.bot.harness import CHANNEL_ID, GUILD_ID, Harness, User  # noqa: E402

KINDS = [("alhambra", 0.5), ("gardens", 0.25), ("queens_garden", 0.25)]
FIGURES = {
    "alhambra": lambda r: {"longest_wall": r.randint(0, 20), "round_points": [r.randint(0, 30) for _ in range(3)]},
    "gardens": lambda r: {"buildings_won": r.randint(0, 16)},
    "queens_garden": lambda r: {
        "groups_of_six": r.randint(0, 3),
        "jokers_earned": r.randint(0, 9),
        "round_points": [r.randint(0, 20) for _ in range(4)],
    },
}
BIG_PLAYERS = 3000
HEAVY = str(10**17 + 1)  # the player with 5,000 games in the large server


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def build(path: str, games: int, seed: int = 1) -> None:
    """The bot's schema (migrated by the backend), then `games` finished games with their results and ratings."""
    asyncio.run(_migrate(path))
    rnd = random.Random(seed)
    con = sqlite3.connect(path)
    con.execute("PRAGMA synchronous=OFF")
    con.execute("PRAGMA journal_mode=WAL")
    guilds = [GUILD_ID] + [GUILD_ID + 1000 + n for n in range(199)]
    players = {g: [str(10**17 + n) for n in range(1, BIG_PLAYERS + 1)] if g == GUILD_ID else [] for g in guilds}
    for n, g in enumerate(guilds[1:]):
        players[g] = [str(2 * 10**17 + n * 1000 + k) for k in range(rnd.randint(20, 120))]
    kinds = [k for k, _w in KINDS]
    weights = [w for _k, w in KINDS]
    seq: dict[tuple[int, str], int] = {}
    ratings: dict[tuple[int, str, str], list] = {}
    game_rows, result_rows = [], []
    t = 1.7e9
    heavy_left = 5000
    for gid in range(1, games + 1):
        guild = GUILD_ID if rnd.random() < 0.4 else rnd.choice(guilds[1:])
        kind = rnd.choices(kinds, weights)[0]
        size = rnd.randint(2, 6)
        seats = rnd.sample(players[guild], size)
        if guild == GUILD_ID and heavy_left and HEAVY not in seats:
            seats[0] = HEAVY
            heavy_left -= 1
        if rnd.random() < 0.25:
            seats[-1] = f"ai:{rnd.choice(['easy', 'normal', 'hard'])}:{size}"
        t += rnd.uniform(5, 60)
        s = seq[(guild, kind)] = seq.get((guild, kind), 0) + 1
        scores = [rnd.randint(0, 150) for _ in seats]
        seat_json = json.dumps([{"id": p, "name": f"P{p[-4:]}"} for p in seats])
        game_rows.append((gid, guild, gid, kind, "{}", gid, "finished", seat_json, None, 200, seats[0], t - 86400, t))
        for i, (p, score) in enumerate(zip(seats, scores, strict=True)):
            place = 1 + sum(1 for x in scores if x > score)
            ai = p.split(":")[1] if p.startswith("ai:") else None
            rated = ai is None
            before = after = (None, None, None)
            if rated:
                r = ratings.setdefault((guild, kind, p), [25.0, 25.0 / 3, 0, f"P{p[-4:]}", t])
                before = (r[0], r[1], r[2])
                r[0] += rnd.uniform(-2, 2) + (1.0 if place == 1 else -0.3)
                r[1] = max(1.0, r[1] * 0.97)
                r[2] += 1
                r[4] = t
                after = (r[0], r[1], r[2])
            result_rows.append(
                (gid, guild, kind, t, s, i, p, f"P{p[-4:]}", score, place, ai, 0, 60, 0, int(rated), *before, *after)
                + (rnd.randint(10, 40), rnd.uniform(600, 200000), rnd.uniform(300, 100000))
                + (json.dumps(FIGURES[kind](rnd), separators=(",", ":")),)
            )
    con.executemany(
        "INSERT INTO games (id, guild_id, channel_id, game, options, seed, status, seats, state, version, creator_id, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        game_rows,
    )
    con.executemany(
        f"INSERT INTO results ({', '.join(RESULT_COLUMNS)}) VALUES ({', '.join('?' * len(RESULT_COLUMNS))})",
        result_rows,
    )
    con.executemany(
        "INSERT INTO ratings (guild_id, game, player, name, mu, sigma, shown, games, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(g, k, p, r[3], r[0], r[1], Rating(r[0], r[1], r[2]).shown, r[2], r[4]) for (g, k, p), r in ratings.items()],
    )
    con.commit()
    con.execute("ANALYZE")
    con.close()


async def _migrate(path: str) -> None:
    db = await SQLiteStorage.open(path)
    await db.close()


async def command(h: Harness, user: User, name: str, values: dict) -> tuple[float, float]:
    """(first response, whole answer) in ms."""
    payload, ia = h._base(user, 2, CHANNEL_ID)
    payload["data"] = h._command_data(name, values)
    await h.feed(payload, ia)
    return (ia.responded_at - ia.arrived) * 1000, (ia.done_at - ia.arrived) * 1000


async def measure(path: str, n: int, seed: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"leaderboard": [], "stats ack": [], "stats data": [], "stats": []}
    rnd = random.Random(seed)
    h = await Harness.start(path, render_processes=1)
    try:
        await h.bot.images.warm()  # (done by the bot's start already: the worker is ready)
        storage = h.bot.storage
        me = User(10**17 + 2, "Bench")
        for _ in range(n):
            kind = rnd.choice([k for k, _w in KINDS])
            out["leaderboard"].append(
                (await command(h, me, "leaderboard", {"game": kind, "page": rnd.randint(1, 60)}))[1]
            )
            who = HEAVY if rnd.random() < 0.2 else str(10**17 + rnd.randint(1, BIG_PLAYERS))
            values = {"user": who} | ({"game": kind} if rnd.random() < 0.5 else {})
            t0 = time.perf_counter()
            found = await player_stats(storage, GUILD_ID, who, values.get("game"))
            if found:
                await storage.rating_history(GUILD_ID, found[0][0].game, who)
            out["stats data"].append((time.perf_counter() - t0) * 1000)
            ack, done = await command(h, me, "stats", values)
            out["stats ack"].append(ack)
            out["stats"].append(done)
        assert h.fake.violations == [], h.fake.violations[:3]
    finally:
        await h.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("-n", type=int, default=300, help="requests of each kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=".") as tmp:  # on the project's disk, as the bot's database would be
        path = os.path.join(tmp, "records.sqlite3")
        t0 = time.perf_counter()
        build(path, args.games, args.seed)
        con = sqlite3.connect(path)
        counts = [con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("games", "results", "ratings")]
        heavy = con.execute("SELECT count(*) FROM results WHERE guild_id = ? AND player = ?", (GUILD_ID, HEAVY))
        heavy_games = heavy.fetchone()[0]
        con.close()
        size = os.path.getsize(path) / 2**20
        print(
            f"built in {time.perf_counter() - t0:.0f} s: {counts[0]} finished games, {counts[1]} results, "
            f"{counts[2]} ratings, {size:.0f} MiB; the heavy player has {heavy_games} games"
        )
        result = asyncio.run(measure(path, args.n, args.seed))
    print(f"{'request':<12} {'n':>5} {'p50':>7} {'p95':>7} {'max':>7}  (ms)")
    for what, v in result.items():
        print(f"{what:<12} {len(v):>5} {pct(v, 50):>7.1f} {pct(v, 95):>7.1f} {max(v):>7.1f}")


if __name__ == "__main__":
    main()
