"""AI decisions in worker processes (cogs/ai_seats.py): states and actions of every game pickle, a decision made in
a spawned worker equals the one made in the bot's process (same seed), a worker that dies is replaced and the
decision tried once more, a second death is reported the usual way, and the pool follows the cog's life."""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import os
import pickle
import random
import time
from pathlib import Path

import pytest

import ai
import engine
from bot import processes_from_env
from cogs.ai_seats import AISeatsCog, new_pool
from tests.bot.driver import play_one_action
from tests.bot.harness import CHANNEL_ID, Harness

ALL_MODULES = {"vizier": True, "huts": True, "exchange": True, "bonus": True}
# (game, options, players): every game, Alhambra with every module of The Vizier's Favour and without
CASES = [
    ("alhambra", ALL_MODULES, 4),
    ("alhambra", {"vizier": True}, 3),
    ("alhambra", {}, 2),
    ("gardens", {}, 2),
    ("queens_garden", {}, 4),
]


def positions(game: str, options: dict, players: int, every: int = 12, moves: int = 60):
    """Some states of a seeded random game (every `every` moves), AI seats only, with the player to move."""
    rules = engine.get_rules(game)
    seats = [ai.ai_player_id("normal", i + 1) for i in range(players)]
    state = rules.new_game(seats, options, seed=123)
    rnd = random.Random(5)
    for k in range(moves):
        if rules.is_over(state):
            return
        if k % every == 0:
            yield state, rules.to_move(state)[0]
        p = rnd.choice(rules.to_move(state))
        state = rules.apply(state, p, rnd.choice(rules.legal_actions(state, p)))


def test_ai_processes_setting():
    assert processes_from_env("AI_PROCESSES", None, 1) == 1 and processes_from_env("AI_PROCESSES", "", 1) == 1
    assert processes_from_env("AI_PROCESSES", " 2 ", 1) == 2 and processes_from_env("AI_PROCESSES", "0", 1) == 0
    assert processes_from_env("AI_PROCESSES", "-3", 1) == 0
    with pytest.raises(SystemExit, match="AI_PROCESSES must be"):  # a typo stops the bot with one clear line
        processes_from_env("AI_PROCESSES", "many", 1)


@pytest.mark.parametrize(
    ("game", "options", "players"),
    CASES,
    ids=["alhambra-all-modules", "alhambra-vizier", "alhambra", "gardens", "queens_garden"],
)
def test_states_and_actions_pickle_and_worker_decisions_equal_the_bots(game, options, players):
    """What goes to a worker process comes back equal (frozen dataclasses with tuples, frozensets and dicts
    inside), and the spawned worker decides exactly what the bot's own process decides for the same seed, at
    every level (hard with an iteration budget, the deterministic kind): a replayed game stays replayable."""
    rules = engine.get_rules(game)
    supported = ai.supports(game, options)
    pool = new_pool(1)
    try:
        for state, seat in positions(game, options, players):
            assert pickle.loads(pickle.dumps(state)) == state
            for action in rules.legal_actions(state, seat)[:50]:
                assert pickle.loads(pickle.dumps(action)) == action
            if not supported:
                continue
            for level, budget in (("easy", None), ("normal", None), ("hard", 12)):
                here = ai.choose(game, state, seat, level, 7, budget)
                there = pool.submit(functools.partial(ai.choose, game, state, seat, level, 7, budget)).result(60)
                assert there == here, (game, level)
    finally:
        pool.shutdown(cancel_futures=True)


# --------------------------------------------------------------------------------------------- dying workers
# A worker process runs these (they are found by name, like `ai.choose`): the first call ever (a marker file
# tells) or every call ends the process as an out-of-memory kill would.


def dies_once(*args, **kwargs):
    flag = Path(os.environ["AI_TEST_DIE_FLAG"])
    if not flag.exists():
        flag.touch()
        os._exit(3)
    return ai.choose(*args, **kwargs)


def always_dies(*args, **kwargs):
    os._exit(3)


def thinks_forever(*args, **kwargs):
    Path(os.environ["AI_TEST_THINKING_FLAG"]).touch()
    time.sleep(600)


def cog_of(h: Harness) -> AISeatsCog:
    cog = h.bot.get_cog("AISeatsCog")
    assert type(cog).__name__ == "AISeatsCog"
    return cog


async def gardens_with_ai(h: Harness, ana):
    await h.run_command(ana, "game create", game="gardens", ai_players=1, ai_level="normal")
    await h.click(ana, h.last_public(), "Start")
    return h.last_public()


async def test_a_dead_worker_process_is_replaced_and_the_decision_tried_again(
    harness, users, monkeypatch, tmp_path, caplog
):
    """The worker process dies while the AI decides: a new pool is made, the same decision runs again there and
    the AI's move is played and posted as usual (no note, nothing logged as an error)."""
    monkeypatch.setenv("AI_TEST_DIE_FLAG", str(tmp_path / "died"))
    monkeypatch.setattr(ai, "choose", dies_once)
    cog = cog_of(harness)
    cog.processes = 1  # the default (AI_PROCESSES unset): one worker process, whatever this run's environment
    ana = users[0]
    post = await gardens_with_ai(harness, ana)
    with caplog.at_level(logging.WARNING, logger="cogs.ai_seats"):
        await play_one_action(harness, ana, post, random.Random(1))
    assert (tmp_path / "died").exists() and cog.pools_made == 2
    assert any("AI worker process died" in r.getMessage() for r in caplog.records)
    assert harness.last_public().content.startswith("**AI (normal) 1** ")
    row = await harness.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 2 and harness.bot.session.to_move(row) == [ana.sid]


async def test_a_worker_that_dies_twice_is_reported_and_the_game_left_untouched(harness, users, monkeypatch):
    ana = users[0]
    cog = cog_of(harness)
    cog.processes = 1
    post = await gardens_with_ai(harness, ana)
    real = ai.choose
    monkeypatch.setattr(ai, "choose", always_dies)
    await play_one_action(harness, ana, post, random.Random(1))
    note = harness.last_public()
    assert note.content.startswith("⚠️ **AI (normal) 1** ran into a problem choosing its move; nothing was changed.")
    [record] = harness.errors.records
    assert "AI ai:normal:1 failed deciding move 2" in record.getMessage()
    assert isinstance(record.exc_info[1], concurrent.futures.process.BrokenProcessPool)
    harness.errors.records.clear()
    row = await harness.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 1 and harness.bot.session.to_move(row) == ["ai:normal:1"]
    monkeypatch.setattr(ai, "choose", real)  # the AI works again: the periodic pass plays its move in a fresh worker
    await cog.kick_all()
    await harness.settle()
    assert harness.last_public().content.startswith("**AI (normal) 1** ") and cog.pools_made == 3


async def test_the_pool_is_made_with_the_first_decision_and_shut_down_with_the_cog(tmp_path, fake_game):
    """No AI process starts before an AI decides (a bot without AI games runs none); cog_unload (bot.close) shuts
    the pool down; AI_PROCESSES=0 makes no pool at all."""
    h = await Harness.start(tmp_path / "games.sqlite3")
    cog = cog_of(h)
    assert cog._pool is None and cog.pools_made == 0
    rules = engine.get_rules("gardens")
    state = rules.new_game(["ai:easy:1", "ai:easy:2"], {}, seed=1)
    assert await cog.decide("gardens", state, "ai:easy:1", 1) in rules.legal_actions(state, "ai:easy:1")
    pool = cog._pool
    assert isinstance(pool, concurrent.futures.ProcessPoolExecutor) and cog.pools_made == 1
    await h.close()
    assert cog._pool is None
    with pytest.raises(RuntimeError):
        pool.submit(int)
    h = await Harness.start(tmp_path / "games.sqlite3", ai_processes=0)
    assert cog_of(h).processes == 0 and cog_of(h)._pool is None
    await h.close()


async def test_a_decision_running_at_shutdown_has_its_worker_ended_after_a_grace(tmp_path, fake_game, monkeypatch):
    """Closing the bot never hangs on a worker still thinking: after SHUTDOWN_GRACE its process is ended and the
    pending decision fails (nobody waits for it any more: the game's worker task was cancelled first)."""
    flag = tmp_path / "thinking"
    monkeypatch.setenv("AI_TEST_THINKING_FLAG", str(flag))
    h = await Harness.start(tmp_path / "games.sqlite3")
    cog = cog_of(h)
    cog.shutdown_grace = 0.2
    rules = engine.get_rules("gardens")
    state = rules.new_game(["ai:normal:1", "ai:normal:2"], {}, seed=1)
    monkeypatch.setattr(ai, "choose", thinks_forever)
    decision = asyncio.create_task(cog.decide("gardens", state, "ai:normal:1", 1))
    for _ in range(300):  # the worker has started and is thinking
        if flag.exists():
            break
        await asyncio.sleep(0.05)
    assert flag.exists()
    [worker] = cog._pool._processes.values()
    t = time.perf_counter()
    await h.close()
    assert time.perf_counter() - t < 60 and not worker.is_alive()  # not the 600 s of thinking
    with pytest.raises(concurrent.futures.process.BrokenProcessPool):
        await decision
    assert cog._pool is None and cog.pools_made == 1  # no new pool after the shutdown
