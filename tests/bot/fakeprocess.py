"""The real bot process (`bot.main`, with its signal handling) against the fake Discord of harness.py, for tests
that stop it the way hosts do (SIGTERM). Only the network boundary is replaced: the REST and webhook requests,
and the gateway connection, which feeds READY and GUILD_CREATE and then one interaction per line of stdin:

    {"user": 0, "command": "game create", "values": {"game": "gardens"}}
    {"user": 0, "click": "Start"}                      # a button on the newest public post
    {"user": 1, "play": 7}                             # a random legal move through the panel (seed 7)

Every message the bot creates is appended to the JSON-lines file $FAKE_OUT as it happens. Settings come from the
environment as for the real bot (DISCORD_TOKEN, DATABASE_PATH, AI_*...); FAKE_COMMIT_DELAY (seconds) makes each
move's commit slow, to stop the bot in the middle of one, and the file FAKE_MARK is created when one begins.

    python -m tests.bot.fakeprocess
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
from typing import Any

import discord

import bot
from storage.sqlite import SQLiteStorage
from tests.bot.driver import play_one_action
from tests.bot.harness import ErrorLog, FakeDiscord, Harness, Msg, User, ready, replace_network

USERS = [User(100000000000000001 + i, name) for i, name in enumerate(["Ana", "Bo", "Cyd"])]


class RecordingDiscord(FakeDiscord):
    def __init__(self, out: str):
        super().__init__()
        self.out = out

    def create(self, channel_id, data, files, **kwargs) -> Msg:
        msg = super().create(channel_id, data, files, **kwargs)
        with open(self.out, "a", encoding="utf-8") as f:
            f.write(
                json.dumps(
                    {
                        "id": msg.id,
                        "channel": channel_id,
                        "content": msg.content,
                        "ephemeral": msg.ephemeral,
                        "files": len(msg.files),
                    }
                )
                + "\n"
            )
        return msg


def install(fake: FakeDiscord) -> None:
    async def connect(self: discord.Client, *, reconnect: bool = True) -> None:
        h = Harness(fake, self, ErrorLog(), [])
        ready(self, self.application_id or 1, self.application_id)
        self._connection.parsers["GUILD_CREATE"](h.guild_payload())
        reader = asyncio.StreamReader()
        loop = asyncio.get_running_loop()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        pending: set[asyncio.Task] = set()
        while not self.is_closed():
            try:
                line = await asyncio.wait_for(reader.readline(), 0.05)
            except TimeoutError:
                continue
            if not line:
                await asyncio.sleep(0.05)
                continue
            task = asyncio.create_task(_run(h, json.loads(line)))
            pending.add(task)
            task.add_done_callback(pending.discard)

    replace_network(fake, connect)


async def _run(h: Harness, cmd: dict[str, Any]) -> None:
    user = USERS[cmd["user"]]
    if "command" in cmd:
        await h.run_command(user, cmd["command"], **cmd.get("values", {}))
    elif "click" in cmd:
        await h.click(user, h.last_public(), cmd["click"])
    else:
        await play_one_action(h, user, h.last_public(), random.Random(cmd["play"]))


def slow_commits(seconds: float) -> None:
    real = SQLiteStorage.commit_move

    async def commit_move(self, *args, **kwargs):
        if os.environ.get("FAKE_MARK"):
            open(os.environ["FAKE_MARK"], "w").close()
        await asyncio.sleep(seconds)
        return await real(self, *args, **kwargs)

    SQLiteStorage.commit_move = commit_move


if __name__ == "__main__":
    install(RecordingDiscord(os.environ["FAKE_OUT"]))
    if os.environ.get("FAKE_COMMIT_DELAY"):
        slow_commits(float(os.environ["FAKE_COMMIT_DELAY"]))
    bot.main([])
