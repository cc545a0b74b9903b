"""Azul: Queen's Garden legality: `check` is the single test of every action (Q18–Q29), in the player's words
with the rule cited. It accepts every equivalent variant of an action (any payment the rules allow, any subset of
storage to discard on passing); `listing` lists one representative of each.
"""

from __future__ import annotations

from typing import Any

from engine._common import Text, join_texts
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
    colour_text,
    element_text,
    kind_text,
    kind_texts,
)
from engine.queens_garden.geometry import (
    AREAS,
    SPACE_COORD,
    area_text,
    elements,
    free_areas,
    free_spaces,
    hexagons,
    placement_problem,
    printed_space,
    space_text,
)
from engine.queens_garden.state import QGState, Seat, display_tiles


def check(state: QGState, player: str, action: Any) -> Text | None:
    """None if `player` may play `action` now, else why not, in the player's words with the rule."""
    if state.over:
        return Text("The game is over.")
    if player not in state.players:
        return Text("You are not playing in this game.")
    if state.current is None or state.players[state.current] != player:
        return Text("It is not your turn.")
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
    return Text("That is not an action of this game.")


def _check_acquire(state: QGState, seat: Seat, a: Acquire) -> Text | None:
    if a.by == "colour":
        if not 0 <= a.value < len(COLOURS):
            return Text("Choose one of the six colours (Q19).")
        idx = 0
    elif a.by == "pattern":
        if a.value not in PATTERNS:
            return Text("Choose a pattern from 1 (tree) to 6 (lily) (Q19).")
        idx = 1
    else:
        return Text("Choose a colour or a pattern (Q19).")
    what = criterion_words(a.by, a.value)
    sources = display_tiles(state)
    face_up = {p.expansion for p in state.display if p.face_up}
    if len(set(a.tiles)) != len(a.tiles) or len(set(a.expansions)) != len(a.expansions):
        return Text("Each tile and expansion can be taken only once.")
    kinds = []
    for t in a.tiles:
        if t not in sources:
            return Text("One of those tiles is not in the display.")
        if TILE_KIND[t][idx] != a.value:
            return Text("The {kind} is not {what} (Q19).", kind=kind_text(TILE_KIND[t]), what=what)
        kinds.append(TILE_KIND[t])
    for e in a.expansions:
        if e not in face_up:
            return Text("Only face-up expansions in the display can be taken (Q23).")
        if EXPANSION_KIND[e][idx] != a.value:
            return Text("The {kind} expansion is not {what} (Q19).", kind=kind_text(EXPANSION_KIND[e]), what=what)
        kinds.append(EXPANSION_KIND[e])
    if len(set(kinds)) != len(kinds):
        return Text("Of identical hexagons (same colour and pattern) you take exactly one (Q20).")
    present = {TILE_KIND[t] for t in sources if TILE_KIND[t][idx] == a.value}
    present |= {EXPANSION_KIND[e] for e in face_up if EXPANSION_KIND[e][idx] == a.value}
    if not present:
        return Text("There is no {what} hexagon in the display (Q19).", what=what)
    missing = present - set(kinds)
    if missing:
        return Text(
            "You must take every {what} hexagon in the display (one of each kind); you left out {kinds} (Q19).",
            what=what,
            kinds=kind_texts(sorted(missing)),
        )
    room = STORAGE_TILES - len(seat.tiles) - seat.jokers
    if len(a.tiles) > room:
        return Text(
            "Your storage has room for {n} more tile (jokers included), but taking {what} brings {taken}; "
            "choose something else (Q21).",
            "Your storage has room for {n} more tiles (jokers included), but taking {what} brings {taken}; "
            "choose something else (Q21).",
            n=room,
            what=what,
            taken=len(a.tiles),
        )
    room = STORAGE_EXPANSIONS - len(seat.expansions)
    if len(a.expansions) > room:
        return Text(
            "Your storage has room for {n} more expansion, not {taken} (Q21).",
            "Your storage has room for {n} more expansions, not {taken} (Q21).",
            n=room,
            taken=len(a.expansions),
        )
    return None


def _check_place_tile(seat: Seat, a: PlaceTile) -> Text | None:
    if a.tile not in seat.tiles:
        return Text("That tile is not in your storage. Only storage tiles can be planted; jokers never (Q25, Q27).")
    kind = TILE_KIND[a.tile]
    if (why := space_problem(seat, a.space)) is not None:
        return why
    if (why := placement_problem(hexagons(seat), a.space, kind)) is not None:
        return Text(
            "The {kind} cannot go on {space}: {problem}.", kind=kind_text(kind), space=space_text(a.space), problem=why
        )
    return payment_problem(seat, kind, a.pay_tiles, a.pay_expansions, a.jokers, tile=a.tile)


def _check_place_expansion(seat: Seat, a: PlaceExpansion) -> Text | None:
    if a.expansion not in seat.expansions:
        return Text("That expansion is not in your storage (Q28).")
    if (why := area_problem(seat, a.area)) is not None:
        return why
    if not 0 <= a.turn < 6:
        return Text("Turn the expansion 0 to 5 sixth-turns (Q28).")
    kind = EXPANSION_KIND[a.expansion]
    space = printed_space(a.area, a.turn)
    if (why := placement_problem(hexagons(seat), space, kind)) is not None:
        return Text(
            "Its {kind} cannot sit on {space}: {problem}; try another turn or area (Q28).",
            kind=kind_text(kind),
            space=space_text(space),
            problem=why,
        )
    return payment_problem(seat, kind, a.pay_tiles, a.pay_expansions, a.jokers, expansion=a.expansion)


def _check_buy(state: QGState, seat: Seat, a: BuyExpansion) -> Text | None:
    if not state.supply:
        return Text("The supply of expansions is empty (Q28).")
    if seat.score < BLANK_EXPANSION_COST:
        return Text(
            "An expansion from the supply costs exactly {n} point and you have {score}; a score cannot go "
            "below 0 (Q28, Q37).",
            "An expansion from the supply costs exactly {n} points and you have {score}; a score cannot go "
            "below 0 (Q28, Q37).",
            n=BLANK_EXPANSION_COST,
            score=seat.score,
        )
    return area_problem(seat, a.area)


def _check_pass(seat: Seat, a: Pass) -> Text | None:
    if len(set(a.tiles)) != len(a.tiles) or not set(a.tiles) <= set(seat.tiles):
        return Text("You can only discard tiles from your storage, each once (Q29).")
    if len(set(a.expansions)) != len(a.expansions) or not set(a.expansions) <= set(seat.expansions):
        return Text("You can only discard expansions from your storage, each once (Q29).")
    if a.jokers and not PASS_DISCARDS_JOKERS:
        return Text("Jokers are not hexagons: you keep them when you pass (Q29).")
    if not 0 <= a.jokers <= seat.jokers:
        return Text("You have {n} joker (Q29).", "You have {n} jokers (Q29).", n=seat.jokers)
    return None


def space_problem(seat: Seat, space: str) -> Text | None:
    if space not in SPACE_COORD:
        return Text("There is no space '{space}'; spaces are named like M3 or SE4.", space=str(space))
    hexmap = hexagons(seat)
    if space in hexmap:
        return Text("{space} already holds a hexagon (Q26).", space=space_text(space))
    found = elements(seat)
    if space in found:
        return Text(
            "{space} is a {element}, not a free space (Q39).",
            space=space_text(space),
            element=element_text(found[space]),
        )
    if space not in free_spaces(seat, hexmap):
        return Text(
            "{space} is in an expansion area with no expansion yet; place an expansion there first (Q26, Q28).",
            space=space_text(space),
        )
    return None


def area_problem(seat: Seat, area: str) -> Text | None:
    if area not in AREAS:
        return Text(
            "There is no expansion area '{area}'; areas are {areas} (Q7).", area=str(area), areas=", ".join(AREAS)
        )
    if area not in free_areas(seat):
        free = free_areas(seat)
        if not free:
            return Text("Area {area} already holds an expansion; free areas: none (Q28).", area=area_text(area))
        return Text(
            "Area {area} already holds an expansion; free areas: {free} (Q28).",
            area=area_text(area),
            free=join_texts([area_text(f) for f in free]),
        )
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
) -> Text | None:
    """Q25: the placed hexagon plus value−1 others: one pattern in distinct colours or one colour in distinct
    patterns, jokers for any of the others."""
    need = kind[1] - 1
    name = kind_text(kind)
    if jokers < 0:
        return Text("You cannot pay with a negative number of jokers.")
    offered = len(pay_tiles) + len(pay_expansions) + jokers
    if offered != need:
        return Text(
            "A {kind} costs {cost}: itself and {n} more hexagon or jokers; you offered {offered} (Q25).",
            "A {kind} costs {cost}: itself and {n} more hexagons or jokers; you offered {offered} (Q25).",
            kind=name,
            cost=kind[1],
            n=need,
            offered=offered,
        )
    if jokers > seat.jokers:
        return Text("You have only {n} joker (Q25).", "You have only {n} jokers (Q25).", n=seat.jokers)
    if len(set(pay_tiles)) != len(pay_tiles) or any(t == tile or t not in seat.tiles for t in pay_tiles):
        return Text("Pay only with other tiles from your storage, each once (Q25).")
    if len(set(pay_expansions)) != len(pay_expansions) or any(
        e == expansion or e not in seat.expansions for e in pay_expansions
    ):
        return Text("Pay only with other expansions from your storage, each once (Q25).")
    kinds = [kind, *(TILE_KIND[t] for t in pay_tiles), *(EXPANSION_KIND[e] for e in pay_expansions)]
    if len(set(kinds)) != len(kinds):
        return Text("A payment may not hold two identical hexagons (Q25).")
    if len({k[0] for k in kinds}) > 1 and len({k[1] for k in kinds}) > 1:
        return Text(
            "Pay for the {kind} with {patterns} of other colours, or {colour} hexagons of other patterns, never a "
            "mix (jokers fit either) (Q25).",
            kind=name,
            patterns=Text.marked(PATTERN_PLURALS[kind[1]]),
            colour=colour_text(kind[0]),
        )
    return None
