"""The SQLite backend (aiosqlite): the embedded default, one process.

One connection, WAL mode (reads do not wait for the writer), `synchronous=FULL` by default so that a move is
on disk before it is announced (NORMAL is an explicit opt-in: a power cut may then lose the last moves). The
schema carries its version in `PRAGMA user_version` and is migrated forward on open. Every statement the bot
runs is in `SQL`, so that tests can check each query plan.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

import aiosqlite

from storage import _rows
from storage._sqlite_clubs import CLUB_SQL, Clubs
from storage.base import (
    ALL_SHARDS,
    NOT_DUE,
    ChannelBusy,
    Due,
    GameRow,
    Guild,
    MoveRow,
    Notice,
    Player,
    Review,
    Seat,
    Shards,
    StaleVersion,
    Storage,
    StorageError,
    TournamentRow,
    final_log,
    pack_moves,
    pack_player,
    pack_state,
    unpack_moves,
)
from storage.results import Finish, Rater, Rating, RatingRow, Recent, ResultRow, Summary

MAX_ID = 2**63 - 1  # SQLite's INTEGER range: a larger id (from a forged custom_id) names no game

# Each entry brings the schema from version i to i + 1. Never edit a released entry's SQL: append a new one.
CLAIM_BATCH = 20  # reminders claimed in one transaction: short enough that a move never waits long for it

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
    # 4: what the background passes need, indexed, so that none of them costs time in proportion to the number
    # of stored games: when each game's next reminder is due, whether an AI seat has something to decide, who
    # sits where (/game list mine), a channel's latest game; and per-game leases for overlapping processes.
    """
    ALTER TABLE games ADD COLUMN remind_at REAL;
    ALTER TABLE games ADD COLUMN ai_due INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET remind_at = turn_started_at + reminder_hours * 3600
        WHERE status = 'active' AND reminder_hours > 0 AND turn_started_at IS NOT NULL
        AND (reminded_at IS NULL OR reminded_at < turn_started_at);
    UPDATE games SET ai_due = 1 WHERE status = 'active' AND seats LIKE '%"ai:%';
    CREATE INDEX games_remind ON games (remind_at) WHERE remind_at IS NOT NULL;
    CREATE INDEX games_ai_due ON games (id) WHERE ai_due = 1;
    CREATE INDEX games_channel ON games (channel_id, id);
    CREATE TABLE seats (
        player_id TEXT    NOT NULL,
        game_id   INTEGER NOT NULL REFERENCES games (id),
        PRIMARY KEY (player_id, game_id)
    ) WITHOUT ROWID;
    INSERT INTO seats (player_id, game_id)
        SELECT json_extract(j.value, '$.id'), g.id FROM games g, json_each(g.seats) j;
    CREATE TABLE leases (
        game_id INTEGER PRIMARY KEY,
        owner   TEXT NOT NULL,
        until   REAL NOT NULL
    );
    CREATE INDEX notices_created ON notices (created_at);
    """,
    # 5: a compact move log (the longest games run to ~400 moves): one B-tree clustered by game instead of
    # a table plus its key index, and Discord ids as integers. States are written deflated from now on.
    """
    CREATE TABLE moves_compact (
        game_id     INTEGER NOT NULL,
        move_number INTEGER NOT NULL,
        player      NOT NULL,
        action      TEXT    NOT NULL,
        created_at  REAL    NOT NULL,
        origin      TEXT,
        PRIMARY KEY (game_id, move_number)
    ) WITHOUT ROWID;
    INSERT INTO moves_compact SELECT game_id, move_number,
        CASE WHEN player NOT GLOB '*[^0-9]*' AND length(player) BETWEEN 1 AND 18 THEN CAST(player AS INTEGER)
             ELSE player END,
        action, created_at, origin FROM moves;
    DROP TABLE moves;
    ALTER TABLE moves_compact RENAME TO moves;
    """,
    # 6: keeping games moving: the table's arrangements (deadline settings, stand-ins, a pending undo) and its
    # next deadline (indexed), the newest post (jump links), players' own settings (away, confirm, language),
    # and the audit of moves taken back.
    """
    ALTER TABLE games ADD COLUMN table_state TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE games ADD COLUMN deadline_at REAL;
    ALTER TABLE games ADD COLUMN last_post_id INTEGER;
    CREATE INDEX games_deadline ON games (deadline_at) WHERE deadline_at IS NOT NULL;
    CREATE TABLE players (
        player_id    TEXT PRIMARY KEY,
        away_until   REAL,
        away_ai      INTEGER NOT NULL DEFAULT 0,
        skip_confirm INTEGER NOT NULL DEFAULT 0,
        locale       TEXT
    ) WITHOUT ROWID;
    CREATE TABLE undone_moves (
        game_id     INTEGER NOT NULL,
        move_number INTEGER NOT NULL,
        player      NOT NULL,
        action      TEXT    NOT NULL,
        created_at  REAL    NOT NULL,
        origin      TEXT,
        undone_at   REAL    NOT NULL,
        undone_by   TEXT    NOT NULL
    );
    CREATE INDEX undone_game ON undone_moves (game_id, undone_at);
    """,
    # 7: servers' own settings (the language of their public posts)
    """
    CREATE TABLE guilds (
        guild_id INTEGER PRIMARY KEY,
        language TEXT
    );
    """,
    # 8: after the game (records/): which moves a stand-in made; each finished game's results per seat, clustered
    # by (server, player, kind, time) so that /stats and a rating history read one range; the server's rating
    # order (server, kind, finished_at, seq); the current ratings, indexed by shown value for /leaderboard.
    """
    ALTER TABLE moves ADD COLUMN standin INTEGER;
    CREATE TABLE results (
        guild_id      INTEGER NOT NULL,
        player        TEXT    NOT NULL,
        game          TEXT    NOT NULL,
        finished_at   REAL    NOT NULL,
        seq           INTEGER NOT NULL,
        game_id       INTEGER NOT NULL,
        seat          INTEGER NOT NULL,
        name          TEXT    NOT NULL,
        score         INTEGER NOT NULL,
        place         INTEGER NOT NULL,
        ai_level      TEXT,
        abandoned     INTEGER NOT NULL,
        moves         INTEGER NOT NULL,
        standin_moves INTEGER NOT NULL,
        rated         INTEGER NOT NULL,
        mu_before     REAL,
        sigma_before  REAL,
        games_before  INTEGER,
        mu            REAL,
        sigma         REAL,
        games         INTEGER,
        turns         INTEGER NOT NULL,
        turn_seconds  REAL    NOT NULL,
        turn_median   REAL,
        figures       TEXT    NOT NULL,
        PRIMARY KEY (guild_id, player, game, finished_at, seq)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX results_game ON results (game_id, seat);
    CREATE INDEX results_order ON results (guild_id, game, finished_at, seq);
    CREATE TABLE ratings (
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        player     TEXT    NOT NULL,
        name       TEXT    NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        shown      REAL    NOT NULL,
        games      INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, player)
    ) WITHOUT ROWID;
    CREATE INDEX ratings_board ON ratings (guild_id, game, shown DESC, player);
    """,
    # 9: a finished (or cancelled) game's move log archived in one row (storage.base.pack_moves): ~6 KB instead
    # of ~420 rows of the moves table. Games that ended before keep their rows (both are read).
    """
    CREATE TABLE move_archive (
        game_id INTEGER PRIMARY KEY,
        moves   BLOB    NOT NULL
    );
    """,
    # 10: a finished game's animation shared in a channel (cogs/replays.py): claimed by the first Share (its
    # message id once posted), so two Shares at once, or one after a restart, never post it twice
    """
    CREATE TABLE shares (
        game_id    INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        lang       TEXT    NOT NULL,
        message_id INTEGER,
        claimed_at REAL    NOT NULL,
        PRIMARY KEY (game_id, channel_id, lang)
    ) WITHOUT ROWID;
    """,
    # 11: a player's settings beyond the first columns, as JSON (storage/_rows.py `prefs_json`): quiet hours and
    # their time zone, DM notices
    """
    ALTER TABLE players ADD COLUMN prefs TEXT NOT NULL DEFAULT '{}';
    """,
    # 12: a compact table's living board message (cogs/_compact.py): the one post edited after every move
    """
    CREATE TABLE boards (
        game_id    INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL
    );
    """,
    # 13: tournaments (cogs/tournaments.py): a server's tournament, its rounds and tables as the bot's JSON,
    # changed by compare-and-set on its version; `due_at` for the background pass (a round's time limit)
    """
    CREATE TABLE tournaments (
        id         INTEGER PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        status     TEXT    NOT NULL,
        data       TEXT    NOT NULL,
        version    INTEGER NOT NULL,
        due_at     REAL,
        created_at REAL    NOT NULL,
        updated_at REAL    NOT NULL
    );
    CREATE INDEX tournaments_due ON tournaments (due_at) WHERE due_at IS NOT NULL;
    """,
    # 14: clubs (issue #24): a result played to its end by a substitute; a server's looking-for-game settings;
    # its rating seasons (the podium archived as JSON when one ends); the looking-for-game queue (the server's
    # own by (server, game, since), the shared one by (game, since)) and the matches waiting for an Accept (the
    # open ones by when they time out)
    """
    ALTER TABLE results ADD COLUMN substitute INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE guilds ADD COLUMN lfg_channel INTEGER;
    ALTER TABLE guilds ADD COLUMN lfg_shared INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE seasons (
        guild_id   INTEGER NOT NULL,
        number     INTEGER NOT NULL,
        name       TEXT    NOT NULL,
        started_at REAL    NOT NULL,
        ended_at   REAL,
        reset      INTEGER NOT NULL,
        podium     TEXT    NOT NULL DEFAULT '{}',
        PRIMARY KEY (guild_id, number)
    ) WITHOUT ROWID;
    CREATE TABLE lfg_queue (
        guild_id INTEGER NOT NULL,
        game     TEXT    NOT NULL,
        player   TEXT    NOT NULL,
        since    REAL    NOT NULL,
        shared   INTEGER NOT NULL,
        entry    TEXT    NOT NULL,
        PRIMARY KEY (guild_id, game, player)
    ) WITHOUT ROWID;
    CREATE INDEX lfg_local ON lfg_queue (guild_id, game, since);
    CREATE INDEX lfg_shared ON lfg_queue (game, since) WHERE shared = 1;
    CREATE TABLE lfg_matches (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        status     TEXT    NOT NULL,
        created_at REAL    NOT NULL,
        expires_at REAL    NOT NULL,
        data       TEXT    NOT NULL
    );
    CREATE INDEX lfg_matches_due ON lfg_matches (expires_at) WHERE status = 'open';
    """,
    # 15: the coach's review of a finished game (cogs/_coach.py): its judged moves as JSON, "running" until done
    """
    CREATE TABLE reviews (
        game_id    INTEGER PRIMARY KEY,
        status     TEXT    NOT NULL,
        moves      INTEGER NOT NULL,
        entries    TEXT    NOT NULL,
        updated_at REAL    NOT NULL
    );
    CREATE INDEX reviews_running ON reviews (game_id) WHERE status = 'running';
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
SYNCHRONOUS = ("FULL", "NORMAL")

_COLUMNS = _rows.columns(_rows.GAME_COLUMNS)
_GAME = f"SELECT {_COLUMNS} FROM games"
_OPEN = "status IN ('lobby', 'active')"
_MOVE = f"SELECT {_rows.columns(_rows.MOVE_COLUMNS)} FROM moves"
_RESULT = ", ".join(_rows.RESULT_COLUMNS)
_RATING = ", ".join(_rows.RATING_COLUMNS)
_SUMMARY = (
    "SELECT game, count(*) AS games, sum(place = 1) AS wins, sum(score) AS score_sum, max(score) AS best, "
    "sum(turns) AS turns, sum(turn_seconds) AS turn_seconds FROM results "
    "WHERE guild_id = :guild AND player = :player"
)
_SHARD = "(guild_id IS NULL OR ((guild_id >> 22) % :count) IN ({ids}))"  # as Shards.owns

# Every query the bot runs (named parameters), so that tests/storage can EXPLAIN each one.
SQL: dict[str, str] = {
    "load_game": f"{_GAME} WHERE id = :id",
    "game_in_channel": f"{_GAME} WHERE channel_id = :channel AND {_OPEN}",
    "last_game_in_channel": f"{_GAME} WHERE channel_id = :channel ORDER BY id DESC LIMIT 1",
    "games_in_guild": f"{_GAME} WHERE guild_id = :guild AND {_OPEN} ORDER BY id LIMIT :limit",
    "games_of": f"SELECT {_rows.columns(_rows.GAME_COLUMNS, 'games')} FROM seats "
    f"JOIN games ON games.id = seats.game_id WHERE seats.player_id = :player AND games.{_OPEN} ORDER BY games.id "
    "LIMIT :limit",
    "moves": f"{_MOVE} WHERE game_id = :id AND move_number > :since ORDER BY move_number",
    "move_by_origin": f"{_MOVE} WHERE game_id = :id AND player IN (:player, :text) AND origin = :origin "
    "ORDER BY move_number DESC LIMIT 1",
    "pending_notices": f"SELECT {_rows.columns(_rows.NOTICE_COLUMNS)} FROM notices WHERE game_id = :id ORDER BY id",
    "games_with_notices": "SELECT notices.game_id FROM notices JOIN games ON games.id = notices.game_id "
    "WHERE notices.created_at < :before AND {shard} GROUP BY notices.game_id ORDER BY MIN(notices.id) "
    "LIMIT :limit",
    "ai_due": "SELECT id FROM games WHERE ai_due = 1 AND id > :after AND {shard} ORDER BY id LIMIT :limit",
    "reminders_due": "SELECT id, remind_at FROM games WHERE remind_at <= :now AND {shard} ORDER BY remind_at "
    "LIMIT :limit",
    "claim_reminder": "UPDATE games SET remind_at = NULL, reminded_at = :now WHERE id = :id AND remind_at = :at",
    "commit_move": "UPDATE games SET state = :state, version = version + 1, status = :status, updated_at = :now, "
    "turns = turns + :turn, turn_started_at = CASE WHEN :turn THEN :now ELSE turn_started_at END, "
    "remind_at = CASE WHEN :status = 'finished' THEN NULL WHEN :turn THEN :remind_at ELSE remind_at END, "
    "ai_due = :ai, deadline_at = CASE WHEN :status = 'finished' THEN NULL WHEN :turn THEN :deadline "
    "ELSE deadline_at END, table_state = coalesce(:table, table_state) "
    "WHERE id = :id AND version = :version AND status = 'active'",
    "archive": "SELECT moves FROM move_archive WHERE game_id = :id",
    "archive_moves": "INSERT INTO move_archive (game_id, moves) VALUES (:id, :moves)",
    "archived_moves": "DELETE FROM moves WHERE game_id = :id",
    "insert_move": "INSERT INTO moves (game_id, move_number, player, action, created_at, origin, standin) "
    "VALUES (:id, :number, :player, :action, :now, :origin, :standin)",
    "insert_notice": "INSERT INTO notices (game_id, version, kind, payload, created_at) "
    "VALUES (:id, :version, :kind, :payload, :now)",
    "set_ai_due": "UPDATE games SET ai_due = :ai WHERE id = :id AND version = :version",
    "lease": "INSERT INTO leases (game_id, owner, until) VALUES (:id, :owner, :until) ON CONFLICT (game_id) "
    "DO UPDATE SET owner = excluded.owner, until = excluded.until WHERE leases.owner = excluded.owner "
    "OR leases.until < :now",
    "release": "DELETE FROM leases WHERE game_id = :id AND owner = :owner",
    "claim_share": "INSERT INTO shares (game_id, channel_id, lang, message_id, claimed_at) "
    "VALUES (:id, :channel, :lang, NULL, :now) ON CONFLICT (game_id, channel_id, lang) "
    "DO UPDATE SET claimed_at = excluded.claimed_at WHERE shares.message_id IS NULL AND shares.claimed_at < :stale",
    "share": "SELECT message_id FROM shares WHERE game_id = :id AND channel_id = :channel AND lang = :lang",
    "shared": "UPDATE shares SET message_id = :message WHERE game_id = :id AND channel_id = :channel AND lang = :lang",
    "unshare": "DELETE FROM shares WHERE game_id = :id AND channel_id = :channel AND lang = :lang "
    "AND message_id IS NULL",
    "all_game_ids": "SELECT id FROM games WHERE id > :after ORDER BY id LIMIT :limit",
    "move_reminder": "UPDATE games SET remind_at = :at WHERE id = :id AND turns = :turns AND status = 'active' "
    "AND remind_at IS NOT NULL",
    "board": "SELECT message_id FROM boards WHERE game_id = :id",
    "set_board": "INSERT INTO boards (game_id, message_id) VALUES (:id, :message) ON CONFLICT (game_id) "
    "DO UPDATE SET message_id = excluded.message_id",
    "unset_board": "DELETE FROM boards WHERE game_id = :id",
    "review": "SELECT status, entries, updated_at FROM reviews WHERE game_id = :id",
    "begin_review": "INSERT INTO reviews (game_id, status, moves, entries, updated_at) "
    "VALUES (:id, 'running', 0, '[]', :now) ON CONFLICT (game_id) DO NOTHING",
    "save_review": "UPDATE reviews SET status = :status, moves = :moves, entries = :entries, updated_at = :now "
    "WHERE game_id = :id",
    "reviews_running": "SELECT game_id FROM reviews WHERE status = 'running' AND game_id > :after "
    "ORDER BY game_id LIMIT :limit",
    "update_table": "UPDATE games SET table_state = :table, deadline_at = :deadline WHERE id = :id "
    "AND table_state = :expect AND status = 'active'",
    "deadlines_due": f"{_GAME} WHERE deadline_at <= :now AND {{shard}} ORDER BY deadline_at LIMIT :limit",
    "undo_audit": "INSERT INTO undone_moves (game_id, move_number, player, action, created_at, origin, undone_at, "
    "undone_by) SELECT game_id, move_number, player, action, created_at, origin, :now, :by FROM moves "
    "WHERE game_id = :id AND move_number > :keep",
    "undo_delete": "DELETE FROM moves WHERE game_id = :id AND move_number > :keep",
    "undo_game": "UPDATE games SET state = :state, version = :keep, turns = :turns, updated_at = :now, "
    "turn_started_at = :now, remind_at = :remind_at, ai_due = :ai, deadline_at = :deadline, table_state = :table "
    "WHERE id = :id AND version = :version AND status = 'active'",
    "undone_moves": "SELECT game_id, move_number, player, action, created_at, origin, 0 AS standin FROM undone_moves "
    "WHERE game_id = :id ORDER BY undone_at, move_number",
    "last_move_of": "SELECT max(move_number) FROM moves WHERE game_id = :id AND player IN (:player, :text)",
    "player": f"SELECT {_rows.columns(_rows.PLAYER_COLUMNS)} FROM players WHERE player_id = :id",
    # several at once, the ids as one JSON array (one statement whatever their number; each an indexed lookup)
    "players": f"SELECT {_rows.columns(_rows.PLAYER_COLUMNS)} FROM players "
    "WHERE player_id IN (SELECT value FROM json_each(:ids))",
    "set_player": "INSERT INTO players (player_id, away_until, away_ai, skip_confirm, locale, prefs) "
    "VALUES (:id, :away_until, :away_ai, :skip_confirm, :locale, :prefs) ON CONFLICT (player_id) DO UPDATE SET "
    "away_until = excluded.away_until, away_ai = excluded.away_ai, skip_confirm = excluded.skip_confirm, "
    "locale = excluded.locale, prefs = excluded.prefs",
    "last_post": "UPDATE games SET last_post_id = :message WHERE id = :id",
    "guild": f"SELECT {_rows.columns(_rows.GUILD_COLUMNS)} FROM guilds WHERE guild_id = :id",
    "set_guild": "INSERT INTO guilds (guild_id, language, lfg_channel, lfg_shared) "
    "VALUES (:id, :language, :lfg_channel, :lfg_shared) ON CONFLICT (guild_id) DO UPDATE SET "
    "language = excluded.language, lfg_channel = excluded.lfg_channel, lfg_shared = excluded.lfg_shared",
    # -- results and ratings (records/)
    "stream_tail": "SELECT finished_at, seq FROM results WHERE guild_id = :guild AND game = :game "
    "ORDER BY finished_at DESC, seq DESC LIMIT 1",
    "rating": f"SELECT {_RATING} FROM ratings WHERE guild_id = :guild AND game = :game AND player = :player",
    "insert_result": f"INSERT INTO results ({_RESULT}) VALUES ({', '.join(':' + c for c in _rows.RESULT_COLUMNS)})",
    "set_rating": f"INSERT INTO ratings ({_RATING}, shown) VALUES (:guild_id, :game, :player, :name, :mu, :sigma, "
    ":games, :updated_at, :shown) ON CONFLICT (guild_id, game, player) DO UPDATE SET name = excluded.name, "
    "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, updated_at = excluded.updated_at, "
    "shown = excluded.shown",
    "game_results": f"SELECT {_RESULT} FROM results WHERE game_id = :id ORDER BY seat",
    "leaderboard": f"SELECT {_RATING} FROM ratings WHERE guild_id = :guild AND game = :game "
    "AND updated_at >= :since ORDER BY shown DESC, player LIMIT :limit OFFSET :offset",
    "leaderboard_size": "SELECT count(*) FROM ratings WHERE guild_id = :guild AND game = :game "
    "AND updated_at >= :since",
    "standing_above": "SELECT count(*) FROM ratings WHERE guild_id = :guild AND game = :game AND shown > :shown "
    "AND updated_at >= :since",
    "summary": f"{_SUMMARY} GROUP BY game",
    "summary_game": f"{_SUMMARY} AND game = :game GROUP BY game",
    "recent": "SELECT score, place, turn_median, figures FROM results WHERE guild_id = :guild AND player = :player "
    "AND game = :game ORDER BY finished_at DESC, seq DESC LIMIT :limit",
    "history": "SELECT finished_at, mu, sigma, games FROM results WHERE guild_id = :guild AND player = :player "
    "AND game = :game AND rated = 1 ORDER BY finished_at DESC, seq DESC LIMIT :limit",
    "unrecorded": "SELECT id FROM games WHERE guild_id = :guild AND status = 'finished' AND id > :after "
    "AND NOT EXISTS (SELECT 1 FROM results WHERE results.game_id = games.id) ORDER BY id LIMIT :limit",
    "has_results": "SELECT 1 FROM results WHERE game_id = :id LIMIT 1",
    "stream": f"SELECT {_RESULT} FROM results WHERE guild_id = :guild AND game = :game AND finished_at >= :since "
    "ORDER BY finished_at, seq, seat",
    "rerate_result": "UPDATE results SET rated = :rated, mu_before = :mu_before, sigma_before = :sigma_before, "
    "games_before = :games_before, mu = :mu, sigma = :sigma, games = :games WHERE game_id = :game_id AND seat = :seat",
    "clear_ratings": "DELETE FROM ratings WHERE guild_id = :guild AND game = :game",
    "all_ratings": f"SELECT {_RATING} FROM ratings WHERE (guild_id, game, player) > (:guild, :game, :player) "
    "ORDER BY guild_id, game, player LIMIT :limit",
    "outbox_stats": "SELECT count(*) AS depth, min(created_at) AS oldest FROM notices",
    # -- tournaments
    "create_tournament": "INSERT INTO tournaments (guild_id, channel_id, status, data, version, due_at, created_at, "
    "updated_at) VALUES (:guild, :channel, 'signup', :data, 0, NULL, :now, :now)",
    "load_tournament": f"SELECT {_rows.columns(_rows.TOURNAMENT_COLUMNS)} FROM tournaments WHERE id = :id",
    "update_tournament": "UPDATE tournaments SET data = :data, status = :status, due_at = :due, "
    "version = version + 1, updated_at = :now WHERE id = :id AND version = :version",
    "tournaments_due": f"SELECT {_rows.columns(_rows.TOURNAMENT_COLUMNS)} FROM tournaments "
    "WHERE due_at <= :now AND {shard} ORDER BY due_at LIMIT :limit",
}
SQL.update(CLUB_SQL)  # storage/_sqlite_clubs.py: seasons, the queue, matches, substitutes


def _shard_sql(sql: str, shards: Shards) -> tuple[str, dict[str, Any]]:
    if shards.count == 1:
        return sql.replace("{shard}", "1"), {}
    return sql.replace("{shard}", _SHARD.format(ids=", ".join(str(int(i)) for i in shards.ids))), {
        "count": shards.count
    }


class SQLiteStorage(Clubs, Storage):
    """Open with `await SQLiteStorage.open(path)`, close with `await storage.close()`."""

    def __init__(self, conn: aiosqlite.Connection, path: str = ""):
        self._db = conn
        self.path = path
        # One connection: statements of concurrent coroutines would interleave inside a transaction, so every
        # write transaction holds this lock (reads are single statements and need none).
        self._write = asyncio.Lock()
        self._synchronous = "FULL"  # as opened (`open`): the mode of every commit but the outbox's bookkeeping

    @classmethod
    async def open(cls, path: str, *, synchronous: str = "FULL", rater: Rater | None = None) -> SQLiteStorage:
        if synchronous.upper() not in SYNCHRONOUS:
            raise StorageError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}.")
        conn = await aiosqlite.connect(path, isolation_level=None)  # we issue BEGIN/COMMIT ourselves
        conn.row_factory = sqlite3.Row  # rows are read by column name (storage/_rows.py)
        self = cls(conn, path)
        self.rater = rater
        self._synchronous = synchronous.upper()
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

    async def _all(self, name: str, params: dict[str, Any], shards: Shards | None = None) -> list[Any]:
        sql = SQL[name]
        if shards is not None:
            sql, extra = _shard_sql(sql, shards)
            params = {**params, **extra}
        return list(await self._db.execute_fetchall(sql, params))  # one trip to the database's thread, not three

    async def _game(self, name: str, params: dict[str, Any]) -> GameRow | None:
        rows = await self._all(name, params)
        return _rows.game_of(rows[0]) if rows else None

    async def load_game(self, game_id: int) -> GameRow | None:
        if not 0 < game_id <= MAX_ID:
            return None
        return await self._game("load_game", {"id": game_id})

    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        return await self._game("game_in_channel", {"channel": channel_id})

    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        return await self._game("last_game_in_channel", {"channel": channel_id})

    async def games_in_guild(self, guild_id: int, *, limit: int = 30) -> list[GameRow]:
        return [_rows.game_of(r) for r in await self._all("games_in_guild", {"guild": guild_id, "limit": limit})]

    async def games_of(self, player: str, *, limit: int = 30) -> list[GameRow]:
        return [_rows.game_of(r) for r in await self._all("games_of", {"player": player, "limit": limit})]

    async def moves(self, game_id: int, *, since: int = 0) -> list[MoveRow]:
        rows = await self._all("moves", {"id": game_id, "since": since})
        if rows:
            return [_rows.move_of(r) for r in rows]
        return await self._archived(game_id, since)

    async def _archived(self, game_id: int, since: int = 0) -> list[MoveRow]:
        """The archived move log of a game that ended (empty if it has none: running, or ended before)."""
        if not 0 < game_id <= MAX_ID:
            return []
        rows = await self._all("archive", {"id": game_id})
        return unpack_moves(game_id, rows[0][0], since=since) if rows else []

    async def move_by_origin(self, game_id: int, player: str, origin: str) -> MoveRow | None:
        rows = await self._all(
            "move_by_origin", {"id": game_id, "player": pack_player(player), "text": player, "origin": origin}
        )
        if rows:
            return _rows.move_of(rows[0])
        found = [m for m in await self._archived(game_id) if m.player == player and m.origin == origin]
        return found[-1] if found else None

    async def _archive(self, game_id: int, log: Sequence[MoveRow]) -> None:
        """Inside a write transaction: the game's move log `log` (as read) packed into its archive row, its rows
        deleted."""
        if log:
            await self._run("archive_moves", {"id": game_id, "moves": pack_moves(log)})
            await self._run("archived_moves", {"id": game_id})

    async def pending_notices(self, game_id: int) -> list[Notice]:
        return [_rows.notice_of(r) for r in await self._all("pending_notices", {"id": game_id})]

    async def games_with_notices(
        self, *, older_than: float | None = None, shards: Shards = ALL_SHARDS, limit: int = 100
    ) -> list[int]:
        before = float("inf") if older_than is None else older_than
        return [r[0] for r in await self._all("games_with_notices", {"before": before, "limit": limit}, shards)]

    async def ai_due(self, *, shards: Shards = ALL_SHARDS, after: int = 0, limit: int = 100) -> list[int]:
        return [r[0] for r in await self._all("ai_due", {"after": after, "limit": limit}, shards)]

    async def all_game_ids(self, *, after: int = 0, limit: int = 1000) -> list[int]:
        return [r[0] for r in await self._all("all_game_ids", {"after": after, "limit": limit})]

    # -- writes ------------------------------------------------------------------------------------------

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    async def _atomically(
        self, steps: Sequence[tuple[str, Any]], *, first_changes_one: bool = False, durable: bool = True
    ) -> list[int]:
        """BEGIN IMMEDIATE, the statements (SQL, parameters) and COMMIT in one trip to the database's thread, not
        one per statement: a move's commit was five trips, each a wake-up of that thread and of the event loop.
        The rows each statement changed. With `first_changes_one`, a first statement that changes no row (a
        compare-and-set that lost) rolls back at once, and only its count is returned. A failure rolls back.

        aiosqlite runs a function in its thread through `Connection._execute` (the pinned version's own way to
        run each of its calls there); a cancelled caller leaves the function to finish, so a transaction is
        never left half done.

        `durable=False`: committed without waiting for the disk (SQLite's NORMAL mode for this one commit): a
        crash of the bot keeps it, as every commit in WAL mode; a power cut may lose it, which only the outbox's
        record of what was posted may risk (that post is made once more). The next durable commit syncs it."""
        relaxed = not durable and self._synchronous == "FULL"

        def run(conn: sqlite3.Connection) -> list[int]:
            if relaxed:
                conn.execute("PRAGMA synchronous=NORMAL")
            try:
                return transaction(conn)
            finally:
                if relaxed:
                    conn.execute("PRAGMA synchronous=FULL")

        def transaction(conn: sqlite3.Connection) -> list[int]:
            conn.execute("BEGIN IMMEDIATE")
            counts: list[int] = []
            try:
                for sql, params in steps:
                    counts.append(conn.execute(sql, params).rowcount)
                    if first_changes_one and len(counts) == 1 and counts[0] != 1:
                        conn.execute("ROLLBACK")
                        return counts
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return counts

        async with self._write:
            counts: list[int] = await self._db._execute(run, self._db._conn)  # type: ignore[no-untyped-call]
        return counts

    async def _run(self, name: str, params: dict[str, Any]) -> int:
        cur = await self._db.execute(SQL[name], params)
        return cur.rowcount

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
        async with self._write, self._transaction():
            try:
                cur = await self._db.execute(
                    "INSERT INTO games (guild_id, channel_id, game, options, seed, status, seats, creator_id, "
                    "reminder_hours, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        game,
                        _rows.dumps(options),
                        seed,
                        _rows.seats_json([creator]),
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
            await self._db.execute("INSERT INTO seats (player_id, game_id) VALUES (?, ?)", (creator.id, game_id))
        return await self._reload(game_id)

    async def _set_seats(self, game_id: int, seats: Sequence[Seat]) -> None:
        await self._db.execute(
            "DELETE FROM seats WHERE game_id = ? AND player_id IN (SELECT player_id FROM seats WHERE game_id = ?)",
            (game_id, game_id),
        )
        await self._db.executemany(
            "INSERT INTO seats (player_id, game_id) VALUES (?, ?)", [(s.id, game_id) for s in seats]
        )

    async def update_lobby(
        self,
        game_id: int,
        *,
        seats: Sequence[Seat] | None = None,
        options: dict[str, Any] | None = None,
        lobby_message_id: int | None = None,
        table: dict[str, Any] | None = None,
        now: float | None = None,
    ) -> GameRow:
        sets: list[str] = ["updated_at = ?"]
        args: list[Any] = [time.time() if now is None else now]
        if seats is not None:
            sets.append("seats = ?")
            args.append(_rows.seats_json(seats))
        if options is not None:
            sets.append("options = ?")
            args.append(_rows.dumps(options))
        if lobby_message_id is not None:
            sets.append("lobby_message_id = ?")
            args.append(lobby_message_id)
        if table is not None:
            sets.append("table_state = ?")
            args.append(_rows.dumps(table))
        async with self._write, self._transaction():
            cur = await self._db.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND status = 'lobby'", (*args, game_id)
            )
            if cur.rowcount != 1:
                raise StaleVersion("The game is no longer in its lobby.")
            if seats is not None:
                await self._set_seats(game_id, seats)
        return await self._reload(game_id)

    async def start_game(
        self,
        game_id: int,
        *,
        seats: Sequence[Seat],
        state_json: str,
        due: Due = NOT_DUE,
        notice: tuple[str, dict[str, Any]] | None = None,
        now: float | None = None,
    ) -> GameRow:
        now = time.time() if now is None else now
        async with self._write, self._transaction():
            cur = await self._db.execute(
                "UPDATE games SET status = 'active', seats = ?, state = ?, version = 0, turns = 0, updated_at = ?, "
                "turn_started_at = ?, remind_at = ?, ai_due = ?, deadline_at = ? WHERE id = ? AND status = 'lobby'",
                (
                    _rows.seats_json(seats),
                    pack_state(state_json),
                    now,
                    now,
                    due.remind_at,
                    int(due.ai),
                    due.deadline_at,
                    game_id,
                ),
            )
            if cur.rowcount != 1:
                raise StaleVersion("The game is no longer in its lobby.")
            await self._set_seats(game_id, seats)
            await self._notice(game_id, 0, notice, now)
        return await self._reload(game_id)

    async def _reload(self, game_id: int) -> GameRow:
        """The game just written (it exists: games are never deleted)."""
        row = await self.load_game(game_id)
        if row is None:
            raise StorageError(f"game {game_id} vanished")
        return row

    async def _notice(self, game_id: int, version: int, notice: tuple[str, dict[str, Any]] | None, now: float) -> None:
        if notice is not None:
            kind, payload = notice
            await self._run(
                "insert_notice",
                {"id": game_id, "version": version, "kind": kind, "payload": _rows.dumps(payload), "now": now},
            )

    async def commit_move(
        self,
        row: GameRow,
        *,
        player: str,
        action: dict[str, Any],
        state_json: str,
        finished: bool,
        free: bool = False,
        origin: str | None = None,
        notice: tuple[str, dict[str, Any]] | None = None,
        due: Due = NOT_DUE,
        table: dict[str, Any] | None = None,
        now: float | None = None,
        standin: bool = False,
        finish: Finish | None = None,
    ) -> GameRow:
        now = time.time() if now is None else now
        status = "finished" if finished else "active"
        turn = 0 if free else 1
        remind_at = None if finished else due.remind_at
        deadline_at = None if finished else due.deadline_at
        steps: list[tuple[str, Any]] = [
            (
                SQL["commit_move"],
                {
                    "state": pack_state(state_json),
                    "status": status,
                    "now": now,
                    "turn": turn,
                    "remind_at": remind_at,
                    "ai": int(due.ai and not finished),
                    "deadline": deadline_at,
                    "table": None if table is None else _rows.dumps(table),
                    "id": row.id,
                    "version": row.version,
                },
            ),
            (
                SQL["insert_move"],
                {
                    "id": row.id,
                    "number": row.version + 1,
                    "player": pack_player(player),
                    "action": _rows.dumps(action),
                    "now": now,
                    "origin": origin,
                    "standin": 1 if standin else None,
                },
            ),
        ]
        if notice is not None:
            kind, payload = notice
            steps.append(
                (
                    SQL["insert_notice"],
                    {
                        "id": row.id,
                        "version": row.version + 1,
                        "kind": kind,
                        "payload": _rows.dumps(payload),
                        "now": now,
                    },
                )
            )
        if not finished:  # the common case: the whole transaction in one trip
            if (await self._atomically(steps, first_changes_one=True))[0] != 1:
                raise StaleVersion("The game has moved on since this move was chosen.")
        else:
            async with self._write, self._transaction():
                for i, (sql, params) in enumerate(steps):
                    changed = (await self._db.execute(sql, params)).rowcount
                    if i == 0 and changed != 1:
                        raise StaleVersion("The game has moved on since this move was chosen.")
                # its results, then its move log archived (it takes no more clicks)
                log = await self.moves(row.id)
                if finish is not None:
                    await self._settle(row.id, row.guild_id or 0, row.game, finish, now, live=True, log=log)
                await self._archive(row.id, final_log(log))
        return dataclasses.replace(
            row,
            state_json=state_json,
            version=row.version + 1,
            status=status,
            updated_at=now,
            turns=row.turns + turn,
            turn_started_at=row.turn_started_at if free else now,
            table=row.table if table is None else table,
            deadline_at=row.deadline_at if free and not finished else deadline_at,
            remind_at=row.remind_at if free and not finished else (None if finished else due.remind_at),
            ai_due=due.ai and not finished,
        )

    async def clear_notices(self, ids: Sequence[int], *, post: tuple[int, int] | None = None) -> None:
        if not ids and post is None:
            return
        steps: list[tuple[str, Any]] = []
        if ids:
            steps.append((f"DELETE FROM notices WHERE id IN ({', '.join('?' * len(ids))})", tuple(ids)))
        if post is not None:
            steps.append((SQL["last_post"], {"id": post[0], "message": post[1]}))
        # what was posted: lost only to a power cut (then posted again), so its commit does not wait for the disk
        await self._atomically(steps, durable=False)

    async def claim_reminders(self, now: float, *, shards: Shards = ALL_SHARDS, limit: int = 100) -> list[int]:
        claimed = []
        due = await self._all("reminders_due", {"now": now, "limit": limit}, shards)
        for start in range(0, len(due), CLAIM_BATCH):  # one commit (one disk sync) per few claims, not per claim
            async with self._write, self._transaction():
                for game_id, at in due[start : start + CLAIM_BATCH]:
                    if await self._run("claim_reminder", {"id": game_id, "at": at, "now": now}) == 1:
                        await self._notice(game_id, -1, ("reminder", {"at": now}), now)
                        claimed.append(game_id)
        return claimed

    async def set_ai_due(self, game_id: int, version: int, due: bool) -> None:
        async with self._write:
            await self._run("set_ai_due", {"ai": int(due), "id": game_id, "version": version})

    async def lease(self, game_id: int, owner: str, seconds: float, now: float | None = None) -> bool:
        now = time.time() if now is None else now
        async with self._write:
            return await self._run("lease", {"id": game_id, "owner": owner, "until": now + seconds, "now": now}) == 1

    async def release(self, game_id: int, owner: str) -> None:
        async with self._write:
            await self._run("release", {"id": game_id, "owner": owner})

    async def claim_share(
        self, game_id: int, channel_id: int, lang: str, *, now: float | None = None, stale_after: float = 900.0
    ) -> tuple[bool, int | None]:
        now = time.time() if now is None else now
        key = {"id": game_id, "channel": channel_id, "lang": lang}
        async with self._write, self._transaction():
            if await self._run("claim_share", {**key, "now": now, "stale": now - stale_after}) == 1:
                return True, None
            rows = await self._all("share", key)
        return False, (rows[0][0] if rows else None)

    async def share_posted(self, game_id: int, channel_id: int, lang: str, message_id: int | None) -> None:
        key = {"id": game_id, "channel": channel_id, "lang": lang}
        async with self._write:
            if message_id is None:
                await self._run("unshare", key)
            else:
                await self._run("shared", {**key, "message": message_id})

    async def move_reminder(self, game_id: int, turns: int, remind_at: float) -> bool:
        async with self._write:
            return await self._run("move_reminder", {"id": game_id, "turns": turns, "at": remind_at}) == 1

    async def board_message(self, game_id: int) -> int | None:
        rows = await self._all("board", {"id": game_id})
        return int(rows[0][0]) if rows else None

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        async with self._write:
            if message_id is None:
                await self._run("unset_board", {"id": game_id})
            else:
                await self._run("set_board", {"id": game_id, "message": message_id})

    async def cancel_game(self, game_id: int, now: float | None = None) -> bool:
        async with self._write, self._transaction():
            cur = await self._db.execute(
                "UPDATE games SET status = 'cancelled', updated_at = ?, remind_at = NULL, ai_due = 0 "
                "WHERE id = ? AND status IN ('lobby', 'active')",
                (time.time() if now is None else now, game_id),
            )
            if cur.rowcount != 1:
                return False
            await self._archive(game_id, await self.moves(game_id))
            return True

    async def mark_nudged(self, game_id: int, now: float | None = None) -> None:
        async with self._write:
            await self._db.execute(
                "UPDATE games SET nudged_at = ? WHERE id = ?", (time.time() if now is None else now, game_id)
            )

    async def review(self, game_id: int) -> Review | None:
        rows = await self._all("review", {"id": game_id})
        if not rows:
            return None
        status, entries, at = rows[0]
        return Review(game_id, str(status), tuple(json.loads(entries)), float(at))

    async def begin_review(self, game_id: int, now: float | None = None) -> bool:
        async with self._write:
            return await self._run("begin_review", {"id": game_id, "now": time.time() if now is None else now}) == 1

    async def save_review(self, review: Review, now: float | None = None) -> None:
        params = {
            "id": review.game_id,
            "status": review.status,
            "moves": len(review.entries),
            "entries": json.dumps(list(review.entries), separators=(",", ":")),
            "now": time.time() if now is None else now,
        }
        async with self._write:
            await self._run("save_review", params)

    async def reviews_running(self, *, after: int = 0, limit: int = 100) -> list[int]:
        return [int(r[0]) for r in await self._all("reviews_running", {"after": after, "limit": limit})]

    async def update_table(
        self,
        game_id: int,
        *,
        expect: dict[str, Any],
        table: dict[str, Any],
        deadline_at: float | None,
        notice: tuple[str, dict[str, Any]] | None = None,
        now: float | None = None,
    ) -> GameRow | None:
        now = time.time() if now is None else now
        async with self._write, self._transaction():
            changed = await self._run(
                "update_table",
                {"table": _rows.dumps(table), "deadline": deadline_at, "id": game_id, "expect": _rows.dumps(expect)},
            )
            if changed != 1:
                return None
            await self._notice(game_id, -1, notice, now)
        return await self._reload(game_id)

    async def deadlines_due(self, now: float, *, shards: Shards = ALL_SHARDS, limit: int = 100) -> list[GameRow]:
        return [_rows.game_of(r) for r in await self._all("deadlines_due", {"now": now, "limit": limit}, shards)]

    async def undo(
        self,
        row: GameRow,
        *,
        keep: int,
        state_json: str,
        turns: int,
        by: str,
        table: dict[str, Any],
        due: Due = NOT_DUE,
        notice: tuple[str, dict[str, Any]] | None = None,
        now: float | None = None,
    ) -> GameRow:
        now = time.time() if now is None else now
        async with self._write, self._transaction():
            changed = await self._run(
                "undo_game",
                {
                    "state": pack_state(state_json),
                    "keep": keep,
                    "turns": turns,
                    "now": now,
                    "remind_at": due.remind_at,
                    "ai": int(due.ai),
                    "deadline": due.deadline_at,
                    "table": _rows.dumps(table),
                    "id": row.id,
                    "version": row.version,
                },
            )
            if changed != 1:
                raise StaleVersion("The game has moved on since the undo was asked for.")
            await self._run("undo_audit", {"id": row.id, "keep": keep, "now": now, "by": by})
            await self._run("undo_delete", {"id": row.id, "keep": keep})
            await self._notice(row.id, keep, notice, now)
        return await self._reload(row.id)

    async def undone_moves(self, game_id: int) -> list[MoveRow]:
        return [_rows.move_of(r) for r in await self._all("undone_moves", {"id": game_id})]

    async def last_move_of(self, game_id: int, player: str) -> int:
        rows = await self._all("last_move_of", {"id": game_id, "player": pack_player(player), "text": player})
        if rows and rows[0][0]:
            return int(rows[0][0])
        return max((m.move_number for m in await self._archived(game_id) if m.player == player), default=0)

    async def player(self, player_id: str) -> Player:
        rows = await self._all("player", {"id": player_id})
        return _rows.player_of(rows[0]) if rows else Player(player_id)

    async def players(self, player_ids: Sequence[str]) -> dict[str, Player]:
        ids = list(dict.fromkeys(player_ids))
        if not ids:
            return {}
        if len(ids) == 1:
            return {ids[0]: await self.player(ids[0])}
        found = {p.id: p for p in map(_rows.player_of, await self._all("players", {"ids": json.dumps(ids)}))}
        return {pid: found.get(pid, Player(pid)) for pid in ids}

    async def set_player(self, player: Player) -> None:
        async with self._write:
            await self._run(
                "set_player",
                {
                    "id": player.id,
                    "away_until": player.away_until,
                    "away_ai": int(player.away_ai),
                    "skip_confirm": int(player.skip_confirm),
                    "locale": player.locale,
                    "prefs": _rows.prefs_json(player),
                },
            )

    async def guild(self, guild_id: int) -> Guild:
        rows = await self._all("guild", {"id": guild_id})
        return _rows.guild_of(rows[0]) if rows else Guild(guild_id)

    async def set_guild(self, guild: Guild) -> None:
        async with self._write:
            await self._run(
                "set_guild",
                {
                    "id": guild.id,
                    "language": guild.language,
                    "lfg_channel": guild.lfg_channel,
                    "lfg_shared": int(guild.lfg_shared),
                },
            )

    # -- tournaments ---------------------------------------------------------------------------------------

    async def create_tournament(
        self, *, guild_id: int, channel_id: int, data: dict[str, Any], now: float | None = None
    ) -> TournamentRow:
        now = time.time() if now is None else now
        async with self._write:
            cur = await self._db.execute(
                SQL["create_tournament"],
                {"guild": guild_id, "channel": channel_id, "data": _rows.dumps(data), "now": now},
            )
            tid = cur.lastrowid
        row = await self.load_tournament(int(tid or 0))
        assert row is not None
        return row

    async def load_tournament(self, tournament_id: int) -> TournamentRow | None:
        if not 0 < tournament_id <= MAX_ID:
            return None
        rows = await self._all("load_tournament", {"id": tournament_id})
        return _rows.tournament_of(rows[0]) if rows else None

    async def update_tournament(
        self,
        row: TournamentRow,
        *,
        data: dict[str, Any],
        status: str,
        due_at: float | None,
        now: float | None = None,
    ) -> TournamentRow | None:
        now = time.time() if now is None else now
        text = _rows.dumps(data)
        params = {"data": text, "status": status, "due": due_at, "now": now}
        async with self._write:
            done = await self._run("update_tournament", params | {"id": row.id, "version": row.version})
        if done != 1:
            return None
        return dataclasses.replace(
            row, data=json.loads(text), status=status, due_at=due_at, version=row.version + 1, updated_at=now
        )

    async def tournaments_due(
        self, now: float, *, shards: Shards = ALL_SHARDS, limit: int = 100
    ) -> list[TournamentRow]:
        rows = await self._all("tournaments_due", {"now": now, "limit": limit}, shards)
        return [_rows.tournament_of(r) for r in rows]

    # -- results and ratings (records/) -------------------------------------------------------------------

    async def _settle(
        self,
        game_id: int,
        guild: int,
        game: str,
        finish: Finish,
        at: float,
        *,
        live: bool,
        log: Sequence[MoveRow] | None = None,
    ) -> None:
        """Inside a write transaction: the game's results and the ratings it changes, from its move `log` (read
        if not given: rows or archive). A live finish goes after every game of its stream; a late one
        (`record_finish`) at its own time (a rebuild puts it in order)."""
        tails = await self._all("stream_tail", {"guild": guild, "game": game})
        finished_at, seq = _rows.next_place(tails[0] if tails else None, at)
        if not live:
            finished_at = at
        if log is None:
            log = await self.moves(game_id)
        moves = _rows.moves_of(log)
        humans = [s.player for s in finish.seats if s.ai_level is None]
        current = await self._current(guild, game, humans) if guild else {}
        records = self._rater().settle(finish, moves, current, rated=bool(guild))
        results = _rows.results_of(game_id, guild, game, finished_at, seq, records)
        await self._db.executemany(SQL["insert_result"], [_rows.result_values(r) for r in results])
        await self._db.executemany(SQL["set_rating"], [_rows.rating_values(r) for r in _rows.ratings_after(results)])

    async def _current(self, guild: int, game: str, players: Sequence[str]) -> dict[str, Rating]:
        found = []
        for p in players:  # a handful per game: one primary-key lookup each
            found += [
                _rows.rating_of(r) for r in await self._all("rating", {"guild": guild, "game": game, "player": p})
            ]
        return _rows.current_of(found)

    async def game_results(self, game_id: int) -> list[ResultRow]:
        if not 0 < game_id <= MAX_ID:
            return []
        return [_rows.result_of(r) for r in await self._all("game_results", {"id": game_id})]

    async def leaderboard(
        self, guild_id: int, game: str, *, offset: int = 0, limit: int = 10, since: float = 0.0
    ) -> list[RatingRow]:
        params = {"guild": guild_id, "game": game, "offset": offset, "limit": limit, "since": since}
        return [_rows.rating_of(r) for r in await self._all("leaderboard", params)]

    async def leaderboard_size(self, guild_id: int, game: str, *, since: float = 0.0) -> int:
        rows = await self._all("leaderboard_size", {"guild": guild_id, "game": game, "since": since})
        return int(rows[0][0])

    async def standing(
        self, guild_id: int, game: str, player: str, *, since: float = 0.0
    ) -> tuple[int, RatingRow] | None:
        rows = await self._all("rating", {"guild": guild_id, "game": game, "player": player})
        if not rows or _rows.rating_of(rows[0]).updated_at < since:
            return None
        mine = _rows.rating_of(rows[0])
        params = {"guild": guild_id, "game": game, "shown": mine.rating.shown, "since": since}
        above = await self._all("standing_above", params)
        return int(above[0][0]) + 1, mine

    async def player_summary(self, guild_id: int, player: str, game: str | None = None) -> list[Summary]:
        if game is None:
            rows = await self._all("summary", {"guild": guild_id, "player": player})
        else:
            rows = await self._all("summary_game", {"guild": guild_id, "player": player, "game": game})
        return [_rows.summary_of(r) for r in rows]

    async def player_recent(self, guild_id: int, player: str, game: str, *, limit: int = 500) -> list[Recent]:
        rows = await self._all("recent", {"guild": guild_id, "player": player, "game": game, "limit": limit})
        return [_rows.recent_of(r) for r in rows]

    async def rating_history(
        self, guild_id: int, game: str, player: str, *, limit: int = 200
    ) -> list[tuple[float, Rating]]:
        rows = await self._all("history", {"guild": guild_id, "player": player, "game": game, "limit": limit})
        return [_rows.history_of(r) for r in reversed(rows)]

    async def unrecorded_games(self, guild_id: int, *, after: int = 0, limit: int = 100) -> list[int]:
        return [r[0] for r in await self._all("unrecorded", {"guild": guild_id, "after": after, "limit": limit})]

    async def record_finish(self, game_id: int, finish: Finish) -> bool:
        row = await self.load_game(game_id)
        if row is None or row.status != "finished":
            return False
        async with self._write, self._transaction():
            if await self._all("has_results", {"id": game_id}):
                return False
            await self._settle(game_id, row.guild_id or 0, row.game, finish, row.updated_at, live=False)
        return True

    async def rebuild_ratings(self, guild_id: int, game: str) -> int:
        """Read and rate the stream outside the write lock (moves of other games go on), then write it if no game
        of the stream finished meanwhile; after a few tries, all of it under the lock."""
        key = {"guild": guild_id, "game": game}
        since = (await self._all("reset_since", {"guild": guild_id}))[0][0] or 0.0
        for attempt in range(4):
            held = attempt == 3
            if held:
                await self._write.acquire()
            try:
                stream = await self._all("stream", {**key, "since": since})
                rows = await asyncio.to_thread(_rows.results_from, stream)
                results, ratings = await asyncio.to_thread(_rows.rebuilt, rows, self._rater())
                values = await asyncio.to_thread(_rows.rerate_values, results)
                if not held:
                    await self._write.acquire()
                    held = True
                async with self._transaction():
                    tail = await self._all("stream_tail", key)
                    seen = (rows[-1].finished_at, rows[-1].seq) if rows else None
                    if (tuple(tail[0]) if tail and tail[0][0] >= since else None) != seen and attempt < 3:
                        continue  # a game of the stream finished meanwhile: again
                    await self._run("clear_ratings", key)
                    await self._db.executemany(SQL["set_rating"], [_rows.rating_values(r) for r in ratings])
                    await self._db.executemany(SQL["rerate_result"], values)
                return len({r.game_id for r in rows})
            finally:
                if held:
                    self._write.release()
        raise StorageError("unreachable")

    async def all_ratings(self, *, after: tuple[int, str, str] | None = None, limit: int = 1000) -> list[RatingRow]:
        guild, game, player = after if after is not None else (-(2**63), "", "")
        rows = await self._all("all_ratings", {"guild": guild, "game": game, "player": player, "limit": limit})
        return [_rows.rating_of(r) for r in rows]

    async def import_records(self, results: Sequence[ResultRow], ratings: Sequence[RatingRow]) -> None:
        async with self._write, self._transaction():
            await self._db.executemany(SQL["insert_result"], [_rows.result_values(r) for r in results])
            await self._db.executemany(SQL["set_rating"], [_rows.rating_values(r) for r in ratings])

    async def table_rows(
        self, table: str, *, after: tuple[Any, ...] | None = None, limit: int = 1000
    ) -> list[dict[str, Any]]:
        sql = _rows.table_sql(table, after=after is not None, mark=lambda i: "?")
        async with self._db.execute(sql, (*(after or ()), limit)) as cur:
            return [_rows.plain(table, r) for r in await cur.fetchall()]

    async def import_rows(self, table: str, rows: Sequence[dict[str, Any]]) -> None:
        def stored(r: dict[str, Any]) -> tuple[Any, ...]:
            values = dict(r)
            if table == "undone_moves":
                values["player"] = pack_player(values["player"])
            return tuple(int(v) if isinstance(v, bool) else v for v in values.values())

        async with self._write, self._transaction():
            await self._db.executemany(_rows.insert_sql(table, lambda i: "?"), [stored(r) for r in rows])

    async def import_game(self, row: GameRow, moves: Sequence[MoveRow], notices: Sequence[Notice]) -> None:
        async with self._write, self._transaction():
            await self._db.execute(
                f"INSERT INTO games ({_COLUMNS}) VALUES ({', '.join(':' + c for c in _rows.GAME_COLUMNS)})",
                _rows.game_values(row),
            )
            await self._set_seats(row.id, row.seats)
            if row.status in ("finished", "cancelled"):  # an ended game's log goes to its archive, as it ended
                await self._archive(row.id, moves)
                moves = ()
            await self._db.executemany(
                "INSERT INTO moves (game_id, move_number, player, action, created_at, origin, standin) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        m.game_id,
                        m.move_number,
                        pack_player(m.player),
                        _rows.dumps(m.action),
                        m.created_at,
                        m.origin,
                        1 if m.standin else None,
                    )
                    for m in moves
                ],
            )
            for n in notices:
                await self._notice(n.game_id, n.version, (n.kind, n.payload), n.created_at)

    @staticmethod
    def full_scan(plan: str, tables: Sequence[str]) -> bool:
        """True if the plan reads one of `tables` whole (SQLite says SCAN; an index lookup is a SEARCH)."""
        return any(line.split()[:2] in (["SCAN", t] for t in tables) for line in plan.splitlines())

    async def query_plans(self) -> dict[str, str]:
        plans = {}
        for name, sql in SQL.items():
            sql, _ = _shard_sql(sql, Shards(2, (1,)))
            params = {p: 1 for p in _param_names(sql)}
            async with self._db.execute(f"EXPLAIN QUERY PLAN {sql}", params) as cur:
                plans[name] = "\n".join(str(r[3]) for r in await cur.fetchall())
        return plans

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

    # -- operations --------------------------------------------------------------------------------------

    async def outbox_stats(self) -> tuple[int, float | None]:
        r = (await self._all("outbox_stats", {}))[0]
        return int(r["depth"]), (float(r["oldest"]) if r["oldest"] is not None else None)


def _param_names(sql: str) -> list[str]:
    import re

    return re.findall(r":([a-z_]+)", sql)


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
