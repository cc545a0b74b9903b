"""Fixtures for the Discord-layer tests: a fake game registered in the engine registry, and a running bot wired
to a fake Discord (see harness.py)."""

from __future__ import annotations

import pytest

import engine
import render
from tests.bot import fakegame
from tests.bot.harness import MANAGER, Harness, User


@pytest.fixture
def fake_game(monkeypatch):
    """Register the tiny test game as "fake" next to the real ones."""
    real = engine.get_rules

    def get_rules(game):
        return fakegame.RULES if game == "fake" else real(game)

    monkeypatch.setattr(engine, "GAMES", (*engine.GAMES, "fake"))
    # the renderer draws its "not ready yet" placeholder for a game it has no module for
    monkeypatch.setitem(render.GAME_TITLES, "fake", fakegame.RULES.title)
    monkeypatch.setattr(engine, "get_rules", get_rules)
    return fakegame.RULES


@pytest.fixture
def users():
    return [User(100000000000000001 + i, name) for i, name in enumerate(["Ana", "Bo", "Cyd", "Dee", "Eve"])]


@pytest.fixture
def admin():
    return User(100000000000000099, "Mod", permissions=MANAGER)


@pytest.fixture
async def harness(tmp_path, fake_game):
    h = await Harness.start(tmp_path / "games.sqlite3")
    yield h
    await h.close()
    assert h.fake.violations == [], h.fake.violations
    assert h.unexpected_errors == [], h.unexpected_errors
