"""Where games live: one narrow interface (`storage.base.Storage`), an SQLite backend (the embedded default).

    from storage import open_storage
    db = await open_storage("games.sqlite3")        # a path (SQLite)
    ...
    await db.close()

`python -m storage backup PATH` copies a running bot's database safely (see storage/__main__.py).
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
    MoveRow,
    Notice,
    Seat,
    Shards,
    StaleVersion,
    Storage,
    StorageError,
)

__all__ = [
    "ALL_SHARDS",
    "NOT_DUE",
    "OPEN_STATUSES",
    "STATUSES",
    "ChannelBusy",
    "Due",
    "GameRow",
    "MoveRow",
    "Notice",
    "Seat",
    "Shards",
    "StaleVersion",
    "Storage",
    "StorageError",
    "open_storage",
]


async def open_storage(url: str, *, synchronous: str = "FULL") -> Storage:
    """The backend for `url`: a file path (or `sqlite:///path`) opens SQLite."""
    from storage.sqlite import SQLiteStorage

    path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else url
    return await SQLiteStorage.open(path, synchronous=synchronous)
