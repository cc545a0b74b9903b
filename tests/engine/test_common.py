"""The shared engine pieces: options, seeded randomness, the JSON codec, the game registry."""

import dataclasses
import json
from typing import ClassVar

import pytest

import engine
from engine import entry, get_rules
from engine._common import Event, Option, action, from_jsonable, replace, rng, shuffled, to_jsonable, visible_log


@dataclasses.dataclass(frozen=True, slots=True)
class Inner:
    a: int
    b: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Outer:
    kind: ClassVar[str] = "outer"
    inner: Inner
    cells: dict[tuple[int, int], str]
    named: dict[str, int]
    maybe: int | None
    tags: frozenset[str]
    log: tuple[Event, ...] = ()


def test_codec_round_trips_nested_dataclasses():
    """Dataclasses, tuples, non-string dict keys, optionals and frozensets survive a trip through JSON text."""
    obj = Outer(
        Inner(3, ("x", "y")),
        {(0, 1): "a", (-2, 5): "b"},
        {"k": 1},
        None,
        frozenset({"q", "p"}),
        (Event("score", "scores 3", "111", {"points": 3}),),
    )
    data = json.loads(json.dumps(to_jsonable(obj)))
    assert from_jsonable(Outer, data) == obj


def test_codec_rejects_wrong_types():
    with pytest.raises(ValueError):
        from_jsonable(Inner, {"a": "3", "b": []})
    with pytest.raises(ValueError):
        from_jsonable(Inner, {"a": 3})


def test_rng_is_deterministic_per_seed_and_counter():
    assert rng(42, 3).random() == rng(42, 3).random()
    assert rng(42, 3).random() != rng(42, 4).random()
    assert shuffled(range(20), 7, 0) == shuffled(range(20), 7, 0)
    assert shuffled(range(20), 7, 0)[1] == 1


def test_options_validate_values():
    yes_no = Option("huts", False, "Worker's huts")
    assert yes_no.validate(True) is True
    with pytest.raises(ValueError):
        yes_no.validate("yes")
    hand = Option("hand", 1, "tiles in hand", (1, 3))
    with pytest.raises(ValueError, match="one of"):
        hand.validate(2)


def test_private_events_are_hidden_from_others():
    log = (Event("draw", "draws a card", "1", private_to="1"), Event("buy", "buys", "1"))
    assert len(visible_log(log, "1")) == 2
    assert visible_log(log, "2") == (log[1],)
    assert visible_log(log, None) == (log[1],)


def test_unknown_game_is_a_clear_error():
    with pytest.raises(ValueError, match="Unknown game"):
        get_rules("chess")


def test_the_registry_gives_each_game_its_own_rules(game):
    """A registered game's entry names its rules module, whose RULES carry the registry's name (the tests'
    own games are registered by the fixture for the test that runs them)."""
    assert game in engine.GAMES and entry(game).name == game and get_rules(game).name == game


def test_register_and_unregister_change_the_games_in_order():
    """`register` appends a game to GAMES (in order of registration), `unregister` takes it away again."""
    before = engine.GAMES
    engine.register(engine.GameEntry("sample", rules="tests.engine.nim.rules"))
    try:
        assert (*before, "sample") == engine.GAMES and engine.entry("sample").render is None
    finally:
        engine.unregister("sample")
    assert before == engine.GAMES


@action("sample_move")
class SampleMove:
    """An action type made with the shared decorator."""

    tile: str
    cards: tuple[int, ...] = ()


def test_action_decorator_makes_frozen_slotted_actions_with_a_kind():
    """`@action(kind)`: a frozen dataclass with slots, hashable, `kind` a class attribute (not a JSON field)."""
    a = SampleMove("t", (1, 2))
    assert a.kind == SampleMove.kind == "sample_move" and "kind" not in SampleMove.__slots__
    assert to_jsonable(a) == {"tile": "t", "cards": [1, 2]} and hash(a) == hash(SampleMove("t", (1, 2)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.tile = "u"  # type: ignore[misc]


def test_replace_is_dataclasses_replace_for_our_states():
    """The fast shared `replace` gives what dataclasses.replace gives, leaves the original alone, and refuses
    unknown fields."""
    obj = Outer(Inner(3, ("x",)), {}, {"k": 1}, None, frozenset(), (Event("k", "t"),))
    assert replace(obj, maybe=4, named={}) == dataclasses.replace(obj, maybe=4, named={})
    assert obj.maybe is None and replace(obj) == obj and replace(obj) is not obj
    assert replace(Inner(1, ()), a=2) == Inner(2, ())
    with pytest.raises(TypeError, match="unknown field"):
        replace(obj, nope=1)
