"""Stored games outlive code: states and moves written by earlier versions of the engines still load and play on.

JSON version 1 kept the whole history in `state.log`; version 2 (the current one of every game) keeps only the
last action's events there, with what the images and the AI need across actions in bounded fields of their own
(Alhambra: `marks`, `reshuffled`; Queen's Garden: each seat's `round_points` and `final`; Gardens: nothing, its
results are a function of the board). `Rules.migrate` turns a version-1 payload into the state the current
engine reaches by playing the same moves.

The fixtures in tests/engine/fixtures/:
- `alhambra_modules_3p_mid`, `alhambra_2p_mid`, `queens_garden_3p_mid`: written before the "move" events (one
  per applied action) and the shared `action` decorator existed: a mid-game Alhambra with all four Vizier's
  Favour modules (3 players, vizier window open), a 2-player Alhambra with Dirk in the placing phase, and a
  3-player Queen's Garden in round 2. Continuing each with the same seeded random policy must give the very
  game the old code gave (the scores and the number of moves were recorded with it).
- `*_v1_*`: version-1 states written by the engines just before version 2 (commit a743a77), with the moves
  that reached them from `new_game` (players, options and seed in the file), at positions where cutting the
  history is delicate: right after a private standing order (V66), after another player's bonus card in the
  middle of a turn (V62), after a scoring round with Dirk (A63), the colour choices with one given without a
  question (G17, G37), a finished Gardens game, Queen's Garden at the deal, after a round and finished.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from engine import get_rules
from engine._common import to_jsonable
from tests.engine.playout import players_for

FIXTURES = Path(__file__).resolve().parent / "fixtures"

# fixture -> (game, moves to the end and final scores with random.Random(1), as the old code played it)
SAVED = {
    "alhambra_modules_3p_mid": ("alhambra", 382, {"1000": 117, "1001": 104, "1002": 128}),
    "alhambra_2p_mid": ("alhambra", 186, {"1000": 96, "1001": 97}),
    "queens_garden_3p_mid": ("queens_garden", 17, {"1000": 0, "1001": 7, "1002": 3}),
}
V1_WITH_MOVES = [
    "alhambra_v1_modules_3p",
    "alhambra_v1_2p",
    "gardens_v1_4p",
    "gardens_v1_2p_two_colours",
    "queens_garden_v1_2p",
]
# The fields version 2 added, per game: (state fields, seat fields)
NEW_FIELDS = {
    "alhambra": ({"marks", "reshuffled"}, set()),
    "gardens": (set(), set()),
    "queens_garden": (set(), {"round_points", "final"}),
}


def load(name: str):
    game = SAVED[name][0]
    data = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return get_rules(game), data


@pytest.mark.parametrize("name", SAVED)
def test_a_stored_state_loads_round_trips_and_plays_to_the_same_end(name):
    """A version-1 state from before move events loads (migrated: nothing in its log can be told apart as its
    last action, so the log is empty; the fields come from the old log), writes back as version 2 and round
    trips, and a seeded random continuation ends exactly as it did with the earlier code; every new action's
    log holds exactly its events, its public "move" event with describe's words first."""
    rules, data = load(name)
    _, moves, scores = SAVED[name]
    assert data["v"] == 1
    state = rules.from_json(data)
    assert state.log == ()  # written before move events existed: the last action cannot be told apart
    assert rules.to_json(state)["v"] == rules.json_version == 2
    assert rules.from_json(json.loads(json.dumps(rules.to_json(state)))) == state
    old = data["state"]
    if name.startswith("queens_garden"):  # Q31: the round already scored is kept in the seats
        told = {e["player"]: e["data"]["points"] for e in old["log"] if e["kind"] == "round_scoring"}
        assert {p: seat.round_points for p, seat in zip(state.players, state.seats, strict=True)} == {
            p: (told[p],) for p in state.players
        }
    else:
        assert state.reshuffled is any(e["kind"] == "reshuffle" for e in old["log"])
    rnd = random.Random(1)
    n = 0
    while not rules.is_over(state):
        player = rnd.choice(rules.to_move(state))
        action = rnd.choice(rules.legal_actions(state, player))
        state = rules.apply(state, player, action)
        move = state.log[0]
        assert move.kind == "move" and move.player == player and move.private_to is None
        assert move.text == rules.describe(action) and rules.action_from_json(move.data["action"]) == action
        assert sum(e.kind == "move" for e in state.log) == 1
        n += 1
    assert (n, rules.scores(state)) == (moves, scores)
    assert rules.from_json(json.loads(json.dumps(rules.to_json(state)))) == state


def replay(rules, data, k: int):
    """The state after the first `k` stored moves, played by the current engine from `new_game`."""
    state = rules.new_game(data["players"], data["options"], data["seed"])
    for player, action in data["moves"][:k]:
        state = rules.apply(state, player, rules.action_from_json(action))
    return state


@pytest.mark.parametrize("name", V1_WITH_MOVES)
def test_an_old_version_state_migrates_to_the_state_the_moves_reach_now(name):
    """A version-1 state written by the earlier engine migrates to exactly the state the current engine reaches
    by replaying the same moves: the same position, the last action's events as its log, and the fields that
    replace the history (the turn's marks, the reshuffle, the scoring breakdown) as the moves built them."""
    data = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    rules = get_rules(data["game"])
    for k, stored in data["states"].items():
        assert stored["v"] == 1
        migrated = rules.from_json(stored)
        played = replay(rules, data, int(k))
        assert english(migrated) == english(played), f"{name} after {k} moves"
        assert rules.to_json(english(migrated)) == rules.to_json(english(played))
        # the texts: stored as plain English, they load as such; the engine now writes Texts of the same words
        assert all(isinstance(e.text, str) for e in migrated.log)
        if len(stored["state"]["log"]) > 10:  # the history is gone, which is more than the new fields take
            assert len(json.dumps(rules.to_json(migrated))) < len(json.dumps(stored))


def english(state):
    """`state` with its texts in English (plain str), as a version-1 state stored them: its events' and Alhambra's
    marks. A text the engine has corrected since is read as corrected (Gardens: "1 kind ×", no longer "1 kinds")."""

    def words(text):
        return str(text).replace(": 1 kinds ×", ": 1 kind ×")

    log = tuple(dataclasses.replace(e, text=words(e.text)) for e in state.log)
    state = dataclasses.replace(state, log=log)
    if hasattr(state, "marks"):
        state = dataclasses.replace(state, marks=dataclasses.replace(state.marks, text=words(state.marks.text)))
    return state


def version_1(rules, state, history: list) -> dict:
    """The version-1 JSON of `state`: the whole history as its log, without the fields version 2 added."""
    state_fields, seat_fields = NEW_FIELDS[rules.name]
    payload = {k: v for k, v in rules.to_json(state)["state"].items() if k not in state_fields}
    if seat_fields:
        payload["seats"] = [{k: v for k, v in seat.items() if k not in seat_fields} for seat in payload["seats"]]
    payload["log"] = to_jsonable(history)
    return {"game": rules.name, "v": 1, "state": payload}


@pytest.mark.parametrize(
    ("game", "n", "options", "seed"),
    [
        ("alhambra", 3, {"vizier": True, "huts": True, "exchange": True, "bonus": True}, 3),
        ("alhambra", 2, {}, 4),
        ("gardens", 4, {}, 5),
        ("gardens", 2, {"two_colours": True}, 6),
        ("queens_garden", 3, {}, 7),
    ],
)
def test_every_position_of_a_game_migrates_from_its_whole_history(game, n, options, seed):
    """At every position of a random game (free actions mixed in), the version-1 form (the whole history as the
    log, the new fields left out, as the earlier engine wrote it) migrates back to exactly that state."""
    rules = get_rules(game)
    rnd = random.Random(seed)
    players = players_for(n)
    state = rules.new_game(players, options, seed)
    history = list(state.log)
    while True:
        assert rules.from_json(version_1(rules, state, history)) == state
        if rules.is_over(state):
            break
        free = [(p, a) for p in players for a in rules.free_actions(state, p)]
        if free and rnd.random() < 0.1:
            player, action = rnd.choice(free)
        else:
            player = rnd.choice(rules.to_move(state))
            action = rnd.choice(rules.legal_actions(state, player))
        state = rules.apply(state, player, action)
        history += state.log


@pytest.mark.parametrize("game", ["alhambra", "gardens", "queens_garden"])
def test_unknown_versions_are_refused(game):
    rules = get_rules(game)
    state = rules.new_game(players_for(2), {}, 1)
    data = rules.to_json(state)
    with pytest.raises(ValueError):
        rules.from_json({**data, "v": 99})
    with pytest.raises(ValueError):
        rules.from_json({**data, "v": 1, "state": "not a state"})


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
        assert "kind" not in {f.name for f in dataclasses.fields(action)}  # a class attribute, not a field


def test_A81_a_broken_stored_state_is_refused_unless_its_holder_checked_it_already():
    """A stored state that breaks an invariant (a money card twice: A81's conservation) is refused when decoded
    (ValueError, so the bot says the game's record is damaged); the drawing workers decode with `check=False`
    the states the bot already checked or made, and get the same state as a checked decoding would."""
    rules = get_rules("alhambra")
    data = json.loads(json.dumps(rules.to_json(rules.new_game(["1", "2", "3"], {}, 1))))
    assert rules.from_json(data, check=False) == rules.from_json(data)
    data["state"]["deck"] = data["state"]["deck"] + data["state"]["deck"][:1]
    with pytest.raises(ValueError, match="A81"):
        rules.from_json(data)
    assert len(rules.from_json(data, check=False).deck) == len(data["state"]["deck"])
