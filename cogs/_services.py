"""What the cogs use of the bot: `bot.GameBot` owns these services (the session, the herald, the images, the
settings) and loads the cogs, so the cogs type it by this Protocol instead of importing bot.py (the top layer)."""

from __future__ import annotations

from typing import Protocol, cast

import discord

from cogs._herald import Herald
from cogs._items import TableBot
from cogs._table import Channels


class Settings(Protocol):
    """The settings the cogs read (`bot.Settings`)."""

    @property
    def ai_budget(self) -> int | float | None: ...
    @property
    def ai_wait(self) -> float: ...
    @property
    def ai_processes(self) -> int: ...
    @property
    def hint_iterations(self) -> int: ...
    @property
    def review_iterations(self) -> int: ...


class Services(TableBot, Channels, Protocol):
    """The bot as the cogs see it: what the items use of it (the session, the images), and more."""

    herald: Herald

    @property
    def settings(self) -> Settings: ...
    async def wait_until_ready(self) -> None: ...


def services(bot: discord.Client) -> Services:
    """The bot that loaded the cogs (a `bot.GameBot`, or the tests' copy of it) as the services it owns: a typed
    view of the same object, not a check."""
    return cast(Services, bot)
