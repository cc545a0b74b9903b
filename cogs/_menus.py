"""How the move panel groups and names a game's legal actions, and how a player's private view reads as text.

Everything here works for any game through the engine contract: action kinds become buttons, actions are
labelled with `rules.describe`, long lists are narrowed by the action's own fields (the first field that tells
the actions apart: the tile, then the position...), then paged. The few per-game touches (nicer names for the
action kinds, the hand as text) sit in small tables keyed by game name and never decide a rule.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from typing import Any

from engine._common import to_jsonable

PAGE = 25  # Discord: at most 25 options in a select

# Button labels for action kinds, per game; anything missing is derived from the kind ("take_money" ->
# "Take money").
KIND_LABELS: dict[str, dict[str, str]] = {
    "alhambra": {
        "take_money": "Take money",
        "buy_tile": "Buy a tile",
        "redesign_add": "Redesign: add",
        "redesign_remove": "Redesign: remove",
        "redesign_swap": "Redesign: swap",
        "pass": "End turn",
        "place_tile": "Place a tile",
        "reserve_tile": "To reserve",
        "give_to_dirk": "Give to Dirk",
        "vizier_buy": "Vizier: buy out of turn",
        "reactivate_vizier": "Reactivate vizier",
        "take_hut": "Take a hut",
    },
    "gardens": {"choose_colours": "Choose colours", "place_tile": "Place a tile"},
    "queens_garden": {"pass": "Pass", "place_tile": "Place a tile", "buy_expansion": "Buy expansion"},
}


def kind_label(game: str, kind: str) -> str:
    return KIND_LABELS.get(game, {}).get(kind) or kind.replace("_", " ").capitalize()


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


def split(actions: Sequence[tuple[int, Any]], describe, game: str = "") -> list[tuple[str, list[int]]] | None:
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
                texts = [describe(by_index[i]) for i in members]
                label = _common_prefix(texts) if len(texts) > 1 else texts[0]
                if len(label) < 8:
                    label = f"{name.replace('_', ' ')}: {json.loads(key)}"
                out.append((label, members))
            return _counted(_distinct(out, [json.loads(k) for k in groups]))
        positions = _by_position(game, name, actions)
        if positions is not None:
            return _counted(positions)
    return None


# Position fields: how to name a value ("M13") and what the letter part of a name is called.
_POSITION_WORD = {"alhambra": "column", "gardens": "column", "queens_garden": "area"}
_POSITION_NAME = re.compile(r"^(?P<group>@-?\d+:|[A-Za-z]+)(?P<rest>-?\d+)$")


def _position_namer(game: str, field: str):
    if game == "alhambra" and field == "cell":
        from engine.alhambra.components import cell_name

        return cell_name
    return lambda v: v if isinstance(v, str) else None


def _by_position(game: str, field: str, actions: Sequence[tuple[int, Any]]) -> list[tuple[str, list[int]]] | None:
    """Group actions by the column (or area) of a position field, when its values are position names."""
    try:
        namer = _position_namer(game, field)
    except Exception:
        return None
    groups: dict[str, list[int]] = {}
    for i, a in actions:
        name = namer(getattr(a, field))
        m = _POSITION_NAME.match(name) if isinstance(name, str) else None
        if m is None:
            return None
        groups.setdefault(m["group"].rstrip(":"), []).append(i)
    if not 2 <= len(groups) <= PAGE:
        return None
    word = _POSITION_WORD.get(game, "group")
    return [(f"{word} {g}", members) for g, members in groups.items()]


def _distinct(groups: list[tuple[str, list[int]]], values: list[Any]) -> list[tuple[str, list[int]]]:
    """Tell apart groups whose labels came out the same (two tiles that read alike) by their field value."""
    labels = [label for label, _ in groups]
    return [(f"{label} [{value}]" if labels.count(label) > 1 else label, members)
            for (label, members), value in zip(groups, values, strict=True)]


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


def fit(text: str, limit: int = 100) -> str:
    """`text` within a Discord label limit, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def option_texts(text: str) -> tuple[str, str | None]:
    """A select option's label (<= 100) and, when the text is longer, the rest as its description (<= 100)."""
    if len(text) <= 100:
        return text, None
    cut = text.rfind(" ", 0, 99)
    cut = cut if cut > 60 else 99
    return text[:cut].rstrip() + "…", fit("…" + text[cut:].strip(), 100)


# --------------------------------------------------------------------------------------------- previews


def preview(game: str, rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
    """What to draw before a placement is confirmed: (the player's own view after the tentative action,
    the position to mark), or None for actions that place nothing.

    Only the player's own board is drawn (render's `focus`), and the view never shows what the action would
    reveal: a placement that ends the Alhambra turn refills the market (not in the focus image); a Gardens
    placement draws a new hand tile, so the hand shown is the current one without the placed tile.
    """
    maker = _PREVIEWS.get(game)
    if maker is None:
        return None
    try:
        return maker(rules, state, player, action)
    except Exception:  # a preview is a nicety: never block the move because of it
        return None


def _alhambra_preview(rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
    if action.kind in ("place_tile", "redesign_add"):
        spot = action.cell
    elif action.kind == "redesign_swap":
        spot = next(c for c, t in state.seat(player).alhambra.items() if t == action.replaces)
    else:
        return None
    return rules.view(rules.apply(state, player, action), player), spot


def _gardens_preview(rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
    if action.kind != "place_tile":
        return None
    after = rules.view(rules.apply(state, player, action), player)
    i = state.players.index(player)
    hand = list(state.hands[i])
    hand.remove(action.tile)  # the replacement tile stays secret until the move is made
    hands = tuple(tuple(hand) if n == i else h for n, h in enumerate(after.hands))
    return dataclasses.replace(after, hands=hands), action.space


def _queens_garden_preview(rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
    if action.kind == "place_tile":
        spot = action.space
    elif action.kind in ("place_expansion", "buy_expansion"):
        spot = action.area
    else:
        return None
    return rules.view(rules.apply(state, player, action), player), spot


_PREVIEWS = {"alhambra": _alhambra_preview, "gardens": _gardens_preview, "queens_garden": _queens_garden_preview}


# --------------------------------------------------------------------------------------------- private view


def private_text(game: str, rules: Any, state: Any, player: str) -> str | None:
    """The player's hidden information as a short text (for the ephemeral panel and the My hand reply)."""
    try:
        mine = rules.view(state, player)
        public = rules.view(state, None)
        special = _PRIVATE_TEXT.get(game)
        if special is not None:
            return special(mine, player)
        return _diff_text(to_jsonable(mine), to_jsonable(public))
    except Exception:  # a text nicety must never break the panel
        return None


def _diff_text(mine: Any, public: Any, path: str = "") -> str | None:
    """The parts of the player's view that the public view lacks (generic fallback)."""
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

    walk(mine, public, path)
    return "\n".join(lines)[:900] or None


def _alhambra_hand(view: Any, player: str) -> str | None:
    from engine.alhambra.components import CURRENCIES, CURRENCY_COLORS, card_key, card_name, is_money

    seat = view.seat(player)
    hand = seat.hand
    extra = _alhambra_modules(view, seat)
    if not hand:
        return "Your hand is empty." + extra
    by_currency: dict[int, list[int]] = {}
    others = [card_name(c) for c in hand if not is_money(c)]  # exchange cards (V40) are no money
    for card in (c for c in hand if is_money(c)):
        currency, value = card_key(card)
        by_currency.setdefault(currency, []).append(value)
    parts = []
    for currency, values in sorted(by_currency.items()):
        name = CURRENCIES[currency]
        parts.append(f"{name} ({CURRENCY_COLORS[name]}) {'+'.join(str(v) for v in sorted(values, reverse=True))}"
                     f" = **{sum(values)}**")
    parts += others
    return "Your hand: " + " · ".join(parts) + extra


def _alhambra_modules(view: Any, seat: Any) -> str:
    """The Vizier's Favour bits of the player's position: vizier side, huts taken, unplayed bonus cards."""
    from engine.alhambra.components import tile_name
    from engine.alhambra.state import OVER

    options = getattr(view, "options", {}) or {}
    bits = []
    if options.get("vizier"):
        bits.append("vizier " + ("active" if seat.vizier else "inactive (reactivate it as an action, V8)"))
    if options.get("huts"):
        bits.append(f"huts taken {seat.huts_taken}/3")
    if options.get("bonus"):
        held = ", ".join(tile_name(t) for t in seat.bonus_hand) or "none"
        over = getattr(view, "phase", None) == OVER
        bits.append(f"bonus cards: {held}" + ("" if over or not seat.bonus_hand else " (**Bonus cards** button)"))
    return ("\n" + " · ".join(bits)) if bits else ""


def _gardens_hand(view: Any, player: str) -> str | None:
    hand = view.hands[view.players.index(player)]
    if not hand:
        return None
    try:
        from engine.gardens.board import tile_label
    except Exception:
        tile_label = str
    return "Your hand: " + ", ".join(tile_label(t) for t in hand)


_PRIVATE_TEXT = {"alhambra": _alhambra_hand, "gardens": _gardens_hand}
