"""The bot's worker processes (the boards' drawing, the AI's decisions): one way to start them.

Every worker is spawned (a fresh interpreter, nothing of the bot's state inherited), leaves Ctrl+C (and, for the
drawing workers, SIGTERM) to the bot, which shuts its pools down itself, and ends by itself within about a second
once the bot that started it is gone, however the bot died (kill -9, a crash, the out-of-memory killer): a bot
that a plain supervisor restarts after crashes never piles up orphaned workers, and no supervisor's clean-up
(systemd's, Docker's) is assumed.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PARENT_POLL = 0.5  # seconds between two looks at whether the bot is still there


def _watch(parent: int) -> None:
    """Exit this worker as soon as its parent is no longer `parent` (a dead parent's children are re-parented)."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(0)  # the bot is gone: nobody will read what this worker makes


def _start(parent: int, ignore_term: bool) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if ignore_term:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()


def new_pool(processes: int, *, ignore_term: bool = False) -> ProcessPoolExecutor:
    """A pool of `processes` spawned workers that end with the bot (they start with the pool's first job).
    `ignore_term`: they also ignore SIGTERM (a service manager signals the whole process group at once; the
    bot then shuts the pool down in order)."""
    return ProcessPoolExecutor(
        max_workers=processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=functools.partial(_start, os.getpid(), ignore_term),
    )
