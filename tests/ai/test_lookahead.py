"""Hard's determinised lookahead (`ai.core.lookahead`): "my move, their replies, my best next move" on the same
re-deals for every candidate, normal's choice kept unless another move is better by the confidence test.

Budgets count iterations, never seconds, so results do not depend on the machine's speed.
"""

import dataclasses
import random

from ai import adapter
from ai.core import Budget, GameAI, decide, lookahead, rank
from engine import get_rules
from tests.engine.nim.rules import NimRules, NimState, Take

ALHAMBRA = get_rules("alhambra")


class QuietNim(NimRules):
    """Nim whose step takes the AI's `quiet` flag (it has no quieter path: the same next state)."""

    def step(self, s, player, a, quiet=False):
        return super().step(s, player, a)


NIM = QuietNim()


class GreedyNim(GameAI):
    """Nim (tests/engine/nim) judged one move deep only: the player who just moved likes fewer counters left, so
    normal takes as many as it can; nothing is hidden."""

    game = "nim"
    lookahead = True
    look_width = 3

    def determinise(self, rules, view, seat, rnd):
        return view

    def evaluate(self, rules, state):
        if rules.is_over(state):
            return {p: float(v) for p, v in rules.scores(state).items()}
        mover = state.players[state.current - 1]
        return {p: -0.1 * sum(state.heaps) if p == mover else 0.0 for p in state.players}


def _nim(heaps):
    return NimState(players=("a", "b"), seed=1, options={"heaps": len(heaps)}, heaps=tuple(heaps))


def test_the_lookahead_finds_the_winning_move_normal_misses():
    """N2, N4: from a heap of 5, taking 1 leaves the opponent 4 (whatever they take, the last counter is ours);
    normal, one move deep, takes 3. The lookahead sees the reply and the move after it."""
    ai = GreedyNim()
    state = _nim([5])
    assert decide(NIM, ai, state, "a", "normal", seed=1) == Take(0, 3)
    assert decide(NIM, ai, state, "a", "hard", seed=1, budget=12) == Take(0, 1)


def test_normal_s_choice_stays_without_enough_evidence():
    """One deal is no evidence (no spread to test against): the first candidate, normal's, is played; so is it
    when the confidence test asks for more than the gain."""
    ai = GreedyNim()
    state = _nim([5])
    assert decide(NIM, ai, state, "a", "hard", seed=1, budget=3) == Take(0, 3)
    ai.look_gain = 5.0  # the winning move gains 2 points of margin here
    assert decide(NIM, ai, state, "a", "hard", seed=1, budget=12) == Take(0, 3)


def _alhambra_position(n=3, moves=30, seed=4):
    state = ALHAMBRA.new_game([str(i) for i in range(n)], {}, seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        seat = ALHAMBRA.to_move(state)[0]
        state = ALHAMBRA.apply(state, seat, adapter("alhambra").reply_action(ALHAMBRA, state, seat, rnd))
    return state, ALHAMBRA.to_move(state)[0]


def test_A13_the_lookahead_keeps_to_an_iteration_budget_and_is_deterministic():
    """Only complete rounds (every candidate on one re-deal) are played, never more iterations than the budget
    (a candidate on a deal is one); the same seed and budget give the same move and the same figures."""
    ai = adapter("alhambra")
    state, seat = _alhambra_position()
    view = ALHAMBRA.view(state, seat)
    base = ai.determinise(ALHAMBRA, view, seat, random.Random(1))
    ranked = rank(ALHAMBRA, ai, base, seat, ALHAMBRA.legal_actions(base, seat), random.Random(1))
    width = min(ai.look_width, len(ranked))
    for budget in (width - 1, 3 * width + 1):
        report: dict = {}
        first = lookahead(ALHAMBRA, ai, view, seat, ranked, random.Random(2), Budget(iterations=budget), 0.0, report)
        rounds = {n for _, n, _ in report["searched"]}
        assert rounds == {budget // width}
        again: dict = {}
        assert (
            lookahead(ALHAMBRA, ai, view, seat, ranked, random.Random(2), Budget(iterations=budget), 0.0, again)
            == first
        )
        assert again == report


def test_A13_what_the_lookahead_weighs_never_depends_on_the_hidden_cards():
    """It starts from the seat's view alone: other hands and the deck's order dealt otherwise give the same move."""
    ai = adapter("alhambra")
    state, seat = _alhambra_position(n=3, moves=24, seed=6)
    me = state.players.index(seat)
    other = (me + 1) % 3
    hands = [s.hand for s in state.seats]
    swapped = list(state.seats)
    pool = list(hands[other]) + list(state.deck)
    random.Random(9).shuffle(pool)
    swapped[other] = dataclasses.replace(state.seats[other], hand=tuple(sorted(pool[: len(hands[other])])))
    changed = dataclasses.replace(state, seats=tuple(swapped), deck=tuple(pool[len(hands[other]) :]))
    a = decide(ALHAMBRA, ai, ALHAMBRA.view(state, seat), seat, "hard", seed=5, budget=24)
    b = decide(ALHAMBRA, ai, ALHAMBRA.view(changed, seat), seat, "hard", seed=5, budget=24)
    assert a == b
