"""The Gardens of the Alhambra board (G1, G8–G15, G22–G23) and the position notation shared by the engine, the
renderer, the bot's commands and the AI.

Notation (used everywhere, printed on the board image):

* **Garden spaces** (octagons, G1/G8): column letter ``A``–``F`` + row number ``1``–``6``. ``"C3"`` is the garden at
  row index 2, column index 2. Internally a garden is the index ``r * 6 + c`` (0–35).
* **Building spaces** (squares at the lattice corners, G8): column letter ``a``–``g`` + row number ``1``–``7``,
  lowercase. ``"d4"`` is the building at lattice corner ``(i, j) = (3, 3)``. Internally ``i * 7 + j`` (0–48).
  So garden ``C3``'s four buildings are ``c3`` (NW), ``d3`` (NE), ``d4`` (SE) and ``c4`` (SW): a garden's NW
  corner building has the same letter and number as the garden.
* **Directions** from a garden to its buildings: 0 = NE, 1 = SE, 2 = SW, 3 = NW (the order of the data file, G15).
* **Rotations**: quarter turns clockwise 0–3 (G13, G15); shown to players as 0°, 90°, 180°, 270°.
"""

from __future__ import annotations

from engine._common import Text
from engine.gardens.components import KIND_INDEX, TILE_IDS, TILE_KINDS

Board = tuple[tuple[str, int] | None, ...]  # garden index -> (tile id, rotation) or None

SIZE = 6  # G1: 6×6 gardens
BSIZE = 7  # G1: 7×7 buildings
N_GARDENS = SIZE * SIZE
N_BUILDINGS = BSIZE * BSIZE
DIRECTIONS: tuple[str, ...] = ("NE", "SE", "SW", "NW")  # G15 order
DEGREES: tuple[int, ...] = (0, 90, 180, 270)

GARDEN_NAMES: tuple[str, ...] = tuple("ABCDEF"[g % SIZE] + str(g // SIZE + 1) for g in range(N_GARDENS))
BUILDING_NAMES: tuple[str, ...] = tuple("abcdefg"[b % BSIZE] + str(b // BSIZE + 1) for b in range(N_BUILDINGS))
GARDEN_INDEX: dict[str, int] = {n: i for i, n in enumerate(GARDEN_NAMES)}
BUILDING_INDEX: dict[str, int] = {n: i for i, n in enumerate(BUILDING_NAMES)}


def garden_rc(g: int) -> tuple[int, int]:
    """(row, column) of garden index g."""
    return divmod(g, SIZE)


def building_ij(b: int) -> tuple[int, int]:
    """(i, j) lattice corner of building index b (i: row 0–6, j: column 0–6)."""
    return divmod(b, BSIZE)


def _garden_buildings(g: int) -> tuple[int, int, int, int]:
    # G9: garden (r,c) touches NE=(r,c+1), SE=(r+1,c+1), SW=(r+1,c), NW=(r,c); in G15 direction order.
    r, c = garden_rc(g)
    return (r * BSIZE + c + 1, (r + 1) * BSIZE + c + 1, (r + 1) * BSIZE + c, r * BSIZE + c)


# GARDEN_BUILDINGS[g][d]: the building garden g faces in direction d. Always on the board: the 7×7 lattice
# surrounds the 6×6 grid, so every long side faces a building (G10: 25·4 + 20·2 + 4·1 = 144 = 36·4) and the
# off-board case of G14 never arises; only an edge garden's short sides face off the board, and they carry no trees.
GARDEN_BUILDINGS: tuple[tuple[int, int, int, int], ...] = tuple(_garden_buildings(g) for g in range(N_GARDENS))

# BUILDING_GARDENS[b]: ((garden, direction from that garden to b), ...) for the gardens on the board (G9, G10).
BUILDING_GARDENS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((g, d) for g in range(N_GARDENS) for d in range(4) if GARDEN_BUILDINGS[g][d] == b) for b in range(N_BUILDINGS)
)

# G11: orthogonal neighbours only (diagonal gardens have a building between them).
GARDEN_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (r + dr) * SIZE + (c + dc)
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )
    for r, c in (garden_rc(g) for g in range(N_GARDENS))
)

# G22: the inner 4×4 where the first tile must go.
INNER_GARDENS: frozenset[int] = frozenset(g for g in range(N_GARDENS) if all(1 <= x <= 4 for x in garden_rc(g)))
_ALL_INNER = tuple(sorted(INNER_GARDENS))

# Scoring order of the buildings one placement can complete (G27 [D]): NW, NE, SE, SW of the placed tile.
SCORING_ORDER: tuple[int, ...] = (3, 0, 1, 2)


def open_spaces(board: Board) -> tuple[int, ...]:
    """G22/G23: the garden indices where a tile may go now (inner 4×4 first, then next to a placed tile)."""
    if not any(board):
        return tuple(g for g in _ALL_INNER if board[g] is None)
    return tuple(
        g for g in range(N_GARDENS) if board[g] is None and any(board[n] is not None for n in GARDEN_NEIGHBOURS[g])
    )


# ------------------------------------------------------------------------------------------ tiles and rotation


def facing_kinds(tile: str, rotation: int) -> tuple[str, str, str, str]:
    """G15: the kinds a tile turned `rotation` quarter turns clockwise faces toward NE, SE, SW, NW."""
    k = TILE_KINDS[tile]
    return (k[-rotation % 4], k[(1 - rotation) % 4], k[(2 - rotation) % 4], k[(3 - rotation) % 4])


def _facing(tile: str, rotation: int) -> tuple[int, int, int, int]:
    ne, se, sw, nw = facing_kinds(tile, rotation)
    return (KIND_INDEX[ne], KIND_INDEX[se], KIND_INDEX[sw], KIND_INDEX[nw])


# FACING[tile][rotation][direction] -> kind index (precomputed for speed).
FACING: dict[str, tuple[tuple[int, int, int, int], ...]] = {t: tuple(_facing(t, q) for q in range(4)) for t in TILE_IDS}


def rotation_facing(tile: str, kind: str, direction: str | int) -> int:
    """The rotation (quarter turns) that makes `tile` show `kind` toward `direction` ("NE"… or 0–3)."""
    d = DIRECTIONS.index(direction) if isinstance(direction, str) else direction
    return (d - TILE_KINDS[tile].index(kind)) % 4


# ------------------------------------------------------------------------------------------ parsing


def parse_garden(text: str) -> int:
    """Garden index from a name like "C3" (case-insensitive). ValueError if it is not a garden space."""
    name = str(text).strip().upper()
    if name not in GARDEN_INDEX:
        raise ValueError(
            Text("'{text}' is not a garden space; use a column A–F and a row 1–6, like C3.", text=str(text))
        )
    return GARDEN_INDEX[name]


def parse_building(text: str) -> int:
    """Building index from a name like "d4" (case-insensitive). ValueError if it is not a building space."""
    name = str(text).strip().lower()
    if name not in BUILDING_INDEX:
        raise ValueError(
            Text("'{text}' is not a building space; use a column a–g and a row 1–7, like d4.", text=str(text))
        )
    return BUILDING_INDEX[name]


def parse_rotation(text: str | int) -> int:
    """Quarter turns 0–3 from degrees ("90", "90°", 270) or "q1"-style quarter turns. ValueError otherwise."""
    s = str(text).strip().rstrip("°").lower()
    if s.startswith("q") and s[1:] in ("0", "1", "2", "3"):
        return int(s[1:])
    if s.lstrip("-").isdigit() and int(s) % 90 == 0:
        return (int(s) // 90) % 4
    raise ValueError(Text("'{text}' is not a rotation; turn tiles by 0, 90, 180 or 270 degrees (G13).", text=str(text)))
