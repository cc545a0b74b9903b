"""After the game: `/leaderboard`, `/stats` and `/ratings rebuild`; the results post's rating line and
score progression chart are in cogs/_records.py (the herald's part).

Results and ratings are written by storage in the transaction of each game's final move (records/ has the
rules and the arithmetic); this module only reads and shows them. Everything here answers in the reader's
language: ephemeral replies in the user's, the results post's lines in the server's. Images (the stats card, the
score chart) are drawn in the image worker pool (cogs/_images.py), never on the event loop.

Custom ids: `lb:<game>:<page>:<p|n>` (LeaderboardButton: the page it shows; p/n only tells ◀ from ▶ apart).
Pages are bounded, the game checked against the registry: a forged id answers with a short note.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
import present
from cogs._items import guarded, make_button, new_view, register, reply, session_of
from cogs._locale import user_words
from cogs._options import game_choices, game_named
from cogs._records import current_season, draw, png, rating_number, season_name
from cogs._seating import GameError
from cogs._services import services
from cogs._text import clip, esc
from cogs.games import CommandErrors
from engine import Text
from i18n import Words
from records.figures import GameStats, finish_of
from render.charts import StatsCard, duration, figure_text, number, stats_png
from storage import GameRow, RatingRow, Storage

log = logging.getLogger(__name__)

PAGE = 10  # players per leaderboard page
MAX_PAGE = 10_000


def rating_text(r: RatingRow, _: Words) -> str:
    """ "21.4" or "3.2 (provisional)"."""
    if r.rating.provisional:
        # i18n: a rating on the leaderboard while the player has played fewer than 5 rated games
        return _("{rating} (provisional)", rating=rating_number(r.rating.shown))
    return rating_number(r.rating.shown)


# --------------------------------------------------------------------------------------------- leaderboard


async def leaderboard_reply(
    storage: Storage, guild_id: int, game: str, page: int, viewer: str, _: Words
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The leaderboard page (1-based) of `game` in the server, with the viewer's own place, and its ◀ ▶."""
    size = await storage.leaderboard_size(guild_id, game)
    pages = max(1, -(-size // PAGE))
    page = min(max(page, 1), pages)
    rows = await storage.leaderboard(guild_id, game, offset=(page - 1) * PAGE, limit=PAGE)
    title = _.text(present.title(game))
    season = await current_season(storage, guild_id)  # the board is the running season's (cogs/seasons.py)
    # i18n: the leaderboard's title; {title} is the game's
    heading = _("🏆 {title}: leaderboard", title=title)
    if season is not None:
        heading = f"{heading} · {season_name(season, _)}"
    embed = discord.Embed(title=heading[:256], colour=discord.Colour.gold())
    lines = []
    for n, r in enumerate(rows, (page - 1) * PAGE + 1):
        # i18n: a leaderboard line: place, player, rating, rated games
        lines.append(
            _(
                "**{place}.** {name} · {rating} · {n} game",
                "**{place}.** {name} · {rating} · {n} games",
                place=n,
                name=esc(r.name),
                rating=rating_text(r, _),
                n=r.rating.games,
            )
        )
    if not lines:
        lines.append(_("Nobody has finished a rated game of {title} on this server yet.", title=title))
    mine = await storage.standing(guild_id, game, viewer)
    if mine is not None:
        # i18n: under the leaderboard: the reader's own place and rating
        lines += ["", _("You: **#{place}** · {rating}", place=mine[0], rating=rating_text(mine[1], _))]
    embed.description = "\n".join(lines)
    # i18n: the leaderboard's footer: how ratings are shown, and the page
    embed.set_footer(
        text=_(
            "Rating: μ − 3σ (openskill), provisional for the first 5 games · page {page} of {pages}",
            page=page,
            pages=pages,
        )
    )
    if pages == 1:
        return embed, None
    return embed, new_view(
        LeaderboardButton(game, page - 1, "p", disabled=page == 1),
        LeaderboardButton(game, page + 1, "n", disabled=page == pages),
    )


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:(?P<game>[a-z][a-z0-9_]{0,30}):(?P<page>[0-9]{1,5}):(?P<op>[pn])",
):
    """◀ / ▶ under a leaderboard: shows page `page` in the message (survives restarts: all it needs is in its id)."""

    def __init__(self, game: str, page: int, op: str, *, disabled: bool = False):
        label = "◀" if op == "p" else "▶"
        super().__init__(make_button(f"lb:{game}:{max(page, 0)}:{op}", label, disabled=disabled))
        self.game, self.page, self.op = game, page, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any, /) -> LeaderboardButton:
        return cls(match["game"], int(match["page"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self._show(interaction))

    async def _show(self, interaction: discord.Interaction) -> None:
        _ = user_words(interaction)
        if self.game not in engine.GAMES or not 0 < self.page <= MAX_PAGE or interaction.guild_id is None:
            raise GameError(Text("This button is out of date: nothing was changed."))
        if session_of(interaction).closing:
            raise GameError(Text("The bot is restarting: nothing was changed. Try again in a minute."))
        storage = session_of(interaction).storage
        embed, view = await leaderboard_reply(
            storage, interaction.guild_id, self.game, self.page, str(interaction.user.id), _
        )
        await interaction.response.edit_message(embed=embed, view=view)


register(LeaderboardButton)  # a known custom_id family (cogs._items.unrouted)


# --------------------------------------------------------------------------------------------- stats


def stats_lines(title: str, stats: GameStats, standing: tuple[int, RatingRow] | None, size: int, _: Words) -> list[str]:
    """A player's statistics of one game, in words (the /stats reply's text; the image shows the same)."""
    # i18n: /stats, a game's summary: games played, wins and win rate, average and best score
    lines = [
        _(
            "**{title}**: {n} game, {wins} won ({rate} %), average score {average}, best {best}",
            "**{title}**: {n} games, {wins} won ({rate} %), average score {average}, best {best}",
            title=title,
            n=stats.games,
            wins=stats.wins,
            rate=round(stats.win_rate * 100),
            average=number(stats.average_score),
            best=stats.best_score,
        ),
        # i18n: /stats: the player's time per turn
        _(
            "⏱️ Turn time: {average} on average, {median} median",
            average=duration(stats.average_turn, _),
            median=duration(stats.median_turn, _),
        ),
    ]
    if standing is not None:
        # i18n: /stats: the player's rating and place on this server's leaderboard of the game
        lines.append(
            _(
                "🏆 Rating {rating}, #{place} of {size}",
                rating=rating_text(standing[1], _),
                place=standing[0],
                size=size,
            )
        )
    labels = present.for_game(stats.game).figure_labels
    lines += [f"• {figure_text(labels.get(f.key, f.key), f, _)}" for f in stats.figures]
    return lines


async def player_stats(
    storage: Storage, guild_id: int, player: str, game: str | None
) -> list[tuple[GameStats, tuple[int, RatingRow] | None, int]]:
    """Each game's statistics of the player in the server (most played first), with their place on its board."""
    out = []
    for summary in await storage.player_summary(guild_id, player, game):
        if summary.game not in engine.GAMES:
            continue
        recent = await storage.player_recent(guild_id, player, summary.game)
        standing = await storage.standing(guild_id, summary.game, player)
        size = await storage.leaderboard_size(guild_id, summary.game) if standing else 0
        out.append((GameStats.of(summary, recent), standing, size))
    return sorted(out, key=lambda s: -s[0].games)


def stats_card_of(
    name: str,
    server: str,
    found: list[tuple[GameStats, tuple[int, RatingRow] | None, int]],
    history: list[tuple[float, float]],
    _: Words,
) -> StatsCard:
    """What the /stats image shows (`found`: `player_stats`; `history`: (μ, σ) per rated game of the first)."""
    first, standing, size = found[0]
    title = _.text(present.title(first.game))
    rating = ""
    if standing:
        # i18n: under the player's name in the /stats image: their rating in the game the chart shows
        rating = _(
            "{title}: rating {rating}, #{place} of {size}",
            title=title,
            rating=rating_text(standing[1], _),
            place=standing[0],
            size=size,
        )
    return StatsCard(
        name=name,
        server=server,
        games=tuple((_.text(present.title(s.game)), s, present.for_game(s.game).figure_labels) for s, _st, _n in found),
        rating=rating,
        history=tuple(history),
        # i18n: the title of the rating history chart in /stats
        history_title=_("Rating history: {title}", title=title),
    )


# --------------------------------------------------------------------------------------------- commands


def _finish_of(row: GameRow) -> Any:
    """The finish of an older finished game, from its stored final state (a thread: decoding takes a moment)."""
    if row.state_json is None or row.game not in engine.GAMES:
        return None
    rules = engine.get_rules(row.game)
    state = rules.from_json(json.loads(row.state_json))
    return finish_of(row.game, rules, state, [(s.id, s.name) for s in row.seats], row.table)


class RecordsCog(CommandErrors, commands.Cog):
    """/leaderboard and /stats."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="leaderboard", description="The best players of a game on this server")
    @app_commands.describe(game="Which game", page="Which page (10 players each)")
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: str, page: app_commands.Range[int, 1, MAX_PAGE] = 1
    ) -> None:
        _ = user_words(interaction)
        game = game_named(game)
        guild = interaction.guild_id or 0
        embed, view = await leaderboard_reply(self.session.storage, guild, game, page, str(interaction.user.id), _)
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING, ephemeral=True)

    @leaderboard.autocomplete("game")
    async def _leaderboard_game(self, interaction: discord.Interaction, current: str) -> list[Any]:
        return game_choices(current, user_words(interaction))

    @app_commands.command(name="stats", description="Games, wins, scores and turn times of a player on this server")
    @app_commands.describe(user="Whose statistics (default: yours)", game="Only this game")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None, game: str | None = None
    ) -> None:
        _ = user_words(interaction)
        kind = game_named(game) if game else None
        who = user or interaction.user
        player, guild = str(who.id), interaction.guild_id or 0
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await player_stats(self.session.storage, guild, player, kind)
        name = getattr(who, "display_name", None) or next((s[1].name for _s, s, _n in found if s), None)
        shown = esc(name) if name else f"<@{player}>"
        if not found:
            await reply(interaction, _("{name} has no finished games on this server yet.", name=shown))
            return
        lines: list[str] = []
        for stats, standing, size in found:
            lines += stats_lines(_.text(present.title(stats.game)), stats, standing, size, _)
        # i18n: the title of the /stats reply
        embed = discord.Embed(
            title=_("📊 Statistics: {name}", name=name or player), description=clip("\n".join(lines), 4000)
        )
        history = await self.session.storage.rating_history(guild, found[0][0].game, player)
        server = interaction.guild.name if interaction.guild else ""
        card = stats_card_of(name or player, server, found, [(r.mu, r.sigma) for _at, r in history], _)
        image = await draw(
            services(self.bot).images,
            int(player) if player.isdigit() else 0,
            functools.partial(stats_png, card, _.lang),
        )
        file = png(image, "stats.png")
        kwargs: dict[str, Any] = {"embed": embed}
        if file is not None:
            embed.set_image(url="attachment://stats.png")
            kwargs["attachments"] = [file]
        await interaction.edit_original_response(**kwargs)

    @stats.autocomplete("game")
    async def _stats_game(self, interaction: discord.Interaction, current: str) -> list[Any]:
        return game_choices(current, user_words(interaction))


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class RatingsCog(
    CommandErrors, commands.GroupCog, group_name="ratings", group_description="The ratings of this server (admins)"
):
    """/ratings rebuild."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self._running: set[int] = set()
        super().__init__()

    @app_commands.command(name="rebuild", description="Rate every finished game of this server again, in order")
    async def rebuild(self, interaction: discord.Interaction) -> None:
        _ = user_words(interaction)
        perms = getattr(interaction, "permissions", None)
        if perms is None or not perms.manage_guild:
            raise GameError(Text("Only members who may manage this server can rebuild its ratings."))
        guild = interaction.guild_id or 0
        if guild in self._running:
            raise GameError(Text("The ratings of this server are being rebuilt already."))
        self._running.add(guild)
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            filled = await self.fill_in(guild)
            games = 0
            for game in engine.GAMES:
                games += await self.session.storage.rebuild_ratings(guild, game)
        finally:
            self._running.discard(guild)
        # i18n: the answer to /ratings rebuild
        text = _(
            "🔁 Ratings rebuilt from {n} finished game, in order.",
            "🔁 Ratings rebuilt from {n} finished games, in order.",
            n=games,
        )
        if filled:
            # i18n: after /ratings rebuild: older games whose results were filled in first
            text += "\n" + _(
                "{n} older game was added to the records first.",
                "{n} older games were added to the records first.",
                n=filled,
            )
        await reply(interaction, text)

    async def fill_in(self, guild: int) -> int:
        """Results for the server's finished games that have none (finished before results were kept)."""
        storage, filled, after = self.session.storage, 0, 0
        while ids := await storage.unrecorded_games(guild, after=after, limit=50):
            for game_id in ids:
                row = await storage.load_game(game_id)
                if row is None:
                    continue
                try:
                    finish = await asyncio.to_thread(_finish_of, row)
                except Exception:
                    log.exception("game %s: its final state could not be read; left without results", game_id)
                    continue
                if finish is not None and await storage.record_finish(game_id, finish):
                    filled += 1
            after = ids[-1]
        return filled


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(LeaderboardButton)
    await bot.add_cog(RecordsCog(bot))
    await bot.add_cog(RatingsCog(bot))
