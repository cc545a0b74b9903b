"""The pure layers stay pure: `engine/`, `render/` and `ai/` never import the Discord layer's libraries (discord,
the database drivers, asyncio), so rules, images and AI players run and are tested without a bot or an event loop.
Every import statement is read from the source with `ast`, nested ones (inside functions) included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE = ("engine", "render", "ai", "records")
FORBIDDEN = frozenset({"discord", "aiosqlite", "asyncpg", "asyncio"})


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
