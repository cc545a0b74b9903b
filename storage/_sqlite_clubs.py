"""The SQLite backend's part for clubs (issue #24): rating seasons, the looking-for-game queue and its matches, a
seat handed to a substitute (as storage/_pg_clubs.py is PostgreSQL's). `SQLiteStorage` (storage/sqlite.py) is
made with this part: its statements join the backend's `SQL` (the query-plan tests read them there), and its
methods run on the backend's connection, each change in one transaction under the backend's write lock."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Sequence
from typing import Any

import aiosqlite

from storage import _rows
from storage.base import ALL_SHARDS, GameRow, Match, QueueEntry, Season, Seat, Shards, pack_state

MAX_ID = 2**63 - 1  # SQLite's INTEGER range

CLUB_SQL: dict[str, str] = {
    "seasons": f"SELECT {_rows.columns(_rows.SEASON_COLUMNS)} FROM seasons WHERE guild_id = :guild "
    "AND number < :before ORDER BY number DESC LIMIT :limit",
    "reset_since": "SELECT max(started_at) FROM seasons WHERE guild_id = :guild AND reset = 1",
    "insert_season": "INSERT INTO seasons (guild_id, number, name, started_at, reset) "
    "VALUES (:guild, :number, :name, :now, :reset)",
    "end_season": "UPDATE seasons SET ended_at = :now, podium = :podium WHERE guild_id = :guild "
    "AND number = :number AND ended_at IS NULL",
    "reset_ratings": "DELETE FROM ratings WHERE guild_id = :guild",
    "queue_put": "INSERT INTO lfg_queue (guild_id, game, player, since, shared, entry) "
    "VALUES (:guild, :game, :player, :since, :shared, :entry) ON CONFLICT (guild_id, game, player) "
    "DO UPDATE SET since = excluded.since, shared = excluded.shared, entry = excluded.entry",
    "queue_drop": "DELETE FROM lfg_queue WHERE guild_id = :guild AND player = :player AND game = :game",
    "queue_drop_all": "DELETE FROM lfg_queue WHERE guild_id = :guild AND player = :player",
    "queue_take": "DELETE FROM lfg_queue WHERE guild_id = :guild AND game = :game AND player = :player "
    "AND since = :since",
    "queue_local": f"SELECT {_rows.columns(_rows.QUEUE_COLUMNS)} FROM lfg_queue WHERE guild_id = :guild "
    "AND game = :game ORDER BY since LIMIT :limit",
    "queue_shared": f"SELECT {_rows.columns(_rows.QUEUE_COLUMNS)} FROM lfg_queue WHERE shared = 1 "
    "AND game = :game ORDER BY since LIMIT :limit",
    "insert_match": "INSERT INTO lfg_matches (guild_id, game, status, created_at, expires_at, data) "
    "VALUES (:guild, :game, 'open', :now, :expires, :data)",
    "load_match": f"SELECT {_rows.columns(_rows.MATCH_COLUMNS)} FROM lfg_matches WHERE id = :id",
    "update_match": "UPDATE lfg_matches SET data = :data, status = :status WHERE id = :id AND data = :expect "
    "AND status = 'open'",
    "matches_due": f"SELECT {_rows.columns(_rows.MATCH_COLUMNS)} FROM lfg_matches WHERE status = 'open' "
    "AND expires_at <= :now AND {shard} ORDER BY expires_at LIMIT :limit",
    "replace_seat": "UPDATE games SET seats = :seats, state = :state, table_state = :table, updated_at = :now "
    "WHERE id = :id AND version = :version AND table_state = :expect AND status = 'active'",
}


class Clubs:
    """Seasons, the queue, matches and substitutes, over the backend's connection and statements."""

    _db: aiosqlite.Connection
    _write: asyncio.Lock

    async def _all(self, name: str, params: dict[str, Any], shards: Shards | None = None) -> list[Any]:
        raise NotImplementedError

    async def _run(self, name: str, params: dict[str, Any]) -> int:
        raise NotImplementedError

    def _transaction(self) -> Any:
        raise NotImplementedError

    async def _set_seats(self, game_id: int, seats: Sequence[Seat]) -> None:
        raise NotImplementedError

    async def _notice(self, game_id: int, version: int, notice: tuple[str, dict[str, Any]] | None, now: float) -> None:
        raise NotImplementedError

    async def _reload(self, game_id: int) -> GameRow:
        raise NotImplementedError

    async def seasons(self, guild_id: int, *, before: int | None = None, limit: int = 10) -> list[Season]:
        params = {"guild": guild_id, "before": MAX_ID if before is None else before, "limit": limit}
        return [_rows.season_of(r) for r in await self._all("seasons", params)]

    async def start_season(self, guild_id: int, *, name: str, reset: bool, now: float | None = None) -> Season | None:
        now = time.time() if now is None else now
        async with self._write, self._transaction():
            last = await self._all("seasons", {"guild": guild_id, "before": MAX_ID, "limit": 1})
            if last and last[0]["ended_at"] is None:
                return None
            number = int(last[0]["number"]) + 1 if last else 1
            await self._run(
                "insert_season", {"guild": guild_id, "number": number, "name": name, "now": now, "reset": int(reset)}
            )
            if reset:
                await self._run("reset_ratings", {"guild": guild_id})
        return Season(guild_id, number, name, now, None, reset)

    async def end_season(
        self, guild_id: int, *, games: Sequence[str], places: int = 3, now: float | None = None
    ) -> Season | None:
        now = time.time() if now is None else now
        async with self._write, self._transaction():
            last = await self._all("seasons", {"guild": guild_id, "before": MAX_ID, "limit": 1})
            if not last or last[0]["ended_at"] is not None:
                return None
            season = _rows.season_of(last[0])
            podium = {}
            for game in games:
                params = {"guild": guild_id, "game": game, "offset": 0, "limit": places, "since": season.started_at}
                rows = [_rows.rating_of(r) for r in await self._all("leaderboard", params)]
                if rows:
                    podium[game] = _rows.podium_of(rows)
            await self._run(
                "end_season", {"guild": guild_id, "number": season.number, "now": now, "podium": _rows.dumps(podium)}
            )
        return dataclasses.replace(season, ended_at=now, podium=podium)

    async def queue_put(self, entry: QueueEntry) -> None:
        async with self._write:
            await self._run("queue_put", _queue_params(entry))

    async def queue_drop(self, guild_id: int, player: str, game: str | None = None) -> int:
        async with self._write:
            if game is None:
                return await self._run("queue_drop_all", {"guild": guild_id, "player": player})
            return await self._run("queue_drop", {"guild": guild_id, "player": player, "game": game})

    async def queue_waiting(self, game: str, guild_id: int, *, shared: bool, limit: int = 50) -> list[QueueEntry]:
        rows = await self._all("queue_local", {"guild": guild_id, "game": game, "limit": limit})
        if shared:
            rows += await self._all("queue_shared", {"game": game, "limit": limit})
        return _rows.waiting(rows)

    async def open_match(
        self, entries: Sequence[QueueEntry], *, guild_id: int, expires_at: float, data: dict[str, Any], now: float
    ) -> Match | None:
        values = {"guild": guild_id, "game": entries[0].game, "now": now, "expires": expires_at}
        try:
            async with self._write, self._transaction():
                for e in entries:
                    params = {"guild": e.guild_id, "game": e.game, "player": e.player, "since": e.since}
                    if await self._run("queue_take", params) != 1:
                        raise _Undo()  # matched meanwhile, or gone: nothing changes
                cur = await self._db.execute(CLUB_SQL["insert_match"], {**values, "data": _rows.dumps(data)})
                match_id = cur.lastrowid
        except _Undo:
            return None
        if match_id is None:
            return None
        return Match(match_id, guild_id, entries[0].game, "open", now, expires_at, data)

    async def load_match(self, match_id: int) -> Match | None:
        if not 0 < match_id <= MAX_ID:
            return None
        rows = await self._all("load_match", {"id": match_id})
        return _rows.match_of(rows[0]) if rows else None

    async def update_match(
        self,
        match_id: int,
        *,
        expect: dict[str, Any],
        data: dict[str, Any],
        status: str = "open",
        requeue: Sequence[QueueEntry] = (),
    ) -> Match | None:
        async with self._write, self._transaction():
            params = {"id": match_id, "data": _rows.dumps(data), "status": status, "expect": _rows.dumps(expect)}
            if await self._run("update_match", params) != 1:
                return None
            for e in requeue:
                await self._run("queue_put", _queue_params(e))
        return await self.load_match(match_id)

    async def matches_due(self, now: float, *, shards: Shards = ALL_SHARDS, limit: int = 100) -> list[Match]:
        return [_rows.match_of(r) for r in await self._all("matches_due", {"now": now, "limit": limit}, shards)]

    async def replace_seat(
        self,
        row: GameRow,
        *,
        seats: Sequence[Seat],
        state_json: str,
        table: dict[str, Any],
        notice: tuple[str, dict[str, Any]] | None = None,
        now: float | None = None,
    ) -> GameRow | None:
        now = time.time() if now is None else now
        async with self._write, self._transaction():
            params = {
                "seats": _rows.seats_json(seats),
                "state": pack_state(state_json),
                "table": _rows.dumps(table),
                "now": now,
                "id": row.id,
                "version": row.version,
                "expect": _rows.dumps(row.table),
            }
            if await self._run("replace_seat", params) != 1:
                return None
            await self._set_seats(row.id, seats)
            await self._notice(row.id, -1, notice, now)
        return await self._reload(row.id)


def _queue_params(e: QueueEntry) -> dict[str, Any]:
    return {
        "guild": e.guild_id,
        "game": e.game,
        "player": e.player,
        "since": e.since,
        "shared": int(e.shared),
        "entry": _rows.entry_json(e),
    }


class _Undo(Exception):
    """Raised inside a transaction to roll it back (caught by whoever opened it)."""
