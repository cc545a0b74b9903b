"""AI seats at the table: the bot plays their moves through `Session.act`, exactly the path a confirmed click
takes, deciding in a small pool of worker processes (the search holds the GIL) from that seat's view only.
Players who may act out of turn are asked first, once per position; an AI whose turn it is waits
`Settings.ai_wait` seconds for humans who may act out of turn. How and why: docs/ai-seats.md.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from discord.ext import commands, tasks

import ai
from cogs import _workers
from cogs._seating import GameError, seat_name
from cogs._services import Services, services
from cogs._session import Session, StaleMove
from cogs._table import post_note
from cogs._tempo import AI_LEVEL, ai_level
from cogs._text import esc
from engine import IllegalAction
from storage import GameRow

log = logging.getLogger(__name__)
T = TypeVar("T")


MAX_STALE = 20  # decisions overtaken in a row before the worker gives up until the next kick
# At shutdown, a decision still running in a worker process may finish within this many seconds (a time budget
# is ~1 s); after that its process is ended: the bot is closing and the decision would be dropped anyway.
SHUTDOWN_GRACE = 5.0


async def close_pool(pool: ProcessPoolExecutor, grace: float = SHUTDOWN_GRACE) -> None:
    """Shut `pool` down without blocking the event loop: queued decisions are dropped, a running one gets
    `grace` seconds, then its worker process is ended."""
    # the worker processes, to end them if need be (ProcessPoolExecutor has no public handle before 3.14)
    workers = list((getattr(pool, "_processes", None) or {}).values())
    done = asyncio.ensure_future(asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True))
    try:
        await asyncio.wait_for(asyncio.shield(done), grace)
    except TimeoutError:
        log.warning("an AI worker process was still deciding at shutdown; ending it")
        for process in workers:
            if process.is_alive():
                process.terminate()
        await done


def new_pool(processes: int) -> ProcessPoolExecutor:
    """A pool of `processes` workers (cogs/_workers.py: they start with the first decision and end with the bot).
    The task is `ai.choose` itself, so a worker imports `ai` and `engine` (and, as "spawn" does, the bot's main
    script, whose start-up is behind `if __name__ == "__main__"`)."""
    return _workers.new_pool(processes)


class AISeatsCog(commands.Cog):
    """Plays the AI seats' moves; no commands (the lobby's **Add AI** and `/game add_ai` seat them)."""

    def __init__(self, bot: Services, *, every_minutes: float = 5, processes: int | None = None):
        self.bot = bot
        settings = bot.settings
        self.budget = settings.ai_budget
        # seconds an AI to move leaves humans who may act out of turn to do so (the next player moves at once
        # at the table only "unless someone calls")
        self.out_of_turn_wait = settings.ai_wait
        # worker processes for decisions (0: a thread of this process; tests with a monkeypatched AI use that)
        self.processes = settings.ai_processes if processes is None else processes
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False  # unloaded: no new pool, no new decision
        self.shutdown_grace = SHUTDOWN_GRACE
        self.pools_made = 0  # how many pools this cog made (a replaced broken pool counts): for logs and tests
        self.decided = {"process": 0, "thread": 0}  # decisions made (returned) in a worker process / a thread
        # game -> (move number, AI seats that chose not to act out of turn at that move)
        self._declined: dict[int, tuple[int, set[str]]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()  # kicked while its worker was running: look once more before stopping
        self._noted: set[tuple[int, int]] = set()  # (game, move) whose failure was already posted
        self._moved: set[int] = set()  # games whose worker played a move (its turn is posted when it stops)
        self._resume: asyncio.Task[None] | None = None
        self.sweep.change_interval(minutes=every_minutes)

    @property
    def session(self) -> Session:
        return self.bot.session

    async def cog_load(self) -> None:
        self.session.listeners.append(self.kick)  # the pool is made with the first decision
        self._resume = asyncio.create_task(self._resume_games(), name="ai-resume")
        self.sweep.start()

    async def cog_unload(self) -> None:
        if self.kick in self.session.listeners:
            self.session.listeners.remove(self.kick)
        self.sweep.cancel()
        tasks_ = [t for t in (self._resume, *self._workers.values()) if t is not None]
        for t in tasks_:
            t.cancel()  # a move half-way is rolled back by its transaction; the next start resumes the game
        await asyncio.gather(*tasks_, return_exceptions=True)
        self._workers.clear()
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await close_pool(pool, self.shutdown_grace)

    # -- deciding ----------------------------------------------------------------------------------------

    def _make_pool(self) -> ProcessPoolExecutor:
        self.pools_made += 1
        return new_pool(self.processes)

    async def decide(
        self, game: str, state: Any, seat: str, seed: int, *, optional: bool = False, level: str = AI_LEVEL
    ) -> Any:
        """`ai.choose` for `seat`, in the process pool (or a thread with AI_PROCESSES=0). An AI seat plays at its
        own level; a stand-in for a human at `level` (the table's). With `optional` (an out-of-turn mover) None
        means the AI lets the chance go. A worker that died is replaced and the decision tried once more; a
        second BrokenProcessPool propagates."""
        if self._closed:
            raise RuntimeError("the AI seats are shut down")
        level = ai.level_of(seat) if ai.is_ai(seat) else level
        kwargs: dict[str, Any] = {"optional": True} if optional else {}
        return await self.run(
            ai.choose, game, state, seat, level, seed, self.budget, what=f"deciding for {seat}", **kwargs
        )

    async def run(self, fn: Callable[..., T], *args: Any, what: str = "thinking", **kwargs: Any) -> T:
        """`fn(*args, **kwargs)` in the AI's process pool (or a thread with AI_PROCESSES=0): the AI seats'
        decisions, and the coach's hints and review chunks (cogs/_coach.py), one queue for all. A worker that
        died is replaced and the job tried once more; a second BrokenProcessPool propagates."""
        if self._closed:
            raise RuntimeError("the AI seats are shut down")
        if self.processes <= 0:
            result = await asyncio.to_thread(fn, *args, **kwargs)
            self.decided["thread"] += 1
            return result
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            if self._pool is None:
                self._pool = self._make_pool()
            pool = self._pool
            try:
                result = await loop.run_in_executor(pool, functools.partial(fn, *args, **kwargs))
            except BrokenProcessPool:
                if attempt == 2 or self._closed:
                    raise
                log.warning("an AI worker process died %s; starting a new one and trying again", what)
                if self._pool is pool:  # another game's worker may have replaced it already
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = self._make_pool()
                continue
            self.decided["process"] += 1
            return result
        raise AssertionError("unreachable")

    # -- scheduling --------------------------------------------------------------------------------------

    def kick(self, game_id: int, row: GameRow | None = None) -> None:
        """Make sure the game's AI seats get to move (if any is to move). Cheap; safe to call any time. `row`: the
        game as a move just committed it; if its flag says no AI has a decision there (`Due.ai`, written with the
        move), nothing is looked at: no load, no query."""
        task = self._workers.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)
            return
        if row is not None and not row.ai_due:
            return
        task = asyncio.create_task(self._work(game_id), name=f"ai-game-{game_id}")
        self._workers[game_id] = task
        task.add_done_callback(lambda t: self._workers.pop(game_id, None) if self._workers.get(game_id) is t else None)

    async def kick_all(self, *, batch: int = 100) -> int:
        """Kick every running game (of this process's shards) in which an AI seat has something to decide (its
        move, or whether to act out of turn at this position): an indexed flag, read in batches, so the pass
        costs the games due, not the games stored. Returns how many."""
        n, after = 0, 0
        while True:
            ids = await self.session.storage.ai_due(shards=self.bot.herald.shards, after=after, limit=batch)
            for game_id in ids:
                self.kick(game_id)
            n += len(ids)
            if len(ids) < batch:
                return n
            after = ids[-1]
            await asyncio.sleep(0)  # let clicks through between two batches

    async def _resume_games(self) -> None:
        await self.bot.wait_until_ready()
        n = await self.kick_all()
        if n:
            log.info("resuming AI moves in %d game(s)", n)

    @tasks.loop(minutes=5)
    async def sweep(self) -> None:
        """A safety net: games whose AI failed earlier, or a kick lost to a crash, get another go."""
        try:
            await self.kick_all()
        except Exception:
            log.exception("AI sweep failed")

    @sweep.before_loop
    async def _before_sweep(self) -> None:
        await self.bot.wait_until_ready()
        interval = (self.sweep.hours or 0) * 3600 + (self.sweep.minutes or 0) * 60 + (self.sweep.seconds or 0)
        await asyncio.sleep(interval)  # the start-up pass is `_resume_games`

    # -- playing -----------------------------------------------------------------------------------------

    async def _work(self, game_id: int) -> None:
        try:
            await self._loop(game_id)
        finally:  # a turn finished or cut short (failure, shutdown) is posted now: its moves were played
            if game_id in self._moved:
                self._moved.discard(game_id)
                self.bot.herald.notify(game_id, force=True)

    async def _next_seat(self, row: GameRow) -> tuple[str, bool] | None:
        """The seat the AI decides for next in this game and whether it is an optional (out-of-turn) mover; None
        if the AI has nothing to decide. The AI plays AI seats, and humans it stands in for (the table decided
        so, or they are away with the AI on): those only for their own turns.

        Those who may act out of turn are asked first, in priority order (as `to_move` lists them), each once per
        move number; only then does an AI whose turn it is move (its first action closes their window)."""
        movers = self.session.to_move(row)
        side = set(self.session.out_of_turn(row))
        at, declined = self._declined.get(row.id, (-1, set()))
        for p in movers:
            if p in side and ai.is_ai(p) and not (at == row.version and p in declined):
                return p, True
        humans = [p for p in movers if p not in side and not ai.is_ai(p)]
        away = await self.session.storage.players(humans) if humans else {}
        for p in movers:
            if p not in side and self.session.played_by_ai(row, row.table, p, away, time.time()):
                return p, False
        return None

    def _human_claim_wait(self, row: GameRow, *, optional: bool) -> float:
        """Seconds the AI to move should still wait so that humans who may act out of turn get their chance."""
        if optional or self.out_of_turn_wait <= 0:
            return 0.0
        if not any(not ai.is_ai(p) for p in self.session.out_of_turn(row)):
            return 0.0
        return max(0.0, row.updated_at + self.out_of_turn_wait - time.time())

    def _let_go(self, row: GameRow, seat: str, failure: str) -> bool:
        """An out-of-turn chance the AI could not take (`failure` says how): logged with its traceback and let go,
        with no note (the game is not stuck: it never blocks the player whose turn it is); the others go on."""
        log.exception("AI %s %s at move %d of game %s (%s)", seat, failure, row.version + 1, row.id, row.game)
        self._decline(row, seat)
        return True

    def _decline(self, row: GameRow, seat: str) -> None:
        at, declined = self._declined.get(row.id, (-1, set()))
        if at != row.version:
            declined = set()
            self._declined[row.id] = (row.version, declined)
        declined.add(seat)

    async def _loop(self, game_id: int) -> None:
        stale = 0
        while True:
            self._again.discard(game_id)
            row = await self.session.storage.load_game(game_id)
            if row is None or row.status != "active":
                self._declined.pop(game_id, None)
                return
            nxt = await self._next_seat(row)
            if nxt is None:
                if game_id in self._again:
                    continue  # a move landed while we were looking: look again
                if not any(ai.is_ai(p) for p in self.session.to_move(row)):  # nobody for the AI: off the sweep
                    await self.session.storage.set_ai_due(game_id, row.version, False)
                return
            wait = self._human_claim_wait(row, optional=nxt[1])
            if wait > 0:
                await asyncio.sleep(wait)  # a human's purchase meanwhile kicks us: the loop looks again
                continue
            try:
                done = await self.play(row, nxt[0], optional=nxt[1])
            except asyncio.CancelledError:
                raise
            except Exception:  # play() reports its own failures; this is a bug in the worker itself
                log.exception("AI worker of game %s failed", game_id)
                return
            if done is None:
                return  # failed (noted) or the game ended under us
            if not done:
                stale += 1
                if stale >= MAX_STALE:
                    log.warning("AI of game %s overtaken %d times in a row; waiting for the next kick", game_id, stale)
                    return
                continue
            stale = 0

    async def play(self, row: GameRow, seat: str, *, optional: bool = False) -> bool | None:
        """Decide and play one move of `seat`. True: played (or, for an `optional` mover, let the chance go);
        False: overtaken (decide again); None: stop."""
        state = self.session.state_of(row)
        seed = row.seed + row.version  # fixed per decision: the same position gives the same move
        try:
            action = await self.decide(row.game, state, seat, seed, optional=optional, level=ai_level(row.table))
            if action is None and not optional:
                raise ValueError(f"the AI chose no move for {seat}, who must move")
        except Exception:
            if optional:
                return self._let_go(row, seat, "failed deciding whether to move out of turn")
            await self._failed(row, seat, "deciding")
            return None
        if action is None:  # not buying out of turn at this position: not asked again until the game moves on
            self._decline(row, seat)
            return True

        try:
            await self.session.act(row.id, seat, action, expected_version=row.version, standin=not ai.is_ai(seat))
            self._moved.add(row.id)
        except StaleMove:
            return False
        except IllegalAction:
            if optional:
                return self._let_go(row, seat, "chose an illegal out-of-turn move")
            await self._failed(row, seat, "playing")
            return None
        except GameError:  # the game ended or was cancelled meanwhile
            return None
        return True

    async def _failed(self, row: GameRow, seat: str, what: str) -> None:
        """Log with the traceback; post one short note per position; the state is untouched (nothing was stored)."""
        key = (row.id, row.version)
        first = key not in self._noted
        log.log(
            logging.ERROR if first else logging.WARNING,
            "AI %s failed %s move %d of game %s (%s)",
            seat,
            what,
            row.version + 1,
            row.id,
            row.game,
            exc_info=True,
        )
        if not first:
            return
        self._noted.add(key)
        await self.bot.herald.flush(row.id)  # what it played before it failed
        _ = await self.session.languages.public(row.guild_id)  # a public note: the server's language
        note = _(
            "⚠️ {who} ran into a problem choosing its move; nothing was changed. I'll try again in a few minutes "
            "(the error is logged for the bot's admin); the creator can also `/game cancel`.",
            who=f"**{esc(seat_name(seat, row.seat_name(seat), _))}**",
        )
        await post_note(self.bot, row, note)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AISeatsCog(services(bot)))
