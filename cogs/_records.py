"""The results post's part of the records: each rated player's new rating and its change, and the
game's score progression chart, for the herald's final post (cogs/_herald.py). Also the one way records images
are drawn in the image worker pool (`draw`). The commands are in cogs/records.py."""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections.abc import Callable
from typing import Any

import discord

import present
from cogs._images import Images
from cogs._text import esc
from i18n import Words
from render.charts import number, progression_png
from storage import GameRow, Season, Storage

log = logging.getLogger(__name__)


def signed(value: float) -> str:
    """A rating change: "+2.1", "−0.4", "±0.0" (never a signed zero: −0.04 is no loss worth a minus)."""
    shown = f"{value:+.1f}"
    return "±0.0" if float(shown) == 0 else shown.replace("-", "−")


def rating_number(value: float) -> str:
    """A shown rating: "21.4", "−1.8", "0.0" (a true minus sign, like the changes; never on a zero)."""
    return number(value)


def season_name(season: Season, _: Words) -> str:
    """ "Season 3" or "Season 3 · Spring" (cogs/seasons.py)."""
    # i18n: a rating season's name: its number in the server (the name the admin gave it follows, if any)
    number = _("Season {number}", number=season.number)
    return f"{number} · {esc(season.name)}" if season.name else number


async def current_season(storage: Storage, guild_id: int) -> Season | None:
    """The server's running rating season, if one runs."""
    seasons = await storage.seasons(guild_id, limit=1)
    return seasons[0] if seasons and seasons[0].ended_at is None else None


async def results_line(storage: Storage, row: GameRow, _: Words) -> str:
    """The results post's rating line: each rated player's new rating and its change (and who was not rated
    because the AI played their seat); empty for a game without results or ratings."""
    parts, standins, substitutes = [], [], []
    for r in await storage.game_results(row.id):
        rec = r.record
        name = f"**{esc(rec.name)}**"
        if rec.after is not None and rec.change is not None:
            rating, change = rating_number(rec.after.shown), signed(rec.change)
            if rec.after.provisional:
                # i18n: a player's new rating and its change in the results post, while still provisional
                parts.append(_("{name} {rating} ({change}, provisional)", name=name, rating=rating, change=change))
            else:
                # i18n: a player's new rating and its change in the results post
                parts.append(_("{name} {rating} ({change})", name=name, rating=rating, change=change))
        elif rec.substitute and r.guild_id:  # took a vacant seat over (cogs/_substitutes.py)
            substitutes.append(name)
        elif rec.ai_level is None and r.guild_id:
            standins.append(name)
    lines = [_("📈 Ratings: {ratings}", ratings=" · ".join(parts))] if parts else []
    if standins:
        # i18n: in the results post: players whose seat an AI stand-in played for most of the game
        lines.append(_("Not rated (the AI played most of their moves): {names}", names=", ".join(standins)))
    if substitutes:
        # i18n: in the results post: players who took over a vacant seat during the game (never rated for it)
        lines.append(_("Not rated (substitutes for this game): {names}", names=", ".join(substitutes)))
    return "\n".join(lines)


async def draw(images: Images, key: int, job: Callable[[], bytes]) -> bytes | None:
    """PNG bytes drawn by the image worker pool (cogs/_images.py: the worker `key` falls to, like a game's boards;
    a thread when it has no processes), None if drawing fails (logged: the reply goes out without its image)."""
    try:
        if images.processes <= 0:
            return await asyncio.to_thread(job)
        return await images._in_pool(key % images.processes, job)  # noqa: SLF001 (the pool's own dispatch)
    except Exception:
        log.exception("drawing a records image failed; answering without it")
        return None


async def results_chart(bot: Any, row: GameRow, _: Words) -> bytes | None:
    """The score progression chart of a finished game, replayed from its move log in the worker pool."""
    moves = await bot.session.storage.moves(row.id)
    names = {s.id: s.name for s in row.seats}
    # i18n: the title of a finished game's score chart
    title = _("{title}: scores over the game", title=_.text(present.title(row.game)))
    actions = [(m.player, m.action) for m in moves]
    job = functools.partial(
        progression_png, row.game, row.options, row.seed, row.player_ids, actions, names, title, _.lang
    )
    return await draw(bot.images, row.id, job)


def png(data: bytes | None, name: str) -> discord.File | None:
    return discord.File(io.BytesIO(data), filename=name) if data else None
