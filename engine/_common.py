"""What every game engine shares: the error types, options, events, the `action` decorator and a fast `replace`
for the frozen dataclasses, seeded randomness kept in the state, a JSON codec for them (in `engine/_json.py`),
words as data (`Text`, `N_`, `join_texts`, in `engine/_text.py`), and the `Rules` base class that implements the
common half of `docs/ENGINE_CONTRACT.md` (player counts, option checking, legal_actions/apply over one `check`, JSON
round trips).

Pure: no discord, no asyncio, no I/O except `load_data`, which reads the component lists in `data/` once.

The optional contract: what some games have and others need not. `Rules` declares each with a default, so the
Discord layer asks every game the same questions and never a game's name or option names:

- `out_of_turn(state) -> list[str]`: the players in `to_move` only because they MAY act out of turn now; the
  others in `to_move` must act (default: nobody; Alhambra: the vizier claimants, V4/V7/V12).
- `turn_over(before, player, action, after) -> bool`: True if `player`'s turn ended with `action`, even when
  they are to move again (default: they are no longer to move for their turn; Alhambra's exact payment goes on
  in the same turn; Gardens and Queen's Garden: every action is a turn, G21/Q18, several in a row once the
  others are out, G25/Q29).
- `has_free_actions(options) -> bool`: whether a game with these options can ever offer free actions (default
  False; Alhambra: with the bonus cards module).
- `free_actions(state, player) -> list[A]`: actions a seated player may take at any time, whoever is to move;
  never in `legal_actions`, accepted by `apply` (default: none; Alhambra: bonus cards, V62/V66).
- `is_free_action(action) -> bool`: True for the kinds `free_actions` lists (default False).
- `is_private(action) -> bool`: the very choice is its player's own business: never announced, shown to others
  only as "changes a private setting" (default False; Alhambra: the bonus-card standing order, V66).
- `reveals(before, player, action, after) -> bool`: True if applying `action` showed someone something hidden
  from them before (a draw, a refill, a reshuffle, a face-down component turned up, a hidden card changing
  hands in a way others learn). An own move that reveals nothing may be undone freely. The default is True,
  so a game that does not decide it never offers a free undo.
- `limits: Mapping[str, int]`: per-game limits the UI shows, keyed by the counter they bound (default none;
  Alhambra: "huts_taken" 3, V25).
"""

from __future__ import annotations

import copyreg
import dataclasses
import functools
import json
import operator
import random
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine._json import _fields, action_to_json, from_jsonable, source_annotations, to_jsonable
from engine._text import N_, Text, join_texts

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

# re-exported: every engine module takes its words (and the JSON codec) from here
__all__ = ["N_", "Text", "action_to_json", "from_jsonable", "join_texts", "to_jsonable"]


# --------------------------------------------------------------------------------------------- errors


class IllegalAction(Exception):
    """An action the rules do not allow now. The message (a `Text`, or plain English) is written for the player
    and shown as is, translated."""

    def __init__(self, message: Any = "") -> None:
        super().__init__(str(message))
        self.text = message if isinstance(message, Text) else None


class MalformedAction(IllegalAction):
    """An action that is not even well formed (unknown kind, missing or wrong fields)."""


# --------------------------------------------------------------------------------------------- options


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    """One option a new game accepts. `choices` empty means a yes/no option (bool)."""

    name: str
    default: Any
    description: str | Text  # shown to players: a Text
    choices: tuple[Any, ...] = ()

    def validate(self, value: Any) -> Any:
        """`value` if this option accepts it, else ValueError (its message a `Text`)."""
        if self.choices:
            if value not in self.choices:
                shown = ", ".join(str(c) for c in self.choices)
                raise ValueError(
                    Text(
                        "Option '{name}' must be one of: {shown} (got {value}).",
                        name=self.name,
                        shown=shown,
                        value=repr(value),
                    )
                )
            return value
        if not isinstance(value, bool):
            raise ValueError(
                Text("Option '{name}' is yes/no (true or false), not {value}.", name=self.name, value=repr(value))
            )
        return value


# --------------------------------------------------------------------------------------------- events


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, kept in the state's log so the Discord layer can announce it.

    `state.log` holds the events of the last action only: after `apply`, it is exactly what that action
    produced (its "move" event, draws, scorings, completed buildings...), in order; after `new_game`, the
    events of the deal. It never accumulates the history (the move log replays a game): whatever a renderer or
    an AI needs from earlier actions lives in explicit, bounded state fields instead.

    `text` is a short sentence without the acting player's name (the bot adds it), e.g. "scores 12 points for
    towers": a `Text` (a plain str in logs stored before texts were data). An event with `private_to` set is
    only for that player's eyes: `view()` drops it for everyone else.
    `data` holds machine-readable details (plain JSON values) for renderers and tests.
    """

    kind: str
    text: str | Text  # str: written before texts were data (old logs)
    player: str | None = None
    data: dict[str, Any] = dataclasses.field(default_factory=dict)
    private_to: str | None = None


def visible_log(log: Iterable[Event], viewer: str | None) -> tuple[Event, ...]:
    """The log entries `viewer` may see (None: a spectator): drops entries private to someone else."""
    return tuple(e for e in log if e.private_to is None or e.private_to == viewer)


# --------------------------------------------------------------------------------------------- actions and states


T = TypeVar("T")


@typing.dataclass_transform(frozen_default=True)
def action(kind: str) -> typing.Callable[[type[T]], type[T]]:
    """Class decorator for an action type: a frozen dataclass with slots whose JSON `kind` is `kind`.

        @action("take_money")
        class TakeMoney:
            cards: tuple[int, ...]

    `kind` is a class attribute, not a field: `action_to_json` writes it beside the fields and
    `action_from_json` dispatches on it (stored moves depend on it, so it never changes with a class name).
    The compiled engines (setup.py) write the same out, `@dataclass(frozen=True, slots=True)` with `kind` a
    ClassVar: mypyc makes only a plain dataclass a native class.
    """

    def make(cls: type[T]) -> type[T]:
        made = dataclasses.dataclass(frozen=True, slots=True)(cls)
        setattr(made, "kind", kind)  # noqa: B010 (a class attribute the dataclass must not see as a field)
        return made

    return make


_REPLACERS: dict[type, Any] = {}


def replace(obj: T, **changes: Any) -> T:
    """`dataclasses.replace` for our frozen dataclasses (no __post_init__), several times as fast: states are
    rebuilt at every action and random playouts (AI, benchmarks) are dominated by it. Each class gets a generated
    copier: with slots, one slot setter per field in straight-line code; without (the large states, whose
    instance dict is copied at once), a dict update. Unknown field names raise TypeError, as
    dataclasses.replace does."""
    cls = type(obj)
    fn = _REPLACERS.get(cls)
    if fn is None:
        fn = _REPLACERS[cls] = _make_replacer(cls)
    new: T = fn(obj, changes)
    return new


def native(cls: type) -> bool:
    """True for a class compiled by mypyc (the engine's hot modules, see setup.py): its instances are C structs
    made only by its own constructor (`object.__new__` refuses them), whose fields compiled code reads and
    writes directly. The copy tricks below are for the pure-Python classes; a native one is copied by a
    constructor call with every field."""
    try:
        object.__new__(cls)
    except TypeError:
        return True
    return False


def native_dataclasses(*classes: type) -> None:
    """Make the compiled (mypyc) dataclasses among `classes` behave as their sources do: they pickle by their
    fields, rebuilt by the constructor (the AI's worker processes get states so; a native class has no instance
    dict for pickle's default), and a ClassVar such as an action's `kind` (erased by mypyc to a plain annotation,
    so dataclasses took it for a field) is no field (`dataclasses.fields` / `replace` see what the source says)."""
    for cls in classes:
        if native(cls):
            copyreg.pickle(cls, _by_fields)
            written = source_annotations(cls)
            for name in [n for n in cls.__dataclass_fields__ if n not in written]:  # type: ignore[attr-defined]
                del cls.__dataclass_fields__[name]  # type: ignore[attr-defined]


def _by_fields(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    return type(obj), tuple([getattr(obj, f.name) for f in _fields(type(obj))])


def _make_replacer(cls: type) -> Any:
    if native(cls):  # its own compiled `copied(obj, changes)` when it has one (the hot states), else generic
        return getattr(cls, "copied", None) or _native_replacer(cls)
    if "__slots__" not in cls.__dict__:
        return _dict_replacer(cls)
    # all old values at once (attrgetter runs in C), the changes put in by index, then one slot setter per field
    names = [f.name for f in dataclasses.fields(cls)]
    env: dict[str, Any] = {
        "new_": object.__new__,
        "cls": cls,
        "get": operator.attrgetter(*names) if names else (lambda obj: ()),
        "index": {n: i for i, n in enumerate(names)},
        "TypeError": TypeError,
        "KeyError": KeyError,
    }
    lines = [
        "def copier(obj, ch):",
        "    v = [get(obj)]" if len(names) == 1 else "    v = list(get(obj))",
        "    try:",
        "        for k in ch:",
        "            v[index[k]] = ch[k]",
        "    except KeyError:",
        f"        raise TypeError('unknown field(s) for {cls.__name__}: ' + ', '.join(sorted(set(ch) - set(index))))"
        " from None",
        "    new = new_(cls)",
    ]
    for i, name in enumerate(names):
        env[f"s{i}"] = cls.__dict__[name].__set__
        lines.append(f"    s{i}(new, v[{i}])")
    lines.append("    return new")
    exec("\n".join(lines), env)  # noqa: S102 (generated from the dataclass's own field names)
    return env["copier"]


_MAKERS: dict[type, Any] = {}


def maker(cls: type[T]) -> typing.Callable[..., T]:
    """A fast positional constructor for a frozen slots dataclass (no __post_init__): every field given, in
    field order, no defaults filled in, the values set by the slot setters (about half the time of the
    dataclass's own __init__, which goes through object.__setattr__): for the listings and steps that make
    many small values. `maker(PlaceTile)(tile, space, pay_tiles, pay_expansions, jokers) == PlaceTile(...)`."""
    fn = _MAKERS.get(cls)
    if fn is None and native(cls):
        fn = _MAKERS[cls] = cls  # compiled: its own constructor is the fast one
    if fn is None:
        names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
        env: dict[str, Any] = {"new_": object.__new__, "cls": cls}
        lines = [f"def make({', '.join(names)}):", "    new = new_(cls)"]
        for i, name in enumerate(names):
            env[f"s{i}"] = cls.__dict__[name].__set__
            lines.append(f"    s{i}(new, {name})")
        lines.append("    return new")
        exec("\n".join(lines), env)  # noqa: S102 (generated from the dataclass's own field names)
        fn = _MAKERS[cls] = env["make"]
    made: typing.Callable[..., T] = fn
    return made


def _native_replacer(cls: type) -> Any:
    """The copier of a compiled (mypyc) frozen dataclass: every old value read at once, the changes put in by
    index, and the constructor called with them all."""
    names = [f.name for f in _fields(cls)]
    get = operator.attrgetter(*names) if len(names) > 1 else lambda obj: (getattr(obj, names[0]),)
    index = {n: i for i, n in enumerate(names)}

    def copier(obj: Any, ch: dict[str, Any]) -> Any:
        v = list(get(obj))
        try:
            for k in ch:
                v[index[k]] = ch[k]
        except KeyError:
            raise TypeError(
                f"unknown field(s) for {cls.__name__}: " + ", ".join(sorted(set(ch) - set(index)))
            ) from None
        return cls(*v)

    return copier


def _dict_replacer(cls: type) -> Any:
    """The copier of a frozen dataclass without slots (the large game states): its instance dict copied at once
    and the changes put in, a fraction of the per-field setters' time."""
    fields = frozenset(f.name for f in dataclasses.fields(cls))
    new_ = object.__new__

    def copier(obj: Any, ch: dict[str, Any]) -> Any:
        if not fields.issuperset(ch):
            raise TypeError(f"unknown field(s) for {cls.__name__}: " + ", ".join(sorted(set(ch) - fields)))
        new: Any = new_(cls)
        values = new.__dict__
        values.update(obj.__dict__)
        values.update(ch)
        return new

    return copier


# --------------------------------------------------------------------------------------------- randomness


def rng(seed: int, counter: int) -> random.Random:
    """The generator for the `counter`-th random event of the game with `seed`.

    States keep `seed` and a draw counter (two ints) and call this for each shuffle or draw, then store
    counter + 1. CPython seeds `random.Random` from an int identically on every platform and version,
    so a replay of the move log gives the same game.
    """
    return random.Random((seed & 0xFFFFFFFFFFFF) << 20 | (counter & 0xFFFFF))


def shuffled(items: Iterable[T], seed: int, counter: int) -> tuple[tuple[T, ...], int]:
    """`items` in a random order, and the next counter."""
    out = list(items)
    rng(seed, counter).shuffle(out)
    return tuple(out), counter + 1


# --------------------------------------------------------------------------------------------- data


@functools.cache
def load_data(name: str) -> Any:
    """A component list from the project's `data/` folder, read once per process."""
    with open(DATA_DIR / name, encoding="utf-8") as f:
        return json.load(f)


def require_data(ok: bool, problem: str) -> None:
    """Refuse component data that breaks what the rules need (checked at import; unlike `assert`, never
    skipped under `python -O`)."""
    if not ok:
        raise ValueError(f"Component data (data/*.json) is wrong: {problem}")


# --------------------------------------------------------------------------------------------- rules base


_KINDS: dict[type, dict[str, type[Any]]] = {}  # each Rules class's action classes by kind


class StateLike(Protocol):
    """What the shared half of the contract reads from every game state."""

    @property
    def players(self) -> tuple[str, ...]: ...


S = TypeVar("S", bound=StateLike)  # a game's state type
A = TypeVar("A")  # a game's action type (usually a union of its action classes)


class Rules(Generic[S, A]):
    """The contract's shared half, generic over the game's state type S and action type A. A game subclasses
    `Rules[GameState, Action]` and provides:

    `name`, `title`, `player_counts`, `options`, `state_type`, `action_types` (each made with `@action(kind)`: a
    frozen dataclass whose class attribute `kind` names it in JSON, or written out so), and the methods `_new_game`, `to_move`,
    `candidates`, `check`, `step`, `is_over`, `scores`, `view`, `describe`, `summary`; optionally the features
    of the module docstring.

    The log: after `apply` (and `step`), `state.log` is exactly the events of that action, nothing older; after
    `new_game`, the events of the deal (see `Event`). A state is therefore bounded by the game's size, not by
    its length; anything a renderer or an AI needs across actions (a scoring breakdown, the marks of a whole
    turn, whether the deck was reshuffled) is a state field of its own.

    `check(state, player, action)` is the single source of truth: None when legal, else the reason in the
    player's words. `candidates` may be generous; `legal_actions` keeps those that pass `check`. A game may
    override `legal_actions` with a faster generator that lists exactly the same actions; the property tests
    apply every listed action through `apply`, so the two cannot drift apart unnoticed.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    player_counts: range
    options: Mapping[str, Option]
    state_type: ClassVar[type[Any]]
    action_types: ClassVar[tuple[type[Any], ...]]
    json_version: ClassVar[int] = 1  # bumped whenever the stored form changes; `migrate` reads the older ones

    # -- set-up ------------------------------------------------------------------------------------------

    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """All options with defaults filled in; ValueError for an unknown option or a bad value."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            known = ", ".join(self.options) or "none"
            raise ValueError(
                Text(
                    "Unknown option {names} for {game} (options: {known}).",
                    names=", ".join(unknown),
                    game=Text.marked(self.title),
                    known=known,
                )
            )
        return {name: opt.validate(options.get(name, opt.default)) for name, opt in self.options.items()}

    def new_game(self, players: Sequence[str], options: Mapping[str, Any] | None = None, seed: int = 0) -> S:
        seats = [str(p) for p in players]
        if len(seats) not in self.player_counts:
            lo, hi = self.player_counts[0], self.player_counts[-1]
            raise ValueError(
                Text(
                    "{game} is for {lo}–{hi} players, not {n}.",
                    game=Text.marked(self.title),
                    lo=lo,
                    hi=hi,
                    n=len(seats),
                )
            )
        if len(set(seats)) != len(seats):
            raise ValueError(Text("Each player may take only one seat."))
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("The seed must be a whole number.")
        return self._new_game(tuple(seats), self.normalise_options(options), seed)

    def _new_game(self, players: tuple[str, ...], options: dict[str, Any], seed: int) -> S:
        raise NotImplementedError

    # -- playing -----------------------------------------------------------------------------------------

    def to_move(self, state: S) -> list[str]:
        raise NotImplementedError

    def candidates(self, state: S, player: str) -> Iterable[A]:
        raise NotImplementedError

    def check(self, state: S, player: str, action: A) -> str | Text | None:
        """None if `player` may play `action` now, else why not: a `Text` in the player's words, citing the rule."""
        raise NotImplementedError

    def step(self, state: S, player: str, action: A, quiet: bool = False) -> S:
        """Apply an action already known to be legal (no checks: AI playouts may call it directly).

        `quiet=True` (the AI's playouts): the same next state, but no event or text is built: `state.log` is
        empty, and whatever only follows the log for the board image (Alhambra's `marks`) is left as it was.
        `to_json` of the two results is equal but for those fields (tests/engine/test_quiet_step.py). A game
        without a quieter path may ignore the flag (its log is then full: still the same next state)."""
        raise NotImplementedError

    def legal_actions(self, state: S, player: str) -> list[A]:
        if player not in self.to_move(state):
            return []
        return [a for a in self.candidates(state, player) if self.check(state, player, a) is None]

    def apply(self, state: S, player: str, action: A) -> S:
        if not isinstance(action, self.action_types):
            raise MalformedAction(Text("That is not an action of this game."))
        why = self.check(state, str(player), action)
        if why is not None:
            raise IllegalAction(why)
        return self.step(state, str(player), action)

    def is_over(self, state: S) -> bool:
        raise NotImplementedError

    def scores(self, state: S) -> dict[str, int]:
        raise NotImplementedError

    def winners(self, state: S) -> list[str]:
        """Players sharing the top score once the game is over (empty before)."""
        if not self.is_over(state):
            return []
        scores = self.scores(state)
        players = [p for p in state.players if p in scores]
        best = max(scores[p] for p in players)
        return [p for p in players if scores[p] == best]

    def view(self, state: S, player: str | None) -> S:
        raise NotImplementedError

    def describe(self, action: A) -> str | Text:
        """The action in a few words without the player's name ("takes the 7 florin"): a `Text`."""
        raise NotImplementedError

    # -- the optional contract (see the module docstring): defaults for games without these features ----------

    # Per-game limits the UI shows, keyed by the counter they bound, e.g. {"huts_taken": 3}. Default: none.
    limits: ClassVar[Mapping[str, int]] = types.MappingProxyType({})

    def out_of_turn(self, state: S) -> list[str]:
        """The players in `to_move(state)` only because they MAY act out of turn now (they need not, so nobody
        waits for them or pings them as the player to move). Default: nobody."""
        return []

    def turn_over(self, before: S, player: str, action: A, after: S) -> bool:
        """True if `player`'s turn ended with `action` (it turned `before` into `after`): whatever comes next,
        even another turn of theirs, is a new turn. A game where one player may take several turns in a row says
        so here. Default: the turn is over when `player` is no longer to move for their turn (out-of-turn
        players do not count)."""
        side = set(self.out_of_turn(after))
        return player not in [p for p in self.to_move(after) if p not in side]

    def has_free_actions(self, options: Mapping[str, Any]) -> bool:
        """True if a game with these options can ever offer free actions (the bot then shows their button).
        Default: False."""
        return False

    def free_actions(self, state: S, player: str) -> list[A]:
        """Actions `player` may take at any time, whoever is to move: not turn actions, never in
        `legal_actions`, accepted by `apply` from that player. Default: none."""
        return []

    def is_free_action(self, action: A) -> bool:
        """True for an action of a kind `free_actions` lists (it interrupts nobody's turn). Default: False."""
        return False

    def is_private(self, action: A) -> bool:
        """True if the very choice of `action` is its player's own business: never announced, shown to others
        only as "changes a private setting". Default: False."""
        return False

    def reveals(self, before: S, player: str, action: A, after: S) -> bool:
        """True if applying `action` (by `player`, turning `before` into `after`) showed someone something that
        was hidden from them before: a card, tile or bag draw, a refill, a reshuffle, a face-down component
        turned up, a hidden card changing hands in a way others learn. Own moves that reveal nothing may be
        undone freely. Default: True, so a game that does not decide it never allows a free undo."""
        return True

    def summary(self, options: Mapping[str, Any] | None = None) -> str | Text:
        """A short rules summary (Markdown) for the /rules reply: a `Text` (paragraphs joined with `join_texts`)."""
        raise NotImplementedError

    # -- JSON --------------------------------------------------------------------------------------------

    def to_json(self, state: S) -> dict[str, Any]:
        return {"game": self.name, "v": self.json_version, "state": to_jsonable(state)}

    def from_json(self, data: Mapping[str, Any], *, check: bool = True) -> S:
        """The state `to_json` wrote, decoded and checked (`validate`). `check=False` skips the check, for a
        caller that holds a state it has checked already: the bot's drawing workers get the texts of states the
        bot itself decoded (checked) or made with `apply`, and checking a 6-player Alhambra again cost about a
        millisecond of every board drawn."""
        if not isinstance(data, Mapping) or data.get("game") != self.name:
            raise ValueError(f"not a {self.title} state")
        version = data.get("v")
        payload = data.get("state")
        if version != self.json_version:
            payload = self.migrate(version, payload)
        state: S = from_jsonable(self.state_type, payload)
        if check:
            self.validate(state)
        return state

    def migrate(self, version: Any, payload: Any) -> Any:
        """Bring the payload of a stored state of an older JSON version up to date (its JSON form, as the
        current `to_json` would write the same position). ValueError for a version it does not know."""
        raise ValueError(f"unknown {self.title} state version {version!r}")

    def validate(self, state: S) -> None:
        """Raise ValueError if a decoded state breaks an invariant (stored rows are not trusted blindly)."""

    def action_to_json(self, action: A) -> dict[str, Any]:
        return action_to_json(action)

    @property
    def _action_kinds(self) -> dict[str, type[Any]]:
        kinds = _KINDS.get(type(self))  # per class, not in the instance (a compiled rules object has no __dict__)
        if kinds is None:
            kinds = _KINDS[type(self)] = {cls.kind: cls for cls in self.action_types}
        return kinds

    def action_from_json(self, data: Any) -> A:
        if not isinstance(data, Mapping):
            raise MalformedAction(Text("An action must be an object with a 'kind'."))
        kind: Any = data.get("kind")
        cls = self._action_kinds.get(kind)
        if cls is None:
            raise MalformedAction(Text("Unknown action '{kind}'.", kind=str(data.get("kind"))))
        fields = {k: v for k, v in data.items() if k != "kind"}
        extra = set(fields) - {f.name for f in _fields(cls)}
        if extra:
            raise MalformedAction(
                Text("Unexpected field(s) {fields} for '{kind}'.", fields=", ".join(sorted(extra)), kind=cls.kind)
            )
        try:
            action: A = from_jsonable(cls, fields)
        except (ValueError, TypeError) as exc:
            raise MalformedAction(
                Text("Malformed '{kind}' action: {problem}", kind=cls.kind, problem=str(exc))
            ) from None
        return action
