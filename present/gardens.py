"""The Gardens of the Alhambra in words and menus: action names, the hand tiles, the placement preview."""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.gardens.components import tile_label
from present import Presenter


class GardensPresenter(Presenter):
    kind_labels = {"choose_colours": "Choose colours", "place_tile": "Place a tile"}
    position_word = "column"

    def preview(self, rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
        if action.kind != "place_tile":
            return None
        after = rules.view(rules.apply(state, player, action), player)
        i = state.players.index(player)
        hand = list(state.hands[i])
        hand.remove(action.tile)  # the replacement tile stays secret until the move is made
        hands = tuple(tuple(hand) if n == i else h for n, h in enumerate(after.hands))
        return dataclasses.replace(after, hands=hands), action.space

    def private_text(self, rules: Any, state: Any, player: str) -> str | None:
        view = rules.view(state, player)
        hand = view.hands[view.players.index(player)]
        return "Your hand: " + ", ".join(tile_label(t) for t in hand) if hand else None


PRESENTER = GardensPresenter()
