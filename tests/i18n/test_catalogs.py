"""The catalogs are complete: every text of the code is in the template, and every language translates
every entry, without fuzzy entries, with the template's placeholders and rule ids, in its own plural forms."""

from __future__ import annotations

import gettext

import pytest

import i18n
from i18n import LANGUAGES, SOURCE, catalogs
from i18n.__main__ import all_entries

OTHERS = [lang for lang in LANGUAGES if lang != SOURCE]


def keys(entries):
    return {(e.context, e.msgid, e.plural) for e in entries}


def test_the_template_has_every_text_of_the_code():
    """`python -m i18n extract` was run after the last change of a text: the template is what the code says."""
    live = keys(all_entries())
    template = catalogs.read_catalog(catalogs.TEMPLATE)
    stored = {(m.context, *(m.id if isinstance(m.id, tuple) else (m.id, None))) for m in template if m.id}
    assert not live - stored, f"texts missing from locales/bot.pot (run python -m i18n extract): {live - stored}"
    assert not stored - live, f"texts in locales/bot.pot the code no longer has: {stored - live}"


@pytest.mark.parametrize("lang", OTHERS)
def test_every_entry_is_translated(lang):
    """No entry missing, fuzzy or untranslated; the same {fields}; rule ids (A31, G7, Q20, V12...) kept."""
    found = catalogs.problems(lang)
    assert not found, f"{len(found)} problems, e.g.:\n" + "\n".join(found[:30])


def test_czech_has_three_plural_forms_and_uses_them():
    """Plural forms come from the catalog (Czech: 1 / 2-4 / 5+)."""
    _ = i18n.words("cs")
    cs = catalogs.read_catalog(catalogs.po_path("cs"), "cs")
    assert cs.num_plurals == 3
    plurals = [m for m in catalogs.read_catalog(catalogs.TEMPLATE) if isinstance(m.id, tuple)]
    assert plurals, "the code has plural texts"
    for m in plurals:
        params = {f: "x" for f in catalogs.fields(m.id[0]) | catalogs.fields(m.id[1])}
        forms = {_(m.id[0], m.id[1], **(params | {"n": n})) for n in (1, 3, 5)}
        assert all("{" not in form for form in forms), forms
    translated = cs.get(plurals[0].id[0])
    assert translated is not None and len(translated.string) == 3


def test_a_broken_translation_falls_back_to_english():
    class Broken(gettext.NullTranslations):
        def gettext(self, message):
            return "{nope}" if "{" in message else message

    i18n.install("zz", Broken())
    try:
        assert i18n.words("zz")("It is {who}'s turn.", who="Ana") == "It is Ana's turn."
    finally:
        i18n.uninstall("zz")


def test_compiled_catalogs_are_used(tmp_path):
    """A language's words come from its compiled catalog (compiled from the .po when missing or outdated)."""
    for lang in OTHERS:
        translations = catalogs.translations(lang)
        assert translations.info().get("language", "").startswith(lang) or translations.gettext("") != ""
