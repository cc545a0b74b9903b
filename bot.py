"""Start the Discord bot: read the settings, set up logging, load the cogs, run.

    python bot.py            # run with the settings from the environment / .env
    python bot.py --sync     # also publish the slash commands globally (needed once, and after they change)

Settings (environment variables or a .env file next to where you start it; see .env.example):
DISCORD_TOKEN (required), DATABASE_PATH (default games.sqlite3), DEV_GUILD_ID (optional: commands are synced
to that server instantly on every start, for development), LOG_LEVEL (default INFO); the AI players read
AI_BUDGET, AI_PROCESSES and AI_VIZIER_WAIT themselves (cogs/ai_seats.py).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os

import aiohttp
import discord
from discord.ext import commands
from dotenv import find_dotenv, load_dotenv

from cogs import EXTENSIONS
from cogs._session import Session
from storage import Storage

log = logging.getLogger("bot")


@dataclasses.dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: str = "games.sqlite3"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    sync: bool = False

    @classmethod
    def from_env(cls, *, sync: bool = False) -> Settings:
        """Settings from the environment (after loading .env). SystemExit with one clear line if one is bad."""
        load_dotenv(find_dotenv(usecwd=True))  # the .env of the directory the bot is started from
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SystemExit("DISCORD_TOKEN is not set: put your bot token in .env (copy .env.example) or the "
                             "environment. See 'Running the bot on your server' in README.md.")
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SystemExit(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}; or leave it empty.")
        level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SystemExit(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
        return cls(
            token=token,
            database_path=os.environ.get("DATABASE_PATH", "").strip() or "games.sqlite3",
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            sync=sync,
        )


class GameBot(commands.Bot):
    """The bot: owns the storage and the session service; everything else lives in the cogs."""

    def __init__(self, settings: Settings):
        # No privileged intents: slash commands and components need none.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None)
        self.settings = settings
        self.storage: Storage | None = None
        self.session: Session | None = None

    async def setup_hook(self) -> None:
        self.storage = await Storage.open(self.settings.database_path)
        self.session = Session(self.storage)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        # Sync deliberately: instantly to the development server, globally only when asked (--sync).
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development server %s", len(synced), guild.id)
        if self.settings.sync:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (they may take a while to appear)", len(synced))

    async def close(self) -> None:
        await super().close()
        if self.storage is not None:
            await self.storage.close()
            self.storage = None


async def _run(settings: Settings) -> None:
    async with GameBot(settings) as bot:
        await bot.start(settings.token)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Run the board-game Discord bot.")
    parser.add_argument("--sync", action="store_true", help="publish the slash commands globally on start")
    args = parser.parse_args(argv)
    settings = Settings.from_env(sync=args.sync)
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    try:
        asyncio.run(_run(settings))
    except discord.LoginFailure:
        raise SystemExit("Discord rejected DISCORD_TOKEN: copy a fresh token from the Developer Portal "
                         "(Bot > Reset Token) into .env.") from None
    except discord.PrivilegedIntentsRequired:
        raise SystemExit("Discord refused a privileged intent; this bot needs none. Check the bot's code.") from None
    except (aiohttp.ClientConnectorError, OSError) as exc:
        raise SystemExit(f"Cannot reach Discord ({exc}). Check this machine's internet connection.") from None
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()  # a SystemExit with a message prints that one line to stderr and exits with status 1
