"""Where the catalogs are and what they are called: the paths, the gettext domain, our languages and the
contexts of the slash commands' entries. Both the translator (`i18n`) and the catalog tool (`i18n.catalogs`) read
them from here, so neither imports the other to know them."""

from __future__ import annotations

from pathlib import Path

LOCALES = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "bot"
SOURCE = "en"

# our languages, each in its own words (the /language choices)
LANGUAGES: dict[str, str] = {"en": "English", "hu": "Magyar", "cs": "Čeština", "es": "Español", "de": "Deutsch"}

COMMAND_NAME = "command name"  # the catalog context of slash-command names
COMMAND = "command"  # the catalog context of slash commands' descriptions and choices (apart from the messages)
