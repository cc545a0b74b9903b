"""The catalogs from the command line.

python -m i18n extract   # the template (locales/bot.pot) from the code and the slash commands, merged into
                         # every language's catalog (new entries empty, changed ones fuzzy)
python -m i18n check     # what is missing, fuzzy or does not fit (exit status 1 if anything)
python -m i18n compile   # the .mo files (also done at the first use of an outdated catalog)
python -m i18n todo hu   # a language's open entries, to translate
"""

from __future__ import annotations

import importlib
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

from i18n import LANGUAGES, SOURCE, catalogs

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def command_entries() -> list[catalogs.Entry]:
    """The slash commands' texts: the command tree is the Discord layer's, above this package, so the function
    that lists them is named by the project's configuration (`[tool.i18n] command-entries` in pyproject.toml,
    "module:function"), never imported here by name."""
    with PYPROJECT.open("rb") as f:
        where = tomllib.load(f).get("tool", {}).get("i18n", {}).get("command-entries")
    if not where:
        raise SystemExit(f"{PYPROJECT}: [tool.i18n] command-entries names no function")
    module, _, name = str(where).partition(":")
    entries: Callable[[], list[catalogs.Entry]] = getattr(importlib.import_module(module), name)
    return entries()


def all_entries() -> list[catalogs.Entry]:
    found, bad = catalogs.code_entries()
    if bad:
        raise SystemExit("texts the catalogs cannot take:\n" + "\n".join(bad))
    return [*found, *command_entries()]


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "check"
    if what == "extract":
        for lang, n in catalogs.update(all_entries()).items():
            print(f"{lang}: {n} open")
        return 0
    if what == "compile":
        for path in catalogs.compile_all():
            print(path)
        return 0
    if what in ("check", "todo"):
        langs = argv[1:] or [x for x in LANGUAGES if x != SOURCE]
        found = [p for lang in langs for p in catalogs.problems(lang)]
        print("\n".join(found) if found else "all catalogs complete")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
