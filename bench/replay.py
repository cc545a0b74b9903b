"""Replays: the time to draw a whole game's animation, how fast frames are drawn, the file's size, and what the
replay viewer and an animation cost the bot while it serves other games.

    python bench/replay.py               # 3 seeded 6-player Alhambra games with every module, then the bot
    python bench/replay.py --seeds 7 11  # other games
    python bench/replay.py --compare     # also: one frame per move, and animated WebP on the same frames (slow)
    python bench/replay.py --ai normal   # games of six AI players (normal) instead of random moves
    python bench/replay.py --gallery     # also writes three frames of the first animation to docs/gallery/

1. The animation alone, in this process (render/replay.py, as a drawing worker runs it): positions replayed from
   the move log (cogs._tempo.replayed), one frame per turn drawn (render_image) and written into the GIF. Printed
   per game: moves, frames, the replay, the drawing (frames per second), the whole animation (CPU seconds), the
   file (MiB, Discord's limit 10 MiB) and the rung used. With --compare, for the first game: a GIF of every move,
   and WebP (lossless at two settings, and lossy) of the same turn frames, held in memory.
2. Through the bot (the test harness, one drawing worker process as on a 2-core server, RENDER_PROCESSES=1): the
   viewer's ▶ from the deal (frames drawn in the worker after a deferral) and ◀ back (frames kept), the time from
   the interaction's arrival to the answer; the share button: the time until the GIF is posted; meanwhile, the
   event loop's longest stall (a 5 ms ticker) and how long a board of another game drawn by the same worker
   waits (requested every 50 ms during the animation).
Times are CPU seconds of this thread where said, else wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import io
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from cogs._core import replayed  # noqa: E402
from cogs._images import _draw_state  # noqa: E402
from render import render_image  # noqa: E402
from render.replay import RUNGS, Animation, Rung, TooBig, durations, frame_positions  # noqa: E402
from storage import MoveRow  # noqa: E402
from tests.bot.harness import Harness, User  # noqa: E402
from tests.bot.test_replays import ALL_MODULES, played, stored_game  # noqa: E402

GAME, PLAYERS = "alhambra", 6


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def ai_played(seed: int, level: str) -> tuple[list[str], list[tuple[str, object]]]:
    """A game of six AI players of `level` (the player whose turn it is decides; nobody buys out of turn)."""
    import ai

    rules = engine.get_rules(GAME)
    players = [str(200000000000000001 + i) for i in range(PLAYERS)]
    state, moves = rules.new_game(players, ALL_MODULES, seed), []
    while not rules.is_over(state):
        who = rules.to_move(state)[0]
        action = ai.choose(GAME, state, who, level, seed=len(moves))
        state = rules.apply(state, who, action)
        moves.append((who, action))
    return players, moves


def states_of(seed: int, level: str | None) -> tuple[list, list[str]]:
    rules = engine.get_rules(GAME)
    players, moves = ai_played(seed, level) if level else played(GAME, PLAYERS, seed, ALL_MODULES)
    log = [MoveRow(1, k, p, rules.action_to_json(a), 0.0) for k, (p, a) in enumerate(moves, 1)]

    row = SimpleNamespace(game=GAME, options=ALL_MODULES, seed=seed, player_ids=players)  # what replayed reads
    t0 = time.thread_time()
    states = list(replayed(row, log))  # type: ignore[arg-type]
    print(f"  replay of {len(log)} moves: {(time.thread_time() - t0) * 1000:.0f} ms CPU")
    return states, [p for p, _a in moves]


def animation(states: list, movers: list[str], names: dict[str, str]) -> tuple[bytes, Rung, int, float, float]:
    """As the worker does it: the GIF, its rung, frames, drawing seconds, total seconds."""
    rules = engine.get_rules(GAME)
    t0 = time.thread_time()
    drawing = 0.0
    for rung in RUNGS:
        positions = frame_positions(movers, rung.stride)
        views = [rules.view(states[k], None) for k in positions]
        anim = Animation(GAME, names, rung=rung)
        anim.use_palette(anim.draw(views[0]), anim.draw(views[-1]))
        try:
            for view, ms in zip(views, durations(len(views)), strict=True):
                d0 = time.thread_time()
                img = anim.draw(view)
                drawing += time.thread_time() - d0
                anim.add_image(img, ms)
        except TooBig:
            continue
        return anim.finish(), rung, len(views), drawing, time.thread_time() - t0
    raise TooBig("no rung fits")


def compare(states: list, movers: list[str], names: dict[str, str]) -> None:
    rules = engine.get_rules(GAME)
    every = list(range(len(states)))
    anim = Animation(GAME, names, budget=1 << 40)
    views = [rules.view(s, None) for s in states]
    anim.use_palette(anim.draw(views[0]), anim.draw(views[-1]))
    t0 = time.thread_time()
    for k, ms in zip(every, durations(len(every)), strict=True):
        anim.add(views[k], ms)
    gif = anim.finish()
    print(f"  GIF of every move: {len(every)} frames, {len(gif) / 2**20:.2f} MiB, {time.thread_time() - t0:.1f} s CPU")
    from PIL import Image

    from render import _draw

    turns = [render_image(GAME, views[k], None, names) for k in frame_positions(movers)]
    w, h = max(i.width for i in turns), max(i.height for i in turns)
    frames = []
    for img in turns:  # WebP wants frames of one size
        canvas = Image.new("RGB", (w, h), _draw.BG)
        canvas.paste(img, (0, 0))
        frames.append(canvas)
    for label, kw in (
        ("WebP lossless q25 m1", {"lossless": True, "quality": 25, "method": 1}),
        ("WebP lossless q50 m3", {"lossless": True, "quality": 50, "method": 3}),
        ("WebP lossy q85 m2", {"quality": 85, "method": 2}),
    ):
        buf = io.BytesIO()
        t0 = time.thread_time()
        frames[0].save(buf, format="WEBP", save_all=True, append_images=frames[1:], duration=700, loop=0, **kw)
        took = time.thread_time() - t0
        print(
            f"  {label} of the turns: {len(frames)} frames, {buf.tell() / 2**20:.2f} MiB, {took:.1f} s CPU (encoding)"
        )


def gallery(gif: bytes) -> None:
    """Frames of the animation as it plays (decoded from the GIF: its shared palette, its canvas) for review."""
    from PIL import Image

    out = Path(__file__).resolve().parent.parent / "docs" / "gallery"
    img = Image.open(io.BytesIO(gif))
    for n in (1, img.n_frames // 2, img.n_frames - 1):
        img.seek(n)
        name = "end" if n == img.n_frames - 1 else f"turn_{n:03d}"
        img.convert("RGB").save(out / f"replay_alhambra_6p_modules_{name}.png", optimize=True)
        print(f"  wrote docs/gallery/replay_alhambra_6p_modules_{name}.png")


async def through_the_bot(seed: int) -> None:
    ana = User(100000000000000001, "Ana")
    with tempfile.TemporaryDirectory(dir=".") as tmp:
        h = await Harness.start(Path(tmp) / "bench.sqlite3", render_processes=1)
        try:
            await asyncio.sleep(3)  # the worker starts and warms up
            await stored_game(h, 12, GAME, PLAYERS, seed, ALL_MODULES)
            other = await stored_game(h, 13, GAME, PLAYERS, seed + 1, ALL_MODULES)  # same worker (1 process)
            stalls, waits = [0.0], []
            done = asyncio.Event()

            async def ticker() -> None:
                while not done.is_set():
                    t0 = time.perf_counter()
                    await asyncio.sleep(0.005)
                    stalls.append(time.perf_counter() - t0 - 0.005)

            ticking = asyncio.create_task(ticker())
            viewer = (await h.run_command(ana, "game replay", game=12)).message
            cold, warm = [], []
            for _i in range(40):
                r = await h.click(ana, viewer, "▶")
                cold.append((r.done_at - r.arrived) * 1000)
            for _i in range(40):
                r = await h.click(ana, viewer, "◀")
                warm.append((r.done_at - r.arrived) * 1000)
            print(
                f"  viewer ▶ (drawn in the worker): p50 {pct(cold, 50):.0f} ms, p95 {pct(cold, 95):.0f} ms; "
                f"◀ (kept): p50 {pct(warm, 50):.0f} ms, p95 {pct(warm, 95):.0f} ms; the event loop's longest "
                f"stall {max(stalls) * 1000:.1f} ms"
            )
            stalls[:] = [0.0]

            async def other_game() -> None:
                while not done.is_set():
                    t0 = time.perf_counter()
                    await h.bot.images.run(other, board)  # drawn each time (not from the cache)
                    waits.append((time.perf_counter() - t0) * 1000)
                    await asyncio.sleep(0.05)

            names = {x.id: x.name for x in other.seats}
            board = functools.partial(_draw_state, other.game, other.state_json, None, names, "en")
            alone = []
            for _i in range(10):  # the same board with the worker otherwise idle
                t0 = time.perf_counter()
                await h.bot.images.run(other, board)
                alone.append((time.perf_counter() - t0) * 1000)
            tasks = [ticking, asyncio.create_task(other_game())]
            t0 = time.perf_counter()
            await h.click(ana, viewer, "Share as animated GIF")
            took = time.perf_counter() - t0
            done.set()
            await asyncio.gather(*tasks)
            gif = h.last_public().files[0][1]
            print(f"  share: the GIF ({len(gif) / 2**20:.2f} MiB) posted {took:.1f} s after the click")
            print(
                f"  meanwhile: event loop's longest stall {max(stalls) * 1000:.1f} ms; another game's board "
                f"(same worker) p50 {pct(waits, 50):.0f} ms, p95 {pct(waits, 95):.0f} ms, max {max(waits):.0f} ms "
                f"({len(waits)} boards; alone: p50 {pct(alone, 50):.0f} ms)"
            )
        finally:
            await h.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs="*", default=[11, 7, 3])
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--no-bot", action="store_true")
    parser.add_argument("--gallery", action="store_true", help="write a few frames of the first GIF to docs/gallery/")
    parser.add_argument("--ai", metavar="LEVEL", help="games of six AI players of this level instead of random moves")
    args = parser.parse_args()
    names = {str(200000000000000001 + i): name for i, name in enumerate(["Ana", "Bo", "Cyd", "Dee", "Eve", "Fay"])}
    how = f"AI ({args.ai})" if args.ai else "random moves"
    print(f"1. The animation of a {PLAYERS}-player Alhambra with every module, {how} (one frame per turn)")
    for n, seed in enumerate(args.seeds):
        print(f" seed {seed}:")
        states, movers = states_of(seed, args.ai)
        gif, rung, frames, drawing, total = animation(states, movers, names)
        print(
            f"  {frames} frames: drawing {frames / drawing:.0f} frames/s ({drawing / frames * 1000:.0f} ms each), "
            f"the whole animation {total:.1f} s CPU, {len(gif) / 2**20:.2f} MiB (scale {rung.scale}, every "
            f"{rung.stride} turn)"
        )
        if args.compare and n == 0:
            compare(states, movers, names)
        if args.gallery and n == 0:
            gallery(gif)
    if not args.no_bot:
        print("2. Through the bot (one drawing worker process)")
        asyncio.run(through_the_bot(args.seeds[0]))


if __name__ == "__main__":
    main()
