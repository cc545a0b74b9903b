"""Alhambra components as fast lookup tables: building tiles (from data/alhambra_tiles.json), money cards,
scoring cards, the points table, the human cell notation ("M13" is the fountain), and the components of the
Vizier's Favour modules (data/alhambra_vizier_components.json): Worker's Huts, exchange cards, bonus cards.

Everything here is immutable and computed once at import time; the rules and the renderers import it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from engine._common import N_, Text, join_texts, load_data, require_data

# --------------------------------------------------------------------------------------------- sides

# Wall sides as bits, so a tile's walls are one small int and "both walled or both open" is a bit test.
N, E, S, W = 1, 2, 4, 8
SIDE_BITS = {"N": N, "E": E, "S": S, "W": W}
# the sides' letters as players read them in a tile's walls ("walls NE"): each language's compass letters
SIDE_LETTERS = {
    "N": N_("N", context="alhambra"),
    "E": N_("E", context="alhambra"),
    "S": N_("S", context="alhambra"),
    "W": N_("W", context="alhambra"),
}
OPPOSITE = {N: S, E: W, S: N, W: E}
# (dx, dy, side of the tile facing that neighbour, side of the neighbour facing back); y grows SOUTH.
NEIGHBOURS = ((0, -1, N, S), (1, 0, E, W), (0, 1, S, N), (-1, 0, W, E))


# --------------------------------------------------------------------------------------------- tiles

TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")  # A2, in table order
# the types' names as players read them (marked constants: `_.text(TYPE_NAMES[t])`, in a Text `type_text(t)`)
TYPE_NAMES = {
    "pavilion": N_("Pavilion"),
    "seraglio": N_("Seraglio"),
    "arcades": N_("Arcades"),
    "chambers": N_("Chambers"),
    "garden": N_("Garden"),
    "tower": N_("Tower"),
}
require_data(all(TYPE_NAMES[t] == t.capitalize() for t in TYPES), "A2: the six building types")
FOUNTAIN = "fountain"


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: `id` is stable (e.g. "tower-9-NE"); `walls` is a bit set of N/E/S/W."""

    id: str
    type: str
    price: int
    walls: int
    color: str
    hut: bool = False  # V20: a Worker's Hut (type = its colour's building type; it is not itself a building)

    @property
    def name(self) -> str:
        return tile_name(self.id)

    @property
    def text(self) -> Text | str:
        return tile_text(self.id)


def _load_tiles() -> tuple[dict[str, Tile], tuple[str, ...], tuple[str, ...]]:
    data = load_data("alhambra_tiles.json")
    tiles: dict[str, Tile] = {}
    building: list[str] = []
    for raw in data["building_tiles"]:
        walls = 0
        for side in raw["walls"]:
            walls |= SIDE_BITS[side]
        tiles[raw["id"]] = Tile(raw["id"], raw["type"], int(raw["price"]), walls, raw.get("color", ""))
        building.append(raw["id"])
    starts: list[str] = []
    for raw in data["start_tiles"]:  # A1: no walls, no type that scores
        tiles[raw["id"]] = Tile(raw["id"], FOUNTAIN, 0, 0, "")
        starts.append(raw["id"])
    return tiles, tuple(building), tuple(starts)


TILES, BUILDING_TILES, START_TILES = _load_tiles()
require_data(len(BUILDING_TILES) == 54, "A2/A3: the base game has 54 building tiles")

VIZIER_DATA = load_data("alhambra_vizier_components.json")
HUT = "hut"  # TYPE_OF of every hut: never counted as a building (V27), so counting code can ignore huts


def _load_huts() -> tuple[str, ...]:
    """V20: the 24 Worker's Huts. Their wall layouts are a STAND-IN in the data file (no source lists them)."""
    huts = []
    for raw in VIZIER_DATA["worker_huts"]["huts"]:
        walls = 0
        for side in raw["walls"]:
            walls |= SIDE_BITS[side]
        require_data(walls != 0, "V20: every hut has at least one wall")
        TILES[raw["id"]] = Tile(raw["id"], raw["type"], 0, walls, "", hut=True)
        huts.append(raw["id"])
    return tuple(huts)


HUTS = _load_huts()
require_data(len(HUTS) == VIZIER_DATA["worker_huts"]["count"] == 24, "V20: 24 huts")
HUT_TYPE: Final[dict[str, str]] = {h: TILES[h].type for h in HUTS}  # the building type whose colour the hut has
HUT_LIMIT = VIZIER_DATA["worker_huts"]["max_per_player_per_game"]  # V25: 3 per player per game

WALLS: Final[dict[str, int]] = {tid: t.walls for tid, t in TILES.items()}
TYPE_OF: dict[str, str] = {tid: (HUT if t.hut else t.type) for tid, t in TILES.items()}
PRICE: Final[dict[str, int]] = {tid: t.price for tid, t in TILES.items()}


def is_hut(tile_id: str) -> bool:
    return tile_id in HUT_TYPE


def type_text(typ: str) -> Text:
    """A building type's name as a Text: 'Tower'."""
    return Text.marked(TYPE_NAMES[typ])


def walls_text(walls: str) -> Text:
    """A tile's walled sides ("NE") in the reader's compass letters."""
    return join_texts([Text.marked(SIDE_LETTERS[s]) for s in walls], "")


def _names() -> dict[str, Text]:
    # A tile is named by type and price; where two tiles share both, the walls tell them apart (so menus and
    # log lines never name two different tiles the same way).
    by_key: dict[tuple[str, int], list[str]] = {}
    for tid in BUILDING_TILES:
        by_key.setdefault((TYPE_OF[tid], PRICE[tid]), []).append(tid)
    names = {}
    for (typ, price), ids in by_key.items():
        for tid in ids:
            w = "".join(s for s, bit in SIDE_BITS.items() if WALLS[tid] & bit)
            if len(ids) == 1:
                names[tid] = Text("{type} ({price})", type=type_text(typ), price=price)
            elif w:
                names[tid] = Text(
                    "{type} ({price}, walls {walls})", type=type_text(typ), price=price, walls=walls_text(w)
                )
            else:
                names[tid] = Text("{type} ({price}, no walls)", type=type_text(typ), price=price)
    for tid in START_TILES:
        names[tid] = Text("Fountain")
    hut_names: dict[tuple[str, str], list[str]] = {}
    for tid in HUTS:
        w = "".join(s for s, bit in SIDE_BITS.items() if WALLS[tid] & bit)
        hut_names.setdefault((HUT_TYPE[tid], w), []).append(tid)
    for (typ, w), ids in hut_names.items():  # a replaced data file may repeat a layout: number those huts
        for k, tid in enumerate(ids, 1):
            if len(ids) == 1:
                names[tid] = Text("{type} hut (walls {walls})", type=type_text(typ), walls=walls_text(w))
            else:
                names[tid] = Text(
                    "{type} hut {number} (walls {walls})", type=type_text(typ), number=k, walls=walls_text(w)
                )
    return names


_TILE_TEXTS = _names()
_TILE_NAMES = {tid: str(text) for tid, text in _TILE_TEXTS.items()}


def tile_text(tile_id: str) -> Text | str:
    """A tile in words: 'Tower (13)', or 'Garden (8, walls NE)' where type and price alone are ambiguous (an
    unknown id stays as it is)."""
    return _TILE_TEXTS.get(tile_id, tile_id)


def tile_name(tile_id: str) -> str:
    """`tile_text` in English (for the presentation until it translates `tile_text`)."""
    return _TILE_NAMES.get(tile_id, tile_id)


def tile_names(tiles: Iterable[str]) -> Text:
    """'Tower (13), Garden (8)', or 'no tiles'."""
    texts = [tile_text(t) for t in tiles]
    return join_texts(texts) if texts else Text("no tiles")


# --------------------------------------------------------------------------------------------- money

CURRENCIES = ("denar", "dirham", "ducat", "florin")  # A4; A6 [U]: market space i+1 takes CURRENCIES[i]
# their names as players read them (marked constants; the ids above stay as they are in data and events)
CURRENCY_NAMES: tuple[str, ...] = (N_("denar"), N_("dirham"), N_("ducat"), N_("florin"))
require_data(CURRENCY_NAMES == CURRENCIES, "A4: the four currencies")


def currency_text(currency: int) -> Text:
    """A currency's name as a Text: 'florin'."""
    return Text.marked(CURRENCY_NAMES[currency])


CURRENCY_COLORS = {"denar": "blue", "dirham": "green", "ducat": "orange", "florin": "yellow"}

# Money cards are ints 0..107: currency * 27 + (value - 1) * 3 + copy. Ids are stable for the whole game
# (actions name cards by id, never by hand position). The 2-player deck (A60) leaves out copy 2.
SCORING_1, SCORING_2 = 1001, 1002  # A5: the two scoring cards live in the money deck until drawn
SCORING_CARDS = (SCORING_1, SCORING_2)
HIDDEN_CARD = -1  # what view() shows instead of a card the viewer may not see (keeps counts visible)


def money_cards(n_players: int) -> tuple[int, ...]:
    """A4/A60: 108 money cards, or 72 (two copies of each) in the 2-player game."""
    copies = 2 if n_players == 2 else 3
    return tuple(c for c in range(108) if c % 3 < copies)


def is_money(card: int) -> bool:
    return 0 <= card < 108


def currency_of(card: int) -> int:
    """Currency index 0..3 of a money card."""
    return card // 27


def value_of(card: int) -> int:
    return (card % 27) // 3 + 1


def card_key(card: int) -> tuple[int, int]:
    """(currency, value): cards with the same key are interchangeable."""
    return card // 27, (card % 27) // 3 + 1


# V40: the six exchange cards (Bureau de Change), one per pair of currencies; ids 2001.. in data-file order.
# They travel like money cards (deck, display, hands, discard) but are never money (V48).
EXCHANGE_PAIRS: Final[dict[int, tuple[int, int]]] = {
    2001 + i: (CURRENCIES.index(raw["currencies"][0]), CURRENCIES.index(raw["currencies"][1]))
    for i, raw in enumerate(VIZIER_DATA["exchange_cards"]["cards"])
}
EXCHANGE_CARDS = tuple(EXCHANGE_PAIRS)
require_data(len(EXCHANGE_CARDS) == 6 and len(set(EXCHANGE_PAIRS.values())) == 6, "V40: six different pairs")


def is_exchange(card: int) -> bool:
    return card in EXCHANGE_PAIRS


def exchange_name(card: int) -> Text:
    """'denar/florin exchange card'."""
    a, b = EXCHANGE_PAIRS[card]
    return Text("{currency}/{other} exchange card", currency=currency_text(a), other=currency_text(b))


def card_text(card: int) -> Text:
    """A card in words: '7 florin', 'denar/florin exchange card', 'scoring card 1'."""
    if card in EXCHANGE_PAIRS:
        return exchange_name(card)
    if card in SCORING_CARDS:
        return Text("scoring card {number}", number=SCORING_CARDS.index(card) + 1)
    if card == HIDDEN_CARD:
        return Text("a hidden card")
    return Text("{value} {currency}", value=value_of(card), currency=currency_text(currency_of(card)))


def card_name(card: int) -> str:
    """`card_text` in English (for the presentation until it translates `card_text`)."""
    return str(card_text(card))


def cards_text(cards: Iterable[int]) -> Text:
    """'5+4 florin' for one currency, '3 denar + 2 ducat' for several; an exchange card is named after them."""
    return _cards_text(tuple(cards))


@functools.lru_cache(maxsize=1 << 12)
def _cards_text(cards: tuple[int, ...]) -> Text:
    # cached: every applied purchase or take writes these words into its move event (Texts are immutable)
    exchange = [c for c in cards if c in EXCHANGE_PAIRS]
    if exchange:
        money = [c for c in cards if c not in EXCHANGE_PAIRS]
        names = join_texts([exchange_name(c) for c in exchange])
        if money:
            return Text("{cards} and the {exchange}", cards=cards_text(money), exchange=names)
        return Text("the {exchange}", exchange=names)
    ordered = sorted(cards, key=lambda c: (currency_of(c), -value_of(c)))
    currencies = {currency_of(c) for c in ordered}
    if len(currencies) == 1:
        values = "+".join(str(value_of(c)) for c in ordered)
        return Text("{value} {currency}", value=values, currency=currency_text(currency_of(ordered[0])))
    return join_texts([card_text(c) for c in ordered], " + ")


# V60/V61: the bonus cards, named by the wall-less building tile each depicts; how many each player gets.
BONUS_CARDS: tuple[str, ...] = tuple(raw["depicts"] for raw in VIZIER_DATA["bonus_cards"]["cards_known"])
require_data(len(BONUS_CARDS) == VIZIER_DATA["bonus_cards"]["count"] == 10, "V60: 10 bonus cards")
require_data(all(t in BUILDING_TILES and not WALLS[t] for t in BONUS_CARDS), "V60: one per wall-less building")
BONUS_DEAL: dict[int, int] = {int(n): k for n, k in VIZIER_DATA["bonus_cards"]["deal_per_player"].items()}


# --------------------------------------------------------------------------------------------- scoring table

# A2/A45: points for 1st, 2nd, 3rd place per type in rounds 1, 2 and 3.
POINTS: dict[int, dict[str, tuple[int, ...]]] = {  # per round, the types in table order (TYPES)
    1: dict(zip(TYPES, [(1,), (2,), (3,), (4,), (5,), (6,)], strict=True)),
    2: dict(zip(TYPES, [(8, 1), (9, 2), (10, 3), (11, 4), (12, 5), (13, 6)], strict=True)),
    3: dict(zip(TYPES, [(16, 8, 1), (17, 9, 2), (18, 10, 3), (19, 11, 4), (20, 12, 5), (21, 13, 6)], strict=True)),
}


# --------------------------------------------------------------------------------------------- cell notation

ORIGIN = 13  # the fountain (0, 0) is "M13": column M is the 13th letter, row 13
_CELL = re.compile(r"^\s*(?:@(-?\d+):?|([A-Za-z]+))(-?\d+)\s*$")


def _column_letters(n: int) -> str:
    out = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def cell_name(cell: tuple[int, int]) -> str:
    """(0, 0) -> 'M13'; x grows east (next letter), y grows south (next row number).

    Columns left of 'A' are written '@<n>:' with n = x + 13 <= 0 (e.g. '@-3:12'); the colon keeps the
    column and row apart. Rows are y + 13 and may be zero or negative.
    """
    x, y = cell
    col = x + ORIGIN
    row = y + ORIGIN
    if col >= 1:
        return f"{_column_letters(col)}{row}"
    return f"@{col}:{row}"


def parse_cell(text: str) -> tuple[int, int]:
    """The inverse of cell_name ('n12' works too). ValueError for text that is not a cell."""
    m = _CELL.match(text)
    if not m:
        raise ValueError(
            Text("'{text}' is not a position; write a column letter and a row number, like M13.", text=str(text))
        )
    if m.group(1) is not None:
        col = int(m.group(1))
    else:
        col = 0
        for ch in m.group(2).upper():
            col = col * 26 + (ord(ch) - 64)
    return col - ORIGIN, int(m.group(3)) - ORIGIN
