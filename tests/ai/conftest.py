"""The AI tests run over every game with an AI player: a test parametrized with a game whose registry entry names
no AI (a plugin may leave it out: the bot then offers no AI seats) is skipped, saying so."""

import pytest

from tests.games import has_ai


@pytest.fixture(autouse=True)
def ai_games_only(request):
    callspec = getattr(request.node, "callspec", None)
    game = callspec.params.get("game") if callspec is not None else None
    if isinstance(game, str) and not has_ai(game):
        pytest.skip(f"{game} has no AI player (its registry entry names none)")
