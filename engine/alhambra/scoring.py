"""Alhambra scoring rounds (A43–A49, A65): majorities per building type with shared tied places, and walls.

Pure functions of the public board (A83): the counts come from the Alhambras (and Dirk's tiles), never from
hands or the reserve.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.alhambra.components import POINTS, TYPE_NAMES, TYPE_OF, TYPES
from engine.alhambra.geometry import longest_wall
from engine.alhambra.state import ScoreLine, ScoringRound


def count_types(tiles: Iterable[str]) -> dict[str, int]:
    """A44: buildings per type among `tiles` (the fountain has no type)."""
    counts = dict.fromkeys(TYPES, 0)
    for t in tiles:
        typ = TYPE_OF[t]
        if typ in counts:
            counts[typ] += 1
    return counts


def majority_points(counts: Sequence[int], table: Sequence[int]) -> list[int]:
    """A45–A47: points for each participant given their counts of one type and the round's place values.

    Sorted by count, equal counts form a block that occupies as many places as it has members; each member
    gets the sum of those places' values divided by the block size, rounded down; places beyond the table are
    worth 0; a participant with 0 buildings never scores.
    """
    points = [0] * len(counts)
    order = sorted((c for c in set(counts) if c > 0), reverse=True)
    place = 0
    for c in order:
        block = [i for i, x in enumerate(counts) if x == c]
        total = sum(table[p] for p in range(place, place + len(block)) if p < len(table))
        for i in block:
            points[i] = total // len(block)
        place += len(block)
    return points


def score_round(rnd: int, participants: Sequence[tuple[str | None, Iterable[str], dict | None, int]]
                ) -> ScoringRound:
    """One scoring round. `participants`: (player or None for Dirk, tiles counted, Alhambra for walls or
    None, score before). Returns the breakdown with running totals."""
    counts = [count_types(tiles) for _, tiles, _, _ in participants]
    table = POINTS[rnd]
    majorities: list[dict[str, int]] = [{} for _ in participants]
    for typ in TYPES:
        pts = majority_points([c[typ] for c in counts], table[typ])
        for i, p in enumerate(pts):
            if p:
                majorities[i][typ] = p
    lines = []
    for i, (who, _, alhambra, before) in enumerate(participants):
        wall = longest_wall(alhambra) if alhambra is not None else 0  # A48: Dirk never scores walls
        total = sum(majorities[i].values()) + wall
        lines.append(ScoreLine(who, counts[i], majorities[i], wall, total, before + total))
    return ScoringRound(rnd, tuple(lines))


def line_text(line: ScoreLine) -> str:
    """'scores 19 points (Tower 13, Garden 5, walls 1)'."""
    parts = [f"{TYPE_NAMES[t]} {p}" for t, p in sorted(line.majorities.items(), key=lambda kv: -kv[1])]
    if line.wall:
        parts.append(f"walls {line.wall}")
    detail = f" ({', '.join(parts)})" if parts else ""
    return f"scores {line.total} point{'s' if line.total != 1 else ''}{detail}, {line.score} in total"
