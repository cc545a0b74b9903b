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
    """

    template: str
    params: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None

    def __init__(self, template: str, plural: str | None = None, /, **params: Any) -> None:
        # the slots' own setters (a frozen dataclass refuses setattr): engines make Texts on every action
        _set_template(self, template)
        _set_params(self, tuple(params.items()) if params else ())
        _set_plural(self, plural)

    def fill(self, translate: Any = None) -> str:
        """The words, each template through `translate(template, plural, n)` (None: the English)."""
        values = {k: v.fill(translate) if isinstance(v, Text) else v for k, v in self.params}
        n = values.get("n")
        if translate is not None:
            template = translate(self.template, self.plural, n)
        else:
            template = self.plural if self.plural is not None and n != 1 else self.template
        return str(template.format(**values) if values else template)

    def __str__(self) -> str:
        return self.fill()

    @classmethod
    def marked(cls, name: str) -> Text:
        """A constant marked with `N_` (a building's or a colour's name in a table), as a Text to put inside
        another: `Text("buys the {tile}", tile=Text.marked(TYPE_NAMES[t]))`. Its template is the marked literal,
        so the catalogs know it. (Made once per name: the constants are few.)"""
        found = _MARKED.get(name)
        if found is None:
            found = cls(name)
            if len(_MARKED) < 4096:
                _MARKED[name] = found
        return found

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.template}
        if self.params:
            out["p"] = {k: v.to_json() if isinstance(v, Text) else v for k, v in self.params}
        if self.plural is not None:
            out["pl"] = self.plural
        return out

    @classmethod
    def from_json(cls, data: Any) -> Text:
        """The inverse of `to_json`; a plain string (a log written before texts were data) becomes its template."""
        if isinstance(data, str):
            return cls(data)
        if not isinstance(data, dict) or not isinstance(data.get("t"), str):
            raise ValueError(f"expected a text, got {data!r}")
        params = {k: cls.from_json(v) if isinstance(v, dict) else v for k, v in data.get("p", {}).items()}
        return cls(data["t"], data.get("pl"), **params)


_set_template = Text.__dict__["template"].__set__
_set_params = Text.__dict__["params"].__set__
_set_plural = Text.__dict__["plural"].__set__
_MARKED: dict[str, Text] = {}


def N_(template: str) -> str:  # noqa: N802 (gettext's own name for it)
    """Marks a constant for the catalogs and returns it unchanged: a name kept in a table as a plain str because it
    is also compared or used as a key (`TYPE_NAMES["tower"] = N_("Tower")`). The presentation translates it with
    `_.text(name)`; inside an engine Text it goes as `Text.marked(name)`. (`i18n.N_` is the same marker; the
    engine may not import i18n.)"""
    return template


def join_texts(parts: Sequence[Any], sep: str = ", ") -> Text:
    """Several texts (or plain values) one after another: each is translated, the separator is not."""
    fields = {f"p{i}": part for i, part in enumerate(parts)}
    return Text(sep.join("{" + k + "}" for k in fields), **fields) if parts else Text("")  # i18n: ignore
