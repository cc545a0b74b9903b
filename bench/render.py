"""Render benchmark: compose + encode time and bytes per image for each game at its largest player count.

    python bench/render.py [repeats]     (from the repository root; default 30 repeats per state)

For each game, a seeded random game is played through the engine contract; the public image of several states
(mid-game and late, plus the end) is drawn `repeats` times. Sprites and fonts are warmed up first, as in the
running bot. Prints median and p95 of compose, encode and total milliseconds, and the median bytes.
Aim (issue 6): a 6-player Alhambra board in <= 40 ms median and <= 300 KiB. "CPU" is this thread's CPU time,
which stays meaningful when the machine is busy (wall times then include waiting for a core).
"""

from __future__ import annotations

import importlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAMES, get_rules  # noqa: E402
from render import _draw, render_image  # noqa: E402
from render.gallery import names_for, playthrough  # noqa: E402


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def bench(game: str, repeats: int) -> None:
    rules = get_rules(game)
    n = rules.player_counts[-1]
    states = playthrough(game, n, seed=7)
    picks = [states[len(states) // 2], states[(len(states) * 4) // 5], states[-1]]
    views = [rules.view(s, None) for s in picks]
    names = names_for(n)
    palette = getattr(importlib.import_module(f"render.{game}"), "PALETTE", ())
    for v in views:  # warm-up: fonts, sprites
        _draw.encode_png(render_image(game, v, names=names), palette)
    compose, encode, total, cpu, sizes = [], [], [], [], []
    for _ in range(repeats):
        for v in views:
            c0 = time.thread_time()
            t0 = time.perf_counter()
            img = render_image(game, v, names=names)
            t1 = time.perf_counter()
            png = _draw.encode_png(img, palette)  # exactly what render_png does
            t2 = time.perf_counter()
            cpu.append((time.thread_time() - c0) * 1000)
            compose.append((t1 - t0) * 1000)
            encode.append((t2 - t1) * 1000)
            total.append((t2 - t0) * 1000)
            sizes.append(len(png))
    w, h = img.size
    print(f"{game:14s} {n}p  {w}x{h}  "
          f"compose {statistics.median(compose):5.1f} ms (p95 {pct(compose, 0.95):5.1f})  "
          f"encode {statistics.median(encode):5.1f} ms (p95 {pct(encode, 0.95):5.1f})  "
          f"total {statistics.median(total):5.1f} ms (p95 {pct(total, 0.95):5.1f}; CPU {statistics.median(cpu):5.1f})  "
          f"{statistics.median(sizes) / 1024:5.1f} KiB (max {max(sizes) / 1024:5.1f})")


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    for game in GAMES:
        bench(game, repeats)


if __name__ == "__main__":
    main()
