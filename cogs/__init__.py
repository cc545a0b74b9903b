"""The Discord layer: extensions loaded by bot.py (`games`, `moves`, `turns`, `ai_seats`, `records`, `replays`,
`seasons`, `lfg`, `tournaments`, `coach`) and their private modules (the underscore keeps them out of the extension list): `_session` (the
service every change goes through: a core, `_core`, built from the parts `_seats`, `_tempo`, `_undo`,
`_substitutes`; `_seating` their shared words), `_herald` (the outbox's posts), `_images`, `_items` (the
custom_id grammar and the registry the features answer clicks through), `_text`, and one module per part of the
table: `_lobby`, `_table`, `_panel`, `_free`, `_moving`, `_leaving`, `_menus`, `_coach` (hints and reviews)."""

EXTENSIONS: tuple[str, ...] = (
    "cogs.games",
    "cogs.moves",
    "cogs.turns",
    "cogs.ai_seats",
    "cogs.records",
    "cogs.replays",
    "cogs.tournaments",
    "cogs.seasons",
    "cogs.lfg",
    "cogs.coach",
)
