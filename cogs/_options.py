"""What players type when they create a game: the game's name and its options (`name, other_name`, `name=value`),
parsed into what the engine takes, with a clear refusal naming what is possible (in the user's language: the
refusals are `Text`s). Option names and values are typed as the engine names them, in every language."""

from __future__ import annotations

from typing import Any

from discord import app_commands

import engine
import present
from cogs._seating import GameError, reason
from cogs._text import fit
from engine import Text
from i18n import ENGLISH, Words, all_words


def _options_example() -> str:
    """Two real option names for the /game create hint (whichever games have options)."""
    names = [name for g in engine.GAMES for name in engine.get_rules(g).options][:2]
    return ", ".join(names)


def _words_for(answer: str) -> set[str]:
    """ "yes" or "no" in every language (the lobby shows an option's value in the reader's words: igen, ano, sí...)."""
    return {w(answer).lower() for w in all_words().values()}


def parse_options(game: str, text: str | None) -> dict[str, Any]:
    """Options typed as "name=value, name=value" (yes/no options also as just "name" or "no-name")."""
    rules = engine.get_rules(game)
    options: dict[str, Any] = {}
    for part in (text or "").replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition("=")
        name = name.strip().lower().replace(" ", "_").replace("-", "_")
        negate = not sep and name.startswith("no_") and name[3:] in rules.options
        name = name[3:] if negate else name
        opt = rules.options.get(name)
        if opt is None:
            title, typed = present.title(game), fit(name, 40)
            if not rules.options:
                raise GameError(Text("{title} has no option `{name}`. Options: none.", title=title, name=typed))
            known = ", ".join(rules.options)
            raise GameError(
                Text("{title} has no option `{name}`. Options: {options}.", title=title, name=typed, options=known)
            )
        v = value.strip().lower()
        if not opt.choices:
            if not sep or v in ("yes", "y", "true", "on", "1") or v in _words_for("yes"):
                options[name] = not negate
            elif v in ("no", "n", "false", "off", "0") or v in _words_for("no"):
                options[name] = False
            else:
                raise GameError(
                    Text("Option `{name}` is yes or no, not `{value}`.", name=name, value=fit(value.strip(), 40))
                )
            continue
        shown = ", ".join(str(c) for c in opt.choices)
        if not sep:
            raise GameError(
                Text("Option `{name}` needs a value: `{name}=...` with one of {choices}.", name=name, choices=shown)
            )
        choice = {str(c).lower(): c for c in opt.choices}.get(v)
        if choice is None:
            typed = fit(value.strip(), 40)
            raise GameError(
                Text("Option `{name}` must be one of {choices}, not `{value}`.", name=name, choices=shown, value=typed)
            )
        options[name] = choice
    try:
        return rules.normalise_options(options)
    except ValueError as exc:
        raise GameError(reason(exc)) from None


def game_choices(current: str, _: Words = ENGLISH) -> list[app_commands.Choice[str]]:
    """The games whose id or title (in English or in `_`'s language) holds what the user typed so far."""
    current = (current or "").lower()
    out = []
    for g in engine.GAMES:
        title = present.title(g)
        shown = _.text(title)
        if current in g or current in str(title).lower() or current in shown.lower():
            out.append(app_commands.Choice(name=fit(shown), value=g))
    return out[:25]


def game_named(name: str) -> str:
    """The game id for what the user typed (an id, or a title in any of our languages); GameError naming the
    games otherwise."""
    name = (name or "").strip().lower()
    by_title = {w.text(present.title(g)).lower(): g for w in all_words().values() for g in engine.GAMES}
    name = by_title.get(name, name)
    if name not in engine.GAMES:
        games = ", ".join(f"`{g}`" for g in engine.GAMES)
        raise GameError(
            Text("I don't know the game `{name}`. Choose one of: {games}.", name=fit(name, 40), games=games)
        )
    return name
