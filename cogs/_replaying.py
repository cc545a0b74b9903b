"""The replays' work in a drawing worker (run through `Images.run`, cogs/_images.py): positions rebuilt from the
move log by the undo's own replay (`cogs._tempo.replayed`), public boards drawn, animations written a few frames
per job. No discord and no event loop here: the functions run in a worker process (or, with RENDER_PROCESSES=0, a
thread of the bot); `Kept` is the bot's own cache of their results (cogs/replays.py).

A worker keeps the replayed states of a few games (`KEPT`), so stepping through a game costs one drawing, and the
animation under way between its jobs: each job draws frames for at most `STEP_SECONDS` of CPU and returns, so the
boards of other games drawn by the same worker wait at most that long behind an animation.

Only `rules.view(state, None)` ever reaches the renderer: a replay shows what the table saw, nothing private.
"""

from __future__ import annotations

import collections
import dataclasses
import threading
import time
from collections.abc import Sequence
from typing import Any

import engine
from cogs._core import replayed
from render import render_png
from render.replay import RUNGS, Animation, TooBig, durations, frame_positions
from storage import GameRow, MoveRow

KEPT = 4  # games whose replayed states a worker keeps
STEP_SECONDS = 0.05  # CPU an animation job may take before it hands the worker back
ANIMATIONS = 2  # animations under way a worker keeps (an abandoned one is dropped)

_lock = threading.Lock()  # the bot's own threads share these when it draws without worker processes
_states: collections.OrderedDict[tuple[int, int], list[Any]] = collections.OrderedDict()
_animations: collections.OrderedDict[str, _Work] = collections.OrderedDict()


@dataclasses.dataclass
class _Work:
    """An animation under way: the states still to draw and how long each stays."""

    animation: Animation
    states: list[Any]
    durations: list[int]
    done: int = 0


class Kept:
    """Bytes by key, the least recently used dropped beyond `limit` bytes in all (the bot's frames and GIFs)."""

    def __init__(self, limit: int):
        self.limit, self.size = limit, 0
        self._items: collections.OrderedDict[Any, bytes] = collections.OrderedDict()

    def get(self, key: Any) -> bytes | None:
        data = self._items.get(key)
        if data is not None:
            self._items.move_to_end(key)
        return data

    def put(self, key: Any, data: bytes) -> None:
        old = self._items.pop(key, None)
        self.size += len(data) - (len(old) if old else 0)
        self._items[key] = data
        while self.size > self.limit and len(self._items) > 1:
            self.size -= len(self._items.popitem(last=False)[1])


def lean(row: GameRow) -> GameRow:
    """The row as a job needs it (what `replayed` reads), without the stored state's text."""
    return dataclasses.replace(row, state_json=None, table={})


def names(row: GameRow) -> dict[str, str]:
    return {s.id: s.name for s in row.seats}


def states_of(row: GameRow, moves: Sequence[MoveRow]) -> list[Any]:
    """Every position of the game (0: the deal, k: after move k), replayed once per worker and kept."""
    key = (row.id, len(moves))
    with _lock:
        states = _states.get(key)
        if states is not None:
            _states.move_to_end(key)
            return states
    states = list(replayed(row, moves))
    with _lock:
        _states[key] = states
        while len(_states) > KEPT:
            _states.popitem(last=False)
    return states


def frame(row: GameRow, moves: Sequence[MoveRow], position: int, lang: str) -> bytes:
    """The PNG of the public board at `position`: the very bytes the table's post of that position carries."""
    state = states_of(row, moves)[position]
    return render_png(row.game, engine.get_rules(row.game).view(state, None), None, names(row), lang=lang)


def animation_begin(token: str, row: GameRow, moves: Sequence[MoveRow], lang: str, rung: int) -> int:
    """Start the animation `token` of the whole game on rung `rung` of `render.replay.RUNGS`; returns its frames."""
    states = states_of(row, moves)
    rules = engine.get_rules(row.game)
    positions = frame_positions([m.player for m in moves], RUNGS[rung].stride)
    shown = [rules.view(states[k], None) for k in positions]
    animation = Animation(row.game, names(row), lang=lang, rung=RUNGS[rung])
    animation.use_palette(animation.draw(shown[0]), animation.draw(shown[-1]))
    with _lock:
        _animations[token] = _Work(animation, shown, durations(len(shown)))
        while len(_animations) > ANIMATIONS:
            _animations.popitem(last=False)
    return len(shown)


def animation_step(token: str, seconds: float = STEP_SECONDS) -> tuple[str, int]:
    """Draw the next frames of animation `token` for about `seconds` of CPU: ("more" | "done", frames drawn), or
    ("big", frames) when it would not fit its budget (it is dropped: the caller starts again a rung down), or
    ("lost", 0) when this worker does not hold it (it was restarted)."""
    with _lock:
        work = _animations.get(token)
    if work is None:
        return "lost", 0
    start = time.thread_time()
    try:
        while work.done < len(work.states):
            work.animation.add(work.states[work.done], work.durations[work.done])
            work.done += 1
            if time.thread_time() - start >= seconds:
                break
    except TooBig:
        with _lock:
            _animations.pop(token, None)
        return "big", work.done
    return ("done" if work.done == len(work.states) else "more"), work.done


def animation_end(token: str) -> bytes | None:
    """The finished GIF of animation `token` (None if this worker does not hold it), and the worker forgets it."""
    with _lock:
        work = _animations.pop(token, None)
    return work.animation.finish() if work is not None else None
