"""Drawing helpers shared by every game's renderer: the bundled fonts, text with an outline, panels, legend
chips, player names, a few icons, the sections every board has (the last-move line, the results sheet), sprite
stamping, the part cache boards are composed from (`part`, `PARTS`), palette canvases boards are drawn on
(`drawing_on`, `PaletteDraw`: a "P" image in the game's PNG palette) and PNG encoding tuned for speed and size.

Everything here is pure and deterministic: the same inputs give the same pixels, so the same view gives the
same bytes. Fonts are read from the project's `data/fonts/` (never from the system) once per process.

Words: every label is drawn in the reader's language, through `i18n` (a `Words`, conventionally `_`, passed down
to whatever draws words): `_("Score")`, `_.text(...)` for a name marked `N_` or an engine `Text`. All text goes
through one function, `text` (chips, title bars and sheets too), so a test can record every string drawn
(`recording()`, tests/render/test_words.py). Layouts measure what they draw (`fit_text`, `fit_lines`, `wrap`):
a longer word in another language shrinks, wraps or, last, is shortened with '…', never overflows; in English
nothing is shrunk or wrapped that was not before. Every text these helpers had to shorten is noted while inside
`shortened()` (tests/render/test_fit.py: no text of any board in any language is cut). A part of a board is keyed
by the `Words` it was drawn with.
"""

from __future__ import annotations

import collections
import contextvars
import dataclasses
import functools
import math
import struct
import types
import weakref
import zlib
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from PIL import Image, ImageDraw, ImageFont
from PIL import _imaging as _pil_core  # Pillow's C core: `map_buffer`, a canvas over a buffer of our own

from i18n import ENGLISH, Words, words

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"

RGB = tuple[int, int, int]

# A calm, high-contrast scheme that reads well in Discord's dark and light themes alike.
BG: RGB = (246, 240, 226)  # parchment
PANEL: RGB = (255, 252, 244)
PANEL_EDGE: RGB = (190, 172, 140)
INK: RGB = (34, 30, 26)
MUTED: RGB = (110, 100, 88)
WHITE: RGB = (255, 255, 255)
HIGHLIGHT: RGB = (230, 20, 140)  # the last move / a tentative placement: magenta, unlike any game colour
TURN: RGB = (214, 120, 0)  # whose turn it is
GOOD: RGB = (30, 130, 60)
HAND_BG: RGB = (255, 248, 230)  # a private image's hand panel
SHEET: RGB = (255, 250, 236)  # the results sheet
SHEET_ROW: RGB = (246, 238, 218)  # every other row of it


# --------------------------------------------------------------------------------------------- fonts


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (bold or regular) at `size` px, loaded once."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


@functools.lru_cache(maxsize=16384)  # ~0.2 KiB an entry: ~3 MiB (the three games in one language: ~3,700)
def text_size(text: str, size: int, bold: bool = False) -> tuple[int, int]:
    """Width and height of `text` (ink box from the origin), cached: layouts measure the same labels often."""
    left, top, right, bottom = font(size, bold).getbbox(text)
    return int(right), int(bottom)


_SHORTENED: list[str] | None = None  # while `shortened()`: every text a fitting helper had to cut


@contextmanager
def shortened() -> Iterator[list[str]]:
    """Every text that `fit_text`, `wrap` or `fit_lines` had to shorten with '…' while inside (the whole text, as
    it was given). Cached sprites and parts are not drawn again: empty the caches first."""
    global _SHORTENED
    saved, _SHORTENED = _SHORTENED, []
    try:
        yield _SHORTENED
    finally:
        _SHORTENED = saved


def _note_cut(text: str) -> None:
    if _SHORTENED is not None:
        _SHORTENED.append(text)


def fit_text(text: str, max_width: int, size: int, bold: bool = False, min_size: int = 12) -> tuple[str, int]:
    """`text` at the largest size <= `size` that fits `max_width`; shortened with '…' below `min_size`."""
    shown, size = _fit_text(text, max_width, size, bold, min_size)
    if shown != text:
        _note_cut(text)
    return shown, size


def fits(text: str, max_width: int, size: int, bold: bool = False, min_size: int = 12) -> bool:
    """True if `fit_text` would show `text` whole (shrunk at most to `min_size`): for a layout that tries
    narrower forms of a label before one is cut (a try is not a cut)."""
    return text_size(text, _fit_size(text, max_width, size, bold, min_size), bold)[0] <= max_width


def _fit_size(text: str, max_width: int, size: int, bold: bool, min_size: int) -> int:
    """The largest size from `size` down to `min_size` at which `text` fits `max_width`, else `min_size`. Widths
    grow with the size, so the search starts where the width at `size` scaled down would fit and steps from there
    (2-3 measures of a long label rather than one per size: a new label's measure costs ~0.08 ms)."""
    width = text_size(text, size, bold)[0]
    if size <= min_size or width <= max_width:
        return size
    guess = max(min_size, min(size - 1, size * max_width // max(1, width)))
    if text_size(text, guess, bold)[0] <= max_width:
        while guess + 1 < size and text_size(text, guess + 1, bold)[0] <= max_width:
            guess += 1
        return guess
    while guess > min_size and text_size(text, guess, bold)[0] > max_width:
        guess -= 1
    return guess


def _fit_text(text: str, max_width: int, size: int, bold: bool, min_size: int) -> tuple[str, int]:
    size = _fit_size(text, max_width, size, bold, min_size)
    if text_size(text, size, bold)[0] <= max_width:
        return text, size
    while len(text) > 1 and text_size(text + "…", size, bold)[0] > max_width:
        text = text[:-1]
    return text.rstrip() + "…", size


def wrap(text: str, max_width: int, size: int, bold: bool = False) -> list[str]:
    """`text` broken into lines at spaces, each at most `max_width` wide at `size` (greedy; a word wider than a
    line on its own is shortened with '…')."""
    lines, cut = _wrap(text, max_width, size, bold)
    if cut:
        _note_cut(text)
    return lines


def _wrap(text: str, max_width: int, size: int, bold: bool) -> tuple[list[str], bool]:
    lines: list[str] = []
    line = ""
    cut = False
    for word in text.split():
        joined = f"{line} {word}" if line else word
        if not line or text_size(joined, size, bold)[0] <= max_width:
            line = joined
        else:
            lines.append(line)
            line = word
        if text_size(line, size, bold)[0] > max_width and " " not in line:
            line = _fit_text(line, max_width, size, bold, size)[0]
            cut = True
    if line:
        lines.append(line)
    return lines or [""], cut


def fit_lines(
    text: str,
    max_width: int,
    size: int,
    bold: bool = False,
    min_size: int = 12,
    max_lines: int = 2,
    one_line_min: int | None = None,
) -> tuple[list[str], int]:
    """`text` on one line as `fit_text` gives it (shrunk at most to `one_line_min`, default `min_size`) if it fits
    so; else wrapped on at most `max_lines` lines at the largest size >= `min_size` that fits, the last line
    shortened with '…' if even that does not."""
    shown, fsize = _fit_text(text, max_width, size, bold, min_size if one_line_min is None else one_line_min)
    if shown == text or max_lines < 2:
        if shown != text:
            _note_cut(text)
        return [shown], fsize
    for s in range(size, min_size - 1, -1):
        lines, cut = _wrap(text, max_width, s, bold)
        if len(lines) <= max_lines and not cut:  # no word shortened
            return lines, s
    lines, cut = _wrap(text, max_width, min_size, bold)
    _note_cut(text)  # a word too long even alone, or too many lines: shortened
    if len(lines) <= max_lines:
        return lines, min_size
    last = _fit_text(" ".join(lines[max_lines - 1 :]), max_width, min_size, bold, min_size)[0]
    return [*lines[: max_lines - 1], last], min_size


_RECORD: list[str] | None = None  # while `recording()`: every string `text` draws


@contextmanager
def recording() -> Iterator[list[str]]:
    """Every string drawn (by `text`, the one function that draws words) while inside: for the tests that check
    that every label went through the translation catalogs. Cached sprites and parts are not drawn again: empty
    the caches first, or draw in a language no cache has seen."""
    global _RECORD
    saved, _RECORD = _RECORD, []
    try:
        yield _RECORD
    finally:
        _RECORD = saved


@contextmanager
def unobserved() -> Iterator[None]:
    """Nothing drawn inside is noted by `recording()` or `shortened()`: for the sample boards a palette is found
    from (`render.palette`), drawn whenever the first board of a game is encoded."""
    global _RECORD, _SHORTENED
    saved, _RECORD, _SHORTENED = (_RECORD, _SHORTENED), None, None
    try:
        yield
    finally:
        _RECORD, _SHORTENED = saved


def text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int = 16,
    fill: RGB = INK,
    *,
    bold: bool = False,
    anchor: str = "la",
    outline: RGB | None = None,
    stroke: int = 2,
) -> None:
    """Draw `s`; with `outline`, a contrasting stroke keeps it readable over any tile colour.

    The glyph masks are rendered once per (text, size, anchor) and cached, then stamped with `bitmap`:
    boards repeat the same labels (cell names, numbers, names) and font rendering is the costliest step.
    """
    if _RECORD is not None:
        _RECORD.append(s)
    stroke = stroke if outline is not None else 0
    (dx, dy), inner, outer = _text_masks(s, size, bold, anchor, stroke)
    pos = (round(xy[0]) + dx, round(xy[1]) + dy)
    if isinstance(d, PaletteDraw):
        _text_on_palette(d, pos, (s, size, bold, anchor, stroke), inner, outer, fill, outline)
        return
    if outer is not None and outline is not None:
        d.bitmap(pos, outer, fill=outline)
    d.bitmap(pos, inner, fill=fill)


def _text_on_palette(
    d: PaletteDraw,
    pos: tuple[int, int],
    label: tuple[str, int, bool, str, int],
    inner: Image.Image,
    outer: Image.Image | None,
    fill: RGB,
    outline: RGB | None,
) -> None:
    """A label on a palette canvas: over one plain colour (nearly always: a panel, a bar, the background) its
    box is pasted from a sprite drawn once per label, colours and background (`_text_sprite`); over anything else
    the box is taken to RGB, the label blended on it and mapped back (the pixels an RGB board would store)."""
    img, x, y = d.image, pos[0], pos[1]
    w, h = inner.size
    box = (x, y, x + w, y + h)
    if x >= 0 and y >= 0 and x + w <= img.width and y + h <= img.height:
        lo, hi = img.im.crop(box).getextrema()
        if lo == hi:
            img.im.paste(_text_sprite(*label, fill, outline, lo, d.target).im, box)
            return
    patch = img.crop(box).convert("RGB")
    pd = ImageDraw.Draw(patch)
    if outer is not None and outline is not None:
        pd.bitmap((0, 0), outer, fill=outline)
    pd.bitmap((0, 0), inner, fill=fill)
    img.paste(d.target.indexed(patch), (x, y))


@functools.lru_cache(maxsize=4096)  # ~1-4 KiB each (a label's box, a byte a pixel): a few MiB at most
def _text_sprite(
    s: str, size: int, bold: bool, anchor: str, stroke: int, fill: RGB, outline: RGB | None, bg: int, target: Palette
) -> Image.Image:
    """A label's box on the plain palette entry `bg`, as an RGB board would store it: drawn in RGB on a colour
    mapped to that entry (`Palette.canon`: the entry's own colour for every key colour), then mapped to `target`
    (mapping is per pixel, so over a key colour this is exactly the label drawn on the board, then mapped)."""
    _, inner, outer = _text_masks(s, size, bold, anchor, stroke)
    patch = Image.new("RGB", inner.size, target.canon[bg])
    pd = ImageDraw.Draw(patch)
    if outer is not None and outline is not None:
        pd.bitmap((0, 0), outer, fill=outline)
    pd.bitmap((0, 0), inner, fill=fill)
    return target.indexed(patch)


@functools.lru_cache(maxsize=4096)
def _text_masks(
    s: str, size: int, bold: bool, anchor: str, stroke: int
) -> tuple[tuple[int, int], Image.Image, Image.Image | None]:
    """(offset from the anchor point, glyph mask, stroke mask or None) for one label.

    Without a stroke the mask is FreeType's own rendering of the label (`getmask2`, one layout of the text), which
    is the very mask `ImageDraw.text` would stamp: ~2x faster than laying the text out for its box and drawing
    it (a new label, the last-move line, costs ~0.4 ms instead of ~0.8; tests/render/test_parts.py compares)."""
    f = font(size, bold)
    if not stroke:
        mask, offset = f.getmask2(s, "L", anchor=anchor, ink=255, start=(0.0, 0.0), stroke_filled=True)
        if mask.size[0] and mask.size[1]:
            return offset, Image.Image()._new(mask), None
    left, top, right, bottom = f.getbbox(s, anchor=anchor, stroke_width=stroke)
    left, top = int(left), int(top)
    w, h = max(1, int(right) - left), max(1, int(bottom) - top)
    inner = Image.new("L", (w, h), 0)
    ImageDraw.Draw(inner).text((-left, -top), s, font=f, fill=255, anchor=anchor)
    outer = None
    if stroke:
        outer = Image.new("L", (w, h), 0)
        ImageDraw.Draw(outer).text(
            (-left, -top), s, font=f, fill=255, anchor=anchor, stroke_width=stroke, stroke_fill=255
        )
    return (left, top), inner, outer


def contrast(colour: RGB) -> RGB:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = colour
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else WHITE


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """`a` moved a fraction `t` towards `b`."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


# --------------------------------------------------------------------------------------------- shapes


def rounded(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    radius: int,
    fill: RGB | None = None,
    outline: RGB | None = None,
    width: int = 1,
) -> None:
    """`d.rounded_rectangle(box, radius, fill, outline, width)`, the same pixels, quicker: for a whole-pixel box
    larger than its corners, the corners are pasted from sprites drawn once per look (`_rounded_parts`) and the
    straight parts filled as rectangles (Pillow's pie slices and arcs cost ~4x more for a panel)."""
    c = radius + width + 1  # a corner's side: the straight parts begin after it
    if (
        any(type(v) is not int for v in box)
        or type(radius) is not int
        or box[2] - box[0] < 2 * c + 2
        or box[3] - box[1] < 2 * c + 2
    ):
        d.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
        return
    x0, y0, x1, y1 = (int(v) for v in box)
    corners, bands, middle = _rounded_parts(radius, fill, outline, width)
    img = d._image  # the image an ImageDraw draws on
    at = ((x0, y0), (x1 - c + 1, y0), (x0, y1 - c + 1), (x1 - c + 1, y1 - c + 1))
    for sprite, xy in zip(corners, at, strict=True):
        paste(img, sprite, xy, sprite)
    if middle is not None:  # the middle's colour where no corner is: three rectangles, no pixel filled twice
        d.rectangle((x0 + c, y0, x1 - c, y0 + c - 1), fill=middle)
        d.rectangle((x0, y0 + c, x1, y1 - c), fill=middle)
        d.rectangle((x0 + c, y1 - c + 1, x1 - c, y1), fill=middle)
    top, bottom, left, right = bands
    for k0, k1, colour in top:
        d.rectangle((x0 + c, y0 + k0, x1 - c, y0 + k1), fill=colour)
    for k0, k1, colour in bottom:
        d.rectangle((x0 + c, y1 - c + 1 + k0, x1 - c, y1 - c + 1 + k1), fill=colour)
    for k0, k1, colour in left:
        d.rectangle((x0 + k0, y0 + c, x0 + k1, y1 - c), fill=colour)
    for k0, k1, colour in right:
        d.rectangle((x1 - c + 1 + k0, y0 + c, x1 - c + 1 + k1, y1 - c), fill=colour)


Runs = tuple[tuple[int, int, RGB], ...]


@functools.lru_cache(maxsize=256)  # each ~4 small sprites
def _rounded_parts(
    radius: int, fill: RGB | None, outline: RGB | None, width: int
) -> tuple[tuple[Image.Image, ...], tuple[Runs, Runs, Runs, Runs], RGB | None]:
    """Pillow's rounded rectangle of this look drawn once at the smallest size with straight parts: its four
    corners (RGBA, clear outside), the runs of colour across each band (top, bottom, left, right: (first, last,
    colour) from the band's outer side, those differing from the middle) and the middle's colour (None: clear)."""
    c = radius + width + 1
    s = 2 * c + 1
    small = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(small).rounded_rectangle(
        (0, 0, s - 1, s - 1),
        radius=radius,
        fill=(*fill, 255) if fill is not None else None,
        outline=(*outline, 255) if outline is not None else None,
        width=width,
    )
    px = small.load()
    assert px is not None

    def colour(x: int, y: int) -> RGB | None:
        r, g, b, a = cast(tuple[int, int, int, int], px[x, y])
        return (r, g, b) if a else None

    middle = colour(c, c)

    def runs(cells: list[RGB | None]) -> Runs:
        out: list[tuple[int, int, RGB]] = []
        for k, col in enumerate(cells):
            if col is None or col == middle:
                continue
            if out and out[-1][1] == k - 1 and out[-1][2] == col:
                out[-1] = (out[-1][0], k, col)
            else:
                out.append((k, k, col))
        return tuple(out)

    bands = (
        runs([colour(c, k) for k in range(c)]),
        runs([colour(c, s - c + k) for k in range(c)]),
        runs([colour(k, c) for k in range(c)]),
        runs([colour(s - c + k, c) for k in range(c)]),
    )
    corners = tuple(small.crop(b) for b in ((0, 0, c, c), (s - c, 0, s, c), (0, s - c, c, s), (s - c, s - c, s, s)))
    return corners, bands, middle


def panel(
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    *,
    fill: RGB = PANEL,
    edge: RGB = PANEL_EDGE,
    width: int = 2,
    radius: int = 10,
) -> None:
    """A rounded card to group related things."""
    rounded(d, box, radius, fill=fill, outline=edge, width=width)


@functools.lru_cache(maxsize=128)
def rounded_sprite(w: int, h: int, radius: int, fill: RGB, bg: RGB) -> Image.Image:
    """A filled rounded rectangle (w + 1) x (h + 1) on `bg`, drawn once: pasted at a whole-pixel corner over a
    plain `bg` area it gives the pixels `rounded_rectangle` draws there (at most ~1 MiB: 128 title bars)."""
    img = Image.new("RGB", (w + 1, h + 1), bg)
    ImageDraw.Draw(img).rounded_rectangle((0, 0, w, h), radius=radius, fill=fill)
    return img


def title_bar(
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    title: str,
    *,
    fill: RGB = INK,
    size: int = 20,
    right: str = "",
    right_fill: RGB | None = None,
    on: tuple[Image.Image, RGB] | None = None,
) -> None:
    """A dark heading strip with a title on the left and an optional note on the right. `on` = (the image `d`
    draws on, the plain colour under `box`): the strip is pasted from a cached sprite (faster, same pixels)."""
    x0, y0, x1, y1 = box
    if on is None:
        rounded(d, box, 8, fill=fill)
    else:
        paste(on[0], rounded_sprite(x1 - x0, y1 - y0, 8, fill, on[1]), (x0, y0))
    cy = (y0 + y1) // 2
    fg = contrast(fill)
    right_size = size
    if right and text_size(right, size, True)[0] > (x1 - x0) // 2 - 26:  # a long note: at most half the bar
        right, right_size = fit_text(right, (x1 - x0) // 2 - 26, size, True)
    right_w = text_size(right, right_size, True)[0] + 16 if right else 0
    shown, fsize = fit_text(title, x1 - x0 - 20 - right_w, size, True)
    text(d, (x0 + 10, cy), shown, fsize, fg, bold=True, anchor="lm")
    if right:
        text(d, (x1 - 10, cy), right, right_size, right_fill or fg, bold=True, anchor="rm")


def chip(
    d: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    label: str,
    colour: RGB,
    *,
    size: int = 15,
    pad: int = 6,
    bold: bool = True,
) -> int:
    """A small coloured label (legend entry, currency name...). Returns its width. Over one plain colour it is
    pasted from a sprite drawn once on that colour (`chip_sprite`: the same pixels)."""
    w, h = text_size(label, size, bold)
    x, y = xy
    box = (x, y, x + w + 2 * pad, y + size + 2 * pad - 2)
    bg = plain_under(d, box) if type(x) is int and type(y) is int else None
    if bg is not None:
        paste(d._image, chip_sprite(label, colour, bg, size, pad, bold), (x, y))
        return box[2] - box[0]
    _chip(d, box, label, colour, size, pad, bold)
    return box[2] - box[0]


def plain_under(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> RGB | None:
    """The colour under `box` (both corners inclusive) when it is one plain colour inside the image, else None
    (on a palette canvas: a colour mapped to that entry, `Palette.canon`)."""
    x0, y0, x1, y1 = box
    width, height = d._image.size
    if x0 < 0 or y0 < 0 or x1 >= width or y1 >= height:
        return None
    region = d.im.crop((x0, y0, x1 + 1, y1 + 1))
    if isinstance(d, PaletteDraw):
        lo, hi = region.getextrema()
        return d.target.canon[lo] if lo == hi else None
    if d._image.mode != "RGB":
        return None
    bands = [region.getband(i).getextrema() for i in range(3)]
    if all(lo == hi for lo, hi in bands):
        return (bands[0][0], bands[1][0], bands[2][0])
    return None


def _chip(
    d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], label: str, colour: RGB, size: int, pad: int, bold: bool
) -> None:
    rounded(d, box, 6, fill=colour, outline=mix(colour, INK, 0.5), width=1)
    text(d, (box[0] + pad, (box[1] + box[3]) // 2), label, size, contrast(colour), bold=bold, anchor="lm")


@functools.lru_cache(maxsize=256)
def chip_sprite(label: str, colour: RGB, bg: RGB, size: int = 15, pad: int = 6, bold: bool = True) -> Image.Image:
    """`chip` drawn once on a `bg` background, for `paste_chip`. Never draw on it (it is shared)."""
    w, _ = text_size(label, size, bold)
    img = Image.new("RGB", (w + 2 * pad + 1, size + 2 * pad - 1), bg)
    _chip(ImageDraw.Draw(img), (0, 0, w + 2 * pad, size + 2 * pad - 2), label, colour, size, pad, bold)
    return img


def paste_chip(
    img: Image.Image,
    xy: tuple[int, int],
    label: str,
    colour: RGB,
    bg: RGB,
    *,
    size: int = 15,
    pad: int = 6,
    bold: bool = True,
) -> int:
    """`chip` at integer `xy` on a plain `bg` area, pasted from a cached sprite (the same pixels: every position
    in a chip is a whole pixel from its corner). Returns its width."""
    sprite = chip_sprite(label, colour, bg, size, pad, bold)
    paste(img, sprite, xy)
    return sprite.width - 1


def highlight_box(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], width: int = 5) -> None:
    """The marker of the last move (or a tentative placement): a thick magenta frame."""
    x0, y0, x1, y1 = box
    d.rectangle((x0 - width // 2, y0 - width // 2, x1 + width // 2, y1 + width // 2), outline=HIGHLIGHT, width=width)


def regular_polygon(cx: float, cy: float, r: float, n: int, rotation_deg: float = 0.0) -> list[tuple[float, float]]:
    """Corners of a regular n-gon centred on (cx, cy) with circumradius r."""
    return [
        (
            cx + r * math.cos(math.radians(rotation_deg + 360 * i / n)),
            cy + r * math.sin(math.radians(rotation_deg + 360 * i / n)),
        )
        for i in range(n)
    ]


def star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A five-pointed star (score markers, bonus marks)."""
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


# --------------------------------------------------------------------------------------------- pictograms


def building_icon(d: ImageDraw.ImageDraw, kind: str, box: tuple[float, float, float, float], ink: RGB) -> None:
    """A pictogram per building type (Alhambra and Gardens share the names), so types differ by shape as well
    as colour: pavilion dome, seraglio gate, arcades colonnade, chambers windows, garden tree, tower, fountain."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    lw = max(1, round(w / 14))
    if kind == "pavilion":  # a dome on a base with a spire
        d.rectangle((x0 + w * 0.18, y0 + h * 0.55, x1 - w * 0.18, y1 - h * 0.05), fill=ink)
        d.pieslice((x0 + w * 0.18, y0 + h * 0.22, x1 - w * 0.18, y0 + h * 0.88), 180, 360, fill=ink)
        d.line((cx, y0 + h * 0.02, cx, y0 + h * 0.25), fill=ink, width=lw)
    elif kind == "seraglio":  # a wide palace with a horseshoe gate
        d.rectangle((x0 + w * 0.08, y0 + h * 0.3, x1 - w * 0.08, y1 - h * 0.05), fill=ink)
        d.polygon([(x0 + w * 0.08, y0 + h * 0.3), (cx, y0 + h * 0.05), (x1 - w * 0.08, y0 + h * 0.3)], fill=ink)
        bg = contrast(ink)
        d.rectangle((cx - w * 0.14, y0 + h * 0.62, cx + w * 0.14, y1 - h * 0.05), fill=bg)
        d.ellipse((cx - w * 0.14, y0 + h * 0.48, cx + w * 0.14, y0 + h * 0.76), fill=bg)
    elif kind == "arcades":  # a colonnade: three arches
        d.rectangle((x0 + w * 0.04, y0 + h * 0.2, x1 - w * 0.04, y1 - h * 0.05), fill=ink)
        bg = contrast(ink)
        for i in range(3):
            ax = x0 + w * (0.12 + 0.28 * i)
            d.rectangle((ax, y0 + h * 0.55, ax + w * 0.2, y1 - h * 0.05), fill=bg)
            d.ellipse((ax, y0 + h * 0.42, ax + w * 0.2, y0 + h * 0.68), fill=bg)
    elif kind == "chambers":  # a block with a grid of windows
        d.rectangle((x0 + w * 0.1, y0 + h * 0.1, x1 - w * 0.1, y1 - h * 0.05), fill=ink)
        bg = contrast(ink)
        for i in range(2):
            for j in range(2):
                wx = x0 + w * (0.24 + 0.32 * i)
                wy = y0 + h * (0.24 + 0.34 * j)
                d.rectangle((wx, wy, wx + w * 0.2, wy + h * 0.22), fill=bg)
    elif kind == "garden":  # a tree
        d.rectangle((cx - w * 0.07, y0 + h * 0.55, cx + w * 0.07, y1 - h * 0.05), fill=ink)
        d.ellipse((x0 + w * 0.12, y0 + h * 0.05, x1 - w * 0.12, y0 + h * 0.7), fill=ink)
    elif kind == "tower":  # a tall crenellated tower
        d.rectangle((x0 + w * 0.28, y0 + h * 0.2, x1 - w * 0.28, y1 - h * 0.05), fill=ink)
        for i in range(3):
            mx = x0 + w * (0.28 + 0.16 * i)
            d.rectangle((mx, y0 + h * 0.05, mx + w * 0.12, y0 + h * 0.22), fill=ink)
        bg = contrast(ink)
        d.rectangle((cx - w * 0.05, y0 + h * 0.35, cx + w * 0.05, y0 + h * 0.5), fill=bg)
    elif kind == "fountain":  # a basin with a jet
        d.ellipse((x0 + w * 0.1, y0 + h * 0.45, x1 - w * 0.1, y1 - h * 0.05), fill=(60, 130, 200))
        d.line((cx, y0 + h * 0.1, cx, y0 + h * 0.6), fill=(60, 130, 200), width=max(2, lw * 2))
        d.arc((cx - w * 0.3, y0 + h * 0.1, cx, y0 + h * 0.6), 180, 270, fill=(60, 130, 200), width=lw)
        d.arc((cx, y0 + h * 0.1, cx + w * 0.3, y0 + h * 0.6), 270, 360, fill=(60, 130, 200), width=lw)


# --------------------------------------------------------------------------------------------- players


def player_label(player: str, players: Sequence[str], names: Mapping[str, str] | None, _: Words = ENGLISH) -> str:
    """The name shown for `player`: the given display name, else 'Player N' by seat (ids are opaque numbers)."""
    if names and names.get(player):
        return str(names[player])
    try:
        # i18n: a player without a display name, by seat: "Player 2"
        return _("Player {n}", n=list(players).index(player) + 1)
    except ValueError:
        return player if len(player) <= 12 else player[:10] + "…"


# --------------------------------------------------------------------------------------------- shared sections


LAST_MOVE_H = 34  # height of the "Last move: ..." line under the header


def last_move_line(d: ImageDraw.ImageDraw, move: str, x: int, y: int, w: int, _: Words = ENGLISH) -> int:
    """The "Last move: Ana buys the Tower..." line in the highlight colour (the marks on the board match it).
    Returns the height used: 0 when there is no move yet."""
    if not move:
        return 0
    # i18n: above the board; {move} is a player's name and what they did ("Ana buys the Tower (7)")
    shown, size = fit_text(_("Last move: {move}", move=move), w - 10, 18, bold=True)
    text(d, (x + 4, y + 4), shown, size, HIGHLIGHT, bold=True)
    return LAST_MOVE_H


@dataclass(slots=True)
class Results:
    """A results sheet: column titles, per player id the numbers in each column (the total last), the winners,
    and notes printed under the table."""

    columns: tuple[str, ...]
    rows: dict[str, tuple[int, ...]]
    winners: tuple[str, ...]
    notes: tuple[str, ...] = ()


RESULTS_ROW_H = 34


def _note_lines(note: str, w: int) -> tuple[list[str], int]:
    """A note under the results table (the sheet `w` wide): on one line, else wrapped on up to 3."""
    return fit_lines(note, w - 28, 15, True, min_size=11, max_lines=3)


def results_height(res: Results, w: int | None = None) -> int:
    """The results sheet's height; `w`: its width (the notes wrap when they do not fit; None: a line each)."""
    lines = sum(len(_note_lines(note, w)[0]) if w is not None else 1 for note in res.notes)
    return 54 + 36 + RESULTS_ROW_H * len(res.rows) + 22 * lines + 16


def results_sheet(
    d: ImageDraw.ImageDraw,
    res: Results,
    names: Mapping[str, str],
    x: int,
    y: int,
    w: int,
    *,
    name_w: int = 200,
    order: Sequence[str] | None = None,
    _: Words = ENGLISH,
) -> int:
    """The final breakdown: one row per player (best total first unless `order` is given), a column per
    scoring part, winners named in the title and in green. Returns the height used."""
    row_h = RESULTS_ROW_H
    h = results_height(res, w)
    panel(d, (x, y, x + w, y + h), fill=SHEET, edge=GOOD, width=3)
    win = ", ".join(names.get(p, p) for p in res.winners)
    # i18n: the title of the results sheet; {names}: the winners' names, comma-separated
    title = _("Final results — winner: {names}", "Final results — winners: {names}", n=len(res.winners), names=win)
    shown, size = fit_text(title, w - 28, 22, bold=True)
    text(d, (x + 14, y + 12), shown, size, GOOD, bold=True)
    ncol = len(res.columns)
    col_w = (w - 28 - name_w) / max(1, ncol)
    hy = y + 54
    for j, column in enumerate(res.columns):  # one line down to 12 px, else two lines
        lines, size = fit_lines(column, int(col_w) - 4, 15, True, min_size=10, one_line_min=12)
        cx = x + 14 + name_w + (j + 0.5) * col_w
        for k, line in enumerate(lines):
            text(d, (cx, hy + 10 + (k - (len(lines) - 1) / 2) * (size + 2)), line, size, MUTED, bold=True, anchor="mm")
    if order is None:
        order = sorted(res.rows, key=lambda pid: -res.rows[pid][-1])
    for i, pid in enumerate(order):
        ry = hy + 36 + i * row_h
        if i % 2 == 0:
            d.rectangle((x + 8, ry - 4, x + w - 8, ry + row_h - 6), fill=SHEET_ROW)
        nm, size = fit_text(names.get(pid, pid), name_w - 10, 18, bold=True)
        text(d, (x + 14, ry + row_h / 2 - 5), nm, size, GOOD if pid in res.winners else INK, bold=True, anchor="lm")
        for j, v in enumerate(res.rows[pid]):
            text(
                d,
                (x + 14 + name_w + (j + 0.5) * col_w, ry + row_h / 2 - 5),
                str(v),
                20 if j == ncol - 1 else 17,
                INK,
                bold=True,
                anchor="mm",
            )
    ny = hy + 36 + row_h * len(res.rows) + 4
    for note in res.notes:
        lines, size = _note_lines(note, w)
        for line in lines:
            text(d, (x + 14, ny), line, size, MUTED, bold=True)
            ny += 22
    return h


# --------------------------------------------------------------------------------------------- images


def entry_point(model: Callable[..., Any], board: Callable[..., Image.Image]) -> Callable[..., Image.Image]:
    """A game renderer's `draw(view, viewer, names, highlight, focus, lang)` (render/__init__.py), from its two
    halves: `model(view, viewer, names, words)` reads the view, `board(model, highlight=, focus=)` draws it."""

    def draw(
        view: Any,
        viewer: str | None = None,
        names: Mapping[str, str] | None = None,
        highlight: Any = None,
        focus: bool = False,
        lang: str = "en",
    ) -> Image.Image:
        return board(model(view, viewer, names, words(lang)), highlight=highlight, focus=focus)

    return draw


def canvas(width: int, height: int, colour: RGB = BG) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A board (or a part's) canvas filled with `colour`, and its drawer: RGB, or while `drawing_on(palette)` a "P"
    image in that palette (see `PaletteDraw`)."""
    target = _TARGET.get()
    if target is None:
        img = Image.new("RGB", (int(width), int(height)), colour)
        return img, ImageDraw.Draw(img)
    w, h = int(width), int(height)
    stride = w + 1
    rows = bytearray(b"%c" % target.index(colour)) * (stride * h + 1)  # the pixels filled with `colour`...
    rows[::stride] = bytes(h + 1)  # ...and each row after its filter byte 0
    core = _pil_core.map_buffer(rows, (w, h), "raw", 1, ("P", stride, 1))
    img = Image.Image()._new(core)
    img.putpalette(target.plte)
    img.info[_PALETTE_INFO] = target
    img.info[_ROWS_INFO] = (rows, core)
    return img, PaletteDraw(img, target)


def drawer(img: Image.Image) -> ImageDraw.ImageDraw:
    """The drawer for `img`: a `PaletteDraw` for a palette canvas (`canvas` while `drawing_on`), else Pillow's."""
    if img.mode == "P":
        target = _TARGET.get()
        if target is None:
            raise ValueError("a palette image is drawn on only inside drawing_on(palette)")
        return PaletteDraw(img, target)
    return ImageDraw.Draw(img)


# --------------------------------------------------------------------------------------------- palette canvases

# The palette boards are drawn on while inside `drawing_on` (None: RGB). A context variable: each thread (or task)
# drawing boards has its own.
_TARGET: contextvars.ContextVar[Palette | None] = contextvars.ContextVar("render_target", default=None)
_PALETTE_INFO = "render.palette"  # a palette canvas's `info` key naming its Palette (for `encode_png`)
# A palette canvas's `info` key: (its pixel memory, the Pillow core image mapped on it). The canvas's pixels live in
# a buffer of PNG scanlines (each row after a filter byte 0, `canvas`), so `encode_png` deflates the buffer as it is
# instead of copying the pixels out first (Pillow's `tobytes`: ~0.8 ms and 2.5 MB for a 6-player Alhambra). A copy
# of the image (`crop`, `copy`) carries the key but another core: `encode_png` checks that it is this very one.
_ROWS_INFO = "render.rows"


@contextmanager
def drawing_on(target: Palette | None) -> Iterator[None]:
    """Boards drawn inside are "P" images in `target`'s colours (None: RGB), drawn directly so: every fill, line
    and pasted sprite takes the palette entry an RGB board's pixel would be mapped to (`Palette.index`,
    `Palette.indexed`: the mapping is per pixel), and text over a plain colour is pasted from a sprite drawn once
    per label and background (`_text_sprite`). The image is the one mapping the RGB board gives, without mapping
    ~2 million pixels per board (~2.8 ms for a 6-player Alhambra) and with a byte a pixel to fill, paste and keep
    instead of four (tests/render/test_encode.py compares both ways)."""
    token = _TARGET.set(target)
    try:
        yield
    finally:
        _TARGET.reset(token)


class PaletteDraw(ImageDraw.ImageDraw):
    """Pillow's drawer for a palette canvas: colours given as RGB are drawn as the entry `target` maps them to
    (Pillow's own would add entries to the image's palette). `text` pastes labels (see `_text_on_palette`)."""

    def __init__(self, img: Image.Image, target: Palette) -> None:
        super().__init__(img)
        self.palette = None  # colours are mapped here, never added to the image's palette
        self.image, self.target = img, target

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        index = self.target.index
        return super()._getink(
            index(ink) if isinstance(ink, tuple) else ink, index(fill) if isinstance(fill, tuple) else fill
        )


def paste(img: Image.Image, sprite: Image.Image, xy: tuple[int, int], mask: Image.Image | None = None) -> None:
    """`img.paste(sprite, xy, mask)` for any board canvas: on a palette canvas an RGB(A) sprite is pasted as its
    entries in the palette, through a 1-bit form of `mask` (or of the sprite's alpha when `mask` is the sprite)
    when that is all opaque or clear (both found once per sprite, mask and palette: `_mapped`), else blended in RGB
    over the box and mapped back (what an RGB board stores there)."""
    if img.mode != "P" or sprite.mode == "P":
        img.paste(sprite, xy, mask)
        return
    target = _TARGET.get()
    assert target is not None, "a palette image is drawn on only inside drawing_on(palette)"
    other = None if mask is sprite else mask  # (a sprite never holds itself: no reference cycle)
    found = sprite.__dict__.get(_MAPPED)
    mapped = found.get((target, _mask_key(sprite, mask))) if found is not None else None
    if mapped is None or mapped[0] is not other:
        mapped = _mapped(sprite, mask, target)
    box = (xy[0], xy[1], xy[0] + sprite.width, xy[1] + sprite.height)
    if mapped[2] is not None:  # Pillow's own paste, without the checks of `Image.paste` (~2x quicker)
        img.im.paste(mapped[1], box, mapped[2])
    elif mask is None:
        img.im.paste(mapped[1], box)
    else:
        patch = img.crop(box).convert("RGB")
        patch.paste(sprite, (0, 0), mask)
        img.paste(target.indexed(patch), xy)


def fill_mask(img: Image.Image, colour: RGB, xy: tuple[int, int], mask: Image.Image) -> None:
    """`colour` wherever the 1-bit `mask` is set, its corner at `xy` (many plain shapes drawn once as a mask)."""
    if img.mode == "P":
        target = _TARGET.get()
        assert target is not None, "a palette image is drawn on only inside drawing_on(palette)"
        img.paste(target.index(colour), (*xy, xy[0] + mask.width, xy[1] + mask.height), mask)
    else:
        img.paste(colour, (*xy, xy[0] + mask.width, xy[1] + mask.height), mask)


_MAPPED = "_render_mapped"  # a sprite's attribute: (palette, _mask_key) -> (mask, its pixels mapped, 1-bit mask)


def _mapped(sprite: Image.Image, mask: Image.Image | None, target: Palette) -> tuple[Any, Any, Any]:
    """`sprite` mapped to `target` and the 1-bit form of `mask` (None without a mask or when it has shades), kept
    on the sprite itself (sprites are cached and shared: what is found lives and dies with them)."""
    binary = None
    if mask is not None and mask.mode == "1":
        binary = mask.im
    elif mask is not None:
        alpha = mask.getchannel("A") if mask.mode in ("RGBA", "LA") else mask
        if alpha.mode == "L" and not any(alpha.histogram()[1:255]):
            binary = alpha.convert("1", dither=Image.Dither.NONE).im
    other = None if mask is sprite else mask
    mapped = (other, target.indexed(sprite).im, binary)
    sprite.__dict__.setdefault(_MAPPED, {})[(target, _mask_key(sprite, mask))] = mapped
    return mapped


def _mask_key(sprite: Image.Image, mask: Image.Image | None) -> int:
    """How `sprite` is pasted, in the key of its mapped forms: 0 opaque, 1 through its own alpha, else the id of
    the mask (kept in the entry, so no other image takes that id while the entry lives)."""
    return 0 if mask is None else 1 if mask is sprite else id(mask)


# --------------------------------------------------------------------------------------------- cached parts


class _Tag:
    """A tag in a frozen key: an object no frozen value can equal."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


_BOOL, _FLOAT, _LIST, _DICT, _SET = map(_Tag, ("bool", "float", "list", "dict", "set"))


_PLAIN = frozenset({str, int, type(None)})  # frozen as themselves
# While a part is drawn (`part`): id of a dataclass frozen for its key -> (it, its frozen form), for the parts
# inside it, whose keys hold the same objects (a player's panel, then their garden): each is frozen once per board.
_FROZEN: contextvars.ContextVar[dict[int, tuple[Any, Hashable]] | None] = contextvars.ContextVar(
    "render_frozen", default=None
)
_FIELDS: dict[type, tuple[str, ...]] = {}  # a dataclass's field names (dataclasses.fields is slow)


def freeze(value: Any) -> Hashable:
    """A hashable stand-in for `value`, equal for two values exactly when they are equal as drawn: the key of a
    cached part. Strings, ints and None as they are; tuples item by item; lists, dicts (their items in order) and
    sets tagged; dataclasses by their class and every field; bools and floats tagged (True == 1 == 1.0 in Python,
    yet they print differently; floats by their exact hex form); a language's `Words` as itself (a language
    installed again, as tests do, has new Words: parts drawn with the old ones are never served for it). Tags are private objects, so no two different
    values freeze alike. Anything else is refused (TypeError): nothing can reach a part without being in its key."""
    kind = type(value)
    if kind in _PLAIN:
        return cast(Hashable, value)
    if kind is tuple:  # most are plain (cells, ids, colours): themselves, without a new tuple
        for item in value:
            if type(item) not in _PLAIN:
                return tuple(map(freeze, value))
        return cast(Hashable, value)
    if kind is bool:
        return (_BOOL, value)
    if kind is float:
        return (_FLOAT, value.hex())
    if kind is list:
        return (_LIST, *map(freeze, value))
    if kind is dict:
        plain = _PLAIN
        return (
            _DICT,
            *((k if type(k) in plain else freeze(k), v if type(v) in plain else freeze(v)) for k, v in value.items()),
        )
    if kind is frozenset or kind is set:
        for item in value:
            if type(item) not in _PLAIN:
                return (_SET, frozenset(map(freeze, value)))
        return (_SET, value if kind is frozenset else frozenset(value))
    if kind is types.FunctionType or kind is Words:  # a section passed on, a language's words: only themselves
        return cast(Hashable, value)
    names = _FIELDS.get(kind)
    if names is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
    if names is not None:
        memo = _FROZEN.get()
        found = memo.get(id(value)) if memo is not None else None
        if found is not None and found[0] is value:
            return found[1]
        frozen = (kind, *(freeze(getattr(value, name)) for name in names))
        if memo is not None:
            memo[id(value)] = (value, frozen)
        return frozen
    raise TypeError(f"cannot key a cached part on a {kind.__name__}")


PART_BUDGET = 64 * 1024 * 1024  # pixel bytes the part cache of a process holds at most
PART_LIMIT = 1024  # and at most this many parts (a key holds one section's data: a player's, ~1-3 KiB)


class PartCache:
    """A least-recently-used store of drawn parts of boards (a player's panel, the market...) keyed by exactly
    what they show, bounded in pixel bytes and in entries. One per process (`PARTS`): the bot draws a game's every
    move in the same worker, so the parts a move did not change are pasted again instead of drawn.

    A stored part is a copy of pixels drawn for its key and is never drawn on, so a warm cache gives the very
    pixels a cold one draws. `enabled = False` draws every section on the board itself (no cache: tests compare
    both ways); `check = True` draws every part found again and fails if it differs from the stored one (tests).

    Memory: at most `budget` bytes of pixels (64 MiB: ~5 boards' worth of 6-player Alhambra parts) and `limit`
    entries, each key holding one section's data (~1-3 KiB; 1024 entries: ~3 MiB more at most)."""

    def __init__(self, budget: int = PART_BUDGET, limit: int = PART_LIMIT) -> None:
        self.budget, self.limit = budget, limit
        self.enabled = True
        self.check = False
        self._parts: collections.OrderedDict[Hashable, tuple[Image.Image, int]] = collections.OrderedDict()
        self.bytes = 0  # pixel bytes held now
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._parts)

    def lookup(self, key: Hashable) -> Image.Image | None:
        found = self._parts.get(key)
        if found is None:
            self.misses += 1
            return None
        self._parts.move_to_end(key)
        self.hits += 1
        return found[0]

    def store(self, key: Hashable, img: Image.Image) -> None:
        """Keep `img` under `key` (not if larger than a quarter of the budget), dropping the least recently used
        parts beyond the bounds."""
        size = image_bytes(img)
        if size > self.budget // 4 or key in self._parts:
            return
        self._parts[key] = (img, size)
        self.bytes += size
        while self.bytes > self.budget or len(self._parts) > self.limit:
            _, (_, dropped) = self._parts.popitem(last=False)
            self.bytes -= dropped

    def clear(self) -> None:
        self._parts.clear()
        self.bytes = self.hits = self.misses = 0


def image_bytes(img: Image.Image) -> int:
    """What Pillow keeps for `img`'s pixels: 4 bytes a pixel for RGB(A) (padded), 1 for L, P and 1."""
    return img.width * img.height * (4 if len(img.getbands()) > 1 else 1)


PARTS = PartCache()


def part(
    img: Image.Image,
    box: tuple[int, int, int, int],
    section: Callable[..., object],
    *args: Any,
    viewer: str | None = None,
    bg: RGB = BG,
) -> None:
    """Draw `section(img, draw, x, y, *args)` (what it draws with its top-left corner at (x, y) = box[:2], staying
    within `box`, both corners inclusive, over a plain `bg` area) as a cached part: the box is pasted from the
    part cache if this section was drawn for the same data before, else the section draws on a `bg` canvas of its
    own, which is kept and pasted.

    The key is the section, the box's size and the parity of its corner, `bg`, `viewer`, the colours of the
    palette drawn on (`drawing_on`; None for RGB) and `freeze(args)`: a
    section reads nothing but its arguments (and constants), and a part holds nothing but what its section drew,
    so a part is only ever reused for the same data; `viewer` keeps the parts of one player's private image (a
    hand, a preview) to that player. A section that draws words takes the `Words` it draws them with as an
    argument, so its parts are keyed by the language too.

    A part is drawn in place, on the board itself, and the box's pixels kept; the parity of its corner is in the
    key (positions in whole and half pixels round half to even, so a section drawn at an odd x lands on other
    pixels than at an even one). Only the box is kept and pasted, never a pixel around it (a neighbour's).

    With `PARTS.check` (tests) what a part rests on is verified as boards are drawn: the box is plain `bg` before a
    section draws in place, what it drew there is what it draws on a canvas of its own, and a part served is what
    the section draws now. Tests draw seeded games with the cache (in order, reversed, shuffled) and without it
    (`PARTS.enabled = False`: every section drawn on the board itself) and compare the bytes."""
    x0, y0, x1, y1 = box
    if not PARTS.enabled:
        section(img, drawer(img), x0, y0, *args)
        return
    px, py = x0 & 1, y0 & 1
    target = _TARGET.get()
    outermost = _FROZEN.get() is None
    token = _FROZEN.set({}) if outermost else None
    try:
        key = (section, px, py, x1 - x0, y1 - y0, bg, viewer, target.plte if target else None, freeze(args))
        found = PARTS.lookup(key)
        if found is None:  # drawn in place (the box is plain `bg`) and kept: no canvas of its own to fill and paste
            if PARTS.check and not _plain(img, box, bg):
                raise AssertionError(
                    f"{section.__qualname__} would be drawn over something else: a part's box is plain"
                )
            section(img, drawer(img), x0, y0, *args)
            drawn = img.crop((x0, y0, x1 + 1, y1 + 1))
            if PARTS.check and _draw_part(box, section, args, bg).tobytes() != drawn.tobytes():
                raise AssertionError(
                    f"{section.__qualname__} drew other pixels on the board than on a canvas of its own"
                )
            PARTS.store(key, drawn)
            return
    finally:
        if token is not None:
            _FROZEN.reset(token)
    if PARTS.check and _draw_part(box, section, args, bg).tobytes() != found.tobytes():
        raise AssertionError(f"the part cache served {section.__qualname__} a part drawn for other data")
    img.paste(found, (x0, y0))


def _plain(img: Image.Image, box: tuple[int, int, int, int], bg: RGB) -> bool:
    """True if the box (both corners inclusive) of a board is all `bg` (on a palette canvas: its entry)."""
    region = img.crop((box[0], box[1], box[2] + 1, box[3] + 1))
    target = _TARGET.get()
    if img.mode == "P" and target is not None:
        return region.getextrema() == (target.index(bg),) * 2
    return region.convert("RGB").getcolors(1) == [(region.width * region.height, bg)]


def _draw_part(
    box: tuple[int, int, int, int], section: Callable[..., object], args: tuple[Any, ...], bg: RGB
) -> Image.Image:
    """`section` drawn on a `bg` canvas of its own, at the parity of the box's corner (from the even corner at or
    just above and left of it, one plain pixel more on that side when x or y is odd), cropped to the box."""
    x0, y0, x1, y1 = box
    px, py = x0 & 1, y0 & 1
    sub, d = canvas(x1 - x0 + 1 + px, y1 - y0 + 1 + py, bg)
    section(sub, d, px, py, *args)
    return sub.crop((px, py, sub.width, sub.height)) if px or py else sub


def stamp(img: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    """Paste a (cached, transparent) sprite centred on (cx, cy): through its alpha, or through a 1-bit mask of it
    when every pixel is either opaque or clear (hexagons, octagons...: the same pixels, ~3x quicker)."""
    xy = (round(cx - sprite.width / 2), round(cy - sprite.height / 2))
    if img.mode == "P":
        paste(img, sprite, xy, sprite if sprite.mode == "RGBA" else None)
        return
    img.paste(sprite, xy, _stamp_mask(sprite))


# id of a sprite -> (a weak reference to it, its 1-bit mask or None when its alpha has shades): one entry per
# live sprite (the sprite caches bound them), dropped with the sprite
_STAMP_MASKS: dict[int, tuple[weakref.ref[Image.Image], Image.Image | None]] = {}


def _stamp_mask(sprite: Image.Image) -> Image.Image:
    key = id(sprite)
    found = _STAMP_MASKS.get(key)
    if found is not None and found[0]() is sprite:
        return found[1] or sprite
    mask = None
    if sprite.mode == "RGBA":
        alpha = sprite.getchannel("A")
        if not any(alpha.histogram()[1:255]):
            mask = alpha.convert("1", dither=Image.Dither.NONE)

    def forget(_ref: weakref.ref[Image.Image]) -> None:
        _STAMP_MASKS.pop(key, None)

    _STAMP_MASKS[key] = (weakref.ref(sprite, forget), mask)
    return mask or sprite


BASE_PALETTE: tuple[RGB, ...] = (
    BG,
    PANEL,
    PANEL_EDGE,
    INK,
    MUTED,
    WHITE,
    HIGHLIGHT,
    TURN,
    GOOD,
    HAND_BG,
    SHEET,
    SHEET_ROW,
)

# Palette: the key colours exactly, then the image's other colours as found on a 1-in-SAMPLE_STEP grid.
SAMPLE_STEP = 5

_isal_zlib: types.ModuleType | None
try:  # ISA-L's deflate: 5-7x faster than zlib at its fast levels for files of the same size or smaller
    from isal import isal_zlib as _isal_zlib
except ImportError:  # pragma: no cover - depends on the environment
    _isal_zlib = None

DEFLATE = "isal" if _isal_zlib is not None else "zlib"  # which library `encode_png` compresses with


def _deflate(*pieces: bytes | memoryview) -> bytes:
    """zlib stream of the pieces one after the other: ISA-L level 2 when installed (bench/render.py), else zlib
    level 3."""
    packer = _isal_zlib.compressobj(2) if _isal_zlib is not None else zlib.compressobj(3)
    return b"".join((*map(packer.compress, pieces), packer.flush()))


def png_palette(img: Image.Image, key_colours: Iterable[RGB] = ()) -> list[RGB]:
    """The <= 256 colours `img` is stored with: BASE_PALETTE and `key_colours` first and exact (a thin highlight
    frame or a player colour is never lost or shifted), then the rest found by Pillow's fast octree on a
    1-in-SAMPLE_STEP grid of pixels (nearest pixels, so real colours: the anti-aliased text and edge shades).

    Pillow maps a pixel to the entry nearest to the corner of the 4x4x4 cell holding it, so a found colour nearer
    to a key colour's corner than the key itself would take the key's pixels: such colours (within ~5 of the
    key) are left out. Deterministic: the same pixels give the same palette."""
    keys: list[RGB] = list(dict.fromkeys((*BASE_PALETTE, *((c[0], c[1], c[2]) for c in key_colours))))[:256]
    colours: dict[RGB, None] = dict.fromkeys(keys)
    if len(keys) < 256:
        w, h = img.size
        sample = img.resize((max(1, w // SAMPLE_STEP), max(1, h // SAMPLE_STEP)), Image.Resampling.NEAREST)
        found = (
            sample.quantize(
                colors=256 - len(keys), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
            ).getpalette()
            or []
        )
        guarded = _key_corners(tuple(keys))
        for i in range(0, min(len(found), 3 * (256 - len(keys))), 3):
            r, g, b = found[i], found[i + 1], found[i + 2]
            if all(
                (r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2 >= d
                for cr, cg, cb, d in guarded.get((r >> 4, g >> 4, b >> 4), ())
            ):
                colours.setdefault((r, g, b))
    return list(colours)


@functools.lru_cache(maxsize=64)
def _key_corners(keys: tuple[RGB, ...]) -> dict[tuple[int, int, int], tuple[tuple[int, int, int, int], ...]]:
    """Per 16x16x16 cell of RGB, (corner, squared distance to its key) for the key colours whose cell corner a
    colour in that cell might be nearer to than the key is (see `png_palette`)."""
    cells: dict[tuple[int, int, int], list[tuple[int, int, int, int]]] = {}
    for key in keys:
        corner = (key[0] & ~3, key[1] & ~3, key[2] & ~3)
        d = sum((v - c) ** 2 for v, c in zip(key, corner, strict=True))  # <= 27: a rival lies within 6 of corner
        lo = [max(0, c - 6) >> 4 for c in corner]
        hi = [min(255, c + 6) >> 4 for c in corner]
        for r in range(lo[0], hi[0] + 1):
            for g in range(lo[1], hi[1] + 1):
                for b in range(lo[2], hi[2] + 1):
                    cells.setdefault((r, g, b), []).append((*corner, d))
    return {cell: tuple(guards) for cell, guards in cells.items()}


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(tag)))


class Palette:
    """The <= 256 colours an image is stored with, ready to map pixels onto (`encode_png`): a palette found for one
    image, or one fixed for every image of a game (`fixed_palette`). A fixed one is kept and reused, which saves
    finding the colours of each image (~1.2 ms for a 6-player Alhambra) and lets Pillow keep what it learnt
    mapping the shades of earlier boards (~1 ms more): its 256 colours and Pillow's lookup table of ~0.5 MiB."""

    __slots__ = ("__weakref__", "_canon", "_index", "colours", "image", "plte")

    def __init__(self, colours: Sequence[RGB]) -> None:
        self.colours = tuple(colours)[:256]
        self.plte = bytes(v for c in self.colours for v in c)
        self.image = Image.new("P", (1, 1))
        self.image.putpalette(self.plte)
        self._index: dict[tuple[int, ...], int] = {}
        self._canon: tuple[RGB, ...] | None = None

    @property
    def canon(self) -> tuple[RGB, ...]:
        """Per entry, a colour mapped to it: its own colour when that maps to it (every key colour does), else the
        nearest colour within 4 per channel that does (Pillow maps by the corner of a pixel's 4x4x4 cell, so a
        found shade may not map to itself), else its own. Found once (~2 ms), for labels over a plain entry."""
        if self._canon is None:
            steps = sorted(
                ((dr, dg, db) for dr in range(-4, 5) for dg in range(-4, 5) for db in range(-4, 5)),
                key=lambda o: (o[0] ** 2 + o[1] ** 2 + o[2] ** 2, o),
            )
            tries = [
                tuple(min(255, max(0, v + o)) for v, o in zip(c, step, strict=True))
                for c in self.colours
                for step in steps
            ]
            sheet = Image.new("RGB", (len(steps), len(self.colours)))
            sheet.putdata(tries)
            mapped = self.indexed(sheet).tobytes()
            canon = []
            for k, colour in enumerate(self.colours):
                row = range(k * len(steps), (k + 1) * len(steps))
                canon.append(next((cast(RGB, tries[i]) for i in row if mapped[i] == k), colour))
            self._canon = tuple(canon)
        return self._canon

    def indexed(self, img: Image.Image) -> Image.Image:
        """`img` mapped to this palette, each pixel to the entry nearest its colour (no dithering), as a "P" image
        carrying these colours."""
        if img.mode != "RGB":
            img = img.convert("RGB")
        return img.quantize(palette=self.image, dither=Image.Dither.NONE)

    def index(self, colour: tuple[int, ...]) -> int:
        """The entry a pixel of `colour` is mapped to (`indexed`: the same mapping), remembered (at most 4096)."""
        found = self._index.get(colour)
        if found is None:
            found = cast(int, self.indexed(Image.new("RGB", (1, 1), colour[:3])).getpixel((0, 0)))
            if len(self._index) < 4096:
                self._index[colour] = found
        return found


def fixed_palette(samples: Sequence[Image.Image], key_colours: Iterable[RGB] = (), size: int = 256) -> Palette:
    """One palette for many images (every board of a game, every frame of a replay): the key colours exactly, then
    the shades found in `samples` (`png_palette` of them stacked), so each image is mapped without looking for
    its own colours. A colour no sample has is stored as the nearest one the palette has (the samples hold
    every sprite, text and mark a board can have: tests/render/test_encode.py checks boards drawn after). `size`:
    at most that many colours (a replay keeps an index for its transparent pixels)."""
    width = max(s.width for s in samples)
    sheet = Image.new("RGB", (width, sum(s.height for s in samples)), BG)
    y = 0
    for s in samples:
        sheet.paste(s.convert("RGB") if s.mode != "RGB" else s, (0, y))
        y += s.height
    return Palette(png_palette(sheet, key_colours)[:size])


def encode_png(img: Image.Image, key_colours: Iterable[RGB] = (), palette: Palette | None = None) -> bytes:
    """PNG bytes, small and quick to make: 8-bit indexed colour, no filter, one IDAT chunk. The colours: `palette`
    (a game's fixed one) if given, else this image's own (`png_palette` with `key_colours`). A board drawn on
    `palette` (`drawing_on`: its canvas names it) is written as it is, unmapped, its scanlines deflated straight
    from the canvas's own memory (`canvas` keeps the pixels as PNG rows, each after its filter byte): ~1.3 ms for a
    6-player Alhambra, the deflating alone.

    Boards are flat colours plus anti-aliased text, so 256 colours without dithering look the same as RGB and
    make the file ~2x smaller. Per 6-player Alhambra board (1460x1532-1804, bench/render.py): mapping every pixel
    to its nearest entry (Pillow) ~2.7 ms with a fixed palette (~4 ms and ~1.2 ms to find the palette without),
    the scanlines ~0.4 ms (each row followed by a zero, by Pillow's raw encoder: the zero is the next row's filter
    byte), deflate ~1 ms with ISA-L, ~4.5 ms in all and ~90 KiB (zlib would take ~4 ms to deflate to the same
    size, which is why the file is written here rather than by Pillow's PNG plugin). Deterministic: same pixels,
    same bytes (for a given `DEFLATE` and palette).
    """
    w, h = img.size
    if palette is not None and img.mode == "P" and img.info.get(_PALETTE_INFO) is palette:
        indexed = img  # drawn on this very palette (`drawing_on`)
        rows, core = img.info.get(_ROWS_INFO, (None, None))
        if rows is not None and core is img.im:  # its own scanlines, filter bytes included: deflated as they are
            lines = memoryview(rows)[: (w + 1) * h]
            # deflated in the same two pieces as a copy's scanlines: the same bytes either way
            return _png(w, h, cast(Palette, palette).plte, (lines[:1], lines[1:]))
    else:
        if img.mode != "RGB":
            img = img.convert("RGB")
        if palette is None:
            palette = Palette(png_palette(img, key_colours))
        indexed = palette.indexed(img)
    plte = cast(Palette, palette).plte  # (set in both branches)
    rows = memoryview(indexed.tobytes("raw", "P", w + 1))  # each row then a zero (Pillow pads a row to its stride)
    return _png(w, h, plte, (b"\x00", rows[:-1]))


def _png(w: int, h: int, plte: bytes, scanlines: tuple[bytes | memoryview, ...]) -> bytes:
    """A PNG of 8-bit palette pixels from its scanlines, one piece after the other (each row after its filter
    byte 0: no filter)."""
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),  # 8-bit palette, deflate, no interlace
            _chunk(b"PLTE", plte),
            _chunk(b"IDAT", _deflate(*scanlines)),
            _chunk(b"IEND", b""),
        )
    )


def placeholder_png(lines: Iterable[str], width: int = 900, height: int = 300) -> bytes:
    """A small readable image for a game whose renderer is not ready (or a state it cannot draw)."""
    lines = list(lines)
    img, d = canvas(width, height)
    panel(d, (10, 10, width - 10, height - 10))
    y = 40
    for i, line in enumerate(lines):
        shown, size = fit_text(line, width - 80, 30 if i == 0 else 20, bold=i == 0)
        text(d, (40, y), shown, size, INK if i == 0 else MUTED, bold=i == 0)
        y += size + 18
    return encode_png(img)
