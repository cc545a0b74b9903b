"""Discord's own description of its API, as a check on every request the bot sends to the fake: each JSON body (or
multipart `payload_json`) must validate against the request schema Discord publishes for that operation.

The schemas are the part of discord/discord-api-spec's openapi.json (MIT licence) that the bot's operations reach,
kept in tests/data/discord_openapi.json and cut anew from a newer openapi.json by `python -m scripts.discord_spec`.
They hold Discord's limits (a message's 2,000/4,000 characters, 5 rows of 5 buttons, 25 select options, a
custom_id's 100 characters, an option's 100-character description, the types of every field): what the harness
checks by hand is checked here again, as Discord states it. A request to an operation the file does not hold
is itself a failure (add the route to scripts/discord_spec.py's OPERATIONS and cut the file again).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

SPEC_PATH = Path(__file__).resolve().parent.parent / "data" / "discord_openapi.json"
BASE = "urn:discord-openapi"


# jsonschema is imported where it is used: the harness imports this module also where only the bot's own
# packages are installed (tests/ops/test_container.py boots the image's environment), and checks nothing there


@functools.cache
def _spec() -> tuple[dict[str, Any], Any]:
    import referencing
    from referencing.jsonschema import DRAFT202012

    spec = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    resource = DRAFT202012.create_resource({**spec, "$id": BASE})
    return spec, referencing.Registry().with_resource(BASE, resource)


def _matches(template: str, path: str) -> bool:
    """Whether discord.py's route template `path` names the description's `template` (parameters match any)."""
    a, b = template.strip("/").split("/"), path.strip("/").split("/")
    return len(a) == len(b) and all(x == y or (x[0] == "{" and y[:1] == "{") for x, y in zip(a, b, strict=True))


@functools.cache
def validator(method: str, path: str) -> Any:
    """The validator of the JSON request body of `method` `path` (discord.py's route template); None if Discord's
    description of the bot's operations has no such operation."""
    import jsonschema

    spec, registry = _spec()
    for template, ops in spec["paths"].items():
        if _matches(template, path) and method.lower() in ops:
            pointer = "/".join(
                quote(p.replace("~", "~0").replace("/", "~1"), safe="")
                for p in ("paths", template, method.lower(), "requestBody", "content", "application/json", "schema")
            )
            return jsonschema.Draft202012Validator({"$ref": f"{BASE}#/{pointer}"}, registry=registry)
    return None


def problems(method: str, path: str, body: Any) -> list[str]:
    """What is wrong with `body` as the request `method` `path`, by Discord's schema (empty: nothing)."""
    check = validator(method, path)
    if check is None:
        return [f"{method} {path}: an operation tests/data/discord_openapi.json does not describe"]
    out = []
    for error in check.iter_errors(body):
        where = "/".join(str(p) for p in error.absolute_path) or "(the body)"
        out.append(f"{method} {path} {where}: {error.message[:300]}")
    return out
