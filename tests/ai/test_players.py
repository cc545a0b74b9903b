"""The AI players on every game with one: legal complete games at every level, decisions from the seat's view
only (changing hidden information never changes a move), determinisations consistent with the view, and
reproducible choices for a seed with an iteration budget.

Budgets here count iterations, never seconds, so results do not depend on the machine's speed.
"""

import gc
import random

import pytest

from ai import LEVELS, adapter, ai_player_id, choose
from engine import get_rules

HARD = 6  # search iterations per hard decision in these tests: enough to exercise the search, cheap


def _players(levels):
    return [ai_player_id(level, i + 1) for i, level in enumerate(levels)]


def _advance(rules, state, n_actions, rnd):
    """Play `n_actions` random legal actions (or until the game ends)."""
    for _ in range(n_actions):
        if rules.is_over(state):
            break
        player = rnd.choice(rules.to_move(state))
        state = rules.apply(state, player, rnd.choice(rules.legal_actions(state, player)))
    return state


def _mid_game_states(game, n_players=2, seed=5, every=7, limit=6):
    """A few states from one random game, for checks that need positions with hidden information."""
    rules = get_rules(game)
    rnd = random.Random(seed)
    state = rules.new_game(_players(["easy"] * n_players), {}, seed)
    out = []
    while not rules.is_over(state) and len(out) < limit:
        state = _advance(rules, state, every, rnd)
        if not rules.is_over(state):
            out.append(state)
    return rules, out


def _play(game, levels, seed, options=None):
    """A complete game between AI seats; `rules.apply` checks that every chosen action is legal."""
    rules = get_rules(game)
    players = _players(levels)
    level = dict(zip(players, levels, strict=True))
    state = rules.new_game(players, options or {}, seed)
    moves = 0
    while not rules.is_over(state):
        player = rules.to_move(state)[0]
        action = choose(game, state, player, level[player], seed * 1000 + moves, budget=HARD)
        assert action in rules.legal_actions(state, player)
        state = rules.apply(state, player, action)
        moves += 1
        assert moves < 2000, "the game does not end"
    return rules, state


def test_every_level_plays_a_complete_three_player_game_legally(game):
    rules, state = _play(game, ["easy", "normal", "hard"], seed=11)
    assert rules.is_over(state) and rules.winners(state)


def test_hard_and_normal_play_a_complete_two_player_game_legally(game):
    """Two players: Alhambra's Dirk (A61–A66), Gardens' unowned kinds (G31) are handled like any other move."""
    rules, state = _play(game, ["hard", "normal"], seed=12)
    assert rules.is_over(state) and rules.winners(state)


def test_gardens_variants_are_played_too():
    """G36 (three-tile hand) and G37 (two colours each) only change what legal_actions offers."""
    for options in ({"three_tile_hand": True}, {"two_colours": True}):
        rules, state = _play("gardens", ["normal", "hard"], seed=13, options=options)
        assert rules.is_over(state)


def test_searches_leave_no_cyclic_garbage_and_the_collector_as_they_found_it(game):
    """Hard's search pauses Python's cyclic collector while it runs (ai/core.py `paused_gc`), which is safe only
    because neither the engine's quiet step and listing nor the AI's evaluation makes reference cycles: over
    hard decisions and random quiet playouts, the collector finds no garbage at all, and it is enabled again
    after each decision (a decision in a bot thread must not leave it off)."""
    rules, states = _mid_game_states(game, n_players=3, limit=3)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for k, state in enumerate(states):
            seat = rules.to_move(state)[0]
            choose(game, state, seat, "hard", k, budget=HARD)
            assert gc.isenabled()
            rnd, s = random.Random(k), state
            while not rules.is_over(s):
                player = rnd.choice(rules.to_move(s))
                s = rules.step(s, player, rnd.choice(rules.legal_actions(s, player)), quiet=True)
        gc.collect()
        assert gc.garbage == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_determinisation_matches_the_view_and_redeals_what_is_hidden(game):
    """A re-dealt state looks exactly the same from the seat (same view), yet the hidden parts vary."""
    ai = adapter(game)
    rules, states = _mid_game_states(game)
    differs = 0
    for state in states:
        seat = rules.to_move(state)[0]
        view = rules.view(state, seat)
        for k in range(3):
            full = ai.determinise(rules, view, seat, random.Random(k))
            assert rules.view(full, seat) == view
            assert rules.legal_actions(full, seat) == rules.legal_actions(state, seat)
            rules.validate(full)  # a full state, not a view: every component accounted for
            differs += full != state
    assert differs > 0


@pytest.mark.parametrize("level", LEVELS)
def test_changing_hidden_information_never_changes_the_move(game, level):
    """Same view, different hidden state (other hands, deck/bag order, face-down pieces, seed) → same move."""
    ai = adapter(game)
    rules, states = _mid_game_states(game, limit=3)
    for i, state in enumerate(states):
        seat = rules.to_move(state)[0]
        view = rules.view(state, seat)
        other = ai.determinise(rules, view, seat, random.Random(100 + i))
        assert other != state and rules.view(other, seat) == view
        mine = choose(game, state, seat, level, seed=i, budget=HARD)
        assert choose(game, other, seat, level, seed=i, budget=HARD) == mine


def test_a_seed_and_an_iteration_budget_give_the_same_move(game):
    rules, states = _mid_game_states(game, limit=2)
    for state in states:
        seat = rules.to_move(state)[0]
        first = choose(game, state, seat, "hard", seed=3, budget=HARD)
        assert choose(game, state, seat, "hard", seed=3, budget=HARD) == first


def test_a_seat_not_to_move_or_an_unknown_level_is_refused():
    rules = get_rules("gardens")
    players = _players(["easy", "easy"])
    state = rules.new_game(players, {}, 1)
    idle = next(p for p in players if p not in rules.to_move(state))
    with pytest.raises(ValueError, match="not to move"):
        choose("gardens", state, idle, "easy", seed=1)
    with pytest.raises(ValueError, match="level"):
        choose("gardens", state, rules.to_move(state)[0], "genius", seed=1)


def test_normal_beats_easy_in_gardens():
    """The evaluation points the right way: a one-move lookahead wins nearly every game against random play."""
    wins = 0
    for seed in range(4):
        levels = ["normal", "easy"] if seed % 2 == 0 else ["easy", "normal"]
        rules, state = _play("gardens", levels, seed=seed)
        normal = _players(levels)[levels.index("normal")]
        wins += rules.winners(state) == [normal]
    assert wins >= 3


def test_fast_margins_agree_with_step_and_evaluate(game):
    """A game's incremental `margins` (what normal ranks by) gives the numbers of the plain step + evaluate."""
    from ai.core import GameAI

    ai = adapter(game)
    rules, states = _mid_game_states(game, limit=4)
    for state in states:
        seat = rules.to_move(state)[0]
        full = ai.determinise(rules, rules.view(state, seat), seat, random.Random(1))
        actions = rules.legal_actions(full, seat)
        fast = ai.margins(rules, full, seat, actions)
        plain = GameAI.margins(ai, rules, full, seat, actions)
        assert fast == pytest.approx(plain, abs=1e-9)


def test_V1_V7_alhambra_with_the_viziers_favour_is_played():
    """V1–V7: out-of-turn purchases are just more movers and actions (the other modules: test_alhambra_modules)."""
    rules, state = _play("alhambra", ["normal", "hard"], seed=14, options={"vizier": True})
    assert rules.is_over(state)
