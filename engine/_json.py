"""The JSON codec of the engines' frozen dataclasses (states, actions, events): `to_jsonable` and its inverse
`from_jsonable`, guided by the type annotations; `engine._common` re-exports them. Pure: no I/O."""

from __future__ import annotations

import dataclasses
import functools
import json
import types
import typing
from collections.abc import Mapping
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
    if tp is Any:
        return data
    if tp is str or tp is int or tp is bool:  # the commonest leaves first: states hold thousands of them
        if type(data) is not tp:
            raise ValueError(f"expected {tp.__name__}, got {data!r}")
        return data
    if tp is Text:
        return Text.from_json(data)
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if data is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return from_jsonable(arg, data)
            except (ValueError, TypeError, KeyError) as exc:
                errors.append(exc)
        raise ValueError(f"value {data!r} fits none of {tp}")
    if origin is typing.Literal:
        if data not in typing.get_args(tp):
            raise ValueError(f"{data!r} is not one of {typing.get_args(tp)}")
        return data
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(data, list):
            raise ValueError(f"expected a list for {tp}, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_jsonable(args[0], x) for x in data)
        if len(args) != len(data):
            raise ValueError(f"expected {len(args)} items for {tp}, got {len(data)}")
        return tuple(from_jsonable(a, x) for a, x in zip(args, data, strict=True))
    if origin is frozenset:
        (arg,) = typing.get_args(tp)
        if not isinstance(data, list):
            raise ValueError(f"expected a list for {tp}")
        return frozenset(from_jsonable(arg, x) for x in data)
    if origin is list:
        (arg,) = typing.get_args(tp)
        if not isinstance(data, list):
            raise ValueError(f"expected a list for {tp}")
        return [from_jsonable(arg, x) for x in data]
    if origin in (dict, Mapping, typing.Mapping):
        key_t, val_t = typing.get_args(tp)
        if isinstance(data, dict):
            return {from_jsonable(key_t, k): from_jsonable(val_t, v) for k, v in data.items()}
        if isinstance(data, list):
            return {from_jsonable(key_t, k): from_jsonable(val_t, v) for k, v in data}
        raise ValueError(f"expected an object for {tp}")
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise ValueError(f"expected an object for {tp.__name__}, got {data!r}")
        hints = _hints(tp)
        kwargs = {}
        for f in _fields(tp):
            if f.name in data:
                kwargs[f.name] = from_jsonable(hints[f.name], data[f.name])
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ValueError(f"{tp.__name__} is missing '{f.name}'")
        return tp(**kwargs)
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise ValueError(f"expected a number, got {data!r}")
        return float(data)
    if tp in (int, str, bool):
        if type(data) is not tp:
            raise ValueError(f"expected {tp.__name__}, got {data!r}")
        return data
    if tp is type(None):
        if data is not None:
            raise ValueError(f"expected null, got {data!r}")
        return None
    if tp is dict:
        if not isinstance(data, dict):
            raise ValueError(f"expected an object, got {data!r}")
        return data
    raise TypeError(f"cannot decode type {tp!r}")


_FIELDS: dict[type, tuple[dataclasses.Field[Any], ...]] = {}


def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    """The init fields of a dataclass (cached per class)."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = tuple(f for f in dataclasses.fields(cls) if f.init)
    return found


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    import sys

    module = sys.modules.get(cls.__module__)
    return typing.get_type_hints(cls, vars(module) if module else None)
