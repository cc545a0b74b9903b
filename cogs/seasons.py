"""Rating seasons of a server: `/season start` and `/season end` (members with **Manage Server**, as Discord
defines the permission), `/seasons` (everyone: the archive of past seasons with each one's podium).

A server's ratings (records/, kept per server and game) run by season once an admin starts one. Starting a season
chooses what its board starts from: `ratings: carry` keeps every rating as it is (the board goes on), `reset`
clears the server's ratings of every game in the same transaction that opens the season (results stay; the
board starts empty and everyone starts again as a new player). `/leaderboard` is always the current board, titled
with the running season. Ending a season archives its podium: for each game, the first three of the board among
the players rated since the season began (a carried rating nobody played for does not take a place), and posts
it in the channel (a public reply). `/ratings rebuild` rates again from the start of the latest season that reset
the ratings, so a rebuild never brings back what a reset cleared. A season belongs to its server (sharded with
it: it is read and written only by the commands of that server)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

import engine
from cogs._locale import user_words
from cogs._records import rating_number, season_name
from cogs._seating import GameError
from cogs._text import clip, esc, title_of
from cogs.games import CommandErrors
from engine import Text
from i18n import Words
from storage import Season

MEDALS = ("🥇", "🥈", "🥉")
PODIUM = 3  # places a season's podium keeps, per game
ARCHIVE_PAGE = 5  # past seasons per page of /seasons


def podium_lines(season: Season, _: Words) -> list[str]:
    """A past season's podium, one line per game: "**<its title>**: 🥇 Ana 12.3 · 🥈 Bo 4.1"."""
    lines = []
    for game, places in season.podium.items():
        title = title_of(game, _) if game in engine.GAMES else game
        cells = [
            f"{MEDALS[n] if n < len(MEDALS) else n + 1} {esc(p[1])} {rating_number(float(p[2]))}"
            for n, p in enumerate(places)
        ]
        lines.append(f"**{title}**: " + " · ".join(cells))
    if not lines:
        # i18n: a season's podium when nobody finished a rated game during it
        lines.append(_("Nobody finished a rated game during this season."))
    return lines


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SeasonCog(CommandErrors, commands.GroupCog, group_name="season", group_description="Rating seasons (admins)"):
    """/season start, /season end."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot
        super().__init__()

    @app_commands.command(name="start", description="Start a rating season on this server")
    @app_commands.describe(name="The season's name (optional)", ratings="Carry the ratings over, or start from nothing")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def start(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 0, 40] = "",
        ratings: Literal["carry", "reset"] = "carry",
    ) -> None:
        guild = interaction.guild_id or 0
        season = await self.session.storage.start_season(guild, name=name.strip(), reset=ratings == "reset")
        if season is None:
            raise GameError(Text("A season is running already: end it first with `/season end`."))
        _ = await self.session.languages.public(guild, interaction.guild_locale)  # a public post
        if season.reset:
            # i18n: public: a rating season begins with every rating reset
            text = _("🏁 {season} begins: every rating starts again from nothing.", season=season_name(season, _))
        else:
            # i18n: public: a rating season begins, the ratings carried over from before
            text = _("🏁 {season} begins: the ratings carry over.", season=season_name(season, _))
        await interaction.response.send_message(text)

    @app_commands.command(name="end", description="End this server's rating season and post its podium")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def end(self, interaction: discord.Interaction) -> None:
        guild = interaction.guild_id or 0
        season = await self.session.storage.end_season(guild, games=list(engine.GAMES), places=PODIUM)
        if season is None:
            raise GameError(Text("No season is running on this server: start one with `/season start`."))
        _ = await self.session.languages.public(guild, interaction.guild_locale)
        # i18n: public: a rating season is over; its podium follows, one line per game
        head = _("🏆 {season} is over. The podium:", season=season_name(season, _))
        # i18n: public: after a season's podium: how to see the archive and start the next season
        tail = _("Past seasons: `/seasons`. An admin starts the next one with `/season start`.")
        await interaction.response.send_message(clip("\n".join([head, *podium_lines(season, _), tail])))


class SeasonsCog(CommandErrors, commands.Cog):
    """/seasons: the archive."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="seasons", description="This server's rating seasons and their podiums")
    @app_commands.describe(page="Which page (5 seasons each, the latest first)")
    @app_commands.guild_only()
    async def seasons(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1) -> None:
        _ = user_words(interaction)
        guild = interaction.guild_id or 0
        storage = self.session.storage
        everything = await storage.seasons(guild, limit=1)
        before = None
        if everything:  # the page's first season number, counted down from the latest (numbers have no gaps)
            before = everything[0].number + 1 - (page - 1) * ARCHIVE_PAGE
        found = await storage.seasons(guild, before=before, limit=ARCHIVE_PAGE) if before and before > 1 else []
        if not found:
            raise GameError(Text("This server has had no rating season yet: an admin starts one with `/season start`."))
        lines = []
        for season in found:
            if season.ended_at is None:
                # i18n: /seasons: the running season, since when ({since} is a Discord timestamp)
                lines.append(
                    _(
                        "**{season}**: running since {since}",
                        season=season_name(season, _),
                        since=f"<t:{int(season.started_at)}:d>",
                    )
                )
                continue
            # i18n: /seasons: a past season and its dates ({start}, {end}: Discord timestamps)
            lines.append(
                _(
                    "**{season}**: {start} – {end}",
                    season=season_name(season, _),
                    start=f"<t:{int(season.started_at)}:d>",
                    end=f"<t:{int(season.ended_at)}:d>",
                )
            )
            lines += podium_lines(season, _)
        await interaction.response.send_message(clip("\n".join(lines)), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SeasonCog(bot))
    await bot.add_cog(SeasonsCog(bot))
