"""The contract around the rules: cell notation, describe, view (no leaks), JSON, summary, determinism."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine import IllegalAction, MalformedAction
from engine._common import to_jsonable
from engine.alhambra import RULES, cell_name, parse_cell
from engine.alhambra.actions import (
    BuyTile,
    GiveToDirk,
    Pass,
    PlaceTile,
    RedesignAdd,
    RedesignRemove,
    RedesignSwap,
    ReserveTile,
    TakeMoney,
)
from engine.alhambra.components import tile_name
from tests.engine.alhambra.helpers import act, arrange, card, new


@pytest.mark.parametrize(
    "cell, name",
    [
        ((0, 0), "M13"),
        ((1, -1), "N12"),
        ((-12, 0), "A13"),
        ((13, 5), "Z18"),
        ((14, 0), "AA13"),
        ((-13, 0), "@0:13"),
        ((-16, -1), "@-3:12"),
        ((0, -14), "M-1"),
        ((-16, -15), "@-3:-2"),
    ],
)
def test_cell_notation_round_trips(cell, name):
    """Positions: column letters for x+13 (A=1), row y+13; the fountain is M13; y grows south."""
    assert cell_name(cell) == name
    assert parse_cell(name) == cell
    assert parse_cell(name.lower()) == cell


def test_parse_cell_rejects_nonsense():
    for bad in ("", "13", "M", "M1x", "@@1"):
        with pytest.raises(ValueError):
            parse_cell(bad)


def test_describe_sentences():
    assert (
        str(RULES.describe(BuyTile("tower-13-E", (card("florin", 5), card("florin", 4)))))
        == "buys the Tower (13) with 5+4 florin"
    )
    assert (
        str(RULES.describe(BuyTile("tower-9-NE", (card("florin", 5), card("florin", 4)))))
        == "buys the Tower (9, walls NE) with 5+4 florin (exact: acts again)"
    )
    assert str(RULES.describe(PlaceTile("garden-12-S", (1, -1)))) == "places the Garden (12) at N12"
    assert str(RULES.describe(TakeMoney((card("denar", 3), card("ducat", 2))))) == "takes 3 denar + 2 ducat"
    assert str(RULES.describe(ReserveTile("pavilion-8-open"))) == "puts the Pavilion (8) on the reserve"
    assert str(RULES.describe(GiveToDirk("garden-10-open"))) == "gives the Garden (10, no walls) to Dirk"
    assert "reserve" in str(RULES.describe(RedesignAdd("tower-12-open", (0, 1))))
    assert "reserve" in str(RULES.describe(RedesignRemove("tower-12-open")))
    assert "exchanges" in str(RULES.describe(RedesignSwap("tower-12-open", "tower-11-open")))
    assert str(RULES.describe(Pass()))


def test_tile_names_are_unique():
    from engine.alhambra.components import BUILDING_TILES

    assert len({tile_name(t) for t in BUILDING_TILES}) == 54


def test_describe_is_unique_among_legal_actions_in_random_play():
    rnd = random.Random(3)
    for n in (2, 5):
        s = RULES.new_game([str(i) for i in range(n)], {}, 21)
        while not RULES.is_over(s):
            p = rnd.choice(RULES.to_move(s))
            legal = RULES.legal_actions(s, p)
            texts = [str(RULES.describe(a)) for a in legal]
            assert len(set(texts)) == len(texts), texts
            s = RULES.apply(s, p, rnd.choice(legal))


def test_view_never_leaks_other_hands_deck_bag_order_or_seed():
    """A20 + secrecy: views of states differing only in hidden information are identical."""
    s = new(4, 30)
    p0 = s.players[0]
    # swap two cards between player 1's hand and the deck, and shuffle the bag: only hidden things change
    other = s.seats[1].hand[0]
    deck_card = next(c for c in s.deck if c < 108)
    hand = tuple(sorted(deck_card if c == other else c for c in s.seats[1].hand))
    deck = tuple(other if c == deck_card else c for c in s.deck)
    t = replace(
        s,
        seats=(s.seats[0], replace(s.seats[1], hand=hand), *s.seats[2:]),
        deck=deck,
        bag=tuple(reversed(s.bag)),
        seed=999,
    )
    for viewer in (None, p0):
        assert RULES.view(s, viewer) == RULES.view(t, viewer)
        assert json.dumps(RULES.to_json(RULES.view(s, viewer))) == json.dumps(RULES.to_json(RULES.view(t, viewer)))
    v = RULES.view(s, p0)
    assert v.seed is None and set(v.deck) == {-1} and len(v.deck) == len(s.deck)
    with pytest.raises(IllegalAction):
        RULES.apply(v, p0, TakeMoney(v.display[:1]))


def test_json_round_trip_and_fast_encoder_matches_shared_codec():
    rnd = random.Random(4)
    s = RULES.new_game(["a", "b"], {}, 5)
    for _ in range(150):
        if RULES.is_over(s):
            break
        assert RULES.to_json(s)["state"] == to_jsonable(s)
        assert RULES.from_json(json.loads(json.dumps(RULES.to_json(s)))) == s
        p = rnd.choice(RULES.to_move(s))
        s = RULES.apply(s, p, rnd.choice(RULES.legal_actions(s, p)))


def test_from_json_rejects_impossible_states():
    """A80/A82: a stored state that lost a tile or holds an illegal Alhambra is refused."""
    s = new(3, 6)
    data = RULES.to_json(replace(s, bag=s.bag[1:]))
    with pytest.raises(ValueError, match="A80"):
        RULES.from_json(data)
    t = arrange(s, reserves={0: ["tower-10-W"]})
    bad = replace(
        t, seats=(replace(t.seats[0], reserve=(), alhambra={**t.seats[0].alhambra, (1, 0): "tower-10-W"}), *t.seats[1:])
    )  # its west wall meets the fountain's open side
    with pytest.raises(ValueError, match="A82"):
        RULES.from_json(RULES.to_json(bad))
    with pytest.raises(ValueError):
        RULES.from_json({"game": "gardens", "v": 1, "state": {}})


def test_action_json_and_malformed_actions():
    a = PlaceTile("garden-12-S", (1, -1))
    assert RULES.action_from_json(json.loads(json.dumps(RULES.action_to_json(a)))) == a
    with pytest.raises(MalformedAction):
        RULES.action_from_json({"kind": "buy_tile", "tile": "x"})
    with pytest.raises(MalformedAction):
        RULES.action_from_json({"kind": "place_tile", "tile": "x", "cell": [1, 2], "extra": 1})


def test_unknown_tile_is_refused_politely():
    s = arrange(new(3, 7), current=0, phase="place", pending={0: ["garden-10-open"]})
    with pytest.raises(IllegalAction, match="no Tower"):
        act(s, PlaceTile("tower-13-E", (1, 0)))


def test_summary_is_markdown_with_key_rules():
    text = str(RULES.summary())
    assert "**Alhambra**" in text and "M13" in text and "5 or less" in text


def test_replay_gives_the_same_state():
    """Determinism: the same seed and actions give the same state (the property test replays every game)."""
    rnd = random.Random(8)
    s = RULES.new_game(["a", "b", "c"], {}, 77)
    moves = []
    for _ in range(60):
        p = rnd.choice(RULES.to_move(s))
        a = rnd.choice(RULES.legal_actions(s, p))
        moves.append((p, a))
        s = RULES.apply(s, p, a)
    r = RULES.new_game(["a", "b", "c"], {}, 77)
    for p, a in moves:
        r = RULES.apply(r, p, a)
    assert r == s
