"""What the shared tests need to know of Alhambra (tests/games.py): its configurations, how to re-deal what a
player cannot see, the other hidden information for the image leak tests, its rule ids and a highlight."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import replace
from typing import Any

from engine.alhambra.components import SCORING_CARDS
from tests.games import Hidden, Profile, deal

ALL_MODULES = {"vizier": True, "huts": True, "exchange": True, "bonus": True}


def rehide(rules: Any, s: Any, actor: str, rnd: random.Random) -> Any:
    """Re-deal what neither the actor nor a spectator sees: the deck with its scoring cards (A16), the other hands
    (A20, V44), the bag order, the huts below each face-up top (V21), the other players' unplayed bonus cards
    and those set aside (V61), the seed."""
    me = s.players.index(actor)
    others = [i for i in range(len(s.players)) if i != me]
    pool = [c for i in others for c in s.seats[i].hand] + [c for c in s.deck if c not in SCORING_CARDS]
    rnd.shuffle(pool)
    hands, rest = deal(pool, [len(s.seats[i].hand) for i in others])
    deck = [c for c in s.deck if c in SCORING_CARDS] + rest
    rnd.shuffle(deck)
    bonus = [c for i in others for c in s.seats[i].bonus_hand] + list(s.bonus_aside)
    rnd.shuffle(bonus)
    bonus_hands, aside = deal(bonus, [len(s.seats[i].bonus_hand) for i in others])
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


def hidden_variant(state: Any) -> Any:
    """The same game with other hidden information: another card in the first hand, the deck and bag reversed."""
    seat = state.seats[0]
    deck = list(state.deck)
    money = [i for i, c in enumerate(deck) if 0 <= c < 108]
    assert seat.hand and money
    j = money[0]
    hand = tuple(sorted((deck[j], *seat.hand[1:])))
    deck[j] = seat.hand[0]
    seats = (dataclasses.replace(seat, hand=hand), *state.seats[1:])
    return dataclasses.replace(
        state, seats=seats, deck=tuple(reversed(deck)), bag=tuple(reversed(state.bag)), seed=state.seed + 1
    )


PROFILE = Profile(
    configs=((2, {}), (3, {}), (6, {}), (2, ALL_MODULES), (3, ALL_MODULES), (5, {"vizier": True, "bonus": True})),
    played=((2, {}), (3, ALL_MODULES)),
    drawn=((6, {}), (6, ALL_MODULES)),
    max_steps=300,
    examples=10,
    hidden=Hidden(rehide, hidden_variant, private_view=True),
    rule_prefixes="AV",
    highlight=(1, 0),
)
