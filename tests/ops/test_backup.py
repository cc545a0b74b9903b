"""Backups and restores exactly as docs/operating.md tells them: a backup taken while the bot plays, the bot
stopped, the copy put in place (for SQLite: with the old -wal and -shm files removed), the bot started again;
the game is back at the backup's move and plays on. SQLite with `python -m storage backup`, PostgreSQL with
`pg_dump -Fc` and `pg_restore` into a new database."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys

from tests.bot.driver import create_and_start, movers, play_one_action
from tests.bot.harness import CHANNEL_ID, Harness


async def play(h: Harness, players, post, rnd: random.Random, n: int):
    by_id = {p.id: p for p in players}
    for _ in range(n):
        await play_one_action(h, by_id[rnd.choice(movers(post, players))], post, rnd)
        post = h.last_public()
    return post


async def version(h: Harness) -> int:
    """The version of the channel's running game."""
    row = await h.bot.storage.game_in_channel(CHANNEL_ID)
    assert row is not None and row.status == "active"
    return row.version


async def version_after(h: Harness, game_id: int) -> int:
    """The version of game `game_id`, running or finished. The fake game deals its hands from a random seed, so
    even with the highest target a move may be the one that reaches it and ends the game (it is then no longer
    the channel's running game); its version counts that move all the same. (Until the target was raised to
    100, the fourth move finished the game about one run in ten.)"""
    row = await h.bot.storage.load_game(game_id)
    assert row is not None and row.status in ("active", "finished"), row
    return row.version


async def game_id(h: Harness) -> int:
    row = await h.bot.storage.game_in_channel(CHANNEL_ID)
    assert row is not None
    return row.id


async def test_sqlite_backup_while_playing_and_restore(tmp_path, fake_game, users):
    db, copy = tmp_path / "games.sqlite3", tmp_path / "backups" / "games-1.sqlite3"
    copy.parent.mkdir()
    rnd, players = random.Random(7), users[:2]
    h = await Harness.start(db)
    try:
        post = at_post = await play(
            h, players, await create_and_start(h, "fake", players, options="target=100"), rnd, 3
        )
        at_backup = await version(h)
        env = {**os.environ, "DATABASE_PATH": str(db)}
        run = subprocess.run(
            [sys.executable, "-m", "storage", "backup", str(copy)], env=env, capture_output=True, text=True
        )
        assert run.returncode == 0 and f"to {copy}" in run.stdout, run.stderr
        post = await play(h, players, post, rnd, 2)  # played after the backup: a restore goes back before them
        assert await version(h) > at_backup
    finally:
        await h.close()
    # the restore: the bot is stopped; the copy replaces the database, the old write-ahead log goes with it
    os.replace(copy, db)
    for leftover in (f"{db}-wal", f"{db}-shm"):
        if os.path.exists(leftover):
            os.remove(leftover)
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    h = await Harness.start(db, h.fake)
    try:
        assert await version(h) == at_backup
        restored = await game_id(h)
        await play(h, players, at_post, rnd, 1)  # the game plays on from there (the post of that moment)
        assert await version_after(h, restored) == at_backup + 1
    finally:
        await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


async def test_postgresql_dump_and_restore(tmp_path, fake_game, users, pg_server):
    src, dst = pg_server.create_database(), pg_server.create_database()
    dump = tmp_path / "games.dump"
    pg_dump, pg_restore = shutil.which("pg_dump"), shutil.which("pg_restore")
    assert pg_dump and pg_restore, "PostgreSQL's client tools (pg_dump, pg_restore) are installed with the server"
    rnd, players = random.Random(8), users[:2]
    h = await Harness.start(tmp_path / "unused.sqlite3", database_url=src)
    try:
        at_post = await play(h, players, await create_and_start(h, "fake", players, options="target=100"), rnd, 3)
        at_backup = await version(h)
        run = subprocess.run([pg_dump, "-Fc", "-f", str(dump), src], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
    finally:
        await h.close()
    run = subprocess.run([pg_restore, "--no-owner", "-d", dst, str(dump)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    h = await Harness.start(tmp_path / "unused.sqlite3", h.fake, database_url=dst)
    try:
        assert await version(h) == at_backup
        restored = await game_id(h)
        await play(h, players, at_post, rnd, 1)
        assert await version_after(h, restored) == at_backup + 1
    finally:
        await h.close()
        pg_server.drop_database(src)
        pg_server.drop_database(dst)
    assert h.fake.violations == [] and h.unexpected_errors == []
