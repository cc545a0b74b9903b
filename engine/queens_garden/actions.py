"""Azul: Queen's Garden actions A–D (Q18): one frozen dataclass per kind, naming tiles and expansions by id, and
`describe`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, Literal

from engine._common import Text, join_texts, native_dataclasses
from engine.queens_garden.components import (
    BLANK_EXPANSION_COST,
    EXPANSION_KIND,
    PATTERN_PLURALS,
    TILE_KIND,
    code_text,
    colour_text,
    kind_text,
)
from engine.queens_garden.geometry import area_text, printed_space, space_text


@dataclass(frozen=True, slots=True, init=False)
class Acquire:
    """Action A (Q19–Q24): take every hexagon of one colour or pattern from the display, one of each kind."""

    kind: ClassVar[str] = "acquire"

    by: Literal["colour", "pattern"]
    value: int  # colour index 0–5 or pattern value 1–6
    tiles: tuple[int, ...] = ()
    expansions: tuple[int, ...] = ()  # face-up display expansions taken

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        by: Literal["colour", "pattern"],
        value: int,
        tiles: tuple[int, ...] = (),
        expansions: tuple[int, ...] = (),
    ) -> None:
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "expansions", expansions)


@dataclass(frozen=True, slots=True, init=False)
class PlaceTile:
    """Action B (Q25–Q27): plant a storage tile on a free space, paying its value in hexagons."""

    kind: ClassVar[str] = "place_tile"

    tile: int
    space: str
    pay_tiles: tuple[int, ...] = ()
    pay_expansions: tuple[int, ...] = ()
    jokers: int = 0

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        tile: int,
        space: str,
        pay_tiles: tuple[int, ...] = (),
        pay_expansions: tuple[int, ...] = (),
        jokers: int = 0,
    ) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "space", space)
        object.__setattr__(self, "pay_tiles", pay_tiles)
        object.__setattr__(self, "pay_expansions", pay_expansions)
        object.__setattr__(self, "jokers", jokers)


@dataclass(frozen=True, slots=True, init=False)
class PlaceExpansion:
    """Action C (i) (Q28): place a storage expansion face up on a free area, paying its printed value."""

    kind: ClassVar[str] = "place_expansion"

    expansion: int
    area: str
    turn: int  # 0–5: its printed hexagon lands on ring cell turn+1 (geometry.printed_space)
    pay_tiles: tuple[int, ...] = ()
    pay_expansions: tuple[int, ...] = ()
    jokers: int = 0

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        expansion: int,
        area: str,
        turn: int,
        pay_tiles: tuple[int, ...] = (),
        pay_expansions: tuple[int, ...] = (),
        jokers: int = 0,
    ) -> None:
        object.__setattr__(self, "expansion", expansion)
        object.__setattr__(self, "area", area)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "pay_tiles", pay_tiles)
        object.__setattr__(self, "pay_expansions", pay_expansions)
        object.__setattr__(self, "jokers", jokers)


@dataclass(frozen=True, slots=True, init=False)
class BuyExpansion:
    """Action C (ii) (Q28): pay 6 points for the supply's top expansion and place it blank side up."""

    kind: ClassVar[str] = "buy_expansion"

    area: str

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        area: str,
    ) -> None:
        object.__setattr__(self, "area", area)


@dataclass(frozen=True, slots=True, init=False)
class Pass:
    """Action D (Q29): pass for the round, optionally discarding hexagons from storage at their value."""

    kind: ClassVar[str] = "pass"

    tiles: tuple[int, ...] = ()
    expansions: tuple[int, ...] = ()
    jokers: int = 0  # Q29 [?]: only when data's pass_discards_jokers is true (jokers are worth 0 here)

    def __init__(  # the fields in order (tests/engine/test_compiled.py): native stores when compiled
        self,
        tiles: tuple[int, ...] = (),
        expansions: tuple[int, ...] = (),
        jokers: int = 0,
    ) -> None:
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "expansions", expansions)
        object.__setattr__(self, "jokers", jokers)


Action = Acquire | PlaceTile | PlaceExpansion | BuyExpansion | Pass
ACTION_TYPES = (Acquire, PlaceTile, PlaceExpansion, BuyExpansion, Pass)


def describe(action: Action) -> Text:
    """One short sentence without the player's name, e.g. "plants a dark green lily (F6) on M3, paying F2"."""
    if isinstance(action, Acquire):
        what = criterion_words(action.by, action.value)
        items = hexagon_items(action.tiles, action.expansions, 0)
        return Text("takes all {what} from the display: {items}", what=what, items=join_texts(items))
    if isinstance(action, PlaceTile):
        kind = kind_text(TILE_KIND[action.tile])
        paid = payment_words(action.pay_tiles, action.pay_expansions, action.jokers)
        if paid is None:
            return Text("plants a {kind} on {space} for free", kind=kind, space=space_text(action.space))
        return Text(
            "plants a {kind} on {space}, paying {payment}", kind=kind, space=space_text(action.space), payment=paid
        )
    if isinstance(action, PlaceExpansion):
        kind = kind_text(EXPANSION_KIND[action.expansion])
        space = printed_space(action.area, action.turn)
        paid = payment_words(action.pay_tiles, action.pay_expansions, action.jokers)
        if paid is None:
            return Text(
                "places the {kind} expansion in area {area}, its hexagon on {space} for free",
                kind=kind,
                area=area_text(action.area),
                space=space_text(space),
            )
        return Text(
            "places the {kind} expansion in area {area}, its hexagon on {space}, paying {payment}",
            kind=kind,
            area=area_text(action.area),
            space=space_text(space),
            payment=paid,
        )
    if isinstance(action, BuyExpansion):
        return Text(
            "buys a blank expansion for {n} point and places it in area {area}",
            "buys a blank expansion for {n} points and places it in area {area}",
            n=BLANK_EXPANSION_COST,
            area=area_text(action.area),
        )
    if isinstance(action, Pass):
        items = hexagon_items(action.tiles, action.expansions, action.jokers)
        if not items:
            return Text("passes")
        loss = sum(TILE_KIND[t][1] for t in action.tiles) + sum(EXPANSION_KIND[e][1] for e in action.expansions)
        return Text("passes, discarding {items} (−{loss})", items=join_texts(items), loss=loss)
    return Text("does something unknown")


def criterion_words(by: str, value: int) -> Text:
    """'light blue' or 'lilies': the colour or pattern an Acquire takes."""
    return colour_text(value) if by == "colour" else Text.marked(PATTERN_PLURALS[value])


def hexagon_items(tiles: Iterable[int], expansions: Iterable[int], jokers: int) -> list[Text | str]:
    """Hexagons by code ("F6", "the B2 expansion", "2 jokers"), for the lists of describe and the refusals."""
    items: list[Text | str] = [code_text(TILE_KIND[t]) for t in tiles]
    items += [Text("the {code} expansion", code=code_text(EXPANSION_KIND[e])) for e in expansions]
    if jokers:
        items.append(Text("{n} joker", "{n} jokers", n=jokers))
    return items


def payment_words(pay_tiles: Iterable[int], pay_expansions: Iterable[int], jokers: int) -> Text | None:
    """A payment in words ("F2 + the B2 expansion + 1 joker"); None for nothing."""
    parts = hexagon_items(pay_tiles, pay_expansions, jokers)
    return join_texts(parts, " + ") if parts else None


native_dataclasses(*ACTION_TYPES)  # compiled, as their sources
