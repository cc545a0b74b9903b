"""The garden's hex grid and the names of its spaces (Q6, Q7, Q28), shared by the rules, the renderer and the bot.

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

from engine.queens_garden.components import value

Coord = tuple[int, int]

DIRECTIONS: tuple[Coord, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
COMPASS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
FOUNTAIN_BOARD = "M"


def _add(a: Coord, b: Coord) -> Coord:
    return (a[0] + b[0], a[1] + b[1])


# Q7 [?]: the six expansion areas, from data.
AREA_CENTRES: dict[str, Coord] = {k: tuple(v) for k, v in value("expansion_areas").items()}  # type: ignore[misc]
AREAS: tuple[str, ...] = tuple(a for a in COMPASS if a in AREA_CENTRES)
assert set(AREAS) == set(AREA_CENTRES), "expansion areas must be named by compass direction"

SPACE_COORD: dict[str, Coord] = {"M0": (0, 0)}
for _i, _d in enumerate(DIRECTIONS):
    SPACE_COORD[f"M{_i + 1}"] = _d
    SPACE_COORD[f"M{_i + 7}"] = _add(_d, DIRECTIONS[(_i + 1) % 6])
for _a in AREAS:
    SPACE_COORD[f"{_a}0"] = AREA_CENTRES[_a]
    for _i, _d in enumerate(DIRECTIONS):
        SPACE_COORD[f"{_a}{_i + 1}"] = _add(AREA_CENTRES[_a], _d)
COORD_SPACE: dict[Coord, str] = {c: n for n, c in SPACE_COORD.items()}
assert len(COORD_SPACE) == len(SPACE_COORD), "expansion areas overlap each other or the fountain board"

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
assert set(FOUNTAIN_ELEMENTS) <= {f"M{i}" for i in (0, *range(7, 13))}


def space_name(area: str, cell: int) -> str:
    """'SE3' for cell 3 of area SE; area 'M' is the fountain board."""
    name = f"{area}{cell}"
    if name not in SPACE_COORD:
        raise ValueError(f"There is no space {name}.")
    return name


def parse_space(text: str) -> str:
    """The canonical name of a space typed by a player ('se3', ' SE3 ' -> 'SE3'); ValueError if there is none."""
    name = str(text).strip().upper().replace(" ", "").replace("-", "")
    if name not in SPACE_COORD:
        raise ValueError(
            f"'{text}' is not a space. Spaces are M1–M6 on the fountain board and N0–N6, NE0–NE6, SE0–SE6, "
            "S0–S6, SW0–SW6, NW0–NW6 on the expansion areas."
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
