"""The Alhambra rules summary shown by /rules, with a paragraph per Vizier's Favour module that is on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine._common import Text, join_texts

MODULES = ("vizier", "huts", "exchange", "bonus")  # The Vizier's Favour, modules 1–4


def summary(options: Mapping[str, Any] | None = None) -> Text:
    """The base rules, then the modules switched on in `options` (paragraphs of Texts)."""
    on = [m for m in MODULES if (options or {}).get(m)]
    if not on:
        return join_texts([SUMMARY, ""], "\n")
    return join_texts([SUMMARY, "", Text("**The Vizier's Favour**"), *(MODULE_SUMMARY[m] for m in on)], "\n")


SUMMARY = join_texts(
    [
        Text(
            "**Alhambra** — build the most splendid Alhambra. 2–6 players (with 2, the neutral *Dirk* "
            "collects tiles too)."
        ),
        join_texts(
            [
                Text("**Your turn: one action** (A18)"),
                Text("• **Take money**: one card from the display, or several worth **5 or less** together (A19)."),
                Text(
                    "• **Buy a tile**: pay with cards of the **currency of its market space**, at least its "
                    "price, no change (A21). Pay **exactly** and you get **another action** (A22), as often as "
                    "you manage it."
                ),
                Text(
                    "• **Redesign**: move a reserve tile into your Alhambra, an Alhambra tile to the reserve, "
                    "or exchange the two (A33)."
                ),
            ],
            "\n",
        ),
        Text(
            "**Turn end**: place each tile you bought in your Alhambra or on your reserve (2 players: "
            "or give it to Dirk) (A27). Then the display and market are refilled."
        ),
        Text(
            "**Building** (A30–A31): no rotation; a tile must share a side with your Alhambra, "
            "touching sides must be both wall or both open, it must be reachable on foot from the "
            "fountain, and no empty space may be enclosed."
        ),
        Text(
            "**Scoring** when each scoring card is drawn and at the end (A43–A48): most buildings of a "
            "type scores (round 1: 1st only; round 2: 1st/2nd; round 3: 1st/2nd/3rd); ties share the "
            "places' points, rounded down. Plus 1 point per segment of your **longest outer wall**."
        ),
        join_texts(
            [
                Text(
                    "**End** (A50–A52): when the market can't be refilled. Leftover tiles go to whoever holds "
                    "the most of their space's currency; then the final scoring. Most points wins."
                ),
                Text("Positions are written as a column letter and a row number: your fountain is **M13**."),
            ],
            "\n",
        ),
    ],
    "\n\n",
)


MODULE_SUMMARY = {
    "vizier": Text(
        "• **Vizier** (V3–V12): after any turn, before the next player acts, you may flip your active vizier "
        "to buy one market tile out of turn at **exactly** its price; place it at once. No extra action. On "
        "your turn, turning it back to active is an action (V8). Priority: the next player first (V7)."
    ),
    "huts": Text(
        "• **Worker's Huts** (V20–V31): as your action take a face-up hut (free, never an extra action; at "
        "most **3 per game**). Place it like a tile. At scoring it counts one building of its colour per "
        "neighbouring building of that type with no wall between (V27)."
    ),
    "exchange": Text(
        "• **Bureau de Change** (V40–V48): exchange cards turn up in the money display; taking one is your "
        "whole take-money action. Use it to pay one tile with any mix of its two currencies (V45); then it is "
        "discarded."
    ),
    "bonus": Text(
        "• **Bonus cards** (V60–V66): yours are secret. Play one (any time, not an action) once its building "
        "is in your Alhambra: it counts as one more building of that type. By default the bot plays them right "
        "before each scoring; change that with the standing order."
    ),
}
