"""Alhambra board images: the building market (currency of each space, price and walls of each tile), the
money display, every player's Alhambra with row/column names as the commands use them, reserve boards,
scores, hand sizes, deck and bag sizes, which scoring rounds have happened, Dirk's tiles in the 2-player
game and the last move highlighted. A private image (viewer set) adds the viewer's hand grouped by currency.
After the game: a results sheet with each player's points per scoring round (majorities and walls).

The Vizier's Favour modules, when on: each player's vizier (active/used), huts taken (of 3) and played bonus
cards (public; unplayed ones as a count), the hut stacks (face-up hut and how many are left), exchange cards
in the money display; the private image adds the viewer's exchange cards, unplayed bonus cards (marking the
playable ones) and their standing order.

The engine state is read in exactly one place, `model_from_view`, which turns the view into the small
`Board` model below; everything else draws that model. Tile facts, the points table and `cell_name` come
from `engine.alhambra.components`, so the image names cells exactly as the commands do.

Words: `model_from_view` builds the model's sentences in the board's language (`Board.words`); the sections
take the `Words` they draw with (`_`), so every cached sprite and part is keyed by the language. Building,
currency and card names are marked here with `N_` (TYPE_WORDS, SHORT, CURRENCY_WORDS), keyed by the engine's
data keys; the engine's own texts (the last move, tile names) go through `_.text`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from engine.alhambra import components as C
from engine.alhambra import geometry as geo
from engine.alhambra.scoring import bonus_counts, hut_counts
from i18n import ENGLISH, N_, Words
from render import _draw as D

# --------------------------------------------------------------------------------------------- colours

TYPE_COLOURS: dict[str, D.RGB] = {  # A2: the printed colours, a little deepened so white text reads on them
    "pavilion": (58, 118, 196),
    "seraglio": (196, 58, 52),
    "arcades": (140, 92, 50),
    "chambers": (236, 232, 222),
    "garden": (56, 140, 64),
    "tower": (124, 72, 160),
    C.FOUNTAIN: (214, 200, 170),
}
CURRENCY_COLOURS: dict[str, D.RGB] = {  # A4: denar blue, dirham green, ducat orange, florin yellow
    "denar": (52, 112, 204),
    "dirham": (40, 140, 72),
    "ducat": (232, 122, 30),
    "florin": (238, 196, 40),
}
WALL: D.RGB = (58, 40, 30)
WALL_LIGHT: D.RGB = (150, 120, 96)
EMPTY_CELL: D.RGB = (236, 228, 210)
HUT_BG: D.RGB = (250, 244, 230)
DIRK_PANEL: D.RGB = (244, 238, 228)
OTHER_CARD: D.RGB = (90, 80, 70)  # a card of another kind in a hand
DIRK = "Dirk"

PALETTE = (
    *TYPE_COLOURS.values(),
    *CURRENCY_COLOURS.values(),
    WALL,
    WALL_LIGHT,
    EMPTY_CELL,
    DIRK_PANEL,
    OTHER_CARD,
)  # colours the PNG palette must keep exactly (and the plain fields labels are drawn on)


# --------------------------------------------------------------------------------------------- model


@dataclass(slots=True)
class PlayerBoard:
    """One player as drawn: their Alhambra, reserve, tiles waiting to be placed, score and hand size."""

    id: str
    name: str
    score: int
    hand_count: int
    grid: dict[tuple[int, int], str]  # cell -> tile id (the fountain included)
    reserve: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()  # bought this turn, to be placed at turn end (A27)
    to_move: bool = False
    last_cells: frozenset[tuple[int, int]] = frozenset()
    extras: tuple[str, ...] = ()  # short facts shown beside the hand size ("Longest wall: 5")
    vizier: bool | None = None  # V1: active / used; None without the module
    extra_counts: dict[str, int] = field(default_factory=dict)  # V27 huts + V63 played bonus cards, per type
    bonus_played: tuple[str, ...] | None = None  # V62: played bonus cards (tile ids); None without the module


@dataclass(slots=True)
class Board:
    players: list[PlayerBoard]
    market: list[tuple[str, str | None]]  # (currency, tile id or None) per space 1..4 (A6)
    display: list[tuple[str, int] | str]  # money cards as (currency, value); other cards by a short label
    deck_size: int
    bag_size: int
    scorings_done: tuple[int, ...]
    dirk: tuple[str, ...] | None = None  # Dirk's tiles (A61) in the 2-player game
    dirk_score: int = 0
    hand: list[tuple[str, int] | str] | None = None  # the viewer's cards (private image)
    viewer: str | None = None
    last_move: str = ""
    over: bool = False
    results: D.Results | None = None  # the final breakdown: a column per scoring round part, the total last
    market_last: frozenset[int] = frozenset()  # market spaces refilled or emptied by the last move
    notes: list[str] = field(default_factory=list)
    huts: list[tuple[str | None, int]] | None = None  # V21: per type, the face-up hut (None: used up) and count
    bonus_hand: list[tuple[str, bool]] | None = None  # the viewer's unplayed bonus cards (tile, playable now)
    bonus_auto: str = ""  # the viewer's standing order (V66)
    vizier_line: str = ""  # V12: who may use a vizier right now
    words: Words = ENGLISH  # the language of the model's sentences and of the image


# --------------------------------------------------------------------------------------------- reading the view


EXCHANGE = "exchange:"  # prefix of an exchange card's label: "exchange:denar/florin" (V40)
AUTO_TEXT = {  # V66: a player's standing order for their bonus cards
    # i18n: when bonus cards are played automatically (after "automatic play:")
    "every": N_("before every scoring"),
    # i18n: when bonus cards are played automatically (after "automatic play:")
    "final": N_("before the final scoring only"),
    # i18n: when bonus cards are played automatically (after "automatic play:"): never
    "never": N_("never"),
}


def _card(card: int, _: Words = ENGLISH) -> tuple[str, int] | str:
    if C.is_money(card):
        cur, value = C.card_key(card)
        return C.CURRENCIES[cur], value
    if C.is_exchange(card):
        a, b = C.EXCHANGE_PAIRS[card]
        return f"{EXCHANGE}{C.CURRENCIES[a]}/{C.CURRENCIES[b]}"
    if card == C.HIDDEN_CARD:
        # i18n: a card whose face is hidden
        return _("hidden")
    # i18n: a card the image has no picture for, with its number (two lines)
    return _("card\n{number}", number=card)


def _last_move(
    view: Any, label: Mapping[str, str], _: Words = ENGLISH
) -> tuple[str, dict[str, set[tuple[int, int]]], frozenset[int]]:
    """The last turn: the latest move in words, the cells its player's turn filled, the market spaces it used.

    The engine keeps them in `view.marks` as moves happen (`engine.alhambra.marks.mark`): the latest move's player
    and words, and per player what their moves since another player's last turn move placed and bought from
    (another player's free action, a bonus card, does not end a turn)."""
    marks = view.marks
    who = marks.player
    if who is None:
        return "", {}, frozenset()
    cells = {who: set(marks.cells.get(who, ()))}
    # i18n: a player's name and what they did, after "Last move:" ("Ana buys the Tower (13)")
    move = _("{who} {what}", who=label.get(who, who), what=marks.text)
    return move, cells, frozenset(marks.spaces.get(who, ()))


def model_from_view(view: Any, viewer: str | None, names: Mapping[str, str] | None, _: Words = ENGLISH) -> Board:
    """The only function that reads engine state fields (engine.alhambra.state.GameState); its sentences in the
    language of `_`."""
    from engine import get_rules
    from engine.alhambra.rules import AlhambraRules

    rules = get_rules("alhambra")
    assert isinstance(rules, AlhambraRules)  # the registry's rules of this game
    movers = set(rules.to_move(view))
    label = {p: D.player_label(p, view.players, names, _) for p in view.players}
    last_text, last_cells, last_spaces = _last_move(view, label, _)
    options = view.options or {}
    players = []
    for p, seat in zip(view.players, view.seats, strict=True):
        wall = _longest_wall(frozenset(seat.alhambra.items()))
        if any(options.get(m) for m in ("huts", "bonus")):
            # i18n: the length of a player's longest wall (short form, beside other facts)
            extras = [_("Wall: {n}", n=wall)]
        else:
            # i18n: the length of a player's longest wall
            extras = [_("Longest wall: {n}", n=wall)]
        if options.get("huts"):
            # i18n: Worker's Huts a player has taken, of the most they may take ("Huts 1/3")
            extras.append(_("Huts {taken}/{limit}", taken=seat.huts_taken, limit=C.HUT_LIMIT))
        if options.get("bonus"):
            # i18n: how many secret bonus cards a player holds
            extras.append(_("Bonus: {n} secret", n=len(seat.bonus_hand)))
        players.append(
            PlayerBoard(
                id=p,
                name=label[p],
                score=seat.score,
                hand_count=len(seat.hand),
                grid=dict(seat.alhambra),
                reserve=tuple(seat.reserve),
                pending=tuple(seat.pending),
                to_move=p in movers,
                last_cells=frozenset(c for c in last_cells.get(p, ()) if c in seat.alhambra),
                extras=tuple(extras),
                vizier=seat.vizier if options.get("vizier") else None,
                extra_counts=_extra_counts(seat, options),
                bonus_played=tuple(seat.bonus_played) if options.get("bonus") else None,
            )
        )
    board = Board(
        players=players,
        market=[(C.CURRENCIES[i], t) for i, t in enumerate(view.market)],
        display=[_card(c, _) for c in view.display],
        deck_size=len(view.deck),
        bag_size=len(view.bag),
        scorings_done=tuple(r.round for r in view.scorings),
        dirk=tuple(view.dirk) if view.two_player else None,
        dirk_score=view.dirk_score,
        viewer=viewer,
        last_move=last_text,
        over=rules.is_over(view),
        market_last=last_spaces,
        words=_,
    )
    if options.get("huts"):
        board.huts = [(stack[-1] if stack else None, len(stack)) for stack in view.huts]
    if view.window and view.phase == "action":  # V12 (who could pay exactly is hidden: hands are secret)
        who = label[view.current_player]
        if viewer in view.players and viewer in rules.vizier_claimants(view):
            board.vizier_line = _(
                "Vizier window: until {who} acts, an active vizier may buy a tile at its exact price (you can)",
                who=who,
            )
        else:
            board.vizier_line = _(
                "Vizier window: until {who} acts, an active vizier may buy a tile at its exact price", who=who
            )
    if viewer is not None and viewer in view.players:
        seat = view.seat(viewer)
        board.hand = [_card(c, _) for c in seat.hand if c != C.HIDDEN_CARD]
        if options.get("bonus"):
            built = set(seat.alhambra.values())
            board.bonus_hand = [(c, c in built) for c in seat.bonus_hand]
            board.bonus_auto = seat.bonus_auto
    if board.over:
        board.results = _results_from(view, rules, _)
    return board


@functools.lru_cache(maxsize=256)
def _longest_wall(cells: frozenset[tuple[tuple[int, int], str]]) -> int:
    """The engine's longest wall (A48) of an Alhambra, remembered: most moves leave most Alhambras as they were."""
    return geo.longest_wall(dict(cells))


def _extra_counts(seat: Any, options: Mapping[str, Any]) -> dict[str, int]:
    """V27, V63: buildings that huts and played bonus cards add (the engine's own scoring functions)."""
    out: dict[str, int] = {}
    if options.get("huts"):
        out.update(hut_counts(seat.alhambra))
    if options.get("bonus"):
        for t, k in bonus_counts(seat.bonus_played).items():
            out[t] = out.get(t, 0) + k
    return out


def _results_from(view: Any, rules: Any, _: Words = ENGLISH) -> D.Results:
    """A43-A49, A52: majorities and wall points of each scoring round, per player (and Dirk), and the total."""
    columns: list[str] = []
    per: dict[str, list[int]] = {p: [] for p in view.players}
    if view.two_player:
        per[DIRK] = []
    for rnd in view.scorings:
        # i18n: results column: the majority points of scoring round N ("R1 buildings")
        columns.append(_("R{round} buildings", round=rnd.round))
        # i18n: results column: the wall points of scoring round N ("R1 walls")
        columns.append(_("R{round} walls", round=rnd.round))
        got = {(line.player if line.player is not None else DIRK): line for line in rnd.lines}
        for who, vals in per.items():
            line = got.get(who)
            vals += [sum(line.majorities.values()), line.wall] if line else [0, 0]
    # i18n: results column: a player's final score
    columns.append(_("Total"))
    for p, seat in zip(view.players, view.seats, strict=True):
        per[p].append(seat.score)
    notes = []
    if view.two_player:
        per[DIRK].append(view.dirk_score)
        notes.append(_("Dirk scores for majorities only and cannot win (A65, A68)."))
    if view.removed:
        tiles = ", ".join(_.text(C.tile_name(t)) for t in view.removed)
        # i18n: under the results: the tiles players had to remove from their Alhambras; {tiles}: their names
        notes.append(_("Left the game at the end (A51): {tiles}", tiles=tiles))
    return D.Results(
        columns=tuple(columns),
        rows={k: tuple(v) for k, v in per.items()},
        winners=tuple(rules.winners(view)),
        notes=tuple(notes),
    )


# --------------------------------------------------------------------------------------------- sprites


def _walls(d: ImageDraw.ImageDraw, walls: int, x0: float, y0: float, size: float) -> None:
    """City walls as thick dark bands with merlons, so they read at a glance (A3)."""
    t = max(4, round(size * 0.13))
    x1, y1 = x0 + size - 1, y0 + size - 1
    bands = {
        C.N: (x0, y0, x1, y0 + t),
        C.S: (x0, y1 - t, x1, y1),
        C.W: (x0, y0, x0 + t, y1),
        C.E: (x1 - t, y0, x1, y1),
    }
    for bit, box in bands.items():
        if walls & bit:
            d.rectangle(box, fill=WALL)
            # merlons: light notches along the band's outer half
            bx0, by0, bx1, by1 = box
            horizontal = bit in (C.N, C.S)
            length = (bx1 - bx0) if horizontal else (by1 - by0)
            n = max(3, int(length // max(6, t * 1.6)))
            step = length / n
            for i in range(n):
                if i % 2 == 0:
                    continue
                a = (bx0 if horizontal else by0) + i * step
                if horizontal:
                    ny0 = by0 if bit == C.N else by1 - t / 2.5
                    d.rectangle((a, ny0, a + step - 1, ny0 + t / 2.5), fill=WALL_LIGHT)
                else:
                    nx0 = bx0 if bit == C.W else bx1 - t / 2.5
                    d.rectangle((nx0, a, nx0 + t / 2.5, a + step - 1), fill=WALL_LIGHT)


TYPE_WORDS = {**C.TYPE_NAMES, C.FOUNTAIN: N_("Fountain")}  # A2: the building types' names, and the fountain
SHORT = {  # the same, short enough for a small tile (about 6 letters)
    # i18n: Pavilion, abbreviated to fit a small tile
    "pavilion": N_("Pavil."),
    # i18n: Seraglio, abbreviated to fit a small tile
    "seraglio": N_("Serag."),
    # i18n: Arcades, abbreviated to fit a small tile
    "arcades": N_("Arcad."),
    # i18n: Chambers, abbreviated to fit a small tile
    "chambers": N_("Chamb."),
    # i18n: Garden, abbreviated to fit a small tile (if needed)
    "garden": N_("Garden"),
    # i18n: Tower, abbreviated to fit a small tile (if needed)
    "tower": N_("Tower"),
    # i18n: Fountain, abbreviated to fit a small tile
    C.FOUNTAIN: N_("Fount."),
}
LONG = TYPE_WORDS
CURRENCY_WORDS = {  # A4: the currencies' names (the engine's keys)
    "denar": N_("denar"),
    "dirham": N_("dirham"),
    "ducat": N_("ducat"),
    "florin": N_("florin"),
}


@functools.lru_cache(maxsize=1024)  # sizes vary with the Alhambras, so bounded
def tile_sprite(tile_id: str, size: int, price: bool = True, _: Words = ENGLISH) -> Image.Image:
    """One tile drawn once per size (and language) and cached: colour, pictogram, type name, price, walls.

    Callers only paste it; never draw on the returned image (it is shared).
    """
    tile = C.TILES[tile_id]
    bg = TYPE_COLOURS[tile.type]
    ink = D.contrast(bg)
    img = Image.new("RGB", (size, size), bg)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, size - 1, size - 1), outline=D.mix(bg, D.INK, 0.55), width=max(1, size // 40))
    t = max(4, round(size * 0.13))
    if tile.hut:  # V20: a Worker's Hut: its colour, a hut pictogram, "Hut", no price; it is not a building
        _hut_face(d, tile.type, size, t, _)
        _walls(d, tile.walls, 0, 0, size)
        return img
    inner = size - 2 * t
    label_size = max(10, round(size * 0.19))
    show_label = size >= 56
    icon_h = inner * (0.56 if show_label else 0.8)
    icon_w = min(inner * 0.8, icon_h * 1.15)
    cx = size / 2
    iy0 = t + inner * 0.06
    D.building_icon(d, tile.type, (cx - icon_w / 2, iy0, cx + icon_w / 2, iy0 + icon_h), ink)
    if show_label:
        name = _.text(LONG[tile.type] if size >= 96 else SHORT[tile.type])
        name, fsize = D.fit_text(name, inner, label_size, bold=True, min_size=9)
        D.text(d, (cx, size - t - 1), name, fsize, ink, bold=True, anchor="md")
    if price and tile.type != C.FOUNTAIN and size >= 36:
        ps = max(12, round(size * 0.19))
        r = ps * 0.72
        px, py = t + r * 0.8, t + r * 0.8
        d.ellipse((px - r, py - r, px + r, py + r), fill=D.WHITE, outline=D.INK, width=1)
        D.text(d, (px, py), str(tile.price), ps, D.INK, bold=True, anchor="mm")
    _walls(d, tile.walls, 0, 0, size)
    return img


def _hut_face(d: ImageDraw.ImageDraw, typ: str, size: int, t: int, _: Words) -> None:
    """A hut: a light field framed in its type's colour, a small hut (roof and door) in that colour, 'Hut' (where
    the word fits whole: a small tile in a language with a longer word shows the pictogram alone)."""
    col = TYPE_COLOURS[typ]
    inner = size - 2 * t
    band = max(3, round(size * 0.08))
    d.rectangle((t, t, size - 1 - t, size - 1 - t), fill=HUT_BG, outline=col, width=band)
    ink = D.mix(col, D.INK, 0.25) if typ == "chambers" else col
    cx = size / 2
    hw = inner * 0.34
    top = t + inner * 0.16
    base = t + inner * (0.62 if size >= 56 else 0.8)
    roof = top + (base - top) * 0.45
    d.polygon([(cx - hw * 1.2, roof), (cx, top), (cx + hw * 1.2, roof)], fill=ink)
    d.rectangle((cx - hw, roof, cx + hw, base), fill=ink)
    d.rectangle((cx - hw * 0.3, roof + (base - roof) * 0.35, cx + hw * 0.3, base), fill=HUT_BG)
    if size >= 56:
        # i18n: a Worker's Hut of a building type on a tile ("Pavil. hut"); {type}: the type, abbreviated
        name = _("{type} hut", type=_.text(SHORT[typ])) if size >= 96 else _("Hut")
        if D.fits(name, inner - 2 * band, max(10, round(size * 0.17)), True, 9):  # else the pictogram alone says it
            shown, fsize = D.fit_text(name, inner - 2 * band, max(10, round(size * 0.17)), bold=True, min_size=9)
            D.text(d, (cx, size - t - band - 1), shown, fsize, D.INK, bold=True, anchor="md")


@functools.cache
def exchange_sprite(first: str, second: str, w: int, h: int, _: Words = ENGLISH) -> Image.Image:
    """A Bureau de Change card (V40): its two currencies as halves, named in words, 'exchange' across."""
    img = Image.new("RGB", (w, h), D.BG)
    d = ImageDraw.Draw(img)
    r = max(4, w // 8)
    a, b = CURRENCY_COLOURS[first], CURRENCY_COLOURS[second]
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=r, fill=b)
    d.rounded_rectangle((0, 0, w - 1, h // 2), radius=r, fill=a)
    d.rectangle((0, r, w - 1, h // 2), fill=a)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=r, outline=D.INK, width=2)
    band = max(14, h // 5)
    d.rectangle((2, h // 2 - band // 2, w - 3, h // 2 + band // 2), fill=D.WHITE)
    size = max(10, min(14, round(h * 0.15)))
    # i18n: across a Bureau de Change card (V40), between its two currencies
    shown, fs = D.fit_text(_("exchange"), w - 8, size, bold=True, min_size=8)
    D.text(d, (w / 2, h / 2), shown, fs, D.INK, bold=True, anchor="mm")
    for name, col, y in ((first, a, h * 0.22), (second, b, h * 0.78)):
        shown, fs = D.fit_text(_.text(CURRENCY_WORDS[name]), w - 6, size + 1, bold=True, min_size=8)
        D.text(d, (w / 2, y), shown, fs, D.contrast(col), bold=True, anchor="mm")
    return img


@functools.cache
def bonus_sprite(tile_id: str, w: int, h: int, dim: bool = False, _: Words = ENGLISH) -> Image.Image:
    """A bonus card (V60): the depicted building (type, price, no walls) and '+1', in the type's colour."""
    tile = C.TILES[tile_id]
    col = TYPE_COLOURS[tile.type]
    img = Image.new("RGB", (w, h), D.BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(4, w // 7), fill=D.WHITE, outline=col, width=3)
    s = min(w - 10, round(h * 0.55))
    D.paste(img, tile_sprite(tile_id, s, True, _), ((w - s) // 2, 5))
    D.text(d, (w / 2, h - 4), "+1", max(12, round(h * 0.24)), D.GOOD, bold=True, anchor="md")
    if dim:  # in hand but its building is not in the Alhambra yet: not playable (V62)
        veil = Image.new("RGB", (w, h), D.WHITE)
        img = Image.blend(img, veil, 0.45)
    return img


def _exchange_label(card: Any) -> tuple[str, str] | None:
    if isinstance(card, str) and card.startswith(EXCHANGE):
        first, second = card[len(EXCHANGE) :].split("/")
        return first, second
    return None


@functools.cache
def card_sprite(currency: str, value: int, w: int, h: int, _: Words = ENGLISH) -> Image.Image:
    """A money card: currency colour, big value, currency name in words (A4: never colour alone)."""
    col = CURRENCY_COLOURS[currency]
    img = Image.new("RGB", (w, h), D.BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(4, w // 8), fill=col, outline=D.mix(col, D.INK, 0.6), width=2)
    ink = D.contrast(col)
    D.text(d, (w / 2, h * 0.42), str(value), round(h * 0.45), ink, bold=True, anchor="mm")
    name, size = D.fit_text(_.text(CURRENCY_WORDS[currency]), w - 6, max(12, round(h * 0.2)), bold=True, min_size=8)
    D.text(d, (w / 2, h - 4), name, size, ink, bold=True, anchor="md")
    return img


def _other_card(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], label: str) -> None:  # label: in words
    """A non-money card in the display (an expansion's exchange card, a face-down card)."""
    D.panel(d, box, fill=OTHER_CARD, edge=D.INK, radius=6)
    x0, y0, x1, y1 = box
    lines = label.split("\n")
    y = (y0 + y1) / 2 - (len(lines) - 1) * 9
    for line in lines:
        shown, size = D.fit_text(line, x1 - x0 - 6, 14, bold=True, min_size=9)
        D.text(d, ((x0 + x1) / 2, y), shown, size, D.WHITE, bold=True, anchor="mm")
        y += 18


# --------------------------------------------------------------------------------------------- layout pieces

GAP = 14
HEADER_H = 50
SMALL = 48  # reserve, pending and Dirk tiles
BONUS_W, BONUS_H = 54, 76  # bonus cards (V60)
XW, XH = 66, 92  # exchange cards (V40), as big as the display's cards so their words fit
HUT_STACK = 64  # the face-up huts (V21)
HUTS_H = 40 + HUT_STACK + 14


def _split_name(cell: tuple[int, int]) -> tuple[str, str]:
    """Column and row parts of the engine's cell name ('M13' -> ('M', '13'); '@-1:12' -> ('@-1', '12'))."""
    name = C.cell_name(cell)
    if name.startswith("@"):
        col, row = name[1:].split(":")
        return "@" + col, row
    i = 0
    while i < len(name) and name[i].isalpha():
        i += 1
    return name[:i], name[i:]


def _bbox(grid: Mapping[tuple[int, int], str]) -> tuple[int, int, int, int]:
    """Bounding box of the Alhambra enlarged by one ring of empty cells (where the next tiles can go)."""
    xs = [x for x, _ in grid] or [0]
    ys = [y for _, y in grid] or [0]
    return min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1


def _draw_grid(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    grid: Mapping[tuple[int, int], str],
    origin: tuple[int, int],
    cell: int,
    bbox: tuple[int, int, int, int],
    marks: frozenset[tuple[int, int]] = frozenset(),
    _: Words = ENGLISH,
) -> None:
    """One Alhambra with column letters on top and row numbers on the left, named as the commands name cells (each
    line of names a part of its own on the panel's fill, `_column_names` and `_row_names`: shared by every
    Alhambra of that extent and cell size, in every game), the empty cells of each row filled at once through a
    mask drawn once per row length and cell size (`_empty_row`, shared too), the tiles pasted over their cells
    (each covers its cell)."""
    ox, oy = origin
    bx0, by0, bx1, by1 = bbox
    label = max(14, min(18, cell // 3))
    text_w = D.text_size("88", label, True)[0] + 8
    gx, gy = ox + text_w, oy + label + 8
    cols = tuple(_split_name((x, by0))[0] for x in range(bx0, bx1 + 1))
    rows = tuple(_split_name((bx0, y))[1] for y in range(by0, by1 + 1))
    top = (ox, oy - NAMES_PAD, gx + len(cols) * cell + NAMES_PAD, gy - 1)
    D.part(img, top, _column_names, cols, label, cell, text_w, NAMES_PAD, bg=D.PANEL)
    left = (ox - NAMES_PAD, gy, gx - 1, gy + len(rows) * cell - 1)
    D.part(img, left, _row_names, rows, label, cell, text_w, NAMES_PAD, bg=D.PANEL)
    empty = _empty_row(bx1 - bx0 + 1, cell)
    for y in range(by1 - by0 + 1):
        D.fill_mask(img, EMPTY_CELL, (gx, gy + y * cell), empty)
    for (x, y), tid in grid.items():
        D.paste(img, tile_sprite(tid, cell, True, _), (gx + (x - bx0) * cell, gy + (y - by0) * cell))
    for x, y in sorted(marks):
        cx, cy = gx + (x - bx0) * cell, gy + (y - by0) * cell
        D.highlight_box(d, (cx + 2, cy + 2, cx + cell - 3, cy + cell - 3), width=max(4, cell // 14))


NAMES_PAD = 4  # the names' parts reach this far beyond the grid's edges (a name may be wider than its cell)


def _column_names(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    cols: tuple[str, ...],
    label: int,
    cell: int,
    lw: int,
    pad: int,
) -> None:
    """The column names over an Alhambra's grid, the box's corner at (x, y): the grid's left edge at x + lw, the
    names' line `pad` below y."""
    for i, col in enumerate(cols):
        D.text(d, (x + lw + i * cell + cell / 2, y + pad + label / 2 + 2), col, label, D.MUTED, bold=True, anchor="mm")


def _row_names(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    rows: tuple[str, ...],
    label: int,
    cell: int,
    lw: int,
    pad: int,
) -> None:
    """The row names left of an Alhambra's grid, whose top-left corner is at (x + pad + lw, y)."""
    for i, row in enumerate(rows):
        D.text(d, (x + pad + lw - 6, y + i * cell + cell / 2), row, label, D.MUTED, bold=True, anchor="rm")


@functools.lru_cache(maxsize=64)  # ~10-50 KiB each (a byte a pixel): ~3 MiB at most
def _empty_row(cols: int, cell: int) -> Image.Image:
    """The mask ("1") of a row of `cols` empty cells: each a square 1 pixel inside its cell."""
    mask = Image.new("1", (cols * cell, cell), 0)
    d = ImageDraw.Draw(mask)
    for c in range(cols):
        d.rectangle((c * cell + 1, 1, c * cell + cell - 2, cell - 2), fill=1)
    return mask


def _grid_size(bbox: tuple[int, int, int, int], cell: int) -> tuple[int, int]:
    bx0, by0, bx1, by1 = bbox
    label = max(14, min(18, cell // 3))
    text_w = D.text_size("88", label, True)[0] + 8
    return text_w + (bx1 - bx0 + 1) * cell, label + 8 + (by1 - by0 + 1) * cell


def _type_counts(grid: Mapping[tuple[int, int], str], extra_counts: Mapping[str, int]) -> dict[str, int]:
    """A44 (with V27/V63: what huts and played bonus cards add), as a scoring round would count now."""
    counts = dict.fromkeys(C.TYPES, 0)
    for tid in grid.values():
        t = C.TYPE_OF.get(tid)
        if t in counts:
            counts[t] += 1
    for t, k in extra_counts.items():
        counts[t] += k
    return counts


COUNT_ICON = 30


@functools.cache
def type_icon(typ: str, bg: D.RGB) -> Image.Image:
    """A building type's chip in the counts strip (its colour, its pictogram) on `bg`, drawn once."""
    icon = COUNT_ICON
    img = Image.new("RGB", (icon + 1, icon + 1), bg)
    d = ImageDraw.Draw(img)
    col = TYPE_COLOURS[typ]
    d.rounded_rectangle((0, 0, icon, icon), radius=5, fill=col, outline=D.mix(col, D.INK, 0.5))
    D.building_icon(d, typ, (3, 3, icon - 3, icon - 3), D.contrast(col))
    return img


def _counts_strip(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    counts: Mapping[str, int],
    w: int,
    bg: D.RGB = D.PANEL,
) -> int:
    """Buildings per type (what majorities are decided on, A44) as icon + number, on a `bg` panel. Returns the
    height."""
    slot = w // len(C.TYPES)
    icon = COUNT_ICON
    for i, t in enumerate(C.TYPES):
        sx = x + i * slot
        D.paste(img, type_icon(t, bg), (sx, y))
        c = counts.get(t, 0)
        D.text(d, (sx + icon + 6, y + icon / 2), str(c), 22, D.INK if c else D.MUTED, bold=True, anchor="lm")
    return icon


def _row_title(title: str, w: int, size: int) -> tuple[str, int]:
    """A row's title before its tiles or cards, at most half the row's width `w` (shortened if longer)."""
    return D.fit_text(title, w // 2, size, True, min_size=size)


def _small_tiles(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    tiles: Sequence[str],
    size: int,
    title: str,
    _: Words = ENGLISH,
) -> int:
    """A titled row (wrapping) of small tiles; returns the height used."""
    title = _row_title(title, w, 15)[0]
    D.text(d, (x, y), title, 15, D.INK, bold=True)
    tw = D.text_size(title, 15, True)[0] + 10
    if not tiles:
        D.text(d, (x + tw, y), "—", 15, D.MUTED, bold=True)
        return 20
    per_row = max(1, (w - tw) // (size + 4))
    for i, tid in enumerate(tiles):
        r, c = divmod(i, per_row)
        D.paste(img, tile_sprite(tid, size, True, _), (x + tw + c * (size + 4), y + r * (size + 4)))
    rows = (len(tiles) + per_row - 1) // per_row
    return max(20, rows * (size + 4))


def _tiles_rows(n: int, w: int, title: str, size: int) -> int:
    tw = D.text_size(_row_title(title, w, 15)[0], 15, True)[0] + 10
    per_row = max(1, (w - tw) // (size + 4))
    return max(20, ((n + per_row - 1) // per_row) * (size + 4)) if n else 20


# --------------------------------------------------------------------------------------------- sections


def _header(img: Image.Image, d: ImageDraw.ImageDraw, b: Board, width: int) -> None:
    _ = b.words
    rounds = "   ".join(f"{i} {'✓' if i in b.scorings_done else '–'}" for i in (1, 2, 3))
    # i18n: the header: which of the 3 scoring rounds have happened ("1 ✓   2 –   3 –")
    done = _("Scorings done: {rounds}", rounds=rounds)
    left = _("Alhambra") + "    " + done
    # i18n: the header: cards left in the deck
    deck = _("Deck {n} card", "Deck {n} cards", n=b.deck_size)
    # i18n: the header: building tiles left in the bag
    right = deck + "  ·  " + _("Bag {n} tile", "Bag {n} tiles", n=b.bag_size)
    D.title_bar(d, (GAP, GAP, width - GAP, GAP + HEADER_H - 8), left, size=20, right=right, on=(img, D.BG))


def _market_size(tile: int) -> tuple[int, int]:
    return 4 * (tile + 16) + 20, 40 + 30 + tile + 14


def _market(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    market: Sequence[tuple[str, str | None]],
    market_last: frozenset[int],
    tile: int,
    _: Words = ENGLISH,
) -> None:
    """The 4 market spaces (A6): currency named above each, the tile with its price and walls."""
    space_w = tile + 16
    w, h = _market_size(tile)
    D.panel(d, (x, y, x + w, y + h))
    shown, size = D.fit_text(_("Building market"), w - 24, 18, bold=True)
    D.text(d, (x + 12, y + 10), shown, size, D.INK, bold=True)
    for i, (cur, tid) in enumerate(market):
        sx = x + 10 + i * space_w
        col = CURRENCY_COLOURS[cur]
        D.rounded(d, (sx, y + 38, sx + space_w - 8, y + 38 + 26), 6, fill=col)
        label, size = D.fit_text(f"{i + 1} {_.text(CURRENCY_WORDS[cur])}", space_w - 14, 15, bold=True, min_size=10)
        D.text(d, (sx + (space_w - 8) / 2, y + 51), label, size, D.contrast(col), bold=True, anchor="mm")
        ty = y + 38 + 30
        tx = sx + (space_w - 8 - tile) // 2
        if tid is None:
            d.rectangle((tx, ty, tx + tile - 1, ty + tile - 1), fill=EMPTY_CELL, outline=D.PANEL_EDGE)
            # i18n: an empty market space or display
            shown, size = D.fit_text(_("empty"), tile - 8, 15, bold=True, min_size=10)
            D.text(d, (tx + tile / 2, ty + tile / 2), shown, size, D.MUTED, bold=True, anchor="mm")
        else:
            D.paste(img, tile_sprite(tid, tile, True, _), (tx, ty))
        if i in market_last:
            D.highlight_box(d, (tx, ty, tx + tile - 1, ty + tile - 1), width=4)


DISPLAY_W = 4 * (66 + 8) + 16


def _display(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    display: Sequence[tuple[str, int] | str],
    h: int,
    _: Words = ENGLISH,
) -> None:
    """The money display (A7): four face-up cards."""
    cw, ch = 66, 92
    w = DISPLAY_W
    D.panel(d, (x, y, x + w, y + h))
    shown, size = D.fit_text(_("Money display"), w - 24, 18, bold=True)
    D.text(d, (x + 12, y + 10), shown, size, D.INK, bold=True)
    cy = y + 38 + (h - 38 - ch) // 2
    for i, card in enumerate(display):
        cx = x + 12 + i * (cw + 8)
        pair = _exchange_label(card)
        if isinstance(card, tuple):
            D.paste(img, card_sprite(card[0], card[1], cw, ch, _), (cx, cy))
        elif pair:  # V42: exchange cards lie in the display like money
            D.paste(img, exchange_sprite(pair[0], pair[1], cw, ch, _), (cx, cy))
        else:
            _other_card(d, (cx, cy, cx + cw, cy + ch), card)
    if not display:
        shown, size = D.fit_text(_("empty"), w - 24, 16, bold=True)
        D.text(d, (x + w / 2, y + h / 2 + 10), shown, size, D.MUTED, bold=True, anchor="mm")


def _hut_stacks(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    huts: Sequence[tuple[str | None, int]],
    w: int,
    _: Words = ENGLISH,
) -> None:
    """V21/V22: the six hut stacks: the face-up hut of each (with its walls) and how many huts are left."""
    D.panel(d, (x, y, x + w, y + HUTS_H))
    title, tsize = D.fit_text(_("Worker's Huts"), w // 3, 18, bold=True)
    D.text(d, (x + 12, y + 10), title, tsize, D.INK, bold=True)
    # i18n: beside the Worker's Huts (V21-V23)
    note = _("take a face-up hut as your action (free, no extra action), at most {limit} per player", limit=C.HUT_LIMIT)
    tw = D.text_size(title, tsize, True)[0]
    shown, size = D.fit_text(note, w - tw - 40, 15, bold=True)
    D.text(d, (x + tw + 26, y + 13), shown, size, D.MUTED, bold=True)
    slot = (w - 24) // len(C.TYPES)
    for i, (typ, (hut, left)) in enumerate(zip(C.TYPES, huts, strict=False)):
        sx, sy = x + 12 + i * slot, y + 40
        if hut is None or hut == "hidden":
            d.rectangle((sx, sy, sx + HUT_STACK - 1, sy + HUT_STACK - 1), fill=EMPTY_CELL, outline=D.PANEL_EDGE)
            # i18n: a hut stack that is used up
            shown, size = D.fit_text(_("none"), HUT_STACK - 6, 14, bold=True, min_size=9)
            D.text(d, (sx + HUT_STACK / 2, sy + HUT_STACK / 2), shown, size, D.MUTED, bold=True, anchor="mm")
        else:
            D.paste(img, tile_sprite(hut, HUT_STACK, True, _), (sx, sy))
        room = slot - HUT_STACK - 12
        shown, size = D.fit_text(_.text(TYPE_WORDS[typ]), room, 15, bold=True, min_size=10)
        D.text(d, (sx + HUT_STACK + 8, sy + 14), shown, size, D.INK, bold=True, anchor="lm")
        # i18n: huts left in a stack
        shown, size = D.fit_text(_("{n} left", "{n} left", n=left), room, 15, bold=True, min_size=10)
        D.text(
            d,
            (sx + HUT_STACK + 8, sy + 40),
            shown,
            size,
            D.MUTED if left else D.HIGHLIGHT,
            bold=True,
            anchor="lm",
        )


def _points_table(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, _: Words = ENGLISH) -> None:
    """The majority points table (A2/A45), as printed on the reserve boards."""
    D.panel(d, (x, y, x + w, y + h))
    shown, size = D.fit_text(_("Points per scoring round", context="alhambra"), w - 24, 18, bold=True)
    D.text(d, (x + 12, y + 10), shown, size, D.INK, bold=True)
    inner = w - 24
    name_w = 112 if inner >= 360 else 72
    rest = inner - name_w - 26
    cols = [x + 12, x + 12 + 26 + name_w, x + 12 + 26 + name_w + rest * 0.2, x + 12 + 26 + name_w + rest * 0.52]
    head_y = y + 38
    for j in range(3):
        # i18n: a column of the points table: scoring round N, short ("R1")
        title, size = D.fit_text(
            _("R{round}", context="alhambra", round=j + 1), int(cols[2] - cols[1]) - 6, 15, bold=True, min_size=10
        )
        D.text(d, (cols[j + 1], head_y), title, size, D.MUTED, bold=True)
    row_h = (y + h - 8 - (head_y + 22)) / 6
    for i, t in enumerate(C.TYPES):
        ry = head_y + 22 + i * row_h
        col = TYPE_COLOURS[t]
        s = int(min(row_h - 2, 22))
        D.rounded(d, (cols[0], ry, cols[0] + s, ry + s), 4, fill=col, outline=D.mix(col, D.INK, 0.5))
        D.building_icon(d, t, (cols[0] + 2, ry + 2, cols[0] + s - 2, ry + s - 2), D.contrast(col))
        name = _.text(TYPE_WORDS[t] if name_w > 100 else SHORT[t])  # a narrow table: the tiles' short names
        name, size = D.fit_text(name, int(cols[1] - cols[0]) - s - 8, 15, True, 10)
        D.text(d, (cols[0] + s + 6, ry + s / 2), name, size, D.INK, bold=True, anchor="lm")
        for r in (1, 2, 3):
            D.text(d, (cols[r], ry + s / 2), "/".join(map(str, C.POINTS[r][t])), 15, D.INK, bold=True, anchor="lm")


Hand = Sequence[tuple[str, int] | str]


def _hand_groups(hand: Hand) -> tuple[dict[str, list[int]], list[tuple[str, str]], list[str]]:
    """The hand's money cards by currency, its exchange cards, its other cards."""
    groups: dict[str, list[int]] = {c: [] for c in C.CURRENCIES}
    others: list[str] = []
    for card in hand:
        if isinstance(card, tuple):
            groups[card[0]].append(card[1])
        else:
            others.append(card)
    exchange = [pair for pair in map(_exchange_label, others) if pair]
    others = [o for o in others if not _exchange_label(o)]
    return groups, exchange, others


HAND_CARD = 50, 70


def _hand_layout(hand: Hand, bonus_hand: Sequence[tuple[str, bool]] | None, w: int) -> tuple[int, int, int]:
    """Column width, cards per row and height of the hand panel."""
    cw, ch = HAND_CARD
    groups, exchange, others = _hand_groups(hand)
    col_w = (w - 24) // len(C.CURRENCIES)
    per_row = max(1, (col_w - 10) // (cw + 4))
    rows = max(1, *((len(v) + per_row - 1) // per_row for v in groups.values()))
    bonus_h = 0 if bonus_hand is None else BONUS_H + 34
    h = 44 + 36 + rows * (ch + 6) + (XH + 12 if exchange else 0) + bonus_h + (30 if others else 0) + 6
    return col_w, per_row, h


def _hand(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    hand: Hand,
    bonus_hand: Sequence[tuple[str, bool]] | None,
    bonus_auto: str,
    w: int,
    _: Words = ENGLISH,
) -> None:
    """The viewer's hand grouped by currency with totals (private image only)."""
    cw, ch = HAND_CARD
    groups, exchange, others = _hand_groups(hand)
    col_w, per_row, h = _hand_layout(hand, bonus_hand, w)
    rows = max(1, *((len(v) + per_row - 1) // per_row for v in groups.values()))
    bonus_h = 0 if bonus_hand is None else BONUS_H + 34
    D.panel(d, (x, y, x + w, y + h), fill=D.HAND_BG, edge=D.TURN, width=3)
    total = sum(sum(v) for v in groups.values())
    title = _(
        "Your hand (private): {n} card worth {total}",
        "Your hand (private): {n} cards worth {total}",
        n=len(hand),
        total=total,
    )
    shown, size = D.fit_text(title, w - 24, 18, bold=True)
    D.text(d, (x + 12, y + 10), shown, size, D.INK, bold=True)
    for k, cur in enumerate(C.CURRENCIES):
        gx, gy = x + 12 + k * col_w, y + 42
        vals = sorted(groups[cur], reverse=True)
        col = CURRENCY_COLOURS[cur]
        D.rounded(d, (gx, gy, gx + col_w - 12, gy + 30), 6, fill=col)
        # i18n: the sum of a player's cards of one currency
        worth, wsize = _("total {total}", total=sum(vals)), 17
        name, size = _.text(CURRENCY_WORDS[cur]), 17
        room = col_w - 40  # both on the currency's band; when they do not fit, the total keeps at most half
        if D.text_size(name, 17, True)[0] + D.text_size(worth, 17, True)[0] > room:
            worth, wsize = D.fit_text(worth, room // 2, 17, bold=True, min_size=11)
            name, size = D.fit_text(name, room - D.text_size(worth, wsize, True)[0], 17, bold=True, min_size=11)
        D.text(d, (gx + 10, gy + 15), name, size, D.contrast(col), bold=True, anchor="lm")
        D.text(d, (gx + col_w - 22, gy + 15), worth, wsize, D.contrast(col), bold=True, anchor="rm")
        if not vals:
            # i18n: a currency of which the player holds no cards
            shown, size = D.fit_text(_("no cards"), col_w - 16, 15, bold=True)
            D.text(d, (gx + 4, gy + 44), shown, size, D.MUTED, bold=True)
        for i, v in enumerate(vals):
            r, c = divmod(i, per_row)
            D.paste(img, card_sprite(cur, v, cw, ch, _), (gx + c * (cw + 4), gy + 36 + r * (ch + 6)))
    ry = y + 44 + 36 + rows * (ch + 6)
    if exchange:  # V44: exchange cards are kept secret in the hand like money
        title = _row_title(_("Exchange cards:"), w - 24, 17)[0]
        D.text(d, (x + 12, ry + XH / 2), title, 17, D.INK, bold=True, anchor="lm")
        tx = x + 12 + D.text_size(title, 17, True)[0] + 12
        for i, (first, second) in enumerate(exchange):
            D.paste(img, exchange_sprite(first, second, XW, XH, _), (tx + i * (XW + 6), ry))
        ry += XH + 12
    if bonus_hand is not None:  # V61/V62/V66: secret bonus cards, which are playable now, the standing order
        auto = _.text(AUTO_TEXT[bonus_auto]) if bonus_auto in AUTO_TEXT else bonus_auto
        playable = sum(ok for __, ok in bonus_hand)
        # i18n: the viewer's secret bonus cards (V61, V62): how many ({held}), how many ({n}) they can play now
        title = _(
            "Your bonus cards (secret): {held}, {n} playable now",
            "Your bonus cards (secret): {held}, {n} playable now",
            n=playable,
            held=len(bonus_hand),
        )
        # i18n: when the viewer's bonus cards are played for them (V66): {when} is e.g. "before every scoring"
        title += "  ·  " + _("automatic play: {when}", when=auto)
        shown, size = D.fit_text(title, w - 24, 17, bold=True)
        D.text(d, (x + 12, ry + 4), shown, size, D.INK, bold=True)
        for i, (tile, ok) in enumerate(bonus_hand):
            D.paste(img, bonus_sprite(tile, BONUS_W, BONUS_H, not ok, _), (x + 12 + i * (BONUS_W + 8), ry + 30))
        if not bonus_hand:
            # i18n: the viewer holds no bonus cards
            shown, size = D.fit_text(_("none in hand"), w - 24, 15, bold=True)
            D.text(d, (x + 12, ry + 30 + BONUS_H / 2), shown, size, D.MUTED, bold=True, anchor="lm")
        ry += bonus_h
    if others:
        # i18n: other cards in the viewer's hand; {cards}: their names
        line = _("Other cards: {cards}", cards=", ".join(o.replace("\n", " ") for o in others))
        shown, size = D.fit_text(line, w - 24, 16, bold=True)
        D.text(d, (x + 12, ry + 4), shown, size, D.INK, bold=True)


# --------------------------------------------------------------------------------------------- player panels


def _panel_layout(b: Board, width: int) -> tuple[int, int, int]:
    """Columns, panel width and the common cell size so every Alhambra fits its panel."""
    n = len(b.players) + (1 if b.dirk is not None else 0)
    cols = 3 if n >= 5 else 2
    panel_w = (width - (cols + 1) * GAP) // cols
    cell = 72
    for p in b.players:
        bx0, by0, bx1, by1 = _bbox(p.grid)
        ncols, nrows = bx1 - bx0 + 1, by1 - by0 + 1
        avail_w = panel_w - 24 - 34
        cell = min(cell, avail_w // ncols, 520 // nrows)
    return cols, panel_w, max(26, cell)


def _player_panel_height(p: PlayerBoard, panel_w: int, cell: int, grid_h: int, _: Words = ENGLISH) -> int:
    reserve_h = _tiles_rows(len(p.reserve), panel_w - 24, _("Reserve:"), SMALL)
    pending_h = _tiles_rows(len(p.pending), panel_w - 24, _("To place:"), SMALL) + 6 if p.pending else 0
    bonus_h = _bonus_row_height(p.bonus_played, panel_w - 24, _) + 6 if p.bonus_played is not None else 0
    return 52 + 28 + 40 + grid_h + 10 + reserve_h + pending_h + bonus_h + 14


def _bonus_title(w: int, _: Words) -> str:
    # i18n: before a player's played bonus cards (V62)
    return _row_title(_("Bonus cards played:"), w, 15)[0]


def _bonus_row_height(bonus_played: Sequence[str] | None, w: int, _: Words = ENGLISH) -> int:
    tw = D.text_size(_bonus_title(w, _), 15, True)[0] + 10
    per_row = max(1, (w - tw) // (BONUS_W + 6))
    n = len(bonus_played or ())
    return max(20, ((n + per_row - 1) // per_row) * (BONUS_H + 4)) if n else 20


def _bonus_row(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    bonus_played: Sequence[str] | None,
    x: int,
    y: int,
    w: int,
    _: Words = ENGLISH,
) -> int:
    """V62/V63: the player's played bonus cards (public), each one more building of its type."""
    title = _bonus_title(w, _)
    D.text(d, (x, y), title, 15, D.INK, bold=True)
    tw = D.text_size(title, 15, True)[0] + 10
    cards = bonus_played or ()
    if not cards:
        D.text(d, (x + tw, y), "—", 15, D.MUTED, bold=True)
    per_row = max(1, (w - tw) // (BONUS_W + 6))
    for i, tid in enumerate(cards):
        r, c = divmod(i, per_row)
        D.paste(img, bonus_sprite(tid, BONUS_W, BONUS_H, False, _), (x + tw + c * (BONUS_W + 6), y + r * (BONUS_H + 4)))
    return _bonus_row_height(bonus_played, w, _)


def _vizier_chip(img: Image.Image, active: bool, x1: int, y: int, max_w: int, _: Words = ENGLISH) -> int:
    """V1: the vizier's side: active (may be used between turns) or used (inactive), at most `max_w` wide.
    Returns its width."""
    label = _("Vizier: active") if active else _("Vizier: used")
    label = D.fit_text(label, max_w - 12, 15, True, min_size=15)[0]
    w = D.text_size(label, 15, True)[0] + 12
    D.paste_chip(img, (x1 - w, y - 3), label, D.GOOD if active else (170, 160, 150), D.PANEL)
    return w


def _player_panel(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x0: int,
    y0: int,
    p: PlayerBoard,
    dims: tuple[int, int],
    cell: int,
    bbox: tuple[int, int, int, int],
    highlight: frozenset[tuple[int, int]],
    _: Words = ENGLISH,
) -> None:
    """One player's panel of `dims` (width, height) with its top-left corner at (x0, y0): the frame, title and
    info line drawn here, the body below them (buildings, Alhambra, reserve...) a part of its own, so a move
    that only passes the turn or changes a hand size or score does not redraw the Alhambra."""
    x1, y1 = x0 + dims[0], y0 + dims[1]
    box = (x0, y0, x1, y1)
    edge = D.TURN if p.to_move else D.PANEL_EDGE
    D.panel(d, box, edge=edge, width=4 if p.to_move else 2)
    bar = D.TURN if p.to_move else D.INK
    # i18n: a player's name in their panel's title when it is their turn
    name = _("{name}  ▶ to move", name=p.name) if p.to_move else p.name
    # i18n: a player's score (points, abbreviated)
    score = _("{n} pts", "{n} pts", n=p.score)
    D.title_bar(d, (x0 + 6, y0 + 6, x1 - 6, y0 + 44), name, fill=bar, size=19, right=score, on=(img, D.PANEL))
    y = y0 + 52
    chip_w = _vizier_chip(img, p.vizier, x1 - 12, y, (x1 - x0) // 3, _) + 10 if p.vizier is not None else 0
    # i18n: how many cards a player holds
    hand = _("Hand: {n} card", "Hand: {n} cards", n=p.hand_count)
    for sep, least in (("   ·   ", 12), ("  ·  ", 12), (" · ", 10)):  # narrower and smaller before a fact is cut
        info = hand + "".join(f"{sep}{e}" for e in p.extras)
        if D.fits(info, x1 - x0 - 24 - chip_w, 17, True, least):
            break
    shown, size = D.fit_text(info, x1 - x0 - 24 - chip_w, 17, bold=True, min_size=least)
    D.text(d, (x0 + 12, y), shown, size, D.INK, bold=True)
    bottom = y0 + _player_panel_height(p, x1 - x0, cell, _grid_size(bbox, cell)[1], _) - BODY_BOTTOM
    D.part(
        img,
        (x0 + BODY_X, y0 + BODY_Y, x1 - BODY_X, bottom),
        _panel_body,
        x1 - x0,
        p.grid,
        p.extra_counts,
        p.reserve,
        p.pending,
        p.bonus_played,
        p.last_cells | highlight,
        cell,
        bbox,
        _,
        bg=D.PANEL,
    )


# The body of a player's panel: from (BODY_X, BODY_Y) inside the panel to BODY_X from its right edge and
# BODY_BOTTOM above its own height (the body ends 14 px above it): clear of the frame, its rounded corners,
# the title bar and the info line (the vizier chip ends at y + 74), on the panel's fill.
BODY_X, BODY_Y, BODY_BOTTOM = 10, 76, 12


def _panel_body(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    bx: int,
    by: int,
    width: int,
    grid: Mapping[tuple[int, int], str],
    extra_counts: Mapping[str, int],
    reserve: Sequence[str],
    pending: Sequence[str],
    bonus_played: Sequence[str] | None,
    marks: frozenset[tuple[int, int]],
    cell: int,
    bbox: tuple[int, int, int, int],
    _: Words = ENGLISH,
) -> None:
    """A player's buildings per type, Alhambra, reserve, tiles to place and played bonus cards, the panel (`width`
    wide) having its top-left corner at (bx - BODY_X, by - BODY_Y)."""
    x0, y0 = bx - BODY_X, by - BODY_Y
    x1 = x0 + width
    y = y0 + 80
    _counts_strip(img, d, x0 + 12, y, _type_counts(grid, extra_counts), x1 - x0 - 24)
    y += 40
    gw, gh = _grid_size(bbox, cell)
    gx = x0 + (x1 - x0 - gw) // 2
    _draw_grid(img, d, grid, (gx, y), cell, bbox, marks, _)
    y += gh + 10
    # i18n: before a player's reserve tiles (A35)
    y += _small_tiles(img, d, x0 + 12, y, x1 - x0 - 24, reserve, SMALL, _("Reserve:"), _)
    if pending:
        y += 6
        # i18n: before the tiles a player bought this turn and places at its end (A27)
        y += _small_tiles(img, d, x0 + 12, y, x1 - x0 - 24, pending, SMALL, _("To place:"), _)
    if bonus_played is not None:
        y += 6
        y += _bonus_row(img, d, bonus_played, x0 + 12, y, x1 - x0 - 24, _)


def _dirk_panel(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x0: int,
    y0: int,
    tiles: Sequence[str],
    score: int,
    dims: tuple[int, int],
    _: Words = ENGLISH,
) -> None:
    """Dirk, the neutral 2-player collector (A61): his tiles by type and his score (A65, A68)."""
    x1, y1 = x0 + dims[0], y0 + dims[1]
    box = (x0, y0, x1, y1)
    D.panel(d, box, fill=DIRK_PANEL)
    score_text = _("{n} pts", "{n} pts", n=score)
    D.title_bar(d, (x0 + 6, y0 + 6, x1 - 6, y0 + 44), _dirk_name(_), fill=D.MUTED, size=19, right=score_text)
    counts = dict.fromkeys(C.TYPES, 0)
    for tid in tiles:
        if C.TYPE_OF.get(tid) in counts:
            counts[C.TYPE_OF[tid]] += 1
    y = y0 + 54
    # i18n: Dirk's tiles (the neutral player of the 2-player game)
    line = _(
        "{n} tile; they count for majorities only (A61)",
        "{n} tiles; they count for majorities only (A61)",
        n=len(tiles),
    )
    lines, size = D.fit_lines(line, x1 - x0 - 24, 15, bold=True, min_size=11)
    for k, shown in enumerate(lines):  # two lines at most: 30 px
        D.text(d, (x0 + 12, y + k * (size + 1) - (len(lines) - 1) * 4), shown, size, D.MUTED, bold=True)
    y += 30
    _counts_strip(img, d, x0 + 12, y, counts, x1 - x0 - 24, DIRK_PANEL)
    y += 46
    size = SMALL
    per_row = max(1, (x1 - x0 - 24) // (size + 4))
    ordered = sorted(tiles, key=lambda t: (C.TYPES.index(C.TYPE_OF[t]), C.PRICE[t]))
    for i, tid in enumerate(ordered):
        r, c = divmod(i, per_row)
        if y + r * (size + 4) + size > y1 - 6:
            break
        D.paste(img, tile_sprite(tid, size, True, _), (x0 + 12 + c * (size + 4), y + r * (size + 4)))


def _dirk_name(_: Words) -> str:
    # i18n: the neutral player of the 2-player game (A61), as named in the rules
    return _("Dirk (neutral)")


def _dirk_height(b: Board, panel_w: int) -> int:
    per_row = max(1, (panel_w - 24) // (SMALL + 4))
    return 54 + 30 + 46 + ((len(b.dirk or ()) + per_row - 1) // per_row) * (SMALL + 4) + 10


# --------------------------------------------------------------------------------------------- results


def _results(img: Image.Image, d: ImageDraw.ImageDraw, b: Board, x: int, y: int, w: int) -> int:
    """Final breakdown (after A52): one row per player, a column per scoring part, the total last; Dirk last
    (A68: he cannot win)."""
    res = b.results
    if res is None:
        raise ValueError("the results sheet is drawn only once the game is over")
    names = {p.id: p.name for p in b.players}
    if b.dirk is not None:
        names.setdefault(DIRK, _dirk_name(b.words))
    order = sorted(res.rows, key=lambda pid: (pid == DIRK, -res.rows[pid][-1]))
    return D.results_sheet(d, res, names, x, y, w, order=order, _=b.words)


# --------------------------------------------------------------------------------------------- main


def draw_board(b: Board, highlight: Any = None, focus: bool = False) -> Image.Image:
    _ = b.words
    extra: frozenset[tuple[int, int]] = frozenset()
    if highlight is not None:
        cells = [highlight] if isinstance(highlight[0], int) else list(highlight)
        extra = frozenset((int(x), int(y)) for x, y in cells)
    if focus:
        return _draw_focus(b, extra)
    n = len(b.players)
    width = 1460 if n + (1 if b.dirk is not None else 0) >= 5 else 1200
    cols, panel_w, cell = _panel_layout(b, width)
    bboxes = [_bbox(p.grid) for p in b.players]
    grid_hs = [_grid_size(bb, cell)[1] for bb in bboxes]

    # the table: market, display and points table side by side
    tile = 104
    market_h = 0 if b.over else 40 + 30 + tile + 14  # after the game the market is empty: results instead
    results_h = 0
    if b.results is not None:
        results_h = D.results_height(b.results, width - 2 * GAP) + GAP
    # panels in rows; each row as tall as its tallest panel
    slots: list[tuple[str, Any]] = [("p", i) for i in range(n)]
    if b.dirk is not None:
        slots.append(("dirk", None))
    heights = []
    for kind, i in slots:
        if kind == "p":
            heights.append(_player_panel_height(b.players[i], panel_w, cell, grid_hs[i], _))
        else:
            heights.append(_dirk_height(b, panel_w))
    row_heights = [max(heights[r * cols : (r + 1) * cols]) for r in range((len(slots) + cols - 1) // cols)]
    hand_h = 0
    if b.hand is not None:
        hand_h = _hand_layout(b.hand, b.bonus_hand, width - 2 * GAP)[2] + GAP
    last_h = D.LAST_MOVE_H if b.last_move else 0
    last_h += 30 if b.vizier_line else 0
    huts_h = HUTS_H + GAP if b.huts is not None and not b.over else 0
    height = (
        GAP
        + HEADER_H
        + results_h
        + last_h
        + (market_h + GAP if market_h else 0)
        + huts_h
        + sum(rh + GAP for rh in row_heights)
        + hand_h
    )
    img, d = D.canvas(width, height)
    _header(img, d, b, width)
    y = GAP + HEADER_H
    if b.results is not None:
        y += _results(img, d, b, GAP, y, width - 2 * GAP) + GAP
    y += D.last_move_line(d, b.last_move, GAP, y, width - 2 * GAP, _)
    if b.vizier_line:
        shown, size = D.fit_text(b.vizier_line, width - 2 * GAP - 10, 17, bold=True)
        D.text(d, (GAP + 4, y + 2), shown, size, D.GOOD, bold=True)
        y += 30
    if market_h:  # each section is a cached part: drawn again only when what it shows changes
        mw = _market_size(tile)[0]
        D.part(img, (GAP, y, GAP + mw, y + market_h), _market, tuple(b.market), b.market_last, tile, _)
        dx = GAP + mw + GAP
        D.part(img, (dx, y, dx + DISPLAY_W, y + market_h), _display, tuple(b.display), market_h, _)
        px = dx + DISPLAY_W + GAP
        if width - GAP - px >= 260:
            D.part(img, (px, y, width - GAP, y + market_h), _points_table, width - GAP - px, market_h, _)
        y += market_h + GAP
    if huts_h:
        D.part(img, (GAP, y, width - GAP, y + HUTS_H), _hut_stacks, tuple(b.huts or ()), width - 2 * GAP, _)
        y += huts_h
    if b.hand is not None:
        y += _hand_part(img, b, GAP, y, width - 2 * GAP) + GAP
    for r, rh in enumerate(row_heights):
        for c in range(cols):
            k = r * cols + c
            if k >= len(slots):
                break
            x0 = GAP + c * (panel_w + GAP)
            box = (x0, y, x0 + panel_w, y + rh)
            kind, i = slots[k]
            if kind == "p":
                p = b.players[i]
                mark = extra if p.id == b.viewer or not b.viewer else frozenset()
                D.part(img, box, _player_panel, p, (panel_w, rh), cell, bboxes[i], mark, _)
            else:
                D.part(img, box, _dirk_panel, b.dirk or (), b.dirk_score, (panel_w, rh), _)
        y += rh + GAP
    return img


def _hand_part(img: Image.Image, b: Board, x: int, y: int, w: int) -> int:
    """The viewer's hand as a part of their own (keyed by the viewer too). Returns its height."""
    hand, bonus = b.hand or (), b.bonus_hand
    h = _hand_layout(hand, bonus, w)[2]
    hand_t = tuple(hand)
    bonus_t = None if bonus is None else tuple(bonus)
    D.part(img, (x, y, x + w, y + h), _hand, hand_t, bonus_t, b.bonus_auto, w, b.words, viewer=b.viewer)
    return h


def _draw_focus(b: Board, extra: frozenset[tuple[int, int]]) -> Image.Image:
    """A small image of the viewer's own Alhambra (and hand) for a preview panel."""
    me = next((p for p in b.players if p.id == b.viewer), b.players[0])
    width = 760
    bbox = _bbox(me.grid)
    ncols, nrows = bbox[2] - bbox[0] + 1, bbox[3] - bbox[1] + 1
    cell = max(30, min(80, (width - 80) // ncols, 640 // nrows))
    gw, gh = _grid_size(bbox, cell)
    panel_w = width - 2 * GAP
    panel_h = _player_panel_height(me, panel_w, cell, gh, b.words)
    hand_h = _hand_layout(b.hand, b.bonus_hand, panel_w)[2] + GAP if b.hand is not None else 0
    img = D.canvas(width, GAP + panel_h + GAP + hand_h)[0]
    box = (GAP, GAP, width - GAP, GAP + panel_h)
    D.part(img, box, _player_panel, me, (panel_w, panel_h), cell, bbox, extra, b.words, viewer=b.viewer)
    if b.hand is not None:
        _hand_part(img, b, GAP, GAP + panel_h + GAP, panel_w)
    return img


draw = D.entry_point(model_from_view, draw_board)  # the render entry point for Alhambra (see render.render_png)
