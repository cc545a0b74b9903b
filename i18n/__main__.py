"""The catalogs from the command line.

python -m i18n extract   # the template (locales/bot.pot) from the code and the slash commands, merged into
                         # every language's catalog (new entries empty, changed ones fuzzy)
python -m i18n check     # what is missing, fuzzy or does not fit (exit status 1 if anything)
python -m i18n compile   # the .mo files (also done at the first use of an outdated catalog)
python -m i18n todo hu   # a language's open entries, to translate
"""

from __future__ import annotations

import sys

from i18n import LANGUAGES, SOURCE, catalogs


def all_entries() -> list[catalogs.Entry]:
    from cogs._locale import command_entries  # type: ignore[import-not-found,unused-ignore]  # the command tree's texts

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
