"""Quiet hours, the arithmetic (no discord): a player's night in their own time zone, and a clock that waits over it.

A player's `quiet` is "HH:MM-HH:MM" in their IANA `timezone` (storage.Player; `/prefs quiet:22-08
timezone:Europe/Budapest`). Inside it nobody pings, reminds or DMs them, and the clock of their turn does not run:
`awake_after(start, seconds, players)` is the moment at which `seconds` of time outside everyone's quiet hours
have passed since `start`, so a deadline or a reminder never falls in a player's night. Each night is placed by
its local times (zoneinfo with tzdata), so a night across a daylight-saving change is an hour longer or shorter.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta
from datetime import time as clock_time

from cogs._seating import GameError
from engine import Text
from storage import Player

MAX_QUIET_HOURS = 16  # a longer night would leave too little of the day for a turn
_SPEC = re.compile(r"(?P<h1>[0-9]{1,2})(?::(?P<m1>[0-9]{2}))?\s*-\s*(?P<h2>[0-9]{1,2})(?::(?P<m2>[0-9]{2}))?")
_WEEK = 7 * 86400.0


@functools.cache
def zone_names() -> tuple[str, ...]:
    """Every IANA zone name tzdata knows, sorted (read once)."""
    return tuple(sorted(z for z in zoneinfo.available_timezones() if "/" in z or z == "UTC"))


def zone_matches(typed: str, limit: int = 25) -> list[str]:
    """The zone names for an autocomplete: those starting with what was typed, then those containing it."""
    typed = typed.strip().lower().replace(" ", "_")
    names = zone_names()
    first = [z for z in names if z.lower().startswith(typed)]
    more = [z for z in names if typed in z.lower() and z not in first] if typed else []
    return (first + more)[:limit]


def parse_zone(text: str) -> str:
    """An IANA zone name as tzdata spells it ("europe/budapest" -> "Europe/Budapest"); GameError if unknown."""
    wanted = text.strip().replace(" ", "_")
    for name in zone_names():
        if name.lower() == wanted.lower():
            return name
    # i18n: /prefs timezone: an unknown zone; the example zone names are not translated
    raise GameError(Text("I don't know the time zone `{zone}`: pick one from the list as you type (like `Europe/Budapest`).", zone=text[:60]))  # fmt: skip


def parse_quiet(text: str) -> str:
    """`22-08`, `22:30-7`, `23:00-07:30`: the quiet hours as "HH:MM-HH:MM"; GameError if it is not a span."""
    m = _SPEC.fullmatch(text.strip())
    h1, m1, h2, m2 = (int(m[k] or 0) for k in ("h1", "m1", "h2", "m2")) if m else (99, 0, 0, 0)
    if h1 == 24:
        h1 = 0
    if h2 == 24:
        h2 = 0
    if not m or h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
        # i18n: /prefs quiet: how to write quiet hours ("off" as the user types it)
        raise GameError(Text("Write your quiet hours like `22-08` or `22:30-07:00` (from-to, in your own time), or `off`."))  # fmt: skip
    start, end = h1 * 60 + m1, h2 * 60 + m2
    length = (end - start) % 1440
    if length == 0 or length > MAX_QUIET_HOURS * 60:
        raise GameError(
            Text("Quiet hours last from a minute up to {n} hours.", "Quiet hours last from a minute up to {n} hours.", n=MAX_QUIET_HOURS)
        )  # fmt: skip
    return f"{h1:02}:{m1:02}-{h2:02}:{m2:02}"


def _rule(player: Player) -> tuple[int, int, zoneinfo.ZoneInfo] | None:
    if not player.quiet:
        return None
    start, end = player.quiet.split("-")
    minutes = [int(x.split(":")[0]) * 60 + int(x.split(":")[1]) for x in (start, end)]
    try:
        tz = zoneinfo.ZoneInfo(player.timezone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        tz = zoneinfo.ZoneInfo("UTC")
    return minutes[0], minutes[1], tz


def _at(day: date, minutes: int, tz: zoneinfo.ZoneInfo) -> float:
    return datetime.combine(day, clock_time(minutes // 60, minutes % 60), tz).timestamp()


def _spans(rule: tuple[int, int, zoneinfo.ZoneInfo], lo: float, hi: float) -> list[tuple[float, float]]:
    """The player's quiet spans (UTC seconds) that begin between a day before `lo` and a day after `hi`."""
    start, end, tz = rule
    first = datetime.fromtimestamp(lo, tz).date() - timedelta(days=1)
    last = datetime.fromtimestamp(hi, tz).date() + timedelta(days=1)
    out = []
    day = first
    while day <= last:
        out.append((_at(day, start, tz), _at(day + timedelta(days=1 if end <= start else 0), end, tz)))
        day += timedelta(days=1)
    return out


def _merged(spans: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def quiet_until(player: Player, now: float) -> float | None:
    """The end of the quiet span `player` is in at `now` (None: they are not in their quiet hours)."""
    rule = _rule(player)
    if rule is None:
        return None
    for s, e in _spans(rule, now, now):
        if s <= now < e:
            return e
    return None


def awake_after(start: float, seconds: float, players: Sequence[Player]) -> float:
    """When `seconds` of time in which none of `players` is in their quiet hours have passed since `start` (the
    clock waits over every night). Never inside anyone's quiet hours; with nobody quiet, `start + seconds`."""
    rules = [r for r in map(_rule, players) if r is not None]
    if not rules or seconds <= 0:
        return start + max(seconds, 0.0)
    t, left, lo = start, seconds, start
    for _ in range(8):  # eight weeks: more is a table whose nights cover the whole day between them
        hi = lo + _WEEK
        for s, e in _merged(span for r in rules for span in _spans(r, lo, hi)):
            if e <= t:
                continue
            if s > t:
                if left < s - t:
                    return t + left
                left -= s - t
            t = max(t, e)
        if t < hi:
            if left < hi - t:
                return t + left
            left -= hi - t
            t = hi
        lo = hi
    return start + seconds  # the nights of the players to move leave no day: the clock runs as without them


def local_time(player: Player, at: float) -> str:
    """`at` as HH:MM in the player's own time zone ("08:00")."""
    rule = _rule(player)
    tz = rule[2] if rule is not None else zoneinfo.ZoneInfo("UTC")
    return datetime.fromtimestamp(at, tz).strftime("%H:%M")


def awake_between(start: float, end: float, players: Sequence[Player]) -> float:
    """The seconds from `start` to `end` outside every quiet span of `players` (what a time bank spends: the
    inverse of `awake_after`)."""
    if end <= start:
        return 0.0
    rules = [r for r in map(_rule, players) if r is not None]
    night = 0.0
    for s, e in _merged(span for r in rules for span in _spans(r, start, end)):
        night += max(0.0, min(e, end) - max(s, start))
    return end - start - night
