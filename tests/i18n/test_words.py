"""The words the localisation review of December 2026 found wrong stay right: one check per class of defect.

- message contexts per game (gettext msgctxt): the same English in two games is two catalog entries, and each
  game's entry uses that game's words (pavilion, "Place a tile", R{round});
- agreement with a list of names: the lines naming several players are plural entries on their number;
- no English letter or code where a language has its own: wall sides, Queen's Garden areas and spaces, colour
  letters, in texts and in the images;
- option names and yes/no in the reader's language (the lobby line, the option errors);
- German datives (no `mit {what}` with a plural name), a Spanish count with its plural form.
A text cut in an image: tests/render/test_fit.py.
"""

from __future__ import annotations

import pickle
import re
import types

import pytest

import i18n
from engine import Text, get_rules
from engine._text import N_, Marked
from engine.alhambra import components as AC
from engine.queens_garden import components as QC
from engine.queens_garden import geometry as QG
from i18n import LANGUAGES, SOURCE, catalogs
from render import _draw, render_png
from scripts.gallery import names_for, playthrough

OTHERS = [lang for lang in LANGUAGES if lang != SOURCE]


def catalog(lang):
    return catalogs.read_catalog(catalogs.po_path(lang), lang)


def strings(message):
    s = message.string
    return list(s) if isinstance(s, (tuple, list)) else [s]


# ------------------------------------------------------------------------------------------ message contexts


def test_a_context_is_part_of_the_entry_from_the_code_to_the_catalogs(tmp_path, monkeypatch):
    """`context=` on `_()`, `Text()` and `N_()` is extracted as the entry's msgctxt; a non-literal one is refused."""
    monkeypatch.setattr(catalogs, "ROOT", tmp_path)
    src = tmp_path / "x.py"
    src.write_text(
        'a = _("Place a tile", context="gardens")\n'
        'b = Text("{n} tile", "{n} tiles", context="queens_garden", n=2)\n'
        'c = N_("pavilion", context="queens_garden")\n'
        'd = N_("pavilion")\n'
        "e = Text('x', context=ctx)\n",
        encoding="utf-8",
    )
    found, bad = catalogs.code_entries([src])
    assert [(e.context, e.msgid, e.plural) for e in found] == [
        ("gardens", "Place a tile", None),
        ("queens_garden", "{n} tile", "{n} tiles"),
        ("queens_garden", "pavilion", None),
        (None, "pavilion", None),
        (None, "x", None),
    ]
    assert len(bad) == 1 and "context" in bad[0]


def test_a_marked_constant_keeps_its_context_and_stays_its_english():
    name = N_("pavilion", context="queens_garden")
    assert isinstance(name, Marked) and name == "pavilion" and hash(name) == hash("pavilion")
    assert pickle.loads(pickle.dumps(name)).context == "queens_garden"
    text = Text.marked(name)
    assert text.context == "queens_garden" and str(text) == "pavilion"
    assert Text.marked(N_("pavilion", context="gardens")).context == "gardens"  # not the cached other one
    assert Text.from_json(text.to_json()) == text and text.to_json() == {"t": "pavilion", "c": "queens_garden"}
    assert N_("pavilion") == "pavilion" and not isinstance(N_("pavilion"), Marked)


def test_the_pseudo_language_wraps_entries_with_a_context():
    pseudo = catalogs.pseudo(catalogs.code_entries()[0])
    i18n.install(i18n.PSEUDO, pseudo)
    try:
        _ = i18n.words(i18n.PSEUDO)
        assert _.text(QC.ELEMENT_NAMES["pavilion"]) == "⟦pavilion⟧"
        assert _.command_name("game") == "game"  # command names stay valid names
    finally:
        i18n.uninstall(i18n.PSEUDO)


def test_the_pavilion_is_an_altanek_in_czech_queens_garden_and_a_pavilon_in_the_gardens():
    from engine.gardens import components as GC

    _ = i18n.words("cs")
    assert _.text(QC.element_text("pavilion")) == "altánek"
    assert _.text(GC.TYPE_NAMES["pavilion"]) == "pavilon"
    cs = catalog("cs")
    queens = [m for m in cs if m.id and any("queens_garden" in p for p, _n in m.locations)]
    english = [m for m in queens if "pavilion" in str(m.id)]
    assert len(english) >= 5
    assert all("pavilon" not in s for m in english for s in strings(m)), "Queen's Garden says altánek in Czech"


# each game's own word for its tiles (glossary: Gardens kertlap/dílek/loseta/Plättchen, Queen's Garden
# lapka/dílek/loseta/Stein), and the words that belong to another game
PLACE_A_TILE = {
    "cs": {"gardens": ("dílek", "budov"), "queens_garden": ("dílek", "budov")},
    "es": {"gardens": ("loseta", "ficha"), "queens_garden": ("loseta", "ficha")},
    "de": {"gardens": ("Plättchen", "einbauen"), "queens_garden": ("Stein", "Plättchen")},
    "hu": {"gardens": ("kertlap", "lapka"), "queens_garden": ("lapka", "kertlap")},
}


@pytest.mark.parametrize("lang", OTHERS)
def test_place_a_tile_says_each_games_own_words(lang):
    from present import for_game

    for game, (want, wrong) in PLACE_A_TILE[lang].items():
        label = for_game(game).kind_label("place_tile", i18n.words(lang))
        assert want.lower() in label.lower() and wrong.lower() not in label.lower(), (game, label)
    assert for_game("alhambra").kind_label("place_tile", i18n.words("cs")) == "Postavit budovu"


def test_german_scoring_rounds_are_w_in_alhambra_and_r_in_queens_garden():
    _ = i18n.words("de")
    assert _("R{round}", context="alhambra", round=2) == "W2"
    assert _("R{round}", context="queens_garden", round=2) == "R2"


# ------------------------------------------------------------------------------------------ agreement


# the verb for one name and for several (the catalogs' plural forms on the number of names)
VERBS = {
    "hu": ("vásárolhat", "vásárolhatnak"),
    "cs": ("smí", "smějí"),
    "es": ("puede", "pueden"),
    "de": ("darf", "dürfen"),
}


@pytest.mark.parametrize("lang", OTHERS)
def test_the_verb_agrees_with_the_number_of_names(lang):
    from present import for_game

    _ = i18n.words(lang)
    alhambra = for_game("alhambra")
    one, many = (re.compile(rf"\b{verb}\b") for verb in VERBS[lang])
    assert one.search(alhambra.out_of_turn_line("**bo**", n=1, _=_))
    assert many.search(alhambra.out_of_turn_line("**bo**, **dan**", n=2, _=_))
    assert many.search(alhambra.out_of_turn_line("**bo**, **dan**", n=2, _=_, main="**ana**"))
    assert not one.search(alhambra.out_of_turn_line("**bo**, **dan**", n=2, _=_))


def test_the_nudge_to_several_players_addresses_them_all():
    _ = i18n.words("de")
    one = _("⏰ {who}: {name} is waiting for your move in {title}.", "", n=1, who="@a", name="bo", title="Azul")
    assert "deinen Zug" in one
    assert "euren Zug" in _(
        "⏰ {who}: {name} is waiting for your move in {title}.", "", n=3, who="@a, @b, @c", name="bo", title="Azul"
    )


@pytest.mark.parametrize("lang", OTHERS)
def test_every_line_naming_several_players_is_a_plural_entry(lang):
    """The templates whose {who} is a list of names are plural entries, each form translated."""
    cat = catalog(lang)
    for msgid in [
        "⏳ {who} may act out of turn.",
        "⏳ {who} may act out of turn until {main} acts.",
        "🧞 Vizier: {who} may buy out of turn.",
        "🧞 Vizier: {who} may buy out of turn until {main} acts.",
        "⏰ {who}: {name} is waiting for your move in {title}.",
    ]:
        m = cat.get(msgid)
        assert isinstance(m.id, tuple), msgid
        if lang != "hu" or "Vizier" in msgid or "act" in msgid:
            assert len(set(strings(m))) > 1, f"{lang}: one form for one name and for several: {msgid!r}"


# ------------------------------------------------------------------------------------------ letters and codes

CODE = re.compile(r"(?<!\w)[^\W\d_]{1,3}\d{1,2}(?!\w)")  # a drawn code: letters, then a number


@pytest.mark.parametrize("lang", OTHERS)
def test_queens_garden_letters_are_the_languages_own_and_never_ambiguous(lang):
    _ = i18n.words(lang)
    colours = [_.text(c.letter) for c in QC.COLOURS]
    areas = [_.text(QG.area_text(a)) for a in (*QG.AREAS, QG.FOUNTAIN_BOARD)]
    assert len(set(colours)) == 6 and len(set(areas)) == 7
    assert not set(colours) & set(areas), "a hexagon code would read as a space"
    assert _("J") not in colours  # the joker's letter
    codes = {_.text(QC.code_text((c, v))) for c in range(6) for v in QC.PATTERNS}
    spaces = {_.text(QG.space_text(s)) for s in QG.SPACES}
    assert len(codes) == 36 and len(spaces) == len(QG.SPACES) and not codes & spaces


def test_wall_sides_and_areas_read_in_each_languages_letters():
    hut = AC.tile_text("hut-pavilion-NEW")
    assert str(hut) == "Pavilion hut (walls NEW)"
    assert i18n.tr("hu", hut) == "Kunyhó (Pavilon, fal: ÉKNy)"
    assert "SVZ" in i18n.tr("cs", hut) and "NEO" in i18n.tr("es", hut) and "NOW" in i18n.tr("de", hut)
    rules = get_rules("queens_garden")
    from engine.queens_garden.actions import BuyExpansion

    said = rules.describe(BuyExpansion(area="SW"))
    assert str(said).endswith("area SW")
    assert i18n.tr("es", said).endswith("SO") and i18n.tr("hu", said).endswith("DNy")


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_area_or_colour_code_is_drawn_in_a_queens_garden_board(lang):
    """Every code drawn on the boards of a Queen's Garden game in `lang` is one of that language's: none of the
    English codes the language writes otherwise ("NE3" where Hungarian has "ÉK3", "Y5" where German has "G5")."""
    _ = i18n.words(lang)
    english = {QC.kind_code((c, v)) for c in range(6) for v in QC.PATTERNS} | set(QG.SPACES)
    local = {_.text(QC.code_text((c, v))) for c in range(6) for v in QC.PATTERNS}
    local |= {_.text(QG.space_text(s)) for s in QG.SPACES}
    foreign = english - local
    assert len(foreign) > 20
    rules = get_rules("queens_garden")
    states = playthrough("queens_garden", 4, 11)
    from tests.render.test_words import clear_sprites

    _draw.PARTS.clear()
    clear_sprites()
    with _draw.recording() as drawn:
        for state in (states[len(states) // 2], states[-1]):
            render_png("queens_garden", rules.view(state, None), None, names_for(4), lang=lang)
    tokens = {t for s in drawn for t in CODE.findall(s)}
    assert tokens & local, "the boards show codes"
    assert not tokens & foreign, f"{lang}: English codes drawn: {sorted(tokens & foreign)}"


# ------------------------------------------------------------------------------------------ options, yes and no

YES_NO = {"hu": ("igen", "nem"), "cs": ("ano", "ne"), "es": ("sí", "no"), "de": ("ja", "nein")}


@pytest.mark.parametrize("lang", OTHERS)
def test_option_errors_name_yes_and_no_in_the_readers_language(lang):
    cat = catalog(lang)
    yes, no = YES_NO[lang]
    for m in cat:
        if m.id and not m.context and re.search(r"\byes\b.*\bno\b", str(m.id)):
            for s in strings(m):
                assert yes in s.lower() and no in s.lower(), (lang, m.id, s)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_lobby_names_options_in_the_readers_language(lang):
    from cogs._text import options_text

    _ = i18n.words(lang)
    for game, options in [("alhambra", {"vizier": True, "huts": False}), ("gardens", {"three_tile_hand": True})]:
        row = types.SimpleNamespace(game=game, options=options)
        line = options_text(row, _)
        for name in get_rules(game).options:
            assert name not in line and name.replace("_", " ") not in line, (lang, line)
        assert YES_NO[lang][0] in line


# ------------------------------------------------------------------------------------------ grammar


def test_german_never_puts_a_plural_name_after_mit():
    """{what} and {patterns} are filled with plural names in the nominative (Vögel, Schmetterlinge): after "mit"
    German needs the dative, which a placeholder cannot give; the templates say it another way."""
    bad = [m.id for m in catalog("de") if m.id and any(re.search(r"\bmit \{(what|patterns)\}", s) for s in strings(m))]
    assert not bad, bad


def test_a_count_in_a_spanish_image_has_its_plural_form():
    _ = i18n.words("es")
    msgid = "Your bonus cards (secret): {held}, {n} playable now"
    assert _(msgid, msgid, n=1, held=2).endswith("1 jugable ahora")
    assert _(msgid, msgid, n=2, held=3).endswith("2 jugables ahora")
