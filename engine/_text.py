"""Words as data: the engines describe actions, refusals and events in `Text`s (an English template and its
parameters); the presentation layer (`i18n`) turns them into any language. Pure: no I/O, no language."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any


@dataclasses.dataclass(frozen=True, slots=True)
class Text:
    """Words as data, so that the engines stay language-free: an English template with named `{fields}` (which is
    also its id in the translation catalogs, `locales/`) and its parameters: plain values, or other Texts (a
    building's name inside a sentence). `str()` gives the English; `i18n.words(lang).text(t)` any language.

    With a plural, the parameter `n` chooses the form (languages with more forms, such as Czech, use theirs):
    `Text("takes {n} card", "takes {n} cards", n=3)`. Templates are literals at the call site, so that
    `python -m i18n extract` finds them. In JSON (event logs, notices): `{"t": template, "p": params, "pl": plural}`.

    Where the same English means different things in different games, a catalog `context` (the game's id,
    a literal) tells the entries apart: `Text("pavilion", context="queens_garden")` ("c" in JSON).
    """

    template: str
    params: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None
    context: str | None = None

    def __init__(self, template: str, plural: str | None = None, /, **params: Any) -> None:
        # the slots' own setters (a frozen dataclass refuses setattr): engines make Texts on every action;
        # `context` is the catalog context, not a field (so a field dict spread in with ** needs no typing of it)
        context = params.pop("context", None) if params else None
        _set_template(self, template)
        _set_params(self, tuple(params.items()) if params else ())
        _set_plural(self, plural)
        _set_context(self, context)

    def fill(self, translate: Any = None) -> str:
        """The words, each template through `translate(template, plural, n)` (with a context:
        `translate(template, plural, n, context)`; None: the English)."""
        values = {k: v.fill(translate) if isinstance(v, Text) else v for k, v in self.params}
        n = values.get("n")
        if translate is not None:
            if self.context is None:
                template = translate(self.template, self.plural, n)
            else:
                template = translate(self.template, self.plural, n, self.context)
        else:
            template = self.plural if self.plural is not None and n != 1 else self.template
        return str(template.format(**values) if values else template)

    def __str__(self) -> str:
        return self.fill()

    @classmethod
    def marked(cls, name: str) -> Text:
        """A constant marked with `N_` (a building's or a colour's name in a table), as a Text to put inside
        another: `Text("buys the {tile}", tile=Text.marked(TYPE_NAMES[t]))`. Its template is the marked literal,
        so the catalogs know it, and a context it was marked with goes along. (Made once per name: the constants
        are few.)"""
        context = context_of(name)
        found = _MARKED.get((name, context))
        if found is None:
            found = cls(str(name), context=context)
            if len(_MARKED) < 4096:
                _MARKED[(name, context)] = found
        return found

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.template}
        if self.params:
            out["p"] = {k: v.to_json() if isinstance(v, Text) else v for k, v in self.params}
        if self.plural is not None:
            out["pl"] = self.plural
        if self.context is not None:
            out["c"] = self.context
        return out

    @classmethod
    def from_json(cls, data: Any) -> Text:
        """The inverse of `to_json`; a plain string (a log written before texts were data) becomes its template."""
        if isinstance(data, str):
            return cls(data)
        if not isinstance(data, dict) or not isinstance(data.get("t"), str):
            raise ValueError(f"expected a text, got {data!r}")
        params = {k: cls.from_json(v) if isinstance(v, dict) else v for k, v in data.get("p", {}).items()}
        return cls(data["t"], data.get("pl"), context=data.get("c"), **params)


_set_template = Text.__dict__["template"].__set__
_set_params = Text.__dict__["params"].__set__
_set_plural = Text.__dict__["plural"].__set__
_set_context = Text.__dict__["context"].__set__
_MARKED: dict[tuple[str, str | None], Text] = {}


class Marked(str):
    """A constant marked with a catalog context (`N_("pavilion", context="queens_garden")`): still the plain English
    str (a key, compared, printed), and it remembers the context its translation is looked up in."""

    context: str

    def __new__(cls, template: str, context: str) -> Marked:
        self = super().__new__(cls, template)
        self.context = context
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Marked, (str(self), self.context))


def context_of(name: str) -> str | None:
    """The catalog context a constant was marked with (None: none)."""
    return name.context if isinstance(name, Marked) else None


def N_(template: str, *, context: str | None = None) -> str:  # noqa: N802 (gettext's own name for it)
    """Marks a constant for the catalogs and returns it: a name kept in a table as a plain str because it is also
    compared or used as a key (`TYPE_NAMES["tower"] = N_("Tower")`). The presentation translates it with
    `_.text(name)`; inside an engine Text it goes as `Text.marked(name)`. With a `context` (a literal: the game's
    id where the same English means different things in different games) it returns a `Marked` str that carries
    it. (`i18n.N_` is the same marker; the engine may not import i18n.)"""
    return template if context is None else Marked(template, context)


def join_texts(parts: Sequence[Any], sep: str = ", ") -> Text:
    """Several texts (or plain values) one after another: each is translated, the separator is not."""
    fields = {f"p{i}": part for i, part in enumerate(parts)}
    return Text(sep.join("{" + k + "}" for k in fields), **fields) if parts else Text("")  # i18n: ignore
