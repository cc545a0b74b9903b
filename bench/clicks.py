"""Interactions per move, over whole games played through the bot's panels (the test harness, random legal
moves): with Confirm (the default) and with `/prefs confirm:False` (a move that reveals nothing plays as soon as
it is chosen).

The random player picks a kind uniformly, then an option uniformly at each menu, whatever the panel's layout:
on a panel that opens on a kind's menu with the other kinds as buttons beside it, the menu counts as one kind
among them. So the moves played follow the same distribution whichever way the panel is laid out, and the
figures compare layouts, not players.

    python bench/clicks.py            # every game, 3 games each
    python bench/clicks.py gardens -n 5
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.bot.driver import NAV, create_and_start, movers  # noqa: E402
from tests.bot.harness import Harness, Msg, User  # noqa: E402

PLAYERS = {"alhambra": 3, "gardens": 3, "queens_garden": 3}


async def play_move(h: Harness, user: User, post: Msg, rnd: random.Random) -> tuple[int, bool]:
    """Play one random move from `post` through the panel: (interactions it took, whether the panel opened on a
    menu beside other kinds' buttons)."""
    r = await h.click(user, post, "Play my turn")
    panel, clicks, beside = r.message, 1, False
    for _step in range(40):
        labels = panel.labels()
        if panel.content.startswith("✅"):  # played as soon as chosen (Confirm off)
            return clicks, beside
        if "Confirm" in labels:
            await h.click(user, panel, "Confirm")
            return clicks + 1, beside
        kinds = [b for b in labels if b not in NAV]
        selects = panel.selects()
        if selects and kinds:
            beside = beside or clicks == 1
        if selects and rnd.randrange(len(kinds) + 1) == 0:  # the menu, or one of the kinds beside it
            await h.choose(user, panel, 0, rnd.choice(selects[0]["options"])["value"])
        else:
            await h.click(user, panel, rnd.choice(kinds))
        clicks += 1
    raise AssertionError(f"panel never reached Confirm: {panel.content}")


async def measure(game: str, games: int, confirm: bool) -> tuple[int, int, int]:
    """(moves, interactions, panels opened on a menu beside other kinds) over `games` whole games."""
    moves = interactions = beside = 0
    with tempfile.TemporaryDirectory() as tmp:
        h = await Harness.start(Path(tmp) / "clicks.sqlite3", ai_processes=0)
        users = [User(100000000000000001 + i, name) for i, name in enumerate(["Ana", "Bo", "Cyd"][: PLAYERS[game]])]
        by_id = {u.id: u for u in users}
        if not confirm:
            for u in users:
                await h.run_command(u, "prefs", confirm=False)
        for g in range(games):
            rnd = random.Random(g)
            post = await create_and_start(h, game, users)
            while "Game over" not in post.content:
                clicks, direct = await play_move(h, by_id[movers(post, users)[0]], post, rnd)
                interactions += clicks
                beside += direct
                moves += 1
                await h.settle()
                post = next(m for m in reversed(h.public()) if m.content.startswith(("**", "🏁")))
        await h.close()
    return moves, interactions, beside


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(PLAYERS))
    parser.add_argument("-n", type=int, default=3, help="games per setting")
    args = parser.parse_args()
    print(f"{'game':<14} {'Confirm on':>12} {'Confirm off':>12}   (interactions per move)")
    for game in args.games:
        on = asyncio.run(measure(game, args.n, True))
        off = asyncio.run(measure(game, args.n, False))
        print(
            f"{game:<14} {on[1] / on[0]:>12.2f} {off[1] / off[0]:>12.2f}   ({on[0]} and {off[0]} moves; opened on a "
            f"menu with other kinds beside it: {on[2] / on[0]:.0%} and {off[2] / off[0]:.0%})"
        )


if __name__ == "__main__":
    main()
