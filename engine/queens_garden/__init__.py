"""Azul: Queen's Garden (spec rules Q1–Q39) behind the engine contract: `RULES = get_rules("queens_garden")`.

For the renderer and the bot: `COLOURS` (name + one-letter code per colour), `PATTERNS`, `TILE_KIND` /
`EXPANSION_KIND` (id -> (colour, pattern)), `kind_code`/`kind_text` (`kind_name`: its English), the names
players read (colour names, `PATTERNS`, `ELEMENT_NAMES`: marked constants, shown with `_.text`), the space names
and geometry
(`SPACES`, `SPACE_COORD`, `AREAS`, `parse_space`, `space_name`, `printed_space`, `pixel`), one player's garden
(`hexagons`, `elements`, `free_spaces`, `groups`; more in `geometry`) and its scoring (`round_score`,
`scored_groups`, `storage_value`).
"""

from engine.queens_garden.actions import Acquire, BuyExpansion, Pass, PlaceExpansion, PlaceTile
from engine.queens_garden.components import (
    COLOURS,
    ELEMENT_NAMES,
    EXPANSION_KIND,
    PATTERNS,
    TILE_KIND,
    VALUES,
    WHEEL,
    colour_text,
    element_text,
    kind_code,
    kind_name,
    kind_text,
    provisional,
)
from engine.queens_garden.geometry import (
    AREAS,
    SPACE_COORD,
    SPACES,
    elements,
    free_spaces,
    groups,
    hexagons,
    parse_space,
    pixel,
    printed_space,
    space_name,
)
from engine.queens_garden.rules import QueensGardenRules
from engine.queens_garden.scoring import round_score, scored_groups, storage_value
from engine.queens_garden.state import HIDDEN, Piece, Placed, QGState, Seat

RULES = QueensGardenRules()

__all__ = [
    "AREAS",
    "COLOURS",
    "ELEMENT_NAMES",
    "EXPANSION_KIND",
    "HIDDEN",
    "PATTERNS",
    "RULES",
    "SPACES",
    "SPACE_COORD",
    "TILE_KIND",
    "VALUES",
    "WHEEL",
    "Acquire",
    "BuyExpansion",
    "Pass",
    "Piece",
    "PlaceExpansion",
    "PlaceTile",
    "Placed",
    "QGState",
    "QueensGardenRules",
    "Seat",
    "colour_text",
    "element_text",
    "elements",
    "free_spaces",
    "groups",
    "hexagons",
    "kind_code",
    "kind_name",
    "kind_text",
    "parse_space",
    "pixel",
    "printed_space",
    "provisional",
    "round_score",
    "scored_groups",
    "space_name",
    "storage_value",
]
