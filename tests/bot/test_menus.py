"""The panel's game-agnostic narrowing (cogs/_menus.py): kinds, groups by field, positions by column or area."""

import present
from cogs import _menus, _text
from engine.alhambra.actions import PlaceTile as AlhambraPlace
from engine.alhambra.components import cell_name
from tests.bot.fakegame import RULES, Add, Play


def test_kinds_keep_the_engines_order_and_have_readable_labels(fake_game):
    actions = [Play(1, 0), Add(3), Play(2, 0)]
    assert _menus.kinds(actions) == ["play", "add"]
    assert present.for_game("alhambra").kind_label("pass") == "End turn"
    assert present.for_game("queens_garden").kind_label("pass") == "Pass"
    assert present.for_game("fake").kind_label("take_two_steps") == "Take two steps"


def test_at_most_25_are_never_split():
    assert _menus.split(list(enumerate(Add(n) for n in range(1, 26))), RULES.describe, present.Presenter()) is None


def test_split_by_the_first_field_that_tells_actions_apart():
    actions = list(enumerate(Play(card, b) for card in (4, 9, 13) for b in range(10)))
    groups = _menus.split(actions, RULES.describe, present.Presenter())
    assert [label for label, _ in groups] == [
        "plays the 5 card #4 with boost … (10 ways)",
        "plays the 1 card #9 with boost … (10 ways)",
        "plays the 5 card #13 with boost … (10 ways)",
    ]
    assert sorted(i for _, members in groups for i in members) == list(range(30))


def test_positions_split_by_column_when_there_are_too_many_cells():
    cells = [(x, y) for x in range(-3, 4) for y in range(-2, 3)]  # 35 cells
    actions = list(enumerate(AlhambraPlace("tower-9-NE", c) for c in cells))
    groups = _menus.split(
        actions, lambda a: f"places the Tower (9) at {cell_name(a.cell)}", present.for_game("alhambra")
    )
    assert [label for label, _ in groups] == [f"column {c} … (5 ways)" for c in "JKLMNOP"]
    assert sum(len(m) for _, m in groups) == 35


def test_labels_that_read_alike_are_told_apart():
    groups = _menus._distinct([("places the 4-tree tile", [0]), ("places the 4-tree tile", [1])], ["t4a", "t4b"])
    assert [label for label, _ in groups] == ["places the 4-tree tile [t4a]", "places the 4-tree tile [t4b]"]


def test_long_descriptions_fit_a_select_option():
    label, rest = _text.option_texts("places the 4-tree tile at D2 turned 90° " + "(x → y) " * 20)
    assert len(label) <= 100 and rest is not None and len(rest) <= 100 and label.endswith("…")
