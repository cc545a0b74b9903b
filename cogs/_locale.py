"""Which language each reader gets, and the slash commands in every language.

- An ephemeral reply (a panel, a hand, an error) is in the clicking user's Discord language: `user_words(it)`.
- A public post (moves, the lobby, reminders, deadlines, results) is in the server's language: the one an admin
  chose with /language, else the server's own Discord locale, else English: `await languages.public(guild_id)`.
- `Translator` gives Discord the commands' names, descriptions and choices in each language, from the same
  catalogs (names in the catalog context "command name", checked against Discord's rules; a name Discord would
  refuse falls back to the English one). The languages' own names (the /language choices) stay as they are.
- `LanguageCog`: `/language`, with which a server admin sees or sets the language of the server's posts.
"""

from __future__ import annotations

import collections
import dataclasses
import importlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs import EXTENSIONS
from i18n import COMMAND, COMMAND_NAME, LANGUAGES, SOURCE, Words, catalogs, words

CACHE_SIZE = 4096  # servers whose language is remembered
CACHE_SECONDS = 60.0  # how long (another process may change it on a shared database)


def user_words(interaction: discord.Interaction) -> Words:
    """The texts of the clicking user's language (ephemeral replies)."""
    return words(i18n.language_of(interaction.locale))


class Languages:
    """The language of each server's public posts: its stored choice (cached), else its Discord locale."""

    def __init__(self, storage: Any, guild_locale: Callable[[int], Any] | None = None):
        self.storage = storage
        self.guild_locale = guild_locale  # set by the bot: a cached guild's preferred locale, or None
        self._cache: collections.OrderedDict[int, tuple[float, str | None]] = collections.OrderedDict()

    async def chosen(self, guild_id: int) -> str | None:
        """The language an admin chose for the server (None: none chosen)."""
        hit = self._cache.get(guild_id)
        now = time.monotonic()
        if hit is not None and hit[0] > now:
            self._cache.move_to_end(guild_id)
            return hit[1]
        language: str | None = (await self.storage.guild(guild_id)).language
        self._cache[guild_id] = (now + CACHE_SECONDS, language)
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return language

    async def of(self, guild_id: int | None, guild_locale: Any = None) -> str:
        """The server's language for public posts."""
        if not guild_id:
            return SOURCE
        chosen = await self.chosen(guild_id)
        if chosen is not None:
            return chosen
        if guild_locale is None and self.guild_locale is not None:
            guild_locale = self.guild_locale(guild_id)
        return i18n.language_of(guild_locale) or SOURCE

    async def public(self, guild_id: int | None, guild_locale: Any = None) -> Words:
        return words(await self.of(guild_id, guild_locale))

    async def set(self, guild_id: int, language: str | None) -> None:
        # the server's other settings (its looking-for-game queue) stay as they are
        await self.storage.set_guild(dataclasses.replace(await self.storage.guild(guild_id), language=language))
        self._cache.pop(guild_id, None)


# --------------------------------------------------------------------------------------------- slash commands

NAME_LOCATIONS = {
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
}


class Translator(app_commands.Translator):
    """The commands' localisations for Discord, from the catalogs."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = i18n.language_of(locale)
        if lang is None or lang == SOURCE or string.message in OWN_NAMES:
            return None
        w = words(lang)
        if context.location in NAME_LOCATIONS:
            name = w.command_name(string.message)
            ok = name != string.message and catalogs.NAME_RE.match(name) and name == name.lower()
            return name if ok else None
        text = w.command_text(string.message)
        if text == string.message:
            return None
        return text if len(text) <= 100 else text[:99].rstrip() + "…"


def _commands(obj: Any) -> Iterator[Any]:
    yield obj
    for child in getattr(obj, "commands", ()):
        yield from _commands(child)


def command_entries() -> list[catalogs.Entry]:
    """The slash commands' names, descriptions and choices, for the catalogs (`python -m i18n extract`)."""
    found: list[catalogs.Entry] = []

    def add(text: str, where: str, *, name: bool = False, note: str = "") -> None:
        if text and text != "…":
            found.append(catalogs.Entry(text, None, COMMAND_NAME if name else COMMAND, where, note))

    name_note = "a slash-command name: lowercase, no spaces, at most 32 characters"
    for ext in EXTENSIONS:
        module = importlib.import_module(ext)
        for cog in vars(module).values():
            if not (isinstance(cog, type) and issubclass(cog, commands.Cog)):
                continue
            where = f"{ext.replace('.', '/')}.py:{cog.__name__}"
            if getattr(cog, "__cog_is_app_commands_group__", False):
                add(str(cog.__cog_group_name__), where, name=True, note=name_note)
                add(str(cog.__cog_group_description__), where, note="a slash command's description (at most 100)")
            for top in cog.__cog_app_commands__:
                for cmd in _commands(top):
                    add(cmd.name, where, name=True, note=name_note)
                    add(cmd.description, where, note="a slash command's description (at most 100)")
                    for param in getattr(cmd, "parameters", ()):
                        add(param.name, where, name=True, note="a slash-command option's name: " + name_note[16:])
                        add(param.description, where, note="a slash-command option's description (at most 100)")
                        for choice in param.choices:
                            if choice.name not in OWN_NAMES:
                                add(choice.name, where, note="a slash-command choice (at most 100)")
    return found


# --------------------------------------------------------------------------------------------- /language

OWN_NAMES = frozenset(LANGUAGES.values())  # each language in its own words: never translated
SERVER = "server"  # the /language choice that clears the server's choice


class LanguageCog(commands.Cog):
    """`/language`: the language of this server's public posts (moves, lobby, reminders, results), for server
    admins. Without a choice it shows the current one; "the server's own language" clears the choice (the
    server's Discord locale applies again). Stored per server; the reply is in the language chosen."""

    def __init__(self, bot: commands.Bot, languages: Languages):
        self.bot = bot
        self.languages = languages  # the session's

    @app_commands.command(name="language", description="The language of this server's game posts (server admins)")
    @app_commands.describe(language="The language to post in (leave it out to see the current one)")
    @app_commands.choices(
        language=[
            *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()),
            app_commands.Choice(name="The server's own language", value=SERVER),
        ]
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        guild_id = interaction.guild_id or 0
        if language is None:
            _ = user_words(interaction)
            chosen = await self.languages.chosen(guild_id)
            now = await self.languages.of(guild_id, interaction.guild_locale)
            if chosen is not None:
                # i18n: /language: {language} is the language's own name ("Deutsch")
                text = _(
                    "This server's game posts are in {language}, as an admin chose.", language=LANGUAGES.get(now, now)
                )
            else:
                # i18n: /language: {language} is the language's own name ("Deutsch")
                text = _(
                    "This server's game posts are in {language}, the server's own language.",
                    language=LANGUAGES.get(now, now),
                )
        else:
            await self.languages.set(guild_id, None if language == SERVER else language)
            now = await self.languages.of(guild_id, interaction.guild_locale)
            _ = user_words(interaction)  # an ephemeral reply: in the admin's own language, naming the new one
            if language == SERVER:
                # i18n: /language: {language} is the language's own name ("Deutsch")
                text = _(
                    "From now on this server's game posts follow the server's own language: {language}.",
                    language=LANGUAGES.get(now, now),
                )
            else:
                # i18n: /language: {language} is the language's own name ("Deutsch")
                text = _("From now on this server's game posts are in {language}.", language=LANGUAGES.get(now, now))
        await interaction.response.send_message(text, ephemeral=True)
