"""The Queen's Garden AI's evaluation cache (ai/queens_garden.py `_GARDENS`): a garden's worth (Q31–Q35) is
kept by a key of plain ints and strings, so the garbage collector, which walks every object that holds others,
skips the whole cache (a key of the `Placed` dataclasses made it walk a third of the heap at every collection,
pauses of up to 0.7 s within one hard decision)."""

from ai import adapter, ai_player_id, choose
from ai.queens_garden import _GARDENS
from engine import get_rules


def _atoms(x):
    if isinstance(x, tuple):
        return all(_atoms(y) for y in x)
    return isinstance(x, int | str | bool)


def test_Q31_Q35_the_garden_worth_cache_holds_plain_keys_only():
    rules = get_rules("queens_garden")
    state = rules.new_game([ai_player_id("normal", i + 1) for i in range(3)], {}, 2)
    for move in range(60):
        seat = rules.to_move(state)[0]
        state = rules.apply(state, seat, choose("queens_garden", state, seat, "normal", seed=move))
        adapter("queens_garden").evaluate(rules, state)
        if rules.is_over(state):
            break
    assert any(k[1] for k in _GARDENS), "some garden holds an expansion by now"
    assert all(_atoms(k) for k in _GARDENS)
