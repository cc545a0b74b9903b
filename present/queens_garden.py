"""Azul: Queen's Garden in words and menus: action names and the placement preview (nothing is hidden)."""

from __future__ import annotations

from typing import Any

from present import Presenter


class QueensGardenPresenter(Presenter):
    kind_labels = {"pass": "Pass", "place_tile": "Place a tile", "buy_expansion": "Buy expansion"}
    position_word = "area"

    def preview(self, rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
        if action.kind == "place_tile":
            spot = action.space
        elif action.kind in ("place_expansion", "buy_expansion"):
            spot = action.area
        else:
            return None
        return rules.view(rules.apply(state, player, action), player), spot


PRESENTER = QueensGardenPresenter()
