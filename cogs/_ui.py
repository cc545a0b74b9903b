"""The table's messages and components: lobby post, move posts, the ephemeral move panel, and the persistent
buttons and selects behind them.

Every button and select is a `discord.ui.DynamicItem` whose custom_id carries what it needs (the game id, and
where a stale click could change meaning, the position the panel was drawn at), so posts from before a restart
keep working and nothing is kept in memory per message. Two item classes cover everything:

    g:<game>:<op>                      lobby and table buttons (join, leave, ai, start, cancel, play, hand,
                                       bonus, board, rules, rematch)
    g:<game>:p:<pos>:<op>:<arg>        move-panel buttons (kind, page, confirm, back; bc: confirm a bonus card)
    s:<game>:<pos>:<op>:<arg>          move-panel selects (range of actions, action; b: a bonus-card action)
    s:<game>:ai:<add|rm>               the lobby's AI panel (creator only): add an AI seat of a level, remove one

<pos> is `Session.position` for the move panel (turn actions so far + a fingerprint of the player's legal
actions: someone else's bonus card does not make the panel stale, a real move does) and a fingerprint of the
player's free actions for the bonus-card panel.

All checks and changes go through the session service (`cogs._session.Session`); this module only turns its
results into Discord messages, and its errors into short ephemeral replies.
"""

from __future__ import annotations

import io
import logging
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

import ai
from cogs import _menus
from cogs._session import GameError, MoveResult, Session, StaleMove, ai_available, is_ai
from engine import IllegalAction
from storage import GameRow, Seat

log = logging.getLogger(__name__)

CONTENT_LIMIT = 2000
APOLOGY = "Sorry, something went wrong on my side. Please try again in a moment."
PUBLIC_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


# --------------------------------------------------------------------------------------------- text helpers


def esc(text: str) -> str:
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def name_of(row: GameRow, player: str) -> str:
    return f"**{esc(row.seat_name(player))}**"


def ping(row: GameRow, player: str) -> str:
    """A mention for a Discord user; AI seats are named, not pinged."""
    return f"<@{player}>" if player.isdigit() else name_of(row, player)


def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 2].rstrip() + " …"


def plural(n: int, word: str) -> str:
    """"1 more player", "2 more players"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def chunks(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut between lines where possible (long rules summaries
    go out as several messages instead of being cut off)."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:  # a single line longer than a message: cut it where it must be cut
            if current:
                out.append(current)
                current = ""
            out.append(line[:limit])
            line = line[limit:]
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current or not out:
        out.append(current)
    return out


def title_of(game: str) -> str:
    return Session.rules(game).title


def options_text(row: GameRow) -> str:
    rules = Session.rules(row.game)
    parts = []
    for name, opt in rules.options.items():
        value = row.options.get(name, opt.default)
        shown = ("yes" if value else "no") if not opt.choices else str(value)
        parts.append(f"{name.replace('_', ' ')} = {shown}")  # typed either way (Session.parse_options)
    return " · ".join(parts) if parts else "none"


def session_of(interaction: discord.Interaction) -> Session:
    return interaction.client.session  # type: ignore[attr-defined]


def seat_of(user: discord.abc.User) -> Seat:
    return Seat(str(user.id), user.display_name)


def png_file(data: bytes | None, name: str = "board.png") -> discord.File | None:
    return discord.File(io.BytesIO(data), filename=name) if data else None


def duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{max(minutes, 1)} min"


# --------------------------------------------------------------------------------------------- dynamic items


class _Routed:
    """What the two dynamic items share: rebuilt from any matching custom_id (after a restart too), which the
    callback parses into the game id and the route."""

    template: re.Pattern[str]
    custom_id: str

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(item)  # type: ignore[call-arg]

    def route(self) -> tuple[int, list[str]]:
        match = self.template.fullmatch(self.custom_id)
        assert match is not None
        return int(match["gid"]), match["rest"].split(":")


class GameButton(_Routed, discord.ui.DynamicItem[discord.ui.Button],
                 template=r"g:(?P<gid>[0-9]+):(?P<rest>[a-z0-9:.\-]+)"):
    """Every button the bot posts. The callback routes on the custom_id; nothing lives in memory."""

    async def callback(self, interaction: discord.Interaction) -> None:
        gid, parts = self.route()
        await guarded(interaction, lambda: on_button(interaction, gid, parts))


class GameSelect(_Routed, discord.ui.DynamicItem[discord.ui.Select],
                 template=r"s:(?P<gid>[0-9]+):(?P<rest>[a-z0-9:.\-]+)"):
    """Every select menu the bot posts (the move panel's menus, the bonus cards, the lobby's AI panel)."""

    async def callback(self, interaction: discord.Interaction) -> None:
        gid, parts = self.route()
        values = list(self.item.values)
        await guarded(interaction, lambda: on_select(interaction, gid, parts, values))


DYNAMIC_ITEMS = (GameButton, GameSelect)


def button(custom_id: str, label: str, style=discord.ButtonStyle.secondary, *, row: int | None = None,
           disabled: bool = False, emoji: str | None = None) -> GameButton:
    assert len(custom_id) <= 100
    return GameButton(discord.ui.Button(label=_menus.fit(label, 80), style=style, custom_id=custom_id, row=row,
                                        disabled=disabled, emoji=emoji))


def select(custom_id: str, options: Sequence[discord.SelectOption], placeholder: str, *, row: int) -> GameSelect:
    assert len(custom_id) <= 100 and 1 <= len(options) <= 25
    return GameSelect(discord.ui.Select(custom_id=custom_id, options=list(options),
                                        placeholder=_menus.fit(placeholder, 150), row=row))


def new_view(*items: discord.ui.Item) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# --------------------------------------------------------------------------------------------- errors


async def reply(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """An ephemeral reply whether or not the interaction was already answered. After a "thinking…" deferral the
    reply replaces that placeholder (a follow-up would leave it spinning forever)."""
    content = clip(content)
    if not interaction.response.is_done():
        await interaction.response.send_message(content, ephemeral=True, **kwargs)
    elif interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
        await interaction.edit_original_response(content=content, **kwargs)
    else:
        await interaction.followup.send(content, ephemeral=True, **kwargs)


async def guarded(interaction: discord.Interaction, handler: Callable[[], Awaitable[None]]) -> None:
    """Run a component or command handler: refusals become the player's ephemeral message, surprises are logged
    with their traceback and answered with a short apology; the game state is never left half-changed (every
    change is one transaction in the session)."""
    try:
        await handler()
    except (GameError, IllegalAction) as exc:
        await _safe_reply(interaction, str(exc))
    except Exception:
        custom_id = (interaction.data or {}).get("custom_id") if isinstance(interaction.data, dict) else None
        log.exception("interaction failed (user=%s, channel=%s, custom_id=%s)", interaction.user.id,
                      interaction.channel_id, custom_id)
        await _safe_reply(interaction, APOLOGY)


async def _safe_reply(interaction: discord.Interaction, content: str) -> None:
    try:
        await reply(interaction, content)
    except discord.HTTPException:
        log.warning("could not send an error reply", exc_info=True)


# --------------------------------------------------------------------------------------------- lobby


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
    g = f"g:{row.id}"
    if not ai_available(row.game, row.options):
        return new_view(
            button(f"{g}:join", "Join", discord.ButtonStyle.primary),
            button(f"{g}:leave", "Leave"),
            button(f"{g}:start", "Start", discord.ButtonStyle.success),
            button(f"{g}:cancel", "Cancel", discord.ButtonStyle.danger),
            button(f"{g}:rules", "Rules"),
        )
    return new_view(  # seats on the first row, the game on the second
        button(f"{g}:join", "Join", discord.ButtonStyle.primary, row=0),
        button(f"{g}:leave", "Leave", row=0),
        button(f"{g}:ai", "Add AI", row=0),
        button(f"{g}:start", "Start", discord.ButtonStyle.success, row=1),
        button(f"{g}:cancel", "Cancel", discord.ButtonStyle.danger, row=1),
        button(f"{g}:rules", "Rules", row=1),
    )


LEVEL_TEXT = {
    "easy": "Plays a sensible move, picked at random.",
    "normal": "Plays the move that looks best right now.",
    "hard": "Looks ahead; thinks about a second per move.",
}


def ai_panel(row: GameRow, note: str | None = None) -> tuple[str, discord.ui.View | None]:
    """The creator's ephemeral AI panel: a select to add an AI seat of a level, one to remove an AI seat."""
    hi = Session.rules(row.game).player_counts[-1]
    bots = [s for s in row.seats if is_ai(s.id)]
    lines = [f"*{note}*"] if note else []
    lines.append(f"🤖 **AI players** for game #{row.id} ({len(row.seats)} of {hi} seats taken). They play by "
                 "themselves, right after the move before theirs.")
    items: list[discord.ui.Item] = []
    if row.status != "lobby":
        lines.append("The game has started: AI players can only be changed in the lobby.")
        return "\n".join(lines), None
    if len(row.seats) < hi:
        options = [discord.SelectOption(label=f"Add an AI ({level})", value=level, description=LEVEL_TEXT[level])
                   for level in ai.LEVELS]
        items.append(select(f"s:{row.id}:ai:add", options, "Add an AI player…", row=0))
    else:
        lines.append("The table is full.")
    if bots:
        options = [discord.SelectOption(label=f"Remove {s.name}", value=s.id) for s in bots]
        items.append(select(f"s:{row.id}:ai:rm", options, "Remove an AI player…", row=1))
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


async def on_ai_select(interaction: discord.Interaction, gid: int, op: str, values: Sequence[str]) -> None:
    """A choice in the AI panel: add or remove a seat, then edit the panel and the lobby post in place."""
    session = session_of(interaction)
    value = values[0] if values else ""
    if op == "add":
        row, added = await session.add_ai(gid, str(interaction.user.id), value)
        note = f"Added {', '.join(s.name for s in added)}."
    elif op == "rm":
        row, gone = await session.remove_ai(gid, str(interaction.user.id), value)
        note = f"Removed {gone.name}."
    else:
        raise GameError("That menu is from an older version of the bot; press **Add AI** again.")
    content, view = ai_panel(row, note)
    await interaction.response.edit_message(content=content, view=view)
    await refresh_lobby(interaction, row)


async def post_lobby(client: discord.Client, session: Session, row: GameRow) -> None:
    """Post the lobby as a normal channel message (so it stays editable by the bot for as long as the lobby
    lasts, unlike an interaction response) and remember it. If the bot may not post there, the game is called
    off again and the user told which permission is missing."""
    channel = client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    try:
        msg = await channel.send(lobby_content(row), view=lobby_view(row),
                                 allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.warning("could not post the lobby of game %s in channel %s", row.id, row.channel_id, exc_info=True)
        await session.storage.cancel_game(row.id)
        raise GameError("I can't post in this channel. I need **View Channel**, **Send Messages** and "
                        "**Attach Files** here (ask an admin), then try again.") from None
    await session.storage.update_lobby(row.id, lobby_message_id=msg.id)


async def refresh_lobby(interaction: discord.Interaction, row: GameRow) -> None:
    """Edit the lobby post in place (never a new message)."""
    if row.lobby_message_id is None:
        return
    channel = interaction.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    try:
        await channel.get_partial_message(row.lobby_message_id).edit(
            content=lobby_content(row), view=lobby_view(row), allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException:
        log.warning("could not edit the lobby post of game %s", row.id, exc_info=True)


# --------------------------------------------------------------------------------------------- table posts


def table_view(row: GameRow) -> discord.ui.View:
    g = f"g:{row.id}"
    if row.status == "finished":
        return new_view(
            button(f"{g}:board", "Results"),
            button(f"{g}:rematch", "Rematch", discord.ButtonStyle.primary),
        )
    items = [
        button(f"{g}:play", "Play my turn", discord.ButtonStyle.success),
        button(f"{g}:hand", "My hand"),
        button(f"{g}:board", "Board"),
        button(f"{g}:rules", "Rules"),
    ]
    if row.options.get("bonus"):  # The Vizier's Favour bonus cards (V62/V66): free actions, any time
        items.insert(2, button(f"{g}:bonus", "Bonus cards"))
    return new_view(*items)


def turn_line(row: GameRow, movers: Sequence[str], before: Sequence[str] = (), actor: str | None = None) -> str:
    """Who moves now. Players only get a mention when the move passes to them: someone who simply carries on
    (an exact purchase, tiles to place: the `actor`) is named without a ping, and so is anyone who could already
    move before this action (they were pinged then)."""
    if not movers:
        return ""
    if all(p in before for p in movers):
        if len(movers) == 1 and actor in (None, movers[0]):
            return f"{name_of(row, movers[0])} continues."
        return f"Still to move: {', '.join(name_of(row, p) for p in movers)}."
    shown = [name_of(row, p) if p in before else ping(row, p) for p in movers]
    if len(movers) == 1:
        if is_ai(movers[0]):  # AI seats are never pinged, and play at once
            return f"{shown[0]} moves next."
        return f"Your turn, {shown[0]}."
    return f"To move: {', '.join(shown)}."


def vizier_line(row: GameRow, side: Sequence[str], movers: Sequence[str]) -> str:
    """The Vizier's Favour window (V4/V12) in one line, named without pings: it opens after every turn."""
    if not side:
        return ""
    who = ", ".join(name_of(row, p) for p in side)
    main = [p for p in movers if p not in side]
    until = f" until {name_of(row, main[0])} acts" if main else ""
    return f"🧞 Vizier: {who} may buy out of turn{until}."


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


def move_content(result: MoveResult, earlier: Sequence[MoveResult] = ()) -> str:
    """What happened, the public events it caused, and who moves now (or the results): the moves and the last
    line always fit; events that would pass Discord's 2000 characters are summed up as "…and N more".

    `earlier`: moves of the same player just before this one, announced together with it (an AI seat's whole
    turn in one post)."""
    row = result.row
    groups: list[tuple[str, list[str]]] = []  # (the move, the public events it caused)
    for r in (*earlier, result):
        events = []
        for player, text in r.events:
            if player == r.player and r.action_text.startswith(text.rstrip(". ")):
                continue  # the engine's log echoing the move itself
            events.append(clip(f"{name_of(row, player)} {text}" if player else text, 400))
        groups.append((clip(f"{name_of(row, r.player)} {r.action_text}.", 300), events))
    if result.finished:
        tail = results_text(row, dict(result.scores), result.winners)
    else:
        before = earlier[0].before if earlier else result.before
        if result.player not in before:  # a vizier buyer placing their tile is named, not pinged
            before = (*before, result.player)
        main = [p for p in result.to_move if p not in result.side]
        tail = turn_line(row, main, before, result.player)
        if result.free:  # a bonus card changes nobody's turn: name who we wait for, ping nobody
            tail = f"Still to move: {', '.join(name_of(row, p) for p in main)}." if main else ""
        if result.side:  # before the turn line, which stays the post's last line
            tail = f"{vizier_line(row, result.side, result.to_move)}\n{tail}"
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


async def post_public(client: discord.Client, row: GameRow, content: str, image: bytes | None,
                      view: discord.ui.View | None) -> discord.Message | None:
    """A public post in the game's channel: text, the public board image (if any) and the table buttons."""
    channel = client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    kwargs: dict[str, Any] = {"allowed_mentions": PUBLIC_MENTIONS}
    file = png_file(image)
    if file:
        kwargs["file"] = file
    if view is not None:
        kwargs["view"] = view
    try:
        return await channel.send(clip(content), **kwargs)
    except discord.HTTPException:
        log.exception("could not post in channel %s for game %s", row.channel_id, row.id)
        return None


async def announce_move(client: discord.Client, result: MoveResult, earlier: Sequence[MoveResult] = ()) -> None:
    await post_public(client, result.row, move_content(result, earlier), result.image, table_view(result.row))


# --------------------------------------------------------------------------------------------- move panel


class Panel:
    """The ephemeral move panel of one player at one move number. Built from legal_actions only, so an illegal
    move is never offered. Steps: kind buttons -> (group or range select ->) action select -> Confirm/Back."""

    def __init__(self, session: Session, row: GameRow, player: str):
        self.session, self.row, self.player = session, row, player
        self.rules = session.rules(row.game)
        self.state = session.check_player(row, player)
        self.actions = session.legal_actions(row, player)
        self.kinds = _menus.kinds(self.actions)
        self.key = session.position(row, self.actions)  # in every custom_id: a click is served only at this key
        self.preview_of: int | None = None  # set when the panel shows a placement to confirm

    def cid(self, op: str, arg: str = "", kind: str = "g") -> str:
        if kind == "g":
            return f"g:{self.row.id}:p:{self.key}:{op}:{arg}"
        return f"s:{self.row.id}:{self.key}:{op}:{arg}"

    def header(self) -> str:
        hand = _menus.private_text(self.row.game, self.rules, self.state, self.player)
        text = f"**Your move** in {title_of(self.row.game)} (move {self.row.version + 1})."
        return f"{text}\n{hand}" if hand else text

    def of_kind(self, k: int) -> list[tuple[int, Any]]:
        kind = self.kinds[k]
        return [(i, a) for i, a in enumerate(self.actions) if a.kind == kind]

    def home(self, note: str | None = None) -> tuple[str, discord.ui.View | None]:
        if not self.actions:
            return self._text(note, "You have no move to make right now."), None
        if len(self.kinds) == 1:
            return self.choose(0, "", 0, note)
        buttons = [
            button(self.cid("k", f"{k}"), _menus.kind_label(self.row.game, kind), discord.ButtonStyle.primary,
                   row=min(k // 5, 4))
            for k, kind in enumerate(self.kinds[:25])
        ]
        return self._text(note, "What would you like to do?"), new_view(*buttons)

    def _text(self, note: str | None, body: str) -> str:
        parts = [f"*{note}*"] if note else []
        parts += [self.header(), body]
        return clip("\n".join(parts))

    def _groups(self, k: int, path: str) -> tuple[list[tuple[int, Any]], list[list[str]]]:
        """The actions left after following `path` (group choices "3.0"), and the label trail."""
        members = self.of_kind(k)
        trail: list[list[str]] = []
        for step in [s for s in path.split(".") if s]:
            groups = _menus.split(members, self.rules.describe, self.row.game)
            if groups is None or not step.isdigit() or int(step) >= len(groups):
                break
            label, chosen = groups[int(step)]
            keep = set(chosen)
            members = [(i, a) for i, a in members if i in keep]
            trail.append([label])
        return members, trail

    def choose(self, k: int, path: str, page: int, note: str | None = None) -> tuple[str, discord.ui.View]:
        """Kind `k`, narrowed by `path`: a group select while more than 25 remain, else the action select."""
        members, trail = self._groups(k, path)
        groups = _menus.split(members, self.rules.describe, self.row.game)
        if groups is None and len(members) == 1:  # nothing to choose: straight to Confirm
            return self.confirm(members[0][0], self._back_of(k, path), note)
        items: list[discord.ui.Item] = []
        kind_name = _menus.kind_label(self.row.game, self.kinds[k])
        crumbs = " › ".join([kind_name] + [re.sub(r" … \(\d+ ways\)$", "", t[0]) for t in trail])
        if groups is not None:
            options = [
                discord.SelectOption(label=_menus.option_texts(label)[0], value=str(n),
                                     description=_menus.option_texts(label)[1])
                for n, (label, _) in enumerate(groups)
            ]
            items.append(select(self.cid("g", f"{k}.0.{path}".rstrip("."), "s"), options,
                                f"Narrow down ({len(members)} choices)", row=0))
            body = f"**{crumbs}**: {len(members)} possible moves. Narrow it down:"
        else:
            pages = max(1, -(-len(members) // _menus.PAGE))
            page = min(max(page, 0), pages - 1)
            chunk = members[page * _menus.PAGE: (page + 1) * _menus.PAGE]
            options = []
            for i, a in chunk:
                label, desc = _menus.option_texts(self.rules.describe(a))
                options.append(discord.SelectOption(label=label, value=str(i), description=desc))
            paged = f" (page {page + 1} of {pages})" if pages > 1 else ""
            items.append(select(self.cid("a", f"{k}.{page}.{path}".rstrip("."), "s"), options,
                                f"Choose your move{paged}", row=0))
            if page > 0:
                items.append(button(self.cid("k", f"{k}.{page - 1}.{path}".rstrip(".")), "◀ Previous", row=1))
            if page < pages - 1:
                items.append(button(self.cid("k", f"{k}.{page + 1}.{path}".rstrip(".")), "Next ▶", row=1))
            body = f"**{crumbs}**: {len(members)} possible move{'s' if len(members) != 1 else ''}{paged}."
        back = self._back_of(k, path)
        if back is not None:
            items.append(button(back, "Back", row=1))
        return self._text(note, body), new_view(*items)

    def _back_of(self, k: int, path: str) -> str | None:
        steps = [s for s in path.split(".") if s]
        if steps:
            up = ".".join(steps[:-1])
            return self.cid("k", f"{k}.0.{up}".rstrip("."))
        if len(self.kinds) > 1:
            return self.cid("h")
        return None

    def confirm(self, i: int, back: str | None, note: str | None = None) -> tuple[str, discord.ui.View]:
        """The last step: the chosen move in words, Confirm (plays it) and Back (never undoes a move)."""
        if not 0 <= i < len(self.actions):
            raise StaleMove("That choice is no longer available. Press **Play my turn** again.")
        text = self.rules.describe(self.actions[i])
        self.preview_of = i
        items = [button(self.cid("c", str(i)), "Confirm", discord.ButtonStyle.success, row=0)]
        if back is not None:
            items.append(button(back, "Back", row=0))
        body = f"Play this move? {name_of(self.row, self.player)} {esc(text)}."
        return self._text(note, body), new_view(*items)


def parse_kpath(arg: str) -> tuple[int, int, str]:
    """"k.page.path..." -> (k, page, path)."""
    parts = arg.split(".")
    k = int(parts[0]) if parts and parts[0].isdigit() else 0
    page = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    return k, page, ".".join(parts[2:])


async def open_panel(interaction: discord.Interaction, row: GameRow, note: str | None = None) -> None:
    """Answer "Play my turn": an ephemeral panel, the player's private information (as text) on top.

    No image here: the panel must open instantly; **My hand** shows the private picture."""
    panel = Panel(session_of(interaction), row, str(interaction.user.id))  # GameError if not their turn
    content, view = panel.home(note)
    if panel.preview_of is None:
        await interaction.response.send_message(content, view=view, ephemeral=True)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)  # a lone placement: draw its preview
    await interaction.edit_original_response(content=content, view=view, attachments=await preview_files(panel))


STALE_NOTE = "The game has moved on since this panel was opened; nothing was played."
GAME_OVER = "This game is over: no more moves."


async def on_panel(interaction: discord.Interaction, gid: int, key: str, op: str, arg: str,
                   values: Sequence[str] = ()) -> None:
    """A click in a move panel drawn at position `key`: served only if the player's position is still the same
    (see `Session.position`); otherwise they are told and shown their choices now."""
    session = session_of(interaction)
    row = await session.load(gid)
    if op in ("b", "bc"):  # the bonus-card panel: free actions, usable whoever is to move
        await on_bonus(interaction, row, key, op, int(arg) if op == "bc" and arg.isdigit() else
                       (int(values[0]) if values and values[0].isdigit() else -1))
        return
    if op == "c":
        await confirm_move(interaction, row, key, int(arg) if arg.isdigit() else -1)
        return
    if row.status != "active":
        await interaction.response.edit_message(content=GAME_OVER, view=None, attachments=[])
        return
    try:
        panel = Panel(session, row, str(interaction.user.id))
    except GameError as exc:  # no longer their turn: the game moved on
        await interaction.response.edit_message(content=f"*{STALE_NOTE}*\n{exc}", view=None, attachments=[])
        return
    if panel.key != key:
        content, view = panel.home(f"{STALE_NOTE} Here are your choices now:")
        await show_panel(interaction, panel, content, view)
        return
    if op == "h":
        content, view = panel.home()
    elif op == "k":
        k, page, path = parse_kpath(arg)
        content, view = panel.choose(k, path, page)
    elif op == "g":  # group select: go one level deeper
        k, _, path = parse_kpath(arg)
        choice = values[0] if values and values[0].isdigit() else "0"
        content, view = panel.choose(k, f"{path}.{choice}".strip("."), 0)
    elif op == "a":  # action select: confirm step
        k, page, path = parse_kpath(arg)
        i = int(values[0]) if values and values[0].isdigit() else -1
        content, view = panel.confirm(i, panel.cid("k", f"{k}.{page}.{path}".rstrip(".")))
    else:
        raise GameError("That button is from an older version of the bot. Press **Play my turn** again.")
    await show_panel(interaction, panel, content, view)


async def show_panel(interaction: discord.Interaction, panel: Panel, content: str, view: discord.ui.View | None,
                     ) -> None:
    """Edit the panel in place; a placement about to be confirmed comes with a preview of the player's board."""
    if panel.preview_of is None:
        await interaction.response.edit_message(content=content, view=view, attachments=[])
        return
    await interaction.response.defer()  # rendering takes a moment
    await interaction.edit_original_response(content=content, view=view, attachments=await preview_files(panel))


async def preview_files(panel: Panel) -> list[discord.File]:
    """The preview picture of the placement the panel is about to confirm, if it places something."""
    if panel.preview_of is None:
        return []
    action = panel.actions[panel.preview_of]
    spec = _menus.preview(panel.row.game, panel.rules, panel.state, panel.player, action)
    if spec is None:
        return []
    file = png_file(await panel.session.preview_image(panel.row, panel.player, *spec), "preview.png")
    return [file] if file else []


async def confirm_move(interaction: discord.Interaction, row: GameRow, key: str, i: int) -> None:
    """Play the confirmed action (chosen at position `key`), announce it, and show what comes next in the panel.

    Someone else's free action since the panel was drawn (a bonus card) changes nothing here; a turn action
    does, and the click is refused. The session re-checks under the game's lock (`expected_turns`)."""
    session = session_of(interaction)
    player = str(interaction.user.id)
    await interaction.response.defer()  # applying + rendering may take a moment; the panel is edited below
    if row.status != "active":
        await interaction.edit_original_response(content=GAME_OVER, view=None, attachments=[])
        return
    try:
        panel: Panel | None = Panel(session, row, player)
    except GameError:
        panel = None  # not their turn any more: someone moved
    if panel is None or panel.key != key:
        await interaction.edit_original_response(
            content="That move can't be played any more: the game has moved on since you chose it (someone "
                    "already played). Nothing was changed; press **Play my turn** to see your choices now.",
            view=None, attachments=[],
        )
        return
    if not 0 <= i < len(panel.actions):
        raise GameError("That choice is not available. Press **Play my turn** again.")
    try:
        result = await session.act(row.id, player, panel.actions[i], expected_turns=row.turns,
                                   announce=lambda r: announce_move(interaction.client, r))
    except StaleMove as exc:
        await interaction.edit_original_response(content=str(exc), view=None, attachments=[])
        return
    await finish_move(interaction, result)


async def finish_move(interaction: discord.Interaction, result: MoveResult) -> None:
    """After a move (already announced in public by the session): the player's own reply, with their private
    events and their next choices if they act again."""
    me = name_of(result.row, result.player)
    done = f"✅ Done: {me} {result.action_text}."
    if result.private_events:
        done += "\n" + "\n".join(f"🔒 Only you see this: {me} {t}" for t in result.private_events)
    view, files = None, []
    if result.player in result.to_move:  # they act again (an exact purchase, tiles to place): carry on here
        panel = Panel(session_of(interaction), result.row, result.player)
        content, view = panel.home(None)
        done = f"{done}\n{content}"
        files = await preview_files(panel)
    await interaction.edit_original_response(content=clip(done), view=view, attachments=files)


# --------------------------------------------------------------------------------------------- bonus cards


def bonus_panel(session: Session, row: GameRow, player: str, note: str | None = None) -> dict[str, Any]:
    """The ephemeral bonus-card panel (The Vizier's Favour, V62/V66): the holder's cards and standing order,
    and a select of `rules.free_actions` (play a card whose building is built, change the autoplay order).
    Any seated holder may use it at any time; the chosen action goes through `Session.act` like any move."""
    session.check_seated(row, player)
    state = session.state_of(row)
    seat = state.seat(player)
    from engine.alhambra.actions import AUTOPLAY_TEXT
    from engine.alhambra.components import tile_name

    def names(tiles: Sequence[str]) -> str:
        return ", ".join(tile_name(t) for t in tiles) or "none"

    lines = [f"*{note}*"] if note else []
    lines += [
        "🔒 **Your bonus cards** (a played card counts as one more building of its type, V62):",
        f"In hand: {names(seat.bonus_hand)} · played: {names(seat.bonus_played)}.",
        f"They play themselves {AUTOPLAY_TEXT.get(seat.bonus_auto, seat.bonus_auto)} (V66).",
    ]
    actions = session.free_actions(row, player)
    if not actions:
        return {"content": clip("\n".join(lines)), "view": None}
    rules = session.rules(row.game)
    options = [discord.SelectOption(label=_menus.option_texts(rules.describe(a))[0], value=str(i),
                                    description=_menus.option_texts(rules.describe(a))[1])
               for i, a in enumerate(actions[:25])]
    lines.append("Play a card or change the order:")
    key = session.fingerprint(row.game, actions)  # valid while these are still the player's free actions
    view = new_view(select(f"s:{row.id}:{key}:b:", options, "Choose a bonus-card action", row=0))
    return {"content": clip("\n".join(lines)), "view": view}


async def on_bonus(interaction: discord.Interaction, row: GameRow, key: str, op: str, i: int) -> None:
    """A bonus-card choice ("b": show it with Confirm) or its confirmation ("bc": play it through act).

    Free actions don't depend on whose turn it is, so the panel stays valid as long as the player's own list of
    free actions is the one it showed (`key`), whatever the others played meanwhile."""
    session = session_of(interaction)
    player = str(interaction.user.id)
    actions = session.free_actions(row, player)
    if session.fingerprint(row.game, actions) != key or not 0 <= i < len(actions):
        content = bonus_panel(session, row, player, "Your bonus-card choices changed since this panel was "
                                                    "opened; nothing was played. Here they are now:")
        await interaction.response.edit_message(**content, attachments=[])
        return
    if op == "b":
        text = session.rules(row.game).describe(actions[i])
        view = new_view(button(f"g:{row.id}:p:{key}:bc:{i}", "Confirm", discord.ButtonStyle.success, row=0))
        await interaction.response.edit_message(content=f"Play this? {name_of(row, player)} {esc(text)}.",
                                                view=view, attachments=[])
        return
    await interaction.response.defer()
    action = actions[i]
    private = session.is_private(row.game, action)  # V66: a standing order is the player's own business
    try:
        # no staleness check: the action is exactly the one confirmed, and the rules re-check it now (a card
        # played twice by a double click is refused as already played, V62)
        result = await session.act(row.id, player, action,
                                   announce=None if private else lambda r: announce_move(interaction.client, r))
    except StaleMove as exc:
        await interaction.edit_original_response(content=str(exc), view=None, attachments=[])
        return
    done = f"✅ Done: {name_of(result.row, player)} {result.action_text}."
    await interaction.edit_original_response(content=clip(done), view=None, attachments=[])


# --------------------------------------------------------------------------------------------- table buttons


async def show_hand(interaction: discord.Interaction, row: GameRow) -> None:
    """The player's own private view: ephemeral, image rendered with viewer=player."""
    session = session_of(interaction)
    player = str(interaction.user.id)
    if player not in row.player_ids:
        raise GameError("You are not seated in this game, so you have no hand to see. **Board** shows the table.")
    if row.state is None:
        raise GameError("The game hasn't started yet: no hands have been dealt.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    state = session.state_of(row)
    text = (_menus.private_text(row.game, session.rules(row.game), state, player)
            or "Nothing hidden: it's all on the board.")
    image = await session.private_image(row, player)
    kwargs: dict[str, Any] = {"content": clip(f"🔒 Only you can see this.\n{text}")}
    file = png_file(image, "you.png")
    if file:
        kwargs["attachments"] = [file]
    await interaction.edit_original_response(**kwargs)


async def show_board(interaction: discord.Interaction, row: GameRow, *, ephemeral: bool = True) -> None:
    session = session_of(interaction)
    if row.state is None:
        await reply(interaction, lobby_content(row))
        return
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    image = await session.public_image(row)
    await interaction.edit_original_response(content=status_text(session, row), **(
        {"attachments": [png_file(image)]} if image else {}))


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
    side = session.out_of_turn(row, state)  # the vizier window (V4/V12): may buy, need not
    waiting = ", ".join(name_of(row, p) for p in movers if p not in side)
    since = duration(time.time() - (row.turn_started_at or row.updated_at))
    extra = vizier_line(row, side, movers)
    return clip(f"**{title}** (game #{row.id}), move {row.version + 1}. To move: {waiting} (for {since}).\n"
                + (f"{extra}\n" if extra else "") + f"**Scores:** {table}")


async def show_rules(interaction: discord.Interaction, game: str, options: dict[str, Any] | None) -> None:
    rules = Session.rules(game)
    try:
        text = rules.summary(options)
    except Exception:
        log.exception("summary of %s failed", game)
        text = "The rules summary is not available right now."
    head = "" if rules.title in text.split("\n", 1)[0] else f"**{rules.title}**\n"
    first, *more = chunks(f"📜 {head}{text}")
    await reply(interaction, first)
    for part in more:  # a long summary is sent whole, in several messages, rather than cut off
        await interaction.followup.send(part, ephemeral=True)


async def on_button(interaction: discord.Interaction, gid: int, parts: list[str]) -> None:
    session = session_of(interaction)
    op = parts[0]
    if op == "p" and len(parts) >= 3:
        await on_panel(interaction, gid, parts[1], parts[2], parts[3] if len(parts) > 3 else "")
        return
    row = await session.load(gid)
    user = interaction.user
    if op == "join":
        row = await session.join(gid, seat_of(user))
        await interaction.response.edit_message(content=lobby_content(row), view=lobby_view(row))
    elif op == "leave":
        row = await session.leave(gid, str(user.id))
        await interaction.response.edit_message(content=lobby_content(row), view=lobby_view(row))
    elif op == "ai":
        await open_ai_panel(interaction, row)
    elif op == "start":
        await start_game(interaction, gid, edit_lobby=True)
    elif op == "cancel":
        row = await session.cancel(gid, str(user.id), can_manage=can_manage(interaction))
        await interaction.response.edit_message(content=lobby_content(row), view=None)
    elif op == "play":
        await open_panel(interaction, row)
    elif op == "hand":
        await show_hand(interaction, row)
    elif op == "bonus":
        await interaction.response.send_message(**bonus_panel(session_of(interaction), row,
                                                              str(user.id)), ephemeral=True)
    elif op == "board":
        await show_board(interaction, row)
    elif op == "rules":
        await show_rules(interaction, row.game, row.options)
    elif op == "rematch":
        await rematch(interaction, row)
    else:
        raise GameError("That button is from an older version of the bot; use the newest post.")


async def on_select(interaction: discord.Interaction, gid: int, parts: list[str], values: list[str]) -> None:
    if len(parts) == 2 and parts[0] == "ai":
        await on_ai_select(interaction, gid, parts[1], values)
        return
    if len(parts) < 2:
        raise GameError("That menu is from an older version of the bot; press **Play my turn** again.")
    await on_panel(interaction, gid, parts[0], parts[1], parts[2] if len(parts) > 2 else "", values)


def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_channels or perms.administrator))


async def start_game(interaction: discord.Interaction, gid: int, *, edit_lobby: bool) -> None:
    """Deal the game, close the lobby post and post the first board with the first player mentioned."""
    session = session_of(interaction)
    row, state = await session.start(gid, str(interaction.user.id))
    if edit_lobby:
        await interaction.response.edit_message(content=lobby_content(row), view=None)
    else:
        await interaction.response.send_message(f"Starting game #{row.id}…", ephemeral=True)
        await refresh_lobby(interaction, row)
    movers = session.rules(row.game).to_move(state)
    image = await session.public_image(row, state)
    await post_public(interaction.client, row, start_content(row, movers), image, table_view(row))
    session.changed(row.id)  # an AI seat may move first: only now, so its post comes after this one


async def rematch(interaction: discord.Interaction, row: GameRow) -> None:
    """A new lobby in the same channel with the same seats and options (by a seated player); AI seats are
    seated again as they were (the creator of the new lobby can remove them)."""
    session = session_of(interaction)
    player = str(interaction.user.id)
    if player not in row.player_ids:
        raise GameError("Only the players of this game can start its rematch.")
    me = next(s for s in row.seats if s.id == player)
    new = await session.create(guild_id=row.guild_id, channel_id=row.channel_id, game=row.game,
                               options=row.options, creator=me, reminder_hours=row.reminder_hours)
    for seat in row.seats:
        if seat.id != player:
            new = await session.join(new.id, seat)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await post_lobby(interaction.client, session, new)
    await interaction.edit_original_response(content="Rematch! The new lobby is below, with the same players.")
