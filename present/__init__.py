"""How each game reads in words and menus, apart from Discord: the per-game half of the presentation.

    from present import for_game
    words = for_game("alhambra")
    words.kind_label("buy_tile")                       # "Buy a tile"
    words.kind_label("buy_tile", _=i18n.words("de"))   # the same in German
    words.private_text(rules, state, "111", _=_)       # "Your hand: denar (blue) 8+3 = 11 · ..."

A game's module (`present/<game>.py`, named by its registry entry `engine.GameEntry.present`) exposes
`PRESENTER`, a `Presenter` whose defaults suit any game on the engine contract; a game overrides only what reads
better its own way. Every text is in the reader's language: a method that words something takes the reader's
`Words` as `_` (English by default); titles and labels are `Text`s or `N_`-marked constants, shown with
`_.text(...)`. Pure: no discord, no I/O; it never decides a rule (what it shows comes from `rules.view`,
`legal_actions` and `describe`).
"""

from __future__ import annotations

import importlib
import json
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

import engine
from engine import Text
from engine._common import to_jsonable
from i18n import ENGLISH, N_, Words

log = logging.getLogger(__name__)

_POSITION_NAME = re.compile(r"^(?P<group>@-?\d+:|[A-Za-z]+)(?P<rest>-?\d+)$")


class Presenter:
    """The defaults: labels derived from action kinds, a generic private-view text, no previews."""

    kind_labels: Mapping[str, str] = {}  # N_-marked button labels of action kinds
    option_labels: Mapping[str, str] = {}  # N_-marked short names of the game's options (the lobby's line)
    free_actions_label = N_("Free actions")  # the free-actions button (shown with `_.text`)

    # the game's own figures in /stats (records/figures.py): key -> N_-marked label; the values come from `figures`
    figure_labels: Mapping[str, str] = {}

    def figures(self, rules: Any, state: Any) -> dict[str, dict[str, Any]]:
        """Per player, the game's own figures at the end of a finished game, as plain JSON (a number, or a list
        of numbers per scoring round), stored with the results: /stats sums them up over a player's games.
        Only what the final public position shows. Default: none."""
        return {}

    def kind_label(self, kind: str, _: Words = ENGLISH) -> str:
        """A button label for an action kind ("take_money" -> "Take money" unless the game names it)."""
        label = self.kind_labels.get(kind)
        return _.text(label) if label else kind.replace("_", " ").capitalize()

    def option_label(self, name: str, _: Words = ENGLISH) -> str:
        """An option's short name in the reader's language ("three_tile_hand" -> "three tile hand" unless the game
        names it)."""
        label = self.option_labels.get(name)
        return _.text(label) if label else name.replace("_", " ")

    def group_label(self, group: str, _: Words = ENGLISH) -> str:
        """A menu label for the column or area `group` of positions (for narrowing long lists)."""
        return _("group {name}", name=group)

    def position_name(self, field: str, value: Any) -> str | None:
        """The printed name of a position held in an action's `field` ("M13"), or None if it is none."""
        return value if isinstance(value, str) else None

    def value_name(self, field: str, value: Any, _: Words = ENGLISH) -> str:
        """An action's field value in words, to tell apart menu groups that read alike ("M13", a tile's name)."""
        return self.position_name(field, value) or str(value)

    def position_group(self, field: str, value: Any) -> str | None:
        """The column or area of a position (for narrowing long lists), or None."""
        name = self.position_name(field, value)
        m = _POSITION_NAME.match(name) if isinstance(name, str) else None
        return m["group"].rstrip(":") if m else None

    def preview(self, rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
        """What to draw before a placement is confirmed: (the player's own view after the tentative action, the
        position to mark), or None for actions that place nothing. Never shows what the action would reveal."""
        return None

    def private_text(self, rules: Any, state: Any, player: str, _: Words = ENGLISH) -> str | None:
        """The player's hidden information as a short text (panel header, My hand): what their view shows that
        the public view does not (the generic version: the differing parts of the views, as data)."""
        return _diff_text(to_jsonable(rules.view(state, player)), to_jsonable(rules.view(state, None)))

    def out_of_turn_line(self, who: str, *, n: int = 1, _: Words = ENGLISH, main: str | None = None) -> str:
        """The line naming the `n` players (`who`, a list of names) who may act out of turn now, until `main` (the
        player whose turn it is, named) acts. The verb agrees with `n` in the catalogs (a plural entry)."""
        if main:
            return _(
                "⏳ {who} may act out of turn until {main} acts.",
                "⏳ {who} may act out of turn until {main} acts.",
                n=n,
                who=who,
                main=main,
            )
        return _("⏳ {who} may act out of turn.", "⏳ {who} may act out of turn.", n=n, who=who)

    def free_panel_lines(self, rules: Any, state: Any, player: str, _: Words = ENGLISH) -> list[str]:
        """The top of the free-actions panel."""
        return [_("🔒 **Actions you may take at any time**, whoever is to move:")]


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


def title(game: str) -> Text:
    """The title of `game` (the rules' own, a marked constant) as a Text: to show with `_.text`, or to put in
    another `Text` as a field."""
    name = engine.get_rules(game).title
    return name if isinstance(name, Text) else Text.marked(name)


def names(items: Sequence[Any], _: Words = ENGLISH) -> str:
    """Names (Texts or plain) in a list, in `_`'s language: "Tower (13), Garden (8)", or "none"."""
    return ", ".join(_.text(i) if isinstance(i, Text) else str(i) for i in items) or _("none")
