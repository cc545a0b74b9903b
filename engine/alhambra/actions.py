"""Alhambra actions: one small frozen dataclass per kind, naming cards and tiles by id, and `describe`.

The three turn actions (A18) are TakeMoney, BuyTile and the three Redesign kinds (A33 a/b/c); Pass ends the
actions after an exact purchase (A22) or when nothing is possible (A26). At turn end each bought tile is
placed with PlaceTile, ReserveTile or (2 players) GiveToDirk (A27, A66); the same PlaceTile/ReserveTile place
leftover tiles received at game end (A51).

The Vizier's Favour modules add VizierBuy (V3–V7, out of turn, placed at once with PlaceTile/ReserveTile/
GiveToDirk), ReactivateVizier (V8), TakeHut (V22) and the free bonus-card actions PlayBonus (V62) and
SetBonusAutoplay (V66), which are not turn actions: they are listed by `rules.free_actions`, never by
`legal_actions`, and apply accepts them from their holder at any time. An exchange card (V43/V45) rides in
TakeMoney and BuyTile/VizierBuy card lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine._common import N_, Text, native_dataclasses
from engine.alhambra.components import (
    PRICE,
    TYPE_NAMES,
    TYPE_OF,
    card_text,
    cards_text,
    cell_name,
    is_money,
    tile_text,
    value_of,
)


@dataclass(frozen=True, slots=True, init=False)
class TakeMoney:
    """A19: one card from the display, or several totalling at most 5."""

    kind: ClassVar[str] = "take_money"

    cards: tuple[int, ...]

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        cards: tuple[int, ...],
    ) -> None:
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True, init=False)
class BuyTile:
    """A21: buy a market tile, paying with cards of its space's currency (sum >= price, no change)."""

    kind: ClassVar[str] = "buy_tile"

    tile: str
    cards: tuple[int, ...]

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        tile: str,
        cards: tuple[int, ...],
    ) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True, init=False)
class RedesignAdd:
    """A33(a): move a reserve tile into the Alhambra."""

    kind: ClassVar[str] = "redesign_add"

    tile: str
    cell: tuple[int, int]

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        tile: str,
        cell: tuple[int, int],
    ) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "cell", cell)


@dataclass(frozen=True, slots=True, init=False)
class RedesignRemove:
    """A33(b): move an Alhambra tile to the reserve."""

    kind: ClassVar[str] = "redesign_remove"

    tile: str

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        tile: str,
    ) -> None:
        object.__setattr__(self, "tile", tile)


@dataclass(frozen=True, slots=True, init=False)
class RedesignSwap:
    """A33(c): put reserve tile `tile` exactly where Alhambra tile `replaces` lies; that one goes to reserve."""

    kind: ClassVar[str] = "redesign_swap"

    tile: str
    replaces: str

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        tile: str,
        replaces: str,
    ) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "replaces", replaces)


@dataclass(frozen=True, slots=True, init=False)
class Pass:
    """End the actions of the turn: after an exact purchase (A22 'may'), or when no action is possible (A26)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True, init=False)
class PlaceTile:
    """A27/A31: place a tile bought this turn (or received at game end, A51) into the Alhambra."""

    kind: ClassVar[str] = "place_tile"

    tile: str
    cell: tuple[int, int]

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        tile: str,
        cell: tuple[int, int],
    ) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "cell", cell)


@dataclass(frozen=True, slots=True, init=False)
class ReserveTile:
    """A27: put a tile bought this turn (or received at game end) onto the reserve board."""

    kind: ClassVar[str] = "reserve_tile"

    tile: str

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        tile: str,
    ) -> None:
        object.__setattr__(self, "tile", tile)


@dataclass(frozen=True, slots=True, init=False)
class GiveToDirk:
    """A66: in the 2-player game, give a tile bought this turn to Dirk instead of keeping it."""

    kind: ClassVar[str] = "give_to_dirk"

    tile: str

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        tile: str,
    ) -> None:
        object.__setattr__(self, "tile", tile)


@dataclass(frozen=True, slots=True, init=False)
class VizierBuy:
    """V3–V7: out of turn, flip one's active vizier and buy a market tile at exactly its price (an exchange card
    may help, V11); the tile is placed at once (PlaceTile/ReserveTile/GiveToDirk in the VIZIER phase)."""

    kind: ClassVar[str] = "vizier_buy"

    tile: str
    cards: tuple[int, ...]

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        tile: str,
        cards: tuple[int, ...],
    ) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True, init=False)
class ReactivateVizier:
    """V8: on one's own turn, as the action, turn one's inactive vizier back to active."""

    kind: ClassVar[str] = "reactivate_vizier"


@dataclass(frozen=True, slots=True, init=False)
class TakeHut:
    """V22: as the action, take a face-up Worker's Hut (the top of its stack); placed at turn end (V24)."""

    kind: ClassVar[str] = "take_hut"

    hut: str

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        hut: str,
    ) -> None:
        object.__setattr__(self, "hut", hut)


@dataclass(frozen=True, slots=True, init=False)
class PlayBonus:
    """V62: play a bonus card face up once its building is in one's Alhambra. Free: not an action, any time."""

    kind: ClassVar[str] = "play_bonus"

    card: str  # the depicted tile's id

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        card: str,
    ) -> None:
        object.__setattr__(self, "card", card)


@dataclass(frozen=True, slots=True, init=False)
class SetBonusAutoplay:
    """V66 [BOT]: one's standing order for unplayed bonus cards before scoring rounds (free, private)."""

    kind: ClassVar[str] = "set_bonus_autoplay"

    mode: str  # state.AUTOPLAY_MODES: "every", "final" or "never"

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        mode: str,
    ) -> None:
        object.__setattr__(self, "mode", mode)


ACTION_TYPES = (
    TakeMoney,
    BuyTile,
    RedesignAdd,
    RedesignRemove,
    RedesignSwap,
    Pass,
    PlaceTile,
    ReserveTile,
    GiveToDirk,
    VizierBuy,
    ReactivateVizier,
    TakeHut,
    PlayBonus,
    SetBonusAutoplay,
)
Action = (
    TakeMoney
    | BuyTile
    | RedesignAdd
    | RedesignRemove
    | RedesignSwap
    | Pass
    | PlaceTile
    | ReserveTile
    | GiveToDirk
    | VizierBuy
    | ReactivateVizier
    | TakeHut
    | PlayBonus
    | SetBonusAutoplay
)
FREE_ACTIONS = (PlayBonus, SetBonusAutoplay)  # not turn actions: rules.free_actions lists them
# V66: the standing orders in words (marked constants, for the presentation: `_.text(AUTOPLAY_TEXT[mode])`)
AUTOPLAY_TEXT = {
    "every": N_("before every scoring round"),
    "final": N_("only before the final scoring"),
    "never": N_("never (only by hand)"),
}


def describe(action: Action) -> Text:
    """One short sentence without the player's name, e.g. 'buys the Tower (9) with 5+4 florin'."""
    if isinstance(action, TakeMoney):
        if len(action.cards) == 1 and not is_money(action.cards[0]):
            return Text("takes the {card}", card=card_text(action.cards[0]))
        return Text("takes {cards}", cards=cards_text(action.cards))
    if isinstance(action, BuyTile):
        tile, cards = tile_text(action.tile), cards_text(action.cards)
        if sum(value_of(c) for c in action.cards if is_money(c)) == PRICE.get(action.tile):
            return Text("buys the {tile} with {cards} (exact: acts again)", tile=tile, cards=cards)
        return Text("buys the {tile} with {cards}", tile=tile, cards=cards)
    if isinstance(action, VizierBuy):
        return Text(
            "uses the vizier to buy the {tile} with {cards}",
            tile=tile_text(action.tile),
            cards=cards_text(action.cards),
        )
    if isinstance(action, ReactivateVizier):
        return Text("turns the vizier back to its active side")
    if isinstance(action, TakeHut):
        return Text("takes the {hut}", hut=tile_text(action.hut))
    if isinstance(action, PlayBonus):
        typ = TYPE_NAMES.get(TYPE_OF.get(action.card, ""))
        kind = Text.marked(typ) if typ is not None else Text("building")
        return Text("plays the bonus card for the {tile}: one more {type}", tile=tile_text(action.card), type=kind)
    if isinstance(action, SetBonusAutoplay):
        return autoplay_words(action.mode)
    if isinstance(action, RedesignAdd):
        return Text(
            "redesigns: moves the {tile} from the reserve to {cell}",
            tile=tile_text(action.tile),
            cell=cell_name(action.cell),
        )
    if isinstance(action, RedesignRemove):
        return Text("redesigns: moves the {tile} to the reserve", tile=tile_text(action.tile))
    if isinstance(action, RedesignSwap):
        return Text(
            "redesigns: exchanges the {tile} for the {other} from the reserve",
            tile=tile_text(action.replaces),
            other=tile_text(action.tile),
        )
    if isinstance(action, Pass):
        return Text("ends the turn's actions")
    if isinstance(action, PlaceTile):
        return Text("places the {tile} at {cell}", tile=tile_text(action.tile), cell=cell_name(action.cell))
    if isinstance(action, ReserveTile):
        return Text("puts the {tile} on the reserve", tile=tile_text(action.tile))
    if isinstance(action, GiveToDirk):
        return Text("gives the {tile} to Dirk", tile=tile_text(action.tile))
    raise TypeError(f"not an Alhambra action: {action!r}")


def autoplay_words(mode: str) -> Text:
    """V66: describe's words for a new standing order."""
    if mode == "every":
        return Text("sets bonus cards to play automatically before every scoring round")
    if mode == "final":
        return Text("sets bonus cards to play automatically only before the final scoring")
    if mode == "never":
        return Text("sets bonus cards to play automatically never (only by hand)")
    return Text("sets bonus cards to play automatically {mode}", mode=mode)


native_dataclasses(*ACTION_TYPES)  # compiled, as their sources
