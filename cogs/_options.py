"""What players type when they create a game: the game's name and its options (`name, other_name`, `name=value`),
parsed into what the engine takes, with a clear refusal naming what is possible."""

from __future__ import annotations

from typing import Any

from discord import app_commands

import engine
from cogs._seating import GameError
from cogs._text import fit


def _options_example() -> str:
    """Two real option names for the /game create hint (whichever games have options)."""
    names = [name for g in engine.GAMES for name in engine.get_rules(g).options][:2]
    return ", ".join(names)


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
            raise GameError(
                f"{rules.title} has no option `{fit(name, 40)}`. Options: {', '.join(rules.options) or 'none'}."
            )
        v = value.strip().lower()
        if not opt.choices:
            if not sep or v in ("yes", "y", "true", "on", "1"):
                options[name] = not negate
            elif v in ("no", "n", "false", "off", "0"):
                options[name] = False
            else:
                raise GameError(f"Option `{name}` is yes or no, not `{fit(value.strip(), 40)}`.")
            continue
        shown = ", ".join(str(c) for c in opt.choices)
        if not sep:
            raise GameError(f"Option `{name}` needs a value: `{name}=...` with one of {shown}.")
        choice = {str(c).lower(): c for c in opt.choices}.get(v)
        if choice is None:
            raise GameError(f"Option `{name}` must be one of {shown}, not `{fit(value.strip(), 40)}`.")
        options[name] = choice
    try:
        return rules.normalise_options(options)
    except ValueError as exc:
        raise GameError(str(exc)) from None


def game_choices(current: str) -> list[app_commands.Choice[str]]:
    current = (current or "").lower()
    return [
        app_commands.Choice(name=engine.get_rules(g).title, value=g)
        for g in engine.GAMES
        if current in g or current in engine.get_rules(g).title.lower()
    ][:25]


def game_named(name: str) -> str:
    """The game id for what the user typed (an id or a title); GameError naming the games otherwise."""
    name = (name or "").strip().lower()
    by_title = {engine.get_rules(g).title.lower(): g for g in engine.GAMES}
    name = by_title.get(name, name)
    if name not in engine.GAMES:
        raise GameError(
            f"I don't know the game `{fit(name, 40)}`. Choose one of: {', '.join(f'`{g}`' for g in engine.GAMES)}."
        )
    return name
