"""Per-player figures of a finished game, and a player's statistics over many. Pure: no discord, no I/O.
Above storage, ai and present in the layers (ARCHITECTURE.md): a game's figures come from its presenter, AI
levels from the AI's seat ids.

A game's end, in three steps:

1. the session knows the final state: `finish(...)` takes each seat's score, whether it won, its AI level, whether
   its player abandoned the game, and the game's own figures (`present/<game>.py`'s `figures`: Alhambra's longest
   wall and points per scoring round, the Gardens' buildings won, Queen's Garden's groups of six and jokers
   earned) into a `Finish`;
2. storage adds what only the move log knows (turn times, the moves a stand-in made) and the players' ratings
   before, inside the transaction of the final move: `settle(finish, moves, current)` gives each seat's
   `SeatRecord` (place, rated or not, rating before and after) to store. Storage never imports this package:
   it runs the `RATER` it was opened with (`open_storage(url, rater=RATER)`), and the records it keeps are
   defined in storage/results.py (re-exported here);
3. /stats reads them back: `GameStats.of(summary, recent)` sums them up.

Turn times are measured as the results post measures them (cogs/_moving.py): from the previous player's move to
the player's own first move after it. A player's median turn time over many games is the median of the
per-game medians (over their latest `RECENT` games of that kind), so /stats never reads every turn ever played.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import statistics
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from records.ratings import SeatResult, places, rate_places
from storage.results import NEW, Finish, Move, Rater, Rating, Recent, SeatFinish, SeatRecord, Summary

__all__ = [  # the stored records (storage/results.py) are re-exported: records/ is where they are computed
    "RATER",
    "Figure",
    "Finish",
    "GameStats",
    "Move",
    "Recent",
    "SeatFinish",
    "SeatRecord",
    "Summary",
    "figures_json",
    "figures_over",
    "finish",
    "finish_of",
    "rebuild",
    "rerate",
    "score_progression",
    "seat_result",
    "settle",
    "turn_times",
]

log = logging.getLogger(__name__)

RECENT = 500  # games of a kind whose per-game figures /stats sums up (the latest)


def seat_result(record: SeatRecord) -> SeatResult:
    """A stored seat's result as the ratings see it (a rebuild rates it again)."""
    return SeatResult(
        record.player,
        record.score,
        record.place == 1,
        record.ai_level,
        record.abandoned,
        record.moves,
        record.standin_moves,
        record.substitute,
    )


def finish(
    seats: Sequence[tuple[str, str]],
    scores: Mapping[str, int],
    winners: Sequence[str],
    *,
    ai_level: Callable[[str], str | None],
    left: Sequence[str] = (),
    figures: Mapping[str, Mapping[str, Any]] | None = None,
    substitutes: Sequence[str] = (),
) -> Finish:
    """The `Finish` of a game whose seats are (player id, name) in order (`substitutes`: the players who took a
    seat over during the game)."""
    figures = figures or {}
    return Finish(
        tuple(
            SeatFinish(
                player=p,
                name=name,
                score=int(scores.get(p, 0)),
                winner=p in winners,
                ai_level=ai_level(p),
                abandoned=p in left,
                figures=dict(figures.get(p, {})),
                substitute=p in substitutes,
            )
            for p, name in seats
        )
    )


def finish_of(game: str, rules: Any, state: Any, seats: Sequence[tuple[str, str]], table: Mapping[str, Any]) -> Finish:
    """The `Finish` of a game's final state (the session, at the final move): scores and winners from the rules,
    AI levels from the seat ids, who abandoned the game from the table's `left` list, and the game's own figures
    from its presenter (`figures(rules, state)` in `present/<game>.py`). A game without figures, or whose figures
    fail, has none: the final move never fails for want of statistics."""
    import ai
    import present

    figures: Mapping[str, Mapping[str, Any]] = {}
    try:
        made = getattr(present.for_game(game), "figures", None)
        figures = made(rules, state) if made is not None else {}
    except Exception:  # statistics are a bonus: the game's end is stored whatever they do
        log.exception("the figures of a finished %s game failed; stored without them", game)
    return finish(
        seats,
        rules.scores(state),
        rules.winners(state),
        ai_level=lambda p: ai.level_of(p) if ai.is_ai(p) else None,
        left=tuple(table.get("left", ())),
        figures=figures,
        substitutes=tuple(table.get("substitutes", {})),
    )


def turn_times(moves: Sequence[Move], seats: Sequence[str]) -> dict[str, list[float]]:
    """Seconds each player took per turn: from the previous player's move to their own first move after it."""
    out: dict[str, list[float]] = {p: [] for p in seats}
    previous: Move | None = None
    for m in moves:
        if previous is not None and m.player != previous.player and m.player in out:
            out[m.player].append(max(0.0, m.at - previous.at))
        previous = m
    return out


def settle(
    finish: Finish, moves: Sequence[Move], current: Mapping[str, Rating], *, rated: bool = True
) -> list[SeatRecord]:
    """Each seat's result to store: its place, its turn times and stand-in share from the move log, and (for the
    seats that are rated) the rating before and after, from the players' `current` ratings. `rated` False: a
    game that rates nobody (outside a server)."""
    players = [s.player for s in finish.seats]
    counts = {p: [0, 0] for p in players}
    for m in moves:
        if m.player in counts:
            counts[m.player][0] += 1
            counts[m.player][1] += int(m.standin)
    results = [
        SeatResult(
            s.player,
            s.score,
            s.winner,
            s.ai_level,
            s.abandoned,
            moves=counts[s.player][0],
            standin_moves=counts[s.player][1],
            substitute=s.substitute,
        )
        for s in finish.seats
    ]
    where = places(results)
    new = rate_places(results, where, current) if rated else {}
    times = turn_times(moves, players)
    out = []
    for n, (s, r, place) in enumerate(zip(finish.seats, results, where, strict=True)):
        t = times.get(s.player, ())
        out.append(
            SeatRecord(
                seat=n,
                player=s.player,
                name=s.name,
                score=s.score,
                place=place,
                ai_level=s.ai_level,
                abandoned=s.abandoned,
                moves=r.moves,
                standin_moves=r.standin_moves,
                rated=s.player in new,
                before=current.get(s.player, NEW) if s.player in new else None,
                after=new.get(s.player),
                turns=len(t),
                turn_seconds=float(sum(t)),
                turn_median=float(statistics.median(t)) if t else None,
                figures=s.figures,
                substitute=s.substitute,
            )
        )
    return out


def rerate(records: Sequence[SeatRecord], current: Mapping[str, Rating]) -> list[SeatRecord]:
    """A stored game's records with its ratings computed again from `current` (a rebuild): the same places and
    the same rated seats, new before/after."""
    new = rate_places([seat_result(r) for r in records], [r.place for r in records], current)
    return [
        dataclasses.replace(
            r,
            rated=r.player in new,
            before=current.get(r.player, NEW) if r.player in new else None,
            after=new.get(r.player),
        )
        for r in records
    ]


def rebuild(games: Sequence[Sequence[SeatRecord]]) -> tuple[dict[str, Rating], list[list[SeatRecord]]]:
    """A server's stored games of one kind, in their stored order, rated again from nothing: the final ratings
    and every game's records with their new before/after."""
    ratings: dict[str, Rating] = {}
    out = []
    for records in games:
        again = rerate(records, ratings)
        ratings.update({r.player: r.after for r in again if r.after is not None})
        out.append(again)
    return ratings, out


RATER = Rater(settle=settle, rebuild=rebuild)  # what storage runs in its transactions (open_storage(rater=RATER))


# --------------------------------------------------------------------------------------------- statistics


@dataclasses.dataclass(frozen=True, slots=True)
class Figure:
    """One of the game's own figures over a player's games: a number's average and best, or a list's average
    per position (e.g. per scoring round)."""

    key: str
    average: float | None = None
    best: float | None = None
    per_round: tuple[float, ...] = ()
    games: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class GameStats:
    """A player's statistics for one kind of game in one server."""

    game: str
    games: int
    wins: int
    average_score: float
    best_score: int
    average_turn: float | None
    median_turn: float | None
    figures: tuple[Figure, ...]
    recent: int  # how many of the latest games the medians and figures cover

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @classmethod
    def of(cls, summary: Summary, recent: Sequence[Recent]) -> GameStats:
        medians = [r.turn_median for r in recent if r.turn_median is not None]
        return cls(
            game=summary.game,
            games=summary.games,
            wins=summary.wins,
            average_score=summary.score_sum / summary.games if summary.games else 0.0,
            best_score=summary.best,
            average_turn=summary.turn_seconds / summary.turns if summary.turns else None,
            median_turn=float(statistics.median(medians)) if medians else None,
            figures=figures_over([r.figures for r in recent]),
            recent=len(recent),
        )


def figures_over(per_game: Sequence[Mapping[str, Any]]) -> tuple[Figure, ...]:
    """The game's own figures summed up over games (keys in the order they first appear): a number gets its
    average and best, a list of numbers its average at each position over the games that reached it."""
    keys: dict[str, None] = {}
    for f in per_game:
        keys.update(dict.fromkeys(f))
    out = []
    for key in keys:
        values = [f[key] for f in per_game if key in f]
        numbers = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        lists = [v for v in values if isinstance(v, list)]
        if lists:
            longest = max(len(v) for v in lists)
            rounds = []
            for i in range(longest):
                at = [float(v[i]) for v in lists if i < len(v) and isinstance(v[i], (int, float))]
                rounds.append(sum(at) / len(at) if at else 0.0)
            out.append(Figure(key, per_round=tuple(rounds), games=len(lists)))
        elif numbers:
            out.append(Figure(key, sum(numbers) / len(numbers), max(numbers), games=len(numbers)))
    return tuple(out)


def figures_json(figures: Mapping[str, Any]) -> str:
    return json.dumps(dict(figures), separators=(",", ":"), sort_keys=True)


# --------------------------------------------------------------------------------------------- progression


def score_progression(
    game: str, options: Mapping[str, Any], seed: int, players: Sequence[str], actions: Sequence[tuple[str, Any]]
) -> list[tuple[int, dict[str, int]]]:
    """Everyone's score after the deal (move 0) and after each stored move that changed a score, as (move number,
    scores), replayed with the game's rules from the move log (player, action JSON); the last move always closes
    it. What the score progression chart draws: only the public scores every post shows."""
    import engine

    rules = engine.get_rules(game)
    state = rules.new_game(list(players), dict(options), seed)
    out = [(0, dict(rules.scores(state)))]
    for n, (player, action) in enumerate(actions, 1):
        state = rules.apply(state, player, rules.action_from_json(action))
        scores = dict(rules.scores(state))
        if scores != out[-1][1] or n == len(actions):
            out.append((n, scores))
    return out
