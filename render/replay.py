"""Animated replays: a whole game as one animated GIF, small enough to share in Discord (10 MiB per upload).

    anim = Animation("alhambra", names, lang="en")
    for view, ms in zip(views, durations):          # public views only: rules.view(state, None)
        anim.add(view, ms)                           # TooBig once the file would pass the budget
    gif = anim.finish()

Pure (Pillow only, no I/O): the bot runs it in its drawing workers a few frames at a time (cogs/replays.py).

What is shown: one frame per turn (`frame_positions`): the deal, the board after each player's whole turn (an
Alhambra purchase and its placement together), and the end (the results sheet), each frame exactly the public
board image of that position, in full size. A frame per stored move makes the file four to five times larger
(20 MiB) for little: within a turn the board's top lines come and go (the vizier's window), so every such frame
moves the whole picture down or up.

Why GIF (measured, bench/replay.py --compare; a seeded 6-player Alhambra with every module, 243 moves, 162 turns,
frames 1460 px wide): the GIF of the turns at full size is 4.4 MiB in 2.6 s of CPU for everything (drawing
included); animated WebP (Pillow's libwebp) of the same frames 3.0 MiB lossless at quality 25 / method 1 in
10.6 s of encoding alone, 2.5 MiB at quality 50 / method 3 in 13.2 s; lossy WebP blurs the small text and is
larger (9.4 MiB at quality 85). GIF is within 40 % of the best size, four to five times
quicker, and Discord animates GIFs everywhere. The frames share one palette (the renderer's key colours exact,
as in its PNGs, plus the shades of the first and the last board); each frame after the first stores only the
rectangle that changed, its unchanged pixels transparent (long runs that LZW packs into little).

The budget is kept whatever the game: if the file would pass it, the caller starts again one `RUNGS` step down
(smaller frames, then every second, fourth... turn; the deal and the end are always in).
"""

from __future__ import annotations

import dataclasses
import io
import struct
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import GifImagePlugin, Image, ImageChops

from render import _draw, _module, render_image

LIMIT = 10 * 1024 * 1024  # Discord's upload limit (a server without boosts)
BUDGET = LIMIT - 64 * 1024  # what the file may take: a margin for the rest of the upload
FIRST_MS = 2000  # the deal
TURN_MS = 700  # each turn
LAST_MS = 8000  # the end (the results), before the loop starts over
CLEAR = 255  # the palette index of "unchanged" (transparent) pixels; the colours take 0..254
RGB = tuple[int, int, int]


@dataclasses.dataclass(frozen=True, slots=True)
class Rung:
    """How an animation is drawn: frames scaled by `scale`, every `stride`-th turn."""

    scale: float = 1.0
    stride: int = 1


RUNGS = (Rung(1.0, 1), Rung(0.75, 1), Rung(0.5, 1), Rung(0.5, 2), Rung(0.5, 4), Rung(0.5, 8), Rung(0.5, 32))


class TooBig(Exception):
    """The animation would pass its budget: draw it again one rung down."""


def frame_positions(movers: Sequence[str], stride: int = 1) -> list[int]:
    """The positions an animation shows, given who made each stored move (`movers[i]` made move i + 1): 0 (the
    deal), every position after which someone else moves (the end of a turn), and the last one; with `stride`,
    every stride-th turn (the deal and the end always)."""
    n = len(movers)
    ends = [k for k in range(1, n) if movers[k] != movers[k - 1]]
    kept = ends[stride - 1 :: stride] if stride > 1 else ends
    return sorted({0, n, *kept})


def durations(count: int) -> list[int]:
    """Milliseconds each of `count` frames stays: the deal and the end longer."""
    if count <= 1:
        return [LAST_MS] * count
    return [FIRST_MS, *[TURN_MS] * (count - 2), LAST_MS]


class Animation:
    """An animated GIF of one game's public boards, written frame by frame (only the current and the previous
    frame are held). `add` raises TooBig once the file would pass `budget`."""

    def __init__(
        self,
        game: str,
        names: Mapping[str, str] | None = None,
        *,
        lang: str = "en",
        rung: Rung = RUNGS[0],
        budget: int = BUDGET,
    ):
        self.game, self.names, self.lang, self.rung, self.budget = game, dict(names or {}), lang, rung, budget
        self.keys: tuple[RGB, ...] = tuple(getattr(_module(game), "PALETTE", ()))
        self.frames = 0
        self._palette: Image.Image | None = None  # "P" image carrying the shared colours
        self._colours: list[RGB] = []
        self._bg = 0  # the palette index of the background (padding)
        self._size = (0, 0)  # the canvas so far (frames differ in height)
        self._previous: Image.Image | None = None  # the last frame as shown, on the canvas
        self._first: tuple[Image.Image, int] | None = None  # written last, on the final canvas
        self._first_bytes = 0
        self._body: list[bytes] = []
        self._body_bytes = 0

    @property
    def size(self) -> int:
        """Bytes of the file so far (the first frame as it stands, the header and the end included)."""
        return 13 + 768 + 19 + self._first_bytes + self._body_bytes + 1

    def draw(self, view: Any) -> Image.Image:
        """The public board of `view` as the animation shows it (scaled by the rung)."""
        img = render_image(self.game, view, None, self.names, lang=self.lang)
        if img is None:
            raise ValueError(f"{self.game} has no renderer")
        img = img.convert("RGB") if img.mode != "RGB" else img
        if self.rung.scale != 1.0:
            w, h = img.size
            size = (max(1, round(w * self.rung.scale)), max(1, round(h * self.rung.scale)))
            img = img.resize(size, Image.Resampling.BOX)
        return img

    def use_palette(self, *samples: Image.Image) -> None:
        """Fix the shared colours from sample frames (the first and the last board): the renderer's key colours
        exactly, then the shades found in the samples. Otherwise the first frame added sets them."""
        fixed = _draw.fixed_palette(samples, self.keys, size=CLEAR)
        self._colours = list(fixed.colours)
        self._palette = fixed.image
        self._bg = self._colours.index(_draw.BG) if _draw.BG in self._colours else 0

    def add(self, view: Any, ms: int) -> None:
        """The next frame: the public board of `view`, shown for `ms` milliseconds."""
        self.add_image(self.draw(view), ms)

    def add_image(self, img: Image.Image, ms: int) -> None:
        if self._palette is None:
            self.use_palette(img)
        assert self._palette is not None
        frame = img.quantize(palette=self._palette, dither=Image.Dither.NONE)
        self.frames += 1
        if self._first is None:
            self._first = (frame, ms)
            self._first_bytes = _length(GifImagePlugin.getdata(frame, (0, 0), duration=ms))
            self._size = frame.size
            self._previous = frame
        else:
            self._body.append(self._delta(frame, ms))
            self._body_bytes += len(self._body[-1])
        if self.size > self.budget:
            raise TooBig(f"{self.size} bytes after {self.frames} frames (budget {self.budget})")

    def _delta(self, frame: Image.Image, ms: int) -> bytes:
        """`frame` as the change from the previous one: the rectangle that differs, unchanged pixels clear."""
        assert self._previous is not None
        w, h = max(self._size[0], frame.width), max(self._size[1], frame.height)
        previous = self._previous if self._previous.size == (w, h) else self._pad(self._previous, (w, h))
        current = frame if frame.size == (w, h) else self._pad(frame, (w, h))
        self._size, self._previous = (w, h), current
        diff = ImageChops.difference(previous, current)
        box = diff.getbbox()
        if box is None:  # nothing changed: a clear pixel that only waits
            return b"".join(GifImagePlugin.getdata(Image.new("P", (1, 1), CLEAR), (0, 0), **_clear(ms)))
        unchanged = diff.crop(box).point([255] + [0] * 255, "1")
        part = current.crop(box)
        part.paste(CLEAR, mask=unchanged)
        return b"".join(GifImagePlugin.getdata(part, box[:2], **_clear(ms)))

    def _pad(self, frame: Image.Image, size: tuple[int, int]) -> Image.Image:
        out = Image.new("P", size, self._bg)
        out.paste(frame, (0, 0))
        return out

    def finish(self) -> bytes:
        """The whole GIF: the header (the canvas as large as the largest frame), the first frame on it, the rest."""
        if self._first is None:
            raise ValueError("an animation needs at least one frame")
        first, ms = self._first
        if first.size != self._size:
            first = self._pad(first, self._size)
        out = io.BytesIO()
        out.write(b"GIF89a" + struct.pack("<HHBBB", *self._size, 0xF7, self._bg, 0))  # 256-colour global table
        colours = self._colours + [self._colours[0]] * (256 - len(self._colours))
        out.write(bytes(v for c in colours for v in c))
        out.write(b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")  # loop for ever
        out.write(b"".join(GifImagePlugin.getdata(first, (0, 0), duration=ms)))
        out.write(b"".join(self._body))
        out.write(b";")
        return out.getvalue()


def _clear(ms: int) -> dict[str, int]:
    """A later frame's graphic control: its time, CLEAR as transparent, left in place for the next one."""
    return {"duration": ms, "transparency": CLEAR, "disposal": 1}


def _length(chunks: Sequence[bytes]) -> int:
    return sum(len(c) for c in chunks)


def animate(game: str, views: Sequence[Any], names: Mapping[str, str] | None = None, *, lang: str = "en") -> bytes:
    """The GIF of `views` (public views, one per frame, e.g. those of `frame_positions`), one rung down after
    another until it fits the budget. For tools and tests; the bot runs the same steps a few frames at a time."""
    for rung in RUNGS:
        shown = list(views) if rung.stride == 1 else [*views[: -1 : rung.stride], views[-1]]
        anim = Animation(game, names, lang=lang, rung=rung)
        anim.use_palette(anim.draw(shown[0]), anim.draw(shown[-1]))
        try:
            for view, ms in zip(shown, durations(len(shown)), strict=True):
                anim.add(view, ms)
        except TooBig:
            continue
        return anim.finish()
    raise TooBig("no rung fits")
