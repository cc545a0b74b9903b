"""Capacity: the bot with 20,000 finished and 1,000 active games, under a ramp of moves per second.

    python bench/capacity.py build                 # once: the database and the planned moves (bench/.capacity/)
    python bench/capacity.py build --finished 500 --active 100   # a quick one
    python bench/capacity.py run                   # ramp 10..50 moves/s, 60 s each, bot started at the first
    python bench/capacity.py run --rates 50 --window 300 --database postgresql://...
    python bench/capacity.py parts                 # CPU per move, by part, bytes per move, database per game

`build` plays real games with the engines: a pool of finished games of every game and size (replicated, each
copy with its own ids, players, guild and channel) and 1,000 running games stopped part way, with the next
moves of each planned ahead (a random legal move, its /move suggestion value as the bot would list it), and
writes them through the storage interface (`import_game`, with every column the bot derives; players with
19-digit Discord ids). `run` starts the real bot as its own process (bench/capacity_bot.py: a fake Discord at
the network boundary, raw gateway payloads in, every server of the games announced at connect as Discord does) on
a copy of that database, sends `/move` interactions at each rate (each move in an active game chosen uniformly
among those with no move in flight: consecutive moves come from different games, so every board is drawn cold),
and prints per window: moves offered and posted, p50/p95/p99 from the interaction to its first answer and to the
public post, missed 3 s deadlines, the worst event-loop lag, its longest single step (with CAPACITY_LOOP=asyncio
only: the bot runs on uvloop as in production, whose steps cannot be timed from Python), the background passes'
durations, CPU per move of the bot process and of its drawing workers, and the bot's RSS;
plus its start-up time. The first window begins at the bot's start (its start-up passes run in it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from cogs._session import Session  # noqa: E402
from storage.base import GameRow, MoveRow, Seat, pack_moves, pack_state  # noqa: E402
from storage.sqlite import SQLiteStorage  # noqa: E402
from tests.bot.harness import User  # noqa: E402

CACHE = ROOT / "bench" / ".capacity"
ALL = {"vizier": True, "huts": True, "exchange": True, "bonus": True}
# (game, players, options, share of the games)
CONFIGS = [
    ("alhambra", 6, ALL, 0.15),
    ("alhambra", 4, {}, 0.15),
    ("alhambra", 3, {"vizier": True}, 0.1),
    ("alhambra", 2, {}, 0.05),
    ("gardens", 4, {}, 0.15),
    ("gardens", 2, {}, 0.1),
    ("queens_garden", 4, {}, 0.2),
    ("queens_garden", 2, {}, 0.1),
]
PLACEHOLDER = 7_700_000_000_000_000_000  # player ids in the pool games, replaced per copy
GUILDS = 300
USERS = 20_000
USER_IDS = 1_100_000_000_000_000_000  # Discord ids of 19 digits (every account since about 2022)
ACTIVE_IDS = 1_300_000_000_000_000_000
CHANNELS = 1_200_000_000_000_000_000
APP_ID = 900000000000000001


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


# --------------------------------------------------------------------------------------------- building


def play(game: str, players: int, options: dict, seed: int, stop: float | None = None):
    """A random game (stopped after the share `stop` of a typical length): (start, moves, state, seats)."""
    rules = engine.get_rules(game)
    seats = [str(PLACEHOLDER + i) for i in range(players)]
    state = rules.new_game(seats, options, seed)
    rnd = random.Random(seed)
    moves = []
    limit = None if stop is None else int(stop * {"alhambra": 60 * players, "gardens": 40, "queens_garden": 90}[game])
    while not rules.is_over(state) and (limit is None or len(moves) < limit):
        player = rnd.choice(rules.to_move(state))
        action = rnd.choice(rules.legal_actions(state, player))
        moves.append((player, action))
        state = rules.apply(state, player, action)
    return rules, moves, state, seats


def dumps(data) -> str:
    return json.dumps(data, separators=(",", ":"))


def build(finished: int, active: int, pool: int, seed: int) -> None:
    asyncio.run(_build(finished, active, pool, seed))


async def _build(finished: int, active: int, pool: int, seed: int) -> None:
    """The database, written through the storage interface (`import_game`: seats, archived move logs, every
    column the bot derives: the next reminder, the AI flag, the deadline), and the plan of the next moves."""
    CACHE.mkdir(parents=True, exist_ok=True)
    db_path = CACHE / "capacity.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    db = await SQLiteStorage.open(str(db_path), synchronous="NORMAL")
    rnd = random.Random(seed)
    t0 = time.perf_counter()
    pools = []  # finished games to copy: (game, options, seats, moves (player, action json), final state json, turns)
    for game, players, options, share in CONFIGS:
        for _ in range(max(1, int(pool * share))):
            rules, moves, state, seats = play(game, players, options, seed=1000 + len(pools))
            free = [rules.is_free_action(a) for _, a in moves]
            pools.append(
                (
                    game,
                    rules.normalise_options(options),
                    seats,
                    [(p, dumps(rules.action_to_json(a))) for p, a in moves],
                    dumps(rules.to_json(state)),
                    len(moves) - sum(free),
                )
            )
    print(f"pool of {len(pools)} finished games played in {time.perf_counter() - t0:.0f} s")
    game_id = 0
    now = time.time()
    users = [str(USER_IDS + i) for i in range(USERS)]

    def swap(text: str, seats, ids) -> str:
        for old, new in zip(seats, ids, strict=True):
            text = text.replace(old, new)
        return text

    def row(game_id: int, where: tuple[int, int], game: str, ids: list[str], when: float, **kw) -> GameRow:
        """The stored game `game_id` in (guild, channel) `where`, created and last moved at `when`."""
        unset = {"lobby_message_id": None, "reminded_at": None, "nudged_at": None}
        times = dict.fromkeys(("created_at", "updated_at", "turn_started_at"), when)
        return GameRow(
            id=game_id,
            guild_id=where[0],
            channel_id=where[1],
            game=game,
            seats=tuple(Seat(i, f"Player {i[-5:]}") for i in ids),
            creator_id=ids[0],
            reminder_hours=24.0,
            **unset,
            **times,
            **kw,
        )

    def log(game_id: int, moves, seats, ids, when: float) -> list[MoveRow]:
        return [
            MoveRow(game_id, i + 1, swap(p, seats, ids), json.loads(swap(a, seats, ids)), when)
            for i, (p, a) in enumerate(moves)
        ]

    for n in range(finished):
        game, options, seats, moves, final, turns = pools[n % len(pools)]
        game_id += 1
        ids = rnd.sample(users, len(seats))
        when = now - 86400 * 30 + n
        guild = (GUILDS + rnd.randrange(GUILDS)) << 22
        g = row(
            game_id,
            (guild, CHANNELS + game_id),
            game,
            ids,
            when,
            options=options,
            seed=0,
            status="finished",
            state_json=swap(final, seats, ids),
            version=len(moves),
            turns=turns,
        )
        await db.import_game(g, log(game_id, moves, seats, ids, when), [])
    print(f"{finished} finished games written in {time.perf_counter() - t0:.0f} s")
    plan = []
    for n in range(active):
        cfg = rnd.choices(CONFIGS, weights=[c[3] for c in CONFIGS])[0]
        game, players, options, _ = cfg
        rules, moves, state, seats = play(game, players, options, seed=50_000 + n, stop=rnd.uniform(0.2, 0.6))
        game_id += 1
        ids = [str(ACTIVE_IDS + 10 * n + i) for i in range(players)]
        start = dumps(rules.to_json(state))
        turns = sum(not rules.is_free_action(a) for _, a in moves)
        # the next moves, planned: what the bot's /move list would offer, and which one is picked
        ahead, s, t = [], state, turns
        prnd = random.Random(n)
        while len(ahead) < 40 and not rules.is_over(s):
            movers = rules.to_move(s)
            side = set(rules.out_of_turn(s))
            player = prnd.choice([p for p in movers if p not in side] or movers)
            legal = rules.legal_actions(s, player)
            i = prnd.choice([k for k, a in enumerate(legal) if not rules.is_private(a)])  # private: no post
            pos = f"{t}.{Session.fingerprint(game, legal)}"
            real = ids[seats.index(player)]
            ahead.append({"user": real, "value": f"{game_id}:{pos}:{i}"})
            t += 0 if rules.is_free_action(legal[i]) else 1
            s = rules.apply(s, player, legal[i])
        guild = (n % GUILDS + 1) << 22  # (a guild id is never 0)
        channel = CHANNELS + 10**15 + game_id
        began = now - 3600
        g = row(
            game_id,
            (guild, channel),
            game,
            ids,
            began,
            options=rules.normalise_options(options),
            seed=50_000 + n,
            status="active",
            state_json=swap(start, seats, ids),
            version=len(moves),
            turns=turns,
            # as the bot derives them: a fifth of the games with a reminder due at once, the others' a day after
            # the turn began; no AI seat, no deadline set at these tables
            remind_at=now - 60 if n % 5 == 0 else began + 24 * 3600,
            ai_due=False,
            deadline_at=None,
        )
        logged = [(p, dumps(rules.action_to_json(a))) for p, a in moves]
        await db.import_game(g, log(game_id, logged, seats, ids, began), [])
        plan.append({"game": game_id, "guild": guild, "channel": channel, "moves": ahead})
    await db.close()
    con = sqlite3.connect(db_path)
    con.execute("VACUUM")
    con.close()
    (CACHE / "plan.json").write_text(json.dumps(plan))
    size = db_path.stat().st_size
    print(
        f"built {finished} finished + {active} active games: {size / 2**20:.0f} MiB in {time.perf_counter() - t0:.0f} s"
    )


# --------------------------------------------------------------------------------------------- running


class Load:
    """Sends /move interactions to the bot process at a rate; reads what it reports."""

    def __init__(self, proc: asyncio.subprocess.Process, plan: list[dict]):
        self.proc, self.plan = proc, plan
        self.by_channel = {g["channel"]: g for g in plan}
        self.free = [g for g in plan if g["moves"]]  # games with a move to make and none in flight
        self.rnd = random.Random(1)
        self.waiting: dict[int, tuple[float, int]] = {}  # channel -> (sent at, interaction id)
        self.acks: dict[int, float] = {}
        self.sent_at: dict[int, float] = {}
        self.samples: list[tuple[float, float, float | None]] = []  # (sent, post latency, ack latency)
        self.events: list[dict] = []
        self.ready = asyncio.Event()
        self.next_id = 10**17

    async def read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            kind = ev.get("ev")
            if kind == "ack":
                sent = self.sent_at.pop(ev["id"], None)
                if sent is not None:
                    self.acks[ev["id"]] = ev["t"] - sent
            elif kind == "post" and not ev.get("note"):
                entry = self.waiting.pop(ev["channel"], None)
                if entry is not None:
                    sent, iid = entry
                    self.samples.append((sent, ev["t"] - sent, self.acks.pop(iid, None)))
                    game = self.by_channel[ev["channel"]]
                    if game["moves"]:
                        self.free.append(game)
            elif kind == "ready":
                self.ready.set()
                self.events.append(ev)
            else:
                self.events.append(ev)

    def payload(self, game: dict, move: dict) -> dict:
        self.next_id += 1
        iid = self.next_id
        member = User(int(move["user"]), f"P{move['user'][-4:]}", permissions=2147483648).member()
        return {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": 2,
            "token": f"tok{iid}",
            "version": 1,
            "guild_id": str(game["guild"]),
            "channel_id": str(game["channel"]),
            "channel": {
                "id": str(game["channel"]),
                "type": 0,
                "guild_id": str(game["guild"]),
                "name": "games",
                "position": 0,
                "permission_overwrites": [],
                "parent_id": None,
                "nsfw": False,
            },
            "member": member,
            "app_permissions": "309237763072",
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(game["guild"])},
            "context": 0,
            "attachment_size_limit": 26214400,
            "data": {
                "id": "1",
                "name": "move",
                "type": 1,
                "options": [{"name": "action", "type": 3, "value": move["value"]}],
            },
        }

    async def offer(self, rate: float, seconds: float) -> int:
        """Send moves at `rate` per second for `seconds`, each in a game chosen uniformly among the active games
        free to move (none of its moves in flight), so consecutive moves come from different games and every
        board is drawn cold, as under real load (skipping a beat when no game is free to move)."""
        assert self.proc.stdin is not None
        sent = 0
        start = time.monotonic()
        while (elapsed := time.monotonic() - start) < seconds:
            due = int(elapsed * rate) + 1
            while sent < due and self.free:
                k = self.rnd.randrange(len(self.free))
                self.free[k], self.free[-1] = self.free[-1], self.free[k]
                game = self.free.pop()
                move = game["moves"].pop(0)
                payload = self.payload(game, move)
                now = time.monotonic()
                self.sent_at[int(payload["id"])] = now
                self.waiting[game["channel"]] = (now, int(payload["id"]))
                self.proc.stdin.write((json.dumps(payload) + "\n").encode())
                sent += 1
            await self.proc.stdin.drain()
            await asyncio.sleep(max(0.0, (sent / rate) - (time.monotonic() - start)) or 0.001)
        return sent


async def run(args) -> None:
    plan = json.loads((CACHE / "plan.json").read_text())
    db = CACHE / "run.sqlite3"
    env = {**os.environ, "DISCORD_TOKEN": "fake", "LOG_LEVEL": "WARNING", "AI_PROCESSES": "1"}
    env["CAPACITY_PLAN"] = str(CACHE / "plan.json")  # the bot is told of every server at connect, as by Discord
    server = None
    if args.database == "postgres":  # a server of our own, loaded from the SQLite database with storage copy
        from tests.pgserver import start_server

        server = start_server(durable=True)
        url = server.create_database()
        t0 = time.monotonic()
        subprocess.run(
            [sys.executable, "-m", "storage", "copy", str(CACHE / "capacity.sqlite3"), url], check=True, cwd=ROOT
        )
        print(f"PostgreSQL loaded with storage copy in {time.monotonic() - t0:.0f} s")
        env["DATABASE_URL"] = url
    elif args.database.startswith("postgres"):
        env["DATABASE_URL"] = args.database
    else:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        shutil.copy(CACHE / "capacity.sqlite3", db)
        env["DATABASE_PATH"] = str(db)
    t0 = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bench" / "capacity_bot.py"),
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        cwd=ROOT,
        limit=2**24,
    )
    load = Load(proc, plan)
    reader = asyncio.create_task(load.read())
    await asyncio.wait_for(load.ready.wait(), 300)
    size = f"SQLite, {db.stat().st_size / 2**20:.0f} MiB" if "DATABASE_URL" not in env else "PostgreSQL"
    print(f"start-up: ready after {time.monotonic() - t0:.1f} s ({size})")
    print(
        f"{'rate/s':>7} {'sent':>6} {'posted':>7} {'ack p50':>8} {'p99':>6} {'post p50':>9} {'p95':>6} "
        f"{'p99':>6} {'max':>6} {'>3s':>4} {'lag max':>8}  passes (wall ms)"
    )
    for rate in args.rates:
        mark = time.monotonic()
        n_samples = len(load.samples)
        n_events = len(load.events)
        sent = await load.offer(rate, args.window)
        await asyncio.sleep(3)  # the last posts of the window
        window = load.samples[n_samples:]
        posts = [s[1] * 1000 for s in window]
        acks = [s[2] * 1000 for s in window if s[2] is not None]
        missed = sum(1 for s in window if s[2] is None or s[2] > 3) + (sent - len(window))
        events = load.events[n_events:]
        lags = [e for e in events if e["ev"] == "lag" and e["t"] >= mark]
        lag = max((e["max"] for e in lags), default=0) * 1000
        stall = max((e["step"] for e in lags), default=0) * 1000

        def stall_during(p: dict, lags: list[dict] = lags) -> float:  # the longest step around the pass
            around = [e["step"] for e in lags if p["t"] - p["wall"] - 1 <= e["t"] <= p["t"] + 1]
            return max(around, default=0) * 1000

        passes = ", ".join(
            f"{e['what']} {e['wall'] * 1000:.0f} ({stall_during(e):.0f})" for e in events if e["ev"] == "pass"
        )
        print(
            f"{rate:>7} {sent:>6} {len(window):>7} {pct(acks, 0.5):>8.1f} {pct(acks, 0.99):>6.1f} "
            f"{pct(posts, 0.5):>9.1f} {pct(posts, 0.95):>6.1f} {pct(posts, 0.99):>6.1f} {max(posts, default=0):>6.0f} "
            f"{missed:>4} {lag:>8.1f} {f'{stall:.1f}' if stall else '-':>6}  {passes or '-'}"
        )
        slow = sorted(window, key=lambda s: -s[1])[: max(1, len(window) // 100)]
        cpu = [e for e in events if e["ev"] == "cpu"]
        if len(cpu) >= 2 and window:
            moves = sum(1 for s in load.samples if cpu[0]["t"] <= s[0] + s[1] <= cpu[-1]["t"])
            moves = moves or len(window)
            bot = (cpu[-1]["bot"] - cpu[0]["bot"]) / moves * 1000
            workers = (cpu[-1]["workers"] - cpu[0]["workers"]) / moves * 1000
            in_loop = (cpu[-1].get("loop", 0) - cpu[0].get("loop", 0)) / moves * 1000
            span = cpu[-1]["t"] - cpu[0]["t"]
            print(
                f"{'':>7} CPU per move posted: bot process {bot:.1f} ms ({(cpu[-1]['bot'] - cpu[0]['bot']) / span:.0%} "
                f"of a core; its event loop's thread {in_loop:.1f} ms), its worker processes (drawing; AI idle) {workers:.1f} ms "
                f"({(cpu[-1]['workers'] - cpu[0]['workers']) / span:.0%}); {moves} moves posted in {span:.0f} s"
            )
        print(
            f"{'':>7} the slowest 1 % of posts, seconds into the window: "
            + ", ".join(f"{s[0] - mark:.1f}s ({s[1] * 1000:.0f} ms)" for s in sorted(slow)[:12])
        )
    refused = [e["text"] for e in load.events if e["ev"] == "refused"]
    if refused:
        print(f"{len(refused)} move(s) refused, e.g.: {refused[0]!r}")
    gcs = [e.get("gc", 0) for e in load.events if e["ev"] == "lag"]
    print(f"longest garbage collection: {max(gcs, default=0) * 1000:.0f} ms")
    rss = [e["kib"] for e in load.events if e["ev"] == "rss"]
    print(f"RSS of the bot: {rss[-1] / 1024:.0f} MiB at the end (peak {max(rss) / 1024:.0f} MiB)" if rss else "")
    proc.send_signal(15)
    await proc.wait()
    reader.cancel()
    if server is not None:
        server.stop()


# --------------------------------------------------------------------------------------------- parts


def parts() -> None:
    """CPU per move by part for a 6-player Alhambra with every module, and what a move writes."""
    import zlib  # noqa: F401

    from render import render_state

    rules = engine.get_rules("alhambra")
    times: dict[str, list[float]] = {k: [] for k in ("load", "apply", "encode state", "draw + png")}
    written, states = [], []
    rnd = random.Random(5)
    for g in range(3):
        players = [str(10**17 + i) for i in range(6)]
        state = rules.new_game(players, ALL, g)
        text = dumps(rules.to_json(state))
        while not rules.is_over(state):
            player = rnd.choice(rules.to_move(state))
            action = rnd.choice(rules.legal_actions(state, player))
            c = time.thread_time()
            state = rules.from_json(json.loads(text))
            times["load"].append(time.thread_time() - c)
            c = time.thread_time()
            state = rules.apply(state, player, action)
            times["apply"].append(time.thread_time() - c)
            c = time.thread_time()
            text = dumps(rules.to_json(state))
            times["encode state"].append(time.thread_time() - c)
            written.append(len(pack_state(text)) + len(dumps(rules.action_to_json(action))) + 300)
            states.append(text)
    from render import _draw

    last_game = states[-len(states) // 3 :]
    for text in last_game:  # each position after the one before, as the game's drawing worker sees them
        c = time.thread_time()
        render_state("alhambra", text, None, {})
        times["draw + png"].append(time.thread_time() - c)
    cold: list[float] = []
    for text in states[:: max(1, len(states) // 40)]:  # a worker that never drew this game
        _draw.PARTS.clear()
        c = time.thread_time()
        render_state("alhambra", text, None, {})
        cold.append(time.thread_time() - c)
    print("6-player Alhambra, all four modules: CPU per move by part (ms, median / p95)")
    total = 0.0
    for k, v in times.items():
        total += statistics.median(v) * 1000
        print(f"  {k:<14} {statistics.median(v) * 1000:6.2f} / {pct(v, 0.95) * 1000:6.2f}")
    print(f"  {'sum of medians':<14} {total:6.2f}   (+ the SQLite commit: bench/bot_latency.py 'commit')")
    print(f"  draw + png with a cold part cache: {statistics.median(cold) * 1000:6.2f} / {pct(cold, 0.95) * 1000:6.2f}")
    print(
        f"bytes written per move (deflated state + move + notice): median {statistics.median(written) / 1024:.1f} KiB, "
        f"max {max(written) / 1024:.1f} KiB"
    )


def database_per_game(n: int = 20) -> None:
    """The database size per finished 6-player Alhambra with every module, as the bot stores it: each game
    created, started and played move by move through `SQLiteStorage` (every state, real fractional timestamps,
    the origin of each click, the final move with its results and ratings, the move log archived in that
    transaction). Notices are left out (the outbox is emptied once posted). Also the size in the format of
    before (the move log as rows, only the final move keeping its origin), for comparison."""
    asyncio.run(_database_per_game(n))


async def _database_per_game(n: int) -> None:
    import tempfile

    from records.figures import RATER, finish_of
    from storage.base import Seat
    from storage.sqlite import SQLiteStorage

    class RowsOnly(SQLiteStorage):
        """The move log kept as rows at the end, as before the archive (the earlier moves' origins dropped)."""

        async def _archive(self, game_id, log) -> None:
            if log and log[-1].origin is not None:  # a finished game's log: as `forget_origins` did
                await self._db.execute(
                    "UPDATE moves SET origin = NULL WHERE game_id = ? AND move_number < ?",
                    (game_id, log[-1].move_number),
                )

    rules = engine.get_rules("alhambra")
    people = [
        Seat(str(rnd_id), f"Player {rnd_id % 1000}") for rnd_id in random.Random(7).sample(range(10**17, 10**18), 12)
    ]
    guild = 1_100_000_000_000_000_000
    games = []  # (seats, [(player, action json, state json)]) per game, played once for both formats
    for g in range(n):
        rnd = random.Random(g)
        seats = rnd.sample(people, 6)
        state = rules.new_game([s.id for s in seats], ALL, g)
        log = [("", {}, dumps(rules.to_json(state)))]
        while not rules.is_over(state):
            player = rnd.choice(rules.to_move(state))
            action = rnd.choice(rules.legal_actions(state, player))
            state = rules.apply(state, player, action)
            log.append((player, rules.action_to_json(action), dumps(rules.to_json(state))))
        games.append((seats, log, finish_of("alhambra", rules, state, [(s.id, s.name) for s in seats], {})))
    sizes = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind, cls in (("archived", SQLiteStorage), ("rows", RowsOnly)):
            path = Path(tmp) / f"{kind}.sqlite3"
            db = await cls.open(str(path), synchronous="NORMAL", rater=RATER)
            empty = 0
            now = time.time()
            try:
                for g, (seats, log, finish) in enumerate(games):
                    row = await db.create_game(
                        guild_id=guild, channel_id=guild + g, game="alhambra", options=ALL, seed=g, creator=seats[0],
                        now=now,
                    )  # fmt: skip
                    row = await db.update_lobby(row.id, seats=seats, now=now)
                    row = await db.start_game(row.id, seats=seats, state_json=log[0][2], now=now)
                    rnd = random.Random(g)
                    for k, (player, action, state_json) in enumerate(log[1:], start=1):
                        now += rnd.uniform(2, 300)
                        row = await db.commit_move(
                            row,
                            player=player,
                            action=action,
                            state_json=state_json,
                            finished=k == len(log) - 1,
                            origin=f"{row.turns}.{rnd.getrandbits(32):x}:{rnd.randrange(40)}",
                            now=now,
                            finish=finish if k == len(log) - 1 else None,
                        )
                    if g == 0:
                        await db._db.execute("VACUUM")
                        empty = path.stat().st_size
                await db._db.execute("VACUUM")
                if kind == "archived":
                    async with db._db.execute("SELECT avg(length(moves)) FROM move_archive") as cur:
                        blob = (await cur.fetchall())[0][0]
                    log = await db.moves(1)
                    c = time.thread_time()
                    for _i in range(20):
                        pack_moves(log)
                    pack_ms = (time.thread_time() - c) / 20 * 1000
            finally:
                await db.close()
            sizes[kind] = (path.stat().st_size - empty) / (n - 1) / 1024
    moves = sum(len(log) - 1 for _, log, _ in games) / n
    print(
        f"database per finished 6-player Alhambra with all modules: {sizes['archived']:.1f} KiB as the bot stores "
        f"it (move log archived; {sizes['rows']:.1f} KiB with the log as rows, as before), {n} games of "
        f"{moves:.0f} moves on average, real timestamps, results and ratings included; the archived log "
        f"{blob / 1024:.1f} KiB, packed in {pack_ms:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--finished", type=int, default=20_000)
    b.add_argument("--active", type=int, default=1_000)
    b.add_argument("--pool", type=int, default=200, help="distinct finished games to copy")
    b.add_argument("--seed", type=int, default=1)
    r = sub.add_parser("run")
    r.add_argument("--rates", type=lambda t: [float(x) for x in t.split(",")], default=[10, 20, 30, 40, 50])
    r.add_argument("--window", type=float, default=60)
    r.add_argument("--database", default="sqlite", help="sqlite, postgres (a server of its own) or a URL")
    sub.add_parser("parts")
    args = parser.parse_args()
    if args.command == "build":
        build(args.finished, args.active, args.pool, args.seed)
    elif args.command == "run":
        asyncio.run(run(args))
    else:
        parts()
        database_per_game()


if __name__ == "__main__":
    main()
