"""Prometheus metrics of one bot process (the official client library), and the hooks that feed them.

`Instruments(bot).install()` wraps a handful of the bot's own entry points once, at start-up; nothing is scanned
per request and nothing costs time in proportion to the games stored:

- every public coroutine of the storage (`alhambra_db_operation_seconds{operation}`, errors by operation);
- `session.act` (moves by outcome: played, free, replayed, stale, illegal, refused, closing, error);
- `herald.deliver` (posts; `alhambra_interaction_post_seconds`: from a click's arrival to the public post it
  caused, an AI's answer to it included) and `herald.deliver_all` (the outbox pass);
- the reminder and deadline passes of the turns cog, and the AI seats' `decide` (decision times by game, and the
  decisions waiting for a worker);
- the gateway's INTERACTION_CREATE parser: interactions by kind, each one's handling in its own `contextvars`
  context (`ops.logs`), so an ERROR logged while handling it counts as a failed interaction;
- discord.py's shard events (per-shard state) and a one-second tick measuring the event loop's lag.

Gauges read at scrape time (`refresh`): the outbox's depth and its oldest notice's age (one indexed query), the
render and AI workers' queues, the shards' heartbeat latency.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from discord.ext import tasks
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from ops import logs
from storage import Storage

log = logging.getLogger(__name__)
T = TypeVar("T")

FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
SLOW = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0, 120.0)
KINDS = {1: "ping", 2: "command", 3: "component", 4: "autocomplete", 5: "modal"}
_kind: contextvars.ContextVar[str | None] = contextvars.ContextVar("interaction_kind", default=None)


def move_outcome(exc: BaseException) -> str:
    """A failed move's outcome label, from the exception the session raised (by name: no import of the cogs)."""
    names = {k.__name__ for k in type(exc).__mro__}
    for name, outcome in (("StaleMove", "stale"), ("Closing", "closing"), ("IllegalAction", "illegal")):
        if name in names:
            return outcome
    return "refused" if "GameError" in names else "error"


class _ErrorCounter(logging.Handler):
    """Counts ERROR records; one logged while an interaction is handled marks that interaction failed."""

    def __init__(self, instruments: Instruments) -> None:
        super().__init__(logging.ERROR)
        self.instruments = instruments

    def emit(self, record: logging.LogRecord) -> None:
        self.instruments.log_errors.labels(record.name).inc()
        kind = _kind.get()
        if kind is not None:
            self.instruments.interaction_errors.labels(kind).inc()


class Instruments:
    """The metrics of one bot (their own registry: several bots may run in one test process)."""

    def __init__(self, bot: Any, *, registry: CollectorRegistry | None = None) -> None:
        self.bot = bot
        self.registry = r = registry or CollectorRegistry()
        self.started = time.time()
        self.interactions = Counter("alhambra_interactions", "Interactions received, by kind", ["kind"], registry=r)
        self.interaction_errors = Counter(
            "alhambra_interaction_errors", "Interactions whose handling logged an error", ["kind"], registry=r
        )
        self.moves = Counter("alhambra_moves", "Moves asked of the session, by outcome", ["outcome"], registry=r)
        self.move_seconds = Histogram(
            "alhambra_move_seconds", "Time to check and store one move", registry=r, buckets=FAST
        )
        self.posts = Counter("alhambra_posts", "Public posts made from the outbox", registry=r)
        self.post_latency = Histogram(
            "alhambra_interaction_post_seconds",
            "From an interaction's arrival to the public post it caused",
            registry=r,
            buckets=SLOW,
        )
        self.outbox_depth = Gauge("alhambra_outbox_notices", "Notices waiting to be posted", registry=r)
        self.outbox_age = Gauge("alhambra_outbox_oldest_seconds", "Age of the oldest waiting notice", registry=r)
        self.pass_seconds = Histogram(
            "alhambra_pass_seconds", "Duration of a background pass", ["pass"], registry=r, buckets=SLOW
        )
        self.pass_last = Gauge(
            "alhambra_pass_last_timestamp_seconds", "When a background pass last finished", ["pass"], registry=r
        )
        self.loop_lag = Gauge("alhambra_event_loop_lag_seconds", "The event loop's latest lag", registry=r)
        self.loop_lag_seconds = Histogram(
            "alhambra_event_loop_lag", "The event loop's lag, sampled every second", registry=r, buckets=FAST
        )
        self.worker_queue = Gauge(
            "alhambra_worker_queue", "Jobs queued or running in a worker pool", ["pool"], registry=r
        )
        self.ai_seconds = Histogram(
            "alhambra_ai_decision_seconds", "Time an AI player took to decide", ["game"], registry=r, buckets=SLOW
        )
        self.shard_latency = Gauge(
            "alhambra_shard_latency_seconds", "Gateway heartbeat latency per shard", ["shard"], registry=r
        )
        self.shard_up = Gauge("alhambra_shard_up", "1 while a shard's gateway session is ready", ["shard"], registry=r)
        self.db_seconds = Histogram(
            "alhambra_db_operation_seconds", "Database operation latency", ["operation"], registry=r, buckets=FAST
        )
        self.db_errors = Counter(
            "alhambra_db_operation_errors", "Database operations that raised", ["operation"], registry=r
        )
        self.log_errors = Counter("alhambra_log_errors", "ERROR log lines, by logger", ["logger"], registry=r)
        self.shards_up: set[int] = set()
        self.passes: dict[str, float] = {}  # pass name -> time.time() it last finished
        self._ai_waiting = 0
        self._errors = _ErrorCounter(self)
        self._tick = tasks.loop(seconds=1.0)(self._sample_lag)
        self._last_tick: float | None = None

    # -- installing the hooks ---------------------------------------------------------------------------

    def install(self) -> None:
        """Wrap the bot's services (call once, after the cogs are loaded)."""
        bot = self.bot
        self.wrap_storage(bot.storage)
        bot.session.act = self._timed_act(bot.session.act)
        bot.herald.deliver = self._timed_deliver(bot.herald.deliver)
        bot.herald.deliver_all = self._timed_pass("outbox", bot.herald.deliver_all)
        turns = bot.get_cog("TurnsCog")
        if turns is not None:
            turns.send_reminders = self._timed_pass("reminders", turns.send_reminders)
            turns.pass_deadlines = self._timed_pass("deadlines", turns.pass_deadlines)
        ai = bot.get_cog("AISeatsCog")
        if ai is not None:
            ai.decide = self._timed_decide(ai.decide)
        self.track_interactions()
        for event in ("on_shard_connect", "on_shard_ready", "on_shard_resumed"):
            bot.add_listener(self._shard_up, event)
        bot.add_listener(self._shard_down, "on_shard_disconnect")
        logging.getLogger().addHandler(self._errors)
        self._tick.start()

    def uninstall(self) -> None:
        self._tick.cancel()
        logging.getLogger().removeHandler(self._errors)

    def wrap_storage(self, storage: Storage) -> None:
        """Time every public coroutine method of `storage` (instance attributes: the class is untouched)."""
        for name, _ in inspect.getmembers(type(storage), inspect.iscoroutinefunction):
            if not name.startswith("_"):
                setattr(storage, name, self._timed_db(name, getattr(storage, name)))

    def track_interactions(self) -> None:
        """Handle each INTERACTION_CREATE in a context of its own (ops.logs' ids; its tasks inherit them)."""
        parsers = self.bot._connection.parsers
        original = parsers["INTERACTION_CREATE"]
        count = self.shard_count

        def enter(data: dict[str, Any]) -> None:
            kind = KINDS.get(int(data.get("type", 0)), "other")
            _kind.set(kind)
            logs.interaction_id.set(int(data["id"]))
            logs.arrived.set(time.perf_counter())
            if data.get("guild_id"):
                guild = int(data["guild_id"])
                logs.guild_id.set(guild)
                logs.shard.set((guild >> 22) % count())
            self.interactions.labels(kind).inc()
            original(data)

        parsers["INTERACTION_CREATE"] = lambda data: contextvars.copy_context().run(enter, data)

    def shard_count(self) -> int:
        return int(self.bot.shard_count or self.bot.settings.shard_count or 1)

    def owned_shards(self) -> list[int]:
        ids = self.bot.shard_ids or self.bot.settings.shard_ids
        return list(ids) if ids else list(range(self.shard_count()))

    # -- the wrappers ------------------------------------------------------------------------------------

    def _timed_db(self, name: str, call: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
        hist, errors = self.db_seconds.labels(name), self.db_errors.labels(name)

        @functools.wraps(call)
        async def timed(*args: Any, **kwargs: Any) -> T:
            t0 = time.perf_counter()
            try:
                return await call(*args, **kwargs)
            except BaseException:
                errors.inc()
                raise
            finally:
                hist.observe(time.perf_counter() - t0)

        return timed

    def _timed_act(self, act: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(act)
        async def timed(game_id: int, *args: Any, **kwargs: Any) -> Any:
            logs.game_id.set(game_id)
            t0 = time.perf_counter()
            try:
                result = await act(game_id, *args, **kwargs)
            except Exception as exc:
                self.moves.labels(move_outcome(exc)).inc()
                log.debug("move not played: %s", move_outcome(exc))
                raise
            took = time.perf_counter() - t0
            self.move_seconds.observe(took)
            outcome = "replayed" if result.replayed else "free" if result.free else "played"
            self.moves.labels(outcome).inc()
            log.debug("move %s (version %d, %.1f ms)", outcome, result.row.version, took * 1000)
            return result

        return timed

    def _timed_deliver(self, deliver: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
        herald = self.bot.herald

        @functools.wraps(deliver)
        async def timed(game_id: int, *args: Any, **kwargs: Any) -> None:
            logs.game_id.set(game_id)
            before = herald.delivered
            await deliver(game_id, *args, **kwargs)
            posted = herald.delivered - before
            if posted > 0:
                log.debug("%d post(s) made", posted)
                self.posts.inc(posted)
                arrived = logs.arrived.get()
                if arrived is not None:
                    self.post_latency.observe(time.perf_counter() - arrived)
                    logs.arrived.set(None)  # the click's own post: later ones of this task are not its latency

        return timed

    def _timed_pass(self, name: str, run: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
        hist = self.pass_seconds.labels(name)

        @functools.wraps(run)
        async def timed(*args: Any, **kwargs: Any) -> T:
            t0 = time.perf_counter()
            result = await run(*args, **kwargs)
            hist.observe(time.perf_counter() - t0)
            self.passes[name] = time.time()
            self.pass_last.labels(name).set(self.passes[name])
            return result

        return timed

    def _timed_decide(self, decide: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
        @functools.wraps(decide)
        async def timed(game: str, *args: Any, **kwargs: Any) -> T:
            self._ai_waiting += 1
            t0 = time.perf_counter()
            try:
                return await decide(game, *args, **kwargs)
            finally:
                self._ai_waiting -= 1
                self.ai_seconds.labels(game).observe(time.perf_counter() - t0)

        return timed

    async def _shard_up(self, shard_id: int) -> None:
        self.shards_up.add(shard_id)
        self.shard_up.labels(str(shard_id)).set(1)

    async def _shard_down(self, shard_id: int) -> None:
        self.shards_up.discard(shard_id)
        self.shard_up.labels(str(shard_id)).set(0)

    async def _sample_lag(self) -> None:
        now = time.perf_counter()
        if self._last_tick is not None:
            lag = max(0.0, now - self._last_tick - 1.0)
            self.loop_lag.set(lag)
            self.loop_lag_seconds.observe(lag)
        self._last_tick = now

    # -- at scrape time ----------------------------------------------------------------------------------

    async def outbox(self, timeout: float = 2.0) -> tuple[int, float | None]:
        """(notices waiting, the oldest one's age in seconds or None); raises if the database does not answer."""
        depth, oldest = await asyncio.wait_for(self.bot.storage.outbox_stats(), timeout)
        age = max(0.0, time.time() - oldest) if oldest is not None else None
        self.outbox_depth.set(depth)
        self.outbox_age.set(age or 0.0)
        return depth, age

    def workers(self) -> None:
        images = self.bot.images
        render = sum(len(getattr(p, "_pending_work_items", ())) for p in getattr(images, "_pools", ()) if p)
        self.worker_queue.labels("render").set(render)
        self.worker_queue.labels("ai").set(self._ai_waiting)

    async def render(self) -> bytes:
        """The text exposition of every metric, the scrape-time gauges read first."""
        try:
            await self.outbox()
        except Exception:  # the database is away: /readyz says so; the other metrics still go out
            log.warning("metrics: the outbox could not be read", exc_info=True)
        self.workers()
        for shard_id, latency in self.bot.latencies:
            if latency == latency and latency != float("inf"):  # NaN or inf before the first heartbeat
                self.shard_latency.labels(str(shard_id)).set(latency)
        return generate_latest(self.registry)
