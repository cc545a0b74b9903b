"""The coach: the hard AI's opinion of a position, for a hint to the player to move and for the review of a
finished game. Pure (no discord, no asyncio, no I/O): the bot runs these functions in its AI worker processes.

    options = analyse("alhambra", state, seat, seed, iterations=300)     # best first
    options[0].action == ai.choose("alhambra", state, seat, "hard", seed, budget=300)   # always: one decision
    chunk = review_chunk(game, options, seed, players, moves, start=0, iterations=60)

`analyse` IS the hard AI's decision (`ai.core.decide` with a report of what it weighed), from `rules.view(state,
seat)` alone, at a budget of search *iterations* with the seed it is given: deterministic, so a hint equals what
a hard AI seat plays at that budget and seed, and a review computed twice (after a restart) is the same. (The AI
seats think for a wall-clock second instead; the coach never does.)

Each option's `chance` is the search's estimate for the seat, in [0, 1]: the mean reward of its playouts (a
finished game counts mostly as won or lost, an unfinished one as the evaluation margin squashed to (0, 1)),
read as a chance to win. Moves the search did not look at get `normal`'s opinion, squashed the same way.

A review judges every move of the log from its mover's own view at that moment (the state before the move, seen
as the mover saw it): the best move's chance, the played move's, the loss between them. Whether the mover had
anything hidden from the table then (`secret`) is noted, so that the review shows another player's preferred
move by its kind only, never a choice that would tell what was in their hand.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Sequence
from typing import Any

from ai import adapter
from ai.core import Budget, decide, squash
from engine import get_rules

CLOSE = 0.02  # a move within this much win chance of the best counts as accurate
STEP_SECONDS = 0.2  # CPU one review job may take before it hands the worker back (at least one move)


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    """One move the coach weighed: the action (None: an optional mover lets the moment pass) and its estimate."""

    action: Any
    chance: float
    searched: bool  # the search played it (else: `normal`'s one-move opinion only)


def analyse(game: str, state: Any, seat: str, seed: int, iterations: int, *, optional: bool = False) -> list[Option]:
    """What the hard AI thinks of `seat`'s moves now, best first: the first is the move it plays at this budget
    and seed (its own decision, with the report of it), then every other move it weighed. ValueError if `seat`
    is not to move."""
    rules = get_rules(game)
    view = rules.view(state, seat)  # everything below sees only this
    ai = adapter(game)
    report: dict[str, Any] = {}
    chosen = decide(rules, ai, view, seat, "hard", seed, Budget(iterations=iterations), optional, report)
    ranked: list[tuple[float, Any]] = report.get("ranked") or []
    options: dict[str, Option] = {}
    for a, _visits, mean in report.get("searched", []):
        options[key(rules, a)] = Option(a, mean, True)
    for m, a in ranked:
        options.setdefault(key(rules, a), Option(a, squash(m, ai.margin_scale), False))
    if not options:  # an optional mover who cannot act: doing nothing is all there is
        options[key(rules, chosen)] = Option(chosen, 0.5, False)
    first = options.pop(key(rules, chosen), None) or Option(chosen, 0.5, False)
    return [first, *sorted(options.values(), key=lambda o: (not o.searched, -o.chance))]


def key(rules: Any, action: Any) -> str:
    """An action's stable name (its JSON text; None: letting the moment pass)."""
    return "null" if action is None else json.dumps(rules.action_to_json(action), sort_keys=True)


def secret(rules: Any, state: Any, seat: str) -> bool:
    """True if `seat` sees something now that the table does not (an Alhambra hand): then their moves not
    played may tell it, and a review shows them to others by kind only."""
    return bool(rules.to_json(rules.view(state, seat)) != rules.to_json(rules.view(state, None)))


def seat_options(game: str, state: Any, seat: str) -> tuple[bool, bool]:
    """(may `seat` act now, is it optional for them): the first of `to_move` must act, an out-of-turn mover may."""
    rules = get_rules(game)
    movers = rules.to_move(state)
    return seat in movers, seat in movers and movers[:1] != [seat]


# --------------------------------------------------------------------------------------------- the review


def review_chunk(
    game: str,
    options: dict[str, Any],
    seed: int,
    players: Sequence[str],
    moves: Sequence[tuple[str, dict[str, Any]]],
    start: int,
    iterations: int,
    state_data: dict[str, Any] | None = None,
    step_seconds: float = STEP_SECONDS,
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Judge moves `start`, `start + 1`, ... of a finished game's log (`moves`: (player, action JSON)) until
    `step_seconds` of CPU have passed (at least one move): one entry per move (see `judge`), and the state after
    the last one judged (`rules.to_json`: to go on from without replaying; None at the end). `state_data` is the
    state before move `start` if the caller kept it; else the game is replayed from the deal."""
    rules = get_rules(game)
    if state_data is not None:
        state = rules.from_json(state_data)
    else:
        state = rules.new_game(list(players), options, seed)
        for player, action in moves[:start]:
            state = rules.apply(state, player, rules.action_from_json(action))
    out: list[dict[str, Any]] = []
    began = time.process_time()
    n = start
    while n < len(moves) and (not out or time.process_time() - began < step_seconds):
        player, action_json = moves[n]
        action = rules.action_from_json(action_json)
        out.append(judge(game, state, player, action, seed + n, iterations, number=n + 1))
        state = rules.apply(state, player, action)
        n += 1
    return out, (rules.to_json(state) if n < len(moves) else None)


def judge(
    game: str, state: Any, player: str, action: Any, seed: int, iterations: int, *, number: int
) -> dict[str, Any]:
    """One move of the review: {"n": its number, "p": the mover, "best": the hard AI's move (JSON; None: let the
    moment pass), "chance": its estimate (None for a lone move), "played": the played move's estimate, "loss", "forced" (only one
    move, or a move the coach could not weigh), "secret" (the mover had hidden information)}. The seed is the
    one the AI seats use at that position (the game's seed plus the moves before)."""
    rules = get_rules(game)
    may, optional = seat_options(game, state, player)
    entry: dict[str, Any] = {"n": number, "p": player, "secret": secret(rules, state, player)}
    if not may:  # e.g. a free action outside the turn order: not the AI's kind of decision
        return {**entry, "best": None, "chance": None, "played": None, "loss": 0.0, "forced": True}
    weighed = analyse(game, state, player, seed, iterations, optional=optional)
    by_key = {key(rules, o.action): o for o in weighed}
    mine = by_key.get(key(rules, action))
    best = weighed[0]
    forced = len([o for o in weighed if o.action is not None]) <= 1 or mine is None
    played = mine.chance if mine is not None else best.chance
    weighed_at_all = best.searched or len(weighed) > 1  # a lone move has no estimate worth charting
    return {
        **entry,
        "best": None if best.action is None else rules.action_to_json(best.action),
        "chance": round(best.chance, 4) if weighed_at_all else None,
        "played": round(played, 4),
        "loss": round(max(0.0, best.chance - played), 4),
        "forced": forced,
    }


def summary(entries: Sequence[dict[str, Any]], players: Sequence[str], costly: int = 3) -> dict[str, Any]:
    """Per player: accuracy (the share of their weighed moves within `CLOSE` of the best; None without any), the
    `costly` moves with the largest loss (largest first, earlier first on a tie) and their chance over the game
    ([(move number, chance)] at each of their moves)."""
    out: dict[str, Any] = {}
    for p in players:
        mine = [e for e in entries if e["p"] == p and not e["forced"]]
        close = sum(1 for e in mine if e["loss"] <= CLOSE)
        worst = sorted((e for e in mine if e["loss"] > 0), key=lambda e: (-e["loss"], e["n"]))[:costly]
        out[p] = {
            "accuracy": close / len(mine) if mine else None,
            "moves": len(mine),
            "costly": [e["n"] for e in worst],
            "chances": [(e["n"], e["chance"]) for e in entries if e["p"] == p and e["chance"] is not None],
        }
    return out
