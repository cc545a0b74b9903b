"""The build's one step beyond pyproject.toml: the engine's hot modules (Alhambra's and Queen's Garden's rules, the
AI's random playouts) compiled to C extensions with mypyc, two to three times the speed of the pure-Python engine.

Every extension is optional: without a C compiler (or if mypyc fails) the pure-Python engine is installed and
works the same, only slower. `ENGINE_PURE=1 pip install ...` skips compiling. The build records each compiled
module's source hash in `engine/_compiled.json`; `engine/__init__.py` loads the sources instead of extensions
built from other sources (an editable install whose files were edited since) or when ENGINE_PURE=1 at run time.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# the modules a random playout spends its time in (bench/engine.py); gardens is fast enough in pure Python
COMPILED = [
    f"engine/{game}/{module}.py"
    for game, modules in {
        "alhambra": (
            "actions",
            "components",
            "geometry",
            "listing",
            "marks",
            "rounds",
            "rules",
            "scoring",
            "state",
            "turn",
        ),
        "queens_garden": ("actions", "components", "geometry", "listing", "rules", "scoring", "state", "turn"),
    }.items()
    for module in modules
]
MANIFEST = "engine/_compiled.json"  # module name -> sha256 of the source it was compiled from


def source_hashes() -> dict[str, str]:
    return {path[:-3].replace("/", "."): hashlib.sha256((ROOT / path).read_bytes()).hexdigest() for path in COMPILED}


class BuildExt(build_ext):
    """build_ext that tolerates a failed compile (the extensions are optional) and writes the manifest beside
    the extensions it built (the source tree in an editable install, the build tree otherwise)."""

    def run(self) -> None:
        super().run()
        if not self.extensions:
            return
        built = [Path(self.get_ext_fullpath(ext.name)) for ext in self.extensions if ext.name.startswith("engine.")]
        if not all(path.exists() for path in built):
            return  # the compiler failed (optional extensions): the pure engine, no manifest
        text = json.dumps(source_hashes(), indent=1, sort_keys=True) + "\n"
        targets = {Path(self.build_lib) / MANIFEST}
        if self.inplace or getattr(self, "editable_mode", False):
            targets.add(ROOT / MANIFEST)
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")

    def get_outputs(self) -> list[str]:
        return [*super().get_outputs(), str(Path(self.build_lib) / MANIFEST)]


def pure_tree() -> None:
    """ENGINE_PURE=1: no extension of an earlier build may stay beside the sources (an editable install would
    load them)."""
    (ROOT / MANIFEST).unlink(missing_ok=True)
    for path in COMPILED:
        for built in (ROOT / path).parent.glob(Path(path).stem + ".*.so"):
            built.unlink()
    for built in ROOT.glob("engine__mypyc.*.so"):
        built.unlink()


def extensions() -> list:
    if os.environ.get("ENGINE_PURE") == "1":
        pure_tree()
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # mypy is in [build-system] requires; a build without isolation may lack it
        return []
    os.chdir(ROOT)  # mypycify takes paths relative to the project
    exts = mypycify(COMPILED, opt_level="3", group_name="engine")
    for ext in exts:
        ext.optional = True
    return exts


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
