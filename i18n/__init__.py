"""Every word a player reads, in their language: English (the source), Hungarian, Czech, Spanish and German.

GNU gettext catalogs managed with Babel (`python -m i18n`: extract, update, compile, check), kept in `locales/`:
`locales/bot.pot` is the template, `locales/<lang>/LC_MESSAGES/bot.po` a language. A catalog's `.mo` is compiled
from its `.po` when it is missing or older (at the first use, or by `python -m i18n compile` at build time), so
a fresh checkout runs as it is. Plural forms come from each catalog's header (Czech has three).

The msgid of every text is its English template with named `{fields}`, written in the code as a literal:
- in the Discord layer, `_ = i18n.words(lang)` and then `_("It's your move, {who}.", who=...)`, or with a plural
  `_("{n} card", "{n} cards", n=3)`;
- in the engines (which know no language), `engine.Text("...", **params)` carries the same template and its
  parameters as data; `_.text(t)` turns it into words;
- constants translated later (a building's name in a table) are marked `N_("Pavilion")` and shown with `_.text`.

Where one English text means different things in different games ("pavilion": a Gardens building, a Queen's
Garden element; "Place a tile"), each game's use has its own catalog entry, told apart by a gettext message
context: the game's id (`GAME_CONTEXTS`), a literal keyword at the call, in each of the three forms:
`_("Place a tile", context="gardens")`, `Text("pavilion", context="queens_garden")`, `N_("pavilion",
context="queens_garden")`. Letters that stand for a word (the colour letters of Queen's Garden codes) have the
context `LETTER`. The slash commands' texts have their own contexts (`COMMAND_NAME`, `COMMAND`). Nothing else
differs: a context is part of an entry's key, `python -m i18n extract` writes it as the entry's msgctxt.
`python -m i18n extract` finds these calls (i18n/catalogs.py) and the slash commands' names and descriptions.

Who reads which language (cogs/_locale.py): an ephemeral reply is in the clicking user's Discord language, a
public post in the server's language (set by an admin with /language, else the server's own locale, else
English). A language the catalogs do not know falls back to English.
"""

from __future__ import annotations

import functools
import gettext
import logging
from collections.abc import Mapping
from typing import Any

from engine import Text
from engine._text import N_ as N_  # the marker, one for the engines and the rest
from engine._text import context_of
from i18n.names import COMMAND as COMMAND
from i18n.names import COMMAND_NAME as COMMAND_NAME
from i18n.names import DOMAIN as DOMAIN
from i18n.names import LANGUAGES as LANGUAGES
from i18n.names import LOCALES as LOCALES
from i18n.names import SOURCE as SOURCE

log = logging.getLogger(__name__)

# Discord's locale codes (interaction.locale, guild_locale) for each of our languages
DISCORD_LOCALES: dict[str, tuple[str, ...]] = {
    "en": ("en-US", "en-GB"),
    "hu": ("hu",),
    "cs": ("cs",),
    "es": ("es-ES", "es-419"),
    "de": ("de",),
}
_BY_DISCORD = {code: lang for lang, codes in DISCORD_LOCALES.items() for code in codes}

GAME_CONTEXTS = ("alhambra", "gardens", "queens_garden")  # a game's own words (its registry id)
LETTER = "letter"  # the catalog context of a one-letter code standing for a word (a colour's letter)
PSEUDO = "qps"  # a generated test language that wraps every text in ⟦ ⟧ (tests/i18n)
_extra: dict[str, gettext.NullTranslations] = {}  # languages installed at run time (the pseudo-language)


def language_of(locale: Any) -> str | None:
    """Our language for a Discord locale (a `discord.Locale`, its code, or one of our codes); None if we have none."""
    if locale is None:
        return None
    code = str(getattr(locale, "value", locale))
    if code in LANGUAGES or code in _extra:
        return code
    return _BY_DISCORD.get(code) or _BY_DISCORD.get(code.split("-")[0])


class Words:
    """The texts of one language. `_(template, plural, **params)` translates and fills a template; `_.text(t)`
    does the same for an engine `Text` (or a marked constant)."""

    __slots__ = ("lang", "_gettext", "_ngettext", "_pgettext", "_npgettext")

    def __init__(self, lang: str, translations: gettext.NullTranslations):
        self.lang = lang
        self._gettext = translations.gettext
        self._ngettext = translations.ngettext
        self._pgettext = translations.pgettext
        self._npgettext = translations.npgettext

    def command_name(self, name: str) -> str:
        """A slash command's, group's or option's name (catalog context "command name"; Discord wants them
        lowercase, without spaces, at most 32 characters)."""
        return self._pgettext(COMMAND_NAME, name)

    def command_text(self, text: str) -> str:
        """A slash command's or option's description, or a choice's name (catalog context "command")."""
        return self._pgettext(COMMAND, text) if text else text

    def __call__(
        self, template: str, plural: str | None = None, /, *, context: str | None = None, **params: Any
    ) -> str:
        if not template:
            return template
        words = self._translate(template, plural, params.get("n"), context)
        if not params:
            return words
        values = {k: v.fill(self._translate) if isinstance(v, Text) else v for k, v in params.items()}
        try:
            return words.format(**values)
        except (KeyError, IndexError, ValueError):  # a broken translation (the catalog test catches these)
            log.warning("the %s translation of %r does not fit its parameters", self.lang, template)
            english = template if plural is None or params.get("n") == 1 else plural
            return english.format(**values)

    def text(self, text: Text | str | None) -> str:
        """An engine's words (a `Text`), or a constant marked with `N_`, in this language ('' for None)."""
        if text is None:
            return ""
        if isinstance(text, Text):
            return text.fill(self._translate)
        return self._translate(text, None, None, context_of(text))

    def _translate(self, template: str, plural: str | None, n: Any, context: str | None = None) -> str:
        if not template:  # gettext("") is the catalog's header
            return template
        if context is not None:
            if plural is None:
                return self._pgettext(context, template)
            return self._npgettext(context, template, plural, n)
        if plural is None:
            return self._gettext(template)
        return self._ngettext(template, plural, n)

    def __repr__(self) -> str:
        return f"Words({self.lang!r})"


@functools.cache
def _words(lang: str) -> Words:
    return Words(lang, _extra.get(lang) or _load(lang))


def words(lang: str | None) -> Words:
    """The texts of `lang` (one of LANGUAGES; anything else: English)."""
    if lang not in LANGUAGES and lang not in _extra:
        lang = SOURCE
    return _words(lang or SOURCE)


def tr(lang: str | None, text: Text | str | None) -> str:
    """`text` (an engine `Text` or a marked constant) in `lang`."""
    return words(lang).text(text)


def _load(lang: str) -> gettext.NullTranslations:
    if lang == SOURCE:
        return gettext.NullTranslations()  # the templates are English
    from i18n import catalogs  # Babel only when a catalog is compiled (not a cycle: catalogs uses i18n.names)

    try:
        return catalogs.translations(lang)
    except FileNotFoundError:
        log.warning("no catalog for language %r: English instead", lang)
        return gettext.NullTranslations()


def install(lang: str, translations: gettext.NullTranslations) -> None:
    """Adds a language at run time (the tests' pseudo-language)."""
    _extra[lang] = translations
    _words.cache_clear()


def uninstall(lang: str) -> None:
    _extra.pop(lang, None)
    _words.cache_clear()


def all_words() -> Mapping[str, Words]:
    """Every language's texts (for the slash commands' localisations)."""
    return {lang: words(lang) for lang in LANGUAGES}


ENGLISH = words(SOURCE)
