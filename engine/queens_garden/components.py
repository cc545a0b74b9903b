"""Azul: Queen's Garden components and tunable values, loaded once from data/.

Counts come from `data/azul_qg_components.json`; every value the spec marks [S]/[?]/[1] comes from
`data/queens_garden_values.json` (the `VALUES` table below), so a correction never touches the rules.

Ids used everywhere in the engine:
- a **tile** is an int 0–107; an **expansion** an int 0–35 (its printed code is `expansion_code(e)`, e.g. "E07");
- a **kind** (RB: a "hexagon") is a pair (colour index 0–5, pattern value 1–6);
- a **colour** is shown by name and a one-letter code (`COLOURS`): the two greens and two purples are never told
  apart by hue alone. A hexagon's short code is letter + value, e.g. "F6" = dark green lily.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine._common import N_, Text, join_texts, load_data, require_data

_COMPONENTS = load_data("azul_qg_components.json")
_VALUES = load_data("queens_garden_values.json")


@dataclass(frozen=True, slots=True)
class Colour:
    """One of the six colours: data key, the name shown to players (a marked constant: `_.text(c.name)`), and the
    letter used in codes and images."""

    key: str
    name: str
    letter: str


# Q2: names in words always; letters chosen so no two colours share one and none clashes with a space name
# (spaces use M and the compass letters N, E, S, W; see geometry.py).
_COLOUR_TEXT = {
    # i18n: a colour's letter in Queen's Garden codes ("Y5"): unique among the colours, none an area's letters
    "yellow": (N_("yellow"), N_("Y", context="queens_garden")),
    "light_blue": (N_("light blue"), N_("B", context="queens_garden")),
    "light_green": (N_("light green"), N_("G", context="queens_garden")),
    "dark_green": (N_("dark green"), N_("F", context="queens_garden")),  # F for "forest"
    "light_purple": (N_("light purple"), N_("L", context="queens_garden")),  # L for "lilac"
    "dark_purple": (N_("dark purple"), N_("P", context="queens_garden")),
}
COLOURS: tuple[Colour, ...] = tuple(Colour(k, *_COLOUR_TEXT[k]) for k in _COMPONENTS["colours"])
COLOUR_INDEX: dict[str, int] = {c.key: i for i, c in enumerate(COLOURS)}
LETTER_INDEX: dict[str, int] = {c.letter: i for i, c in enumerate(COLOURS)}

# Q3: pattern value = cost = points; the value is the key. Names as players read them (marked constants, shown
# with `_.text`): one hexagon's pattern, and the pattern as a category ("takes all lilies").
PATTERNS: dict[int, str] = {
    1: N_("tree"),
    2: N_("bird"),
    3: N_("butterfly"),
    4: N_("flower"),
    5: N_("plant"),
    6: N_("lily"),
}
PATTERN_PLURALS: dict[int, str] = {
    1: N_("trees"),
    2: N_("birds"),
    3: N_("butterflies"),
    4: N_("flowers"),
    5: N_("plants"),
    6: N_("lilies"),
}
require_data({s["value"]: s["name"] for s in _COMPONENTS["symbols"]} == PATTERNS, "Q3: the six patterns")

Kind = tuple[int, int]  # (colour index, pattern value)

# Q1: 108 tiles, ids in the data file's order.
TILE_KIND: tuple[Kind, ...] = tuple(
    (COLOUR_INDEX[item["colour"]], item["symbol_value"])
    for item in _COMPONENTS["plant_tiles"]["items"]
    for _ in range(item["copies"])
)
N_TILES = len(TILE_KIND)
require_data(_COMPONENTS["plant_tiles"]["total"] == N_TILES, "Q1: the plant tiles do not add up to their total")

# Q5: 36 expansions, one per kind.
_EXPANSIONS = _COMPONENTS["garden_expansions"]["items"]
EXPANSION_KIND: tuple[Kind, ...] = tuple(
    (COLOUR_INDEX[e["printed_colour"]], e["printed_symbol_value"]) for e in _EXPANSIONS
)
EXPANSION_CODE: tuple[str, ...] = tuple(e["id"] for e in _EXPANSIONS)
N_EXPANSIONS = len(EXPANSION_KIND)

START_JOKERS: int = _COMPONENTS["jokers"]["starting_per_player"]  # Q10
START_SCORE: int = _COMPONENTS["start_score"]  # Q11
ROUNDS: int = _COMPONENTS["rounds"]  # Q17
TILES_PER_FILL: int = _COMPONENTS["display"]["tiles_per_expansion_fill"]  # Q16, Q22
STACK_SIZE: dict[int, int] = {int(k): v for k, v in _COMPONENTS["round_stack_size_by_players"].items() if k.isdigit()}
STORAGE_TILES: int = _COMPONENTS["storage"]["tile_capacity"]  # Q8
STORAGE_EXPANSIONS: int = _COMPONENTS["storage"]["expansion_capacity"]  # Q8
BLANK_EXPANSION_COST: int = _COMPONENTS["blank_expansion_cost_points"]  # Q28 ii
FIRST_PASS_PENALTY: int = _COMPONENTS["first_player_marker_penalty"]["value"]  # Q29
PAVILION_POINTS: int = _COMPONENTS["round_scoring"]["pavilion_points_each"]  # Q33
GROUP_MIN: int = _COMPONENTS["final_scoring"]["group_min_size"]  # Q35
GROUP_FULL: int = _COMPONENTS["final_scoring"]["complete_group_size"]  # Q35
GROUP_FULL_BONUS: int = _COMPONENTS["final_scoring"]["complete_group_bonus"]  # Q35
JOKER_END_POINTS: int = _COMPONENTS["final_scoring"]["joker_left"]  # Q35


# ------------------------------------------------------------------------------ provisional values (Q32, Q30, ...)

VALUES: dict[str, dict[str, Any]] = _VALUES["values"]


def value(name: str) -> Any:
    return VALUES[name]["value"]


Criterion = tuple[str, int]  # ("colour", colour index) or ("pattern", value)


def _criterion(text: str) -> Criterion:
    what, _, key = text.partition(":")
    if what == "colour":
        return ("colour", COLOUR_INDEX[key])
    if what == "pattern" and int(key) in PATTERNS:
        return ("pattern", int(key))
    raise ValueError(f"bad wheel criterion {text!r} in queens_garden_values.json")


WHEEL: dict[int, tuple[Criterion, ...]] = {int(r): tuple(_criterion(c) for c in cs) for r, cs in value("wheel").items()}
COLOUR_POINTS: int = value("colour_points")
PATTERN_POINTS_MODE: str = value("pattern_points_mode")
PATTERN_POINTS_BY_ROUND: dict[int, int] = {int(r): p for r, p in value("pattern_points_by_round").items()}
JOKER_REWARD: dict[str, int] = dict(value("joker_reward"))
# Q6, Q30, Q39: the garden elements' names as players read them (the data's words stay the ids)
ELEMENT_NAMES: dict[str, str] = {
    "fountain": N_("fountain"),
    "statue": N_("statue"),
    "bench": N_("bench"),
    "pavilion": N_("pavilion", context="queens_garden"),
}
require_data(set(JOKER_REWARD) <= set(ELEMENT_NAMES), "Q30: jokers are for fountains, statues, benches, pavilions")
ADJACENCY: str = value("adjacency")
PASS_DISCARDS_JOKERS: bool = value("pass_discards_jokers")
RETURN_TO_BOTTOM: bool = value("returned_expansions_go_to") == "bottom"
START_PLAYER: str = value("start_player")
require_data(START_PLAYER in ("random", "first_seat"), "Q15: start_player is random or first_seat")
require_data(set(WHEEL) == set(range(1, ROUNDS + 1)), "Q32: the wheel needs one face per round")
require_data(PATTERN_POINTS_MODE in ("per_round", "value"), "Q32: pattern_points_mode is per_round or value")
require_data(ADJACENCY in ("any", "all"), "Q26: adjacency is any or all")


def criterion_points(criterion: Criterion, pattern: int, round_no: int) -> int:
    """Q32: points one hexagon of pattern `pattern` earns for matching `criterion` in round `round_no`."""
    if criterion[0] == "colour":
        return COLOUR_POINTS
    return pattern if PATTERN_POINTS_MODE == "value" else PATTERN_POINTS_BY_ROUND[round_no]


def provisional() -> list[dict[str, Any]]:
    """The values not confirmed by the rulebook, for the /rules summary and the renderer's footnotes."""
    return [dict(v, name=k) for k, v in VALUES.items() if v.get("status") != "ok"]


# ------------------------------------------------------------------------------ words


def colour_name(c: int) -> str:
    """A colour's name in English (a marked constant: translate it with `_.text`)."""
    return COLOURS[c].name


def colour_text(c: int) -> Text:
    """A colour's name as a Text: 'dark green'."""
    return Text.marked(COLOURS[c].name)


def element_text(element: str) -> Text | str:
    """A garden element's name as a Text: 'statue' (an unknown word stays as it is)."""
    name = ELEMENT_NAMES.get(element)
    return Text.marked(name) if name is not None else element


def kind_code(kind: Kind) -> str:
    """'F6' for a dark green lily: colour letter + pattern value (the images use the same code)."""
    return f"{COLOURS[kind[0]].letter}{kind[1]}"


def code_text(kind: Kind) -> Text:
    """The code 'F6' as a Text: the colour's letter in the reader's language (a marked constant), then the value."""
    return join_texts([Text.marked(COLOURS[kind[0]].letter), kind[1]], "")


def kind_text(kind: Kind) -> Text:
    """'dark green lily (F6)'."""
    return Text(
        "{colour} {pattern} ({code})",
        colour=Text.marked(COLOURS[kind[0]].name),
        pattern=Text.marked(PATTERNS[kind[1]]),
        code=code_text(kind),
    )


def kind_name(kind: Kind) -> str:
    """`kind_text` in English (for the presentation until it translates `kind_text`)."""
    return str(kind_text(kind))


def kind_texts(kinds: list[Kind]) -> Text:
    """'dark green lily (F6), yellow tree (Y1)'."""
    return join_texts([kind_text(k) for k in kinds])


def criterion_name(criterion: Criterion) -> Text:
    """What a wheel face scores: 'dark green' or 'lilies (6)'."""
    what, key = criterion
    if what == "colour":
        return colour_text(key)
    return Text("{patterns} ({value})", patterns=Text.marked(PATTERN_PLURALS[key]), value=key)


def expansion_code(e: int) -> str:
    return EXPANSION_CODE[e]
