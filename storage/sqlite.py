"""The SQLite backend (aiosqlite): the embedded default, one process.

One connection, WAL mode (reads do not wait for the writer), `synchronous=FULL` by default so that a move is
on disk before it is announced (NORMAL is an explicit opt-in: a power cut may then lose the last moves). The
schema carries its version in `PRAGMA user_version` and is migrated forward on open.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite

from storage.base import (
    OPEN_STATUSES,
    ChannelBusy,
    GameRow,
    MoveRow,
    Notice,
    Seat,
    StaleVersion,
    Storage,
    StorageError,
)

MAX_ID = 2**63 - 1  # SQLite's INTEGER range: a larger id (from a forged custom_id) names no game

# Each entry brings the schema from version i to i + 1. Never edit a released entry's SQL: append a new one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id         INTEGER,
        channel_id       INTEGER NOT NULL,
        game             TEXT    NOT NULL,
        options          TEXT    NOT NULL,
        seed             INTEGER NOT NULL,
        status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
        seats            TEXT    NOT NULL,
        state            TEXT,
        version          INTEGER NOT NULL DEFAULT 0,
        creator_id       TEXT    NOT NULL,
        lobby_message_id INTEGER,
        reminder_hours   REAL    NOT NULL DEFAULT 24,
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL,
        turn_started_at  REAL,
        reminded_at      REAL,
        nudged_at        REAL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX games_guild ON games (guild_id, status);
    CREATE TABLE moves (
        game_id     INTEGER NOT NULL REFERENCES games (id),
        move_number INTEGER NOT NULL,
        player      TEXT    NOT NULL,
        action      TEXT    NOT NULL,
        created_at  REAL    NOT NULL,
        PRIMARY KEY (game_id, move_number)
    );
    """,
    # 2: `turns` counts turn actions only (free actions leave it alone), so an open move panel stays valid while
    # others play free actions. Existing games start it at their version, which keeps every panel posted before
    # the upgrade exactly as valid as it was.
    """
    ALTER TABLE games ADD COLUMN turns INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET turns = version;
    """,
    # 3: the outbox (announcements owed to a channel, written with the move they announce, removed once posted)
    # and the origin of a move (the panel it was confirmed from: a retried click is recognised as played).
    """
    ALTER TABLE moves ADD COLUMN origin TEXT;
    CREATE TABLE notices (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id    INTEGER NOT NULL REFERENCES games (id),
        version    INTEGER NOT NULL,
        kind       TEXT    NOT NULL,
        payload    TEXT    NOT NULL,
        created_at REAL    NOT NULL
    );
    CREATE INDEX notices_game ON notices (game_id, id);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
SYNCHRONOUS = ("FULL", "NORMAL")

_COLUMNS = (
    "id, guild_id, channel_id, game, options, seed, status, seats, state, version, creator_id, lobby_message_id, "
    "reminder_hours, created_at, updated_at, turn_started_at, reminded_at, nudged_at, turns"
)
_MOVE_COLUMNS = "game_id, move_number, player, action, created_at, origin"


def _row(r: Sequence[Any]) -> GameRow:
    return GameRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        game=r[3],
        options=json.loads(r[4]),
        seed=r[5],
        status=r[6],
        seats=tuple(Seat(s["id"], s["name"]) for s in json.loads(r[7])),
        state=json.loads(r[8]) if r[8] is not None else None,
        version=r[9],
        creator_id=r[10],
        lobby_message_id=r[11],
        reminder_hours=r[12],
        created_at=r[13],
        updated_at=r[14],
        turn_started_at=r[15],
        reminded_at=r[16],
        nudged_at=r[17],
        turns=r[18],
    )


def _move(r: Sequence[Any]) -> MoveRow:
    return MoveRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5])


def _seats_json(seats: Iterable[Seat]) -> str:
    return json.dumps([{"id": s.id, "name": s.name} for s in seats])


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


class SQLiteStorage(Storage):
    """Open with `await SQLiteStorage.open(path)`, close with `await storage.close()`."""

    def __init__(self, conn: aiosqlite.Connection, path: str = ""):
        self._db = conn
        self.path = path
        # One connection: statements of concurrent coroutines would interleave inside a transaction, so every
        # write transaction holds this lock (reads are single statements and need none).
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: str, *, synchronous: str = "FULL") -> SQLiteStorage:
        if synchronous.upper() not in SYNCHRONOUS:
            raise StorageError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}.")
        conn = await aiosqlite.connect(path, isolation_level=None)  # we issue BEGIN/COMMIT ourselves
        self = cls(conn, path)
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            # FULL: each commit is fsynced before the move is announced; NORMAL (opt-in) may lose the last
            # moves on a power cut, never on a crash of the bot itself.
            await conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            await self._migrate()
        except BaseException:
            # Close before raising: an unclosed connection keeps its worker thread, which aiosqlite stops only
            # when the object is garbage-collected, possibly after the event loop is closed.
            await self.close()
            raise
        return self

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StorageError(
                f"The database schema is version {current}, newer than this bot knows ({SCHEMA_VERSION}). "
                "Update the bot."
            )
        for version in range(current, SCHEMA_VERSION):
            async with self._write:
                # executescript commits first; the script runs in its own transaction with the version bump
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{MIGRATIONS[version]}\nPRAGMA user_version = {version + 1};\nCOMMIT;"
                )

    async def schema_version(self) -> int:
        return int(await self.pragma("user_version"))

    async def pragma(self, name: str) -> Any:
        async with self._db.execute(f"PRAGMA {name}") as cur:
            row = await cur.fetchone()
        return row[0] if row is not None else None

    # -- reads -------------------------------------------------------------------------------------------

    async def _one(self, where: str, args: Sequence[Any]) -> GameRow | None:
        async with self._db.execute(f"SELECT {_COLUMNS} FROM games WHERE {where}", args) as cur:
            r = await cur.fetchone()
        return _row(r) if r else None

    async def load_game(self, game_id: int) -> GameRow | None:
        if not 0 < game_id <= MAX_ID:
            return None
        return await self._one("id = ?", (game_id,))

    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        return await self._one("channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))

    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        return await self._one("channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))

    async def list_games(
        self, *, guild_id: int | None = None, player: str | None = None, statuses: Sequence[str] = OPEN_STATUSES
    ) -> list[GameRow]:
        where = [f"status IN ({', '.join('?' * len(statuses))})"]
        args: list[Any] = list(statuses)
        if guild_id is not None:
            where.append("guild_id = ?")
            args.append(guild_id)
        async with self._db.execute(
            f"SELECT {_COLUMNS} FROM games WHERE {' AND '.join(where)} ORDER BY id", args
        ) as cur:
            rows = [_row(r) for r in await cur.fetchall()]
        if player is not None:
            rows = [g for g in rows if player in g.player_ids]
        return rows

    async def moves(self, game_id: int) -> list[MoveRow]:
        async with self._db.execute(
            f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY move_number", (game_id,)
        ) as cur:
            return [_move(r) for r in await cur.fetchall()]

    async def move_by_origin(self, game_id: int, player: str, origin: str) -> MoveRow | None:
        async with self._db.execute(
            f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = ? AND player = ? AND origin = ? "
            "ORDER BY move_number DESC LIMIT 1",
            (game_id, player, origin),
        ) as cur:
            r = await cur.fetchone()
        return _move(r) if r else None

    async def idle_games(self, now: float) -> list[GameRow]:
        return [
            g
            for g in await self.list_games(statuses=("active",))
            if g.turn_started_at is not None
            and g.reminder_hours > 0
            and now - g.turn_started_at >= g.reminder_hours * 3600
            and (g.reminded_at is None or g.reminded_at < g.turn_started_at)
        ]

    async def pending_notices(self, game_id: int) -> list[Notice]:
        async with self._db.execute(
            "SELECT id, game_id, version, kind, payload, created_at FROM notices WHERE game_id = ? ORDER BY id",
            (game_id,),
        ) as cur:
            return [Notice(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in await cur.fetchall()]

    async def games_with_notices(self, older_than: float | None = None) -> list[int]:
        where, args = ("WHERE created_at < ?", (older_than,)) if older_than is not None else ("", ())
        async with self._db.execute(
            f"SELECT game_id FROM notices {where} GROUP BY game_id ORDER BY MIN(id)", args
        ) as cur:
            return [r[0] for r in await cur.fetchall()]

    # -- writes ------------------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        options: dict[str, Any],
        seed: int,
        creator: Seat,
        now: float | None = None,
        reminder_hours: float = 24,
    ) -> GameRow:
        now = time.time() if now is None else now
        async with self._write:
            try:
                cur = await self._db.execute(
                    "INSERT INTO games (guild_id, channel_id, game, options, seed, status, seats, creator_id, "
                    "reminder_hours, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        game,
                        _dumps(options),
                        seed,
                        _seats_json([creator]),
                        creator.id,
                        reminder_hours,
                        now,
                        now,
                    ),
                )
            except sqlite3.IntegrityError:
                raise ChannelBusy("This channel already has a game.") from None
            game_id = cur.lastrowid
        if game_id is None:
            raise StorageError("the new game got no id")
        return await self._reload(game_id)

    async def update_lobby(
        self,
        game_id: int,
        *,
        seats: Sequence[Seat] | None = None,
        options: dict[str, Any] | None = None,
        lobby_message_id: int | None = None,
        now: float | None = None,
    ) -> GameRow:
        sets: list[str] = ["updated_at = ?"]
        args: list[Any] = [time.time() if now is None else now]
        if seats is not None:
            sets.append("seats = ?")
            args.append(_seats_json(seats))
        if options is not None:
            sets.append("options = ?")
            args.append(_dumps(options))
        if lobby_message_id is not None:
            sets.append("lobby_message_id = ?")
            args.append(lobby_message_id)
        async with self._write:
            cur = await self._db.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND status = 'lobby'", (*args, game_id)
            )
            if cur.rowcount != 1:
                raise StaleVersion("The game is no longer in its lobby.")
        return await self._reload(game_id)

    async def start_game(
        self,
        game_id: int,
        *,
        seats: Sequence[Seat],
        state: dict[str, Any],
        notice: tuple[str, dict[str, Any]] | None = None,
        now: float | None = None,
    ) -> GameRow:
        now = time.time() if now is None else now
        async with self._write, self._transaction():
            cur = await self._db.execute(
                "UPDATE games SET status = 'active', seats = ?, state = ?, version = 0, turns = 0, updated_at = ?, "
                "turn_started_at = ? WHERE id = ? AND status = 'lobby'",
                (_seats_json(seats), _dumps(state), now, now, game_id),
            )
            if cur.rowcount != 1:
                raise StaleVersion("The game is no longer in its lobby.")
            await self._add_notice(game_id, 0, notice, now)
        return await self._reload(game_id)

    async def _reload(self, game_id: int) -> GameRow:
        """The game just written (it exists: games are never deleted)."""
        row = await self.load_game(game_id)
        if row is None:
            raise StorageError(f"game {game_id} vanished")
        return row

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    async def _add_notice(
        self, game_id: int, version: int, notice: tuple[str, dict[str, Any]] | None, now: float
    ) -> None:
        if notice is not None:
            kind, payload = notice
            await self._db.execute(
                "INSERT INTO notices (game_id, version, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, version, kind, _dumps(payload), now),
            )

    async def commit_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        player: str,
        action: dict[str, Any],
        state: dict[str, Any],
        finished: bool,
        free: bool = False,
        origin: str | None = None,
        notice: tuple[str, dict[str, Any]] | None = None,
        now: float | None = None,
    ) -> GameRow:
        now = time.time() if now is None else now
        status = "finished" if finished else "active"
        async with self._write, self._transaction():
            cur = await self._db.execute(
                "UPDATE games SET state = ?, version = version + 1, status = ?, updated_at = ?, "
                "turns = turns + CASE WHEN ? THEN 0 ELSE 1 END, "
                "turn_started_at = CASE WHEN ? THEN turn_started_at ELSE ? END "
                "WHERE id = ? AND version = ? AND status = 'active'",
                (_dumps(state), status, now, free, free, now, game_id, expected_version),
            )
            if cur.rowcount != 1:
                raise StaleVersion("The game has moved on since this move was chosen.")
            await self._db.execute(
                "INSERT INTO moves (game_id, move_number, player, action, created_at, origin) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, expected_version + 1, player, _dumps(action), now, origin),
            )
            await self._add_notice(game_id, expected_version + 1, notice, now)
        return await self._reload(game_id)

    async def clear_notices(self, ids: Sequence[int]) -> None:
        if not ids:
            return
        async with self._write:
            await self._db.execute(f"DELETE FROM notices WHERE id IN ({', '.join('?' * len(ids))})", tuple(ids))

    async def cancel_game(self, game_id: int, now: float | None = None) -> bool:
        async with self._write:
            cur = await self._db.execute(
                "UPDATE games SET status = 'cancelled', updated_at = ? WHERE id = ? AND status IN ('lobby', 'active')",
                (time.time() if now is None else now, game_id),
            )
            return cur.rowcount == 1

    async def mark_reminded(self, game_id: int, now: float | None = None) -> None:
        async with self._write:
            await self._db.execute(
                "UPDATE games SET reminded_at = ? WHERE id = ?", (time.time() if now is None else now, game_id)
            )

    async def mark_nudged(self, game_id: int, now: float | None = None) -> None:
        async with self._write:
            await self._db.execute(
                "UPDATE games SET nudged_at = ? WHERE id = ?", (time.time() if now is None else now, game_id)
            )

    async def backup(self, path: str) -> None:
        """`VACUUM INTO` a new file, from a second connection in a worker thread: a compact copy of one
        consistent moment (WAL lets it read while the bot keeps writing), the bot's own connection never waits."""
        if self.path in ("", ":memory:"):
            raise StorageError("An in-memory database cannot be backed up.")

        def copy() -> None:
            con = sqlite3.connect(self.path)
            try:
                con.execute("VACUUM INTO ?", (path,))
            finally:
                con.close()

        await asyncio.to_thread(copy)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if the block raises (also on cancellation)."""

    def __init__(self, db: aiosqlite.Connection):
        self._db = db

    async def __aenter__(self) -> None:
        await self._db.execute("BEGIN IMMEDIATE")

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc_type is None:
            await self._db.execute("COMMIT")
        else:
            await self._db.execute("ROLLBACK")
