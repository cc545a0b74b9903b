"""The Discord layer: extensions loaded by bot.py (`games`, `turns`, `ai_seats`) and their private helpers
(`_session`, `_ui`, `_menus`; the underscore keeps them out of the extension list)."""

EXTENSIONS: tuple[str, ...] = ("cogs.games", "cogs.turns", "cogs.ai_seats")
