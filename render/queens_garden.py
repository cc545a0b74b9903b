"""Azul: Queen's Garden board images: each player's hexagonal garden (fountain board, placed expansions,
printed garden elements) with every space named as the commands name it ("M3", "SE4"), storage (tiles,
jokers, expansions), the display (round stack top, moved-out expansions), the round stacks still to come,
the supply, the wheel's scoring criteria for this and every round, round and scores. Every hexagon carries
the engine's colour letter + pattern value ("F6" = dark green lily), so the two greens and the two purples
are never told apart by hue alone (Q2). After the game: a results sheet with each player's points broken down
(start, each round's scoring, passes and purchases, storage, colour groups, pattern groups, bonuses).

The engine state is read in exactly one place, `model_from_view`; geometry, names, codes and the wheel come
from `engine.queens_garden`. Nothing is secret in this game (storages are public, Q8), so a private image
is the same board with the viewer's garden drawn first.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from engine import queens_garden as QG
from engine.queens_garden import components as QC
from engine.queens_garden import geometry as GEO
from render import _draw as D

Kind = tuple[int, int]

COLOUR_RGB: dict[str, D.RGB] = {  # Q2: light and dark pairs kept far apart in lightness
    "yellow": (246, 206, 46),
    "light_blue": (118, 186, 236),
    "light_green": (164, 216, 112),
    "dark_green": (26, 100, 52),
    "light_purple": (200, 170, 230),
    "dark_purple": (96, 42, 128),
}
JOKER: D.RGB = (150, 150, 150)
FREE: D.RGB = (240, 232, 212)
BOARD: D.RGB = (210, 196, 160)
AREA_FREE: D.RGB = (226, 220, 206)
ELEMENT: D.RGB = (186, 170, 140)


def colour_rgb(c: int) -> D.RGB:
    return COLOUR_RGB[QC.COLOURS[c].key]


PALETTE = (*COLOUR_RGB.values(), JOKER, FREE, BOARD, AREA_FREE, ELEMENT)  # colours the PNG palette must keep exactly


# --------------------------------------------------------------------------------------------- model


@dataclass(slots=True)
class Garden:
    hexes: dict[str, Kind]  # space -> (colour, pattern): tiles and printed expansion hexagons
    printed: frozenset[str]  # spaces whose hexagon is printed on an expansion
    elements: dict[str, str]  # space -> fountain/statue/bench/pavilion
    rewarded: frozenset[str]  # elements already surrounded (Q30)
    areas: dict[str, bool]  # placed expansion area -> face up?


@dataclass(slots=True)
class Player:
    id: str
    name: str
    score: int
    passed: bool
    to_move: bool
    marker: bool  # holds the first-player marker (Q29)
    first: bool  # started this round
    jokers: int
    tiles: list[Kind]
    expansions: list[Kind]
    garden: Garden
    last_spaces: frozenset[str] = frozenset()
    round_now: int | None = None  # what this round's scoring would give the garden as it stands (Q31-Q33)


@dataclass(slots=True)
class Piece:
    face_up: bool
    kind: Kind | None  # printed hexagon (face up only)
    tiles: list[Kind]


@dataclass(slots=True)
class Board:
    players: list[Player]
    round: int
    stack_tiles: list[Kind]
    stack_count: int
    display: list[Piece]
    stacks_to_come: list[int]
    supply: int
    bag: int
    tower: int
    viewer: str | None = None
    last_move: str = ""
    over: bool = False
    results: D.Results | None = None
    notes: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------------------------- reading the view


def _last_move(view: Any, label: Mapping[str, str]) -> tuple[str, dict[str, set[str]]]:
    """The last player action: its words and the spaces it filled.

    The log holds the last action's events, the engine's "move" event first (`describe`'s words, the action's
    JSON as `data["action"]`). Its spaces come from `space`, `spaces` or `area` (all the spaces of an expansion
    area) in the event data and in its action. A log without a move event (a game stored before they were
    written) falls back to the latest event with an acting player, scorings and round starts skipped."""
    skip = {"round_scoring", "round_start", "final_scoring", "game_over", "jokers"}
    e = next((e for e in reversed(view.log) if e.kind == "move" and e.player is not None), None)
    if e is None:
        e = next((e for e in reversed(view.log) if e.kind not in skip and e.player is not None), None)
    if e is None:
        return "", {}
    data = e.data or {}
    action = data.get("action")
    spaces: set[str] = set()
    for src in (data, action) if isinstance(action, dict) else (data,):
        if isinstance(src.get("space"), str):
            spaces.add(src["space"])
        spaces.update(s for s in src.get("spaces", ()) if isinstance(s, str))
        if isinstance(src.get("area"), str) and src["area"] in GEO.AREA_CELLS:
            spaces.update(GEO.AREA_CELLS[src["area"]])
    return f"{label.get(e.player, e.player)} {e.text}", {e.player: spaces}


def model_from_view(view: Any, viewer: str | None, names: Mapping[str, str] | None) -> Board:
    """The only function that reads engine state fields (engine.queens_garden.state.QGState)."""
    label = {p: D.player_label(p, view.players, names) for p in view.players}
    last_text, last_spaces = _last_move(view, label)
    players = []
    for i, (p, seat) in enumerate(zip(view.players, view.seats, strict=True)):
        hexes = QG.hexagons(seat)
        printed = frozenset(GEO.printed_space(pl.area, pl.turn) for pl in seat.placed if pl.face_up)
        garden = Garden(
            hexes=hexes,
            printed=printed,
            elements=QG.elements(seat),
            rewarded=frozenset(seat.rewarded),
            areas={pl.area: pl.face_up for pl in seat.placed},
        )
        players.append(
            Player(
                id=p,
                name=label[p],
                score=seat.score,
                passed=seat.passed,
                to_move=not view.over and view.current == i,
                marker=view.marker == i,
                first=view.first_player == i,
                jokers=seat.jokers,
                tiles=sorted(QC.TILE_KIND[t] for t in seat.tiles),
                expansions=sorted(QC.EXPANSION_KIND[e] for e in seat.expansions),
                garden=garden,
                last_spaces=frozenset(last_spaces.get(p, ())),
                round_now=None if view.over else QG.round_score(seat, view.round)[0],
            )
        )
    display = [
        Piece(
            pc.face_up,
            QC.EXPANSION_KIND[pc.expansion] if pc.face_up and pc.expansion >= 0 else None,
            [QC.TILE_KIND[t] for t in pc.tiles],
        )
        for pc in view.display
    ]
    board = Board(
        players=players,
        round=view.round,
        stack_tiles=[QC.TILE_KIND[t] for t in view.stack_tiles],
        stack_count=len(view.stack),
        display=display,
        stacks_to_come=[len(s) for s in view.stacks],
        supply=len(view.supply),
        bag=len(view.bag),
        tower=len(view.tower),
        viewer=viewer,
        last_move=last_text,
        over=view.over,
    )
    if viewer in view.players:  # the viewer's own garden first (nothing is hidden in this game)
        board.players.sort(key=lambda pl: pl.id != viewer)
    if view.over:
        board.results = _results_from(view)
    return board


RESULTS_NOTES = (
    "Storage: +1 per joker, −value per hexagon left (Q35); groups of 3+ score the sum of their values, "
    "+6 for 6 (Q35); a score never drops below 0 (Q37).",
)


def _results_from(view: Any) -> D.Results:
    """Q31-Q37: start score, each round's scoring, other changes (passing, discards, 6-point expansions),
    then the final scoring's storage, groups and bonuses, from the breakdown each seat keeps (`round_points`,
    `final`); the winners share the best score (Q36)."""
    best = max(seat.score for seat in view.seats)
    winners = tuple(p for p, seat in zip(view.players, view.seats, strict=True) if seat.score == best)
    columns = (
        "Start",
        "R1",
        "R2",
        "R3",
        "R4",
        "Passes & buys",
        "Storage",
        "Colour groups",
        "Pattern groups",
        "Bonus",
        "Total",
    )
    rows = {}
    for p, seat in zip(view.players, view.seats, strict=True):
        r = [*seat.round_points[:4], *(0,) * (4 - len(seat.round_points))]
        f = seat.final
        before = seat.score if f is None else f.before
        other = before - QC.START_SCORE - sum(r)
        if f is None:
            rows[p] = (QC.START_SCORE, *r, other, 0, 0, 0, 0, seat.score)
            continue
        storage = f.after_storage - before  # what storage really changed (floored at 0, Q37)
        rows[p] = (QC.START_SCORE, *r, other, storage, f.colour_points, f.pattern_points, f.bonus, seat.score)
    return D.Results(columns=columns, rows=rows, winners=winners, notes=RESULTS_NOTES)


# --------------------------------------------------------------------------------------------- hex drawing


def _hex(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A flat-top hexagon (the engine's geometry is flat-top)."""
    return D.regular_polygon(cx, cy, r, 6, 0)


@functools.lru_cache(maxsize=4096)
def hex_sprite(
    r: float,
    fill: D.RGB | None,
    outline: D.RGB,
    width: int = 2,
    label: str = "",
    label_size: int = 0,
    label_fill: D.RGB = D.INK,
    ring: D.RGB | None = None,
) -> Image.Image:
    """One hexagon drawn once and cached as an RGBA sprite (drawing outlines on the big canvas is slow)."""
    s = int(2 * r + 2 * width + 4)
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = s / 2
    d.polygon(_hex(c, c, r), fill=fill, outline=outline, width=width)
    if ring is not None:  # printed on an expansion: an inner ring tells it from a tile
        d.polygon(_hex(c, c, r * 0.8), outline=ring, width=2)
    if label:
        D.text(d, (c, c), label, label_size, label_fill, bold=True, anchor="mm")
    return img


def _draw_kind(
    img: Image.Image, cx: float, cy: float, r: float, kind: Kind, *, printed: bool = False, size: int | None = None
) -> None:
    """One hexagon: its colour, and its code (colour letter + pattern value), so hue is never the only cue (Q2)."""
    col = colour_rgb(kind[0])
    fg = D.contrast(col)
    D.stamp(
        img,
        hex_sprite(r, col, D.INK, 2, QC.kind_code(kind), size or max(13, round(r * 0.62)), fg, fg if printed else None),
        cx,
        cy,
    )


@functools.cache
def element_sprite(element: str, rewarded: bool, r: float) -> Image.Image:
    """Garden elements (Q39) as pictograms; a check mark once surrounded and paid out (Q30)."""
    img = hex_sprite(r, ELEMENT, D.INK).copy()
    d = ImageDraw.Draw(img)
    cx = cy = img.width / 2
    s = r * 0.55
    ink = (60, 50, 40)
    if element == "fountain":
        d.ellipse((cx - s, cy - s * 0.2, cx + s, cy + s * 0.8), fill=(60, 130, 200))
        d.line((cx, cy - s, cx, cy + s * 0.2), fill=(60, 130, 200), width=max(2, round(r / 8)))
        d.ellipse((cx - s * 0.25, cy - s * 1.1, cx + s * 0.25, cy - s * 0.6), fill=(60, 130, 200))
    elif element == "statue":
        d.ellipse((cx - s * 0.3, cy - s, cx + s * 0.3, cy - s * 0.4), fill=ink)
        d.polygon(
            [
                (cx - s * 0.35, cy - s * 0.35),
                (cx + s * 0.35, cy - s * 0.35),
                (cx + s * 0.5, cy + s * 0.6),
                (cx - s * 0.5, cy + s * 0.6),
            ],
            fill=ink,
        )
        d.rectangle((cx - s * 0.7, cy + s * 0.6, cx + s * 0.7, cy + s * 0.9), fill=ink)
    elif element == "bench":
        d.rectangle((cx - s, cy - s * 0.5, cx + s, cy - s * 0.2), fill=ink)
        d.rectangle((cx - s, cy, cx + s, cy + s * 0.3), fill=ink)
        d.rectangle((cx - s * 0.9, cy + s * 0.3, cx - s * 0.6, cy + s * 0.9), fill=ink)
        d.rectangle((cx + s * 0.6, cy + s * 0.3, cx + s * 0.9, cy + s * 0.9), fill=ink)
    elif element == "pavilion":
        d.polygon([(cx - s, cy - s * 0.1), (cx, cy - s), (cx + s, cy - s * 0.1)], fill=(170, 50, 50))
        d.rectangle((cx - s * 0.7, cy - s * 0.1, cx + s * 0.7, cy + s * 0.8), fill=(236, 226, 200), outline=ink)
        d.rectangle((cx - s * 0.2, cy + s * 0.2, cx + s * 0.2, cy + s * 0.8), fill=ink)
    if rewarded:
        d.ellipse((cx + r * 0.3, cy - r * 0.85, cx + r * 0.85, cy - r * 0.3), fill=D.GOOD)
        D.text(d, (cx + r * 0.575, cy - r * 0.575), "✓", max(10, round(r * 0.4)), D.WHITE, bold=True, anchor="mm")
    return img


def garden_extent(r: float) -> tuple[float, float, float, float]:
    """Pixel bounding box of every space of a full garden with hexes of circumradius r, fountain at (0, 0)."""
    xs, ys = zip(*(GEO.pixel(s, r) for s in GEO.SPACES), strict=True)
    return min(xs) - r, min(ys) - r * 0.87, max(xs) + r, max(ys) + r * 0.87


def _garden(
    img: Image.Image, g: Garden, ox: float, oy: float, r: float, last: frozenset[str], extra: frozenset[str]
) -> None:
    """A garden drawn with its top-left extent corner at (ox, oy)."""
    x0, y0, _, _ = garden_extent(r)
    dx, dy = ox - x0, oy - y0
    name_size = max(11, round(r * 0.42))
    for space in GEO.SPACES:
        area = GEO.area_of(space)
        cx, cy = GEO.pixel(space, r)
        cx, cy = cx + dx, cy + dy
        if area != GEO.FOUNTAIN_BOARD and area not in g.areas:
            # an expansion area still free: a faint outline, its name in the middle (Q28 names areas)
            label = area if space == f"{area}0" else ""
            D.stamp(
                img, hex_sprite(r - 1, AREA_FREE, (206, 198, 182), 1, label, max(13, round(r * 0.55)), D.MUTED), cx, cy
            )
        elif space in g.hexes:
            _draw_kind(img, cx, cy, r - 1, g.hexes[space], printed=space in g.printed)
        elif space in g.elements:
            D.stamp(img, element_sprite(g.elements[space], space in g.rewarded, r - 1), cx, cy)
        else:
            D.stamp(img, hex_sprite(r - 1, FREE, D.PANEL_EDGE, 2, space, name_size, D.MUTED), cx, cy)
    for space in sorted(last | extra):
        if space in GEO.SPACE_COORD:
            cx, cy = GEO.pixel(space, r)
            D.stamp(img, hex_sprite(r + 1, None, D.HIGHLIGHT, 4), cx + dx, cy + dy)


# --------------------------------------------------------------------------------------------- sections

GAP = 14
HEADER_H = 50
R_GARDEN = 31
R_SMALL = 20


def _storage_rows(p: Player, w: int) -> int:
    per_row = max(1, int((w - 8) // (R_SMALL * 2 + 4)))
    n = len(p.tiles) + p.jokers  # tiles and jokers share the rows
    return max(1, math.ceil(n / per_row))


def _storage(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    tiles: Sequence[Kind],
    jokers: int,
    expansions: Sequence[Kind],
    x: int,
    y: int,
    w: int,
) -> int:
    """Storage (Q8): 12 tile spaces holding tiles and jokers, and 2 expansion spaces."""
    used = len(tiles) + jokers
    D.text(d, (x, y), f"Storage {used}/{QC.STORAGE_TILES}", 16, D.INK, bold=True)
    y += 26
    step = R_SMALL * 2 + 4
    per_row = max(1, int((w - 8) // step))
    items: list[Kind | None] = [*tiles, *([None] * jokers)]
    for i, kind in enumerate(items):
        row, col = divmod(i, per_row)
        cx, cy = x + R_SMALL + col * step, y + R_SMALL + row * (R_SMALL * 1.8 + 4)
        if kind is None:
            D.stamp(img, hex_sprite(R_SMALL, JOKER, D.INK, 2, "J", 16, D.WHITE), cx, cy)
        else:
            _draw_kind(img, cx, cy, R_SMALL, kind, size=15)
    if not items:
        D.text(d, (x, y + 6), "empty", 15, D.MUTED, bold=True)
    rows = max(1, math.ceil(len(items) / per_row))
    y += rows * (R_SMALL * 1.8 + 4) + 8
    D.text(d, (x, y), f"Expansions {len(expansions)}/{QC.STORAGE_EXPANSIONS}", 16, D.INK, bold=True)
    y += 26
    for i, kind in enumerate(expansions):
        cx, cy = x + R_SMALL + i * (step + 10), y + R_SMALL
        _draw_kind(img, cx, cy, R_SMALL + 2, kind, printed=True, size=15)
    if not expansions:
        D.text(d, (x, y + 4), "none", 15, D.MUTED, bold=True)
    return y + 2 * R_SMALL + 6


def _player_panel(
    img: Image.Image, d: ImageDraw.ImageDraw, x0: int, y0: int, p: Player, dims: tuple[int, int], extra: frozenset[str]
) -> None:
    """One player's panel of `dims` (width, height), its top-left corner at (x0, y0): the frame and title drawn
    here, the body (garden, storage, round scoring) a part of its own, so passing the turn on does not redraw
    the garden."""
    x1, y1 = x0 + dims[0], y0 + dims[1]
    box = (x0, y0, x1, y1)
    D.panel(d, box, edge=D.TURN if p.to_move else D.PANEL_EDGE, width=4 if p.to_move else 2)
    status = []
    if p.to_move:
        status.append("▶ to move")
    if p.passed:
        status.append("passed")
    if p.marker:
        status.append("★ first-player marker")
    title = p.name + ("  " + " · ".join(status) if status else "")
    D.title_bar(
        d,
        (x0 + 6, y0 + 6, x1 - 6, y0 + 44),
        title,
        fill=D.TURN if p.to_move else D.INK,
        size=19,
        right=f"{p.score} pts",
        on=(img, D.PANEL),
    )
    body = (x0 + BODY_X, y0 + BODY_Y, x1 - BODY_X, y1 - BODY_BOTTOM)
    marks = p.last_spaces | extra
    D.part(
        img,
        body,
        _panel_body,
        dims,
        p.garden,
        marks,
        tuple(p.tiles),
        p.jokers,
        tuple(p.expansions),
        p.round_now,
        bg=D.PANEL,
    )


# The body of a player's panel: from (BODY_X, BODY_Y) inside it to BODY_X from its right edge and BODY_BOTTOM
# above its bottom edge: clear of the frame (4 px at most), its rounded corners (10 px) and the title bar, on the
# panel's fill; the garden's pixels start at x + 9 (a highlight ring) and end 11 px above the bottom at least.
BODY_X, BODY_Y, BODY_BOTTOM = 6, 48, 11


def _panel_body(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    bx: int,
    by: int,
    dims: tuple[int, int],
    garden: Garden,
    marks: frozenset[str],
    tiles: tuple[Kind, ...],
    jokers: int,
    expansions: tuple[Kind, ...],
    round_now: int | None,
) -> None:
    """A player's garden, storage and what this round's scoring would give now, the panel (of `dims`) having its
    top-left corner at (bx - BODY_X, by - BODY_Y)."""
    x0, y0 = bx - BODY_X, by - BODY_Y
    x1 = x0 + dims[0]
    gx0, gy0, gx1, gy1 = garden_extent(R_GARDEN)
    _garden(img, garden, x0 + 10, y0 + 54, R_GARDEN, marks, frozenset())
    sx = x0 + 10 + int(gx1 - gx0) + 14
    sy = _storage(img, d, tiles, jokers, expansions, sx, y0 + 56, x1 - sx - 10)
    if round_now is not None:  # the engine's own round scoring (Q31-Q33) of the garden as it stands
        D.text(d, (sx, sy + 8), "Round scoring if now:", 15, D.MUTED, bold=True)
        D.text(d, (sx, sy + 30), f"+{round_now} point{'s' if round_now != 1 else ''}", 20, D.INK, bold=True)


def _panel_size(width: int, cols: int, players: Sequence[Player]) -> tuple[int, int]:
    gx0, gy0, gx1, gy1 = garden_extent(R_GARDEN)
    panel_w = (width - (cols + 1) * GAP) // cols
    storage_w = panel_w - int(gx1 - gx0) - 34
    storage_h = max(26 + _storage_rows(p, storage_w) * (R_SMALL * 1.8 + 4) + 8 + 26 + 2 * R_SMALL + 6 for p in players)
    return panel_w, int(54 + max(gy1 - gy0, storage_h) + 12)


def _wheel(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, round_: int, over: bool, w: int, h: int) -> None:
    """The wheel (Q31/Q32): what each round scores, the current round marked, points per matching hexagon."""
    D.panel(d, (x, y, x + w, y + h))
    D.text(d, (x + 12, y + 10), "Wheel: what each round scores", 18, D.INK, bold=True)
    ry = y + 40
    row_h = (h - 66) / 4
    for rnd in range(1, 5):
        cy = ry + (rnd - 1) * row_h
        now = rnd == round_ and not over
        if now:
            d.rounded_rectangle(
                (x + 6, cy - 2, x + w - 6, cy + row_h - 4), radius=6, fill=(255, 236, 200), outline=D.TURN, width=2
            )
        D.text(d, (x + 14, cy + row_h / 2 - 3), f"R{rnd}", 17, D.TURN if now else D.INK, bold=True, anchor="lm")
        cx = x + 52
        for crit in QC.WHEEL[rnd]:
            what, key = crit
            if what == "colour":
                colour = QC.COLOURS[key]
                label, fill = f"{colour.letter} {colour.name}", colour_rgb(key)
            else:
                label, fill = f"{QC.PATTERN_PLURALS[key]} ({key})", (236, 228, 210)
            if what == "colour" or QC.PATTERN_POINTS_MODE != "value":
                label += f" ×{QC.criterion_points(crit, 1, rnd)}"
            shown, size = D.fit_text(label, (w - 64) // 3 - 12, 15, bold=True, min_size=12)
            cw = D.chip(d, (int(cx), int(cy + row_h / 2 - 15)), shown, fill, size=size, pad=5)
            cx += cw + 6
    foot = "×N = points per matching hexagon; +1 per pavilion each round (Q32, Q33)"
    if QC.PATTERN_POINTS_MODE == "value":
        foot = "Patterns score their value per hexagon; +1 per pavilion each round (Q32, Q33)"
    shown, size = D.fit_text(foot, w - 24, 14, bold=True)
    D.text(d, (x + 12, y + h - 8), shown, size, D.MUTED, bold=True, anchor="ld")


@dataclass(frozen=True, slots=True)
class DisplayView:
    """What the display section shows."""

    round: int
    stack_tiles: tuple[Kind, ...]
    stack_count: int
    display: tuple[Piece, ...]
    stacks_to_come: tuple[int, ...]
    supply: int
    bag: int
    tower: int


def _display_view(b: Board) -> DisplayView:
    return DisplayView(
        b.round,
        tuple(b.stack_tiles),
        b.stack_count,
        tuple(b.display),
        tuple(b.stacks_to_come),
        b.supply,
        b.bag,
        b.tower,
    )


PIECE_W, PIECE_H = 2 * (2 * R_SMALL + 4) + 14, 2 * (2 * R_SMALL) + 34


def _display_height(b: DisplayView, w: int) -> int:
    n = (1 if b.stack_count else 0) + len(b.display)
    per_row = max(1, (w - 20) // (PIECE_W + 8))
    rows = max(1, math.ceil(n / per_row))
    return 40 + rows * (PIECE_H + 8) + 30


def _display(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, b: DisplayView, w: int) -> None:
    """The display (Q16, Q22, Q23): the round stack's top with its tiles, and the expansions moved out."""
    pieces: list[tuple[str, Piece]] = [("stack", Piece(False, None, list(b.stack_tiles)))] if b.stack_count else []
    pieces += [("piece", pc) for pc in b.display]
    piece_w, piece_h = PIECE_W, PIECE_H
    per_row = max(1, (w - 20) // (piece_w + 8))
    h = _display_height(b, w)
    D.panel(d, (x, y, x + w, y + h))
    D.text(d, (x + 12, y + 10), f"Display — round {b.round} of 4", 18, D.INK, bold=True)
    for i, (kind, pc) in enumerate(pieces):
        row, col = divmod(i, per_row)
        px, py = x + 12 + col * (piece_w + 8), y + 40 + row * (piece_h + 8)
        if pc.face_up and pc.kind is not None:
            d.rounded_rectangle(
                (px, py, px + piece_w, py + piece_h), radius=8, fill=(250, 244, 226), outline=D.GOOD, width=2
            )
            _draw_kind(img, px + piece_w / 2, py + piece_h / 2 - 6, R_SMALL + 8, pc.kind, printed=True, size=16)
            D.text(d, (px + piece_w / 2, py + piece_h - 4), "face up", 12, D.GOOD, bold=True, anchor="md")
            continue
        fill = (120, 104, 86) if kind == "stack" else (156, 140, 120)
        d.rounded_rectangle((px, py, px + piece_w, py + piece_h), radius=8, fill=fill, outline=D.INK, width=2)
        for j, t in enumerate(pc.tiles):
            rr, cc = divmod(j, 2)
            _draw_kind(
                img,
                px + 7 + R_SMALL + 2 + cc * (2 * R_SMALL + 4),
                py + 6 + R_SMALL + rr * (2 * R_SMALL),
                R_SMALL,
                t,
                size=15,
            )
        caption = f"stack ({b.stack_count})" if kind == "stack" else "face down"
        D.text(d, (px + piece_w / 2, py + piece_h - 4), caption, 12, D.WHITE, bold=True, anchor="md")
    if not pieces:
        D.text(d, (x + 12, y + 44), "empty", 16, D.MUTED, bold=True)
    to_come = ", ".join(f"R{b.round + 1 + i}: {n}" for i, n in enumerate(b.stacks_to_come)) or "none"
    info = f"Stacks to come: {to_come}   ·   Supply: {b.supply} (6 pts each)   ·   Bag {b.bag}   ·   Tower {b.tower}"
    shown, size = D.fit_text(info, w - 24, 15, bold=True)
    D.text(d, (x + 12, y + h - 8), shown, size, D.INK, bold=True, anchor="ld")


def _legend(d: ImageDraw.ImageDraw | None, x: int, y: int, w: int) -> int:
    """Colour letters and pattern values, so every hexagon's code reads in words (Q2, Q3). Returns the height
    (with d None, only measures)."""
    cx, cy = x, y
    for i, colour in enumerate(QC.COLOURS):
        label = f"{colour.letter} = {colour.name}"
        cw = D.text_size(label, 14, True)[0] + 10
        if cx + cw > x + w:
            cx, cy = x, cy + 30
        if d is not None:
            D.chip(d, (cx, cy), label, colour_rgb(i), size=14, pad=5)
        cx += cw + 6
    lines = [
        f"Patterns: {'   '.join(f'{v} {n}' for v, n in sorted(QC.PATTERNS.items()))}",
        "J = joker   ·   ringed = printed on an expansion",
    ]
    if D.text_size("   ·   ".join(lines), 14, True)[0] <= w:
        lines = ["   ·   ".join(lines)]
    cy += 32
    for line in lines:
        if d is not None:
            shown, size = D.fit_text(line, w, 14, bold=True)
            D.text(d, (x, cy), shown, size, D.INK, bold=True)
        cy += 22
    return cy - y + 4


LEGEND_MARGIN = 4  # left and right of the legend's lines: a glyph may reach a pixel past its pen position


def _legend_part(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int) -> None:
    _legend(d, x + LEGEND_MARGIN, y, w)


def _legend_box(x: int, y: int, w: int, h: int) -> tuple[int, int, int, int]:
    return x - LEGEND_MARGIN, y, x + w + LEGEND_MARGIN, y + h - 1


# --------------------------------------------------------------------------------------------- main


def draw_board(b: Board, highlight: Any = None, focus: bool = False) -> Image.Image:
    extra: frozenset[str] = frozenset()
    if highlight is not None:
        extra = frozenset([highlight]) if isinstance(highlight, str) else frozenset(highlight)
        extra = frozenset(
            GEO.parse_space(s) if s in GEO.SPACE_COORD or s.upper() in GEO.SPACE_COORD else s for s in extra
        )
        if len(extra) == 1 and next(iter(extra)) in GEO.AREA_CELLS:  # an area: mark all of it
            extra = frozenset(GEO.AREA_CELLS[next(iter(extra))])
    if focus:
        return _draw_focus(b, extra)
    width = 1440
    cols = 2
    panel_w, panel_h = _panel_size(width, cols, b.players)
    rows = math.ceil(len(b.players) / cols)
    wheel_w = 600
    display = _display_view(b)
    display_w = width - 3 * GAP - wheel_w
    # after the game: results instead of wheel and display
    top_h = 0 if b.over else max(_display_height(display, display_w), 230)
    results_h = D.results_height(b.results) + GAP if b.results else 0
    last_h = D.LAST_MOVE_H if b.last_move else 0
    legend_h = _legend(None, GAP, 0, width - 2 * GAP)
    height = GAP + HEADER_H + results_h + last_h + legend_h + (top_h + GAP if top_h else 0) + rows * (panel_h + GAP)
    img, d = D.canvas(width, height)
    title = "Azul: Queen's Garden" + ("" if b.over else f"   Round {b.round} of 4")
    D.title_bar(d, (GAP, GAP, width - GAP, GAP + HEADER_H - 8), title, right="Game over" if b.over else "")
    y = GAP + HEADER_H
    if b.results:
        y += D.results_sheet(d, b.results, {p.id: p.name for p in b.players}, GAP, y, width - 2 * GAP, name_w=190) + GAP
    y += D.last_move_line(d, b.last_move, GAP, y, width - 2 * GAP)
    D.part(img, _legend_box(GAP, y, width - 2 * GAP, legend_h), _legend_part, width - 2 * GAP)
    y += legend_h
    if top_h:  # each section a cached part: drawn again only when what it shows changes
        D.part(img, (GAP, y, GAP + wheel_w, y + top_h), _wheel, b.round, b.over, wheel_w, top_h)
        dx = GAP + wheel_w + GAP
        dh = _display_height(display, display_w)
        D.part(img, (dx, y, dx + display_w, y + dh), _display, display, display_w)
        y += top_h + GAP
    for i, p in enumerate(b.players):
        r, c = divmod(i, cols)
        x0 = GAP + c * (panel_w + GAP)
        y0 = y + r * (panel_h + GAP)
        mine = b.viewer is None or p.id == b.viewer
        box = (x0, y0, x0 + panel_w, y0 + panel_h)
        D.part(img, box, _player_panel, p, (panel_w, panel_h), extra if mine else frozenset())
    return img


def _draw_focus(b: Board, extra: frozenset[str]) -> Image.Image:
    """The viewer's garden and storage alone, for a preview panel."""
    me = next((p for p in b.players if p.id == b.viewer), b.players[0])
    width = 760
    panel_w, panel_h = _panel_size(width, 1, [me])
    legend_h = _legend(None, GAP, GAP, width - 2 * GAP)
    img, d = D.canvas(width, panel_h + 2 * GAP + legend_h)
    D.part(img, _legend_box(GAP, GAP, width - 2 * GAP, legend_h), _legend_part, width - 2 * GAP)
    box = (GAP, GAP + legend_h, width - GAP, GAP + legend_h + panel_h)
    D.part(img, box, _player_panel, me, (width - 2 * GAP, panel_h), extra, viewer=b.viewer)
    return img


def draw(
    view: Any,
    viewer: str | None = None,
    names: Mapping[str, str] | None = None,
    highlight: Any = None,
    focus: bool = False,
) -> Image.Image:
    """The render entry point for Queen's Garden (see render.render_png)."""
    return draw_board(model_from_view(view, viewer, names), highlight=highlight, focus=focus)
