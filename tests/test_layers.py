"""The layers are what they claim, read from the real import graph (every import statement in the source, with
`ast`: those inside functions and under TYPE_CHECKING included).

1. Our packages import only the layers below their own (ARCHITECTURE.md draws them):

       bot  >  cogs  >  render  >  records  >  ai, present  >  storage, i18n  >  engine

   Packages on one layer never import each other; the tools (tests/, bench/, scripts/) sit above everything and
   nothing imports them.
2. No import cycle among our modules (a function-level import counts: none is placed inside a function to hide
   one). The Discord layer routes clicks through the registry of cogs/_items.py, so no feature imports another
   to answer a button, and the session is built from parts (cogs/_core.py) rather than mixins.
3. The pure layers (`engine/`, `render/`, `ai/`, `records/`) never import the Discord layer's libraries (discord,
   the database drivers, asyncio), so rules, images and AI players run and are tested without a bot or a loop.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE = ("engine", "render", "ai", "records")
FORBIDDEN = frozenset({"discord", "aiosqlite", "asyncpg", "asyncio"})

LAYERS: tuple[tuple[str, ...], ...] = (  # lowest first
    ("engine",),
    ("storage", "i18n"),
    ("ai", "present"),
    ("records",),
    ("render",),
    ("cogs",),
    ("ops",),  # health, metrics, logs, identify: over the bot's services, never imported by them
    ("bot",),
)
TOOLS = ("tests", "bench", "scripts")


def module_files(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Module name -> file, for every module of the packages (a package's `__init__.py` is the package itself)
    and for the top-level scripts named like a package (`bot.py`)."""
    found: dict[str, Path] = {}
    for package in packages:
        if (root / f"{package}.py").is_file():
            found[package] = root / f"{package}.py"
        for path in sorted((root / package).rglob("*.py")) if (root / package).is_dir() else ():
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _ours(name: str, modules: Mapping[str, Path]) -> str | None:
    """The longest prefix of a dotted name that is one of our modules."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in modules:
            return ".".join(parts[:n])
    return None


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, dict[str, int]]:
    """Module -> {imported module of ours: first line}, from every import statement of every module."""
    modules = module_files(root, packages)
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        edges: dict[str, int] = {}
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    up = here[: len(here) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                # `from package import module` imports the module; `from module import name` the module
                targets = [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                found = _ours(target, modules)
                if found is not None and found != name:
                    edges.setdefault(found, node.lineno)
        graph[name] = edges
    return graph


def layer_of(module: str, layers: tuple[tuple[str, ...], ...] = LAYERS) -> int:
    package = module.split(".")[0]
    for n, layer in enumerate(layers):
        if package in layer:
            return n
    return len(layers)  # a tool: above everything


def wrong_way(
    graph: Mapping[str, Mapping[str, int]],
    files: Mapping[str, Path],
    layers: tuple[tuple[str, ...], ...] = LAYERS,
) -> list[str]:
    """Every import that does not go down the layers (sideways between two packages of one layer included)."""
    bad = []
    for module, edges in sorted(graph.items()):
        for target, line in sorted(edges.items()):
            same_package = module.split(".")[0] == target.split(".")[0]
            if same_package:
                continue
            here, there = layer_of(module, layers), layer_of(target, layers)
            if there > here or (there == here < len(layers)):  # up, or sideways (tools may use each other)
                bad.append(f"{files[module].name}:{line}: {module} imports {target}")
    return bad


def cycles(graph: Mapping[str, Iterable[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph.get(start, ())))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, ()))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        out.append(component)
    return out


OURS = tuple(p for layer in LAYERS for p in layer) + TOOLS


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, int]]:
    return import_graph(ROOT, OURS)


def test_every_package_of_the_layers_is_found(graph):
    """The graph reads every package named in the layers (a renamed package would silently drop out)."""
    assert {m.split(".")[0] for m in graph} >= set(OURS)
    assert len(graph) > 100


def test_imports_go_down_the_layers(graph):
    """No package imports a package of its own layer or above (a function-level import counts as much as one
    at the top, and so does one under TYPE_CHECKING), and nothing outside the tools imports a tool."""
    assert wrong_way(graph, module_files(ROOT, OURS)) == []


def test_no_import_cycles(graph):
    """Among our modules (the tools' too) there is no cycle, the Discord layer's included."""
    assert [sorted(c) for c in cycles(graph)] == []


def test_the_real_checks_fail_on_a_copy_with_a_planted_cycle_and_upward_import(graph):
    """The checks above, run on the real graph with one import planted (in memory): a cog imported by the items
    module it builds on (a cycle, as the table buttons once made), or the AI seats importing the bot (up)."""
    cyclic = {m: dict(edges) for m, edges in graph.items()}
    cyclic["cogs._items"]["cogs._table"] = 1
    assert any({"cogs._items", "cogs._table"} <= c for c in cycles(cyclic))
    upward = {m: dict(edges) for m, edges in graph.items()}
    upward["cogs.ai_seats"]["bot"] = 30
    assert wrong_way(upward, module_files(ROOT, OURS)) == ["ai_seats.py:30: cogs.ai_seats imports bot"]


def _tree(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_planted_upward_import_fails(tmp_path):
    """A lower layer importing a higher one is caught, whether at the top, inside a function, relative, or as
    `from package import module`; a downward import is not."""
    _tree(
        tmp_path,
        {
            "engine/__init__.py": "",
            "engine/rules.py": "def f():\n    from storage import base\n",  # up, inside a function
            "storage/__init__.py": "from . import base\n",
            "storage/base.py": "import engine.rules\nfrom records import figures\n",  # down, then up
            "records/__init__.py": "",
            "records/figures.py": "from storage.base import x\n",
            "cogs/__init__.py": "",
            "cogs/a.py": "from .b import y\n",
            "cogs/b.py": "",
        },
    )
    layers = (("engine",), ("storage",), ("records",), ("cogs",))
    found = import_graph(tmp_path, ("engine", "storage", "records", "cogs"))
    assert found["storage"] == {"storage.base": 1}
    assert found["cogs.a"] == {"cogs.b": 1}
    files = module_files(tmp_path, ("engine", "storage", "records", "cogs"))
    assert wrong_way(found, files, layers) == [
        "rules.py:2: engine.rules imports storage.base",
        "base.py:2: storage.base imports records.figures",
    ]
    # and the real test fails on it: the real layers, this tree
    assert wrong_way(found, files) != []


def test_a_planted_cycle_fails(tmp_path):
    """A cycle through a function-level import is found, and only the modules in it."""
    _tree(
        tmp_path,
        {
            "render/__init__.py": "",
            "render/a.py": "import render.b\n",
            "render/b.py": "def f():\n    import render.c\n",
            "render/c.py": "from render import a\n",
            "render/d.py": "import render.a\n",
        },
    )
    found = cycles(import_graph(tmp_path, ("render",)))
    assert found == [{"render.a", "render.b", "render.c"}]
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": ["e"], "e": ["d"]}) in (
        [{"d", "e"}, {"a", "b", "c"}],
        [{"a", "b", "c"}, {"d", "e"}],
    )


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, top-level module name) of every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", PURE)
def test_pure_layers_never_import_discord_databases_or_asyncio(package):
    """No module of the package imports discord, aiosqlite, asyncpg or asyncio, at the top or inside a function."""
    files = sources(package)
    assert files, f"no sources found in {package}/"
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in files
        for line, name in imported_modules(path)
        if name in FORBIDDEN
    ]
    assert bad == []


def test_the_checker_sees_every_kind_of_import(tmp_path):
    """The walk finds plain, dotted, from- and nested imports (and leaves relative ones alone)."""
    source = tmp_path / "sample.py"
    source.write_text(
        "import os, discord.ext\nfrom asyncio import run\nfrom . import sibling\n\ndef f():\n    import aiosqlite\n",
        encoding="utf-8",
    )
    assert imported_modules(source) == [(1, "os"), (1, "discord"), (2, "asyncio"), (6, "aiosqlite")]
