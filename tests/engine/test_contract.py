"""The contract every game keeps (docs/ENGINE_CONTRACT.md): registry, player counts, options, determinism, summaries."""

import json
import random

import pytest

from engine import Option, Text, get_rules
from tests.engine.playout import players_for

# every test takes `game`: each registered game and each test-only one (tests/conftest.py)


def test_bad_player_count_is_a_clear_value_error(game):
    rules = get_rules(game)
    too_many = rules.player_counts[-1] + 1
    with pytest.raises(ValueError, match="players"):
        rules.new_game(players_for(too_many), {}, 1)
    with pytest.raises(ValueError):
        rules.new_game(players_for(1), {}, 1)


def test_unknown_option_is_a_clear_value_error(game):
    rules = get_rules(game)
    with pytest.raises(ValueError, match="Unknown option"):
        rules.new_game(players_for(rules.player_counts[0]), {"no_such_option": True}, 1)


def test_options_fit_discord_choices(game):
    """Options describe themselves well enough for the bot to build its choices (Discord: ≤ 100 characters)."""
    for name, opt in get_rules(game).options.items():
        assert isinstance(opt, Option) and opt.name == name
        assert isinstance(opt.description, Text) and 0 < len(str(opt.description)) <= 100
        opt.validate(opt.default)


def test_same_seed_same_game_and_json_text(game):
    rules = get_rules(game)
    players = players_for(rules.player_counts[-1])
    a, b = rules.new_game(players, {}, 7), rules.new_game(players, {}, 7)
    assert a == b
    assert json.dumps(rules.to_json(a), sort_keys=True) == json.dumps(rules.to_json(b), sort_keys=True)


def test_new_game_has_movers_and_is_not_over(game):
    rules = get_rules(game)
    for n in rules.player_counts:
        state = rules.new_game(players_for(n), {}, n)
        assert not rules.is_over(state)
        movers = rules.to_move(state)
        assert movers and all(p in players_for(n) for p in movers)
        assert rules.legal_actions(state, movers[0])
        assert rules.winners(state) == []


def test_summary_is_markdown_text(game):
    text = get_rules(game).summary({})
    assert isinstance(text, Text) and 100 < len(str(text)) <= 4000


def test_event_texts_read_after_the_players_name(game):
    """The bot shows an event as "**name** text" when it has a player, else the text alone: texts with a player
    start in lower case (a predicate: "scores 12 points..."), texts without one with a capital ("Dirk receives
    ...", "The game is over..."). Every action's events are checked (its log holds them only)."""
    rules = get_rules(game)
    for n in (rules.player_counts[0], rules.player_counts[-1]):
        state = rules.new_game(players_for(n), {}, n)
        events = list(state.log)
        rnd = random.Random(n)
        while not rules.is_over(state):
            player = rnd.choice(rules.to_move(state))
            state = rules.apply(state, player, rnd.choice(rules.legal_actions(state, player)))
            events += state.log
        for e in events:
            assert isinstance(e.text, Text), (e.kind, e.text)
            text = str(e.text)
            assert text[0].islower() if e.player is not None else text[0].isupper(), (e.kind, text)
