"""The table in public: move posts (made from the notices of `cogs._herald`), the first and final posts, the
table buttons (Play my turn, My hand, Free actions, Board, Rules; Results and Rematch at the end), and the
status, board, hand and rules replies behind them."""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Sequence
from typing import Any, Protocol

import discord

import present
from cogs._items import OutOfDate, TableButton, answers, bot_of, new_view, reply, session_of
from cogs._lobby import lobby_content
from cogs._locale import user_words
from cogs._seating import GameError
from cogs._session import Session
from cogs._substitutes import may_be_vacant
from cogs._text import (
    CONTENT_LIMIT,
    PUBLIC_MENTIONS,
    chunks,
    clip,
    duration,
    esc,
    name_of,
    out_of_turn_line,
    results_text,
    scores_line,
    seated,
    title_of,
)
from cogs.replays import replay_button
from engine import IllegalAction, Text
from i18n import ENGLISH, Words
from storage import GameRow

log = logging.getLogger(__name__)


class Channels(Protocol):
    """What posting needs of the bot: a channel to send to by its id (`discord.Client` has it)."""

    def get_partial_messageable(
        self, id: int, /, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...


def png_file(data: bytes | None, name: str = "board.png") -> discord.File | None:
    return discord.File(io.BytesIO(data), filename=name) if data else None


def table_view(session: Session, row: GameRow, _: Words = ENGLISH) -> discord.ui.View:
    """The buttons under a public post, labelled in the post's language `_`."""
    if row.status == "finished":
        return new_view(
            # i18n: a button under the final post: the final board and scores
            TableButton(row.id, "board", _("Results")),
            # i18n: a button under the final post: a new game with the same players
            TableButton(row.id, "rematch", _("Rematch"), discord.ButtonStyle.primary),
            replay_button(row, _),
            # i18n: a button under the final post: the AI coach's review of the game (cogs/_coach.py)
            TableButton(row.id, "review", _("Review")),
        )
    items = [
        TableButton(row.id, "play", _("Play my turn"), discord.ButtonStyle.success),
        TableButton(row.id, "hand", _("My hand")),
        TableButton(row.id, "board", _("Board")),
        TableButton(row.id, "rules", _("Rules")),
    ]
    if session.rules(row.game).has_free_actions(row.options):
        items.insert(2, TableButton(row.id, "free", _.text(present.for_game(row.game).free_actions_label)))
    if any(m != "left" for m in row.table.get("sub", {}).values()):  # the AI plays for someone who may come back
        # i18n: a button: a player the AI stands in for takes their seat back
        items.append(TableButton(row.id, "back", _("I'm back")))
    if may_be_vacant(row):  # a seat nobody plays for themselves: a newcomer may take it (cogs/_substitutes.py)
        # i18n: a button under a table's post: someone not playing takes over a vacant seat
        items.append(TableButton(row.id, "seat", _("Take this seat")))
    return new_view(*items)


# --------------------------------------------------------------------------------------------- posting


async def post_public(
    client: Channels,
    row: GameRow,
    content: str,
    image: bytes | None,
    view: discord.ui.View | None,
    *,
    nonce: str | None = None,
    extra: Sequence[tuple[bytes, str]] = (),
) -> discord.Message:
    """A public post in the game's channel: text, the public board image (if any) and the table buttons.
    `nonce`: Discord returns the earlier message instead of posting twice if the same nonce comes again soon
    (a notice re-sent after a crash). `extra`: more images (PNG bytes, file name), e.g. the results' score chart.
    Raises discord.HTTPException if Discord refuses."""
    channel = client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    kwargs: dict[str, Any] = {"allowed_mentions": PUBLIC_MENTIONS}
    files = [f for f in [png_file(image), *(png_file(data, name) for data, name in extra)] if f]
    if files:
        kwargs["files"] = files
    if view is not None:
        kwargs["view"] = view
    if nonce is not None:
        kwargs["nonce"] = nonce
    return await channel.send(clip(content), **kwargs)


async def post_note(client: Channels, row: GameRow, content: str, view: discord.ui.View | None = None) -> None:
    """A public line that is not a move (reminders, notes): logged, never raised, if Discord refuses."""
    try:
        await post_public(client, row, content, None, view)
    except discord.HTTPException:
        log.warning("could not post in channel %s for game %s", row.channel_id, row.id, exc_info=True)


# --------------------------------------------------------------------------------------------- replies


def status_text(session: Session, row: GameRow, _: Words = ENGLISH) -> str:
    title = title_of(row.game, _)
    if row.status == "lobby":
        return _(
            "**{title}** (game #{id}) is waiting in its lobby: {n} seated.",
            "**{title}** (game #{id}) is waiting in its lobby: {n} seated.",
            title=title,
            id=row.id,
            n=len(row.seats),
        )
    if row.status == "cancelled":
        return _("**{title}** (game #{id}) was cancelled.", title=title, id=row.id)
    rules = session.rules(row.game)
    state = session.state_of(row)
    scores = rules.scores(state)
    if row.status == "finished":
        return clip(results_text(row, scores, rules.winners(state), _))
    movers = rules.to_move(state)
    side = session.out_of_turn(row, state)
    waiting = ", ".join(name_of(row, p, _) for p in movers if p not in side)
    since = duration(time.time() - (row.turn_started_at or row.updated_at), _)
    extra = out_of_turn_line(row, side, movers, _)
    # i18n: /game status: the game, the move number, whom it waits for and for how long
    head = _(
        "**{title}** (game #{id}), move {move}. To move: {who} (for {time}).",
        title=title,
        id=row.id,
        move=row.version + 1,
        who=waiting,
        time=since,
    )
    return clip("\n".join([head, *([extra] if extra else []), scores_line(row, scores, row.player_ids, _)]))


@TableButton.on("board")
async def show_board(interaction: discord.Interaction, row: GameRow, *, note: str | None = None) -> None:
    """The board and the status, only for the user who asked (in their language)."""
    session = session_of(interaction)
    _ = user_words(interaction)
    text = status_text(session, row, _) if row.state_json is not None else lobby_content(row, _=_)
    if note:
        text = f"*{note}*\n{text}"
    if row.state_json is None:
        await reply(interaction, text)
        return
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    image = await bot_of(interaction).images.public(row, lang=_.lang)
    file = png_file(image)
    kwargs: dict[str, Any] = {"attachments": [file]} if file else {}
    if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
        await interaction.edit_original_response(content=clip(text), **kwargs)
    else:
        if file:
            await interaction.followup.send(clip(text), ephemeral=True, file=file)
        else:
            await interaction.followup.send(clip(text), ephemeral=True)


@TableButton.on("rules")
async def rules_of(interaction: discord.Interaction, row: GameRow) -> None:
    await show_rules(interaction, row.game, row.options)


async def show_current(interaction: discord.Interaction, note: str) -> None:
    """The answer to an out-of-date click: `note`, then this channel's current game (if any) as the board."""
    session = session_of(interaction)
    row = await session.storage.game_in_channel(interaction.channel_id) if interaction.channel_id else None
    if row is None:
        await reply(interaction, note)
        return
    await show_board(interaction, row, note=note)


answers[OutOfDate] = show_current


@TableButton.on("hand")
async def show_hand(interaction: discord.Interaction, row: GameRow) -> None:
    """The player's own private view: ephemeral, image rendered with viewer=player."""
    session = session_of(interaction)
    _ = user_words(interaction)
    player = str(interaction.user.id)
    if player not in row.player_ids:
        raise GameError(Text("You are not seated in this game, so you have no hand to see. **Board** shows the table."))
    if row.state_json is None:
        raise GameError(Text("The game hasn't started yet: no hands have been dealt."))
    await interaction.response.defer(ephemeral=True, thinking=True)
    state = session.state_of(row)
    text = present.for_game(row.game).private_text(session.rules(row.game), state, player, _) or _(
        "Nothing hidden: it's all on the board."
    )
    image = await bot_of(interaction).images.private(row, player, lang=_.lang)
    # i18n: the header of a player's private view (My hand)
    kwargs: dict[str, Any] = {"content": clip(f"{_('🔒 Only you can see this.')}\n{text}")}
    file = png_file(image, "you.png")
    if file:
        kwargs["attachments"] = [file]
    await interaction.edit_original_response(**kwargs)


async def show_rules(interaction: discord.Interaction, game: str, options: dict[str, Any] | None) -> None:
    """A summary of `game`'s rules (with these options), in the reader's language."""
    _ = user_words(interaction)
    rules = Session.rules(game)
    text = _.text(rules.summary(options))
    title = title_of(game, _)
    head = "" if title in text.split("\n", 1)[0] else f"**{title}**\n"
    first, *more = chunks(f"📜 {head}{text}")
    await reply(interaction, first)
    for part in more:  # a long summary is sent whole, in several messages, rather than cut off
        await interaction.followup.send(part, ephemeral=True)


def list_text(session: Session, rows: Sequence[GameRow], user: str, mine: bool, _: Words = ENGLISH) -> str:
    """/game list: the server's games, or (`mine`) the games `user` is seated in, one line each."""
    if not rows:
        return (
            _("You are not in any game right now.") if mine else _("No games here yet. Start one with `/game create`.")
        )
    lines = [list_line(session, row, user, _) for row in rows[:30]]
    head = _("**Your games:**") if mine else _("**Games in this server:**")
    return head + "\n" + "\n".join(lines)


def list_line(session: Session, row: GameRow, user: str, _: Words = ENGLISH) -> str:
    title = title_of(row.game, _)
    where = f"<#{row.channel_id}>"
    if row.status == "lobby":
        # i18n: /game list: a game waiting in its lobby ({where} is the channel)
        return _(
            "• {where}: {title} (#{id}), lobby with {n} seated",
            "• {where}: {title} (#{id}), lobby with {n} seated",
            where=where,
            title=title,
            id=row.id,
            n=len(row.seats),
        )
    side = session.out_of_turn(row)  # they may act out of turn, nobody waits for them
    movers = [p for p in session.to_move(row) if p not in side]
    fields: dict[str, Any] = {"where": where, "title": title, "id": row.id, "move": row.version + 1}
    whose = ", ".join(esc(seated(row, p, _)) for p in movers)
    if user in movers:
        # i18n: /game list: a running game waiting for the reader
        return _("• {where}: {title} (#{id}), move {move}, waiting for {who} ← **your turn**", who=whose, **fields)
    if user in side:
        # i18n: /game list: a running game in which the reader may act out of turn
        return _(
            "• {where}: {title} (#{id}), move {move}, waiting for {who} ← you may act out of turn", who=whose, **fields
        )
    # i18n: /game list: a running game and whom it waits for
    return _("• {where}: {title} (#{id}), move {move}, waiting for {who}", who=whose, **fields)


async def move_log_text(
    session: Session, row: GameRow, viewer: str | None = None, since: int = 0, _: Words = ENGLISH
) -> str:
    """The stored moves (after move number `since`) in words, the most recent that fit one message. Private
    choices of others are shown only as such."""
    rules = session.rules(row.game)
    moves = await session.storage.moves(row.id, since=since)
    if not moves:
        return _("Nothing since your last turn.") if since else _("No moves yet.")
    lines = []
    for m in moves:
        try:
            action = rules.action_from_json(m.action)
            private = rules.is_private(action) and m.player != viewer
            # i18n: /game log: what another player's private choice shows as ("**Ana** changes a private setting")
            text = _("changes a private setting") if private else _.text(rules.describe(action))
        except IllegalAction:
            text = _("(an unreadable move)")
        # i18n: /game log: one move: its number, the player and what they did
        lines.append(
            _("{number}. {who} {action}", number=m.move_number, who=esc(seated(row, m.player, _)), action=text)
        )
    out: list[str] = []  # the most recent moves within Discord's message limit
    size = 60
    for line in reversed(lines):
        if size + len(line) + 1 > CONTENT_LIMIT:
            break
        out.append(line)
        size += len(line) + 1
    if len(out) < len(lines):
        # i18n: /game log's heading when only the most recent moves fit
        head = _(
            "**Moves of game #{id}** (last {shown} of {n})",
            "**Moves of game #{id}** (last {shown} of {n})",
            id=row.id,
            shown=len(out),
            n=len(lines),
        )
    else:
        head = _("**Moves of game #{id}**", id=row.id)
    return head + "\n" + "\n".join(reversed(out))
