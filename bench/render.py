"""Render benchmark: compose and encode CPU time and bytes per image, for each game at its largest player count,
with the PNG encoder of `render` ("new") beside the one it replaced ("old", kept here only for this comparison).

    python bench/render.py [repeats] [game ...]   (from the repository root; default 30 repeats, every game)

For each game, a seeded random game is played through the engine contract; the public image of three states
(mid-game, late, the end) is drawn and encoded `repeats` times with each encoder in turn, as the bot does (draw,
then encode). Sprites and fonts are warmed up first, as in the running bot. Prints, per encoder, the median and p95 of
compose, encode and total (compose + encode) milliseconds, and the median and largest size.
Times are this thread's CPU time, which stays meaningful when the machine is busy (wall time then includes
waiting for a core). Aim (issue 14): <= 15 ms CPU per move for a 6-player Alhambra, engine and storage included.
"""

from __future__ import annotations

import importlib
import io
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageDraw  # noqa: E402

from engine import GAMES, get_rules  # noqa: E402
from render import _draw, render_image  # noqa: E402
from scripts.gallery import names_for, playthrough  # noqa: E402


def encode_png_old(img: Image.Image, key_colours: Iterable[_draw.RGB] = ()) -> bytes:
    """The encoder before issue 14: a 256-colour palette found per image by Pillow's fast octree on a 1-in-3
    subsample plus swatches of the key colours, the image mapped onto it, Pillow's PNG writer at zlib level 3."""
    w, h = img.size
    keys = list(dict.fromkeys((*_draw.BASE_PALETTE, *key_colours)))
    sw, sh = max(1, w // 3), max(1, h // 3)
    sample = Image.new("RGB", (max(sw, 4 * len(keys)), sh + 4), _draw.BG)
    sample.paste(img.resize((sw, sh), Image.Resampling.NEAREST), (0, 0))
    swatches = ImageDraw.Draw(sample)
    for i, colour in enumerate(keys):
        swatches.rectangle((4 * i, sh, 4 * i + 3, sh + 3), fill=colour)
    palette = sample.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    pal = img.quantize(palette=palette, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


ENCODERS: dict[str, Callable[[Image.Image, Iterable[_draw.RGB]], bytes]] = {
    "old": encode_png_old,
    "new": _draw.encode_png,  # exactly what render_png does
}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def cpu_ms(fn: Callable[[], object]) -> tuple[float, object]:
    c0 = time.thread_time()
    out = fn()
    return (time.thread_time() - c0) * 1000, out


def bench(game: str, repeats: int) -> None:
    rules = get_rules(game)
    n = rules.player_counts[-1]
    states = playthrough(game, n, seed=7)
    picks = [states[len(states) // 2], states[(len(states) * 4) // 5], states[-1]]
    views = [rules.view(s, None) for s in picks]
    names = names_for(n)
    palette = getattr(importlib.import_module(f"render.{game}"), "PALETTE", ())
    for v in views:  # warm-up: fonts, sprites
        img = render_image(game, v, names=names)
        for encode in ENCODERS.values():
            encode(img, palette)
    sizes_wh = set()
    print(f"{game} {n}p", end="")
    lines = []
    for name, encode in ENCODERS.items():  # one encoder at a time: interleaved, each slows the other (memory)
        compose, encode_ms, total, sizes = [], [], [], []
        for _ in range(repeats):
            for v in views:
                c, img = cpu_ms(lambda v=v: render_image(game, v, names=names))
                e, png = cpu_ms(lambda img=img, encode=encode: encode(img, palette))
                compose.append(c)
                encode_ms.append(e)
                total.append(c + e)
                sizes.append(len(png))
                sizes_wh.add(img.size)
        lines.append(
            f"  {name:4s} compose {statistics.median(compose):5.1f} ms (p95 {pct(compose, 0.95):5.1f})  "
            f"encode {statistics.median(encode_ms):5.1f} ms (p95 {pct(encode_ms, 0.95):5.1f})  "
            f"total {statistics.median(total):5.1f} ms (p95 {pct(total, 0.95):5.1f})  "
            f"{statistics.median(sizes) / 1024:6.1f} KiB (max {max(sizes) / 1024:6.1f})"
        )
    print(f" ({', '.join(f'{w}x{h}' for w, h in sorted(sizes_wh))}), {repeats * len(views)} images per encoder")
    print("\n".join(lines))


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    games = sys.argv[2:] or list(GAMES)
    print(f"CPU milliseconds per image; new encoder's deflate: {_draw.DEFLATE}")
    for game in games:
        bench(game, repeats)


if __name__ == "__main__":
    main()
