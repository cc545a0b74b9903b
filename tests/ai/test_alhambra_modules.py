"""The AI players in Alhambra with The Vizier's Favour (every module): complete games with all
four modules and with subsets, re-deals of what the modules hide (V21 hut stacks, V41/V44 exchange cards, V61/V66
bonus cards), decisions that ignore hidden information, the evaluation of module components (V3, V27, V45, V63),
optional movers during the vizier window (V4, V7, V12: `choose(..., optional=True)`), and a guard that base-game
decisions stay exactly what they were.

Budgets count iterations, never seconds, so results do not depend on the machine's speed.
"""

import json
import random

import pytest

from ai import LEVELS, adapter, ai_player_id, choose
from ai.alhambra import EXCHANGE_WEIGHT, VIZIER_WEIGHT
from ai.core import action_key, margin
from engine import get_rules
from engine.alhambra.actions import BuyTile, TakeHut, VizierBuy
from engine.alhambra.components import EXCHANGE_PAIRS, HUT_TYPE, HUTS, PRICE, SCORING_CARDS, START_TILES, WALLS, W
from engine.alhambra.state import ACTION, AUTO_FINAL, AUTO_NEVER, state_problem

HARD = 6  # search iterations per hard decision: enough to exercise the search, cheap
ALL = {"vizier": True, "huts": True, "exchange": True, "bonus": True}
RULES = get_rules("alhambra")
AI = adapter("alhambra")


def _players(levels):
    return [ai_player_id(level, i + 1) for i, level in enumerate(levels)]


def _play(levels, seed, options):
    """A complete game between AI seats. During a vizier window the claimants are asked first, as optional
    movers in V7 order (the bot's ai_seats cog does the same); the first one who wants to buy does."""
    players = _players(levels)
    level = dict(zip(players, levels, strict=True))
    state = RULES.new_game(players, options, seed)
    moves = used = 0
    while not RULES.is_over(state):
        movers = RULES.to_move(state)
        player, action = movers[0], None
        for claimant in movers[1:] if state.window else ():
            action = choose("alhambra", state, claimant, level[claimant], seed * 1000 + moves, HARD, optional=True)
            if action is not None:
                assert isinstance(action, VizierBuy)
                player = claimant
                used += 1
                break
        if action is None:
            action = choose("alhambra", state, player, level[player], seed * 1000 + moves, HARD)
        assert action in RULES.legal_actions(state, player)
        state = RULES.apply(state, player, action)
        moves += 1
        assert moves < 2000, "the game does not end"
    return state, used


@pytest.mark.parametrize(
    "levels",
    [["hard", "normal"], ["easy", "normal", "hard"], ["normal", "easy", "hard", "normal", "easy"]],
    ids=["2p", "3p", "5p"],
)
def test_V1_V20_V40_V60_every_level_finishes_games_with_all_four_modules(levels):
    """All modules on (with Dirk in the 2-player game, A61): every level plays legal moves to the final scoring."""
    state, _ = _play(levels, seed=len(levels), options=ALL)
    assert RULES.is_over(state) and RULES.winners(state)
    assert len(state.scorings) == 3 and all(s.score > 0 for s in state.seats)
    assert any(s.huts_taken for s in state.seats)  # V22: huts are taken, not ignored


@pytest.mark.parametrize(
    "options,levels",
    [
        ({"huts": True}, ["normal", "easy"]),
        ({"exchange": True, "bonus": True}, ["hard", "easy", "normal"]),
        ({"vizier": True, "huts": True}, ["easy", "hard"]),
        ({"bonus": True}, ["normal", "hard", "easy", "normal"]),
    ],
    ids=["huts", "exchange+bonus", "vizier+huts", "bonus"],
)
def test_V20_V40_V60_module_subsets_are_played_to_the_end(options, levels):
    state, _ = _play(levels, seed=20 + len(levels), options=options)
    assert RULES.is_over(state) and RULES.winners(state) and len(state.scorings) == 3


# --------------------------------------------------------------------------------------------- hidden information


def _mid_game_states(n_players, seed, options=ALL, every=9, limit=5):
    """States from one random game (actions in a fixed order, so the engine's listing order does not matter)."""
    rnd = random.Random(seed)
    state = RULES.new_game(_players(["easy"] * n_players), options, seed)
    out = []
    steps = 0
    while not RULES.is_over(state) and len(out) < limit:
        player = RULES.to_move(state)[0]
        actions = sorted(RULES.legal_actions(state, player), key=lambda a: action_key(RULES, a))
        state = RULES.apply(state, player, rnd.choice(actions))
        steps += 1
        if steps % every == 0 and not RULES.is_over(state):
            out.append(state)
    return out


def _redeal(state, seat, rnd):
    """The real state with everything `seat` cannot see dealt anew, independently of the AI's own re-deal: the
    other hands and the deck's cards (money and exchange cards; scoring cards stay where they are), each hut stack
    below its face-up top, the other bonus hands and the cards set aside, the others' standing orders, the bag's
    order and the seed."""
    me = state.players.index(seat)
    seats = list(state.seats)
    others = [i for i in range(len(seats)) if i != me]
    slots = [j for j, c in enumerate(state.deck) if c not in SCORING_CARDS]
    pool = [c for i in others for c in seats[i].hand] + [state.deck[j] for j in slots]
    rnd.shuffle(pool)
    for i in others:
        k = len(seats[i].hand)
        seats[i] = RULES_replace(seats[i], hand=tuple(sorted(pool[:k])))
        pool = pool[k:]
    deck = list(state.deck)
    for j, c in zip(slots, pool, strict=True):
        deck[j] = c
    changes = {}
    if state.huts:
        changes["huts"] = tuple(tuple(rnd.sample(s[:-1], len(s) - 1)) + s[-1:] if s else s for s in state.huts)
    if state.options.get("bonus"):
        cards = [c for i in others for c in seats[i].bonus_hand] + list(state.bonus_aside)
        rnd.shuffle(cards)
        for i in others:
            k = len(seats[i].bonus_hand)
            seats[i] = RULES_replace(seats[i], bonus_hand=tuple(cards[:k]), bonus_auto=AUTO_FINAL)
            cards = cards[k:]
        changes["bonus_aside"] = tuple(cards)
    return RULES_replace(
        state,
        seats=tuple(seats),
        deck=tuple(deck),
        seed=state.seed + 1,
        bag=tuple(rnd.sample(state.bag, len(state.bag))),
        **changes,
    )


def RULES_replace(obj, **changes):  # noqa: N802 (reads like the engine's own replace)
    from engine._common import replace

    return replace(obj, **changes)


@pytest.mark.parametrize("n_players", [2, 3, 5])
def test_V21_V41_V44_V61_V66_the_redeal_matches_the_view_and_varies_what_the_modules_hide(n_players):
    """A determinisation is a valid full state (every hut, exchange, bonus and money card exactly once) that looks
    the same from the seat, offers the same moves, and re-deals hut stacks, bonus hands and set-aside cards."""
    varied = {"huts": 0, "bonus": 0, "aside": 0, "hands": 0}
    for state in _mid_game_states(n_players, seed=30 + n_players):
        for seat in RULES.to_move(state)[:1] + [p for p in state.players if p not in RULES.to_move(state)][:1]:
            view = RULES.view(state, seat)
            for k in range(3):
                full = AI.determinise(RULES, view, seat, random.Random(k))
                assert state_problem(full) is None
                assert RULES.view(full, seat) == view
                assert RULES.legal_actions(full, seat) == RULES.legal_actions(state, seat)
                assert RULES.free_actions(full, seat) == RULES.free_actions(state, seat)
                varied["huts"] += full.huts != state.huts
                varied["aside"] += full.bonus_aside != state.bonus_aside or not state.bonus_aside  # V61: 4–5 p
                varied["bonus"] += any(
                    a.bonus_hand != b.bonus_hand for a, b in zip(full.seats, state.seats, strict=True)
                )
                varied["hands"] += any(a.hand != b.hand for a, b in zip(full.seats, state.seats, strict=True))
    assert all(varied.values()), varied


def test_V41_V48_no_exchange_card_is_dealt_into_a_hand_before_any_can_have_been_drawn():
    """V41: exchange cards lie in piles 2–4 of the split deck and V48: never in starting hands, so at the start of
    the game every unseen exchange card is re-dealt into the deck, below the first pile."""
    for n in (2, 3, 6):
        state = RULES.new_game(_players(["easy"] * n), ALL, n)
        seat = RULES.to_move(state)[0]
        for k in range(10):
            full = AI.determinise(RULES, RULES.view(state, seat), seat, random.Random(k))
            assert not any(c in EXCHANGE_PAIRS for s in full.seats for c in s.hand)
            top_first = full.deck[::-1]
            assert all(c not in EXCHANGE_PAIRS for c in top_first[: len(top_first) // 8])


@pytest.mark.parametrize("level", LEVELS)
def test_V21_V44_V61_V66_changing_what_the_modules_hide_never_changes_the_move(level):
    """Same view, different hidden state (hut stacks, exchange and money cards in other hands and the deck, bonus
    hands, cards set aside, standing orders, bag order, seed) → same move for a fixed seed."""
    for i, state in enumerate(_mid_game_states(3, seed=40, every=11, limit=3)):
        seat = RULES.to_move(state)[0]
        other = _redeal(state, seat, random.Random(i))
        assert other != state and state_problem(other) is None
        assert RULES.view(other, seat) == RULES.view(state, seat)
        mine = choose("alhambra", state, seat, level, seed=i, budget=HARD)
        assert choose("alhambra", other, seat, level, seed=i, budget=HARD) == mine


# --------------------------------------------------------------------------------------------- evaluation


def _eval_state(**seat0):
    """A 3-player all-modules position where seat 0 and seat 1 both own one wall-less garden; seat 0 changed."""
    state = RULES.new_game(_players(["easy"] * 3), ALL, 3)
    seats = list(state.seats)
    seats[1] = RULES_replace(seats[1], alhambra={(0, 0): START_TILES[1], (1, 0): "garden-11-open"})
    base = {"alhambra": {(0, 0): START_TILES[0], (1, 0): "garden-10-open"}, "bonus_hand": (), "bonus_played": ()}
    seats[0] = RULES_replace(seats[0], **{**base, **seat0})
    return RULES_replace(state, seats=tuple(seats))


def _value(state):
    """Seat 0's evaluation margin over the best other player: what the AI maximises."""
    return margin(AI.evaluate(RULES, state), state.players[0])


def test_V27_a_hut_counts_beside_same_type_buildings_through_open_sides():
    """V27: a garden hut with an open side towards the garden makes seat 0 the garden leader; a hut of another
    colour, or on the reserve, counts nothing (walls aside, A48)."""
    open_west = next(h for h in HUTS if HUT_TYPE[h] == "garden" and not WALLS[h] & W)
    other = next(h for h in HUTS if HUT_TYPE[h] == "tower" and not WALLS[h] & W)
    alone = _value(_eval_state())
    beside = _value(
        _eval_state(alhambra={(0, 0): START_TILES[0], (1, 0): "garden-10-open", (2, 0): open_west}, huts_taken=1)
    )
    wrong = _value(
        _eval_state(alhambra={(0, 0): START_TILES[0], (1, 0): "garden-10-open", (2, 0): other}, huts_taken=1)
    )
    shelved = _value(_eval_state(reserve=(open_west,), huts_taken=1))
    # (the majority race of issue 21 counts an early lead for less than a sure one: a point or so here)
    assert beside > alone + 1 and beside > wrong + 1 and beside > shelved + 1


def test_V62_V63_V66_bonus_cards_count_when_played_or_playable_by_the_standing_order():
    """V63: a played bonus card is one more building; one in hand whose building is built counts too (the
    standing order plays it before the scoring, V66), unless the order is "never"; an unbuilt one a little."""
    alone = _value(_eval_state())
    played = _value(_eval_state(bonus_played=("garden-10-open",)))
    in_hand = _value(_eval_state(bonus_hand=("garden-10-open",)))
    never = _value(_eval_state(bonus_hand=("garden-10-open",), bonus_auto=AUTO_NEVER))
    assert played > alone + 2 and in_hand == played and never < played
    on_market = _eval_state().market[0]  # not built yet, but it may still be bought
    assert _value(_eval_state(bonus_hand=(on_market,))) > alone


def test_V3_V45_an_exchange_card_and_an_active_vizier_are_worth_points():
    state = _eval_state(vizier=False)
    assert _value(_eval_state(vizier=True)) == pytest.approx(_value(state) + VIZIER_WEIGHT)
    with_card = _eval_state(vizier=False, hand=state.seats[0].hand + (2001,))
    assert _value(with_card) == pytest.approx(_value(state) + EXCHANGE_WEIGHT)


def test_V45_V27_easy_keeps_exchange_cards_for_need_and_takes_huts_it_can_use():
    """Easy's filter: no exchange card spent on a tile it can pay plainly (V45), no hut of a colour it has no
    building of (V27: it would count nothing); such moves stay only if nothing else is left."""
    state = _eval_state()
    seat = state.players[0]
    garden_hut = next(h for h in HUTS if HUT_TYPE[h] == "garden")
    tower_hut = next(h for h in HUTS if HUT_TYPE[h] == "tower")
    tile = state.market[0]  # on the denar space: denar cards are ids (value - 1) * 3 + copy (components.py)
    price = PRICE[tile]
    plain = BuyTile(tile, ((price - 1) * 3,) if price <= 9 else (24, (price - 10) * 3 + 1))  # exact
    mixed = BuyTile(tile, plain.cards + (2001,))
    keep = AI.sensible(RULES, state, seat, [plain, mixed, TakeHut(garden_hut), TakeHut(tower_hut)])
    assert keep == [plain, TakeHut(garden_hut)]
    assert AI.sensible(RULES, state, seat, [mixed]) == [mixed]


# --------------------------------------------------------------------------------------------- optional movers


def _windows(limit=6):
    """Vizier windows (V12) with at least one claimant besides the current player, from a few random games."""
    out = []
    for seed in range(50, 60):
        rnd = random.Random(seed)
        state = RULES.new_game(_players(["easy"] * 3), {"vizier": True, "exchange": True}, seed)
        while not RULES.is_over(state) and len(out) < limit:
            if state.window and len(RULES.to_move(state)) > 1:
                out.append(state)
                break
            player = RULES.to_move(state)[0]
            actions = sorted(RULES.legal_actions(state, player), key=lambda a: action_key(RULES, a))
            state = RULES.apply(state, player, rnd.choice(actions))
    assert len(out) >= 3
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_V4_V7_V12_an_optional_claimant_buys_with_its_vizier_or_lets_the_window_pass(level):
    """optional=True for a claimant out of turn: None, or a legal VizierBuy; optional=False still acts."""
    for k, state in enumerate(_windows()):
        assert state.phase == ACTION and state.window
        for claimant in RULES.to_move(state)[1:]:
            got = choose("alhambra", state, claimant, level, seed=k, budget=HARD, optional=True)
            assert got is None or (isinstance(got, VizierBuy) and got in RULES.legal_actions(state, claimant))
            forced = choose("alhambra", state, claimant, level, seed=k, budget=HARD)
            assert isinstance(forced, VizierBuy) and forced in RULES.legal_actions(state, claimant)


@pytest.mark.parametrize("level", LEVELS)
def test_V4_V8_the_current_player_must_act_even_when_asked_as_optional(level):
    """The player whose turn it is has an obligation (A18), so optional=True changes nothing for them."""
    for k, state in enumerate(_windows()[:3]):
        current = RULES.to_move(state)[0]
        got = choose("alhambra", state, current, level, seed=k, budget=HARD, optional=True)
        assert got is not None and got in RULES.legal_actions(state, current)
        assert got == choose("alhambra", state, current, level, seed=k, budget=HARD)


def test_V12_an_optional_seat_that_cannot_act_gets_none():
    """The window closed before the AI was asked (or the seat has no exact payment): None, not an error."""
    state = _windows()[0]
    idle = next(p for p in state.players if p not in RULES.to_move(state))
    assert choose("alhambra", state, idle, "normal", seed=1, optional=True) is None
    with pytest.raises(ValueError, match="not to move"):
        choose("alhambra", state, idle, "normal", seed=1)


def test_V4_V7_optional_claimants_use_the_vizier_sometimes_and_decline_sometimes():
    """Across many windows `normal` neither always buys nor always declines: the evaluation decides."""
    answers = []
    for state in _windows(limit=8):
        for claimant in RULES.to_move(state)[1:]:
            answers.append(choose("alhambra", state, claimant, "normal", seed=3, optional=True))
    assert any(a is None for a in answers) and any(a is not None for a in answers)


def test_V7_V12_playouts_let_claimants_buy_during_the_window():
    """The hard search's playout policy: during a window a claimant may act first, always with a legal move."""
    rnd = random.Random(1)
    for state in _windows():
        movers = RULES.to_move(state)
        for _ in range(3):
            player, action = AI.playout_step(RULES, state, movers, rnd)
            assert player in movers and action in RULES.legal_actions(state, player)


# --------------------------------------------------------------------------------------------- the base game


# Base-game decisions recorded before the modules were taught to the AI (choose(..., seed=7*seed, budget=30)):
# (players, seed, random actions played first, level, the move, sum of the evaluation of a re-deal with
# random.Random(seed)). They must never change by accident: a long arena of the base game stands for this code.
# After a deliberate change to the base-game AI, re-record them (last: issue 21's lookahead for hard).
BASE_DECISIONS = [
    (2, 1, 0, "hard", '{"cards": [91, 99], "kind": "buy_tile", "tile": "chambers-11-open"}', 92.015449639),
    (2, 2, 25, "normal", '{"cell": [0, 1], "kind": "redesign_add", "tile": "pavilion-8-open"}', 121.051824017),
    (2, 3, 60, "hard", '{"cell": [2, 0], "kind": "place_tile", "tile": "tower-9-ES"}', 116.818765409),
    (
        2,
        4,
        110,
        "easy",
        '{"kind": "redesign_swap", "replaces": "seraglio-9-open", "tile": "seraglio-4-NE"}',
        154.399599731,
    ),
    (2, 5, 150, "hard", '{"cell": [-1, 2], "kind": "redesign_add", "tile": "garden-12-S"}', 148.498884596),
    (3, 6, 5, "normal", '{"cards": [69, 73], "kind": "buy_tile", "tile": "seraglio-9-open"}', 184.42),
    (3, 7, 40, "hard", '{"cards": [62, 67], "kind": "buy_tile", "tile": "seraglio-8-S"}', 234.12),
    (3, 8, 90, "easy", '{"cell": [2, 0], "kind": "place_tile", "tile": "arcades-8-N"}', 262.64),
    (3, 9, 140, "normal", '{"cell": [2, 3], "kind": "redesign_add", "tile": "chambers-10-open"}', 247.7),
    (3, 10, 200, "hard", '{"cards": [69], "kind": "buy_tile", "tile": "seraglio-6-ES"}', 333.06),
    (4, 11, 15, "easy", '{"cell": [-1, 0], "kind": "place_tile", "tile": "garden-8-NW"}', 216.49),
    (4, 12, 70, "hard", '{"cell": [0, 2], "kind": "redesign_add", "tile": "seraglio-3-ESW"}', 279.85),
    (4, 13, 130, "normal", '{"cards": [77], "kind": "buy_tile", "tile": "tower-8-NES"}', 293.58),
    (4, 14, 190, "hard", '{"cell": [0, 2], "kind": "place_tile", "tile": "garden-12-S"}', 360.66),
    (4, 15, 240, "normal", '{"cards": [55, 64], "kind": "buy_tile", "tile": "chambers-5-NSW"}', 366.71),
]


def _base_position(n, seed, depth):
    players = _players(["easy", "normal", "hard", "normal"][:n])
    state = RULES.new_game(players, {}, seed)
    rnd = random.Random(seed)
    for _ in range(depth):
        player = RULES.to_move(state)[0]
        state = RULES.apply(
            state, player, rnd.choice(sorted(RULES.legal_actions(state, player), key=lambda a: action_key(RULES, a)))
        )
    return state


def test_A18_base_game_decisions_and_evaluations_are_unchanged_by_the_modules():
    """With every module off the AI takes the same decisions from the same seed as before the modules existed
    (same random draws in the same order, same evaluation numbers)."""
    got = []
    for n, seed, depth, level, _, _ in BASE_DECISIONS:
        state = _base_position(n, seed, depth)
        seat = RULES.to_move(state)[0]
        action = choose("alhambra", state, seat, level, seed=seed * 7, budget=30)
        full = AI.determinise(RULES, RULES.view(state, seat), seat, random.Random(seed))
        total = round(sum(AI.evaluate(RULES, full).values()), 9)
        got.append((n, seed, depth, level, json.dumps(RULES.action_to_json(action), sort_keys=True), total))
    assert got == BASE_DECISIONS


@pytest.mark.parametrize("options", [{}, ALL], ids=["base", "modules"])
def test_A41_after_a_reshuffle_the_redeal_puts_no_scoring_card_back_into_the_deck(options):
    """A40/A41: the deck runs out only after both scoring cards were drawn, so once the discard pile has been
    reshuffled (the state's `reshuffled`, A41) the re-deal never hides a scoring card in the deck; before that,
    every scoring card whose round has not come yet is somewhere in it."""
    rnd, pick = random.Random(3), random.Random(4)  # a random game in which the deck runs out
    state = RULES.new_game(["1", "2", "3"], options, 3)
    checked = {False: 0, True: 0}
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        view = RULES.view(state, seat)
        if view.deck and pick.random() < 0.2:
            full = AI.determinise(RULES, view, seat, random.Random(checked[view.reshuffled]))
            assert full.reshuffled is view.reshuffled
            in_deck = {c for c in full.deck if c in SCORING_CARDS}
            done = {r.round for r in view.scorings}
            assert len(in_deck) == (0 if view.reshuffled else 2 - len(done & {1, 2}))
            checked[view.reshuffled] += 1
        state = RULES.apply(state, seat, rnd.choice(RULES.legal_actions(state, seat)))
    assert all(checked.values()), checked
