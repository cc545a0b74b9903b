"""The PostgreSQL backend's part for clubs (issue #24): rating seasons, the looking-for-game queue and its
matches, a seat handed to a substitute. `PostgresStorage` (storage/postgres.py) is made with this part: its
statements join the backend's `SQL` (and `SAMPLES`, for the query-plan tests), and its methods run on the
backend's pool. As everywhere in the backend, each change is one transaction: a season opens (and a reset clears
the server's ratings) under the server's advisory lock, so that two starts at once open one season; a match takes
its players out of the queue only if each is still waiting as read (a DELETE of exactly that row), so two
processes matching one player at once cannot both win; a match's data changes by compare-and-set.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from storage import _rows
from storage.base import ALL_SHARDS, GameRow, Match, QueueEntry, Season, Seat, Shards, pack_state

MAX_ID = 2**63 - 1  # BIGINT's range
STATE, SEATS = pack_state('{"s":0}'), '[{"id":"1","name":"Ana"}]'  # sample parameters

# Every statement of the part, with positional parameters (their order in the comment); `{shard}` is the
# backend's shard filter.
CLUB_SQL: dict[str, str] = {
    # guild, before, limit
    "seasons": f"SELECT {_rows.columns(_rows.SEASON_COLUMNS)} FROM seasons WHERE guild_id = $1 AND number < $2 "
    "ORDER BY number DESC LIMIT $3",
    "reset_since": "SELECT max(started_at) FROM seasons WHERE guild_id = $1 AND reset",  # guild
    # guild, number, name, now, reset
    "insert_season": "INSERT INTO seasons (guild_id, number, name, started_at, reset) VALUES ($1, $2, $3, $4, $5)",
    # guild, number, now, podium
    "end_season": "UPDATE seasons SET ended_at = $3, podium = $4 WHERE guild_id = $1 AND number = $2 "
    "AND ended_at IS NULL",
    "reset_ratings": "DELETE FROM ratings WHERE guild_id = $1",  # guild
    # guild, game, player, since, shared, entry
    "queue_put": "INSERT INTO lfg_queue (guild_id, game, player, since, shared, entry) VALUES ($1, $2, $3, $4, $5, $6) "
    "ON CONFLICT (guild_id, game, player) DO UPDATE SET since = excluded.since, shared = excluded.shared, "
    "entry = excluded.entry",
    "queue_drop": "DELETE FROM lfg_queue WHERE guild_id = $1 AND player = $2 AND game = $3",  # guild, player, game
    "queue_drop_all": "DELETE FROM lfg_queue WHERE guild_id = $1 AND player = $2",  # guild, player
    # guild, game, player, since
    "queue_take": "DELETE FROM lfg_queue WHERE guild_id = $1 AND game = $2 AND player = $3 AND since = $4",
    # guild, game, limit
    "queue_local": f"SELECT {_rows.columns(_rows.QUEUE_COLUMNS)} FROM lfg_queue WHERE guild_id = $1 AND game = $2 "
    "ORDER BY since LIMIT $3",
    # game, limit
    "queue_shared": f"SELECT {_rows.columns(_rows.QUEUE_COLUMNS)} FROM lfg_queue WHERE shared AND game = $1 "
    "ORDER BY since LIMIT $2",
    # guild, game, now, expires, data
    "insert_match": "INSERT INTO lfg_matches (guild_id, game, status, created_at, expires_at, data) "
    "VALUES ($1, $2, 'open', $3, $4, $5) RETURNING id",
    "load_match": f"SELECT {_rows.columns(_rows.MATCH_COLUMNS)} FROM lfg_matches WHERE id = $1",  # id
    # id, expected data, data, status
    "update_match": f"UPDATE lfg_matches SET data = $3, status = $4 WHERE id = $1 AND data = $2 AND status = 'open' "
    f"RETURNING {_rows.columns(_rows.MATCH_COLUMNS)}",
    # now, limit, shard count, shard ids
    "matches_due": f"SELECT {_rows.columns(_rows.MATCH_COLUMNS)} FROM lfg_matches WHERE status = 'open' "
    "AND expires_at <= $1 AND {shard} ORDER BY expires_at LIMIT $2",  # the shard filter on $3, $4
    "advance_matches": "SELECT setval('lfg_matches_id_seq', $1) FROM lfg_matches_id_seq "  # id
    "WHERE last_value < $1 OR NOT is_called",
    # id, version, expected table, seats, state, table, now
    "replace_seat": "UPDATE games SET seats = $4, state = $5, table_state = $6, updated_at = $7 WHERE id = $1 "
    f"AND version = $2 AND table_state = $3 AND status = 'active' RETURNING {_rows.columns(_rows.GAME_COLUMNS)}",
}

# Sample parameters for EXPLAIN (query_plans), in each statement's order.
CLUB_SAMPLES: dict[str, tuple[Any, ...]] = {
    "seasons": (9, 10, 10),
    "reset_since": (9,),
    "insert_season": (9, 1, "Spring", 1e9, True),
    "end_season": (9, 1, 1e9, "{}"),
    "reset_ratings": (9,),
    "queue_put": (9, "game", "1", 1e9, True, "{}"),
    "queue_drop": (9, "1", "game"),
    "queue_drop_all": (9, "1"),
    "queue_take": (9, "game", "1", 1e9),
    "queue_local": (9, "game", 50),
    "queue_shared": ("game", 50),
    "insert_match": (9, "game", 1e9, 1e9, "{}"),
    "load_match": (1,),
    "update_match": (1, "{}", "{}", "open"),
    "matches_due": (1e9, 100, 2, [1]),
    "advance_matches": (1,),
    "replace_seat": (1, 1, "{}", SEATS, STATE, "{}", 1e9),
}


def _queue_args(e: QueueEntry) -> tuple[Any, ...]:
    return e.guild_id, e.game, e.player, e.since, e.shared, _rows.entry_json(e)


class _Undo(Exception):
    """Raised inside a transaction to roll it back (caught by whoever opened it)."""


class Clubs:
    """Seasons, the queue, matches and substitutes, over the backend's pool and statements."""

    sql: ClassVar[dict[str, str]]  # the backend's statements (these among them)
    _pool: Any

    async def _fetch(self, name: str, *args: Any) -> list[Any]:
        return list(await self._pool.fetch(self.sql[name], *args))

    async def _set_seats(self, conn: Any, game_id: int, seats: Sequence[Seat]) -> None:
        raise NotImplementedError

    async def seasons(self, guild_id: int, *, before: int | None = None, limit: int = 10) -> list[Season]:
        rows = await self._fetch("seasons", guild_id, 2**31 - 1 if before is None else before, limit)
        return [_rows.season_of(r) for r in rows]

    async def start_season(self, guild_id: int, *, name: str, reset: bool, now: float | None = None) -> Season | None:
        """Under the server's season lock (an advisory lock), so that two starts at once open one season."""
        now = time.time() if now is None else now
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(self.sql["lock"], _rows.stream_key(guild_id, "#seasons"))
            last = await conn.fetchrow(self.sql["seasons"], guild_id, 2**31 - 1, 1)
            if last is not None and last["ended_at"] is None:
                return None
            number = int(last["number"]) + 1 if last is not None else 1
            await conn.execute(self.sql["insert_season"], guild_id, number, name, now, reset)
            if reset:
                await conn.execute(self.sql["reset_ratings"], guild_id)
        return Season(guild_id, number, name, now, None, reset)

    async def end_season(
        self, guild_id: int, *, games: Sequence[str], places: int = 3, now: float | None = None
    ) -> Season | None:
        now = time.time() if now is None else now
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(self.sql["lock"], _rows.stream_key(guild_id, "#seasons"))
            last = await conn.fetchrow(self.sql["seasons"], guild_id, 2**31 - 1, 1)
            if last is None or last["ended_at"] is not None:
                return None
            season = _rows.season_of(last)
            podium = {}
            for game in games:
                rows = await conn.fetch(self.sql["leaderboard"], guild_id, game, places, 0, season.started_at)
                if rows:
                    podium[game] = _rows.podium_of([_rows.rating_of(r) for r in rows])
            await conn.execute(self.sql["end_season"], guild_id, season.number, now, _rows.dumps(podium))
        return dataclasses.replace(season, ended_at=now, podium=podium)

    async def queue_put(self, entry: QueueEntry) -> None:
        await self._pool.execute(self.sql["queue_put"], *_queue_args(entry))

    async def queue_drop(self, guild_id: int, player: str, game: str | None = None) -> int:
        if game is None:
            status = await self._pool.execute(self.sql["queue_drop_all"], guild_id, player)
        else:
            status = await self._pool.execute(self.sql["queue_drop"], guild_id, player, game)
        return int(status.split()[-1])

    async def queue_waiting(self, game: str, guild_id: int, *, shared: bool, limit: int = 50) -> list[QueueEntry]:
        rows = await self._fetch("queue_local", guild_id, game, limit)
        if shared:
            rows += await self._fetch("queue_shared", game, limit)
        return _rows.waiting(rows)

    async def open_match(
        self, entries: Sequence[QueueEntry], *, guild_id: int, expires_at: float, data: dict[str, Any], now: float
    ) -> Match | None:
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                for e in entries:
                    status = await conn.execute(self.sql["queue_take"], e.guild_id, e.game, e.player, e.since)
                    if status != "DELETE 1":
                        raise _Undo()  # matched meanwhile (by another process too), or gone: nothing changes
                match_id = await conn.fetchval(
                    self.sql["insert_match"], guild_id, entries[0].game, now, expires_at, _rows.dumps(data)
                )
        except _Undo:
            return None
        return Match(int(match_id), guild_id, entries[0].game, "open", now, expires_at, data)

    async def load_match(self, match_id: int) -> Match | None:
        if not 0 < match_id <= MAX_ID:
            return None
        r = await self._pool.fetchrow(self.sql["load_match"], match_id)
        return _rows.match_of(r) if r is not None else None

    async def update_match(
        self,
        match_id: int,
        *,
        expect: dict[str, Any],
        data: dict[str, Any],
        status: str = "open",
        requeue: Sequence[QueueEntry] = (),
    ) -> Match | None:
        async with self._pool.acquire() as conn, conn.transaction():
            r = await conn.fetchrow(self.sql["update_match"], match_id, _rows.dumps(expect), _rows.dumps(data), status)
            if r is None:
                return None
            for e in requeue:
                await conn.execute(self.sql["queue_put"], *_queue_args(e))
        return _rows.match_of(r)

    async def matches_due(self, now: float, *, shards: Shards = ALL_SHARDS, limit: int = 100) -> list[Match]:
        rows = await self._fetch("matches_due", now, limit, shards.count, [int(i) for i in shards.ids])
        return [_rows.match_of(r) for r in rows]

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
        async with self._pool.acquire() as conn, conn.transaction():
            r = await conn.fetchrow(
                self.sql["replace_seat"],
                row.id,
                row.version,
                _rows.dumps(row.table),
                _rows.seats_json(seats),
                pack_state(state_json),
                _rows.dumps(table),
                now,
            )
            if r is None:
                return None
            await self._set_seats(conn, row.id, seats)
            if notice is not None:
                await conn.execute(self.sql["insert_notice"], row.id, -1, notice[0], _rows.dumps(notice[1]), now)
        return _rows.game_of(r)
