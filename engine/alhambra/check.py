"""Alhambra: the single legality check. `check` returns None for a legal action, else the refusal in the player's
words with the rule it breaks (A18–A33, A51, A66; V1–V12, V22–V25, V43–V45, V60–V66).
"""

from __future__ import annotations

from typing import Any

from engine._common import Text
from engine.alhambra import actions as move
from engine.alhambra import geometry
from engine.alhambra.components import (
    EXCHANGE_PAIRS,
    HUT_LIMIT,
    HUT_TYPE,
    PRICE,
    cards_text,
    currency_of,
    currency_text,
    exchange_name,
    is_money,
    tile_text,
    value_of,
)
from engine.alhambra.listing import listed, to_move
from engine.alhambra.state import (
    ACTION,
    AUTOPLAY_MODES,
    FINAL,
    OVER,
    VIZIER,
    GameState,
    PlayerState,
)


def check(state: GameState, player: str, action: Any) -> Text | None:
    if state.seed is None:
        return Text("This is a player's view of the game, not the game itself.")
    if state.phase == OVER:
        return Text("The game is over.")
    if player not in state.players:
        return Text("You are not playing in this game.")
    kind = type(action)
    if kind in move.FREE_ACTIONS:  # V62/V66: not turn actions, so whose move it is does not matter
        return _check_free(state, player, action)
    if player not in to_move(state):
        if kind is move.VizierBuy:
            return _vizier_unavailable(state, player, action)
        if state.phase == FINAL:
            return Text("You have no leftover tiles to place; waiting for the others (A51).")
        if state.phase == VIZIER:
            return Text("Wait a moment: a player is placing the tile they bought with their vizier (V6).")
        return Text("It is not your turn.")
    seat = state.seat(player)
    if kind is move.VizierBuy:
        return _check_vizier(state, seat, action)
    if state.phase == ACTION and player != state.players[state.current]:
        return Text(
            "It is not your turn: until the next player acts you may only use your vizier to buy a tile "
            "at the exact price (V4, V12)."
        )
    if kind in (move.PlaceTile, move.RedesignAdd) and not _is_cell(action.cell):
        return Text("That is not a position on the grid; name a cell like N12 (the fountain is M13).")
    if state.phase == ACTION:
        if kind in (move.PlaceTile, move.ReserveTile, move.GiveToDirk):
            if state.bonus:
                return Text(
                    "Bought tiles are placed at the end of your turn (A27): finish your actions first (pass to skip "
                    "your extra action)."
                )
            return Text("Bought tiles are placed at the end of your turn (A27): finish your actions first.")
        if kind is move.TakeMoney:
            return _check_take(state, action)
        if kind is move.BuyTile:
            return _check_buy(state, seat, action)
        if kind is move.Pass:
            return _check_pass(state, player)
        if kind is move.TakeHut:
            return _check_hut(state, seat, action)
        if kind is move.ReactivateVizier:
            if not state.options.get("vizier"):
                return Text("This game is played without the Vizier's Favour module (V1).")
            return Text("Your vizier is already active (V8).") if seat.vizier else None
        return _check_redesign(seat, action)
    # PLACE, VIZIER or FINAL: only placing the waiting tiles
    if kind not in (move.PlaceTile, move.ReserveTile, move.GiveToDirk):
        if state.phase == FINAL:
            return Text("The game has ended: only the leftover market tiles are placed now (A51).")
        if state.phase == VIZIER:
            return Text("Place the tile you bought with your vizier first, in your Alhambra or on the reserve (V6).")
        return Text("Your actions are over: place the tiles you bought, in your Alhambra or on the reserve (A24, A27).")
    if action.tile not in seat.pending:
        if action.tile in seat.reserve and kind is move.GiveToDirk:
            return Text("Only tiles bought this turn can be given to Dirk, not reserve tiles (A66).")
        if action.tile in seat.reserve:
            return Text(
                "That tile is on your reserve; moving it into the Alhambra is a redesign, which is an "
                "action on your turn (A33a)."
            )
        return Text("You have no {tile} waiting to be placed (A27).", tile=tile_text(action.tile))
    if kind is move.PlaceTile:
        return geometry.placement_problem(seat.alhambra, action.tile, action.cell)
    if kind is move.GiveToDirk:
        if not state.two_player:
            return Text("Dirk only plays in the 2-player game (A61).")
        if state.phase == FINAL:
            return Text(
                "Leftover market tiles cannot be given to Dirk; place them or put them on the reserve (A51, A67)."
            )
        if action.tile in HUT_TYPE:
            return Text(
                "Huts stay with the player who took them: place the hut in your Alhambra or on the reserve (V25, V30)."
            )
    return None


def _check_free(state: GameState, player: str, action: Any) -> Text | None:
    """V62 (play a bonus card once its building is in the Alhambra), V66 (standing order)."""
    if not state.options.get("bonus"):
        return Text("This game is played without the bonus cards module (V60).")
    seat = state.seat(player)
    if isinstance(action, move.SetBonusAutoplay):
        if action.mode not in AUTOPLAY_MODES:
            return Text("Choose one of: {modes} (V66).", modes=", ".join(AUTOPLAY_MODES))
        if action.mode == seat.bonus_auto:
            if action.mode == "every":
                return Text("Your bonus cards already play automatically before every scoring round (V66).")
            if action.mode == "final":
                return Text("Your bonus cards already play automatically only before the final scoring (V66).")
            return Text("Your bonus cards already play automatically never (only by hand) (V66).")
        return None
    card = action.card
    name = tile_text(card)
    if card in seat.bonus_played:
        return Text("Your bonus card for the {tile} is already played (V62).", tile=name)
    if card not in seat.bonus_hand:
        return Text("You hold no bonus card for the {tile} (V61).", tile=name)
    if card not in seat.alhambra.values():
        if card in seat.reserve:
            return Text(
                "A bonus card can be played only once its building is in your Alhambra; the {tile} is on your "
                "reserve (V62).",
                tile=name,
            )
        return Text(
            "A bonus card can be played only once its building is in your Alhambra; the {tile} is not in your "
            "Alhambra (V62).",
            tile=name,
        )
    return None


def _vizier_unavailable(state: GameState, player: str, action: move.VizierBuy) -> Text:
    """Why a player who is not a vizier claimant cannot use the vizier now (V4, V5, V9, V12)."""
    seat = state.seat(player)
    return _check_vizier(state, seat, action) or Text("It is not your turn.")


def _check_vizier(state: GameState, seat: PlayerState, action: move.VizierBuy) -> Text | None:
    """V3–V7, V10, V11: an active vizier, between two turns, a market tile, the exact price."""
    if not state.options.get("vizier"):
        return Text("This game is played without the Vizier's Favour module (V1).")
    if state.phase in (FINAL, OVER):
        return Text("Viziers cannot be used during the end-of-game distribution of leftover tiles (V9).")
    if state.phase != ACTION or not state.window:
        return Text(
            "The vizier can only be used between two turns: after a player's turn has ended and before "
            "the next player acts (V4, V12)."
        )
    if not seat.vizier:
        return Text("Your vizier is inactive: turn it back to active as an action on your turn first (V6, V8).")
    if action.tile in HUT_TYPE:
        return Text("A vizier cannot take a Worker's Hut (V10).")
    problem = _check_payment(state, seat, action.tile, action.cards)
    if problem:
        return problem
    paid = sum(value_of(c) for c in action.cards if is_money(c))
    price = PRICE[action.tile]
    if paid != price:
        return Text(
            "With the vizier you must pay exactly: the {tile} costs {price}; you offered {paid} (V5).",
            tile=tile_text(action.tile),
            price=price,
            paid=paid,
        )
    return None


def _check_hut(state: GameState, seat: PlayerState, action: move.TakeHut) -> Text | None:
    """V22, V25: a face-up hut, at most 3 per player per game."""
    if not state.options.get("huts"):
        return Text("This game is played without the Worker's Huts module (V20).")
    if seat.huts_taken >= HUT_LIMIT:
        return Text(
            "You have already taken {n} hut, the most a player may acquire in a game (V25).",
            "You have already taken {n} huts, the most a player may acquire in a game (V25).",
            n=HUT_LIMIT,
        )
    if not any(stack and stack[-1] == action.hut for stack in state.huts):
        if any(action.hut in stack for stack in state.huts):
            return Text(
                "The {hut} is not face up: only the top hut of each stack can be taken (V22).",
                hut=tile_text(action.hut),
            )
        return Text("That hut is not available: take one of the face-up huts (V22).")
    return None


def _check_take(state: GameState, action: move.TakeMoney) -> Text | None:
    cards = action.cards
    if not cards:
        return Text("Choose at least one card from the money display (A19).")
    if len(set(cards)) != len(cards):
        return Text("Each card can be taken only once.")
    if any(c not in state.display for c in cards):
        return Text("You can only take cards shown in the money display (A19).")
    if not all(is_money(c) for c in cards):
        if len(cards) > 1:
            return Text(
                "An exchange card is taken on its own: taking it is the whole take-money action, with no "
                "money cards (V43)."
            )
        return None
    total = sum(value_of(c) for c in cards)
    if len(cards) > 1 and total > 5:
        return Text(
            "Several cards may be taken only if they total 5 or less; {cards} make {total}. Take one card of any "
            "value, or cards worth at most 5 together (A19).",
            cards=cards_text(cards),
            total=total,
        )
    return None


def _check_buy(state: GameState, seat: PlayerState, action: move.BuyTile) -> Text | None:
    if action.tile in HUT_TYPE:
        return Text("Huts are not bought: taking a face-up hut is an action of its own (V22, V23).")
    return _check_payment(state, seat, action.tile, action.cards)


def _check_payment(state: GameState, seat: PlayerState, tile: str, cards: tuple[int, ...]) -> Text | None:
    """A21, A25 (and V45 with an exchange card): a market tile, cards in hand, the right currency, enough."""
    if tile not in state.market:
        return Text("The {tile} is not on the market (A21).", tile=tile_text(tile))
    space = state.market.index(tile)
    currency = currency_text(space)
    name = tile_text(tile)
    if not cards:
        return Text("Choose the {currency} cards to pay for the {tile} with (A21).", currency=currency, tile=name)
    if len(set(cards)) != len(cards):
        return Text("Each card can be paid only once.")
    hand = set(seat.hand)
    if any(c not in hand for c in cards):
        return Text("You can only pay with cards in your hand (A25).")
    exchange = [c for c in cards if c in EXCHANGE_PAIRS]
    if exchange:
        if len(exchange) > 1:
            return Text("Only one exchange card can be used for a purchase (V45).")
        a, b = EXCHANGE_PAIRS[exchange[0]]
        xname = exchange_name(exchange[0])
        if space not in (a, b):
            return Text(
                "The {exchange} only helps to buy a tile on a {currency} or {other} space; the {tile} lies on the "
                "{space} space (V45).",
                exchange=xname,
                currency=currency_text(a),
                other=currency_text(b),
                tile=name,
                space=currency,
            )
        wrong = [c for c in cards if c not in EXCHANGE_PAIRS and (not is_money(c) or currency_of(c) not in (a, b))]
        if wrong:
            return Text(
                "With the {exchange} you may pay with {currency} and {other} cards only; {cards} is neither (V45).",
                "With the {exchange} you may pay with {currency} and {other} cards only; {cards} are neither (V45).",
                exchange=xname,
                currency=currency_text(a),
                other=currency_text(b),
                cards=cards_text(wrong),
                n=len(wrong),
            )
    else:
        wrong = [c for c in cards if not is_money(c) or currency_of(c) != space]
        if wrong:
            return Text(
                "The {tile} lies on the {currency} space: pay only with {currency} cards; {cards} is not {currency} "
                "(A21).",
                "The {tile} lies on the {currency} space: pay only with {currency} cards; {cards} are not {currency} "
                "(A21).",
                tile=name,
                currency=currency,
                cards=cards_text(wrong),
                n=len(wrong),
            )
    paid = sum(value_of(c) for c in cards if is_money(c))
    price = PRICE[tile]
    if paid < price:
        return Text(
            "That tile costs {price} {currency}; you offered {paid} (A21).", price=price, currency=currency, paid=paid
        )
    return None


def _check_pass(state: GameState, player: str) -> Text | None:
    if state.bonus:
        return None  # A22: the extra action is an option ("may")
    if state.display or any(not isinstance(a, move.Pass) for a in listed(state, player, generous=False)):
        return Text("You must take one action: take money, buy a tile or redesign your Alhambra (A18, A26).")
    return None  # A26 [U]: nothing is possible, the turn ends without an action


def _check_redesign(seat: PlayerState, action: Any) -> Text | None:
    if isinstance(action, move.RedesignAdd | move.RedesignSwap) and action.tile not in seat.reserve:
        if action.tile in seat.pending:
            return Text(
                "Tiles bought this turn can't be used for a redesign; they are placed at the end of the turn (A28)."
            )
        return Text("The {tile} is not on your reserve (A33).", tile=tile_text(action.tile))
    if isinstance(action, move.RedesignAdd):
        return geometry.placement_problem(seat.alhambra, action.tile, action.cell, redesign=True)
    cell = geometry.cell_of(seat.alhambra, action.tile if isinstance(action, move.RedesignRemove) else action.replaces)
    if cell is None:
        name = action.tile if isinstance(action, move.RedesignRemove) else action.replaces
        return Text("The {tile} is not in your Alhambra (A33).", tile=tile_text(name))
    if isinstance(action, move.RedesignRemove):
        return geometry.removal_problem(seat.alhambra, cell)
    return geometry.swap_problem(seat.alhambra, cell, action.tile)


def _is_cell(cell: Any) -> bool:
    return type(cell) is tuple and len(cell) == 2 and all(type(v) is int for v in cell)
