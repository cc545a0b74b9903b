"""The AI's knowledge of Alhambra: re-dealing hidden cards and tiles, and judging a position.

Hidden from a seat (A13, A20, view()): the other hands (their sizes are public), the money deck's order and where
the undrawn scoring cards lie in it, the bag's order, the seed. Public: the display, the discard pile, the market,
every Alhambra, reserve and score, Dirk's tiles, which scoring rounds have happened.

Evaluation (points a player can expect): points so far; for every scoring round still to come, the majority
points (A45–A47, with Dirk in the 2-player game) the current buildings would earn, the next round weighted more
than later ones since majorities still change; the longest outer wall (A48) once per remaining round; and the
money in hand, reserve tiles and a pending extra action (A22) at a few points each.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Any

from ai.core import GameAI
from engine.alhambra.actions import BuyTile, GiveToDirk, PlaceTile, RedesignRemove, ReserveTile
from engine.alhambra.components import (
    HIDDEN_CARD,
    POINTS,
    PRICE,
    SCORING_1,
    SCORING_2,
    TYPE_OF,
    TYPES,
    money_cards,
    value_of,
)
from engine.alhambra.geometry import longest_wall
from engine.alhambra.scoring import majority_points

# Weights of future scoring rounds: the next one is closest to the present counts; later ones less so.
NEXT_ROUND_WEIGHT = 0.75
LATER_ROUND_WEIGHT = 0.4
WALL_WEIGHT = 0.8  # per remaining round: walls can still be broken or grow
MONEY_WEIGHT = 0.45  # per denomination point in hand: what money turns into once spent
RESERVE_WEIGHT = 1.0  # a reserve tile can still be built in by a redesign
BONUS_ACTION = 3.0  # A22: an extra action after an exact purchase
START_HAND_CARDS = 4.6  # A13: the average number of cards in a starting hand (deal until worth ≥ 20)
_TYPE_INDEX = {t: i for i, t in enumerate(TYPES)}
# The Vizier's Favour modules with hidden components of their own (V-rules); `vizier` itself hides nothing.
UNSUPPORTED_MODULES = ("huts", "exchange", "bonus")


class AlhambraAI(GameAI):
    game = "alhambra"
    margin_scale = 12.0
    root_width = 8
    playout_depth = 8
    playout_sample = 4

    def determinise(self, rules: Any, view: Any, seat: str, rnd: random.Random) -> Any:
        """Deal the cards the seat has not seen to the other hands and the deck, scoring cards per A16."""
        hidden_modules = [m for m in UNSUPPORTED_MODULES if view.options.get(m)]
        if hidden_modules:
            # These modules hide components of their own (hut stacks, exchange and bonus cards) that this
            # re-deal does not know yet; refusing is better than searching impossible worlds.
            raise NotImplementedError(f"The AI does not play Alhambra with {', '.join(hidden_modules)} yet.")
        n = len(view.players)
        me = view.players.index(seat)
        seen = set(view.seats[me].hand) | set(view.display) | set(view.discard)
        unseen = [c for c in money_cards(n) if c not in seen]
        rnd.shuffle(unseen)
        done = {s.round for s in view.scorings}
        scoring_left = [c for c, r in ((SCORING_1, 1), (SCORING_2, 2)) if r not in done and len(view.deck) > 0]
        if any(e.kind == "reshuffle" for e in view.log):
            scoring_left = []  # A41: the deck ran out once, so both scoring cards have been drawn
        seats = []
        k = 0
        for i, s in enumerate(view.seats):
            if i == me:
                seats.append(s)
                continue
            hand = tuple(sorted(unseen[k:k + len(s.hand)]))
            k += len(s.hand)
            seats.append(dataclasses.replace(s, hand=hand))
        money = unseen[k:]  # the deck's money cards, top first
        deck_money = len(view.deck) - len(scoring_left)
        if len(money) != deck_money:
            raise ValueError("inconsistent view: hidden card counts do not match the unseen cards")
        top_first = list(money)
        if scoring_left:
            # A16: scoring card 1 was shuffled into the 2nd fifth of the split deck, card 2 into the 4th. The
            # split size is estimated from an average start hand; the cards drawn since then are known.
            outside = len(money_cards(n)) - deck_money
            drawn = max(0, outside - round(START_HAND_CARDS * n) - 4)
            fifth = (deck_money + drawn) / 5
            positions = {}
            for card in scoring_left:
                pile = 1 if card == SCORING_1 else 3
                lo = int(pile * fifth) - drawn
                hi = int((pile + 1) * fifth) - drawn
                lo, hi = max(0, min(lo, deck_money)), max(0, min(hi, deck_money))
                positions[card] = rnd.randint(lo, max(lo, hi))
            if SCORING_1 in positions and SCORING_2 in positions:
                positions[SCORING_1] = min(positions[SCORING_1], positions[SCORING_2])
            for card in sorted(positions, key=lambda c: -positions[c]):  # deeper first keeps indices right
                top_first.insert(positions[card], card)
        deck = tuple(reversed(top_first))  # top = last
        bag = list(view.bag)
        rnd.shuffle(bag)
        return dataclasses.replace(view, seed=rnd.getrandbits(48), seats=tuple(seats), deck=deck, bag=tuple(bag))

    def evaluate(self, rules: Any, state: Any) -> dict[str, float]:
        done = {s.round for s in state.scorings}
        if state.phase == "over":
            return {p: float(s.score) for p, s in zip(state.players, state.seats, strict=True)}
        remaining = [r for r in (1, 2, 3) if r not in done]
        # A44: buildings in the Alhambra; tiles waiting to be placed count as built (they mostly will be)
        counts = [_type_counts(s.alhambra, s.pending) for s in state.seats]
        if state.two_player:
            dirk = [0] * len(TYPES)
            for t in state.dirk:
                dirk[_TYPE_INDEX[TYPE_OF[t]]] += 1
            counts.append(dirk)
        value = [float(s.score) for s in state.seats]
        for j, r in enumerate(remaining):
            w = NEXT_ROUND_WEIGHT if j == 0 else LATER_ROUND_WEIGHT
            table = POINTS[r]
            for ti, typ in enumerate(TYPES):
                pts = majority_points([c[ti] for c in counts], table[typ])
                for i in range(len(value)):
                    value[i] += w * pts[i]
        rounds_left = len(remaining)
        for i, s in enumerate(state.seats):
            value[i] += WALL_WEIGHT * rounds_left * _wall(frozenset(s.alhambra.items()))
            value[i] += MONEY_WEIGHT * sum(value_of(c) for c in s.hand if c != HIDDEN_CARD)
            value[i] += RESERVE_WEIGHT * len(s.reserve)
        if state.bonus:
            value[state.current] += BONUS_ACTION
        return dict(zip(state.players, value, strict=True))

    def sensible(self, rules: Any, state: Any, seat: str, actions: list[Any]) -> list[Any]:
        """Easy never tears down its Alhambra, builds tiles in rather than shelving them, and does not overpay
        by 3 or more (A21: no change is given)."""
        placeable = {a.tile for a in actions if isinstance(a, PlaceTile)}
        keep = []
        for a in actions:
            if isinstance(a, RedesignRemove):
                continue
            if isinstance(a, ReserveTile | GiveToDirk) and a.tile in placeable:
                continue
            if isinstance(a, BuyTile) and sum(value_of(c) for c in a.cards) - PRICE[a.tile] >= 3:
                continue
            keep.append(a)
        return keep or actions


def _type_counts(alhambra: dict, pending: tuple[str, ...]) -> list[int]:
    counts = [0] * len(TYPES)
    for t in alhambra.values():
        i = _TYPE_INDEX.get(TYPE_OF[t])
        if i is not None:  # the fountain has no type (A1)
            counts[i] += 1
    for t in pending:
        counts[_TYPE_INDEX[TYPE_OF[t]]] += 1
    return counts


@functools.lru_cache(maxsize=1 << 14)
def _wall(items: frozenset) -> int:
    """A48: the longest outer wall (cached: Alhambras repeat across the search)."""
    return longest_wall(dict(items))


ADAPTER = AlhambraAI()
