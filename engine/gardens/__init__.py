"""The Gardens of the Alhambra (G-rules): `RULES` for the engine contract, plus the notation helpers the renderer,
the bot and the AI share (garden "C3", building "d4", rotations in quarter turns shown as degrees), and the names
players read: `KIND_NAMES`/`KIND_TITLES`, `TYPE_NAMES` (marked constants, shown with `_.text`), `kind_text`,
`tile_text`, `building_label` (`Text`s). Every refusal, `describe`, event text and the summary is a `Text`."""

from engine.gardens import board  # noqa: F401 (old path: render/gardens.py reads G.board.PLANTS)
from engine.gardens.actions import ChooseColours, PlaceTile
from engine.gardens.components import (
    BUILDING_TYPES,
    KIND_NAMES,
    KIND_TITLES,
    KINDS,
    PLANTS,
    TILE_IDS,
    TILE_KINDS,
    TILE_TREES,
    TYPE_NAMES,
    building_label,
    kind_text,
    tile_label,
    tile_text,
)
from engine.gardens.geometry import (
    BUILDING_GARDENS,
    BUILDING_NAMES,
    DEGREES,
    DIRECTIONS,
    GARDEN_BUILDINGS,
    GARDEN_NAMES,
    facing_kinds,
    open_spaces,
    parse_building,
    parse_garden,
    parse_rotation,
    rotation_facing,
)
from engine.gardens.rules import (
    GardensRules,
    breakdown,
    building_scores,
    completed_buildings,
    kind_owners,
    player_colours,
)
from engine.gardens.state import HIDDEN, GardensState

RULES = GardensRules()

__all__ = [
    "BUILDING_GARDENS",
    "BUILDING_NAMES",
    "BUILDING_TYPES",
    "DEGREES",
    "DIRECTIONS",
    "GARDEN_BUILDINGS",
    "GARDEN_NAMES",
    "HIDDEN",
    "KIND_NAMES",
    "KIND_TITLES",
    "KINDS",
    "PLANTS",
    "RULES",
    "TILE_IDS",
    "TILE_KINDS",
    "TILE_TREES",
    "TYPE_NAMES",
    "ChooseColours",
    "GardensRules",
    "GardensState",
    "PlaceTile",
    "breakdown",
    "building_label",
    "building_scores",
    "completed_buildings",
    "facing_kinds",
    "kind_owners",
    "kind_text",
    "open_spaces",
    "parse_building",
    "parse_garden",
    "parse_rotation",
    "player_colours",
    "rotation_facing",
    "tile_label",
    "tile_text",
]
