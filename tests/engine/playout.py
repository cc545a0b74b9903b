"""One random-game checker for every engine (OpenSpiel's random_sim_test, adapted to our contract).

`play_random_game` plays a complete game with random legal actions and checks after every action what the
contract promises: only listed movers have actions, every listed action applies, the input state is never
changed, JSON round trips of states and actions, illegal actions raise IllegalAction and change nothing, and
replaying the move log from `new_game` gives the same final state. Game tests pass their own invariants and
illegal-action generators.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from typing import Any

from engine import IllegalAction, MalformedAction

Invariant = Callable[[Any, Any], None]  # (rules, state) -> None, asserts
IllegalGen = Callable[[Any, Any, str, random.Random], Iterable[Any]]  # (rules, state, player, rnd) -> actions


def players_for(n: int) -> list[str]:
    return [str(1000 + i) for i in range(n)]


def json_round_trip(rules, state) -> None:
    data = json.loads(json.dumps(rules.to_json(state)))
    assert rules.from_json(data) == state, "from_json(to_json(s)) != s"


def assert_rejected(rules, state, player, action, why: str = "", before: dict | None = None) -> None:
    """`action` raises IllegalAction with a message and leaves `state` as it was (`before`: its JSON, if known)."""
    if before is None:
        before = rules.to_json(state)
    try:
        rules.apply(state, player, action)
    except IllegalAction as exc:
        assert str(exc), "IllegalAction without a message"
    else:
        raise AssertionError(f"illegal action accepted ({why}): {action!r}")
    assert rules.to_json(state) == before, "a rejected action changed the state"


def play_random_game(
    rules,
    n_players: int,
    options: dict | None,
    seed: int,
    *,
    invariants: Invariant | None = None,
    illegal: IllegalGen | None = None,
    max_steps: int = 20_000,
) -> tuple[Any, list[tuple[str, Any]]]:
    """Play one random complete game with every contract check; returns (final state, move log)."""
    players = players_for(n_players)
    rnd = random.Random(seed)
    start = rules.new_game(players, options or {}, seed)
    state = start
    log: list[tuple[str, Any]] = []
    if invariants:
        invariants(rules, state)
    for _ in range(max_steps):
        if rules.is_over(state):
            break
        movers = rules.to_move(state)
        assert movers, "no player to move in a running game"
        for p in players:
            if p not in movers:
                assert rules.legal_actions(state, p) == [], f"{p} is not to move but has actions"
        player = rnd.choice(movers)
        legal = rules.legal_actions(state, player)
        assert legal, f"{player} is to move but has no legal action"
        action = rnd.choice(legal)

        # serialisation of the state, its views and the action
        json_round_trip(rules, state)
        for viewer in (None, player):
            seen = rules.view(state, viewer)
            assert type(seen) is type(state)
            json.dumps(rules.to_json(seen))
        assert rules.action_from_json(json.loads(json.dumps(rules.action_to_json(action)))) == action
        text = rules.describe(action)
        assert isinstance(text, str) and text

        # illegal actions: an outsider playing this action, and the game's own illegal candidates
        before = rules.to_json(state)
        outsiders = [p for p in players if p not in movers]
        if outsiders:
            assert_rejected(rules, state, rnd.choice(outsiders), action, "player not to move", before)
        if illegal:
            for bad in illegal(rules, state, player, rnd):
                assert_rejected(rules, state, player, bad, "game-specific", before)
        try:
            rules.action_from_json({"kind": "no_such_action"})
        except MalformedAction:
            pass
        else:
            raise AssertionError("unknown action kind accepted")

        new = rules.apply(state, player, action)
        assert rules.to_json(state) == before, "apply changed its input state"
        if invariants:
            invariants(rules, new)
        log.append((player, action))
        state = new
    else:
        raise AssertionError(f"game not over after {max_steps} actions")

    assert rules.to_move(state) == []
    scores = rules.scores(state)
    assert set(scores) >= set(players)
    winners = rules.winners(state)
    assert winners and set(winners) <= set(players)
    json_round_trip(rules, state)

    # replay the move log from new_game: the same final state, exactly
    replay = rules.new_game(players, options or {}, seed)
    for player, action in log:
        replay = rules.apply(replay, player, action)
    assert replay == state, "replaying the move log gave a different state"
    return state, log
