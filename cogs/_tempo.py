"""Keeping every game moving, the service half (no discord): deadlines, stand-ins, away players, nudges.

The table's arrangements live in the game row's `table` (plain JSON, changed only by compare-and-set, so of two
clicks on one decision the first wins):

    deadline    hours a player has for a turn (None: no deadline; reminders then follow `reminder_hours`)
    on_timeout  "ai" | "wait": what happens when the table does not decide within one more deadline
    standins    whether the AI may stand in for absent players at this table (default True)
    ai_level    how the AI plays when it stands in for a player ("easy" | "normal" | "hard"; default normal)
    phase       where the player to move is on the clock: none (the warning is next), "due" (the deadline
                is next), "decide" (it passed: the table decides, the default follows at the next deadline),
                "away" (the clock waits: every human to move is away; `deadline_at` is when the first is back)
    since       [turns, time]: the clock of turn number `turns` started at `time`, not at the turn's start
                (the player came back from away mode, or took their seat back from a stand-in)
    late        the player whose deadline passed (phase "decide")
    sub         {player: "turn" | "back" | "left"}: the AI plays for them this turn, until back, or to the end
    left        players who left the running game for good (cogs/_leaving.py): the AI plays them, ranked last
    undo        a pending undo asking for consent: {"by", "keep", "need", "yes"}
    posts       "every" (a post per move, the default) | "compact" (one living board: cogs/_compact.py)
    bank        [start, add, most] hours: a chess clock per player instead of a per-move deadline; `banks`
                {player: seconds left} (cogs/_bank.py)
    vacation    days each player may be late once a deadline passed, before the table is asked; `vacations`
                {player: days used}; `extended` [turns, end]: a vacation day moved that turn's deadline to `end`

A part of `Session`; every change is one storage call with the notice it owes (the herald posts it).
"""

from __future__ import annotations

import dataclasses
import math
import time
from typing import Any, Literal

import ai
from cogs import _bank
from cogs._core import Part
from cogs._quiet import awake_after, quiet_until
from cogs._seating import GameError, is_ai, staying, still_in
from engine import Text
from storage import Due, GameRow, Player

DEADLINES = (12, 24, 48, 72, 168)  # the presets, in hours
AI_LEVEL = "normal"  # how a stand-in plays where the table did not choose


def ai_level(table: dict[str, Any]) -> str:
    """The table's AI level: how the AI plays for a late, away or departed human (`/game create ai_level`,
    `/game settings ai_level`)."""
    return str(table.get("ai_level", AI_LEVEL))


def warn_before(deadline_hours: float) -> float:
    """Seconds before the deadline that the player is warned: a tenth of it, at most two hours."""
    return min(deadline_hours * 360, 7200.0)


def clock_start(row: GameRow) -> float | None:
    """When the clock of the turn under way started: the turn's start, or the player's return."""
    since = row.table.get("since")
    if since and since[0] == row.turns:
        return float(since[1])
    return row.turn_started_at


class Tempo(Part):
    """Deadlines, stand-ins, away players and nudges: a part of the session over its core (cogs/_core.py)."""

    # -- what a position owes the clock ------------------------------------------------------------------

    def movers(self, row: GameRow, state: Any) -> list[str]:
        """Who is to move for their turn (not those who only may act out of turn)."""
        rules = self.rules(row.game)
        side = set(rules.out_of_turn(state))
        return [p for p in rules.to_move(state) if p not in side] if not rules.is_over(state) else []

    def played_by_ai(
        self, row: GameRow, table: dict[str, Any], player: str, away: dict[str, Player], now: float
    ) -> bool:
        """An AI seat, or a human the AI stands in for (by the table's decision, or away with the AI on)."""
        if is_ai(player):
            return True
        if player in table.get("sub", {}):
            return True
        mine = away.get(player)
        return bool(mine and mine.away(now) and mine.away_ai and table.get("standins", True))

    clock_start = staticmethod(clock_start)

    def clock(
        self,
        row: GameRow,
        table: dict[str, Any],
        state: Any,
        away: dict[str, Player],
        now: float,
        *,
        restart: bool = False,
    ) -> tuple[Due, dict[str, Any]]:
        """After a turn begins at `now`: when to remind, the next deadline, whether an AI acts, the table. With
        `restart`, the clock of the turn under way starts again at `now` (a player came back): the one function
        that writes every turn's due times, the first turn's included."""
        movers = self.movers(row, state)
        table = {k: v for k, v in table.items() if k not in ("phase", "late")}
        if table.get("since") and table["since"][0] != row.turns:
            del table["since"]  # an earlier turn's (a free action keeps this turn's)
        to_move = self.rules(row.game).to_move(state) if movers else []
        ai = any(self.played_by_ai(row, table, p, away, now) for p in to_move)
        bots = [p for p in movers if self.played_by_ai(row, table, p, away, now)]
        gone = [p for p in movers if p not in bots and away.get(p) and away[p].away(now)]
        humans = [p for p in movers if p not in bots and p not in gone]
        if not humans and gone and _bank.timed(table):  # the clock waits for the first to come back
            table["phase"] = "away"
            return Due(ai=ai, deadline_at=min(away[p].away_until or now for p in gone)), table
        if not humans:
            return Due(ai=ai), table
        if restart:
            table["since"] = [row.turns, now]
        hours = _bank.turn_hours(table, humans)  # the per-move deadline, or what is left of their time bank
        quiet = [away[p] for p in humans if p in away and away[p].quiet]  # their clock waits over their nights
        # a turn that begins in someone's night pings them in their morning (the post named them, unpinged)
        morning = min((t for t in (quiet_until(p, now) for p in quiet) if t is not None), default=None)
        if hours:  # the clock starts at "warn" (no phase): the warning comes first
            remind: float | None = min(awake_after(now, hours * 1800, quiet), morning or math.inf)
            warn = awake_after(now, hours * 3600 - warn_before(hours), quiet)
            return Due(remind_at=remind, ai=ai, deadline_at=warn), table
        remind = awake_after(now, row.reminder_hours * 3600, quiet) if row.reminder_hours > 0 else None
        if morning is not None:
            remind = min(remind or math.inf, morning)
        return Due(remind_at=remind, ai=ai), table

    def deadline_end(self, row: GameRow, state: Any, players: dict[str, Player]) -> float | None:
        """When the deadline of the turn under way ends: a whole deadline of time outside the quiet hours of the
        humans to move (`players`: their settings) from the turn's clock start; None without a deadline."""
        start = self.clock_start(row)
        extended = row.table.get("extended")
        if extended and extended[0] == row.turns:  # a vacation day moved it
            return float(extended[1])
        sub = row.table.get("sub", {})
        humans = [p for p in self.movers(row, state) if p not in sub and not is_ai(p)]
        hours = _bank.turn_hours(row.table, humans)
        if not hours or start is None:
            return None
        quiet = [players[p] for p in humans if p in players]
        return awake_after(start, hours * 3600, quiet)

    def after_move(
        self,
        row: GameRow,
        state: Any,
        new: Any,
        player: str,
        *,
        standin: bool,
        away: dict[str, Player],
        now: float,
        action: Any = None,
    ) -> tuple[Due, dict[str, Any]]:
        """The table and the clock after `player`'s `action` (`standin`: the AI made it for them)."""
        table = dict(row.table)
        sub = dict(table.get("sub", {}))
        if not standin:
            sub.pop(player, None)  # playing yourself is being back
        movers = self.movers(row, new)
        rules = self.rules(row.game)
        for p, mode in list(sub.items()):
            if mode != "turn":
                continue
            if p == player and action is not None and not rules.is_free_action(action):
                over = rules.turn_over(state, player, action, new)  # the engine says when a turn ends
            else:
                over = p not in movers
            if over:
                del sub[p]  # the turn the AI played for them is over
        table["sub"] = sub
        if not sub:
            del table["sub"]
        if (
            _bank.bank_of(table) and action is not None and not rules.is_free_action(action)
        ):  # it spends the turn's time
            over = not is_ai(player) and (player not in movers or rules.turn_over(state, player, action, new))
            before = [p for p in self.movers(row, state) if not is_ai(p) and p not in row.table.get("sub", {})]
            table = _bank.spend(
                table, away, before, player, start=self.clock_start(row), now=now, standin=standin, turn_over=over
            )
        table.pop("extended", None)
        return self.clock(row, table, new, away, now)

    def dm_to(self, payload: dict[str, Any], players: dict[str, Player], now: float) -> list[str]:
        """Whom a move's post pings whose settings ask for a DM when their turn begins (`/prefs dm:turn`), not
        in their quiet hours (the reminder at its end brings it): the herald sends them after the post."""
        before = {*payload["before"], payload["player"]} - set(payload.get("fresh", ()))
        quiet = set(payload.get("quiet", ())) | set(payload["side"])
        pinged = [p for p in payload["to_move"] if p not in before and p not in quiet and not is_ai(p)]
        return [p for p in pinged if p in players and players[p].dm == "turn" and quiet_until(players[p], now) is None]

    # -- the table's settings ----------------------------------------------------------------------------

    async def settings(
        self,
        game_id: int,
        player: str,
        *,
        deadline: int | None | bool = False,
        on_timeout: str | None = None,
        standins: bool | None = None,
        level: str | None = None,
        posts: str | None = None,
        bank: tuple[float, float, float] | None | Literal[False] = False,
        vacation: int | None = None,
        hints: bool | None = None,
    ) -> GameRow:
        """The creator changes the deadline (hours, None: none; False: unchanged), what happens when nobody
        decides, whether stand-ins are allowed, the table's AI `level` (how they play), its `posts` ("every":
        a post per move; "compact": one living board, cogs/_compact.py) and whether the coach gives `hints`
        (cogs/_coach.py; off unless the creator says so)."""
        async with self.lock(game_id):
            row = await self.load(game_id)
            if player != row.creator_id:
                name = row.seat_name(row.creator_id)
                raise GameError(Text("Only the creator ({name}) can change the settings.", name=name))
            if row.status not in ("lobby", "active"):
                raise GameError(Text("This game is over."))
            table = dict(row.table)
            if deadline is not False:
                if deadline is not None and deadline not in DEADLINES:
                    choices = ", ".join(f"{h} h" for h in DEADLINES)
                    # i18n: /game settings: {choices} are the deadlines in hours ("12 h, 24 h, …")
                    raise GameError(Text("A deadline is one of {choices}, or none.", choices=choices))
                table["deadline"] = deadline
            if on_timeout is not None:
                table["on_timeout"] = on_timeout
            if standins is not None:
                table["standins"] = standins
            if level is not None:
                if level not in ai.LEVELS:
                    levels = ", ".join(ai.LEVELS)
                    raise GameError(
                        Text("There is no AI level `{level}`. Levels: {levels}.", level=level, levels=levels)
                    )
                table["ai_level"] = level
            if posts is not None:
                if posts not in ("every", "compact"):
                    raise GameError(Text("Posts are `every` or `compact`."))
                if posts == "compact" and table.get("posts") != "compact":
                    await self.storage.set_board_message(game_id, None)  # a new board, below the posts so far
                table["posts"] = posts
            if bank is None or isinstance(bank, tuple):  # False (the default): the bank is left as it is
                if bank is None:
                    table.pop("bank", None)
                else:
                    table["bank"] = list(bank)
                table.pop("banks", None)  # a new bank: everyone starts full
            if vacation is not None:
                table["vacation"] = vacation
            if hints is not None:
                table["hints"] = hints
            if row.status == "lobby":
                return await self.storage.update_lobby(game_id, table=table)
            state = self.state_of(row)
            away = await self.storage.players(self.movers(row, state))
            start = self.clock_start(row) or time.time()
            due, table = self.clock(row, table, state, away, start, restart=start != row.turn_started_at)
            done = await self.storage.update_table(game_id, expect=row.table, table=table, deadline_at=due.deadline_at)
            if done is None:
                raise GameError(Text("The table changed meanwhile; try again."))
            return done

    # -- deadlines ---------------------------------------------------------------------------------------

    async def deadline_passed(self, row: GameRow, now: float) -> bool:
        """One step of the clock of a game whose deadline passed: the warning, then the deadline itself (the
        table is asked to decide), then, one deadline later, the default. Once only, whatever else looks."""
        table = dict(row.table)
        hours = table.get("deadline") or (24 if _bank.timed(table) else None)  # the table's time to decide
        state = self.state_of(row)
        movers = [p for p in self.movers(row, state) if not is_ai(p) and p not in table.get("sub", {})]
        phase = table.get("phase", "warn")
        away = await self.storage.players(movers) if movers and row.status == "active" else {}
        here = [p for p in movers if not (p in away and away[p].away(now))]  # the away are never warned
        if row.status == "active" and (phase == "away" or (movers and not here)):
            # the first of those away is back: the clock starts again (or it waits on, for those still away)
            due, table = self.clock(row, table, state, away, now, restart=phase == "away")
            return await self._set(row, table, due.deadline_at, None)
        if not hours or not movers or row.status != "active":
            return await self._set(row, table, None, None)
        late = here[0]
        start = self.clock_start(row) or now
        quiet = [away[p] for p in here if away[p].quiet]  # the table's deadlines, too, wait over their nights
        later = awake_after(now, hours * 3600, quiet)
        if phase == "warn":
            table["phase"] = "due"
            end = self.deadline_end(row, state, away) or start + hours * 3600
            warning = {"phase": "warn", "player": late, "ends": end}
            if away[late].dm == "deadline":  # `/prefs dm:deadline`: the warning comes by DM too (the herald)
                warning["dm"] = [late]
            return await self._set(row, table, end, ("deadline", warning))
        if phase == "due" and _bank.take_vacation(table, late) is not None:  # a vacation day, before the table
            ends = awake_after(now, _bank.DAY, [away[late]])
            table["extended"] = [row.turns, ends]
            days = _bank.vacation_left(table, late)
            return await self._set(row, table, ends, ("deadline", {"phase": "vacation", "player": late, "left": days, "ends": ends}))  # fmt: skip
        if phase == "due":
            table.update(phase="decide", late=late)
            return await self._set(row, table, later, ("deadline", {"phase": "late", "player": late}))
        if table.get("on_timeout", "ai") == "ai" and table.get("standins", True):  # nobody decided: the default
            late = table.pop("late", late)
            table.pop("phase", None)
            table["sub"] = {**table.get("sub", {}), late: "turn"}
            return await self._set(row, table, None, ("deadline", {"phase": "auto", "player": late}), ai=True)
        table["phase"] = "due"
        return await self._set(row, table, later, ("deadline", {"phase": "wait", "player": late}))

    async def _set(
        self,
        row: GameRow,
        table: dict[str, Any],
        deadline_at: float | None,
        notice: tuple[str, dict[str, Any]] | None,
        *,
        ai: bool = False,
    ) -> bool:
        done = await self.storage.update_table(
            row.id, expect=row.table, table=table, deadline_at=deadline_at, notice=notice
        )
        if done is not None and ai:
            await self.storage.set_ai_due(row.id, row.version, True)
        if done is not None:
            self.changed(row.id)
        return done is not None

    async def decide(self, game_id: int, player: str, choice: str, turns: int) -> tuple[GameRow, str]:
        """The table's answer to a passed deadline: "turn" (the AI plays this turn for the late player), "back"
        (until they are back) or "wait" (one more deadline). Any seated human but the late player; the first
        answer wins."""
        row = await self.load(game_id)
        table = dict(row.table)
        late = table.get("late")
        if row.status != "active" or table.get("phase") != "decide" or late is None or row.turns != turns:
            raise GameError(Text("This was decided already, or the game moved on: nothing was changed."))
        if player == late:
            raise GameError(Text("You are back in time: just play your move."))
        if player not in staying(row):
            raise GameError(Text("Only the players of this game decide."))
        if choice != "wait" and not table.get("standins", True):
            raise GameError(Text("This table does not let the AI stand in for players."))
        table.pop("late", None)
        hours = table.get("deadline") or 24
        if choice == "wait":
            table["phase"] = "due"
            deadline = awake_after(time.time(), hours * 3600, [await self.storage.player(late)])  # not in their night
        else:
            table.pop("phase", None)
            table["sub"] = {**table.get("sub", {}), late: choice}
            deadline = None
        done = await self.storage.update_table(
            game_id,
            expect=row.table,
            table=table,
            deadline_at=deadline,
            notice=("decided", {"by": player, "player": late, "choice": choice}),
        )
        if done is None:
            raise GameError(Text("Someone decided first: nothing was changed."))
        if choice != "wait":
            await self.storage.set_ai_due(game_id, row.version, True)
        self.changed(game_id)
        return done, late

    async def back(self, game_id: int, player: str) -> GameRow:
        """The player the AI stands in for takes their seat back (not one who left the game for good)."""
        row = still_in(await self.load(game_id), player)
        table = dict(row.table)
        sub = dict(table.get("sub", {}))
        if player not in sub:
            raise GameError(Text("Nobody is playing for you here: it's all yours."))
        del sub[player]
        table["sub"] = sub
        if not sub:
            del table["sub"]
        state = self.state_of(row)
        away = await self.storage.players(self.movers(row, state))
        due, table = self.clock(row, table, state, away, time.time(), restart=True)
        done = await self.storage.update_table(
            game_id, expect=row.table, table=table, deadline_at=due.deadline_at, notice=("back", {"player": player})
        )
        if done is None:
            raise GameError(Text("The table changed meanwhile; try again."))
        await self.storage.set_ai_due(game_id, row.version, due.ai)
        self.changed(game_id)
        return done

    # -- away --------------------------------------------------------------------------------------------

    async def set_away(self, player: str, until: float | None, ai: bool) -> list[int]:
        """Away (until a time) or back (None); with `ai`, the AI plays their turns meanwhile where the table
        allows. Returns the running games whose AI should look at once (the player is to move there)."""
        me = await self.storage.player(player)
        now = time.time()
        was = me.away(now)
        await self.storage.set_player(dataclasses.replace(me, away_until=until, away_ai=ai and until is not None))
        waiting = []
        for row in await self.storage.games_of(player, limit=100):
            if row.status != "active":
                continue
            state = self.state_of(row)
            movers = self.movers(row, state)
            if player not in movers:
                continue
            if was != (until is not None and until > now):
                await self._recount(row, state, movers, now)  # their turn's due times, away or back
            await self.storage.set_ai_due(row.id, row.version, True)  # the AI worker looks, and clears it
            waiting.append(row.id)
        return waiting

    async def set_quiet(self, player: str, quiet: str | None, timezone: str | None) -> Player:
        """A player's quiet hours ("HH:MM-HH:MM", None: none) in their IANA `timezone`; the clocks of their
        pending turns are counted again from each turn's start (one that already warned or passed keeps on), and
        a reminder already scheduled for them moves out of their (new) night."""
        me = dataclasses.replace(await self.storage.player(player), quiet=quiet, timezone=timezone)
        await self.storage.set_player(me)
        now = time.time()
        for row in await self.storage.games_of(player, limit=100):
            if row.status != "active" or row.table.get("undo"):
                continue
            state = self.state_of(row)
            movers = self.movers(row, state)
            if player not in movers:
                continue
            players = await self.storage.players(movers)
            start = self.clock_start(row) or now
            due, table = self.clock(row, row.table, state, players, start)
            if row.remind_at is not None:  # counted again, then never before now nor in anyone's night
                at = max(due.remind_at or row.remind_at, now)
                for _night in range(len(players) + 1):
                    at = max([at, *(t for t in (quiet_until(p, at) for p in players.values()) if t is not None)])
                await self.storage.move_reminder(row.id, row.turns, at)
            if _bank.timed(row.table) and not row.table.get("phase"):
                await self.storage.update_table(row.id, expect=row.table, table=table, deadline_at=due.deadline_at)
        return me

    async def _recount(self, row: GameRow, state: Any, movers: list[str], now: float) -> None:
        """The clock of a pending turn after one of its players went away or came back: stopped while every
        human to move is away, started again (a whole deadline) from the return. Reminders that fall due
        meanwhile are dropped when they are claimed (cogs/turns.py)."""
        if row.table.get("undo"):
            return  # the table is answering an undo; the turn's clock follows it
        away = await self.storage.players(movers)
        back = row.table.get("phase") == "away"  # the clock was waiting for them
        due, table = self.clock(row, row.table, state, away, now, restart=True)
        if back or table.get("phase") == "away":  # else others are still on the clock: it goes on as it was
            await self.storage.update_table(row.id, expect=row.table, table=table, deadline_at=due.deadline_at)

    # -- nudges ------------------------------------------------------------------------------------------

    async def nudge(
        self, game_id: int, player: str, *, min_gap: float = 3600, now: float | None = None
    ) -> tuple[GameRow, list[str]]:
        """Allow a nudge at most once per `min_gap` seconds per game (and not at your own turn). Returns the row
        and whom the nudge addresses (and pings): the humans whose turn it is, not the nudger, not those who
        only may act out of turn, not those the AI plays for, not those away."""
        now = time.time() if now is None else now
        async with self.lock(game_id):
            row = await self.load(game_id)
            if row.status != "active":
                raise GameError(Text("Only a running game can be nudged."))
            sub = row.table.get("sub", {})
            humans = [p for p in self.movers(row, self.state_of(row)) if not is_ai(p) and p not in sub]
            if not humans:  # AI seats (and stand-ins) play by themselves; nudging them would only ping nobody
                raise GameError(Text("An AI player is to move: it plays by itself, in a moment."))
            if humans == [player]:
                raise GameError(Text("It's your own turn!"))
            others = [p for p in humans if p != player]
            away = await self.storage.players(others)
            addressed = [p for p in others if not away[p].away(now) and quiet_until(away[p], now) is None]
            night = [t for t in (quiet_until(away[p], now) for p in others) if t is not None]
            if not addressed and night:
                # i18n: /game nudge refused: {until} is a Discord timestamp relative to now ("in 3 hours")
                raise GameError(
                    Text("It is night for them until {until}: nobody pings them meanwhile.", until=f"<t:{int(max(night))}:R>")
                )  # fmt: skip
            if not addressed:
                until = max(away[p].away_until or now for p in others)
                # i18n: /game nudge refused: {until} is a Discord timestamp relative to now ("in 3 days")
                raise GameError(
                    Text("They are away until {until}: nobody pings them meanwhile.", until=f"<t:{int(until)}:R>")
                )
            last = row.nudged_at or 0
            if now - last < min_gap:
                wait = int((min_gap - (now - last)) // 60) + 1
                raise GameError(
                    Text(
                        "Give them a moment: you can nudge again in {n} min.",
                        "Give them a moment: you can nudge again in {n} min.",
                        n=wait,
                    )
                )
            await self.storage.mark_nudged(game_id, now)
            return row, addressed
