"""Builds Gardens positions for scenario tests through the public interface: a real `new_game`, colours chosen with
real actions, then `dataclasses.replace` to lay out tiles and building values, checked by a JSON round trip."""

from __future__ import annotations

import dataclasses

from engine import get_rules
from engine.gardens import (
    BUILDING_GARDENS,
    BUILDING_NAMES,
    GARDEN_NAMES,
    TILE_IDS,
    TILE_TREES,
    ChooseColours,
    PlaceTile,
    building_scores,
    parse_building,
    parse_garden,
    rotation_facing,
)
from tests.engine.playout import players_for

RULES = get_rules("gardens")
P, G, Y, O = "purple", "green", "yellow", "orange"  # noqa: E741 (the spec's P/G/Y/O)


def started(n: int = 4, colours: list[tuple[str, ...]] | None = None, seed: int = 1, **options) -> object:
    """A new game after every seat chose its colours (default: seat order purple, green, yellow, orange)."""
    two = options.get("two_colours", False)
    state = RULES.new_game(players_for(n), options, seed)
    colours = colours or ([(P, G), (Y, O)] if two else [(k,) for k in (P, G, Y, O)[:n]])
    while state.phase == "colours":
        seat = state.turn
        state = RULES.apply(state, state.players[seat], ChooseColours(colours[seat]))
    return state


def tile_with(trees: int, used: set[str]) -> str:
    """An unused garden tile showing `trees` trees of each kind (any of them: G5 says not to rely on the order)."""
    for t in TILE_IDS:
        if TILE_TREES[t] == trees and t not in used:
            used.add(t)
            return t
    raise AssertionError(f"no {trees}-tree tile left")


def lay_out(state, placed: dict[str, tuple[str, int]], hand: str | None = None, values: dict[str, int] | None = None):
    """`state` with the given tiles on the board, `hand` as the mover's only hand tile, building values swapped in.

    Every other tile stays in the supply or the hands, so the 36-tile count (G2) holds and `from_json` accepts it.
    """
    board = list(state.board)
    for space, (tile, rot) in placed.items():
        board[parse_garden(space)] = (tile, rot)
    used = {t for t, _ in placed.values()} | ({hand} if hand else set())
    pool = [t for h in state.hands for t in h if t not in used] + [t for t in state.supply if t not in used]
    hands = []
    for seat, h in enumerate(state.hands):
        size = len(h)
        if seat == state.turn and hand:
            hands.append((hand,) + tuple(pool[: size - 1]))
            pool = pool[size - 1 :]
        else:
            hands.append(tuple(pool[:size]))
            pool = pool[size:]
    buildings = list(state.buildings)
    for name, value in (values or {}).items():
        b = parse_building(name)
        other = next(i for i, v in enumerate(buildings) if v == value and BUILDING_NAMES[i] not in (values or {}))
        buildings[b], buildings[other] = buildings[other], buildings[b]
    state = dataclasses.replace(
        state, board=tuple(board), hands=tuple(hands), supply=tuple(pool), buildings=tuple(buildings)
    )
    assert RULES.from_json(RULES.to_json(state)) == state
    return state


def around(building: str, tiles: list[tuple[int, str]], *, value: int = 3, n: int = 4, colours=None, **options):
    """A position where the gardens around `building` hold tiles showing `trees→kind` toward it, the last one still
    in the mover's hand; returns (state, the PlaceTile action that completes the building)."""
    state = started(n, colours, **options)
    gardens = BUILDING_GARDENS[parse_building(building)]
    assert len(gardens) == len(tiles), f"{building} has {len(gardens)} gardens"
    used: set[str] = set()
    placed = {}
    for (g, d), (trees, kind) in zip(gardens[:-1], tiles[:-1], strict=True):
        t = tile_with(trees, used)
        placed[GARDEN_NAMES[g]] = (t, rotation_facing(t, kind, d))
    g, d = gardens[-1]
    trees, kind = tiles[-1]
    last = tile_with(trees, used)
    if not placed:  # a corner building: give the tile a neighbour so the placement is legal (G23)
        neighbour = "B1" if building == "a1" else None
        assert neighbour, "only a1 is prepared as a corner"
        placed[neighbour] = (tile_with(1, used), 0)
    state = lay_out(state, placed, last, {building: value})
    return state, PlaceTile(last, GARDEN_NAMES[g], rotation_facing(last, kind, d))


def scoring_of(state, building: str) -> dict:
    """The scoring of the completed `building` as the board gives it (`building_scores`, G26–G31); when the last
    action completed it, its one building event (G32) says the same, with who completed it."""
    data = building_scores(state)[building]
    found = [e.data for e in state.log if e.kind == "building" and e.data["building"] == building]
    assert len(found) <= 1, f"{building} scored {len(found)} times by one action"
    if found:
        assert {k: v for k, v in found[0].items() if k != "completed_by"} == data
    return data


def seat_of(state, kind: str) -> str:
    return next(p for p, ks in zip(state.players, state.colours, strict=True) if kind in ks)
