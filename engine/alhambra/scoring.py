"""Alhambra scoring rounds (A43–A49, A65): majorities per building type with shared tied places, and walls;
with the Vizier's Favour modules, huts (V27) and played bonus cards (V63) add buildings.

Pure functions of the public board (A83): the counts come from the Alhambras (and Dirk's tiles) and played
bonus cards, never from hands or the reserve.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine._common import Text, join_texts
from engine.alhambra.components import HUT_TYPE, NEIGHBOURS, POINTS, TYPE_OF, TYPES, WALLS, type_text
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


def hut_counts(alhambra: Mapping[tuple[int, int], str]) -> dict[str, int]:
    """V27/V28: each hut in the Alhambra counts one building of its colour for every orthogonal neighbour that is
    a real building tile of that type sharing an open side with it (by A31.2 the hut's side is then open too;
    a wall between them gives nothing). The hut itself and neighbouring huts never count."""
    out: dict[str, int] = {}
    for (x, y), tile in alhambra.items():
        typ = HUT_TYPE.get(tile)
        if typ is None:
            continue
        walls = WALLS[tile]
        n = 0
        for dx, dy, side, _ in NEIGHBOURS:
            other = alhambra.get((x + dx, y + dy))
            if other is not None and not walls & side and TYPE_OF[other] == typ:
                n += 1
        if n:
            out[typ] = out.get(typ, 0) + n
    return out


def bonus_counts(played: Iterable[str]) -> dict[str, int]:
    """V63: each played bonus card is one more building of the depicted tile's type."""
    out: dict[str, int] = {}
    for card in played:
        out[TYPE_OF[card]] = out.get(TYPE_OF[card], 0) + 1
    return out


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


def score_round(
    rnd: int,
    participants: Sequence[tuple[str | None, Iterable[str], Mapping[tuple[int, int], str] | None, int]],
    extras: Sequence[tuple[dict[str, int], dict[str, int]]] | None = None,
) -> ScoringRound:
    """One scoring round. `participants`: (player or None for Dirk, tiles counted, Alhambra for walls or
    None, score before); `extras`: per participant (hut buildings V27, bonus-card buildings V63) added to the
    counts. Returns the breakdown with running totals."""
    counts = [count_types(tiles) for _, tiles, _, _ in participants]
    extra_of: list[tuple[dict[str, int], dict[str, int]]] = list(extras or ())
    extra_of += [({}, {})] * (len(participants) - len(extra_of))
    for c, (huts, bonus) in zip(counts, extra_of, strict=True):
        for typ, k in (*huts.items(), *bonus.items()):
            c[typ] += k
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
        lines.append(
            ScoreLine(
                who, counts[i], majorities[i], wall, total, before + total, dict(extra_of[i][0]), dict(extra_of[i][1])
            )
        )
    return ScoringRound(rnd, tuple(lines))


def line_text(line: ScoreLine) -> Text:
    """'scores 19 points (Tower 13, Garden 5, walls 1), 40 in total.' (a scoring event's words after the player's
    name)."""
    parts = [
        Text("{type} {points}", type=type_text(t), points=p)
        for t, p in sorted(line.majorities.items(), key=lambda kv: -kv[1])
    ]
    if line.wall:
        parts.append(Text("walls {points}", points=line.wall))
    added = [Text("{n} {type} from huts", type=type_text(t), n=k) for t, k in line.huts.items()]
    added += [Text("{n} {type} from bonus cards", type=type_text(t), n=k) for t, k in line.bonus.items()]
    points, score = Text("{n} point", "{n} points", n=line.total), line.score
    if parts and added:
        return Text(
            "scores {points} ({details}); counted {added}, {score} in total.",
            points=points,
            details=join_texts(parts),
            added=join_texts(added),
            score=score,
        )
    if parts:
        return Text(
            "scores {points} ({details}), {score} in total.", points=points, details=join_texts(parts), score=score
        )
    if added:
        return Text(
            "scores {points}; counted {added}, {score} in total.", points=points, added=join_texts(added), score=score
        )
    return Text("scores {points}, {score} in total.", points=points, score=score)
