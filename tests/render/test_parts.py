"""The part cache (`render._draw.PARTS`): boards composed of cached parts (a player's panel, the market...) are
byte-identical to boards drawn without it, in whatever order a game's states are drawn and however warm the cache
is; a part is never served for other data; nothing private is served to another viewer; the memory stays bounded.
The sprites that replaced direct drawing (chips, counts-strip icons, title bars, text masks) give the same pixels.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from engine import get_rules
from engine.alhambra import components as AC
from render import _draw, render_png
from render import alhambra as RA
from render import gardens as RG
from scripts.gallery import names_for, playthrough
from tests.games import drawn, has_renderer, names, profile

ROOT = Path(__file__).resolve().parents[2]
MODULES = {"vizier": True, "huts": True, "exchange": True, "bonus": True}
# (game, players, options): each game as its profile draws it (by default at its largest size)
CONFIGS = [(g, n, dict(o) or None) for g in names() for n, o in drawn(g)]
IDS = [f"{g}-{n}p{'-' + '-'.join(o) if o else ''}" for g, n, o in CONFIGS]


def needs_renderer(name: str) -> None:
    if not has_renderer(name):
        pytest.skip(f"{name} has no renderer: the placeholder is drawn without parts")


@functools.cache
def game(name: str, n: int, options: tuple | None, seed: int = 11) -> tuple:
    return tuple(playthrough(name, n, seed, dict(options) if options else None))


def states_of(name: str, n: int, options: dict | None) -> tuple:
    return game(name, n, tuple(sorted(options.items())) if options else None)


@contextmanager
def parts(*, enabled: bool = True, check: bool = False) -> Iterator[_draw.PartCache]:
    """The part cache emptied, switched on or off, checking every part it serves or not; restored after."""
    cache = _draw.PARTS
    saved = cache.enabled, cache.check
    cache.clear()
    cache.enabled, cache.check = enabled, check
    try:
        yield cache
    finally:
        cache.enabled, cache.check = saved
        cache.clear()


def renders(name: str, n: int, states: tuple, step: int) -> list[tuple]:
    """(state, viewer, highlight, focus) of the images the bot draws: every `step`-th state's public image, one
    player's private image, and now and then a preview (focus, with or without a tentative placement)."""
    out = []
    for i, state in enumerate(states[::step]):
        who = state.players[i % n]
        out.append((state, None, None, False))
        out.append((state, who, None, False))
        if i % 3 == 0:
            out.append((state, who, profile(name).highlight if i % 2 else None, True))
    out.append((states[-1], None, None, False))  # the results sheet
    out.append((states[-1], states[-1].players[0], None, False))
    return out


def draw(name: str, n: int, job: tuple) -> bytes:
    state, viewer, highlight, focus = job
    view = get_rules(name).view(state, viewer)
    return render_png(name, view, viewer, names_for(n), highlight=highlight, focus=focus)


# --------------------------------------------------------------------------------------------- same bytes


@pytest.mark.parametrize(("name", "n", "options"), CONFIGS, ids=IDS)
def test_cached_boards_are_the_boards_drawn_without_the_cache(name, n, options):
    """Every few states of a seeded game, public, private, previews and the results sheet, drawn in order with
    the cache (each part it serves drawn again and compared: never a part for other data) and without it."""
    needs_renderer(name)
    states = states_of(name, n, options)
    jobs = renders(name, n, states, 1 if len(states) < 120 else 2)  # a short game: every state
    with parts(enabled=False):
        direct = [draw(name, n, job) for job in jobs]
    with parts(check=True) as cache:
        cached = [draw(name, n, job) for job in jobs]
        assert cache.hits > cache.misses  # the cache is really used
    assert cached == direct


@pytest.mark.parametrize(("name", "n", "options"), CONFIGS, ids=IDS)
def test_any_order_and_a_cold_cache_give_the_same_bytes(name, n, options):
    """A game's public images drawn in order, in reverse, shuffled (each pass from an empty cache) and each with
    an empty cache: the same bytes for each state."""
    needs_renderer(name)
    states = states_of(name, n, options)
    rules = get_rules(name)
    names = names_for(n)

    def png(state) -> bytes:
        return render_png(name, rules.view(state, None), None, names)

    with parts():
        in_order = [png(s) for s in states]
    with parts():
        backwards = [png(s) for s in reversed(states)][::-1]
    order = list(range(len(states)))
    random.Random(3).shuffle(order)
    with parts():
        shuffled = dict(zip(order, (png(states[i]) for i in order), strict=True))
    with parts() as cache:
        cold = []
        for s in states:
            cache.clear()
            cold.append(png(s))
    assert in_order == backwards == [shuffled[i] for i in range(len(states))] == cold


def test_a_fresh_process_draws_the_same_bytes():
    """Another process (another string-hash seed, so sets iterate in another order) draws the same bytes as this
    one with a warm cache."""
    name, n = "alhambra", 6
    states = states_of(name, n, MODULES)[::25]
    rules = get_rules(name)
    with parts():
        here = [hashlib.sha256(render_png(name, rules.view(s, None), None, names_for(n))).hexdigest() for s in states]
    script = (
        "import hashlib, json, sys\n"
        "from engine import get_rules\n"
        "from render import render_png\n"
        "from scripts.gallery import names_for, playthrough\n"
        f"states = playthrough('alhambra', 6, 11, {MODULES!r})[::25]\n"
        "rules = get_rules('alhambra')\n"
        "print(json.dumps([hashlib.sha256(render_png('alhambra', rules.view(s, None), None, names_for(6)))"
        ".hexdigest() for s in reversed(states)][::-1]))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == here


# --------------------------------------------------------------------------------------------- privacy


@pytest.mark.parametrize("name", names())
def test_private_images_leave_nothing_for_the_public_image(name):
    """The public image drawn after every player's private image and preview of the same position is the public
    image drawn with an empty cache; the parts of a private image only (a hand, a preview) are keyed by their
    viewer."""
    needs_renderer(name)
    rules = get_rules(name)
    n, options = drawn(name)[-1]
    states = states_of(name, n, dict(options) or None)
    state = states[len(states) // 2]
    names = names_for(n)
    with parts():
        cold = render_png(name, rules.view(state, None), None, names)
    with parts() as cache:
        for p in state.players:
            render_png(name, rules.view(state, p), p, names)
            render_png(name, rules.view(state, p), p, names, highlight=profile(name).highlight, focus=True)
            private = {key for key in cache._parts if key[6] is not None}
            assert all(key[6] in state.players for key in private)
        assert render_png(name, rules.view(state, None), None, names) == cold
        hands = [key for key in cache._parts if key[0].__name__ == "_hand"]
        assert bool(hands) == profile(name).private_view  # a hand is drawn where there is one
        assert all(key[6] is not None for key in hands)


def test_a_hand_part_is_never_served_to_another_viewer():
    """Two players holding the very same cards: each private image draws its own hand part (the viewer is in
    the key), and each is the image a cold cache draws."""
    rules = get_rules("alhambra")
    state = states_of("alhambra", 4, None)[40]
    a, b = state.players[:2]
    seats = list(state.seats)
    seats[1] = dataclasses.replace(seats[1], hand=seats[0].hand)
    same = dataclasses.replace(state, seats=tuple(seats))
    with parts():
        cold_b = render_png("alhambra", rules.view(same, b), b)
    with parts() as cache:
        render_png("alhambra", rules.view(same, a), a)
        misses = cache.misses
        assert render_png("alhambra", rules.view(same, b), b) == cold_b
        hand_keys = [key for key in cache._parts if key[0] is RA._hand]
        assert sorted(key[6] for key in hand_keys) == sorted([a, b])
        assert cache.misses > misses


# --------------------------------------------------------------------------------------------- what a part holds


def _square(img, d, x, y, colour):
    """A test section: a 3 x 3 square of `colour` with its corner at (x, y)."""
    d.rectangle((x, y, x + 2, y + 2), fill=colour)


def test_a_part_keeps_its_box_and_never_a_neighbours_pixel():
    """A part at an odd x drawn next to another drawing (a pixel just left of its box): the part served to another
    board pastes its box and nothing of the first board's neighbour (the cache kept one pixel more on the odd side
    and pasted it back, stale, wherever the part was served)."""
    with parts():
        first, d = _draw.canvas(12, 8)
        d.point((4, 3), fill=_draw.HIGHLIGHT)  # the first board's neighbour, just left of the part
        _draw.part(first, (5, 2, 7, 4), _square, _draw.GOOD)
        second, _ = _draw.canvas(12, 8)
        _draw.part(second, (5, 2, 7, 4), _square, _draw.GOOD)  # served from the cache
    with parts(enabled=False):
        direct, _ = _draw.canvas(12, 8)
        _draw.part(direct, (5, 2, 7, 4), _square, _draw.GOOD)
    assert second.tobytes() == direct.tobytes()
    assert first.getpixel((4, 3)) == _draw.HIGHLIGHT


def test_a_part_is_drawn_only_over_a_plain_box_when_checked():
    """With `check` the part cache verifies what drawing in place rests on: a part's box is plain before its
    section draws there."""
    with parts(check=True):
        img, d = _draw.canvas(12, 8)
        d.point((6, 3), fill=_draw.HIGHLIGHT)
        with pytest.raises(AssertionError, match="drawn over something else"):
            _draw.part(img, (5, 2, 7, 4), _square, _draw.GOOD)


def test_two_threads_draw_their_boards_one_at_a_time():
    """Boards drawn from two threads at once (the bot's drawing thread and a test's own calls, the drawing threads
    of two bots) take turns: the caches every board shares (parts, sprites, each game's palette and Pillow's
    lookup table in it) are used by one drawing at a time, and each board is the one drawn alone."""
    import threading
    import time

    rules = get_rules("gardens")
    states = states_of("gardens", 4, None)[::15]
    with parts():
        alone = [render_png("gardens", rules.view(s, None), None, names_for(4)) for s in states]
    inside, most = [0], [0]
    draw_board = RG.draw_board

    def slow(*args, **kwargs):
        inside[0] += 1
        most[0] = max(most[0], inside[0])
        time.sleep(0.01)  # another thread would run meanwhile
        try:
            return draw_board(*args, **kwargs)
        finally:
            inside[0] -= 1

    got: dict[int, list[bytes]] = {}

    def worker(k: int) -> None:
        got[k] = [render_png("gardens", rules.view(s, None), None, names_for(4)) for s in states]

    with parts(), pytest.MonkeyPatch.context() as mp:
        mp.setattr(RG, "draw", _draw.entry_point(RG.model_from_view, slow))
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert most[0] == 1
    assert got[0] == got[1] == alone


# --------------------------------------------------------------------------------------------- keys and memory


def test_freeze_tells_apart_what_draws_differently():
    f = _draw.freeze
    assert f(True) != f(1) != f(1.0) and f(False) != f(0) and f(0.0) != f(-0.0)
    assert f((1, 2)) != f([1, 2]) and f({1: 2}) != f(((1, 2),)) and f({1, 2}) != f((1, 2))
    assert f({"a": 1, "b": 2}) != f({"b": 2, "a": 1})  # a dict's order can matter to a drawing: kept
    assert f(frozenset({"x", "y"})) == f({"y", "x"})  # a set's cannot
    assert f(("bool", True)) != f(True) and f(("float", (1.0).hex())) != f(1.0)
    board = RA.model_from_view(get_rules("alhambra").view(states_of("alhambra", 2, None)[30], None), None, None)
    p = board.players[0]
    assert f(p) == f(dataclasses.replace(p)) and hash(f(p)) == hash(f(dataclasses.replace(p)))
    assert f(p) != f(dataclasses.replace(p, score=p.score + 1))
    assert f(p) != f(dataclasses.replace(p, grid={**p.grid, (9, 9): "t1"}))
    with pytest.raises(TypeError):
        f(object())
    with pytest.raises(TypeError):
        f(Image.new("RGB", (1, 1)))


def test_the_cache_stays_within_its_budget_and_entry_limit():
    cache = _draw.PartCache(budget=100 * 100 * 4 * 4, limit=5)
    for i in range(20):
        cache.store(("part", i), Image.new("RGB", (100, 100)))
        assert cache.bytes <= cache.budget and len(cache) <= 5
    assert len(cache) == 4  # four 40 kB parts fill the 160 kB budget
    assert cache.lookup(("part", 19)) is not None and cache.lookup(("part", 0)) is None
    cache.store(("big",), Image.new("RGB", (200, 200)))  # more than a quarter of the budget: drawn, not kept
    assert cache.lookup(("big",)) is None
    small = _draw.PartCache(budget=10**9, limit=4)
    for i in range(10):
        small.store(i, Image.new("L", (2, 2)))
    assert len(small) == 4 and small.bytes == 16
    assert _draw.PARTS.budget == _draw.PART_BUDGET == 64 * 2**20


def test_least_recently_used_parts_go_first():
    cache = _draw.PartCache(budget=4 * 4, limit=100)
    for k in "abcd":
        cache.store(k, Image.new("RGB", (1, 1)))
    assert cache.lookup("a") is not None  # a is now the most recently used
    cache.store("e", Image.new("RGB", (1, 1)))
    assert cache.lookup("b") is None
    assert all(cache.lookup(k) is not None for k in "acde")


# --------------------------------------------------------------------------------------------- sprites


def test_counts_strip_icons_are_the_pixels_drawn_in_place():
    """The cached building-type chips of the counts strip, pasted anywhere a board puts them (any x up to 1500,
    any y up to 4200), give the pixels of the chip and pictogram drawn there directly."""
    icon = RA.COUNT_ICON
    for bg in (_draw.PANEL, RA.DIRK_PANEL):
        for t in AC.TYPES:
            col = RA.TYPE_COLOURS[t]
            sprite = RA.type_icon(t, bg).tobytes()
            for x, y in [(x, 7) for x in range(0, 1500, 1 if bg == _draw.PANEL else 7)] + [
                (7, y) for y in range(0, 4200, 1 if bg == _draw.PANEL else 7)
            ]:
                img = Image.new("RGB", (x + icon + 2, y + icon + 2), bg)
                d = ImageDraw.Draw(img)
                d.rounded_rectangle(
                    (x, y, x + icon, y + icon), radius=5, fill=col, outline=_draw.mix(col, _draw.INK, 0.5)
                )
                _draw.building_icon(d, t, (x + 3, y + 3, x + icon - 3, y + icon - 3), _draw.contrast(col))
                assert img.crop((x, y, x + icon + 1, y + icon + 1)).tobytes() == sprite, (t, x, y)


@pytest.mark.parametrize("bg", [_draw.PANEL, _draw.BG])
def test_chips_and_title_bars_from_sprites_are_the_pixels_drawn_in_place(bg):
    for label, colour, size, pad in [("Vizier: active", _draw.GOOD, 15, 6), ("Vizier: used", (170, 160, 150), 15, 6)]:
        for x, y in [(0, 0), (13, 57), (700, 1201), (1333, 2048)]:
            a = Image.new("RGB", (x + 200, y + 40), bg)
            w = _draw.chip(ImageDraw.Draw(a), (x, y), label, colour, size=size, pad=pad)
            b = Image.new("RGB", (x + 200, y + 40), bg)
            assert _draw.paste_chip(b, (x, y), label, colour, bg, size=size, pad=pad) == w
            assert a.tobytes() == b.tobytes()
    for box in [(20, 20, 476, 58), (501, 977, 957, 1015), (14, 14, 1446, 56), (7, 3, 300, 41)]:
        for fill in (_draw.INK, _draw.TURN, _draw.MUTED):
            a = Image.new("RGB", (1500, 1100), bg)
            _draw.title_bar(ImageDraw.Draw(a), box, "Bartholomew  ▶ to move", fill=fill, size=19, right="12 pts")
            b = Image.new("RGB", (1500, 1100), bg)
            _draw.title_bar(
                ImageDraw.Draw(b), box, "Bartholomew  ▶ to move", fill=fill, size=19, right="12 pts", on=(b, bg)
            )
            assert a.tobytes() == b.tobytes()


def test_text_masks_are_what_imagedraw_stamps():
    """One FreeType rendering per label (`getmask2`) is the mask `ImageDraw.text` draws, at the same offset."""
    labels = ["Last move: Bartholomew buys the Seraglio (price 7)", "88", "A", "—", "✓", "▶ to move", "j", "…", "+1"]
    for s in labels:
        for size in (9, 12, 15, 18, 22, 30):
            for bold in (True, False):
                for anchor in ("la", "lm", "mm", "rm", "md", "ma", "ld", "rd"):
                    f = _draw.font(size, bold)
                    left, top, right, bottom = f.getbbox(s, anchor=anchor)
                    ref = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
                    ImageDraw.Draw(ref).text((-left, -top), s, font=f, fill=255, anchor=anchor)
                    (dx, dy), mask, outer = _draw._text_masks(s, size, bold, anchor, 0)
                    assert (dx, dy) == (left, top) and outer is None
                    assert mask.size == ref.size and mask.tobytes() == ref.tobytes(), (s, size, bold, anchor)


def test_a_garden_from_its_area_drawings_is_the_garden_stamped_space_by_space():
    """Queen's Garden: the free spaces of a garden are pasted per area (`_area_base`, shared by every game), then
    the tiles and elements stamped over them. The same pixels as stamping every space in turn (as before issue
    #27) but where a tile's outline corner meets a free neighbour's (the tile's dark outline is whole now) or an
    element's check mark passes its hexagon's edge (drawn over the neighbour's outline now)."""
    from engine.queens_garden import geometry as GEO
    from i18n import ENGLISH
    from render import queens_garden as RQ

    rules = get_rules("queens_garden")
    states = playthrough("queens_garden", 4, 5)
    r = RQ.R_GARDEN
    x0, y0, x1, y1 = RQ.garden_extent(r)
    size = (int(x1 - x0) + 40, int(y1 - y0) + 40)
    for state in states[10 :: max(1, len(states) // 6)]:
        board = RQ.model_from_view(rules.view(state, None), None, None)
        for p in board.players:
            g = p.garden
            for ox, oy in ((20, 20), (21, 19)):
                new = Image.new("RGB", size, _draw.PANEL)
                RQ._garden(new, g, ox, oy, r, frozenset(), frozenset())
                old = Image.new("RGB", size, _draw.PANEL)
                dx, dy = ox - x0, oy - y0
                for space in GEO.SPACES:  # the loop before issue #27
                    area = GEO.area_of(space)
                    cx, cy = GEO.pixel(space, r)
                    cx, cy = cx + dx, cy + dy
                    if area != GEO.FOUNTAIN_BOARD and area not in g.areas:
                        label = ENGLISH.text(GEO.area_text(area)) if space == f"{area}0" else ""
                        sprite = RQ.hex_sprite(r - 1, RQ.AREA_FREE, (206, 198, 182), 1, label, 17, _draw.MUTED)
                        _draw.stamp(old, sprite, cx, cy)
                    elif space in g.hexes:
                        RQ._draw_kind(old, cx, cy, r - 1, g.hexes[space], printed=space in g.printed)
                    elif space in g.elements:
                        _draw.stamp(old, RQ.element_sprite(g.elements[space], space in g.rewarded, r - 1), cx, cy)
                    else:
                        sprite = RQ.hex_sprite(
                            r - 1, RQ.FREE, _draw.PANEL_EDGE, 2, ENGLISH.text(GEO.space_text(space)), 13, _draw.MUTED
                        )
                        _draw.stamp(old, sprite, cx, cy)
                changed = [
                    (a, b) for a, b in zip(old.get_flattened_data(), new.get_flattened_data(), strict=True) if a != b
                ]  # a handful per occupied space at most
                assert all(b in (_draw.INK, _draw.GOOD) for a, b in changed), changed[:5]  # an outline, a check mark
                assert len(changed) <= 4 * (len(g.hexes) + len(g.elements))


def test_stamping_through_a_one_bit_mask_gives_the_pixels_of_pasting_through_alpha():
    """`stamp` pastes a sprite that is only opaque or clear through a 1-bit mask (issue #27: ~3x quicker): the
    same pixels as through its alpha; a sprite with shades of alpha, and a copy drawn on after its original was
    stamped (Queen's Garden's element sprites), each through its own alpha."""
    from render import queens_garden as RQ

    hexagon = RQ.hex_sprite(30, RQ.FREE, _draw.PANEL_EDGE, 2, "N3", 13, _draw.MUTED)
    shaded = Image.new("RGBA", (40, 40), (0, 0, 0, 0))
    ImageDraw.Draw(shaded).ellipse((2, 2, 37, 37), fill=(200, 40, 40, 140))
    element = RQ.element_sprite("bench", True, 30)  # a copy of a hexagon, a check mark past its edge
    for sprite in (hexagon, shaded, element, hexagon):
        for cx, cy in ((50.5, 40), (61, 47.5)):
            mine, plain = Image.new("RGB", (120, 100), _draw.BG), Image.new("RGB", (120, 100), _draw.BG)
            ImageDraw.Draw(mine).rectangle((40, 30, 80, 70), fill=_draw.TURN)
            ImageDraw.Draw(plain).rectangle((40, 30, 80, 70), fill=_draw.TURN)
            _draw.stamp(mine, sprite, cx, cy)
            plain.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), sprite)
            assert mine.tobytes() == plain.tobytes()
    assert _draw._stamp_mask(hexagon).mode == "1" and _draw._stamp_mask(shaded) is shaded
