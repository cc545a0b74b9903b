"""Tournaments' arithmetic: who plays whom each round, and the standings. Pure: no discord, no I/O; the Discord
layer (cogs/tournaments.py) stores a tournament's rounds and hands them here.

The rules, and the choices made where they leave room:

- **Points per game**: a player scores one point for each opponent at the table they finished ahead of, half a
  point for each they tied with (a 2-player game: 1 for a win, ½ for a draw; a 4-player game: 3, 2, 1, 0).
  Places come from the scores; a player who left the tournament (or the game) is placed last at that table.
- **A bye** (no table this round) scores as a win at a full table: `per_table - 1` points, as a Swiss bye does.
- **Standings**: points, then Buchholz (the sum of the final points of every opponent met, once per game met;
  the Swiss tie-break), then the sum of the player's game scores, then the seed (sign-up or rating order).
- **Swiss**: the active players in standing order are split into tables (sizes as equal as possible, at most
  `per_table`; byes only when a table would be smaller than the game allows). Byes go to the lowest-standing
  players who have had the fewest byes, so nobody has a second bye while another has none. The tables minimise,
  in this order, the pairs that met before (no repeat while one can be avoided), then how far apart in the
  standings the players of a table are (the sum over tables of the best rank minus the worst), found by a
  bounded search (`SEARCH_NODES`): exact for the sizes clubs play (8 players in 4s: 35 splits).
- **Round robin**: 2-player tables by the circle method (every pair exactly once, n − 1 rounds; a bye each round
  when n is odd); larger tables round by round with the least repeats until every pair has met.
- **Knockout**: seeded by rating; the bracket puts seeds apart as a tennis draw does (1 and 2 meet only in the
  final); each table's winner goes on, a table with one player left goes on by a bye.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence

FORMATS = ("swiss", "round_robin", "knockout")
SEARCH_NODES = 2_000  # the pairing search's budget (then the best split found so far; run off the event loop)

Pair = frozenset[str]


@dataclasses.dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: its players, and once it is over their game scores (`scores`) and who was placed
    last for leaving (`left`)."""

    players: tuple[str, ...]
    scores: Mapping[str, float] | None = None
    left: tuple[str, ...] = ()

    @property
    def done(self) -> bool:
        return self.scores is not None


@dataclasses.dataclass(frozen=True, slots=True)
class Round:
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Standing:
    player: str
    points: float
    buchholz: float
    score: float
    games: int
    byes: int


def table_points(scores: Mapping[str, float], left: Collection[str] = ()) -> dict[str, float]:
    """Each player's points at one finished table: the opponents they finished ahead of, ½ per tie (leavers last)."""

    def key(p: str) -> tuple[int, float]:
        return (0 if p in left else 1, scores.get(p, 0))

    return {
        p: sum(1.0 if key(p) > key(q) else 0.5 if key(p) == key(q) else 0.0 for q in scores if q != p) for p in scores
    }


def table_winner(table: Table) -> str | None:
    """The table's best placed player who did not leave (ties: the first seated, the better seed); None if none."""
    if table.scores is None:
        return None
    points = table_points(table.scores, table.left)
    stayed = [p for p in table.players if p not in table.left]
    return max(stayed, key=lambda p: points.get(p, 0.0), default=None)


def standings(seeds: Sequence[str], rounds: Iterable[Round], per_table: int) -> list[Standing]:
    """Everyone in `seeds` ranked: points, Buchholz, game score, seed (the module's docstring)."""
    points: dict[str, float] = dict.fromkeys(seeds, 0.0)
    score: dict[str, float] = dict.fromkeys(seeds, 0.0)
    games: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    met: dict[str, list[str]] = {p: [] for p in seeds}
    for rnd in rounds:
        for p in rnd.byes:
            points[p] = points.get(p, 0.0) + per_table - 1
            byes[p] += 1
        for t in rnd.tables:
            if t.scores is None:
                continue
            for p, v in table_points(t.scores, t.left).items():
                points[p] = points.get(p, 0.0) + v
                score[p] = score.get(p, 0.0) + t.scores[p]
                games[p] += 1
                met.setdefault(p, []).extend(q for q in t.players if q != p)
    order = {p: i for i, p in enumerate(seeds)}
    out = [
        Standing(p, points[p], sum(points.get(q, 0.0) for q in met.get(p, ())), score[p], games[p], byes[p])
        for p in seeds
    ]
    out.sort(key=lambda s: (-s.points, -s.buchholz, -s.score, order[s.player]))
    return out


def met_pairs(rounds: Iterable[Round]) -> Counter[Pair]:
    """How often each pair of players sat at one table."""
    out: Counter[Pair] = Counter()
    for rnd in rounds:
        for t in rnd.tables:
            out.update(frozenset(pq) for pq in itertools.combinations(t.players, 2))
    return out


def table_sizes(n: int, per_table: int, least: int) -> tuple[list[int], int]:
    """Table sizes for `n` players (as equal as possible, at most `per_table`, none below `least`) and the
    number of byes that leaves."""
    if n < least:
        return [], n
    count = -(-n // per_table)
    if n // count < least:  # the smallest table would be too small: full tables and byes
        count = n // per_table
        return [per_table] * count, n - count * per_table
    big = n % count
    return [n // count + 1] * big + [n // count] * (count - big), 0


def pick_byes(order: Sequence[str], count: int, had: Mapping[str, int]) -> list[str]:
    """`count` byes for the players in standing `order`: the fewest byes had first, then the lowest standing."""
    bottom_up = list(reversed(order))
    return sorted(bottom_up, key=lambda p: (had.get(p, 0), bottom_up.index(p)))[:count]


def split(order: Sequence[str], sizes: Sequence[int], met: Mapping[Pair, int]) -> list[tuple[str, ...]]:
    """The players in `order` (rank order) split into tables of `sizes`: fewest repeated pairs first, then the
    smallest spread of ranks per table (a bounded branch and bound; `SEARCH_NODES`)."""
    rank = {p: i for i, p in enumerate(order)}
    best: list[tuple[str, ...]] = []
    best_cost = (float("inf"), float("inf"))
    nodes = 0
    sizes = sorted(sizes, reverse=True)

    def repeats(group: Sequence[str]) -> int:
        return sum(1 for pq in itertools.combinations(group, 2) if met.get(frozenset(pq), 0))

    def search(left: list[str], k: int, made: list[tuple[str, ...]], rep: int, spread: int) -> None:
        nonlocal best, best_cost, nodes
        if (rep, spread) >= best_cost:
            return
        if not left:
            best, best_cost = list(made), (rep, spread)
            return
        nodes += 1
        if nodes > SEARCH_NODES and best:
            return
        first, rest = left[0], left[1:]
        size = sizes[k]
        options = sorted(
            itertools.combinations(rest, size - 1),
            key=lambda c: (repeats((first, *c)), rank[c[-1]] if c else 0),
        )
        for combo in options:
            group = (first, *combo)
            r = repeats(group)
            s = rank[group[-1]] - rank[first]
            remaining = [p for p in rest if p not in combo]
            search(remaining, k + 1, [*made, group], rep + r, spread + s)

    search(sorted(order, key=rank.__getitem__), 0, [], 0, 0)
    return best


def swiss_round(
    order: Sequence[str], per_table: int, least: int, met: Mapping[Pair, int], byes_had: Mapping[str, int]
) -> Round:
    """The next Swiss round for the active players in standing `order`."""
    sizes, bye_count = table_sizes(len(order), per_table, least)
    byes = pick_byes(order, bye_count, byes_had)
    playing = [p for p in order if p not in byes]
    return Round(tuple(Table(t) for t in split(playing, sizes, met)), tuple(p for p in order if p in byes))


def round_robin(players: Sequence[str], per_table: int, least: int) -> list[Round]:
    """Every round of a round robin of `players` (see the module's docstring)."""
    if per_table == 2:
        circle: list[str | None] = [*players, *([None] if len(players) % 2 else [])]
        n, out = len(circle), []
        for _r in range(n - 1):
            pairs = [(circle[i], circle[n - 1 - i]) for i in range(n // 2)]
            tables = tuple(Table((a, b)) for a, b in pairs if a is not None and b is not None)
            byes = tuple(a if b is None else b for a, b in pairs if a is None or b is None)
            out.append(Round(tables, tuple(p for p in byes if p is not None)))
            circle = [circle[0], circle[-1], *circle[1:-1]]
        return out
    rounds: list[Round] = []
    want = {frozenset(pq) for pq in itertools.combinations(players, 2)}
    had: Counter[str] = Counter()
    while want - set(met_pairs(rounds)) and len(rounds) < len(players) * 2:
        rnd = swiss_round(players, per_table, least, met_pairs(rounds), had)
        had.update(rnd.byes)
        rounds.append(rnd)
    return rounds


def bracket(seeds: Sequence[str], per_table: int) -> list[str | None]:
    """The first round's slots of a knockout: seeds placed apart (None: a bye), `per_table` slots a table."""
    size, order = 1, [1]
    while size < len(seeds):
        order = [(j * size + s) if j % 2 == 0 else ((j + 1) * size + 1 - s) for s in order for j in range(per_table)]
        size *= per_table
    return [seeds[s - 1] if s <= len(seeds) else None for s in order]


def knockout_rounds(count: int, per_table: int) -> int:
    """How many rounds a knockout of `count` players has."""
    size, rounds = 1, 0
    while size < count:
        size, rounds = size * per_table, rounds + 1
    return rounds


def knockout_round(slots: Sequence[str | None], per_table: int) -> Round:
    """One knockout round over its slots: a table per `per_table` slots (a lone player goes on by a bye)."""
    tables, byes = [], []
    for i in range(0, len(slots), per_table):
        group = tuple(p for p in slots[i : i + per_table] if p is not None)
        if len(group) >= 2:
            tables.append(Table(group))
        elif group:
            byes.append(group[0])
    return Round(tuple(tables), tuple(byes))


def next_slots(slots: Sequence[str | None], rnd: Round, per_table: int) -> list[str | None]:
    """The next round's slots: the winner (or bye) of each `per_table` slots of this round's, in bracket order."""
    winners = {p: table_winner(t) for t in rnd.tables for p in t.players}
    out: list[str | None] = []
    for i in range(0, len(slots), per_table):
        group = [p for p in slots[i : i + per_table] if p is not None]
        if len(group) == 1:
            out.append(group[0] if group[0] in rnd.byes else None)
        else:
            out.append(next((winners[p] for p in group if p in winners), None))
    return out
