"""One player's garden: its hexagons, free spaces, elements, groups (Q26), surrounding (Q30) and scoring
(Q31–Q33 round scoring, Q35 final scoring). Pure functions of a `Seat`; the renderer and the bot may use them.
"""

from __future__ import annotations

from engine.queens_garden import components as _C
from engine.queens_garden.components import (
    EXPANSION_KIND,
    GROUP_FULL,
    GROUP_FULL_BONUS,
    GROUP_MIN,
    JOKER_END_POINTS,
    PAVILION_POINTS,
    TILE_KIND,
    WHEEL,
    Kind,
    criterion_points,
)
from engine.queens_garden.geometry import AREA_CELLS, AREAS, FOUNTAIN_ELEMENTS, FOUNTAIN_FREE, NEIGHBOURS, printed_space
from engine.queens_garden.state import Seat


def hexagons(seat: Seat) -> dict[str, Kind]:
    """Every hexagon in the garden, space -> (colour, pattern): placed tiles and printed expansion hexagons (Q26)."""
    out = {space: TILE_KIND[t] for space, t in seat.garden.items()}
    for p in seat.placed:
        if p.face_up:
            out[printed_space(p.area, p.turn)] = EXPANSION_KIND[p.expansion]
    return out


def elements(seat: Seat) -> dict[str, str]:
    """Q39: garden elements, space -> 'fountain'/'statue'/'bench'/'pavilion' (never free spaces)."""
    out = dict(FOUNTAIN_ELEMENTS)
    for p in seat.placed:
        if p.face_up:
            out[f"{p.area}0"] = "pavilion"
    return out


def free_spaces(seat: Seat, hexmap: dict[str, Kind] | None = None) -> list[str]:
    """Q26: spaces that hold neither a hexagon nor a garden element, on the fountain board and placed expansions."""
    hexmap = hexagons(seat) if hexmap is None else hexmap
    out = [s for s in FOUNTAIN_FREE if s not in hexmap and s not in FOUNTAIN_ELEMENTS]
    for p in seat.placed:
        cells = AREA_CELLS[p.area][1:] if p.face_up else AREA_CELLS[p.area]  # a face-up centre is a pavilion
        out.extend(s for s in cells if s not in hexmap)
    return out


def free_areas(seat: Seat) -> list[str]:
    """Q28: expansion areas with no expansion yet."""
    used = {p.area for p in seat.placed}
    return [a for a in AREAS if a not in used]


def placement_problem(hexmap: dict[str, Kind], space: str, kind: Kind) -> str | None:
    """Q26 (a) and (b) for a hexagon of `kind` on free `space`: None if allowed, else why not (player's words)."""
    colour, pattern = kind
    count = matching = 0
    same_colour = same_pattern = False
    for n in NEIGHBOURS[space]:
        k = hexmap.get(n)
        if k is None:
            continue
        count += 1
        if k[0] == colour:
            same_colour = True
        if k[1] == pattern:
            same_pattern = True
        if k[0] == colour or k[1] == pattern:
            matching += 1
    if not count:
        return None  # (a) allows it, and a lone hexagon joins no group
    if _C.ADJACENCY == "any" and matching == 0:
        return "a hexagon next to others must share its colour or its pattern with at least one of them (Q26a)"
    if _C.ADJACENCY == "all" and matching < count:
        return "a hexagon must share its colour or its pattern with every neighbour (Q26a)"
    # Q26b: the colour group and the pattern group it would join (joining groups together) must not hold two
    # identical hexagons. Walk each group outwards from the new space.
    if same_colour and _duplicate_in_group(hexmap, space, 0, colour, 1, pattern):
        return "its colour group would hold two identical hexagons (Q26b)"
    if same_pattern and _duplicate_in_group(hexmap, space, 1, pattern, 0, colour):
        return "its pattern group would hold two identical hexagons (Q26b)"
    return None


def _duplicate_in_group(hexmap: dict[str, Kind], start: str, same: int, key: int, other: int, own: int) -> bool:
    """Would the group of hexagons sharing kind[same] == key, grown from `start`, hold kind[other] twice?"""
    seen = {own}
    visited = {start}
    todo = [start]
    while todo:
        for n in NEIGHBOURS[todo.pop()]:
            if n in visited:
                continue
            k = hexmap.get(n)
            if k is None or k[same] != key:
                continue
            if k[other] in seen:
                return True
            seen.add(k[other])
            visited.add(n)
            todo.append(n)
    return False


def groups(hexmap: dict[str, Kind], by: int) -> list[tuple[int, tuple[str, ...]]]:
    """Connected groups of hexagons sharing colour (by=0) or pattern (by=1): (shared key, spaces), any size."""
    out = []
    visited: set[str] = set()
    for start in sorted(hexmap):
        if start in visited:
            continue
        key = hexmap[start][by]
        comp = [start]
        visited.add(start)
        todo = [start]
        while todo:
            for n in NEIGHBOURS[todo.pop()]:
                if n not in visited and n in hexmap and hexmap[n][by] == key:
                    visited.add(n)
                    comp.append(n)
                    todo.append(n)
        out.append((key, tuple(sorted(comp))))
    return out


def newly_surrounded(seat: Seat, hexmap: dict[str, Kind]) -> list[tuple[str, str]]:
    """Q30: elements completely surrounded now and not yet rewarded: (space, element). Neighbours off every
    board are ignored; a neighbour that is another element can never hold a hexagon."""
    out = []
    for space, element in sorted(elements(seat).items()):
        if space in seat.rewarded:
            continue
        if all(n in hexmap for n in NEIGHBOURS[space]):
            out.append((space, element))
    return out


def round_score(seat: Seat, round_no: int) -> tuple[int, list[dict]]:
    """Q31–Q33: the points for the wheel's criteria this round plus +1 per visible pavilion, with a breakdown."""
    hexmap = hexagons(seat)
    lines = []
    total = 0
    for criterion in WHEEL[round_no]:
        what, key = criterion
        idx = 0 if what == "colour" else 1
        matched = [k for k in hexmap.values() if k[idx] == key]
        points = sum(criterion_points(criterion, k[1], round_no) for k in matched)
        lines.append({"criterion": what, "key": key, "hexagons": len(matched), "points": points})
        total += points
    pavilions = sum(1 for p in seat.placed if p.face_up)
    lines.append({"criterion": "pavilions", "key": 0, "hexagons": pavilions, "points": pavilions * PAVILION_POINTS})
    total += pavilions * PAVILION_POINTS
    return total, lines


def storage_value(seat: Seat) -> tuple[int, int, int]:
    """Q35.1: (+1 per joker, −value of storage tiles, −value of storage expansions)."""
    return (
        seat.jokers * JOKER_END_POINTS,
        -sum(TILE_KIND[t][1] for t in seat.tiles),
        -sum(EXPANSION_KIND[e][1] for e in seat.expansions),
    )


def scored_groups(seat: Seat) -> tuple[list[dict], list[dict]]:
    """Q35.2–3: colour groups then pattern groups of at least 3 hexagons: sum of values, +6 for a group of 6."""
    hexmap = hexagons(seat)
    out: tuple[list[dict], list[dict]] = ([], [])
    for by in (0, 1):
        for key, spaces in groups(hexmap, by):
            if len(spaces) < GROUP_MIN:
                continue
            points = sum(hexmap[s][1] for s in spaces)
            bonus = GROUP_FULL_BONUS if len(spaces) >= GROUP_FULL else 0
            out[by].append({"key": key, "spaces": list(spaces), "points": points, "bonus": bonus})
        out[by].sort(key=lambda g: (g["key"], g["spaces"]))
    return out
