"""Every word in a board image goes through the translation catalogs, in the language asked for.

Whole seeded games of each type (public images, private images, previews, the results sheet) are drawn in the
pseudo-language (`i18n.PSEUDO`: every text of the catalogs wrapped in ⟦ ⟧), every string drawn is recorded by
`render._draw.recording()` (all words are drawn by `render._draw.text`), and each must be words of the catalogs.

The rule: a drawn string passes when, once its ⟦…⟧ spans (nested or not) are taken out, what is left holds
no word but
- player names (the display names given, or else "Player N", which is itself a catalog text),
- numbers and signs (digits, punctuation, ✓ – · ▶ × °...),
- the names the commands use for places and pieces, which are the same in every language: Alhambra's column
  letters ("M", "@-1"), the Gardens' garden and building names and columns ("C3", "d4", "A"), Queen's Garden's
  spaces and areas ("SE4", "NE") and hexagon codes with their colour letters ("F6", "F").
A string shortened with '…' to fit may have lost its closing ⟧: an unclosed ⟦ runs to its end. A text wrapped
on several lines is drawn line by line: lines are joined again until their ⟦ ⟧ balance (`texts`).

Also: the language is part of every cached part and sprite (English after another language is English, byte for
byte), and the bot's image cache (`cogs._images.Images`) keeps each language apart.
"""

from __future__ import annotations

import functools
import io
import re
import types

import pytest
from PIL import Image

import i18n
from engine import get_rules
from engine.gardens import geometry as GG
from engine.queens_garden import components as QC
from engine.queens_garden import geometry as QGEO
from i18n import catalogs
from render import _draw, render_png
from render import alhambra as RA
from render import gardens as RG
from render import queens_garden as RQ
from scripts.gallery import names_for, playthrough

MODULES = {"vizier": True, "huts": True, "exchange": True, "bonus": True}
HIGHLIGHT = {"alhambra": (1, 0), "gardens": "C3", "queens_garden": "M1"}
# (game, players, options): Alhambra with Dirk (2 players), with every module, and at 6; the Gardens with unowned
# kinds (2 players) and at 4; Queen's Garden at 4
GAMES = [
    ("alhambra", 2, None),
    ("alhambra", 4, MODULES),
    ("alhambra", 6, None),
    ("gardens", 2, None),
    ("gardens", 4, None),
    ("queens_garden", 4, None),
]
IDS = [f"{g}-{n}p{'-modules' if o else ''}" for g, n, o in GAMES]


@functools.cache
def identifiers() -> frozenset[str]:
    """The commands' names of places and pieces (the same in every language)."""
    names: set[str] = set()
    for x in range(-20, 21):
        names.add(RA._split_name((x, 0))[0])  # Alhambra column letters (rows are numbers)
    names.update(GG.GARDEN_NAMES, GG.BUILDING_NAMES, "ABCDEF")
    names.update(QGEO.SPACES, QGEO.AREA_CELLS)
    for c, colour in enumerate(QC.COLOURS):
        names.add(colour.letter)
        names.update(QC.kind_code((c, v)) for v in QC.PATTERNS)
    return frozenset(names)


SPAN = re.compile(r"⟦[^⟦⟧]*⟧")
CUT = re.compile(r"⟦[^⟧]*…$")  # shortened to fit: the rest of the string
TOKEN = re.compile(r"[@\w-]+")
LETTER = re.compile(r"[^\W\d_]")


def texts(drawn: list[str], most: int = 6) -> list[str]:
    """The drawn strings with the lines of a wrapped text joined again (until its ⟦ ⟧ balance, or a line ends
    with '…'; at most `most` lines: else they are left apart, and fail)."""
    out: list[str] = []
    lines: list[str] = []
    for s in drawn:
        lines.append(s)
        joined = " ".join(lines)
        if joined.count("⟦") <= joined.count("⟧") or s.endswith("…"):
            out.append(joined)
            lines = []
        elif len(lines) == most:
            out += lines
            lines = []
    return out + lines


def untranslated(drawn: str, names: frozenset[str]) -> str | None:
    """What in `drawn` did not come through the catalogs (None: nothing), by the rule above."""
    rest = drawn
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    while True:
        shorter = SPAN.sub(" ", rest)
        if shorter == rest:
            break
        rest = shorter
    rest = CUT.sub(" ", rest)
    words = [t for t in TOKEN.findall(rest) if LETTER.search(t) and t not in identifiers()]
    return " ".join(words) or None


@pytest.fixture
def pseudo():
    """The pseudo-language, installed afresh (new Words: no cached part or sprite has seen it), from the code's
    own texts (the catalogs' template may lag behind the code)."""
    i18n.install(i18n.PSEUDO, catalogs.pseudo(catalogs.code_entries()[0]))
    _draw.PARTS.clear()
    try:
        yield i18n.PSEUDO
    finally:
        i18n.uninstall(i18n.PSEUDO)
        _draw.PARTS.clear()


def clear_sprites() -> None:
    """Every cached sprite of the renderers (so each is drawn, and its words recorded, again)."""
    for module in (_draw, RA, RG, RQ):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


@pytest.mark.parametrize(("name", "n", "options"), GAMES, ids=IDS)
def test_every_word_drawn_went_through_the_catalogs(pseudo, name, n, options):
    rules = get_rules(name)
    states = playthrough(name, n, 11, options)
    named = names_for(n)
    clear_sprites()
    problems: dict[str, str] = {}
    with _draw.recording() as drawn:
        for i, state in enumerate(states):
            names = named if i % 2 == 0 else None  # without names: "Player N"
            who = state.players[i % n]
            jobs = [(None, None, False), (who, None, False)]
            if i % 5 == 0:
                jobs.append((who, HIGHLIGHT[name] if i % 2 else None, True))
            for viewer, highlight, focus in jobs:
                start = len(drawn)
                view = rules.view(state, viewer)
                render_png(name, view, viewer, names, highlight=highlight, focus=focus, lang=pseudo)
                exempt = frozenset(names.values()) if names else frozenset()
                for s in texts(drawn[start:]):
                    bad = untranslated(s, exempt)
                    if bad is not None:
                        problems.setdefault(s, f"state {i}, viewer {viewer}, focus {focus}: {bad!r}")
    assert not problems, "drawn without the catalogs:\n" + "\n".join(f"{s!r}  ({w})" for s, w in problems.items())
    marked = [s for s in drawn if "⟦" in s]
    assert len(marked) > 100 and any("⟦Last move: " in s for s in drawn)
    if name == "alhambra" or name == "queens_garden":
        assert any("⟦Player 1⟧" in s for s in drawn)  # the seat name without a display name
    assert any(s.startswith("⟦Final results") for s in drawn)  # the results sheet


def test_the_rule_catches_english_and_lets_names_numbers_and_codes_through():
    names = frozenset({"Ana", "Bartholomew"})
    assert untranslated("⟦Building market⟧", names) is None
    assert untranslated("⟦Last move: ⟦Ana buys the ⟦Tower⟧⟧⟧", names) is None
    assert untranslated("Ana  ⟦▶ to move⟧", names) is None
    assert untranslated("12", names) is None and untranslated("1 ✓   2 –", names) is None
    assert untranslated("M12", names) is None and untranslated("@-1", names) is None
    assert untranslated("F ⟦dark green⟧ ×3", names) is None and untranslated("SE4", names) is None
    assert untranslated("⟦Your bonus cards (secret): 2, 1 playable now  ·  automatic pl…", names) is None
    assert untranslated("Building market", names) == "Building market"
    assert untranslated("⟦Hand: 3 cards⟧   ·   Longest wall: 4", names) == "Longest wall"
    assert untranslated("Ana (⟦P⟧)", names) is None
    assert untranslated("Chen", names) == "Chen"
    assert texts(["⟦One line", "and the next⟧", "12", "⟦Cut…", "⟦x⟧"]) == [
        "⟦One line and the next⟧",
        "12",
        "⟦Cut…",
        "⟦x⟧",
    ]
    assert texts(["⟦a", "b", "c"], most=2) == ["⟦a", "b", "c"]


def test_a_language_never_leaks_into_another_through_the_caches(pseudo):
    """English, then the pseudo-language, then English again: the second English image is the first, byte for
    byte, and the pseudo-language's differs (parts and sprites are keyed by the language)."""
    for name, n, options in [("alhambra", 4, MODULES), ("gardens", 2, None), ("queens_garden", 2, None)]:
        rules = get_rules(name)
        states = playthrough(name, n, 11, options)
        state = states[len(states) // 2]
        viewer = state.players[0]
        for who in (None, viewer):
            view = rules.view(state, who)
            english = render_png(name, view, who, names_for(n))
            other = render_png(name, view, who, names_for(n), lang=pseudo)
            assert render_png(name, view, who, names_for(n)) == english != other
            assert render_png(name, view, who, names_for(n), lang="xx") == english  # unknown: English


def test_longer_words_keep_the_layout():
    """A made-up language of 60% longer words (scripts/gallery.py `Long`): every image keeps its width (the
    layouts shrink, wrap or shorten words instead) and draws; the gallery shows them (docs/gallery, --lang long)."""
    from scripts.gallery import LONG, install_made_up

    install_made_up(LONG)
    try:
        for name, n, options in GAMES:
            rules = get_rules(name)
            states = playthrough(name, n, 5, options)
            for state in (states[len(states) // 2], states[-1]):
                for who in (None, state.players[0]):
                    view = rules.view(state, who)
                    english = Image.open(io.BytesIO(render_png(name, view, who, names_for(n))))
                    longer = Image.open(io.BytesIO(render_png(name, view, who, names_for(n), lang=LONG)))
                    assert longer.width == english.width
                    assert english.height <= longer.height <= english.height + 200
    finally:
        i18n.uninstall(LONG)


async def test_the_bots_images_are_drawn_and_kept_per_language(pseudo):
    """`Images.public/private/preview` take the language and pass it to the drawing; the cache keeps each
    language's image apart."""
    from cogs._images import Images
    from cogs._seating import encode

    rules = get_rules("gardens")
    state = playthrough("gardens", 2, 11)[20]
    seats = [types.SimpleNamespace(id=p, name=nm) for p, nm in zip(state.players, ("Ana", "Bo"), strict=True)]
    row = types.SimpleNamespace(
        id=7, game="gardens", version=20, state_json=encode(rules, state), seats=seats, table={}
    )
    images = Images(None, processes=0)  # type: ignore[arg-type]
    names = {"1000": "Ana", "1001": "Bo"}
    english = await images.public(row)
    other = await images.public(row, lang=pseudo)
    assert english == render_png("gardens", rules.view(state, None), None, names)
    assert other == render_png("gardens", rules.view(state, None), None, names, lang=pseudo) != english
    assert await images.public(row) == english and images.drawn == 2  # from the cache
    me = state.players[0]
    assert await images.private(row, me, lang=pseudo) == render_png(
        "gardens", rules.view(state, me), me, names, lang=pseudo
    )
    preview = await images.preview(row, me, rules.view(state, me), "C3", lang=pseudo)
    assert preview == render_png("gardens", rules.view(state, me), me, names, highlight="C3", focus=True, lang=pseudo)
    assert images.drawn == 4
