"""The Gardens of the Alhambra actions (frozen dataclasses, JSON through the shared codec) and `describe`."""

from __future__ import annotations

from engine._common import action
from engine.gardens.components import TILE_TREES, tile_label
from engine.gardens.geometry import BUILDING_NAMES, DEGREES, GARDEN_BUILDINGS, GARDEN_INDEX, facing_kinds


@action("choose_colours")
class ChooseColours:
    """G17/G37: take one tree kind (two in the two-colours game) as your colour(s)."""

    colours: tuple[str, ...]


@action("place_tile")
class PlaceTile:
    """G21: place a hand tile on a garden space ("C3"), turned `rotation` quarter turns clockwise (0–3)."""

    tile: str
    space: str
    rotation: int


Action = ChooseColours | PlaceTile
ACTION_TYPES: tuple[type[ChooseColours], type[PlaceTile]] = (ChooseColours, PlaceTile)


def describe(action: Action) -> str:
    """One short sentence without the player's name, e.g. "places the 4-tree tile at C3 turned 90° (…)"."""
    if isinstance(action, ChooseColours):
        return f"plays {' and '.join(action.colours)}"
    if isinstance(action, PlaceTile):
        if action.tile not in TILE_TREES or action.space not in GARDEN_INDEX or action.rotation not in range(4):
            return f"places tile {action.tile} at {action.space}"
        around = GARDEN_BUILDINGS[GARDEN_INDEX[action.space]]
        faces = ", ".join(
            f"{k} → {BUILDING_NAMES[around[d]]}" for d, k in enumerate(facing_kinds(action.tile, action.rotation))
        )
        return f"places {tile_label(action.tile)} at {action.space} turned {DEGREES[action.rotation]}° ({faces})"
    return "does something unknown"
