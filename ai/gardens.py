"""The AI's knowledge of The Gardens of the Alhambra: re-dealing hidden tiles and judging a position.

Hidden from a seat (G19): the other players' hand tiles and the supply order. Everything else (the board, the
building values, the scores, which kinds each player owns) is public.

Evaluation: each player's points so far plus, for every building that is started but not complete, a share of
the points it should be worth when it completes (G26–G31): the expected number of owned kinds around it times its
value, shared among the accounts (kinds) by a soft majority of their trees facing it — softer the more gardens
around it are still empty. A building with one empty garden left is a race instead: the players in the order
they move may each complete it with the tile they hold, and the first who can win it does (`_last_garden`): a
move that leaves a building one garden short hands it to the next player more often than not (this took normal
from about 1.1 to 1.6 times the fair share against greedy in 3-player games, bench/ai_arena.py).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections.abc import Sequence
from typing import Any

from ai.core import AnyRules, GameAI
from engine.gardens.actions import PlaceTile
from engine.gardens.components import KIND_INDEX, TILE_IDS, TILE_TREES
from engine.gardens.geometry import BUILDING_GARDENS, FACING, GARDEN_BUILDINGS, GARDEN_INDEX, N_BUILDINGS, Board
from engine.gardens.scoring import building_points
from engine.gardens.state import HIDDEN, PLAY

_BUILDING_SLOTS = tuple(BUILDING_GARDENS[b] for b in range(N_BUILDINGS))
# The soft majority of a building still open (`_share`), tuned by bench/ai_arena.py: the chance that an empty
# garden still brings a kind missing so far is 1 - KIND_DECAY ** empty; the majority's softness (a temperature in
# trees) is TEMP_BASE + TEMP_EMPTY per empty garden.
KIND_DECAY = 0.6
TEMP_BASE = 1.5
TEMP_EMPTY = 2.0


class GardensAI(GameAI):
    game = "gardens"
    margin_scale = 8.0
    root_width = 8
    # Playouts: the opponent's best reply and our answer to it, each chosen like `normal` (all moves compared:
    # the incremental `margins` makes that cheap). Longer random playouts were weaker (bench/ai_arena.py).
    playout_depth = 2
    playout_sample = 0

    def determinise(self, rules: AnyRules, view: Any, seat: str, rnd: random.Random) -> Any:
        """G18/G19: deal the tiles the seat has not seen (36 minus board minus own hand) to hidden places."""
        seen = {cell[0] for cell in view.board if cell is not None}
        seen.update(t for hand in view.hands for t in hand if t != HIDDEN)
        seen.update(t for t in view.supply if t != HIDDEN)
        unseen = [t for t in TILE_IDS if t not in seen]
        rnd.shuffle(unseen)
        deal = iter(unseen)
        hands = tuple(tuple(next(deal) if t == HIDDEN else t for t in hand) for hand in view.hands)
        supply = tuple(next(deal) if t == HIDDEN else t for t in view.supply)
        return dataclasses.replace(view, hands=hands, supply=supply, seed=rnd.getrandbits(48))

    def evaluate(self, rules: AnyRules, state: Any) -> dict[str, float]:
        accounts = _accounts(state)
        value = [float(x) for x in state.kind_scores]
        if state.phase == PLAY and accounts:
            order = _movers(state, state.turn, state.hands)
            for b, counts, empty in _open(state.board):  # the complete ones are in kind_scores (G26, G32)
                for k, v in _share(counts, empty, len(_BUILDING_SLOTS[b]), state.buildings[b], accounts, order):
                    value[k] += v
        return _per_player(state, value)

    def margins(self, rules: AnyRules, state: Any, player: str, actions: Sequence[Any]) -> list[float]:
        """The same numbers as step + evaluate, recomputing only the four buildings a placement touches."""
        accounts = _accounts(state)
        if state.phase != PLAY or not accounts or not all(isinstance(a, PlaceTile) for a in actions):
            return super().margins(rules, state, player, actions)
        board, buildings = state.board, state.buildings
        value = [float(x) for x in state.kind_scores]
        i = state.players.index(player)
        now = _movers(state, i, state.hands)  # before the move: `player` first
        # after it: the next seat moves first; the placed tile leaves the player's hand (a new one is drawn
        # while the supply lasts, so the hand keeps its size until then)
        hands = list(state.hands)
        if not state.supply:
            hands[i] = hands[i][1:]
        then = _movers(state, (i + 1) % len(state.players), tuple(hands))
        before: dict[int, tuple[tuple[int, ...], int, tuple[tuple[int, float], ...]]] = {}
        for b, counts, empty in _open(board):  # the complete ones are in kind_scores; no placement touches them
            shares = _share(counts, empty, len(_BUILDING_SLOTS[b]), buildings[b], accounts, now)
            before[b] = (counts, empty, shares)
            for k, v in shares:
                value[k] += v
        mine = [KIND_INDEX[k] for k in state.colours[state.players.index(player)]]
        others = [
            [KIND_INDEX[k] for k in ks] for p, ks in zip(state.players, state.colours, strict=True) if p != player
        ]
        for b, (counts, empty, _) in before.items():  # the buildings no placement of this move touches change
            if empty == 1 and then != now:  # hands: who may grab their last garden first
                for k, x in before[b][2]:
                    value[k] -= x
                shares = _share(counts, empty, len(_BUILDING_SLOTS[b]), buildings[b], accounts, then)
                before[b] = (counts, empty, shares)
                for k, x in shares:
                    value[k] += x
        single = [ks[0] for ks in others] if len(mine) == 1 and others and all(len(ks) == 1 for ks in others) else []
        out = []
        placed: dict[tuple[int, int, int], tuple[tuple[int, float], ...]] = {}  # (building, kind, trees): shares
        for a in actions:
            g = GARDEN_INDEX[a.space]
            facing = FACING[a.tile][a.rotation]
            trees = TILE_TREES[a.tile]
            vals = value[:]
            for d, b in enumerate(GARDEN_BUILDINGS[g]):
                for k, x in before[b][2]:
                    vals[k] -= x
                kind = facing[d]
                key = (b, kind, trees)
                after = placed.get(key)
                if after is None:
                    counts, empty, _ = before[b]
                    after = placed[key] = _share(
                        (*counts[:kind], counts[kind] + trees, *counts[kind + 1 :]),
                        empty - 1,
                        len(_BUILDING_SLOTS[b]),
                        buildings[b],
                        accounts,
                        then,
                    )
                for k, x in after:
                    vals[k] += x
            if single:  # one kind each (all but G37): no sums needed
                out.append(vals[mine[0]] - max([vals[k] for k in single]))
                continue
            best_other = max((sum(vals[k] for k in ks) for ks in others), default=0.0)
            out.append(sum(vals[k] for k in mine) - best_other)
        return out

    def sensible(self, rules: AnyRules, state: Any, seat: str, actions: list[Any]) -> list[Any]:
        """Easy avoids placements that hand points to an opponent at once (completing a building they win)."""
        i = state.players.index(seat)
        mine = {KIND_INDEX[k] for k in state.colours[i]}
        others = [k for k in range(4) if k not in mine]
        keep = []
        for a in actions:
            after = rules.step(state, seat, a, quiet=True)
            if all(after.kind_scores[k] == state.kind_scores[k] for k in others):
                keep.append(a)
        return keep or actions


def _accounts(state: Any) -> tuple[int, ...]:
    """The owned kinds (G31: only they take part in scoring), as kind indices."""
    return tuple(sorted({KIND_INDEX[k] for kinds in state.colours for k in kinds}))


def _per_player(state: Any, value: list[float]) -> dict[str, float]:
    """G37: a player's value is the sum over their kinds."""
    return {p: sum(value[KIND_INDEX[k]] for k in ks) for p, ks in zip(state.players, state.colours, strict=True)}


@functools.lru_cache(maxsize=1 << 12)
def _open(board: Board) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """(building, `_counts`) of every building not complete yet (cached: a search meets the same board in every
    re-deal of the hands, and again in the moves it compares)."""
    out = []
    for b in range(N_BUILDINGS):
        counts, empty = _counts(board, b)
        if empty:
            out.append((b, tuple(counts), empty))
    return tuple(out)


def _counts(board: Board, b: int) -> tuple[list[int], int]:
    """G28: trees of each kind facing building b, and how many of its gardens are still empty."""
    counts = [0, 0, 0, 0]
    empty = 0
    for g, d in _BUILDING_SLOTS[b]:
        placed = board[g]
        if placed is None:
            empty += 1
        else:
            counts[FACING[placed[0]][placed[1]][d]] += TILE_TREES[placed[0]]
    return counts, empty


def _movers(state: Any, first: int, hands: tuple[tuple[str, ...], ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The players in the order they move from seat `first` on, as (their kinds, tiles in hand), those with a tile
    only (G21, G25): who may complete a building first."""
    n = len(state.players)
    out = []
    for d in range(n):
        s = (first + d) % n
        if hands[s] and state.colours[s]:
            out.append((tuple(KIND_INDEX[k] for k in state.colours[s]), len(hands[s])))
    return tuple(out)


@functools.lru_cache(maxsize=1 << 16)
def _share(
    counts: tuple[int, ...],
    empty: int,
    slots: int,
    value: int,
    accounts: tuple[int, ...],
    order: tuple[tuple[tuple[int, ...], int], ...] = (),
) -> tuple[tuple[int, float], ...]:
    """What building b is worth to each account: ((kind, points), ...) (cached: the same building recurs across
    the moves compared and the re-deals searched).

    Complete (empty == 0): the real scoring (G29–G31); the caller counts it only when it is not yet in
    kind_scores. Untouched: nothing (no kind is ahead). One garden left: whoever moves first (`order`) and can win
    it with the tile they hold takes it (`_last_garden`). Otherwise: the expected points, split by a soft majority.
    """
    if empty == 0:
        winner, _, won = building_points(list(counts), accounts, value)
        return ((winner, float(won)),) if winner is not None else ()
    if empty == slots:
        return ()
    if empty == 1 and order:
        return _last_garden(counts, value, accounts, order)
    present = sum(1 for k in accounts if counts[k] > 0)
    # G30: points = owned kinds present × value; an empty garden may still bring a missing kind
    kinds = present + (len(accounts) - present) * (1.0 - KIND_DECAY**empty)
    points = value * max(kinds, 1.0)
    # G29: the unique majority wins; soft, since each empty garden can still add 1–6 trees of any kind
    temp = TEMP_BASE + TEMP_EMPTY * empty
    weights = [math.exp(counts[k] / temp) for k in accounts]
    total = sum(weights)
    return tuple((k, points * w / total) for k, w in zip(accounts, weights, strict=True))


@functools.lru_cache(maxsize=1 << 14)
def _last_garden(
    counts: tuple[int, ...], value: int, accounts: tuple[int, ...], order: tuple[tuple[tuple[int, ...], int], ...]
) -> tuple[tuple[int, float], ...]:
    """A building with one empty garden (G26): the players in `order` may each complete it in turn; the tile in
    hand (value 1–6, G3, as likely as each other; with several in hand, the best) turned so that their trees face
    it (G13). The first who can win it that way does (G29, G30); whoever cannot leaves it to the next. If nobody
    can, it goes as it stands (someone completes it at last with trees of a kind that changes nothing)."""
    out: dict[int, float] = {}
    left = 1.0
    for kinds, held in order:
        # for each tile value: the best win this player can make (kind, points), if any
        wins = []
        for n in range(1, 7):
            best: tuple[int, int] | None = None
            for k in kinds:
                after = list(counts)
                after[k] += n
                winner, _, won = building_points(after, accounts, value)
                if winner == k and (best is None or won > best[1]):
                    best = (k, won)
            wins.append(best)
        p = sum(1 for w in wins if w is not None) / 6.0
        if p == 0.0:
            continue
        take = 1.0 - (1.0 - p) ** held  # one of the tiles in hand can do it
        for w in wins:
            if w is not None:
                out[w[0]] = out.get(w[0], 0.0) + left * take * w[1] / (6.0 * p)
        left *= 1.0 - take
        if left < 1e-3:
            break
    if left > 0.0:
        winner, _, won = building_points(list(counts), accounts, value)
        if winner is not None:
            out[winner] = out.get(winner, 0.0) + left * won
    return tuple(out.items())


ADAPTER = GardensAI()
