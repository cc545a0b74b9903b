"""Gateway identifies within Discord's limit when several processes share one PostgreSQL database.

Discord lets a bot start `max_concurrency` sessions per 5 s (its `/gateway/bot` says how many; 1 for most bots):
shard `s` is in rate-limit bucket `s % max_concurrency`, and each bucket may identify once per 5 s. Refused
identifies cost a reconnect and, repeated, a reset token. One process paces its own shards (discord.py waits 5 s
between them); processes started together (a redeploy, a host's reboot) would not. So before each identify,
discord.py calls the bot's `before_identify_hook`, which here takes the bucket's lease in the database
(`Storage.identify_slot`: a row per bucket, taken for WINDOW + MARGIN seconds by the database's clock, free only
once the last identify of that bucket is that old) and waits while another process holds it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import socket
from typing import Any

log = logging.getLogger(__name__)

WINDOW = 5.0  # seconds per identify and bucket (Discord's rule)
# A lease lasts this much longer than the window: the identify reaches Discord a moment after the lease is taken
# (the database's answer, the event loop, the network), and that moment is not always short on a busy machine.
MARGIN = 0.5


class IdentifyGate:
    """The bot's `before_identify_hook`: `await gate.wait(shard_id, initial=...)`."""

    def __init__(self, bot: Any, *, window: float = WINDOW, concurrency: int | None = None) -> None:
        self.bot = bot
        self.window = window
        self.concurrency = concurrency  # None: what Discord says, asked once
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{id(bot):x}"

    async def max_concurrency(self) -> int:
        if self.concurrency is None:
            try:
                _, _, limits = await self.bot.http.get_bot_gateway()
                self.concurrency = max(1, int(limits.get("max_concurrency", 1)))
            except Exception:  # noqa: BLE001 - Discord did not say: the strictest limit
                log.warning("could not read the gateway's max_concurrency; identifying one shard per bucket of 1")
                self.concurrency = 1
        return self.concurrency

    async def wait(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Return when shard `shard_id` may identify."""
        storage = getattr(self.bot, "storage", None)
        if storage is None or not storage.shared:  # this process alone: discord.py's own pacing
            if not initial:
                await asyncio.sleep(self.window)
            return
        bucket = (shard_id or 0) % await self.max_concurrency()
        while True:
            try:
                wait = await storage.identify_slot(bucket, self.owner, self.window + MARGIN)
            except Exception:  # noqa: BLE001 - the database is away: pace as one process would
                log.warning("identify lease unavailable; waiting %.0f s before identifying", self.window, exc_info=True)
                await asyncio.sleep(self.window)
                return
            if wait <= 0:
                log.debug("shard %s identifies (bucket %d)", shard_id, bucket)
                return
            await asyncio.sleep(min(wait, self.window) + random.uniform(0.0, 0.02 * self.window))
