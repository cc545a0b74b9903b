"""Database tools for admins.

    python -m storage backup PATH [--database games.sqlite3]   # a consistent copy of SQLite while the bot runs
    python -m storage copy SRC DST                             # every game from one database to another

SRC and DST are each an SQLite file path or a PostgreSQL URL (`postgresql://user:password@host/db`). `copy`
moves a deployment from one to the other (stop the bot first: moves made during the copy would be missing): DST
must hold no game. Every game is copied with its id, every column of its row (the next reminder and the AI flag
too), seats, state, move log, pending announcements and results (records/), in batches; then every rating, and
every row of the other tables (players' and servers' settings, moves taken back, shared animations, leases);
then both databases are read again and every game row (every column), move, notice, result, rating and every
row of every other table compared. It prints the counts, and exits with status 1 and the differences if the
copy is not identical.

The database of `backup` defaults to DATABASE_URL, else DATABASE_PATH, from the environment or .env (as the bot
reads it). A PostgreSQL database is backed up with pg_dump instead.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from dotenv import find_dotenv, load_dotenv

from storage import GameRow, MoveRow, Notice, RatingRow, Storage, StorageError, is_postgres_url, open_storage
from storage._rows import COPIED_TABLES, TABLES

T = TypeVar("T")

BATCH = 500  # games read (and compared) per batch
CONCURRENCY = 8  # games copied at once within a batch (a PostgreSQL pool serves them in parallel)
SHOWN = 10  # differences printed at most


class CopyError(Exception):
    """The copy cannot start or did not come out identical; the message says why."""


def _display(url: str) -> str:
    """The database's name for messages: a path, or a URL without its password."""
    if is_postgres_url(url):
        from storage.postgres import redact

        return redact(url)
    return url


def _sqlite_path(url: str) -> str:
    return url.removeprefix("sqlite:///")


async def _open(url: str, *, role: str, synchronous: str = "FULL") -> Storage:
    try:
        return await open_storage(url, synchronous=synchronous)
    except (StorageError, OSError, ValueError) as exc:
        raise CopyError(f"Cannot open {role} {_display(url)}: {exc}") from None
    except Exception as exc:  # e.g. sqlite3.DatabaseError: the file is not a database
        raise CopyError(f"Cannot open {role} {_display(url)}: {type(exc).__name__}: {exc}") from None


async def _each(items: Sequence[int], work: Callable[[int], Awaitable[T]]) -> list[T]:
    """work(item) for every item, CONCURRENCY at a time, results in the items' order."""
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(item: int) -> T:
        async with gate:
            return await work(item)

    return list(await asyncio.gather(*(one(i) for i in items)))


async def _game(db: Storage, game_id: int) -> tuple[GameRow | None, list[MoveRow], list[Notice]]:
    return await db.load_game(game_id), await db.moves(game_id), await db.pending_notices(game_id)


async def _ratings(db: Storage, batch: int) -> list[RatingRow]:
    """Every rating row of the database, in key order."""
    out: list[RatingRow] = []
    while rows := await db.all_ratings(
        after=(out[-1].guild_id, out[-1].game, out[-1].player) if out else None, limit=batch
    ):
        out += rows
    return out


async def copy(src_url: str, dst_url: str, *, batch: int = BATCH, out: Callable[[str], None] = print) -> None:
    """Copy every game of SRC into the empty DST, then compare both; CopyError if anything differs."""
    if not is_postgres_url(src_url) and not os.path.exists(_sqlite_path(src_url)):
        raise CopyError(f"There is no database at {src_url}.")
    if src_url == dst_url:
        raise CopyError("SRC and DST are the same database.")
    started = time.monotonic()
    src = await _open(src_url, role="SRC")
    try:
        # the copy is verified below: a power cut during it means copying again, so SQLite needn't fsync each game
        dst = await _open(dst_url, role="DST", synchronous="NORMAL")
        try:
            if await dst.all_game_ids(limit=1):
                raise CopyError(f"DST {_display(dst_url)} already holds games: copy into an empty database.")
            games, moves, notices = await _copy_games(src, dst, batch)
            ratings = await _ratings(src, batch)
            for n in range(0, len(ratings), batch):
                await dst.import_records([], ratings[n : n + batch])
            rows = {table: await _copy_table(src, dst, table, batch) for table in COPIED_TABLES}
            copied = time.monotonic() - started
            others = ", ".join(f"{n} {table.replace('_', ' ')}" for table, n in rows.items())
            out(
                f"Copied {games} games ({moves} moves, {notices} pending notices) and {len(ratings)} ratings, and "
                f"{others}, from {_display(src_url)} to {_display(dst_url)} in {copied:.1f} s."
            )
            differences, checked = await _compare(src, dst, batch)
            if ratings != await _ratings(dst, batch):
                differences.append("the ratings differ")
            for table in TABLES:
                a, b = await _digest(src, table, batch), await _digest(dst, table, batch)
                if a != b:
                    differences.append(f"the {table} tables differ ({a[0]} rows vs {b[0]})")
        finally:
            await dst.close()
    finally:
        await src.close()
    if differences:
        shown = "\n".join(f"  {d}" for d in differences[:SHOWN])
        more = f"\n  ... and {len(differences) - SHOWN} more" if len(differences) > SHOWN else ""
        raise CopyError(f"The copy differs from the original in {len(differences)} places:\n{shown}{more}")
    out(
        f"Verified: all {checked[0]} games and {checked[1]} moves are identical in both databases (every column), "
        f"with their results and ratings, their pending notices and every row of {', '.join(TABLES)} "
        f"({time.monotonic() - started:.1f} s in all)."
    )


async def _copy_games(src: Storage, dst: Storage, batch: int) -> tuple[int, int, int]:
    games = moves = notices = 0
    after = 0
    while ids := await src.all_game_ids(after=after, limit=batch):

        async def one(game_id: int) -> tuple[int, int]:
            row, ms, ns = await _game(src, game_id)
            if row is None:  # games are never deleted; listed a moment ago
                raise CopyError(f"Game {game_id} vanished from SRC during the copy.")
            try:
                await dst.import_game(row, ms, ns)
                await dst.import_records(await src.game_results(game_id), [])
            except Exception as exc:
                raise CopyError(f"Could not copy game {game_id}: {type(exc).__name__}: {exc}") from None
            return len(ms), len(ns)

        for m, n in await _each(ids, one):
            moves += m
            notices += n
        games += len(ids)
        after = ids[-1]
    return games, moves, notices


async def _pages(db: Storage, table: str, batch: int) -> Any:
    """Every row of one of storage._rows.TABLES, a page at a time in its key's order."""
    key = TABLES[table][1]
    after: tuple[Any, ...] | None = None
    while rows := await db.table_rows(table, after=after, limit=batch):
        yield rows
        after = tuple(rows[-1][c] for c in key)


async def _copy_table(src: Storage, dst: Storage, table: str, batch: int) -> int:
    n = 0
    async for rows in _pages(src, table, batch):
        try:
            await dst.import_rows(table, rows)
        except Exception as exc:
            raise CopyError(f"Could not copy the {table} table: {type(exc).__name__}: {exc}") from None
        n += len(rows)
    return n


async def _digest(db: Storage, table: str, batch: int) -> tuple[int, int]:
    """A table's row count and a digest of its rows that does not depend on their order (the two databases may
    order text keys by different collations): the sum of each row's own hash."""
    count = total = 0
    async for rows in _pages(db, table, batch):
        for r in rows:
            text = json.dumps(r, sort_keys=True, default=repr).encode()
            total = (total + int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")) % 2**64
        count += len(rows)
    return count, total


async def _compare(src: Storage, dst: Storage, batch: int) -> tuple[list[str], tuple[int, int]]:
    """Every difference between the two databases (games, their rows, moves and pending notices but for the
    notices' own ids), and the (games, moves) compared."""
    differences: list[str] = []
    games = moves = 0
    after = 0
    while True:
        ids, copied = await src.all_game_ids(after=after, limit=batch), await dst.all_game_ids(after=after, limit=batch)
        if ids != copied:
            missing = sorted(set(ids) - set(copied))
            extra = sorted(set(copied) - set(ids))
            differences.append(f"games after id {after}: missing in DST {missing[:SHOWN]}, only in DST {extra[:SHOWN]}")
            break
        if not ids:
            break

        async def one(game_id: int) -> tuple[list[str], int]:
            (a, am, an), (b, bm, bn) = await _game(src, game_id), await _game(dst, game_id)
            found = []
            if a != b:
                fields = [f for f in GameRow.__dataclass_fields__ if getattr(a, f, None) != getattr(b, f, None)]
                found.append(f"game {game_id}: the game rows differ in {', '.join(fields)}")
            if am != bm:
                bad = next((x.move_number for x, y in zip(am, bm, strict=False) if x != y), min(len(am), len(bm)) + 1)
                found.append(f"game {game_id}: the move logs differ ({len(am)} vs {len(bm)} moves; first at {bad})")
            if [_notice_key(n) for n in an] != [_notice_key(n) for n in bn]:
                found.append(f"game {game_id}: the pending notices differ ({len(an)} vs {len(bn)})")
            if await src.game_results(game_id) != await dst.game_results(game_id):
                found.append(f"game {game_id}: the results differ")
            return found, len(am)

        for found, m in await _each(ids, one):
            differences += found
            moves += m
        games += len(ids)
        after = ids[-1]
    return differences, (games, moves)


def _notice_key(n: Notice) -> tuple[object, ...]:
    return (n.game_id, n.version, n.kind, n.payload, n.created_at)


async def _backup(database: str, path: str) -> None:
    db = await open_storage(database)
    try:
        await db.backup(path)
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    load_dotenv(find_dotenv(usecwd=True))
    parser = argparse.ArgumentParser(prog="python -m storage", description="Database tools for the bot's admins.")
    parser.add_argument(
        "--database",
        default=os.environ.get("DATABASE_URL", "").strip()
        or os.environ.get("DATABASE_PATH", "").strip()
        or "games.sqlite3",
        help="the bot's database (default: DATABASE_URL, else DATABASE_PATH, else games.sqlite3)",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    backup = sub.add_parser("backup", help="copy the SQLite database (safe while the bot runs)")
    backup.add_argument("path", help="the new file to write (must not exist)")
    copy_cmd = sub.add_parser(
        "copy",
        help="copy every game from SRC into the empty DST and verify the copy",
        description="Copy every game (with its id, moves, seats and pending notices) from SRC into DST, which must "
        "hold no game, then compare every game row and move of both. SRC and DST: an SQLite file path or a "
        "postgresql:// URL. Stop the bot first.",
    )
    copy_cmd.add_argument("src", metavar="SRC", help="the database to copy from")
    copy_cmd.add_argument("dst", metavar="DST", help="the database to copy into (empty or new)")
    copy_cmd.add_argument("--batch", type=int, default=BATCH, help=f"games per batch (default {BATCH})")
    args = parser.parse_args(argv)
    if args.command == "backup":
        if is_postgres_url(args.database):
            print(
                f"{_display(args.database)} is a PostgreSQL database: back it up with pg_dump "
                '(e.g. pg_dump -Fc -f games.dump "$DATABASE_URL"), which copies it consistently while the bot runs.',
                file=sys.stderr,
            )
            return 1
        if not os.path.exists(args.database):
            print(f"There is no database at {args.database} (set DATABASE_PATH or --database).", file=sys.stderr)
            return 1
        if os.path.exists(args.path):
            print(f"{args.path} already exists: choose a new file name.", file=sys.stderr)
            return 1
        asyncio.run(_backup(args.database, args.path))
        print(f"Copied {args.database} to {args.path}.")
    elif args.command == "copy":
        if args.batch < 1:
            print("--batch must be 1 or more.", file=sys.stderr)
            return 1
        try:
            asyncio.run(copy(args.src, args.dst, batch=args.batch))
        except CopyError as exc:
            print(f"Copy failed: {exc}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
