"""The table in public: move posts (made from the notices of `cogs._herald`), the first and final posts, the
table buttons (Play my turn, My hand, Free actions, Board, Rules; Results and Rematch at the end), and the
status, board, hand and rules replies behind them."""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Sequence
from typing import Any

import discord

import present
from cogs._items import GID, GameItem, bot_of, game_here, make_button, new_view, reply, session_of
from cogs._seating import GameError, is_ai
from cogs._session import Session
from cogs._text import CONTENT_LIMIT, PUBLIC_MENTIONS, chunks, clip, duration, esc, name_of, ping, title_of
from engine import IllegalAction
from storage import GameRow, Notice

log = logging.getLogger(__name__)


def png_file(data: bytes | None, name: str = "board.png") -> discord.File | None:
    return discord.File(io.BytesIO(data), filename=name) if data else None


class TableButton(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"g:{GID}:(?P<op>play|hand|free|board|rules|rematch|back)",
):
    """The buttons under every move post (and the final post)."""

    def __init__(self, gid: int, op: str, label: str = "", style=discord.ButtonStyle.secondary, row: int | None = None):
        super().__init__(make_button(f"g:{gid}:{op}", label or op, style, row=row))
        self.gid, self.op = gid, op

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(int(match["gid"]), match["op"])

    async def handle(self, interaction: discord.Interaction) -> None:
        from cogs import _free, _lobby, _moving, _panel  # they build on this module

        row = await game_here(interaction, self.gid)
        if self.op == "play":
            await _panel.open_panel(interaction, row)
        elif self.op == "hand":
            await show_hand(interaction, row)
        elif self.op == "free":
            await _free.open_free(interaction, row)
        elif self.op == "board":
            await show_board(interaction, row)
        elif self.op == "rules":
            await show_rules(interaction, row.game, row.options)
        elif self.op == "back":
            await _moving.back(interaction, row)
        else:
            await _lobby.rematch(interaction, row)


def table_view(session: Session, row: GameRow) -> discord.ui.View:
    if row.status == "finished":
        return new_view(
            TableButton(row.id, "board", "Results"),
            TableButton(row.id, "rematch", "Rematch", discord.ButtonStyle.primary),
        )
    items = [
        TableButton(row.id, "play", "Play my turn", discord.ButtonStyle.success),
        TableButton(row.id, "hand", "My hand"),
        TableButton(row.id, "board", "Board"),
        TableButton(row.id, "rules", "Rules"),
    ]
    if session.rules(row.game).has_free_actions(row.options):
        items.insert(2, TableButton(row.id, "free", present.for_game(row.game).free_actions_label))
    if row.table.get("sub"):  # the AI plays for someone: they take their seat back with one click
        items.append(TableButton(row.id, "back", "I'm back"))
    return new_view(*items)


# --------------------------------------------------------------------------------------------- words


def turn_line(
    row: GameRow, movers: Sequence[str], before: Sequence[str] = (), actor: str | None = None, quiet: Sequence[str] = ()
) -> str:
    """Who moves now. Players only get a mention when the move passes to them: someone who simply carries on
    (an exact purchase, tiles to place: the `actor`) is named without a ping, and so is anyone who could already
    move before this action (they were pinged then), and anyone `quiet` (away, or the AI plays for them)."""
    if not movers:
        return ""
    if all(p in before for p in movers):
        if len(movers) == 1 and actor in (None, movers[0]):
            return f"{name_of(row, movers[0])} continues."
        return f"Still to move: {', '.join(name_of(row, p) for p in movers)}."
    shown = [name_of(row, p) if p in before or p in quiet else ping(row, p) for p in movers]
    if len(movers) == 1:
        if is_ai(movers[0]) or movers[0] in row.table.get("sub", {}):  # the AI plays at once, unpinged
            return f"{shown[0]} moves next."
        return f"Your turn, {shown[0]}."
    return f"To move: {', '.join(shown)}."


def deadline_line(row: GameRow, movers: Sequence[str]) -> str:
    """The deadline of the player to move, as a Discord timestamp (each reader sees it in their own time)."""
    hours = row.table.get("deadline")
    if not hours or not movers or row.turn_started_at is None or row.table.get("phase") == "decide":
        return ""
    return f"⏳ Deadline <t:{int(row.turn_started_at + hours * 3600)}:R>."


def out_of_turn_line(row: GameRow, side: Sequence[str], movers: Sequence[str]) -> str:
    """Who may act out of turn now, in one line, named without pings (the window opens after every turn)."""
    if not side:
        return ""
    who = ", ".join(name_of(row, p) for p in side)
    main = [p for p in movers if p not in side]
    until = f" until {name_of(row, main[0])} acts" if main else ""
    return present.for_game(row.game).out_of_turn_line(who, until)


def results_text(row: GameRow, scores: dict[str, int], winners: Sequence[str]) -> str:
    ranked = sorted(row.player_ids, key=lambda p: -scores.get(p, 0))
    table = " · ".join(f"{name_of(row, p)} {scores.get(p, 0)}" for p in ranked)
    if len(winners) == 1:
        head = f"🏆 {name_of(row, winners[0])} wins with {scores.get(winners[0], 0)} points!"
    else:
        head = f"🏆 Shared victory: {', '.join(name_of(row, w) for w in winners)} with {scores.get(winners[0], 0)}!"
    length = f"{row.version} moves in {duration(row.updated_at - row.created_at)}"
    return f"🏁 **Game over** ({length}).\n{head}\n**Scores:** {table}"


def start_content(row: GameRow, movers: Sequence[str]) -> str:
    order = " → ".join(name_of(row, p) for p in row.player_ids)
    return clip(f"🎲 **{title_of(row.game)}** begins! Seat order: {order}\n{turn_line(row, movers)}")


def actor(row: GameRow, player: str, standin: bool) -> str:
    """Who made a move: the player, or "AI for Ana" when the AI played it for them."""
    return f"**AI for {esc(row.seat_name(player))}**" if standin else name_of(row, player)


def move_content(row: GameRow, moves: Sequence[dict[str, Any]], digest: Sequence[str] = ()) -> str:
    """The post for one or more moves of one player (an AI seat's whole turn), from their notices' payloads:
    what happened, the public events it caused, and who moves now (or the results), after `digest` (what the
    others did since the pinged player's last turn). The moves and the last line always fit; events that would
    pass Discord's 2000 characters are summed up as "…and N more"."""
    rules = engine_rules(row.game)
    last = moves[-1]
    groups: list[tuple[str, list[str]]] = []  # (the move, the public events it caused)
    for m in moves:
        text = str(rules.describe(rules.action_from_json(m["action"])))
        events = []
        for player, line in m["events"]:
            if player == m["player"] and text.startswith(line.rstrip(". ")):
                continue  # the engine's log echoing the move itself
            events.append(clip(f"{name_of(row, player)} {line}" if player else line, 400))
        groups.append((clip(f"{actor(row, m['player'], m.get('standin', False))} {text}.", 300), events))
    if last["finished"]:
        tail = results_text(row, last["scores"], last["winners"])
    else:
        before = list(moves[0]["before"])
        if last["player"] not in before:  # an out-of-turn buyer placing their tile is named, not pinged
            before.append(last["player"])
        main = [p for p in last["to_move"] if p not in last["side"]]
        tail = turn_line(row, main, before, last["player"], last.get("quiet", ()))
        if last["free"]:  # a free action changes nobody's turn: name who we wait for, ping nobody
            tail = f"Still to move: {', '.join(name_of(row, p) for p in main)}." if main else ""
        lines = [*digest, out_of_turn_line(row, last["side"], last["to_move"]), deadline_line(row, main)]
        tail = "\n".join([*(x for x in lines if x), tail])  # the turn line stays the post's last line
    return _fit_groups(groups, tail)


def _fit_groups(groups: list[tuple[str, list[str]]], tail: str) -> str:
    room = CONTENT_LIMIT - len(tail) - 120
    skipped = 0
    while len(groups) > 1 and sum(len(head) + 1 for head, _ in groups) > room:
        groups.pop(0)  # only with many long moves in one post: the earliest are left to the log
        skipped += 1
    budget = room - sum(len(head) + 1 for head, _ in groups)
    kept = [f"*…{skipped} earlier move{'s' if skipped > 1 else ''}: see `/game log`.*"] if skipped else []
    dropped = 0
    for head, events in groups:
        kept.append(head)
        for line in events:
            if not dropped and len(line) + 1 <= budget:
                kept.append(line)
                budget -= len(line) + 1
            else:
                dropped += 1
    if dropped:
        kept.append(f"*…and {dropped} more (see `/game log` and the board).*")
    return clip("\n".join([*kept, tail]))


def notice_content(row: GameRow, notices: Sequence[Notice], digest: Sequence[str] = ()) -> str:
    if notices[0].kind == "start":
        return start_content(row, notices[0].payload["movers"])
    return move_content(row, [n.payload for n in notices], digest)


def engine_rules(game: str):
    return Session.rules(game)


# --------------------------------------------------------------------------------------------- posting


async def post_public(
    client: discord.Client,
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


async def post_note(client: discord.Client, row: GameRow, content: str, view: discord.ui.View | None = None) -> None:
    """A public line that is not a move (reminders, notes): logged, never raised, if Discord refuses."""
    try:
        await post_public(client, row, content, None, view)
    except discord.HTTPException:
        log.warning("could not post in channel %s for game %s", row.channel_id, row.id, exc_info=True)


# --------------------------------------------------------------------------------------------- replies


def status_text(session: Session, row: GameRow) -> str:
    title = title_of(row.game)
    if row.status == "lobby":
        return f"**{title}** (game #{row.id}) is waiting in its lobby: {len(row.seats)} seated."
    if row.status == "cancelled":
        return f"**{title}** (game #{row.id}) was cancelled."
    rules = session.rules(row.game)
    state = session.state_of(row)
    scores = rules.scores(state)
    table = " · ".join(f"{name_of(row, p)} {scores.get(p, 0)}" for p in row.player_ids)
    if row.status == "finished":
        return clip(results_text(row, scores, rules.winners(state)))
    movers = rules.to_move(state)
    side = session.out_of_turn(row, state)
    waiting = ", ".join(name_of(row, p) for p in movers if p not in side)
    since = duration(time.time() - (row.turn_started_at or row.updated_at))
    extra = out_of_turn_line(row, side, movers)
    return clip(
        f"**{title}** (game #{row.id}), move {row.version + 1}. To move: {waiting} (for {since}).\n"
        + (f"{extra}\n" if extra else "")
        + f"**Scores:** {table}"
    )


async def show_board(interaction: discord.Interaction, row: GameRow, *, note: str | None = None) -> None:
    """The board and the status, only for the user who asked."""
    session = session_of(interaction)
    text = status_text(session, row) if row.state_json is not None else _lobby_text(row)
    if note:
        text = f"*{note}*\n{text}"
    if row.state_json is None:
        await reply(interaction, text)
        return
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    image = await bot_of(interaction).images.public(row)
    file = png_file(image)
    kwargs: dict[str, Any] = {"attachments": [file]} if file else {}
    if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
        await interaction.edit_original_response(content=clip(text), **kwargs)
    else:
        await interaction.followup.send(clip(text), ephemeral=True, **({"file": file} if file else {}))


def _lobby_text(row: GameRow) -> str:
    from cogs._lobby import lobby_content

    return lobby_content(row)


async def show_current(interaction: discord.Interaction, note: str) -> None:
    """The answer to an out-of-date click: `note`, then this channel's current game (if any) as the board."""
    session = session_of(interaction)
    row = await session.storage.game_in_channel(interaction.channel_id) if interaction.channel_id else None
    if row is None:
        await reply(interaction, note)
        return
    await show_board(interaction, row, note=note)


async def show_hand(interaction: discord.Interaction, row: GameRow) -> None:
    """The player's own private view: ephemeral, image rendered with viewer=player."""
    session = session_of(interaction)
    player = str(interaction.user.id)
    if player not in row.player_ids:
        raise GameError("You are not seated in this game, so you have no hand to see. **Board** shows the table.")
    if row.state_json is None:
        raise GameError("The game hasn't started yet: no hands have been dealt.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    state = session.state_of(row)
    text = (
        present.for_game(row.game).private_text(session.rules(row.game), state, player)
        or "Nothing hidden: it's all on the board."
    )
    image = await bot_of(interaction).images.private(row, player)
    kwargs: dict[str, Any] = {"content": clip(f"🔒 Only you can see this.\n{text}")}
    file = png_file(image, "you.png")
    if file:
        kwargs["attachments"] = [file]
    await interaction.edit_original_response(**kwargs)


async def show_rules(interaction: discord.Interaction, game: str, options: dict[str, Any] | None) -> None:
    rules = Session.rules(game)
    text = str(rules.summary(options))
    head = "" if rules.title in text.split("\n", 1)[0] else f"**{rules.title}**\n"
    first, *more = chunks(f"📜 {head}{text}")
    await reply(interaction, first)
    for part in more:  # a long summary is sent whole, in several messages, rather than cut off
        await interaction.followup.send(part, ephemeral=True)


def list_line(session: Session, row: GameRow, user: str) -> str:
    title = title_of(row.game)
    where = f"<#{row.channel_id}>"
    if row.status == "lobby":
        return f"• {where}: {title} (#{row.id}), lobby with {len(row.seats)} seated"
    side = session.out_of_turn(row)  # they may act out of turn, nobody waits for them
    movers = [p for p in session.to_move(row) if p not in side]
    whose = ", ".join(esc(row.seat_name(p)) for p in movers)
    mark = " ← **your turn**" if user in movers else " ← you may act out of turn" if user in side else ""
    return f"• {where}: {title} (#{row.id}), move {row.version + 1}, waiting for {whose}{mark}"


async def move_log_text(session: Session, row: GameRow, viewer: str | None = None, since: int = 0) -> str:
    """The stored moves (after move number `since`) in words, the most recent that fit one message. Private
    choices of others are shown only as such."""
    rules = session.rules(row.game)
    moves = await session.storage.moves(row.id, since=since)
    if not moves:
        return "Nothing since your last turn." if since else "No moves yet."
    lines = []
    for m in moves:
        try:
            action = rules.action_from_json(m.action)
            private = rules.is_private(action) and m.player != viewer
            text = "changes a private setting" if private else str(rules.describe(action))
        except IllegalAction:
            text = "(an unreadable move)"
        lines.append(f"{m.move_number}. {esc(row.seat_name(m.player))} {text}")
    out: list[str] = []  # the most recent moves within Discord's message limit
    size = 60
    for line in reversed(lines):
        if size + len(line) + 1 > CONTENT_LIMIT:
            break
        out.append(line)
        size += len(line) + 1
    head = f"**Moves of game #{row.id}**" + (f" (last {len(out)} of {len(lines)})" if len(out) < len(lines) else "")
    return head + "\n" + "\n".join(reversed(out))
