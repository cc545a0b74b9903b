"""Azul: Queen's Garden (spec rules Q1–Q39) behind the engine contract: `RULES = get_rules("queens_garden")`.

For the renderer and the bot: `COLOURS` (name + one-letter code per colour), `PATTERNS`, `TILE_KIND` /
`EXPANSION_KIND` (id -> (colour, pattern)), `kind_code`/`kind_name`, the space names and geometry
(`SPACES`, `SPACE_COORD`, `AREAS`, `parse_space`, `space_name`, `printed_space`, `pixel`), one player's garden
(`hexagons`, `elements`, `free_spaces`, `groups`; more in `geometry`) and its scoring (`round_score`,
`scored_groups`, `storage_value`).
"""

from engine.queens_garden.actions import Acquire, BuyExpansion, Pass, PlaceExpansion, PlaceTile
from engine.queens_garden.components import (
    COLOURS,
    EXPANSION_KIND,
    PATTERNS,
    TILE_KIND,
    VALUES,
    WHEEL,
    kind_code,
    kind_name,
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
    "elements",
    "free_spaces",
    "groups",
    "hexagons",
    "kind_code",
    "kind_name",
    "parse_space",
    "pixel",
    "printed_space",
    "provisional",
    "round_score",
    "scored_groups",
    "space_name",
    "storage_value",
]
