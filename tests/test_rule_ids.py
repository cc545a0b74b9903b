"""The rule numbers the code cites resolve in docs/rules, every rule there is cited by a test, and the relative
links of data/*.md and docs/rules/*.md lead somewhere.

How the specifications define ids (see docs/rules/README.md):
- a rule starts a line (or a list item) in bold: ``**A31 [C+I]**``, ``- **G5** [D]``;
- a worked test case is a table row: ``| GT1 | ...``, ``| QT7 | ...``;
- a sub-rule is an item of a list inside a rule: numbered items give ``<rule>.<n>``, items that start with a
  bracketed letter or roman numeral give ``<rule><label>`` (written ``A33c``, ``A33(c)``, ``Q28 ii``...).

How citations are found: an id stands alone (not inside a word, a number or a cell name such as ``@-3:12``), in
any text of the scanned files; test names are read as underscore-separated words (``test_A31_4_...`` cites A31.4
when A31 has numbered sub-rules, ``test_Q5_36_...`` cites Q5). Board positions and component codes look like ids
(Gardens spaces A1-F6, Queen's Garden hexagon codes such as G4, Alhambra cells such as Q13), so a file that
belongs to one game is searched only for that game's prefixes (A and V in Alhambra files, G in Gardens files, Q in
Queen's Garden files); files of no particular game are searched for all four.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
SPECS = ("alhambra.md", "alhambra_vizier.md", "gardens_of_alhambra.md", "azul_queens_garden.md")
THIS = Path(__file__).resolve()

CODE_DIRS = ("engine", "ai", "render", "cogs", "tests", "bench")
GAMES = (("queens_garden", "Q"), ("gardens", "G"), ("alhambra", "AV"))  # path fragment -> prefixes its files cite

RULE_DEF = re.compile(r"^(?:- )?\*\*([AGQV][1-9]\d*)\b")
CASE_DEF = re.compile(r"^\| ([GQ]T[1-9]\d*) \|")
END_OF_RULE = re.compile(r"^(?:- )?\*\*[AGQV][1-9]\d*\b|^#|^---")
NUMBERED_ITEM = re.compile(r"^\s*(\d+)\.\s")
LABELLED_ITEM = re.compile(r"^\s*[-*]\s+(?:\*\*)?\(([a-h]|i{1,3}|iv)\)")

CITE = re.compile(
    r"(?<![A-Za-z0-9_@])(?P<id>[AGQV]T?[1-9]\d*)(?!\d)"
    r"(?:\.(?P<num>\d+)(?!\d)"  # A31.4
    r"|(?P<letter>[a-h])(?![A-Za-z0-9])"  # A33c
    r"|\s?\((?P<paren>[a-h]|i{1,3}|iv)\)"  # A33(c), Q26 (a), Q28 (ii)
    r"| (?P<roman>ii|iii|iv)(?![A-Za-z0-9])"  # Q28 ii
    r")?(?![A-Za-z0-9])"
)
TEST_NAME = re.compile(r"\bdef (test_\w+)")
NAME_ID = re.compile(r"([AGQV]T?[1-9]\d*)([a-h]?)")
DOCSTRING = re.compile(r'"""(.*?)"""', re.S)
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE_PATH = re.compile(r"`(\.\.?/[^`\s]+)`")


@cache
def defined() -> tuple[frozenset[str], frozenset[str]]:
    """(every id the specs define, sub-rules included; the rules and test cases alone)."""
    ids: set[str] = set()
    top: set[str] = set()
    for name in SPECS:
        rule = None
        for line in (RULES / name).read_text(encoding="utf-8").splitlines():
            if m := RULE_DEF.match(line) or CASE_DEF.match(line):
                rule = m.group(1)
                top.add(rule)
                continue
            if END_OF_RULE.match(line):
                rule = None
            elif rule and (m := NUMBERED_ITEM.match(line)):
                ids.add(f"{rule}.{m.group(1)}")
            elif rule and (m := LABELLED_ITEM.match(line)):
                ids.add(rule + m.group(1))
    return frozenset(ids | top), frozenset(top)


def prefixes(path: Path) -> str:
    rel = path.relative_to(ROOT).as_posix()
    return next((p for key, p in GAMES if key in rel), "AGQV")


def cited_in_text(text: str, allowed: str) -> list[tuple[str, int]]:
    """(id, line number) of every citation in free text whose prefix is allowed."""
    out = []
    for m in CITE.finditer(text):
        rid = m.group("id")
        if rid[0] not in allowed:
            continue
        sub = m.group("num")
        label = m.group("letter") or m.group("paren") or m.group("roman")
        cited = f"{rid}.{sub}" if sub else rid + (label or "")
        out.append((cited, text.count("\n", 0, m.start()) + 1))
    return out


def cited_in_test_names(text: str, allowed: str) -> list[tuple[str, int]]:
    """test_A31_4_no_holes -> A31.4 (when A31 has numbered sub-rules), test_A27_A28_x -> A27, A28."""
    ids, _ = defined()
    out = []
    for m in TEST_NAME.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        words = m.group(1).split("_")[1:]
        for i, word in enumerate(words):
            w = NAME_ID.fullmatch(word)
            if not w or word[0] not in allowed:
                continue
            rid = w.group(1) + w.group(2)
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if not w.group(2) and len(nxt) == 1 and nxt.isdigit() and any(x.startswith(rid + ".") for x in ids):
                rid = f"{rid}.{nxt}"
            out.append((rid, line))
    return out


def scanned_files() -> list[Path]:
    files = [p for d in CODE_DIRS for p in sorted((ROOT / d).rglob("*.py"))]
    files += sorted(ROOT.glob("*.py")) + [ROOT / "README.md"]
    files += sorted((ROOT / "data").glob("*.md")) + sorted((ROOT / "data").glob("*.json"))
    return [p for p in files if p.is_file() and p.resolve() != THIS]


@cache
def citations() -> dict[str, list[str]]:
    """id -> places ("path:line") where the code, the tests, the data and the specs' own text cite it."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in scanned_files():
        text = path.read_text(encoding="utf-8")
        allowed = prefixes(path)
        rel = path.relative_to(ROOT).as_posix()
        for rid, line in cited_in_text(text, allowed) + cited_in_test_names(text, allowed):
            where[rid].append(f"{rel}:{line}")
    for name in SPECS:  # the specs' cross-references; table rows hold test data such as "P3 G0 Y3"
        lines = (RULES / name).read_text(encoding="utf-8").splitlines()
        prose = "\n".join("" if line.startswith("|") else line for line in lines)
        for rid, line in cited_in_text(prose, "AGQV"):
            where[rid].append(f"docs/rules/{name}:{line}")
    return where


def test_every_cited_rule_id_exists_in_docs_rules():
    ids, _ = defined()
    missing = {rid: places for rid, places in citations().items() if rid not in ids}
    report = "\n".join(f"  {rid}: {', '.join(places[:5])}" for rid, places in sorted(missing.items()))
    assert not missing, f"rule ids cited but not defined in docs/rules/*.md:\n{report}"


def test_every_rule_is_cited_by_a_test_name_or_docstring():
    """The project standard: each rule of the specs is named by at least one test, in the test's name or in a
    docstring under tests/; each worked test case (GT, QT) anywhere under tests/ (often a parametrize id)."""
    _, top = defined()
    named: set[str] = set()
    anywhere: set[str] = set()
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.resolve() == THIS:
            continue
        text = path.read_text(encoding="utf-8")
        allowed = prefixes(path)
        named.update(rid for rid, _ in cited_in_test_names(text, allowed))
        for doc in DOCSTRING.findall(text):
            named.update(rid for rid, _ in cited_in_text(doc, allowed))
        anywhere.update(rid for rid, _ in cited_in_text(text, allowed))
    named |= {re.match(r"[AGQV]T?\d+", rid).group(0) for rid in named}  # a sub-rule cites its rule
    uncited = [rid for rid in top if rid not in (anywhere if rid[1] == "T" else named)]
    uncited.sort(key=lambda r: (r[0], len(r), r))
    assert not uncited, f"rules no test under tests/ names (in its name or docstring): {', '.join(uncited)}"


def test_the_specs_define_the_numbered_rules():
    """A guard for the parser above: the ranges the README names, and the sub-rules the code cites."""
    ids, top = defined()
    for prefix, last in (("A", 83), ("V", 66), ("G", 37), ("Q", 39), ("GT", 17), ("QT", 26)):
        assert f"{prefix}1" in top and f"{prefix}{last}" in top and f"{prefix}{last + 1}" not in top
    assert {"A16.3", "A31.1", "A31.4", "A33a", "A33c", "Q26a", "Q26b", "Q28i", "Q28ii", "Q35.3"} <= ids
    assert not {"A31.5", "A33d", "Q28a", "Q26c"} & ids  # "Q26 (a) and (b)" in Q28's text is a reference


def test_citation_patterns():
    text = "A31.4: no holes (A33c, Q26 (a), Q28 ii, A33(b)); see A6 [U], rule V12 and QT5. Not: M13, @-3:12, x_A1"
    assert [rid for rid, _ in cited_in_text(text, "AGQV")] == [
        "A31.4", "A33c", "Q26a", "Q28ii", "A33b", "A6", "V12", "QT5"]  # fmt: skip
    assert [rid for rid, _ in cited_in_text("garden A1, hexagon G4, cell Q13", "G")] == ["G4"]
    names = "def test_A31_4_no_holes():\ndef test_Q1_Q3_108_tiles():\ndef test_QT8_Q26b_x():\ndef test_A16_5_x():"
    assert [rid for rid, _ in cited_in_test_names(names, "AGQV")] == ["A31.4", "Q1", "Q3", "QT8", "Q26b", "A16.5"]


def test_relative_links_in_data_and_docs_rules_resolve():
    broken = []
    for path in sorted((ROOT / "data").glob("*.md")) + sorted(RULES.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for target in MD_LINK.findall(text) + CODE_PATH.findall(text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a web address or an anchor in the same file
            if not (path.parent / target.split("#")[0]).exists():
                broken.append(f"{path.relative_to(ROOT).as_posix()}: {target}")
    assert not broken, "relative links that lead nowhere:\n  " + "\n  ".join(broken)
