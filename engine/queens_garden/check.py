"""Azul: Queen's Garden legality: `check` is the single test of every action (Q18–Q29), in the player's words
with the rule cited. It accepts every equivalent variant of an action (any payment the rules allow, any subset of
storage to discard on passing); `listing` lists one representative of each.
"""

from __future__ import annotations

from typing import Any

from engine.queens_garden.actions import Acquire, BuyExpansion, Pass, PlaceExpansion, PlaceTile, criterion_words
from engine.queens_garden.components import (
    BLANK_EXPANSION_COST,
    COLOURS,
    EXPANSION_KIND,
    PASS_DISCARDS_JOKERS,
    PATTERN_PLURALS,
    PATTERNS,
    STORAGE_EXPANSIONS,
    STORAGE_TILES,
    TILE_KIND,
    Kind,
    colour_name,
    kind_name,
)
from engine.queens_garden.geometry import (
    AREAS,
    SPACE_COORD,
    elements,
    free_areas,
    free_spaces,
    hexagons,
    placement_problem,
    printed_space,
)
from engine.queens_garden.state import QGState, Seat, display_tiles


def check(state: QGState, player: str, action: Any) -> str | None:
    """None if `player` may play `action` now, else why not, in the player's words with the rule."""
    if state.over:
        return "The game is over."
    if player not in state.players:
        return "You are not playing in this game."
    if state.current is None or state.players[state.current] != player:
        return "It is not your turn."
    seat = state.seats[state.current]
    if isinstance(action, Acquire):
        return _check_acquire(state, seat, action)
    if isinstance(action, PlaceTile):
        return _check_place_tile(seat, action)
    if isinstance(action, PlaceExpansion):
        return _check_place_expansion(seat, action)
    if isinstance(action, BuyExpansion):
        return _check_buy(state, seat, action)
    if isinstance(action, Pass):
        return _check_pass(seat, action)
    return "That is not an action of this game."


def _check_acquire(state: QGState, seat: Seat, a: Acquire) -> str | None:
    if a.by == "colour":
        if not 0 <= a.value < len(COLOURS):
            return "Choose one of the six colours (Q19)."
        idx = 0
    elif a.by == "pattern":
        if a.value not in PATTERNS:
            return "Choose a pattern from 1 (tree) to 6 (lily) (Q19)."
        idx = 1
    else:
        return "Choose a colour or a pattern (Q19)."
    what = criterion_words(a.by, a.value)
    sources = display_tiles(state)
    face_up = {p.expansion for p in state.display if p.face_up}
    if len(set(a.tiles)) != len(a.tiles) or len(set(a.expansions)) != len(a.expansions):
        return "Each tile and expansion can be taken only once."
    kinds = []
    for ids, available, kind_of, noun, unavailable in (
        (a.tiles, sources, TILE_KIND, "", "One of those tiles is not in the display."),
        (
            a.expansions,
            face_up,
            EXPANSION_KIND,
            " expansion",
            "Only face-up expansions in the display can be taken (Q23).",
        ),
    ):
        for i in ids:
            if i not in available:
                return unavailable
            if kind_of[i][idx] != a.value:
                return f"The {kind_name(kind_of[i])}{noun} is not {what} (Q19)."
            kinds.append(kind_of[i])
    if len(set(kinds)) != len(kinds):
        return "Of identical hexagons (same colour and pattern) you take exactly one (Q20)."
    present = {TILE_KIND[t] for t in sources if TILE_KIND[t][idx] == a.value}
    present |= {EXPANSION_KIND[e] for e in face_up if EXPANSION_KIND[e][idx] == a.value}
    if not present:
        return f"There is no {what} hexagon in the display (Q19)."
    missing = present - set(kinds)
    if missing:
        left = ", ".join(kind_name(k) for k in sorted(missing))
        return f"You must take every {what} hexagon in the display (one of each kind); you left out {left} (Q19)."
    room = STORAGE_TILES - len(seat.tiles) - seat.jokers
    if len(a.tiles) > room:
        return (
            f"Your storage has room for {room} more tile{'s' if room != 1 else ''} (jokers included), but "
            f"taking {what} brings {len(a.tiles)}; choose something else (Q21)."
        )
    room = STORAGE_EXPANSIONS - len(seat.expansions)
    if len(a.expansions) > room:
        return f"Your storage has room for {room} more expansion(s), not {len(a.expansions)} (Q21)."
    return None


def _check_place_tile(seat: Seat, a: PlaceTile) -> str | None:
    if a.tile not in seat.tiles:
        return "That tile is not in your storage. Only storage tiles can be planted; jokers never (Q25, Q27)."
    kind = TILE_KIND[a.tile]
    if (why := space_problem(seat, a.space)) is not None:
        return why
    if (why := placement_problem(hexagons(seat), a.space, kind)) is not None:
        return f"The {kind_name(kind)} cannot go on {a.space}: {why}."
    return payment_problem(seat, kind, a.pay_tiles, a.pay_expansions, a.jokers, tile=a.tile)


def _check_place_expansion(seat: Seat, a: PlaceExpansion) -> str | None:
    if a.expansion not in seat.expansions:
        return "That expansion is not in your storage (Q28)."
    if (why := area_problem(seat, a.area)) is not None:
        return why
    if not 0 <= a.turn < 6:
        return "Turn the expansion 0 to 5 sixth-turns (Q28)."
    kind = EXPANSION_KIND[a.expansion]
    space = printed_space(a.area, a.turn)
    if (why := placement_problem(hexagons(seat), space, kind)) is not None:
        return f"Its {kind_name(kind)} cannot sit on {space}: {why}; try another turn or area (Q28)."
    return payment_problem(seat, kind, a.pay_tiles, a.pay_expansions, a.jokers, expansion=a.expansion)


def _check_buy(state: QGState, seat: Seat, a: BuyExpansion) -> str | None:
    if not state.supply:
        return "The supply of expansions is empty (Q28)."
    if seat.score < BLANK_EXPANSION_COST:
        return (
            f"An expansion from the supply costs exactly {BLANK_EXPANSION_COST} points and you have "
            f"{seat.score}; a score cannot go below 0 (Q28, Q37)."
        )
    return area_problem(seat, a.area)


def _check_pass(seat: Seat, a: Pass) -> str | None:
    if len(set(a.tiles)) != len(a.tiles) or not set(a.tiles) <= set(seat.tiles):
        return "You can only discard tiles from your storage, each once (Q29)."
    if len(set(a.expansions)) != len(a.expansions) or not set(a.expansions) <= set(seat.expansions):
        return "You can only discard expansions from your storage, each once (Q29)."
    if a.jokers and not PASS_DISCARDS_JOKERS:
        return "Jokers are not hexagons: you keep them when you pass (Q29)."
    if not 0 <= a.jokers <= seat.jokers:
        return f"You have {seat.jokers} joker{'s' if seat.jokers != 1 else ''} (Q29)."
    return None


def space_problem(seat: Seat, space: str) -> str | None:
    if space not in SPACE_COORD:
        return f"There is no space '{space}'; spaces are named like M3 or SE4."
    hexmap = hexagons(seat)
    if space in hexmap:
        return f"{space} already holds a hexagon (Q26)."
    found = elements(seat)
    if space in found:
        return f"{space} is a {found[space]}, not a free space (Q39)."
    if space not in free_spaces(seat, hexmap):
        return f"{space} is in an expansion area with no expansion yet; place an expansion there first (Q26, Q28)."
    return None


def area_problem(seat: Seat, area: str) -> str | None:
    if area not in AREAS:
        return f"There is no expansion area '{area}'; areas are {', '.join(AREAS)} (Q7)."
    if area not in free_areas(seat):
        free = ", ".join(free_areas(seat)) or "none"
        return f"Area {area} already holds an expansion; free areas: {free} (Q28)."
    return None


def payment_problem(
    seat: Seat,
    kind: Kind,
    pay_tiles: tuple[int, ...],
    pay_expansions: tuple[int, ...],
    jokers: int,
    *,
    tile: int | None = None,
    expansion: int | None = None,
) -> str | None:
    """Q25: the placed hexagon plus value−1 others: one pattern in distinct colours or one colour in distinct
    patterns, jokers for any of the others."""
    need = kind[1] - 1
    name = kind_name(kind)
    if jokers < 0:
        return "You cannot pay with a negative number of jokers."
    offered = len(pay_tiles) + len(pay_expansions) + jokers
    if offered != need:
        return (
            f"A {name} costs {kind[1]}: itself and {need} more hexagon{'s' if need != 1 else ''} or jokers; "
            f"you offered {offered} (Q25)."
        )
    if jokers > seat.jokers:
        return f"You have only {seat.jokers} joker{'s' if seat.jokers != 1 else ''} (Q25)."
    if len(set(pay_tiles)) != len(pay_tiles) or any(t == tile or t not in seat.tiles for t in pay_tiles):
        return "Pay only with other tiles from your storage, each once (Q25)."
    if len(set(pay_expansions)) != len(pay_expansions) or any(
        e == expansion or e not in seat.expansions for e in pay_expansions
    ):
        return "Pay only with other expansions from your storage, each once (Q25)."
    kinds = [kind, *(TILE_KIND[t] for t in pay_tiles), *(EXPANSION_KIND[e] for e in pay_expansions)]
    if len(set(kinds)) != len(kinds):
        return "A payment may not hold two identical hexagons (Q25)."
    if len({k[0] for k in kinds}) > 1 and len({k[1] for k in kinds}) > 1:
        return (
            f"Pay for the {name} with {PATTERN_PLURALS[kind[1]]} of other colours, or {colour_name(kind[0])} "
            "hexagons of other patterns, never a mix (jokers fit either) (Q25)."
        )
    return None
