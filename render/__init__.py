"""Board images: one entry point that draws any game as a given player may see it.

    from render import render_png
    png = render_png("alhambra", rules.view(state, None))                        # public board image
    png = render_png("alhambra", rules.view(state, "111"), viewer="111")         # adds that player's hand
    png = render_png("alhambra", view, names={"111": "Ana", "222": "Ben"})      # display names for ids
    png = render_png("alhambra", view, lang="de")                                # its words in German

Rendering is pure: the same arguments give the same bytes. It only ever receives `rules.view(state, viewer)`,
never the full state, and it decides no rule: everything shown comes from the state (geometry and position
names come from the engine packages). Call it off the event loop (`asyncio.to_thread`, or a worker process).

Boards are composed of parts (a player's panel and, inside it, the Alhambra or garden; the market, the display,
the side panels...) kept in a per-process cache (`render._draw.PARTS`, at most 64 MiB of pixels) keyed by exactly
the data each part shows, and by the viewer for a private image's own parts (a hand, a preview): a move redraws
what it changed and pastes the rest. The bytes are the same whether the cache is cold or warm (tests/render/
test_parts.py). What no position changes is drawn once per process and shared by every game: tile and hex
sprites, chips, glyph masks and text sizes, labels on a plain colour, rounded corners, the empty cells of an
Alhambra row, a Queen's Garden's free spaces per area (`queens_garden._area_base`), and each game's PNG palette
(`palette`: its key colours exactly and the shades of sample boards, so no image looks for its own colours).
Boards are drawn directly on that palette (a "P" image, `_draw.drawing_on`): the pixels the RGB board would be
mapped to, without mapping ~2 million pixels per board, a byte a pixel to fill, paste and keep. Drawn cold, as a
worker meets boards under load (positions of many games in turn, `bench/render.py --cold 6`, machine shared,
load 10-13), median / p95 CPU per image: a 6-player Alhambra with every module 8.5-9.1 / 12.1-13.1 ms (22-24 /
26-30 before issue #27's palette drawing, in the same runs), a 4-player Queen's Garden 9.4-9.7 / 11.5-12.1 ms
(23-25 / 27-28), a 4-player Gardens 6.4-7.2 / 10.2-11.9 ms (9.5-11 / 14-15.5); of which the PNG encoding 2.0-2.2,
2.1-2.2 and 1.2-1.3 ms (README, Speed); since a palette canvas keeps its pixels as PNG scanlines
(`_draw.canvas`), which are deflated without being copied out, 1.4, 1.5 and 0.9 ms (loaded machine, load 10-11,
alternating with the code before: 2.1, 1.9 and 1.2 ms). Finding a game's palette costs ~0.15-0.5 s once per
process (its sample boards).

Every word in an image is in the language `lang` (one of `i18n.LANGUAGES`; the bot passes the server's language
for a public image, the viewer's for a private one): labels, legends, building, currency and colour names, the
results sheet, "Player N", the engines' own texts (`engine.Text`) all go through `i18n.words(lang)`. Only player
names, numbers and the names the commands use for places and pieces ("M13", "C3", "F6") are drawn as they are
(tests/render/test_words.py draws whole games in the pseudo-language and checks it). Layouts measure the words:
longer ones shrink, wrap or, last, are shortened with '…', never overflow.

Each game lives in its own module (`render/alhambra.py`, `render/gardens.py`, `render/queens_garden.py`)
exposing `draw(view, viewer, names, highlight, focus, lang) -> PIL.Image`, named by the game's registry entry
(`engine.GameEntry.render`). A game without a renderer gets a small placeholder image saying so.
"""

from __future__ import annotations

import functools
import importlib
import json
import random
import threading
from collections.abc import Mapping
from typing import Any

from PIL import Image

import engine
from i18n import words
from render._draw import Palette, drawing_on, encode_png, fixed_palette, placeholder_png, unobserved

__all__ = ["palette", "render_image", "render_png", "render_state", "renderer_ready"]

# Boards are drawn one at a time in a process: every cache here is shared by the whole process (the part cache, the
# sprites, each game's palette and the lookup table Pillow keeps in it), and Pillow lets other threads run while
# it pastes or maps pixels, so two threads drawing at once (the bot's drawing thread and a test's own calls, two
# bots' threads in one test) could find a game's palette twice or map pixels through a palette another thread is
# loading. Drawing holds the GIL anyway: one at a time costs no throughput.
_DRAWING = threading.RLock()


def _module(game: str) -> Any | None:
    """The game's renderer module (its registry entry's `render`), or None for a game without one."""
    name = engine.entry(game).render  # ValueError for an unknown game
    return importlib.import_module(name) if name else None


def renderer_ready(game: str) -> bool:
    """True if `game` has a real renderer (not the placeholder)."""
    return _module(game) is not None


def render_image(
    game: str,
    view_state: Any,
    viewer: str | None = None,
    names: Mapping[str, str] | None = None,
    *,
    highlight: Any = None,
    focus: bool = False,
    lang: str = "en",
    rgb: bool = False,
) -> Image.Image | None:
    """The board as a PIL image (None while the game's renderer is not ready). See `render_png`. A "P" image in
    the game's palette (`palette`), drawn so (`_draw.drawing_on`: what `render_png` encodes as it is), or with
    `rgb` an RGB image (whose mapping to the palette is that image, tests/render/test_encode.py)."""
    module = _module(game)
    if module is None:
        return None
    with _DRAWING, drawing_on(None if rgb else palette(game)):
        img: Image.Image = module.draw(
            view_state, viewer=viewer, names=names, highlight=highlight, focus=focus, lang=lang
        )
    return img


def render_png(
    game: str,
    view_state: Any,
    viewer: str | None = None,
    names: Mapping[str, str] | None = None,
    *,
    highlight: Any = None,
    focus: bool = False,
    lang: str = "en",
) -> bytes:
    """PNG bytes of `view_state` (the output of `rules.view(state, viewer)`) as `viewer` sees it.

    viewer:    None for the public image; a player id for a private image that adds their hidden things
               (Alhambra hand, Gardens hand tiles, Queen's Garden: nothing is hidden, same board).
    names:     player id -> display name; missing ids are shown as "Player N" by seat.
    lang:      the language of every word in the image (an unknown one: English).
    highlight: an extra position to mark, for the bot's "preview before commit": render the view of the state
               *after* the tentative action and pass the placed position (Alhambra: (x, y) cell; Gardens:
               (row, col); Queen's Garden: (q, r) hex). The last move in the log is always marked anyway.
    focus:     a small image of just the viewer's own board (and hand), for a preview panel.
    Once the game is over the image is the results sheet with every player's points broken down.
    """
    with _DRAWING:
        img = render_image(game, view_state, viewer, names, highlight=highlight, focus=focus, lang=lang)
        if img is None:
            _ = words(lang)
            return placeholder_png(
                [
                    _.text(engine.get_rules(game).title),
                    _("The board picture for this game is not ready yet."),
                    _("Use the text summary and the buttons to play meanwhile."),
                ]
            )
        return encode_png(img, palette=palette(game))


def render_state(
    game: str,
    state_json: str,
    viewer: str | None = None,
    names: Mapping[str, str] | None = None,
    *,
    lang: str = "en",
) -> bytes:
    """PNG bytes of a stored state (its JSON text, as the database holds it) as `viewer` may see it, in `lang`:
    the state is decoded and reduced to `rules.view(state, viewer)` here, so a worker process can do all of it and
    the caller only passes text. The bot passes the texts of states it decoded or made itself (both checked),
    so they are not checked a second time here (`check=False`)."""
    rules = engine.get_rules(game)
    view = rules.view(rules.from_json(json.loads(state_json), check=False), viewer)
    return render_png(game, view, viewer, names, lang=lang)


def palette(game: str) -> Palette | None:
    """The colours every image of `game` is stored with (None without a renderer): its renderer's key colours
    (`PALETTE`) exactly, then the shades of sample boards (`_samples`), found once per process and module (~0.1 s
    the first time; kept: 256 colours and Pillow's ~0.5 MiB lookup table per game)."""
    name = engine.entry(game).render
    if not name:
        return None
    with _DRAWING:  # found once: two threads would each find one, and boards drawn on one be mapped to the other
        return _palette(game, name)


@functools.cache
def _palette(game: str, module: str) -> Palette:
    with unobserved():
        samples = _samples(game)
    return fixed_palette(samples, getattr(importlib.import_module(module), "PALETTE", ()))


def _samples(game: str) -> list[Image.Image]:
    """Boards holding every kind of thing a board of `game` shows: seeded games of random legal moves, at the
    largest player count with every yes/no option it allows (public boards a third and two thirds in and at the
    end, the results; a player's private board), and at the smallest without options and with every one (two
    thirds in: Alhambra's Dirk, Gardens' two-colours game)."""
    rules = engine.get_rules(game)
    every = {name: True for name, opt in rules.options.items() if not opt.choices and isinstance(opt.default, bool)}
    few, most = rules.player_counts[0], rules.player_counts[-1]
    images: list[Image.Image] = []
    for n, options, picks in ((most, every, (1 / 3, 2 / 3, 1)), (few, {}, (2 / 3,)), (few, every, (2 / 3,))):
        players = [str(1000 + i) for i in range(n)]
        try:
            state = rules.new_game(players, options, 1)
        except ValueError:  # an option not for this player count (Gardens' two-colours game: 2 players)
            continue
        rnd = random.Random(1)
        states = [state]
        while not rules.is_over(state) and len(states) < 5000:
            player = rnd.choice(rules.to_move(state))
            state = rules.apply(state, player, rnd.choice(rules.legal_actions(state, player)))
            states.append(state)
        for at in picks:
            chosen = states[min(len(states) - 1, int(at * len(states)))]
            public = render_image(game, rules.view(chosen, None), None, lang="en", rgb=True)
            images.append(public or Image.new("RGB", (1, 1)))
        viewer = players[0]
        private = rules.view(states[2 * len(states) // 3], viewer)
        images.append(render_image(game, private, viewer, lang="en", rgb=True) or Image.new("RGB", (1, 1)))
    return images
