"""Who sits at a table, in the words every part of the service shares (no discord): seat names, AI seats, the
positions of a game by name (`Position`, the key of every cache), who stays and who left, and `GameError`, a
refusal whose words (a `Text`) are shown to the user in their language. The table's operations are the
`Seating` part (cogs/_seats.py).
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import ai
import engine
from engine import Text
from i18n import ENGLISH, N_, Words
from storage import GameRow

is_ai = ai.is_ai  # AI seats have ids like "ai:normal:1"; human seats are Discord user ids (digits)
LEVEL_NAME = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}  # the AI levels, shown with `_.text`


def seat_name(seat_id: str, name: str, _: Words = ENGLISH) -> str:
    """A seat's name as players read it: the name it was seated with, or for an AI seat that the bot named
    ("AI (normal) 1"), that name in `_`'s language."""
    if is_ai(seat_id) and name == ai.display_name(seat_id):
        level = _.text(LEVEL_NAME.get(ai.level_of(seat_id), ai.level_of(seat_id)))
        # i18n: an AI player's name: its level ("normal") and its number at the table
        return _("AI ({level}) {number}", level=level, number=seat_id.rpartition(":")[2])
    return name


def ai_available(game: str, options: dict[str, Any] | None = None) -> bool:
    """True if there is an AI player for `game` with these options (the test game of tests/bot has none)."""
    return ai.available(game) and ai.supports(game, options)


class Position(NamedTuple):
    """A position of a game by name, for every cache of what is drawn or derived from it: the game, how many
    undos its history went through (`undos_of`), and the move number in that history. An undo counts itself in
    the same transaction that takes the moves back, so a move number it frees names a new position under a new
    key: no cache can serve the board of a position that was taken back."""

    game_id: int
    undos: int
    version: int


def undos_of(row: GameRow) -> int:
    """How many undos the game's history went through (kept in its table, written with each undo)."""
    return int(row.table.get("undos", 0))


def position(row: GameRow, version: int | None = None) -> Position:
    """The position after move `version` (default: the stored one) of the game's history as `row` has it."""
    return Position(row.id, undos_of(row), row.version if version is None else version)


def encode(rules: engine.Rules[Any, Any], state: Any) -> str:
    """A state as the database stores it: compact JSON."""
    return json.dumps(rules.to_json(state), separators=(",", ":"))


class GameError(Exception):
    """Something the user did that we refuse, shown to them (ephemeral) in their language: the message is a
    `Text` (words as data, translated where it is answered: `_.text(exc.text)`) or a plain string shown as is;
    str() is the English (logs)."""

    def __init__(self, message: Text | str = ""):
        super().__init__(str(message))
        self.text: Text | str = message


def staying(row: GameRow) -> list[str]:
    """The human seats that still play themselves: not AI seats, nor those who left the game (the `left` list)."""
    return [s.id for s in row.seats if not is_ai(s.id) and s.id not in row.table.get("left", ())]


def still_in(row: GameRow, player: str) -> GameRow:
    """`row`, unless `player` left this game for good (cogs/_leaving.py): then a GameError saying so."""
    if player in row.table.get("left", ()):
        raise GameError(Text("You left this game: the AI plays your seat to the end."))
    return row


def reason(exc: Exception) -> Text | str:
    """An engine's or a parser's refusal as words to show: its `Text` when it carries one, else its message."""
    text = getattr(exc, "text", None) or (exc.args[0] if exc.args else None)
    return text if isinstance(text, Text) else str(exc)
