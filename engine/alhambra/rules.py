"""The Alhambra rules (base game, 2–6 players, with Dirk for 2): set-up, the single legality check, the
unchecked step, the fast legal-action generator, turn end (refill, scoring, end of game) and the player view.

Rule numbers refer to the project's Alhambra rules specification (A1–A83). Extension points for the Vizier's
Favour modules are the options dict in the state, the phase/to_move pair (a phase may list several movers),
`_deck_inserts` (cards shuffled into piles 2–4 at set-up), and BuyTile (a payment could gain an exchange card).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from typing import Any

from engine._common import Event, Rules, rng, shuffled, to_jsonable, visible_log
from engine.alhambra import geometry as geo
from engine.alhambra.actions import (
    ACTION_TYPES,
    BuyTile,
    GiveToDirk,
    Pass,
    PlaceTile,
    RedesignAdd,
    RedesignRemove,
    RedesignSwap,
    ReserveTile,
    TakeMoney,
    describe,
)
from engine.alhambra.components import (
    BUILDING_TILES,
    CURRENCIES,
    HIDDEN_CARD,
    PRICE,
    SCORING_1,
    SCORING_2,
    SCORING_CARDS,
    START_TILES,
    WALLS,
    card_key,
    cards_text,
    currency_of,
    is_money,
    money_cards,
    tile_name,
    value_of,
)
from engine.alhambra.scoring import line_text, score_round
from engine.alhambra.state import ACTION, FINAL, OVER, PHASES, PLACE, GameState, PlayerState

START_MONEY = 20  # A13: deal until a player's cards are worth at least this
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def _names(tiles) -> str:
    return ", ".join(tile_name(t) for t in tiles) or "no tiles"


class AlhambraRules(Rules):
    name = "alhambra"
    title = "Alhambra"
    player_counts = range(2, 7)
    options: dict = {}  # the Vizier's Favour modules will be added here as yes/no options
    state_type = GameState
    action_types = ACTION_TYPES

    # ------------------------------------------------------------------------------------------ set-up

    def _deck_inserts(self, options: dict[str, Any]) -> dict[int, list[int]]:
        """A16 step 2: the cards shuffled into piles (0-based index) of the split deck."""
        return {1: [SCORING_1], 3: [SCORING_2]}

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
        for index, cards in self._deck_inserts(options).items():
            for card in cards:
                pile = piles[index]
                pile.insert(rng(seed, counter).randint(0, len(pile)), card)
                counter += 1
        new_deck = tuple(reversed([c for pile in piles for c in pile]))

        seats = tuple(PlayerState(hand=h, alhambra={(0, 0): START_TILES[i]}) for i, h in enumerate(hands))
        return GameState(players=players, seed=seed, rng_counter=counter, options=dict(options), phase=ACTION,
                         current=first, bonus=False, seats=seats, market=market, display=display, deck=new_deck,
                         discard=(), bag=tuple(bag), dirk=dirk, log=tuple(log))

    # ------------------------------------------------------------------------------------------ whose move

    def to_move(self, state: GameState) -> list[str]:
        if state.phase in (ACTION, PLACE):
            return [state.players[state.current]]
        if state.phase == FINAL:  # A51: every recipient of leftover tiles places them, in any order
            return [p for p, seat in zip(state.players, state.seats, strict=True) if seat.pending]
        return []

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
        if player not in self.to_move(state):
            if state.phase == FINAL:
                return "You have no leftover tiles to place; waiting for the others (A51)."
            return "It is not your turn."
        seat = state.seat(player)
        kind = type(action)
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
            return self._check_redesign(seat, action)
        # PLACE or FINAL: only placing the waiting tiles
        if kind not in (PlaceTile, ReserveTile, GiveToDirk):
            if state.phase == FINAL:
                return "The game has ended: only the leftover market tiles are placed now (A51)."
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
        return None

    def _check_take(self, state: GameState, action: TakeMoney) -> str | None:
        cards = action.cards
        if not cards:
            return "Choose at least one card from the money display (A19)."
        if len(set(cards)) != len(cards):
            return "Each card can be taken only once."
        if any(c not in state.display for c in cards):
            return "You can only take cards shown in the money display (A19)."
        total = sum(value_of(c) for c in cards)
        if len(cards) > 1 and total > 5:
            return (f"Several cards may be taken only if they total 5 or less; {cards_text(cards)} make {total}. "
                    f"Take one card of any value, or cards worth at most 5 together (A19).")
        return None

    def _check_buy(self, state: GameState, seat: PlayerState, action: BuyTile) -> str | None:
        if action.tile not in state.market:
            return f"The {tile_name(action.tile)} is not on the market (A21)."
        space = state.market.index(action.tile)
        currency = CURRENCIES[space]
        cards = action.cards
        name = tile_name(action.tile)
        if not cards:
            return f"Choose the {currency} cards to pay for the {name} with (A21)."
        if len(set(cards)) != len(cards):
            return "Each card can be paid only once."
        hand = set(seat.hand)
        if any(c not in hand for c in cards):
            return "You can only pay with cards in your hand (A25)."
        wrong = [c for c in cards if not is_money(c) or currency_of(c) != space]
        if wrong:
            return (f"The {name} lies on the {currency} space: pay only with {currency} cards; "
                    f"{cards_text(wrong)} {'is' if len(wrong) == 1 else 'are'} not {currency} (A21).")
        paid = sum(value_of(c) for c in cards)
        price = PRICE[action.tile]
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
                if state.two_player and (state.phase == PLACE or generous):
                    out.append(GiveToDirk(tile))
            return out
        out.extend(_take_options(state.display))
        hand = seat.hand
        for space, tile in enumerate(state.market):
            if tile is not None:
                own = tuple(c for c in hand if 0 <= c < 108 and c // 27 == space)
                if own:
                    out.extend(BuyTile(tile, cards) for cards in _payments(own, PRICE[tile]))
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

    # ------------------------------------------------------------------------------------------ applying

    def step(self, state: GameState, player: str, action: Any) -> GameState:
        idx = state.players.index(player)
        seat = state.seats[idx]
        kind = type(action)
        if kind is TakeMoney:  # A19
            taken = set(action.cards)
            seat = replace(seat, hand=tuple(sorted(seat.hand + action.cards)))
            state = replace(state, display=tuple(c for c in state.display if c not in taken),
                            seats=_set(state.seats, idx, seat))
            return self._finish_actions(state)
        if kind is BuyTile:  # A21, A22
            paid = set(action.cards)
            seat = replace(seat, hand=tuple(c for c in seat.hand if c not in paid),
                           pending=seat.pending + (action.tile,))
            market = tuple(None if t == action.tile else t for t in state.market)  # A23: no refill yet
            exact = sum(value_of(c) for c in action.cards) == PRICE[action.tile]
            state = replace(state, market=market, discard=state.discard + tuple(sorted(action.cards)),
                            seats=_set(state.seats, idx, seat), bonus=exact)
            return state if exact else self._finish_actions(state)
        if kind is Pass:
            return self._finish_actions(state)
        if kind is RedesignAdd:  # A33a
            alh = dict(seat.alhambra)
            alh[action.cell] = action.tile
            seat = replace(seat, alhambra=alh, reserve=_without(seat.reserve, action.tile))
            return self._finish_actions(replace(state, seats=_set(state.seats, idx, seat)))
        if kind is RedesignRemove:  # A33b
            alh = {c: t for c, t in seat.alhambra.items() if t != action.tile}
            seat = replace(seat, alhambra=alh, reserve=seat.reserve + (action.tile,))
            return self._finish_actions(replace(state, seats=_set(state.seats, idx, seat)))
        if kind is RedesignSwap:  # A33c
            alh = {c: (action.tile if t == action.replaces else t) for c, t in seat.alhambra.items()}
            reserve = _without(seat.reserve, action.tile) + (action.replaces,)
            seat = replace(seat, alhambra=alh, reserve=reserve)
            return self._finish_actions(replace(state, seats=_set(state.seats, idx, seat)))
        # placing a waiting tile (A27, A51, A66)
        pending = _without(seat.pending, action.tile)
        dirk = state.dirk
        log = state.log
        if kind is PlaceTile:
            alh = dict(seat.alhambra)
            alh[action.cell] = action.tile
            seat = replace(seat, alhambra=alh, pending=pending)
        elif kind is ReserveTile:
            seat = replace(seat, reserve=seat.reserve + (action.tile,), pending=pending)
        else:  # GiveToDirk
            seat = replace(seat, pending=pending)
            dirk = dirk + (action.tile,)
            log = log + (Event("dirk_tiles", f"Dirk receives the {tile_name(action.tile)} (A66).", player=player,
                               data={"tiles": [action.tile], "reason": "gift"}),)
        state = replace(state, seats=_set(state.seats, idx, seat), dirk=dirk, log=log)
        if state.phase == PLACE:
            return state if pending else self._end_turn(state)
        if any(s.pending for s in state.seats):
            return state
        return self._final_scoring(state)

    def _finish_actions(self, state: GameState) -> GameState:
        """The player's actions are over: place the bought tiles (A27), or end the turn right away."""
        state = replace(state, bonus=False)
        if state.seats[state.current].pending:
            return replace(state, phase=PLACE)
        return self._end_turn(state)

    def _end_turn(self, state: GameState) -> GameState:
        """A24: refill the money display (A39–A41) and the market (A42), score a revealed scoring card (A40,
        A43), then the next player's turn, or the end of the game when the market could not be refilled (A50)."""
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
        for rnd in rounds:
            state = self._scoring(state, rnd)
        if ended:
            return self._game_end(state)
        return self._next_turn(state)

    def _next_turn(self, state: GameState) -> GameState:
        """The next player (clockwise = seat order, A14) begins. The Vizier's Favour will open its window here."""
        n = len(state.players)
        return replace(state, phase=ACTION, current=(state.current + 1) % n, bonus=False, turn=state.turn + 1)

    def _scoring(self, state: GameState, rnd: int) -> GameState:
        """A43–A49 (and A65 for Dirk); after rounds 1 and 2 Dirk draws tiles (A63, A64)."""
        participants: list[tuple[str | None, Any, dict | None, int]] = [
            (p, seat.alhambra.values(), seat.alhambra, seat.score)
            for p, seat in zip(state.players, state.seats, strict=True)]
        if state.two_player:
            participants.append((None, state.dirk, None, state.dirk_score))
        result = score_round(rnd, participants)
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
            money = [sum(value_of(c) for c in seat.hand if currency_of(c) == space) for seat in state.seats]
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
                        phase=FINAL, bonus=False)
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
        """Own hand only; other hands become HIDDEN_CARD placeholders (counts stay public, A20); the deck
        order, the bag order and the seed are removed."""
        seats = tuple(seat if p == player else replace(seat, hand=(HIDDEN_CARD,) * len(seat.hand))
                      for p, seat in zip(state.players, state.seats, strict=True))
        return replace(state, seed=None, seats=seats, deck=(HIDDEN_CARD,) * len(state.deck),
                       bag=tuple(sorted(state.bag)), log=visible_log(state.log, player))

    def describe(self, action: Any) -> str:
        return describe(action)

    def to_json(self, state: GameState) -> dict[str, Any]:
        """Same output as the shared codec (a test checks), through a faster type-dispatch encoder: the
        property tests encode the state several times per action."""
        return {"game": self.name, "v": self.json_version, "state": fast_jsonable(state)}

    def validate(self, state: GameState) -> None:
        problem = state_problem(state)
        if problem:
            raise ValueError(f"invalid Alhambra state: {problem}")

    def summary(self, options: dict[str, Any] | None = None) -> str:
        return SUMMARY


# --------------------------------------------------------------------------------------------- helpers


def minimal_payments(hand: tuple[int, ...], space: int, price: int) -> list[tuple[int, ...]]:
    """A21: every distinct minimal payment (by multiset of values) from `hand` in the currency of market
    `space`: sum >= price, and leaving out any card would make it too little. Cheapest first."""
    own = tuple(c for c in hand if 0 <= c < 108 and c // 27 == space)
    return list(_payments(own, price)) if own else []


@functools.lru_cache(maxsize=1 << 16)
def _payments(cards: tuple[int, ...], price: int) -> tuple[tuple[int, ...], ...]:
    """minimal_payments for the cards of one currency (sorted ids); cached, hands repeat a lot."""
    groups: dict[int, list[int]] = {}
    for c in cards:
        groups.setdefault((c % 27) // 3 + 1, []).append(c)
    values = sorted(groups, reverse=True)
    found: list[tuple[int, tuple[int, ...]]] = []

    def walk(start: int, total: int, chosen: tuple[int, ...]) -> None:
        # values are chosen in falling order, so the newest value is the smallest card: the payment is
        # minimal iff dropping one of those still leaves too little
        for j in range(start, len(values)):
            v = values[j]
            ids = groups[v]
            for k in range(1, len(ids) + 1):
                t = total + k * v
                if t >= price:
                    found.append((t, chosen + tuple(ids[:k])))
                    break
                walk(j + 1, t, chosen + tuple(ids[:k]))

    walk(0, 0, ())
    found.sort(key=lambda f: (f[0], len(f[1]), sorted(value_of(c) for c in f[1])))
    return tuple(tuple(sorted(cards)) for _, cards in found)


@functools.lru_cache(maxsize=1 << 14)
def _take_options(display: tuple[int, ...]) -> tuple[TakeMoney, ...]:
    """A19: each distinct single card, and each distinct set of 2+ cards worth at most 5 together."""
    seen: set[tuple] = set()
    out = []
    for size in range(1, len(display) + 1):
        for combo in itertools.combinations(display, size):
            if size > 1 and sum(value_of(c) for c in combo) > 5:
                continue
            key = tuple(sorted(card_key(c) for c in combo))
            if key not in seen:
                seen.add(key)
                out.append(TakeMoney(tuple(sorted(combo))))
    return tuple(out)


_SCALARS = (str, int, bool, float, type(None))


def fast_jsonable(obj: Any) -> Any:
    """engine._common.to_jsonable for the types our states use, dispatching on the exact type."""
    t = type(obj)
    if t in _SCALARS:
        return obj
    if t is tuple or t is list:
        return [fast_jsonable(x) for x in obj]
    if t is dict:
        if all(type(k) is str for k in obj):
            return {k: fast_jsonable(v) for k, v in obj.items()}
        return [[fast_jsonable(k), fast_jsonable(v)] for k, v in obj.items()]
    names = _FIELD_NAMES.get(t)
    if names is None:
        if not dataclasses.is_dataclass(obj):
            return to_jsonable(obj)
        names = _FIELD_NAMES[t] = tuple(f.name for f in dataclasses.fields(t) if f.init)
    return {n: fast_jsonable(getattr(obj, n)) for n in names}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


_SLOTS: dict[type, tuple[tuple[str, Any], ...]] = {}


def replace(obj: Any, **changes: Any) -> Any:
    """dataclasses.replace for our frozen slots dataclasses (no __post_init__), about twice as fast: states
    are rebuilt several times per action and random playouts (AI, benchmarks) are dominated by it."""
    cls = type(obj)
    slots = _SLOTS.get(cls)
    if slots is None:
        slots = _SLOTS[cls] = tuple((f.name, cls.__dict__[f.name]) for f in dataclasses.fields(cls))
    new = object.__new__(cls)
    n = 0
    for name, desc in slots:
        if name in changes:
            desc.__set__(new, changes[name])
            n += 1
        else:
            desc.__set__(new, desc.__get__(obj, cls))
    if n != len(changes):
        raise TypeError(f"unknown field(s) for {cls.__name__}: {sorted(set(changes) - {n for n, _ in slots})}")
    return new


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
    if len(state.market) != 4:
        return "the market must have 4 spaces"
    for seat in state.seats:
        problem = geo.alhambra_problem(seat.alhambra)
        if problem:
            return f"illegal Alhambra (A82): {problem}"
    if state.seed is None:
        return None
    # A80: every building tile exactly once
    tiles = list(state.bag) + [t for t in state.market if t is not None] + list(state.dirk) + list(state.removed)
    for seat in state.seats:
        tiles += [t for c, t in seat.alhambra.items() if c != (0, 0)] + list(seat.reserve) + list(seat.pending)
    if sorted(tiles) != sorted(BUILDING_TILES):
        return f"tile conservation (A80) broken: {len(tiles)} tiles"
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
