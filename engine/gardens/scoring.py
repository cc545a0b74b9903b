"""The Gardens of the Alhambra: scoring one completed building (G26–G33).

Pure functions over the board tuple, so the engine, the move preview and the tests share one implementation.
"""

from __future__ import annotations

from engine.gardens.components import TILE_TREES
from engine.gardens.geometry import BUILDING_GARDENS, FACING, Board


def is_complete(board: Board, b: int) -> bool:
    """G26: every garden space touching building b holds a tile (4, 2 or 1 of them, G10)."""
    return all(board[g] is not None for g, _ in BUILDING_GARDENS[b])


def tree_counts(board: Board, b: int) -> list[int]:
    """G28: trees of each kind (KINDS order) facing building b, summed over all its neighbouring tiles."""
    counts = [0, 0, 0, 0]
    for g, d in BUILDING_GARDENS[b]:
        placed = board[g]
        if placed is not None:
            tile, rotation = placed
            counts[FACING[tile][rotation][d]] += TILE_TREES[tile]
    return counts


def majority(counts: list[int], accounts: tuple[int, ...]) -> int | None:
    """G29: the account (kind index) with the highest count that no other account shares; None if none.

    Only owned kinds are accounts (G31). Counts shared by two or more accounts drop out, so the highest
    remaining count wins even when it is 0.
    """
    seen: dict[int, int] = {}
    for k in accounts:
        c = counts[k]
        seen[c] = seen.get(c, 0) + 1
    best = None
    for k in accounts:
        c = counts[k]
        if seen[c] == 1 and (best is None or c > counts[best]):
            best = k
    return best


def building_points(counts: list[int], accounts: tuple[int, ...], value: int) -> tuple[int | None, int, int]:
    """G29–G31: (winning kind index or None, number of owned kinds present, points to the winner)."""
    kinds = sum(1 for k in accounts if counts[k] > 0)  # G31: unowned kinds do not count
    winner = majority(counts, accounts)
    return winner, kinds, (kinds * value if winner is not None else 0)  # G30
