"""What a game costs its channel, per table mode (`/game create posts:every|compact`), through the test harness
(tests/bot/harness.py: real discord.py, our cogs, the real renderer; only the network is fake).

    python bench/posts.py              # 2 games of each type in each mode
    python bench/posts.py -n 5 gardens

One human (Ana, random legal moves through the panel, from the latest post in `every` mode, from the living
board in `compact` mode) plays against AI seats (easy) to the end. Counted in the game's channel, from the start:
messages posted, edits, the bytes sent (text and attachments of every post and edit: an edit uploads its whole new
board, Discord has no partial attachment), per game and per move, and the bytes the channel keeps at the end (what
a reader scrolling it downloads: every board of `every` mode, the one board of `compact` mode).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.bot.driver import play_one_action  # noqa: E402
from tests.bot.harness import CHANNEL_ID, Harness, Msg, User  # noqa: E402

AI_SEATS = {"alhambra": 2, "gardens": 1, "queens_garden": 3}
ANA = User(100000000000000001, "Ana")


async def one_game(game: str, posts: str, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        h = await Harness.start(Path(tmp) / "games.sqlite3", ai_processes=0)
        try:
            sent = {"posts": 0, "edits": 0, "bytes": 0, "image_bytes": 0}
            create, edit = h.fake.create, h.fake.edit
            counting = [False]

            def count(msg: Msg, data: dict[str, Any], files: list[tuple[str, bytes]], kind: str) -> None:
                if counting[0] and msg.public and msg.channel_id == CHANNEL_ID:
                    sent[kind] += 1
                    images = sum(len(b) for _, b in files)
                    sent["bytes"] += len((data.get("content") or "").encode()) + images
                    sent["image_bytes"] += images

            def on_create(channel_id, data, files, **kw):
                msg = create(channel_id, data, files, **kw)
                count(msg, data, msg.files, "posts")
                return msg

            def on_edit(msg, data, files):
                before = len(h.fake.uploads)
                out = edit(msg, data, files)
                count(out, data, [(n, b) for _, n, b in h.fake.uploads[before:]], "edits")
                return out

            h.fake.create, h.fake.edit = on_create, on_edit  # type: ignore[method-assign]
            await h.run_command(ANA, "game create", game=game, ai_players=AI_SEATS[game], ai_level="easy", posts=posts)
            lobby = h.last_public()
            counting[0] = True
            await h.click(ANA, lobby, "Start")
            await h.settle()
            rnd = random.Random(seed)
            storage = h.bot.storage
            for _ in range(3000):
                row = await storage.game_in_channel(CHANNEL_ID)
                if row is None:
                    break
                if posts == "compact":
                    board = await storage.board_message(row.id)
                    post = h.fake.messages[board] if board is not None else h.last_public()
                else:
                    post = h.last_public()
                await play_one_action(h, ANA, post, rnd)
                await h.settle()
            row = await storage.last_game_in_channel(CHANNEL_ID)
            assert row is not None and row.status == "finished", row
            assert h.fake.violations == [], h.fake.violations
            kept = [m for m in h.public(CHANNEL_ID) if m.id > lobby.id]  # what a reader of the channel downloads now
            sent["kept"] = sum(len(m.content.encode()) + sum(len(b) for _, b in m.files) for m in kept)
            return {**sent, "moves": row.version}
        finally:
            await h.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=list(AI_SEATS))
    parser.add_argument("-n", type=int, default=2, help="games of each type in each mode")
    args = parser.parse_args()
    print("game           mode     moves  posts/game  edits/game  KiB sent/game  bytes sent/move  (images)  KiB kept")
    for game in args.games:
        for posts in ("every", "compact"):
            runs = [asyncio.run(one_game(game, posts, seed)) for seed in range(args.n)]
            moves = statistics.mean(r["moves"] for r in runs)
            per_move = statistics.mean(r["bytes"] / r["moves"] for r in runs)
            images = statistics.mean(r["image_bytes"] / r["bytes"] for r in runs)
            print(
                f"{game:14} {posts:8} {moves:5.0f}  {statistics.mean(r['posts'] for r in runs):10.1f}"
                f"  {statistics.mean(r['edits'] for r in runs):10.1f}"
                f"  {statistics.mean(r['bytes'] for r in runs) / 1024:13.0f}  {per_move:15.0f}  ({images:6.0%})"
                f"  {statistics.mean(r['kept'] for r in runs) / 1024:8.0f}"
            )


if __name__ == "__main__":
    main()
