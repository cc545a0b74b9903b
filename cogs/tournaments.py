"""`/tournament create`: a server's tournament (Swiss, round robin or knockout) of one game, its sign-up post
(Join, Leave, Start: `TournamentButton`, `t:<tournament>:<op>`, so they work after a restart), and the rounds:
each table's game in its own thread of the tournament's channel, standings (text and an image) after every
round. The arithmetic (pairings, points, Buchholz) is records/tournaments.py; this module stores and posts.

A round's life, every step a compare-and-set of the stored tournament (`Storage.update_tournament`), so that a
crash (kill -9) at any point, or two bots looking at once, neither loses nor duplicates a table:

1. **Pairing**: the round's tables are computed and stored in ONE update, each table without a thread or game
   yet, the tournament due at once (a bot that starts finds it and goes on).
2. **Tables**: for each table in turn, a thread is opened and its id stored; then the game is made in that
   thread (a retry finds it there: one open game per channel is the storage's own rule), its players seated
   and it is started; its id is stored. Then the tournament is due at the round's time limit.
3. **Results**: when a table's game ends (the session's listeners) its scores are stored. When the round's time
   limit passes, a game still running is **scored as it stands** (its current scores; it is cancelled, so it is
   never rated) and a line in its thread says so. A player who left the tournament is placed last at their table.
4. **Standings**: once every table has its scores, the standings are posted (with a nonce: a retried post shows
   once) and the next round is paired, or the tournament ends with the final standings.

A player who leaves (Leave after the start) is dropped from later pairings; their running game goes to the AI
(`cogs._leaving.abandon`, as `/game leave` does). Only the organiser or a member with *Manage Server* starts it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands, tasks

import engine
import present
from cogs import _leaving, _moving
from cogs._items import GID, GameItem, answer_error, make_button, new_view, reply
from cogs._locale import user_words
from cogs._options import _options_example, game_choices, game_named, parse_options
from cogs._records import draw
from cogs._seating import GameError
from cogs._services import services
from cogs._session import Session
from cogs._text import PUBLIC_MENTIONS, clip, esc, title_of
from engine import IllegalAction, Text
from i18n import Words
from records import tournaments as tr
from render.standings import StandingsCard, points_text, standings_png
from storage import GameRow, Seat, TournamentRow

log = logging.getLogger(__name__)

DAY = 86400.0
FORMAT_NAMES = {
    # i18n: the formats of a tournament
    "swiss": Text("Swiss"),
    "round_robin": Text("round robin"),
    "knockout": Text("knockout"),
}


class TournamentButton(
    GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"t:{GID}:(?P<op>join|leave|start)"
):
    """The sign-up post's buttons: Join, Leave (before the start: out of the list; after it: out of the
    tournament) and Start (the organiser, or Manage Server)."""

    def __init__(
        self, gid: int, op: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary
    ) -> None:
        super().__init__(make_button(f"t:{gid}:{op}", label or op, style))
        self.gid, self.op = gid, op

    async def handle(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("TournamentCog")  # type: ignore[attr-defined]
        if not isinstance(cog, TournamentCog):
            raise GameError(Text("This button is out of date: nothing was changed."))
        await cog.clicked(interaction, self.gid, self.op)


# --------------------------------------------------------------------------------------------- the stored form


def rounds_of(data: dict[str, Any]) -> list[tr.Round]:
    """The stored rounds as the arithmetic's records."""
    return [
        tr.Round(
            tuple(tr.Table(tuple(t["players"]), t.get("scores"), tuple(t.get("left", ()))) for t in r["tables"]),
            tuple(r.get("byes", ())),
        )
        for r in data.get("history", [])
    ]


def stored_round(rnd: tr.Round, number: int, ends: float, slots: list[str | None] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "n": number,
        "tables": [{"players": list(t.players), "thread": None, "game": None, "scores": None} for t in rnd.tables],
        "byes": list(rnd.byes),
        "ends": ends,
    }
    if slots is not None:
        out["slots"] = slots
    return out


def total_rounds(data: dict[str, Any]) -> int:
    return int(data.get("total") or data["rounds"])


def names_of(data: dict[str, Any]) -> dict[str, str]:
    return {p: n for p, n in data["players"]}


def next_round(data: dict[str, Any], least: int) -> tuple[tr.Round, list[str | None] | None] | None:
    """The next round's tables (and a knockout's slots), or None when the tournament is over. Pure: run in a
    thread (the pairing search may take a moment for a big tournament)."""
    history, k, dropped = rounds_of(data), int(data["per_table"]), set(data.get("dropped", ()))
    done = len(history)
    if done >= total_rounds(data):
        return None
    active = [p for p in data["seeds"] if p not in dropped]
    if data["format"] == "knockout":
        slots = data["history"][-1]["slots"] if history else tr.bracket(data["seeds"], k)
        if history:
            slots = tr.next_slots(slots, history[-1], k)
        slots = [p if p is not None and p not in dropped else None for p in slots]
        if sum(p is not None for p in slots) < 2:
            return None
        return tr.knockout_round(slots, k), slots
    if data["format"] == "round_robin":
        planned = data["schedule"][done]
        tables, byes = [], [p for p in planned["byes"] if p not in dropped]
        for players in planned["tables"]:
            here = tuple(p for p in players if p not in dropped)
            if len(here) >= least:
                tables.append(tr.Table(here))
            else:
                byes += here
        return tr.Round(tuple(tables), tuple(byes)), None
    if len(active) < least:
        return None
    order = [s.player for s in tr.standings(data["seeds"], history, k) if s.player not in dropped]
    had = {p: sum(p in r.byes for r in history) for p in order}
    return tr.swiss_round(order, k, least, tr.met_pairs(history), had), None


# --------------------------------------------------------------------------------------------- the words


def format_name(data: dict[str, Any], _: Words) -> str:
    return _.text(FORMAT_NAMES[data["format"]])


def signup_text(row: TournamentRow, _: Words) -> str:
    data = row.data
    names = names_of(data)
    players = ", ".join(f"**{esc(n)}**" for n in names.values()) or "—"
    head = _(
        "🏆 **Tournament #{id}: {title}** ({format}, tables of {k}), organised by {organiser}.",
        id=row.id,
        title=title_of(data["game"], _),
        format=format_name(data, _),
        k=data["per_table"],
        organiser=f"<@{data['organiser']}>",
    )
    if data["format"] == "swiss":
        head += " " + _("{n} round.", "{n} rounds.", n=data["rounds"])
    count = _("Players ({n}): {names}", "Players ({n}): {names}", n=len(names), names=players)
    if row.status == "signup":
        # i18n: the sign-up post's last line, before the tournament starts
        tail = _("Join below; the organiser or someone with **Manage Server** starts it.")
    elif row.status == "running":
        tail = _("Started: round {n} of {total}.", n=len(data.get("history", [])), total=total_rounds(data))
    elif row.status == "finished":
        tail = _("The tournament is over.")
    else:
        tail = _("The tournament was called off.")
    return clip("\n".join([head, count, tail]))


def signup_view(row: TournamentRow, _: Words) -> discord.ui.View | None:
    if row.status == "signup":
        return new_view(
            TournamentButton(row.id, "join", _("Join"), discord.ButtonStyle.primary),
            TournamentButton(row.id, "leave", _("Leave")),
            TournamentButton(row.id, "start", _("Start"), discord.ButtonStyle.success),
        )
    if row.status == "running":
        # i18n: the sign-up post's button once the tournament runs: leaving it for good
        return new_view(TournamentButton(row.id, "leave", _("Leave the tournament")))
    return None


def round_text(row: TournamentRow, rnd: dict[str, Any], _: Words) -> str:
    names = names_of(row.data)
    lines = [
        _(
            "🏆 **Tournament #{id}**, round {n} of {total}: the tables.",
            id=row.id,
            n=rnd["n"],
            total=total_rounds(row.data),
        )
    ]
    for i, t in enumerate(rnd["tables"], start=1):
        who = ", ".join(f"<@{p}>" for p in t["players"])
        where = f" <#{t['thread']}>" if t.get("thread") else ""
        lines.append(_("Table {n}: {players}", n=i, players=who) + where)
    if rnd["byes"]:
        byes = ", ".join(f"**{esc(names.get(p, p))}**" for p in rnd["byes"])
        lines.append(_("Bye (scored as a win): {names}", names=byes))
    return clip("\n".join(lines))


def standings_text(row: TournamentRow, rows: list[tr.Standing], _: Words, *, final: bool) -> str:
    names, data = names_of(row.data), row.data
    done = len(data.get("history", []))
    if final:
        head = _("🏆 **Tournament #{id}** is over: the final standings.", id=row.id)
    else:
        head = _(
            "🏆 **Tournament #{id}**: the standings after round {n} of {total}.",
            id=row.id,
            n=done,
            total=total_rounds(data),
        )
    lines = [head]
    for n, s in enumerate(rows, start=1):
        name = f"**{esc(names.get(s.player, s.player))}**"
        if data["format"] == "swiss":
            line = _(
                "{place}. {name}: {points} points (Buchholz {buchholz}, score {score})",
                place=n,
                name=name,
                points=points_text(s.points),
                buchholz=points_text(s.buchholz),
                score=round(s.score),
            )
        else:
            line = _(
                "{place}. {name}: {points} points (score {score})",
                place=n,
                name=name,
                points=points_text(s.points),
                score=round(s.score),
            )
        lines.append(line)
    return clip("\n".join(lines))


# --------------------------------------------------------------------------------------------- the cog


@app_commands.guild_only()
class TournamentCog(commands.GroupCog, group_name="tournament", group_description="Tournaments in this server"):
    """Tournaments: the command, the sign-up buttons, and the rounds (a pass every minute, and at once when a
    table's game ends)."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # test hook: awaited at a named step of a round change ("paired", "thread", "game"); a test stops the
        # bot there to simulate a crash
        self.fault: Callable[[str], Awaitable[None]] | None = None
        super().__init__()

    @property
    def session(self) -> Session:
        return services(self.bot).session

    async def cog_load(self) -> None:
        self.session.listeners.append(self.kick)
        self._startup = asyncio.create_task(self._after_start(), name="tournaments-startup")
        self.due.start()

    async def cog_unload(self) -> None:
        if self.kick in self.session.listeners:
            self.session.listeners.remove(self.kick)
        self.due.cancel()
        self._startup.cancel()
        for t in list(self._tasks):
            t.cancel()
        await asyncio.gather(self._startup, *self._tasks, return_exceptions=True)

    async def _after_start(self) -> None:
        """Every running tournament of this process's shards looked at once: a round change a crash left half
        done goes on, a game that ended meanwhile is counted."""
        await self.bot.wait_until_ready()
        await self.pass_tournaments(now=float("inf"), limits=False)

    @tasks.loop(minutes=1)
    async def due(self) -> None:
        try:
            await self.pass_tournaments()
        except Exception:
            log.exception("the tournaments pass failed")

    @due.before_loop
    async def _before_due(self) -> None:
        await self.bot.wait_until_ready()

    async def pass_tournaments(self, now: float | None = None, *, limits: bool = True, batch: int = 100) -> int:
        """Advance every tournament whose due time came (of this process's shards): a round being set up, or a
        round's time limit. Returns how many were looked at."""
        now = time.time() if now is None else now
        seen, shards = 0, services(self.bot).herald.shards
        rows = await self.session.storage.tournaments_due(now, shards=shards, limit=batch)
        for row in rows:
            seen += 1
            await self.advance(row.id, now=now if limits else time.time())
        return seen

    def kick(self, game_id: int, row: GameRow | None = None) -> None:
        """A session listener: a game moved on; if it is a tournament's and it ended, its round may advance. With
        the row as the move committed it, a game still running or of no tournament costs nothing (no load)."""
        if self.session.closing:
            return
        if row is not None and (row.status == "active" or "tournament" not in row.table):
            return
        task = asyncio.create_task(self._game_moved(game_id), name=f"tournament-game-{game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _game_moved(self, game_id: int) -> None:
        try:
            row = await self.session.storage.load_game(game_id)
            if row is not None and row.status != "active" and "tournament" in row.table:
                await self.advance(int(row.table["tournament"][0]))
        except Exception:
            log.exception("advancing the tournament of game %s failed", game_id)

    async def _step(self, name: str) -> None:
        if self.fault is not None:
            await self.fault(name)

    # -- the command ---------------------------------------------------------------------------------------

    @app_commands.command(name="create", description="Create a tournament in this channel, with a sign-up post")
    @app_commands.describe(
        game="Which game",
        format="swiss: paired by standing; round_robin: everyone meets everyone; knockout: the winners go on",
        rounds="Swiss: how many rounds (round robin and knockout: as many as they take)",
        players_per_table="Players at each table",
        options=f'Variants or modules, e.g. "{_options_example()}"',
        deadline="Time for each move in the tables' games",
        round_days="Days each round may take; a game still running then is scored as it stands",
    )
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        format: Literal["swiss", "round_robin", "knockout"] = "swiss",
        rounds: app_commands.Range[int, 1, 20] = 3,
        players_per_table: app_commands.Range[int, 2, 6] | None = None,
        options: str | None = None,
        deadline: Literal["none", "12h", "24h", "48h", "72h", "7d"] = "none",
        round_days: app_commands.Range[int, 1, 60] = 7,
    ) -> None:
        try:
            game = game_named(game)
            chosen = parse_options(game, options)
            counts = engine.get_rules(game).player_counts
            k = players_per_table or min(counts[-1], 4)
            if k not in counts:
                raise GameError(
                    Text(
                        "{title} is played by {least} to {most} players, not {n}.",
                        title=present.title(game),
                        least=counts[0],
                        most=counts[-1],
                        n=k,
                    )
                )
            me = interaction.user
            data = {
                "game": game,
                "format": format,
                "rounds": rounds,
                "per_table": k,
                "options": chosen,
                "deadline": deadline,
                "round_days": round_days,
                "organiser": str(me.id),
                "players": [[str(me.id), me.display_name]],
                "dropped": [],
                "history": [],
            }
            row = await self.session.storage.create_tournament(
                guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0, data=data
            )
            _ = await self.session.languages.public(interaction.guild_id, interaction.guild_locale)
            await interaction.response.send_message(
                signup_text(row, _),
                view=signup_view(row, _),  # type: ignore[arg-type]
                allowed_mentions=discord.AllowedMentions.none(),
            )
            message = await interaction.original_response()
            await self._save(row, {**row.data, "message": message.id}, row.status, None)
        except (GameError, IllegalAction) as exc:
            await answer_error(interaction, exc)

    @create.autocomplete("game")
    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    # -- the buttons ---------------------------------------------------------------------------------------

    async def clicked(self, interaction: discord.Interaction, tid: int, op: str) -> None:
        row = await self.session.storage.load_tournament(tid)
        if row is None or row.channel_id != interaction.channel_id:
            raise GameError(Text("This button is out of date: nothing was changed."))
        me, _ = str(interaction.user.id), user_words(interaction)
        if op == "join":
            await self._join(row, me, interaction.user.display_name)
            await reply(interaction, _("You're in the tournament."))
        elif op == "leave":
            await self._leave(row, me)
            await reply(interaction, _("You left the tournament."))
        else:
            perms = interaction.permissions
            if me != row.data["organiser"] and not (perms.manage_guild or perms.administrator):
                raise GameError(Text("Only the organiser or someone with **Manage Server** can start the tournament."))
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self._start(row)
            await reply(interaction, _("The tournament has started: the first round's tables are being set up."))
            await self.advance(tid)
        await self.refresh_signup(tid)

    async def _save(self, row: TournamentRow, data: dict[str, Any], status: str, due_at: float | None) -> TournamentRow:
        new = await self.session.storage.update_tournament(row, data=data, status=status, due_at=due_at)
        if new is None:
            raise GameError(Text("The tournament changed meanwhile; try again."))
        return new

    async def _join(self, row: TournamentRow, me: str, name: str) -> None:
        if row.status != "signup":
            raise GameError(Text("The tournament has started: sign-up is closed."))
        if me in names_of(row.data):
            raise GameError(Text("You are already in this tournament."))
        await self._save(row, {**row.data, "players": [*row.data["players"], [me, name]]}, row.status, None)

    async def _leave(self, row: TournamentRow, me: str) -> None:
        data = row.data
        if me not in names_of(data) or me in data.get("dropped", ()):
            raise GameError(Text("You are not in this tournament."))
        if row.status == "signup":
            if me == data["organiser"]:
                raise GameError(Text("You organise this tournament: you can't leave its sign-up."))
            await self._save(row, {**data, "players": [p for p in data["players"] if p[0] != me]}, row.status, None)
            return
        if row.status != "running":
            raise GameError(Text("This tournament is over."))
        await self._save(row, {**data, "dropped": [*data.get("dropped", ()), me]}, row.status, row.due_at)
        current = data["history"][-1] if data.get("history") else None
        for t in current["tables"] if current else ():
            if me in t["players"] and t.get("game") and t.get("scores") is None:
                with contextlib.suppress(GameError):  # the game ended meanwhile
                    await _leaving.abandon(self.session, int(t["game"]), me)  # the AI plays their seat to the end
        await self.advance(row.id)

    async def _start(self, row: TournamentRow) -> None:
        if row.status != "signup":
            raise GameError(Text("The tournament has already started."))
        data = dict(row.data)
        k, n = int(data["per_table"]), len(data["players"])
        if n < k:
            raise GameError(Text("A tournament of tables of {k} needs at least {k} players; {n} signed up.", k=k, n=n))
        seeds = await self.seeds(row)
        data["seeds"] = seeds
        least = engine.get_rules(data["game"]).player_counts[0]
        if data["format"] == "round_robin":
            schedule = tr.round_robin(seeds, k, least)
            data["schedule"] = [{"tables": [list(t.players) for t in r.tables], "byes": list(r.byes)} for r in schedule]
            data["total"] = len(schedule)
        elif data["format"] == "knockout":
            data["total"] = tr.knockout_rounds(n, k)
        await self._save(row, data, "running", time.time())

    async def seeds(self, row: TournamentRow) -> list[str]:
        """The players by their rating in this server's game (unrated: after the rated, in sign-up order)."""
        shown: dict[str, float] = {}
        for p, _n in row.data["players"]:
            found = await self.session.storage.standing(row.guild_id, row.data["game"], p)
            shown[p] = found[1].rating.shown if found else float("-inf")
        order = [p for p, _n in row.data["players"]]
        return sorted(order, key=lambda p: (-shown[p], order.index(p)))

    async def refresh_signup(self, tid: int) -> None:
        row = await self.session.storage.load_tournament(tid)
        if row is None or not row.data.get("message"):
            return
        _ = await self.session.languages.public(row.guild_id)
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            await channel.get_partial_message(int(row.data["message"])).edit(
                content=signup_text(row, _), view=signup_view(row, _), allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException:
            log.warning("could not edit the sign-up post of tournament %s", tid, exc_info=True)

    # -- the rounds ----------------------------------------------------------------------------------------

    async def advance(self, tid: int, *, now: float | None = None) -> None:
        """Take the tournament as far as it can go now (see the module's docstring), step by step, each step
        a compare-and-set (another bot's step first: read again and go on from there)."""
        lock = self._locks.setdefault(tid, asyncio.Lock())
        async with lock:
            for _i in range(1000):  # every pass makes a step or stops; a bound all the same
                row = await self.session.storage.load_tournament(tid)
                if row is None or row.status != "running":
                    return
                step = await self._next_step(row, time.time() if now is None else now)
                if step is None:
                    return

    async def _next_step(self, row: TournamentRow, now: float) -> TournamentRow | None:
        """One step of the tournament (None: nothing to do before a game ends or the time limit)."""
        data, history = row.data, row.data.get("history", [])
        current = history[-1] if history else None
        if current is None or current.get("posted"):
            return await self._pair(row, now)
        for i, t in enumerate(current["tables"]):
            if t.get("thread") is None:
                return await self._open_thread(row, i)
            if t.get("game") is None:
                return await self._make_game(row, i)
        if not current.get("ready"):  # every table plays: the round's post, then the round waits for its games
            _ = await self.session.languages.public(row.guild_id)
            await self._send(row, round_text(row, current, _), f"t{row.id}r{current['n']}")
            new = await self._with_round(row, {**current, "ready": True}, due_at=current["ends"])
            await self.refresh_signup(row.id)  # "round n of N"
            return new
        changed = await self._results(row, now)
        if changed is not None:
            return changed
        if not all(t.get("scores") is not None for t in current["tables"]):
            return None
        if len(history) >= total_rounds(data):
            await self._finish(row)
            return None
        return await self._post_standings(row)

    async def _with_round(
        self, row: TournamentRow, current: dict[str, Any], *, due_at: float | None = None
    ) -> TournamentRow:
        """The tournament with its current round replaced (compare-and-set: the row as it is now, if another
        step came first, to read again)."""
        data = row.data
        new = await self.session.storage.update_tournament(
            row,
            data={**data, "history": [*data["history"][:-1], current]},
            status="running",
            due_at=row.due_at if due_at is None else due_at,
        )
        return new or row

    async def _pair(self, row: TournamentRow, now: float) -> TournamentRow | None:
        """The next round, paired at `now` (the clock of the step that pairs it: a round closed at its time limit
        by a pass at `now` is followed by one that ends its full length after that, whatever the wall clock)."""
        data = row.data
        least = engine.get_rules(data["game"]).player_counts[0]
        made = await asyncio.to_thread(next_round, data, least)
        if made is None:
            await self._finish(row)
            return None
        rnd, slots = made
        number = len(data.get("history", [])) + 1
        ends = now + float(data.get("round_days", 7)) * DAY
        history = [*data.get("history", []), stored_round(rnd, number, ends, slots)]
        new = await self.session.storage.update_tournament(
            row, data={**data, "history": history}, status="running", due_at=time.time()
        )
        if new is None:
            return row  # another step came first: read again
        await self._step("paired")
        return new

    async def _open_thread(self, row: TournamentRow, i: int) -> TournamentRow:
        data = row.data
        current = data["history"][-1]
        parent = self.bot.get_channel(row.channel_id)
        _ = await self.session.languages.public(row.guild_id)
        name = _("Tournament #{id}: round {n}, table {t}", id=row.id, n=current["n"], t=i + 1)
        if not isinstance(parent, discord.TextChannel):
            raise GameError(Text("I can only open a thread from a normal text channel."))
        thread = await parent.create_thread(name=name[:100], type=discord.ChannelType.public_thread)
        tables = [dict(t) for t in current["tables"]]
        tables[i]["thread"] = thread.id
        new = await self._with_round(row, {**current, "tables": tables})
        await self._step("thread")
        return new

    async def _make_game(self, row: TournamentRow, i: int) -> TournamentRow:
        data = row.data
        current = data["history"][-1]
        table = current["tables"][i]
        thread, names = int(table["thread"]), names_of(data)
        seats = [Seat(p, names.get(p, p)) for p in table["players"]]
        game = await self.session.storage.game_in_channel(thread) or await self.session.storage.last_game_in_channel(
            thread
        )
        if game is None:  # not made yet (a retry finds the one made before a crash in its thread)
            game = await self.session.create(
                guild_id=row.guild_id, channel_id=thread, game=data["game"], options=data["options"], creator=seats[0]
            )
        if game.status == "lobby":
            game = await self.session.storage.update_lobby(
                game.id, seats=seats, table={**game.table, "tournament": [row.id, current["n"], i + 1]}
            )
            if data.get("deadline", "none") != "none":
                game = await self.session.settings(
                    game.id, seats[0].id, deadline=_moving.DEADLINE_CHOICES[data["deadline"]]
                )
            game, _state = await self.session.start(game.id, seats[0].id)
        await self._step("game")
        tables = [dict(t) for t in current["tables"]]
        tables[i]["game"] = game.id
        return await self._with_round(row, {**current, "tables": tables})

    async def _results(self, row: TournamentRow, now: float) -> TournamentRow | None:
        """Store the scores of the round's games that ended; at the time limit, score the running ones as they
        stand. The stored row if anything changed, else None."""
        data = row.data
        current = data["history"][-1]
        dropped = set(data.get("dropped", ()))
        tables, changed, limit = [dict(t) for t in current["tables"]], False, now >= current["ends"]
        for t in tables:
            if t.get("scores") is not None:
                continue
            game = await self.session.storage.load_game(int(t["game"]))
            if game is None:
                continue
            if game.status == "active" and limit:
                game = await self._time_up(game) or game
            if game.status in ("finished", "cancelled") and game.state_json is not None:
                rules = self.session.rules(game.game)
                scores = rules.scores(rules.from_json(game.state or {}))
                t["scores"] = {p: scores.get(p, 0) for p in t["players"]}
                t["left"] = [p for p in t["players"] if p in dropped or p in game.table.get("left", ())]
                t["how"] = "end" if game.status == "finished" else "limit"
                changed = True
        if not changed:
            return None
        return await self._with_round(row, {**current, "tables": tables})

    async def _time_up(self, game: GameRow) -> GameRow | None:
        """The round's time is up: the game is scored as it stands (cancelled: never rated), said in its thread."""
        async with self.session.lock(game.id):
            if not await self.session.storage.cancel_game(game.id):
                return None
        _ = await self.session.languages.public(game.guild_id)
        channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        try:
            await channel.send(
                _("⏱️ The round's time is up: this game is scored as it stands, and it ends here."),
                nonce=f"tl{game.id}"[:25],
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("could not post the time limit in game %s", game.id, exc_info=True)
        return await self.session.storage.load_game(game.id)

    async def _send(self, row: TournamentRow, content: str, nonce: str, image: bytes | None = None) -> None:
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        kwargs: dict[str, Any] = {"nonce": nonce[:25], "allowed_mentions": PUBLIC_MENTIONS}
        if image:
            kwargs["files"] = [discord.File(io.BytesIO(image), filename="standings.png")]
        try:
            await channel.send(content, **kwargs)
        except discord.HTTPException:
            log.warning("could not post in the channel of tournament %s", row.id, exc_info=True)

    async def _post_standings(self, row: TournamentRow, *, final: bool = False) -> TournamentRow | None:
        data = row.data
        history = data["history"]
        rows = tr.standings(data["seeds"], rounds_of(data), int(data["per_table"]))
        _ = await self.session.languages.public(row.guild_id)
        card = StandingsCard(
            title=f"#{row.id} · {title_of(data['game'], _)}",
            subtitle=(
                _("The final standings ({format})", format=format_name(data, _))
                if final
                else _(
                    "{format}: after round {n} of {total}",
                    format=format_name(data, _),
                    n=len(history),
                    total=total_rounds(data),
                )
            ),
            rows=tuple(rows),
            names=names_of(data),
            buchholz=data["format"] == "swiss",
            dropped=tuple(data.get("dropped", ())),
        )
        image = await draw(services(self.bot).images, row.id, functools.partial(standings_png, card, _.lang))
        tag = "f" if final else f"s{len(history)}"
        await self._send(row, standings_text(row, rows, _, final=final), f"t{row.id}{tag}", image)
        if final:
            return None
        return await self._with_round(row, {**history[-1], "posted": True}, due_at=time.time())

    async def _finish(self, row: TournamentRow) -> None:
        """The final standings (a retry after a crash posts them once: the nonce), then the tournament is over."""
        await self._post_standings(row, final=True)
        await self.session.storage.update_tournament(row, data=row.data, status="finished", due_at=None)
        await self.refresh_signup(row.id)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(TournamentButton)
    await bot.add_cog(TournamentCog(bot))
