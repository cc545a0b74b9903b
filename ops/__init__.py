"""What an operator needs to run the bot in production, kept out of the game code.

- `ops.metrics`: Prometheus metrics, fed by a few hooks wrapped around the bot's own services at start-up (the
  storage calls, the session's moves, the herald's posts, the AI's decisions, the gateway's interactions).
- `ops.health`: the opt-in HTTP server (`HEALTH_PORT`) with `/healthz`, `/readyz` and `/metrics`, on the bot's
  own event loop (aiohttp).
- `ops.logs`: `LOG_FORMAT=json` (one object a line, with the game, guild, shard and interaction a line is about)
  and the redaction of secrets from every log line.
- `ops.identify`: several processes on one PostgreSQL take turns to identify with the gateway, `max_concurrency`
  per 5 s, through a lease in the database (discord.py's `before_identify_hook`).

Nothing here imports the cogs: the bot is reached through the attributes it is known to have (`storage`,
`session`, `herald`, the cogs by name), so that this package type-checks on its own.
"""
