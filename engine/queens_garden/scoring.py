"""Azul: Queen's Garden scoring of one player's garden: the wheel's criteria each round (Q31–Q33) and the final
scoring (Q35). Pure functions of a `Seat`; the renderer and the AI use them too.
"""

from __future__ import annotations

from typing import Any

from engine.queens_garden.components import (
    EXPANSION_KIND,
    GROUP_FULL,
    GROUP_FULL_BONUS,
    GROUP_MIN,
    JOKER_END_POINTS,
    PAVILION_POINTS,
    TILE_KIND,
    WHEEL,
    criterion_points,
)
from engine.queens_garden.geometry import groups, hexagons
from engine.queens_garden.state import Seat


def round_score(seat: Seat, round_no: int) -> tuple[int, list[dict[str, Any]]]:
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


def scored_groups(seat: Seat) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Q35.2–3: colour groups then pattern groups of at least 3 hexagons: sum of values, +6 for a group of 6."""
    hexmap = hexagons(seat)
    out: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
    for by in (0, 1):
        for key, spaces in groups(hexmap, by):
            if len(spaces) < GROUP_MIN:
                continue
            points = sum(hexmap[s][1] for s in spaces)
            bonus = GROUP_FULL_BONUS if len(spaces) >= GROUP_FULL else 0
            out[by].append({"key": key, "spaces": list(spaces), "points": points, "bonus": bonus})
        out[by].sort(key=lambda g: (g["key"], g["spaces"]))
    return out
