"""The PostgreSQL backend itself, on a real server (tests/pgserver.py): what several processes sharing one database
need (racing commits apply once, racing reminder claims claim once, leases and open games exclusive, each
"process" with its own connection pool), its migrations, its query plans with realistic statistics, and
`python -m storage copy` between SQLite and PostgreSQL with real games played through the engines."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

import engine
from records.figures import RATER, Finish, SeatFinish
from storage import (
    NOT_DUE,
    ChannelBusy,
    Due,
    Guild,
    Player,
    QueueEntry,
    Review,
    Seat,
    Shards,
    StaleVersion,
    StorageError,
    open_storage,
)
from storage import postgres as backend
from storage.__main__ import CopyError, copy, main
from storage._rows import TABLES
from storage.postgres import PostgresStorage
from storage.sqlite import SQLiteStorage

ROOT = Path(__file__).resolve().parents[2]
ANA, BO = Seat("1", "Ana"), Seat("2", "Bo")
DEE = Seat("1234567890123456789", "Dee")  # a Discord id of 19 digits
GUILD = 9 << 22  # on shard 1 of 2


@pytest.fixture
async def two(pg_url):
    """Two bot processes on one database: each its own pool."""
    a, b = await PostgresStorage.open(pg_url), await PostgresStorage.open(pg_url)
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


async def started(db, channel, *, due=NOT_DUE, guild=GUILD, now=None):
    g = await db.create_game(guild_id=guild, channel_id=channel, game="fake", options={}, seed=5, creator=ANA)
    return await db.start_game(g.id, seats=[ANA, BO], state_json='{"s":0}', due=due, now=now)


async def commit(db, row, n, **kwargs):
    try:
        return await db.commit_move(
            row,
            player="1",
            action={"n": n},
            state_json=f'{{"s":{n}}}',
            finished=False,
            notice=("move", {"n": n}),
            **kwargs,
        )
    except StaleVersion:
        return None


# -- several processes -------------------------------------------------------------------------------------


async def test_racing_commits_from_two_processes_apply_once(two):
    """The same move sent by both processes (and retried in each) at the same version: one applies, with one
    move row and one notice; the others are StaleVersion and write nothing."""
    a, b = two
    games = [await started(a, channel) for channel in range(1, 21)]
    results = await asyncio.gather(*[commit(db, g, i) for g in games for i, db in enumerate([a, b, a, b, a, b])])
    for k, g in enumerate(games):
        won = [r for r in results[6 * k : 6 * k + 6] if r is not None]
        assert len(won) == 1, g.id
        assert await b.load_game(g.id) == won[0]
        assert [m.action for m in await a.moves(g.id)] == [{"n": won[0].state["s"]}]
        assert [n.payload for n in await b.pending_notices(g.id)] == [{"n": won[0].state["s"]}]


async def test_two_processes_playing_one_game_never_lose_or_repeat_a_move(two):
    """Each process keeps reloading the game and committing on it: every success is one more move, numbered
    without gap, and the stored state is the last move's."""
    a, b = two
    g = await started(a, 1)
    wins = []

    async def player(db, tag):
        for i in range(40):
            row = await db.load_game(g.id)
            done = await commit(db, row, i * 10 + tag)
            if done is not None:
                wins.append(done.version)

    await asyncio.gather(player(a, 1), player(b, 2), player(a, 3), player(b, 4))
    final = await a.load_game(g.id)
    moves = await b.moves(g.id)
    assert sorted(wins) == list(range(1, final.version + 1)) == [m.move_number for m in moves]
    assert final.state == {"s": moves[-1].action["n"]} and len(await a.pending_notices(g.id)) == final.version


async def test_racing_reminder_claims_claim_each_game_once(two):
    """Both processes claim (in small batches, several passes at once) until nothing is due: every game is
    claimed exactly once, with exactly one reminder notice."""
    a, b = two
    games = [await started(a, channel, due=Due(remind_at=1000.0 + channel)) for channel in range(1, 61)]
    claimed: list[int] = []

    async def claimer(db):
        while batch := await db.claim_reminders(5000.0, limit=7):
            claimed.extend(batch)

    await asyncio.gather(*[claimer(db) for db in (a, b, a, b)])
    assert sorted(claimed) == sorted(g.id for g in games)  # each once, none missed
    for g in games:
        assert [n.kind for n in await b.pending_notices(g.id)] == ["reminder"]


async def test_leases_are_exclusive_across_processes(two):
    a, b = two
    ids = range(1, 51)
    results = await asyncio.gather(*[db.lease(i, name, 60, now=0.0) for i in ids for db, name in ((a, "a"), (b, "b"))])
    owners = ["a" if results[2 * k] else "b" for k in range(len(ids))]
    assert all(results[2 * k] != results[2 * k + 1] for k in range(len(ids)))  # exactly one holder per game
    for i, owner in zip(ids, owners, strict=True):
        other = "b" if owner == "a" else "a"
        assert await a.lease(i, owner, 60, now=30.0)  # renewed by its holder
        assert not await b.lease(i, other, 60, now=80.0)  # held until 90
    both = await asyncio.gather(a.lease(1, "a", 60, now=100.0), b.lease(1, "b", 60, now=100.0))
    assert sorted(both) == [False, True]  # expired: exactly one of the two takes it over


async def test_racing_creates_in_one_channel_leave_one_game(two):
    a, b = two

    async def create(db, channel):
        try:
            return await db.create_game(
                guild_id=GUILD, channel_id=channel, game="fake", options={}, seed=1, creator=ANA
            )
        except ChannelBusy:
            return None

    results = await asyncio.gather(*[create(db, c) for c in range(1, 21) for db in (a, b, a)])
    for c in range(20):
        assert len([r for r in results[3 * c : 3 * c + 3] if r is not None]) == 1


async def test_games_without_a_guild_belong_to_every_shard(pg_url):
    """`Shards.owns(None)`: a game outside any guild (a DM) is background work of every shard."""
    db = await PostgresStorage.open(pg_url)
    try:
        g = await started(db, 1, guild=None, due=Due(remind_at=10.0, ai=True))
        await db.commit_move(
            g, player="1", action={}, state_json="{}", finished=False, notice=("move", {}), due=Due(10.0, True)
        )
        for shards in (Shards(2, (0,)), Shards(2, (1,))):
            assert await db.ai_due(shards=shards) == [g.id]
            assert await db.games_with_notices(shards=shards) == [g.id]
        assert await db.claim_reminders(20.0, shards=Shards(2, (1,))) == [g.id]
    finally:
        await db.close()


# -- migrations ----------------------------------------------------------------------------------------------


async def test_migrations_run_on_open_once_and_keep_the_games(pg_url):
    db = await PostgresStorage.open(pg_url)
    assert await db.schema_version() == backend.SCHEMA_VERSION
    g = await started(db, 1)
    await db.close()
    again = await asyncio.gather(*[PostgresStorage.open(pg_url) for _ in range(4)])  # processes starting together
    try:
        assert [await s.schema_version() for s in again] == [backend.SCHEMA_VERSION] * 4
        assert await again[0].load_game(g.id) == g
    finally:
        for s in again:
            await s.close()


async def test_processes_starting_together_on_an_empty_database_migrate_once(pg_url):
    dbs = await asyncio.gather(*[PostgresStorage.open(pg_url) for _ in range(4)])
    try:
        conn = await asyncpg.connect(pg_url)
        assert await conn.fetch("SELECT version FROM schema_version") == [(backend.SCHEMA_VERSION,)]
        await conn.close()
    finally:
        for s in dbs:
            await s.close()


async def test_a_new_migration_is_applied_forward_on_open(pg_url, monkeypatch):
    db = await PostgresStorage.open(pg_url)
    g = await started(db, 1)
    await db.close()
    monkeypatch.setattr(
        backend, "MIGRATIONS", (*backend.MIGRATIONS, "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT 'x'")
    )
    db = await PostgresStorage.open(pg_url)
    try:
        assert await db.schema_version() == backend.SCHEMA_VERSION + 1
        assert await db.load_game(g.id) == g
        conn = await asyncpg.connect(pg_url)
        assert await conn.fetchval("SELECT note FROM games WHERE id = $1", g.id) == "x"
        await conn.close()
    finally:
        await db.close()


async def test_a_newer_schema_is_refused_and_the_pool_closed(pg_url):
    await (await PostgresStorage.open(pg_url)).close()
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("UPDATE schema_version SET version = $1", backend.SCHEMA_VERSION + 1)
        with pytest.raises(StorageError, match="newer than this bot knows"):
            await PostgresStorage.open(pg_url)
        left = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'board-game-bot' AND datname = current_database()"
        )
        assert left == 0
    finally:
        await conn.close()


# -- the rest of the backend --------------------------------------------------------------------------------


async def test_open_storage_chooses_the_backend_by_url(pg_url, tmp_path):
    for url in (pg_url, pg_url.replace("postgresql://", "postgres://", 1)):
        db = await open_storage(url)
        assert isinstance(db, PostgresStorage) and db.shared
        await db.close()
    db = await open_storage(str(tmp_path / "g.sqlite3"))
    assert isinstance(db, SQLiteStorage) and not db.shared
    await db.close()


def test_sqlite_users_never_load_asyncpg(tmp_path):
    code = (
        "import asyncio, sys\nfrom storage import open_storage\n"
        f"async def go():\n    db = await open_storage({str(tmp_path / 'g.sqlite3')!r})\n    await db.close()\n"
        "asyncio.run(go())\nprint('asyncpg' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "False"


async def test_an_unreachable_server_is_a_storage_error_without_the_password(tmp_path):
    with pytest.raises(StorageError, match="Cannot connect") as info:
        await open_storage(f"postgresql://bot:hunter2@/games?host={tmp_path}&port=5999")
    assert "hunter2" not in str(info.value) and "bot:***@" in str(info.value)


async def test_backups_are_pg_dumps_job(db_pg):
    with pytest.raises(StorageError, match="pg_dump"):
        await db_pg.backup("/tmp/x")


async def test_ids_beyond_bigint_name_no_game_anywhere(db_pg):
    for bad in (2**63, 2**70, -(2**70)):
        assert await db_pg.load_game(bad) is None
        assert await db_pg.moves(bad) == [] and await db_pg.pending_notices(bad) == []
        assert await db_pg.move_by_origin(bad, "1", "o") is None


async def test_synchronous_normal_turns_off_synchronous_commit_for_its_pool_only(pg_url):
    fast = await PostgresStorage.open(pg_url, synchronous="NORMAL")
    full = await PostgresStorage.open(pg_url)
    try:
        assert await fast._pool.fetchval("SHOW synchronous_commit") == "off"
        plain = await asyncpg.connect(pg_url)  # FULL keeps the server's own setting (off on the test server)
        assert await full._pool.fetchval("SHOW synchronous_commit") == await plain.fetchval("SHOW synchronous_commit")
        await plain.close()
    finally:
        await fast.close()
        await full.close()
    with pytest.raises(StorageError, match="synchronous must be"):
        await PostgresStorage.open(pg_url, synchronous="FAST")


async def test_imported_games_keep_their_ids_and_new_games_come_after(db_pg, tmp_path):
    """import_game moves the id sequence past the imported ids (even when imports run at once) and keeps the
    running game's next reminder and AI flag as the source had them."""
    other = await SQLiteStorage.open(str(tmp_path / "o.sqlite3"))
    try:
        rows = []
        for channel in range(1, 31):
            g = await other.create_game(
                guild_id=GUILD, channel_id=channel, game="fake", options={}, seed=1, creator=ANA
            )
            due = Due(remind_at=100.0 + 24 * 3600, ai=channel % 2 == 0)
            await other.start_game(g.id, seats=[ANA, Seat("ai:easy:1", "AI")], state_json="{}", due=due, now=100.0)
            rows.append(await other.load_game(g.id))
        await asyncio.gather(*[db_pg.import_game(r, [], []) for r in reversed(rows)])
    finally:
        await other.close()
    new = await db_pg.create_game(guild_id=GUILD, channel_id=99, game="fake", options={}, seed=1, creator=ANA)
    assert new.id == 31
    assert await db_pg.ai_due() == [r.id for r in rows if r.ai_due] == list(range(2, 31, 2))
    assert sorted(await db_pg.claim_reminders(100.0 + 24 * 3600)) == [r.id for r in rows]
    with pytest.raises(StorageError, match="Cannot import game 1"):
        await db_pg.import_game(rows[0], [], [])


@pytest.fixture
async def db_pg(pg_url):
    s = await PostgresStorage.open(pg_url)
    yield s
    await s.close()


# -- query plans --------------------------------------------------------------------------------------------

FILL = """
INSERT INTO games (id, guild_id, channel_id, game, options, seed, status, seats, state, version, turns, creator_id,
    reminder_hours, created_at, updated_at, turn_started_at)
SELECT i, (i % 50) + 1, CASE WHEN i % 100 < 97 THEN (i % 700) + 1 ELSE 100000 + i END, 'fake', '{}', i,
    CASE WHEN i % 100 < 90 THEN 'finished' WHEN i % 100 < 97 THEN 'cancelled' ELSE 'active' END,
    '[]', '{}', 30, 30, (i % 300)::text, 24, 9e8 + i, 9e8 + i, 9e8 + i
FROM generate_series(1, 4000) i;
UPDATE games SET remind_at = 9e8 + id * 100, ai_due = (id % 7 = 0) WHERE status = 'active';
INSERT INTO seats SELECT ((id * k) % 300)::text, id FROM games, generate_series(1, 3) k ON CONFLICT DO NOTHING;
INSERT INTO moves SELECT id, m, '1', '{}', 9e8, m::text FROM games, generate_series(1, 30) m;
INSERT INTO move_archive SELECT id, decode(repeat('5a', 3000), 'hex') FROM games WHERE status <> 'active';
INSERT INTO notices (game_id, version, kind, payload, created_at)
    SELECT id, 1, 'move', '{}', 9e8 FROM games WHERE status = 'active' LIMIT 20;
INSERT INTO leases SELECT id, 'a', 9e8 FROM games WHERE status = 'active' LIMIT 10;
INSERT INTO results SELECT g.id, g.guild_id, 'fake', 9e8 + g.id, g.id, k - 1, ((g.id * k) % 300)::text, 'P', k, k,
    NULL, FALSE, 30, 0, TRUE, 25, 8, 0, 26, 7, 1, 10, 600, 60, '{}'
FROM games g, generate_series(1, 3) k WHERE g.status = 'finished';
INSERT INTO ratings SELECT DISTINCT ON (guild_id, player) guild_id, 'fake', player, 'P', 26, 7, 5, 1, 9e8
FROM results;
INSERT INTO tournaments (guild_id, channel_id, status, data, version, due_at, created_at, updated_at)
SELECT (i % 50) + 1, i, CASE WHEN i % 10 = 0 THEN 'running' ELSE 'finished' END, repeat('x', 2000), 3,
    CASE WHEN i % 10 = 0 THEN 9e8 + i END, 9e8, 9e8
FROM generate_series(1, 2000) i;
INSERT INTO seasons SELECT g, n, 'S', 9e8 + n, 9e8 + n + 1, n % 2 = 0, '{}'
FROM generate_series(1, 50) g, generate_series(1, 20) n;
INSERT INTO lfg_queue SELECT (i % 50) + 1, 'fake', i::text, 9e8 + i, i % 3 = 0, '{"name":"P"}'
FROM generate_series(1, 3000) i;
INSERT INTO lfg_matches (guild_id, game, status, created_at, expires_at, data)
SELECT (i % 50) + 1, 'fake', CASE WHEN i % 100 = 0 THEN 'open' ELSE 'started' END, 9e8 + i, 9e8 + i + 600, '{}'
FROM generate_series(1, 4000) i;
INSERT INTO reviews SELECT id, CASE WHEN id % 40 = 0 THEN 'running' ELSE 'done' END, 30, repeat('x', 3000), 9e8
FROM games WHERE status = 'finished' AND id % 3 = 0;
ANALYZE;
"""


async def test_with_realistic_statistics_the_planner_itself_picks_indexes(db_pg, pg_url):
    """4,000 games (most finished), 120,000 moves, 2,000 tournaments, the archived logs of the ended ones, their seats, a small outbox, results and ratings, seasons, a queue and its matches, the coach's reviews of a third of the finished ones, ANALYZE: with sequential scans
    allowed, the planner's own choice reads no table that grows with the games whole (the shared suite checks
    the same on an empty database with `enable_seqscan = off`, i.e. that a fitting index exists)."""
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute(FILL)
    finally:
        await conn.close()
    plans = await db_pg.query_plans(seqscan=True)
    assert set(plans) == set(backend.SQL) == set(backend.SAMPLES)
    for name, plan in plans.items():
        assert not db_pg.full_scan(
            plan,
            (
                "games",
                "moves",
                "move_archive",
                "seats",
                "results",
                "ratings",
                "tournaments",
                "seasons",
                "lfg_queue",
                "lfg_matches",
                "reviews",
            ),
        ), f"{name}:\n{plan}"
    assert "games_remind" in plans["claim_reminders"] and "games_ai_due" in plans["ai_due"]
    assert "games_one_open_per_channel" in plans["game_in_channel"] and "seats_pkey" in plans["games_of"]


def test_full_scan_reads_postgresql_plan_text():
    scan = PostgresStorage.full_scan
    tables = ("games", "moves", "seats")
    assert scan("Seq Scan on games  (cost=0.00..1.01 rows=1 width=4)", tables)
    assert not scan("Seq Scan on notices  (cost=0.00..1.25 rows=1 width=36)", tables)
    assert not scan("Index Scan using games_pkey on games  (cost=0.28..8.30 rows=1)\n  Index Cond: (id = 1)", tables)
    walk = "Limit\n  ->  Index Scan using games_pkey on games  (cost=0.14..49.46)\n        Filter: (guild_id IS NULL)"
    assert scan(walk, tables)  # an index read whole (no Index Cond) is a full scan too
    bitmap = (
        "Hash Join\n  ->  Bitmap Heap Scan on games  (cost=8.62..69.02)\n        Recheck Cond: (status = 'a')\n"
        "        ->  Bitmap Index Scan on games_guild_open  (cost=0.00..8.59)\n"
        "  ->  Bitmap Heap Scan on seats  (cost=4.44..42.65)\n"
        "        ->  Bitmap Index Scan on seats_pkey  (cost=0.00..4.44)\n              Index Cond: (player_id = '1')"
    )
    assert scan(bitmap, tables) and not scan(bitmap, ("seats",))


# -- python -m storage copy ---------------------------------------------------------------------------------


async def play(db, channel, game, seed, *, moves=None, clear=False):
    """A game of `game` played with random legal actions through its engine (to the end, with its finish: results
    and ratings; or `moves` moves), committed move by move with notices, origins, due times and deadlines as the
    bot writes them, a stand-in making some moves."""
    rules = engine.get_rules(game)
    row = await db.create_game(
        guild_id=GUILD + channel, channel_id=channel, game=game, options={}, seed=seed, creator=ANA
    )
    seats = [ANA, Seat("ai:easy:2", "AI (easy) 2")] if seed % 2 else [ANA, BO, Seat("3", "Cyd"), DEE]
    state = rules.new_game([s.id for s in seats], row.options, row.seed)
    now = 1_700_000_000.0 + channel
    row = await db.start_game(
        row.id,
        seats=seats,
        state_json=json.dumps(rules.to_json(state)),
        due=Due(remind_at=now + 86400),
        notice=("start", {"game": game}),
        now=now,
    )
    rnd = random.Random(seed)
    n = 0
    while not rules.is_over(state) and (moves is None or n < moves):
        player = rules.to_move(state)[0]
        action = rnd.choice(rules.legal_actions(state, player))
        state = rules.apply(state, player, action)
        over = rules.is_over(state)
        now += 60.5
        finish = None
        if over:
            finish = Finish(tuple(SeatFinish(s.id, s.name, i, i == 0, figures={"n": i}) for i, s in enumerate(seats)))
        row = await db.commit_move(
            row,
            player=player,
            action=rules.action_to_json(action),
            state_json=json.dumps(rules.to_json(state)),
            finished=over,
            origin=f"{row.turns}.m:{n}",
            notice=("move", {"player": player, "n": n}),
            due=Due(
                remind_at=None if player.startswith("ai:") else now + 86400,
                ai=not player.startswith("ai:"),
                deadline_at=now + 3600,
            ),
            now=now,
            standin=n % 7 == 3 and not player.startswith("ai:"),
            finish=finish,
        )
        n += 1
    if clear:
        await db.clear_notices([x.id for x in await db.pending_notices(row.id)][:-1])
    return row


async def source_database(path):
    """Every game finished once (with results and ratings), one of each mid-game with pending notices, reminders,
    deadlines and AI seats, a lobby and a cancelled game; players away, with languages, servers' languages, moves
    taken back, a shared animation and a lease."""
    db = await SQLiteStorage.open(str(path), synchronous="NORMAL", rater=RATER)
    try:
        channel = 0
        for seed, game in enumerate(engine.GAMES, start=1):
            await play(db, channel := channel + 1, game, seed, clear=True)
            await play(db, channel := channel + 1, game, seed + 10, moves=15)
        lobby = await db.create_game(guild_id=GUILD, channel_id=90, game="gardens", options={}, seed=3, creator=BO)
        await db.update_lobby(lobby.id, seats=[BO, ANA], lobby_message_id=12345)
        gone = await db.create_game(guild_id=None, channel_id=91, game="alhambra", options={}, seed=4, creator=ANA)
        await db.cancel_game(gone.id)
        await db.mark_nudged(1, now=5.0)
        # a game that finished before move logs were archived: its rows
        old = await play(db, channel := channel + 1, "gardens", 77, moves=9)
        await db._db.execute(
            "UPDATE games SET status = 'finished', remind_at = NULL, ai_due = 0, deadline_at = NULL WHERE id = ?",
            (old.id,),
        )
        # a running game of four with a move taken back and a stand-in at the table
        four = await play(db, channel := channel + 1, "gardens", 78, moves=6)
        moves = await db.moves(four.id)
        four = await db.undo(
            four,
            keep=4,
            state_json=four.state_json,
            turns=4,
            by=DEE.id,
            table={"standins": {BO.id: "normal"}},
            due=Due(remind_at=1_800_000_000.0, ai=True, deadline_at=1_800_000_100.0),
            now=1_700_100_000.0,
        )
        assert len(await db.undone_moves(four.id)) == len(moves) - 4
        await db.set_player(Player(ANA.id, away_until=1_800_000_000.0, away_ai=True, locale="hu"))
        await db.set_player(Player(DEE.id, skip_confirm=True, locale="de"))
        await db.set_guild(Guild(GUILD + 1, "cs"))
        await db.set_guild(Guild(GUILD + 2, None))
        assert await db.claim_share(1, 90, "es", now=1_700_000_000.5) == (True, None)
        await db.share_posted(1, 90, "es", 777)
        await db.claim_share(2, 91, "en", now=1_700_000_001.5)
        assert await db.lease(four.id, "bot-a", 30.0, now=1_700_000_002.0)
        await db.set_board_message(four.id, 1_234_567_890_123_456_789)  # a compact table's living board
        # a tournament running (its round due) and one in sign-up
        cup = await db.create_tournament(guild_id=GUILD, channel_id=90, data={"game": "gardens"}, now=1_700_000_003.0)
        await db.update_tournament(cup, data={"game": "gardens", "round": 1}, status="running", due_at=1.8e9, now=1.7e9)
        await db.create_tournament(guild_id=GUILD + 1, channel_id=91, data={"game": "fake"}, now=1_700_000_004.0)
        # a season over with its podium, the next one running; a server in the shared queue, two players waiting
        # and a match waiting for its Accept (issue #24)
        await db.start_season(GUILD + 1, name="Spring", reset=False, now=1_600_000_000.0)  # the first game's server
        assert (await db.end_season(GUILD + 1, games=list(engine.GAMES), now=1_800_000_000.0)).podium
        await db.start_season(GUILD + 1, name="Summer", reset=False, now=1_800_000_001.0)
        await db.set_guild(Guild(GUILD + 3, None, lfg_channel=1_234_567_890_123_456_780, lfg_shared=True))
        wait = QueueEntry(GUILD, ANA.id, "gardens", "Ana", 1_700_000_003.0, True, 2, "fast", 5.0, 3.5, "normal", 1)
        await db.queue_put(wait)
        await db.queue_put(dataclasses.replace(wait, player=BO.id, name="Bo", players=None, speed=None, band=None))
        await db.queue_put(dataclasses.replace(wait, player=DEE.id, name="Dee", since=1_700_000_004.0))
        dee = (await db.queue_waiting("gardens", GUILD, shared=False))[-1]
        assert await db.open_match([dee], guild_id=GUILD, expires_at=1_700_000_600.0, data={"m": [1]}, now=1.0)
        assert await db.begin_review(1, now=1_700_000_003.0)  # the coach's review: one done, one under way
        await db.save_review(Review(1, "done", ({"n": 1, "p": ANA.id, "loss": 0.125, "best": {"k": "é"}},)), now=1.5)
        assert await db.begin_review(2, now=1_700_000_004.0)
        # a move logged when 19-digit ids were stored as text (they read as before)
        await db._db.execute(
            "UPDATE moves SET player = CAST(player AS TEXT) WHERE game_id = ? AND move_number = 1", (four.id,)
        )
    finally:
        await db.close()


async def snapshot(url):
    """Every game (row, moves, pending notices), and apart: every result, rating and row of every other table."""
    db = await open_storage(url)
    try:
        ids = await db.all_game_ids()
        games = {
            i: (
                await db.load_game(i),
                await db.moves(i),
                [(n.version, n.kind, n.payload, n.created_at) for n in await db.pending_notices(i)],
            )
            for i in ids
        }
        rest = {
            "results": [await db.game_results(i) for i in ids],
            "ratings": await db.all_ratings(),
            **{t: sorted(map(repr, await db.table_rows(t, limit=10_000))) for t in TABLES},
        }
        return games, rest
    finally:
        await db.close()


async def test_copy_sqlite_to_postgresql_and_back_is_identical(tmp_path, pg_url):
    src, back = tmp_path / "src.sqlite3", tmp_path / "back.sqlite3"
    await source_database(src)
    # the real command line, into PostgreSQL
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "storage", "copy", str(src), pg_url, cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await proc.communicate()
    assert proc.returncode == 0
    original, rest = await snapshot(str(src))
    assert all(rest.values()) and rest["results"][0]  # every table has rows (a finished game first)
    states = {row.status for row, _, _ in original.values()}
    assert states == {"lobby", "active", "finished", "cancelled"}
    running = [row for row, _, _ in original.values() if row.status == "active"]
    assert {r.ai_due for r in running} == {r.remind_at is None for r in running} == {True, False}
    assert all(r.deadline_at for r in running)
    games, moves = len(original), sum(len(m) for _, m, _ in original.values())
    notices = sum(len(n) for _, _, n in original.values())
    assert f"Copied {games} games ({moves} moves, {notices} pending notices)" in out.decode()
    assert f"Verified: all {games} games and {moves} moves are identical" in out.decode()
    assert await snapshot(pg_url) == (original, rest)
    # the ended games' logs arrive archived (the one that ended before archiving too), the running ones' as rows
    conn = await asyncpg.connect(pg_url)
    try:
        ended = {i for i, (row, _, _) in original.items() if row.status in ("finished", "cancelled") and row.version}
        assert {r[0] for r in await conn.fetch("SELECT game_id FROM move_archive")} == ended
        assert not ended & {r[0] for r in await conn.fetch("SELECT DISTINCT game_id FROM moves")}
    finally:
        await conn.close()
    # ... and back into a new SQLite file
    lines: list[str] = []
    await copy(pg_url, str(back), batch=3, out=lines.append)
    assert await snapshot(str(back)) == (original, rest)
    assert "Verified" in lines[-1]
    # the copies play on: states load into the engines, new games get new ids, AI turns and reminders are due
    pg = await PostgresStorage.open(pg_url)
    try:
        for row, _, _ in original.values():
            if row.state_json is not None:
                engine.get_rules(row.game).from_json(json.loads(row.state_json))
        new = await pg.create_game(guild_id=GUILD, channel_id=999, game="gardens", options={}, seed=1, creator=ANA)
        assert new.id == max(original) + 1
        cup = await pg.create_tournament(guild_id=GUILD, channel_id=999, data={})
        assert cup.id == 3 and [t.id for t in await pg.tournaments_due(1.9e9)] == [1]
        running = [i for i, (row, _, _) in original.items() if row.status == "active"]
        assert set(await pg.ai_due()) == {i for i in running if original[i][0].ai_due}
        assert set(await pg.claim_reminders(1e12)) == {i for i in running if original[i][0].remind_at is not None}
    finally:
        await pg.close()


async def test_copy_refuses_a_destination_with_games_and_a_missing_source(tmp_path, pg_url):
    src = tmp_path / "src.sqlite3"
    db = await SQLiteStorage.open(str(src))
    await started(db, 1)
    await db.close()
    await copy(str(src), pg_url, out=lambda _: None)
    with pytest.raises(CopyError, match="already holds games"):
        await copy(str(src), pg_url, out=lambda _: None)
    assert await asyncio.to_thread(main, ["copy", str(tmp_path / "nothing.sqlite3"), pg_url]) == 1
    assert not os.path.exists(tmp_path / "nothing.sqlite3")


async def test_copy_fails_loudly_when_the_copy_differs(tmp_path, pg_url, monkeypatch, capsys):
    src = tmp_path / "src.sqlite3"
    db = await SQLiteStorage.open(str(src))
    for channel in (1, 2):
        g = await started(db, channel)
        for n in range(3):
            g = await commit(db, g, n)
    await db.close()
    real = PostgresStorage.import_game

    async def lossy(self, row, moves, notices):  # loses the last move of game 2
        await real(self, row, moves[:-1] if row.id == 2 else moves, notices)

    monkeypatch.setattr(PostgresStorage, "import_game", lossy)
    assert await asyncio.to_thread(main, ["copy", str(src), pg_url]) == 1
    err = capsys.readouterr().err
    assert "Copy failed: The copy differs from the original in 1 places" in err
    assert "game 2: the move logs differ (3 vs 2 moves; first at 3)" in err


# -- the test server ----------------------------------------------------------------------------------------


def test_a_test_server_that_cannot_start_says_why(monkeypatch):
    """tests/pgserver.py raises ServerError with the reason (the fixture turns it into a failure, never a skip)
    and leaves no directory behind."""
    from tests import pgserver

    monkeypatch.setattr(pgserver.glob, "glob", lambda pattern: [])
    monkeypatch.setattr(pgserver.shutil, "which", lambda name: None)
    with pytest.raises(pgserver.ServerError, match="PostgreSQL is not installed.*apt-get install postgresql"):
        pgserver.start_server()
    monkeypatch.undo()
    made = []
    real = pgserver.PgServer.__init__

    def init(self, **kwargs):
        real(self, **kwargs)
        self.initdb = Path("/bin/false")
        made.append(self.dir)

    monkeypatch.setattr(pgserver.PgServer, "__init__", init)
    with pytest.raises(pgserver.ServerError, match=r"initdb \(/bin/false, as [^)]+\) failed"):
        pgserver.start_server()
    assert not made[0].exists()
