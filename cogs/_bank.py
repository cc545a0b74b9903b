"""A chess clock for async play (no discord): each player's time bank, and their vacation days, per game.

A table's `bank` (`/game create bank:3d+1d`, `/game settings bank:`) is [start, add, most] in hours: every player
starts with `start` hours, their own turns spend it, `add` hours come back after each of their turns, and a bank
never holds more than `most`. The table JSON keeps what is left of each (`banks`: {player: seconds}, a player not
in it has `start`). The turn's deadline is then the moment the bank of the player to move runs out (of several to
move at once, the first to run out), and the deadline flow of cogs/_tempo.py takes it from there (the warning, the
table's decision, the stand-in).

Time is counted exactly on the bot's clock: from the turn's clock start (cogs/_tempo.py `clock_start`) to the
committed move, minus the player's own quiet hours (`/prefs quiet`: a night never spends a bank, as it never
runs a per-move deadline: cogs/_quiet.py `awake_between`). A move an AI made for them (a stand-in) spends nothing
but earns the `add`, so a player whose bank ran out gets a turn's worth of time back for the next.

Vacation days (`vacation: N`, a table setting like the bank: the same for everyone at the table, and automatic):
when a player's deadline (a per-move one or their empty bank) passes, one of their N days is spent before the
table is asked, and their deadline moves a day (of their waking time) on; `vacations` counts the days spent
({player: n}). A player who is back within the day just moves.

The words of all this (the vacation post, `/game settings`, `/game status`) are cogs/_moving.py's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cogs._quiet import awake_between
from storage import Player

BANKS: dict[str, tuple[float, float, float]] = {  # the presets: start, add per turn, most (hours)
    "1d+2h": (24, 2, 48),
    "3d+1d": (72, 24, 168),
    "7d+1d": (168, 24, 336),
}
VACATION_DAYS = (0, 1, 2, 3, 5, 7, 14)
DAY = 86400.0


def bank_of(table: dict[str, Any]) -> tuple[float, float, float] | None:
    bank = table.get("bank")
    return (float(bank[0]), float(bank[1]), float(bank[2])) if bank else None


def left(table: dict[str, Any], player: str) -> float:
    """The seconds left in `player`'s bank (0 without a bank)."""
    bank = bank_of(table)
    if bank is None:
        return 0.0
    return float(table.get("banks", {}).get(player, bank[0] * 3600))


def turn_hours(table: dict[str, Any], humans: Sequence[str]) -> float | None:
    """The hours of clock the turn of `humans` (to move) has: the per-move deadline, or with a bank, what is left
    of the first bank to run out (never quite 0: an empty bank's deadline is due at once)."""
    if bank_of(table) is None or not humans:
        hours = table.get("deadline")
        return float(hours) if hours else None
    return max(min(left(table, p) for p in humans), 1.0) / 3600


def timed(table: dict[str, Any]) -> bool:
    """Whether the table's turns run on a clock (a per-move deadline or a time bank)."""
    return bool(table.get("deadline") or table.get("bank"))


def spend(
    table: dict[str, Any],
    players: dict[str, Player],
    movers: Sequence[str],
    player: str,
    *,
    start: float | None,
    now: float,
    standin: bool,
    turn_over: bool,
) -> dict[str, Any]:
    """The table after a turn action at `now` of `player`: each human who was to move (`movers`, not those the AI
    stood in for) spent the time
    from the clock's `start` outside their quiet hours (but `player` if the AI moved for them: `standin`); the
    player whose turn is over (`turn_over`) earns the table's `add`. Unchanged without a bank."""
    bank = bank_of(table)
    if bank is None or start is None:
        return table
    banks = dict(table.get("banks", {}))
    for p in movers:
        if (p == player and standin) or p not in players:
            continue
        spent = awake_between(start, now, [players[p]])
        banks[p] = max(0.0, left(table, p) - spent)
    if turn_over:
        banks[player] = min(left({**table, "banks": banks}, player) + bank[1] * 3600, bank[2] * 3600)
    return {**table, "banks": {p: round(s, 3) for p, s in banks.items()}}


def vacation_left(table: dict[str, Any], player: str) -> int:
    return max(0, int(table.get("vacation", 0)) - int(table.get("vacations", {}).get(player, 0)))


def take_vacation(table: dict[str, Any], player: str) -> int | None:
    """Spend one of `player`'s vacation days (the table is changed in place): the days left after it, or None
    if they have none left."""
    if vacation_left(table, player) <= 0:
        return None
    used = dict(table.get("vacations", {}))
    used[player] = used.get(player, 0) + 1
    table["vacations"] = used
    return vacation_left(table, player)
