"""The Gardens of the Alhambra components (G2–G7), loaded once from data/gardens_tiles.json: tree kinds, garden
tiles, building values, and how tiles and buildings are named in words.

Tree kinds are ``purple``, ``green``, ``yellow``, ``orange`` (G2, G7), index 0–3 in that order (``KINDS``).
"""

from __future__ import annotations

from engine._common import load_data

_DATA = load_data("gardens_tiles.json")

KINDS: tuple[str, ...] = tuple(k["kind"] for k in _DATA["tree_kinds"])  # G2/G7: purple, green, yellow, orange
KIND_INDEX: dict[str, int] = {k: i for i, k in enumerate(KINDS)}
PLANTS: dict[str, str] = {k["kind"]: k["plant"] for k in _DATA["tree_kinds"]}

# G2–G5: tile id -> trees per kind, and the kinds facing NE, SE, SW, NW at rotation 0.
TILE_IDS: tuple[str, ...] = tuple(t["id"] for t in _DATA["garden_tiles"])
TILE_TREES: dict[str, int] = {t["id"]: t["trees_per_kind"] for t in _DATA["garden_tiles"]}
TILE_KINDS: dict[str, tuple[str, ...]] = {
    t["id"]: tuple(t["kinds_clockwise_NE_SE_SW_NW_at_rotation_0"]) for t in _DATA["garden_tiles"]
}

# G6: building values and their names; the 49 foundation tiles as a flat list of values.
BUILDING_TYPES: dict[int, str] = {b["value"]: b["type"] for b in _DATA["buildings"]}
BUILDING_VALUES: tuple[int, ...] = tuple(b["value"] for b in _DATA["buildings"] for _ in range(b["count"]))


def tile_label(tile: str) -> str:
    """A tile in words: "the 4-tree tile" (every kind shows the same number of trees, G3)."""
    return f"the {TILE_TREES[tile]}-tree tile"


def building_label(value: int) -> str:
    """A building in words: "tower (5)"."""
    return f"{BUILDING_TYPES[value]} ({value})"
