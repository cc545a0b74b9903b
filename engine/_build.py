"""Which engine runs: the compiled one (the hot modules built by mypyc, see setup.py) only when every extension
was built from the sources beside it; else the pure-Python sources. Imported first by `engine/__init__.py`,
before any compiled module: `BUILD` is "compiled", "pure" or "stale" (see `_guard`)."""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType


class _Sources(importlib.abc.MetaPathFinder):
    """Imports the compiled modules from their .py sources, never their extensions (first on sys.meta_path)."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name not in self.names:
            return None
        stem = name.rpartition(".")[2] + ".py"
        for folder in path or ():
            source = Path(folder) / stem
            if source.is_file():
                return importlib.util.spec_from_file_location(name, source)
        return None


def _guard() -> str:
    """How the engine runs: "compiled" (every extension built from the sources beside it), "pure" (none built,
    or ENGINE_PURE=1 now) or "stale" (a compiled module's source changed since the build, as when a developer
    edits a file of an editable install: all of them are then imported from source, since compiled modules call
    each other directly, with one warning). `engine/_compiled.json`, written by the build, holds the sources'
    hashes."""
    try:
        built: dict[str, str] = json.loads(Path(__file__).with_name("_compiled.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "pure"
    root = Path(__file__).resolve().parent.parent
    if os.environ.get("ENGINE_PURE") == "1":
        mode = "pure"
    else:
        stale = [
            name
            for name, digest in built.items()
            if hashlib.sha256((root / (name.replace(".", "/") + ".py")).read_bytes()).hexdigest() != digest
        ]
        if not stale:
            return "compiled"
        mode = "stale"
        warnings.warn(
            f"engine: {', '.join(stale)} changed since the engine was compiled: running every compiled module from"
            " its source (slower); `pip install -e .` compiles it again",
            stacklevel=2,
        )
    sys.meta_path.insert(0, _Sources(set(built)))
    return mode


BUILD = _guard()
