"""One random-game checker for every engine (OpenSpiel's random_sim_test, adapted to our contract).

`play_random_game` plays a complete game with random legal actions and checks after every action what the
contract promises: only listed movers have actions, every listed action applies, the input state is never
changed, JSON round trips of states and actions, illegal actions raise IllegalAction and change nothing, the
new state's log holds that action's events only (the same action on the state without its log gives the very
same state, and a handful of events) and the state stays small (`MAX_STATE_BYTES` of JSON as the bot writes it,
however long the game), and replaying the move log from `new_game` gives the same final state. Game tests pass their own invariants and
illegal-action generators. The steps are also usable one by one (`check_position`, `check_step`,
`check_optional_contract`, `check_final`): the hypothesis tests drive them with their own choices.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterable
from typing import Any

from engine import IllegalAction, MalformedAction, Text

Invariant = Callable[[Any, Any], None]  # (rules, state) -> None, asserts

# A state as the bot writes it after every move (compact JSON) stays under this, however long the game: the
# largest, a finished 6-player Alhambra with every module, is about 14 KiB with Discord ids since its event texts
# are data (Texts: templates and their parameters; about 10 KiB as plain English), its last action's
# seven scoring lines being most of the log.
MAX_STATE_BYTES = 16 * 1024
MAX_LOG_EVENTS = 64  # the events of one action (a final scoring of 6 players and Dirk is about 15)
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
        assert isinstance(exc.text, Text) and str(exc.text) == str(exc), "a refusal that is not a Text"
    else:
        raise AssertionError(f"illegal action accepted ({why}): {action!r}")
    assert rules.to_json(state) == before, "a rejected action changed the state"


def check_step(
    rules,
    state,
    player: str,
    action,
    rnd: random.Random,
    *,
    invariants: Invariant | None = None,
    illegal: IllegalGen | None = None,
    before: dict | None = None,
):
    """Apply `action` by `player` to `state` (listed for them by `legal_actions`, or by `free_actions`) with every
    per-step check of the contract; returns the new state. `before`: the state's JSON, if known already."""
    players = state.players
    movers = rules.to_move(state)
    free = rules.is_free_action(action)
    assert free or player in movers, f"{player} acts but is not to move"

    # serialisation of the state, its views and the action
    json_round_trip(rules, state)
    for viewer in (None, player):
        seen = rules.view(state, viewer)
        assert type(seen) is type(state)
        json.dumps(rules.to_json(seen))
    assert rules.action_from_json(json.loads(json.dumps(rules.action_to_json(action)))) == action
    text = rules.describe(action)
    assert isinstance(text, Text) and str(text)

    # illegal actions: an outsider playing this action, and the game's own illegal candidates
    if before is None:
        before = rules.to_json(state)
    outsiders = [p for p in players if p not in movers]
    if outsiders and not free:
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
    check_log(rules, state, player, action, new)
    if invariants:
        invariants(rules, new)
    return new


def check_log(rules, state, player: str, action, new) -> None:
    """The contract on the log: after an action it holds that action's events only, so the state does not grow
    with the game. The same action applied to the state with its log emptied gives the very same state (nothing
    of the old log is kept), the log is a handful of events, and the state's JSON stays under the bound."""
    assert rules.step(dataclasses.replace(state, log=()), player, action) == new, "the new log kept older events"
    assert len(new.log) <= MAX_LOG_EVENTS, f"{len(new.log)} events for one action"
    size = len(json.dumps(rules.to_json(new), separators=(",", ":")))
    assert size <= MAX_STATE_BYTES, f"the state takes {size} bytes of JSON"


def check_position(rules, state) -> list[str]:
    """What holds in any running position: someone is to move, and only they have legal actions. Returns
    `to_move`."""
    movers = rules.to_move(state)
    assert movers, "no player to move in a running game"
    for p in state.players:
        if p not in movers:
            assert rules.legal_actions(state, p) == [], f"{p} is not to move but has actions"
    return movers


def check_optional_contract(rules, state, movers: list[str]) -> None:
    """The optional contract (engine/_common.py): out-of-turn players are movers, yet someone must act; free
    actions are marked free and never listed as turn actions; turn actions are not free."""
    side = rules.out_of_turn(state)
    assert set(side) <= set(movers) and any(p not in side for p in movers), (side, movers)
    for p in state.players:
        legal = rules.legal_actions(state, p)
        assert not any(rules.is_free_action(a) for a in legal), "a free action listed as a turn action"
        free = rules.free_actions(state, p)
        assert all(rules.is_free_action(a) for a in free), "free_actions lists a turn action"


def check_final(rules, state, players: list[str]) -> None:
    """A finished game: nobody to move, scores for every player, winners among them, JSON round trip."""
    assert rules.to_move(state) == []
    scores = rules.scores(state)
    assert set(scores) >= set(players)
    winners = rules.winners(state)
    assert winners and set(winners) <= set(players)
    json_round_trip(rules, state)


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
        movers = check_position(rules, state)
        player = rnd.choice(movers)
        legal = rules.legal_actions(state, player)
        assert legal, f"{player} is to move but has no legal action"
        action = rnd.choice(legal)
        state = check_step(rules, state, player, action, rnd, invariants=invariants, illegal=illegal)
        log.append((player, action))
    else:
        raise AssertionError(f"game not over after {max_steps} actions")

    check_final(rules, state, players)

    # replay the move log from new_game: the same final state, exactly
    replay = rules.new_game(players, options or {}, seed)
    for player, action in log:
        replay = rules.apply(replay, player, action)
    assert replay == state, "replaying the move log gave a different state"
    return state, log


Rehide = Callable[[Any, Any, str, random.Random], Any]  # (rules, state, actor, rnd) -> state re-dealt


def check_reveals(rules, before, player: str, action, after, rehide: Rehide, rnd: random.Random) -> None:
    """`reveals` says no only if nothing hidden mattered: re-deal what neither the actor nor a spectator can
    see (`rehide`), apply the same action, and both must see the same result and the same players to move."""
    if rules.reveals(before, player, action, after):
        return
    other = rehide(rules, before, player, rnd)
    observers = (player, None)
    for o in observers:
        assert rules.view(other, o) == rules.view(before, o), f"the re-deal changed what {o!r} sees"
    if rules.to_move(other) != rules.to_move(before):
        return  # who may act out of turn already told something about the re-dealt cards: no fair comparison
    result = rules.step(other, player, action)
    for o in observers:
        assert rules.view(result, o) == rules.view(after, o), f"{action!r} showed {o!r} something hidden"
    assert rules.to_move(result) == rules.to_move(after), f"{action!r} showed hidden things through to_move"
