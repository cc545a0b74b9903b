"""Words as data: everything an engine gives a player to read is a `Text`, never English.

Over seeded random games of each game: every refusal (`check`, `apply`'s IllegalAction, malformed JSON) is a
Text whose rule ids are written in its templates (and at its start when the English starts with one), never
brought in by a parameter; every `describe` (and `describe_in`/`describe_move`), every event text, Alhambra's
marks, the summaries and the option descriptions are Texts; each template of a Text (and of the Texts inside
it) is one the catalogs' extractor finds in the engine's code, so a translation can exist for it; and a Text
survives its JSON, also inside a stored state. Logs stored before texts were data (plain English) still load.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import re
from pathlib import Path

import pytest

from engine import Event, IllegalAction, MalformedAction, Text, get_rules
from engine._common import from_jsonable
from tests.engine.playout import players_for
from tests.games import code_dir, names, played, profile

ROOT = Path(__file__).resolve().parents[2]
JOINED = re.compile(r"^(?:\{p\d+\}[^{}]*)*$")  # join_texts' own template: its parts and separators
# (game, players, options, seed): each game in the configurations its profile plays to the end
GAMES_PLAYED = [(g, n, dict(o), seed) for g in names() for seed, (n, o) in enumerate(played(g), 1)]


@functools.cache
def templates(game: str) -> frozenset[tuple[str, str | None]]:
    """(template, plural) of every `Text(...)` and `N_(...)` in the engine's shared code and the game's own, as
    the catalogs take them."""
    from i18n import catalogs

    paths = {*(ROOT / "engine").glob("*.py"), *code_dir(game).rglob("*.py")}
    entries, problems = catalogs.code_entries(sorted(paths))
    assert not problems, problems
    return frozenset((e.msgid, e.plural) for e in entries)


def nodes(text: Text):
    """Every Text in `text` (itself first) and the plain values of their parameters."""
    yield text, None
    for _, value in text.params:
        if isinstance(value, Text):
            yield from nodes(value)
        else:
            yield None, value


def masked(text: Text) -> str:
    """The English with every plain parameter value (a cell, a number, a card's value) shown as "·": only what
    the templates themselves say."""
    values = {k: masked(v) if isinstance(v, Text) else "·" for k, v in text.params}
    n = dict(text.params).get("n")
    template = text.plural if text.plural is not None and n != 1 else text.template
    return template.format(**values) if values else template


def check_text(text, game: str, where: str) -> None:
    """`text` is a Text of literal templates from the engine's code, whose rule ids are its own, and which
    survives its JSON."""
    assert isinstance(text, Text), f"{where}: {text!r} is not a Text"
    english = str(text)
    assert english, f"{where}: an empty text"
    plain = []
    for node, value in nodes(text):
        if node is None:
            plain.append(str(value))
            continue
        if node.plural is None and JOINED.match(node.template):
            continue  # join_texts: its parts are checked on their own
        assert (node.template, node.plural) in templates(game), f"{where}: {node.template!r} is not in the code"
    assert Text.from_json(json.loads(json.dumps(text.to_json()))) == text, f"{where}: JSON round trip"
    prefixes = profile(game).rule_prefixes
    if not prefixes:
        return  # a game citing no rule ids
    ids = re.compile(rf"(?<![\w@])[{prefixes}][1-9]\d*(?:\.\d+|[a-h])?(?![\w])")
    own = masked(text)
    for rule in ids.findall(english):
        # a cell or space named like a rule (an Alhambra cell in column V) may come in a parameter; a rule id never does
        assert rule in own or rule in plain, f"{where}: {rule} is not in the template of {english!r}"
    first = ids.match(english)
    if first:
        assert own.startswith(first.group()), f"{where}: {english!r} starts with a rule id its template lacks"


def refusals(rules, state, players, pool, rnd):
    """(player, action) pairs to check: actions seen in the game played by anybody now, and variants of them
    with one field taken from another action of the same kind."""
    picked = [(p, a) for p in players for a in rnd.sample(pool, min(4, len(pool)))]
    for a in rnd.sample(pool, min(3, len(pool))):
        fields = dataclasses.fields(a)
        for b in rnd.sample(pool, min(3, len(pool))):
            if type(b) is type(a) and fields:
                f = rnd.choice(fields).name
                picked.append((rnd.choice(players), dataclasses.replace(a, **{f: getattr(b, f)})))
    return picked


@pytest.mark.parametrize(
    ("game", "n", "options", "seed"), GAMES_PLAYED, ids=[f"{g}-{n}p-{k}" for g, n, _, k in GAMES_PLAYED]
)
def test_every_word_a_game_gives_is_a_text(game, n, options, seed):
    rules = get_rules(game)
    rnd = random.Random(seed)
    players = players_for(n)
    state = rules.new_game(players, options, seed)
    check_text(rules.summary(options), game, "summary")
    pool: list = []
    refused = 0
    for step in range(2000):
        for e in state.log:
            check_text(e.text, game, f"the {e.kind} event")
        if hasattr(state, "marks") and state.marks.player is not None:
            check_text(state.marks.text, game, "the marks")
        assert rules.from_json(json.loads(json.dumps(rules.to_json(state)))) == state
        if rules.is_over(state):
            break
        acts = [(p, a) for p in rules.to_move(state) for a in rules.legal_actions(state, p)]
        acts += [(p, a) for p in players for a in rules.free_actions(state, p)]
        pool = (pool + [a for _, a in rnd.sample(acts, min(4, len(acts)))])[-200:]
        for player, action in refusals(rules, state, players, pool, rnd) if step % 3 == 0 else ():
            why = rules.check(state, player, action)
            if action in pool:  # (a variant need not be describable: describe is for actions listed once)
                check_text(rules.describe(action), game, f"describe({action!r})")
            if why is None:
                continue
            refused += 1
            check_text(why, game, f"the refusal of {action!r}")
            with pytest.raises(IllegalAction) as err:
                rules.apply(state, player, action)
            assert err.value.text == why and str(err.value) == str(why)
        player, action = rnd.choice(acts)
        check_text(rules.describe(action), game, f"describe({action!r})")
        if hasattr(rules, "describe_in"):
            check_text(rules.describe_in(state, action), game, "describe_in")
        if hasattr(rules, "describe_move"):
            check_text(rules.describe_move(state, action), game, "describe_move")
        state = rules.apply(state, player, action)
    assert rules.is_over(state) and refused > 20


def test_options_and_summaries_are_texts(game):
    rules = get_rules(game)
    for name, opt in rules.options.items():
        check_text(opt.description, game, f"option {name}")
    for on in range(len(rules.options) + 1):
        check_text(rules.summary(dict.fromkeys(list(rules.options)[:on], True)), game, "summary")


def test_malformed_actions_and_bad_games_are_refused_in_texts(game):
    rules = get_rules(game)
    kind = rules.action_types[0].kind
    for bad in (3, {"kind": "no_such_action"}, {"kind": kind, "no_such_field": 1}, {"kind": kind}):
        with pytest.raises(MalformedAction) as err:
            rules.action_from_json(bad)
        check_text(err.value.text, game, f"action_from_json({bad!r})")
    state = rules.new_game(players_for(rules.player_counts[0]), {}, 1)
    with pytest.raises(MalformedAction) as err:
        rules.apply(state, state.players[0], object())
    check_text(err.value.text, game, "apply(object())")
    n = rules.player_counts[-1] + 1
    tries = [(players_for(n), {}), (["1", "1"], {}), (players_for(2), {"no_such_option": True})]
    tries += [(players_for(2), {name: "maybe"}) for name in rules.options]
    for seats, options in tries:
        with pytest.raises(ValueError) as err:
            rules.new_game(seats, options, 1)
        check_text(err.value.args[0], game, f"new_game({seats}, {options})")


def test_text_json_round_trips_exactly_and_old_plain_strings_load():
    """A Text with plurals and Texts inside survives JSON; an event text stored before texts were data (a plain
    string) loads as that string, the Text format beside it as a Text."""
    inner = Text("{type} ({price})", type=Text("Tower"), price=13)
    text = Text("buys the {tile} for {n} florin", "buys the {tile} for {n} florins", tile=inner, n=2)
    data = json.loads(json.dumps(text.to_json()))
    assert data == {
        "t": "buys the {tile} for {n} florin",
        "p": {"tile": {"t": "{type} ({price})", "p": {"type": {"t": "Tower"}, "price": 13}}, "n": 2},
        "pl": "buys the {tile} for {n} florins",
    }
    assert Text.from_json(data) == text and str(text) == "buys the Tower (13) for 2 florins"
    assert Text.from_json("takes 7 florin") == Text("takes 7 florin")
    old = from_jsonable(Event, {"kind": "move", "text": "takes 7 florin", "player": "1", "data": {}})
    new = from_jsonable(Event, {"kind": "move", "text": text.to_json(), "player": "1", "data": {}})
    assert old.text == "takes 7 florin" and new.text == text
    with pytest.raises(ValueError):
        Text.from_json({"p": {}})
