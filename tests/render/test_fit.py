"""No text drawn in a board image is cut, in any language: the layouts shrink or wrap a long label, and a text
that would still have to be shortened with '…' is a defect of the layout or of the catalog (too long a
translation), to be mended there.

Seeded games of every game type are drawn in English and in each language of the catalogs (public boards,
private views, a focus preview and the results sheet) while `render._draw.shortened()` notes every text that
`fit_text`, `wrap` or `fit_lines` had to shorten. Player names are shortened on purpose (`player_label`) and are
not texts of the catalogs."""

from __future__ import annotations

import pytest

import i18n
from engine import get_rules
from render import _draw, render_png
from scripts.gallery import names_for, playthrough
from tests.render.test_words import GAMES, HIGHLIGHT, IDS, clear_sprites

LANGS = list(i18n.LANGUAGES)


def cut_texts(name: str, n: int, options: dict | None, lang: str) -> dict[str, str]:
    """Every text shortened while drawing a seeded game of `name` in `lang` -> where it was first seen."""
    rules = get_rules(name)
    states = playthrough(name, n, 11, options)
    named = names_for(n)
    picked = sorted({*range(0, len(states), max(1, len(states) // 12)), len(states) - 1})
    clear_sprites()
    _draw.PARTS.clear()
    found: dict[str, str] = {}
    with _draw.shortened() as cut:
        for i in picked:
            state = states[i]
            who = state.players[i % n]
            jobs = [(None, None, False), (who, None, False), (who, HIGHLIGHT[name], True)]
            for viewer, highlight, focus in jobs:
                start = len(cut)
                names = named if i % 2 == 0 else None
                render_png(name, rules.view(state, viewer), viewer, names, highlight=highlight, focus=focus, lang=lang)
                for text in cut[start:]:
                    found.setdefault(text, f"state {i}, viewer {viewer}, focus {focus}")
    return found


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "n", "options"), GAMES, ids=IDS)
def test_no_text_drawn_is_cut(name, n, options, lang):
    found = cut_texts(name, n, options, lang)
    assert not found, f"{lang}: texts cut to fit:\n" + "\n".join(f"{t!r}  ({w})" for t, w in found.items())


def test_the_helpers_note_what_they_cut_and_nothing_else():
    """A text too wide is noted once, as given; a text that fits, shrinks or wraps whole is not; the one-line try
    of `fit_lines` before it wraps is not a cut."""
    long = "Rundenwertung, falls jetzt gewertet würde, mit sehr vielen Wörtern"
    with _draw.shortened() as cut:
        assert _draw.fit_text("Score", 200, 16)[0] == "Score"
        assert _draw.fit_text(long, 300, 16, min_size=8)[0] == long  # shrunk, whole
        lines, _size = _draw.fit_lines(long, 260, 16, min_size=12, max_lines=3)
        assert " ".join(lines) == long  # wrapped, whole
        assert _draw.wrap("a b c", 100, 16) == ["a b c"]
    assert cut == []
    with _draw.shortened() as cut:
        shown = _draw.fit_text(long, 120, 16, min_size=14)[0]
        assert shown.endswith("…")
        _draw.fit_lines(long, 120, 16, min_size=14, max_lines=2)
        _draw.wrap("Donaudampfschifffahrtsgesellschaft", 60, 16)
    assert cut == [long, long, "Donaudampfschifffahrtsgesellschaft"]


def test_fits_says_what_fit_text_would_do_without_shortening_anything():
    """`fits` tells whether `fit_text` shows a text whole without working out the shortened form (issue #27: the
    trials of a layout measured every shorter form of each too long a try, 3x the measuring of a board)."""
    import random

    rnd = random.Random(5)
    words = ["Hand:", "5 cards", "·", "Wall: 12", "Huts 2/3", "Bonus: 1 secret", "Kézben:", "Wärterhäuschen"]
    for _ in range(300):
        s = " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 6)))
        width, size = rnd.randint(20, 600), rnd.randint(10, 20)
        least = rnd.randint(8, size)
        with _draw.shortened() as cut:
            assert _draw.fits(s, width, size, True, least) == (_draw.fit_text(s, width, size, True, least)[0] == s)
        assert (s in cut) != _draw.fits(s, width, size, True, least)
