"""The Gardens of the Alhambra in words and menus: action names, the hand tiles, the placement preview."""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.gardens.components import tile_text
from i18n import ENGLISH, N_, Words
from present import Presenter


class GardensPresenter(Presenter):
    kind_labels = {"choose_colours": N_("Choose colours"), "place_tile": N_("Place a tile", context="gardens")}
    option_labels = {"three_tile_hand": N_("Hand of three tiles"), "two_colours": N_("Two tree kinds each")}  # G36, G37

    def group_label(self, group: str, _: Words = ENGLISH) -> str:
        # i18n: a column of the garden grid (the letter of spaces like C4), in the menu narrowing long lists
        return _("column {name}", name=group)

    def preview(self, rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
        if action.kind != "place_tile":
            return None
        after = rules.view(rules.apply(state, player, action), player)
        i = state.players.index(player)
        hand = list(state.hands[i])
        hand.remove(action.tile)  # the replacement tile stays secret until the move is made
        hands = tuple(tuple(hand) if n == i else h for n, h in enumerate(after.hands))
        return dataclasses.replace(after, hands=hands), action.space

    def private_text(self, rules: Any, state: Any, player: str, _: Words = ENGLISH) -> str | None:
        view = rules.view(state, player)
        hand = view.hands[view.players.index(player)]
        if not hand:
            return None
        return _("Your hand: {cards}", cards=", ".join(_.text(tile_text(t)) for t in hand))

    figure_labels = {"buildings_won": N_("Buildings won")}

    def figures(self, rules: Any, state: Any) -> dict[str, dict[str, Any]]:
        """Per player: the buildings whose scoring they won (G29–G32)."""
        from engine.gardens.rules import breakdown

        return {p: {"buildings_won": len(won)} for p, won in breakdown(state).items()}


PRESENTER = GardensPresenter()
