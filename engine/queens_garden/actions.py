"""Azul: Queen's Garden actions A–D (Q18): one frozen dataclass per kind, naming tiles and expansions by id, and
`describe`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from engine._common import action
from engine.queens_garden.components import (
    BLANK_EXPANSION_COST,
    EXPANSION_KIND,
    PATTERN_PLURALS,
    TILE_KIND,
    colour_name,
    kind_code,
    kind_name,
)
from engine.queens_garden.geometry import printed_space


@action("acquire")
class Acquire:
    """Action A (Q19–Q24): take every hexagon of one colour or pattern from the display, one of each kind."""

    by: Literal["colour", "pattern"]
    value: int  # colour index 0–5 or pattern value 1–6
    tiles: tuple[int, ...] = ()
    expansions: tuple[int, ...] = ()  # face-up display expansions taken


@action("place_tile")
class PlaceTile:
    """Action B (Q25–Q27): plant a storage tile on a free space, paying its value in hexagons."""

    tile: int
    space: str
    pay_tiles: tuple[int, ...] = ()
    pay_expansions: tuple[int, ...] = ()
    jokers: int = 0


@action("place_expansion")
class PlaceExpansion:
    """Action C (i) (Q28): place a storage expansion face up on a free area, paying its printed value."""

    expansion: int
    area: str
    turn: int  # 0–5: its printed hexagon lands on ring cell turn+1 (geometry.printed_space)
    pay_tiles: tuple[int, ...] = ()
    pay_expansions: tuple[int, ...] = ()
    jokers: int = 0


@action("buy_expansion")
class BuyExpansion:
    """Action C (ii) (Q28): pay 6 points for the supply's top expansion and place it blank side up."""

    area: str


@action("pass")
class Pass:
    """Action D (Q29): pass for the round, optionally discarding hexagons from storage at their value."""

    tiles: tuple[int, ...] = ()
    expansions: tuple[int, ...] = ()
    jokers: int = 0  # Q29 [?]: only when data's pass_discards_jokers is true (jokers are worth 0 here)


Action = Acquire | PlaceTile | PlaceExpansion | BuyExpansion | Pass
ACTION_TYPES = (Acquire, PlaceTile, PlaceExpansion, BuyExpansion, Pass)


def describe(action: Action) -> str:
    """One short sentence without the player's name, e.g. "plants a dark green lily (F6) on M3, paying F2"."""
    if isinstance(action, Acquire):
        what = criterion_words(action.by, action.value)
        items = [kind_code(TILE_KIND[t]) for t in action.tiles]
        items += [f"the {kind_code(EXPANSION_KIND[e])} expansion" for e in action.expansions]
        return f"takes all {what} from the display: {', '.join(items)}"
    if isinstance(action, PlaceTile):
        text = f"plants a {kind_name(TILE_KIND[action.tile])} on {action.space}"
        paid = payment_words(action.pay_tiles, action.pay_expansions, action.jokers)
        return f"{text}, paying {paid}" if paid else f"{text} for free"
    if isinstance(action, PlaceExpansion):
        kind = EXPANSION_KIND[action.expansion]
        text = (
            f"places the {kind_name(kind)} expansion in area {action.area}, "
            f"its hexagon on {printed_space(action.area, action.turn)}"
        )
        paid = payment_words(action.pay_tiles, action.pay_expansions, action.jokers)
        return f"{text}, paying {paid}" if paid else f"{text} for free"
    if isinstance(action, BuyExpansion):
        return f"buys a blank expansion for {BLANK_EXPANSION_COST} points and places it in area {action.area}"
    if isinstance(action, Pass):
        items = [kind_code(TILE_KIND[t]) for t in action.tiles]
        items += [f"the {kind_code(EXPANSION_KIND[e])} expansion" for e in action.expansions]
        if action.jokers:
            items.append(f"{action.jokers} joker{'s' if action.jokers > 1 else ''}")
        if not items:
            return "passes"
        loss = sum(TILE_KIND[t][1] for t in action.tiles) + sum(EXPANSION_KIND[e][1] for e in action.expansions)
        return f"passes, discarding {', '.join(items)} (−{loss})"
    return "does something unknown"


def criterion_words(by: str, value: int) -> str:
    """'light blue' or 'lilies': the colour or pattern an Acquire takes."""
    return colour_name(value) if by == "colour" else PATTERN_PLURALS[value]


def payment_words(pay_tiles: Iterable[int], pay_expansions: Iterable[int], jokers: int) -> str:
    parts = [kind_code(TILE_KIND[t]) for t in pay_tiles]
    parts += [f"the {kind_code(EXPANSION_KIND[e])} expansion" for e in pay_expansions]
    if jokers:
        parts.append(f"{jokers} joker{'s' if jokers > 1 else ''}")
    return " + ".join(parts)
