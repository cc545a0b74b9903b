"""Replays of finished games: a viewer that steps through every stored position, and an animated GIF
of the whole game for sharing.

- **The viewer** opens from **Replay** under a game's final post, or `/game replay [game]` for older games of this
  server (cogs/games.py hands it to `open_replay`): an ephemeral message, so each user steps on their own (⏮ ◀ ▶
  ⏭, "Move k of N" and who played what, the public board), in the user's language. Its buttons carry the game and
  the position in their custom_id: they work after a restart.
- **The animation** (the viewer's share button): one frame per turn (render/replay.py), posted in the channel for
  everyone, in the server's language (a public post), naming who shared it. Drawn once per game and language and
  kept; the first Share claims the post in the database (storage `claim_share`), so where it was posted already
  (before a restart too) the button links to that post, and a Share while another is drawn says so.

Positions are rebuilt from the move log by the undo's own replay in the game's drawing worker (cogs/_replaying.py
through `Images.run`), never on the event loop, and only public views are drawn. Frames are kept per (game,
position, language), animations per (game, language). At most `EXPORTS` animations are drawn at once per bot and
`WAITING` more wait (others are told to try later); an animation job draws for ~0.1 s of CPU and hands the worker
back, so the boards of running games drawn by the same worker never wait long behind it.

custom_ids (the grammar of cogs/_items.py; every field is checked against the stored game; a game of another
server, an unfinished game or a position past the end is refused with a short note):
    r:<game>:open                   ReplayOpen, on the final post
    r:<game>:<pos>:<op>             ReplayStep, on the viewer: the position shown (0..moves); first, prev, next,
                                    last or gif
"""

from __future__ import annotations

import asyncio
import collections
import functools
import io
import itertools
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from cogs import _replaying
from cogs._items import (
    APOLOGY,
    GID,
    GameItem,
    TableBot,
    bot_of,
    game_here,
    make_button,
    new_view,
    reply,
    session_of,
    table_bot,
)
from cogs._locale import user_words
from cogs._seating import GameError
from cogs._text import clip, esc, name_of, title_of
from engine import IllegalAction, Text
from i18n import Words
from render.replay import RUNGS, frame_positions
from storage import GameRow, MoveRow

log = logging.getLogger(__name__)

EXPORTS = 1  # animations drawn at once (per bot process)
WAITING = 4  # animations that may wait for their turn
FRAME_BYTES = 48 * 1024 * 1024  # PNG frames kept
ANIMATION_BYTES = 40 * 1024 * 1024  # GIFs kept
LOGS = 32  # move logs of finished games kept
NO_MENTIONS = discord.AllowedMentions.none()


class Replays:
    """The replays of one bot: the kept move logs, frames and animations, and the bound on animations. Their
    keys (game, position, language) name a position for good: a replay is of a finished game, whose history no
    undo can change any more (undo is for running games only), unlike the boards of `cogs._images`."""

    def __init__(self, bot: TableBot):
        self.bot = bot
        self._logs: collections.OrderedDict[int, list[MoveRow]] = collections.OrderedDict()
        self._frames = _replaying.Kept(FRAME_BYTES)
        self._animations = _replaying.Kept(ANIMATION_BYTES)
        self._running: dict[tuple[int, str], asyncio.Task[bytes | None]] = {}
        self._slots = asyncio.Semaphore(EXPORTS)
        self._tokens = itertools.count(1)
        self.drawn = 0  # animations drawn (tests, logs)

    async def moves(self, row: GameRow) -> list[MoveRow]:
        """A finished game's move log (kept: it never changes)."""
        moves = self._logs.get(row.id)
        if moves is None or len(moves) != row.version:
            moves = self._logs[row.id] = await self.bot.session.storage.moves(row.id)
            while len(self._logs) > LOGS:
                self._logs.popitem(last=False)
        self._logs.move_to_end(row.id)
        return moves

    def kept_frame(self, row: GameRow, position: int, lang: str) -> bytes | None:
        return self._frames.get((row.id, position, lang))

    async def frame(self, row: GameRow, moves: list[MoveRow], position: int, lang: str) -> bytes | None:
        """The public board at `position` in `lang`, drawn in the game's worker (None if drawing failed)."""
        key = (row.id, position, lang)
        png = self._frames.get(key)
        if png is None:
            job = functools.partial(_replaying.frame, _replaying.lean(row), moves, position, lang)
            png = await self.bot.images.run(row, job)
            if png is not None:
                self._frames.put(key, png)
        return png

    def animation(self, row: GameRow, moves: list[MoveRow], lang: str) -> asyncio.Future[bytes | None] | None:
        """The GIF of the whole game in `lang` (None in it if drawing failed), kept or under way, drawn once however
        many ask; None (at once) if too many others are being drawn."""
        key = (row.id, lang)
        gif = self._animations.get(key)
        if gif is not None:
            done: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
            done.set_result(gif)
            return done
        task = self._running.get(key)
        if task is None:
            if len(self._running) >= EXPORTS + WAITING:
                return None
            task = self._running[key] = asyncio.create_task(self._draw(row, moves, lang), name=f"replay-{row.id}")
            task.add_done_callback(lambda t: self._running.pop(key, None))
        return task

    async def _draw(self, row: GameRow, moves: list[MoveRow], lang: str) -> bytes | None:
        run = self.bot.images.run
        async with self._slots:
            for rung in range(len(RUNGS)):
                token = f"{row.id}.{lang}.{next(self._tokens)}"
                begun = functools.partial(_replaying.animation_begin, token, _replaying.lean(row), moves, lang, rung)
                if await run(row, begun) is None:
                    return None
                status = "more"
                while status == "more":  # a few frames per job: other games' boards go in between
                    step = await run(row, functools.partial(_replaying.animation_step, token))
                    status = step[0] if step else "failed"
                if status == "big":
                    continue
                end = functools.partial(_replaying.animation_end, token)
                gif: bytes | None = await run(row, end) if status == "done" else None
                if gif is None:
                    log.warning("the animation of game %s was lost (%s)", row.id, status)
                    return None
                self._animations.put((row.id, lang), gif)
                self.drawn += 1
                return gif
        return None


def replays_of(interaction: discord.Interaction) -> Replays:
    # the ReplayCog loaded with the bot (not an isinstance check: discord.py loads an extension as a module of its own)
    replays: Replays = bot_of(interaction).get_cog("ReplayCog").replays
    return replays


# --------------------------------------------------------------------------------------------- the viewer


async def replayable(interaction: discord.Interaction, gid: int) -> GameRow:
    """Game `gid`, if it is a finished game of this server; else a GameError saying why."""
    _ = user_words(interaction)
    row = await session_of(interaction).storage.load_game(gid)
    if row is None or row.guild_id is None or row.guild_id != interaction.guild_id:
        # i18n: /game replay or a replay button named a game that is not one of this server's
        raise GameError(_("There is no game #{id} in this server.", id=gid))
    if row.status == "cancelled":
        raise GameError(_("Game #{id} was cancelled: only finished games have a replay.", id=gid))
    if row.status != "finished":
        raise GameError(_("Game #{id} is not over yet: its replay opens once it has finished.", id=gid))
    return row


def move_line(row: GameRow, moves: Sequence[MoveRow], position: int, _: Words) -> str:
    """ "Move k of N: **Ana** takes 3 cards." (position 0: the deal)."""
    total = len(moves)
    if position == 0:
        # i18n: the replay viewer at the first position, before anyone moved
        return _("The deal, before move 1 of {total}.", total=total)
    m = moves[position - 1]
    rules = engine.get_rules(row.game)
    try:
        action = rules.action_from_json(m.action)
        # i18n: the replay viewer: another player's private choice (not shown to anyone else)
        what = _("changes a private setting") if rules.is_private(action) else _.text(rules.describe(action))
    except IllegalAction:
        what = _("(an unreadable move)")
    # i18n: the replay viewer: which move is shown, who made it and what it was
    return _(
        "Move {k} of {total}: {who} {action}.", k=position, total=total, who=name_of(row, m.player, _), action=what
    )


def viewer_text(row: GameRow, moves: Sequence[MoveRow], position: int, _: Words) -> str:
    # i18n: the replay viewer's first line: the game's title and number
    head = _("🎞️ Replay of **{title}** (game #{id})", title=title_of(row.game, _), id=row.id)
    lines = [head, move_line(row, moves, position, _)]
    if position == len(moves):
        # i18n: the replay viewer at the last position
        lines.append(_("🏁 The end: the final scores are on the board."))
    return clip("\n".join(lines))


def viewer_view(row: GameRow, position: int, _: Words) -> discord.ui.View:
    total = row.version
    return new_view(
        ReplayStep(row.id, position, "first", disabled=position == 0),
        ReplayStep(row.id, position, "prev", disabled=position == 0),
        ReplayStep(row.id, position, "next", disabled=position == total),
        ReplayStep(row.id, position, "last", disabled=position == total),
        # i18n: a button of the replay viewer: post an animation of the whole game in the channel
        ReplayStep(row.id, position, "gif", label=_("Share as animated GIF"), row=1),
    )


async def show(interaction: discord.Interaction, row: GameRow, position: int) -> None:
    """The viewer at `position`: a new ephemeral message (from a post or a command) or the clicked viewer itself.
    The frame comes from the cache at once, or is drawn after a deferral (never a silent wait)."""
    _ = user_words(interaction)
    replays = replays_of(interaction)
    moves = await replays.moves(row)
    if not 0 <= position <= len(moves):
        raise GameError(_("This replay button is out of date: nothing was changed."))
    lang = _.lang  # the board's words too
    message = interaction.message if interaction.type is discord.InteractionType.component else None
    edit = message is not None and message.flags.ephemeral  # a click on the viewer itself
    png = replays.kept_frame(row, position, lang)
    if png is None:
        if edit:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        png = await replays.frame(row, moves, position, lang)
    content = viewer_text(row, moves, position, _)
    if png is None:
        # i18n: the replay viewer when the board picture could not be drawn
        note = _("(The picture of this position could not be drawn.)")
        content = clip(f"{content}\n{note}")
    files = [discord.File(io.BytesIO(png), filename=f"replay-{row.id}-{position}.png")] if png else []
    view = viewer_view(row, position, _)
    if interaction.response.is_done():
        await interaction.edit_original_response(content=content, attachments=files, view=view)
    elif edit:
        await interaction.response.edit_message(content=content, attachments=files, view=view)
    else:
        await interaction.response.send_message(content, files=files, view=view, ephemeral=True)


async def open_replay(interaction: discord.Interaction, gid: int | None) -> None:
    """`/game replay [game]`: the viewer of game `gid` of this server (default: this channel's last game)."""
    _ = user_words(interaction)
    if gid is None:
        last = await session_of(interaction).storage.last_game_in_channel(interaction.channel_id or 0)
        if last is None:
            raise GameError(_("No game was played in this channel. Name one: `/game replay game:12` (its number)."))
        if last.status != "finished":
            # i18n: /game replay without a game, in a channel whose latest game is still running (or cancelled)
            raise GameError(
                _(
                    "This channel's latest game (#{id}) has not finished. Name a finished one: `/game replay game:12`.",
                    id=last.id,
                )
            )
        gid = last.id
    if not 0 < gid <= 2**63 - 1:
        raise GameError(_("There is no game #{id} in this server.", id=gid))
    await show(interaction, await replayable(interaction, gid), 0)


class _Commands:
    """`/game replay` for the /game group of cogs/games.py (`replay = replays.REPLAY` in its body)."""

    # a method for GameCog's body (`REPLAY` below), defined outside it: discord.py's types want it on a Cog or Group
    @app_commands.command(name="replay", description="Step through a finished game of this server, move by move")  # type: ignore[type-var]
    @app_commands.describe(game="The game's number (#12); default: the last game of this channel")
    async def replay(self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
        await open_replay(interaction, game)


REPLAY = _Commands.replay


def replay_button(row: GameRow, _: Words) -> ReplayOpen:
    """The **Replay** button under a finished game's post (labelled in the post's language)."""
    # i18n: a button under the final post: step through the game move by move
    return ReplayOpen(row.id, _("Replay"))


# --------------------------------------------------------------------------------------------- sharing


def shared_text(row: GameRow, who: str, _: Words) -> str:
    """The public post of a game's animation (`_`: the server's language)."""
    # i18n: the public post of a game's animation; {who} is the player who shared it
    return _(
        "🎞️ The whole game of **{title}** (game #{id}), turn by turn, shared by **{who}**.",
        title=title_of(row.game, _),
        id=row.id,
        who=who,
    )


async def share(interaction: discord.Interaction, row: GameRow) -> None:
    """Post the animation of the whole game in this channel, in the server's language."""
    _ = user_words(interaction)
    session = session_of(interaction)
    lang = await session.languages.of(interaction.guild_id, interaction.guild_locale)
    channel = interaction.channel_id or 0
    # first claim wins, in the database: two Shares at once, or one after a restart, post it once
    claimed, message_id = await session.storage.claim_share(row.id, channel, lang)
    if not claimed:
        if message_id is None:
            # i18n: the replay's share button while another player's Share of this game is being drawn here
            await reply(interaction, _("The animation of this game is being drawn for this channel already."))
        else:
            link = _link(interaction, message_id)
            # i18n: the replay's share button when the animation was posted in this channel already
            await reply(interaction, _("The animation of this game is already in this channel: {link}", link=link))
        return
    posted: discord.WebhookMessage | None = None
    try:
        posted = await _draw_and_post(interaction, row, lang, _)
    finally:  # recorded, or given up so that another Share may try
        await session.storage.share_posted(row.id, channel, lang, posted.id if posted is not None else None)
    if posted is not None:
        # i18n: the answer to the replay's share button once the animation is posted
        await interaction.edit_original_response(content=_("✅ Posted: {link}", link=_link(interaction, posted.id)))


def _link(interaction: discord.Interaction, message_id: int) -> str:
    return f"https://discord.com/channels/{interaction.guild_id}/{interaction.channel_id}/{message_id}"


async def _draw_and_post(
    interaction: discord.Interaction, row: GameRow, lang: str, _: Words
) -> discord.WebhookMessage | None:
    """Draw the animation (the answer says so at once), then post it: the post, or None (the user was told)."""
    replays = replays_of(interaction)
    session = session_of(interaction)
    moves = await replays.moves(row)
    drawing = replays.animation(row, moves, lang)
    if drawing is None:
        raise GameError(_("Several animations are being drawn right now. Please try again in a few minutes."))
    frames = len(frame_positions([m.player for m in moves]))
    # i18n: the answer to the replay's share button while the animation is drawn ({n}: its frames)
    await reply(
        interaction,
        _(
            "🎞️ Drawing the animation ({n} frame, one per turn): it will be posted in this channel shortly.",
            "🎞️ Drawing the animation ({n} frames, one per turn): it will be posted in this channel shortly.",
            n=frames,
        ),
    )
    gif = await asyncio.shield(drawing)
    if gif is None:
        await interaction.edit_original_response(content=_.text(APOLOGY))
        return None
    public = await session.languages.public(interaction.guild_id, interaction.guild_locale)
    text = shared_text(row, esc(interaction.user.display_name), public)
    try:
        return await interaction.followup.send(
            text,
            file=discord.File(io.BytesIO(gif), filename=f"replay-{row.id}.gif"),
            allowed_mentions=NO_MENTIONS,
            wait=True,
        )
    except discord.HTTPException:
        log.warning("could not post the animation of game %s (%d bytes)", row.id, len(gif), exc_info=True)
        await interaction.edit_original_response(content=_.text(APOLOGY))
        return None


# --------------------------------------------------------------------------------------------- buttons


class ReplayOpen(GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"r:{GID}:open"):
    """**Replay** under a finished game's post: opens the viewer at the deal, for the user who clicked."""

    def __init__(self, gid: int, label: str = "Replay"):
        super().__init__(make_button(f"r:{gid}:open", label, emoji="🎞️"))
        self.gid = gid

    async def handle(self, interaction: discord.Interaction) -> None:
        await game_here(interaction, self.gid)  # a post of this channel's game
        await show(interaction, await replayable(interaction, self.gid), 0)


STEP_LABELS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}


class ReplayStep(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"r:{GID}:(?P<pos>[0-9]{{1,7}}):(?P<op>first|prev|next|last|gif)",
):
    """A button of the viewer (the user's own ephemeral message): a step, or sharing the animation."""

    numbers = frozenset({"gid", "pos"})

    private = True

    def __init__(self, gid: int, pos: int, op: str, *, label: str = "", disabled: bool = False, row: int | None = None):
        style = discord.ButtonStyle.primary if op == "gif" else discord.ButtonStyle.secondary
        shown = label or STEP_LABELS.get(op, op)
        super().__init__(make_button(f"r:{gid}:{pos}:{op}", shown, style, row=row, disabled=disabled))
        self.gid, self.pos, self.op = gid, pos, op

    async def handle(self, interaction: discord.Interaction) -> None:
        row = await replayable(interaction, self.gid)
        if self.pos > row.version:
            raise GameError(Text("This replay button is out of date: nothing was changed."))
        if self.op == "gif":
            await share(interaction, row)
            return
        target = {"first": 0, "prev": self.pos - 1, "next": self.pos + 1, "last": row.version}[self.op]
        await show(interaction, row, min(max(target, 0), row.version))


class ReplayCog(commands.Cog):
    """Holds the replays' caches; the buttons are registered with the bot."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.replays = Replays(table_bot(bot))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ReplayOpen, ReplayStep)
    await bot.add_cog(ReplayCog(bot))
