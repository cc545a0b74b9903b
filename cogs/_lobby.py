"""The lobby: its post (edited in place as people join), its buttons, the creator's AI panel, the start, and
the rematch that opens a new lobby with the same seats. The post is in the server's language (`public_words`),
the AI panel and the other answers in the clicking user's (`user_words`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

import ai
import present
from cogs._items import (
    GID,
    GONE,
    GameItem,
    LobbyButton,
    OutOfDate,
    TableButton,
    game_here,
    make_select,
    new_view,
    session_of,
)
from cogs._locale import user_words
from cogs._seating import LEVEL_NAME, GameError, ai_available, is_ai, seat_name
from cogs._session import Session
from cogs._text import clip, esc, fit, name_of, options_text, seat_of
from engine import Text
from i18n import ENGLISH, N_, Words
from storage import GameRow

log = logging.getLogger(__name__)

LEVEL_TEXT = {
    "easy": N_("Plays a sensible move, picked at random."),
    "normal": N_("Plays the move that looks best right now."),
    "hard": N_("Looks ahead; thinks about a second per move."),
}


async def public_words(session: Session, row: GameRow, interaction: discord.Interaction | None = None) -> Words:
    """The language of the game's public posts: the server's."""
    return await session.languages.public(row.guild_id, getattr(interaction, "guild_locale", None))


@LobbyButton.on("join")
async def join(interaction: discord.Interaction, row: GameRow) -> None:
    await _seats_changed(interaction, await session_of(interaction).join(row.id, seat_of(interaction.user)))


@LobbyButton.on("leave")
async def leave(interaction: discord.Interaction, row: GameRow) -> None:
    await _seats_changed(interaction, await session_of(interaction).leave(row.id, str(interaction.user.id)))


@LobbyButton.on("cancel")
async def cancel(interaction: discord.Interaction, row: GameRow) -> None:
    player, manage = str(interaction.user.id), can_manage(interaction)
    await _seats_changed(interaction, await session_of(interaction).cancel(row.id, player, can_manage=manage))


@LobbyButton.on("start")
async def start(interaction: discord.Interaction, row: GameRow) -> None:
    await start_game(interaction, row.id, edit_lobby=True)


async def _seats_changed(interaction: discord.Interaction, row: GameRow) -> None:
    """The lobby post as it is now (without buttons once cancelled)."""
    _ = await public_words(session_of(interaction), row, interaction)  # the lobby post is public
    await interaction.response.edit_message(content=lobby_content(row, _=_), view=lobby_view(row, _))


class AISelect(GameItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"s:{GID}:ai:(?P<op>add|rm)"):
    """The creator's ephemeral AI panel: add an AI seat of a level, or remove one."""

    private = True

    def __init__(
        self, gid: int, op: str, options: Sequence[discord.SelectOption] = (), placeholder: str = "", row: int = 0
    ):
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(make_select(f"s:{gid}:ai:{op}", options, placeholder or op, row=row))
        self.gid, self.op = gid, op

    async def handle(self, interaction: discord.Interaction) -> None:
        session, _ = session_of(interaction), user_words(interaction)
        row = await game_here(interaction, self.gid)
        value = self.item.values[0] if self.item.values else ""
        if self.op == "add":
            if value not in ai.LEVELS:
                raise OutOfDate(GONE)
            row, added = await session.add_ai(row.id, str(interaction.user.id), value)
            note = _("Added {names}.", names=", ".join(seat_name(s.id, s.name, _) for s in added))
        else:  # the session refuses a seat that is not one of this game's AI seats
            row, gone = await session.remove_ai(row.id, str(interaction.user.id), value)
            note = _("Removed {name}.", name=seat_name(gone.id, gone.name, _))
        content, view = ai_panel(row, note, _)
        await interaction.response.edit_message(content=content, view=view)
        await refresh_lobby(interaction.client, row)


# --------------------------------------------------------------------------------------------- the lobby post


def lobby_content(row: GameRow, note: str | None = None, _: Words = ENGLISH) -> str:
    """The lobby post (public: in the server's language)."""
    rules = Session.rules(row.game)
    lo, hi = rules.player_counts[0], rules.player_counts[-1]
    title = present.title(row.game)
    seats = "\n".join(f"{n}. {esc(seat_name(s.id, s.name, _))}" for n, s in enumerate(row.seats, 1))
    if row.status == "cancelled":
        return _("~~{title}~~: this game was cancelled.", title=title)
    if row.status != "lobby":
        status = _("The game has started: see below.") if row.status == "active" else _("This game is over.")
        head = _("🎲 **{title}** (game #{number})", title=title, number=row.id)
        return clip("\n".join([head, _("**Players:**"), seats, status]))
    creator = name_of(row, row.creator_id)
    if len(row.seats) < lo:
        need = lo - len(row.seats)
        waiting = _("Waiting for {n} more player.", "Waiting for {n} more players.", n=need)
    else:
        waiting = _("Ready: {creator} can press **Start** (or wait for more, up to {most}).", creator=creator, most=hi)
    if ai_available(row.game, row.options):
        join = _("Press **Join** to take a seat (the creator can also **Add AI** players).")
    else:
        join = _("Press **Join** to take a seat.")
    lines = [
        # i18n: the first line of a new game's lobby post
        _("🎲 **{title}**: a new game (#{number}) created by {creator}", title=title, number=row.id, creator=creator),
        _("**Options:** {options}", options=esc(options_text(row, _))),
        _("**Seats** ({taken} of {least}–{most}):", taken=len(row.seats), least=lo, most=hi),
        seats,
        f"{join} {waiting}",
    ]
    if row.table.get("hints"):  # said before anyone joins: every seat may ask the coach (cogs/_coach.py)
        # i18n: the lobby post of a table whose creator allowed the AI coach's hints
        lines.insert(2, _("🧭 **Hints allowed:** every player may ask the AI coach for advice on their move."))
    if note:
        lines.append(f"*{note}*")
    return clip("\n".join(lines))


def lobby_view(row: GameRow, _: Words = ENGLISH) -> discord.ui.View | None:
    """The lobby post's buttons (public: in the server's language)."""
    if row.status != "lobby":
        return None
    g, with_ai = row.id, ai_available(row.game, row.options)
    first, second = (0, 1) if with_ai else (None, None)  # with Add AI: seats on the first row, the game on the second
    seats = [
        LobbyButton(g, "join", _("Join"), discord.ButtonStyle.primary, row=first),
        LobbyButton(g, "leave", _("Leave"), row=first),
        *([LobbyButton(g, "ai", _("Add AI"), row=first)] if with_ai else []),
    ]
    return new_view(
        *seats,
        LobbyButton(g, "start", _("Start"), discord.ButtonStyle.success, row=second),
        LobbyButton(g, "cancel", _("Cancel"), discord.ButtonStyle.danger, row=second),
        TableButton(g, "rules", _("Rules"), row=second),
    )


def ai_panel(row: GameRow, note: str | None = None, _: Words = ENGLISH) -> tuple[str, discord.ui.View | None]:
    """The creator's ephemeral AI panel: a select to add an AI seat of a level, one to remove an AI seat."""
    hi = Session.rules(row.game).player_counts[-1]
    bots = [s for s in row.seats if is_ai(s.id)]
    lines = [f"*{note}*"] if note else []
    lines.append(
        _(
            "🤖 **AI players** for game #{number} ({taken} of {most} seats taken). They play by themselves, right "
            "after the move before theirs.",
            number=row.id,
            taken=len(row.seats),
            most=hi,
        )
    )
    items: list[discord.ui.Item[Any]] = []
    if row.status != "lobby":
        lines.append(_("The game has started: AI players can only be changed in the lobby."))
        return "\n".join(lines), None
    if len(row.seats) < hi:
        options = [
            discord.SelectOption(
                label=fit(_("Add an AI ({level})", level=_.text(LEVEL_NAME[level]))),
                value=level,
                description=fit(_.text(LEVEL_TEXT[level])),
            )
            for level in ai.LEVELS
        ]
        items.append(AISelect(row.id, "add", options, _("Add an AI player…"), row=0))
    else:
        lines.append(_("The table is full."))
    if bots:
        options = [
            discord.SelectOption(label=fit(_("Remove {name}", name=seat_name(s.id, s.name, _))), value=s.id)
            for s in bots
        ]
        items.append(AISelect(row.id, "rm", options, _("Remove an AI player…"), row=1))
    return clip("\n".join(lines)), new_view(*items) if items else None


@LobbyButton.on("ai")
async def open_ai_panel(interaction: discord.Interaction, row: GameRow) -> None:
    if row.status != "lobby":
        raise GameError(Text("The game has started: AI players can only be added in the lobby."))
    if str(interaction.user.id) != row.creator_id:
        creator = row.seat_name(row.creator_id)
        raise GameError(Text("Only the creator ({creator}) can add or remove AI players.", creator=creator))
    if not ai_available(row.game, row.options):
        raise GameError(Text("There is no AI player for {title} yet.", title=present.title(row.game)))
    content, view = ai_panel(row, _=user_words(interaction))
    await interaction.response.send_message(content, view=view, ephemeral=True)  # type: ignore[arg-type]  # None: no components (discord.py takes it; its stubs say View)


async def post_lobby(client: discord.Client, session: Session, row: GameRow) -> None:
    """Post the lobby as a normal channel message (so it stays editable by the bot for as long as the lobby
    lasts, unlike an interaction response) and remember it. If the bot may not post there, the game is called
    off again and the user told which permission is missing."""
    channel = client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    _ = await public_words(session, row)
    try:
        msg = await channel.send(
            lobby_content(row, _=_),
            view=lobby_view(row, _),  # type: ignore[arg-type]  # None: no components (discord.py takes it; its stubs say View)
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.warning("could not post the lobby of game %s in channel %s", row.id, row.channel_id, exc_info=True)
        await session.storage.cancel_game(row.id)
        raise GameError(
            Text(
                "I can't post in this channel. I need **View Channel**, **Send Messages** and "
                "**Attach Files** here (ask an admin), then try again."
            )
        ) from None
    await session.storage.update_lobby(row.id, lobby_message_id=msg.id)


async def refresh_lobby(client: discord.Client, row: GameRow) -> None:
    """Edit the lobby post in place (never a new message)."""
    if row.lobby_message_id is None:
        return
    channel = client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    _ = await public_words(client.session, row)  # type: ignore[attr-defined]
    try:
        await channel.get_partial_message(row.lobby_message_id).edit(
            content=lobby_content(row, _=_), view=lobby_view(row, _), allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException:
        log.warning("could not edit the lobby post of game %s", row.id, exc_info=True)


def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_channels or perms.administrator))


async def start_game(interaction: discord.Interaction, gid: int, *, edit_lobby: bool) -> None:
    """Deal the game and close the lobby post; the first board is posted by the herald (it is a notice)."""
    session = session_of(interaction)
    row, _state = await session.start(gid, str(interaction.user.id))
    if edit_lobby:
        _ = await public_words(session, row, interaction)  # the lobby post is public
        await interaction.response.edit_message(content=lobby_content(row, _=_), view=None)
    else:
        _ = user_words(interaction)
        await interaction.response.send_message(_("Starting game #{number}…", number=row.id), ephemeral=True)
        await refresh_lobby(interaction.client, row)


@TableButton.on("rematch")
async def rematch(interaction: discord.Interaction, row: GameRow) -> None:
    """A new lobby in the same channel with the same seats and options (by a seated player); AI seats are
    seated again as they were (the creator of the new lobby can remove them)."""
    session = session_of(interaction)
    player = str(interaction.user.id)
    if player not in row.player_ids:
        raise GameError(Text("Only the players of this game can start its rematch."))
    me = next(s for s in row.seats if s.id == player)
    new = await session.create(
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        game=row.game,
        options=row.options,
        creator=me,
        reminder_hours=row.reminder_hours,
    )
    for seat in row.seats:
        if seat.id != player:
            new = await session.join(new.id, seat)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await post_lobby(interaction.client, session, new)
    _ = user_words(interaction)
    await interaction.edit_original_response(content=_("Rematch! The new lobby is below, with the same players."))
