"""Words for Discord: escaping, names and mentions, lengths within Discord's limits, durations."""

from __future__ import annotations

import discord

import engine
from storage import GameRow, Seat

CONTENT_LIMIT = 2000  # characters in a message
PUBLIC_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def esc(text: str) -> str:
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def name_of(row: GameRow, player: str) -> str:
    return f"**{esc(row.seat_name(player))}**"


def ping(row: GameRow, player: str) -> str:
    """A mention for a Discord user; AI seats are named, not pinged."""
    return f"<@{player}>" if player.isdigit() else name_of(row, player)


def seat_of(user: discord.abc.User) -> Seat:
    return Seat(str(user.id), user.display_name)


def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 2].rstrip() + " …"


def fit(text: str, limit: int = 100) -> str:
    """`text` within a Discord label limit, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def option_texts(text: str) -> tuple[str, str | None]:
    """A select option's label (<= 100) and, when the text is longer, the rest as its description (<= 100)."""
    if len(text) <= 100:
        return text, None
    cut = text.rfind(" ", 0, 99)
    cut = cut if cut > 60 else 99
    return text[:cut].rstrip() + "…", fit("…" + text[cut:].strip(), 100)


def plural(n: int, word: str) -> str:
    """ "1 more player", "2 more players"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def chunks(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut between lines where possible (long rules summaries
    go out as several messages instead of being cut off)."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:  # a single line longer than a message: cut it where it must be cut
            if current:
                out.append(current)
                current = ""
            out.append(line[:limit])
            line = line[limit:]
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current or not out:
        out.append(current)
    return out


def title_of(game: str) -> str:
    return engine.get_rules(game).title


def options_text(row: GameRow) -> str:
    rules = engine.get_rules(row.game)
    parts = []
    for name, opt in rules.options.items():
        value = row.options.get(name, opt.default)
        shown = ("yes" if value else "no") if not opt.choices else str(value)
        parts.append(f"{name.replace('_', ' ')} = {shown}")  # typed either way (the options parser)
    return " · ".join(parts) if parts else "none"


def duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{max(minutes, 1)} min"
