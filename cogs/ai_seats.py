"""AI seats at the table: the bot plays their moves (issue 8).

Whenever a game moves on (`Session.listeners`, called after every committed move and after a start), `kick`
makes sure one worker task runs for that game. The worker loops while an AI seat is among the players to move:

    load the game -> ai.choose(...) in a worker thread (never blocks the event loop; "hard" thinks ~1 s)
    -> Session.act(..., expected_version=the move it decided at) -> the usual public move post

so an AI move takes exactly the path of a confirmed click: the game's lock, the rules, one transaction, the post.
One thing differs: while the same AI seat carries on alone (an exact purchase, tiles to place), its moves are
collected and its whole turn is announced in one post with the final board, so a channel isn't flooded with
three boards in a second (nobody else can act in between, so the order of posts is still the order of moves).
One worker per game means two AI moves can never be decided for the same position; the version check in `act`
refuses a decision that a human overtook (several players to move: the AI decides outside the lock, so the human
is never kept waiting) and the worker simply decides again. Each decision has a fixed seed (game seed + move
number), so it can be replayed.

After a restart, `cog_load` resumes every running game whose next mover is an AI; a pass every few minutes
catches anything missed. If the AI fails, the error is logged with its traceback, a short note is posted once,
and the game stays exactly as it was (the next pass tries again).

The budget of "hard" comes from the environment: AI_BUDGET=1.0 (seconds, the default) or AI_BUDGET=200 (search
iterations, deterministic).
"""

from __future__ import annotations

import asyncio
import logging
import os

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


class AISeatsCog(commands.Cog):
    """Plays the AI seats' moves; no commands (the lobby's **Add AI** and `/game add_ai` seat them)."""

    def __init__(self, bot: commands.Bot, *, every_minutes: float = 5):
        self.bot = bot
        self.budget = budget_from_env(os.environ.get("AI_BUDGET"))
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
        """Kick every running game with an AI seat to move; returns how many."""
        n = 0
        for row in await self.session.storage.list_games(statuses=("active",)):
            try:
                side = self.session.out_of_turn(row)
                if any(ai.is_ai(p) and p not in side for p in self.session.to_move(row)):
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

    async def _loop(self, game_id: int) -> None:
        stale = 0
        while True:
            self._again.discard(game_id)
            row = await self.session.storage.load_game(game_id)
            if row is None or row.status != "active":
                return
            # AI seats do not use the vizier out of turn (V4/V12): the claimants are optional movers, and an AI
            # that always bought would only slow the table down; on its own turn it may still use it
            side = self.session.out_of_turn(row)
            seats = [p for p in self.session.to_move(row) if ai.is_ai(p) and p not in side]
            if not seats:
                if game_id in self._again:
                    continue  # a move landed while we were looking: look again
                return
            try:
                done = await self.play(row, seats[0])
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

    async def play(self, row: GameRow, seat: str) -> bool | None:
        """Decide and play one move of `seat`. True: played; False: overtaken (decide again); None: stop."""
        state = self.session.state_of(row)
        seed = row.seed + row.version  # fixed per decision: the same position gives the same move
        try:
            action = await asyncio.to_thread(ai.choose, row.game, state, seat, ai.level_of(seat), seed, self.budget)
        except Exception:
            await self._failed(row, seat, "deciding")
            return None

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
