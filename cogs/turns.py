"""Waiting well: a background loop reminds the player to move once their game has been idle for its reminder
interval (24 h by default). AI seats are never reminded. Timestamps live in the database, so reminders survive
restarts: a reminder that fell due while the bot was down goes out on the first pass after start. A free action
(a bonus card, V62/V66) does not restart the clock of the player to move (`Storage.commit_move`).
"""

from __future__ import annotations

import logging
import time

from discord.ext import commands, tasks

from cogs import _ui
from cogs._session import Session, is_ai

log = logging.getLogger(__name__)


class TurnsCog(commands.Cog):
    """Idle-turn reminders."""

    def __init__(self, bot: commands.Bot, *, every_minutes: float = 5):
        self.bot = bot
        self.loop.change_interval(minutes=every_minutes)

    @property
    def session(self) -> Session:
        return self.bot.session  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(minutes=5)
    async def loop(self) -> None:
        try:
            await self.send_reminders()
        except Exception:  # never let one bad pass stop the loop
            log.exception("reminder pass failed")

    @loop.before_loop
    async def _wait_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def send_reminders(self, now: float | None = None) -> int:
        """Post one reminder per idle game; returns how many were sent."""
        now = time.time() if now is None else now
        sent = 0
        for row in await self.session.storage.idle_games(now):
            try:
                movers = [p for p in self.session.to_move(row) if not is_ai(p)]
                if not movers:  # nobody, or only AI seats: they play by themselves and are never reminded
                    continue
                pings = ", ".join(_ui.ping(row, p) for p in movers)
                waited = _ui.duration(now - (row.turn_started_at or now))
                content = (f"⏰ Reminder: {pings}, it's your move in {_ui.title_of(row.game)} "
                           f"(waiting for {waited}).")
                await _ui.post_public(self.bot, row, content, None, _ui.table_view(row))
                await self.session.storage.mark_reminded(row.id, now)
                sent += 1
            except Exception:
                log.exception("reminder for game %s failed", row.id)
        return sent


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TurnsCog(bot))
