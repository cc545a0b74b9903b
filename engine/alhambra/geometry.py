"""Alhambra building rules on the grid (A30–A33, A82) and the longest outer wall (A48).

An Alhambra is a dict {(x, y): tile id} with the fountain at (0, 0); x grows east, y grows south. Tiles are
never rotated (A30), so a tile's walls are fixed sides (bits N/E/S/W from components).

Every check returns None when fine, else the reason in a player's words (with the rule number). The fast
searches (`legal_cells`, `removable_cells`) use the same predicates, so a listed position is always accepted.
`layout` keeps what the listing asks of one Alhambra, and derives it from the Alhambra one move made it from
(`changed`): random playouts (the AI's search) are mostly listing.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final, TypeVar

from engine._common import N_, Text
from engine.alhambra.components import NEIGHBOURS, OPPOSITE, START_TILES, WALLS, E, N, S, W, cell_name, tile_text

K = TypeVar("K", bound=Hashable)  # a cell of the walking graph: a layout's int key, or a plain Cell

Cell = tuple[int, int]
Alhambra = Mapping[Cell, str]

SIDE_WORDS = {N: N_("north"), E: N_("east"), S: N_("south"), W: N_("west")}

# The 8 cells around a cell in ring order (N, NE, E, SE, S, SW, W, NW): consecutive entries are edge neighbours
# of each other, and the even entries are the cell's own edge neighbours.
RING = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


# --------------------------------------------------------------------------------------------- layouts

# Inside a Layout a cell (x, y) is one int, (y << SHIFT) + x: its neighbours are k - ROW (north), k + 1 (east),
# k + ROW (south) and k - 1 (west), and sorting keys sorts cells top row first (an Alhambra of at most 78 tiles
# never reaches |x| = ROW / 2).
SHIFT: Final = 10
ROW: Final = 1 << SHIFT
_HALF: Final = ROW >> 1


def cell_key(cell: Cell) -> int:
    return (cell[1] << SHIFT) + cell[0]


def key_cell(k: int) -> Cell:
    x = ((k + _HALF) & (ROW - 1)) - _HALF
    return x, (k - x) >> SHIFT


_SIDES: Final = ((-ROW, N, S), (1, E, W), (ROW, S, N), (-1, W, E))  # (offset, side towards it, its side facing back)
# The 8 cells around a key in ring order (RING) as (offset, the bit of the centre in that cell's ring mask, the
# side of that cell facing the centre (0 for a corner), the side of the centre facing that cell, and the mask that
# clears what the centre gave that cell's packed entry: its ring bit and the side's present and walled bits)
_AROUND: Final = tuple(
    (dy * ROW + dx, bit, back, side, ~(bit << 8 | back << 4 | back))
    for i, (dx, dy) in enumerate(RING)
    for side in [next((sd for ddx, ddy, sd, _ in NEIGHBOURS if (ddx, ddy) == (dx, dy)), 0)]
    for bit, back in [(1 << ((i + 4) % 8), OPPOSITE[side] if side else 0)]
)
# The edge neighbours as (offset, what the centre gives their packed frontier entry: ring bit and present side,
# their side facing the centre, its present bit in packed needs, the centre's side facing them, the mask that
# clears what the centre gave); the corners as (offset, ring bit << 8, the mask that clears it)
_EDGES_AROUND: Final = tuple(
    (d, bit << 8 | back << 4, back, back << 4, side, gone) for d, bit, back, side, gone in _AROUND if back
)
_CORNERS_AROUND: Final = tuple((d, bit << 8, gone) for d, bit, back, _, gone in _AROUND if not back)


class Layout:
    """What the listing asks of one Alhambra held by a game state (never mutated), by cell keys: the walls of
    its cells (`occ`), every occupied cell's `needs` (which also give its ways on foot, the walking graph of
    A31.3: `STEPS`), and every empty cell beside it (the frontier) with its ring mask and `needs`; from these,
    computed once when first asked: the legal cells per wall pattern (`fits`) and the removable cells.

    The facts are packed ints: a cell's needs are `present << 4 | walled` (the sides with a neighbour, and those
    whose neighbour shows a wall there), a frontier entry is `ring << 8 | needs` (ring: which of the 8 cells
    around are occupied, RING order), so that whether a tile with walls w fits there is two table lookups:
    `FITS[w][entry & 255]` (A31.2, A31.3) and not `HOLE_AFTER[entry >> 8]` (A31.4).

    An Alhambra made from another by one change (a tile added, removed or exchanged at one cell, see `changed`)
    derives all of it from its parent's: only the cell and its 8 neighbours change, each by a bit or two, so a
    playout does not rebuild them after every move (tests/engine/test_fast_listing.py proves the derived facts
    equal the computed ones over random games)."""

    __slots__ = ("alh", "occ", "_need", "front", "_fits", "_removable", "memo")

    def __init__(self, alh: Alhambra, parent: Layout | None = None, changed: Cell | None = None) -> None:
        self.alh = alh
        self._fits: dict[int, list[int]] = {}
        self._removable: frozenset[int] | None = None
        self.memo: dict[Any, Any] = {}  # the listing's own per-Alhambra results (keyed by what else they depend on)
        if parent is not None and changed is not None:
            self._derive(parent, cell_key(changed), alh.get(changed))
            return
        self.occ = occ = {(y << SHIFT) + x: WALLS[t] for (x, y), t in alh.items()}
        self._need = {k: _needs_key(occ, k) for k in occ}
        around = {k + d for k in occ for d in (-ROW, 1, ROW, -1)}.difference(occ)
        self.front = {k: _front_entry(occ, k) for k in around}

    def _derive(self, parent: Layout, k: int, tile: str | None) -> None:
        """The facts of the parent's Alhambra changed at key k: `tile` added or exchanged there, or (None) the
        tile there removed."""
        self.occ = occ = parent.occ.copy()
        self._need = need = parent._need.copy()
        self.front = front = parent.front.copy()
        if tile is None:
            del occ[k]
            needs = need.pop(k)  # what the cell needs does not depend on its own tile: it stays
            corners = (
                (k - ROW + 1 in occ) << 1
                | (k + ROW + 1 in occ) << 3
                | (k + ROW - 1 in occ) << 5
                | (k - ROW - 1 in occ) << 7
            )
            front[k] = (RING_OF_PRESENT[needs >> 4] | corners) << 8 | needs
            for d, _, _, _, _, gone in _EDGES_AROUND:
                n = k + d
                if n in occ:
                    need[n] &= gone
                else:
                    e = front.get(n)
                    if e is not None:
                        e &= gone
                        if e & 0xF0:  # still beside the Alhambra
                            front[n] = e
                        else:
                            del front[n]
            for d, _, gone in _CORNERS_AROUND:
                e = front.get(k + d)
                if e is not None:
                    front[k + d] = e & gone
        else:
            walls = WALLS[tile]
            if k not in occ:
                front.pop(k, None)
            occ[k] = walls
            need[k] = _needs_key(occ, k)
            for d, given, back, present, mine, _ in _EDGES_AROUND:
                n = k + d
                if n in occ:
                    e = need[n] | present
                    need[n] = e | back if walls & mine else e & ~back
                else:
                    e = front.get(n)
                    if e is None:  # newly beside the Alhambra: k is its only edge neighbour
                        corners = (
                            (n - ROW + 1 in occ) << 1
                            | (n + ROW + 1 in occ) << 3
                            | (n + ROW - 1 in occ) << 5
                            | (n - ROW - 1 in occ) << 7
                        )
                        front[n] = corners << 8 | given | (back if walls & mine else 0)
                    else:
                        e |= given
                        front[n] = e | back if walls & mine else e & ~back
            for d, ring, _ in _CORNERS_AROUND:
                e = front.get(k + d)
                if e is not None:
                    front[k + d] = e | ring

    def slots(self) -> tuple[tuple[Cell, int, int], ...]:
        """`open_slots` of the Alhambra: (cell, present, walled), top row first."""
        hole = HOLE_AFTER
        return tuple((key_cell(k), e >> 4 & 15, e & 15) for k, e in sorted(self.front.items()) if not hole[e >> 8])

    def fits(self, walls: int) -> list[Cell]:
        """The cells where a tile with `walls` may be placed (A31), top row first: legal_cells for its walls."""
        return [CELLS[k] for k in self.fit_keys(walls)]

    def fit_keys(self, walls: int) -> list[int]:
        """`fits` as cell keys (rising: top row first), kept per wall pattern."""
        keys = self._fits.get(walls)
        if keys is None:  # plain loops: compiled, they beat map(table.__getitem__, ...) (a call per item)
            ok = OPEN_FITS[walls]
            keys = [k for k, e in self.front.items() if ok[e]]
            keys.sort()
            self._fits[walls] = keys
        return keys

    def removable_keys(self) -> frozenset[int]:
        """The keys of the cells whose tile may go to the reserve (A33b), as removable_cells: not the fountain, not
        surrounded on all four sides, not a cut vertex of the walking graph. In a legal Alhambra a way on foot leads
        through every side with a neighbour and no wall there (A31.2: both walls or neither), so the graph is read
        off the needs. It is connected (A31.3), so when it is a tree (ways = cells - 1, the usual case) its cut
        vertices are the cells with more than one way, and only otherwise does one depth-first search (Tarjan)
        find them."""
        found = self._removable
        if found is None:
            need = self._need
            if 0 not in need:
                found = frozenset()
            elif sum([WAYS[pd] for pd in need.values()]) == 2 * (len(need) - 1):  # each way counted twice
                found = frozenset([k for k, pd in need.items() if k and LEAF[pd]])
            else:
                walks = {k: [k + d for d in STEPS[needs]] for k, needs in need.items()}
                cut = _cut_vertices(walks, 0)
                found = frozenset([k for k, needs in need.items() if k and k not in cut and needs < 0xF0])
            self._removable = found
        return found

    def removable(self) -> frozenset[Cell]:
        """The cells whose tile may go to the reserve (A33b): removable_cells."""
        return frozenset(key_cell(k) for k in self.removable_keys())

    def need_keys(self) -> dict[int, int]:
        """`needs` of every occupied cell by key, packed (present << 4 | walled: what a tile exchanged into it must
        match, A33c; `FITS[walls][needs]` tells whether it does)."""
        return self._need

    def needs(self) -> dict[Cell, tuple[int, int]]:
        return {key_cell(k): (v >> 4, v & 15) for k, v in self._need.items()}


# FIT[walls][present][walled]: a tile with these walls matches a cell with these needs (A31.2, A31.3)
FIT: Final = tuple(tuple(tuple(bool(w & p == d and p & ~w) for d in range(16)) for p in range(16)) for w in range(16))
# the same by packed needs (present << 4 | walled), one byte string per wall pattern
FITS: Final = tuple(bytes(FIT[w][pd >> 4][pd & 15] for pd in range(256)) for w in range(16))
# FIT_MASK[needs]: the wall patterns w that match packed needs, as the bits 1 << w
FIT_MASK: Final = tuple(sum(1 << w for w in range(16) if FITS[w][pd]) for pd in range(256))
# By packed needs of an occupied cell of a legal Alhambra: its ways on foot (sides with a neighbour and no wall,
# A31.3) as key offsets (STEPS), how many (WAYS), and whether it is a leaf that may go (LEAF: one way, and not
# surrounded on all four sides, A33b)
STEPS: Final = tuple(tuple(d for d, side, _ in _SIDES if pd >> 4 & side and not pd & side) for pd in range(256))
WAYS: Final = bytes(len(steps) for steps in STEPS)
LEAF: Final = bytes(WAYS[pd] == 1 and pd >> 4 != 15 for pd in range(256))
# the ring mask bits (RING order N, NE, E, SE, S, SW, W, NW) of the edge neighbours present on these sides
RING_OF_PRESENT: Final = tuple((p & N) | (p & E) << 1 | (p & S) << 2 | (p & W) << 3 for p in range(16))


class _Cells(dict[int, Cell]):
    """The cell of each key, one shared tuple per key (the listed actions are cached by their cells), filled as
    keys are asked (a lookup that finds one runs in C: `map(CELLS.__getitem__, keys)`)."""

    def __missing__(self, k: int) -> Cell:
        cell = self[k] = key_cell(k)
        return cell


CELLS: Final = _Cells()


_LAYOUTS: Final[dict[int, Layout]] = {}


def layout(alh: Alhambra) -> Layout:
    """The Layout of an Alhambra held by a game state (never mutated), cached by identity: states share their
    Alhambras and never mutate them, so identity is a valid key (a dict mutated in place would get stale
    answers); the entry keeps the dict alive, so its id cannot be reused meanwhile."""
    hit = _LAYOUTS.get(id(alh))
    if hit is not None and hit.alh is alh:
        return hit
    return _remember(Layout(alh))


def _remember(lay: Layout) -> Layout:
    if len(_LAYOUTS) > 1024:
        _LAYOUTS.clear()
    _LAYOUTS[id(lay.alh)] = lay
    return lay


def changed(new: dict[Cell, str], old: Alhambra, cell: Cell) -> dict[Cell, str]:
    """Note that the Alhambra `new` (just made, to be held by a state) is `old` changed at `cell` only (a tile
    added, removed or exchanged there), so that its Layout derives from old's; returns `new`."""
    parent = _LAYOUTS.get(id(old))
    if parent is not None and parent.alh is old:
        _remember(Layout(new, parent, cell))
    return new


def _front_entry(occ: dict[int, int], k: int) -> int:
    """The packed entry (ring << 8 | present << 4 | walled) of the empty cell with key k: which of its 8
    neighbours are occupied (RING order) and its `needs`, in one pass (written out: the hot path)."""
    get = occ.get
    n = get(k - ROW)
    e = get(k + 1)
    s = get(k + ROW)
    w = get(k - 1)
    present = walled = 0
    if n is not None:
        present = N
        if n & S:
            walled = N
    if e is not None:
        present |= E
        if e & W:
            walled |= E
    if s is not None:
        present |= S
        if s & N:
            walled |= S
    if w is not None:
        present |= W
        if w & E:
            walled |= W
    mask = (
        (n is not None)
        | (k - ROW + 1 in occ) << 1
        | (e is not None) << 2
        | (k + ROW + 1 in occ) << 3
        | (s is not None) << 4
        | (k + ROW - 1 in occ) << 5
        | (w is not None) << 6
        | (k - ROW - 1 in occ) << 7
    )
    return mask << 8 | present << 4 | walled


def _needs_key(occ: dict[int, int], k: int) -> int:
    """`needs` of the cell with key k, packed (present << 4 | walled)."""
    get = occ.get
    present = walled = 0
    o = get(k - ROW)
    if o is not None:
        present = N
        if o & S:
            walled = N
    o = get(k + 1)
    if o is not None:
        present |= E
        if o & W:
            walled |= E
    o = get(k + ROW)
    if o is not None:
        present |= S
        if o & N:
            walled |= S
    o = get(k - 1)
    if o is not None:
        present |= W
        if o & E:
            walled |= W
    return present << 4 | walled


def _cut_vertices(walks: Mapping[K, Sequence[K]], root: K) -> set[K]:
    """The cut vertices of the walking graph reached from `root` (the fountain), by one depth-first search
    (Tarjan; whether the fountain itself is one does not matter: it is never removable). Shared by the layouts'
    int keys (`Layout.removable_keys`) and the plain cells of `removable_cells`."""
    disc: dict[K, int] = {}
    cut: set[K] = set()
    _low_of(walks, disc, cut, root, None)
    return cut


def _low_of(walks: Mapping[K, Sequence[K]], disc: dict[K, int], cut: set[K], node: K, parent: K | None) -> int:
    """The lowest discovery index reachable from node's subtree through one back edge (`_cut_vertices`'s
    search; a module function, not a closure: a recursive closure is a reference cycle, garbage for the
    collector to find after every call)."""
    d = low = disc[node] = len(disc)
    for nxt in walks[node]:
        if nxt == parent:
            continue
        seen = disc.get(nxt)
        if seen is None:
            sub = _low_of(walks, disc, cut, nxt, node)
            if sub < low:
                low = sub
            if sub >= d and parent is not None:
                cut.add(node)
        elif seen < low:
            low = seen
    return low


def _open_among(alh: Alhambra, cells: list[Cell]) -> list[tuple[Cell, int, int]]:
    """The empty `cells` that share a side with the Alhambra and whose filling would not enclose anything
    (A31.4), with their `needs` (the plain form of a Layout's slots)."""
    out = []
    for c in cells:
        present, walled = needs(alh, c[0], c[1])
        if present and not creates_hole(alh, c):
            out.append((c, present, walled))
    return out


# --------------------------------------------------------------------------------------------- holes


def _hole_after_filling(occ: list[bool]) -> bool:
    """The local test on one 8-neighbourhood (ring order N, NE, E, SE, S, SW, W, NW): filling the centre splits
    the empty area iff the empty ring cells form more than one run (circularly) that touches an edge neighbour
    of the centre."""
    if all(occ[i] for i in (0, 2, 4, 6)):
        return False  # already enclosed (not a legal Alhambra); filling it closes, not opens, a hole
    if True not in occ:
        return False
    start = occ.index(True)
    runs = 0
    in_run = run_has_edge = False
    for k in range(1, 9):
        i = (start + k) % 8
        if occ[i]:
            if in_run and run_has_edge:
                runs += 1
            in_run = run_has_edge = False
        else:
            in_run = True
            if i % 2 == 0:
                run_has_edge = True
    return runs > 1


# The verdict for each of the 256 occupancy patterns of the 8 surrounding cells (bit i = RING[i] occupied).
HOLE_AFTER: Final = tuple(_hole_after_filling([bool(m >> i & 1) for i in range(8)]) for m in range(256))
# OPEN_FITS[walls][entry]: a tile with these walls may be placed on a frontier cell with this packed entry (ring << 8
# | needs): it matches (FITS) and fills no hole (HOLE_AFTER); one 64 KiB byte string per wall pattern
OPEN_FITS: Final = tuple(b"".join(bytes(256) if hole else FITS[w] for hole in HOLE_AFTER) for w in range(16))

# RING with each entry's mask bit and, for the edge neighbours, the side it lies on and the side facing back
_EDGE = {(dx, dy): (side, back) for dx, dy, side, back in NEIGHBOURS}
_RING_FACTS = tuple((dx, dy, 1 << i, *_EDGE.get((dx, dy), (0, 0))) for i, (dx, dy) in enumerate(RING))


def ring_mask(alh: Alhambra, x: int, y: int) -> int:
    mask = 0
    bit = 1
    for dx, dy in RING:
        if (x + dx, y + dy) in alh:
            mask |= bit
        bit <<= 1
    return mask


def creates_hole(alh: Alhambra, cell: Cell) -> bool:
    """A31.4, local form: would filling the empty `cell` enclose an empty area?

    Valid for a hole-free, edge-connected Alhambra (every legal one, A82): filling `cell` splits the empty
    area exactly when its empty edge neighbours are not joined to each other through the empty cells of its
    8-neighbourhood (any occupied cells between them are joined through the connected Alhambra, closing a
    loop around one side). Equivalent to the global flood fill `has_hole` (the tests check both agree).
    """
    return HOLE_AFTER[ring_mask(alh, cell[0], cell[1])]


def has_hole(alh: Alhambra) -> bool:
    """A31.4, the global test: flood-fill the empty cells of the bounding box enlarged by 1 from a corner,
    with edge steps only; any empty cell not reached is enclosed (diagonal gaps do not let the fill through)."""
    xs = [c[0] for c in alh]
    ys = [c[1] for c in alh]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    total_empty = (x1 - x0 + 1) * (y1 - y0 + 1) - len(alh)
    seen = {(x0, y0)}
    stack = [(x0, y0)]
    while stack:
        x, y = stack.pop()
        for dx, dy, _, _ in NEIGHBOURS:
            c = (x + dx, y + dy)
            if x0 <= c[0] <= x1 and y0 <= c[1] <= y1 and c not in alh and c not in seen:
                seen.add(c)
                stack.append(c)
    return len(seen) != total_empty


# --------------------------------------------------------------------------------------------- placing


def _meeting(name: Text | str, where: str, side: int, other: str, other_cell: Cell) -> dict[str, Any]:
    """The words of a refusal where the tile's `side` would meet `other` on `other_cell` unmatched (A31.2)."""
    return {
        "tile": name,
        "cell": where,
        "side": Text.marked(SIDE_WORDS[side]),
        "other": tile_text(other),
        "other_cell": cell_name(other_cell),
    }


def placement_problem(alh: Alhambra, tile: str, cell: Cell, redesign: bool = False) -> Text | None:
    """A31: why `tile` may not go on `cell`, or None if it may; with `redesign`, the refusal of a redesign that
    moves it there from the reserve (A33a)."""
    where = cell_name(cell)
    name = tile_text(tile)
    if cell in alh:
        taken = tile_text(alh[cell])
        if redesign:
            return Text(
                "{cell} is already taken by the {tile}; choose an empty position (A33a, A31).", cell=where, tile=taken
            )
        return Text("{cell} is already taken by the {tile}; choose an empty position (A31).", cell=where, tile=taken)
    walls = WALLS[tile]
    x, y = cell
    contact = False
    open_contact = False
    for dx, dy, side, back in NEIGHBOURS:
        other = alh.get((x + dx, y + dy))
        if other is None:
            continue
        contact = True
        mine = bool(walls & side)
        theirs = bool(WALLS[other] & back)
        if mine != theirs:
            fields = _meeting(name, where, side, other, (x + dx, y + dy))
            if mine and redesign:
                return Text(
                    "You can't place the {tile} at {cell}: its {side} wall would meet an open side of the {other} "
                    "at {other_cell} (A33a, A31.2).",
                    **fields,
                )
            if mine:
                return Text(
                    "You can't place the {tile} at {cell}: its {side} wall would meet an open side of the {other} "
                    "at {other_cell} (A31.2).",
                    **fields,
                )
            if redesign:
                return Text(
                    "You can't place the {tile} at {cell}: its open {side} side would meet a wall of the {other} "
                    "at {other_cell} (A33a, A31.2).",
                    **fields,
                )
            return Text(
                "You can't place the {tile} at {cell}: its open {side} side would meet a wall of the {other} "
                "at {other_cell} (A31.2).",
                **fields,
            )
        if not mine:
            open_contact = True
    if not contact:
        if redesign:
            return Text(
                "You can't place the {tile} at {cell}: it must share a full side with a tile of your Alhambra "
                "(A33a, A31.1).",
                tile=name,
                cell=where,
            )
        return Text(
            "You can't place the {tile} at {cell}: it must share a full side with a tile of your Alhambra (A31.1).",
            tile=name,
            cell=where,
        )
    if not open_contact:
        if redesign:
            return Text(
                "You can't place the {tile} at {cell}: walls would cut it off, so it could not be reached on foot "
                "from the fountain (A33a, A31.3).",
                tile=name,
                cell=where,
            )
        return Text(
            "You can't place the {tile} at {cell}: walls would cut it off, so it could not be reached on foot "
            "from the fountain (A31.3).",
            tile=name,
            cell=where,
        )
    if creates_hole(alh, cell):
        return Text(
            "You can't place the {tile} at {cell}: it would enclose an empty space (no holes, A31.4).",
            tile=name,
            cell=where,
        )
    return None


def needs(alh: Alhambra, x: int, y: int) -> tuple[int, int]:
    """For cell (x, y): (sides that have a neighbour, sides whose neighbour shows a wall there). A tile with
    walls w matches every neighbour (A31.2) iff w & present == walled, and has an open way in (A31.3) iff
    present & ~w is not 0."""
    present = walled = 0
    get = alh.get
    for dx, dy, side, back in NEIGHBOURS:
        other = get((x + dx, y + dy))
        if other is not None:
            present |= side
            if WALLS[other] & back:
                walled |= side
    return present, walled


def frontier(alh: Alhambra) -> list[Cell]:
    """Empty cells sharing a side with the Alhambra, top row first."""
    out: list[Cell] = []
    seen: set[Cell] = set()
    for x, y in alh:
        for dx, dy, _, _ in NEIGHBOURS:
            c = (x + dx, y + dy)
            if c not in alh and c not in seen:
                seen.add(c)
                out.append(c)
    out.sort(key=lambda c: (c[1], c[0]))
    return out


def open_slots(alh: Alhambra) -> tuple[tuple[Cell, int, int], ...]:
    """The frontier cells whose filling would not enclose anything (A31.4), with their `needs`: what any tile
    placed there must match. Computed once per Alhambra and shared by every tile to be placed."""
    return tuple(_open_among(alh, frontier(alh)))


def legal_cells(alh: Alhambra, tile: str, slots: tuple[tuple[Cell, int, int], ...] | None = None) -> list[Cell]:
    """Every position where `tile` may be placed (A31), top row first (same verdicts as placement_problem)."""
    w = WALLS[tile]
    return [
        c
        for c, present, walled in (open_slots(alh) if slots is None else slots)
        if w & present == walled and present & ~w
    ]


def swap_fits(alh: Alhambra, cell: Cell, tile_in: str) -> bool:
    """swap_problem(...) is None for an occupied cell other than the fountain (the hot path of A33c)."""
    present, walled = needs(alh, cell[0], cell[1])
    w = WALLS[tile_in]
    return bool(w & present == walled and present & ~w)


# --------------------------------------------------------------------------------------------- walking


def reachable(alh: Alhambra, skip: Cell | None = None) -> set[Cell]:
    """Cells reached on foot from the fountain through open shared sides (A31.3), ignoring `skip`."""
    start = (0, 0)
    if start not in alh or start == skip:
        return set()
    seen = {start}
    stack = [start]
    get = alh.get
    while stack:
        x, y = stack.pop()
        walls = WALLS[alh[(x, y)]]
        for dx, dy, side, _ in NEIGHBOURS:
            if walls & side:
                continue
            c = (x + dx, y + dy)
            if c == skip or c in seen:
                continue
            other = get(c)
            if other is not None:
                seen.add(c)
                stack.append(c)
    return seen


def removable_cells(alh: Alhambra) -> frozenset[Cell]:
    """Cells whose tile may go to the reserve (A33b, same verdicts as removal_problem for a legal Alhambra):
    not the fountain, not surrounded on all four sides (hole), and not a cut vertex of the walking graph
    (every other tile stays reachable from the fountain). One depth-first search (Tarjan) instead of one
    search per tile."""
    root = (0, 0)
    if root not in alh:
        return frozenset()
    get = alh.get
    walks: dict[Cell, list[Cell]] = {}  # the walking graph: open shared sides (A31.3)
    out = []
    for cell, tile in alh.items():
        x, y = cell
        walls = WALLS[tile]
        around = 0
        nexts = []
        for dx, dy, side, back in NEIGHBOURS:
            c = (x + dx, y + dy)
            other = get(c)
            if other is not None:
                around += 1
                if not walls & side and not WALLS[other] & back:
                    nexts.append(c)
        walks[cell] = nexts
        if around < 4 and cell != root:  # surrounded on all four sides: removing it would leave a hole
            out.append(cell)
    cut = _cut_vertices(walks, root)
    return frozenset(c for c in out if c not in cut)


def cell_of(alh: Alhambra, tile: str) -> Cell | None:
    """The cell where `tile` lies in the Alhambra, or None."""
    for cell, t in alh.items():
        if t == tile:
            return cell
    return None


def _redesign_target_problem(alh: Alhambra, cell: Cell, exchange: bool) -> Text | None:
    """A32/A33: why the tile on `cell` can't be taken out by a redesign at all (no tile there, or the fountain)."""
    tile = alh.get(cell)
    if tile is None:
        if exchange:
            return Text("There is no tile at {cell} in your Alhambra to exchange.", cell=cell_name(cell))
        return Text("There is no tile at {cell} in your Alhambra.", cell=cell_name(cell))
    if tile in START_TILES or cell == (0, 0):
        return Text("The fountain can never be removed, moved or exchanged (A32).")
    return None


def removal_problem(alh: Alhambra, cell: Cell) -> Text | None:
    """A33(b): why the tile on `cell` may not be moved to the reserve, or None if it may."""
    problem = _redesign_target_problem(alh, cell, False)
    if problem:
        return problem
    where = cell_name(cell)
    tile = alh[cell]
    x, y = cell
    if all((x + dx, y + dy) in alh for dx, dy, _, _ in NEIGHBOURS):
        return Text(
            "You can't remove the {tile} at {cell}: it is surrounded on all four sides, so removing it would leave "
            "a hole (A33b, A31.4).",
            tile=tile_text(tile),
            cell=where,
        )
    if len(reachable(alh, skip=cell)) != len(alh) - 1:
        return Text(
            "You can't remove the {tile} at {cell}: other tiles could then no longer be reached on foot from the "
            "fountain (A33b, A31.3).",
            tile=tile_text(tile),
            cell=where,
        )
    return None


def swap_problem(alh: Alhambra, cell: Cell, tile_in: str) -> Text | None:
    """A33(c): why `tile_in` may not replace the tile on `cell`, or None if it may."""
    problem = _redesign_target_problem(alh, cell, True)
    if problem:
        return problem
    where = cell_name(cell)
    # The outline does not change, so only matching sides (A31.2) and an open way in (A31.3) can fail.
    name = tile_text(tile_in)
    walls = WALLS[tile_in]
    x, y = cell
    open_contact = False
    for dx, dy, side, back in NEIGHBOURS:
        other = alh.get((x + dx, y + dy))
        if other is None:
            continue
        mine = bool(walls & side)
        if mine != bool(WALLS[other] & back):
            fields = _meeting(name, where, side, other, (x + dx, y + dy))
            if mine:
                return Text(
                    "You can't exchange the {tile} into {cell}: its {side} wall would meet an open side of the "
                    "{other} at {other_cell} (A33c, A31.2).",
                    **fields,
                )
            return Text(
                "You can't exchange the {tile} into {cell}: its {side} open side would meet a wall of the {other} "
                "at {other_cell} (A33c, A31.2).",
                **fields,
            )
        if not mine:
            open_contact = True
    if not open_contact:
        return Text(
            "You can't exchange the {tile} into {cell}: walls would cut it off from the fountain (A33c, A31.3).",
            tile=name,
            cell=where,
        )
    return None


def alhambra_problem(alh: Alhambra) -> str | None:
    """A82: why this Alhambra breaks the building rules (fountain at the centre, matching sides, everything
    reachable on foot from the fountain, no holes), or None if it is legal."""
    if alh.get((0, 0)) not in START_TILES:
        return "the fountain is not at M13"
    for (x, y), tile in alh.items():
        if tile in START_TILES and (x, y) != (0, 0):
            return f"a second fountain at {cell_name((x, y))}"
        for dx, dy, side, back in NEIGHBOURS:
            other = alh.get((x + dx, y + dy))
            if other is not None and bool(WALLS[tile] & side) != bool(WALLS[other] & back):
                return f"sides do not match between {cell_name((x, y))} and {cell_name((x + dx, y + dy))}"
    if len(reachable(alh)) != len(alh):
        return "some tile cannot be reached on foot from the fountain"
    if has_hole(alh):
        return "the Alhambra encloses an empty space"
    return None


# --------------------------------------------------------------------------------------------- walls


def outer_wall_segments(alh: Alhambra) -> list[tuple[Cell, Cell]]:
    """A48: the countable wall segments, each as its two end corners (corner (x, y) is the north-west corner
    of cell (x, y)). A wall on a side shared with another tile is a back-to-back double wall and never counts."""
    segs = []
    for (x, y), tile in alh.items():
        walls = WALLS[tile]
        if not walls:
            continue
        if walls & N and (x, y - 1) not in alh:
            segs.append(((x, y), (x + 1, y)))
        if walls & S and (x, y + 1) not in alh:
            segs.append(((x, y + 1), (x + 1, y + 1)))
        if walls & W and (x - 1, y) not in alh:
            segs.append(((x, y), (x, y + 1)))
        if walls & E and (x + 1, y) not in alh:
            segs.append(((x + 1, y), (x + 1, y + 1)))
    return segs


def longest_wall(alh: Alhambra) -> int:
    """A48: segments in the longest continuous outer wall; a closed ring counts all its segments.

    In a legal Alhambra the outline is one simple closed curve, so the outer walls are disjoint paths (or
    the whole ring) and the longest wall is the largest connected group of segments.
    """
    segs = outer_wall_segments(alh)
    if not segs:
        return 0
    at: dict[Cell, list[int]] = {}
    for i, (a, b) in enumerate(segs):
        at.setdefault(a, []).append(i)
        at.setdefault(b, []).append(i)
    seen = [False] * len(segs)
    best = 0
    for i in range(len(segs)):
        if seen[i]:
            continue
        seen[i] = True
        stack = [i]
        size = 0
        while stack:
            j = stack.pop()
            size += 1
            for corner in segs[j]:
                for k in at[corner]:
                    if not seen[k]:
                        seen[k] = True
                        stack.append(k)
        best = max(best, size)
    return best
