"""The Vizier's Favour over random complete games: all 16 module combinations × 2–6 players.

Checked after every action: conservation of the 54 tiles, the 24 huts, the 108/72 money cards and the 6
exchange cards (A80, A81, V20, V40), the 3-hut limit (V25), the 10 bonus cards (V60), honest `to_move`
(V6 placement sub-step, V7/V12 window: claimants only get exact vizier purchases; nobody outside it has
actions), and that every free action listed applies. Every few actions (and always in the VIZIER and FINAL
phases), the heavy contract checks: JSON round trips of state, views and actions, rejected illegal actions
(the shared checker's and module-specific ones) leaving the state unchanged, and no hidden module
information in other players' views. After every action, the log holds that action's events only and the state
stays small (the shared `check_log`). Each game is replayed from its log at the end. Free actions
(PlayBonus, SetBonusAutoplay) are interleaved at random by any player, in or out of turn.

Size: PROPERTY_GAMES games per configuration (CI default 1). The shared checker `play_random_game` runs on
every configuration for PROPERTY_GAMES // 20 games, and in CI on all modules together at 2, 4 and 6 players.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from engine import IllegalAction
from engine.alhambra import RULES, listing
from engine.alhambra.actions import (
    BuyTile,
    GiveToDirk,
    PlayBonus,
    ReactivateVizier,
    SetBonusAutoplay,
    TakeHut,
    TakeMoney,
    VizierBuy,
)
from engine.alhambra.components import (
    BONUS_CARDS,
    BUILDING_TILES,
    EXCHANGE_CARDS,
    EXCHANGE_PAIRS,
    HIDDEN_CARD,
    HUT_LIMIT,
    HUT_TYPE,
    HUTS,
    PRICE,
    TYPES,
    is_money,
    money_cards,
    value_of,
)
from engine.alhambra.geometry import alhambra_problem
from engine.alhambra.state import ACTION, FINAL, HIDDEN, OVER, VIZIER, state_problem
from tests.conftest import property_games
from tests.engine.alhambra.test_property import illegal as base_illegal
from tests.engine.playout import assert_rejected, check_log, json_round_trip, play_random_game, players_for

MODULES = ("vizier", "huts", "exchange", "bonus")
COMBOS = [
    tuple(m for m, on in zip(MODULES, bits, strict=True) if on) for bits in itertools.product((False, True), repeat=4)
]
CONFIGS = [(combo, n) for combo in COMBOS for n in range(2, 7)]
# Share of steps with the full contract checks (JSON encoding and decoding of the whole state and its views, and
# the illegal actions, dominate them): lower in the full-size runs, whose many games give them plenty of steps
# anyway.
HEAVY = 0.06 if property_games(1) < 10 else 0.03
FREE = 0.08  # chance per step that some player tries a free action


def conservation(s) -> None:
    """A80/V20/V25/A81/V40/V60 on the full state."""
    opts = s.options
    tiles = list(s.bag) + [t for t in s.market if t is not None] + list(s.dirk) + list(s.removed)
    huts = [h for stack in s.huts for h in stack]
    for k, stack in enumerate(s.huts):
        assert all(HUT_TYPE[h] == TYPES[k] for h in stack), "V21: stacks by colour"
    for seat in s.seats:
        held = [t for c, t in seat.alhambra.items() if c != (0, 0)] + list(seat.reserve) + list(seat.pending)
        mine = [t for t in held if t in HUT_TYPE]
        assert len(mine) == seat.huts_taken <= HUT_LIMIT, "V25: at most 3 huts, acquisitions counted"
        huts += mine
        tiles += [t for t in held if t not in HUT_TYPE]
    assert sorted(tiles) == sorted(BUILDING_TILES), f"A80: {len(tiles)} tiles"
    assert sorted(huts) == (sorted(HUTS) if opts["huts"] else []), f"V20: {len(huts)} huts"
    assert not set(HUTS) & {*s.dirk, *s.bag, *s.removed}, "V30: no hut in the bag, with Dirk or removed"
    cards = [*s.deck, *s.display, *s.discard, *(c for seat in s.seats for c in seat.hand)]
    assert sorted(c for c in cards if is_money(c)) == list(money_cards(len(s.players))), "A81"
    assert sorted(c for c in cards if c in EXCHANGE_PAIRS) == (list(EXCHANGE_CARDS) if opts["exchange"] else [])
    bonus = [*s.bonus_aside, *(c for seat in s.seats for c in (*seat.bonus_hand, *seat.bonus_played))]
    assert sorted(bonus) == (sorted(BONUS_CARDS) if opts["bonus"] else []), "V60"
    for seat in s.seats:
        assert set(seat.bonus_played) <= set(seat.alhambra.values()), "V64: played cards' tiles are built"
    assert s.options["vizier"] or not (s.window or any(seat.vizier for seat in s.seats))


def movers_honest(s) -> None:
    """to_move and legal_actions agree; the window and the VIZIER phase list exactly who may act (V6, V7, V12)."""
    movers = RULES.to_move(s)
    for p in s.players:
        legal = RULES.legal_actions(s, p)
        if p not in movers:
            assert legal == [], f"{p} not to move but has actions"
            continue
        assert legal, f"{p} to move without actions"
        if s.phase == ACTION and p != s.current_player:  # a vizier claimant (V4, V5)
            assert s.window and s.seat(p).vizier
            for a in legal:
                assert isinstance(a, VizierBuy)
                assert sum(value_of(c) for c in a.cards if is_money(c)) == PRICE[a.tile], "V5: exact"
        for a in RULES.free_actions(s, p):
            assert RULES.check(s, p, a) is None, f"listed free action refused: {a}"
    if s.phase == VIZIER:
        assert movers == [s.players[s.claimant]]
    elif s.phase == ACTION:
        assert movers[0] == s.current_player
        assert movers[1:] == [p for p in RULES.vizier_claimants(s) if p != s.current_player]
        assert RULES.vizier_priority(s, reversed(movers[1:])) == movers[1:]
    if s.phase in (FINAL, OVER):
        assert not s.window, "V9"


def no_module_leaks(s, viewer) -> None:
    """Other players' exchange cards, unplayed bonus cards and standing orders, the aside cards and the huts
    below the stack tops are hidden."""
    v = RULES.view(s, viewer)
    for p, seat in zip(v.players, v.seats, strict=True):
        if p != viewer:
            assert set(seat.hand) <= {HIDDEN_CARD} and set(seat.bonus_hand) <= {HIDDEN}
            assert seat.bonus_auto == ("" if s.options["bonus"] else s.seat(p).bonus_auto)
    assert set(v.bonus_aside) <= {HIDDEN}
    assert all(set(stack[:-1]) <= {HIDDEN} for stack in v.huts)


def module_illegal(s, player, rnd: random.Random) -> list:
    """Module actions the rules forbid here (V5, V8, V10, V22, V25, V30, V43, V45, V62, V65)."""
    seat = s.seat(player)
    out: list = []
    opts = s.options
    market = [t for t in s.market if t]
    hand = [c for c in seat.hand if is_money(c)]
    exchange = [c for c in seat.hand if c in EXCHANGE_PAIRS]
    if market and hand:
        tile = rnd.choice(market)
        space = s.market.index(tile)
        mine = [c for c in hand if c // 27 == space]
        if sum(value_of(c) for c in mine) > PRICE[tile]:
            out.append(VizierBuy(tile, tuple(mine)))  # V5: overpaying
        if not (s.window and s.phase == ACTION and seat.vizier):
            exact = listing.vizier_buys(s, seat)
            if exact:
                out.append(rnd.choice(exact))  # V4, V8, V12: not now / inactive vizier
    if opts["huts"]:
        tops = [stack[-1] for stack in s.huts if stack]
        if tops:
            out.append(VizierBuy(rnd.choice(tops), tuple(hand[:1])))  # V10
            if seat.huts_taken >= HUT_LIMIT or s.phase != ACTION or player != s.current_player:
                out.append(TakeHut(rnd.choice(tops)))  # V22, V25
        buried = [h for stack in s.huts for h in stack[:-1]]
        if buried:
            out.append(TakeHut(rnd.choice(buried)))  # V22: only the top
        huts = [t for t in seat.pending if t in HUT_TYPE]
        if huts:
            out.append(GiveToDirk(huts[0]))  # V25, V30
    if opts["vizier"] and seat.vizier:
        out.append(ReactivateVizier())  # V8: already active
    if exchange:
        if s.display and any(is_money(c) for c in s.display):
            out.append(TakeMoney(tuple(sorted((exchange[0], next(c for c in s.display if is_money(c)))))))
        if len(exchange) > 1 and market:
            out.append(BuyTile(rnd.choice(market), tuple(sorted(hand + exchange[:2]))))  # V45: one card only
    shown = [c for c in s.display if c in EXCHANGE_PAIRS]
    money = [c for c in s.display if is_money(c)]
    if shown and money:
        out.append(TakeMoney(tuple(sorted((shown[0], money[0])))))  # V43
    if opts["bonus"]:
        built = set(seat.alhambra.values())
        unbuilt = [c for c in BONUS_CARDS if c not in built or c not in seat.bonus_hand]
        out.append(PlayBonus(rnd.choice(unbuilt)))  # V62, V65
        out.append(SetBonusAutoplay(seat.bonus_auto))  # already so
    else:
        out.append(SetBonusAutoplay("never"))
    return rnd.sample(out, min(len(out), 4))


def heavy_checks(s, player, action, rnd: random.Random) -> None:
    json_round_trip(RULES, s)
    texts = [RULES.describe(a) for a in RULES.legal_actions(s, player) + RULES.free_actions(s, player)]
    assert len(set(texts)) == len(texts), "describe is unique among the actions on offer"
    assert state_problem(s) is None
    for seat in s.seats:
        assert alhambra_problem(seat.alhambra) is None, "A82"
    for viewer in (None, player):
        seen = RULES.view(s, viewer)
        assert type(seen) is type(s)
        json.dumps(RULES.to_json(seen))
        no_module_leaks(s, viewer)
    movers = RULES.to_move(s)
    outsiders = [p for p in s.players if p not in movers]
    if outsiders and not RULES.is_free_action(action):
        assert_rejected(RULES, s, rnd.choice(outsiders), action, "player not to move")
    bad = module_illegal(s, player, rnd)
    if player in movers:
        bad += list(base_illegal(RULES, s, player, rnd))[:2]
    bad = [a for a in bad if RULES.check(s, player, a) is not None]  # a generated action may happen to be legal
    for a in bad:
        with pytest.raises(IllegalAction):  # every one is refused by apply...
            RULES.apply(s, player, a)
    for a in rnd.sample(bad, min(2, len(bad))):  # ...and (the slow full check) leaves the state unchanged
        assert_rejected(RULES, s, player, a, "module-specific")


def play_modules_game(n: int, combo: tuple[str, ...], seed: int, heavy: float = HEAVY):
    """One random complete game with the checks above; returns the final state and the move log."""
    rnd = random.Random(seed)
    players = players_for(n)
    options = dict.fromkeys(combo, True)
    s = RULES.new_game(players, options, seed)
    log: list = []
    seen_vizier = False
    for _ in range(20_000):
        if RULES.is_over(s):
            break
        conservation(s)
        movers_honest(s)
        if rnd.random() < FREE:  # any player, in or out of turn (V62, V66)
            p = rnd.choice(players)
            free = RULES.free_actions(s, p)
            if free:
                a = rnd.choice(free)
                before = RULES.to_move(s)
                t = RULES.apply(s, p, a)
                check_log(RULES, s, p, a, t)
                assert RULES.to_move(t) == before, "a free action changed whose move it is"
                assert RULES.action_from_json(json.loads(json.dumps(RULES.action_to_json(a)))) == a
                log.append((p, a))
                s = t
                continue
        player = rnd.choice(RULES.to_move(s))
        legal = RULES.legal_actions(s, player)
        action = rnd.choice(legal)
        assert RULES.action_from_json(json.loads(json.dumps(RULES.action_to_json(action)))) == action
        assert RULES.describe(action)
        special = (s.phase == VIZIER and not seen_vizier) or s.phase == FINAL
        seen_vizier |= s.phase == VIZIER
        if special or rnd.random() < heavy:
            heavy_checks(s, player, action, rnd)
        before = RULES.to_json(s) if special else None
        t = RULES.apply(s, player, action)
        if before is not None:
            assert RULES.to_json(s) == before, "apply changed its input state"
        check_log(RULES, s, player, action, t)
        log.append((player, action))
        s = t
    else:
        raise AssertionError("game not over")
    conservation(s)
    assert RULES.to_move(s) == [] and RULES.free_actions(s, players[0]) == []
    assert s.scorings[-1].round == 3 and RULES.winners(s)
    json_round_trip(RULES, s)
    replay = RULES.new_game(players, options, seed)
    for p, a in log:
        replay = RULES.apply(replay, p, a)
    assert replay == s, "replaying the move log gave a different state"
    return s, log


@pytest.mark.parametrize(("combo", "n"), CONFIGS, ids=[f"{'+'.join(c) or 'base'}-{n}p" for c, n in CONFIGS])
def test_modules_random_games(combo, n):
    """A80, A81, V20, V25, V40, V60 and the contract over random games of every module combination."""
    for g in range(property_games(1)):
        seed = 104729 * n + 131 * COMBOS.index(combo) + g
        s, log = play_modules_game(n, combo, seed)
        assert RULES.is_over(s)


def invariants(rules, s) -> None:
    conservation(s)
    assert state_problem(s) is None


def illegal(rules, s, player, rnd):
    """The base game's illegal candidates and the module ones that really are illegal here."""
    bad = list(base_illegal(rules, s, player, rnd))[:2] + module_illegal(s, player, rnd)[:2]
    return [a for a in bad if rules.check(s, player, a) is not None]


@pytest.mark.parametrize("n", [2, 4, 6])
def test_all_modules_through_the_shared_checker(n):
    """The shared contract checker (play_random_game) on all four modules together (every configuration gets
    it in the full-size run below)."""
    s, _ = play_random_game(RULES, n, dict.fromkeys(MODULES, True), 7 * n + 1, invariants=invariants, illegal=illegal)
    assert RULES.is_over(s)


@pytest.mark.parametrize(("combo", "n"), CONFIGS, ids=[f"{'+'.join(c) or 'base'}-{n}p" for c, n in CONFIGS])
def test_every_combination_through_the_shared_checker(combo, n):
    """The shared checker on every configuration, PROPERTY_GAMES // 20 games each (none in CI)."""
    games = property_games(0) // 20
    if not games:
        pytest.skip("full-size runs only (PROPERTY_GAMES >= 20)")
    for g in range(games):
        s, _ = play_random_game(
            RULES,
            n,
            dict.fromkeys(combo, True),
            7919 * n + 31 * COMBOS.index(combo) + g,
            invariants=invariants,
            illegal=illegal,
        )
        assert RULES.is_over(s)
