"""The Gardens of the Alhambra components (G2–G7), loaded once from data/gardens_tiles.json: tree kinds, garden
tiles, building values, and how tiles and buildings are named in words.

Tree kinds are ``purple``, ``green``, ``yellow``, ``orange`` (G2, G7), index 0–3 in that order (``KINDS``).
"""

from __future__ import annotations

from engine._common import N_, Text, load_data, require_data

_DATA = load_data("gardens_tiles.json")

KINDS: tuple[str, ...] = tuple(k["kind"] for k in _DATA["tree_kinds"])  # G2/G7: purple, green, yellow, orange
KIND_INDEX: dict[str, int] = {k: i for i, k in enumerate(KINDS)}
PLANTS: dict[str, str] = {k["kind"]: k["plant"] for k in _DATA["tree_kinds"]}
# the kinds' names shown to players (ids stay the data's words): `_.text(KIND_NAMES[k])`, in a Text `kind_text(k)`
KIND_NAMES: dict[str, str] = {
    "purple": N_("purple"),
    "green": N_("green"),
    "yellow": N_("yellow"),
    "orange": N_("orange"),
}
KIND_TITLES: dict[str, str] = {
    "purple": N_("Purple"),
    "green": N_("Green"),
    "yellow": N_("Yellow"),
    "orange": N_("Orange"),
}
require_data(set(KIND_NAMES) == set(KIND_TITLES) == set(KINDS), "G7: the tree kinds are purple, green, yellow, orange")

# G2–G5: tile id -> trees per kind, and the kinds facing NE, SE, SW, NW at rotation 0.
TILE_IDS: tuple[str, ...] = tuple(t["id"] for t in _DATA["garden_tiles"])
TILE_TREES: dict[str, int] = {t["id"]: t["trees_per_kind"] for t in _DATA["garden_tiles"]}
TILE_KINDS: dict[str, tuple[str, ...]] = {
    t["id"]: tuple(t["kinds_clockwise_NE_SE_SW_NW_at_rotation_0"]) for t in _DATA["garden_tiles"]
}

# G6: building values and their names; the 49 foundation tiles as a flat list of values.
BUILDING_TYPES: dict[int, str] = {b["value"]: b["type"] for b in _DATA["buildings"]}
BUILDING_VALUES: tuple[int, ...] = tuple(b["value"] for b in _DATA["buildings"] for _ in range(b["count"]))
# the building types' names shown to players (the data's words stay the ids, in event data)
TYPE_NAMES: dict[str, str] = {
    "pavilion": N_("pavilion", context="gardens"),
    "seraglio": N_("seraglio"),
    "arcades": N_("arcades"),
    "chambers": N_("chambers"),
    "tower": N_("tower"),
}
require_data(set(TYPE_NAMES) == set(BUILDING_TYPES.values()), "G6: the building types")


def kind_text(kind: str) -> Text | str:
    """A tree kind's name as a Text ("purple"); a word that is no kind stays as it is (in a refusal)."""
    return _KIND_TEXTS.get(kind, kind)


def tile_text(tile: str) -> Text:
    """A tile in words: "the 4-tree tile" (every kind shows the same number of trees, G3)."""
    return _TILE_TEXTS[tile]


_TILE_TEXTS = {t: Text("the {n}-tree tile", "the {n}-tree tile", n=n) for t, n in TILE_TREES.items()}


def tile_label(tile: str) -> str:
    """`tile_text` in English (for the presentation until it translates `tile_text`)."""
    return str(tile_text(tile))


def building_label(value: int) -> Text:
    """A building in words: "tower (5)"."""
    return _BUILDING_TEXTS[value]


# made once: every placement's events name tiles, kinds and buildings
_KIND_TEXTS = {k: Text.marked(name) for k, name in KIND_NAMES.items()}
_BUILDING_TEXTS = {
    v: Text("{building} ({value})", building=Text.marked(TYPE_NAMES[t]), value=v) for v, t in BUILDING_TYPES.items()
}
