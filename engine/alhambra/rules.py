"""The Alhambra rules (base game, 2–6 players, with Dirk for 2) and the four modules of The Vizier's Favour
(options `vizier`, `huts`, `exchange`, `bonus`, any combination): set-up, the single legality check, the
unchecked step, the fast legal-action generator, turn end (refill, scoring, end of game) and the player view.

Rule numbers refer to the project's rules specifications: A1–A83 (base) and V1–V66 (the expansion).

The log: every applied action first writes a public "move" event (`describe`'s words, the action's JSON as
`data["action"]`, and `space`/`cell` where the board image should mark it), then the events it caused (refill,
scoring, Dirk...). Event texts with a player read after that player's name; texts without one are sentences.
The V66 standing order is private: it writes only a note for its owner.

How the modules meet the contract:
- Vizier (V3–V12): after every turn (after the refill and any scoring) `state.window` is open until the
  current player's first action. Meanwhile `to_move` lists the current player first, then every other player
  whose active vizier can pay some market tile exactly (`vizier_claimants`, in V7 priority order). Whoever
  acts first wins (arrival order); `vizier_priority` sorts near-simultaneous claims by V7 for the bot. A
  VizierBuy moves the game into the VIZIER phase, where only that claimant acts: they place the tile at once
  (PlaceTile/ReserveTile/GiveToDirk); then the market is refilled, a revealed scoring card is scored, and the
  window reopens for the others (or the game ends, V11).
- Huts (V20–V31): TakeHut is a turn action; huts wait in `pending` and are placed at turn end like tiles.
- Exchange (V40–V48): exchange cards (ids 2001–2006) travel like money cards; TakeMoney of one exchange card
  is a whole take-money action, and one exchange card in a BuyTile/VizierBuy lets the payment mix currencies.
- Bonus cards (V60–V66): PlayBonus and SetBonusAutoplay are free actions, listed by `free_actions` and
  accepted by `apply` from their holder at any time (not in `legal_actions`, so `to_move` is unaffected);
  standing orders are carried out right before each scoring round.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable
from typing import Any

from engine._common import Event, Option, Rules, replace, rng, shuffled, visible_log
from engine.alhambra import geometry as geo
from engine.alhambra.actions import (
    ACTION_TYPES,
    AUTOPLAY_TEXT,
    FREE_ACTIONS,
    BuyTile,
    GiveToDirk,
    Pass,
    PlaceTile,
    PlayBonus,
    ReactivateVizier,
    RedesignAdd,
    RedesignRemove,
    RedesignSwap,
    ReserveTile,
    SetBonusAutoplay,
    TakeHut,
    TakeMoney,
    VizierBuy,
    describe,
)
from engine.alhambra.components import (
    BONUS_CARDS,
    BONUS_DEAL,
    BUILDING_TILES,
    CURRENCIES,
    EXCHANGE_CARDS,
    EXCHANGE_PAIRS,
    HIDDEN_CARD,
    HUT_LIMIT,
    HUT_TYPE,
    HUTS,
    PRICE,
    SCORING_1,
    SCORING_2,
    SCORING_CARDS,
    START_TILES,
    TYPE_NAMES,
    TYPE_OF,
    TYPES,
    WALLS,
    card_key,
    cards_text,
    currency_of,
    exchange_name,
    is_money,
    money_cards,
    tile_name,
    value_of,
)
from engine.alhambra.scoring import bonus_counts, hut_counts, line_text, score_round
from engine.alhambra.state import (
    ACTION,
    AUTO_EVERY,
    AUTO_FINAL,
    AUTOPLAY_MODES,
    FINAL,
    HIDDEN,
    OVER,
    PHASES,
    PLACE,
    VIZIER,
    GameState,
    PlayerState,
)

START_MONEY = 20  # A13: deal until a player's cards are worth at least this
MODULES = ("vizier", "huts", "exchange", "bonus")  # The Vizier's Favour, modules 1–4
OPTIONS: dict[str, Option] = {
    "vizier": Option("vizier", False, "The Vizier's Favour: buy a tile out of turn at its exact price, then "
                                      "re-activate"),
    "huts": Option("huts", False, "Worker's Huts: take up to 3 free huts that count beside same-type buildings"),
    "exchange": Option("exchange", False, "Bureau de Change: exchange cards let one purchase mix two "
                                          "currencies"),
    "bonus": Option("bonus", False, "Bonus cards: a played card counts as one more building of its type"),
}
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}
AUTOPLAY_ORDER = {  # V66: the standing order in words that follow the player's name
    "every": "will have the bonus cards played automatically before every scoring round",
    "final": "will have the bonus cards played automatically only before the final scoring",
    "never": "will play the bonus cards only by hand",
}


def _names(tiles) -> str:
    return ", ".join(tile_name(t) for t in tiles) or "no tiles"


class AlhambraRules(Rules):
    name = "alhambra"
    title = "Alhambra"
    player_counts = range(2, 7)
    options: dict = OPTIONS  # the Vizier's Favour modules, yes/no, any combination
    state_type = GameState
    action_types = ACTION_TYPES

    # ------------------------------------------------------------------------------------------ set-up

    def _deck_inserts(self, options: dict[str, Any], exchange: tuple[int, ...] = ()) -> dict[int, list[int]]:
        """A16 step 2: the cards shuffled into piles (0-based index) of the split deck; V41: with the Bureau de
        Change, also 2 exchange cards (in the shuffled order given) into each of piles 2, 3 and 4."""
        inserts = {1: [SCORING_1], 3: [SCORING_2]}
        if options.get("exchange"):
            inserts[1] += exchange[0:2]
            inserts[2] = list(exchange[2:4])
            inserts[3] += exchange[4:6]
        return inserts

    def _new_game(self, players: tuple[str, ...], options: dict[str, Any], seed: int) -> GameState:
        n = len(players)
        counter = 0
        log: list[Event] = []

        bag_t, counter = shuffled(BUILDING_TILES, seed, counter)  # A11
        bag = list(bag_t)
        market = tuple(bag.pop() for _ in range(4))
        dirk: tuple[str, ...] = ()
        if n == 2:  # A62: Dirk starts with 6 random tiles
            dirk = tuple(bag.pop() for _ in range(6))
            log.append(Event("dirk_tiles", f"Dirk receives 6 tiles: {_names(dirk)} (A62).",
                             data={"tiles": list(dirk), "reason": "setup"}))

        deck_t, counter = shuffled(money_cards(n), seed, counter)  # A12 (scoring cards kept apart), A60
        deck = list(deck_t)  # top = last
        hands = []
        for _ in players:  # A13: one at a time until the hand is worth >= 20, player after player
            hand: list[int] = []
            while sum(value_of(c) for c in hand) < START_MONEY:
                hand.append(deck.pop())
            hands.append(tuple(sorted(hand)))

        # A14: fewest cards, then lowest total; remaining ties broken at random [BOT]
        keys = [(len(h), sum(value_of(c) for c in h)) for h in hands]
        tied = [i for i, k in enumerate(keys) if k == min(keys)]
        first = tied[0]
        if len(tied) > 1:
            first = tied[rng(seed, counter).randrange(len(tied))]
            counter += 1
        if sum(1 for k in keys if k[0] == keys[first][0]) == 1:
            how = "fewest starting cards"
        elif len(tied) == 1:
            how = "fewest starting cards, lowest total"
        else:
            how = "fewest starting cards and lowest total shared: chosen by lot"
        log.append(Event("start_player", f"starts the game ({how}, A14).", player=players[first]))

        display = tuple(deck.pop() for _ in range(4))  # A15: before the split, so no scoring card here

        # A16: five piles (first N mod 5 one bigger), pile 1 on top; scoring cards into piles 2 and 4
        top_first = deck[::-1]
        size, extra = divmod(len(top_first), 5)
        piles: list[list[int]] = []
        i = 0
        for k in range(5):
            sz = size + (1 if k < extra else 0)
            piles.append(top_first[i:i + sz])
            i += sz
        exchange: tuple[int, ...] = ()
        if options.get("exchange"):  # V41 (after the base draws, so base games deal exactly as before)
            exchange, counter = shuffled(EXCHANGE_CARDS, seed, counter)
        for index, cards in self._deck_inserts(options, exchange).items():
            for card in cards:
                pile = piles[index]
                pile.insert(rng(seed, counter).randint(0, len(pile)), card)
                counter += 1
        new_deck = tuple(reversed([c for pile in piles for c in pile]))

        seats = [PlayerState(hand=h, alhambra={(0, 0): START_TILES[i]}, vizier=bool(options.get("vizier")))
                 for i, h in enumerate(hands)]  # V2: every vizier starts active
        huts: tuple[tuple[str, ...], ...] = ()
        if options.get("huts"):  # V21: one stack per colour, each shuffled on its own, top hut face up
            stacks = []
            for typ in TYPES:
                stack, counter = shuffled([h for h in HUTS if HUT_TYPE[h] == typ], seed, counter)
                stacks.append(stack)
            huts = tuple(stacks)
        aside: tuple[str, ...] = ()
        if options.get("bonus"):  # V61: 3 each (2-3 players), 2 (4-5), 1 (6); the rest set aside unseen
            cards, counter = shuffled(BONUS_CARDS, seed, counter)
            k = BONUS_DEAL[n]
            for i, p in enumerate(players):
                dealt = tuple(cards[i * k:(i + 1) * k])
                seats[i] = replace(seats[i], bonus_hand=dealt)
                log.append(Event("bonus_dealt", f"receives the bonus cards {_names(dealt)} (V61); play one once its "
                                                f"building is in your Alhambra (V62).", player=p,
                                 data={"cards": list(dealt)}, private_to=p))
            aside = tuple(cards[n * k:])
        return GameState(players=players, seed=seed, rng_counter=counter, options=dict(options), phase=ACTION,
                         current=first, bonus=False, seats=tuple(seats), market=market, display=display,
                         deck=new_deck, discard=(), bag=tuple(bag), dirk=dirk, log=tuple(log), huts=huts,
                         bonus_aside=aside)

    # ------------------------------------------------------------------------------------------ whose move

    def to_move(self, state: GameState) -> list[str]:
        """The current player first; during the vizier window (V12) also every vizier claimant, in V7 order;
        in the VIZIER phase only the claimant placing their purchase (V6)."""
        phase = state.phase
        if phase == ACTION:
            if state.window:
                me = state.players[state.current]
                return [me] + [p for p in self.vizier_claimants(state) if p != me]
            return [state.players[state.current]]
        if phase == PLACE:
            return [state.players[state.current]]
        if phase == VIZIER:
            return [state.players[state.claimant]]
        if phase == FINAL:  # A51: every recipient of leftover tiles places them, in any order
            return [p for p, seat in zip(state.players, state.seats, strict=True) if seat.pending]
        return []

    def vizier_claimants(self, state: GameState) -> list[str]:
        """V4/V5/V7: the players who may use their vizier now (window open, vizier active, some market tile
        payable exactly), in priority order: from the player whose turn it is (who has not acted yet) round to
        the player who has just finished."""
        if state.phase != ACTION or not state.window:
            return []
        n = len(state.players)
        out = []
        for k in range(n):
            i = (state.current + k) % n
            seat = state.seats[i]
            if seat.vizier and self._vizier_buys(state, seat, first=True):
                out.append(state.players[i])
        return out

    def vizier_priority(self, state: GameState, claims: Iterable[str]) -> list[str]:
        """V7: `claims` (player ids that want to use their vizier at the same moment) in the order the bot
        should apply them: starting with the player whose turn it is, ending with the one who just finished.
        After each purchase the others decide again (apply raises IllegalAction if a claim no longer fits)."""
        n = len(state.players)
        wanted = [p for p in dict.fromkeys(claims) if p in state.players]
        return sorted(wanted, key=lambda p: (state.players.index(p) - state.current) % n)

    def free_actions(self, state: GameState, player: str) -> list[Any]:
        """V62/V66: actions that are not turn actions and may be taken at any time by their holder, whoever is
        to move (apply accepts exactly these from `player`): play each playable bonus card (its building is in
        the player's Alhambra), and change the standing order for bonus cards. Not part of legal_actions."""
        if state.phase == OVER or not state.options.get("bonus") or player not in state.players:
            return []
        seat = state.seat(player)
        built = set(seat.alhambra.values())
        out: list[Any] = [PlayBonus(c) for c in seat.bonus_hand if c in built]
        out += [SetBonusAutoplay(m) for m in AUTOPLAY_MODES if m != seat.bonus_auto]
        return out

    def is_free_action(self, action: Any) -> bool:
        """True for actions that `free_actions` lists (not turn actions; the bot need not re-ping anyone)."""
        return isinstance(action, FREE_ACTIONS)

    def is_over(self, state: GameState) -> bool:
        return state.phase == OVER

    def scores(self, state: GameState) -> dict[str, int]:
        """The human players' points (A68: Dirk's are in state.dirk_score)."""
        return {p: seat.score for p, seat in zip(state.players, state.seats, strict=True)}

    # ------------------------------------------------------------------------------------------ checking

    def check(self, state: GameState, player: str, action: Any) -> str | None:
        if state.seed is None:
            return "This is a player's view of the game, not the game itself."
        if state.phase == OVER:
            return "The game is over."
        if player not in state.players:
            return "You are not playing in this game."
        kind = type(action)
        if kind in FREE_ACTIONS:  # V62/V66: not turn actions, so whose move it is does not matter
            return self._check_free(state, player, action)
        if player not in self.to_move(state):
            if kind is VizierBuy:
                return self._vizier_unavailable(state, player, action)
            if state.phase == FINAL:
                return "You have no leftover tiles to place; waiting for the others (A51)."
            if state.phase == VIZIER:
                return "Wait a moment: a player is placing the tile they bought with their vizier (V6)."
            return "It is not your turn."
        seat = state.seat(player)
        if kind is VizierBuy:
            return self._check_vizier(state, seat, action)
        if state.phase == ACTION and player != state.players[state.current]:
            return ("It is not your turn: until the next player acts you may only use your vizier to buy a tile "
                    "at the exact price (V4, V12).")
        if kind in (PlaceTile, RedesignAdd) and not _is_cell(action.cell):
            return "That is not a position on the grid; name a cell like N12 (the fountain is M13)."
        if state.phase == ACTION:
            if kind in (PlaceTile, ReserveTile, GiveToDirk):
                return ("Bought tiles are placed at the end of your turn (A27): finish your actions first"
                        + (" (pass to skip your extra action)." if state.bonus else "."))
            if kind is TakeMoney:
                return self._check_take(state, action)
            if kind is BuyTile:
                return self._check_buy(state, seat, action)
            if kind is Pass:
                return self._check_pass(state, player)
            if kind is TakeHut:
                return self._check_hut(state, seat, action)
            if kind is ReactivateVizier:
                if not state.options.get("vizier"):
                    return "This game is played without the Vizier's Favour module (V1)."
                return "Your vizier is already active (V8)." if seat.vizier else None
            return self._check_redesign(seat, action)
        # PLACE, VIZIER or FINAL: only placing the waiting tiles
        if kind not in (PlaceTile, ReserveTile, GiveToDirk):
            if state.phase == FINAL:
                return "The game has ended: only the leftover market tiles are placed now (A51)."
            if state.phase == VIZIER:
                return ("Place the tile you bought with your vizier first, in your Alhambra or on the reserve "
                        "(V6).")
            return "Your actions are over: place the tiles you bought, in your Alhambra or on the reserve (A24, A27)."
        if action.tile not in seat.pending:
            if action.tile in seat.reserve and kind is GiveToDirk:
                return "Only tiles bought this turn can be given to Dirk, not reserve tiles (A66)."
            if action.tile in seat.reserve:
                return ("That tile is on your reserve; moving it into the Alhambra is a redesign, which is an "
                        "action on your turn (A33a).")
            return f"You have no {tile_name(action.tile)} waiting to be placed (A27)."
        if kind is PlaceTile:
            return geo.placement_problem(seat.alhambra, action.tile, action.cell)
        if kind is GiveToDirk:
            if not state.two_player:
                return "Dirk only plays in the 2-player game (A61)."
            if state.phase == FINAL:
                return "Leftover market tiles cannot be given to Dirk; place them or put them on the reserve (A51, A67)."
            if action.tile in HUT_TYPE:
                return ("Huts stay with the player who took them: place the hut in your Alhambra or on the reserve "
                        "(V25, V30).")
        return None

    def _check_free(self, state: GameState, player: str, action: Any) -> str | None:
        """V62 (play a bonus card once its building is in the Alhambra), V66 (standing order)."""
        if not state.options.get("bonus"):
            return "This game is played without the bonus cards module (V60)."
        seat = state.seat(player)
        if isinstance(action, SetBonusAutoplay):
            if action.mode not in AUTOPLAY_MODES:
                return f"Choose one of: {', '.join(AUTOPLAY_MODES)} (V66)."
            if action.mode == seat.bonus_auto:
                return f"Your bonus cards already play automatically {AUTOPLAY_TEXT[action.mode]} (V66)."
            return None
        card = action.card
        name = tile_name(card)
        if card in seat.bonus_played:
            return f"Your bonus card for the {name} is already played (V62)."
        if card not in seat.bonus_hand:
            return f"You hold no bonus card for the {name} (V61)."
        if card not in seat.alhambra.values():
            where = "on your reserve" if card in seat.reserve else "not in your Alhambra"
            return (f"A bonus card can be played only once its building is in your Alhambra; the {name} is {where} "
                    f"(V62).")
        return None

    def _vizier_unavailable(self, state: GameState, player: str, action: VizierBuy) -> str:
        """Why a player who is not a vizier claimant cannot use the vizier now (V4, V5, V9, V12)."""
        seat = state.seat(player)
        return self._check_vizier(state, seat, action) or "It is not your turn."

    def _check_vizier(self, state: GameState, seat: PlayerState, action: VizierBuy) -> str | None:
        """V3–V7, V10, V11: an active vizier, between two turns, a market tile, the exact price."""
        if not state.options.get("vizier"):
            return "This game is played without the Vizier's Favour module (V1)."
        if state.phase in (FINAL, OVER):
            return "Viziers cannot be used during the end-of-game distribution of leftover tiles (V9)."
        if state.phase != ACTION or not state.window:
            return ("The vizier can only be used between two turns: after a player's turn has ended and before "
                    "the next player acts (V4, V12).")
        if not seat.vizier:
            return "Your vizier is inactive: turn it back to active as an action on your turn first (V6, V8)."
        if action.tile in HUT_TYPE:
            return "A vizier cannot take a Worker's Hut (V10)."
        problem = self._check_payment(state, seat, action.tile, action.cards)
        if problem:
            return problem
        paid = sum(value_of(c) for c in action.cards if is_money(c))
        price = PRICE[action.tile]
        if paid != price:
            return (f"With the vizier you must pay exactly: the {tile_name(action.tile)} costs {price}; you offered "
                    f"{paid} (V5).")
        return None

    def _check_hut(self, state: GameState, seat: PlayerState, action: TakeHut) -> str | None:
        """V22, V25: a face-up hut, at most 3 per player per game."""
        if not state.options.get("huts"):
            return "This game is played without the Worker's Huts module (V20)."
        if seat.huts_taken >= HUT_LIMIT:
            return f"You have already taken {HUT_LIMIT} huts, the most a player may acquire in a game (V25)."
        if not any(stack and stack[-1] == action.hut for stack in state.huts):
            if any(action.hut in stack for stack in state.huts):
                return f"The {tile_name(action.hut)} is not face up: only the top hut of each stack can be taken (V22)."
            return "That hut is not available: take one of the face-up huts (V22)."
        return None

    def _check_take(self, state: GameState, action: TakeMoney) -> str | None:
        cards = action.cards
        if not cards:
            return "Choose at least one card from the money display (A19)."
        if len(set(cards)) != len(cards):
            return "Each card can be taken only once."
        if any(c not in state.display for c in cards):
            return "You can only take cards shown in the money display (A19)."
        if not all(is_money(c) for c in cards):
            if len(cards) > 1:
                return ("An exchange card is taken on its own: taking it is the whole take-money action, with no "
                        "money cards (V43).")
            return None
        total = sum(value_of(c) for c in cards)
        if len(cards) > 1 and total > 5:
            return (f"Several cards may be taken only if they total 5 or less; {cards_text(cards)} make {total}. "
                    f"Take one card of any value, or cards worth at most 5 together (A19).")
        return None

    def _check_buy(self, state: GameState, seat: PlayerState, action: BuyTile) -> str | None:
        if action.tile in HUT_TYPE:
            return "Huts are not bought: taking a face-up hut is an action of its own (V22, V23)."
        return self._check_payment(state, seat, action.tile, action.cards)

    def _check_payment(self, state: GameState, seat: PlayerState, tile: str, cards: tuple[int, ...]) -> str | None:
        """A21, A25 (and V45 with an exchange card): a market tile, cards in hand, the right currency, enough."""
        if tile not in state.market:
            return f"The {tile_name(tile)} is not on the market (A21)."
        space = state.market.index(tile)
        currency = CURRENCIES[space]
        name = tile_name(tile)
        if not cards:
            return f"Choose the {currency} cards to pay for the {name} with (A21)."
        if len(set(cards)) != len(cards):
            return "Each card can be paid only once."
        hand = set(seat.hand)
        if any(c not in hand for c in cards):
            return "You can only pay with cards in your hand (A25)."
        exchange = [c for c in cards if c in EXCHANGE_PAIRS]
        if exchange:
            if len(exchange) > 1:
                return "Only one exchange card can be used for a purchase (V45)."
            a, b = EXCHANGE_PAIRS[exchange[0]]
            xname = exchange_name(exchange[0])
            if space not in (a, b):
                return (f"The {xname} only helps to buy a tile on a {CURRENCIES[a]} or {CURRENCIES[b]} space; the "
                        f"{name} lies on the {currency} space (V45).")
            wrong = [c for c in cards if c not in EXCHANGE_PAIRS and (not is_money(c) or currency_of(c) not in (a, b))]
            if wrong:
                return (f"With the {xname} you may pay with {CURRENCIES[a]} and {CURRENCIES[b]} cards only; "
                        f"{cards_text(wrong)} {'is' if len(wrong) == 1 else 'are'} neither (V45).")
        else:
            wrong = [c for c in cards if not is_money(c) or currency_of(c) != space]
            if wrong:
                return (f"The {name} lies on the {currency} space: pay only with {currency} cards; "
                        f"{cards_text(wrong)} {'is' if len(wrong) == 1 else 'are'} not {currency} (A21).")
        paid = sum(value_of(c) for c in cards if is_money(c))
        price = PRICE[tile]
        if paid < price:
            return f"That tile costs {price} {currency}; you offered {paid} (A21)."
        return None

    def _check_pass(self, state: GameState, player: str) -> str | None:
        if state.bonus:
            return None  # A22: the extra action is an option ("may")
        if state.display or any(not isinstance(a, Pass) for a in self._actions(state, player, generous=False)):
            return "You must take one action: take money, buy a tile or redesign your Alhambra (A18, A26)."
        return None  # A26 [U]: nothing is possible, the turn ends without an action

    def _check_redesign(self, seat: PlayerState, action: Any) -> str | None:
        if isinstance(action, RedesignAdd | RedesignSwap) and action.tile not in seat.reserve:
            if action.tile in seat.pending:
                return ("Tiles bought this turn can't be used for a redesign; they are placed at the end of the "
                        "turn (A28).")
            return f"The {tile_name(action.tile)} is not on your reserve (A33)."
        if isinstance(action, RedesignAdd):
            problem = geo.placement_problem(seat.alhambra, action.tile, action.cell)
            return problem.replace("(A31", "(A33a, A31") if problem else None
        cell = self._cell_of(seat, action.tile if isinstance(action, RedesignRemove) else action.replaces)
        if cell is None:
            name = action.tile if isinstance(action, RedesignRemove) else action.replaces
            return f"The {tile_name(name)} is not in your Alhambra (A33)."
        if isinstance(action, RedesignRemove):
            return geo.removal_problem(seat.alhambra, cell)
        return geo.swap_problem(seat.alhambra, cell, action.tile)

    @staticmethod
    def _cell_of(seat: PlayerState, tile: str) -> tuple[int, int] | None:
        for cell, t in seat.alhambra.items():
            if t == tile:
                return cell
        return None

    # ------------------------------------------------------------------------------------------ listing

    def candidates(self, state: GameState, player: str) -> list[Any]:
        """Generous candidates (every frontier cell, every swap pair...); `check` decides."""
        if player not in self.to_move(state):
            return []
        return self._actions(state, player, generous=True)

    def legal_actions(self, state: GameState, player: str) -> list[Any]:
        """Exactly the actions `check` accepts, except that payments are listed once per multiset of card values
        and only when minimal (A21: any valid payment is accepted by apply)."""
        if state.phase == OVER or player not in self.to_move(state):
            return []
        return self._actions(state, player, generous=False)

    def _actions(self, state: GameState, player: str, generous: bool) -> list[Any]:
        """The listing. With `generous`, positions and swaps are not filtered (check does that)."""
        seat = state.seat(player)
        alh = seat.alhambra
        out: list[Any] = []
        if state.phase != ACTION:
            if generous:
                cells = geo.frontier(alh)
            else:
                slots = geo.state_open_slots(alh)
            for tile in seat.pending:
                out.extend(PlaceTile(tile, c) for c in (cells if generous else geo.legal_cells(alh, tile, slots)))
                out.append(ReserveTile(tile))
                # A66, V11: any purchase may go to Dirk (a vizier purchase too); huts never do (V25, V30)
                if state.two_player and (generous or (state.phase != FINAL and tile not in HUT_TYPE)):
                    out.append(GiveToDirk(tile))
            return out
        if player != state.players[state.current]:  # a vizier claimant during the window (V4, V12)
            return self._vizier_buys(state, seat)
        out.extend(_take_options(state.display))
        hand = seat.hand
        for tile, own in _market_money(state.market, hand):
            out.extend(BuyTile(tile, cards) for cards in _payments(own, PRICE[tile]))
        options = state.options
        if options:  # the Vizier's Favour modules (an empty dict: a base game stored before they existed)
            if options.get("exchange") and hand and hand[-1] > 2000:  # exchange cards sort last in the hand
                out.extend(self._exchange_buys(state, seat, BuyTile, exact=False))
            if options.get("huts") and seat.huts_taken < HUT_LIMIT:  # V22, V25
                out.extend(TakeHut(stack[-1]) for stack in state.huts if stack)
            if options.get("vizier"):
                if state.window and seat.vizier:  # V4: the next player may use their vizier before acting
                    out.extend(self._vizier_buys(state, seat))
                if not seat.vizier:  # V8
                    out.append(ReactivateVizier())
        reserve = seat.reserve
        if reserve:
            if generous:
                cells = geo.frontier(alh)
            else:
                slots = geo.state_open_slots(alh)
            for tile in reserve:
                out.extend(RedesignAdd(tile, c) for c in (cells if generous else geo.legal_cells(alh, tile, slots)))
        removable = None if generous else geo.state_removable_cells(alh)
        for cell, tile in alh.items():
            if cell == (0, 0):
                continue
            if generous or cell in removable:
                out.append(RedesignRemove(tile))
            if reserve:
                present, walled = geo.needs(alh, cell[0], cell[1])
                for new in reserve:
                    w = WALLS[new]
                    if generous or (w & present == walled and present & ~w):
                        out.append(RedesignSwap(new, tile))
        if state.bonus or not out or generous:
            out.append(Pass())
        return out

    def _vizier_buys(self, state: GameState, seat: PlayerState, first: bool = False) -> list[VizierBuy]:
        """V5, V11: every exact payment for every market tile (one per multiset of cards), with an exchange card
        where one helps; with `first`, stop at the first (is there any?)."""
        out: list[VizierBuy] = []
        hand = seat.hand
        for tile, own in _market_money(state.market, hand):
            out.extend(VizierBuy(tile, cards) for cards in _exact_payments(own, PRICE[tile]))
            if first and out:
                return out
        if hand and hand[-1] > 2000:
            out.extend(self._exchange_buys(state, seat, VizierBuy, exact=True))
        return out

    @staticmethod
    def _exchange_buys(state: GameState, seat: PlayerState, cls: type, exact: bool) -> list[Any]:
        """V45: payments of one market tile with one exchange card and cards of its two currencies (at least one
        of the other currency: otherwise the card would be wasted), minimal, one per multiset of cards."""
        out = []
        hand = seat.hand
        for x in hand:
            pair = EXCHANGE_PAIRS.get(x)
            if pair is None:
                continue
            mixed = tuple(c for c in hand if 0 <= c < 108 and c // 27 in pair)
            for space in pair:
                tile = state.market[space]
                if tile is None:
                    continue
                other = pair[1] if pair[0] == space else pair[0]
                for cards in _mixed_payments(mixed, PRICE[tile], other, exact):
                    out.append(cls(tile, tuple(sorted(cards + (x,)))))
        return out

    # ------------------------------------------------------------------------------------------ applying

    def step(self, state: GameState, player: str, action: Any) -> GameState:
        kind = type(action)
        if kind in FREE_ACTIONS:
            return self._step_free(state, player, action)
        idx = state.players.index(player)
        seat = state.seats[idx]
        # the move event comes first, then what it causes; `log` goes into the branch's own rebuild of the state
        log = state.log + (self._move_event(state, seat, player, action),)
        if state.window and state.phase == ACTION and kind is not VizierBuy:
            state = replace(state, window=False)  # V12: the next player's first action closes the window
        if kind is VizierBuy:  # V6: flip the vizier, pay exactly, place the tile at once (VIZIER phase)
            paid = set(action.cards)
            space = state.market.index(action.tile)
            seat = replace(seat, hand=tuple(c for c in seat.hand if c not in paid),
                           pending=seat.pending + (action.tile,), vizier=False)
            market = tuple(None if t == action.tile else t for t in state.market)
            event = Event("vizier", f"uses the vizier: buys the {tile_name(action.tile)} out of turn with "
                                    f"{cards_text(action.cards)} (V6).", player=player,
                          data={"tile": action.tile, "space": space, "cards": list(action.cards)})
            return replace(state, market=market, discard=state.discard + tuple(sorted(action.cards)),
                           seats=_set(state.seats, idx, seat), phase=VIZIER, claimant=idx,
                           log=log + (event,))
        if kind is TakeHut:  # V22: the face-up hut; the next one of its stack turns up; placed at turn end (V24)
            k = TYPES.index(HUT_TYPE[action.hut])
            stack = state.huts[k][:-1]
            seat = replace(seat, pending=seat.pending + (action.hut,), huts_taken=seat.huts_taken + 1)
            shown = f"; the {tile_name(stack[-1])} turns up" if stack else "; that stack is used up"
            event = Event("hut", f"takes the {tile_name(action.hut)} (V22){shown}.", player=player,
                          data={"hut": action.hut, "type": HUT_TYPE[action.hut],
                                "revealed": stack[-1] if stack else None})
            state = replace(state, huts=_set(state.huts, k, stack), seats=_set(state.seats, idx, seat),
                            log=log + (event,))
            return self._finish_actions(state)  # V23: a hut is never an exact payment
        if kind is ReactivateVizier:  # V8: counts as the action
            seat = replace(seat, vizier=True)
            return self._finish_actions(replace(state, seats=_set(state.seats, idx, seat), log=log))
        if kind is TakeMoney:  # A19
            taken = set(action.cards)
            seat = replace(seat, hand=tuple(sorted(seat.hand + action.cards)))
            state = replace(state, display=tuple(c for c in state.display if c not in taken),
                            seats=_set(state.seats, idx, seat), log=log)
            return self._finish_actions(state)
        if kind is BuyTile:  # A21, A22
            paid = set(action.cards)
            seat = replace(seat, hand=tuple(c for c in seat.hand if c not in paid),
                           pending=seat.pending + (action.tile,))
            market = tuple(None if t == action.tile else t for t in state.market)  # A23: no refill yet
            exact = sum(value_of(c) for c in action.cards if c < 108) == PRICE[action.tile]  # A22, V45
            state = replace(state, market=market, discard=state.discard + tuple(sorted(action.cards)),
                            seats=_set(state.seats, idx, seat), bonus=exact, log=log)
            return state if exact else self._finish_actions(state)
        if kind is Pass:
            return self._finish_actions(replace(state, log=log))
        if kind is RedesignAdd:  # A33a
            alh = dict(seat.alhambra)
            alh[action.cell] = action.tile
            seat = replace(seat, alhambra=alh, reserve=_without(seat.reserve, action.tile))
            return self._finish_actions(replace(state, seats=_set(state.seats, idx, seat), log=log))
        if kind is RedesignRemove:  # A33b
            alh = {c: t for c, t in seat.alhambra.items() if t != action.tile}
            seat = replace(seat, alhambra=alh, reserve=seat.reserve + (action.tile,))
            state = replace(state, seats=_set(state.seats, idx, seat), log=log)
            if action.tile in seat.bonus_played:
                state = _bonus_back(state, idx, action.tile)
            return self._finish_actions(state)
        if kind is RedesignSwap:  # A33c
            alh = {c: (action.tile if t == action.replaces else t) for c, t in seat.alhambra.items()}
            reserve = _without(seat.reserve, action.tile) + (action.replaces,)
            seat = replace(seat, alhambra=alh, reserve=reserve)
            state = replace(state, seats=_set(state.seats, idx, seat), log=log)
            if action.replaces in seat.bonus_played:
                state = _bonus_back(state, idx, action.replaces)
            return self._finish_actions(state)
        # placing a waiting tile (A27, A51, A66)
        pending = _without(seat.pending, action.tile)
        dirk = state.dirk
        if kind is PlaceTile:
            alh = dict(seat.alhambra)
            alh[action.cell] = action.tile
            seat = replace(seat, alhambra=alh, pending=pending)
        elif kind is ReserveTile:
            seat = replace(seat, reserve=seat.reserve + (action.tile,), pending=pending)
        else:  # GiveToDirk
            seat = replace(seat, pending=pending)
            dirk = dirk + (action.tile,)
            # Dirk is the subject, not the giver (the bot writes an event's player before its text)
            log = log + (Event("dirk_tiles", f"Dirk receives the {tile_name(action.tile)} (A66).",
                               data={"tiles": [action.tile], "reason": "gift", "from": player}),)
        state = replace(state, seats=_set(state.seats, idx, seat), dirk=dirk, log=log)
        if state.phase == PLACE:
            return state if pending else self._end_turn(state)
        if state.phase == VIZIER:
            return state if pending else self._vizier_done(state)
        if any(s.pending for s in state.seats):
            return state
        return self._final_scoring(state)

    def _step_free(self, state: GameState, player: str, action: Any) -> GameState:
        """V62/V63: a bonus card is played face up (public); V66: a new standing order (private: no move event,
        only the private note)."""
        idx = state.players.index(player)
        seat = state.seats[idx]
        if isinstance(action, SetBonusAutoplay):
            seat = replace(seat, bonus_auto=action.mode)
            events: tuple[Event, ...] = (
                Event("bonus_autoplay_set", f"{AUTOPLAY_ORDER[action.mode]} (V66).", player=player,
                      data={"mode": action.mode}, private_to=player),)
        else:
            typ = TYPE_OF[action.card]
            events = (self._move_event(state, seat, player, action),
                      Event("bonus_play", f"plays the bonus card for the {tile_name(action.card)}: it counts as one "
                                          f"more {TYPE_NAMES[typ]} in every scoring (V62, V63).", player=player,
                            data={"cards": [action.card], "type": typ}))
            seat = replace(seat, bonus_hand=_without(seat.bonus_hand, action.card),
                           bonus_played=seat.bonus_played + (action.card,))
        return replace(state, seats=_set(state.seats, idx, seat), log=state.log + events)

    def _move_event(self, state: GameState, seat: PlayerState, player: str, action: Any) -> Event:
        """The public "move" event of an action about to be applied: `describe`'s words, the action's JSON, and
        where it happened for the board image: `space` (the market space 0-3 of a purchase) or `cell` (the
        Alhambra cell a swap or a played bonus card concerns; placements carry theirs in the action). Everything
        in it is public: bought tiles, paid cards (they go to the discard, A21), played bonus cards (V62).
        A free action (a bonus card) is marked `free`: it interrupts nobody's turn."""
        kind = type(action)
        data: dict[str, Any] = {"action": self.action_to_json(action)}
        if kind is BuyTile or kind is VizierBuy:
            data["space"] = state.market.index(action.tile)
        elif kind is RedesignSwap:
            data["cell"] = list(self._cell_of(seat, action.replaces))
        elif kind is PlayBonus:
            data["cell"] = list(self._cell_of(seat, action.card))
            data["free"] = True
        return Event("move", describe(action), player=player, data=data)

    def _vizier_done(self, state: GameState) -> GameState:
        """V6, V7, V11: the vizier purchase is placed: refill the market (and the display if it was short), score
        a revealed scoring card, then the window is open again for the others, or the game ends (A50)."""
        state = replace(state, phase=ACTION, claimant=-1)
        state, rounds, ended = self._refill(state)
        for rnd in rounds:
            state = self._scoring(state, rnd)
        if ended:
            return self._game_end(state)
        return state

    def _finish_actions(self, state: GameState) -> GameState:
        """The player's actions are over: place the bought tiles (A27), or end the turn right away."""
        state = replace(state, bonus=False)
        if state.seats[state.current].pending:
            return replace(state, phase=PLACE)
        return self._end_turn(state)

    def _end_turn(self, state: GameState) -> GameState:
        """A24: refill the money display (A39–A41) and the market (A42), score a revealed scoring card (A40,
        A43), then the next player's turn, or the end of the game when the market could not be refilled (A50)."""
        state, rounds, ended = self._refill(state)
        for rnd in rounds:
            state = self._scoring(state, rnd)
        if ended:
            return self._game_end(state)
        return self._next_turn(state)

    def _refill(self, state: GameState) -> tuple[GameState, list[int], bool]:
        """A39–A42 (V42: exchange cards fill the display like money): the refilled state, the scoring rounds
        whose cards were revealed, and whether the market could not be refilled (A50)."""
        log = list(state.log)
        counter = state.rng_counter
        display = list(state.display)
        deck = list(state.deck)
        discard = list(state.discard)
        rounds: list[int] = []
        while len(display) < 4:
            if not deck:
                if not discard:
                    break  # A41: deck and discard empty, the display stays incomplete
                shuffled_deck, counter = shuffled(discard, state.seed, counter)
                deck, discard = list(shuffled_deck), []
                log.append(Event("reshuffle", "The money deck is used up: the discard pile is shuffled to make a "
                                              "new deck (A41)."))
            card = deck.pop()
            if card in SCORING_CARDS:  # A40: set aside, keep drawing, score before the next turn
                rnd = 1 if card == SCORING_1 else 2
                rounds.append(rnd)
                log.append(Event("scoring_card", f"The {ORDINAL[rnd]} scoring card is drawn: scoring round {rnd} "
                                                 f"follows (A40).", data={"round": rnd}))
            else:
                display.append(card)
        market = list(state.market)
        bag = list(state.bag)
        ended = False
        for i in range(4):  # A42: spaces 1 -> 4
            if market[i] is None:
                if bag:
                    market[i] = bag.pop()
                else:
                    ended = True  # A50
        state = replace(state, display=tuple(display), deck=tuple(deck), discard=tuple(discard),
                        market=tuple(market), bag=tuple(bag), rng_counter=counter, log=tuple(log))
        return state, rounds, ended

    def _next_turn(self, state: GameState) -> GameState:
        """The next player (clockwise = seat order, A14) begins; with the vizier module the window opens (V4,
        V12: after the refill and any scoring, V11) until that player's first action."""
        n = len(state.players)
        return replace(state, phase=ACTION, current=(state.current + 1) % n, bonus=False, turn=state.turn + 1,
                       window=bool(state.options.get("vizier")))

    def _scoring(self, state: GameState, rnd: int) -> GameState:
        """A43–A49 (and A65 for Dirk); after rounds 1 and 2 Dirk draws tiles (A63, A64). With the modules: the
        standing orders for bonus cards first (V66), then huts (V27) and played bonus cards (V63) add buildings."""
        options = state.options
        if options.get("bonus"):
            state = self._autoplay(state, rnd)
        participants: list[tuple[str | None, Any, dict | None, int]] = [
            (p, seat.alhambra.values(), seat.alhambra, seat.score)
            for p, seat in zip(state.players, state.seats, strict=True)]
        if state.two_player:
            participants.append((None, state.dirk, None, state.dirk_score))
        extras = None
        if options.get("huts") or options.get("bonus"):
            extras = [(hut_counts(seat.alhambra), bonus_counts(seat.bonus_played)) for seat in state.seats]
        result = score_round(rnd, participants, extras)
        seats = tuple(replace(seat, score=line.score)
                      for seat, line in zip(state.seats, result.lines, strict=False))
        dirk_score = result.lines[-1].score if state.two_player else state.dirk_score
        log = list(state.log)
        log.append(Event("scoring", f"Scoring round {rnd}{' (final)' if rnd == 3 else ''}.",
                         data={"round": rnd}))  # the breakdown: one "score" event per participant
        for line in result.lines:
            if line.player is None:
                log.append(Event("score", "Dirk " + line_text(line) + ".", data={"round": rnd, "dirk": True,
                                                                              **_line_data(line)}))
            else:
                log.append(Event("score", line_text(line) + ".", player=line.player,
                                 data={"round": rnd, **_line_data(line)}))
        bag = state.bag
        dirk = state.dirk
        if state.two_player and rnd in (1, 2):
            want = 6 if rnd == 1 else len(bag) // 3  # A63 / A64
            got = bag[len(bag) - min(want, len(bag)):][::-1]
            bag = bag[:len(bag) - len(got)]
            dirk = dirk + got
            rule = "A63" if rnd == 1 else "A64"
            if got:
                log.append(Event("dirk_tiles", f"Dirk receives {len(got)} tile{'s' if len(got) != 1 else ''} from "
                                               f"the bag: {_names(got)} ({rule}).",
                                 data={"tiles": list(got), "reason": f"round {rnd}"}))
        return replace(state, seats=seats, dirk_score=dirk_score, scorings=state.scorings + (result,), bag=bag,
                       dirk=dirk, log=tuple(log))

    def _autoplay(self, state: GameState, rnd: int) -> GameState:
        """V62, V66: right before scoring round `rnd`, each player's standing order plays their playable bonus
        cards ("every": before every round; "final": before round 3; "never": not at all), in seat order."""
        for idx, seat in enumerate(state.seats):
            mode = seat.bonus_auto
            if not seat.bonus_hand or not (mode == AUTO_EVERY or (mode == AUTO_FINAL and rnd == 3)):
                continue
            built = set(seat.alhambra.values())
            cards = tuple(c for c in seat.bonus_hand if c in built)
            if not cards:
                continue
            seat = replace(seat, bonus_hand=tuple(c for c in seat.bonus_hand if c not in cards),
                           bonus_played=seat.bonus_played + cards)
            event = Event("bonus_autoplay", f"plays the bonus card{'s' if len(cards) > 1 else ''} for the "
                                            f"{_names(cards)} before scoring round {rnd} (standing order, V62, "
                                            f"V66).", player=state.players[idx],
                          data={"cards": list(cards), "round": rnd})
            state = replace(state, seats=_set(state.seats, idx, seat), log=state.log + (event,))
        return state

    def _game_end(self, state: GameState) -> GameState:
        """A50–A51: the market could not be refilled. Each leftover tile goes to the player with the most money
        of its space's currency; on a tie, or if nobody has any, it leaves the game. Then placing, or A52."""
        log = list(state.log)
        log.append(Event("game_end_trigger", "The market cannot be refilled: the game ends (A50). Leftover tiles "
                                             "go to the players with the most money of their space's currency "
                                             "(A51)."))
        pending: list[list[str]] = [list(s.pending) for s in state.seats]
        removed = list(state.removed)
        for space, tile in enumerate(state.market):
            if tile is None:
                continue
            currency = CURRENCIES[space]
            # V47: only money counts here, exchange cards have no effect
            money = [sum(value_of(c) for c in seat.hand if is_money(c) and currency_of(c) == space)
                     for seat in state.seats]
            best = max(money)
            holders = [i for i, m in enumerate(money) if m == best]
            data = {"tile": tile, "currency": currency, "money": dict(zip(state.players, money, strict=True))}
            if best > 0 and len(holders) == 1:
                pending[holders[0]].append(tile)
                log.append(Event("leftover", f"receives the {tile_name(tile)} from the market: most {currency} in "
                                             f"hand, {best} (A51).", player=state.players[holders[0]], data=data))
            else:
                removed.append(tile)
                why = "nobody holds any" if best == 0 else f"a tie for most {currency} ({best})"
                log.append(Event("leftover", f"The {tile_name(tile)} leaves the game: {why} (A51).", data=data))
        seats = tuple(replace(s, pending=tuple(p)) for s, p in zip(state.seats, pending, strict=True))
        state = replace(state, seats=seats, market=(None,) * 4, removed=tuple(removed), log=tuple(log),
                        phase=FINAL, bonus=False, window=False, claimant=-1)  # V9: no vizier from here on
        if any(pending):
            return state
        return self._final_scoring(state)

    def _final_scoring(self, state: GameState) -> GameState:
        """A52–A53, A68: the third scoring round, then the game is over."""
        state = self._scoring(state, 3)
        scores = self.scores(state)
        best = max(scores.values())
        winners = [p for p in state.players if scores[p] == best]
        data: dict[str, Any] = {"scores": scores, "winners": winners}
        text = "The game is over."
        if state.two_player:
            data["dirk_score"] = state.dirk_score
            if state.dirk_score > best:
                text += f" Dirk finished ahead with {state.dirk_score} points, but only players can win (A68)."
        return replace(state, phase=OVER, log=state.log + (Event("game_end", text, data=data),))

    # ------------------------------------------------------------------------------------------ views, JSON

    def view(self, state: GameState, player: str | None) -> GameState:
        """Own hand only; other hands become HIDDEN_CARD placeholders (counts stay public, A20; exchange cards
        too, V44); the deck order, the bag order and the seed are removed. Modules: other players' unplayed
        bonus cards and standing orders, the bonus cards set aside, and the huts below each stack's face-up
        top are hidden (HIDDEN placeholders keep the counts)."""
        bonus = bool(state.options.get("bonus"))
        seats = tuple(seat if p == player else _hide_seat(seat, bonus)
                      for p, seat in zip(state.players, state.seats, strict=True))
        extra: dict[str, Any] = {}
        if state.huts:
            extra["huts"] = tuple((HIDDEN,) * (len(s) - 1) + s[-1:] for s in state.huts)
        if state.bonus_aside:
            extra["bonus_aside"] = (HIDDEN,) * len(state.bonus_aside)
        return replace(state, seed=None, seats=seats, deck=(HIDDEN_CARD,) * len(state.deck),
                       bag=tuple(sorted(state.bag)), log=visible_log(state.log, player), **extra)

    def describe(self, action: Any) -> str:
        return describe(action)

    def validate(self, state: GameState) -> None:
        problem = state_problem(state)
        if problem:
            raise ValueError(f"invalid Alhambra state: {problem}")

    def summary(self, options: dict[str, Any] | None = None) -> str:
        on = [m for m in MODULES if (options or {}).get(m)]
        if not on:
            return SUMMARY
        return SUMMARY + "\n**The Vizier's Favour**\n" + "\n".join(MODULE_SUMMARY[m] for m in on)


# --------------------------------------------------------------------------------------------- helpers


def minimal_payments(hand: tuple[int, ...], space: int, price: int) -> list[tuple[int, ...]]:
    """A21: every distinct minimal payment (by multiset of values) from `hand` in the currency of market
    `space`: sum >= price, and leaving out any card would make it too little. Cheapest first."""
    own = tuple(c for c in hand if 0 <= c < 108 and c // 27 == space)
    return list(_payments(own, price)) if own else []


def _market_money(market: tuple[str | None, ...], hand: tuple[int, ...]) -> Iterable[tuple[str, tuple[int, ...]]]:
    """A21: each market tile with the hand's money cards of its space's currency (tiles with none left out)."""
    for space, tile in enumerate(market):
        if tile is not None:
            own = tuple(c for c in hand if 0 <= c < 108 and c // 27 == space)
            if own:
                yield tile, own


@functools.lru_cache(maxsize=1 << 16)
def _payments(cards: tuple[int, ...], price: int) -> tuple[tuple[int, ...], ...]:
    """minimal_payments for the cards of one currency (sorted ids); cached, hands repeat a lot."""
    groups: dict[int, list[int]] = {}
    for c in cards:
        groups.setdefault((c % 27) // 3 + 1, []).append(c)
    found = _minimal_sets([(v, groups[v]) for v in sorted(groups, reverse=True)], price)
    found.sort(key=lambda f: (f[0], len(f[1]), sorted(value_of(c) for c in f[1])))
    return tuple(tuple(sorted(cards)) for _, cards in found)


def _minimal_sets(groups: list[tuple[int, list[int]]], price: int) -> list[tuple[int, tuple[int, ...]]]:
    """A21: every minimal set of cards worth at least `price`, one per multiset of groups used, as (total, ids).
    `groups` are the interchangeable cards as (value, ids), in falling value order."""
    found: list[tuple[int, tuple[int, ...]]] = []

    def walk(start: int, total: int, chosen: tuple[int, ...]) -> None:
        # values are chosen in falling order, so the newest value is the smallest card: the payment is
        # minimal iff dropping one of those still leaves too little
        for j in range(start, len(groups)):
            v, ids = groups[j]
            for k in range(1, len(ids) + 1):
                t = total + k * v
                if t >= price:
                    found.append((t, chosen + tuple(ids[:k])))
                    break
                walk(j + 1, t, chosen + tuple(ids[:k]))

    walk(0, 0, ())
    return found


@functools.lru_cache(maxsize=1 << 12)
def _exact_payments(cards: tuple[int, ...], price: int) -> tuple[tuple[int, ...], ...]:
    """V5: the payments of `_payments` that are exact (an exact payment is always minimal)."""
    return tuple(p for p in _payments(cards, price) if sum((c % 27) // 3 + 1 for c in p) == price)


@functools.lru_cache(maxsize=1 << 14)
def _mixed_payments(cards: tuple[int, ...], price: int, other: int, exact: bool) -> tuple[tuple[int, ...], ...]:
    """V45: minimal payments from money cards of two currencies (one per multiset of (currency, value)) that
    use at least one card of currency `other`; only exact ones if `exact`. Cheapest first."""
    groups: dict[tuple[int, int], list[int]] = {}
    for c in cards:
        groups.setdefault(card_key(c), []).append(c)
    keys = sorted(groups, key=lambda k: (-k[1], k[0]))  # (currency, value): falling values
    found = _minimal_sets([(k[1], groups[k]) for k in keys], price)
    found = [f for f in found if (not exact or f[0] == price) and any(c // 27 == other for c in f[1])]
    found.sort(key=lambda f: (f[0], len(f[1]), sorted(card_key(c) for c in f[1])))
    return tuple(tuple(sorted(cards)) for _, cards in found)


@functools.lru_cache(maxsize=1 << 14)
def _take_options(display: tuple[int, ...]) -> tuple[TakeMoney, ...]:
    """A19: each distinct single card, and each distinct set of 2+ money cards worth at most 5 together (V43:
    an exchange card is only ever taken alone)."""
    seen: set[tuple] = set()
    out = []
    for size in range(1, len(display) + 1):
        for combo in itertools.combinations(display, size):
            if size > 1 and (sum(value_of(c) for c in combo) > 5 or any(c > 2000 for c in combo)):
                continue
            key = tuple(sorted(card_key(c) if c < 2000 else (c, 0) for c in combo))
            if key not in seen:
                seen.add(key)
                out.append(TakeMoney(tuple(sorted(combo))))
    return tuple(out)


def _hide_seat(seat: PlayerState, bonus: bool) -> PlayerState:
    """Another player's seat as a viewer sees it: card counts, but not the cards (A20, V44, V61, V66)."""
    if bonus:
        return replace(seat, hand=(HIDDEN_CARD,) * len(seat.hand), bonus_hand=(HIDDEN,) * len(seat.bonus_hand),
                       bonus_auto="")
    return replace(seat, hand=(HIDDEN_CARD,) * len(seat.hand))


def _bonus_back(state: GameState, idx: int, card: str) -> GameState:
    """V64: the bonus card's building left the Alhambra: the card returns to the hand and stops counting."""
    seat = state.seats[idx]
    seat = replace(seat, bonus_played=_without(seat.bonus_played, card), bonus_hand=seat.bonus_hand + (card,))
    event = Event("bonus_returned", f"takes the bonus card for the {tile_name(card)} back into the hand: the tile "
                                    f"left the Alhambra (V64).", player=state.players[idx], data={"cards": [card]})
    return replace(state, seats=_set(state.seats, idx, seat), log=state.log + (event,))


def _is_cell(cell: Any) -> bool:
    return (type(cell) is tuple and len(cell) == 2 and all(type(v) is int for v in cell))


def _set(seq: tuple, i: int, value: Any) -> tuple:
    return seq[:i] + (value,) + seq[i + 1:]


def _without(seq: tuple[str, ...], item: str) -> tuple[str, ...]:
    i = seq.index(item)
    return seq[:i] + seq[i + 1:]


def _line_data(line) -> dict[str, Any]:
    return {"player": line.player, "counts": dict(line.counts), "majorities": dict(line.majorities),
            "wall": line.wall, "total": line.total, "score": line.score}


def state_problem(state: GameState) -> str | None:
    """Why a decoded state is impossible (A80–A82 and shape checks), or None. Views (seed None) skip what
    they hide."""
    n = len(state.players)
    if n not in range(2, 7) or len(set(state.players)) != n:
        return "bad players"
    if len(state.seats) != n or not 0 <= state.current < n:
        return "bad seats or current player"
    if state.phase not in PHASES:
        return f"unknown phase {state.phase!r}"
    if state.phase == VIZIER and not (0 <= state.claimant < n and state.seats[state.claimant].pending):
        return "the vizier phase needs a claimant with a tile to place (V6)"
    if len(state.market) != 4:
        return "the market must have 4 spaces"
    for seat in state.seats:
        problem = geo.alhambra_problem(seat.alhambra)
        if problem:
            return f"illegal Alhambra (A82): {problem}"
        if seat.huts_taken > HUT_LIMIT:
            return f"a player acquired {seat.huts_taken} huts (V25: at most {HUT_LIMIT})"
        if any(t not in seat.alhambra.values() for t in seat.bonus_played):
            return "a played bonus card whose building is not in that Alhambra (V62, V64)"
    if state.seed is None:
        return None
    # A80: every building tile exactly once; V20/V25: every hut exactly once, each player's count matching
    tiles = list(state.bag) + [t for t in state.market if t is not None] + list(state.dirk) + list(state.removed)
    huts = [h for stack in state.huts for h in stack]
    for k, stack in enumerate(state.huts):
        if len(state.huts) != 6 or any(HUT_TYPE.get(h) != TYPES[k] for h in stack):
            return "hut stacks must be the six colours in order (V21)"
    for seat in state.seats:
        held = [t for c, t in seat.alhambra.items() if c != (0, 0)] + list(seat.reserve) + list(seat.pending)
        mine = [t for t in held if t in HUT_TYPE]
        if len(mine) != seat.huts_taken:
            return f"a player holds {len(mine)} huts but took {seat.huts_taken} (V25)"
        huts += mine
        tiles += [t for t in held if t not in HUT_TYPE]
    if sorted(tiles) != sorted(BUILDING_TILES):
        return f"tile conservation (A80) broken: {len(tiles)} tiles"
    if sorted(huts) != (sorted(HUTS) if state.options.get("huts") else []):
        return f"hut conservation (V20) broken: {len(huts)} huts"
    # V40/V48: the exchange cards exactly once (they are never money)
    exchange = [c for c in (*state.deck, *state.display, *state.discard) if c in EXCHANGE_PAIRS]
    exchange += [c for seat in state.seats for c in seat.hand if c in EXCHANGE_PAIRS]
    if sorted(exchange) != (list(EXCHANGE_CARDS) if state.options.get("exchange") else []):
        return f"exchange card conservation (V40) broken: {len(exchange)} cards"
    # V60/V61: the bonus cards exactly once (hands, played, set aside)
    bonus = list(state.bonus_aside) + [c for seat in state.seats for c in (*seat.bonus_hand, *seat.bonus_played)]
    if sorted(bonus) != (sorted(BONUS_CARDS) if state.options.get("bonus") else []):
        return f"bonus card conservation (V60) broken: {len(bonus)} cards"
    # A81: every money card exactly once
    cards = [c for c in (*state.deck, *state.display, *state.discard) if is_money(c)]
    for seat in state.seats:
        cards += [c for c in seat.hand if is_money(c)]
    if sorted(cards) != list(money_cards(n)):
        return f"money conservation (A81) broken: {len(cards)} cards"
    elsewhere = [*state.display, *state.discard, *(c for seat in state.seats for c in seat.hand)]
    if any(c in SCORING_CARDS for c in elsewhere) or len(set(state.deck)) != len(state.deck):
        return "a scoring card outside the deck, or a card twice in the deck (A40, A81)"
    return None


SUMMARY = """\
**Alhambra** — build the most splendid Alhambra. 2–6 players (with 2, the neutral *Dirk* collects tiles too).

**Your turn: one action** (A18)
• **Take money**: one card from the display, or several worth **5 or less** together (A19).
• **Buy a tile**: pay with cards of the **currency of its market space**, at least its price, no change (A21). \
Pay **exactly** and you get **another action** (A22), as often as you manage it.
• **Redesign**: move a reserve tile into your Alhambra, an Alhambra tile to the reserve, or exchange the two (A33).

**Turn end**: place each tile you bought in your Alhambra or on your reserve (2 players: or give it to Dirk) (A27). \
Then the display and market are refilled.

**Building** (A30–A31): no rotation; a tile must share a side with your Alhambra, touching sides must be both \
wall or both open, it must be reachable on foot from the fountain, and no empty space may be enclosed.

**Scoring** when each scoring card is drawn and at the end (A43–A48): most buildings of a type scores \
(round 1: 1st only; round 2: 1st/2nd; round 3: 1st/2nd/3rd); ties share the places' points, rounded down. \
Plus 1 point per segment of your **longest outer wall**.

**End** (A50–A52): when the market can't be refilled. Leftover tiles go to whoever holds the most of their space's \
currency; then the final scoring. Most points wins.
Positions are written as a column letter and a row number: your fountain is **M13**.
"""

MODULE_SUMMARY = {
    "vizier": "• **Vizier** (V3–V12): after any turn, before the next player acts, you may flip your active vizier "
              "to buy one market tile out of turn at **exactly** its price; place it at once. No extra action. On "
              "your turn, turning it back to active is an action (V8). Priority: the next player first (V7).",
    "huts": "• **Worker's Huts** (V20–V31): as your action take a face-up hut (free, never an extra action; at most "
            "**3 per game**). Place it like a tile. At scoring it counts one building of its colour per neighbouring "
            "building of that type with no wall between (V27).",
    "exchange": "• **Bureau de Change** (V40–V48): exchange cards turn up in the money display; taking one is your "
                "whole take-money action. Use it to pay one tile with any mix of its two currencies (V45); then it "
                "is discarded.",
    "bonus": "• **Bonus cards** (V60–V66): yours are secret. Play one (any time, not an action) once its building "
             "is in your Alhambra: it counts as one more building of that type. By default the bot plays them "
             "right before each scoring; change that with the standing order.",
}
