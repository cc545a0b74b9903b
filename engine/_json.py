"""The JSON codec of the engines' frozen dataclasses (states, actions, events): `to_jsonable` and its inverse
`from_jsonable`, guided by the type annotations; `engine._common` re-exports them. Pure: no I/O."""

from __future__ import annotations

import dataclasses
import functools
import json
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

from engine._text import Text


def to_jsonable(obj: Any) -> Any:
    """Plain JSON values for a tree of frozen dataclasses, tuples, frozensets, dicts and scalars.

    Dicts with string keys become objects; dicts with other keys become lists of [key, value] pairs.
    Frozensets become sorted lists so the output is stable. Dispatches on the exact type first: this runs
    on every stored move and in every property-test step.
    """
    # Scalars inside containers are copied in place, without a call: states hold hundreds of them (hands,
    # decks, bags), and a state is encoded several times per property-test step.
    scalars = _SCALARS
    t = type(obj)
    if t in scalars:
        return obj
    if t is tuple or t is list:
        return [x if type(x) in scalars else to_jsonable(x) for x in obj]
    if t is dict:
        out = {}
        for k, v in obj.items():
            if type(k) is not str:
                return [[to_jsonable(k), to_jsonable(v)] for k, v in obj.items()]
            out[k] = v if type(v) in scalars else to_jsonable(v)
        return out
    if t is Text:
        return obj.to_json()
    names = _FIELD_NAMES.get(t)
    if names is None and dataclasses.is_dataclass(obj):
        names = _FIELD_NAMES[t] = tuple(f.name for f in _fields(t))
    if names is not None:
        out = {}
        for n in names:
            v = getattr(obj, n)
            out[n] = v if type(v) in scalars else to_jsonable(v)
        return out
    if isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, (tuple, list)):
        return [to_jsonable(x) for x in obj]
    if isinstance(obj, frozenset):
        return sorted((to_jsonable(x) for x in obj), key=json.dumps)
    if isinstance(obj, Mapping):
        if all(isinstance(k, str) for k in obj):
            return {k: to_jsonable(v) for k, v in obj.items()}
        return [[to_jsonable(k), to_jsonable(v)] for k, v in obj.items()]
    raise TypeError(f"cannot encode {type(obj).__name__} as JSON")


_SCALARS = frozenset({type(None), bool, int, float, str})
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def action_to_json(action: Any) -> dict[str, Any]:
    """An action's JSON: its `kind` beside its fields (the form stored in the moves table and in move events)."""
    return {"kind": action.kind, **to_jsonable(action)}


def from_jsonable(tp: Any, data: Any) -> Any:
    """The inverse of `to_jsonable`, guided by the type annotation `tp`. Raises ValueError on a mismatch."""
    return decoder(tp)(data)


Decoder = Callable[[Any], Any]


@functools.cache
def decoder(tp: Any) -> Decoder:
    """The function decoding JSON of type `tp` (`from_jsonable`), built once per type from its annotation: a
    state is decoded on every move a bot serves (thousands of values), so the type is read once, not per value.
    A dataclass's fields are resolved at its first decoding (a type may refer to itself)."""
    if tp is Any or tp is dict:
        return _plain if tp is dict else _same
    if tp in (str, int, bool, type(None)):
        return functools.partial(_exact, tp)
    if tp is float:
        return _number
    if tp is Text:
        return Text.from_json
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return _union(tp, [decoder(a) for a in args if a is not type(None)], type(None) in args)
    if origin is typing.Literal:
        return functools.partial(_literal, args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return functools.partial(_sequence, tp, tuple, decoder(args[0]))
        return functools.partial(_fixed, tp, tuple(decoder(a) for a in args))
    if origin is frozenset:
        return functools.partial(_sequence, tp, frozenset, decoder(args[0]))
    if origin is list:
        return functools.partial(_sequence, tp, list, decoder(args[0]))
    if origin in (dict, Mapping, typing.Mapping):
        return functools.partial(_mapping, tp, decoder(args[0]), decoder(args[1]))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass(tp)
    raise TypeError(f"cannot decode type {tp!r}")


def _same(data: Any) -> Any:
    return data


def _plain(data: Any) -> Any:
    if not isinstance(data, dict):
        raise ValueError(f"expected an object, got {data!r}")
    return data


def _exact(tp: type, data: Any) -> Any:
    if type(data) is not tp:
        raise ValueError(f"expected {tp.__name__}, got {data!r}")
    return data


def _number(data: Any) -> float:
    if isinstance(data, bool) or not isinstance(data, (int, float)):
        raise ValueError(f"expected a number, got {data!r}")
    return float(data)


def _literal(allowed: tuple[Any, ...], data: Any) -> Any:
    if data not in allowed:
        raise ValueError(f"{data!r} is not one of {allowed}")
    return data


def _union(tp: Any, options: list[Decoder], optional: bool) -> Decoder:
    def decode(data: Any) -> Any:
        if data is None and optional:
            return None
        for option in options:
            try:
                return option(data)
            except (ValueError, TypeError, KeyError):
                continue
        raise ValueError(f"value {data!r} fits none of {tp}")

    return decode


def _sequence(tp: Any, kind: type, item: Decoder, data: Any) -> Any:
    if not isinstance(data, list):
        raise ValueError(f"expected a list for {tp}, got {data!r}")
    return kind([item(x) for x in data])


def _fixed(tp: Any, items: tuple[Decoder, ...], data: Any) -> tuple[Any, ...]:
    if not isinstance(data, list):
        raise ValueError(f"expected a list for {tp}, got {data!r}")
    if len(items) != len(data):
        raise ValueError(f"expected {len(items)} items for {tp}, got {len(data)}")
    return tuple(d(x) for d, x in zip(items, data, strict=True))


def _mapping(tp: Any, key: Decoder, value: Decoder, data: Any) -> dict[Any, Any]:
    if isinstance(data, dict):
        return {key(k): value(v) for k, v in data.items()}
    if isinstance(data, list):
        return {key(k): value(v) for k, v in data}
    raise ValueError(f"expected an object for {tp}")


def _dataclass(tp: type) -> Decoder:
    # per field: its name, its decoder, the exact type of a str/int/bool field (checked inline: the commonest
    # leaves), and whether it must be present
    spec: tuple[tuple[str, Decoder, type | None, bool], ...] | None = None

    def decode(data: Any) -> Any:
        nonlocal spec
        if spec is None:  # built whole, then set at once (a drawing thread may decode at the same time)
            hints = _hints(tp)
            spec = tuple(
                (
                    f.name,
                    decoder(hints[f.name]),
                    hints[f.name] if hints[f.name] in (str, int, bool) else None,
                    f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
                )
                for f in _fields(tp)
            )
        if not isinstance(data, dict):
            raise ValueError(f"expected an object for {tp.__name__}, got {data!r}")
        kwargs = {}
        for name, decode_field, leaf, required in spec:
            if name in data:
                v = data[name]
                if leaf is not None:
                    if type(v) is not leaf:
                        raise ValueError(f"expected {leaf.__name__}, got {v!r}")
                    kwargs[name] = v
                else:
                    kwargs[name] = decode_field(v)
            elif required:
                raise ValueError(f"{tp.__name__} is missing '{name}'")
        return tp(**kwargs)

    return decode


_FIELDS: dict[type, tuple[dataclasses.Field[Any], ...]] = {}


def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    """The init fields of a dataclass (cached per class)."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = tuple(f for f in dataclasses.fields(cls) if f.init)
    return found


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """The field types of a dataclass, resolved in its module. A class compiled by mypyc (setup.py) keeps only
    erased types (`tuple` for `tuple[int, ...]`): its annotations are read from its source instead."""
    import sys

    module = sys.modules.get(cls.__module__)
    namespace = vars(module) if module else None
    try:
        object.__new__(cls)
    except TypeError:  # compiled
        return typing.get_type_hints(types.SimpleNamespace(__annotations__=source_annotations(cls)), namespace)
    return typing.get_type_hints(cls, namespace)


@functools.cache
def source_annotations(cls: type) -> dict[str, str]:
    """A class's field annotations as written in its module's .py source (strings, ClassVars left out): what a
    class compiled by mypyc no longer carries."""
    import ast
    import sys
    from pathlib import Path

    path = Path(getattr(sys.modules[cls.__module__], "__file__", None) or "")
    source = path.with_name(path.name.split(".", 1)[0] + ".py").read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return {
                item.target.id: ast.unparse(item.annotation)
                for item in node.body
                if isinstance(item, ast.AnnAssign)
                and isinstance(item.target, ast.Name)
                and not ast.unparse(item.annotation).startswith("ClassVar")
            }
    raise TypeError(f"no source for {cls!r}")
