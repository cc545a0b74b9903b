"""Stored games outlive code: states and moves written by an earlier version of the engines still load and play on.

The fixtures in tests/engine/fixtures/ were written by the engines before the "move" events (one per applied
action) and the shared `action` decorator existed: a mid-game Alhambra with all four Vizier's Favour modules
(3 players, vizier window open), a 2-player Alhambra with Dirk in the placing phase, and a 3-player Queen's
Garden in round 2. Continuing each with the same seeded random policy must give the very game the old code
gave (the scores and the number of moves were recorded with it), and the new moves add their events to the
old log.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import get_rules

FIXTURES = Path(__file__).resolve().parent / "fixtures"

# fixture -> (game, moves to the end and final scores with random.Random(1), as the old code played it)
SAVED = {
    "alhambra_modules_3p_mid": ("alhambra", 382, {"1000": 117, "1001": 104, "1002": 128}),
    "alhambra_2p_mid": ("alhambra", 186, {"1000": 96, "1001": 97}),
    "queens_garden_3p_mid": ("queens_garden", 17, {"1000": 0, "1001": 7, "1002": 3}),
}


def load(name: str):
    game = SAVED[name][0]
    data = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return get_rules(game), data


@pytest.mark.parametrize("name", SAVED)
def test_a_stored_state_loads_round_trips_and_plays_to_the_same_end(name):
    """A state JSON from the earlier code loads (same version, no migration), writes back unchanged, and a
    seeded random continuation ends exactly as it did with the earlier code; every new action adds one public
    "move" event with describe's words, the old log kept in front."""
    rules, data = load(name)
    _, moves, scores = SAVED[name]
    state = rules.from_json(data)
    assert rules.to_json(state) == json.loads(json.dumps(data))
    assert not any(e.kind == "move" for e in state.log)  # written before move events existed
    old_log = state.log
    rnd = random.Random(1)
    n = 0
    while not rules.is_over(state):
        player = rnd.choice(rules.to_move(state))
        action = rnd.choice(rules.legal_actions(state, player))
        before = len(state.log)
        state = rules.apply(state, player, action)
        new = [e for e in state.log[before:] if e.kind == "move"]
        assert len(new) == 1 and new[0].player == player and new[0].private_to is None
        assert new[0].text == rules.describe(action)
        assert rules.action_from_json(new[0].data["action"]) == action
        n += 1
    assert (n, rules.scores(state)) == (moves, scores)
    assert state.log[: len(old_log)] == old_log
    assert rules.from_json(json.loads(json.dumps(rules.to_json(state)))) == state


# Action JSON exactly as the earlier code stored it in the moves table (kind beside the fields).
STORED_MOVES = {
    "alhambra": [
        {"kind": "take_money", "cards": [3, 30]},
        {"kind": "buy_tile", "tile": "tower-9-NE", "cards": [100, 103]},
        {"kind": "redesign_add", "tile": "garden-8-NW", "cell": [1, 0]},
        {"kind": "redesign_remove", "tile": "garden-8-NW"},
        {"kind": "redesign_swap", "tile": "garden-8-NW", "replaces": "tower-9-NE"},
        {"kind": "pass"},
        {"kind": "place_tile", "tile": "tower-9-NE", "cell": [0, -1]},
        {"kind": "reserve_tile", "tile": "tower-9-NE"},
        {"kind": "give_to_dirk", "tile": "tower-9-NE"},
        {"kind": "vizier_buy", "tile": "tower-9-NE", "cards": [100, 2001]},
        {"kind": "reactivate_vizier"},
        {"kind": "take_hut", "hut": "hut-garden-NE"},
        {"kind": "play_bonus", "card": "pavilion-8-open"},
        {"kind": "set_bonus_autoplay", "mode": "final"},
    ],
    "gardens": [
        {"kind": "choose_colours", "colours": ["purple"]},
        {"kind": "place_tile", "tile": "t1", "space": "C3", "rotation": 2},
    ],
    "queens_garden": [
        {"kind": "acquire", "by": "colour", "value": 2, "tiles": [5, 40], "expansions": [3]},
        {"kind": "place_tile", "tile": 7, "space": "M3", "pay_tiles": [8], "pay_expansions": [], "jokers": 1},
        {
            "kind": "place_expansion",
            "expansion": 4,
            "area": "SE",
            "turn": 2,
            "pay_tiles": [],
            "pay_expansions": [],
            "jokers": 0,
        },
        {"kind": "buy_expansion", "area": "N"},
        {"kind": "pass", "tiles": [1], "expansions": [], "jokers": 0},
    ],
}


@pytest.mark.parametrize("game", STORED_MOVES)
def test_stored_moves_read_and_write_back_unchanged(game):
    """Every action kind's stored JSON parses to a frozen action of that kind and writes back identically
    (action_from_json/action_to_json are how the moves table and replays read them)."""
    rules = get_rules(game)
    kinds = {data["kind"] for data in STORED_MOVES[game]}
    assert kinds == {cls.kind for cls in rules.action_types}, "a kind is missing from this table"
    for data in STORED_MOVES[game]:
        action = rules.action_from_json(data)
        assert action.kind == data["kind"] and hash(action) == hash(rules.action_from_json(data))
        assert rules.action_to_json(action) == data
        assert "kind" not in type(action).__slots__  # a class attribute, not a field
