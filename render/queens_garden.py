"""Azul: Queen's Garden board images: each player's hexagonal garden (fountain board, placed expansions,
printed garden elements) with every space named as the texts name it ("M3", "SE4"), storage (tiles,
jokers, expansions), the display (round stack top, moved-out expansions), the round stacks still to come,
the supply, the wheel's scoring criteria for this and every round, round and scores. Every hexagon carries
a colour letter + pattern value ("F6" = dark green lily), so the two greens and the two purples
are never told apart by hue alone (Q2). After the game: a results sheet with each player's points broken down
(start, each round's scoring, passes and purchases, storage, colour groups, pattern groups, bonuses).

The engine state is read in exactly one place, `model_from_view`; geometry, names, codes and the wheel come
from `engine.queens_garden`. Nothing is secret in this game (storages are public, Q8), so a private image
is the same board with the viewer's garden drawn first.

Words: the model's sentences are built in the board's language (`Board.words`), the sections take the `Words`
they draw with (`_`). Colour and pattern names are marked here with `N_`, keyed by the engine's data; the
letters of space, area and hexagon codes ("M3", "SE", "F6") are the reader's (the engine's `area_text`,
`space_text`, `code_text`: its catalog entries in the "queens_garden" context), as in the messages.
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
from i18n import ENGLISH, N_, Words
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
TO_MOVE: D.RGB = (255, 236, 200)  # the row of the player to move
PATTERN_CHIP: D.RGB = (236, 228, 210)  # a pattern's chip on the wheel
FACE_UP, STACK, FACE_DOWN = (250, 244, 226), (120, 104, 86), (156, 140, 120)  # the display's pieces (Q13)


def colour_rgb(c: int) -> D.RGB:
    return COLOUR_RGB[QC.COLOURS[c].key]


COLOUR_WORDS = {  # Q2: the colours' names (the engine's keys)
    "yellow": N_("yellow"),
    "light_blue": N_("light blue"),
    "light_green": N_("light green"),
    "dark_green": N_("dark green"),
    "light_purple": N_("light purple"),
    "dark_purple": N_("dark purple"),
}
PATTERN_WORDS = {  # Q3: the patterns by value, one and many
    1: (N_("tree"), N_("trees")),
    2: (N_("bird"), N_("birds")),
    3: (N_("butterfly"), N_("butterflies")),
    4: (N_("flower"), N_("flowers")),
    5: (N_("plant"), N_("plants")),
    6: (N_("lily"), N_("lilies")),
}


def colour_name(c: int, _: Words) -> str:
    colour = QC.COLOURS[c]
    return _.text(COLOUR_WORDS[colour.key]) if colour.key in COLOUR_WORDS else colour.name


def pattern_name(value: int, _: Words, plural: bool = False) -> str:
    if value not in PATTERN_WORDS:
        return QC.PATTERN_PLURALS[value] if plural else QC.PATTERNS[value]
    return _.text(PATTERN_WORDS[value][plural])


def joker_letter(_: Words) -> str:
    # i18n: the letter on a joker's hexagon in a storage (and in the legend: "J = joker")
    return _("J")


PALETTE = (
    *COLOUR_RGB.values(),
    JOKER,
    FREE,
    BOARD,
    AREA_FREE,
    ELEMENT,
    TO_MOVE,
    FACE_UP,
    STACK,
    FACE_DOWN,
    PATTERN_CHIP,
)  # colours the PNG palette keeps exactly


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
    words: Words = ENGLISH  # the language of the model's sentences and of the image


# --------------------------------------------------------------------------------------------- reading the view


def _last_move(view: Any, label: Mapping[str, str], _: Words = ENGLISH) -> tuple[str, dict[str, set[str]]]:
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
    # i18n: a player's name and what they did, after "Last move:" ("Ana places F6 on M3")
    return _("{who} {what}", who=label.get(e.player, e.player), what=e.text), {e.player: spaces}


def model_from_view(view: Any, viewer: str | None, names: Mapping[str, str] | None, _: Words = ENGLISH) -> Board:
    """The only function that reads engine state fields (engine.queens_garden.state.QGState); its sentences in
    the language of `_`."""
    label = {p: D.player_label(p, view.players, names, _) for p in view.players}
    last_text, last_spaces = _last_move(view, label, _)
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
        words=_,
    )
    if viewer in view.players:  # the viewer's own garden first (nothing is hidden in this game)
        board.players.sort(key=lambda pl: pl.id != viewer)
    if view.over:
        board.results = _results_from(view, _)
    return board


def _results_from(view: Any, _: Words = ENGLISH) -> D.Results:
    """Q31-Q37: start score, each round's scoring, other changes (passing, discards, 6-point expansions),
    then the final scoring's storage, groups and bonuses, from the breakdown each seat keeps (`round_points`,
    `final`); the winners share the best score (Q36)."""
    best = max(seat.score for seat in view.seats)
    winners = tuple(p for p, seat in zip(view.players, view.seats, strict=True) if seat.score == best)
    columns = (
        # i18n: results column: the score every player starts with
        _("At start"),
        *(_("R{round}", context="queens_garden", round=r) for r in range(1, 5)),
        # i18n: results column: points lost by passing and buying (Q24, Q26)
        _("Passes & buys"),
        # i18n: results column: what the final scoring of the storage gave (Q35)
        _("Storage"),
        # i18n: results column: the final scoring's colour groups (Q35)
        _("Colour groups"),
        # i18n: results column: the final scoring's pattern groups (Q35)
        _("Pattern groups"),
        # i18n: results column: the final bonuses (Q35)
        _("Bonus"),
        _("Total"),
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
    notes = (
        # i18n: under the results of Queen's Garden
        _(
            "Storage: +1 per joker, −value per hexagon left (Q35); groups of 3+ score the sum of their values, "
            "+6 for 6 (Q35); a score never drops below 0 (Q37)."
        ),
    )
    return D.Results(columns=columns, rows=rows, winners=winners, notes=notes)


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
    img: Image.Image,
    cx: float,
    cy: float,
    r: float,
    kind: Kind,
    *,
    printed: bool = False,
    size: int | None = None,
    _: Words = ENGLISH,
) -> None:
    """One hexagon: its colour, and its code (the reader's colour letter + pattern value), so hue is never the
    only cue (Q2)."""
    D.stamp(img, _kind_sprite(r, kind, printed, size, _), cx, cy)


@functools.lru_cache(maxsize=4096)  # the sprites are hex_sprite's: this only spares naming them per hexagon
def _kind_sprite(r: float, kind: Kind, printed: bool, size: int | None, _: Words) -> Image.Image:
    col = colour_rgb(kind[0])
    fg = D.contrast(col)
    code = _.text(QC.code_text(kind))
    return hex_sprite(r, col, D.INK, 2, code, size or max(13, round(r * 0.62)), fg, fg if printed else None)


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


@functools.lru_cache(maxsize=64)
def garden_extent(r: float) -> tuple[float, float, float, float]:
    """Pixel bounding box of every space of a full garden with hexes of circumradius r, fountain at (0, 0)."""
    xs, ys = zip(*(GEO.pixel(s, r) for s in GEO.SPACES), strict=True)
    return min(xs) - r, min(ys) - r * 0.87, max(xs) + r, max(ys) + r * 0.87


def _garden(
    img: Image.Image,
    g: Garden,
    ox: int,
    oy: int,
    r: float,
    last: frozenset[str],
    extra: frozenset[str],
    _: Words = ENGLISH,
    bg: D.RGB = D.PANEL,
) -> None:
    """A garden drawn with its top-left extent corner at (ox, oy) on a plain `bg` area; areas and spaces named in
    the reader's letters. The spaces as they are before anything is placed on them come from `_area_base` (a
    paste per area), then each tile, printed hexagon and element is stamped over its space (the same hexagon: it covers
    the free one's every pixel)."""
    x0, y0, _x1, _y1 = garden_extent(r)
    dx, dy = ox - x0, oy - y0
    for area in AREAS:
        placed = area == GEO.FOUNTAIN_BOARD or area in g.areas
        base, mask, (bx, by) = _area_base(r, area, placed, ox & 1, oy & 1, bg, _)
        D.paste(img, base, (ox + bx, oy + by), mask)
    for space in (*g.hexes, *(s for s in g.elements if s not in g.hexes)):
        area = GEO.area_of(space)
        if area != GEO.FOUNTAIN_BOARD and area not in g.areas:
            continue  # (never in a game: a space of an area not placed holds nothing)
        cx, cy = GEO.pixel(space, r)
        if space in g.hexes:
            _draw_kind(img, cx + dx, cy + dy, r - 1, g.hexes[space], printed=space in g.printed, _=_)
        else:
            D.stamp(img, element_sprite(g.elements[space], space in g.rewarded, r - 1), cx + dx, cy + dy)
    for space in sorted(last | extra):
        if space in GEO.SPACE_COORD:
            cx, cy = GEO.pixel(space, r)
            D.stamp(img, hex_sprite(r + 1, None, D.HIGHLIGHT, 4), cx + dx, cy + dy)


AREAS = tuple(dict.fromkeys(GEO.area_of(space) for space in GEO.SPACES))  # in the order their spaces are drawn


@functools.lru_cache(maxsize=64)  # ~0.1-0.2 MiB each (an area of 7-13 hexagons at R_GARDEN): ~10 MiB at most
def _area_base(
    r: float, area: str, placed: bool, px: int, py: int, bg: D.RGB, _: Words
) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """One area's spaces as drawn before anything is on them (placed: each free space and its name; not placed
    yet: faint outlines, the area's name in the middle), on `bg`, from the corner parity (px, py) as `D.part`
    draws (positions round as on the board): (pixels, the mask of what the hexagons cover, the offset from the
    garden's extent corner). Kept per area, state and language: boards of every game share them."""
    x0, y0, x1, y1 = garden_extent(r)
    m = 2 * (int(r) // 2 + 6)  # an even margin: every sprite inside, positions round as on the board
    size = (int(x1 - x0) + 2 * m, int(y1 - y0) + 2 * m)
    canvas, mask = Image.new("RGB", size, bg), Image.new("L", size, 0)
    dx, dy = m + px - x0, m + py - y0
    for space in GEO.SPACES:
        if GEO.area_of(space) != area:
            continue
        if placed:
            label = _.text(GEO.space_text(space))
            sprite = hex_sprite(r - 1, FREE, D.PANEL_EDGE, 2, label, max(11, round(r * 0.42)), D.MUTED)
        else:  # an expansion area still free: a faint outline, its name in the middle (Q28 names areas)
            label = _.text(GEO.area_text(area)) if space == f"{area}0" else ""
            sprite = hex_sprite(r - 1, AREA_FREE, (206, 198, 182), 1, label, max(13, round(r * 0.55)), D.MUTED)
        cx, cy = GEO.pixel(space, r)
        D.stamp(canvas, sprite, cx + dx, cy + dy)
        at = (round(cx + dx - sprite.width / 2), round(cy + dy - sprite.height / 2))
        mask.paste(255, at, sprite.getchannel("A").point(lambda v: 255 if v else 0))
    box = mask.getbbox() or (0, 0, 1, 1)
    return canvas.crop(box), mask.crop(box), (box[0] - m - px, box[1] - m - py)


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
    y: float,
    w: int,
    _: Words = ENGLISH,
) -> float:
    """Storage (Q8): 12 tile spaces holding tiles and jokers, and 2 expansion spaces."""
    used = len(tiles) + jokers
    # i18n: a player's storage: tiles and jokers in it, of its spaces (Q8)
    shown, size = D.fit_text(_("Storage {used}/{spaces}", used=used, spaces=QC.STORAGE_TILES), w, 16, bold=True)
    D.text(d, (x, y), shown, size, D.INK, bold=True)
    y += 26
    step = R_SMALL * 2 + 4
    per_row = max(1, int((w - 8) // step))
    items: list[Kind | None] = [*tiles, *([None] * jokers)]
    for i, kind in enumerate(items):
        row, col = divmod(i, per_row)
        cx, cy = x + R_SMALL + col * step, y + R_SMALL + row * (R_SMALL * 1.8 + 4)
        if kind is None:
            D.stamp(img, hex_sprite(R_SMALL, JOKER, D.INK, 2, joker_letter(_), 16, D.WHITE), cx, cy)
        else:
            _draw_kind(img, cx, cy, R_SMALL, kind, size=15, _=_)
    if not items:
        # i18n: an empty storage or display
        shown, size = D.fit_text(_("empty"), w, 15, bold=True)
        D.text(d, (x, y + 6), shown, size, D.MUTED, bold=True)
    rows = max(1, math.ceil(len(items) / per_row))
    y += rows * (R_SMALL * 1.8 + 4) + 8
    # i18n: a player's storage: expansions in it, of its spaces (Q8)
    label = _("Expansions {used}/{spaces}", used=len(expansions), spaces=QC.STORAGE_EXPANSIONS)
    shown, size = D.fit_text(label, w, 16, bold=True)
    D.text(d, (x, y), shown, size, D.INK, bold=True)
    y += 26
    for i, kind in enumerate(expansions):
        cx, cy = x + R_SMALL + i * (step + 10), y + R_SMALL
        _draw_kind(img, cx, cy, R_SMALL + 2, kind, printed=True, size=15, _=_)
    if not expansions:
        # i18n: no expansions in a player's storage
        shown, size = D.fit_text(_("none"), w, 15, bold=True)
        D.text(d, (x, y + 4), shown, size, D.MUTED, bold=True)
    return y + 2 * R_SMALL + 6


def _player_panel(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x0: int,
    y0: int,
    p: Player,
    dims: tuple[int, int],
    extra: frozenset[str],
    _: Words = ENGLISH,
) -> None:
    """One player's panel of `dims` (width, height), its top-left corner at (x0, y0): the frame and title drawn
    here, the body (garden, storage, round scoring) a part of its own, so passing the turn on does not redraw
    the garden."""
    x1, y1 = x0 + dims[0], y0 + dims[1]
    box = (x0, y0, x1, y1)
    D.panel(d, box, edge=D.TURN if p.to_move else D.PANEL_EDGE, width=4 if p.to_move else 2)
    status = []
    if p.to_move:
        # i18n: in a player's title: it is their turn
        status.append(_("▶ to move"))
    if p.passed:
        # i18n: in a player's title: they passed this round (Q24)
        status.append(_("passed"))
    if p.marker:
        # i18n: in a player's title: they hold the first-player marker (Q29)
        status.append(_("★ first-player marker"))
    title = p.name + ("  " + " · ".join(status) if status else "")
    D.title_bar(
        d,
        (x0 + 6, y0 + 6, x1 - 6, y0 + 44),
        title,
        fill=D.TURN if p.to_move else D.INK,
        size=19,
        right=_("{n} pts", "{n} pts", n=p.score),
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
        _,
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
    _: Words = ENGLISH,
) -> None:
    """A player's garden, storage and what this round's scoring would give now, the panel (of `dims`) having its
    top-left corner at (bx - BODY_X, by - BODY_Y)."""
    x0, y0 = bx - BODY_X, by - BODY_Y
    x1 = x0 + dims[0]
    gx0, gy0, gx1, gy1 = garden_extent(R_GARDEN)
    _garden(img, garden, x0 + 10, y0 + 54, R_GARDEN, marks, frozenset(), _)
    sx = x0 + 10 + int(gx1 - gx0) + 14
    sy = _storage(img, d, tiles, jokers, expansions, sx, y0 + 56, x1 - sx - 10, _)
    if round_now is not None:  # the engine's own round scoring (Q31-Q33) of the garden as it stands
        room = x1 - sx - 10
        # i18n: what this round's scoring would give a player's garden as it stands, followed by "+N points"
        shown, size = D.fit_text(_("Round scoring if now:"), room, 15, bold=True, min_size=11)
        D.text(d, (sx, sy + 8), shown, size, D.MUTED, bold=True)
        shown, size = D.fit_text(_("+{n} point", "+{n} points", n=round_now), room, 20, bold=True)
        D.text(d, (sx, sy + 30), shown, size, D.INK, bold=True)


def _panel_size(width: int, cols: int, players: Sequence[Player]) -> tuple[int, int]:
    gx0, gy0, gx1, gy1 = garden_extent(R_GARDEN)
    panel_w = (width - (cols + 1) * GAP) // cols
    storage_w = panel_w - int(gx1 - gx0) - 34
    storage_h = max(26 + _storage_rows(p, storage_w) * (R_SMALL * 1.8 + 4) + 8 + 26 + 2 * R_SMALL + 6 for p in players)
    return panel_w, int(54 + max(gy1 - gy0, storage_h) + 12)


def _wheel(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    round_: int,
    over: bool,
    w: int,
    h: int,
    _: Words = ENGLISH,
) -> None:
    """The wheel (Q31/Q32): what each round scores, the current round marked, points per matching hexagon."""
    D.panel(d, (x, y, x + w, y + h))
    shown, size = D.fit_text(_("Wheel: what each round scores"), w - 24, 18, bold=True)
    D.text(d, (x + 12, y + 10), shown, size, D.INK, bold=True)
    ry = y + 40
    row_h = (h - 66) / 4
    for rnd in range(1, 5):
        cy = ry + (rnd - 1) * row_h
        now = rnd == round_ and not over
        if now:
            D.rounded(d, (x + 6, cy - 2, x + w - 6, cy + row_h - 4), 6, fill=TO_MOVE, outline=D.TURN, width=2)
        # i18n: a round on the wheel, short ("R1")
        label, size = D.fit_text(_("R{round}", context="queens_garden", round=rnd), 34, 17, bold=True, min_size=10)
        D.text(d, (x + 14, cy + row_h / 2 - 3), label, size, D.TURN if now else D.INK, bold=True, anchor="lm")
        cx = x + 52
        for crit in QC.WHEEL[rnd]:
            what, key = crit
            if what == "colour":
                colour = QC.COLOURS[key]
                label, fill = f"{_.text(colour.letter)} {colour_name(key, _)}", colour_rgb(key)
            else:
                label, fill = f"{pattern_name(key, _, plural=True)} ({key})", PATTERN_CHIP
            if what == "colour" or QC.PATTERN_POINTS_MODE != "value":
                label += f" ×{QC.criterion_points(crit, 1, rnd)}"
            shown, size = D.fit_text(label, (w - 64) // 3 - 12, 15, bold=True, min_size=12)
            cw = D.chip(d, (int(cx), int(cy + row_h / 2 - 15)), shown, fill, size=size, pad=5)
            cx += cw + 6
    # i18n: under the wheel: "×N" as after the criteria on it
    foot = _("×N = points per matching hexagon; +1 per pavilion each round (Q32, Q33)")
    if QC.PATTERN_POINTS_MODE == "value":
        # i18n: under the wheel
        foot = _("Patterns score their value per hexagon; +1 per pavilion each round (Q32, Q33)")
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


def _display(
    img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, b: DisplayView, w: int, _: Words = ENGLISH
) -> None:
    """The display (Q16, Q22, Q23): the round stack's top with its tiles, and the expansions moved out."""
    pieces: list[tuple[str, Piece]] = [("stack", Piece(False, None, list(b.stack_tiles)))] if b.stack_count else []
    pieces += [("piece", pc) for pc in b.display]
    piece_w, piece_h = PIECE_W, PIECE_H
    per_row = max(1, (w - 20) // (piece_w + 8))
    h = _display_height(b, w)
    D.panel(d, (x, y, x + w, y + h))
    # i18n: the title of the display (Q16)
    title = _("Display — round {round} of {rounds}", round=b.round, rounds=4)
    shown, size = D.fit_text(title, w - 24, 18, bold=True)
    D.text(d, (x + 12, y + 10), shown, size, D.INK, bold=True)
    for i, (kind, pc) in enumerate(pieces):
        row, col = divmod(i, per_row)
        px, py = x + 12 + col * (piece_w + 8), y + 40 + row * (piece_h + 8)
        if pc.face_up and pc.kind is not None:
            D.rounded(d, (px, py, px + piece_w, py + piece_h), 8, fill=FACE_UP, outline=D.GOOD, width=2)
            _draw_kind(img, px + piece_w / 2, py + piece_h / 2 - 6, R_SMALL + 8, pc.kind, printed=True, size=16, _=_)
            # i18n: under an expansion lying face up in the display (Q22)
            shown, size = D.fit_text(_("face up"), piece_w - 6, 12, bold=True, min_size=9)
            D.text(d, (px + piece_w / 2, py + piece_h - 4), shown, size, D.GOOD, bold=True, anchor="md")
            continue
        fill = STACK if kind == "stack" else FACE_DOWN
        D.rounded(d, (px, py, px + piece_w, py + piece_h), 8, fill=fill, outline=D.INK, width=2)
        for j, t in enumerate(pc.tiles):
            rr, cc = divmod(j, 2)
            _draw_kind(
                img,
                px + 7 + R_SMALL + 2 + cc * (2 * R_SMALL + 4),
                py + 6 + R_SMALL + rr * (2 * R_SMALL),
                R_SMALL,
                t,
                size=15,
                _=_,
            )
        # i18n: under the round stack in the display (Q16), with the pieces left in it; or a face-down piece
        caption = _("stack ({n})", n=b.stack_count) if kind == "stack" else _("face down")
        shown, size = D.fit_text(caption, piece_w - 6, 12, bold=True, min_size=9)
        D.text(d, (px + piece_w / 2, py + piece_h - 4), shown, size, D.WHITE, bold=True, anchor="md")
    if not pieces:
        shown, size = D.fit_text(_("empty"), w - 24, 16, bold=True)
        D.text(d, (x + 12, y + 44), shown, size, D.MUTED, bold=True)
    stacks = [
        f"{_('R{round}', context='queens_garden', round=b.round + 1 + i)}: {n}" for i, n in enumerate(b.stacks_to_come)
    ]
    parts = [
        # i18n: under the display: the pieces in the stacks of the rounds to come ("R2: 12, R3: 12"), or "none"
        _("Stacks to come: {stacks}", stacks=", ".join(stacks) or _("none")),
        # i18n: under the display: tiles in the supply (Q8: each costs 6 points)
        _("Supply: {n} (6 pts each)", n=b.supply),
        # i18n: under the display: tiles in the bag
        _("Bag {n}", n=b.bag),
        # i18n: under the display: tiles in the tower (discarded)
        _("Tower {n}", n=b.tower),
    ]
    lines, size = D.fit_lines("   ·   ".join(parts), w - 24, 15, bold=True, min_size=11)
    for k, line in enumerate(lines):  # one line, or two if it must
        D.text(d, (x + 12, y + h - 8 - (len(lines) - 1 - k) * (size + 3)), line, size, D.INK, bold=True, anchor="ld")


def _legend(d: ImageDraw.ImageDraw | None, x: int, y: int, w: int, _: Words = ENGLISH) -> int:
    """Colour letters and pattern values, so every hexagon's code reads in words (Q2, Q3). Returns the height
    (with d None, only measures)."""
    cx, cy = x, y
    for i, colour in enumerate(QC.COLOURS):
        label = D.fit_text(f"{_.text(colour.letter)} = {colour_name(i, _)}", w - 10, 14, True, min_size=14)[0]
        cw = D.text_size(label, 14, True)[0] + 10
        if cx + cw > x + w:
            cx, cy = x, cy + 30
        if d is not None:
            D.chip(d, (cx, cy), label, colour_rgb(i), size=14, pad=5)
        cx += cw + 6
    patterns = "   ".join(f"{v} {pattern_name(v, _)}" for v in sorted(QC.PATTERNS))
    lines = [
        # i18n: the legend: each pattern's value and name ("1 tree   2 bird ...")
        _("Patterns: {patterns}", patterns=patterns),
        # i18n: the legend: {letter} is the letter on a joker's hexagon ("J")
        _("{letter} = joker", letter=joker_letter(_))
        + "   ·   "
        # i18n: the legend: hexagons with an inner ring are printed on an expansion, not tiles
        + _("ringed = printed on an expansion"),
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


def _legend_part(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, _: Words = ENGLISH) -> None:
    _legend(d, x + LEGEND_MARGIN, y, w, _)


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
    _ = b.words
    width = 1440
    cols = 2
    panel_w, panel_h = _panel_size(width, cols, b.players)
    rows = math.ceil(len(b.players) / cols)
    wheel_w = 600
    display = _display_view(b)
    display_w = width - 3 * GAP - wheel_w
    # after the game: results instead of wheel and display
    top_h = 0 if b.over else max(_display_height(display, display_w), 230)
    results_h = D.results_height(b.results, width - 2 * GAP) + GAP if b.results else 0
    last_h = D.LAST_MOVE_H if b.last_move else 0
    legend_h = _legend(None, GAP, 0, width - 2 * GAP, _)
    height = GAP + HEADER_H + results_h + last_h + legend_h + (top_h + GAP if top_h else 0) + rows * (panel_h + GAP)
    img, d = D.canvas(width, height)
    title = _("Azul: Queen's Garden")
    if not b.over:
        # i18n: the header, after the game's name
        title += "   " + _("Round {round} of {rounds}", round=b.round, rounds=4)
    D.title_bar(d, (GAP, GAP, width - GAP, GAP + HEADER_H - 8), title, right=_("Game over") if b.over else "")
    y = GAP + HEADER_H
    if b.results:
        names = {p.id: p.name for p in b.players}
        y += D.results_sheet(d, b.results, names, GAP, y, width - 2 * GAP, name_w=190, _=_) + GAP
    y += D.last_move_line(d, b.last_move, GAP, y, width - 2 * GAP, _)
    D.part(img, _legend_box(GAP, y, width - 2 * GAP, legend_h), _legend_part, width - 2 * GAP, _)
    y += legend_h
    if top_h:  # each section a cached part: drawn again only when what it shows changes
        D.part(img, (GAP, y, GAP + wheel_w, y + top_h), _wheel, b.round, b.over, wheel_w, top_h, _)
        dx = GAP + wheel_w + GAP
        dh = _display_height(display, display_w)
        D.part(img, (dx, y, dx + display_w, y + dh), _display, display, display_w, _)
        y += top_h + GAP
    for i, p in enumerate(b.players):
        r, c = divmod(i, cols)
        x0 = GAP + c * (panel_w + GAP)
        y0 = y + r * (panel_h + GAP)
        mine = b.viewer is None or p.id == b.viewer
        box = (x0, y0, x0 + panel_w, y0 + panel_h)
        D.part(img, box, _player_panel, p, (panel_w, panel_h), extra if mine else frozenset(), _)
    return img


def _draw_focus(b: Board, extra: frozenset[str]) -> Image.Image:
    """The viewer's garden and storage alone, for a preview panel."""
    me = next((p for p in b.players if p.id == b.viewer), b.players[0])
    width = 760
    panel_w, panel_h = _panel_size(width, 1, [me])
    legend_h = _legend(None, GAP, GAP, width - 2 * GAP, b.words)
    img, d = D.canvas(width, panel_h + 2 * GAP + legend_h)
    D.part(img, _legend_box(GAP, GAP, width - 2 * GAP, legend_h), _legend_part, width - 2 * GAP, b.words)
    box = (GAP, GAP + legend_h, width - GAP, GAP + legend_h + panel_h)
    D.part(img, box, _player_panel, me, (width - 2 * GAP, panel_h), extra, b.words, viewer=b.viewer)
    return img


draw = D.entry_point(model_from_view, draw_board)  # the render entry point for Queen's Garden (see render.render_png)
