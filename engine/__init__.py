"""The rules of every game, behind one interface (see docs/ENGINE_CONTRACT.md and README.md).

    from engine import GAMES, get_rules, IllegalAction
    rules = get_rules("alhambra")
    state = rules.new_game(["111", "222"], options={}, seed=42)

Pure Python: no discord, no asyncio, no I/O at move time. Each game lives in its own package
(`engine/alhambra`, `engine/gardens`, `engine/queens_garden`) exposing `RULES`, with one skeleton: `state.py`
(frozen dataclasses), `actions.py` (the action classes, `describe`), `rules.py` (the `Rules` subclass: the
contract facade), `scoring.py`, `components.py` (data tables), `geometry.py` (the board), and `migrate.py`
(states stored under an older `json_version`); a rules file too long to read splits into plain functions of the
state (`setup`, `listing`, `check`, `turn`, `summary`). Modules are imported by their own names
(`from engine.alhambra import geometry`) or their names imported from them, never under an alias.

A state holds the position and nothing of its history: `state.log` is exactly the events of the last action
(after `new_game`: the deal's), and what renderers or AIs need across actions lives in bounded fields of its
own (see `Rules` and `Event` in `engine/_common.py`). The moves table replays a game.

No language either: everything a player reads is a `Text` (words as data, `engine/_text.py`): every refusal
(`check`'s answer, `IllegalAction.text`, the ValueErrors of `new_game`), `describe`, every event's text, the
summary and the options' descriptions; the presentation translates them (`i18n.words(lang).text(t)`), `str(t)`
is the English. Names kept in tables (building types, colours, currencies) are plain strings marked `N_(...)`
for the catalogs, shown with `_.text(name)`, and go inside a Text as `Text.marked(name)`.
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from engine._build import BUILD
from engine._common import N_, Event, IllegalAction, MalformedAction, Option, Rules, Text, join_texts

__all__ = [
    "BUILD",
    "GAMES",
    "Event",
    "GameEntry",
    "IllegalAction",
    "MalformedAction",
    "N_",
    "Option",
    "Rules",
    "Text",
    "entry",
    "get_rules",
    "register",
    "join_texts",
    "unregister",
]


@dataclasses.dataclass(frozen=True, slots=True)
class GameEntry:
    """Where everything of one game lives, by module name (plain data: the engine imports only `rules`).

    `rules` exposes RULES (the engine); `render` exposes draw(...) (render/); `ai` exposes ADAPTER (ai/);
    `present` exposes PRESENTER (present/: its words and menus). A layer without the game's module uses its
    defaults (a placeholder image, no AI seats, generic words)."""

    name: str
    rules: str
    render: str | None = None
    ai: str | None = None
    present: str | None = None


_ENTRIES: dict[str, GameEntry] = {}
_RULES: dict[str, Any] = {}  # each game's RULES once imported (get_rules is on every request's path)
GAMES: tuple[str, ...] = ()  # the registered games, in order of registration


def register(game: GameEntry) -> None:
    """Add a game (a fourth game is new files plus one `register` call; tests register their own)."""
    global GAMES
    _ENTRIES[game.name] = game
    _RULES.pop(game.name, None)
    GAMES = tuple(_ENTRIES)


def unregister(name: str) -> None:
    global GAMES
    _ENTRIES.pop(name, None)
    _RULES.pop(name, None)
    GAMES = tuple(_ENTRIES)


def entry(game: str) -> GameEntry:
    """The registry entry of `game`. ValueError for an unknown game."""
    found = _ENTRIES.get(game)
    if found is None:
        raise ValueError(f"Unknown game '{game}'. Games: {', '.join(GAMES)}.")
    return found


def get_rules(game: str) -> Rules[Any, Any]:
    """The rules object of `game` (one of GAMES). ValueError for an unknown game."""
    rules: Rules[Any, Any] | None = _RULES.get(game)
    if rules is None:
        rules = _RULES[game] = importlib.import_module(entry(game).rules).RULES
    return rules


for _name in ("alhambra", "gardens", "queens_garden"):
    register(
        GameEntry(
            _name, rules=f"engine.{_name}", render=f"render.{_name}", ai=f"ai.{_name}", present=f"present.{_name}"
        )
    )
