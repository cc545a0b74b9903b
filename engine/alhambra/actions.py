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

from engine._common import action
from engine.alhambra.components import PRICE, card_name, cards_text, cell_name, is_money, tile_name, value_of


@action("take_money")
class TakeMoney:
    """A19: one card from the display, or several totalling at most 5."""

    cards: tuple[int, ...]


@action("buy_tile")
class BuyTile:
    """A21: buy a market tile, paying with cards of its space's currency (sum >= price, no change)."""

    tile: str
    cards: tuple[int, ...]


@action("redesign_add")
class RedesignAdd:
    """A33(a): move a reserve tile into the Alhambra."""

    tile: str
    cell: tuple[int, int]


@action("redesign_remove")
class RedesignRemove:
    """A33(b): move an Alhambra tile to the reserve."""

    tile: str


@action("redesign_swap")
class RedesignSwap:
    """A33(c): put reserve tile `tile` exactly where Alhambra tile `replaces` lies; that one goes to reserve."""

    tile: str
    replaces: str


@action("pass")
class Pass:
    """End the actions of the turn: after an exact purchase (A22 'may'), or when no action is possible (A26)."""


@action("place_tile")
class PlaceTile:
    """A27/A31: place a tile bought this turn (or received at game end, A51) into the Alhambra."""

    tile: str
    cell: tuple[int, int]


@action("reserve_tile")
class ReserveTile:
    """A27: put a tile bought this turn (or received at game end) onto the reserve board."""

    tile: str


@action("give_to_dirk")
class GiveToDirk:
    """A66: in the 2-player game, give a tile bought this turn to Dirk instead of keeping it."""

    tile: str


@action("vizier_buy")
class VizierBuy:
    """V3–V7: out of turn, flip one's active vizier and buy a market tile at exactly its price (an exchange card
    may help, V11); the tile is placed at once (PlaceTile/ReserveTile/GiveToDirk in the VIZIER phase)."""

    tile: str
    cards: tuple[int, ...]


@action("reactivate_vizier")
class ReactivateVizier:
    """V8: on one's own turn, as the action, turn one's inactive vizier back to active."""


@action("take_hut")
class TakeHut:
    """V22: as the action, take a face-up Worker's Hut (the top of its stack); placed at turn end (V24)."""

    hut: str


@action("play_bonus")
class PlayBonus:
    """V62: play a bonus card face up once its building is in one's Alhambra. Free: not an action, any time."""

    card: str  # the depicted tile's id


@action("set_bonus_autoplay")
class SetBonusAutoplay:
    """V66 [BOT]: one's standing order for unplayed bonus cards before scoring rounds (free, private)."""

    mode: str  # state.AUTOPLAY_MODES: "every", "final" or "never"


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
AUTOPLAY_TEXT = {
    "every": "before every scoring round",
    "final": "only before the final scoring",
    "never": "never (only by hand)",
}


def describe(action: Action) -> str:
    """One short sentence without the player's name, e.g. 'buys the Tower (9) with 5+4 florin'."""
    if isinstance(action, TakeMoney):
        if len(action.cards) == 1 and not is_money(action.cards[0]):
            return f"takes the {card_name(action.cards[0])}"
        return f"takes {cards_text(action.cards)}"
    if isinstance(action, BuyTile):
        paid = sum(value_of(c) for c in action.cards if is_money(c))
        extra = " (exact: acts again)" if paid == PRICE.get(action.tile) else ""
        return f"buys the {tile_name(action.tile)} with {cards_text(action.cards)}{extra}"
    if isinstance(action, VizierBuy):
        return f"uses the vizier to buy the {tile_name(action.tile)} with {cards_text(action.cards)}"
    if isinstance(action, ReactivateVizier):
        return "turns the vizier back to its active side"
    if isinstance(action, TakeHut):
        return f"takes the {tile_name(action.hut)}"
    if isinstance(action, PlayBonus):
        return f"plays the bonus card for the {tile_name(action.card)}: one more {_type_word(action.card)}"
    if isinstance(action, SetBonusAutoplay):
        return f"sets bonus cards to play automatically {AUTOPLAY_TEXT.get(action.mode, action.mode)}"
    if isinstance(action, RedesignAdd):
        return f"redesigns: moves the {tile_name(action.tile)} from the reserve to {cell_name(action.cell)}"
    if isinstance(action, RedesignRemove):
        return f"redesigns: moves the {tile_name(action.tile)} to the reserve"
    if isinstance(action, RedesignSwap):
        return (
            f"redesigns: exchanges the {tile_name(action.replaces)} for the {tile_name(action.tile)} from the reserve"
        )
    if isinstance(action, Pass):
        return "ends the turn's actions"
    if isinstance(action, PlaceTile):
        return f"places the {tile_name(action.tile)} at {cell_name(action.cell)}"
    if isinstance(action, ReserveTile):
        return f"puts the {tile_name(action.tile)} on the reserve"
    if isinstance(action, GiveToDirk):
        return f"gives the {tile_name(action.tile)} to Dirk"
    raise TypeError(f"not an Alhambra action: {action!r}")


def _type_word(tile: str) -> str:
    from engine.alhambra.components import TYPE_NAMES, TYPE_OF

    return TYPE_NAMES.get(TYPE_OF.get(tile, ""), "building")
