"""Alhambra: who may act now and what they may do (the candidate listing and the payments).

`to_move` lists the current player, and during the vizier window also every vizier claimant (V4, V7, V12).
`legal_actions` lists exactly what `check` accepts, except that payments are listed once per multiset of card
values and only when minimal (A21; `check` accepts any valid payment). `candidates` is generous: every frontier
cell and every swap pair, for `check` to decide. The listed actions are shared values, made once; what depends
on the Alhambra alone is kept with it (`geometry.layout`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable
from typing import Any, Final, TypeVar

from engine.alhambra import actions as move
from engine.alhambra import geometry
from engine.alhambra.components import (
    EXCHANGE_PAIRS,
    HUT_LIMIT,
    HUT_TYPE,
    PRICE,
    WALLS,
    card_key,
)
from engine.alhambra.geometry import FIT_MASK, SHIFT, cell_key, key_cell
from engine.alhambra.state import (
    ACTION,
    AUTOPLAY_MODES,
    FINAL,
    OVER,
    PLACE,
    VIZIER,
    GameState,
    PlayerState,
    index_of,
)

# The listed actions are made once and shared (they are frozen values): making a dataclass costs more than
# looking it up, and playouts list the same placements and redesigns again and again. They are kept in plain
# dicts (compiled code looks them up directly; a bounded lru_cache costs more per call than the lookup itself),
# placements by cell key (an int hashes at once). Their size is bounded by the components: tiles times the
# cells an Alhambra reaches.
_AT_CELLS: Final[dict[type, dict[str, dict[int, Any]]]] = {}  # PlaceTile or RedesignAdd -> tile -> cell key ->
_OF_TILE: Final[dict[type, dict[str, Any]]] = {}  # RedesignRemove, ReserveTile or GiveToDirk -> tile ->
_SWAPS: Final[dict[str, dict[str, move.RedesignSwap]]] = {}  # the tile brought in -> the tile replaced ->


def _at_cells(cls: type, tile: str, keys: list[int]) -> list[Any]:
    """cls(tile, cell) (a placement or an added reserve tile) for the cells with these keys, each made once."""
    by_tile = _AT_CELLS.get(cls)
    if by_tile is None:
        by_tile = _AT_CELLS[cls] = {}
    made = by_tile.get(tile)
    if made is None:
        made = by_tile[tile] = {}
    out = []
    for k in keys:
        action = made.get(k)
        if action is None:
            action = made[k] = cls(tile, key_cell(k))
        out.append(action)
    return out


def _of_tile(cls: type, tile: str) -> Any:
    """cls(tile) (a removal, a tile to the reserve or to Dirk), made once."""
    made = _OF_TILE.get(cls)
    if made is None:
        made = _OF_TILE[cls] = {}
    action = made.get(tile)
    if action is None:
        action = made[tile] = cls(tile)
    return action


def _swap(new: str, tile: str) -> move.RedesignSwap:
    """RedesignSwap(new, tile), made once."""
    made = _SWAPS.get(new)
    if made is None:
        made = _SWAPS[new] = {}
    action = made.get(tile)
    if action is None:
        action = made[tile] = move.RedesignSwap(new, tile)
    return action


PASS: Final = move.Pass()


def to_move(state: GameState) -> list[str]:
    """The current player first; during the vizier window (V12) also every vizier claimant, in V7 order;
    in the VIZIER phase only the claimant placing their purchase (V6)."""
    phase = state.phase
    if phase == ACTION:
        if state.window:
            me = state.players[state.current]
            return [me] + [p for p in vizier_claimants(state) if p != me]
        return [state.players[state.current]]
    if phase == PLACE:
        return [state.players[state.current]]
    if phase == VIZIER:
        return [state.players[state.claimant]]
    if phase == FINAL:  # A51: every recipient of leftover tiles places them, in any order
        return [p for p, seat in zip(state.players, state.seats, strict=True) if seat.pending]
    return []


def vizier_claimants(state: GameState) -> list[str]:
    """V4/V5/V7: the players who may use their vizier now (window open, vizier active, some market tile
    payable exactly), in priority order: from the player whose turn it is (who has not acted yet) round to
    the player who has just finished."""
    if state.phase != ACTION or not state.window:
        return []
    last = _LAST_CLAIMANTS
    if last[0] is state:  # to_move asks again and again of one state (states are never changed)
        return list(last[1])
    players, seats, market = state.players, state.seats, state.market
    n = len(players)
    order = [i % n for i in range(state.current, state.current + n)]
    out = [players[i] for i in order if seats[i].vizier and _pays_exactly(market, seats[i].hand)]
    last[0], last[1] = state, out
    return out[:]


def _pays_exactly(market: tuple[str | None, ...], hand: tuple[int, ...]) -> bool:
    """V5: whether `hand` pays some market tile exactly (`_vizier_buys` is not empty), by the sums the cards of
    each currency can make (a bit per sum); a hand with an exchange card asks `_vizier_buys` (V45 mixes two)."""
    if hand and hand[-1] > 2000:
        return bool(_vizier_buys(market, hand))
    split = by_currency(hand)  # the loop of market_money, without its list: this runs at every window
    for space in range(4):
        tile, own = market[space], split[space]
        if tile is None or not own:
            continue
        sums = 1
        for c in own:
            sums |= sums << _VALUE[c]
        if sums >> PRICE[tile] & 1:
            return True
    return False


_LAST_CLAIMANTS: Final[list[Any]] = [None, []]  # the last state asked and its claimants


def vizier_priority(state: GameState, claims: Iterable[str]) -> list[str]:
    """V7: `claims` (player ids that want to use their vizier at the same moment) in the order the bot
    should apply them: starting with the player whose turn it is, ending with the one who just finished.
    After each purchase the others decide again (apply raises IllegalAction if a claim no longer fits)."""
    n = len(state.players)
    wanted = [p for p in dict.fromkeys(claims) if p in state.players]
    return sorted(wanted, key=lambda p: (state.players.index(p) - state.current) % n)


def free_actions(state: GameState, player: str) -> list[Any]:
    """V62/V66: actions that are not turn actions and may be taken at any time by their holder, whoever is
    to move (apply accepts exactly these from `player`): play each playable bonus card (its building is in
    the player's Alhambra), and change the standing order for bonus cards. Not part of legal_actions."""
    if state.phase == OVER or not state.options.get("bonus") or player not in state.players:
        return []
    seat = state.seat(player)
    built = set(seat.alhambra.values())
    out: list[Any] = [move.PlayBonus(c) for c in seat.bonus_hand if c in built]
    out += [move.SetBonusAutoplay(m) for m in AUTOPLAY_MODES if m != seat.bonus_auto]
    return out


def candidates(state: GameState, player: str) -> list[Any]:
    """Generous candidates (every frontier cell, every swap pair...); `check` decides."""
    if player not in to_move(state):
        return []
    return listed(state, player, generous=True)


def legal_actions(state: GameState, player: str) -> list[Any]:
    """Exactly the actions `check` accepts, except that payments are listed once per multiset of card values
    and only when minimal (A21: any valid payment is accepted by apply)."""
    phase = state.phase
    if phase == ACTION and not state.window:  # the usual case, to_move's answer at once: the current player
        if player != state.players[state.current]:
            return []
    elif phase == OVER or player not in to_move(state):
        return []
    return listed(state, player, generous=False)


def listed(state: GameState, player: str, generous: bool) -> list[Any]:
    """The listing. With `generous`, positions and swaps are not filtered (check does that)."""
    seat = state.seats[index_of(state.players, player)]
    alh = seat.alhambra
    if state.phase != ACTION:
        out: list[Any] = []
        if generous:
            cells = geometry.frontier(alh)
        else:
            lay = geometry.layout(alh)
        for tile in seat.pending:
            out += _at_cells(
                move.PlaceTile, tile, [cell_key(c) for c in cells] if generous else lay.fit_keys(WALLS[tile])
            )
            out.append(_of_tile(move.ReserveTile, tile))
            # A66, V11: any purchase may go to Dirk (a vizier purchase too); huts never do (V25, V30)
            if len(state.players) == 2 and (generous or (state.phase != FINAL and tile not in HUT_TYPE)):
                out.append(_of_tile(move.GiveToDirk, tile))
        return out
    if player != state.players[state.current]:  # a vizier claimant during the window (V4, V12)
        return vizier_buys(state, seat)
    hand = seat.hand
    out = [*take_options(state.display), *market_buys(state.market, hand)]
    options = state.options
    if options:  # the Vizier's Favour modules (an empty dict: a base game stored before they existed)
        if options.get("exchange") and hand and hand[-1] > 2000:  # exchange cards sort last in the hand
            out.extend(exchange_buys(state, seat, move.BuyTile, exact=False))
        if options.get("huts") and seat.huts_taken < HUT_LIMIT:  # V22, V25
            out.extend(move.TakeHut(stack[-1]) for stack in state.huts if stack)
        if options.get("vizier"):
            if state.window and seat.vizier:  # V4: the next player may use their vizier before acting
                out.extend(vizier_buys(state, seat))
            if not seat.vizier:  # V8
                out.append(move.ReactivateVizier())
    reserve = seat.reserve
    if generous:
        out.extend(_redesigns(alh, reserve, True))
    else:
        memo = geometry.layout(alh).memo
        found = memo.get(reserve)
        if found is None:
            found = memo[reserve] = _redesigns(alh, reserve, False)  # never changed: copied into each listing
        out += found
    if state.bonus or not out or generous:
        out.append(PASS)
    return out


def _redesigns(alh: dict[geometry.Cell, str], reserve: tuple[str, ...], generous: bool) -> list[Any]:
    """A33: the redesigns (a reserve tile added, an Alhambra tile removed or exchanged for a reserve tile), in
    listing order; the fast listing keeps them per Alhambra and reserve (geometry.Layout.memo)."""
    out: list[Any] = []
    if generous:
        cells = geometry.frontier(alh) if reserve else []
        keys = [cell_key(c) for c in cells]
        for tile in reserve:
            out += _at_cells(move.RedesignAdd, tile, keys)
        for cell, tile in alh.items():
            if cell != (0, 0):
                out.append(_of_tile(move.RedesignRemove, tile))
                out.extend(_swap(new, tile) for new in reserve)
        return out
    lay = geometry.layout(alh)
    removable = lay.removable_keys()
    # plain loops (compiled, they beat map(X.__getitem__, ...), a call per item); a cell's key is (y << SHIFT) + x
    if not reserve:
        return [_of_tile(move.RedesignRemove, tile) for (x, y), tile in alh.items() if (y << SHIFT) + x in removable]
    for tile in reserve:
        out += _at_cells(move.RedesignAdd, tile, lay.fit_keys(WALLS[tile]))
    cell_needs = lay.need_keys()
    wanted = 0  # the wall patterns of the reserve tiles, as bits
    for new in reserve:
        wanted |= 1 << WALLS[new]
    for (x, y), tile in alh.items():
        k = (y << SHIFT) + x
        if not k:
            continue  # the fountain
        if k in removable:
            out.append(_of_tile(move.RedesignRemove, tile))
        fit = FIT_MASK[cell_needs[k]]  # the wall patterns that may be exchanged into this cell
        if fit & wanted:
            for new in reserve:
                if fit >> WALLS[new] & 1:
                    out.append(_swap(new, tile))
    return out


def market_buys(market: tuple[str | None, ...], hand: tuple[int, ...]) -> list[move.BuyTile]:
    """A21: every purchase of a market tile with money cards of `hand`, one per minimal payment (exchange cards
    aside), space by space. Not cached: a market with a hand seldom repeats;
    the hand's split by currency (`by_currency`) and each space's purchases (`_buys`) do."""
    out: list[move.BuyTile] = []
    split = by_currency(hand)  # the loop of market_money, without its list: this runs at every listing
    for space in range(4):
        tile, own = market[space], split[space]
        if tile is not None and own:
            out += _buys(tile, own)
    return out


# Caches of the purchases, plain dicts emptied when full (compiled code looks them up without the call and the
# recency list of a bounded lru_cache): hands and market tiles repeat, but each combination only for a while.
_CACHE_LIMIT: Final = 1 << 14
T = TypeVar("T")


def _kept(cache: dict[Any, Any], key: Any, value: T) -> T:
    """`cache[key] = value` in a cache emptied when full (at most _CACHE_LIMIT entries); returns the value."""
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


_SPLITS: Final[dict[tuple[int, ...], tuple[tuple[int, ...], ...]]] = {}
_BUYS: Final[dict[tuple[str, tuple[int, ...]], tuple[move.BuyTile, ...]]] = {}


def by_currency(hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The hand's money cards of each currency, in the order of the market spaces (exchange cards left out)."""
    found = _SPLITS.get(hand)
    if found is None:
        split: list[list[int]] = [[], [], [], []]
        for c in hand:
            if 0 <= c < 108:
                split[c // 27].append(c)
        found = _kept(_SPLITS, hand, (tuple(split[0]), tuple(split[1]), tuple(split[2]), tuple(split[3])))
    return found


def _rising(cards: tuple[int, ...]) -> bool:
    """Whether the cards are sorted (as hands are kept), without building a sorted copy."""
    return all(cards[i - 1] <= cards[i] for i in range(1, len(cards)))


def _buys(tile: str, own: tuple[int, ...]) -> tuple[move.BuyTile, ...]:
    """A21: the purchases of market `tile` with the money cards `own` of its currency, one per minimal payment.
    Cards kept sorted (as hands are) are sorted by value too, so a payment is a set of positions that depends on
    the values alone (`_positions`)."""
    key = (tile, own)
    found = _BUYS.get(key)
    if found is None:
        price = PRICE[tile]
        if _rising(own):
            values = tuple([_VALUE[c] for c in own])
            found = tuple([move.BuyTile(tile, tuple([own[i] for i in at])) for at in _positions(values, price)])
        else:
            found = tuple([move.BuyTile(tile, cards) for cards in payments(own, price)])
        _kept(_BUYS, key, found)
    return found


_VALUE: Final = tuple((c % 27) // 3 + 1 for c in range(108))  # a money card's value by id


_POSITIONS: Final[dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], ...]]] = {}


def _positions(values: tuple[int, ...], price: int) -> tuple[tuple[int, ...], ...]:
    """payments for cards with these values in rising order, as positions among them (the lowest of each value)."""
    key = (values, price)
    found = _POSITIONS.get(key)
    if found is None:
        first = {v: values.index(v) for v in set(values)}
        shape = tuple((v, values.count(v)) for v in sorted(first, reverse=True))
        out = []
        for picks in _payment_values(shape, price):
            out.append(tuple(sorted(i for v, k in picks for i in range(first[v], first[v] + k))))
        found = _kept(_POSITIONS, key, tuple(out))
    return found


def vizier_buys(state: GameState, seat: PlayerState, first: bool = False) -> list[move.VizierBuy]:
    """V5, V11: every exact payment for every market tile (one per multiset of cards), with an exchange card
    where one helps; with `first`, stop at the first (is there any?)."""
    found = _vizier_buys(state.market, seat.hand)
    return list(found[:1] if first else found)


@functools.lru_cache(maxsize=1 << 14)
def _vizier_buys(market: tuple[str | None, ...], hand: tuple[int, ...]) -> tuple[move.VizierBuy, ...]:
    """vizier_buys for a market and a hand (cached: to_move asks it of every claimant during the window)."""
    out: list[move.VizierBuy] = []
    for tile, own in market_money(market, hand):
        out.extend(move.VizierBuy(tile, cards) for cards in exact_payments(own, PRICE[tile]))
    if hand and hand[-1] > 2000:
        out.extend(_exchange_buys(market, hand, move.VizierBuy, True))
    return tuple(out)


def exchange_buys(state: GameState, seat: PlayerState, cls: type, exact: bool) -> list[Any]:
    """V45: payments of one market tile with one exchange card and cards of its two currencies (at least one
    of the other currency: otherwise the card would be wasted), minimal, one per multiset of cards."""
    return list(_exchange_buys(state.market, seat.hand, cls, exact))


@functools.lru_cache(maxsize=1 << 12)
def _exchange_buys(market: tuple[str | None, ...], hand: tuple[int, ...], cls: type, exact: bool) -> tuple[Any, ...]:
    out = []
    for x in hand:
        pair = EXCHANGE_PAIRS.get(x)
        if pair is None:
            continue
        mixed = tuple(c for c in hand if 0 <= c < 108 and c // 27 in pair)
        for space in pair:
            tile = market[space]
            if tile is None:
                continue
            other = pair[1] if pair[0] == space else pair[0]
            for cards in mixed_payments(mixed, PRICE[tile], other, exact):
                out.append(cls(tile, tuple(sorted(cards + (x,)))))
    return tuple(out)


def minimal_payments(hand: tuple[int, ...], space: int, price: int) -> list[tuple[int, ...]]:
    """A21: every distinct minimal payment (by multiset of values) from `hand` in the currency of market
    `space`: sum >= price, and leaving out any card would make it too little. Cheapest first."""
    own = tuple(c for c in hand if 0 <= c < 108 and c // 27 == space)
    return list(payments(own, price)) if own else []


def market_money(market: tuple[str | None, ...], hand: tuple[int, ...]) -> list[tuple[str, tuple[int, ...]]]:
    """A21: each market tile with the hand's money cards of its space's currency (tiles with none left out)."""
    split = by_currency(hand)
    out = []
    for space in range(4):  # an index loop: compiled, zip(..., strict=True) is a generic call
        tile, own = market[space], split[space]
        if tile is not None and own:
            out.append((tile, own))
    return out


@functools.lru_cache(maxsize=1 << 16)
def payments(cards: tuple[int, ...], price: int) -> tuple[tuple[int, ...], ...]:
    """minimal_payments for the cards of one currency (sorted ids); cached, hands repeat a lot. The search runs
    on the values alone (`_payment_values`, shared by every hand with the same values)."""
    groups: dict[int, list[int]] = {}
    for c in cards:
        groups.setdefault((c % 27) // 3 + 1, []).append(c)
    shape = tuple((v, len(groups[v])) for v in sorted(groups, reverse=True))
    out = []
    for picks in _payment_values(shape, price):
        ids: list[int] = []
        for v, k in picks:
            ids += groups[v][:k]
        ids.sort()
        out.append(tuple(ids))
    return tuple(out)


@functools.lru_cache(maxsize=1 << 14)
def _payment_values(shape: tuple[tuple[int, int], ...], price: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """A21: the minimal payments of `price` from cards with these (value, count) in falling value order, each as
    the (value, how many) it uses, cheapest first (then fewest cards, then lowest values)."""
    groups = [(v, list(range(k))) for v, k in shape]
    found = minimal_sets([(v, [i * 16 + j for j in ids]) for i, (v, ids) in enumerate(groups)], price)
    found.sort(key=lambda f: (f[0], len(f[1]), sorted(shape[c >> 4][0] for c in f[1])))
    out = []
    for _, chosen in found:
        counts: dict[int, int] = {}
        for c in chosen:
            counts[c >> 4] = counts.get(c >> 4, 0) + 1
        out.append(tuple((shape[i][0], k) for i, k in counts.items()))
    return tuple(out)


def minimal_sets(groups: list[tuple[int, list[int]]], price: int) -> list[tuple[int, tuple[int, ...]]]:
    """A21: every minimal set of cards worth at least `price`, one per multiset of groups used, as (total, ids).
    `groups` are the interchangeable cards as (value, ids), in falling value order."""
    found: list[tuple[int, tuple[int, ...]]] = []
    _walk_sets(groups, price, found, 0, 0, ())
    return found


def _walk_sets(
    groups: list[tuple[int, list[int]]],
    price: int,
    found: list[tuple[int, tuple[int, ...]]],
    start: int,
    total: int,
    chosen: tuple[int, ...],
) -> None:
    """`minimal_sets`'s search (a module function, not a recursive closure: that would be a reference cycle).
    Values are chosen in falling order, so the newest value is the smallest card: the payment is minimal iff
    dropping one of those still leaves too little."""
    for j in range(start, len(groups)):
        v, ids = groups[j]
        for k in range(1, len(ids) + 1):
            t = total + k * v
            if t >= price:
                found.append((t, chosen + tuple(ids[:k])))
                break
            _walk_sets(groups, price, found, j + 1, t, chosen + tuple(ids[:k]))


@functools.lru_cache(maxsize=1 << 12)
def exact_payments(cards: tuple[int, ...], price: int) -> tuple[tuple[int, ...], ...]:
    """V5: the payments of `_payments` that are exact (an exact payment is always minimal)."""
    return tuple(p for p in payments(cards, price) if sum((c % 27) // 3 + 1 for c in p) == price)


@functools.lru_cache(maxsize=1 << 14)
def mixed_payments(cards: tuple[int, ...], price: int, other: int, exact: bool) -> tuple[tuple[int, ...], ...]:
    """V45: minimal payments from money cards of two currencies (one per multiset of (currency, value)) that
    use at least one card of currency `other`; only exact ones if `exact`. Cheapest first."""
    groups: dict[tuple[int, int], list[int]] = {}
    for c in cards:
        groups.setdefault(card_key(c), []).append(c)
    keys = sorted(groups, key=lambda k: (-k[1], k[0]))  # (currency, value): falling values
    found = minimal_sets([(k[1], groups[k]) for k in keys], price)
    found = [f for f in found if (not exact or f[0] == price) and any(c // 27 == other for c in f[1])]
    found.sort(key=lambda f: (f[0], len(f[1]), sorted(card_key(c) for c in f[1])))
    return tuple(tuple(sorted(cards)) for _, cards in found)


_TAKES: Final[dict[tuple[int, ...], tuple[move.TakeMoney, ...]]] = {}  # by display (emptied when full, as _BUYS)
_TAKE: Final[dict[tuple[int, ...], move.TakeMoney]] = {}  # by the cards taken


def take_options(display: tuple[int, ...]) -> tuple[move.TakeMoney, ...]:
    """A19: each distinct single card, and each distinct set of 2+ money cards worth at most 5 together (V43:
    an exchange card is only ever taken alone)."""
    found = _TAKES.get(display)
    if found is not None:
        return found
    # the choices depend only on each card's value and on which cards are of one kind (a money card's kind is
    # id // 3: currency and value; an exchange card is its own kind): the display's pattern
    # (a card of value 5 or more, like an exchange card, is only ever taken alone: its value counts as 5)
    kinds = [c // 3 if c < 2000 else c for c in display]
    pattern = tuple([min(k % 9 + 1 if k < 2000 else 5, 5) << 4 | kinds.index(k) for k in kinds])
    out = []
    for combo in _take_choices(pattern):
        cards = tuple(sorted([display[i] for i in combo]))
        action = _TAKE.get(cards)
        if action is None:
            action = _kept(_TAKE, cards, move.TakeMoney(cards))
        out.append(action)
    return _kept(_TAKES, display, tuple(out))


@functools.lru_cache(maxsize=1 << 12)
def _take_choices(pattern: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """take_options as positions in the display, for the display's pattern (per card: its value, at most 5, << 4 |
    the first position of a card of its kind; an exchange card's value counts as 5, so it never joins a set, V43):
    one choice per distinct set of kinds, singles first, then pairs..., in display order."""
    seen: set[tuple[int, ...]] = set()
    out = []
    values = [p >> 4 for p in pattern]
    kinds = [p & 15 for p in pattern]
    n = len(pattern)
    for size in range(1, n + 1):
        for combo in itertools.combinations(range(n), size):
            if size > 1 and sum(values[i] for i in combo) > 5:
                continue
            key = tuple(sorted(kinds[i] for i in combo))
            if key not in seen:
                seen.add(key)
                out.append(combo)
    return tuple(out)
