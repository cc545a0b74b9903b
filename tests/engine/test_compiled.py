"""The compiled engine (setup.py: the hot modules built by mypyc) and its guard (engine/_build.py).

- The state and action classes' written-out constructors (native stores when compiled) take exactly the dataclass fields, in
  order, with their defaults; the states' own copies (`copied`, what `replace` runs when compiled) copy every field
  and set exactly the ones named; copies (`replace`) and pickles of states give equal states in either build.
- A stale build is never run: in a copy of the installed tree, editing one compiled module's source makes every
  compiled module import from its source, with one warning (an editable install a developer edits); ENGINE_PURE=1
  at run time forces the sources too. These need a compiled build (skipped when the install is pure: no compiler,
  or ENGINE_PURE=1 at install).

The whole suite runs against the build installed (compiled by default); `ENGINE_PURE=1 pytest` runs it against
the sources.
"""

import dataclasses
import functools
import itertools
import pickle
import random
import shutil
import subprocess
import sys
from dataclasses import MISSING
from pathlib import Path

import pytest

import engine
from engine import get_rules
from engine._common import native, replace
from engine.alhambra import state as alhambra_state
from engine.queens_garden import actions as qg_actions
from engine.queens_garden import state as qg_state

WRITTEN_OUT = [
    *get_rules("alhambra").action_types,
    *get_rules("queens_garden").action_types,
    alhambra_state.GameState,
    alhambra_state.PlayerState,
    qg_state.QGState,
    qg_state.Seat,
    qg_state.Piece,
    qg_state.Placed,
]


@functools.cache
def _instances():
    """Instances of every written-out class, from random games with every module on (the actions listed)."""
    found = {}
    for game, seed in itertools.product(("alhambra", "queens_garden"), range(4)):
        rules = get_rules(game)
        state = rules.new_game(["1", "2", "3"][: 2 + seed % 2], {name: True for name in rules.options}, seed)
        rnd = random.Random(seed)
        while not rules.is_over(state):
            player = rnd.choice(rules.to_move(state))
            listed = rules.legal_actions(state, player)
            for a in [*listed, *rules.free_actions(state, player)]:
                found[type(a)] = a
            state = rules.step(state, player, rnd.choice(listed))
            found[type(state)] = state
            found[type(state.seats[0])] = state.seats[0]
            for piece in getattr(state, "display", ()):
                found[type(piece)] = piece
            for seat in state.seats:
                for placed in getattr(seat, "placed", ()):
                    found[type(placed)] = placed
    # what short random games never list (random players pass early in Queen's Garden), made by keyword
    expansion = qg_actions.PlaceExpansion(
        expansion=3, area="B", turn=2, pay_tiles=(1, 5), pay_expansions=(7,), jokers=1
    )
    found.setdefault(qg_actions.PlaceExpansion, expansion)
    return found


@pytest.mark.parametrize("cls", WRITTEN_OUT, ids=lambda c: c.__name__)
def test_written_out_constructors_take_the_fields_in_order_with_their_defaults(cls):
    fields = dataclasses.fields(cls)
    real = _instances()[cls]
    values = [getattr(real, f.name) for f in fields]
    assert cls(*values) == real
    assert cls(**{f.name: v for f, v in zip(fields, values, strict=True)}) == real
    if not native(cls):  # compiled constructors check the types: distinct markers only in pure Python
        marks = [object() for _ in fields]
        made = cls(*marks)
        assert all(getattr(made, f.name) is m for f, m in zip(fields, marks, strict=True))
    required = {f.name: v for f, v in zip(fields, values, strict=True) if f.default is f.default_factory is MISSING}
    made = cls(**required)
    for f in fields:
        if f.name not in required:
            default = f.default if f.default is not MISSING else f.default_factory()
            assert getattr(made, f.name) == default, f.name
    if fields:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, fields[0].name, values[0])  # noqa: B010 (the frozen check itself)


@pytest.mark.parametrize("cls", [c for c in WRITTEN_OUT if hasattr(c, "copied")], ids=lambda c: c.__name__)
def test_written_out_copies_change_exactly_the_fields_named(cls):
    """A state class's own `copied` (what `replace` runs when compiled) copies every field and sets each one
    named, alone (a field it left out would keep the old value, or lose it)."""
    real = _instances()[cls]
    fields = dataclasses.fields(cls)
    assert cls.copied(real, {}) == real
    for f in fields:
        old = getattr(real, f.name)
        if old is None:
            continue  # (a final score not yet made: no other value of its type at hand)
        new = {bool: not old, str: "x", dict: {"x": 1}, frozenset: frozenset({"x"})}.get(type(old))
        if type(old) is int:
            new = old + 1
        if type(old) is tuple:  # of the same items (compiled setters check them)
            if not old:
                continue
            new = old + old[:1]
        made = cls.copied(real, {f.name: new if new is not None else dataclasses.replace(old)})
        if new is None:  # a state value (Marks, FinalScore): an equal copy, told apart by identity
            assert getattr(made, f.name) is not old, f.name
        else:
            assert getattr(made, f.name) == new != old, f.name
        assert all(getattr(made, g.name) == getattr(real, g.name) for g in fields if g is not f), f.name
    with pytest.raises(TypeError):
        cls.copied(real, {"no_such_field": 1})


@pytest.mark.parametrize("game", ["alhambra", "queens_garden"])
def test_states_copy_and_pickle_to_equal_states(game):
    rules = get_rules(game)
    options = {name: True for name in rules.options}
    state = rules.new_game(["1", "2", "3"], options, 5)
    rnd = random.Random(5)
    for _ in range(30):
        player = rnd.choice(rules.to_move(state))
        state = rules.step(state, player, rnd.choice(rules.legal_actions(state, player)), quiet=True)
    assert pickle.loads(pickle.dumps(state)) == state
    assert replace(state, rng_counter=state.rng_counter) == state
    assert replace(state, rng_counter=99).rng_counter == 99
    with pytest.raises(TypeError):
        replace(state, no_such_field=1)


PROBE = """
import warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import engine
    from engine.alhambra import listing, turn
    from engine.queens_garden import listing as qg_listing
rules = engine.get_rules("alhambra")
state = rules.new_game(["1", "2"], {}, 3)
state = rules.apply(state, "1", rules.legal_actions(state, "1")[0])
print(engine.BUILD, listing.__file__.endswith(".py"), turn.__file__.endswith(".py"),
      qg_listing.__file__.endswith(".py"), getattr(listing, "EDITED", False), len(caught))
for w in caught:
    print(w.message)
"""


def _probe(root: Path, **env: str) -> list[str]:
    environment = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1", **env}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=root, env=environment, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.fixture
def installed_copy(tmp_path):
    """A copy of the installed engine (compiled extensions, their manifest and the shared library) and data."""
    if engine.BUILD != "compiled":
        pytest.skip(f"the engine is not compiled here (build: {engine.BUILD})")
    package = Path(engine.__file__).resolve().parent
    shutil.copytree(package, tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(package.parent / "data", tmp_path / "data")
    for shared in package.parent.glob("engine__mypyc.*"):
        shutil.copy2(shared, tmp_path)
    return tmp_path


def test_an_unchanged_build_runs_compiled(installed_copy):
    assert _probe(installed_copy) == ["compiled False False False False 0"]


def test_an_edited_source_runs_every_compiled_module_from_source_with_one_warning(installed_copy):
    source = installed_copy / "engine" / "alhambra" / "listing.py"
    source.write_text(source.read_text(encoding="utf-8") + "\nEDITED = True\n", encoding="utf-8")
    first, warning = _probe(installed_copy)
    assert first == "stale True True True True 1"
    assert "engine.alhambra.listing changed since the engine was compiled" in warning


def test_engine_pure_at_run_time_runs_the_sources(installed_copy):
    assert _probe(installed_copy, ENGINE_PURE="1") == ["pure True True True False 0"]
