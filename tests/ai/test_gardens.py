"""The Gardens evaluation's race for a building one garden short (ai/gardens.py `_last_garden`): whoever moves
first and can win it with the tile in hand takes it (G26, G29, G30), so a move that leaves it one short is worth
that to the next player, not to today's majority."""

import pytest

from ai.gardens import _last_garden, _share

P, G, Y, OR = range(4)  # purple, green, yellow, orange (G7)
ALL = (P, G, Y, OR)


def test_G26_G29_G30_the_next_mover_wins_a_building_any_tile_takes():
    # purple 2 trees, the others none; green moves first, then yellow, orange, purple, one tile each.
    # Green with 3-6 trees leads alone (G29) and takes 2 kinds x 3 = 6 points (G30); with 1 purple still leads,
    # with 2 purple and green cancel (and yellow and orange at 0): then yellow has the same chance, and so on.
    shares = dict(_last_garden((2, 0, 0, 0), 3, ALL, (((G,), 1), ((Y,), 1), ((OR,), 1), ((P,), 1))))
    assert shares[G] == pytest.approx(4 / 6 * 6)
    assert shares[Y] == pytest.approx(2 / 6 * 4 / 6 * 6)
    assert shares[OR] == pytest.approx((2 / 6) ** 2 * 4 / 6 * 6)
    assert shares[P] == pytest.approx((2 / 6) ** 3 * 3)  # last, purple wins it whatever it adds: 1 kind x 3


def test_G29_a_leader_nobody_can_catch_keeps_it():
    # orange 6 trees, the others 0; 2 players (purple and orange own kinds, G31): purple moving next with
    # 1-5 trees cannot pass 6, and 6 ties (both cancel): orange keeps it with the kinds it has then
    shares = dict(_last_garden((0, 0, 0, 6), 2, (P, OR), (((P,), 1), ((OR,), 1))))
    assert P not in shares
    assert shares[OR] > 0


def test_G21_the_next_mover_is_who_the_share_favours():
    # the same building, the mover order reversed: whoever moves first takes the larger share
    counts = (1, 1, 0, 0)
    first_green = dict(_share(counts, 1, 4, 4, ALL, (((G,), 1), ((P,), 1), ((Y,), 1), ((OR,), 1))))
    first_purple = dict(_share(counts, 1, 4, 4, ALL, (((P,), 1), ((G,), 1), ((Y,), 1), ((OR,), 1))))
    assert first_green[G] > first_green.get(P, 0.0)
    assert first_purple[P] > first_purple.get(G, 0.0)


@pytest.mark.parametrize("options", [{}, {"three_tile_hand": True}, {"two_colours": True}])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_G36_G37_fast_margins_agree_with_step_and_evaluate_in_every_variant(options, n):
    """The cached shares and the one-kind shortcut of `margins` give the plain step + evaluate's numbers, with
    three tiles in hand (G36: several tree counts per building) and two kinds a player (G37: sums)."""
    import random

    from ai import adapter, ai_player_id
    from ai.core import GameAI
    from engine import get_rules

    if options.get("two_colours") and n != 2:
        pytest.skip("G37 is a two-player variant")
    rules, ai = get_rules("gardens"), adapter("gardens")
    rnd = random.Random(n)
    state = rules.new_game([ai_player_id("easy", i + 1) for i in range(n)], options, 7)
    checked = 0
    while not rules.is_over(state):
        seat = rules.to_move(state)[0]
        actions = rules.legal_actions(state, seat)
        if checked % 5 == 0:
            full = ai.determinise(rules, rules.view(state, seat), seat, rnd)
            fast = ai.margins(rules, full, seat, actions)
            assert fast == pytest.approx(GameAI.margins(ai, rules, full, seat, actions), abs=1e-9)
        checked += 1
        state = rules.apply(state, seat, rnd.choice(actions))
    assert checked > 10


@pytest.mark.parametrize("game", ["gardens", "queens_garden"])
def test_hard_searches_exactly_the_iterations_it_is_given(game):
    """An iteration budget is what hard spends, no more: the root's visits are the prior plus the budget."""
    import random

    from ai import adapter, ai_player_id
    from ai.core import decide
    from engine import get_rules

    rules, ai = get_rules(game), adapter(game)
    rnd = random.Random(3)
    state = rules.new_game([ai_player_id("normal", i + 1) for i in range(3)], {}, 3)
    searched = 0
    while not rules.is_over(state) and searched < 12:
        seat = rules.to_move(state)[0]
        actions = rules.legal_actions(state, seat)
        report: dict = {}
        decide(rules, ai, rules.view(state, seat), seat, "hard", 1, 37, report=report)
        if "searched" in report:
            visits = sum(v for _, v, _ in report["searched"])
            assert visits == pytest.approx(37 + ai.prior_weight * len(report["searched"]))
            searched += 1
        state = rules.apply(state, seat, rnd.choice(actions))
    assert searched > 5
