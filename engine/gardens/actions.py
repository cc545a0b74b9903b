"""The Gardens of the Alhambra actions (frozen dataclasses, JSON through the shared codec) and `describe`."""

from __future__ import annotations

from collections.abc import Sequence

from engine._common import Text, action, join_texts
from engine.gardens.components import TILE_TREES, kind_text, tile_text
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


def describe(action: Action) -> Text:
    """One short sentence without the player's name, e.g. "places the 4-tree tile at C3 turned 90° (…)"."""
    if isinstance(action, ChooseColours):
        return plays(action.colours)
    if isinstance(action, PlaceTile):
        if action.tile not in TILE_TREES or action.space not in GARDEN_INDEX or action.rotation not in range(4):
            return Text("places tile {tile} at {space}", tile=action.tile, space=action.space)
        around = GARDEN_BUILDINGS[GARDEN_INDEX[action.space]]
        faces = join_texts(
            [
                Text("{kind} → {building}", kind=kind_text(k), building=BUILDING_NAMES[around[d]])
                for d, k in enumerate(facing_kinds(action.tile, action.rotation))
            ]
        )
        return Text(
            "places {tile} at {space} turned {degrees}° ({faces})",
            tile=tile_text(action.tile),
            space=action.space,
            degrees=DEGREES[action.rotation],
            faces=faces,
        )
    return Text("does something unknown")


def plays(colours: Sequence[str]) -> Text:
    """G17, G37: "plays purple", "plays purple and orange"."""
    if len(colours) == 1:
        return Text("plays {colour}", colour=kind_text(colours[0]))
    if len(colours) == 2:
        return Text("plays {colour} and {other}", colour=kind_text(colours[0]), other=kind_text(colours[1]))
    return Text("plays {colours}", colours=join_texts([kind_text(k) for k in colours], " and "))
