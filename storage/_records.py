"""What both backends share about results and ratings: the columns, rows to and from values, and the pure steps
around settling a finished game and rebuilding a server's ratings (the arithmetic is the `Rater` storage was
opened with: records/', which storage never imports)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from storage.results import Move, Rater, Rating, RatingRow, ResultRow, SeatRecord

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
)
RATING_COLUMNS = ("guild_id", "game", "player", "name", "mu", "sigma", "games", "updated_at")


def stream_key(guild_id: int, game: str) -> int:
    """A signed 64-bit key naming one server's ratings of one game (PostgreSQL's advisory lock serialising them)."""
    digest = hashlib.blake2b(f"records:{guild_id}:{game}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def next_place(tail: Sequence[Any] | None, now: float) -> tuple[float, int]:
    """Where a game finishing at `now` goes in its stream's order, after the stream's last (finished_at, seq):
    its finishing time never earlier than the last one's, so the order by (finished_at, seq) is the order the
    games were rated in."""
    if tail is None:
        return now, 1
    return max(now, float(tail[0])), int(tail[1]) + 1


def moves_of(rows: Iterable[Sequence[Any]]) -> list[Move]:
    """(player, created_at, standin) rows of the move log as records' `Move`s."""
    return [Move(str(r[0]), float(r[1]), bool(r[2])) for r in rows]


def rating_of(r: Sequence[Any]) -> RatingRow:
    return RatingRow(int(r[0]), str(r[1]), str(r[2]), str(r[3]), Rating(float(r[4]), float(r[5]), int(r[6])), r[7])


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


def result_of(r: Sequence[Any]) -> ResultRow:
    """A stored row (RESULT_COLUMNS order) as a ResultRow."""
    record = SeatRecord(
        seat=int(r[5]),
        player=str(r[6]),
        name=str(r[7]),
        score=int(r[8]),
        place=int(r[9]),
        ai_level=r[10],
        abandoned=bool(r[11]),
        moves=int(r[12]),
        standin_moves=int(r[13]),
        rated=bool(r[14]),
        before=_rating(r[15], r[16], r[17]),
        after=_rating(r[18], r[19], r[20]),
        turns=int(r[21]),
        turn_seconds=float(r[22]),
        turn_median=None if r[23] is None else float(r[23]),
        figures=json.loads(r[24]),
    )
    return ResultRow(int(r[0]), int(r[1]), str(r[2]), float(r[3]), int(r[4]), record)


def results_from(rows: Iterable[Sequence[Any]]) -> list[ResultRow]:
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
