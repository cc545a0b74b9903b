"""What the shared tests need to know of the Gardens (tests/games.py): its configurations, how to re-deal what a
player cannot see, the other hidden information for the image leak tests, its rule ids and a highlight."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import replace
from typing import Any

from tests.games import Hidden, Profile, deal


def rehide(rules: Any, s: Any, actor: str, rnd: random.Random) -> Any:
    """Re-deal the supply and the other players' hands (G19), and the seed."""
    me = s.players.index(actor)
    pool = [t for i, hand in enumerate(s.hands) if i != me for t in hand] + list(s.supply)
    rnd.shuffle(pool)
    dealt, supply = deal(pool, [len(hand) for i, hand in enumerate(s.hands) if i != me])
    hands = list(dealt)
    hands.insert(me, s.hands[me])
    return replace(s, hands=tuple(hands), supply=tuple(supply), seed=rnd.getrandbits(40))


def hidden_variant(state: Any) -> Any:
    """The same game with other hidden information: a supply tile swapped into the first hand, the supply
    reversed."""
    hands = list(state.hands)
    supply = list(state.supply)
    assert hands[0] and supply
    hands[0], supply[0] = (supply[0], *hands[0][1:]), hands[0][0]
    return dataclasses.replace(state, hands=tuple(hands), supply=tuple(reversed(supply)), seed=state.seed + 1)


PROFILE = Profile(
    configs=((2, {}), (4, {}), (2, {"two_colours": True}), (3, {"three_tile_hand": True})),
    played=((2, {"two_colours": True}), (3, {"three_tile_hand": True})),
    max_steps=60,
    examples=30,
    hidden=Hidden(rehide, hidden_variant, private_view=True),
    rule_prefixes="G",
    highlight="C3",
)
