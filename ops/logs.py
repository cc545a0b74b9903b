"""Logs an operator can use: `LOG_FORMAT=json` (one JSON object a line) and what no log line may ever carry.

Context: the gateway's INTERACTION_CREATE parser runs inside a fresh `contextvars` context holding the
interaction's id, guild and shard (`ops.metrics.Instruments.track_interactions`); every task discord.py starts for
that interaction (the command, the button's callback) and every task those start (the herald's post, an AI's
reply) inherits it, so each line they log names the interaction. The herald's deliveries and the session's moves
set the game id the same way. A JSON line has `ts`, `level`, `logger`, `msg`, and `game_id`, `guild_id`,
`shard`, `interaction_id` where they apply, plus `exc` (the traceback) for an exception.

Redaction (in both formats, `Redactor`): the bot token and every interaction token are replaced by "[token]"
wherever they appear; discord.py's DEBUG lines that carry whole request or response bodies (the text of an
ephemeral reply: a player's hand) or whole gateway events (an interaction's token) keep their route, status and
event name only. aiosqlite's per-statement DEBUG lines (with their parameters) are never logged.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import sys
import time
from typing import Any

game_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("game_id", default=None)
guild_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("guild_id", default=None)
shard: contextvars.ContextVar[int | None] = contextvars.ContextVar("shard", default=None)
interaction_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("interaction_id", default=None)
arrived: contextvars.ContextVar[float | None] = contextvars.ContextVar("arrived", default=None)  # perf_counter()

CONTEXT = (("game_id", game_id), ("guild_id", guild_id), ("shard", shard), ("interaction_id", interaction_id))
FORMATS = ("text", "json")

# /webhooks/{application id}/{interaction token}/...: the token lets anyone answer in the bot's name
_WEBHOOK = re.compile(r"(/webhooks/\d+/)[A-Za-z0-9_.\-]+")
_TOKEN_KEY = re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+""")
# discord.py's DEBUG lines whose arguments are whole bodies: (logger, message format) -> the arguments kept
_BODIES: dict[tuple[str, str], tuple[int, ...]] = {
    ("discord.http", "%s %s with %s has returned %s"): (0, 1, 3),
    ("discord.http", "%s %s has received %s"): (0, 1),
    ("discord.gateway", "For Shard ID %s: WebSocket Event: %s"): (0,),
    ("discord.gateway", "Received %s"): (),
    ("discord.gateway", "Received error %s"): (),
}


class Redactor(logging.Filter):
    """Removes secrets and private text from records before any handler formats them (a handler filter)."""

    def __init__(self, secrets: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def filter(self, record: logging.LogRecord) -> bool:
        kept = _BODIES.get((record.name, str(record.msg)))
        if kept is not None and isinstance(record.args, tuple):
            args = record.args
            event = args[1] if record.msg == "For Shard ID %s: WebSocket Event: %s" and len(args) > 1 else None
            record.msg = " ".join(["%s"] * len(kept)) + (" (body not logged)" if kept != (0,) else "")
            record.args = tuple(args[i] for i in kept if i < len(args))
            if isinstance(event, dict):  # a gateway event: its name and opcode only
                record.msg, record.args = "shard %s: event %s (op %s)", (*record.args, event.get("t"), event.get("op"))
        text = record.getMessage()
        clean = self.clean(text)
        if clean != text:
            record.msg, record.args = clean, ()
        return True

    def clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "[token]")
        text = _WEBHOOK.sub(r"\1[token]", text)
        return _TOKEN_KEY.sub(r"\1[token]", text)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ts, level, logger, msg, the context that applies, exc."""

    def __init__(self, redactor: Redactor | None = None) -> None:
        super().__init__()
        self.redactor = redactor or Redactor()

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for name, var in CONTEXT:
            value = getattr(record, name, None) or var.get()
            if value is not None:
                out[name] = value
        if record.exc_info:
            out["exc"] = self.redactor.clean(self.formatException(record.exc_info))
        elif record.exc_text:
            out["exc"] = self.redactor.clean(record.exc_text)
        return json.dumps(out, ensure_ascii=False, default=str)


def setup(level: int, fmt: str = "text", *, secrets: tuple[str, ...] = (), stream: Any = None) -> logging.Handler:
    """Log to `stream` (stderr) at `level`, as text (discord.py's own format) or JSON, every record redacted."""
    if fmt not in FORMATS:
        raise ValueError(f"LOG_FORMAT must be text or json, not {fmt!r}")
    redactor = Redactor(secrets)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(redactor)
    if fmt == "json":
        handler.setFormatter(JsonFormatter(redactor))
    else:
        handler.setFormatter(
            logging.Formatter("[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{")
        )
    root = logging.getLogger()
    root.setLevel(level)
    root.addHandler(handler)
    # aiosqlite's DEBUG is two lines per statement with its parameters (players' data): never useful, never kept
    logging.getLogger("aiosqlite").setLevel(max(level, logging.INFO))
    return handler
