"""Identify coordination (ops/identify.py): four bot processes on one PostgreSQL (four bots here, each with its own
storage and its own connections), restarted at once, identify their shards at most `max_concurrency` per window,
and a bucket never twice within one window.

Each shard connects through discord.py's own `DiscordWebSocket.from_client` (the bot's `http.ws_connect` returns a
fake gateway socket that says HELLO and records every IDENTIFY frame), so the hook is called exactly where
discord.py calls it. Discord's window is 5 s; the gate's window is shortened to 1 s here so the test takes seconds,
not half a minute (the rule is the same at any length). The same restart without the gate (discord.py's default hook) is
shown to break the limit, so the count is not vacuous."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import aiohttp
from discord.gateway import DiscordWebSocket

from tests.bot.harness import FakeDiscord, Harness

SHARDS, PROCESSES, CONCURRENCY, WINDOW = 8, 4, 2, 1.0


class Gateway(FakeDiscord):
    """The fake Discord, with /gateway/bot's session start limit and a gateway that counts IDENTIFYs."""

    def __init__(self) -> None:
        super().__init__()
        self.identifies: list[tuple[float, int]] = []  # (time.monotonic(), shard)

    async def http(self, route, **kwargs) -> Any:
        if route.method == "GET" and route.path == "/gateway/bot":
            limits = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": CONCURRENCY}
            return {"url": "wss://gateway.example", "shards": SHARDS, "session_start_limit": limits}
        return await super().http(route, **kwargs)


class Socket:
    """One gateway connection: HELLO first, then it takes frames (IDENTIFY is op 2)."""

    def __init__(self, gateway: Gateway) -> None:
        self.gateway, self.closed, self._hello = gateway, False, True

    async def receive(self, timeout: float | None = None) -> aiohttp.WSMessage:
        if self._hello:
            self._hello = False
            hello = {"op": 10, "d": {"heartbeat_interval": 3_600_000}, "s": None, "t": None}
            return aiohttp.WSMessage(aiohttp.WSMsgType.TEXT, json.dumps(hello), None)
        await asyncio.sleep(3600)
        raise AssertionError("unreachable")

    async def send_str(self, data: str) -> None:
        frame = json.loads(data)
        if frame["op"] == DiscordWebSocket.IDENTIFY:
            self.gateway.identifies.append((time.monotonic(), frame["d"]["shard"][0]))

    async def close(self, *, code: int = 1000, message: bytes = b"") -> bool:
        self.closed = True
        return True


async def launch(h: Harness, gateway: Gateway) -> None:
    """What AutoShardedClient.launch_shards does for this process's shards: one after the other, the first one
    `initial`, each through DiscordWebSocket.from_client (which calls the before_identify hook)."""

    async def ws_connect(url: str, *, compress: int = 0) -> Socket:
        return Socket(gateway)

    h.bot.http.ws_connect = ws_connect  # type: ignore[method-assign]
    ids = h.bot.shard_ids
    for shard in ids:
        ws = await DiscordWebSocket.from_client(h.bot, initial=shard == ids[0], shard_id=shard)
        ws._keep_alive.stop()  # the heartbeat thread: not needed here


def busiest(identifies: list[tuple[float, int]], window: float) -> int:
    """The most identifies within any `window` seconds."""
    times = sorted(t for t, _ in identifies)
    return max(sum(1 for u in times if t <= u < t + window) for t in times)


async def restart_all(bots: list[Harness], gateway: Gateway) -> list[tuple[float, int]]:
    gateway.identifies.clear()
    await asyncio.gather(*(launch(h, gateway) for h in bots))
    return list(gateway.identifies)


async def test_four_processes_restarted_at_once_identify_within_max_concurrency(tmp_path, pg_url):
    gateway = Gateway()
    bots = []
    try:
        for n in range(PROCESSES):
            ids = tuple(range(n * SHARDS // PROCESSES, (n + 1) * SHARDS // PROCESSES))
            h = await Harness.start(tmp_path / "unused.sqlite3", gateway, database_url=pg_url, shard_count=SHARDS,
                                    shard_ids=ids)  # fmt: skip
            h.bot.identify.window = WINDOW
            bots.append(h)
        assert len({id(h.bot.storage) for h in bots}) == PROCESSES and all(h.bot.storage.shared for h in bots)

        seen = await restart_all(bots, gateway)
        assert sorted(s for _, s in seen) == list(range(SHARDS))  # every shard identified, once
        assert busiest(seen, WINDOW) <= CONCURRENCY, seen
        for bucket in range(CONCURRENCY):  # shard % max_concurrency: one identify per window
            times = sorted(t for t, s in seen if s % CONCURRENCY == bucket)
            assert all(b - a >= WINDOW for a, b in zip(times, times[1:], strict=False)), (bucket, times)
        assert all(h.bot.identify.concurrency == CONCURRENCY for h in bots)  # as /gateway/bot said

        # the same restart with discord.py's own pacing only (each process on its own): over the limit
        await asyncio.sleep(WINDOW * 1.2)
        for h in bots:
            h.bot.storage.shared = False
        try:
            alone = await restart_all(bots, gateway)
        finally:
            for h in bots:
                del h.bot.storage.shared
        assert busiest(alone, WINDOW) > CONCURRENCY
    finally:
        for h in bots:
            await h.close()


async def test_a_process_connects_only_its_own_shards():
    """SHARD_COUNT/SHARD_IDS reach discord.py: launch_shards connects those shards, not all (it did before)."""
    from bot import GameBot, Settings

    bot = GameBot(Settings(token="t", shard_count=4, shard_ids=(1, 2)))  # not started: nothing to close
    assert bot.shard_count == 4 and list(bot.shard_ids) == [1, 2]
