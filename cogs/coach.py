"""The coach's cog (cogs/_coach.py does the work): it holds the bot's `Coach`, resumes the reviews a restart left
under way, and ends them at shutdown (their progress is stored). `/game hint` and `/game review` are commands of
the /game group (cogs/games.py); the Hint and Review buttons are registered with the other families."""

from __future__ import annotations

import asyncio
import logging

from discord.ext import commands

from cogs._coach import Coach
from cogs._services import Services, services

log = logging.getLogger(__name__)


class CoachCog(commands.Cog):
    """Holds the coach; no commands of its own."""

    def __init__(self, bot: Services):
        self.bot = bot
        settings = bot.settings
        self.coach = Coach(bot, hint_iterations=settings.hint_iterations, review_iterations=settings.review_iterations)
        self._resume: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._resume = asyncio.create_task(self._resume_reviews(), name="review-resume")

    async def cog_unload(self) -> None:
        if self._resume is not None:
            self._resume.cancel()
            await asyncio.gather(self._resume, return_exceptions=True)
        await self.coach.close()

    async def _resume_reviews(self) -> None:
        await self.bot.wait_until_ready()
        try:
            n = await self.coach.resume(self.bot.herald.shards.owns)
        except Exception:
            log.exception("resuming the reviews under way failed")
            return
        if n:
            log.info("resuming %d review(s) under way", n)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CoachCog(services(bot)))
