"""Components, board geometry, rotation encoding and the position notation (G1–G15)."""

from collections import Counter

import pytest

from engine.gardens import (
    BUILDING_GARDENS,
    BUILDING_NAMES,
    BUILDING_TYPES,
    GARDEN_BUILDINGS,
    GARDEN_NAMES,
    KINDS,
    TILE_IDS,
    TILE_KINDS,
    TILE_TREES,
    facing_kinds,
    parse_building,
    parse_garden,
    parse_rotation,
)
from engine.gardens.components import BUILDING_VALUES
from engine.gardens.geometry import GARDEN_NEIGHBOURS, INNER_GARDENS


def test_G1_G8_board_has_36_gardens_and_49_buildings():
    """G1/G8: 6×6 garden spaces A1–F6 and 7×7 building spaces a1–g7."""
    assert len(GARDEN_NAMES) == 36 and GARDEN_NAMES[0] == "A1" and GARDEN_NAMES[-1] == "F6"
    assert len(BUILDING_NAMES) == 49 and BUILDING_NAMES[0] == "a1" and BUILDING_NAMES[-1] == "g7"


def test_G2_G3_G4_tiles_show_all_four_kinds_same_count_six_per_value():
    """G2/G3/G4: 36 tiles, each with all four kinds and one tree count n in 1–6; each n on exactly 6 tiles."""
    assert len(TILE_IDS) == 36
    assert set(KINDS) == {"purple", "green", "yellow", "orange"}
    for t in TILE_IDS:
        assert sorted(TILE_KINDS[t]) == sorted(KINDS)
    assert Counter(TILE_TREES.values()) == {n: 6 for n in range(1, 7)}


def test_G5_each_value_uses_the_six_cyclic_orders_once():
    """G5 [D]: the six tiles of one value show six different cyclic orders of the kinds (no test relies on which)."""

    def cyclic(kinds):
        i = kinds.index("purple")
        return kinds[i:] + kinds[:i]

    for n in range(1, 7):
        orders = {cyclic(TILE_KINDS[t]) for t in TILE_IDS if TILE_TREES[t] == n}
        assert len(orders) == 6


def test_G6_building_values_10_10_10_10_9_total_145():
    """G6: pavilion 1 ×10, seraglio 2 ×10, arcades 3 ×10, chambers 4 ×10, tower 5 ×9; total 145."""
    assert Counter(BUILDING_VALUES) == {1: 10, 2: 10, 3: 10, 4: 10, 5: 9}
    assert sum(BUILDING_VALUES) == 145
    assert BUILDING_TYPES == {1: "pavilion", 2: "seraglio", 3: "arcades", 4: "chambers", 5: "tower"}


def test_G7_four_kinds_are_the_four_colours():
    """G7: one score marker per colour; each colour is a tree kind."""
    assert KINDS == ("purple", "green", "yellow", "orange")


def test_G9_garden_touches_its_four_corner_buildings():
    """G9: garden C3 = (2,2) touches NE d3=(2,3), SE d4=(3,3), SW c4=(3,2), NW c3=(2,2)."""
    assert [BUILDING_NAMES[b] for b in GARDEN_BUILDINGS[parse_garden("C3")]] == ["d3", "d4", "c4", "c3"]
    assert sorted(GARDEN_NAMES[g] for g, _ in BUILDING_GARDENS[parse_building("d4")]) == ["C3", "C4", "D3", "D4"]


def test_G10_neighbour_counts_25_interior_20_edge_4_corner():
    """G10: 25 buildings with 4 gardens, 20 with 2, 4 with 1; 144 long sides in all."""
    sizes = Counter(len(gs) for gs in BUILDING_GARDENS)
    assert sizes == {4: 25, 2: 20, 1: 4}
    assert sum(len(gs) for gs in BUILDING_GARDENS) == 144 == 36 * 4


def test_G11_adjacency_is_orthogonal_only():
    """G11: C3's neighbours are C2, D3, C4, B3; the diagonal D4 is not one; a corner has two."""
    assert sorted(GARDEN_NAMES[n] for n in GARDEN_NEIGHBOURS[parse_garden("C3")]) == ["B3", "C2", "C4", "D3"]
    assert len(GARDEN_NEIGHBOURS[parse_garden("A1")]) == 2


def test_G12_G15_rotation_moves_each_kind_one_direction_clockwise():
    """G12/G15: at rotation q the kind at index i of the data faces direction (i+q) mod 4 (NE, SE, SW, NW)."""
    kinds = TILE_KINDS["T01"]
    assert facing_kinds("T01", 0) == kinds
    assert facing_kinds("T01", 1) == (kinds[3], kinds[0], kinds[1], kinds[2])
    for q in range(4):
        assert sorted(facing_kinds("T01", q)) == sorted(KINDS)  # each kind faces exactly one building


def test_G22_inner_area_is_the_16_spaces_B2_to_E5():
    """G22: the inner 4×4."""
    assert sorted(GARDEN_NAMES[g] for g in INNER_GARDENS) == sorted(c + str(r) for c in "BCDE" for r in range(2, 6))


def test_notation_parsing_round_trips():
    """Names and parsing agree for the bot and renderer: gardens "C3", buildings "d4", rotations in degrees."""
    for i, name in enumerate(GARDEN_NAMES):
        assert parse_garden(name) == i and parse_garden(name.lower()) == i
    for i, name in enumerate(BUILDING_NAMES):
        assert parse_building(name) == i
    assert parse_garden("C3") == 2 * 6 + 2
    assert parse_building("d4") == 3 * 7 + 3
    assert [parse_rotation(x) for x in ("0", "90°", 180, "270", "q3", -90)] == [0, 1, 2, 3, 3, 3]
    for bad in ("G1", "A7", "", "33"):
        with pytest.raises(ValueError, match="like C3"):
            parse_garden(bad)
    with pytest.raises(ValueError, match="like d4"):
        parse_building("h1")
    with pytest.raises(ValueError, match="G13"):
        parse_rotation("45")
