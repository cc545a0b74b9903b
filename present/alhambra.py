"""Alhambra in words and menus: action names, cell names, the hand by currency, the Vizier's Favour bits."""

from __future__ import annotations

from typing import Any

from engine import Text
from engine.alhambra import components
from engine.alhambra.state import OVER
from i18n import ENGLISH, N_, Words
from present import Presenter, names

# the currencies' colours in words (A4: a currency is always named, never told apart by colour alone)
COLOUR_WORDS = {"denar": Text("blue"), "dirham": Text("green"), "ducat": Text("orange"), "florin": Text("yellow")}


class AlhambraPresenter(Presenter):
    kind_labels = {
        "take_money": N_("Take money"),
        "buy_tile": N_("Buy a tile"),
        "redesign_add": N_("Redesign: add"),
        "redesign_remove": N_("Redesign: remove"),
        "redesign_swap": N_("Redesign: swap"),
        "pass": N_("End turn"),
        "place_tile": N_("Place a tile", context="alhambra"),
        "reserve_tile": N_("To reserve"),
        "give_to_dirk": N_("Give to Dirk"),
        "vizier_buy": N_("Vizier: buy out of turn"),
        "reactivate_vizier": N_("Reactivate vizier"),
        "take_hut": N_("Take a hut"),
        "play_bonus": N_("Play bonus"),
        "set_bonus_autoplay": N_("Set bonus autoplay"),
    }
    free_actions_label = N_("Bonus cards")
    option_labels = {  # the four modules of The Vizier's Favour (V1)
        "vizier": N_("Vizier"),
        "huts": N_("Worker's Huts"),
        "exchange": N_("Bureau de Change"),
        "bonus": N_("Bonus cards"),
    }

    def group_label(self, group: str, _: Words = ENGLISH) -> str:
        # i18n: a column of the Alhambra grid (the letter of cells like M13), in the menu narrowing long lists
        return _("column {name}", name=group)

    def position_name(self, field: str, value: Any) -> str | None:
        if field == "cell" and isinstance(value, tuple):
            return components.cell_name(value)
        return super().position_name(field, value)

    def value_name(self, field: str, value: Any, _: Words = ENGLISH) -> str:
        if field in ("tile", "replaces", "card", "hut") and isinstance(value, str):  # tile ids: their names
            return _.text(components.tile_text(value))
        return super().value_name(field, value, _)

    def preview(self, rules: Any, state: Any, player: str, action: Any) -> tuple[Any, Any] | None:
        if action.kind in ("place_tile", "redesign_add"):
            spot = action.cell
        elif action.kind == "redesign_swap":
            spot = next(c for c, t in state.seat(player).alhambra.items() if t == action.replaces)
        else:
            return None
        # the focus image shows the player's own board only: the market refill at turn end is not in it
        return rules.view(rules.apply(state, player, action), player), spot

    def private_text(self, rules: Any, state: Any, player: str, _: Words = ENGLISH) -> str | None:
        view = rules.view(state, player)
        seat = view.seat(player)
        extra = _modules(rules, view, seat, _)
        if not seat.hand:
            return _("Your hand is empty.") + extra
        by_currency: dict[int, list[int]] = {}
        others = [_.text(components.card_text(c)) for c in seat.hand if not components.is_money(c)]  # V40: no money
        for card in (c for c in seat.hand if components.is_money(c)):
            currency, value = components.card_key(card)
            by_currency.setdefault(currency, []).append(value)
        parts = []
        for currency, values in sorted(by_currency.items()):
            name, colour = components.currency_text(currency), COLOUR_WORDS[components.CURRENCIES[currency]]
            parts.append(
                # i18n: money of one currency in a hand: "denar (blue) 8+3 = **11**"
                _(
                    "{currency} ({colour}) {values} = **{total}**",
                    currency=name,
                    colour=colour,
                    values="+".join(str(v) for v in sorted(values, reverse=True)),
                    total=sum(values),
                )
            )
        return _("Your hand: {cards}", cards=" · ".join([*parts, *others])) + extra

    def out_of_turn_line(self, who: str, *, n: int = 1, _: Words = ENGLISH, main: str | None = None) -> str:
        # V4/V12; the verb agrees with the number of names (`n`) in the catalogs
        if main:
            return _(
                "🧞 Vizier: {who} may buy out of turn until {main} acts.",
                "🧞 Vizier: {who} may buy out of turn until {main} acts.",
                n=n,
                who=who,
                main=main,
            )
        return _("🧞 Vizier: {who} may buy out of turn.", "🧞 Vizier: {who} may buy out of turn.", n=n, who=who)

    def free_panel_lines(self, rules: Any, state: Any, player: str, _: Words = ENGLISH) -> list[str]:
        seat = state.seat(player)
        auto = {  # V66
            "every": _("They play themselves before every scoring round (V66)."),
            "final": _("They play themselves only before the final scoring (V66)."),
            "never": _("They never play themselves, only by hand (V66)."),
        }
        return [
            _("🔒 **Your bonus cards** (a played card counts as one more building of its type, V62):"),
            _(
                "In hand: {held} · played: {played}.",
                held=names([components.tile_text(t) for t in seat.bonus_hand], _),
                played=names([components.tile_text(t) for t in seat.bonus_played], _),
            ),
            auto.get(seat.bonus_auto, seat.bonus_auto),
        ]

    figure_labels = {
        "longest_wall": N_("Longest wall"),
        "round_points": N_("Points per scoring round", context="alhambra"),
    }

    def figures(self, rules: Any, state: Any) -> dict[str, dict[str, Any]]:
        """Per player: the longest outer wall of their Alhambra at the end (A48) and the points each scoring round
        gave them (A43–A49)."""
        from engine.alhambra.geometry import longest_wall

        return {
            p: {
                "longest_wall": longest_wall(state.seat(p).alhambra),
                "round_points": [line.total for r in state.scorings for line in r.lines if line.player == p],
            }
            for p in state.players
        }


def _modules(rules: Any, view: Any, seat: Any, _: Words) -> str:
    """The Vizier's Favour bits of the player's position: vizier side, huts taken, unplayed bonus cards."""
    options = getattr(view, "options", {}) or {}
    bits = []
    if options.get("vizier"):
        bits.append(_("vizier active") if seat.vizier else _("vizier inactive (reactivate it as an action, V8)"))
    if options.get("huts"):
        bits.append(_("huts taken {taken}/{most}", taken=seat.huts_taken, most=rules.limits["huts_taken"]))  # V25
    if options.get("bonus"):
        held = names([components.tile_text(t) for t in seat.bonus_hand], _)
        over = getattr(view, "phase", None) == OVER
        if over or not seat.bonus_hand:
            bits.append(_("bonus cards: {held}", held=held))
        else:
            bits.append(_("bonus cards: {held} (**Bonus cards** button)", held=held))
    return ("\n" + " · ".join(bits)) if bits else ""


PRESENTER = AlhambraPresenter()
