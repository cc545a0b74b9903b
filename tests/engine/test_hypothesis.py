"""Property tests driven by hypothesis: a configuration, a seed, a number of steps and one choice index per step
pick a game and the actions played in it (each index picks among every listed turn action of every mover and
every free action); the shared checker (tests/engine/playout.py) checks the contract at each step (the log holding
that action's events only and the state's JSON under its bound included). A failing
example shrinks to the fewest steps and the first choices. `reveals` is checked too: an action that reveals nothing
must give the same result, for the actor and for spectators, whatever was hidden from them. Sized by
PROPERTY_GAMES (examples per game); derandomized, so CI runs the same examples every time."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GAMES, get_rules
from engine.alhambra.components import SCORING_CARDS
from tests.conftest import property_games
from tests.engine.playout import (
    check_final,
    check_optional_contract,
    check_position,
    check_reveals,
    check_step,
    players_for,
)

ALL_MODULES = {"vizier": True, "huts": True, "exchange": True, "bonus": True}
CONFIGS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "alhambra": [(2, {}), (3, {}), (6, {}), (2, ALL_MODULES), (3, ALL_MODULES), (5, {"vizier": True, "bonus": True})],
    "gardens": [(2, {}), (4, {}), (2, {"two_colours": True}), (3, {"three_tile_hand": True})],
    "queens_garden": [(2, {}), (3, {}), (4, {})],
}
MAX_STEPS = {"alhambra": 300, "gardens": 60, "queens_garden": 150}  # enough to end a game now and then
EXAMPLES = {"alhambra": 10, "gardens": 30, "queens_garden": 20}  # ~1.5 s each on the 2-core machine


def _deal(pool: list[Any], sizes: list[int]) -> tuple[list[tuple[Any, ...]], list[Any]]:
    out, k = [], 0
    for n in sizes:
        out.append(tuple(pool[k : k + n]))
        k += n
    return out, pool[k:]


def rehide_alhambra(rules: Any, s: Any, actor: str, rnd: random.Random) -> Any:
    """Re-deal what neither the actor nor a spectator sees: the deck with its scoring cards (A16), the other hands
    (A20, V44), the bag order, the huts below each face-up top (V21), the other players' unplayed bonus cards
    and those set aside (V61), the seed."""
    me = s.players.index(actor)
    others = [i for i in range(len(s.players)) if i != me]
    pool = [c for i in others for c in s.seats[i].hand] + [c for c in s.deck if c not in SCORING_CARDS]
    rnd.shuffle(pool)
    hands, rest = _deal(pool, [len(s.seats[i].hand) for i in others])
    deck = [c for c in s.deck if c in SCORING_CARDS] + rest
    rnd.shuffle(deck)
    bonus = [c for i in others for c in s.seats[i].bonus_hand] + list(s.bonus_aside)
    rnd.shuffle(bonus)
    bonus_hands, aside = _deal(bonus, [len(s.seats[i].bonus_hand) for i in others])
    seats = list(s.seats)
    for i, hand, held in zip(others, hands, bonus_hands, strict=True):
        seats[i] = replace(seats[i], hand=tuple(sorted(hand)), bonus_hand=held)
    bag = list(s.bag)
    rnd.shuffle(bag)
    huts = tuple(tuple(rnd.sample(stack[:-1], len(stack[:-1]))) + stack[-1:] for stack in s.huts)
    return replace(
        s,
        seats=tuple(seats),
        deck=tuple(deck),
        bag=tuple(bag),
        huts=huts,
        bonus_aside=tuple(aside),
        seed=rnd.getrandbits(40),
    )


def rehide_gardens(rules: Any, s: Any, actor: str, rnd: random.Random) -> Any:
    """Re-deal the supply and the other players' hands (G19), and the seed."""
    me = s.players.index(actor)
    pool = [t for i, hand in enumerate(s.hands) if i != me for t in hand] + list(s.supply)
    rnd.shuffle(pool)
    dealt, supply = _deal(pool, [len(hand) for i, hand in enumerate(s.hands) if i != me])
    hands = list(dealt)
    hands.insert(me, s.hands[me])
    return replace(s, hands=tuple(hands), supply=tuple(supply), seed=rnd.getrandbits(40))


def rehide_queens_garden(rules: Any, s: Any, actor: str, rnd: random.Random) -> Any:
    """Re-deal the bag order and every face-down expansion (round stacks, supply, display pieces still holding
    tiles, blank expansions in gardens), and the seed: storages and everything face up are public (Q8)."""
    bag = list(s.bag)
    rnd.shuffle(bag)
    hidden = [*s.stack, *(e for stack in s.stacks for e in stack), *s.supply]
    hidden += [p.expansion for p in s.display if not p.face_up]
    hidden += [p.expansion for seat in s.seats for p in seat.placed if not p.face_up]
    rnd.shuffle(hidden)
    ids = iter(hidden)
    stack = tuple(next(ids) for _ in s.stack)
    stacks = tuple(tuple(next(ids) for _ in st) for st in s.stacks)
    supply = tuple(next(ids) for _ in s.supply)
    display = tuple(p if p.face_up else replace(p, expansion=next(ids)) for p in s.display)
    seats = tuple(
        replace(seat, placed=tuple(p if p.face_up else replace(p, expansion=next(ids)) for p in seat.placed))
        for seat in s.seats
    )
    return replace(
        s,
        bag=tuple(bag),
        stack=stack,
        stacks=stacks,
        supply=supply,
        display=display,
        seats=seats,
        seed=rnd.getrandbits(40),
    )


REHIDE = {"alhambra": rehide_alhambra, "gardens": rehide_gardens, "queens_garden": rehide_queens_garden}


def play_prefix(
    game: str, config: tuple[int, dict[str, Any]], seed: int, steps: int, choose: Callable[[int], int]
) -> None:
    """Play `steps` actions (fewer if the game ends) from a new game, `choose(n)` picking one of n each time,
    checking every step; then replay the moves."""
    rules = get_rules(game)
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
        check_reveals(rules, before, player, action, state, REHIDE[game], rnd)
        moves.append((player, action))
    if rules.is_over(state):
        check_final(rules, state, players)
    replay = rules.new_game(players, options, seed)
    for player, action in moves:
        replay = rules.apply(replay, player, action)
    assert replay == state, "replaying the moves gave a different state"


@pytest.mark.parametrize("game", GAMES)
def test_random_action_sequences_keep_the_contract(game):
    """Every step of a hypothesis-chosen game keeps the contract (movers, listed actions apply, illegal ones
    are refused and change nothing, JSON, views, the optional contract, reveals), and the moves replay."""

    @settings(
        max_examples=property_games(EXAMPLES[game]),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        config=st.sampled_from(CONFIGS[game]),
        seed=st.integers(min_value=0, max_value=2**31 - 1),
        steps=st.integers(min_value=0, max_value=MAX_STEPS[game]),
        data=st.data(),
    )
    def run(config: tuple[int, dict[str, Any]], seed: int, steps: int, data: st.DataObject) -> None:
        play_prefix(game, config, seed, steps, lambda n: data.draw(st.integers(min_value=0, max_value=n - 1)))

    run()
