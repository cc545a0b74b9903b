"""The SQLite backend itself: WAL and FULL sync, schema versions and their migrations, online backups."""

from __future__ import annotations

import asyncio
import sqlite3

import aiosqlite
import pytest

from storage import Seat, StorageError
from storage import sqlite as backend
from storage.sqlite import SQLiteStorage as Storage

ANA, BO = Seat("1", "Ana"), Seat("2", "Bo")


@pytest.fixture
async def lite(tmp_path):
    s = await Storage.open(str(tmp_path / "t.sqlite3"))
    yield s
    await s.close()


async def test_schema_is_versioned_in_wal_mode_and_fully_synced(lite, tmp_path):
    assert await lite.schema_version() == backend.SCHEMA_VERSION
    assert await lite.pragma("synchronous") == 2  # FULL: a move is on disk before it is announced
    con = sqlite3.connect(tmp_path / "t.sqlite3")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


async def test_normal_sync_is_an_explicit_choice(tmp_path):
    s = await Storage.open(str(tmp_path / "n.sqlite3"), synchronous="NORMAL")
    try:
        assert await s.pragma("synchronous") == 1
    finally:
        await s.close()
    with pytest.raises(StorageError, match="synchronous must be"):
        await Storage.open(str(tmp_path / "x.sqlite3"), synchronous="FAST")


async def test_reopening_keeps_games_and_runs_no_migration_twice(tmp_path):
    path = str(tmp_path / "t.sqlite3")
    s = await Storage.open(path)
    g = await s.create_game(guild_id=9, channel_id=1, game="fake", options={"target": 30}, seed=5, creator=ANA)
    await s.close()
    s = await Storage.open(path)
    assert (await s.load_game(g.id)).options == {"target": 30}
    await s.close()


async def test_a_newer_schema_is_refused_and_the_connection_closed(tmp_path, monkeypatch):
    """A refused database is closed before the error propagates: an unclosed aiosqlite connection keeps its
    worker thread until garbage collection, which may come after the event loop closed."""
    path = tmp_path / "t.sqlite3"
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {backend.SCHEMA_VERSION + 1}")
    con.close()
    opened = []
    real_connect = aiosqlite.connect

    def connect(*args, **kwargs):
        opened.append(real_connect(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(backend.aiosqlite, "connect", connect)
    with pytest.raises(StorageError, match="newer than this bot knows"):
        await Storage.open(str(path))
    (conn,) = opened
    conn._thread.join(timeout=5)
    assert not conn._thread.is_alive()


def old_database(path, version: int, rows: list[str]) -> None:
    con = sqlite3.connect(path)
    con.executescript("\n".join(backend.MIGRATIONS[:version]) + f"\nPRAGMA user_version = {version};")
    for sql in rows:
        con.execute(sql)
    con.commit()
    con.close()


async def test_migrations_fill_the_new_columns_from_what_old_databases_hold(tmp_path):
    """From schema 1: `turns` = the version (old panels stay valid); the next reminder of a running game that
    was not reminded this turn; the AI flag of games with an AI seat; the seats table."""
    path = tmp_path / "t.sqlite3"
    seats = '[{"id":"1","name":"Ana"},{"id":"ai:easy:1","name":"AI (easy) 1"}]'
    old_database(
        path,
        1,
        [
            "INSERT INTO games (channel_id, guild_id, game, options, seed, status, seats, state, version, creator_id, "
            f"created_at, updated_at, turn_started_at) VALUES (1, 9, 'fake', '{{}}', 5, 'active', '{seats}', '{{}}', 7, "
            "'1', 0, 0, 100)",
            "INSERT INTO games (channel_id, guild_id, game, options, seed, status, seats, state, version, creator_id, "
            "created_at, updated_at, turn_started_at, reminded_at) VALUES (2, 9, 'fake', '{}', 5, 'active', "
            '\'[{"id":"2","name":"Bo"}]\', \'{}\', 3, \'2\', 0, 0, 100, 200)',
        ],
    )
    s = await Storage.open(str(path))
    try:
        g = await s.load_game(1)
        assert (g.version, g.turns) == (7, 7)
        assert await s.claim_reminders(100 + 24 * 3600 - 1) == []
        assert await s.claim_reminders(100 + 24 * 3600) == [1]  # game 2 was already reminded this turn
        assert await s.ai_due() == [1]
        assert [x.id for x in await s.games_of("ai:easy:1")] == [1] and [x.id for x in await s.games_of("2")] == [2]
    finally:
        await s.close()


async def test_backup_is_a_consistent_copy_taken_while_moves_are_written(lite, tmp_path):
    """`python -m storage backup`: VACUUM INTO from a second connection while the bot keeps committing moves."""
    g = await lite.create_game(guild_id=9, channel_id=1, game="fake", options={}, seed=5, creator=ANA)
    g = await lite.start_game(g.id, seats=[ANA, BO], state_json='{"s":0}')

    async def play(row, n):
        for v in range(n):
            row = await lite.commit_move(
                row, player="1", action={"kind": "add", "n": v}, state_json=f'{{"s":{v + 1}}}', finished=False
            )

    await asyncio.gather(play(g, 50), lite.backup(str(tmp_path / "copy.sqlite3")))
    copy = await Storage.open(str(tmp_path / "copy.sqlite3"))
    try:
        row = await copy.load_game(g.id)
        moves = await copy.moves(g.id)
        assert row.version == len(moves) and row.state == {"s": row.version}  # one consistent moment
    finally:
        await copy.close()


async def test_discord_ids_of_19_digits_are_packed_as_integers_and_old_text_rows_still_read(lite):
    """Every Discord id fits 64 bits (19 digits since about 2022): the move log stores it as an integer; rows
    written before, with such an id as text, are still found by player (a retried click, a player's last move);
    digits that would not read back the same (a leading zero, beyond 64 bits) stay text."""
    from storage.base import pack_player

    dee = "1234567890123456789"
    assert pack_player(dee) == int(dee) and pack_player("9223372036854775807") == 2**63 - 1
    assert pack_player("9223372036854775808") == "9223372036854775808" and pack_player("0123") == "0123"
    g = await lite.create_game(guild_id=1, channel_id=1, game="fake", options={}, seed=1, creator=Seat(dee, "Dee"))
    g = await lite.start_game(g.id, seats=[Seat(dee, "Dee"), ANA], state_json="{}")
    for n in range(2):
        g = await lite.commit_move(g, player=dee, action={"n": n}, state_json="{}", finished=False, origin=f"o{n}")
    async with lite._db.execute(
        "SELECT typeof(player) FROM moves WHERE game_id = ? ORDER BY move_number", (g.id,)
    ) as c:
        assert [r[0] for r in await c.fetchall()] == ["integer", "integer"]
    await lite._db.execute("UPDATE moves SET player = CAST(player AS TEXT) WHERE move_number = 2")  # as stored before
    await lite._db.commit()
    assert [m.player for m in await lite.moves(g.id)] == [dee, dee]
    assert (await lite.move_by_origin(g.id, dee, "o1")).move_number == 2
    assert await lite.last_move_of(g.id, dee) == 2


async def test_a_move_is_one_trip_to_the_database_thread_and_all_or_nothing(lite, monkeypatch):
    """A move's transaction (the state's compare-and-set, the move, its notice) runs in one call to aiosqlite's
    thread, as does clearing the posted notices: one wake-up of that thread and of the event loop, not one per
    statement. A statement failing inside it rolls the whole move back: the state, the log and the outbox are
    as before, and the next move goes through."""
    g = await lite.create_game(guild_id=1, channel_id=1, game="fake", options={}, seed=1, creator=ANA)
    g = await lite.start_game(g.id, seats=[ANA, BO], state_json='{"s":0}')
    trips = []
    real = lite._db._execute

    async def counted(fn, *args, **kwargs):
        trips.append(getattr(fn, "__name__", repr(fn)))
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(lite._db, "_execute", counted)
    g1 = await lite.commit_move(
        g, player="1", action={"n": 1}, state_json='{"s":1}', finished=False, notice=("move", {"player": "1"})
    )
    assert len(trips) == 1
    trips.clear()
    notices = await lite.pending_notices(g.id)
    trips.clear()
    await lite.clear_notices([n.id for n in notices], post=(g.id, 77))
    assert len(trips) == 1 and await lite.pending_notices(g.id) == []
    g1 = await lite.load_game(g.id)
    assert g1.last_post_id == 77
    # move 2 is already in the log (as after a bug): the move's insert fails, and nothing of it stays
    await lite._db.execute(
        "INSERT INTO moves (game_id, move_number, player, action, created_at) VALUES (?, 2, 2, '{}', 0)", (g.id,)
    )
    with pytest.raises(sqlite3.IntegrityError):
        await lite.commit_move(
            g1, player="2", action={"n": 2}, state_json='{"s":2}', finished=False, notice=("move", {"player": "2"})
        )
    assert await lite.load_game(g.id) == g1 and await lite.pending_notices(g.id) == []
    await lite._db.execute("DELETE FROM moves WHERE game_id = ? AND move_number = 2", (g.id,))
    g2 = await lite.commit_move(g1, player="2", action={"n": 2}, state_json='{"s":2}', finished=False)
    assert g2.version == 2 and [m.action for m in await lite.moves(g.id)] == [{"n": 1}, {"n": 2}]
