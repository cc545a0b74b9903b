"""The catalogs' life cycle, with Babel: find every translatable text in the code, keep each language's catalog in
step with them, compile, check, and generate the tests' pseudo-language.

- `extract()`: every `_("…")`, `Text("…")` and `N_("…")` with a literal template (a second literal is the plural,
  a literal `context=` keyword the entry's msgctxt), found in the source with `ast`, plus the slash commands' names, descriptions and choices (given by the caller:
  the cogs know them); a comment line starting `# i18n:` just above a call is a note for translators.
- `update()`: the template written to `locales/bot.pot` and merged into each language's `.po` (new entries
  empty, changed ones fuzzy: both fail `check` until a translator has seen them).
- `translations(lang)`: the compiled catalog, compiling the `.po` when its `.mo` is missing or older.
- `problems(lang)`: what `check` (and tests/i18n) report: entries missing, empty or fuzzy, `{fields}` that differ
  from the English, and command names Discord would refuse.
- `pseudo()`: a language in which every text is the English wrapped in ⟦ ⟧, so a test can see which texts
  went through the catalogs.
"""

from __future__ import annotations

import ast
import contextlib
import datetime
import gettext
import io
import os
import re
import string
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from i18n.names import COMMAND, COMMAND_NAME, DOMAIN, LANGUAGES, LOCALES, SOURCE

ROOT = LOCALES.parent
SOURCES = ("bot.py", "cogs", "engine", "present", "render", "ai", "i18n")  # where player-visible texts live
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
CALLS = {"_", "Text", "N_"}  # the translating calls (i18n/__init__.py)
NOTE = "i18n:"  # a comment starting so, just above a call, is shown to translators
FIXED_DATE = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)  # stable headers: no churn on every extract
NAME_RE = re.compile(r"^[-_\w]{1,32}$")  # Discord's rule for command and option names (and lowercase)
RULE_ID = re.compile(
    r"\b[AVGQ]\d+(?:\.\d+)?\b"
)  # a rule of docs/rules/ cited in a text ("A31: ..."): kept in every language
IGNORE = "# i18n: ignore"  # on the line of a call whose template is not a text of its own


@dataclass(frozen=True)
class Entry:
    """One text to translate: its English (and plural), an optional context, where it is used, a note."""

    msgid: str
    plural: str | None = None
    context: str | None = None
    where: str = ""
    note: str = ""


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


# --------------------------------------------------------------------------------------------- extraction


def source_files() -> Iterator[Path]:
    for name in SOURCES:
        path = ROOT / name
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def code_entries(files: Iterable[Path] | None = None) -> tuple[list[Entry], list[str]]:
    """The translatable texts in the code, and the calls that break the rules (a template that is not a literal)."""
    entries: list[Entry] = []
    problems: list[str] = []
    for path in files if files is not None else source_files():
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        where = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(text, filename=where)):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALLS):
                continue
            if not node.args:
                continue
            first = node.args[0]
            if IGNORE in lines[node.lineno - 1]:  # a template built from other texts (engine.join_texts)
                continue
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                if node.func.id != "_" or isinstance(first, ast.JoinedStr):  # `_` may also be a throwaway name
                    problems.append(f"{where}:{node.lineno}: {node.func.id}() needs a literal template")
                continue
            plural = None
            if len(node.args) > 1:
                second = node.args[1]
                if isinstance(second, ast.Constant) and isinstance(second.value, str):
                    plural = second.value
                else:
                    problems.append(f"{where}:{node.lineno}: the plural of {first.value!r} must be a literal")
            context = None
            for kw in node.keywords:
                if kw.arg == "context":
                    if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                        context = kw.value.value
                    else:
                        problems.append(f"{where}:{node.lineno}: the context of {first.value!r} must be a literal")
            note = ""
            above = lines[node.lineno - 2].strip() if node.lineno >= 2 else ""
            if above.startswith("#") and above[1:].strip().startswith(NOTE):
                note = above[1:].strip()[len(NOTE) :].strip()
            if first.value:
                entries.append(Entry(first.value, plural, context, f"{where}:{node.lineno}", note))
    return entries, problems


def template_catalog(entries: Iterable[Entry]) -> Catalog:
    catalog = Catalog(
        project="alhambra-bot", version="1", creation_date=FIXED_DATE, revision_date=FIXED_DATE, fuzzy=False
    )
    for e in entries:
        msgid = (e.msgid, e.plural) if e.plural else e.msgid
        path, _, line = e.where.rpartition(":")
        catalog.add(
            msgid,
            locations=[(path, int(line))] if line.isdigit() else [],
            context=e.context,
            auto_comments=[e.note] if e.note else [],
            flags=("python-brace-format",) if "{" in e.msgid else (),
        )
    return catalog


def write_catalog(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, catalog, width=120, sort_output=True, include_lineno=False, omit_header=False)
    data = buf.getvalue()
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def read_catalog(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def update(entries: Iterable[Entry]) -> dict[str, int]:
    """Writes the template and merges it into every language's catalog; returns each language's open entries."""
    template = template_catalog(entries)
    write_catalog(template, TEMPLATE)
    template = read_catalog(TEMPLATE)
    open_entries = {}
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        path = po_path(lang)
        catalog = read_catalog(path, lang) if path.exists() else Catalog(locale=lang, domain=DOMAIN, fuzzy=False)
        catalog.revision_date = FIXED_DATE
        catalog.creation_date = FIXED_DATE
        catalog.update(template, no_fuzzy_matching=False, update_header_comment=False, keep_user_comments=True)
        catalog.obsolete.clear()  # git keeps the history
        write_catalog(catalog, path)
        open_entries[lang] = len(problems(lang))
    return open_entries


# --------------------------------------------------------------------------------------------- compiled catalogs


def compile_catalog(lang: str) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, read_catalog(po_path(lang), lang), use_fuzzy=False)
    return buf.getvalue()


def translations(lang: str) -> gettext.GNUTranslations:
    """The compiled catalog of `lang`, compiled first if its .mo is missing or older than its .po (and saved
    beside it when the folder is writable)."""
    po = po_path(lang)
    if not po.exists():
        raise FileNotFoundError(po)
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        data = mo.read_bytes()
    else:
        data = compile_catalog(lang)
        with contextlib.suppress(OSError):  # a read-only installation compiles in memory at each start
            _write_atomically(mo, data)
    return gettext.GNUTranslations(io.BytesIO(data))


def _write_atomically(path: Path, data: bytes) -> None:
    """Other processes (test workers, shards) may read the file meanwhile: they see the old one or the new one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def compile_all() -> list[Path]:
    out = []
    for lang in LANGUAGES:
        if lang != SOURCE:
            mo = po_path(lang).with_suffix(".mo")
            _write_atomically(mo, compile_catalog(lang))
            out.append(mo)
    return out


# --------------------------------------------------------------------------------------------- checks


def fields(template: str) -> set[str]:
    """The named `{fields}` of a template."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError:
        return {"<unbalanced braces>"}


def problems(lang: str) -> list[str]:
    """Everything wrong with a language's catalog against the template (empty: complete)."""
    template = read_catalog(TEMPLATE)
    path = po_path(lang)
    if not path.exists():
        return [f"{lang}: no catalog at {path.relative_to(ROOT)}"]
    catalog = read_catalog(path, lang)
    found = []
    for m in template:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        t = catalog.get(key, context=m.context)
        label = f"{lang}: {key!r}" + (f" ({m.context})" if m.context else "")
        if t is None:
            found.append(f"{label} is missing")
            continue
        if t.fuzzy:
            found.append(f"{label} is fuzzy (the English changed: check the translation)")
        english = [str(e) for e in (m.id if isinstance(m.id, tuple) else (m.id,))]
        strings = [str(s or "") for s in (t.string if isinstance(t.string, (tuple, list)) else (t.string,))]
        if isinstance(m.id, tuple) and len(strings) != catalog.num_plurals:
            found.append(f"{label} has {len(strings)} plural forms, the language has {catalog.num_plurals}")
        if not all(strings):
            found.append(f"{label} is not translated")
            continue
        want = set().union(*(fields(e) for e in english))
        for s in strings:
            got = fields(s)
            if got != want and not (isinstance(m.id, tuple) and got | {"n"} == want):
                found.append(f"{label}: the translation's fields {sorted(got)} differ from {sorted(want)}")
                break
        ids = set(RULE_ID.findall(english[0]))
        if ids and not all(ids <= set(RULE_ID.findall(s)) for s in strings):
            found.append(f"{label}: the translation must keep the rule ids {sorted(ids)}")
        if m.context == COMMAND_NAME and not all(NAME_RE.match(s) and s == s.lower() for s in strings):
            found.append(f"{label}: a command name must be lowercase, without spaces, at most 32 characters")
    return found


# --------------------------------------------------------------------------------------------- the pseudo-language

OPEN, CLOSE = "⟦", "⟧"


class Pseudo(gettext.NullTranslations):
    """Every text of the template, wrapped in ⟦ ⟧ (texts the template does not know stay as they are)."""

    def __init__(self, template: Catalog):
        super().__init__()
        self.known = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in template if m.id}

    def gettext(self, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}" if (None, message) in self.known else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        chosen = msgid1 if n == 1 else msgid2
        return f"{OPEN}{chosen}{CLOSE}" if (None, msgid1) in self.known else chosen

    def pgettext(self, context: str, message: str) -> str:
        if context in (COMMAND_NAME, COMMAND):
            return message  # names stay valid command names
        return f"{OPEN}{message}{CLOSE}" if (context, message) in self.known else message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        chosen = msgid1 if n == 1 else msgid2
        return f"{OPEN}{chosen}{CLOSE}" if (context, msgid1) in self.known else chosen


def pseudo(entries: Iterable[Entry] | None = None) -> Pseudo:
    return Pseudo(template_catalog(entries) if entries is not None else read_catalog(TEMPLATE))
