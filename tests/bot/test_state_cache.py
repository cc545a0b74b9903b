"""The session's cache of decoded states (cogs/_core.py): what it keeps of each game, and for how many games."""

from __future__ import annotations


def test_the_state_cache_keeps_the_latest_positions_of_the_games_played_lately():
    """The session keeps decoded states by position (cogs/_core.py): a move supersedes the position before, so
    of each game only its latest PER_GAME positions are held, and the cache covers the last STATES / PER_GAME
    games played, each found decoded at its next move however many moves it made before. An undo drops them."""
    from cogs._core import PER_GAME, STATES, Core
    from cogs._seating import Position

    core = Core(storage=None)  # type: ignore[arg-type]
    games = STATES // PER_GAME
    for version in range(1, 6):  # five moves in each of the games, one game after another
        for game in range(games):
            core.remember(Position(game, 0, version), ("state", game, version))
    assert len(core._states) == STATES
    for game in range(games):
        assert core._states.get(Position(game, 0, 5)) == ("state", game, 5)  # each one's latest position
        assert core._states.get(Position(game, 0, 4)) == ("state", game, 4)  # and the one before
        assert Position(game, 0, 3) not in core._states
    core.remember(Position(games, 0, 1), "a new game")  # the oldest entry makes room
    assert len(core._states) == STATES and Position(0, 0, 4) not in core._states
    core.forget(1)
    assert not any(k.game_id == 1 for k in core._states) and len(core._states) == STATES - PER_GAME
