"""Fixtures for the Discord-layer tests: a fake game registered in the engine registry, and a running bot wired
to a fake Discord (see harness.py)."""

from __future__ import annotations

import pytest

import engine
from tests.bot import fakegame
from tests.bot.harness import MANAGER, Harness, User


@pytest.fixture
def fake_game():
    """Register the tiny test game as "fake" next to the real ones, the way any game registers (its rules and
    its words in one module; no renderer, so the placeholder image; no AI player)."""
    engine.register(engine.GameEntry("fake", rules="tests.bot.fakegame", present="tests.bot.fakegame"))
    yield fakegame.RULES
    engine.unregister("fake")


@pytest.fixture
def users():
    return [User(100000000000000001 + i, name) for i, name in enumerate(["Ana", "Bo", "Cyd", "Dee", "Eve"])]


@pytest.fixture
def admin():
    return User(100000000000000099, "Mod", permissions=MANAGER)


@pytest.fixture
async def bots(tmp_path):
    """A running bot whose AI players think in a thread of the bot (no worker process to start)."""
    h = await Harness.start(tmp_path / "games.sqlite3", ai_processes=0)
    yield h
    await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


@pytest.fixture
async def harness(tmp_path, fake_game):
    h = await Harness.start(tmp_path / "games.sqlite3")
    yield h
    await h.close()
    assert h.fake.violations == [], h.fake.violations
    assert h.unexpected_errors == [], h.unexpected_errors


from tests.pgserver import pg_server, pg_url  # noqa: E402, F401 (a real PostgreSQL for the shard tests)
