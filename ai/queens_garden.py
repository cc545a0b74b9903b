"""The AI's knowledge of Azul: Queen's Garden: re-dealing hidden expansions and tile order, judging a position.

Hidden from everyone (view()): the bag's order, the seed, and the identity of every face-down expansion (round
stacks, supply, display pieces still holding tiles, blank expansions in gardens). Storages are public. The unseen
expansions are the 36 minus the face-up ones, dealt at random to the hidden places.

Evaluation (points a player can expect): points so far; the wheel points (Q31–Q33) the current garden would earn in
every round still to be scored; the final group points (Q35) of the groups it has, groups of two at half value;
storage contents as a resource early (they pay for placements) turning into the Q35 penalty in the last round;
jokers (payment, +1 at the end, Q35); free spaces still to plant.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Sequence
from typing import Any

from ai.core import AnyRules, GameAI
from engine.queens_garden.actions import BuyExpansion, Pass, PlaceExpansion, PlaceTile
from engine.queens_garden.components import (
    EXPANSION_KIND,
    GROUP_FULL,
    GROUP_FULL_BONUS,
    GROUP_MIN,
    N_EXPANSIONS,
    ROUNDS,
    TILE_KIND,
    Kind,
)
from engine.queens_garden.geometry import free_spaces, groups, hexagons
from engine.queens_garden.scoring import round_score
from engine.queens_garden.state import HIDDEN

# Worth of one stored hexagon of pattern value v by round: a + b·v. Early it can still be planted or pay for a
# planting; what is left at the end costs its value (Q35), so the later the round, the closer to that penalty.
STORED = {1: (1.5, -0.1), 2: (1.2, -0.25), 3: (0.8, -0.45), 4: (0.0, -0.85)}
STORED_EXPANSION = {1: 2.5, 2: 1.5, 3: 0.0, 4: 0.0}  # on top of the above: a pavilion and 5 spaces to plant
USEFUL_PER_SPACE = 3  # a planting uses the tile and, on average, about two more hexagons as payment (Q25)
JOKER = 1.5
FREE_SPACE = 0.4
PAIR_SHARE = 0.4  # a group of two is on its way to the three that score (Q35)


class QueensGardenAI(GameAI):
    game = "queens_garden"
    margin_scale = 10.0
    root_width = 8
    playout_depth = 6
    playout_sample = 4

    def determinise(self, rules: AnyRules, view: Any, seat: str, rnd: random.Random) -> Any:
        """Deal the unseen expansions to the face-down places; shuffle the bag (its contents are public)."""
        seen = {p.expansion for p in view.display if p.expansion != HIDDEN}
        for s in view.seats:
            seen.update(s.expansions)
            seen.update(p.expansion for p in s.placed if p.expansion != HIDDEN)
        unseen = [e for e in range(N_EXPANSIONS) if e not in seen]
        rnd.shuffle(unseen)
        deal = iter(unseen)

        def fill(ids: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(next(deal) if e == HIDDEN else e for e in ids)

        display = tuple(
            dataclasses.replace(p, expansion=next(deal)) if p.expansion == HIDDEN else p for p in view.display
        )
        seats = tuple(
            dataclasses.replace(
                s,
                placed=tuple(
                    dataclasses.replace(p, expansion=next(deal)) if p.expansion == HIDDEN else p for p in s.placed
                ),
            )
            for s in view.seats
        )
        stack = fill(view.stack)
        stacks = tuple(fill(s) for s in view.stacks)
        supply = fill(view.supply)
        bag = list(view.bag)
        rnd.shuffle(bag)
        return dataclasses.replace(
            view,
            seed=rnd.getrandbits(48),
            rng_counter=0,
            display=display,
            seats=seats,
            stack=stack,
            stacks=stacks,
            supply=supply,
            bag=tuple(bag),
        )

    def evaluate(self, rules: AnyRules, state: Any) -> dict[str, float]:
        if state.over:
            return {p: float(s.score) for p, s in zip(state.players, state.seats, strict=True)}
        return {p: _seat_value(s, state.round) for p, s in zip(state.players, state.seats, strict=True)}

    def margins(self, rules: AnyRules, state: Any, player: str, actions: Sequence[Any]) -> list[float]:
        """step + evaluate once per piece and place; the other payments for it only change the storage.

        Equal to the plain computation except when a surrounded element's jokers (Q30) would not all fit in
        storage, where the payment changes how many are lost: a small difference, for a large speed-up (a
        position can list hundreds of payments).
        """
        if state.over:
            return super().margins(rules, state, player, actions)
        i = state.players.index(player)
        seat = state.seats[i]
        out: list[float] = []
        cache: dict[tuple[Any, ...], tuple[float, int, int, int]] = {}
        for a in actions:
            if not isinstance(a, PlaceTile | PlaceExpansion):
                out.extend(super().margins(rules, state, player, [a]))
                continue
            key = (
                type(a),
                a.tile if isinstance(a, PlaceTile) else a.expansion,
                getattr(a, "space", None),
                getattr(a, "area", None),
                getattr(a, "turn", None),
            )
            hit = cache.get(key)
            if hit is None:
                after = rules.step(state, player, a, quiet=True)
                values = self.evaluate(rules, after)
                mine = after.seats[i]
                free = len(free_spaces(mine, hexagons(mine)))
                others = max((v for p, v in values.items() if p != player), default=0.0)
                base = values[player] - _storage_value(mine, after.round, free)
                cache[key] = hit = (base - others, after.round, free, mine.jokers + a.jokers)
                out.append(values[player] - others)
                continue
            base, round_no, free, jokers = hit
            used_t = set(a.pay_tiles) | ({a.tile} if isinstance(a, PlaceTile) else set())
            used_e = set(a.pay_expansions) | ({a.expansion} if isinstance(a, PlaceExpansion) else set())
            tiles = tuple(t for t in seat.tiles if t not in used_t)
            expansions = tuple(e for e in seat.expansions if e not in used_e)
            out.append(base + _storage(tiles, expansions, jokers - a.jokers, round_no, free))
        return out

    def sensible(self, rules: AnyRules, state: Any, seat: str, actions: list[Any]) -> list[Any]:
        """Easy never throws points away: no discards when passing (Q29), no blank expansion for 6 points (Q28 ii),
        and it passes only when nothing else is possible or its storage is nearly full."""
        s = state.seats[state.players.index(seat)]
        room = 12 - len(s.tiles) - s.jokers
        keep = [
            a
            for a in actions
            if not isinstance(a, BuyExpansion) and not (isinstance(a, Pass) and (a.tiles or a.expansions or a.jokers))
        ]
        if room > 2:
            keep = [a for a in keep if not isinstance(a, Pass)] or keep
        return keep or actions


def _seat_value(seat: Any, round_no: int) -> float:
    # plain ints and strings (not the Placed dataclasses): the garbage collector skips such keys
    key = (
        tuple(sorted(seat.garden.items())),
        tuple((p.expansion, p.area, p.turn, p.face_up) for p in seat.placed),
        round_no,
    )
    hit = _GARDENS.get(key)
    if hit is None:
        if len(_GARDENS) >= _GARDENS_MAX:
            _GARDENS.clear()
        hexmap = hexagons(seat)
        free = len(free_spaces(seat, hexmap))
        hit = _GARDENS[key] = (_garden_value(seat, round_no, hexmap), free)
    garden, free = hit
    return (
        float(seat.score)
        + garden
        + FREE_SPACE * free * (ROUNDS - round_no) / ROUNDS
        + _storage_value(seat, round_no, free)
    )


# A garden's worth by its hexagons and expansions and the round (`_garden_value`, the costly part of the evaluation:
# the wheel's scoring of every round to come and the groups), and its free spaces: the same garden recurs across
# the moves compared (the other seats never change) and the payments of one placement, and in the playouts.
_GARDENS: dict[tuple[Any, ...], tuple[float, int]] = {}
_GARDENS_MAX = 1 << 16


def _garden_value(seat: Any, round_no: int, hexmap: dict[str, Kind]) -> float:
    """Wheel points to come (Q31–Q33) and group points (Q35) of the garden as it stands (not the score)."""
    value = 0.0
    for r in range(round_no, ROUNDS + 1):  # Q31–Q33: this round and every later one score the garden
        value += round_score(seat, r)[0]
    for by in (0, 1):  # Q35: groups of 3+ score the sum of their values, +6 at 6
        for _, spaces in groups(hexmap, by):
            size = len(spaces)
            if size < 2:
                continue
            points = sum(hexmap[s][1] for s in spaces)
            if size >= GROUP_MIN:
                value += points + (GROUP_FULL_BONUS if size >= GROUP_FULL else 0)
            else:
                value += PAIR_SHARE * points
    return value


def _storage_value(seat: Any, round_no: int, free: int) -> float:
    """Stored hexagons and jokers: a resource early, the Q35 penalty (or +1 per joker) at the end.

    They are only useful while there is room to plant them (and the payments that go with them): beyond that
    they wait for the penalty, whatever the round.
    """
    return _storage(seat.tiles, seat.expansions, seat.jokers, round_no, free)


@functools.lru_cache(maxsize=1 << 15)
def _storage(tiles: tuple[int, ...], expansions: tuple[int, ...], jokers: int, round_no: int, free: int) -> float:
    """`_storage_value` of a storage (cached: the payments of the moves compared share their storages)."""
    a, b = STORED[round_no]
    value: float = JOKER * jokers
    for e in expansions:
        value += a + b * EXPANSION_KIND[e][1] + STORED_EXPANSION[round_no]
    room = USEFUL_PER_SPACE * (free + 5 * len(expansions))
    last_a, last_b = STORED[ROUNDS]
    for i, v in enumerate(sorted((TILE_KIND[t][1] for t in tiles), reverse=True)):
        value += a + b * v if i < room else last_a + last_b * v
    return value


ADAPTER = QueensGardenAI()
