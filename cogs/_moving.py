"""Keeping every game moving, the Discord half: the posts of the clock (a deadline's warning, the table's
decision when it passed, its default, a vacation day used), the time banks' lines, stand-ins ("AI for Ana",
*I'm back*), undo (at once, or asking the table with buttons), away mode, turn times, and the replies of
`/game settings`, `/game undo`, `/game mine`, `/away` and `/prefs`. The rules of all this are the service's
(cogs._tempo, cogs._bank)."""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, ClassVar

import discord

from cogs import _bank
from cogs._items import GID, NEVER, GameItem, TableButton, game_here, make_button, new_view, reply, session_of
from cogs._locale import user_words
from cogs._quiet import awake_between, local_time, quiet_until
from cogs._seating import LEVEL_NAME, GameError, is_ai, staying
from cogs._session import Session
from cogs._substitutes import may_be_vacant
from cogs._tempo import ai_level, clock_start
from cogs._text import clip, deadline_line, duration, esc, name_of, ping, seat_of, seated, title_of, turn_line
from engine import Text
from i18n import ENGLISH, Words
from records import figures
from storage import GameRow, MoveRow, Notice

KINDS = frozenset(
    {
        "deadline",
        "decided",
        "back",
        "left",
        "undo_asked",
        "undo_refused",
        "undo",
        "seat_asked",
        "seat_refused",
        "seat_taken",
    }
)
DEADLINE_CHOICES = {"none": None, "12h": 12, "24h": 24, "48h": 48, "72h": 72, "7d": 168}


class TableQuestion(GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=NEVER):
    """An answer to a question the table is asked on a public post, `<prefix>:<game>:<n>:<op>`: `n` names the
    question (the turn whose deadline passed, the move an undo goes back to), so the session refuses an answer
    to one that was settled or overtaken."""

    prefix: ClassVar[str]
    numbers = frozenset({"gid", "n"})

    def __init__(
        self, gid: int, n: int, op: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary
    ):
        super().__init__(make_button(f"{self.prefix}:{gid}:{n}:{op}", label or op, style))
        self.gid, self.n, self.op = gid, n, op


class DecisionButton(TableQuestion, template=rf"d:{GID}:(?P<n>[0-9]{{1,9}}):(?P<op>turn|back|wait)"):
    """The table's answer to a passed deadline (`n`: the turn's number)."""

    prefix = "d"

    async def handle(self, interaction: discord.Interaction) -> None:
        row = await game_here(interaction, self.gid)
        me = str(interaction.user.id)
        session = session_of(interaction)
        row, late = await session.decide(row.id, me, self.op, self.n)
        _ = await session.languages.public(interaction.guild_id, interaction.guild_locale)  # a public post
        asked = interaction.message.content if interaction.message else ""
        await interaction.response.edit_message(
            content=clip(f"{asked}\n✅ {decided_line(row, me, late, self.op, _)}"), view=None
        )


class UndoButton(TableQuestion, template=rf"u:{GID}:(?P<n>[0-9]{{1,9}}):(?P<op>yes|no)"):
    """A player's answer to an undo that asks the table (`n`: the move it goes back to)."""

    prefix = "u"

    async def handle(self, interaction: discord.Interaction) -> None:
        row = await game_here(interaction, self.gid)
        row, outcome = await session_of(interaction).consent(row.id, str(interaction.user.id), self.n, self.op == "yes")
        if outcome == "waiting":
            _ = user_words(interaction)
            waiting = [p for p in row.table["undo"]["need"] if p not in row.table["undo"]["yes"]]
            names = ", ".join(esc(seated(row, p, _)) for p in waiting)
            # i18n: the answer to a player who agreed to an undo: whom it still waits for
            await reply(interaction, _("Noted. Still waiting for {who}.", who=names))
        else:  # settled: the post saying so comes from the herald
            await interaction.response.edit_message(view=None)


class SeatButton(TableQuestion, template=rf"ts:{GID}:(?P<n>[0-9]{{1,9}}):(?P<op>yes|no)"):
    """A player's answer to a newcomer asking to take a vacant seat (`n`: which request: cogs/_substitutes.py)."""

    prefix = "ts"

    async def handle(self, interaction: discord.Interaction) -> None:
        row = await game_here(interaction, self.gid)
        session = session_of(interaction)
        row, outcome = await session.seat_consent(row.id, str(interaction.user.id), self.n, self.op == "yes")
        if outcome == "waiting":
            _ = user_words(interaction)
            ask = row.table["seat_ask"]
            names = ", ".join(esc(seated(row, p, _)) for p in ask["need"] if p not in ask["yes"])
            await reply(interaction, _("Noted. Still waiting for {who}.", who=names))
        else:  # settled: the post saying so comes from the herald
            await interaction.response.edit_message(view=None)


@TableButton.on("seat")
async def take_seat(interaction: discord.Interaction, row: GameRow) -> None:
    """Take this seat: a newcomer asks the table for a vacant seat (cogs/_substitutes.py)."""
    row, outcome = await session_of(interaction).ask_seat(row.id, seat_of(interaction.user))
    _ = user_words(interaction)
    if outcome == "asked":
        # i18n: the answer to a newcomer who asked to take a vacant seat
        await reply(interaction, _("Asked: the seat is yours once every player agrees."))
    else:
        # i18n: the answer to a newcomer who took a vacant seat (nobody else had a say)
        await reply(interaction, _("The seat is yours: **My hand** shows what it holds."))


# --------------------------------------------------------------------------------------------- the posts


def decided_line(row: GameRow, by: str, late: str, choice: str, _: Words = ENGLISH) -> str:
    who, late_one = name_of(row, by, _), name_of(row, late, _)
    if choice == "wait":
        # i18n: the table's decision after a passed deadline
        return _("{who} chose to wait longer for {late}.", who=who, late=late_one)
    if choice == "turn":
        # i18n: the table's decision after a passed deadline
        return _("{who} let the AI play for {late} this turn.", who=who, late=late_one)
    # i18n: the table's decision after a passed deadline
    return _("{who} let the AI play for {late} until {late} is back.", who=who, late=late_one)


def notice_content(row: GameRow, notice: Notice, _: Words = ENGLISH) -> tuple[str, discord.ui.View | None]:
    """The post of one of the clock's or the table's notices (in the server's language `_`), and its buttons."""
    p = notice.payload
    table_buttons = _table_view(row, _)
    if notice.kind == "deadline":
        return _deadline_post(row, p, table_buttons, _)
    if notice.kind == "decided":
        return decided_line(row, p["by"], p["player"], p["choice"], _), table_buttons
    if notice.kind == "back":
        return _("👋 {who} is back and plays again.", who=name_of(row, p["player"], _)), table_buttons
    if notice.kind == "left":  # a player left for good (cogs/_leaving.py)
        return left_line(row, p["player"], _), table_buttons
    if notice.kind == "undo_asked":
        need = row.table.get("undo", {}).get("need", [])
        # i18n: an undo asking the table: {others} are the pings of the players who must agree
        text = _(
            '↩️ {who} asks to take back their last turn (moves after #{keep}). {others}: do you agree? The first "no" ends it.',
            who=name_of(row, p["by"], _),
            keep=p["keep"],
            others=", ".join(ping(row, x, _) for x in need),
        )
        view = new_view(
            # i18n: a button: agree to another player's undo
            UndoButton(row.id, p["keep"], "yes", _("Agree"), discord.ButtonStyle.success),
            # i18n: a button: refuse another player's undo
            UndoButton(row.id, p["keep"], "no", _("Refuse"), discord.ButtonStyle.danger),
        )
        return clip(text), view
    if notice.kind == "seat_asked":  # a newcomer asks for a vacant seat (cogs/_substitutes.py)
        need = row.table.get("seat_ask", {}).get("need", [])
        # i18n: public: someone not playing asks to take over a vacant seat; {others}: the players who must agree
        text = _(
            '🪑 {who} offers to take over {seat}\'s seat. {others}: do you agree? The first "no" ends it.',
            who=f"**{esc(str(p.get('name', '')))}**",
            seat=name_of(row, p["seat"], _),
            others=", ".join(ping(row, x, _) for x in need),
        )
        view = new_view(
            # i18n: a button: agree that a newcomer takes over a vacant seat
            SeatButton(row.id, p["n"], "yes", _("Agree"), discord.ButtonStyle.success),
            # i18n: a button: refuse a newcomer taking over a vacant seat
            SeatButton(row.id, p["n"], "no", _("Refuse"), discord.ButtonStyle.danger),
        )
        return clip(text), view
    if notice.kind == "seat_refused":
        # i18n: public: {who} refused to let {by} take over a vacant seat
        return _(
            "🪑 {who} refused: {by} does not take the seat.",
            who=name_of(row, p["no"], _),
            by=f"**{esc(str(p.get('name', '')))}**",
        ), table_buttons
    if notice.kind == "seat_taken":  # the seat is the newcomer's, with its hand (cogs/_substitutes.py)
        state = Session.rules(row.game).from_json(row.state or {})
        rules = Session.rules(row.game)
        side = set(rules.out_of_turn(state))
        movers = [x for x in rules.to_move(state) if x not in side]
        # i18n: public: a newcomer took over a vacant seat, with its hand; they are not rated for this game
        took = _(
            "🪑 {who} takes over {seat}'s seat as a substitute (not rated for this game); **My hand** shows them what it holds.",
            who=ping(row, p["by"], _),
            seat=f"**{esc(str(p.get('name', p['seat'])))}**",
        )
        return clip(f"{took}\n{turn_line(row, movers, _=_)}".rstrip()), table_buttons
    if notice.kind == "undo_refused":
        # i18n: {who} refused the undo that {by} asked for
        return _(
            "↩️ {who} refused: {by}'s turn stands.", who=name_of(row, p["no"], _), by=name_of(row, p["by"], _)
        ), table_buttons
    rules = Session.rules(row.game)
    undone = "; ".join(_move(rules, esc(seated(row, pl, _)), a, _) for pl, a in p["moves"])
    state = rules.from_json(row.state or {})
    side = set(rules.out_of_turn(state))
    movers = [x for x in rules.to_move(state) if x not in side]
    # i18n: the post after an undo: {moves} are the moves taken back
    took = _("↩️ {who} took back: {moves}. The board is as it was before.", who=name_of(row, p["by"], _), moves=undone)
    return clip(f"{took}\n{turn_line(row, movers, _=_)}".rstrip()), table_buttons


def _deadline_post(
    row: GameRow, p: dict[str, Any], table_buttons: discord.ui.View | None, _: Words
) -> tuple[str, discord.ui.View | None]:
    who = p["player"]
    if p["phase"] == "vacation":  # a vacation day was used before the table is asked (cogs/_bank.py)
        return vacation_text(row, p, _), table_buttons
    if p["phase"] == "warn":
        hours = row.table.get("deadline") or 0
        end = int(p.get("ends") or (clock_start(row) or time.time()) + hours * 3600)
        # i18n: the warning before a deadline; {when} is a Discord timestamp relative to now ("in 2 hours")
        text = _(
            "⏳ {who}, your move in {title}: the deadline is {when}.",
            who=ping(row, who, _),
            title=title_of(row.game, _),
            when=f"<t:{end}:R>",
        )
        return text, table_buttons
    if p["phase"] == "late":
        others = [x for x in staying(row) if x != who]
        if not row.table.get("standins", True):
            text = _("⌛ {who}'s deadline has passed. The table waits one more deadline.", who=name_of(row, who, _))
            return text, table_buttons
        fields = {
            "who": name_of(row, who, _),
            "others": ", ".join(ping(row, x, _) for x in others),
            "when": f"<t:{int(row.deadline_at or time.time())}:R>",
        }
        if row.table.get("on_timeout", "ai") == "ai":
            # i18n: a deadline passed: the other players are asked ({others}: pings; {when}: a Discord timestamp)
            text = _(
                "⌛ {who}'s deadline has passed. {others}: what now? If nobody decides by {when}, the AI plays this turn for them.",
                **fields,
            )
        else:
            # i18n: a deadline passed: the other players are asked ({others}: pings; {when}: a Discord timestamp)
            text = _(
                "⌛ {who}'s deadline has passed. {others}: what now? If nobody decides by {when}, the table waits one more deadline.",
                **fields,
            )
        name = seated(row, who, _)
        # i18n: a button after a passed deadline (at most 80 characters with the name)
        this_turn = _("Let the AI play for {name} this turn", name=name)[:80]
        # i18n: a button after a passed deadline, below "Let the AI play for {name} this turn"
        until_back = _("…until {name} is back", name=name)[:80]
        view = new_view(
            DecisionButton(row.id, row.turns, "turn", this_turn, discord.ButtonStyle.primary),
            DecisionButton(row.id, row.turns, "back", until_back),
            # i18n: a button after a passed deadline
            DecisionButton(row.id, row.turns, "wait", _("Wait longer")),
        )
        return clip(text), view
    if p["phase"] == "auto":
        # i18n: nobody decided after a passed deadline: the AI plays for the late player, named "AI for …"
        text = _(
            "🤖 Nobody decided: the AI plays this turn for {who} (**AI for {name}**).",
            who=name_of(row, who, _),
            name=esc(seated(row, who, _)),
        )
        return text, table_buttons
    return _("⏳ Waiting one more deadline for {who}.", who=ping(row, who, _)), table_buttons


def left_line(row: GameRow, player: str, _: Words = ENGLISH) -> str:
    # i18n: public: a player left the running game for good (also a line of /game status)
    return _("🚪 {who} left the game; the AI plays their seat to the end.", who=name_of(row, player, _))


def _move(rules: Any, who: str, action: Any, _: Words) -> str:
    """One move taken back by an undo, in words."""
    # i18n: one of the moves an undo took back: who and what they did
    return _("{who} {action}", who=who, action=_.text(rules.describe(rules.action_from_json(action))))


def _table_view(row: GameRow, _: Words = ENGLISH) -> discord.ui.View | None:
    items = [
        TableButton(row.id, "play", _("Play my turn"), discord.ButtonStyle.success),
        TableButton(row.id, "board", _("Board")),
    ]
    if any(mode != "left" for mode in row.table.get("sub", {}).values()):  # not for those who left
        items.append(TableButton(row.id, "back", _("I'm back")))
    if may_be_vacant(row):
        items.append(TableButton(row.id, "seat", _("Take this seat")))
    return new_view(*items)


# --------------------------------------------------------------------------------------------- turn times


def turn_times(moves: Sequence[MoveRow], seats: Sequence[str]) -> dict[str, list[float]]:
    """Seconds each player took per turn (records.figures.turn_times, on the stored move rows)."""
    return figures.turn_times([figures.Move(m.player, m.created_at) for m in moves], seats)


def turn_time_line(row: GameRow, moves: Sequence[MoveRow], _: Words = ENGLISH) -> str:
    times = turn_times(moves, [s.id for s in row.seats if not is_ai(s.id)])
    parts = [
        f"{esc(seated(row, p, _))} {duration(statistics.mean(t), _)} / {duration(statistics.median(t), _)}"
        for p, t in times.items()
        if t
    ]
    # i18n: the results' last line: each player's average and median time per turn
    return _("⏱️ Turn times (average / median): {times}", times=" · ".join(parts)) if parts else ""


# --------------------------------------------------------------------------------------------- time banks (cogs/_bank.py)


def vacation_text(row: GameRow, payload: dict[str, Any], _: Words = ENGLISH) -> str:
    """The post when a passed deadline used one of the late player's vacation days."""
    # i18n: a deadline passed and a vacation day was used; {when} is a Discord timestamp, {n} the days left
    return _(
        "🏝️ {who}'s deadline passed: one vacation day used ({n} left). The new deadline is {when}.",
        "🏝️ {who}'s deadline passed: one vacation day used ({n} left). The new deadline is {when}.",
        n=int(payload.get("left", 0)),
        who=name_of(row, payload["player"], _),
        when=f"<t:{int(payload.get('ends') or 0)}:R>",
    )


def bank_settings_lines(row: GameRow, _: Words = ENGLISH) -> list[str]:
    """What `/game settings` adds: the time bank and the vacation days, if the table has them."""
    lines = []
    bank = _bank.bank_of(row.table)
    if bank is not None:
        hours = [duration(h * 3600, _) for h in bank]
        # i18n: /game settings: the time bank; {start}, {add} and {most} are durations ("3 d")
        lines.append(_("⏱️ Time bank: {start} each, {add} more after every turn, at most {most}.", start=hours[0], add=hours[1], most=hours[2]))  # fmt: skip
    days = int(row.table.get("vacation", 0))
    if days:
        # i18n: /game settings: vacation days each player has in this game
        lines.append(_("🏝️ {n} vacation day each: a passed deadline uses one before the table is asked.", "🏝️ {n} vacation days each: a passed deadline uses one before the table is asked.", n=days))  # fmt: skip
    return lines


def bank_status_lines(row: GameRow, _: Words = ENGLISH, *, spent: dict[str, float] | None = None) -> list[str]:
    """What `/game status` adds: every human's time left (of those to move, less what this turn took of it so
    far: `spent` seconds) and vacation days left."""
    if _bank.bank_of(row.table) is None and not row.table.get("vacation"):
        return []
    parts = []
    for s in row.seats:
        if not s.id.isdigit():
            continue
        bits = []
        if _bank.bank_of(row.table) is not None:
            bits.append(duration(max(0.0, _bank.left(row.table, s.id) - (spent or {}).get(s.id, 0.0)), _))
        if row.table.get("vacation"):
            # i18n: /game status: vacation days left, after a player's time bank ("2 days · 🏝️ 1")
            bits.append(_("🏝️ {n}", n=_bank.vacation_left(row.table, s.id)))
        parts.append(f"{name_of(row, s.id, _)} {' · '.join(bits)}")
    # i18n: /game status: each player's time left in their bank (and vacation days)
    return [_("⏱️ Time left: {times}", times="; ".join(parts))]


# --------------------------------------------------------------------------------------------- away


_DURATION = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>d|h|m|w)", re.IGNORECASE)


def parse_until(text: str, now: float, _: Words = ENGLISH) -> float:
    """`3d`, `12h`, `1w 2d`, or a date `2026-12-24` (UTC, the end of that day): the time it names. A refusal is a
    GameError with a Text (answered in the reader's language; `_` is accepted for older callers)."""
    text = (text or "").strip()
    try:
        day = datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC)
        return day.timestamp() + 86400
    except ValueError:
        pass
    parts = list(_DURATION.finditer(text))
    if not parts or _DURATION.sub("", text).strip():
        # i18n: /away until: the units d, h, m, w are typed as they are in every language
        raise GameError(Text("Say how long you are away like `3d`, `12h`, `1w 2d`, or until a date like `2026-12-24`."))
    seconds = sum(float(m["n"]) * {"m": 60, "h": 3600, "d": 86400, "w": 604800}[m["unit"].lower()] for m in parts)
    if not 0 < seconds <= 90 * 86400:
        raise GameError(Text("Away mode lasts from a minute up to 90 days."))
    return now + seconds


# --------------------------------------------------------------------------------------------- replies


def settings_text(row: GameRow, _: Words = ENGLISH) -> str:
    t = row.table
    # i18n: /game settings: the deadline per move, in hours
    per_move = _("{hours} h per move", hours=t.get("deadline"))
    deadline = per_move if t.get("deadline") else _("none (reminders only)")
    # i18n: /game settings: what happens when a deadline passed and nobody decides
    timeout = _("the AI plays that turn") if t.get("on_timeout", "ai") == "ai" else _("wait one more deadline")
    # i18n: /game settings: whether the AI may stand in for late or away players
    standins = _("allowed") if t.get("standins", True) else _("not allowed")
    level = _.text(LEVEL_NAME[ai_level(t)])
    # i18n: /game settings: {deadline}, {timeout}, {standins} and {level} (easy, normal, hard) are the settings' values
    text = _(
        "⚙️ **{title}** (game #{id}): deadline {deadline}; when a deadline passed and nobody decides, {timeout}; AI stand-ins {standins}, playing at level {level}.",
        title=title_of(row.game, _),
        id=row.id,
        deadline=deadline,
        timeout=timeout,
        standins=standins,
        level=level,
    )
    if row.table.get("posts") == "compact":  # cogs/_compact.py
        # i18n: /game settings: the table's posts are compact
        text += "\n" + _("📋 Posts: compact (one board message, edited after every move; a short line pings the next player).")  # fmt: skip
    # i18n: /game settings: whether players may ask the AI coach for hints (/game hint)
    hints = _("🧭 Hints: allowed (`/game hint` or the panel's Hint button).") if t.get("hints") else _("🧭 Hints: off.")
    return "\n".join([text, hints, *bank_settings_lines(row, _)])


async def mine_text(session: Session, player: str, _: Words = ENGLISH) -> str:
    """Every game waiting for `player`, in every server, the longest waiting first, with a link to its post."""
    waiting = []
    for row in await session.storage.games_of(player, limit=100):
        if row.status != "active" or player in row.table.get("left", ()):  # the AI plays for those who left
            continue
        if player in session.movers(row, session.state_of(row)):
            waiting.append(row)
    if not waiting:
        return _("No game is waiting for you right now. 🎉")
    waiting.sort(key=lambda r: r.turn_started_at or r.updated_at)
    now = time.time()
    lines = []
    for row in waiting[:25]:
        link = (
            f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.last_post_id}"
            if row.last_post_id
            else f"<#{row.channel_id}>"
        )
        since = duration(now - (row.turn_started_at or row.updated_at), _)
        title = title_of(row.game, _)
        # i18n: /game mine: a game waiting for the reader, for how long, and a link to its last post
        line = _("• {title} (#{id}), waiting {time}: {link}", title=title, id=row.id, time=since, link=link)
        lines.append(line)
    return _("**Waiting for your move:**") + "\n" + "\n".join(lines)


@TableButton.on("back")
async def back(interaction: discord.Interaction, row: GameRow) -> None:
    await session_of(interaction).back(row.id, str(interaction.user.id))
    _ = user_words(interaction)
    await reply(interaction, _("👋 Welcome back: your seat is yours again."))


async def away_text(session: Session, player: str, _: Words = ENGLISH) -> str:
    me = await session.storage.player(player)
    if not me.away(time.time()):
        return _("You are not away.")
    until = f"<t:{int(me.away_until or 0)}:f>"
    if me.away_ai:
        # i18n: /away: {until} is a Discord timestamp (a date and time)
        return _(
            "🏖️ You are away until {until}: nobody pings or reminds you. The AI plays your turns where the table allows it.",
            until=until,
        )
    # i18n: /away: {until} is a Discord timestamp (a date and time)
    return _("🏖️ You are away until {until}: nobody pings or reminds you.", until=until)


async def status_lines(session: Session, row: GameRow, _: Words = ENGLISH) -> list[str]:
    """What `/game status` adds for a running game: the deadline, stand-ins, away players, turn times."""
    if row.status not in ("active", "finished"):
        return []
    lines = []
    if row.status == "active":
        state = session.state_of(row)
        movers = session.movers(row, state)
        humans = [s.id for s in row.seats if not is_ai(s.id)]
        players = await session.storage.players(humans)
        lines.append(deadline_line(row, movers, _, session.deadline_end(row, state, players)))
        start = clock_start(row)
        spent = {p: awake_between(start, time.time(), [players[p]]) for p in movers if p in players} if start else {}
        lines += bank_status_lines(row, _, spent=spent)
        for p, mode in row.table.get("sub", {}).items():
            if mode == "left":
                lines.append(left_line(row, p, _))
            elif mode == "turn":
                # i18n: /game status: the AI plays for a player this turn
                lines.append(_("🤖 AI for {who} (this turn).", who=name_of(row, p, _)))
            else:
                name = esc(seated(row, p, _))
                # i18n: /game status: the AI plays for a player until they are back
                lines.append(_("🤖 AI for {who} (until {name} is back).", who=name_of(row, p, _), name=name))
        now = time.time()
        for p, me in players.items():
            morning = quiet_until(me, now)
            if morning is not None:
                # i18n: /game status: a player in their quiet hours; {time} is the end in their own time ("08:00")
                lines.append(
                    _(
                        "🌙 {who} is quiet until {time} (their time).",
                        who=name_of(row, p, _),
                        time=local_time(me, morning),
                    )
                )
            if me.away(now):
                fields = {"who": name_of(row, p, _), "until": f"<t:{int(me.away_until or 0)}:R>"}
                if me.away_ai and row.table.get("standins", True):
                    # i18n: /game status: {until} is a Discord timestamp relative to now
                    lines.append(_("🏖️ {who} is away until {until}, the AI plays for them.", **fields))
                else:
                    # i18n: /game status: {until} is a Discord timestamp relative to now
                    lines.append(_("🏖️ {who} is away until {until}.", **fields))
    lines.append(turn_time_line(row, await session.storage.moves(row.id), _))
    return [x for x in lines if x]
