"""Azul: Queen's Garden's fast listing (engine/queens_garden/listing.py: int cells, kind masks, caches by
identity) equals a straightforward reference listing written from the rules alone, action for action and in
order, over random positions of 2, 3 and 4 players (random games that place often, so gardens grow deep).

The reference walks the display (Q19–Q21: every colour and pattern, every choice among identical hexagons per
source, what the storage has room for), every kind in storage on every free space with the plain placement rule
(geometry.placement_verdict, Q26), every storage expansion on every free area and turn (Q28), every payment
(Q25: distinct related kinds of one family, jokers for the rest, fewest jokers first), the blank expansions
(Q28 ii) and the passes (Q29). Size: $PROPERTY_GAMES games per player count (CI: the small default).
"""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest

from engine.queens_garden import RULES
from engine.queens_garden.actions import Acquire, BuyExpansion, Pass, PlaceExpansion, PlaceTile
from engine.queens_garden.components import (
    BLANK_EXPANSION_COST,
    EXPANSION_KIND,
    PASS_DISCARDS_JOKERS,
    STORAGE_EXPANSIONS,
    STORAGE_TILES,
    TILE_KIND,
)
from engine.queens_garden.geometry import (
    NEIGHBOURS,
    elements,
    free_areas,
    free_spaces,
    hexagons,
    placement_verdict,
    printed_space,
)
from engine.queens_garden.state import display_tiles
from tests.conftest import property_games


def reference_acquisitions(state, room_tiles, room_exps):
    """Q19–Q21: per criterion and value (ascending), one hexagon of each kind of that value, choosing among the
    sources that show it (a tile per source: copies on one source are alike; each face-up expansion)."""
    sources = display_tiles(state)  # tile -> its source, in display order
    shown = [(TILE_KIND[t], "t", t, src) for t, src in sources.items()]
    shown += [(EXPANSION_KIND[p.expansion], "e", p.expansion, p.expansion) for p in state.display if p.face_up]
    out = []
    for by, idx in (("colour", 0), ("pattern", 1)):
        for value in sorted({k[idx] for k, *_ in shown}):
            kinds = list(dict.fromkeys(k for k, *_ in shown if k[idx] == value))
            ways = []
            for kind in kinds:
                options, seen = [], set()
                for k, what, ident, src in shown:
                    if k == kind and (what, src) not in seen:
                        seen.add((what, src) if what == "t" else (what, ident))
                        options.append((what, ident))
                ways.append(options)
            for choice in product(*ways):
                tiles = tuple(sorted(i for w, i in choice if w == "t"))
                exps = tuple(sorted(i for w, i in choice if w == "e"))
                if len(tiles) <= room_tiles and len(exps) <= room_exps:
                    out.append(Acquire(by, value, tiles, exps))
    return out


def reference_payments(seat, kind):
    """Q25: the value in hexagons, the placed one counting as one: others of its colour with other patterns, or
    of its pattern in other colours, all different, jokers for the rest; one tile per kind (its lowest id) and
    each expansion; fewest jokers first."""
    need = kind[1] - 1
    if need == 0:
        return [((), (), 0)]
    lowest = {}
    for t in sorted(seat.tiles):
        lowest.setdefault(TILE_KIND[t], t)
    out = []
    for idx in (0, 1):  # the colour family, then the pattern family
        options = {}
        for k, t in lowest.items():
            if k != kind and k[idx] == kind[idx]:
                options.setdefault(k, []).append(("t", t))
        for e in sorted(seat.expansions):
            k = EXPANSION_KIND[e]
            if k != kind and k[idx] == kind[idx]:
                options.setdefault(k, []).append(("e", e))
        for size in range(min(need, len(options)), 0, -1):
            if need - size > seat.jokers:
                break
            for combo in combinations(sorted(options), size):
                for choice in product(*(options[k] for k in combo)):
                    tiles = tuple(sorted(i for w, i in choice if w == "t"))
                    exps = tuple(sorted(i for w, i in choice if w == "e"))
                    out.append((tiles, exps, need - size))
    if seat.jokers >= need:
        out.append(((), (), need))
    return sorted(out, key=lambda p: p[2])


def reference_listing(state, player):
    """Every legal action of the player to move, in the listing's order, from the plain rules."""
    seat = state.seats[state.players.index(player)]
    out: list = reference_acquisitions(
        state, STORAGE_TILES - len(seat.tiles) - seat.jokers, STORAGE_EXPANSIONS - len(seat.expansions)
    )
    hexmap = hexagons(seat)
    free = free_spaces(seat, hexmap)
    firsts = {}
    for t in sorted(seat.tiles):
        firsts.setdefault(TILE_KIND[t], t)
    for kind, t in firsts.items():
        for space in free:
            if placement_verdict(hexmap, space, kind) == 0:
                out += [PlaceTile(t, space, pt, pe, j) for pt, pe, j in reference_payments(seat, kind)]
    for e in sorted(seat.expansions):
        kind = EXPANSION_KIND[e]
        for area in free_areas(seat):
            for turn in range(6):
                if placement_verdict(hexmap, printed_space(area, turn), kind) == 0:
                    out += [PlaceExpansion(e, area, turn, pt, pe, j) for pt, pe, j in reference_payments(seat, kind)]
    if state.supply and seat.score >= BLANK_EXPANSION_COST:
        out += [BuyExpansion(a) for a in free_areas(seat)]
    out.append(Pass())
    out += [Pass(tiles=(t,)) for t in firsts.values()]
    out += [Pass(expansions=(e,)) for e in sorted(seat.expansions)]
    if len(seat.tiles) + len(seat.expansions) > 1:
        out.append(Pass(tiles=tuple(sorted(seat.tiles)), expansions=tuple(sorted(seat.expansions))))
    if PASS_DISCARDS_JOKERS and seat.jokers:
        out.append(Pass(jokers=1))
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_Q19_Q29_fast_listing_equals_the_reference_listing(n):
    """Q19–Q29: at every step of random games that often place (deep gardens, expansions, groups), the legal
    actions are exactly the reference listing's, in the same order; and after every step each garden's rewarded
    elements are exactly its surrounded ones (Q30: the step looks only next to the new hexagon)."""
    compared = 0
    for g in range(property_games(3)):
        rnd = random.Random(1000 * n + g)
        state = RULES.new_game([str(10 + i) for i in range(n)], {}, 900 + g)
        while not RULES.is_over(state):
            player = rnd.choice(RULES.to_move(state))
            listed = RULES.legal_actions(state, player)
            assert listed == reference_listing(state, player), (g, compared)
            compared += 1
            places = [a for a in listed if isinstance(a, (PlaceTile, PlaceExpansion))]
            keep = [a for a in listed if not isinstance(a, Pass)]
            pick = places if places and rnd.random() < 0.6 else keep if keep and rnd.random() < 0.95 else listed
            state = RULES.step(state, player, rnd.choice(pick), quiet=True)
            for seat in state.seats:  # Q30: exactly the surrounded elements were rewarded (the quick test's ground)
                hexmap = hexagons(seat)
                surrounded = {e for e in elements(seat) if all(x in hexmap for x in NEIGHBOURS[e])}
                assert seat.rewarded == surrounded
    assert compared
