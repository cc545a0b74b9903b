"""The health and metrics server (opt-in: `HEALTH_PORT`; bound to `HEALTH_HOST`, 127.0.0.1 by default).

    GET /healthz   200 "ok" while the process runs its event loop (a container's HEALTHCHECK, a liveness probe)
    GET /readyz    200 when the process does its job, else 503 with the failed checks, one a line:
                   every shard this process owns has a ready gateway session, the database answers (within
                   2 s), the outbox is not stuck (no notice older than OUTBOX_STUCK), and the reminder pass ran
                   within PASS_STALE (after start-up)
    GET /metrics   Prometheus text format (ops.metrics)

aiohttp (discord.py's own HTTP library) on the bot's event loop: each request costs what its checks cost, one
indexed query at most, and never blocks the loop.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from ops.metrics import Instruments

log = logging.getLogger(__name__)

OUTBOX_STUCK = 300.0  # seconds: the periodic pass posts every notice older than 30 s once a minute
PASS_STALE = 180.0  # seconds: the reminder pass runs every minute
DB_TIMEOUT = 2.0


class Health:
    """The server of one bot. `await Health(bot, port=...).start()`, `await health.close()`."""

    def __init__(self, bot: Any, instruments: Instruments, *, host: str = "127.0.0.1", port: int = 8080) -> None:
        self.bot, self.host, self.port = bot, host, port
        self.instruments = instruments  # installed by the bot
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen (port 0: any free port; `port` is then the one chosen)."""
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        log.info("health and metrics on http://%s:%d (/healthz, /readyz, /metrics)", self.host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def problems(self) -> list[str]:
        """What keeps this process from being ready (empty: ready)."""
        out = []
        ins = self.instruments
        missing = [s for s in ins.owned_shards() if s not in ins.shards_up]
        if missing or not self.bot.is_ready():
            out.append(f"gateway: shard(s) {', '.join(map(str, missing)) or '?'} not connected")
        try:
            _, age = await ins.outbox(DB_TIMEOUT)
        except Exception as exc:  # noqa: BLE001 - whatever the driver raises, the answer is "not reachable"
            out.append(f"database: not reachable ({type(exc).__name__})")
        else:
            if age is not None and age > OUTBOX_STUCK:
                out.append(f"outbox: the oldest notice waits since {age:.0f} s")
        now = time.time()
        last = ins.passes.get("deadlines")  # the end of the reminder pass (reminders, then deadlines)
        if now - ins.started > PASS_STALE and (last is None or now - last > PASS_STALE):
            since = f"{now - last:.0f} s ago" if last is not None else "never"
            out.append(f"passes: the reminder pass last ran {since}")
        return out

    async def healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def readyz(self, request: web.Request) -> web.Response:
        problems = await self.problems()
        if problems:
            return web.Response(status=503, text="\n".join(problems) + "\n")
        return web.Response(text="ready\n")

    async def metrics(self, request: web.Request) -> web.Response:
        body = await self.instruments.render()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
