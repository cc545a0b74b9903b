"""Where games live: one narrow interface (`storage.base.Storage`), an SQLite backend (the embedded default) and
a PostgreSQL one (a database several bot processes share).

    from storage import open_storage
    db = await open_storage("games.sqlite3")                       # a path (SQLite)
    db = await open_storage("postgresql://bot:secret@db/games")    # a URL (PostgreSQL, asyncpg)
    ...
    await db.close()

`python -m storage backup PATH` copies a running bot's SQLite database safely; `python -m storage copy SRC DST`
copies every game from one database to another and verifies the copy (see storage/__main__.py).
"""

from __future__ import annotations

from storage.base import (
    ALL_SHARDS,
    NOT_DUE,
    OPEN_STATUSES,
    STATUSES,
    ChannelBusy,
    Due,
    GameRow,
    Guild,
    Match,
    MoveRow,
    Notice,
    Player,
    QueueEntry,
    Review,
    Season,
    Seat,
    Shards,
    StaleVersion,
    Storage,
    StorageError,
    TournamentRow,
)
from storage.results import Finish, Rater, Rating, RatingRow, ResultRow

__all__ = [
    "ALL_SHARDS",
    "NOT_DUE",
    "OPEN_STATUSES",
    "STATUSES",
    "ChannelBusy",
    "Due",
    "Finish",
    "GameRow",
    "MoveRow",
    "Notice",
    "Guild",
    "Match",
    "Player",
    "QueueEntry",
    "Rater",
    "Rating",
    "RatingRow",
    "ResultRow",
    "Review",
    "Seat",
    "Season",
    "Shards",
    "StaleVersion",
    "Storage",
    "StorageError",
    "TournamentRow",
    "is_postgres_url",
    "open_storage",
]


def is_postgres_url(url: str) -> bool:
    """True if `url` names a PostgreSQL database (postgresql:// or postgres://) rather than an SQLite file."""
    return url.startswith(("postgresql://", "postgres://"))


async def open_storage(url: str, *, synchronous: str = "FULL", rater: Rater | None = None) -> Storage:
    """The backend for `url`: a `postgresql://` (or `postgres://`) URL opens PostgreSQL; anything else is an
    SQLite file path (or `sqlite:///path`). Each backend is imported only when used: SQLite users never load
    asyncpg. `synchronous` is FULL (each move durable before it is announced) or NORMAL (see each backend).
    `rater` is the arithmetic of a game's end (`records.figures.RATER`: storage never imports records/), needed
    to store a finished game's results and ratings."""
    if is_postgres_url(url):
        from storage.postgres import PostgresStorage

        return await PostgresStorage.open(url, synchronous=synchronous, rater=rater)

    from storage.sqlite import SQLiteStorage

    path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else url
    return await SQLiteStorage.open(path, synchronous=synchronous, rater=rater)
