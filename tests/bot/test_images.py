"""Boards are drawn in worker processes, one per game id modulo the number of workers, never on the event loop;
the image of a stored position equals the one the renderer draws from the public view."""

from __future__ import annotations

import concurrent.futures
import random

import engine
from render import render_png
from tests.bot.driver import create_and_start, play_one_action
from tests.bot.harness import CHANNEL_ID, Harness


async def test_images_are_drawn_in_worker_processes_and_equal_the_public_render(tmp_path, users):
    h = await Harness.start(tmp_path / "games.sqlite3", render_processes=2)
    try:
        ana, bo = users[:2]
        post = await create_and_start(h, "gardens", [ana, bo])
        await play_one_action(h, ana, post, random.Random(3))
        images = h.bot.images
        # both workers started (and warmed) with the bot; game 1 is drawn by worker 1 % 2
        assert all(isinstance(p, concurrent.futures.ProcessPoolExecutor) for p in images._pools)
        row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
        rules = engine.get_rules("gardens")
        public = render_png("gardens", rules.view(h.bot.session.state_of(row), None), None, h.bot.session.names(row))
        assert h.last_public(CHANNEL_ID).files[0][1] == public  # byte for byte what the renderer draws
        assert images.drawn >= 2
    finally:
        await h.close()
    assert all(p is None for p in h.bot.images._pools)  # shut down with the bot
    assert h.fake.violations == [] and h.unexpected_errors == []
