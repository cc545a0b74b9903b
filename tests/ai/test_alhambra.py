"""The Alhambra AI's own terms (base game): hard's playout policy (every exact purchase weighed, A22; redesigns,
A33, and passing left out while anything else is legal) and its search settings.

Budgets count iterations, never seconds, so results do not depend on the machine's speed.
"""

import copy
import random

from ai import adapter
from ai.core import GameAI
from engine import get_rules
from engine.alhambra.actions import BuyTile, Pass, RedesignAdd, RedesignRemove, RedesignSwap
from engine.alhambra.components import PRICE, is_money, value_of
from engine.alhambra.state import ACTION

RULES = get_rules("alhambra")
AI = adapter("alhambra")
REDESIGN = (RedesignAdd, RedesignRemove, RedesignSwap)


def _exact(action):
    return (
        isinstance(action, BuyTile)
        and all(is_money(c) for c in action.cards)
        and sum(value_of(c) for c in action.cards) == PRICE[action.tile]
    )


def _positions(kind, limit=6, seed=2):
    """Action-phase positions of random 3-player games where the player to move has an exact purchase (A22) and,
    with kind "redesign", also redesigns (A33) among its legal actions."""
    out = []
    rnd = random.Random(seed)
    for game_seed in range(40):
        state = RULES.new_game(["1", "2", "3"], {}, game_seed)
        while not RULES.is_over(state) and len(out) < limit:
            seat = RULES.to_move(state)[0]
            actions = RULES.legal_actions(state, seat)
            wanted = kind != "redesign" or any(isinstance(a, REDESIGN) for a in actions)
            if state.phase == ACTION and wanted and any(map(_exact, actions)):
                out.append((state, seat, actions))
                break
            state = RULES.apply(state, seat, rnd.choice(actions))
        if len(out) >= limit:
            break
    assert len(out) == limit
    return out


def test_A22_A33_the_playout_policy_weighs_every_exact_purchase_and_no_redesign():
    """With a sample of one other move, the playout still compares every exact purchase (A22: the extra action),
    so it never plays a move worse, by the evaluation, than the best exact purchase; and while money or tiles
    can be taken it never redesigns (A33) or passes. The plain policy (a sample of all moves) misses both."""
    ai = copy.copy(AI)
    ai.playout_sample = 1
    plain_misses = 0
    for state, seat, actions in _positions("redesign"):
        exact = [a for a in actions if _exact(a)]
        best_exact = max(ai.margins(RULES, state, seat, exact))
        for k in range(12):
            pick = ai.playout_action(RULES, state, seat, actions, random.Random(k))
            assert not isinstance(pick, (*REDESIGN, Pass))
            assert ai.margins(RULES, state, seat, [pick])[0] >= best_exact - 1e-9
            plain = GameAI.playout_action(ai, RULES, state, seat, actions, random.Random(k))
            plain_misses += ai.margins(RULES, state, seat, [plain])[0] < best_exact - 1e-9
    assert plain_misses > 0


def test_the_plain_playout_policy_is_kept_behind_its_switch():
    """`playout_focus = False` is the earlier policy: the best of a random sample of all legal moves."""
    ai = copy.copy(AI)
    ai.playout_focus = False
    for state, seat, actions in _positions("exact", limit=3):
        for k in range(4):
            assert ai.playout_action(RULES, state, seat, actions, random.Random(k)) == GameAI.playout_action(
                ai, RULES, state, seat, actions, random.Random(k)
            )


def test_A45_a_six_player_table_weighs_the_next_scoring_round_by_its_own_weight():
    """Only at 5 or more players does the next scoring round (A45-A47) weigh `crowd_next_weight`: a 6-player
    evaluation moves with it, a 2-4 player one is exactly what it was."""
    for n, moves in ((6, True), (4, False), (2, False)):
        state = RULES.new_game([str(i) for i in range(n)], {}, 3)
        rnd = random.Random(n)
        for _ in range(40):  # a few purchases in, so there are majorities to weigh
            seat = RULES.to_move(state)[0]
            state = RULES.apply(state, seat, rnd.choice(RULES.legal_actions(state, seat)))
        assert any(s.alhambra for s in state.seats)
        before = AI.evaluate(RULES, state)
        other = copy.copy(AI)
        other.crowd_next_weight = AI.crowd_next_weight + 1.0
        assert (other.evaluate(RULES, state) != before) is moves
        other.crowd_next_weight = AI.crowd_next_weight
        other.next_weight = AI.next_weight + 1.0
        assert (other.evaluate(RULES, state) != before) is not moves
