"""The Gardens of the Alhambra board images: the octagon-and-square board with building values (or, once
complete, who won them and for how much), every placed tile's trees facing the buildings they count for,
garden and building names as the commands use them ("C3", "d4"), where the next tile may go, scores, and the
last placement highlighted. A private image (viewer set) adds the viewer's hand tile(s) in all 4 rotations.
After the game: a results sheet with each player's points per building type.

The engine state is read in exactly one place, `model_from_view`; geometry, names and rotations come from
`engine.gardens`, so the picture and the commands always agree.

Words: the model's sentences are built in the board's language (`Board.words`), the sections take the `Words`
they draw with (`_`). Tree kinds, their letters and plants and the building types are marked here with `N_`,
keyed by the engine's data keys; garden and building names ("C3", "d4") are the commands' and stay as they are.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from engine import gardens as G
from i18n import ENGLISH, N_, Words
from render import _draw as D

KIND_COLOURS: dict[str, D.RGB] = {  # G2/G7: the four tree kinds = the players' colours
    "purple": (132, 84, 178),
    "green": (46, 140, 62),
    "yellow": (240, 204, 40),
    "orange": (238, 124, 28),
}
KIND_LETTER = {  # P, G, Y, O: colour is never the only cue (a letter per kind, on the tiles)
    # i18n: one letter for the purple trees (lavender) on the tiles; the four kinds' letters must differ
    "purple": N_("P"),
    # i18n: one letter for the green trees (palm) on the tiles; the four kinds' letters must differ
    "green": N_("G"),
    # i18n: one letter for the yellow trees (lemon) on the tiles; the four kinds' letters must differ
    "yellow": N_("Y"),
    # i18n: one letter for the orange trees (orange) on the tiles; the four kinds' letters must differ
    "orange": N_("O"),
}
KIND_WORDS = {"purple": N_("purple"), "green": N_("green"), "yellow": N_("yellow"), "orange": N_("orange")}
KIND_PLANT = {  # a kind's colour and its plant (G2)
    "purple": N_("purple (lavender)"),
    "green": N_("green (palm)"),
    "yellow": N_("yellow (lemon)"),
    "orange": N_("orange (orange)"),
}
EMPTY: D.RGB = (232, 224, 204)
OPEN: D.RGB = (214, 234, 200)
PLANTED: D.RGB = (250, 246, 232)
BUILDING: D.RGB = (222, 196, 150)
NOBODY: D.RGB = (170, 165, 158)
BOARD_BG: D.RGB = (196, 178, 140)
TYPE_SHORT = {"pavilion": "Pav", "seraglio": "Ser", "arcades": "Arc", "chambers": "Cha", "tower": "Tow"}
TYPE_WORDS = {  # the building types (G16), in the legend
    "pavilion": N_("pavilion", context="gardens"),
    "seraglio": N_("seraglio"),
    "arcades": N_("arcades"),
    "chambers": N_("chambers"),
    "tower": N_("tower"),
}
TYPE_TITLES = {  # the same as column titles of the results
    "pavilion": N_("Pavilion"),
    "seraglio": N_("Seraglio"),
    "arcades": N_("Arcades"),
    "chambers": N_("Chambers"),
    "tower": N_("Tower"),
}

DIM_COLOURS = {k: D.mix(c, (200, 196, 190), 0.7) for k, c in KIND_COLOURS.items()}  # a kind nobody plays (G7)

PALETTE = (
    *KIND_COLOURS.values(),
    *DIM_COLOURS.values(),
    EMPTY,
    OPEN,
    PLANTED,
    BUILDING,
    NOBODY,
    BOARD_BG,
)  # colours the PNG palette must keep exactly


# --------------------------------------------------------------------------------------------- model


@dataclass(slots=True)
class Space:
    name: str
    r: int
    c: int
    tile: str | None = None
    rotation: int = 0
    facing: tuple[str, ...] = ()  # kinds toward NE, SE, SW, NW (G15)
    trees: int = 0
    open: bool = False  # a legal place for the next tile (engine's open_spaces)


@dataclass(slots=True)
class Building:
    name: str
    i: int
    j: int
    value: int
    type: str
    done: bool = False
    winner_colour: str | None = None
    points: int = 0


@dataclass(slots=True)
class Player:
    id: str
    name: str
    colours: tuple[str, ...]
    score: int
    kind_scores: dict[str, int]
    hand_count: int
    to_move: bool


@dataclass(slots=True)
class Board:
    spaces: list[Space]
    buildings: list[Building]
    players: list[Player]
    supply: int
    last_space: str | None
    phase: str
    hand: tuple[str, ...] | None = None  # the viewer's tiles (private image)
    viewer: str | None = None
    last_move: str = ""
    over: bool = False
    winners: tuple[str, ...] = ()
    won: dict[str, dict[str, int]] = field(default_factory=dict)  # player -> building type -> points
    won_count: dict[str, int] = field(default_factory=dict)  # player -> buildings won
    unowned: tuple[str, ...] = ()
    words: Words = ENGLISH  # the language of the model's sentences and of the image


# --------------------------------------------------------------------------------------------- reading the view


def model_from_view(view: Any, viewer: str | None, names: Mapping[str, str] | None, _: Words = ENGLISH) -> Board:
    """The only function that reads engine state fields (GardensState); its sentences in the language of `_`."""
    completed = G.completed_buildings(view)
    open_now = set(G.open_spaces(view.board)) if view.phase == "play" else set()
    spaces = []
    for g, placed in enumerate(view.board):
        r, c = divmod(g, 6)
        sp = Space(G.GARDEN_NAMES[g], r, c, open=g in open_now)
        if placed is not None:
            sp.tile, sp.rotation = placed
            sp.facing = G.facing_kinds(sp.tile, sp.rotation)
            sp.trees = G.TILE_TREES[sp.tile]
        spaces.append(sp)
    scored = G.building_scores(view)  # completed buildings: who won them, for how much (G26-G32)
    buildings = []
    for b, value in enumerate(view.buildings):
        i, j = divmod(b, 7)
        name = G.BUILDING_NAMES[b]
        bl = Building(name, i, j, value, G.BUILDING_TYPES[value], done=name in completed)
        if name in scored:
            bl.winner_colour = scored[name].get("colour")
            bl.points = scored[name].get("points", 0)
        buildings.append(bl)
    scores = {p: 0 for p in view.players}
    for p, ks in zip(view.players, view.colours, strict=True):
        scores[p] = sum(view.kind_scores[G.KINDS.index(k)] for k in ks)
    to_move = set() if view.phase == "over" else {view.players[view.turn]}
    players = [
        Player(
            id=p,
            name=D.player_label(p, view.players, names, _),
            colours=tuple(ks),
            score=scores[p],
            kind_scores={k: view.kind_scores[G.KINDS.index(k)] for k in ks},
            hand_count=len(h),
            to_move=p in to_move,
        )
        for p, ks, h in zip(view.players, view.colours, view.hands, strict=True)
    ]
    owned = {k for ks in view.colours for k in ks}
    board = Board(
        spaces=spaces,
        buildings=buildings,
        players=players,
        supply=len(view.supply),
        last_space=view.last_space,
        phase=view.phase,
        viewer=viewer,
        over=view.phase == "over",
        unowned=tuple(k for k in G.KINDS if k not in owned) if view.phase != "colours" else (),
        words=_,
    )
    if viewer is not None and viewer in view.players:
        board.hand = tuple(t for t in view.hands[view.players.index(viewer)] if t != G.HIDDEN)
    label = {p.id: p.name for p in players}
    for e in reversed(view.log):
        if e.kind in ("place", "colour"):
            who = label.get(e.player, "") if e.player else ""
            # i18n: a player's name and what they did, after "Last move:" ("Ana plants a tile on C3")
            board.last_move = _("{who} {what}", who=who, what=e.text) if who else _.text(e.text).strip()
            break
    if board.over:
        board.winners = tuple(G.RULES.winners(view))  # G35: every player with the best score
        per_type = G.breakdown(view)
        for p in view.players:
            board.won[p] = {t: 0 for t in TYPE_SHORT}
            board.won_count[p] = len(per_type[p])
            for data in per_type[p]:
                board.won[p][data["type"]] += data["points"]
    return board


# --------------------------------------------------------------------------------------------- geometry

S = 112  # distance between garden centres
H = round(S * 0.47)  # octagon: distance from centre to a short (orthogonal) side
A = round(H * 0.3)  # octagon: half-length of a short side
DIAMOND = S - H - A - 5  # building: half-diagonal of the square turned 45°
LABEL = 30
MARGIN = DIAMOND + 8
BOARD_PX = 2 * MARGIN + 6 * S + LABEL


def _octagon(cx: float, cy: float, h: float = H, a: float = A) -> list[tuple[float, float]]:
    return [
        (cx + a, cy - h),
        (cx + h, cy - a),
        (cx + h, cy + a),
        (cx + a, cy + h),
        (cx - a, cy + h),
        (cx - h, cy + a),
        (cx - h, cy - a),
        (cx - a, cy - h),
    ]


def _diamond(cx: float, cy: float, d: float = DIAMOND) -> list[tuple[float, float]]:
    return [(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)]


# Unit vectors toward NE, SE, SW, NW (G15 order), y down.
DIR_VEC = ((1, -1), (1, 1), (-1, 1), (-1, -1))


@functools.cache
def tile_sprite(
    tile: str, rotation: int, scale: float = 1.0, dim: frozenset[str] = frozenset(), _: Words = ENGLISH
) -> Image.Image:
    """A placed garden tile as an RGBA octagon: on each long side a chip with the kind facing that way (colour
    and letter) and the number of trees it gives the building there (G14). Kinds in `dim` (unowned, G31) are
    greyed out. Cached per tile, rotation, scale and dimmed set."""
    s = round(S * scale)
    h, a = H * scale, A * scale
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = s / 2
    d.polygon(_octagon(c, c, h, a), fill=PLANTED, outline=D.INK, width=2)
    trees = G.TILE_TREES[tile]
    kinds = G.facing_kinds(tile, rotation)
    size = max(13, round(16 * scale))
    for (vx, vy), k in zip(DIR_VEC, kinds, strict=True):
        col = DIM_COLOURS[k] if k in dim else KIND_COLOURS[k]
        # a coloured wedge along the long side, then the chip just inside it
        mid = (h + a) / 2
        p1 = (c + vx * a, c + vy * h)
        p2 = (c + vx * h, c + vy * a)
        inner = 0.64
        d.polygon(
            [p1, p2, (c + vx * h * inner + 0, c + vy * a * inner), (c + vx * a * inner, c + vy * h * inner)], fill=col
        )
        cx, cy = c + vx * mid * 0.6, c + vy * mid * 0.6
        label = f"{_.text(KIND_LETTER[k])}{trees}"
        w = D.text_size(label, size, True)[0] + 8
        d.rounded_rectangle(
            (cx - w / 2, cy - size * 0.7, cx + w / 2, cy + size * 0.7), radius=5, fill=col, outline=D.INK, width=1
        )
        D.text(d, (cx, cy), label, size, D.contrast(col), bold=True, anchor="mm")
    d.polygon(_octagon(c, c, h, a), outline=D.INK, width=2)
    return img


# --------------------------------------------------------------------------------------------- board


def _board(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    ox: int,
    oy: int,
    spaces: Sequence[Space],
    buildings: Sequence[Building],
    unowned: tuple[str, ...],
    marks: tuple[str | None, ...],
    _: Words = ENGLISH,
) -> None:
    """The board, its top-left corner at (ox, oy), BOARD_PX square; the spaces named in `marks` highlighted."""
    gx, gy = ox + LABEL + MARGIN, oy + LABEL + MARGIN  # top-left corner of the garden grid (building a1)
    D.rounded(d, (ox + LABEL, oy + LABEL, ox + BOARD_PX, oy + BOARD_PX), 16, fill=BOARD_BG)
    for c in range(6):
        D.text(d, (gx + (c + 0.5) * S, oy + LABEL / 2), "ABCDEF"[c], 22, D.INK, bold=True, anchor="mm")
    for r in range(6):
        D.text(d, (ox + LABEL / 2, gy + (r + 0.5) * S), str(r + 1), 22, D.INK, bold=True, anchor="mm")
    for sp in spaces:
        cx, cy = gx + (sp.c + 0.5) * S, gy + (sp.r + 0.5) * S
        if sp.tile is None:
            D.stamp(img, space_sprite(sp.name, sp.open), cx, cy)
        else:
            D.stamp(img, tile_sprite(sp.tile, sp.rotation, 1.0, frozenset(unowned), _), cx, cy)
            D.text(d, (cx, cy), sp.name, 15, D.MUTED, bold=True, anchor="mm")
    for bl in buildings:
        D.stamp(
            img,
            building_sprite(bl.value, bl.name, bl.type, bl.done, bl.winner_colour, bl.points),
            gx + bl.j * S,
            gy + bl.i * S,
        )
    for name in marks:
        if name is None:
            continue
        sp = spaces[G.GARDEN_NAMES.index(name)]
        D.stamp(img, _highlight_sprite(), gx + (sp.c + 0.5) * S, gy + (sp.r + 0.5) * S)


@functools.cache
def space_sprite(name: str, open_: bool) -> Image.Image:
    """An empty garden space with its name; green when a tile may go there now (G22, G23)."""
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = S / 2
    d.polygon(
        _octagon(c, c),
        fill=OPEN if open_ else EMPTY,
        outline=D.GOOD if open_ else D.PANEL_EDGE,
        width=3 if open_ else 2,
    )
    D.text(d, (c, c), name, 22 if open_ else 18, D.GOOD if open_ else D.MUTED, bold=True, anchor="mm")
    return img


@functools.cache
def _highlight_sprite() -> Image.Image:
    img = Image.new("RGBA", (S + 12, S + 12), (0, 0, 0, 0))
    c = img.width / 2
    ImageDraw.Draw(img).polygon(_octagon(c, c, H + 3, A + 1), outline=D.HIGHLIGHT, width=6)
    return img


@functools.cache
def building_sprite(value: int, name: str, type_: str, done: bool, winner: str | None, points: int) -> Image.Image:
    """An unfinished building shows its value (G16); a finished one its type, winner colour and points (G32)."""
    s = 2 * DIAMOND + 6
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    cx = cy = s / 2
    if not done:
        d.polygon(_diamond(cx, cy), fill=BUILDING, outline=D.INK, width=2)
        D.text(d, (cx, cy - 6), str(value), 26, D.INK, bold=True, anchor="mm")
        D.text(d, (cx, cy + 17), name, 13, D.MUTED, bold=True, anchor="mm")
        return img
    col = KIND_COLOURS[winner] if winner else NOBODY
    d.polygon(_diamond(cx, cy), fill=col, outline=D.INK, width=3)
    ink = D.contrast(col)
    D.building_icon(d, type_, (cx - 13, cy - 27, cx + 13, cy - 4), ink)
    D.text(d, (cx, cy + 8), f"+{points}" if winner else "–", 17, ink, bold=True, anchor="mm")
    D.text(d, (cx, cy + 25), name, 11, ink, bold=True, anchor="mm")
    return img


# --------------------------------------------------------------------------------------------- side panel

SIDE_W = 400
GAP = 14


def _player_h(p: Player) -> int:
    return 74 if len(p.colours) < 2 else 96


def _players_height(players: Sequence[Player]) -> int:
    return 32 + sum(_player_h(p) + 8 for p in players)


def _players(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    players: Sequence[Player],
    over: bool,
    w: int,
    _: Words = ENGLISH,
) -> int:
    shown, size = D.fit_text(_("Players"), w, 20, bold=True)
    D.text(d, (x, y), shown, size, D.INK, bold=True)
    y += 32
    for p in players:
        h = _player_h(p)
        D.panel(d, (x, y, x + w, y + h), edge=D.TURN if p.to_move else D.PANEL_EDGE, width=4 if p.to_move else 2)
        name = _("{name}  ▶ to move", name=p.name) if p.to_move else p.name
        shown, size = D.fit_text(name, w - 110, 19, bold=True)
        D.text(d, (x + 12, y + 10), shown, size, D.TURN if p.to_move else D.INK, bold=True)
        D.text(d, (x + w - 12, y + 8), str(p.score), 30, D.INK, bold=True, anchor="ra")
        cy = y + 40
        if not p.colours:
            # i18n: a player who has not chosen their tree kind yet (G7)
            shown, size = D.fit_text(_("choosing a colour…"), w - 24, 16, bold=True)
            D.text(d, (x + 12, cy + 4), shown, size, D.MUTED, bold=True)
        # i18n: how many tiles a player holds
        hand = "" if over else _("hand {n}", n=p.hand_count)
        hand_w = D.text_size(hand, 15, True)[0] + 16 if hand else 0
        for k in p.colours:
            col = KIND_COLOURS[k]
            pts = _("{n} pts", "{n} pts", n=p.kind_scores[k]) if len(p.colours) > 1 else ""
            room = w - 24 - 12 - (D.text_size(pts, 15, True)[0] + 8 if pts else 0) - hand_w
            label = D.fit_text(f"{_.text(KIND_LETTER[k])} · {_.text(KIND_PLANT[k])}", room, 15, True, min_size=15)[0]
            cw = D.paste_chip(img, (x + 12, cy), label, col, D.PANEL, size=15)
            if pts:
                D.text(d, (x + 20 + cw, cy + 11), pts, 15, D.INK, bold=True, anchor="lm")
            cy += 28
        if hand:
            D.text(d, (x + w - 12, y + h - 10), hand, 15, D.MUTED, bold=True, anchor="rd")
        y += h + 8
    return y


LEGEND_MEASURE = 340  # the legend's sentences are wrapped at this width (a comfortable line of ~45 letters)


@functools.lru_cache(maxsize=64)
def _legend_lines(unowned: tuple[str, ...], w: int, _: Words = ENGLISH) -> tuple[tuple[str, int], ...]:
    """The legend's lines (and the size of each) for a `w` wide side panel."""
    yellow = _.text(KIND_LETTER["yellow"]) + "4"
    sentences = [
        # i18n: the legend; {chip} is the yellow kind's letter and 4 as on the tiles ("Y4")
        _('Chip "{chip}" on a tile side: 4 yellow trees facing the building on that side (G14).', chip=yellow),
        # i18n: the legend: what a building shows before and after it is complete (G16, G32)
        _("Buildings: value 1–5; when complete, winner's colour, type and points won."),
        # i18n: the legend: spaces drawn green (G22, G23)
        _("Green spaces: where a tile may go now."),
    ]
    lines = [(line, 15) for sentence in sentences for line in D.wrap(sentence, min(w, LEGEND_MEASURE), 15, True)]
    if unowned:
        # i18n: the legend, followed by the names of the kinds no player owns
        greyed, size = D.fit_lines(_("Greyed: unowned kinds, they score nothing (G31):"), w, 15, True)
        lines += [(line, size) for line in greyed]
        kinds = D.fit_text("  " + ", ".join(_.text(KIND_WORDS[k]) for k in unowned), w, 15, bold=True)
        lines.append(kinds)
    return tuple(lines)


def _legend_height(unowned: tuple[str, ...], w: int = SIDE_W, _: Words = ENGLISH) -> int:
    """What `_legend` returns less its y: the title, the lines, the building values (3 rows)."""
    return 28 + 21 * len(_legend_lines(unowned, w, _)) + 6 + 27 * 3 + 4


def _legend(
    img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, unowned: tuple[str, ...], w: int, _: Words = ENGLISH
) -> int:
    # i18n: the title of the legend
    shown, size = D.fit_text(_("How to read it"), w, 18, bold=True)
    D.text(d, (x, y), shown, size, D.INK, bold=True)
    y += 28
    for line, size in _legend_lines(unowned, w, _):
        D.text(d, (x, y), line, size, D.MUTED, bold=True)
        y += 21
    y += 6
    for value in sorted(G.BUILDING_TYPES):
        t = G.BUILDING_TYPES[value]
        d.polygon(_diamond(x + 14, y + 12, 13), fill=BUILDING, outline=D.INK, width=1)
        D.text(d, (x + 14, y + 12), str(value), 14, D.INK, bold=True, anchor="mm")
        shown, size = D.fit_text(_.text(TYPE_WORDS[t]), w // 2 - 40, 15, bold=True, min_size=11)
        D.text(d, (x + 34, y + 12), shown, size, D.INK, bold=True, anchor="lm")
        y += 27 if value % 2 == 0 or value == 5 else 0
        if value % 2 == 1 and value != 5:
            x += w // 2
        elif value % 2 == 0:
            x -= w // 2
    return y + 4


HAND_SCALE = 0.9


def _hand_height(hand: tuple[str, ...], w: int) -> int:
    s = round(S * HAND_SCALE)
    per_row = max(1, (w - 24) // (4 * (s + 8) + 16))
    rows = max(1, (len(hand) + per_row - 1) // per_row)
    return 48 + rows * (s + 52)


def _hand(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    hand: tuple[str, ...],
    unowned: tuple[str, ...],
    w: int,
    _: Words = ENGLISH,
) -> int:
    """The viewer's hand tiles (G19: private), each in the 4 rotations a placement may use (G13)."""
    scale = HAND_SCALE
    s = round(S * scale)
    group_w = 4 * (s + 8) + 16
    per_row = max(1, (w - 24) // group_w)
    h = _hand_height(hand, w)
    D.panel(d, (x, y, x + w, y + h), fill=D.HAND_BG, edge=D.TURN, width=3)
    title, size = D.fit_text(_("Your hand (private) — each tile in its 4 rotations"), w - 24, 19, bold=True)
    D.text(d, (x + 12, y + 10), title, size, D.INK, bold=True)
    if not hand:
        shown, size = D.fit_text(_("no tiles in hand"), w - 24, 16, bold=True)
        D.text(d, (x + 12, y + 52), shown, size, D.MUTED, bold=True)
    for i, tile in enumerate(hand):
        r, c = divmod(i, per_row)
        gx, gy = x + 12 + c * group_w, y + 44 + r * (s + 52)
        trees = G.TILE_TREES[tile]
        # i18n: above a hand tile shown in its 4 rotations: {number} is its place in the hand
        label = _(
            "Tile {number}: {n} tree of each kind", "Tile {number}: {n} trees of each kind", number=i + 1, n=trees
        )
        shown, size = D.fit_text(label, group_w - 16, 16, bold=True)
        D.text(d, (gx, gy), shown, size, D.INK, bold=True)
        for q in range(4):
            spr = tile_sprite(tile, q, scale, frozenset(unowned), _)
            tx = gx + q * (s + 8)
            D.paste(img, spr, (tx, gy + 22), spr)
            D.text(d, (tx + s / 2, gy + 24 + s), f"{G.DEGREES[q]}°", 15, D.INK, bold=True, anchor="ma")
    return h


def _results(b: Board) -> D.Results:
    """Final breakdown (G34/G35): points per building type, buildings won, total."""
    _ = b.words
    rows = {
        p.id: (*(b.won.get(p.id, {}).get(t, 0) for t in TYPE_SHORT), b.won_count.get(p.id, 0), p.score)
        for p in b.players
    }
    return D.Results(
        # i18n: results columns: the buildings a player won, their final score
        columns=(*(_.text(TYPE_TITLES[t]) for t in TYPE_SHORT), _("Won"), _("Total")),
        rows=rows,
        winners=tuple(b.winners),
        # i18n: under the results; "Won" is the results column of that name
        notes=(_("Points by building type won (G30: kinds × value); Won = buildings won."),),
    )


def draw_board(b: Board, highlight: Any = None, focus: bool = False) -> Image.Image:
    extra = None
    if highlight is not None:
        if isinstance(highlight, str):
            extra = highlight.upper()
        else:
            r, c = highlight
            extra = G.GARDEN_NAMES[int(r) * 6 + int(c)]
    if focus:
        return _draw_focus(b, extra)
    _ = b.words
    width = BOARD_PX + 2 * GAP + GAP + SIDE_W
    header = 50
    results_h = D.results_height(_results(b), width - 2 * GAP) + GAP if b.over else 0
    last_h = D.LAST_MOVE_H if b.last_move else 0
    hand_h = 0
    if b.hand is not None:
        hand_h = _hand_height(b.hand, width - 2 * GAP) + GAP
    ph = _players_height(b.players)
    legend_h = _legend_height(b.unowned, SIDE_W, _)
    middle = max(BOARD_PX, LABEL + ph + 10 + legend_h)  # the board, and beside it the players and the legend
    height = GAP + header + results_h + last_h + middle + GAP + hand_h
    img, d = D.canvas(width, height)
    # i18n: the header: tiles left in the supply
    info = _("Supply {n} tile", "Supply {n} tiles", n=b.supply)
    if b.over:
        info = _("Game over")
    D.title_bar(d, (GAP, GAP, width - GAP, GAP + header - 8), _("The Gardens of the Alhambra"), right=info)
    y = GAP + header
    if b.over:
        names = {p.id: f"{p.name} ({'/'.join(_.text(KIND_LETTER[k]) for k in p.colours)})" for p in b.players}
        y += D.results_sheet(d, _results(b), names, GAP, y, width - 2 * GAP, name_w=230, _=_) + GAP
    y += D.last_move_line(d, b.last_move, GAP, y, width - 2 * GAP, _)
    _board_part(img, b, GAP, y, extra)
    sx = GAP + BOARD_PX + GAP
    D.part(img, _side_box(sx, y + LABEL, ph), _side_part, _players, tuple(b.players), b.over, SIDE_W, _)
    sy = y + LABEL + ph + 10
    D.part(img, _side_box(sx, sy, legend_h), _side_part, _legend, b.unowned, SIDE_W, _)
    y += middle + GAP
    if b.hand is not None:
        _hand_part(img, b, GAP, y, width - 2 * GAP)
    return img


SIDE_MARGIN = 4  # left and right of a side section: a glyph may reach a pixel or two past its pen position


def _side_box(x: int, y: int, h: int) -> tuple[int, int, int, int]:
    return x - SIDE_MARGIN, y, x + SIDE_W + SIDE_MARGIN, y + h - 1


def _side_part(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, section: Any, *args: Any) -> None:
    section(img, d, x + SIDE_MARGIN, y, *args)


def _board_part(img: Image.Image, b: Board, x: int, y: int, extra: str | None) -> None:
    """The board, drawn every time: a move always changes it (a part of its own would never be reused)."""
    _board(img, D.drawer(img), x, y, b.spaces, b.buildings, b.unowned, (b.last_space, extra), b.words)


def _hand_part(img: Image.Image, b: Board, x: int, y: int, w: int) -> None:
    hand = b.hand or ()
    box = (x, y, x + w, y + _hand_height(hand, w))
    D.part(img, box, _hand, hand, b.unowned, w, b.words, viewer=b.viewer)


def _draw_focus(b: Board, extra: str | None) -> Image.Image:
    """The board alone (and the hand): a compact preview of a tentative placement."""
    width = BOARD_PX + 2 * GAP
    hand_h = _hand_height(b.hand, width - 2 * GAP) + GAP if b.hand is not None else 0
    img, d = D.canvas(width, BOARD_PX + 2 * GAP + hand_h)
    _board_part(img, b, GAP, GAP, extra)
    if b.hand is not None:
        _hand_part(img, b, GAP, BOARD_PX + 2 * GAP, width - 2 * GAP)
    return img


draw = D.entry_point(model_from_view, draw_board)  # the render entry point for the Gardens (see render.render_png)
