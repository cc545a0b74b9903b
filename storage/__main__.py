"""Database tools for admins.

    python -m storage backup PATH [--database games.sqlite3]   # a consistent copy while the bot runs

The database defaults to DATABASE_PATH from the environment or .env (as the bot reads it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from dotenv import find_dotenv, load_dotenv

from storage import open_storage


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
        default=os.environ.get("DATABASE_PATH", "").strip() or "games.sqlite3",
        help="the bot's database (default: DATABASE_PATH, else games.sqlite3)",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    backup = sub.add_parser("backup", help="copy the database (safe while the bot runs)")
    backup.add_argument("path", help="the new file to write (must not exist)")
    args = parser.parse_args(argv)
    if args.command == "backup":
        if not os.path.exists(args.database):
            print(f"There is no database at {args.database} (set DATABASE_PATH or --database).", file=sys.stderr)
            return 1
        if os.path.exists(args.path):
            print(f"{args.path} already exists: choose a new file name.", file=sys.stderr)
            return 1
        asyncio.run(_backup(args.database, args.path))
        print(f"Copied {args.database} to {args.path}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
