"""Keeping every game moving, the Discord half: the posts of the clock (a deadline's warning, the table's
decision when it passed, its default), stand-ins ("AI for Ana", *I'm back*), undo (at once, or asking the table
with buttons), away mode, turn times, and the replies of `/game settings`, `/game undo`, `/game mine`, `/away` and
`/prefs`. The rules of all this are the service's (cogs._tempo)."""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Sequence
from datetime import UTC, datetime

import discord

from cogs._items import GID, GameItem, game_here, make_button, new_view, reply, session_of
from cogs._seating import GameError, is_ai
from cogs._session import Session
from cogs._text import clip, duration, esc, name_of, ping, title_of
from storage import GameRow, MoveRow, Notice

KINDS = frozenset({"deadline", "decided", "back", "undo_asked", "undo_refused", "undo"})
DEADLINE_CHOICES = {"none": None, "12h": 12, "24h": 24, "48h": 48, "72h": 72, "7d": 168}


class DecisionButton(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"d:{GID}:(?P<turns>[0-9]{{1,9}}):(?P<op>turn|back|wait)",
):
    """The table's answer to a passed deadline (on the public post that asks it)."""

    def __init__(self, gid: int, turns: int, op: str, label: str = "", style=discord.ButtonStyle.secondary):
        super().__init__(make_button(f"d:{gid}:{turns}:{op}", label or op, style))
        self.gid, self.turns, self.op = gid, turns, op

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(int(match["gid"]), int(match["turns"]), match["op"])

    async def handle(self, interaction: discord.Interaction) -> None:
        row = await game_here(interaction, self.gid)
        me = str(interaction.user.id)
        row, late = await session_of(interaction).decide(row.id, me, self.op, self.turns)
        await interaction.response.edit_message(
            content=clip(f"{interaction.message.content}\n✅ {decided_line(row, me, late, self.op)}"), view=None
        )


class UndoButton(
    GameItem, discord.ui.DynamicItem[discord.ui.Button], template=rf"u:{GID}:(?P<keep>[0-9]{{1,9}}):(?P<op>yes|no)"
):
    """A player's answer to an undo that asks the table (on its public post)."""

    def __init__(self, gid: int, keep: int, op: str, label: str = "", style=discord.ButtonStyle.secondary):
        super().__init__(make_button(f"u:{gid}:{keep}:{op}", label or op, style))
        self.gid, self.keep, self.op = gid, keep, op

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(int(match["gid"]), int(match["keep"]), match["op"])

    async def handle(self, interaction: discord.Interaction) -> None:
        row = await game_here(interaction, self.gid)
        row, outcome = await session_of(interaction).consent(
            row.id, str(interaction.user.id), self.keep, self.op == "yes"
        )
        if outcome == "waiting":
            waiting = [p for p in row.table["undo"]["need"] if p not in row.table["undo"]["yes"]]
            await reply(interaction, f"Noted. Still waiting for {', '.join(esc(row.seat_name(p)) for p in waiting)}.")
        else:  # settled: the post saying so comes from the herald
            await interaction.response.edit_message(view=None)


# --------------------------------------------------------------------------------------------- the posts


def decided_line(row: GameRow, by: str, late: str, choice: str) -> str:
    who = name_of(row, late)
    if choice == "wait":
        return f"{name_of(row, by)} chose to wait longer for {who}."
    until = "this turn" if choice == "turn" else f"until {who} is back"
    return f"{name_of(row, by)} let the AI play for {who} {until}."


def notice_content(row: GameRow, notice: Notice) -> tuple[str, discord.ui.View | None]:
    """The post of one of the clock's or the table's notices, and its buttons."""
    p = notice.payload
    table_buttons = _table_view(row)
    if notice.kind == "deadline":
        who = p["player"]
        if p["phase"] == "warn":
            hours = row.table.get("deadline") or 0
            end = int((row.turn_started_at or time.time()) + hours * 3600)
            return (
                f"⏳ {ping(row, who)}, your move in {title_of(row.game)}: the deadline is <t:{end}:R>.",
                table_buttons,
            )
        if p["phase"] == "late":
            others = [s for s in row.seats if s.id != who and not is_ai(s.id)]
            if not row.table.get("standins", True):
                return (
                    f"⌛ {name_of(row, who)}'s deadline has passed. The table waits one more deadline.",
                    table_buttons,
                )
            default = (
                "the AI plays this turn for them"
                if row.table.get("on_timeout", "ai") == "ai"
                else "the table waits one more deadline"
            )
            text = (
                f"⌛ {name_of(row, who)}'s deadline has passed. {', '.join(ping(row, s.id) for s in others)}: "
                f"what now? If nobody decides by <t:{int(row.deadline_at or time.time())}:R>, {default}."
            )
            view = new_view(
                DecisionButton(
                    row.id,
                    row.turns,
                    "turn",
                    f"Let the AI play for {row.seat_name(who)} this turn"[:80],
                    discord.ButtonStyle.primary,
                ),
                DecisionButton(row.id, row.turns, "back", f"…until {row.seat_name(who)} is back"[:80]),
                DecisionButton(row.id, row.turns, "wait", "Wait longer"),
            )
            return clip(text), view
        if p["phase"] == "auto":
            return (
                f"🤖 Nobody decided: the AI plays this turn for {name_of(row, who)} (**AI for "
                f"{esc(row.seat_name(who))}**).",
                table_buttons,
            )
        return f"⏳ Waiting one more deadline for {ping(row, who)}.", table_buttons
    if notice.kind == "decided":
        return decided_line(row, p["by"], p["player"], p["choice"]), table_buttons
    if notice.kind == "back":
        return f"👋 {name_of(row, p['player'])} is back and plays again.", table_buttons
    if notice.kind == "undo_asked":
        need = row.table.get("undo", {}).get("need", [])
        text = (
            f"↩️ {name_of(row, p['by'])} asks to take back their last turn (moves after #{p['keep']}). "
            f'{", ".join(ping(row, x) for x in need)}: do you agree? The first "no" ends it.'
        )
        view = new_view(
            UndoButton(row.id, p["keep"], "yes", "Agree", discord.ButtonStyle.success),
            UndoButton(row.id, p["keep"], "no", "Refuse", discord.ButtonStyle.danger),
        )
        return clip(text), view
    if notice.kind == "undo_refused":
        return f"↩️ {name_of(row, p['no'])} refused: {name_of(row, p['by'])}'s turn stands.", table_buttons
    rules = Session.rules(row.game)
    undone = "; ".join(f"{esc(row.seat_name(pl))} {rules.describe(rules.action_from_json(a))}" for pl, a in p["moves"])
    state = rules.from_json(row.state or {})
    side = set(rules.out_of_turn(state))
    movers = [x for x in rules.to_move(state) if x not in side]
    from cogs._table import turn_line  # (the table module builds on this one)

    return clip(
        f"↩️ {name_of(row, p['by'])} took back: {undone}. The board is as it was before.\n"
        f"{turn_line(row, movers)}".rstrip()
    ), table_buttons


def _table_view(row: GameRow) -> discord.ui.View | None:
    from cogs._table import TableButton

    items = [
        TableButton(row.id, "play", "Play my turn", discord.ButtonStyle.success),
        TableButton(row.id, "board", "Board"),
    ]
    if row.table.get("sub"):
        items.append(TableButton(row.id, "back", "I'm back"))
    return new_view(*items)


# --------------------------------------------------------------------------------------------- turn times


def turn_times(moves: Sequence[MoveRow], seats: Sequence[str]) -> dict[str, list[float]]:
    """Seconds each player took per turn: from the previous player's move to their own first move after it."""
    out: dict[str, list[float]] = {p: [] for p in seats}
    previous: MoveRow | None = None
    for m in moves:
        if previous is not None and m.player != previous.player and m.player in out:
            out[m.player].append(max(0.0, m.created_at - previous.created_at))
        previous = m
    return out


def turn_time_line(row: GameRow, moves: Sequence[MoveRow]) -> str:
    times = turn_times(moves, [s.id for s in row.seats if not is_ai(s.id)])
    parts = [
        f"{esc(row.seat_name(p))} {duration(statistics.mean(t))} / {duration(statistics.median(t))}"
        for p, t in times.items()
        if t
    ]
    return f"⏱️ Turn times (average / median): {' · '.join(parts)}" if parts else ""


# --------------------------------------------------------------------------------------------- away


_DURATION = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>d|h|m|w)", re.IGNORECASE)


def parse_until(text: str, now: float) -> float:
    """`3d`, `12h`, `1w 2d`, or a date `2026-12-24` (UTC, the end of that day): the time it names."""
    text = (text or "").strip()
    try:
        day = datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC)
        return day.timestamp() + 86400
    except ValueError:
        pass
    parts = list(_DURATION.finditer(text))
    if not parts or _DURATION.sub("", text).strip():
        raise GameError("Say how long you are away like `3d`, `12h`, `1w 2d`, or until a date like `2026-12-24`.")
    seconds = sum(float(m["n"]) * {"m": 60, "h": 3600, "d": 86400, "w": 604800}[m["unit"].lower()] for m in parts)
    if not 0 < seconds <= 90 * 86400:
        raise GameError("Away mode lasts from a minute up to 90 days.")
    return now + seconds


# --------------------------------------------------------------------------------------------- replies


def settings_text(row: GameRow) -> str:
    t = row.table
    deadline = f"{t['deadline']} h per move" if t.get("deadline") else "none (reminders only)"
    timeout = "the AI plays that turn" if t.get("on_timeout", "ai") == "ai" else "wait one more deadline"
    standins = "allowed" if t.get("standins", True) else "not allowed"
    return (
        f"⚙️ **{title_of(row.game)}** (game #{row.id}): deadline {deadline}; when a deadline passed and nobody "
        f"decides, {timeout}; AI stand-ins {standins}."
    )


async def mine_text(session: Session, player: str) -> str:
    """Every game waiting for `player`, in every server, the longest waiting first, with a link to its post."""
    waiting = []
    for row in await session.storage.games_of(player, limit=100):
        if row.status != "active":
            continue
        if player in session.movers(row, session.state_of(row)):
            waiting.append(row)
    if not waiting:
        return "No game is waiting for you right now. 🎉"
    waiting.sort(key=lambda r: r.turn_started_at or r.updated_at)
    now = time.time()
    lines = []
    for row in waiting[:25]:
        link = (
            f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.last_post_id}"
            if row.last_post_id
            else f"<#{row.channel_id}>"
        )
        since = duration(now - (row.turn_started_at or row.updated_at))
        lines.append(f"• {title_of(row.game)} (#{row.id}), waiting {since}: {link}")
    return "**Waiting for your move:**\n" + "\n".join(lines)


async def back(interaction: discord.Interaction, row: GameRow) -> None:
    await session_of(interaction).back(row.id, str(interaction.user.id))
    await reply(interaction, "👋 Welcome back: your seat is yours again.")


async def away_text(session: Session, player: str) -> str:
    me = await session.storage.player(player)
    if not me.away(time.time()):
        return "You are not away."
    ai = " The AI plays your turns where the table allows it." if me.away_ai else ""
    return f"🏖️ You are away until <t:{int(me.away_until or 0)}:f>: nobody pings or reminds you.{ai}"


async def status_lines(session: Session, row: GameRow) -> list[str]:
    """What `/game status` adds for a running game: the deadline, stand-ins, away players, turn times."""
    if row.status not in ("active", "finished"):
        return []
    lines = []
    if row.status == "active":
        movers = session.movers(row, session.state_of(row))
        from cogs._table import deadline_line  # (the table module builds on this one)

        lines.append(deadline_line(row, movers))
        for p, mode in row.table.get("sub", {}).items():
            until = "this turn" if mode == "turn" else f"until {esc(row.seat_name(p))} is back"
            lines.append(f"🤖 AI for {name_of(row, p)} ({until}).")
        humans = [s.id for s in row.seats if not is_ai(s.id)]
        now = time.time()
        for p, me in (await session.storage.players(humans)).items():
            if me.away(now):
                ai = ", the AI plays for them" if me.away_ai and row.table.get("standins", True) else ""
                lines.append(f"🏖️ {name_of(row, p)} is away until <t:{int(me.away_until or 0)}:R>{ai}.")
    lines.append(turn_time_line(row, await session.storage.moves(row.id)))
    return [x for x in lines if x]
