"""Azul: Queen's Garden in words and menus: action names and the placement preview (nothing is hidden)."""

from __future__ import annotations

from typing import Any

from i18n import ENGLISH, N_, Words
from present import Presenter


class QueensGardenPresenter(Presenter):
    kind_labels = {"pass": N_("Pass"), "place_tile": N_("Place a tile"), "buy_expansion": N_("Buy expansion")}

    def group_label(self, group: str, _: Words = ENGLISH) -> str:
        # i18n: an area of the player's garden (the letters of spaces like NW0), in the menu narrowing long lists
        return _("area {name}", name=group)

    def preview(self, rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
        if action.kind == "place_tile":
            spot = action.space
        elif action.kind in ("place_expansion", "buy_expansion"):
            spot = action.area
        else:
            return None
        return rules.view(rules.apply(state, player, action), player), spot


PRESENTER = QueensGardenPresenter()
