"""Property tests driven by hypothesis: a configuration, a seed, a number of steps and one choice index per step
pick a game and the actions played in it (each index picks among every listed turn action of every mover and
every free action); the shared checker (tests/engine/playout.py) checks the contract at each step (the log holding
that action's events only and the state's JSON under its bound included). A failing
example shrinks to the fewest steps and the first choices. `reveals` is checked too: an action that reveals nothing
must give the same result, for the actor and for spectators, whatever was hidden from them. Sized by
PROPERTY_GAMES (examples per game); derandomized, so CI runs the same examples every time. Each game's
configurations, sizes and re-deal of hidden information come from its profile (tests/games.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import get_rules
from tests.conftest import property_games
from tests.engine.playout import (
    check_final,
    check_optional_contract,
    check_position,
    check_reveals,
    check_step,
    players_for,
)
from tests.games import configs, profile


def nothing_hidden(rules: Any, s: Any, actor: str, rnd: random.Random) -> Any:
    """The re-deal of a game that hides nothing: the same state."""
    return s


def play_prefix(
    game: str, config: tuple[int, dict[str, Any]], seed: int, steps: int, choose: Callable[[int], int]
) -> None:
    """Play `steps` actions (fewer if the game ends) from a new game, `choose(n)` picking one of n each time,
    checking every step; then replay the moves."""
    rules = get_rules(game)
    hidden = profile(game).hidden
    rehide = hidden.rehide if hidden is not None else nothing_hidden
    n, options = config
    players = players_for(n)
    state = rules.new_game(players, options, seed)
    rnd = random.Random(seed)
    moves = []
    for _ in range(steps):
        if rules.is_over(state):
            break
        movers = check_position(rules, state)
        check_optional_contract(rules, state, movers)
        listed = [(p, a) for p in movers for a in rules.legal_actions(state, p)]
        listed += [(p, a) for p in players for a in rules.free_actions(state, p)]
        assert listed, "movers without a single action"
        player, action = listed[choose(len(listed))]
        before = state
        state = check_step(rules, before, player, action, rnd)
        check_reveals(
            rules,
            before,
            player,
            action,
            state,
            rehide,
            rnd,
        )
        moves.append((player, action))
    if rules.is_over(state):
        check_final(rules, state, players)
    replay = rules.new_game(players, options, seed)
    for player, action in moves:
        replay = rules.apply(replay, player, action)
    assert replay == state, "replaying the moves gave a different state"


def test_random_action_sequences_keep_the_contract(game):
    """Every step of a hypothesis-chosen game keeps the contract (movers, listed actions apply, illegal ones
    are refused and change nothing, JSON, views, the optional contract, reveals), and the moves replay."""

    @settings(
        max_examples=property_games(profile(game).examples),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        config=st.sampled_from(configs(game)),
        seed=st.integers(min_value=0, max_value=2**31 - 1),
        steps=st.integers(min_value=0, max_value=profile(game).max_steps),
        data=st.data(),
    )
    def run(config: tuple[int, dict[str, Any]], seed: int, steps: int, data: st.DataObject) -> None:
        play_prefix(game, config, seed, steps, lambda n: data.draw(st.integers(min_value=0, max_value=n - 1)))

    run()
