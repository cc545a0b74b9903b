"""How the move panel groups a game's legal actions: action kinds become buttons, long lists are narrowed by the
action's own fields (the first field that tells the actions apart: the tile, then the position...), then paged.
Works for any game through the engine contract; the game's presenter (`present`) only names things.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from engine._common import to_jsonable
from present import Presenter

PAGE = 25  # Discord: at most 25 options in a select


def kinds(actions: Sequence[Any]) -> list[str]:
    """Action kinds in order of first appearance (the engine's order of usefulness)."""
    seen: dict[str, None] = {}
    for a in actions:
        seen.setdefault(a.kind, None)
    return list(seen)


# --------------------------------------------------------------------------------------------- narrowing


def _field_names(action: Any) -> list[str]:
    return [f.name for f in dataclasses.fields(action)] if dataclasses.is_dataclass(action) else []


def _key(value: Any) -> str:
    return json.dumps(to_jsonable(value), sort_keys=True)


def split(actions: Sequence[tuple[int, Any]], describe, words: Presenter) -> list[tuple[str, list[int]]] | None:
    """Split more than PAGE actions into at most PAGE labelled groups by the first field that tells them apart.

    A group's label is what its actions' descriptions share ("places the Tower (7) at"), or failing that the
    field's value. A position field with too many values ("M13", "SE3", "C4") is split by its column or area
    first. None when no field splits them usefully (the caller pages instead).
    """
    if len(actions) <= PAGE or not actions:
        return None
    by_index = dict(actions)
    for name in _field_names(actions[0][1]):
        groups: dict[str, list[int]] = {}
        for i, a in actions:
            groups.setdefault(_key(getattr(a, name, None)), []).append(i)
        if len(groups) < 2:
            continue
        if len(groups) <= PAGE:
            out = []
            for key, members in groups.items():
                texts = [str(describe(by_index[i])) for i in members]
                label = _common_prefix(texts) if len(texts) > 1 else texts[0]
                if len(label) < 8:
                    label = f"{name.replace('_', ' ')}: {json.loads(key)}"
                out.append((label, members))
            return _counted(_distinct(out, [json.loads(k) for k in groups]))
        positions = _by_position(words, name, actions)
        if positions is not None:
            return _counted(positions)
    return None


def _by_position(
    words: Presenter, field: str, actions: Sequence[tuple[int, Any]]
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
    return [(f"{words.position_word} {g}", members) for g, members in groups.items()]


def _distinct(groups: list[tuple[str, list[int]]], values: list[Any]) -> list[tuple[str, list[int]]]:
    """Tell apart groups whose labels came out the same (two tiles that read alike) by their field value."""
    labels = [label for label, _ in groups]
    return [
        (f"{label} [{value}]" if labels.count(label) > 1 else label, members)
        for (label, members), value in zip(groups, values, strict=True)
    ]


def _counted(groups: list[tuple[str, list[int]]]) -> list[tuple[str, list[int]]]:
    return [(f"{label} … ({len(m)} ways)" if len(m) > 1 else label, m) for label, m in groups]


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
