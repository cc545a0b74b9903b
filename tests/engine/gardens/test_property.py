"""Random complete games for every player count and variant through the shared checker (tests/engine/playout.py),
with the Gardens invariants: 36 tiles always accounted for (G2), every building scored exactly once (G26, G32,
G34), awarded points add up to the scores (G30, G37), the results read from the board (`building_scores`) are
what the building events of the whole game said, a legal placement always exists (G24), and a batch of
illegal actions refused at every step (G12, G13, G17, G21, G22, G23)."""

import random
from collections import Counter

import pytest

from engine import get_rules
from engine.gardens import (
    BUILDING_NAMES,
    GARDEN_NAMES,
    HIDDEN,
    KINDS,
    TILE_IDS,
    ChooseColours,
    PlaceTile,
    building_scores,
)
from engine.gardens.geometry import GARDEN_NEIGHBOURS, INNER_GARDENS
from tests.conftest import property_games
from tests.engine.playout import play_random_game

RULES = get_rules("gardens")

CONFIGS = [
    (n, opts)
    for n in (2, 3, 4)
    for opts in ({}, {"three_tile_hand": True}, {"two_colours": True}, {"two_colours": True, "three_tile_hand": True})
    if n == 2 or not opts.get("two_colours")
]


class Invariants:
    """The invariants of one game, called on its states in order (the log holds each action's events only, so
    the building events of the game so far are gathered here)."""

    def __init__(self) -> None:
        self.events: list = []

    def __call__(self, rules, state) -> None:
        board = [x for x in state.board if x is not None]
        tiles = [t for t, _ in board] + [t for h in state.hands for t in h] + list(state.supply)
        assert sorted(tiles) == sorted(TILE_IDS), "hands + supply + board must be the 36 tiles (G2)"
        self.events += [e for e in state.log if e.kind == "building"]
        scored = Counter(e.data["building"] for e in self.events)
        assert all(c == 1 for c in scored.values()), "a building scored twice (G32)"
        awarded = sum(e.data["points"] for e in self.events)
        assert sum(rules.scores(state).values()) == awarded == sum(state.kind_scores)
        told = {e.data["building"]: {k: v for k, v in e.data.items() if k != "completed_by"} for e in self.events}
        assert building_scores(state) == told, "the results read from the board differ from the events"
        if rules.is_over(state):
            assert scored == {b: 1 for b in BUILDING_NAMES}, "every building scored exactly once by the end (G34)"
            assert all(not h for h in state.hands) and not state.supply  # G25


def illegal(rules, state, player, rnd: random.Random):
    """Actions the rules must refuse in this state."""
    if state.phase == "colours":
        taken = [k for ks in state.colours for k in ks]
        want = 2 if state.two_colours else 1
        free = [k for k in KINDS if k not in taken]
        if taken:
            yield ChooseColours((taken[0],) + tuple(free[: want - 1]))  # G17: taken
        yield ChooseColours(("blue",) * want)
        yield ChooseColours(tuple(free[: want + 1]) if len(free) > want else ())  # wrong number
        yield PlaceTile(state.hands[state.turn][0], "C3", 0)  # before colours
        return
    yield ChooseColours((KINDS[0],))  # colours after the start
    hand = state.hands[state.turn]
    tile = rnd.choice(hand)
    empty = [g for g, x in enumerate(state.board) if x is None]
    filled = [g for g, x in enumerate(state.board) if x is not None]
    not_mine = [t for t in TILE_IDS if t not in hand]
    yield PlaceTile(rnd.choice(not_mine), GARDEN_NAMES[rnd.choice(empty)], 0)  # G21: not in hand
    yield PlaceTile(HIDDEN, GARDEN_NAMES[rnd.choice(empty)], 0)
    yield PlaceTile(tile, GARDEN_NAMES[rnd.choice(empty)], rnd.choice([4, -1, 7]))  # G12/G13
    yield PlaceTile(tile, rnd.choice(["G1", "A0", "A7", "", "c3"]), 0)
    if filled:
        yield PlaceTile(tile, GARDEN_NAMES[rnd.choice(filled)], rnd.randrange(4))  # G21: occupied
        lonely = [g for g in empty if all(state.board[n] is None for n in GARDEN_NEIGHBOURS[g])]
        if lonely:
            yield PlaceTile(tile, GARDEN_NAMES[rnd.choice(lonely)], rnd.randrange(4))  # G23: not adjacent
    else:
        edge = [g for g in empty if g not in INNER_GARDENS]
        yield PlaceTile(tile, GARDEN_NAMES[rnd.choice(edge)], rnd.randrange(4))  # G22: first tile on the edge


@pytest.mark.parametrize("n,options", CONFIGS, ids=[f"{n}p-{'+'.join(o) or 'base'}" for n, o in CONFIGS])
def test_random_games_keep_every_invariant_G24(n, options):
    """G2, G24, G25, G26, G32, G34, G37: random complete games through the contract with every check."""
    for seed in range(property_games(3)):
        state, log = play_random_game(RULES, n, options, seed, invariants=Invariants(), illegal=illegal)
        assert RULES.is_over(state)
        placements = [a for _, a in log if isinstance(a, PlaceTile)]
        assert len(placements) == 36
        per_player = Counter(p for p, a in log if isinstance(a, PlaceTile))
        assert set(per_player.values()) == {36 // n}  # seats alternate evenly (36 divides by 2, 3 and 4)
