"""Nim's own rules (N1–N4 of its summary), and what a game without a renderer or an AI gets from the shared
layers: the placeholder image and no AI adapter. The shared tests run it besides (tests/games.py)."""

from __future__ import annotations

import pytest

import ai
import engine
from engine import IllegalAction
from render import render_png, renderer_ready
from tests.engine.nim.profile import PROFILE
from tests.engine.nim.rules import RULES, Take


@pytest.fixture(autouse=True)
def nim():
    engine.register(PROFILE.entry)
    yield
    engine.unregister("nim")


def test_N1_heaps_of_three_to_seven_counters_for_a_seed():
    state = RULES.new_game(["a", "b"], {"heaps": 4}, 5)
    assert len(state.heaps) == 4 and all(3 <= h <= 7 for h in state.heaps)
    assert RULES.new_game(["a", "b"], {"heaps": 4}, 5) == state


def test_N2_N3_one_to_three_from_one_heap_in_seat_order():
    state = RULES.new_game(["a", "b", "c"], {}, 1)
    assert {a.n for a in RULES.legal_actions(state, "a")} == {1, 2, 3}
    with pytest.raises(IllegalAction, match="N2"):
        RULES.apply(state, "b", Take(0, 1))
    with pytest.raises(IllegalAction, match="N2"):
        RULES.apply(state, "a", Take(0, 4))
    after = RULES.apply(state, "a", Take(0, 2))
    assert after.heaps[0] == state.heaps[0] - 2 and RULES.to_move(after) == ["b"]


def test_N4_whoever_takes_the_last_counter_wins():
    state = RULES.new_game(["a", "b"], {}, 1)
    state = type(state)(**{**{f: getattr(state, f) for f in state.__slots__}, "heaps": (0, 0, 2)})
    end = RULES.apply(state, "a", Take(2, 2))
    assert RULES.is_over(end) and RULES.winners(end) == ["a"] and RULES.scores(end) == {"a": 1, "b": 0}
    with pytest.raises(IllegalAction, match="N4"):
        RULES.apply(end, "b", Take(0, 1))


def test_a_game_without_renderer_or_ai_gets_the_placeholder_and_no_ai_player():
    state = RULES.new_game(["a", "b"], {}, 1)
    assert not renderer_ready("nim")
    assert render_png("nim", RULES.view(state, None)).startswith(b"\x89PNG")
    with pytest.raises(ValueError, match="no AI player"):
        ai.adapter("nim")
