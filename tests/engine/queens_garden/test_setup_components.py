"""Components (Q1–Q9), set-up (Q10–Q16), the garden geometry and space names, data-driven values, views."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine import get_rules
from engine.queens_garden import RULES, geometry
from engine.queens_garden.actions import Acquire
from engine.queens_garden.components import (
    COLOURS,
    EXPANSION_KIND,
    JOKER_REWARD,
    PATTERNS,
    TILE_KIND,
    VALUES,
    WHEEL,
    criterion_points,
    kind_code,
    kind_name,
    provisional,
)
from engine.queens_garden.geometry import (
    AREA_CELLS,
    AREAS,
    FOUNTAIN_ELEMENTS,
    FOUNTAIN_FREE,
    NEIGHBOURS,
    SPACE_COORD,
    SPACES,
    parse_space,
    pixel,
    printed_space,
    space_name,
)
from engine.queens_garden.state import HIDDEN
from tests.engine.queens_garden.scenario import game


def test_contract_metadata():
    """Q38: the variant side has no known numbers, so no option is offered; 2–4 players."""
    rules = get_rules("queens_garden")
    assert rules is RULES
    assert rules.name == "queens_garden" and rules.title == "Azul: Queen's Garden"
    assert list(rules.player_counts) == [2, 3, 4]
    assert dict(rules.options) == {}
    with pytest.raises(ValueError, match="Unknown option"):
        rules.new_game(["a", "b"], {"variant": True}, 1)
    with pytest.raises(ValueError, match="2–4 players"):
        rules.new_game(["a"], {}, 1)


def test_Q1_Q3_108_tiles_six_colours_six_patterns_three_copies():
    """Q1, Q3: 108 tiles, each colour × pattern 3 times; pattern values 1–6 are the keys."""
    assert len(TILE_KIND) == 108
    assert all(TILE_KIND.count((c, p)) == 3 for c in range(6) for p in range(1, 7))
    assert sorted(PATTERNS) == [1, 2, 3, 4, 5, 6]
    assert PATTERNS[1] == "tree" and PATTERNS[2] == "bird" and PATTERNS[3] == "butterfly" and PATTERNS[4] == "flower"


def test_Q2_colours_are_named_in_words_with_distinct_letters():
    """Q2: the two greens and two purples are told apart by name and letter, never hue alone."""
    names = [c.name for c in COLOURS]
    assert names == ["yellow", "light blue", "light green", "dark green", "light purple", "dark purple"]
    letters = [c.letter for c in COLOURS]
    assert len(set(letters)) == 6 and all(len(x) == 1 for x in letters)
    assert not set(letters) & set("MNESW"), "colour letters must not clash with space names"
    assert kind_name((3, 6)) == "dark green lily (F6)" and kind_code((4, 1)) == "L1"


def test_Q5_36_expansions_one_per_hexagon():
    """Q5: 36 expansions, one for each colour × pattern combination."""
    assert sorted(EXPANSION_KIND) == [(c, p) for c in range(6) for p in range(1, 7)]


def test_Q6_fountain_board_has_fountain_six_free_spaces_three_statues_three_benches():
    """Q6, Q39: 13 hexes: the fountain in the centre, 6 free spaces, statues and benches alternating on the rim."""
    assert FOUNTAIN_ELEMENTS["M0"] == "fountain"
    rim = [FOUNTAIN_ELEMENTS[f"M{i}"] for i in range(7, 13)]
    assert sorted(rim) == ["bench"] * 3 + ["statue"] * 3
    assert all(rim[i] != rim[(i + 1) % 6] for i in range(6))
    assert FOUNTAIN_FREE == ("M1", "M2", "M3", "M4", "M5", "M6")
    assert len([s for s in SPACES if s.startswith("M")]) == 13
    for i in range(7, 13):  # each rim element touches two free spaces of the fountain board
        assert len([n for n in NEIGHBOURS[f"M{i}"] if n in FOUNTAIN_FREE]) == 2


def test_Q7_six_expansion_areas_of_seven_hexes_around_the_fountain_board():
    """Q7: up to 6 expansions, each a 7-hex flower in a fixed area touching the fountain board; no overlaps."""
    assert AREAS == ("N", "NE", "SE", "S", "SW", "NW")
    assert len(SPACES) == 13 + 6 * 7 == len(set(SPACE_COORD.values()))
    for a in AREAS:
        assert len(AREA_CELLS[a]) == 7
        assert any(n.startswith("M") for c in AREA_CELLS[a] for n in NEIGHBOURS[c]), a
    # neighbouring areas touch each other, so groups can run across expansions
    for i, a in enumerate(AREAS):
        b = AREAS[(i + 1) % 6]
        assert any(n in AREA_CELLS[b] for c in AREA_CELLS[a] for n in NEIGHBOURS[c]), (a, b)


def test_space_names_parse_and_orientation():
    """Space names: area + cell; parse is forgiving about case and spaces; turn t puts the hexagon on cell t+1."""
    assert parse_space(" se3 ") == "SE3" and parse_space("m0") == "M0" and parse_space("NW-6") == "NW6"
    with pytest.raises(ValueError, match="not a space"):
        parse_space("Q9")
    with pytest.raises(ValueError):
        space_name("N", 7)
    assert space_name("S", 0) == "S0"
    assert [printed_space("SE", t) for t in range(6)] == ["SE1", "SE2", "SE3", "SE4", "SE5", "SE6"]
    assert pixel("M0") == (0.0, 0.0)
    x, y = pixel("M1", 10)
    assert x == 0 and y < 0  # M1 is north (up) of the fountain


@pytest.mark.parametrize("n, stack, supply", [(2, 5, 16), (3, 7, 8), (4, 8, 4)])
def test_Q10_to_Q16_setup(n, stack, supply):
    """Q10 3 jokers; Q11 score 15; Q12/Q14/QT26 bag 108 − 4, nothing else drawn; Q13 stacks 5/7/8 and the supply;
    Q15 marker in the display and a start player; Q16 exactly 4 tiles on stack 1's top."""
    s = RULES.new_game([str(i) for i in range(n)], {}, 11)
    assert all(seat.jokers == 3 and seat.score == 15 and not seat.tiles and not seat.garden for seat in s.seats)
    assert len(s.bag) == 108 - 4 and len(s.stack_tiles) == 4 and s.tower == () and s.display == ()
    assert len(s.stack) == stack and [len(x) for x in s.stacks] == [stack] * 3 and len(s.supply) == supply
    assert s.marker is None and s.round == 1 and s.current == s.first_player
    assert s.log[0].kind == "round_start" and s.log[0].data["round"] == 1
    RULES.validate(s)


def test_Q15_start_player_is_drawn_from_the_seed():
    """Q15 [?]: the bot picks round 1's start player at random, reproducibly for a seed."""
    starts = {RULES.new_game(["a", "b", "c"], {}, seed).current for seed in range(30)}
    assert starts == {0, 1, 2}
    assert RULES.new_game(["a", "b"], {}, 9) == RULES.new_game(["a", "b"], {}, 9)


def test_values_come_from_data_and_are_listed_as_provisional():
    """Q30, Q32: the wheel, points and joker amounts are data; the /rules summary names every provisional one."""
    assert set(WHEEL) == {1, 2, 3, 4} and all(len(c) == 3 for c in WHEEL.values())
    assert set(JOKER_REWARD) == {"fountain", "statue", "bench", "pavilion"}
    unsure = {v["name"] for v in provisional()}
    assert {"wheel", "joker_reward", "pattern_points_by_round", "fountain_board_elements"} <= unsure
    assert "adjacency" not in unsure  # confirmed by the rulebook
    text = str(RULES.summary())
    assert "Provisional" in text
    for v in provisional():
        assert v["title"] in text
    assert "dark green (F)" in text and "light purple (L)" in text


def test_Q32_pattern_points_mode_is_switchable(monkeypatch):
    """Q32 [S]: 'per_round' points from the data table, or 'value' (a hexagon scores its pattern value)."""
    from engine.queens_garden import components

    assert criterion_points(("colour", 0), 6, 4) == VALUES["colour_points"]["value"]
    table = VALUES["pattern_points_by_round"]["value"]
    assert [criterion_points(("pattern", 6), 6, r) for r in (1, 2, 3, 4)] == [table[str(r)] for r in (1, 2, 3, 4)]
    monkeypatch.setattr(components, "PATTERN_POINTS_MODE", "value")
    assert criterion_points(("pattern", 5), 5, 1) == 5


def test_view_hides_bag_order_seed_and_face_down_expansions():
    """Hidden information: two games differing only in hidden things give the same public view."""
    s = game(2)
    other = dataclasses.replace(
        s,
        seed=999,
        rng_counter=77,
        bag=tuple(reversed(s.bag)),
        supply=tuple(reversed(s.supply)),
        stacks=tuple(tuple(reversed(x)) for x in s.stacks),
        stack=(s.stack[-1], *s.stack[1:-1], s.stack[0]),
    )
    assert RULES.view(s, None) == RULES.view(other, None) == RULES.view(other, "p0")
    v = RULES.view(s, None)
    assert v.seed == 0 and all(e == HIDDEN for e in v.stack + v.supply)
    assert v.stack_tiles == s.stack_tiles  # the tiles on the display are public
    json.dumps(RULES.to_json(v))


def test_json_round_trip_and_validation():
    """States survive JSON; a state with a tile lost is refused by from_json."""
    s = game(3)
    for p in RULES.legal_actions(s, "p0")[:1]:
        s = RULES.apply(s, "p0", p)
    data = json.loads(json.dumps(RULES.to_json(s)))
    assert RULES.from_json(data) == s
    data["state"]["bag"] = data["state"]["bag"][1:]
    with pytest.raises(ValueError, match="108"):
        RULES.from_json(data)


def test_describe_names_colours_in_words():
    """Q2: describe() says colours in words; actions round-trip through JSON."""
    s = game(2)
    acts = RULES.legal_actions(s, "p0")
    texts = [str(RULES.describe(a)) for a in acts]
    assert all(texts)
    acquire = [a for a in acts if isinstance(a, Acquire) and a.by == "colour"][0]
    assert COLOURS[acquire.value].name in str(RULES.describe(acquire))
    for a in acts:
        assert RULES.action_from_json(json.loads(json.dumps(RULES.action_to_json(a)))) == a


def test_garden_helpers_on_an_empty_garden():
    """Q6/Q26: a new garden has exactly the 6 fountain-board spaces free and no hexagons."""
    s = game(2)
    assert geometry.free_spaces(s.seats[0]) == list(FOUNTAIN_FREE)
    assert geometry.hexagons(s.seats[0]) == {}
    assert geometry.free_areas(s.seats[0]) == list(AREAS)
