"""Interactions per move, over whole games played through the bot's panels (the test harness, random legal
moves): with Confirm (the default) and with `/prefs confirm:False` (a move that reveals nothing plays as soon as
it is chosen).

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

from tests.bot.driver import create_and_start, movers, play_one_action  # noqa: E402
from tests.bot.harness import Harness, User  # noqa: E402

PLAYERS = {"alhambra": 3, "gardens": 3, "queens_garden": 3}


async def measure(game: str, games: int, confirm: bool) -> tuple[int, int]:
    """(moves, interactions) over `games` whole games."""
    moves = interactions = 0
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
                before = len(h.fake.interactions)
                await play_one_action(h, by_id[movers(post, users)[0]], post, rnd, page_chance=0)
                interactions += len(h.fake.interactions) - before
                moves += 1
                await h.settle()
                post = next(m for m in reversed(h.public()) if m.content.startswith(("**", "🏁")))
        await h.close()
    return moves, interactions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(PLAYERS))
    parser.add_argument("-n", type=int, default=3, help="games per setting")
    args = parser.parse_args()
    print(f"{'game':<14} {'Confirm on':>12} {'Confirm off':>12}   (interactions per move)")
    for game in args.games:
        on = asyncio.run(measure(game, args.n, True))
        off = asyncio.run(measure(game, args.n, False))
        print(f"{game:<14} {on[1] / on[0]:>12.2f} {off[1] / off[0]:>12.2f}   ({on[0]} and {off[0]} moves)")


if __name__ == "__main__":
    main()
