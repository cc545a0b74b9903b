"""The garden's hex grid and the names of its spaces (Q6, Q7, Q28), and what lies on one player's garden: its
hexagons, elements, free spaces, groups, the placement rule (Q26) and surrounded elements (Q30). Shared by the
rules, the renderer, the bot and the AI.

Flat-top hexes in axial coordinates (q, r): q grows to the lower right, r grows downwards, and the six
neighbour directions, clockwise from the top, are N (0,-1), NE (1,-1), SE (1,0), S (0,1), SW (-1,1), NW (-1,0).

Space names (case-insensitive when parsed) are an **area** and a **cell number**:

- `M` is the fountain board in the middle: `M0` the fountain, `M1`–`M6` its six free spaces clockwise from the
  top (M1 north of the fountain), `M7`–`M12` its rim hexes (statues and benches) clockwise, `M7` between M1 and M2.
- `N`, `NE`, `SE`, `S`, `SW`, `NW` are the six expansion areas, named by their compass direction from the
  fountain (their centres are in data/queens_garden_values.json, Q7 [?]). In each, `0` is the centre (the
  pavilion of a face-up expansion) and `1`–`6` the ring clockwise from the top: `SE0`, `SE1`, ... `SE6`.

An expansion placed with `turn` t (0–5 sixth-turns clockwise) has its printed hexagon on ring cell t+1, so
`printed_space("SE", 2) == "SE3"`. A blank expansion has no hexagon and is always placed with turn 0.
"""

from __future__ import annotations

import math

from engine._common import N_, Text, join_texts, require_data
from engine.queens_garden import components
from engine.queens_garden.components import EXPANSION_KIND, TILE_KIND, Kind, value
from engine.queens_garden.state import Seat

Coord = tuple[int, int]

DIRECTIONS: tuple[Coord, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
COMPASS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
FOUNTAIN_BOARD = "M"


def _add(a: Coord, b: Coord) -> Coord:
    return (a[0] + b[0], a[1] + b[1])


# Q7 [?]: the six expansion areas, from data.
AREA_CENTRES: dict[str, Coord] = {k: (v[0], v[1]) for k, v in value("expansion_areas").items()}
AREAS: tuple[str, ...] = tuple(a for a in COMPASS if a in AREA_CENTRES)
require_data(set(AREAS) == set(AREA_CENTRES), "Q7: expansion areas must be named by compass direction")

SPACE_COORD: dict[str, Coord] = {"M0": (0, 0)}
for _i, _d in enumerate(DIRECTIONS):
    SPACE_COORD[f"M{_i + 1}"] = _d
    SPACE_COORD[f"M{_i + 7}"] = _add(_d, DIRECTIONS[(_i + 1) % 6])
for _a in AREAS:
    SPACE_COORD[f"{_a}0"] = AREA_CENTRES[_a]
    for _i, _d in enumerate(DIRECTIONS):
        SPACE_COORD[f"{_a}{_i + 1}"] = _add(AREA_CENTRES[_a], _d)
COORD_SPACE: dict[Coord, str] = {c: n for n, c in SPACE_COORD.items()}
require_data(len(COORD_SPACE) == len(SPACE_COORD), "Q7: expansion areas overlap each other or the fountain board")

# Every space of the garden, in a stable order (fountain board, then areas N..NW), and its neighbours on the
# garden. Hexes off every board are not listed: they can never hold anything (Q30 ignores them).
SPACES: tuple[str, ...] = tuple(SPACE_COORD)
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    n: tuple(COORD_SPACE[x] for d in DIRECTIONS if (x := _add(c, d)) in COORD_SPACE) for n, c in SPACE_COORD.items()
}
FOUNTAIN_FREE: tuple[str, ...] = tuple(f"M{i}" for i in range(1, 7))  # Q6: the six first planting spaces
AREA_CELLS: dict[str, tuple[str, ...]] = {a: tuple(f"{a}{i}" for i in range(7)) for a in AREAS}

# Q6 [1] / Q39: garden elements printed on the fountain board (space -> "fountain" / "statue" / "bench").
FOUNTAIN_ELEMENTS: dict[str, str] = dict(value("fountain_board_elements"))
require_data(
    set(FOUNTAIN_ELEMENTS) <= {f"M{i}" for i in (0, *range(7, 13))},
    "Q6: fountain board elements lie on M0 and the rim M7–M12",
)


# the areas' names as players read them (the ids stay "NE", "M"): each language's compass letters
AREA_NAMES: dict[str, str] = {
    "N": N_("N", context="queens_garden"),
    "NE": N_("NE", context="queens_garden"),
    "SE": N_("SE", context="queens_garden"),
    "S": N_("S", context="queens_garden"),
    "SW": N_("SW", context="queens_garden"),
    "NW": N_("NW", context="queens_garden"),
    # i18n: the fountain board in the middle of a garden, the letter of its spaces (M0–M12)
    "M": N_("M", context="queens_garden"),
}


def area_text(area: str) -> Text | str:
    """An area's name in the reader's letters ("NE"); a word that is no area stays as it is."""
    name = AREA_NAMES.get(area)
    return Text.marked(name) if name is not None else area


def space_text(name: str) -> Text | str:
    """A space's name in the reader's letters ("NE3": the area's, then the cell's number)."""
    area = area_of(name)
    return join_texts([area_text(area), name[len(area) :]], "") if area in AREA_NAMES else name


def space_name(area: str, cell: int) -> str:
    """'SE3' for cell 3 of area SE; area 'M' is the fountain board."""
    name = f"{area}{cell}"
    if name not in SPACE_COORD:
        raise ValueError(Text("There is no space {space}.", space=name))
    return name


def parse_space(text: str) -> str:
    """The canonical name of a space typed by a player ('se3', ' SE3 ' -> 'SE3'); ValueError if there is none."""
    name = str(text).strip().upper().replace(" ", "").replace("-", "")
    if name not in SPACE_COORD:
        raise ValueError(
            Text(
                "'{text}' is not a space. Spaces are M1–M6 on the fountain board and N0–N6, NE0–NE6, SE0–SE6, "
                "S0–S6, SW0–SW6, NW0–NW6 on the expansion areas.",
                text=str(text),
            )
        )
    return name


def area_of(name: str) -> str:
    """'SE' for 'SE3', 'M' for 'M4'."""
    return name.rstrip("0123456789")


def printed_space(area: str, turn: int) -> str:
    """Q28: the space that holds an expansion's printed hexagon when placed in `area` with `turn` sixth-turns."""
    return f"{area}{turn % 6 + 1}"


def pixel(name: str, size: float = 1.0) -> tuple[float, float]:
    """The centre of a space in a flat-top drawing with hexes of circumradius `size`, the fountain at (0, 0)."""
    q, r = SPACE_COORD[name]
    return (size * 1.5 * q, size * math.sqrt(3) * (r + q / 2))


# ------------------------------------------------------------------------------------------ one player's garden


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


# The refusals of `placement_verdict`'s codes (0: allowed)
_REFUSALS = {
    1: Text("a hexagon next to others must share its colour or its pattern with at least one of them (Q26a)"),
    2: Text("a hexagon must share its colour or its pattern with every neighbour (Q26a)"),
    3: Text("its colour group would hold two identical hexagons (Q26b)"),
    4: Text("its pattern group would hold two identical hexagons (Q26b)"),
}


def placement_problem(hexmap: dict[str, Kind], space: str, kind: Kind) -> Text | None:
    """Q26 (a) and (b) for a hexagon of `kind` on free `space`: None if allowed, else why not (player's words)."""
    code = placement_verdict(hexmap, space, kind)
    return _REFUSALS[code] if code else None


def placement_verdict(hexmap: dict[str, Kind], space: str, kind: Kind) -> int:
    """`placement_problem` as a code, without words (the listing's hot path): 0 if allowed, else which rule
    refuses it (1: Q26a any, 2: Q26a all, 3: Q26b colour group, 4: Q26b pattern group)."""
    colour, pattern = kind
    count = matching = 0
    same_colour = same_pattern = False
    get = hexmap.get
    for n in NEIGHBOURS[space]:
        k = get(n)
        if k is None:
            continue
        count += 1
        if k[0] == colour:
            same_colour = True
            matching += 1
        elif k[1] == pattern:
            matching += 1
        if k[1] == pattern:
            same_pattern = True
    if not count:
        return 0  # (a) allows it, and a lone hexagon joins no group
    if components.ADJACENCY == "any" and matching == 0:
        return 1
    if components.ADJACENCY == "all" and matching < count:
        return 2
    # Q26b: the colour group and the pattern group it would join (joining groups together) must not hold two
    # identical hexagons. Walk each group outwards from the new space.
    if same_colour and _duplicate_in_group(hexmap, space, 0, colour, 1, pattern):
        return 3
    if same_pattern and _duplicate_in_group(hexmap, space, 1, pattern, 0, colour):
        return 4
    return 0


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
