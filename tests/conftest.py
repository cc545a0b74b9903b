"""Shared test settings and the games fixture.

PROPERTY_GAMES sets how many random complete games each property test plays per configuration (player count,
variant, module set). CI uses the small default; the full sizes named in the issues are run by hand, e.g.
`PROPERTY_GAMES=300 pytest tests/engine`.

A test taking `game` runs once per game of `tests.games.names()` (the registry's and the test-only ones); a
test-only game is registered in the engine registry for that test alone (see tests/games.py).
"""

import os

import pytest

import engine
from tests import games


def property_games(default: int) -> int:
    """The number of random games per configuration: $PROPERTY_GAMES if set, else `default`."""
    value = os.environ.get("PROPERTY_GAMES")
    return int(value) if value else default


@pytest.fixture
def n_games():
    return property_games


def pytest_generate_tests(metafunc):
    """`game` (when a test does not parametrize it itself): every game the shared tests run."""
    if "game" in metafunc.fixturenames and not any(
        "game" in (m.args[0] if isinstance(m.args[0], (list, tuple)) else m.args[0].replace(" ", "").split(","))
        for m in metafunc.definition.iter_markers("parametrize")
    ):
        metafunc.parametrize("game", games.names())


@pytest.fixture(autouse=True)
def test_only_game(request):
    """Register the test-only game a test is parametrized with (its `game` or `name` parameter), for that test
    alone."""
    callspec = getattr(request.node, "callspec", None)
    params = callspec.params if callspec is not None else {}
    name = next((v for k, v in params.items() if k in ("game", "name") and isinstance(v, str)), None)
    entry = games.test_only().get(name) if name is not None else None
    if entry is None or name in engine.GAMES:
        yield None
        return
    engine.register(entry)
    try:
        yield name
    finally:
        engine.unregister(name)
