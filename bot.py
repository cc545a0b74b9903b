"""Start the Discord bot: read the settings, set up logging, load the cogs, run until stopped.

    python bot.py            # run with the settings from the environment / .env (see .env.example)
    python bot.py --sync     # also publish the slash commands globally (needed once, and after they change)

SIGTERM or SIGINT (systemd, Docker, Ctrl+C) stops it cleanly: no new clicks are taken, moves under way finish,
the AI workers and the database are closed, and the process exits with status 0.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import logging
import os
import signal
import socket
from collections.abc import Coroutine
from typing import Any

import aiohttp
import discord
from discord.ext import commands
from dotenv import find_dotenv, load_dotenv

import i18n
from cogs import EXTENSIONS
from cogs._herald import Herald
from cogs._images import Images
from cogs._locale import Translator
from cogs._session import Session
from ops import logs
from ops.health import Health
from ops.identify import IdentifyGate
from ops.metrics import Instruments
from records.figures import RATER
from storage import ALL_SHARDS, Shards, Storage, open_storage

log = logging.getLogger("bot")


def budget_from_env(text: str | None) -> int | float | None:
    """AI_BUDGET: "" = the AI's default, "1.5" or "1.5s" = seconds, "300" = search iterations (hard only)."""
    text = (text or "").strip().lower()
    if not text:
        return None
    try:
        if text.endswith("s"):
            return float(text[:-1])
        if "." in text:
            return float(text)
        value = int(text)
    except ValueError:
        raise SystemExit(f"AI_BUDGET must be seconds (1.0) or search iterations (200), not {text!r}.") from None
    return value if value > 0 else None


def seconds_from_env(name: str, text: str | None, default: float) -> float:
    """A number of seconds from the environment variable `name` ("" = `default`; never negative)."""
    text = (text or "").strip().lower().removesuffix("s")
    if not text:
        return default
    try:
        return max(0.0, float(text))
    except ValueError:
        raise SystemExit(f"{name} must be a number of seconds, not {text!r}.") from None


def shards_from_env(count: str | None, ids: str | None) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS ("0-3" or "0,2,4"): the shards this process connects. Both empty: one process,
    all shards, as many as Discord recommends."""
    count, ids = (count or "").strip(), (ids or "").strip()
    if not count and not ids:
        return None, None
    if not count.isdigit() or int(count) < 1:
        raise SystemExit(f"SHARD_COUNT must be a whole number of shards (1 or more), not {count!r}.")
    total = int(count)
    if not ids:
        return total, tuple(range(total))
    chosen: list[int] = []
    for part in ids.split(","):
        lo, _, hi = part.strip().partition("-")
        if not lo.isdigit() or (hi and not hi.isdigit()):
            raise SystemExit(f"SHARD_IDS must list shard numbers like 0-3 or 0,2,4, not {ids!r}.")
        chosen += range(int(lo), int(hi or lo) + 1)
    if not chosen or any(i >= total for i in chosen):
        raise SystemExit(f"SHARD_IDS ({ids}) must name shards below SHARD_COUNT ({total}).")
    return total, tuple(sorted(set(chosen)))


def iterations_from_env(name: str, text: str | None, default: int) -> int:
    """HINT_ITERATIONS / REVIEW_ITERATIONS: the coach's search iterations (a count: the same position always
    gets the same answer); "" = `default`."""
    text = (text or "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number of search iterations, not {text!r}.") from None
    if not 1 <= value <= 100_000:
        raise SystemExit(f"{name} must be between 1 and 100000 search iterations, not {value}.")
    return value


def processes_from_env(name: str, text: str | None, default: int) -> int:
    """AI_PROCESSES / RENDER_PROCESSES: worker processes; "" = `default`, "0" = a thread of the bot's process."""
    text = (text or "").strip()
    if not text:
        return default
    try:
        return max(int(text), 0)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number of processes, not {text!r}.") from None


@dataclasses.dataclass(frozen=True, slots=True)
class Settings:
    """Every setting of the bot, read once (README lists them; .env.example has a commented copy)."""

    token: str
    database_path: str = "games.sqlite3"
    database_url: str | None = None  # postgresql://... (several processes, shards) instead of the SQLite file
    database_sync: str = "FULL"  # SQLite's synchronous mode: FULL (a move is on disk before it is announced)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    sync: bool = False
    ai_budget: int | float | None = None  # "hard" AI: seconds (float) or search iterations (int); None: default
    ai_processes: int = 1  # worker processes for AI decisions (0: a thread of the bot)
    ai_wait: float = 60.0  # seconds an AI to move leaves humans who may act out of turn
    hint_iterations: int = 250  # the coach's hint (cogs/_coach.py): hard's search iterations (~1 s in Alhambra)
    review_iterations: int = 60  # the coach's review: search iterations per move of a finished game
    render_processes: int = max(1, (os.cpu_count() or 2) - 1)  # worker processes drawing boards (0: a thread)
    shutdown_grace: float = 10.0  # seconds moves under way get to finish when the bot is stopped
    shard_count: int | None = None  # None: one process, every shard (as many as Discord recommends)
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (with shard_count)
    log_format: str = "text"  # "json": one JSON object a line (ops/logs.py)
    health_port: int | None = None  # /healthz, /readyz, /metrics on this port (ops/health.py); None: off
    health_host: str = "127.0.0.1"

    @property
    def shards(self) -> Shards:
        """The shards whose guilds' background work (reminders, AI turns, notices) this process does."""
        if self.shard_count is None or self.shard_ids is None:
            return ALL_SHARDS
        return Shards(self.shard_count, self.shard_ids)

    @classmethod
    def from_env(cls, *, sync: bool = False) -> Settings:
        """Settings from the environment (after loading .env). SystemExit with one clear line if one is bad."""
        load_dotenv(find_dotenv(usecwd=True))  # the .env of the directory the bot is started from
        env = os.environ
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SystemExit(
                "DISCORD_TOKEN is not set: put your bot token in .env (copy .env.example) or the "
                "environment. See 'Running the bot on your server' in README.md."
            )
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SystemExit(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}; or leave it empty.")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SystemExit(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
        db_sync = env.get("DATABASE_SYNC", "").strip().upper() or "FULL"
        if db_sync not in ("FULL", "NORMAL"):
            raise SystemExit(f"DATABASE_SYNC must be FULL or NORMAL, not {db_sync!r}.")
        wait = env.get("AI_WAIT", "") or env.get("AI_VIZIER_WAIT", "")  # the older name still works
        shard_count, shard_ids = shards_from_env(env.get("SHARD_COUNT"), env.get("SHARD_IDS"))
        log_format = env.get("LOG_FORMAT", "").strip().lower() or "text"
        if log_format not in ("text", "json"):
            raise SystemExit(f"LOG_FORMAT must be text or json, not {log_format!r}.")
        port = env.get("HEALTH_PORT", "").strip()
        if port and (not port.isdigit() or not 0 < int(port) < 65536):
            raise SystemExit(f"HEALTH_PORT must be a port number (1-65535), not {port!r}; or leave it empty.")
        return cls(
            token=token,
            database_path=env.get("DATABASE_PATH", "").strip() or "games.sqlite3",
            database_url=env.get("DATABASE_URL", "").strip() or None,
            database_sync=db_sync,
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            sync=sync,
            ai_budget=budget_from_env(env.get("AI_BUDGET")),
            ai_processes=processes_from_env("AI_PROCESSES", env.get("AI_PROCESSES"), 1),
            render_processes=processes_from_env(
                "RENDER_PROCESSES", env.get("RENDER_PROCESSES"), max(1, (os.cpu_count() or 2) - 1)
            ),
            ai_wait=seconds_from_env("AI_WAIT", wait, 60.0),
            hint_iterations=iterations_from_env("HINT_ITERATIONS", env.get("HINT_ITERATIONS"), 250),
            review_iterations=iterations_from_env("REVIEW_ITERATIONS", env.get("REVIEW_ITERATIONS"), 60),
            shard_count=shard_count,
            shard_ids=shard_ids,
            log_format=log_format,
            health_port=int(port) if port else None,
            health_host=env.get("HEALTH_HOST", "").strip() or "127.0.0.1",
        )


class GameBot(commands.AutoShardedBot):
    """The bot: owns the storage, the session service, the images and the herald; the rest lives in the cogs."""

    storage: Storage
    session: Session
    images: Images
    herald: Herald

    def __init__(self, settings: Settings):
        # Only the guilds intent (the servers' and channels' cache: a server's language, threads). Slash commands
        # and components arrive as interactions whatever the intents, and the bot reads no messages, typing,
        # reactions or presences: the chatter of the servers it is in never reaches this process. Nor does it
        # keep discord.py's cache of messages: it never looks one up.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            max_messages=None,
            help_command=None,
            # the shards this process connects (SHARD_COUNT/SHARD_IDS); None: all, as many as Discord recommends
            shard_count=settings.shard_count,
            # None: all of them (discord.py takes it; its stubs say list)
            shard_ids=list(settings.shard_ids) if settings.shard_ids is not None else None,  # type: ignore[arg-type]
        )
        self.settings = settings
        self._open = False
        self.health: Health | None = None
        self.instruments: Instruments | None = None
        self.identify = IdentifyGate(self)

    async def setup_hook(self) -> None:
        self.storage = await open_storage(
            self.settings.database_url or self.settings.database_path,
            synchronous=self.settings.database_sync,
            rater=RATER,  # the arithmetic of a game's end (records/: storage sits below it and never imports it)
        )
        self._open = True
        i18n.all_words()  # every language's catalog loaded (compiled if outdated) now, not at a player's first click
        self.session = Session(self.storage)
        self.session.languages.guild_locale = self.guild_locale  # public posts: the server's own language by default
        self.images = Images(self.session, processes=self.settings.render_processes)
        self.herald = Herald(
            self, self.session, self.images, shards=self.settings.shards, owner=f"{socket.gethostname()}:{os.getpid()}"
        )
        self.session.listeners.append(self.herald.notify)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        await self.tree.set_translator(Translator())  # the commands in every language (cogs/_locale.py)
        # Sync deliberately: instantly to the development server, globally only when asked (--sync).
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development server %s", len(synced), guild.id)
        if self.settings.sync:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (they may take a while to appear)", len(synced))
        await self.images.warm()  # the drawing processes are ready before the first interaction arrives
        if self.settings.health_port is not None or self.settings.log_format == "json":
            # the metrics' hooks, and the context (game, guild, shard, interaction) of every log line
            self.instruments = Instruments(self)
            self.instruments.install()
        if self.settings.health_port is not None:
            assert self.instruments is not None  # installed just above whenever there is a health port
            self.health = Health(self, self.instruments, host=self.settings.health_host, port=self.settings.health_port)
            await self.health.start()
        gc.freeze()  # what start-up built lives as long as the bot: later collections need not walk it
        # A move allocates thousands of short-lived objects (a decoded state, its JSON, Discord's payloads): with
        # the default first threshold (700) the youngest generation is collected several times per move, each
        # time walking what the move still holds. 20,000 lets most of them die first (bench/capacity.py: the
        # collector's CPU per move about halves; the longest pause is unchanged, it is the oldest generation's).
        gc.set_threshold(20_000, 20, 20)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Several processes on one database take turns to identify (ops/identify.py); alone, discord.py's own
        pacing (5 s between this process's shards)."""
        await self.identify.wait(shard_id, initial=initial)

    def guild_locale(self, guild_id: int) -> discord.Locale | None:
        """A cached server's own language (its Discord "preferred locale"), or None if this process has not seen it."""
        guild = self.get_guild(guild_id)
        return guild.preferred_locale if guild is not None else None

    async def close(self) -> None:
        """Stop cleanly: refuse new moves, let those under way finish (bounded), post what they owe, then close
        the cogs (the AI pool), the gateway and the database."""
        if self._open and not self.herald.closed:
            if not await self.session.drain(self.settings.shutdown_grace):
                log.warning(
                    "moves still under way after %.0f s; stopping anyway (each is one transaction: "
                    "none is half-applied)",
                    self.settings.shutdown_grace,
                )
            await self.herald.close(self.settings.shutdown_grace)
        await super().close()
        if self._open:
            self._open = False
            if self.health is not None:
                await self.health.close()
            if self.instruments is not None:
                self.instruments.uninstall()
            await self.images.close()
            await self.storage.close()


async def _run(settings: Settings) -> None:
    """Run until the bot stops by itself or a SIGTERM/SIGINT asks it to."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with GameBot(settings) as bot:
        runner = asyncio.create_task(bot.start(settings.token), name="bot")
        stopper = asyncio.create_task(stop.wait(), name="stop-signal")
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper.done():
            log.info("stopping (signal received)")
            await bot.close()
        else:
            stopper.cancel()
        await runner  # re-raises a start-up failure (a rejected token, no network)


def run(main: Coroutine[Any, Any, None]) -> None:
    """Run the bot's event loop: uvloop's where it is installed (Linux and macOS: the same asyncio API, with the
    loop's own work per callback, socket and timer in C: about 7 % less CPU per move in bench/capacity.py),
    else asyncio's own."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
    else:
        uvloop.run(main)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Run the board-game Discord bot.")
    parser.add_argument("--sync", action="store_true", help="publish the slash commands globally on start")
    args = parser.parse_args(argv)
    settings = Settings.from_env(sync=args.sync)
    logs.setup(getattr(logging, settings.log_level), settings.log_format, secrets=(settings.token,))
    try:
        run(_run(settings))
    except discord.LoginFailure:
        raise SystemExit(
            "Discord rejected DISCORD_TOKEN: copy a fresh token from the Developer Portal "
            "(Bot > Reset Token) into .env."
        ) from None
    except discord.PrivilegedIntentsRequired:
        raise SystemExit("Discord refused a privileged intent; this bot needs none. Check the bot's code.") from None
    except (aiohttp.ClientConnectorError, OSError) as exc:
        raise SystemExit(f"Cannot reach Discord ({exc}). Check this machine's internet connection.") from None


if __name__ == "__main__":
    main()  # a SystemExit with a message prints that one line to stderr and exits with status 1
