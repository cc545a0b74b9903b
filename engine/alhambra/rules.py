"""The Alhambra rules behind the engine contract: the base game for 2–6 players (with Dirk for 2) and the four
modules of The Vizier's Favour (options `vizier`, `huts`, `exchange`, `bonus`, any combination). Rule numbers
refer to the project's rules specifications: A1–A83 (base) and V1–V66 (the expansion).

This class is the facade; the rules are plain functions of the state in `setup` (dealing), `listing` (who may
act, what they may do), `check` (the single legality check), `turn` (`step`: the action and what it sets off),
`rounds` (a scoring round in play), `marks` (what the board image marks across a turn), `summary` (the /rules
text) and `migrate` (states stored by earlier versions). Every refusal, `describe`, event text, option and the
summary is a `Text` (words as data); the names players read are marked constants (`components.TYPE_NAMES`,
`CURRENCY_NAMES`, `actions.AUTOPLAY_TEXT`) or Texts (`components.tile_text`, `card_text`).

How the modules meet the contract:
- Vizier (V3–V12): after every turn (after the refill and any scoring) `state.window` is open until the
  current player's first action. Meanwhile `to_move` lists the current player first, then every other player
  whose active vizier can pay some market tile exactly (`vizier_claimants`, in V7 priority order). Whoever
  acts first wins (arrival order); `vizier_priority` sorts near-simultaneous claims by V7 for the bot. A
  VizierBuy moves the game into the VIZIER phase, where only that claimant acts: they place the tile at once;
  then the market is refilled, a revealed scoring card is scored, and the window reopens for the others (or
  the game ends, V11).
- Huts (V20–V31): TakeHut is a turn action; huts wait in `pending` and are placed at turn end like tiles.
- Exchange (V40–V48): exchange cards (ids 2001–2006) travel like money cards; TakeMoney of one exchange card
  is a whole take-money action, and one exchange card in a BuyTile/VizierBuy lets the payment mix currencies.
- Bonus cards (V60–V66): PlayBonus and SetBonusAutoplay are free actions, listed by `free_actions` and
  accepted by `apply` from their holder at any time (not in `legal_actions`, so `to_move` is unaffected);
  standing orders are carried out right before each scoring round.
"""

from __future__ import annotations

import types
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from engine._common import N_, Option, Rules, Text, replace, visible_log
from engine.alhambra import check, listing, migrate, setup, summary, turn
from engine.alhambra.actions import ACTION_TYPES, FREE_ACTIONS, Action, SetBonusAutoplay, describe
from engine.alhambra.components import HIDDEN_CARD, HUT_LIMIT
from engine.alhambra.state import HIDDEN, OVER, GameState, PlayerState, state_problem

OPTIONS: dict[str, Option] = {
    "vizier": Option(
        "vizier", False, Text("The Vizier's Favour: buy a tile out of turn at its exact price, then re-activate")
    ),
    "huts": Option("huts", False, Text("Worker's Huts: take up to 3 free huts that count beside same-type buildings")),
    "exchange": Option("exchange", False, Text("Bureau de Change: exchange cards let one purchase mix two currencies")),
    "bonus": Option("bonus", False, Text("Bonus cards: a played card counts as one more building of its type")),
}


class AlhambraRules(Rules[GameState, Action]):
    name = "alhambra"
    title = N_("Alhambra")
    player_counts = range(2, 7)
    options: Mapping[str, Option] = OPTIONS  # the Vizier's Favour modules, yes/no, any combination
    state_type = GameState
    action_types = ACTION_TYPES
    json_version = 2  # 2: the log holds the last action's events; `marks` and `reshuffled` (1: the whole history)
    limits: ClassVar[Mapping[str, int]] = types.MappingProxyType({"huts_taken": HUT_LIMIT})  # V25

    def _new_game(self, players: tuple[str, ...], options: dict[str, Any], seed: int) -> GameState:
        return setup.new_game(players, options, seed)

    # ------------------------------------------------------------------------------------------ whose move

    def to_move(self, state: GameState) -> list[str]:
        return listing.to_move(state)

    def out_of_turn(self, state: GameState) -> list[str]:
        """V4, V7, V12: the vizier claimants other than the player whose turn it is, in V7 priority order."""
        me = state.players[state.current]
        return [p for p in listing.vizier_claimants(state) if p != me]

    def vizier_claimants(self, state: GameState) -> list[str]:
        """V4/V5/V7: who may use their vizier now, in priority order (the current player included if they may)."""
        return listing.vizier_claimants(state)

    def vizier_priority(self, state: GameState, claims: Iterable[str]) -> list[str]:
        """V7: near-simultaneous vizier claims in the order the bot should apply them."""
        return listing.vizier_priority(state, claims)

    def has_free_actions(self, options: Mapping[str, Any]) -> bool:
        """V60: only the bonus cards module has free actions."""
        return bool(options.get("bonus"))

    def free_actions(self, state: GameState, player: str) -> list[Any]:
        """V62/V66: play a playable bonus card, change the standing order (any time, whoever is to move)."""
        return listing.free_actions(state, player)

    def is_free_action(self, action: Action) -> bool:
        """True for actions that `free_actions` lists (not turn actions; the bot need not re-ping anyone)."""
        return isinstance(action, FREE_ACTIONS)

    def is_private(self, action: Action) -> bool:
        """V66: a standing order for bonus cards is its player's own business."""
        return isinstance(action, SetBonusAutoplay)

    def reveals(self, before: GameState, player: str, action: Action, after: GameState) -> bool:
        return turn.reveals(before, player, action, after)

    def is_over(self, state: GameState) -> bool:
        return state.phase == OVER

    def scores(self, state: GameState) -> dict[str, int]:
        """The human players' points (A68: Dirk's are in state.dirk_score)."""
        return turn.scores(state)

    # ------------------------------------------------------------------------------------------ the rules

    def check(self, state: GameState, player: str, action: Action) -> Text | None:
        return check.check(state, player, action)

    def candidates(self, state: GameState, player: str) -> list[Any]:
        """Generous candidates (every frontier cell, every swap pair...); `check` decides."""
        return listing.candidates(state, player)

    def legal_actions(self, state: GameState, player: str) -> list[Any]:
        return listing.legal_actions(state, player)

    def step(self, state: GameState, player: str, action: Action, quiet: bool = False) -> GameState:
        return turn.step(state, player, action, quiet)

    # ------------------------------------------------------------------------------------------ views, words, JSON

    def view(self, state: GameState, player: str | None) -> GameState:
        """Own hand only; other hands become HIDDEN_CARD placeholders (counts stay public, A20; exchange cards
        too, V44); the deck order, the bag order and the seed are removed. Modules: other players' unplayed
        bonus cards and standing orders, the bonus cards set aside, and the huts below each stack's face-up
        top are hidden (HIDDEN placeholders keep the counts)."""
        bonus = bool(state.options.get("bonus"))
        seats = tuple(
            seat if p == player else _hide_seat(seat, bonus) for p, seat in zip(state.players, state.seats, strict=True)
        )
        extra: dict[str, Any] = {}
        if state.huts:
            extra["huts"] = tuple((HIDDEN,) * (len(s) - 1) + s[-1:] for s in state.huts)
        if state.bonus_aside:
            extra["bonus_aside"] = (HIDDEN,) * len(state.bonus_aside)
        return replace(
            state,
            seed=None,
            seats=seats,
            deck=(HIDDEN_CARD,) * len(state.deck),
            bag=tuple(sorted(state.bag)),
            log=visible_log(state.log, player),
            **extra,
        )

    def describe(self, action: Action) -> Text:
        return describe(action)

    def migrate(self, version: Any, payload: Any) -> Any:
        return migrate.migrate(version, payload)

    def validate(self, state: GameState) -> None:
        problem = state_problem(state)
        if problem:
            raise ValueError(f"invalid Alhambra state: {problem}")

    def summary(self, options: Mapping[str, Any] | None = None) -> Text:
        return summary.summary(options)


def _hide_seat(seat: PlayerState, bonus: bool) -> PlayerState:
    """Another player's seat as a viewer sees it: card counts, but not the cards (A20, V44, V61, V66)."""
    if bonus:
        return replace(
            seat, hand=(HIDDEN_CARD,) * len(seat.hand), bonus_hand=(HIDDEN,) * len(seat.bonus_hand), bonus_auto=""
        )
    return replace(seat, hand=(HIDDEN_CARD,) * len(seat.hand))
