"""Keeping games moving in the background: the outbox pass (every notice a channel is owed gets posted, at
start-up and then every minute), idle-turn reminders (once a game has been idle for its reminder interval,
24 h by default, or at half its deadline; AI seats are never reminded) and deadlines (cogs._tempo). Everything is driven by indexed timestamps in the database, so a
pass costs what is due, not what is stored, and nothing is lost to a restart: a reminder that fell due while the
bot was down goes out on the first pass after start.
"""

from __future__ import annotations

import asyncio
import logging
import time

from discord.ext import commands, tasks

from cogs._herald import STALE_AFTER, Herald
from cogs._quiet import quiet_until
from cogs._seating import is_ai
from cogs._services import services
from cogs._session import Session

log = logging.getLogger(__name__)


class TurnsCog(commands.Cog):
    """The outbox pass and idle-turn reminders."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @property
    def session(self) -> Session:
        return services(self.bot).session

    @property
    def herald(self) -> Herald:
        return services(self.bot).herald

    async def cog_load(self) -> None:
        self._startup = asyncio.create_task(self._after_start(), name="outbox-startup")
        self.outbox.start()
        self.reminders.start()

    async def cog_unload(self) -> None:
        self.outbox.cancel()
        self.reminders.cancel()
        self._startup.cancel()
        await asyncio.gather(self._startup, return_exceptions=True)

    async def _after_start(self) -> None:
        """Every notice a crash may have left pending, posted as soon as the bot is connected."""
        await self.bot.wait_until_ready()
        n = await self.herald.deliver_all()
        if n:
            log.info("posted the pending announcements of %d game(s) after the start", n)

    @tasks.loop(minutes=1)
    async def outbox(self) -> None:
        """Notices a delivery missed (Discord was unreachable a moment, a held AI turn that never ended)."""
        try:
            await self.herald.deliver_all(older_than=time.time() - STALE_AFTER)
        except Exception:  # never let one bad pass stop the loop
            log.exception("outbox pass failed")

    @outbox.before_loop
    async def _outbox_ready(self) -> None:
        await self.bot.wait_until_ready()
        await asyncio.sleep(60)  # the start-up pass is `_after_start`

    @tasks.loop(minutes=1)
    async def reminders(self) -> None:
        try:
            await self.send_reminders()
            await self.pass_deadlines()
        except Exception:  # never let one bad pass stop the loop
            log.exception("reminder pass failed")

    @reminders.before_loop
    async def _reminders_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def send_reminders(self, now: float | None = None, *, batch: int = 100) -> int:
        """Claim every reminder that fell due (of this process's shards) and let the herald post them; returns
        how many. Each claim writes the reminder as a notice in the same transaction, so it goes out once."""
        now = time.time() if now is None else now
        sent = 0
        while True:
            claimed = await self.session.storage.claim_reminders(now, shards=self.herald.shards, limit=batch)
            for game_id in claimed:
                await asyncio.sleep(0)  # one game's check per step of the loop: a click never waits for the batch
                if await self._all_away(game_id, now):
                    continue
                self.herald.notify(game_id, background=True)
                sent += 1
            if len(claimed) < batch:
                return sent

    async def _all_away(self, game_id: int, now: float) -> bool:
        """A reminder claimed for a turn whose humans to move are all away (they went away while it was
        pending) or in their quiet hours (they set them meanwhile) is dropped: nobody pings or reminds them."""
        session = self.session
        row = await session.load(game_id)
        if row.status != "active":
            return False
        humans = [p for p in session.movers(row, session.state_of(row)) if not is_ai(p)]
        away = await session.storage.players(humans)
        if not humans or not all(away[p].away(now) or quiet_until(away[p], now) is not None for p in humans):
            return False
        await session.storage.clear_notices(
            [n.id for n in await session.storage.pending_notices(game_id) if n.kind == "reminder"]
        )
        return True

    async def pass_deadlines(self, now: float | None = None, *, batch: int = 100) -> int:
        """Move the clock of every game whose deadline passed (of this process's shards): the warning, the
        table's decision, its default (cogs._tempo). Each step is a compare-and-set: once, whoever looks."""
        now = time.time() if now is None else now
        done = 0
        while True:
            rows = await self.session.storage.deadlines_due(now, shards=self.herald.shards, limit=batch)
            for row in rows:
                done += await self.session.deadline_passed(row, now)
            if len(rows) < batch:
                return done
            await asyncio.sleep(0)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TurnsCog(bot))
