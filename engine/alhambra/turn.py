"""Alhambra: applying a legal action (`step`, unchecked) and everything it sets off: the end of the actions, the
turn end with its refill (A24, A39–A42), scoring rounds (`rounds.scoring_round`: A43–A49, A63–A65, with the
bonus-card standing orders, V66), the vizier purchase and its placement (V6, V11), and the end of the game (A50–A53).

The log: `step` starts the state's log afresh, so after an action it holds exactly that action's events: first
a public "move" event (`describe`'s words, the action's JSON as `data["action"]`, and `space`/`cell` where the
board image should mark it), then the events it caused (refill, scoring, Dirk...). Event texts with a player
read after that player's name; texts without one are sentences. The V66 standing order is private: it writes
only a note for its owner. What the board image marks across the actions of a turn is kept in `state.marks`
(`marks.mark`), the reshuffle of the deck in `state.reshuffled`.
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

from engine._common import Event, Text, action_to_json, replace, shuffled
from engine.alhambra import geometry
from engine.alhambra.actions import (
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
    CURRENCIES,
    HUT_TYPE,
    PRICE,
    SCORING_1,
    SCORING_2,
    SCORING_CARDS,
    TYPE_OF,
    TYPES,
    cards_text,
    currency_of,
    currency_text,
    is_money,
    tile_text,
    type_text,
    value_of,
)
from engine.alhambra.listing import vizier_claimants
from engine.alhambra.marks import mark
from engine.alhambra.rounds import scoring_round
from engine.alhambra.state import (
    ACTION,
    FINAL,
    OVER,
    PLACE,
    VIZIER,
    GameState,
    PlayerState,
    index_of,
)

T = TypeVar("T")


def _copy_state(state: GameState, changes: dict[str, Any]) -> GameState:
    """replace(state, **changes) without the keyword call (the hot path: a native call when compiled)."""
    return state.copied(changes)


def _copy_seat(seat: PlayerState, changes: dict[str, Any]) -> PlayerState:
    return seat.copied(changes)


AUTOPLAY_ORDER = {  # V66: the standing order in words that follow the player's name
    "every": Text("will have the bonus cards played automatically before every scoring round (V66)."),
    "final": Text("will have the bonus cards played automatically only before the final scoring (V66)."),
    "never": Text("will play the bonus cards only by hand (V66)."),
}


def reveals(before: GameState, player: str, action: Any, after: GameState) -> bool:
    """True if `action` (turning `before` into `after`) showed someone something hidden from them before: cards
    paid from a hidden hand (A20, A21, V5, V44) or a bonus card played from one (V61, V62); a draw from the money
    deck or a reshuffle of the discard (A39–A41); a tile from the bag (A42, A63, A64); the next Worker's Hut of
    a stack turned up (V22); bonus cards played by a standing order (V66); a vizier window that names other
    claimants than before, or opens after the window was closed (V4, V12: who can pay exactly depends on hidden
    hands); the end of the game, where leftover tiles go by the money in hidden hands (A50, A51). Payments
    count even when others could have remembered the cards (taken from the display earlier)."""
    if isinstance(action, BuyTile | VizierBuy | PlayBonus):
        return True
    if after.deck != before.deck or after.rng_counter != before.rng_counter or after.bag != before.bag:
        return True
    if any(now and len(now) != len(then) for then, now in zip(before.huts, after.huts, strict=True)):
        return True
    if any(not set(a.bonus_hand) <= set(b.bonus_hand) for a, b in zip(before.seats, after.seats, strict=True)):
        return True
    if after.window and after.phase == ACTION and any(seat.vizier for seat in after.seats):
        # V4, V12: an opening window names who can pay a market tile exactly, which hidden hands decide
        was_open = before.window and before.phase == ACTION
        if not was_open or set(vizier_claimants(after)) != set(vizier_claimants(before)):
            return True
    return before.phase not in (FINAL, OVER) and after.phase in (FINAL, OVER)


def scores(state: GameState) -> dict[str, int]:
    """The human players' points (A68: Dirk's are in state.dirk_score)."""
    return {p: seat.score for p, seat in zip(state.players, state.seats, strict=True)}


def step(state: GameState, player: str, action: Any, quiet: bool = False) -> GameState:
    """Apply a legal action (unchecked): the new state, whose log holds this action's events only.

    `quiet` (AI playouts): the same next state except that no event or text is built: the log is empty and the
    board image's `marks` (which only ever follow the log's move events) stay as they were."""
    if quiet:
        after = _step(state, player, action, True)
        return replace(after, log=()) if after.log else after
    return _step(state, player, action, False)


def _step(state: GameState, player: str, action: Any, quiet: bool) -> GameState:
    kind = type(action)
    if kind is PlayBonus or kind is SetBonusAutoplay:
        return _step_free(state, player, action, quiet)
    idx = index_of(state.players, player)
    seat = state.seats[idx]
    # the log starts afresh with the move event, then what it causes; the image's marks take the move at once (a
    # leftover tile received later adds its own, A51); both go into the branch's own rebuild of the state
    log: tuple[Event, ...]
    if quiet:
        log, marks = (), state.marks
    else:
        log = (_move_event(state, seat, player, action),)
        marks = mark(state.marks, log)
    if state.window and state.phase == ACTION and kind is not VizierBuy:
        state = _copy_state(state, {"window": False})  # V12: the next player's first action closes the window
    if kind in _REST:
        return _step_rest(state, idx, seat, player, action, log, marks, quiet)
    if kind is VizierBuy:  # V6: flip the vizier, pay exactly, place the tile at once (VIZIER phase)
        paid = set(action.cards)
        space = state.market.index(action.tile)
        seat = replace(
            seat, hand=tuple(c for c in seat.hand if c not in paid), pending=seat.pending + (action.tile,), vizier=False
        )
        if not quiet:
            log += (_vizier_event(player, action, space),)
        return _bought(state, idx, seat, action, phase=VIZIER, claimant=idx, log=log, marks=marks)
    if kind is TakeHut:  # V22: the face-up hut; the next one of its stack turns up; placed at turn end (V24)
        k = TYPES.index(HUT_TYPE[action.hut])
        stack = state.huts[k][:-1]
        seat = replace(seat, pending=seat.pending + (action.hut,), huts_taken=seat.huts_taken + 1)
        if not quiet:
            log += (_hut_event(player, action, stack),)
        return _finish_actions(  # V23: a hut is never an exact payment
            state,
            {"huts": _set(state.huts, k, stack), "seats": _set(state.seats, idx, seat), "log": log, "marks": marks},
            quiet,
        )
    if kind is ReactivateVizier:  # V8: counts as the action
        seat = replace(seat, vizier=True)
        return _finish_actions(state, {"seats": _set(state.seats, idx, seat), "log": log, "marks": marks}, quiet)
    raise TypeError(f"not an Alhambra action: {action!r}")


# the actions of the base game (`_step_rest`)
_REST: Final = frozenset(
    {TakeMoney, BuyTile, Pass, RedesignAdd, RedesignRemove, RedesignSwap, PlaceTile, ReserveTile, GiveToDirk}
)


def _vizier_event(player: str, action: VizierBuy, space: int) -> Event:
    return Event(
        "vizier",
        Text(
            "uses the vizier: buys the {tile} out of turn with {cards} (V6).",
            tile=tile_text(action.tile),
            cards=cards_text(action.cards),
        ),
        player=player,
        data={"tile": action.tile, "space": space, "cards": list(action.cards)},
    )


def _hut_event(player: str, action: TakeHut, stack: tuple[str, ...]) -> Event:
    if stack:
        said = Text("takes the {hut} (V22); the {next} turns up.", hut=tile_text(action.hut), next=tile_text(stack[-1]))
    else:
        said = Text("takes the {hut} (V22); that stack is used up.", hut=tile_text(action.hut))
    return Event(
        "hut",
        said,
        player=player,
        data={"hut": action.hut, "type": HUT_TYPE[action.hut], "revealed": stack[-1] if stack else None},
    )


def _bought(state: GameState, idx: int, seat: Any, action: Any, **fields: Any) -> GameState:
    """`state` after the seat at `idx` (already holding the tile among its pending ones: `seat`) paid
    `action.cards` for the market's `action.tile`: its market space left empty (A23: no refill yet), the cards
    discarded, and `fields` set."""
    market = tuple(None if t == action.tile else t for t in state.market)
    discard = state.discard + tuple(sorted(action.cards))
    return replace(state, market=market, discard=discard, seats=_set(state.seats, idx, seat), **fields)


def _step_rest(
    state: GameState,
    idx: int,
    seat: PlayerState,
    player: str,
    action: Any,
    log: tuple[Event, ...],
    marks: Any,
    quiet: bool,
) -> GameState:
    """The other actions of `step`: money, purchases, redesigns and placements."""
    kind = type(action)
    seats = state.seats
    if kind is TakeMoney:  # A19
        taken = action.cards
        display = state.display
        seat = _copy_seat(seat, {"hand": tuple(sorted(seat.hand + taken))})
        return _finish_actions(
            state,
            {
                "display": tuple([c for c in display if c not in taken]),
                "seats": seats[:idx] + (seat,) + seats[idx + 1 :],
                "log": log,
                "marks": marks,
            },
            quiet,
        )
    if kind is BuyTile:  # A21, A22
        paid = action.cards
        seat = _copy_seat(
            seat, {"hand": tuple([c for c in seat.hand if c not in paid]), "pending": seat.pending + (action.tile,)}
        )
        exact = sum([value_of(c) for c in paid if c < 108]) == PRICE[action.tile]  # A22, V45
        state = _bought(state, idx, seat, action, bonus=exact, log=log, marks=marks)
        return state if exact else _finish_actions(state, None, quiet)
    if kind is Pass:
        return _finish_actions(state, {"log": log, "marks": marks}, quiet)
    if kind is RedesignAdd:  # A33a
        old = seat.alhambra
        alh = old.copy()
        alh[action.cell] = action.tile
        geometry.changed(alh, old, action.cell)
        seat = _copy_seat(seat, {"alhambra": alh, "reserve": _without(seat.reserve, action.tile)})
        return _finish_actions(
            state, {"seats": seats[:idx] + (seat,) + seats[idx + 1 :], "log": log, "marks": marks}, quiet
        )
    if kind is RedesignRemove:  # A33b
        alh, cell = _without_tile(seat.alhambra, action.tile)
        geometry.changed(alh, seat.alhambra, cell)
        seat = _copy_seat(seat, {"alhambra": alh, "reserve": seat.reserve + (action.tile,)})
        changes: dict[str, Any] = {"seats": seats[:idx] + (seat,) + seats[idx + 1 :], "log": log, "marks": marks}
        if action.tile in seat.bonus_played:
            return _finish_actions(_bonus_back(replace(state, **changes), idx, action.tile), None, quiet)
        return _finish_actions(state, changes, quiet)
    if kind is RedesignSwap:  # A33c
        old = seat.alhambra
        replaces = action.replaces
        alh = {c: (action.tile if t == replaces else t) for c, t in old.items()}
        at = geometry.cell_of(old, replaces)
        if at is not None:
            geometry.changed(alh, old, at)
        seat = _copy_seat(seat, {"alhambra": alh, "reserve": _without(seat.reserve, action.tile) + (replaces,)})
        changes = {"seats": seats[:idx] + (seat,) + seats[idx + 1 :], "log": log, "marks": marks}
        if replaces in seat.bonus_played:
            return _finish_actions(_bonus_back(replace(state, **changes), idx, replaces), None, quiet)
        return _finish_actions(state, changes, quiet)
    # placing a waiting tile (A27, A51, A66)
    pending = _without(seat.pending, action.tile)
    dirk = state.dirk
    if kind is PlaceTile:
        old = seat.alhambra
        alh = old.copy()
        alh[action.cell] = action.tile
        geometry.changed(alh, old, action.cell)
        seat = _copy_seat(seat, {"alhambra": alh, "pending": pending})
    elif kind is ReserveTile:
        seat = _copy_seat(seat, {"reserve": seat.reserve + (action.tile,), "pending": pending})
    else:  # GiveToDirk
        seat = _copy_seat(seat, {"pending": pending})
        dirk = dirk + (action.tile,)
        # Dirk is the subject, not the giver (the bot writes an event's player before its text)
        if not quiet:
            log = log + (
                Event(
                    "dirk_tiles",
                    Text("Dirk receives the {tile} (A66).", tile=tile_text(action.tile)),
                    data={"tiles": [action.tile], "reason": "gift", "from": player},
                ),
            )
    changes = {"seats": seats[:idx] + (seat,) + seats[idx + 1 :], "dirk": dirk, "log": log, "marks": marks}
    phase = state.phase
    if phase == PLACE:
        return _end_turn(state, changes, quiet) if not pending else _copy_state(state, changes)
    state = _copy_state(state, changes)
    if phase == VIZIER:
        return state if pending else _vizier_done(state, quiet)
    if any(s.pending for s in state.seats):
        return state
    return _final_scoring(state, quiet)


def _step_free(state: GameState, player: str, action: Any, quiet: bool = False) -> GameState:
    """V62/V63: a bonus card is played face up (public); V66: a new standing order (private: no move event,
    only the private note)."""
    idx = state.players.index(player)
    seat = state.seats[idx]
    if isinstance(action, SetBonusAutoplay):
        seat = replace(seat, bonus_auto=action.mode)
        events: tuple[Event, ...] = (
            Event(
                "bonus_autoplay_set",
                AUTOPLAY_ORDER[action.mode],
                player=player,
                data={"mode": action.mode},
                private_to=player,
            ),
        )
    else:
        typ = TYPE_OF[action.card]
        events = (
            _move_event(state, seat, player, action),
            Event(
                "bonus_play",
                Text(
                    "plays the bonus card for the {tile}: it counts as one more {type} in every scoring (V62, V63).",
                    tile=tile_text(action.card),
                    type=type_text(typ),
                ),
                player=player,
                data={"cards": [action.card], "type": typ},
            ),
        )
        seat = replace(
            seat, bonus_hand=_without(seat.bonus_hand, action.card), bonus_played=seat.bonus_played + (action.card,)
        )
    if quiet:
        return replace(state, seats=_set(state.seats, idx, seat), log=())
    return replace(state, seats=_set(state.seats, idx, seat), log=events, marks=mark(state.marks, events))


def _move_event(state: GameState, seat: PlayerState, player: str, action: Any) -> Event:
    """The public "move" event of an action about to be applied: `describe`'s words, the action's JSON, and
    where it happened for the board image: `space` (the market space 0-3 of a purchase) or `cell` (the
    Alhambra cell a swap or a played bonus card concerns; placements carry theirs in the action). Everything
    in it is public: bought tiles, paid cards (they go to the discard, A21), played bonus cards (V62).
    A free action (a bonus card) is marked `free`: it interrupts nobody's turn."""
    kind = type(action)
    data: dict[str, Any] = {"action": action_to_json(action)}
    if kind is BuyTile or kind is VizierBuy:
        data["space"] = state.market.index(action.tile)
    elif kind is RedesignSwap:
        data["cell"] = _cell(seat, action.replaces)
    elif kind is PlayBonus:
        data["cell"] = _cell(seat, action.card)
        data["free"] = True
    return Event("move", describe(action), player=player, data=data)


def _vizier_done(state: GameState, quiet: bool = False) -> GameState:
    """V6, V7, V11: the vizier purchase is placed: refill the market (and the display if it was short), score
    a revealed scoring card, then the window is open again for the others, or the game ends (A50)."""
    changes, rounds, ended = _refill(state, state.display, state.log)
    state = replace(state, phase=ACTION, claimant=-1, **changes)
    for rnd in rounds:
        state = scoring_round(state, rnd, quiet)
    if ended:
        return _game_end(state)
    return state


def _finish_actions(state: GameState, changes: dict[str, Any] | None = None, quiet: bool = False) -> GameState:
    """The player's actions are over (`state` with `changes`, set in the same copy): place the bought tiles (A27),
    or end the turn right away (the next turn, or the end of the game, clears the extra action of an exact
    purchase, A22)."""
    seats = state.seats if changes is None or "seats" not in changes else changes["seats"]
    if seats[state.current].pending:
        return _copy_state(state, {**(changes or {}), "bonus": False, "phase": PLACE})
    return _end_turn(state, changes, quiet)


def _end_turn(state: GameState, changes: dict[str, Any] | None = None, quiet: bool = False) -> GameState:
    """A24: refill the money display (A39–A41) and the market (A42), score a revealed scoring card (A40,
    A43), then the next player's turn, or the end of the game when the market could not be refilled (A50).
    `changes`: fields of `state` the action set, put into the same copy."""
    if changes:
        refill, rounds, ended = _refill(state, changes.get("display", state.display), changes.get("log", state.log))
        changes.update(refill)  # the caller's own dict, made for this action
        refill = changes
    else:
        refill, rounds, ended = _refill(state, state.display, state.log)
    if rounds or ended:
        state = _copy_state(state, refill)
        for rnd in rounds:
            state = scoring_round(state, rnd, quiet)
        if ended:
            return _game_end(state)
        return _next_turn(state)
    return _next_turn(state, refill)  # the refill and the next turn in one copy of the state


def _refill(
    state: GameState, shown: tuple[int, ...], events: tuple[Event, ...]
) -> tuple[dict[str, Any], list[int], bool]:
    """A39–A42 (V42: exchange cards fill the display like money) of `state` with the display `shown` and the
    log `events`: the refilled fields of the state, the scoring rounds whose cards were revealed, and whether the
    market could not be refilled (A50)."""
    if None not in state.market:
        short = 4 - len(shown)
        if short <= 0:
            return {}, [], False  # nothing to refill (the deck and bag are long: not copied for nothing)
        deck = state.deck
        top = len(deck) - short
        if top >= 0:
            drawn = deck[: top - 1 : -1] if top else deck[::-1]  # from the top (the end) down
            if SCORING_1 not in drawn and SCORING_2 not in drawn:  # the usual refill: a card or two (A39)
                return {"display": shown + drawn, "deck": deck[:top]}, [], False
    log = list(events)
    counter = state.rng_counter
    reshuffled = state.reshuffled
    display = list(shown)
    deck = state.deck
    top = len(deck)  # drawn from the end: deck[:top] is what is left
    discard = state.discard
    rounds: list[int] = []
    while len(display) < 4:
        if not top:
            if not discard:
                break  # A41: deck and discard empty, the display stays incomplete
            if state.seed is None:
                raise ValueError("A player's view cannot draw: it has no seed.")
            deck, counter = shuffled(discard, state.seed, counter)
            discard = ()
            top = len(deck)
            reshuffled = True
            log.append(
                Event(
                    "reshuffle",
                    Text("The money deck is used up: the discard pile is shuffled to make a new deck (A41)."),
                )
            )
        top -= 1
        card = deck[top]
        if card in SCORING_CARDS:  # A40: set aside, keep drawing, score before the next turn
            rnd = 1 if card == SCORING_1 else 2
            rounds.append(rnd)
            if rnd == 1:
                said = Text("The 1st scoring card is drawn: scoring round 1 follows (A40).")
            else:
                said = Text("The 2nd scoring card is drawn: scoring round 2 follows (A40).")
            log.append(Event("scoring_card", said, data={"round": rnd}))
        else:
            display.append(card)
    market = list(state.market)
    bag = state.bag
    left = len(bag)
    ended = False
    for i in range(4):  # A42: spaces 1 -> 4
        if market[i] is None:
            if left:
                left -= 1
                market[i] = bag[left]
            else:
                ended = True  # A50
    changes = {
        "display": tuple(display),
        "deck": deck[:top] if top < len(deck) else deck,
        "discard": discard,
        "market": tuple(market),
        "bag": bag[:left] if left < len(bag) else bag,
        "rng_counter": counter,
        "reshuffled": reshuffled,
    }
    if len(log) != len(events):
        changes["log"] = tuple(log)
    return changes, rounds, ended


def _next_turn(state: GameState, changes: dict[str, Any] | None = None) -> GameState:
    """The next player (clockwise = seat order, A14) begins; with the vizier module the window opens (V4,
    V12: after the refill and any scoring, V11) until that player's first action. `changes`: more fields to
    set in the same copy (the refill's)."""
    turn = {
        "phase": ACTION,
        "current": (state.current + 1) % len(state.players),
        "bonus": False,
        "turn": state.turn + 1,
        "window": bool(state.options.get("vizier")),
    }
    if changes:
        turn.update(changes)
    return _copy_state(state, turn)


def _game_end(state: GameState) -> GameState:
    """A50–A51: the market could not be refilled. Each leftover tile goes to the player with the most money
    of its space's currency; on a tie, or if nobody has any, it leaves the game. Then placing, or A52."""
    log = list(state.log)
    log.append(
        Event(
            "game_end_trigger",
            Text(
                "The market cannot be refilled: the game ends (A50). Leftover tiles go to the players with the most "
                "money of their space's currency (A51)."
            ),
        )
    )
    pending: list[list[str]] = [list(s.pending) for s in state.seats]
    removed = list(state.removed)
    for space, tile in enumerate(state.market):
        if tile is None:
            continue
        currency = CURRENCIES[space]
        # V47: only money counts here, exchange cards have no effect
        money = [sum(value_of(c) for c in seat.hand if is_money(c) and currency_of(c) == space) for seat in state.seats]
        best = max(money)
        holders = [i for i, m in enumerate(money) if m == best]
        data = {"tile": tile, "currency": currency, "money": dict(zip(state.players, money, strict=True))}
        if best > 0 and len(holders) == 1:
            pending[holders[0]].append(tile)
            log.append(
                Event(
                    "leftover",
                    Text(
                        "receives the {tile} from the market: most {currency} in hand, {money} (A51).",
                        tile=tile_text(tile),
                        currency=currency_text(space),
                        money=best,
                    ),
                    player=state.players[holders[0]],
                    data=data,
                )
            )
        else:
            removed.append(tile)
            if best == 0:
                said = Text("The {tile} leaves the game: nobody holds any (A51).", tile=tile_text(tile))
            else:
                said = Text(
                    "The {tile} leaves the game: a tie for most {currency} ({money}) (A51).",
                    tile=tile_text(tile),
                    currency=currency_text(space),
                    money=best,
                )
            log.append(Event("leftover", said, data=data))
    seats = tuple(replace(s, pending=tuple(p)) for s, p in zip(state.seats, pending, strict=True))
    state = replace(
        state,
        seats=seats,
        market=(None,) * 4,
        removed=tuple(removed),
        log=tuple(log),
        marks=mark(state.marks, log[len(state.log) :]),  # a tile received is the receiver's move on the image
        phase=FINAL,
        bonus=False,
        window=False,
        claimant=-1,
    )  # V9: no vizier from here on
    if any(pending):
        return state
    return _final_scoring(state)


def _final_scoring(state: GameState, quiet: bool = False) -> GameState:
    """A52–A53, A68: the third scoring round, then the game is over."""
    state = scoring_round(state, 3, quiet)
    totals = scores(state)
    best = max(totals.values())
    winners = [p for p in state.players if totals[p] == best]
    data: dict[str, Any] = {"scores": totals, "winners": winners}
    text = Text("The game is over.")
    if state.two_player:
        data["dirk_score"] = state.dirk_score
        if state.dirk_score > best:
            text = Text(
                "The game is over. Dirk finished ahead with {n} point, but only players can win (A68).",
                "The game is over. Dirk finished ahead with {n} points, but only players can win (A68).",
                n=state.dirk_score,
            )
    return replace(state, phase=OVER, log=state.log + (Event("game_end", text, data=data),))


def _bonus_back(state: GameState, idx: int, card: str) -> GameState:
    """V64: the bonus card's building left the Alhambra: the card returns to the hand and stops counting."""
    seat = state.seats[idx]
    seat = replace(seat, bonus_played=_without(seat.bonus_played, card), bonus_hand=seat.bonus_hand + (card,))
    event = Event(
        "bonus_returned",
        Text(
            "takes the bonus card for the {tile} back into the hand: the tile left the Alhambra (V64).",
            tile=tile_text(card),
        ),
        player=state.players[idx],
        data={"cards": [card]},
    )
    return replace(state, seats=_set(state.seats, idx, seat), log=state.log + (event,))


def _set(seq: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    return seq[:i] + (value,) + seq[i + 1 :]


def _cell(seat: PlayerState, tile: str) -> list[int]:
    """Where `tile` lies in the seat's Alhambra, as JSON (the move event's `cell`)."""
    cell = geometry.cell_of(seat.alhambra, tile)
    if cell is None:
        raise ValueError(f"the tile {tile} is not in that Alhambra")
    return list(cell)


def _without(seq: tuple[str, ...], item: str) -> tuple[str, ...]:
    i = seq.index(item)
    return seq[:i] + seq[i + 1 :]


def _without_tile(alh: dict[geometry.Cell, str], tile: str) -> tuple[dict[geometry.Cell, str], geometry.Cell]:
    """The Alhambra without `tile` (the other cells in their order) and the cell it lay on."""
    out: dict[geometry.Cell, str] = {}
    where = (0, 0)
    for c, t in alh.items():
        if t == tile:
            where = c
        else:
            out[c] = t
    return out, where
