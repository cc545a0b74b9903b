"""How each game reads in words and menus, apart from Discord: the per-game half of the presentation.

    from present import for_game
    words = for_game("alhambra")
    words.kind_label("buy_tile")                       # "Buy a tile"
    words.private_text(rules, state, "111")            # "Your hand: denar (blue) 8+3 = 11 · ..."

A game's module (`present/<game>.py`, named by its registry entry `engine.GameEntry.present`) exposes
`PRESENTER`, a `Presenter` whose defaults suit any game on the engine contract; a game overrides only what reads
better its own way. Pure: no discord, no I/O; it never decides
a rule (what it shows comes from `rules.view`, `legal_actions` and `describe`).
"""

from __future__ import annotations

import importlib
import json
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

import engine
from engine._common import to_jsonable

log = logging.getLogger(__name__)

_POSITION_NAME = re.compile(r"^(?P<group>@-?\d+:|[A-Za-z]+)(?P<rest>-?\d+)$")


class Presenter:
    """The defaults: labels derived from action kinds, a generic private-view text, no previews."""

    kind_labels: Mapping[str, str] = {}
    position_word = "group"  # what the letter part of a position name is called ("column", "area")
    free_actions_label = "Free actions"

    def kind_label(self, kind: str) -> str:
        """A button label for an action kind ("take_money" -> "Take money" unless the game names it)."""
        return self.kind_labels.get(kind) or kind.replace("_", " ").capitalize()

    def position_name(self, field: str, value: Any) -> str | None:
        """The printed name of a position held in an action's `field` ("M13"), or None if it is none."""
        return value if isinstance(value, str) else None

    def position_group(self, field: str, value: Any) -> str | None:
        """The column or area of a position (for narrowing long lists), or None."""
        name = self.position_name(field, value)
        m = _POSITION_NAME.match(name) if isinstance(name, str) else None
        return m["group"].rstrip(":") if m else None

    def preview(self, rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
        """What to draw before a placement is confirmed: (the player's own view after the tentative action, the
        position to mark), or None for actions that place nothing. Never shows what the action would reveal."""
        return None

    def private_text(self, rules: Any, state: Any, player: str) -> str | None:
        """The player's hidden information as a short text (panel header, My hand): what their view shows that
        the public view does not."""
        return _diff_text(to_jsonable(rules.view(state, player)), to_jsonable(rules.view(state, None)))

    def out_of_turn_line(self, who: str, until: str) -> str:
        """The line naming players who may act out of turn now (`until`: " until **Ana** acts" or "")."""
        return f"⏳ {who} may act out of turn{until}."

    def free_panel_lines(self, rules: Any, state: Any, player: str) -> list[str]:
        """The top of the free-actions panel."""
        return ["🔒 **Actions you may take at any time**, whoever is to move:"]


def _diff_text(mine: Any, public: Any) -> str | None:
    """The parts of the player's view that the public view lacks, as `path: value` lines."""
    lines: list[str] = []

    def walk(a: Any, b: Any, where: str) -> None:
        if a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for k in a:
                walk(a[k], b.get(k), f"{where}.{k}" if where else str(k))
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and a and isinstance(a[0], (dict, list)):
            for n, (x, y) in enumerate(zip(a, b, strict=True)):
                walk(x, y, f"{where}[{n}]")
        else:
            lines.append(f"{where}: {json.dumps(a)}")

    walk(mine, public, "")
    return "\n".join(lines)[:900] or None


def for_game(game: str) -> Presenter:
    """The presenter of `game` (its registry entry's `present` module), or the defaults for a game without one."""
    name = engine.entry(game).present
    return importlib.import_module(name).PRESENTER if name else DEFAULT


DEFAULT = Presenter()


def names(items: Sequence[str]) -> str:
    return ", ".join(items) or "none"
