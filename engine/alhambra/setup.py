"""Alhambra set-up (A11–A16, A60–A62) and the Vizier's Favour components (V21 huts, V41 exchange cards, V61 bonus
cards), dealt from the game's seed in a fixed order so a stored game replays exactly."""

from __future__ import annotations

from typing import Any

from engine._common import Event, Text, replace, rng, shuffled
from engine.alhambra.components import (
    BONUS_CARDS,
    BONUS_DEAL,
    BUILDING_TILES,
    EXCHANGE_CARDS,
    HUT_TYPE,
    HUTS,
    SCORING_1,
    SCORING_2,
    START_TILES,
    TYPES,
    money_cards,
    tile_names,
    value_of,
)
from engine.alhambra.state import (
    ACTION,
    GameState,
    PlayerState,
)

START_MONEY = 20  # A13: deal until a player's cards are worth at least this


def _deck_inserts(options: dict[str, Any], exchange: tuple[int, ...] = ()) -> dict[int, list[int]]:
    """A16 step 2: the cards shuffled into piles (0-based index) of the split deck; V41: with the Bureau de
    Change, also 2 exchange cards (in the shuffled order given) into each of piles 2, 3 and 4."""
    inserts = {1: [SCORING_1], 3: [SCORING_2]}
    if options.get("exchange"):
        inserts[1] += exchange[0:2]
        inserts[2] = list(exchange[2:4])
        inserts[3] += exchange[4:6]
    return inserts


def new_game(players: tuple[str, ...], options: dict[str, Any], seed: int) -> GameState:
    n = len(players)
    counter = 0
    log: list[Event] = []

    bag_t, counter = shuffled(BUILDING_TILES, seed, counter)  # A11
    bag = list(bag_t)
    market = tuple(bag.pop() for _ in range(4))
    dirk: tuple[str, ...] = ()
    if n == 2:  # A62: Dirk starts with 6 random tiles
        dirk = tuple(bag.pop() for _ in range(6))
        log.append(
            Event(
                "dirk_tiles",
                Text(
                    "Dirk receives {n} tile: {tiles} (A62).",
                    "Dirk receives {n} tiles: {tiles} (A62).",
                    n=len(dirk),
                    tiles=tile_names(dirk),
                ),
                data={"tiles": list(dirk), "reason": "setup"},
            )
        )

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
        how = Text("starts the game (fewest starting cards, A14).")
    elif len(tied) == 1:
        how = Text("starts the game (fewest starting cards, lowest total, A14).")
    else:
        how = Text("starts the game (fewest starting cards and lowest total shared: chosen by lot, A14).")
    log.append(Event("start_player", how, player=players[first]))

    display = tuple(deck.pop() for _ in range(4))  # A15: before the split, so no scoring card here

    # A16: five piles (first N mod 5 one bigger), pile 1 on top; scoring cards into piles 2 and 4
    top_first = deck[::-1]
    size, extra = divmod(len(top_first), 5)
    piles: list[list[int]] = []
    i = 0
    for k in range(5):
        sz = size + (1 if k < extra else 0)
        piles.append(top_first[i : i + sz])
        i += sz
    exchange: tuple[int, ...] = ()
    if options.get("exchange"):  # V41 (after the base draws, so a game without the module deals the same)
        exchange, counter = shuffled(EXCHANGE_CARDS, seed, counter)
    for index, inserted in _deck_inserts(options, exchange).items():
        for card in inserted:
            pile = piles[index]
            pile.insert(rng(seed, counter).randint(0, len(pile)), card)
            counter += 1
    new_deck = tuple(reversed([c for pile in piles for c in pile]))

    seats = [
        PlayerState(hand=h, alhambra={(0, 0): START_TILES[i]}, vizier=bool(options.get("vizier")))
        for i, h in enumerate(hands)
    ]  # V2: every vizier starts active
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
            dealt = tuple(cards[i * k : (i + 1) * k])
            seats[i] = replace(seats[i], bonus_hand=dealt)
            log.append(
                Event(
                    "bonus_dealt",
                    Text(
                        "receives the bonus card {tiles} (V61); play one once its building is in your Alhambra (V62).",
                        "receives the bonus cards {tiles} (V61); play one once its building is in your Alhambra (V62).",
                        n=len(dealt),
                        tiles=tile_names(dealt),
                    ),
                    player=p,
                    data={"cards": list(dealt)},
                    private_to=p,
                )
            )
        aside = tuple(cards[n * k :])
    return GameState(
        players=players,
        seed=seed,
        rng_counter=counter,
        options=dict(options),
        phase=ACTION,
        current=first,
        bonus=False,
        seats=tuple(seats),
        market=market,
        display=display,
        deck=new_deck,
        discard=(),
        bag=tuple(bag),
        dirk=dirk,
        log=tuple(log),
        huts=huts,
        bonus_aside=aside,
    )
