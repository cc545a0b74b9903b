"""The SQLite backend: schema versioning and migrations, one open game per channel, one transaction per move
with a version check, the outbox and move origins."""

import asyncio
import sqlite3

import aiosqlite
import pytest

from storage import ChannelBusy, Seat, StaleVersion, StorageError
from storage import sqlite as backend
from storage.sqlite import SQLiteStorage as Storage


@pytest.fixture
async def db(tmp_path):
    s = await Storage.open(str(tmp_path / "t.sqlite3"))
    yield s
    await s.close()


async def new_game(db, channel=1):
    return await db.create_game(
        guild_id=9, channel_id=channel, game="fake", options={"target": 30}, seed=5, creator=Seat("1", "Ana")
    )


async def test_schema_is_versioned_and_in_wal_mode(db, tmp_path):
    assert await db.schema_version() == backend.SCHEMA_VERSION
    con = sqlite3.connect(tmp_path / "t.sqlite3")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


async def test_reopening_keeps_games_and_runs_no_migration_twice(tmp_path):
    path = str(tmp_path / "t.sqlite3")
    s = await Storage.open(path)
    g = await new_game(s)
    await s.close()
    s = await Storage.open(path)
    assert (await s.load_game(g.id)).options == {"target": 30}
    await s.close()


async def test_a_newer_schema_is_refused_and_the_connection_closed(tmp_path, monkeypatch):
    """A refused database is closed before the error propagates: an unclosed aiosqlite connection keeps its
    worker thread until garbage collection, which may come after the event loop closed ("Event loop is
    closed" from that thread at teardown)."""
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


async def test_migration_2_counts_turns_apart_from_free_moves(tmp_path):
    """A database of schema 1 gains `turns` = its version (old panels stay as valid as they were); after that a
    free move (a bonus card, V62) counts as a move but not as a turn, and leaves the idle clock alone."""
    path = tmp_path / "t.sqlite3"
    con = sqlite3.connect(path)
    con.executescript(backend.MIGRATIONS[0] + "\nPRAGMA user_version = 1;")
    con.execute(
        "INSERT INTO games (channel_id, game, options, seed, status, seats, state, version, creator_id, "
        "created_at, updated_at, turn_started_at) VALUES (1, 'fake', '{}', 5, 'active', '[]', '{}', 7, '1', "
        "0, 0, 100)"
    )
    con.commit()
    con.close()
    s = await Storage.open(str(path))
    try:
        g = await s.load_game(1)
        assert (g.version, g.turns) == (7, 7)
        g = await s.commit_move(
            1, expected_version=7, player="1", action={"kind": "bonus"}, state={}, finished=False, free=True, now=500.0
        )
        assert (g.version, g.turns, g.turn_started_at) == (8, 7, 100)
        g = await s.commit_move(
            1, expected_version=8, player="1", action={"kind": "add"}, state={}, finished=False, now=600.0
        )
        assert (g.version, g.turns, g.turn_started_at) == (9, 8, 600.0)
    finally:
        await s.close()


async def test_one_open_game_per_channel(db):
    g = await new_game(db)
    with pytest.raises(ChannelBusy):
        await new_game(db)
    assert await new_game(db, channel=2)
    await db.cancel_game(g.id)
    assert await new_game(db)  # free again once cancelled


async def test_commit_move_checks_the_version_and_writes_move_and_state_together(db):
    g = await new_game(db)
    g = await db.start_game(g.id, seats=[Seat("1", "Ana"), Seat("2", "Bo")], state={"s": 0})
    g1 = await db.commit_move(
        g.id, expected_version=0, player="1", action={"kind": "add", "n": 3}, state={"s": 3}, finished=False
    )
    assert g1.version == 1 and g1.state == {"s": 3}
    with pytest.raises(StaleVersion):
        await db.commit_move(
            g.id, expected_version=0, player="2", action={"kind": "add", "n": 4}, state={"s": 7}, finished=False
        )
    moves = await db.moves(g.id)
    assert [(m.move_number, m.player, m.action) for m in moves] == [(1, "1", {"kind": "add", "n": 3})]
    assert (await db.load_game(g.id)).state == {"s": 3}
    done = await db.commit_move(
        g.id, expected_version=1, player="2", action={"kind": "add", "n": 30}, state={"s": 33}, finished=True
    )
    assert done.status == "finished"
    with pytest.raises(StaleVersion):  # a finished game takes no more moves
        await db.commit_move(g.id, expected_version=2, player="1", action={}, state={}, finished=True)


async def test_lobby_updates_only_while_in_the_lobby(db):
    g = await new_game(db)
    g = await db.update_lobby(g.id, seats=[Seat("1", "Ana"), Seat("2", "Bo")], lobby_message_id=77)
    assert g.player_ids == ("1", "2") and g.lobby_message_id == 77
    await db.start_game(g.id, seats=g.seats, state={})
    with pytest.raises(StaleVersion):
        await db.update_lobby(g.id, seats=[])
    with pytest.raises(StaleVersion):
        await db.start_game(g.id, seats=g.seats, state={})


async def test_lists_and_idle_games(db):
    a = await new_game(db, channel=1)
    b = await new_game(db, channel=2)
    await db.update_lobby(b.id, seats=[Seat("1", "Ana"), Seat("2", "Bo")])
    await db.start_game(b.id, seats=[Seat("1", "Ana"), Seat("2", "Bo")], state={}, now=1000.0)
    assert [g.id for g in await db.list_games(guild_id=9)] == [a.id, b.id]
    assert [g.id for g in await db.list_games(player="2")] == [b.id]
    assert await db.idle_games(now=1000.0 + 23 * 3600) == []
    assert [g.id for g in await db.idle_games(now=1000.0 + 24 * 3600)] == [b.id]
    await db.mark_reminded(b.id, now=1000.0 + 24 * 3600)
    assert await db.idle_games(now=1000.0 + 48 * 3600) == []  # one reminder per turn


async def test_backup_is_a_consistent_copy_taken_while_moves_are_written(db, tmp_path):
    """`python -m storage backup`: VACUUM INTO from a second connection while the bot keeps committing moves."""
    g = await new_game(db)
    g = await db.start_game(g.id, seats=[Seat("1", "Ana"), Seat("2", "Bo")], state={"s": 0})

    async def play(n):
        for v in range(n):
            await db.commit_move(
                g.id, expected_version=v, player="1", action={"kind": "add", "n": v}, state={"s": v + 1}, finished=False
            )

    await asyncio.gather(play(50), db.backup(str(tmp_path / "copy.sqlite3")))
    copy = await Storage.open(str(tmp_path / "copy.sqlite3"))
    try:
        row = await copy.load_game(g.id)
        moves = await copy.moves(g.id)
        assert row.version == len(moves) and row.state == {"s": row.version}  # one consistent moment
    finally:
        await copy.close()


async def test_moves_keep_their_origin_and_the_outbox_keeps_notices_until_cleared(db):
    g = await new_game(db)
    g = await db.start_game(g.id, seats=[Seat("1", "Ana"), Seat("2", "Bo")], state={}, notice=("start", {"m": 1}))
    await db.commit_move(
        g.id,
        expected_version=0,
        player="1",
        action={"kind": "add"},
        state={},
        finished=False,
        origin="0.abc:3",
        notice=("move", {"player": "1"}),
    )
    assert (await db.move_by_origin(g.id, "1", "0.abc:3")).move_number == 1
    assert await db.move_by_origin(g.id, "2", "0.abc:3") is None
    notices = await db.pending_notices(g.id)
    assert [(n.version, n.kind, n.payload) for n in notices] == [(0, "start", {"m": 1}), (1, "move", {"player": "1"})]
    assert await db.games_with_notices() == [g.id]
    await db.clear_notices([notices[0].id])
    assert [n.version for n in await db.pending_notices(g.id)] == [1]
    with pytest.raises(StaleVersion):  # a refused move writes no notice either
        await db.commit_move(
            g.id, expected_version=0, player="2", action={}, state={}, finished=False, notice=("move", {})
        )
    assert len(await db.pending_notices(g.id)) == 1


async def test_ids_beyond_the_integer_range_name_no_game(db):
    assert await db.load_game(2**70) is None and await db.load_game(-1) is None
