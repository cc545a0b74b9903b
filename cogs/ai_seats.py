"""AI seats at the table: the bot plays their moves (issue 8).

Whenever a game moves on (`Session.listeners`, called after every committed move and after a start), `kick`
makes sure one worker task runs for that game. The worker loops while an AI seat is among the players to move:

    load the game -> ai.choose(...) in a worker process (never on the event loop; "hard" thinks ~1 s)
    -> Session.act(..., expected_version=the move it decided at) -> the usual public move post

so an AI move takes exactly the path of a confirmed click: the game's lock, the rules, one transaction, the post.
One thing differs: while the same AI seat carries on alone (an exact purchase, tiles to place), its moves are
collected and its whole turn is announced in one post with the final board, so a channel isn't flooded with
three boards in a second (nobody else can act in between, so the order of posts is still the order of moves).
One worker per game means two AI moves can never be decided for the same position; the version check in `act`
refuses a decision that a human overtook (several players to move: the AI decides outside the lock, so the human
is never kept waiting) and the worker simply decides again. Each decision has a fixed seed (game seed + move
number), so it can be replayed: the same position gives the same move in a thread or in a worker process.

Where the AI thinks: the search is pure Python and holds the GIL, so in a thread of the bot's process it would
slow every other game's clicks while it thinks. The cog therefore owns a small process pool (AI_PROCESSES worker
processes, default 1: the bot itself needs the other core of a small server; 0 = decide in a thread as before),
made with the "spawn" start method (forking a process that runs an event loop and threads is unsafe). It is made
in `cog_load` (its workers start with the first decision) and shut down in `cog_unload`. States and actions are
frozen dataclasses and travel to the worker by pickle. If a worker dies (BrokenProcessPool) the pool is made
anew and the decision tried once more before it counts as a failure.

The vizier out of turn (Alhambra, The Vizier's Favour, V4/V7/V12): AI seats that may buy out of turn
(`Session.out_of_turn`) are asked `ai.choose(..., optional=True)` once per position: None means "not now" and is
remembered for that move number, an action is played like any other move. Claimant AIs are asked before the AI
whose turn it is (V7 priority: the window would close with its first action); a human whose turn it is is never
kept waiting: their click makes the claimant's decision stale, and it is dropped. The other way round, an AI whose
turn it is would close the window at once, and a human claimant could never call for the vizier (V12: at the table
the next player starts "unless someone calls"). So while a human may use their vizier, the AI to move waits until
AI_VIZIER_WAIT seconds (default 60) have passed since the last move, then plays (a human's purchase meanwhile
simply moves the game on, and the AI looks again).

After a restart, `cog_load` resumes every running game whose next mover is an AI; a pass every few minutes
catches anything missed. If the AI fails, the error is logged with its traceback, a short note is posted once,
and the game stays exactly as it was (the next pass tries again).

The budget of "hard" comes from the environment: AI_BUDGET=1.0 (seconds, the default) or AI_BUDGET=200 (search
iterations, deterministic).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from discord.ext import commands, tasks

import ai
from cogs import _ui
from cogs._session import GameError, MoveResult, Session, StaleMove
from engine import IllegalAction
from storage import GameRow

log = logging.getLogger(__name__)

MAX_STALE = 20  # decisions overtaken in a row before the worker gives up until the next kick
# At most this many moves of one AI turn in one post (when everyone else has passed, an AI may play on alone
# for dozens of moves: they go out in posts of this size, each with its board).
TURN_POST_MOVES = 6
# At shutdown, a decision still running in a worker process may finish within this many seconds (a time budget
# is ~1 s); after that its process is ended: the bot is closing and the decision would be dropped anyway.
SHUTDOWN_GRACE = 5.0
# V12: how long an AI whose turn it is leaves human vizier claimants to call for their vizier (AI_VIZIER_WAIT)
VIZIER_WAIT = 60.0


def budget_from_env(text: str | None) -> int | float | None:
    """AI_BUDGET: "" = the AI's default, "1.5" or "1.5s" = seconds, "300" = search iterations (hard only)."""
    text = (text or "").strip().lower()
    if not text:
        return None
    try:
        if text.endswith("s"):
            return float(text[:-1])
        if "." in text:
            return float(text)
        value = int(text)
    except ValueError:
        log.warning("AI_BUDGET=%r is neither seconds (1.0) nor iterations (200); using the default", text)
        return None
    return value if value > 0 else None


def seconds_from_env(name: str, text: str | None, default: float) -> float:
    """A number of seconds from the environment variable `name` ("" = `default`; never negative)."""
    text = (text or "").strip().lower().removesuffix("s")
    if not text:
        return default
    try:
        return max(0.0, float(text))
    except ValueError:
        log.warning("%s=%r is not a number of seconds; using %g", name, text, default)
        return default


def processes_from_env(text: str | None) -> int:
    """AI_PROCESSES: worker processes for AI decisions; "" = 1, "0" = decide in a thread of the bot's process."""
    text = (text or "").strip()
    if not text:
        return 1
    try:
        value = int(text)
    except ValueError:
        log.warning("AI_PROCESSES=%r is not a number of processes; using 1", text)
        return 1
    return max(value, 0)


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
    """A pool of `processes` spawned workers (they start with the first decision). The task is `ai.choose` itself,
    so a worker imports `ai` and `engine` (and, as "spawn" does, the bot's main script, whose start-up is behind
    `if __name__ == "__main__"`). Workers ignore Ctrl+C: the bot shuts the pool down itself."""
    return ProcessPoolExecutor(max_workers=processes, mp_context=multiprocessing.get_context("spawn"),
                               initializer=functools.partial(signal.signal, signal.SIGINT, signal.SIG_IGN))


class AISeatsCog(commands.Cog):
    """Plays the AI seats' moves; no commands (the lobby's **Add AI** and `/game add_ai` seat them)."""

    def __init__(self, bot: commands.Bot, *, every_minutes: float = 5, processes: int | None = None):
        self.bot = bot
        self.budget = budget_from_env(os.environ.get("AI_BUDGET"))
        # seconds an AI to move leaves human vizier claimants to call for their vizier (V12)
        self.vizier_wait = seconds_from_env("AI_VIZIER_WAIT", os.environ.get("AI_VIZIER_WAIT"), VIZIER_WAIT)
        # worker processes for decisions (0: a thread of this process; tests with a monkeypatched AI use that)
        self.processes = processes_from_env(os.environ.get("AI_PROCESSES")) if processes is None else processes
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False  # unloaded: no new pool, no new decision
        self.shutdown_grace = SHUTDOWN_GRACE
        self.pools_made = 0  # how many pools this cog made (a replaced broken pool counts): for logs and tests
        self.decided = {"process": 0, "thread": 0}  # decisions made (returned) in a worker process / a thread
        # game -> (move number, AI seats that chose not to use their vizier out of turn at that move)
        self._declined: dict[int, tuple[int, set[str]]] = {}
        self._workers: dict[int, asyncio.Task] = {}
        self._again: set[int] = set()  # kicked while its worker was running: look once more before stopping
        self._noted: set[tuple[int, int]] = set()  # (game, move) whose failure was already posted
        self._turn: dict[int, list[MoveResult]] = {}  # moves of an AI turn still going on, not yet announced
        self._resume: asyncio.Task | None = None
        self.sweep.change_interval(minutes=every_minutes)

    @property
    def session(self) -> Session:
        return self.bot.session  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        if self.processes > 0:
            self._pool = self._make_pool()
        self.session.listeners.append(self.kick)
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

    async def decide(self, game: str, state: Any, seat: str, seed: int, *, optional: bool = False) -> Any:
        """`ai.choose` for `seat`, in the process pool (or a thread with AI_PROCESSES=0). With `optional` (an
        out-of-turn mover) None means the AI lets the chance go. A worker that died is replaced and the decision
        tried once more; a second BrokenProcessPool propagates."""
        if self._closed:
            raise RuntimeError("the AI seats are shut down")
        args = (game, state, seat, ai.level_of(seat), seed, self.budget)
        kwargs = {"optional": True} if optional else {}
        if self.processes <= 0:
            action = await asyncio.to_thread(ai.choose, *args, **kwargs)
            self.decided["thread"] += 1
            return action
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            if self._pool is None:
                self._pool = self._make_pool()
            pool = self._pool
            try:
                action = await loop.run_in_executor(pool, functools.partial(ai.choose, *args, **kwargs))
            except BrokenProcessPool:
                if attempt == 2 or self._closed:
                    raise
                log.warning("an AI worker process died deciding for %s (%s); starting a new one and trying again",
                            seat, game)
                if self._pool is pool:  # another game's worker may have replaced it already
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = self._make_pool()
                continue
            self.decided["process"] += 1
            return action
        raise AssertionError("unreachable")

    # -- scheduling --------------------------------------------------------------------------------------

    def kick(self, game_id: int) -> None:
        """Make sure the game's AI seats get to move (if any is to move). Cheap; safe to call any time."""
        task = self._workers.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)
            return
        task = asyncio.create_task(self._work(game_id), name=f"ai-game-{game_id}")
        self._workers[game_id] = task
        task.add_done_callback(lambda t: self._workers.pop(game_id, None) if self._workers.get(game_id) is t
                               else None)

    async def kick_all(self) -> int:
        """Kick every running game in which an AI seat has something to decide (its move, or whether to use its
        vizier out of turn at this position); returns how many."""
        n = 0
        for row in await self.session.storage.list_games(statuses=("active",)):
            try:
                if self._next_seat(row) is not None:
                    self.kick(row.id)
                    n += 1
            except Exception:
                log.exception("could not look at game %s for AI moves", row.id)
        return n

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
        finally:  # a turn cut short (failure, shutdown) is still announced: the moves were played
            moves = self._turn.pop(game_id, [])
            if moves:
                try:
                    await _ui.announce_move(self.bot, moves[-1], moves[:-1])
                except Exception:
                    log.exception("announcing the AI moves of game %s failed", game_id)

    def _next_seat(self, row: GameRow) -> tuple[str, bool] | None:
        """The AI seat to decide next in this game and whether it is an optional (out-of-turn) mover; None if no
        AI seat has anything to decide.

        V7: the vizier claimants are asked first, in priority order (as `to_move` lists them), each once per
        move number; only then does an AI whose turn it is move (its first action closes the window, V12)."""
        movers = self.session.to_move(row)
        side = set(self.session.out_of_turn(row))
        at, declined = self._declined.get(row.id, (-1, set()))
        for p in movers:
            if p in side and ai.is_ai(p) and not (at == row.version and p in declined):
                return p, True
        for p in movers:
            if p not in side and ai.is_ai(p):
                return p, False
        return None

    def _human_claim_wait(self, row: GameRow, *, optional: bool) -> float:
        """Seconds the AI to move should still wait so that human vizier claimants get their chance (V12)."""
        if optional or self.vizier_wait <= 0:
            return 0.0
        if not any(not ai.is_ai(p) for p in self.session.out_of_turn(row)):
            return 0.0
        return max(0.0, row.updated_at + self.vizier_wait - time.time())

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
            nxt = self._next_seat(row)
            if nxt is None:
                if game_id in self._again:
                    continue  # a move landed while we were looking: look again
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
                    log.warning("AI of game %s overtaken %d times in a row; waiting for the next kick", game_id,
                                stale)
                    return
                continue
            stale = 0

    async def play(self, row: GameRow, seat: str, *, optional: bool = False) -> bool | None:
        """Decide and play one move of `seat`. True: played (or, for an `optional` mover, let the chance go);
        False: overtaken (decide again); None: stop."""
        state = self.session.state_of(row)
        seed = row.seed + row.version  # fixed per decision: the same position gives the same move
        try:
            action = await self.decide(row.game, state, seat, seed, optional=optional)
            if action is None and not optional:
                raise ValueError(f"the AI chose no move for {seat}, who must move")
        except Exception:
            if optional:  # a chance it may let go: the game is not stuck, so no note; the others go on
                log.exception("AI %s failed deciding whether to move out of turn at move %d of game %s (%s)",
                              seat, row.version + 1, row.id, row.game)
                self._decline(row, seat)
                return True
            await self._failed(row, seat, "deciding")
            return None
        if action is None:  # not buying out of turn at this position: not asked again until the game moves on
            self._decline(row, seat)
            return True

        async def announce(result: MoveResult) -> None:
            turn = self._turn.setdefault(row.id, [])
            if not result.finished and list(result.to_move) == [seat] and len(turn) < TURN_POST_MOVES - 1:
                turn.append(result)  # it carries on alone: announced with the rest of its turn
                return
            del self._turn[row.id]
            await _ui.announce_move(self.bot, result, turn)

        try:
            await self.session.act(row.id, seat, action, expected_version=row.version, announce=announce)
        except StaleMove:
            return False
        except IllegalAction:
            if optional:  # as above: never let an out-of-turn chance block the player whose turn it is
                log.exception("AI %s chose an illegal out-of-turn move at move %d of game %s (%s)", seat,
                              row.version + 1, row.id, row.game)
                self._decline(row, seat)
                return True
            await self._failed(row, seat, "playing")
            return None
        except GameError:  # the game ended or was cancelled meanwhile
            return None
        return True

    async def _failed(self, row: GameRow, seat: str, what: str) -> None:
        """Log with the traceback; post one short note per position; the state is untouched (nothing was stored)."""
        key = (row.id, row.version)
        first = key not in self._noted
        log.log(logging.ERROR if first else logging.WARNING, "AI %s failed %s move %d of game %s (%s)", seat, what,
                row.version + 1, row.id, row.game, exc_info=True)
        if not first:
            return
        self._noted.add(key)
        moves = self._turn.pop(row.id, [])
        if moves:  # what it played before it failed
            await _ui.announce_move(self.bot, moves[-1], moves[:-1])
        note = (f"⚠️ {_ui.name_of(row, seat)} ran into a problem choosing its move; nothing was changed. "
                "I'll try again in a few minutes (the error is logged for the bot's admin); the creator can also "
                "`/game cancel`.")
        await _ui.post_public(self.bot, row, note, None, None)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AISeatsCog(bot))
