"""A database copied with `python -m storage copy` plays on as the original would have: a running game whose AI
is to move is picked up at the copy's start-up and moved, and a game idle past its reminder time is reminded
(the copy keeps the next reminder and the AI flag, which the bot derives as it goes and no other column holds).
Through the harness, with the copied database: SQLite into PostgreSQL and back into a new SQLite file; players
with 19-digit Discord ids (every account since about 2022)."""

from __future__ import annotations

import random
import time

from storage.__main__ import copy
from tests.bot.driver import create_and_start, play_one_action
from tests.bot.harness import CHANNEL_ID, OTHER_CHANNEL_ID, Harness, User

ANA, BO = User(1_234_567_890_123_456_789, "Ana"), User(1_234_567_890_123_456_790, "Bo")


async def source(path) -> None:
    """Channel 1: Ana against an AI; the bot stops after Ana's move, before the AI is told (the AI is to move).
    Channel 2: Ana and Bo, Ana to move (reminded 24 h after the turn began)."""
    h = await Harness.start(path)
    await h.run_command(ANA, "game create", game="gardens", ai_players=1, ai_level="easy")
    await h.click(ANA, h.last_public(), "Start")
    h.bot.session.listeners.remove(h.bot.get_cog("AISeatsCog").kick)
    await play_one_action(h, ANA, h.last_public(), random.Random(1))
    assert h.last_public().content.splitlines()[-1] == "**AI (easy) 1** moves next."
    await create_and_start(h, "gardens", [ANA, BO], channel_id=OTHER_CHANNEL_ID)
    await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


async def plays_on(h: Harness) -> None:
    """The AI of channel 1 moved at start-up; a day later both games' idle turns are reminded, once, pinging Ana."""
    row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert row is not None and row.version == 2 and h.bot.session.to_move(row) == [ANA.sid]
    assert h.last_public(CHANNEL_ID).content.startswith("**AI (easy) 1** ")
    turns = h.bot.get_cog("TurnsCog")
    assert await turns.send_reminders(now=time.time() + 3600) == 0
    assert await turns.send_reminders(now=time.time() + 25 * 3600) == 2
    await h.settle()
    for channel in (CHANNEL_ID, OTHER_CHANNEL_ID):
        reminder = h.last_public(channel)
        assert "Reminder" in reminder.content and f"<@{ANA.id}>" in reminder.content
    assert await turns.send_reminders(now=time.time() + 26 * 3600) == 0
    await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


async def test_a_copied_running_game_is_reminded_and_its_ai_moves_on_time(tmp_path, pg_url):
    src, back = tmp_path / "src.sqlite3", tmp_path / "back.sqlite3"
    await source(src)
    await copy(str(src), pg_url, out=lambda _: None)
    await copy(pg_url, str(back), out=lambda _: None)
    await plays_on(await Harness.start(back))  # the copy of the copy, in SQLite
    await plays_on(await Harness.start(tmp_path / "unused.sqlite3", database_url=pg_url))  # the PostgreSQL copy
