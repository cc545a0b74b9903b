"""Games and their append-only move logs in SQLite (aiosqlite), behind a narrow interface.

The cogs and the session service only use the methods of `Storage` and the `GameRow`/`MoveRow` records, so a
PostgreSQL backend can later implement the same methods without touching them. Guarantees the Discord layer
relies on:

- one game in the lobby or running per channel (a partial unique index, so two racing `/game create` calls
  cannot both win);
- each move is ONE transaction: the move-log row and the new state are written together, and only if the game's
  `version` is still the one the move was chosen against (optimistic check), so a double click applies once;
- the schema carries its version in `PRAGMA user_version` and is migrated forward on open; WAL mode so reads do
  not wait for the writer.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite

OPEN_STATUSES = ("lobby", "active")
STATUSES = ("lobby", "active", "finished", "cancelled")

# Each entry brings the schema from version i to i + 1. Never edit a released entry: append a new one.
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
    # 2: `turns` counts turn actions only (free actions such as Alhambra's bonus cards, V62/V66, leave it alone),
    # so an open move panel stays valid while others play free actions. Existing games start it at their
    # version, which keeps every panel posted before the upgrade exactly as valid as it was.
    """
    ALTER TABLE games ADD COLUMN turns INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET turns = version;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class StorageError(Exception):
    """Base class of the errors the storage reports to its callers."""


class ChannelBusy(StorageError):
    """The channel already has a game in the lobby or running."""


class StaleVersion(StorageError):
    """The game changed since the move was chosen (someone else moved first), or it is no longer running."""


@dataclasses.dataclass(frozen=True, slots=True)
class Seat:
    """A seat at the table: the player id (a Discord user id as text, or an AI id) and the name to show."""

    id: str
    name: str


@dataclasses.dataclass(frozen=True, slots=True)
class GameRow:
    """One stored game. `state` is the engine's JSON (None while in the lobby); `version` counts every stored
    move, `turns` only the turn actions (not free actions: Alhambra's bonus cards, V62/V66)."""

    id: int
    guild_id: int | None
    channel_id: int
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    seats: tuple[Seat, ...]
    state: dict[str, Any] | None
    version: int
    creator_id: str
    lobby_message_id: int | None
    reminder_hours: float
    created_at: float
    updated_at: float
    turn_started_at: float | None
    reminded_at: float | None
    nudged_at: float | None
    turns: int = 0

    @property
    def player_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.seats)

    def seat_name(self, player: str) -> str:
        for s in self.seats:
            if s.id == player:
                return s.name
        return player


@dataclasses.dataclass(frozen=True, slots=True)
class MoveRow:
    game_id: int
    move_number: int
    player: str
    action: dict[str, Any]
    created_at: float


_COLUMNS = (
    "id, guild_id, channel_id, game, options, seed, status, seats, state, version, creator_id, lobby_message_id, "
    "reminder_hours, created_at, updated_at, turn_started_at, reminded_at, nudged_at, turns"
)


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


def _seats_json(seats: Iterable[Seat]) -> str:
    return json.dumps([{"id": s.id, "name": s.name} for s in seats])


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


class Storage:
    """The SQLite backend. Open with `await Storage.open(path)`, close with `await storage.close()`."""

    def __init__(self, conn: aiosqlite.Connection):
        self._db = conn
        # One connection: statements of concurrent coroutines would interleave inside a transaction, so every
        # write transaction holds this lock (reads are single statements and need none).
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> Storage:
        conn = await aiosqlite.connect(path, isolation_level=None)  # we issue BEGIN/COMMIT ourselves
        self = cls(conn)
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: a crash of the bot never loses a committed move; only a power cut may lose the last
            # one or two (the usual trade-off for WAL; FULL would fsync on every move).
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            await self._migrate()
        except BaseException:
            # Close before raising: an unclosed connection keeps its worker thread, which aiosqlite stops only
            # when the object is garbage-collected, possibly after the event loop is closed ("Event loop is
            # closed" from that thread).
            await self.close()
            raise
        return self

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        async with self._db.execute("PRAGMA user_version") as cur:
            (current,) = await cur.fetchone()
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
        async with self._db.execute("PRAGMA user_version") as cur:
            return (await cur.fetchone())[0]

    # -- reads -------------------------------------------------------------------------------------------

    async def _one(self, where: str, args: Sequence[Any]) -> GameRow | None:
        async with self._db.execute(f"SELECT {_COLUMNS} FROM games WHERE {where}", args) as cur:
            r = await cur.fetchone()
        return _row(r) if r else None

    async def load_game(self, game_id: int) -> GameRow | None:
        return await self._one("id = ?", (game_id,))

    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        """The game in the lobby or running in this channel, if any."""
        return await self._one("channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))

    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The most recent game of this channel whatever its status (for /game status after the end)."""
        return await self._one("channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))

    async def list_games(
        self, *, guild_id: int | None = None, player: str | None = None, statuses: Sequence[str] = OPEN_STATUSES
    ) -> list[GameRow]:
        """Games with one of `statuses`, optionally only in a guild and/or only those `player` is seated in."""
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
            "SELECT game_id, move_number, player, action, created_at FROM moves WHERE game_id = ? "
            "ORDER BY move_number",
            (game_id,),
        ) as cur:
            return [MoveRow(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in await cur.fetchall()]

    async def idle_games(self, now: float) -> list[GameRow]:
        """Running games whose player to move has been idle past the game's reminder interval, not yet reminded."""
        return [
            g
            for g in await self.list_games(statuses=("active",))
            if g.turn_started_at is not None
            and g.reminder_hours > 0
            and now - g.turn_started_at >= g.reminder_hours * 3600
            and (g.reminded_at is None or g.reminded_at < g.turn_started_at)
        ]

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
        """A new game in the lobby with its creator seated. ChannelBusy if the channel has an open game."""
        now = time.time() if now is None else now
        async with self._write:
            try:
                cur = await self._db.execute(
                    "INSERT INTO games (guild_id, channel_id, game, options, seed, status, seats, creator_id, "
                    "reminder_hours, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, game, _dumps(options), seed, _seats_json([creator]), creator.id,
                     reminder_hours, now, now),
                )
            except sqlite3.IntegrityError:
                raise ChannelBusy("This channel already has a game.") from None
            game_id = cur.lastrowid
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
        """Change the seats, options or lobby message of a game still in the lobby. StaleVersion otherwise."""
        sets, args = ["updated_at = ?"], [time.time() if now is None else now]
        if seats is not None:
            sets.append("seats = ?")
            args.append(_seats_json(seats))
        if options is not None:
            sets.append("options = ?")
            args.append(_dumps(options))
        if lobby_message_id is not None:
            sets.append("lobby_message_id = ?")
            args.append(lobby_message_id)
        return await self._update_in_lobby(game_id, ", ".join(sets), args)

    async def start_game(
        self, game_id: int, *, seats: Sequence[Seat], state: dict[str, Any], now: float | None = None
    ) -> GameRow:
        """Lobby -> running with the initial state (version 0). StaleVersion if it was not in the lobby."""
        now = time.time() if now is None else now
        return await self._update_in_lobby(
            game_id, "status = 'active', seats = ?, state = ?, version = 0, turns = 0, updated_at = ?, "
            "turn_started_at = ?", (_seats_json(seats), _dumps(state), now, now))

    async def _update_in_lobby(self, game_id: int, assignments: str, args: Sequence[Any]) -> GameRow:
        """Apply `assignments` (SQL "col = ?, ...") to a game still in its lobby; StaleVersion otherwise."""
        async with self._write:
            cur = await self._db.execute(
                f"UPDATE games SET {assignments} WHERE id = ? AND status = 'lobby'", (*args, game_id)
            )
            if cur.rowcount != 1:
                raise StaleVersion("The game is no longer in its lobby.")
        return await self._reload(game_id)

    async def _reload(self, game_id: int) -> GameRow:
        """The game just written (it exists: games are never deleted)."""
        row = await self.load_game(game_id)
        assert row is not None
        return row

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
        now: float | None = None,
    ) -> GameRow:
        """Append the move and store the new state in one transaction, only if the game is still running at
        `expected_version`; the move gets number expected_version + 1. StaleVersion otherwise, nothing written.

        A `free` action (not a turn action: Alhambra's bonus cards, V62/V66) counts as a move but not as a turn:
        `turns` and the idle clock of the player to move (`turn_started_at`, for reminders) stay as they were."""
        now = time.time() if now is None else now
        status = "finished" if finished else "active"
        async with self._write:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
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
                    "INSERT INTO moves (game_id, move_number, player, action, created_at) VALUES (?, ?, ?, ?, ?)",
                    (game_id, expected_version + 1, player, _dumps(action), now),
                )
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
        return await self._reload(game_id)

    async def cancel_game(self, game_id: int, now: float | None = None) -> bool:
        """Cancel a game in the lobby or running; False if it was already over."""
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
