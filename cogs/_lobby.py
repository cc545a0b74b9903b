"""The lobby: its post (edited in place as people join), its buttons, the creator's AI panel, the start, and
the rematch that opens a new lobby with the same seats."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

import ai
from cogs._items import (
    GID,
    GameItem,
    OutOfDate,
    game_here,
    make_button,
    make_select,
    new_view,
    session_of,
)
from cogs._seating import GameError, ai_available, is_ai
from cogs._session import Session
from cogs._table import TableButton
from cogs._text import clip, esc, name_of, options_text, plural, seat_of, title_of
from storage import GameRow

log = logging.getLogger(__name__)

LEVEL_TEXT = {
    "easy": "Plays a sensible move, picked at random.",
    "normal": "Plays the move that looks best right now.",
    "hard": "Looks ahead; thinks about a second per move.",
}


class LobbyButton(
    GameItem, discord.ui.DynamicItem[discord.ui.Button], template=rf"g:{GID}:(?P<op>join|leave|ai|start|cancel)"
):
    """The lobby post's own buttons (its Rules button is the table's)."""

    def __init__(self, gid: int, op: str, label: str = "", style=discord.ButtonStyle.secondary, row: int | None = None):
        super().__init__(make_button(f"g:{gid}:{op}", label or op, style, row=row))
        self.gid, self.op = gid, op

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(int(match["gid"]), match["op"])

    async def handle(self, interaction: discord.Interaction) -> None:
        session = session_of(interaction)
        row = await game_here(interaction, self.gid)
        user = interaction.user
        if self.op == "join":
            row = await session.join(row.id, seat_of(user))
            await interaction.response.edit_message(content=lobby_content(row), view=lobby_view(row))
        elif self.op == "leave":
            row = await session.leave(row.id, str(user.id))
            await interaction.response.edit_message(content=lobby_content(row), view=lobby_view(row))
        elif self.op == "ai":
            await open_ai_panel(interaction, row)
        elif self.op == "start":
            await start_game(interaction, row.id, edit_lobby=True)
        else:
            row = await session.cancel(row.id, str(user.id), can_manage=can_manage(interaction))
            await interaction.response.edit_message(content=lobby_content(row), view=None)


class AISelect(GameItem, discord.ui.DynamicItem[discord.ui.Select], template=rf"s:{GID}:ai:(?P<op>add|rm)"):
    """The creator's ephemeral AI panel: add an AI seat of a level, or remove one."""

    private = True

    def __init__(
        self, gid: int, op: str, options: Sequence[discord.SelectOption] = (), placeholder: str = "", row: int = 0
    ):
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(make_select(f"s:{gid}:ai:{op}", options, placeholder or op, row=row))
        self.gid, self.op = gid, op

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(int(match["gid"]), match["op"])

    async def handle(self, interaction: discord.Interaction) -> None:
        session = session_of(interaction)
        row = await game_here(interaction, self.gid)
        value = self.item.values[0] if self.item.values else ""
        if self.op == "add":
            if value not in ai.LEVELS:
                raise OutOfDate("That choice is not available any more: nothing was changed.")
            row, added = await session.add_ai(row.id, str(interaction.user.id), value)
            note = f"Added {', '.join(s.name for s in added)}."
        else:  # the session refuses a seat that is not one of this game's AI seats
            row, gone = await session.remove_ai(row.id, str(interaction.user.id), value)
            note = f"Removed {gone.name}."
        content, view = ai_panel(row, note)
        await interaction.response.edit_message(content=content, view=view)
        await refresh_lobby(interaction.client, row)


# --------------------------------------------------------------------------------------------- the lobby post


def lobby_content(row: GameRow, note: str | None = None) -> str:
    rules = Session.rules(row.game)
    lo, hi = rules.player_counts[0], rules.player_counts[-1]
    seats = "\n".join(f"{n}. {esc(s.name)}" for n, s in enumerate(row.seats, 1))
    if row.status == "cancelled":
        return f"~~{rules.title}~~: this game was cancelled."
    if row.status != "lobby":
        status = "The game has started: see below." if row.status == "active" else "This game is over."
        return clip(f"🎲 **{rules.title}** (game #{row.id})\n**Players:**\n{seats}\n{status}")
    waiting = (
        f"Waiting for {plural(lo - len(row.seats), 'more player')}."
        if len(row.seats) < lo
        else f"Ready: {name_of(row, row.creator_id)} can press **Start** (or wait for more, up to {hi})."
    )
    join = "Press **Join** to take a seat"
    if ai_available(row.game, row.options):
        join += " (the creator can also **Add AI** players)"
    text = (
        f"🎲 **{rules.title}**: a new game (#{row.id}) created by {name_of(row, row.creator_id)}\n"
        f"**Options:** {esc(options_text(row))}\n"
        f"**Seats** ({len(row.seats)} of {lo}–{hi}):\n{seats}\n"
        f"{join}. {waiting}"
    )
    if note:
        text += f"\n*{note}*"
    return clip(text)


def lobby_view(row: GameRow) -> discord.ui.View | None:
    if row.status != "lobby":
        return None
    g = row.id
    if not ai_available(row.game, row.options):
        return new_view(
            LobbyButton(g, "join", "Join", discord.ButtonStyle.primary),
            LobbyButton(g, "leave", "Leave"),
            LobbyButton(g, "start", "Start", discord.ButtonStyle.success),
            LobbyButton(g, "cancel", "Cancel", discord.ButtonStyle.danger),
            TableButton(g, "rules", "Rules"),
        )
    return new_view(  # seats on the first row, the game on the second
        LobbyButton(g, "join", "Join", discord.ButtonStyle.primary, row=0),
        LobbyButton(g, "leave", "Leave", row=0),
        LobbyButton(g, "ai", "Add AI", row=0),
        LobbyButton(g, "start", "Start", discord.ButtonStyle.success, row=1),
        LobbyButton(g, "cancel", "Cancel", discord.ButtonStyle.danger, row=1),
        TableButton(g, "rules", "Rules", row=1),
    )


def ai_panel(row: GameRow, note: str | None = None) -> tuple[str, discord.ui.View | None]:
    """The creator's ephemeral AI panel: a select to add an AI seat of a level, one to remove an AI seat."""
    hi = Session.rules(row.game).player_counts[-1]
    bots = [s for s in row.seats if is_ai(s.id)]
    lines = [f"*{note}*"] if note else []
    lines.append(
        f"🤖 **AI players** for game #{row.id} ({len(row.seats)} of {hi} seats taken). They play by "
        "themselves, right after the move before theirs."
    )
    items: list[discord.ui.Item] = []
    if row.status != "lobby":
        lines.append("The game has started: AI players can only be changed in the lobby.")
        return "\n".join(lines), None
    if len(row.seats) < hi:
        options = [
            discord.SelectOption(label=f"Add an AI ({level})", value=level, description=LEVEL_TEXT[level])
            for level in ai.LEVELS
        ]
        items.append(AISelect(row.id, "add", options, "Add an AI player…", row=0))
    else:
        lines.append("The table is full.")
    if bots:
        options = [discord.SelectOption(label=f"Remove {s.name}", value=s.id) for s in bots]
        items.append(AISelect(row.id, "rm", options, "Remove an AI player…", row=1))
    return clip("\n".join(lines)), new_view(*items) if items else None


async def open_ai_panel(interaction: discord.Interaction, row: GameRow) -> None:
    if row.status != "lobby":
        raise GameError("The game has started: AI players can only be added in the lobby.")
    if str(interaction.user.id) != row.creator_id:
        raise GameError(f"Only the creator ({row.seat_name(row.creator_id)}) can add or remove AI players.")
    if not ai_available(row.game, row.options):
        raise GameError(f"There is no AI player for {title_of(row.game)} yet.")
    content, view = ai_panel(row)
    await interaction.response.send_message(content, view=view, ephemeral=True)


async def post_lobby(client: discord.Client, session: Session, row: GameRow) -> None:
    """Post the lobby as a normal channel message (so it stays editable by the bot for as long as the lobby
    lasts, unlike an interaction response) and remember it. If the bot may not post there, the game is called
    off again and the user told which permission is missing."""
    channel = client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    try:
        msg = await channel.send(
            lobby_content(row), view=lobby_view(row), allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException:
        log.warning("could not post the lobby of game %s in channel %s", row.id, row.channel_id, exc_info=True)
        await session.storage.cancel_game(row.id)
        raise GameError(
            "I can't post in this channel. I need **View Channel**, **Send Messages** and "
            "**Attach Files** here (ask an admin), then try again."
        ) from None
    await session.storage.update_lobby(row.id, lobby_message_id=msg.id)


async def refresh_lobby(client: discord.Client, row: GameRow) -> None:
    """Edit the lobby post in place (never a new message)."""
    if row.lobby_message_id is None:
        return
    channel = client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    try:
        await channel.get_partial_message(row.lobby_message_id).edit(
            content=lobby_content(row), view=lobby_view(row), allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException:
        log.warning("could not edit the lobby post of game %s", row.id, exc_info=True)


def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_channels or perms.administrator))


async def start_game(interaction: discord.Interaction, gid: int, *, edit_lobby: bool) -> None:
    """Deal the game and close the lobby post; the first board is posted by the herald (it is a notice)."""
    session = session_of(interaction)
    row, _ = await session.start(gid, str(interaction.user.id))
    if edit_lobby:
        await interaction.response.edit_message(content=lobby_content(row), view=None)
    else:
        await interaction.response.send_message(f"Starting game #{row.id}…", ephemeral=True)
        await refresh_lobby(interaction.client, row)


async def rematch(interaction: discord.Interaction, row: GameRow) -> None:
    """A new lobby in the same channel with the same seats and options (by a seated player); AI seats are
    seated again as they were (the creator of the new lobby can remove them)."""
    session = session_of(interaction)
    player = str(interaction.user.id)
    if player not in row.player_ids:
        raise GameError("Only the players of this game can start its rematch.")
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
    await interaction.edit_original_response(content="Rematch! The new lobby is below, with the same players.")
