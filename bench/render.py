"""Render benchmark: CPU time per board image, each game at its largest player count (Alhambra also with all four
Vizier's Favour modules), over the successive states of one seeded game, as the bot draws them.

    python bench/render.py [repeats] [game ...] [--lang LANG]   (from the repository root; default 3 repeats,
                                                                every game, LANG long)
    python bench/render.py --cold [games] [--profile] [--bare]  # many games' positions in turn (default 12)

Cold (`--cold`): the largest boards (6-player Alhambra with every module, 4-player Gardens, 4-player Queen's
Garden), positions of `games` seeded games drawn in turn (game 1's position k, game 2's position k, ...), as a
drawing worker meets them under real load, where consecutive moves come from different games: no cache of one
game's parts helps (the caches stay as a running worker keeps them: whatever is shared by all games, e.g.
sprites, glyphs, pre-drawn layers, is warm). Printed per board: p50/p95/max CPU ms of the image (decode + view,
draw, encode) and the PNG's size; `--profile` adds cProfile's 25 costliest functions of each. `--bare`: the part
cache emptied before each position as well (a worker meeting more games than its part cache holds: 64 MiB is
~6 boards of 6-player Alhambra drawn in RGB, ~25 drawn on a palette, so with few games the cache keeps parts of
every one of them; with 1,000 games running it keeps almost none).

Moves: every state of the game in order, each drawn from its stored JSON text exactly as a render worker does
(`render.render_state`: decode, unchecked as the bot's states are, + `rules.view` + draw + PNG), public image.
Two cases:
  warm  one process draws the game's states in order, its caches kept: the parts of the board a move did not
        change (a player's panel, the market...) come from the part cache (the bot's case: a game is always drawn
        by the same worker);
  cold  the same, with the part cache emptied before each state (a worker that has drawn too many other games
        since); fonts, glyphs and tile sprites stay warm in both, as in any running worker.
Printed per case: median and p95 of the total and of its steps (decode + view, draw, encode), and the part
cache's hits and the memory it held. The states are drawn `repeats` times (the part cache cleared between runs).

Languages: the same states drawn in English and in LANG in the same run, alternately (English, LANG,
English, LANG... each pass over all the states from an emptied part cache, warm and cold as above), so that both
meet the same machine: median and p95 per image of each and LANG's median against English's. LANG: one of ours
(hu, cs, es, de: their catalogs), `long` (a made-up language whose every word is 60% longer, more than German or
Hungarian: the most measuring, shrinking and wrapping) or `qps` (the tests' pseudo-language). Aim: within 10%.

Encoders: the PNG encoder of `render` as `render_png` uses it ("new": a board drawn on the game's fixed palette,
written as it is), an RGB board mapped to that palette ("fixed"), with a palette found per image ("own", until
issue #27) and the one before it ("old", kept here only for this comparison) on three states (mid-game, late,
the end).

Times are this thread's CPU time, which stays meaningful when the machine is busy (wall time then includes
waiting for a core). Aim: <= 15 ms CPU per move for a 6-player Alhambra with every module, engine and
storage included (bench/capacity.py parts).
"""

from __future__ import annotations

import importlib
import io
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageDraw  # noqa: E402

import render  # noqa: E402
from engine import GAMES, get_rules  # noqa: E402
from render import _draw, render_image  # noqa: E402
from scripts.gallery import install_made_up, names_for, playthrough  # noqa: E402

ALL = {"vizier": True, "huts": True, "exchange": True, "bonus": True}


def encode_png_old(img: Image.Image, key_colours: Iterable[_draw.RGB] = ()) -> bytes:
    """The encoder before the keyed palette: a 256-colour palette found per image by Pillow's fast octree on a 1-in-3
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


def keys(game: str) -> tuple[_draw.RGB, ...]:
    """The key colours of `game`'s renderer."""
    return tuple(getattr(importlib.import_module(f"render.{game}"), "PALETTE", ()))


ENCODERS: dict[str, Callable[[Image.Image, str], bytes]] = {
    "old": lambda img, game: encode_png_old(img, keys(game)),
    "own": lambda img, game: _draw.encode_png(img, keys(game)),  # a palette found per image (until #27)
    "fixed": lambda img, game: _draw.encode_png(img, palette=render.palette(game)),  # RGB mapped to the fixed one
    "new": lambda img, game: _draw.encode_png(img, palette=render.palette(game)),  # exactly what render_png does
}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def cpu_ms(fn: Callable[[], object]) -> tuple[float, object]:
    c0 = time.thread_time()
    out = fn()
    return (time.thread_time() - c0) * 1000, out


def clear_parts() -> None:
    parts = getattr(_draw, "PARTS", None)  # absent before the part cache existed (for before/after runs)
    if parts is not None:
        parts.clear()


def game_states(game: str, options: dict[str, Any] | None) -> tuple[int, list[str]]:
    """The player count and the stored JSON text of every state of a seeded game at the largest player count."""
    rules = get_rules(game)
    n = rules.player_counts[-1]
    return n, [json.dumps(rules.to_json(s)) for s in playthrough(game, n, seed=7, options=options)]


def prepared(game: str, options: dict[str, Any] | None, langs: tuple[str, ...] = ("en",)) -> tuple[Any, ...]:
    """(rules, player count, states' JSON texts, names, the game's fixed palette, label), with the fonts, glyphs
    and sprites of each of `langs` loaded by drawing a twentieth of the states (the parts are not kept)."""
    rules = get_rules(game)
    n, texts = game_states(game, options)
    names = names_for(n)
    palette = render.palette(game)  # the game's fixed palette, as render_png uses it
    for code in langs:
        for text in texts[:: max(1, len(texts) // 20)]:
            view = rules.view(rules.from_json(json.loads(text), check=False), None)
            _draw.encode_png(render_image(game, view, None, names, lang=code), palette=palette)
    clear_parts()
    return rules, n, texts, names, palette, f"{game} {n}p" + (" all modules" if options else "")


def moves(game: str, options: dict[str, Any] | None, repeats: int) -> None:
    """Every state in order, drawn as a render worker draws it: warm (part cache kept) and cold (emptied)."""
    rules, n, texts, names, palette, label = prepared(game, options)
    print(f"{label}: {len(texts)} states in order, x{repeats}")
    for case in ("warm", "cold"):
        steps: dict[str, list[float]] = {"total": [], "decode+view": [], "draw": [], "encode": []}
        held = 0
        hits = misses = 0
        for _ in range(repeats):
            clear_parts()
            for text in texts:
                if case == "cold":
                    clear_parts()
                parts = getattr(_draw, "PARTS", None)
                before = (parts.hits, parts.misses) if parts is not None else (0, 0)
                t1, view = cpu_ms(lambda text=text: rules.view(rules.from_json(json.loads(text), check=False), None))
                t2, img = cpu_ms(lambda view=view: render_image(game, view, None, names))
                t3, _ = cpu_ms(lambda img=img: _draw.encode_png(img, palette=palette))  # = render_png
                for k, v in zip(steps, (t1 + t2 + t3, t1, t2, t3), strict=True):
                    steps[k].append(v)
                if parts is not None:
                    hits += parts.hits - before[0]
                    misses += parts.misses - before[1]
                    held = max(held, parts.bytes)
        line = "  ".join(f"{k} {statistics.median(v):5.2f} (p95 {pct(v, 0.95):5.2f})" for k, v in steps.items())
        cache = (
            f"parts hit {hits / max(1, hits + misses):4.0%}, held <= {held / 2**20:5.1f} MiB" if hits + misses else ""
        )
        print(f"  {case}  {line} ms  {cache}")


def languages(game: str, options: dict[str, Any] | None, repeats: int, lang: str) -> tuple[float, float]:
    """English and `lang` over the same states, alternately in one run, warm and cold (as `moves`): CPU ms per
    image (decode + view + draw + encode). Returns the warm medians (English, lang)."""
    rules, n, texts, names, palette, label = prepared(game, options, ("en", lang))
    print(f"{label}: {len(texts)} states, English and {lang} alternately, x{repeats}")
    medians = {}
    for case in ("warm", "cold"):
        times: dict[str, list[float]] = {"en": [], lang: []}
        for _ in range(repeats):
            for code in ("en", lang):
                clear_parts()
                for text in texts:
                    if case == "cold":
                        clear_parts()

                    def image(text: str = text, code: str = code) -> bytes:
                        view = rules.view(rules.from_json(json.loads(text), check=False), None)
                        return _draw.encode_png(render_image(game, view, None, names, lang=code), palette=palette)

                    times[code].append(cpu_ms(image)[0])
        en, other = statistics.median(times["en"]), statistics.median(times[lang])
        medians[case] = (en, other)
        print(
            f"  {case}  en {en:5.2f} (p95 {pct(times['en'], 0.95):5.2f})  {lang} {other:5.2f} "
            f"(p95 {pct(times[lang], 0.95):5.2f}) ms   {lang}/en {other / en:5.1%}"
        )
    return medians["warm"]


def encoders(game: str, repeats: int) -> None:
    """The old and new encoders on three states (mid-game, late, the end)."""
    rules = get_rules(game)
    n = rules.player_counts[-1]
    states = playthrough(game, n, seed=7)
    picks = [states[len(states) // 2], states[(len(states) * 4) // 5], states[-1]]
    views = [rules.view(s, None) for s in picks]
    names = names_for(n)
    drawn = [render_image(game, v, names=names) for v in views]  # on the game's palette, as render_png draws
    rgb = [render_image(game, v, names=names, rgb=True) for v in views]
    sizes_wh = {img.size for img in drawn}
    print(f"{game} {n}p encoders ({', '.join(f'{w}x{h}' for w, h in sorted(sizes_wh))}), {repeats * 3} images each")
    for name, encode in ENCODERS.items():  # one encoder at a time: interleaved, each slows the other (memory)
        imgs = drawn if name == "new" else rgb
        for img in imgs:  # warm-up
            encode(img, game)
        times, sizes = [], []
        for _ in range(repeats):
            for img in imgs:
                e, png = cpu_ms(lambda img=img, encode=encode: encode(img, game))
                times.append(e)
                sizes.append(len(png))  # type: ignore[arg-type]
        print(
            f"  {name:4s} encode {statistics.median(times):5.2f} ms (p95 {pct(times, 0.95):5.2f})  "
            f"{statistics.median(sizes) / 1024:6.1f} KiB (max {max(sizes) / 1024:6.1f})"
        )


def cold(games: int, profile: bool, bare: bool = False) -> None:
    """Positions of `games` seeded games in turn, at each game's largest board (see the module docstring)."""
    for game, options in (("alhambra", ALL), ("gardens", None), ("queens_garden", None)):
        cold_board(game, options, games, profile, bare)


def cold_board(game: str, options: dict[str, Any] | None, games: int, profile: bool, bare: bool = False) -> None:
    import cProfile
    import pstats

    rules = get_rules(game)
    n = rules.player_counts[-1]
    names = names_for(n)
    palette = render.palette(game)  # the game's fixed palette, as render_png uses it
    runs = [
        [json.dumps(rules.to_json(s)) for s in playthrough(game, n, seed=100 + g, options=options)][::3]
        for g in range(games)
    ]
    texts = [run[k] for k in range(max(map(len, runs))) for run in runs if k < len(run)]
    for text in texts[:: max(1, len(texts) // 10)]:  # warm-up: fonts, glyphs, sprites
        _draw.encode_png(
            render_image(game, rules.view(rules.from_json(json.loads(text), check=False), None), None, names),
            palette=palette,
        )
    steps: dict[str, list[float]] = {"total": [], "decode+view": [], "draw": [], "encode": []}
    sizes = []
    prof = cProfile.Profile() if profile else None
    for text in texts:
        if bare:
            clear_parts()
        if prof is not None:
            prof.enable()
        t1, view = cpu_ms(lambda text=text: rules.view(rules.from_json(json.loads(text), check=False), None))
        t2, img = cpu_ms(lambda view=view: render_image(game, view, None, names))
        t3, png = cpu_ms(lambda img=img: _draw.encode_png(img, palette=palette))
        if prof is not None:
            prof.disable()
        for k, v in zip(steps, (t1 + t2 + t3, t1, t2, t3), strict=True):
            steps[k].append(v)
        sizes.append(len(png))  # type: ignore[arg-type]
    label = f"{game} {n}p" + (" all modules" if options else "") + (" bare" if bare else "")
    line = "  ".join(f"{k} {statistics.median(v):5.2f} (p95 {pct(v, 0.95):5.2f})" for k, v in steps.items())
    print(
        f"{label}, {len(texts)} positions of {games} games in turn: {line} ms; max {max(steps['total']):.1f} ms; "
        f"PNG {statistics.median(sizes) / 1024:.1f} KiB median"
    )
    if prof is not None:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


def main() -> None:
    args = sys.argv[1:]
    if "--cold" in args:
        rest = [a for a in args if a not in ("--cold", "--profile", "--bare")]
        cold(int(rest[0]) if rest else 12, "--profile" in args, "--bare" in args)
        return
    lang = "long"
    if "--lang" in args:
        i = args.index("--lang")
        lang = args[i + 1]
        del args[i : i + 2]
    repeats = int(args[0]) if args else 3
    games = args[1:] or list(GAMES)
    install_made_up(lang)
    print(f"CPU milliseconds per image (decode + view + draw + encode); deflate: {_draw.DEFLATE}")
    for game in games:
        moves(game, None, repeats)
        if game == "alhambra":
            moves(game, ALL, repeats)
    for game in games:
        languages(game, None, repeats, lang)
        if game == "alhambra":
            languages(game, ALL, repeats, lang)
    for game in games:
        encoders(game, max(1, 10 * repeats))


if __name__ == "__main__":
    main()
