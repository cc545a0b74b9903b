"""The games the shared tests run over, and what each game's own test package tells them (its `Profile`).

Shared tests never name a game. They take `game` (a fixture parametrized over `names()`: the registry's games,
`engine.GAMES`, then the test-only games) and ask `profile(game)` for what only the game knows: the
configurations worth playing, how to re-deal its hidden information, the rule ids its texts cite, a highlight
for its previews. What a game does or lacks comes from the registry itself (`engine.entry(game)`: a renderer, an
AI), so a game without a renderer gets the placeholder checks and a game without an AI no AI tests, each skip
saying why (`pytest -rs`).

A game's test package is `tests/engine/<game>/`; its `profile.py` holds `PROFILE`. A package there whose profile
carries an `entry` is a test-only game (tests/engine/nim): the autouse fixture of tests/conftest.py registers it
for each test that runs it and unregisters it after, so it never shows up anywhere else. A fourth real game adds
`tests/engine/<game>/profile.py` (or nothing, and gets the defaults) and no shared file changes.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import engine

ROOT = Path(__file__).resolve().parent.parent
GAME_TESTS = ROOT / "tests" / "engine"

Config = tuple[int, Mapping[str, Any]]  # (players, options)
Rehide = Callable[[Any, Any, str, random.Random], Any]  # (rules, state, actor, rnd) -> the state re-dealt


@dataclasses.dataclass(frozen=True)
class Hidden:
    """What a game hides, for the leak tests: `rehide(rules, state, actor, rnd)`, the state with everything neither
    the actor nor a spectator sees dealt again; `variant(state)`, the state with other hidden information, for
    the image leak tests; `private_view`, whether a player's own view shows something the others' do not (a
    hand)."""

    rehide: Rehide
    variant: Callable[[Any], Any]
    private_view: bool = False


@dataclasses.dataclass(frozen=True)
class Profile:
    """What the shared tests need to know of one game and cannot read from its rules or its registry entry.

    `configs`: the (players, options) the property tests play (default: each player count with the default
    options); `played`: the few played to the end by the slower text checks (default: the smallest and largest
    player count); `drawn`: those the image cache tests draw (default: the largest player count); `max_steps`/`examples`: the size of its hypothesis runs; `hidden`:
    what it hides (`Hidden`; None: the game hides nothing); `rule_prefixes`: the letters of the rule ids its texts cite (docs/rules; "" for none); `highlight`: a
    highlight argument its renderer marks; `entry`: set for a test-only game (registered by the `game` fixture)."""

    configs: tuple[Config, ...] = ()
    played: tuple[Config, ...] = ()
    drawn: tuple[Config, ...] = ()
    max_steps: int = 200
    examples: int = 20
    hidden: Hidden | None = None
    rule_prefixes: str = ""
    highlight: Any = None
    entry: engine.GameEntry | None = None

    @property
    def private_view(self) -> bool:
        """Whether a player's own view shows something the others' do not."""
        return self.hidden is not None and self.hidden.private_view


DEFAULT = Profile()


@functools.cache
def _profiles() -> dict[str, Profile]:
    """Every game test package's profile, by the package's name (the game's)."""
    found = {}
    for path in sorted(GAME_TESTS.glob("*/profile.py")):
        found[path.parent.name] = importlib.import_module(f"tests.engine.{path.parent.name}.profile").PROFILE
    return found


def test_only() -> dict[str, engine.GameEntry]:
    """The games that exist only in the tests, by name, with the registry entry the fixture registers."""
    return {name: p.entry for name, p in _profiles().items() if p.entry is not None}


def names() -> list[str]:
    """Every game the shared tests run: the registry's, then the test-only ones."""
    return [*engine.GAMES, *(name for name in test_only() if name not in engine.GAMES)]


def entry(game: str) -> engine.GameEntry:
    """The registry entry of a game, registered or test-only (usable at collection time)."""
    return test_only().get(game) or engine.entry(game)


def rules_of(game: str) -> Any:
    """The rules of a game, registered or test-only (usable at collection time, before the fixture registers)."""
    return importlib.import_module(entry(game).rules).RULES


def profile(game: str) -> Profile:
    return _profiles().get(game, DEFAULT)


def configs(game: str) -> tuple[Config, ...]:
    """The configurations a game is played in by the shared tests (its profile's, else every player count)."""
    return profile(game).configs or tuple((n, {}) for n in rules_of(game).player_counts)


def played(game: str) -> tuple[Config, ...]:
    counts = rules_of(game).player_counts
    return profile(game).played or tuple((n, {}) for n in sorted({counts[0], counts[-1]}))


def drawn(game: str) -> tuple[Config, ...]:
    return profile(game).drawn or ((rules_of(game).player_counts[-1], {}),)


def deal(pool: list[Any], sizes: list[int]) -> tuple[list[tuple[Any, ...]], list[Any]]:
    """`pool` dealt out in hands of these sizes, in order, and what is left (for a profile's re-deal)."""
    out, k = [], 0
    for n in sizes:
        out.append(tuple(pool[k : k + n]))
        k += n
    return out, pool[k:]


def has_renderer(game: str) -> bool:
    return entry(game).render is not None


def has_ai(game: str) -> bool:
    return entry(game).ai is not None


def code_dir(game: str) -> Path:
    """The directory of the game's rules package (where the texts of its code are)."""
    module = importlib.import_module(entry(game).rules)
    return Path(module.__file__ or "").resolve().parent
