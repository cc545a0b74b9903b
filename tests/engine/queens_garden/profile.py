"""What the shared tests need to know of Queen's Garden (tests/games.py): its configurations, how to re-deal what
nobody sees, the other hidden information for the image leak tests, its rule ids and a highlight. Nothing is
private to one player (no hand): everything hidden is hidden from all."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import replace
from typing import Any

from tests.games import Hidden, Profile


def rehide(rules: Any, s: Any, actor: str, rnd: random.Random) -> Any:
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


def hidden_variant(state: Any) -> Any:
    """The same game with other hidden information: the bag, the supply and the round stacks reversed."""
    stacks = tuple(tuple(reversed(s)) for s in state.stacks)
    return dataclasses.replace(
        state,
        bag=tuple(reversed(state.bag)),
        supply=tuple(reversed(state.supply)),
        stacks=stacks,
        seed=state.seed + 1,
    )


PROFILE = Profile(
    configs=((2, {}), (3, {}), (4, {})),
    played=((2, {}), (4, {})),
    max_steps=150,
    examples=20,
    hidden=Hidden(rehide, hidden_variant),
    rule_prefixes="Q",
    highlight="M1",
)
