"""How the move panel groups a game's legal actions: action kinds become buttons, long lists are narrowed by the
action's own fields (the first field that tells the actions apart: the tile, then the position...), then paged.
Works for any game through the engine contract; the game's presenter (`present`) only names things. Labels are
in the reader's language (`_`): `describe` gives the actions' words in it, so the groups' shared words are too.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from typing import Any

from engine._common import to_jsonable
from i18n import ENGLISH, Words
from present import Presenter

PAGE = 25  # Discord: at most 25 options in a select


def kinds(actions: Sequence[Any]) -> list[str]:
    """Action kinds in order of first appearance (the engine's order of usefulness)."""
    seen: dict[str, None] = {}
    for a in actions:
        seen.setdefault(a.kind, None)
    return list(seen)


BESIDE = 15  # at most this many other kinds as buttons beside a menu (rows 2–4 of the panel)


def lead(actions: Sequence[Any], kinds: Sequence[str]) -> int | None:
    """The kind the panel opens on, by its index in `kinds`, or None to open on the list of kinds.

    A kind with several moves is a choice (its menu); a kind with one move is a move of its own (its button goes
    straight to Confirm). The panel opens on a kind's menu when that kind is the only choice: the lone kind, or
    the only kind with several moves while every other kind is a single move; those other kinds are buttons
    beside the menu, so nothing takes a click more than from the list. When two kinds or more are choices, or
    none is, the player sees the list of kinds, every one a button, as before.
    """
    if len(kinds) == 1:
        return 0
    counts = dict.fromkeys(kinds, 0)
    for a in actions:
        counts[a.kind] += 1
    choices = [k for k, kind in enumerate(kinds) if counts[kind] > 1]
    return choices[0] if len(choices) == 1 and len(kinds) - 1 <= BESIDE else None


def parse_kpath(arg: str) -> tuple[int, int, str]:
    """The panel's "k.page.path..." (a kind, a page of its menu, the groups chosen: "0.1.3.0") -> (k, page,
    path); the numbers are bounded by the panel that uses them."""
    parts = arg.split(".")
    k = int(parts[0]) if parts and parts[0].isdigit() else 0
    page = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    return k, page, ".".join(parts[2:])


# --------------------------------------------------------------------------------------------- narrowing


def _field_names(action: Any) -> list[str]:
    return [f.name for f in dataclasses.fields(action)] if dataclasses.is_dataclass(action) else []


def _key(value: Any) -> str:
    return json.dumps(to_jsonable(value), sort_keys=True)


def split(
    actions: Sequence[tuple[int, Any]], describe: Callable[[Any], str], words: Presenter, _: Words = ENGLISH
) -> list[tuple[str, list[int]]] | None:
    """`groups`, each label with its count ("places the Tower (7) at … (5 ways)"): the options of the menu."""
    found = groups(actions, describe, words, _)
    return None if found is None else [(counted(label, len(m), _), m) for label, m in found]


def counted(label: str, n: int, _: Words = ENGLISH) -> str:
    """A group's label with how many moves it holds (when more than one)."""
    return _("{label} … ({n} way)", "{label} … ({n} ways)", label=label, n=n) if n > 1 else label


def groups(
    actions: Sequence[tuple[int, Any]], describe: Callable[[Any], str], words: Presenter, _: Words = ENGLISH
) -> list[tuple[str, list[int]]] | None:
    """Split more than PAGE actions into at most PAGE labelled groups by the first field that tells them apart.

    A group's label is what its actions' descriptions (`describe`: words in the reader's language) share
    ("places the Tower (7) at"), or failing that the field's value. A position field with too many values
    ("M13", "SE3", "C4") is split by its column or area first. None when no field splits them usefully (the
    caller pages instead).
    """
    if len(actions) <= PAGE or not actions:
        return None
    by_index = dict(actions)
    for name in _field_names(actions[0][1]):
        by_value: dict[str, list[int]] = {}
        for i, a in actions:
            by_value.setdefault(_key(getattr(a, name, None)), []).append(i)
        if len(by_value) < 2:
            continue
        if len(by_value) <= PAGE:
            out = []
            for key, members in by_value.items():
                texts = [str(describe(by_index[i])) for i in members]
                label = _common_prefix(texts) if len(texts) > 1 else texts[0]
                if len(label) < 8:  # nothing shared worth reading: the value itself (data, not words)
                    label = f"{name.replace('_', ' ')}: {json.loads(key)}"
                out.append((label, members))
            sample = [getattr(by_index[members[0]], name, None) for members in by_value.values()]
            return _distinct(out, [words.value_name(name, v, _) for v in sample])
        positions = _by_position(words, name, actions, _)
        if positions is not None:
            return positions
    return None


def _by_position(
    words: Presenter, field: str, actions: Sequence[tuple[int, Any]], _: Words = ENGLISH
) -> list[tuple[str, list[int]]] | None:
    """Group actions by the column (or area) of a position field, when its values are position names."""
    groups: dict[str, list[int]] = {}
    for i, a in actions:
        group = words.position_group(field, getattr(a, field))
        if group is None:
            return None
        groups.setdefault(group, []).append(i)
    if not 2 <= len(groups) <= PAGE:
        return None
    return [(words.group_label(g, _), members) for g, members in groups.items()]


def _distinct(groups: list[tuple[str, list[int]]], values: list[Any]) -> list[tuple[str, list[int]]]:
    """Tell apart groups whose labels came out the same (two tiles that read alike) by their field value (as
    the presenter names it)."""
    labels = [label for label, _ in groups]
    return [
        (f"{label} [{value}]" if labels.count(label) > 1 else label, members)
        for (label, members), value in zip(groups, values, strict=True)
    ]


def _common_prefix(texts: Sequence[str]) -> str:
    first, last = min(texts), max(texts)
    n = 0
    while n < len(first) and n < len(last) and first[n] == last[n]:
        n += 1
    prefix = first[:n]
    if n < len(first):  # cut back to a whole word
        prefix = prefix[: prefix.rfind(" ")] if " " in prefix else prefix
    words = prefix.rstrip(" ,:;(").split()
    while words and words[-1].lower() in _CONNECTORS:  # "…at B2 turned" reads better as "…at B2"
        words.pop()
    return " ".join(words)


_CONNECTORS = {"at", "to", "with", "for", "from", "in", "on", "and", "turned", "by", "the", "a", "of", "into"}
