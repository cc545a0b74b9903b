"""Alhambra in words and menus: action names, cell names, the hand by currency, the Vizier's Favour bits."""

from __future__ import annotations

from typing import Any

from engine.alhambra import components
from engine.alhambra.actions import AUTOPLAY_TEXT
from engine.alhambra.state import OVER
from present import Presenter, names


class AlhambraPresenter(Presenter):
    kind_labels = {
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
    }
    position_word = "column"
    free_actions_label = "Bonus cards"

    def position_name(self, field: str, value: Any) -> str | None:
        if field == "cell" and isinstance(value, tuple):
            return components.cell_name(value)
        return super().position_name(field, value)

    def preview(self, rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
        if action.kind in ("place_tile", "redesign_add"):
            spot = action.cell
        elif action.kind == "redesign_swap":
            spot = next(c for c, t in state.seat(player).alhambra.items() if t == action.replaces)
        else:
            return None
        # the focus image shows the player's own board only: the market refill at turn end is not in it
        return rules.view(rules.apply(state, player, action), player), spot

    def private_text(self, rules: Any, state: Any, player: str) -> str | None:
        view = rules.view(state, player)
        seat = view.seat(player)
        extra = _modules(rules, view, seat)
        if not seat.hand:
            return "Your hand is empty." + extra
        by_currency: dict[int, list[int]] = {}
        others = [components.card_name(c) for c in seat.hand if not components.is_money(c)]  # V40: no money
        for card in (c for c in seat.hand if components.is_money(c)):
            currency, value = components.card_key(card)
            by_currency.setdefault(currency, []).append(value)
        parts = []
        for currency, values in sorted(by_currency.items()):
            name = components.CURRENCIES[currency]
            parts.append(
                f"{name} ({components.CURRENCY_COLORS[name]}) "
                f"{'+'.join(str(v) for v in sorted(values, reverse=True))} = **{sum(values)}**"
            )
        return "Your hand: " + " · ".join([*parts, *others]) + extra

    def out_of_turn_line(self, who: str, until: str) -> str:
        return f"🧞 Vizier: {who} may buy out of turn{until}."  # V4/V12

    def free_panel_lines(self, rules: Any, state: Any, player: str) -> list[str]:
        seat = state.seat(player)
        return [
            "🔒 **Your bonus cards** (a played card counts as one more building of its type, V62):",
            f"In hand: {names([components.tile_name(t) for t in seat.bonus_hand])} · played: "
            f"{names([components.tile_name(t) for t in seat.bonus_played])}.",
            f"They play themselves {AUTOPLAY_TEXT.get(seat.bonus_auto, seat.bonus_auto)} (V66).",
        ]


def _modules(rules: Any, view: Any, seat: Any) -> str:
    """The Vizier's Favour bits of the player's position: vizier side, huts taken, unplayed bonus cards."""
    options = getattr(view, "options", {}) or {}
    bits = []
    if options.get("vizier"):
        bits.append("vizier " + ("active" if seat.vizier else "inactive (reactivate it as an action, V8)"))
    if options.get("huts"):
        bits.append(f"huts taken {seat.huts_taken}/{rules.limits['huts_taken']}")  # V25
    if options.get("bonus"):
        held = names([components.tile_name(t) for t in seat.bonus_hand])
        over = getattr(view, "phase", None) == OVER
        bits.append(f"bonus cards: {held}" + ("" if over or not seat.bonus_hand else " (**Bonus cards** button)"))
    return ("\n" + " · ".join(bits)) if bits else ""


PRESENTER = AlhambraPresenter()
