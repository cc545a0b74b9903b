"""Keeping every game moving, the service half (no discord): deadlines, stand-ins, away players, undo.

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

`Session` inherits this; every change is one storage call with the notice it owes (the herald posts it).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import ai
import engine
from cogs._seating import GameError, encode, is_ai, staying, still_in
from engine import Text
from storage import Due, GameRow, Player, StaleVersion, Storage

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


def replayed(row: GameRow, moves: Iterable[Any]) -> Iterator[Any]:
    """The states of a game from the deal through each of `moves` (MoveRows, in order): the start, then the state
    after each move (the engines are deterministic). Pure, no I/O: undo uses it, and the replay viewer runs it in a
    drawing worker (cogs/replays.py)."""
    rules = engine.get_rules(row.game)
    state = rules.new_game(list(row.player_ids), row.options, row.seed)
    yield state
    for m in moves:
        state = rules.apply(state, m.player, rules.action_from_json(m.action))
        yield state


class Tempo:
    """Deadlines, stand-ins, away players and undo; the host class provides the session's helpers."""

    storage: Storage
    lock: Callable[[int], asyncio.Lock]
    rules: Callable[[str], engine.Rules[Any, Any]]
    changed: Callable[[int], None]

    async def load(self, game_id: int) -> GameRow:
        raise NotImplementedError

    def state_of(self, row: GameRow) -> Any:
        raise NotImplementedError

    def forget(self, game_id: int) -> None:
        raise NotImplementedError

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

    clock_start = staticmethod(lambda row: clock_start(row))

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
        hours = table.get("deadline")
        if not humans and gone and hours:  # the clock waits for the first to come back
            table["phase"] = "away"
            return Due(ai=ai, deadline_at=min(away[p].away_until or now for p in gone)), table
        if not humans:
            return Due(ai=ai), table
        if restart:
            table["since"] = [row.turns, now]
        if hours:  # the clock starts at "warn" (no phase): the warning comes first
            return Due(remind_at=now + hours * 1800, ai=ai, deadline_at=now + hours * 3600 - warn_before(hours)), table
        remind = now + row.reminder_hours * 3600 if row.reminder_hours > 0 else None
        return Due(remind_at=remind, ai=ai), table

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
        return self.clock(row, table, new, away, now)

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
    ) -> GameRow:
        """The creator changes the deadline (hours, None: none; False: unchanged), what happens when nobody
        decides, whether stand-ins are allowed and the table's AI `level` (how they play)."""
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
        hours = table.get("deadline")
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
        if phase == "warn":
            table["phase"] = "due"
            return await self._set(row, table, start + hours * 3600, ("deadline", {"phase": "warn", "player": late}))
        if phase == "due":
            table.update(phase="decide", late=late)
            return await self._set(row, table, now + hours * 3600, ("deadline", {"phase": "late", "player": late}))
        if table.get("on_timeout", "ai") == "ai" and table.get("standins", True):  # nobody decided: the default
            late = table.pop("late", late)
            table.pop("phase", None)
            table["sub"] = {**table.get("sub", {}), late: "turn"}
            return await self._set(row, table, None, ("deadline", {"phase": "auto", "player": late}), ai=True)
        table["phase"] = "due"
        return await self._set(row, table, now + hours * 3600, ("deadline", {"phase": "wait", "player": late}))

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
            deadline = time.time() + hours * 3600
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

    # -- undo --------------------------------------------------------------------------------------------

    async def replay(self, row: GameRow, moves: list[Any]) -> list[Any]:
        """The states of the game from the deal through each of `moves` (MoveRows): [start, after 1, ...]."""
        return list(replayed(row, moves))

    async def undo(self, game_id: int, player: str) -> tuple[GameRow, str]:
        """Take back `player`'s last turn: at once if nobody acted since and it revealed nothing; with the
        consent of every other human if others acted since (or an AI seat did); never past something revealed
        (a draw, a refill). Returns the row and "done" or "asked"."""
        async with self.lock(game_id):
            row = still_in(await self.load(game_id), player)
            if row.status != "active" or player not in row.player_ids:
                raise GameError(Text("Only a player of a running game can take a move back."))
            if row.table.get("undo"):
                raise GameError(Text("An undo is already waiting for the table's answer."))
            moves = await self.storage.moves(game_id)
            mine = [m.move_number for m in moves if m.player == player]
            if not mine:
                raise GameError(Text("You have no move to take back."))
            first = mine[-1]
            while first - 1 >= 1 and moves[first - 2].player == player:  # the whole turn: its earlier actions too
                first -= 1
            states = await self.replay(row, moves)
            rules = self.rules(row.game)
            for m in moves[first - 1 :]:
                before, after = states[m.move_number - 1], states[m.move_number]
                if rules.reveals(before, m.player, rules.action_from_json(m.action), after):
                    what = rules.describe(rules.action_from_json(m.action))
                    # i18n: undo refused: {what} is the move that revealed something
                    text = Text('That can\'t be taken back: "{what}" revealed something hidden (a card, a tile or a refill everyone has seen since). Nothing was changed.', what=what)  # fmt: skip
                    raise GameError(text)
            keep = first - 1
            others = [p for p in staying(row) if p != player]  # those who left have no say
            if all(m.player == player for m in moves[keep:]) or not others:
                return await self._take_back(row, moves, states, keep, player), "done"
            table = {**row.table, "undo": {"by": player, "keep": keep, "need": others, "yes": []}}
            asked = await self.storage.update_table(
                game_id,
                expect=row.table,
                table=table,
                deadline_at=row.deadline_at,
                notice=("undo_asked", {"by": player, "keep": keep, "version": row.version}),
            )
            if asked is None:
                raise GameError(Text("The table changed meanwhile; try again."))
            self.changed(game_id)
            return asked, "asked"

    async def consent(self, game_id: int, player: str, keep: int, yes: bool) -> tuple[GameRow, str]:
        """A player's answer to a pending undo: the first "no" ends it; the last "yes" carries it out."""
        async with self.lock(game_id):
            row = await self.load(game_id)
            ask = row.table.get("undo")
            if not ask or ask["keep"] != keep:
                raise GameError(Text("That undo was settled already: nothing was changed."))
            if player not in ask["need"]:
                raise GameError(Text("This undo waits for the other players' answers, not yours."))
            table = {k: v for k, v in row.table.items() if k != "undo"}
            if not yes:
                done = await self.storage.update_table(
                    game_id,
                    expect=row.table,
                    table=table,
                    deadline_at=row.deadline_at,
                    notice=("undo_refused", {"by": ask["by"], "no": player}),
                )
                if done is None:
                    raise GameError(Text("The table changed meanwhile; try again."))
                self.changed(game_id)
                return done, "refused"
            ask = {**ask, "yes": sorted({*ask["yes"], player})}
            if set(ask["yes"]) < set(ask["need"]):
                done = await self.storage.update_table(
                    game_id, expect=row.table, table={**table, "undo": ask}, deadline_at=row.deadline_at
                )
                if done is None:
                    raise GameError(Text("The table changed meanwhile; try again."))
                return done, "waiting"
            moves = await self.storage.moves(game_id)
            states = await self.replay(row, moves)
            return await self._take_back(dataclasses.replace(row, table=table), moves, states, keep, ask["by"]), "done"

    async def _take_back(self, row: GameRow, moves: list[Any], states: list[Any], keep: int, by: str) -> GameRow:
        rules = self.rules(row.game)
        state = states[keep]
        kept = moves[:keep]
        turns = sum(not rules.is_free_action(rules.action_from_json(m.action)) for m in kept)
        table = {k: v for k, v in row.table.items() if k not in ("undo", "phase", "late", "since")}
        now = time.time()
        away = await self.storage.players(self.movers(row, state))
        due, table = self.clock(row, table, state, away, now)
        undone = [[m.player, m.action] for m in moves[keep:]]
        try:
            done = await self.storage.undo(
                row,
                keep=keep,
                state_json=encode(rules, state),
                turns=turns,
                by=by,
                table=table,
                due=due,
                notice=("undo", {"by": by, "moves": undone}),
                now=now,
            )
        except StaleVersion:
            raise GameError(Text("Someone moved meanwhile: nothing was taken back.")) from None
        self.forget(row.id)
        self.changed(row.id)
        return done

    # -- away --------------------------------------------------------------------------------------------

    async def set_away(self, player: str, until: float | None, ai: bool) -> list[int]:
        """Away (until a time) or back (None); with `ai`, the AI plays their turns meanwhile where the table
        allows. Returns the running games whose AI should look at once (the player is to move there)."""
        me = await self.storage.player(player)
        now = time.time()
        was = me.away(now)
        await self.storage.set_player(Player(player, until, ai and until is not None, me.skip_confirm, me.locale))
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
