"""The session service: the one path by which a game is created, joined, started and played.

Every entry point (buttons, selects, slash commands, reminders, AI seats) goes through `Session`, so the checks,
the locking and the transaction are in one place. No discord here: methods take plain ids and return records;
the cogs turn them into messages. `act` is the heart of it:

    per-game lock -> load the row -> rules.apply -> ONE transaction: the move, the new state and the notice the
    channel is owed (optimistic version check) -> MoveResult (what happened, who is to move)

The public post itself is made from the notice by `cogs._herald`, which removes it only once it was sent: a move
is never lost, half-applied or silenced, even by a crash. After every committed move (and start) the session
calls its `listeners` with the game id: that is how the herald and the AI seats learn a game moved on.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import json
import logging
import time
import zlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import engine
from cogs._core import STATES, Core
from cogs._locale import Languages
from cogs._seating import GameError, Position, encode, is_ai, position, undos_of
from cogs._seats import Seating
from cogs._substitutes import Substitutes
from cogs._tempo import Tempo
from cogs._undo import Undo
from engine import Text
from records.figures import finish_of
from storage import Due, GameRow, MoveRow, StaleVersion, Storage

log = logging.getLogger(__name__)

# The log kind the engines write for every turn action (for the images' last-move mark): the bot prints the
# action's own text instead, so such entries never become lines.
MOVE_EVENT = "move"


LISTINGS = 64  # listings kept (`Session.listing`): the positions players are looking at right now


class StaleMove(GameError):
    """The game moved on since the panel or command was prepared (its `text` says who played what)."""


class Closing(GameError):
    """The bot is shutting down and takes no new moves."""


@dataclasses.dataclass(frozen=True, slots=True)
class MoveResult:
    """What one applied action produced, for the acting player's own reply (the public post is the notice's)."""

    row: GameRow  # the stored game after the move
    player: str  # who acted
    action_text: Any  # rules.describe(action): "takes the blue 7" (a Text, or English): show with `_.text`
    private_events: tuple[Any, ...]  # new log entries' texts private to the actor, for their ephemeral reply
    to_move: tuple[str, ...]
    finished: bool
    free: bool = False  # a free action: not a turn action, whose move it is did not change
    replayed: bool = False  # the same click was already played (a retry or a double click): nothing new stored


class Session(Core):
    """Game lifecycle and moves over a `Storage`, one per bot: the core (cogs/_core.py) with the moves on it,
    built from its parts (the table, the clock, undo, substitutes), whose operations it offers under their own names (the cogs call them on the session)."""

    def __init__(self, storage: Storage, *, state_cache_size: int = STATES):
        super().__init__(storage, state_cache_size=state_cache_size)
        self.tempo = tempo = Tempo(self)
        self.seating = seating = Seating(self, tempo)
        self.undos = undos = Undo(self, tempo)
        # the table (cogs/_seats.py)
        self.check_seated, self.check_player = seating.check_seated, seating.check_player
        self.create, self.join, self.leave, self.cancel = seating.create, seating.join, seating.leave, seating.cancel
        self.add_ai, self.remove_ai, self.set_options = seating.add_ai, seating.remove_ai, seating.set_options
        self.start, self.in_channel = seating.start, seating.in_channel
        # the clock (cogs/_tempo.py)
        self.movers, self.played_by_ai, self.clock_start = tempo.movers, tempo.played_by_ai, tempo.clock_start
        self.clock, self.deadline_end, self.after_move, self.dm_to = (
            tempo.clock,
            tempo.deadline_end,
            tempo.after_move,
            tempo.dm_to,
        )
        self.settings, self.deadline_passed, self.decide, self.back = (
            tempo.settings,
            tempo.deadline_passed,
            tempo.decide,
            tempo.back,
        )
        self.set_away, self.set_quiet, self.nudge = tempo.set_away, tempo.set_quiet, tempo.nudge
        # undo (cogs/_undo.py)
        self.replay, self.undo, self.consent = undos.replay, undos.undo, undos.consent
        # a substitute for a vacant seat (cogs/_substitutes.py)
        self.substitutes = substitutes = Substitutes(self)
        self.ask_seat, self.seat_consent = substitutes.ask_seat, substitutes.seat_consent
        self.languages = Languages(storage)  # each server's language for public posts (cogs/_locale.py)
        self.closing = False  # set at shutdown: no new move is taken, the ones under way finish
        self._busy = 0
        # the legal actions of a player at a position, and their fingerprint (`listing`): most recent last
        self._listings: collections.OrderedDict[tuple[Position, str], tuple[tuple[Any, ...], str]] = (
            collections.OrderedDict()
        )
        self._idle = asyncio.Event()
        self._idle.set()
        # test hook: awaited at a named step ("committed"); a test stops the bot there to simulate a crash
        self.fault: Callable[[str], Awaitable[None]] | None = None

    # -- shutting down -----------------------------------------------------------------------------------

    async def drain(self, timeout: float) -> bool:
        """Refuse new moves and wait (at most `timeout` s) for those under way; True if none is left."""
        self.closing = True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def _enter(self) -> None:
        if self.closing:
            raise Closing(Text("The bot is restarting: nothing was changed. Try again in a minute."))
        self._busy += 1
        self._idle.clear()

    def _leave(self) -> None:
        self._busy -= 1
        if not self._busy:
            self._idle.set()

    # -- playing -----------------------------------------------------------------------------------------

    def to_move(self, row: GameRow) -> list[str]:
        if row.status != "active":
            return []
        return self.rules(row.game).to_move(self.state_of(row))

    def out_of_turn(self, row: GameRow, state: Any | None = None) -> tuple[str, ...]:
        """Players who are in to_move only because they may act out of turn (the rules' `out_of_turn`), not the
        player whose turn it is."""
        if row.status != "active" and state is None:
            return ()
        rules = self.rules(row.game)
        state = self.state_of(row) if state is None else state
        side = set(rules.out_of_turn(state))
        return tuple(p for p in rules.to_move(state)[1:] if p in side)

    def free_actions(self, row: GameRow, player: str) -> list[Any]:
        """Actions `player` may take at any time, whoever is to move (the rules' `free_actions`)."""
        if row.status != "active" or player not in row.player_ids:
            return []
        return list(self.rules(row.game).free_actions(self.state_of(row), player))

    def legal_actions(self, row: GameRow, player: str) -> list[Any]:
        """Every legal action for `player` now (empty if they may not act)."""
        return self.listing(row, player)[0]

    def listing(self, row: GameRow, player: str) -> tuple[list[Any], str]:
        """`player`'s legal actions now and the panel key of that list (`position`): listed once per position
        and player, then served from a small cache, as a move panel's every click and the /move suggestions
        (asked at every key a player types) list the same position again and again."""
        if row.status != "active" or player not in row.player_ids:
            return [], self.position(row, [])
        key = (position(row), player)
        hit = self._listings.get(key)
        if hit is None:
            actions = tuple(self.rules(row.game).legal_actions(self.state_of(row), player))
            hit = self._listings[key] = (actions, self.position(row, actions))
            while len(self._listings) > LISTINGS:
                self._listings.popitem(last=False)
        else:
            self._listings.move_to_end(key)
        return list(hit[0]), hit[1]

    def position(self, row: GameRow, actions: Sequence[Any]) -> str:
        """What a move panel (or a /move suggestion) was built on, as a short token for its custom_ids: the
        number of turn actions so far and a fingerprint of the listed actions, e.g. "12.1x3k9f".

        A click is served only if the token is the same now: any turn action since makes the panel stale (even
        one that leaves the list alike), and an index into `actions` always means the action it meant when the
        panel was drawn. A free action does not count as a turn and leaves every open panel valid; should an
        engine's free action ever change someone's list, the fingerprint makes that panel stale rather than wrong.
        """
        return f"{row.turns}.{self.fingerprint(row.game, actions)}"

    @staticmethod
    def fingerprint(game: str, actions: Sequence[Any]) -> str:
        """A short digest of a list of actions (their JSON, so it is the same after a restart)."""
        rules = engine.get_rules(game)
        data = json.dumps([rules.action_to_json(a) for a in actions], sort_keys=True, separators=(",", ":"))
        return f"{zlib.crc32(data.encode()):x}"

    async def played(self, game_id: int, player: str, origin: str, *, latest: bool = False) -> MoveResult | None:
        """The move `player` already confirmed from `origin` (the same panel choice), as a result to show them
        again; None if that click was never played. With `latest`, only if no turn action came after it (a typed
        suggestion reused turns later is a new attempt, not a retry)."""
        move = await self.storage.move_by_origin(game_id, player, origin)
        if move is None:
            return None
        row = await self.load(game_id)
        if latest and row.version != move.move_number:
            rules = self.rules(row.game)
            later = [m for m in await self.storage.moves(game_id) if m.move_number > move.move_number]
            if any(not rules.is_free_action(rules.action_from_json(m.action)) for m in later):
                return None
        return self._replayed(row, move)

    def _replayed(self, row: GameRow, move: MoveRow) -> MoveResult:
        rules = self.rules(row.game)
        state = self.state_of(row) if row.state_json is not None else None
        movers = tuple(rules.to_move(state)) if state is not None and row.status == "active" else ()
        return MoveResult(
            row=row,
            player=move.player,
            action_text=rules.describe(rules.action_from_json(move.action)),
            private_events=(),
            to_move=movers,
            finished=row.status == "finished",
            free=rules.is_free_action(rules.action_from_json(move.action)),
            replayed=True,
        )

    async def moved_on(self, row: GameRow, player: str) -> Text:
        """Why a move of `player` from a stale panel was not played: who played what since (their last turn)."""
        rules = self.rules(row.game)
        for m in reversed((await self.storage.moves(row.id))[-8:]):
            action = rules.action_from_json(m.action)
            if m.player != player and not rules.is_free_action(action) and not rules.is_private(action):
                who, what = row.seat_name(m.player), rules.describe(action)
                return Text(
                    "That move was not played: {who} already played: {action}. Nothing was changed; press "
                    "**Play my turn** for your choices now.", who=who, action=what
                )  # fmt: skip
        return Text(
            "That move was not played: the game has moved on. Nothing was changed; press **Play my turn** for your "
            "choices now."
        )

    async def act(
        self,
        game_id: int,
        player: str,
        action: Any,
        *,
        expected_version: int | None = None,
        expected_turns: int | None = None,
        origin: str | None = None,
        standin: bool = False,
    ) -> MoveResult:
        """Apply `action` for `player`: checked by the rules, stored with its notice in one transaction.

        `expected_version` is the move number the action was chosen at; if any move (free actions included) was
        stored since, StaleMove and nothing changes. `expected_turns` is the weaker check of the move panels:
        only a turn action since makes it stale, not someone's free action; the action itself is checked against
        the newest state either way. `origin` names the click (panel position and choice): if that very click
        was already played (a retry, a double click), the result of that move comes back with `replayed` set
        and nothing new is stored. IllegalAction propagates with the engine's message.
        """
        self._enter()
        try:
            async with self.lock(game_id):
                return await self._act(game_id, player, action, expected_version, expected_turns, origin, standin)
        finally:
            self._leave()

    async def _act(
        self,
        game_id: int,
        player: str,
        action: Any,
        expected_version: int | None,
        expected_turns: int | None,
        origin: str | None,
        standin: bool = False,
    ) -> MoveResult:
        row = await self.load(game_id)
        moved = (expected_version is not None and row.version != expected_version) or (
            expected_turns is not None and row.turns != expected_turns
        )
        if moved and origin is not None:
            move = await self.storage.move_by_origin(game_id, player, origin)
            if move is not None:
                return self._replayed(row, move)
        if moved and row.status == "active":
            raise StaleMove(await self.moved_on(row, player))
        rules = self.rules(row.game)
        free = rules.is_free_action(action)  # its player may take it at any time, whoever is to move
        state = self.check_seated(row, player, standin) if free else self.check_player(row, player, standin)
        new = rules.apply(state, player, action)  # IllegalAction: nothing was stored
        finished = rules.is_over(new)
        now = time.time()
        # those to move now, and (their time banks: cogs/_bank.py) those who were and the player
        involved = dict.fromkeys([*rules.to_move(new), *rules.to_move(state), player])
        away = await self.storage.players([p for p in involved if not is_ai(p)])
        due, table = self.after_move(row, state, new, player, standin=standin, away=away, now=now, action=action)
        notice = None
        if not rules.is_private(action):
            notice = ("move", self._notice(rules, row, state, new, player, action))
            notice[1]["standin"] = standin
            notice[1]["undos"] = undos_of(row)  # the history it belongs to: its board is `position(row, version)`
            if standin and player in self.movers(row, new) and player not in table.get("sub", {}):
                notice[1]["fresh"] = [player]  # the AI's turn for them is over: their own begins (a ping)
            notice[1]["quiet"] = [
                p
                for p in rules.to_move(new)  # named in the post but never pinged
                if self.played_by_ai(row, table, p, away, now) or (p in away and away[p].away(now))
            ]
            dm = self.dm_to(notice[1], away, now) if not free and not finished else []
            if dm:
                notice[1]["dm"] = dm  # by DM too, where they asked for it (the herald sends it after the post)
        # the game's end: its results and ratings are stored in the final move's transaction (records/)
        finish = finish_of(row.game, rules, new, [(s.id, s.name) for s in row.seats], table) if finished else None
        try:
            row = await self.storage.commit_move(
                row,
                player=player,
                action=rules.action_to_json(action),
                state_json=encode(rules, new),
                finished=finished,
                free=free,
                origin=origin,
                notice=notice,
                due=due if not free else Due(remind_at=None, ai=due.ai),
                table=table,
                now=now,
                standin=standin,
                finish=finish,
            )
        except StaleVersion:
            raise StaleMove(Text("Someone else moved first; nothing was changed. Have another look.")) from None
        self.remember(position(row), new)
        if self.fault is not None:
            await self.fault("committed")
        self.changed(game_id, row)  # the herald posts the notice; an AI seat to move starts thinking
        return MoveResult(
            row=row,
            player=player,
            action_text=rules.describe(action),
            private_events=tuple(e.text for e in new.log if e.private_to == player),
            to_move=tuple(rules.to_move(new)),
            finished=finished,
            free=free,
        )

    def _notice(
        self, rules: engine.Rules[Any, Any], row: GameRow, state: Any, new: Any, player: str, action: Any
    ) -> dict[str, Any]:
        """What the channel must be told about this move (plain JSON, posted by the herald)."""
        finished = rules.is_over(new)
        before_side = set(self.out_of_turn(row, state))  # out-of-turn players were never pinged: not "before"
        to_move = rules.to_move(new)
        fresh = [e for e in new.log if e.kind != MOVE_EVENT and e.private_to is None]
        return {
            "player": player,
            "action": rules.action_to_json(action),
            "events": [[e.player, e.text.to_json() if isinstance(e.text, engine.Text) else str(e.text)] for e in fresh],
            "to_move": to_move,
            "before": [p for p in rules.to_move(state) if p not in before_side],
            "side": [] if finished else list(self.out_of_turn(row, new)),
            "free": rules.is_free_action(action),
            "finished": finished,
            "scores": rules.scores(new),
            "winners": rules.winners(new) if finished else [],
            # an AI seat that carries on alone: its whole turn may be told in one post
            "continues": not finished and to_move == [player] and is_ai(player),
        }
