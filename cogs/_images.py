"""Board images for the Discord layer: drawn in worker processes (never on the event loop), cached per position
(`cogs._seating.Position`: the game, its undos and the move number, so an undo never lets a board of a position
taken back be served again), viewer and language.

Drawing and PNG encoding are pure Python and Pillow work that holds the GIL: in the bot's own process they would
slow every click. Each game is drawn by the same worker process (game id modulo the number of workers), so a
renderer's per-process caches serve that game's next moves. A worker is given the stored state's JSON text and
does the decoding, `rules.view(state, viewer)` and the drawing itself: only `view` output ever reaches the
renderer, so a public image can hold nothing private. `processes=0` draws in one thread instead (tests): one
drawing at a time, as in a worker process (the renderer's caches are not shared between threads).

Every word in an image is in the `lang` asked for (`i18n` codes; the caller's choice: the server's language for
a public post, the viewer's for a private image or a preview); English by default.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from cogs import _workers
from cogs._seating import Position, encode, position
from cogs._session import Session
from storage import GameRow

log = logging.getLogger(__name__)


def _warm_up() -> None:
    """Load the renderers, their fonts and sprites in a new worker process: draw a new game of each."""
    import engine
    from render import render_png

    for game in engine.GAMES:
        rules = engine.get_rules(game)
        players = [str(n) for n in range(1, rules.player_counts[0] + 1)]
        render_png(game, rules.view(rules.new_game(players, {}, 1), None))


def _draw_state(game: str, state_json: str, viewer: str | None, names: Mapping[str, str], lang: str = "en") -> bytes:
    from render import render_state

    return render_state(game, state_json, viewer, names, lang=lang)


def _draw_view(
    game: str, view: Any, viewer: str | None, names: Mapping[str, str], highlight: Any, lang: str = "en"
) -> bytes:
    from render import render_png

    return render_png(game, view, viewer, names, highlight=highlight, focus=True, lang=lang)


class Images:
    """The images of the bot's games. One per bot; `close` at shutdown."""

    def __init__(self, session: Session, *, processes: int = 1, cache_size: int = 64):
        self.session = session
        self.processes = processes
        self._pools: list[Executor | None] = [None] * max(processes, 0)
        self._thread: ThreadPoolExecutor | None = None  # processes=0: the one drawing thread
        self._cache: collections.OrderedDict[tuple[Position, str | None, str], bytes | None] = collections.OrderedDict()
        self._size = cache_size
        self.drawn = 0  # images drawn (not from the cache), for tests and logs

    async def warm(self) -> None:
        """Start the worker processes and load the renderers in them (fonts, sprites), and wait for them (about a
        second, before the bot connects): the first moves after a start are drawn as fast as any, instead of
        waiting behind a worker's start."""
        jobs = [asyncio.wrap_future(self._pool(n).submit(_warm_up)) for n in range(self.processes)]
        for done in await asyncio.gather(*jobs, return_exceptions=True):
            if isinstance(done, BaseException):
                log.warning("a drawing worker failed to warm up: %r", done)

    async def public(self, row: GameRow, version: int | None = None, *, lang: str = "en") -> bytes | None:
        """The public board after move `version` (default: now), its words in `lang` (the server's language)."""
        version = row.version if version is None else version
        return await self._image(row, version, None, lang)

    async def private(self, row: GameRow, player: str, *, lang: str = "en") -> bytes | None:
        """What `player` may see (their hand added), in `lang` (theirs). Ephemeral use only."""
        return await self._image(row, row.version, player, lang)

    async def preview(self, row: GameRow, player: str, view: Any, highlight: Any, *, lang: str = "en") -> bytes | None:
        """A small picture of the player's own board after a tentative placement (`view` is theirs), in `lang`."""
        job = functools.partial(_draw_view, row.game, view, player, Session.names(row), highlight, lang)
        return await self._run(row, job)

    async def run(self, row: GameRow, job: Callable[[], Any]) -> Any:
        """Run `job` (a picklable callable, e.g. a functools.partial of a module-level function) in game `row`'s
        drawing worker, like its boards; None if it fails (logged). The replays draw their frames and animations
        this way, a few frames per job (cogs/replays.py)."""
        return await self._run(row, job)

    async def _image(self, row: GameRow, version: int, viewer: str | None, lang: str) -> bytes | None:
        key = (position(row, version), viewer, lang)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        if version == row.version and row.state_json is not None:
            state_json = row.state_json
        else:  # an earlier position (a notice posted late): rebuilt from the move log
            state = await self.session.state_at(row, version)
            state_json = encode(self.session.rules(row.game), state)
        job = functools.partial(_draw_state, row.game, state_json, viewer, Session.names(row), lang)
        png = await self._run(row, job)
        self._cache[key] = png
        while len(self._cache) > self._size:
            self._cache.popitem(last=False)
        return png

    async def _run(self, row: GameRow, job: Callable[[], bytes]) -> bytes | None:
        """PNG bytes from the game's worker, or None if drawing fails: the bot then posts text only (logged)."""
        try:
            if self.processes <= 0:
                if self._thread is None:
                    self._thread = ThreadPoolExecutor(1, thread_name_prefix="draw")
                png = await asyncio.get_running_loop().run_in_executor(self._thread, job)
            else:
                png = await self._in_pool(row.id % self.processes, job)
        except Exception:
            log.exception("drawing game %s (%s) failed; posting without an image", row.id, row.game)
            return None
        self.drawn += 1
        return png

    def _pool(self, n: int) -> Executor:
        pool = self._pools[n]
        if pool is None:
            pool = self._pools[n] = _workers.new_pool(1, ignore_term=True)
        return pool

    async def _in_pool(self, n: int, job: Callable[[], bytes]) -> bytes:
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._pool(n)
            try:
                return await loop.run_in_executor(pool, job)
            except BrokenProcessPool:
                if attempt == 2:
                    raise
                log.warning("an image worker process died; starting a new one")
                if self._pools[n] is pool:
                    self._pools[n] = None
                    pool.shutdown(wait=False, cancel_futures=True)
        raise RuntimeError("unreachable")

    async def close(self) -> None:
        """Shut the worker processes down (without blocking the event loop)."""
        pools: list[Executor] = [p for p in self._pools if p is not None]
        pools += [self._thread] if self._thread is not None else []
        self._pools, self._thread = [None] * len(self._pools), None
        await asyncio.gather(*(asyncio.to_thread(p.shutdown, wait=True, cancel_futures=True) for p in pools))
