"""The part of Discord's official OpenAPI description (discord/discord-api-spec, MIT licence) that the tests check the
bot's requests against: the operations the bot calls, and every schema they reach.

    python -m scripts.discord_spec PATH/TO/openapi.json [COMMIT]    # writes tests/data/discord_openapi.json

The full description is 1.2 MB; the operations below and what they reference are a tenth of it. Run this again
with a newer openapi.json when Discord changes its API (and when the bot calls a new route: add it to OPERATIONS);
tests/bot/schema.py reads the result, and fails on a request to an operation it does not hold.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "discord_openapi.json"

# (method, the description's path): every REST and interaction route the bot sends a body to
OPERATIONS = [
    ("post", "/channels/{channel_id}/messages"),
    ("patch", "/channels/{channel_id}/messages/{message_id}"),
    ("post", "/channels/{channel_id}/threads"),
    ("post", "/users/@me/channels"),
    ("put", "/applications/{application_id}/commands"),
    ("put", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("post", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("post", "/webhooks/{webhook_id}/{webhook_token}"),
    ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
]


def _refs(node: Any, found: set[str]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            found.add(ref.rsplit("/", 1)[1])
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)


def subset(spec: dict[str, Any]) -> dict[str, Any]:
    """`spec` cut down to OPERATIONS' JSON request bodies and the component schemas they reach."""
    paths: dict[str, Any] = {}
    for method, path in OPERATIONS:
        body = spec["paths"][path][method]["requestBody"]["content"]["application/json"]
        paths.setdefault(path, {})[method] = {"requestBody": {"content": {"application/json": body}}}
    schemas = spec["components"]["schemas"]
    keep: set[str] = set()
    todo: set[str] = set()
    _refs(paths, todo)
    while todo:
        name = todo.pop()
        if name not in keep:
            keep.add(name)
            _refs(schemas[name], todo)
    return {
        "openapi": spec["openapi"],
        "info": spec["info"],
        "paths": paths,
        "components": {"schemas": {name: schemas[name] for name in sorted(keep)}},
    }


# Where Discord takes more than its description says, and discord.py relies on it: a snowflake sent as a JSON
# number (discord.py sends a DM's recipient_id, and a new attachment's id, the index of its upload, as integers;
# Discord's documentation allows both). The description says a string only.
SNOWFLAKE = {"oneOf": [{"type": "string", "pattern": "^(0|[1-9][0-9]*)$"}, {"type": "integer", "minimum": 0}]}


def main(argv: list[str]) -> None:
    spec = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    out = subset(spec)
    out["components"]["schemas"]["SnowflakeType"] = SNOWFLAKE
    out["x-source"] = "discord/discord-api-spec specs/openapi.json" + (f" at {argv[1]}" if len(argv) > 1 else "")
    out["x-licence"] = "MIT, Copyright 2023 Discord (tests/data/discord_openapi.LICENSE)"
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(out['paths'])} paths, {len(out['components']['schemas'])} schemas")


if __name__ == "__main__":
    main(sys.argv[1:])
