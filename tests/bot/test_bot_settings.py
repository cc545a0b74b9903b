"""bot.py: settings from the environment, and one-line explanations instead of tracebacks."""

import logging

import discord
import discord.http
import pytest

import bot
from cogs import EXTENSIONS


@pytest.fixture
def env(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield monkeypatch
    root.handlers[:] = handlers  # bot.main() sets up logging for the process: undo it for the other tests
    root.setLevel(level)


def test_settings_defaults(env):
    env.setenv("DISCORD_TOKEN", "abc")
    s = bot.Settings.from_env()
    assert (s.token, s.database_path, s.dev_guild_id, s.log_level, s.sync) == (
        "abc",
        "games.sqlite3",
        None,
        "INFO",
        False,
    )


def test_settings_from_dotenv_file(env, tmp_path):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=xyz\nDATABASE_PATH=data.db\nDEV_GUILD_ID=123\nLOG_LEVEL=debug\n")
    s = bot.Settings.from_env(sync=True)
    assert (s.token, s.database_path, s.dev_guild_id, s.log_level, s.sync) == ("xyz", "data.db", 123, "DEBUG", True)


def test_missing_token_is_one_line(env):
    with pytest.raises(SystemExit) as exc:
        bot.main([])
    assert "DISCORD_TOKEN is not set" in str(exc.value.code) and "\n" not in str(exc.value.code)


def test_bad_guild_id_is_one_line(env):
    env.setenv("DISCORD_TOKEN", "abc")
    env.setenv("DEV_GUILD_ID", "my server")
    with pytest.raises(SystemExit, match="DEV_GUILD_ID must be a server id"):
        bot.main([])


def test_rejected_token_is_one_line(env, tmp_path):
    """Discord answers 401 to the login: the user reads what to do, not a traceback."""
    env.setenv("DISCORD_TOKEN", "wrong")
    env.setenv("DATABASE_PATH", str(tmp_path / "g.sqlite3"))

    class Unauthorized:
        status = 401
        reason = "Unauthorized"

    async def request(self, route, **kwargs):
        raise discord.HTTPException(Unauthorized(), {"message": "401: Unauthorized", "code": 0})

    env.setattr(discord.http.HTTPClient, "request", request)
    with pytest.raises(SystemExit) as exc:
        bot.main([])
    assert str(exc.value.code).startswith("Discord rejected DISCORD_TOKEN")


def test_every_extension_has_setup():
    import importlib

    for name in EXTENSIONS:
        assert callable(importlib.import_module(name).setup), name


async def test_the_bot_asks_discord_only_for_the_guilds_intent(env):
    """Interactions (slash commands, buttons, menus) come whatever the intents: the bot identifies with the guilds
    intent alone (no messages, typing, reactions or presences of the servers it is in reach it) and keeps no
    message cache."""
    env.setenv("DISCORD_TOKEN", "abc")
    b = bot.GameBot(bot.Settings.from_env())
    assert b.intents.value == discord.Intents(guilds=True).value
    assert not b.intents.guild_messages and not b.intents.typing and not b.intents.message_content
    assert b._connection.max_messages is None
