"""AI players for every game, and the helpers that mark a seat as an AI.

    from ai import choose, ai_player_id, is_ai, level_of, display_name
    seat = ai_player_id("normal", 1)                 # "ai:normal:1", a player id like any other
    action = choose("gardens", state, seat, level_of(seat), seed=move_number)
    state = rules.apply(state, seat, action)         # the same path a click takes
    action = choose("alhambra", state, claimant, "hard", seed, optional=True)   # may act, need not: None = pass

`choose` looks at `rules.view(state, seat)` only, so handing it the full state is safe: the AI never sees other
hands, the deck or bag order, or the seed. Levels: "easy", "normal", "hard" (see `ai/core.py`). Pure: no discord,
no asyncio, no I/O.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from typing import Any

import engine
from ai.core import DEFAULT_BUDGET, LEVELS, Budget, GameAI, decide
from engine import get_rules

__all__ = [
    "DEFAULT_BUDGET",
    "LEVELS",
    "Budget",
    "GameAI",
    "adapter",
    "available",
    "ai_player_id",
    "choose",
    "display_name",
    "is_ai",
    "level_of",
    "next_ai_player_id",
    "supports",
]

_AI_ID = re.compile(r"ai:(?P<level>[a-z]+):(?P<n>[0-9]+)")


def available(game: str) -> bool:
    """True if `game` has an AI player (its registry entry names an adapter)."""
    return engine.entry(game).ai is not None


def adapter(game: str) -> GameAI:
    """The AI adapter of `game` (determinisation and evaluation). ValueError for an unknown game or one without
    an AI player."""
    name = engine.entry(game).ai
    if name is None:
        raise ValueError(f"There is no AI player for {get_rules(game).title}.")
    found: GameAI = importlib.import_module(name).ADAPTER
    return found


def supports(game: str, options: dict[str, Any] | None = None) -> bool:
    """True if the AI can play `game` with these options: today every game with every option (Alhambra with any
    combination of the Vizier's Favour modules). Kept so the bot asks before it offers AI seats."""
    return True


def choose(
    game: str,
    state: Any,
    seat: str,
    level: str,
    seed: int,
    budget: Budget | int | float | None = None,
    *,
    optional: bool = False,
) -> Any:
    """The action `seat` plays now at `level`, decided from what `seat` may see of `state`.

    `seed` makes the choice reproducible (use e.g. the move number). `budget` only matters for "hard": an int
    counts search iterations (deterministic), a float counts seconds, None is `DEFAULT_BUDGET` (≤ 1.5 s a move).
    ValueError if `seat` is not to move or the level is unknown.

    `optional=True` says the seat MAY act but need not, e.g. an Alhambra vizier claimant out of turn (V4, V7,
    V12: `to_move` lists the current player first, then the claimants). Then "do nothing" is a candidate too:
    the result is None when the AI prefers to let the moment pass (or cannot act at all, e.g. the window has
    closed), else one of `legal_actions`. A seat that must act (Alhambra: the current player, and everyone in
    the placing phases) gets its move as with `optional=False`.
    """
    rules = get_rules(game)
    view = rules.view(state, seat)  # everything below sees only this
    return decide(rules, adapter(game), view, seat, level, seed, budget, optional)


# --------------------------------------------------------------------------------------------- AI seats


def ai_player_id(level: str, n: int) -> str:
    """The player id of AI seat number `n` (1, 2, ...) at `level`: "ai:normal:1"."""
    if level not in LEVELS:
        raise ValueError(f"Unknown AI level '{level}' (levels: {', '.join(LEVELS)}).")
    if n < 1:
        raise ValueError("AI seats are numbered from 1.")
    return f"ai:{level}:{n}"


def next_ai_player_id(level: str, players: Iterable[str]) -> str:
    """A fresh AI id for a game whose seats are `players`: numbers count all AI seats, whatever their level."""
    taken = {int(m["n"]) for p in players if (m := _AI_ID.fullmatch(str(p)))}
    n = 1
    while n in taken:
        n += 1
    return ai_player_id(level, n)


def is_ai(player_id: str) -> bool:
    """True for an AI seat's id ("ai:<level>:<n>" with a known level). Discord ids are digits, never this."""
    m = _AI_ID.fullmatch(str(player_id))
    return m is not None and m["level"] in LEVELS


def level_of(player_id: str) -> str:
    """The level of an AI seat ("easy", "normal", "hard"). ValueError for a human's id."""
    m = _AI_ID.fullmatch(str(player_id))
    if not m or m["level"] not in LEVELS:
        raise ValueError(f"{player_id!r} is not an AI seat.")
    return m["level"]


def display_name(player_id: str) -> str:
    """How the bot names an AI seat: "AI (normal) 1"."""
    m = _AI_ID.fullmatch(str(player_id))
    if not m or m["level"] not in LEVELS:
        raise ValueError(f"{player_id!r} is not an AI seat.")
    return f"AI ({m['level']}) {m['n']}"
