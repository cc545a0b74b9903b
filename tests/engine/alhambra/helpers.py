"""Builders for Alhambra test positions: start from new_game and move named tiles and cards where a test
wants them, keeping every tile and card exactly once (A80, A81), so from_json/validate accepts the result.
With the Vizier's Favour modules the same holds for huts (V20, kept in their stacks, `huts_taken` following
what each player holds), exchange cards (V40, like money cards) and bonus cards (V60)."""

from __future__ import annotations

from dataclasses import replace

from engine.alhambra import RULES, parse_cell
from engine.alhambra.state import GameState, state_problem

R = RULES


def players(n: int) -> list[str]:
    return [str(111 * (i + 1)) for i in range(n)]


def new(n: int = 3, seed: int = 1, **modules: bool) -> GameState:
    """A new game; modules as keywords, e.g. new(3, 1, vizier=True, huts=True)."""
    return R.new_game(players(n), modules, seed)


def card(currency: str, value: int, copy: int = 0) -> int:
    """The id of a money card, e.g. card('florin', 5)."""
    from engine.alhambra.components import CURRENCIES

    return CURRENCIES.index(currency) * 27 + (value - 1) * 3 + copy


def cells(layout: dict[str, str]) -> dict[tuple[int, int], str]:
    """{'N13': 'garden-10-open'} -> {(1, 0): 'garden-10-open'} (the fountain is added at M13)."""
    out = {(0, 0): "start-1"}
    out.update({parse_cell(k): v for k, v in layout.items()})
    return out


def _strip_tiles(s: GameState, tiles: set[str]) -> GameState:
    seats = tuple(
        replace(
            seat,
            alhambra={c: t for c, t in seat.alhambra.items() if t not in tiles},
            reserve=tuple(t for t in seat.reserve if t not in tiles),
            pending=tuple(t for t in seat.pending if t not in tiles),
        )
        for seat in s.seats
    )
    return replace(
        s,
        seats=seats,
        bag=tuple(t for t in s.bag if t not in tiles),
        market=tuple(None if t in tiles else t for t in s.market),
        dirk=tuple(t for t in s.dirk if t not in tiles),
        removed=tuple(t for t in s.removed if t not in tiles),
        huts=tuple(tuple(h for h in stack if h not in tiles) for stack in s.huts),
    )


def _strip_bonus(s: GameState, cards: set[str]) -> GameState:
    seats = tuple(
        replace(
            seat,
            bonus_hand=tuple(c for c in seat.bonus_hand if c not in cards),
            bonus_played=tuple(c for c in seat.bonus_played if c not in cards),
        )
        for seat in s.seats
    )
    return replace(s, seats=seats, bonus_aside=tuple(c for c in s.bonus_aside if c not in cards))


def _strip_cards(s: GameState, cards: set[int]) -> GameState:
    seats = tuple(replace(seat, hand=tuple(c for c in seat.hand if c not in cards)) for seat in s.seats)
    return replace(
        s,
        seats=seats,
        deck=tuple(c for c in s.deck if c not in cards),
        display=tuple(c for c in s.display if c not in cards),
        discard=tuple(c for c in s.discard if c not in cards),
    )


def _seat_in(seats: list, field: str, given: dict | None, back: list, key=tuple) -> None:
    """Each given seat's `field` set to its given items (`key` makes the stored value); what it held goes to `back`."""
    for i, items in (given or {}).items():
        back += list(getattr(seats[i], field))
        seats[i] = replace(seats[i], **{field: key(items)})


def arrange(
    s: GameState,
    *,
    market=None,
    display=None,
    hands=None,
    alhambras=None,
    reserves=None,
    pending=None,
    dirk=None,
    bag=None,
    bonus_hands=None,
    bonus_played=None,
    **fields,
) -> GameState:
    """Put the named tiles/cards where given (seat indexes as dict keys; alhambras as {'N13': tile}).

    What a given place held before goes back to the bottom of the bag/deck (huts: of their stack; bonus
    cards: aside); emptied market spaces are refilled from the bag unless `market` is given. Huts may be
    placed like tiles; each player's `huts_taken` becomes the number of huts they hold. Other GameState
    fields can be passed as keywords.
    """
    from engine.alhambra.components import HUT_TYPE, TYPES

    bonus: set[str] = set()
    for group in (bonus_hands, bonus_played):
        for cs in (group or {}).values():
            bonus |= set(cs)
    if bonus:
        s = _strip_bonus(s, bonus)
        seats = list(s.seats)
        back: list[str] = []
        _seat_in(seats, "bonus_hand", bonus_hands, back)
        _seat_in(seats, "bonus_played", bonus_played, back)
        s = replace(s, seats=tuple(seats), bonus_aside=s.bonus_aside + tuple(back))
    tiles: set[str] = set()
    cards_: set[int] = set()
    if market is not None:
        tiles |= {t for t in market if t}
    for group in (reserves, pending):
        for ts in (group or {}).values():
            tiles |= set(ts)
    for lay in (alhambras or {}).values():
        tiles |= set(lay.values())
    tiles |= set(dirk or ()) | set(bag or ())
    if display is not None:
        cards_ |= set(display)
    for hs in (hands or {}).values():
        cards_ |= set(hs)
    s = _strip_cards(_strip_tiles(s, tiles), cards_)

    back_tiles: list[str] = []
    back_cards: list[int] = []
    seats = list(s.seats)
    for i, lay in (alhambras or {}).items():
        back_tiles += [t for c, t in seats[i].alhambra.items() if c != (0, 0)]
        seats[i] = replace(seats[i], alhambra=cells(lay) | {(0, 0): seats[i].alhambra[(0, 0)]})
    _seat_in(seats, "reserve", reserves, back_tiles)
    _seat_in(seats, "pending", pending, back_tiles)
    _seat_in(seats, "hand", hands, back_cards, key=lambda hs: tuple(sorted(hs)))
    s = replace(s, seats=tuple(seats))
    if dirk is not None:
        back_tiles += list(s.dirk)
        s = replace(s, dirk=tuple(dirk))
    if display is not None:
        back_cards += list(s.display)
        s = replace(s, display=tuple(display))
    if market is not None:
        back_tiles += [t for t in s.market if t]
        s = replace(s, market=tuple(market))
    back_huts = [t for t in back_tiles if t in HUT_TYPE]
    back_tiles = [t for t in back_tiles if t not in HUT_TYPE]
    if back_huts:
        s = replace(
            s,
            huts=tuple(
                tuple(h for h in back_huts if HUT_TYPE[h] == typ) + stack
                for typ, stack in zip(TYPES, s.huts, strict=True)
            ),
        )
    if s.huts:
        s = replace(
            s,
            seats=tuple(
                replace(
                    seat, huts_taken=sum(t in HUT_TYPE for t in (*seat.alhambra.values(), *seat.reserve, *seat.pending))
                )
                for seat in s.seats
            ),
        )
    if bag is not None:
        back_tiles += list(s.bag)
        s = replace(s, bag=tuple(bag), removed=s.removed + tuple(back_tiles))  # nowhere else to keep them
    else:
        s = replace(s, bag=tuple(back_tiles) + s.bag)
    s = replace(s, deck=tuple(back_cards) + s.deck)
    if market is None:
        m = list(s.market)
        b = list(s.bag)
        for i in range(4):
            if m[i] is None and b:
                m[i] = b.pop()
        s = replace(s, market=tuple(m), bag=tuple(b))
    s = replace(s, **fields)
    problem = state_problem(s)
    assert problem is None, problem
    return s


def act(s: GameState, action, player: str | None = None) -> GameState:
    """Apply `action` for `player` (default: the one to move)."""
    return R.apply(s, player or R.to_move(s)[0], action)
