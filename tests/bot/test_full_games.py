"""Whole games through the harness, from /game create to the final scores, using only interactions."""

import random
import time

import pytest

import engine
from tests.bot.driver import announced_scores, create_and_start, play_to_end
from tests.bot.harness import CHANNEL_ID

# Alhambra (3 players) is played in full by test_leak.py, which checks its final scores the same way.
CASES = [("fake", 3, "target=100"), ("gardens", 2, None), ("queens_garden", 4, None)]


@pytest.mark.parametrize(("game", "n", "options"), CASES, ids=[c[0] for c in CASES])
async def test_full_game_announces_the_engines_final_scores(harness, users, game, n, options):
    """A complete game played with buttons and menus only; the final post's scores are the engine's."""
    players = users[:n]
    t0 = time.perf_counter()
    post = await create_and_start(harness, game, players, options=options)
    final, actions = await play_to_end(harness, players, post, random.Random(7))
    row = await harness.bot.session.storage.last_game_in_channel(CHANNEL_ID)
    rules = engine.get_rules(game)
    state = rules.from_json(row.state)
    assert row.status == "finished" and rules.is_over(state)
    want = {row.seat_name(p): s for p, s in rules.scores(state).items() if p in row.player_ids}
    assert announced_scores(final) == want
    assert row.version == actions == len(await harness.bot.session.storage.moves(row.id))
    print(f"\n{game}: {actions} actions in {time.perf_counter() - t0:.1f}s\n{final.content}")
