"""What every part of the session service shares (no discord): the storage, one lock per game, the cache of
decoded states by position, and the listeners told when a game moved on.

`cogs._session.Session` is this core with the moves on it, and it is built from parts that each hold the core:
`Seating` (cogs/_seating.py: the table), `Tempo` (cogs/_tempo.py: the clock, deadlines, away, nudges) and `Undo`
(cogs/_undo.py). A part reaches the others only through what it is given, never by inheriting them.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import Any

import engine
from cogs._seating import GameError, Position, position
from engine import Text
from storage import GameRow, Storage

log = logging.getLogger(__name__)


def replayed(row: GameRow, moves: Iterable[Any]) -> Iterator[Any]:
    """The states of a game from the deal through each of `moves` (MoveRows, in order): the start, then the state
    after each move (the engines are deterministic). Pure, no I/O: undo uses it, the core for a state no cache
    holds, and the replay viewer runs it in a drawing worker (cogs/replays.py)."""
    rules = engine.get_rules(row.game)
    state = rules.new_game(list(row.player_ids), row.options, row.seed)
    yield state
    for m in moves:
        state = rules.apply(state, m.player, rules.action_from_json(m.action))
        yield state


# Decoded states kept (`Core.remember`): a state is about 10 KiB in memory (1,000 running games of every kind:
# 9.6 MiB; the largest, a late 6-player game with every module, 37 KiB), so 2,048 hold 20-75 MiB and spare the cold
# decoding (0.2-0.4 ms of CPU, validation included) of any of the last ~1,000 games played.
STATES = 2048
PER_GAME = 2  # positions kept of one game: its latest, and the one before (a post of it may still be drawn)


class Core:
    """The shared ground of the session's parts. One per bot (the session)."""

    def __init__(self, storage: Storage, *, state_cache_size: int = STATES):
        self.storage = storage
        self._locks: dict[int, asyncio.Lock] = {}
        self._states: collections.OrderedDict[Position, Any] = collections.OrderedDict()  # by position's name
        self._of_game: dict[int, list[Position]] = {}  # the positions held of each game, oldest first
        self._state_cache_size = state_cache_size
        # called with a game id after each committed move or start (the herald posts, the AI looks)
        # (and the row as just committed, when the caller has it: None otherwise)
        self.listeners: list[Callable[[int, GameRow | None], None]] = []

    @staticmethod
    def rules(game: str) -> engine.Rules[Any, Any]:
        return engine.get_rules(game)

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock serialising changes to one game; different games never wait for each other."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def state_of(self, row: GameRow) -> Any:
        """The engine state of a running or finished game (decoded once per version, then cached)."""
        if row.state_json is None:
            raise GameError(Text("This game has not started yet."))
        key = position(row)
        state = self._states.get(key)
        if state is None:
            state = self.rules(row.game).from_json(json.loads(row.state_json))
            self.remember(key, state)
        return state

    async def state_at(self, row: GameRow, version: int) -> Any:
        """The state after move `version` (0: the deal): from the cache, else replayed from the move log (the
        engines are deterministic)."""
        if version == row.version:
            return self.state_of(row)
        key = position(row, version)
        state = self._states.get(key)
        if state is not None:
            return state
        moves = [m for m in await self.storage.moves(row.id) if m.move_number <= version]  # only after a crash
        *_, state = replayed(row, moves)  # (a notice of an earlier position)
        self.remember(key, state)
        return state

    def forget(self, game_id: int) -> None:
        """Drop what is cached of a game whose history changed (an undo): only to free memory, as the keys of
        the positions taken back are never asked for again (`Position`)."""
        for key in self._of_game.pop(game_id, []):
            self._states.pop(key, None)

    def remember(self, key: Position, state: Any) -> None:
        """Keep a decoded state. Of each game only its latest PER_GAME positions are kept (a move supersedes the
        position before; the herald may still draw that one), so the cache holds the games played lately, about
        STATES / PER_GAME of them, rather than the many positions of a few: a game's next move, even from another
        player an hour later, finds its state decoded while fewer games than that moved meanwhile."""
        self._states[key] = state
        self._states.move_to_end(key)
        kept = self._of_game.setdefault(key.game_id, [])
        if key in kept:
            kept.remove(key)
        kept.append(key)
        while len(kept) > PER_GAME:
            self._states.pop(kept.pop(0), None)
        while len(self._states) > self._state_cache_size:
            old, _ = self._states.popitem(last=False)
            held = self._of_game.get(old.game_id)
            if held is not None:
                held.remove(old)
                if not held:
                    del self._of_game[old.game_id]

    def changed(self, game_id: int, row: GameRow | None = None) -> None:
        """Tell the listeners that `game_id` moved on (`row`: the game as this change committed it, if known).
        They only schedule work; never raises."""
        for listener in list(self.listeners):
            try:
                listener(game_id, row)
            except Exception:
                log.exception("a listener failed for game %s", game_id)

    @staticmethod
    def names(row: GameRow) -> dict[str, str]:
        return {s.id: s.name for s in row.seats}

    @contextlib.asynccontextmanager
    async def locked(self, game_id: int) -> AsyncIterator[GameRow]:
        """The game, loaded under its lock: a change to it is made inside, one at a time per game."""
        async with self.lock(game_id):
            yield await self.load(game_id)

    async def load(self, game_id: int) -> GameRow:
        row = await self.storage.load_game(game_id)
        if row is None:
            raise GameError(Text("I can't find that game any more."))
        return row


class Part:
    """A part of the session: its operations over the core it shares with the other parts."""

    def __init__(self, core: Core):
        self.core = core
        self.storage = core.storage
        self.rules = core.rules
        self.lock = core.lock
        self.load = core.load
        self.locked = core.locked
        self.state_of = core.state_of
        self.changed = core.changed
        self.forget = core.forget
        self.remember = core.remember
