"""Azul: Queen's Garden in words and menus: action names and the placement preview (nothing is hidden)."""

from __future__ import annotations

from typing import Any

from engine.queens_garden.geometry import area_text, space_text
from i18n import ENGLISH, N_, Words
from present import Presenter


class QueensGardenPresenter(Presenter):
    kind_labels = {  # Q19–Q29: actions A to D
        "acquire": N_("Acquire"),
        "place_tile": N_("Place a tile", context="queens_garden"),
        "place_expansion": N_("Place expansion"),
        "buy_expansion": N_("Buy expansion"),
        "pass": N_("Pass"),
    }

    def group_label(self, group: str, _: Words = ENGLISH) -> str:
        # i18n: an area of the player's garden (the letters of spaces like NW0), in the menu narrowing long lists
        return _("area {name}", name=_.text(area_text(group)))

    def value_name(self, field: str, value: Any, _: Words = ENGLISH) -> str:
        if field == "space" and isinstance(value, str):  # in the reader's letters, as the texts name it
            return _.text(space_text(value))
        if field == "area" and isinstance(value, str):
            return _.text(area_text(value))
        return super().value_name(field, value, _)

    def preview(self, rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
        if action.kind == "place_tile":
            spot = action.space
        elif action.kind in ("place_expansion", "buy_expansion"):
            spot = action.area
        else:
            return None
        return rules.view(rules.apply(state, player, action), player), spot

    figure_labels = {
        "groups_of_six": N_("Groups of six"),
        "jokers_earned": N_("Jokers earned"),
        "round_points": N_("Points per scoring round", context="queens_garden"),
    }

    def figures(self, rules: Any, state: Any) -> dict[str, dict[str, Any]]:
        """Per player: the complete groups of six in their garden (Q35's bonus), the jokers won by surrounding
        garden elements (Q30; those lost to a full storage included) and what each round's scoring gave
        (Q31–Q33)."""
        from engine.queens_garden.components import JOKER_REWARD
        from engine.queens_garden.geometry import elements
        from engine.queens_garden.scoring import scored_groups

        out = {}
        for p, seat in zip(state.players, state.seats, strict=True):
            found = elements(seat)
            out[p] = {
                "groups_of_six": sum(1 for kind in scored_groups(seat) for g in kind if g["bonus"]),
                "jokers_earned": sum(JOKER_REWARD.get(found.get(space, ""), 0) for space in seat.rewarded),
                "round_points": list(seat.round_points),
            }
        return out


PRESENTER = QueensGardenPresenter()
