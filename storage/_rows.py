"""What both backends share about rows: the columns of each table they read, a row read by column name (an
`sqlite3.Row` or an asyncpg `Record`: never by position) as the record the bot gets, a record as the values of
its columns, and the pure steps around settling a finished game and rebuilding a server's ratings (the arithmetic
is the `Rater` storage was opened with: records/', which storage never imports)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from storage.base import (
    GameRow,
    Guild,
    Match,
    MoveRow,
    Notice,
    Player,
    QueueEntry,
    Season,
    Seat,
    TournamentRow,
    pack_state,
    unpack_state,
)
from storage.results import Move, Rater, Rating, RatingRow, Recent, ResultRow, SeatRecord, Summary

Row = Any  # a row that reads its columns by name: sqlite3.Row, asyncpg.Record

GAME_COLUMNS = (
    "id",
    "guild_id",
    "channel_id",
    "game",
    "options",
    "seed",
    "status",
    "seats",
    "state",
    "version",
    "creator_id",
    "lobby_message_id",
    "reminder_hours",
    "created_at",
    "updated_at",
    "turn_started_at",
    "reminded_at",
    "nudged_at",
    "turns",
    "table_state",
    "deadline_at",
    "last_post_id",
    "remind_at",
    "ai_due",
)
# the columns stored as the GameRow field of the same name holds them; the others are converted (JSON, packed)
PLAIN_GAME_COLUMNS = tuple(c for c in GAME_COLUMNS if c not in {"options", "seats", "state", "table_state", "ai_due"})
MOVE_COLUMNS = ("game_id", "move_number", "player", "action", "created_at", "origin", "standin")
NOTICE_COLUMNS = ("id", "game_id", "version", "kind", "payload", "created_at")
PLAYER_COLUMNS = ("player_id", "away_until", "away_ai", "skip_confirm", "locale", "prefs")
GUILD_COLUMNS = ("guild_id", "language", "lfg_channel", "lfg_shared")
SEASON_COLUMNS = ("guild_id", "number", "name", "started_at", "ended_at", "reset", "podium")
QUEUE_COLUMNS = ("guild_id", "game", "player", "since", "shared", "entry")
MATCH_COLUMNS = ("id", "guild_id", "game", "status", "created_at", "expires_at", "data")
TOURNAMENT_COLUMNS = ("id", "guild_id", "channel_id", "status", "data", "version", "due_at", "created_at", "updated_at")
RECENT_COLUMNS = ("score", "place", "turn_median", "figures")
HISTORY_COLUMNS = ("finished_at", "mu", "sigma", "games")

RESULT_COLUMNS = (
    "game_id",
    "guild_id",
    "game",
    "finished_at",
    "seq",
    "seat",
    "player",
    "name",
    "score",
    "place",
    "ai_level",
    "abandoned",
    "moves",
    "standin_moves",
    "rated",
    "mu_before",
    "sigma_before",
    "games_before",
    "mu",
    "sigma",
    "games",
    "turns",
    "turn_seconds",
    "turn_median",
    "figures",
    "substitute",
)
RATING_COLUMNS = ("guild_id", "game", "player", "name", "mu", "sigma", "games", "updated_at")

# The tables `python -m storage copy` reads (and, but for the seats import_game writes, copies) row by row, beyond
# the games with their moves and notices (import_game) and the results and ratings (import_records): each one's
# columns and its key, in which order it is read a page at a time (`Storage.table_rows`).
TABLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "seats": (("player_id", "game_id"), ("player_id", "game_id")),
    "players": (PLAYER_COLUMNS, ("player_id",)),
    "guilds": (GUILD_COLUMNS, ("guild_id",)),
    "undone_moves": (
        ("game_id", "move_number", "player", "action", "created_at", "origin", "undone_at", "undone_by"),
        ("game_id", "undone_at", "move_number"),
    ),
    "shares": (("game_id", "channel_id", "lang", "message_id", "claimed_at"), ("game_id", "channel_id", "lang")),
    "leases": (("game_id", "owner", "until"), ("game_id",)),
    "boards": (("game_id", "message_id"), ("game_id",)),
    "tournaments": (TOURNAMENT_COLUMNS, ("id",)),
    "seasons": (SEASON_COLUMNS, ("guild_id", "number")),
    "lfg_queue": (QUEUE_COLUMNS, ("guild_id", "game", "player")),
    "lfg_matches": (MATCH_COLUMNS, ("id",)),
    "reviews": (("game_id", "status", "moves", "entries", "updated_at"), ("game_id",)),
}
COPIED_TABLES = tuple(t for t in TABLES if t != "seats")  # the seats are written by import_game
_FLAGS = frozenset({"away_ai", "skip_confirm", "lfg_shared", "reset", "shared"})  # booleans (SQLite stores 0/1)


def plain(table: str, r: Row) -> dict[str, Any]:
    """A row of one of TABLES as plain values, the same from both backends (flags as booleans, a move log's
    player id as text)."""
    out = {c: r[c] for c in TABLES[table][0]}
    for c in _FLAGS.intersection(out):
        out[c] = bool(out[c])
    if table == "undone_moves":
        out["player"] = str(out["player"])
    return out


def table_sql(table: str, *, after: bool, mark: Any) -> str:
    """The page of a table in key order (after a key, if `after`), its parameters named by `mark(i)` (1-based):
    the key's columns, then the limit."""
    cols, key = TABLES[table]
    where = ""
    if after:
        marks = ", ".join(mark(i) for i in range(1, len(key) + 1))
        where = f" WHERE ({', '.join(key)}) > ({marks})" if len(key) > 1 else f" WHERE {key[0]} > {marks}"
    return (
        f"SELECT {columns(cols)} FROM {table}{where} ORDER BY {', '.join(key)} "
        f"LIMIT {mark(len(key) + 1 if after else 1)}"
    )


def insert_sql(table: str, mark: Any) -> str:
    cols = TABLES[table][0]
    return f"INSERT INTO {table} ({columns(cols)}) VALUES ({', '.join(mark(i) for i in range(1, len(cols) + 1))})"


def columns(names: Sequence[str], table: str = "") -> str:
    """A SELECT list of these columns (of `table`, if given)."""
    return ", ".join(f"{table}.{c}" if table else c for c in names)


def seats_json(seats: Iterable[Seat]) -> str:
    return json.dumps([{"id": s.id, "name": s.name} for s in seats])


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def game_of(r: Row) -> GameRow:
    """A `games` row (GAME_COLUMNS) as the GameRow the bot reads."""
    return GameRow(
        **{c: r[c] for c in PLAIN_GAME_COLUMNS},
        options=json.loads(r["options"]),
        seats=tuple(Seat(s["id"], s["name"]) for s in json.loads(r["seats"])),
        state_json=unpack_state(r["state"]),
        table=json.loads(r["table_state"]),
        ai_due=bool(r["ai_due"]),
    )


def game_values(row: GameRow) -> dict[str, Any]:
    """A GameRow as the values of its GAME_COLUMNS (a game copied from another database)."""
    return {c: getattr(row, c) for c in PLAIN_GAME_COLUMNS} | {
        "options": dumps(row.options),
        "seats": seats_json(row.seats),
        "state": pack_state(row.state_json) if row.state_json is not None else None,
        "table_state": dumps(row.table),
        "ai_due": row.ai_due,
    }


def move_of(r: Row) -> MoveRow:
    """A `moves` (or `undone_moves`) row as a MoveRow; the player id as text (a Discord id is stored as a
    number: `pack_player`)."""
    return MoveRow(
        r["game_id"],
        r["move_number"],
        str(r["player"]),
        json.loads(r["action"]),
        r["created_at"],
        r["origin"],
        bool(r["standin"]),
    )


def notice_of(r: Row) -> Notice:
    return Notice(r["id"], r["game_id"], r["version"], r["kind"], json.loads(r["payload"]), r["created_at"])


def player_of(r: Row) -> Player:
    prefs = json.loads(r["prefs"] or "{}")
    return Player(
        r["player_id"],
        r["away_until"],
        bool(r["away_ai"]),
        bool(r["skip_confirm"]),
        r["locale"],
        quiet=prefs.get("quiet"),
        timezone=prefs.get("timezone"),
        dm=prefs.get("dm", "off"),
        dm_sent=tuple(prefs.get("dm_sent", ())),
        dm_turns=tuple(prefs.get("dm_turns", ())),
    )


def prefs_json(player: Player) -> str:
    """The `prefs` column of a player's row: the settings beyond the first columns, as JSON (defaults left out)."""
    prefs = {
        "quiet": player.quiet,
        "timezone": player.timezone,
        "dm": None if player.dm == "off" else player.dm,
        "dm_sent": list(player.dm_sent) or None,
        "dm_turns": list(player.dm_turns) or None,
    }
    return dumps({k: v for k, v in prefs.items() if v is not None})


def guild_of(r: Row) -> Guild:
    return Guild(r["guild_id"], r["language"], r["lfg_channel"], bool(r["lfg_shared"]))


def season_of(r: Row) -> Season:
    return Season(
        int(r["guild_id"]),
        int(r["number"]),
        str(r["name"]),
        float(r["started_at"]),
        None if r["ended_at"] is None else float(r["ended_at"]),
        bool(r["reset"]),
        json.loads(r["podium"]),
    )


def entry_json(e: QueueEntry) -> str:
    """A queue entry's `entry` column: what the indexed columns do not hold."""
    return dumps(
        {
            "name": e.name,
            "players": e.players,
            "speed": e.speed,
            "band": e.band,
            "rating": e.rating,
            "pace": e.pace,
            "ignored": e.ignored,
        }
    )


def entry_of(r: Row) -> QueueEntry:
    e = json.loads(r["entry"])
    return QueueEntry(
        int(r["guild_id"]),
        str(r["player"]),
        str(r["game"]),
        str(e["name"]),
        float(r["since"]),
        bool(r["shared"]),
        e.get("players"),
        e.get("speed"),
        e.get("band"),
        float(e.get("rating", 0.0)),
        e.get("pace"),
        int(e.get("ignored", 0)),
    )


def entry_dict(e: QueueEntry) -> dict[str, Any]:
    """A queue entry as plain JSON (kept in a match's data, put back in the queue when the match times out)."""
    return {
        **json.loads(entry_json(e)),
        "guild_id": e.guild_id,
        "player": e.player,
        "game": e.game,
        "since": e.since,
        "shared": e.shared,
    }


def entry_from(d: dict[str, Any]) -> QueueEntry:
    return QueueEntry(
        int(d["guild_id"]),
        str(d["player"]),
        str(d["game"]),
        str(d["name"]),
        float(d["since"]),
        bool(d["shared"]),
        d.get("players"),
        d.get("speed"),
        d.get("band"),
        float(d.get("rating", 0.0)),
        d.get("pace"),
        int(d.get("ignored", 0)),
    )


def waiting(rows: Iterable[Row]) -> list[QueueEntry]:
    """Queue rows (a server's own and the shared queue's, which overlap) as entries, each once, the longest
    waiting first."""
    seen: dict[tuple[int, str, str], QueueEntry] = {}
    for r in rows:
        e = entry_of(r)
        seen[(e.guild_id, e.game, e.player)] = e
    return sorted(seen.values(), key=lambda e: (e.since, e.guild_id, e.player))


def match_of(r: Row) -> Match:
    return Match(
        int(r["id"]),
        int(r["guild_id"]),
        str(r["game"]),
        str(r["status"]),
        float(r["created_at"]),
        float(r["expires_at"]),
        json.loads(r["data"]),
    )


def podium_of(rows: Iterable[RatingRow]) -> list[list[Any]]:
    """A game's podium as a season keeps it: [player, name, shown rating, rated games], best first."""
    return [[r.player, r.name, round(r.rating.shown, 3), r.rating.games] for r in rows]


def tournament_of(r: Row) -> TournamentRow:
    """A `tournaments` row (TOURNAMENT_COLUMNS) as the TournamentRow the bot reads."""
    return TournamentRow(**{c: r[c] for c in TOURNAMENT_COLUMNS if c != "data"}, data=json.loads(r["data"]))


def summary_of(r: Row) -> Summary:
    """A row of the per-game totals query (its columns named as Summary's fields)."""
    return Summary(
        r["game"],
        int(r["games"]),
        int(r["wins"]),
        float(r["score_sum"]),
        int(r["best"]),
        int(r["turns"]),
        float(r["turn_seconds"]),
    )


def recent_of(r: Row) -> Recent:
    return Recent(int(r["score"]), int(r["place"]), r["turn_median"], json.loads(r["figures"]))


def history_of(r: Row) -> tuple[float, Rating]:
    return float(r["finished_at"]), Rating(float(r["mu"]), float(r["sigma"]), int(r["games"]))


def stream_key(guild_id: int, game: str) -> int:
    """A signed 64-bit key naming one server's ratings of one game (PostgreSQL's advisory lock serialising them)."""
    digest = hashlib.blake2b(f"records:{guild_id}:{game}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def next_place(tail: Row | None, now: float) -> tuple[float, int]:
    """Where a game finishing at `now` goes in its stream's order, after the stream's last (finished_at, seq):
    its finishing time never earlier than the last one's, so the order by (finished_at, seq) is the order the
    games were rated in."""
    if tail is None:
        return now, 1
    return max(now, float(tail["finished_at"])), int(tail["seq"]) + 1


def moves_of(log: Iterable[MoveRow]) -> list[Move]:
    """A move log as what settling needs of it (`Move`s)."""
    return [Move(m.player, float(m.created_at), m.standin) for m in log]


def rating_of(r: Row) -> RatingRow:
    """A `ratings` row (RATING_COLUMNS) as a RatingRow."""
    rating = Rating(float(r["mu"]), float(r["sigma"]), int(r["games"]))
    return RatingRow(int(r["guild_id"]), str(r["game"]), str(r["player"]), str(r["name"]), rating, r["updated_at"])


def rating_values(r: RatingRow) -> dict[str, Any]:
    return {
        "guild_id": r.guild_id,
        "game": r.game,
        "player": r.player,
        "name": r.name,
        "mu": r.rating.mu,
        "sigma": r.rating.sigma,
        "games": r.rating.games,
        "updated_at": r.updated_at,
        "shown": r.rating.shown,
    }


def _rating(mu: Any, sigma: Any, games: Any) -> Rating | None:
    return None if mu is None else Rating(float(mu), float(sigma), int(games))


def result_of(r: Row) -> ResultRow:
    """A `results` row (RESULT_COLUMNS) as a ResultRow."""
    record = SeatRecord(
        seat=int(r["seat"]),
        player=str(r["player"]),
        name=str(r["name"]),
        score=int(r["score"]),
        place=int(r["place"]),
        ai_level=r["ai_level"],
        abandoned=bool(r["abandoned"]),
        moves=int(r["moves"]),
        standin_moves=int(r["standin_moves"]),
        rated=bool(r["rated"]),
        before=_rating(r["mu_before"], r["sigma_before"], r["games_before"]),
        after=_rating(r["mu"], r["sigma"], r["games"]),
        turns=int(r["turns"]),
        turn_seconds=float(r["turn_seconds"]),
        turn_median=None if r["turn_median"] is None else float(r["turn_median"]),
        figures=json.loads(r["figures"]),
        substitute=bool(r["substitute"]),
    )
    return ResultRow(
        int(r["game_id"]), int(r["guild_id"]), str(r["game"]), float(r["finished_at"]), int(r["seq"]), record
    )


def results_from(rows: Iterable[Row]) -> list[ResultRow]:
    """Many stored rows as ResultRows (a rebuild reads a whole server's: in a thread)."""
    return [result_of(r) for r in rows]


def result_values(row: ResultRow) -> dict[str, Any]:
    """A ResultRow as column values (RESULT_COLUMNS names)."""
    rec = row.record
    before, after = rec.before, rec.after
    return {
        "game_id": row.game_id,
        "guild_id": row.guild_id,
        "game": row.game,
        "finished_at": row.finished_at,
        "seq": row.seq,
        "seat": rec.seat,
        "player": rec.player,
        "name": rec.name,
        "score": rec.score,
        "place": rec.place,
        "ai_level": rec.ai_level,
        "abandoned": rec.abandoned,
        "moves": rec.moves,
        "standin_moves": rec.standin_moves,
        "rated": rec.rated,
        "mu_before": before.mu if before else None,
        "sigma_before": before.sigma if before else None,
        "games_before": before.games if before else None,
        "mu": after.mu if after else None,
        "sigma": after.sigma if after else None,
        "games": after.games if after else None,
        "turns": rec.turns,
        "turn_seconds": rec.turn_seconds,
        "turn_median": rec.turn_median,
        "figures": json.dumps(dict(rec.figures), separators=(",", ":"), sort_keys=True),
        "substitute": rec.substitute,
    }


def results_of(
    game_id: int, guild_id: int, game: str, at: float, seq: int, records: Sequence[SeatRecord]
) -> list[ResultRow]:
    return [ResultRow(game_id, guild_id, game, at, seq, r) for r in records]


def ratings_after(results: Sequence[ResultRow]) -> list[RatingRow]:
    """The rating rows a game's rated seats leave (stamped with the game's finishing time)."""
    return [
        RatingRow(r.guild_id, r.game, r.record.player, r.record.name, r.record.after, r.finished_at)
        for r in results
        if r.record.after is not None and r.guild_id
    ]


def current_of(rows: Iterable[RatingRow]) -> dict[str, Rating]:
    return {r.player: r.rating for r in rows}


def rebuilt(rows: Sequence[ResultRow], rater: Rater) -> tuple[list[ResultRow], list[RatingRow]]:
    """A stream's stored results (in order) rated again from nothing: the results with their new before/after
    and the final rating rows (each with the name and time of the player's last game). Pure: run in a thread."""
    games: list[list[ResultRow]] = []
    for r in rows:
        if games and games[-1][0].game_id == r.game_id:
            games[-1].append(r)
        else:
            games.append([r])
    _, again = rater.rebuild([[r.record for r in g] for g in games])
    results = [
        ResultRow(old.game_id, old.guild_id, old.game, old.finished_at, old.seq, new)
        for g, records in zip(games, again, strict=True)
        for old, new in zip(g, records, strict=True)
    ]
    last: dict[str, RatingRow] = {}
    for rating in ratings_after(results):
        last[rating.player] = rating
    return results, sorted(last.values(), key=lambda r: r.player)


def rerate_values(rows: Sequence[ResultRow]) -> list[dict[str, Any]]:
    """The columns a rebuild changes, per result row."""
    out = []
    for row in rows:
        v = result_values(row)
        out.append({k: v[k] for k in ("rated", "mu_before", "sigma_before", "games_before", "mu", "sigma", "games")})
        out[-1].update(game_id=row.game_id, seat=row.record.seat)
    return out
