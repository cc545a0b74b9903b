"""A fake Discord at the network boundary, to drive the real bot through discord.py's own parsing.

Only two functions are replaced: `discord.http.HTTPClient.request` (REST calls: messages, threads, command sync,
login) and `discord.webhook.async_.AsyncWebhookAdapter.request` (interaction responses and follow-ups). Gateway
events (READY, GUILD_CREATE, INTERACTION_CREATE of types 2, 3 and 4) are fed to the bot's connection state
parsers, exactly as the gateway would. Everything the bot sends is recorded as `Msg`s (public or ephemeral, with
files) and checked against Discord's limits; a breach is recorded in `fake.violations` (tests assert it stays
empty).

    h = await Harness.start(tmp_path / "db.sqlite3")
    r = await h.run_command(ana, "game create", game="alhambra")
    lobby = h.last_public()                             # the lobby post; r.message: the reply to Ana
    await h.click(bo, lobby, "Join")
    ...
    await h.close()
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import itertools
import json
import logging
import re
import time
from collections.abc import Iterable, Sequence
from typing import Any

import discord
import discord.http
import discord.webhook.async_
from discord import app_commands

from bot import GameBot, Settings
from tests.bot import schema

APP_ID = 900000000000000001
BOT_ID = APP_ID
GUILD_ID = 910000000000000001
CHANNEL_ID = 920000000000000001
OTHER_CHANNEL_ID = 920000000000000002
ATTACHMENT_LIMIT = 25 * 1024 * 1024
EPHEMERAL = 1 << 6

ALL_MEMBER = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    use_application_commands=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    attach_files=True,
    embed_links=True,
).value
MANAGER = ALL_MEMBER | discord.Permissions(manage_channels=True).value
SERVER_ADMIN = ALL_MEMBER | discord.Permissions(manage_guild=True).value  # Manage Server


@dataclasses.dataclass
class User:
    id: int
    name: str
    permissions: int = ALL_MEMBER

    @property
    def sid(self) -> str:
        return str(self.id)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name.lower(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": False,
        }

    def member(self) -> dict[str, Any]:
        return {
            "user": self.payload(),
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "permissions": str(self.permissions),
        }


@dataclasses.dataclass
class Msg:
    """A message as Discord would hold it. `ephemeral` ones are only seen by `visible_to`."""

    id: int
    channel_id: int
    content: str
    components: list[dict[str, Any]]
    embeds: list[dict[str, Any]]
    files: list[tuple[str, bytes]]
    ephemeral: bool
    visible_to: int | None
    flags: int = 0
    edits: int = 0
    via: str = ""  # which request created it, e.g. "channel", "callback", "followup"
    at: float = 0.0  # time.perf_counter() when it was created
    guild_id: int = GUILD_ID

    @property
    def public(self) -> bool:
        return not self.ephemeral

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "guild_id": str(self.guild_id),
            "author": {
                "id": str(BOT_ID),
                "username": "tablebot",
                "discriminator": "0",
                "avatar": None,
                "bot": True,
                "global_name": None,
            },
            "content": self.content,
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(self.id * 10 + n),
                    "filename": name,
                    "size": len(data),
                    "url": f"https://cdn.example/{name}",
                    "proxy_url": f"https://cdn.example/{name}",
                }
                for n, (name, data) in enumerate(self.files)
            ],
            "embeds": self.embeds,
            "pinned": False,
            "type": 0,
            "components": self.components,
            "flags": self.flags,
        }

    # -- reading components --------------------------------------------------------------------------------

    def items(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", [])]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.items() if c["type"] == 2]

    def labels(self) -> list[str]:
        return [b.get("label", "") for b in self.buttons()]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.items() if c["type"] == 3]

    def text(self) -> str:
        """Everything a reader sees in words: content, embeds, button labels and menu options."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title", ""), e.get("description", "")]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in e.get("fields", [])]
        for c in self.items():
            parts.append(c.get("label", "") or "")
            parts.append(c.get("placeholder", "") or "")
            for o in c.get("options", []):
                parts += [o.get("label", ""), o.get("description", "") or ""]
        return "\n".join(p for p in parts if p)


@dataclasses.dataclass
class Interaction:
    """One interaction fed to the bot and everything it answered."""

    id: int
    token: str
    kind: int
    user: User
    arrived: float
    channel_id: int = CHANNEL_ID
    source: Msg | None = None  # the message a component was on
    response_type: int | None = None
    responded_at: float | None = None
    original: Msg | None = None  # the message the initial response created or edited
    followups: list[Msg] = dataclasses.field(default_factory=list)
    choices: list[dict[str, Any]] | None = None  # autocomplete results
    done_at: float | None = None

    @property
    def message(self) -> Msg | None:
        """The reply to read: the last follow-up, else the original response."""
        return self.followups[-1] if self.followups else self.original

    @property
    def replies(self) -> list[Msg]:
        return ([self.original] if self.original else []) + self.followups

    @property
    def ephemeral_text(self) -> str:
        return "\n".join(m.content for m in self.replies if m.ephemeral)


class Violation(AssertionError):
    pass


def _check_components(rows: list[dict[str, Any]], where: str, out: list[str]) -> None:
    if len(rows) > 5:
        out.append(f"{where}: {len(rows)} action rows (max 5)")
    for row in rows:
        items = row.get("components", [])
        buttons = [c for c in items if c["type"] == 2]
        selects = [c for c in items if c["type"] in (3, 5, 6, 7, 8)]
        if len(buttons) > 5:
            out.append(f"{where}: {len(buttons)} buttons in a row (max 5)")
        if selects and len(items) > 1:
            out.append(f"{where}: a select shares its row")
        for c in items:
            cid = c.get("custom_id", "")
            if (c["type"] != 2 or c.get("style") != 5) and (not cid or len(cid) > 100):  # style 5: link button
                out.append(f"{where}: custom_id {cid!r} empty or over 100 chars")
            if c["type"] == 2 and len(c.get("label") or "") > 80:
                out.append(f"{where}: button label over 80 chars")
            if c["type"] == 3:
                opts = c.get("options", [])
                if not 1 <= len(opts) <= 25:
                    out.append(f"{where}: select with {len(opts)} options (1..25)")
                if len(c.get("placeholder") or "") > 150:
                    out.append(f"{where}: placeholder over 150 chars")
                values = [o["value"] for o in opts]
                if len(set(values)) != len(values):
                    out.append(f"{where}: duplicate select values")
                for o in opts:
                    if not 1 <= len(o["label"]) <= 100 or len(o["value"]) > 100:
                        out.append(f"{where}: option label/value length {o!r}")
                    if len(o.get("description") or "") > 100:
                        out.append(f"{where}: option description over 100 chars")
    ids = [c.get("custom_id") for row in rows for c in row.get("components", []) if c.get("custom_id")]
    if len(set(ids)) != len(ids):
        out.append(f"{where}: duplicate custom_ids {ids}")


def _check_message(data: dict[str, Any], where: str, out: list[str]) -> None:
    content = data.get("content") or ""
    if len(content) > 2000:
        out.append(f"{where}: content of {len(content)} chars (max 2000)")
    embeds = data.get("embeds") or []
    if len(embeds) > 10:
        out.append(f"{where}: {len(embeds)} embeds")
    for e in embeds:
        if len(e.get("description") or "") > 4096 or len(e.get("title") or "") > 256:
            out.append(f"{where}: embed text over limits")
    if data.get("components"):
        _check_components(data["components"], where, out)


_NAME = re.compile(r"^[-_\w]{1,32}$")


def _check_commands(commands: list[dict[str, Any]], out: list[str]) -> None:
    if len(commands) > 100:
        out.append("more than 100 global commands")

    def localized(item: dict[str, Any], where: str) -> None:  # every language's name and description, too
        for lang, text in (item.get("name_localizations") or {}).items():
            if not _NAME.match(text) or text != text.lower():
                out.append(f"{where}: bad {lang} name {text!r}")
        for lang, text in (item.get("description_localizations") or {}).items():
            if not 1 <= len(text) <= 100:
                out.append(f"{where}: {lang} description length {len(text)}")

    def walk(cmd: dict[str, Any], where: str) -> None:
        localized(cmd, where)
        name = cmd["name"]
        if not _NAME.match(name) or name != name.lower():
            out.append(f"{where}: bad name {name!r}")
        desc = cmd.get("description", "")
        if cmd.get("type", 1) == 1 and not 1 <= len(desc) <= 100:
            out.append(f"{where}: description length {len(desc)}")
        options = cmd.get("options", [])
        if len(options) > 25:
            out.append(f"{where}: {len(options)} options")
        for opt in options:
            if opt["type"] in (1, 2):
                walk(opt, f"{where} {opt['name']}")
                continue
            if not _NAME.match(opt["name"]) or not 1 <= len(opt.get("description", "")) <= 100:
                out.append(f"{where}: option {opt['name']!r} name/description")
            choices = opt.get("choices", [])
            if len(choices) > 25:
                out.append(f"{where}: option {opt['name']} has {len(choices)} choices")
            localized(opt, f"{where} {opt['name']}")
            for ch in choices:
                if not 1 <= len(ch["name"]) <= 100:
                    out.append(f"{where}: choice name {ch['name']!r}")
                for lang, text in (ch.get("name_localizations") or {}).items():
                    if not 1 <= len(text) <= 100:
                        out.append(f"{where}: {lang} choice name {text!r}")

    for cmd in commands:
        walk(cmd, f"/{cmd['name']}")


class FakeDiscord:
    """Discord's side: the REST API and the interaction webhooks, in memory."""

    # every request body checked against Discord's published API description (tests/bot/schema.py): ~40 ms a
    # request, so only in the tests that turn it on (tests/bot/test_discord_schema.py, by `monkeypatch`)
    check_schema = False

    def __init__(self) -> None:
        self._ids = itertools.count(1_000_000)
        self.messages: dict[int, Msg] = {}
        self.sent: list[Msg] = []  # every created message, in order
        self.interactions: dict[str, Interaction] = {}
        self.violations: list[str] = []
        self.requests: list[tuple[str, str]] = []
        self.synced: list[dict[str, Any]] = []
        self.threads: list[dict[str, Any]] = []
        self.invites: list[tuple[int, str, dict[str, Any]]] = []  # (channel, code, request body)
        self.fail_routes: set[str] = set()
        self.uploads: list[tuple[Msg, str, bytes]] = []  # every file ever attached: (message, name, bytes)
        # enforce_nonce: a message created again with the same nonce in the same channel returns the first one
        # (Discord keeps nonces for a few minutes; the fake keeps them for its life)
        self.nonces: dict[tuple[int, str], Msg] = {}
        # every message create that carried a nonce, counted per (channel, nonce) whether or not Discord's rule
        # returned the earlier message: a count above 1 is a post the bot sent twice, which only enforce_nonce hid
        self.nonce_sends: collections.Counter[tuple[int, str]] = collections.Counter()
        self.guild_of: dict[int, int] = {}  # channel (or thread) -> its guild, for the messages' payloads
        # -- DMs (issue #23): the DM channel of each user the bot opened one with; users whose DMs are closed
        self.dm_channels: dict[int, int] = {}  # DM channel -> its user
        self.dms_closed: set[int] = set()  # users who accept no DM from the bot: a send answers 403, code 50007

    def snowflake(self) -> int:
        return next(self._ids)

    # -- recording ---------------------------------------------------------------------------------------

    def _files(self, files: Iterable[discord.File] | None) -> list[tuple[str, bytes]]:
        out = []
        for f in files or []:
            f.reset()
            out.append((f.filename, f.fp.read()))
        return out

    def _record_uploads(self, msg: Msg, files: list[tuple[str, bytes]]) -> None:
        self.uploads += [(msg, name, data) for name, data in files]

    def create(
        self,
        channel_id: int,
        data: dict[str, Any],
        files,
        *,
        via: str,
        ephemeral: bool = False,
        visible_to: int | None = None,
    ) -> Msg:
        _check_message(data, f"new message via {via}", self.violations)
        flags = int(data.get("flags") or 0)
        ephemeral = ephemeral or bool(flags & EPHEMERAL)
        msg = Msg(
            self.snowflake(),
            channel_id,
            data.get("content") or "",
            data.get("components") or [],
            data.get("embeds") or [],
            self._files(files),
            ephemeral,
            visible_to if ephemeral else None,
            flags=EPHEMERAL if ephemeral else 0,
            via=via,
            at=time.perf_counter(),
            guild_id=self.guild_of.get(channel_id, GUILD_ID),
        )
        self.messages[msg.id] = msg
        self.sent.append(msg)
        self._record_uploads(msg, msg.files)
        return msg

    def edit(self, msg: Msg, data: dict[str, Any], files) -> Msg:
        _check_message(data, f"edit of {msg.id}", self.violations)
        if "content" in data:
            msg.content = data["content"] or ""
        if "components" in data:
            msg.components = data["components"] or []
        if "embeds" in data:
            msg.embeds = data["embeds"] or []
        new_files = self._files(files)
        self._record_uploads(msg, new_files)
        if "attachments" in data:
            keep = {a.get("id") for a in data["attachments"]}
            old = [f for n, f in enumerate(msg.files) if str(msg.id * 10 + n) in keep]
            msg.files = old + new_files
        elif new_files:
            msg.files = msg.files + new_files
        msg.edits += 1
        return msg

    # -- REST ------------------------------------------------------------------------------------------

    @staticmethod
    def _body(kwargs: dict[str, Any], form) -> dict[str, Any]:
        if "json" in kwargs and kwargs["json"] is not None:
            return kwargs["json"]
        for part in form or []:
            if part.get("name") == "payload_json":
                return json.loads(part["value"])
        return {}

    async def http(self, route, *, files=None, form=None, **kwargs) -> Any:
        method, path = route.method, route.path
        self.requests.append((method, route.url))
        if f"{method} {path}" in self.fail_routes:
            raise discord.HTTPException(_FakeResponse(500), "injected failure")
        body = self._body(kwargs, form)
        if self.check_schema and method in ("POST", "PUT", "PATCH"):  # as Discord's own API description says
            self.violations.extend(schema.problems(method, path, body))
        if method == "GET" and path == "/users/@me":
            return bot_user(BOT_ID)
        if method == "GET" and path == "/oauth2/applications/@me":
            return {
                "id": str(APP_ID),
                "name": "Table",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
            }
        # -- DMs (issue #23): Create DM (one channel per user, as Discord returns the same one again), and a send
        # to a user whose DMs are closed refused as Discord does (403, 50007 "Cannot send messages to this user")
        if method == "POST" and path == "/users/@me/channels":
            user = int(body["recipient_id"])
            cid = next((c for c, u in self.dm_channels.items() if u == user), None) or self.snowflake()
            self.dm_channels[cid] = user
            recipient = {"id": str(user), "username": f"u{user}", "discriminator": "0", "avatar": None}
            return {"id": str(cid), "type": 1, "last_message_id": None, "recipients": [recipient]}
        dm_user = self.dm_channels.get(int(route.channel_id)) if "{channel_id}" in path else None
        if method == "POST" and path == "/channels/{channel_id}/messages" and dm_user in self.dms_closed:
            raise discord.Forbidden(_FakeResponse(403), {"code": 50007, "message": "Cannot send messages to this user"})
        if method == "POST" and path == "/channels/{channel_id}/messages" and dm_user is not None:
            nonce = body.get("nonce") if body.get("enforce_nonce") else None
            if nonce is not None and (int(route.channel_id), nonce) in self.nonces:
                return self.nonces[(int(route.channel_id), nonce)].payload()
            msg = self.create(int(route.channel_id), body, files, via="dm")
            if nonce is not None:
                self.nonces[(int(route.channel_id), nonce)] = msg
            return msg.payload()
        # -- (end of the DMs)
        if method == "POST" and path == "/channels/{channel_id}/messages":
            if body.get("nonce") is not None:
                self.nonce_sends[(int(route.channel_id), str(body["nonce"]))] += 1
            nonce = body.get("nonce") if body.get("enforce_nonce") else None
            if nonce is not None and (int(route.channel_id), nonce) in self.nonces:
                return self.nonces[(int(route.channel_id), nonce)].payload()  # Discord: the earlier message
            msg = self.create(int(route.channel_id), body, files, via="channel")
            if nonce is not None:
                self.nonces[(int(route.channel_id), nonce)] = msg
            return msg.payload()
        if method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            mid = int(route.url.rsplit("/", 1)[1])
            msg = self.messages.get(mid)
            if msg is None or msg.ephemeral:
                raise discord.NotFound(_FakeResponse(404), "Unknown Message")
            return self.edit(msg, body, files).payload()
        if method == "POST" and path == "/channels/{channel_id}/threads":
            thread = {
                "id": str(self.snowflake()),
                "type": body.get("type", 11),
                "guild_id": str(self.guild_of.get(int(route.channel_id), GUILD_ID)),
                "parent_id": str(route.channel_id),
                "name": body.get("name", "thread"),
                "owner_id": str(BOT_ID),
                "message_count": 0,
                "member_count": 1,
                "rate_limit_per_user": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "locked": False,
                    "archive_timestamp": "2026-01-01T00:00:00+00:00",
                },
            }
            if len(thread["name"]) > 100:
                self.violations.append("thread name over 100 chars")
            self.threads.append(thread)
            self.guild_of[int(thread["id"])] = int(thread["guild_id"])
            return thread
        if method == "POST" and path == "/channels/{channel_id}/invites":  # an invite to a server's channel
            code = f"inv{self.snowflake()}"
            self.invites.append((int(route.channel_id), code, body))
            return {"code": code, "type": 0, "channel": {"id": str(route.channel_id), "name": "games", "type": 0}}
        if method == "PUT" and path in (
            "/applications/{application_id}/commands",
            "/applications/{application_id}/guilds/{guild_id}/commands",
        ):
            _check_commands(body, self.violations)
            self.synced = body
            return [
                {
                    **c,
                    "id": str(self.snowflake()),
                    "application_id": str(APP_ID),
                    "version": "1",
                    "default_member_permissions": c.get("default_member_permissions"),
                }
                for c in body
            ]
        raise AssertionError(f"unexpected REST call {method} {route.url}")

    # -- interaction webhooks --------------------------------------------------------------------------

    async def webhook(self, route, session=None, *, payload=None, multipart=None, files=None, **kwargs) -> Any:
        method, url = route.method, route.url
        self.requests.append((method, url))
        body = payload
        if body is None and multipart:
            for part in multipart:
                if part.get("name") == "payload_json":
                    body = json.loads(part["value"])
        body = body or {}
        if self.check_schema and method in ("POST", "PATCH"):
            self.violations.extend(schema.problems(method, route.path, body))
        token = route.webhook_token
        ia = self.interactions.get(token)
        if ia is None:
            raise discord.NotFound(_FakeResponse(404), "Unknown Webhook")
        if url.endswith("/callback"):
            return self._callback(ia, body, files)
        if ia.response_type is None:
            self.violations.append(f"follow-up before the initial response ({method} {url})")
        tail = url.split(f"/{token}", 1)[1]
        if method == "PATCH" and tail == "/messages/@original":
            if ia.original is None:
                raise discord.NotFound(_FakeResponse(404), "Unknown Message")
            self._settle(ia.original, body)
            return self.edit(ia.original, body, files).payload()
        if method == "GET" and tail == "/messages/@original":
            return ia.original.payload()
        if method == "POST" and tail == "":
            eph = bool(int(body.get("flags") or 0) & EPHEMERAL)
            msg = self.create(
                ia.source.channel_id if ia.source else CHANNEL_ID,
                body,
                files,
                via="followup",
                ephemeral=eph,
                visible_to=ia.user.id,
            )
            ia.followups.append(msg)
            return msg.payload()
        if method == "PATCH" and tail.startswith("/messages/"):
            msg = self.messages[int(tail.rsplit("/", 1)[1])]
            return self.edit(msg, body, files).payload()
        raise AssertionError(f"unexpected webhook call {method} {url}")

    def _settle(self, msg: Msg, body: dict[str, Any]) -> None:
        """Editing a deferred "thinking" message keeps its ephemerality (Discord ignores flags there)."""

    def _callback(self, ia: Interaction, body: dict[str, Any], files) -> dict[str, Any]:
        if ia.response_type is not None:
            self.violations.append(f"second initial response to interaction {ia.id}")
            raise discord.HTTPException(_FakeResponse(400), "Interaction has already been acknowledged.")
        kind = body["type"]
        data = body.get("data") or {}
        ia.response_type = kind
        ia.responded_at = time.perf_counter()
        channel = ia.source.channel_id if ia.source else ia.channel_id
        resource: dict[str, Any] | None = None
        if kind == 4:  # a message
            ia.original = self.create(channel, data, files, via="callback", visible_to=ia.user.id)
            resource = ia.original.payload()
        elif kind == 5:  # deferred message ("thinking")
            eph = bool(int(data.get("flags") or 0) & EPHEMERAL)
            ia.original = self.create(
                channel, {"content": ""}, None, via="deferred", ephemeral=eph, visible_to=ia.user.id
            )
            resource = ia.original.payload()
        elif kind in (6, 7):  # (deferred) update of the component's message
            if ia.source is None:
                self.violations.append("update response to an interaction without a message")
            else:
                ia.original = ia.source
                if kind == 7:
                    self.edit(ia.source, data, files)
                resource = ia.source.payload()
        elif kind == 8:  # autocomplete
            ia.choices = data.get("choices", [])
            if len(ia.choices) > 25:
                self.violations.append(f"autocomplete with {len(ia.choices)} choices")
            for ch in ia.choices:
                if not 1 <= len(ch["name"]) <= 100 or len(str(ch["value"])) > 100:
                    self.violations.append(f"autocomplete choice out of limits: {ch!r}")
        else:
            raise AssertionError(f"unexpected interaction response type {kind}")
        out: dict[str, Any] = {
            "interaction": {
                "id": str(ia.id),
                "type": ia.kind,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(ia.original and ia.original.ephemeral),
            }
        }
        if resource is not None:
            out["interaction"]["response_message_id"] = resource["id"]
            out["resource"] = {"type": kind, "message": resource}
        return out


class _FakeResponse:
    def __init__(self, status: int):
        self.status = status
        self.reason = "fake"


class ErrorLog(logging.Handler):
    """Collects ERROR records (unexpected exceptions) so tests can assert the bot logged none."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


_PATCHES: list[Any] = []  # [fake, count, originals]: discord.py's two request methods, replaced while bots run


def _patch(fake: FakeDiscord) -> None:
    """Route discord.py's REST and webhook requests to `fake` (bots started together share one fake)."""
    if _PATCHES:
        if _PATCHES[0] is not fake:
            raise AssertionError("bots running at the same time must share one FakeDiscord")
        _PATCHES[1] += 1
        return
    originals = [
        (discord.http.HTTPClient, "request", discord.http.HTTPClient.request),
        (discord.webhook.async_.AsyncWebhookAdapter, "request", discord.webhook.async_.AsyncWebhookAdapter.request),
    ]
    _route(fake)
    _PATCHES[:] = [fake, 1, originals]


def _route(fake: FakeDiscord) -> None:
    """discord.py's REST and webhook requests, answered by `fake`."""

    async def http_request(self, route, **kwargs):  # noqa: ARG001 - the bound HTTPClient
        return await fake.http(route, **kwargs)

    async def webhook_request(self, route, session=None, **kwargs):  # noqa: ARG001
        return await fake.webhook(route, session, **kwargs)

    discord.http.HTTPClient.request = http_request
    discord.webhook.async_.AsyncWebhookAdapter.request = webhook_request


def bot_user(user_id: int | str) -> dict[str, Any]:
    """The bot's own user as Discord sends it (GET /users/@me, READY)."""
    return {
        "id": str(user_id),
        "username": "tablebot",
        "discriminator": "0",
        "avatar": None,
        "bot": True,
        "global_name": None,
        "flags": 0,
    }


def ready(
    client: discord.Client,
    user_id: int | str,
    application_id: int | str | None,
    *,
    guild_id: int | None = None,
    shard_count: int = 1,
    shard_ids: Sequence[int] = (0,),
) -> None:
    """What the gateway tells a bot that connects, fed to its connection state: one READY per shard (what
    launching the shards would set), the guild (still unavailable: its GUILD_CREATE follows) on the first."""
    state = client._connection
    state.guild_ready_timeout = 0.01
    state.shard_count, state.shard_ids = shard_count, list(shard_ids)
    for shard in shard_ids:
        state.parsers["READY"](
            {
                "v": 10,
                "user": bot_user(user_id),
                "guilds": [{"id": str(guild_id), "unavailable": True}] if guild_id and shard == shard_ids[0] else [],
                "session_id": "s",
                "resume_gateway_url": "wss://x",
                "shard": [shard, shard_count],
                "application": {"id": str(application_id), "flags": 0},
            }
        )


def replace_network(fake: FakeDiscord, connect: Any) -> None:
    """For a bot in a process of its own (tests/bot/fakeprocess.py, bench/capacity_bot.py): discord.py's REST and
    webhook requests go to `fake` and its gateway connection is `connect`, for good."""
    _route(fake)
    discord.Client.connect = connect
    discord.AutoShardedClient.connect = connect


def _unpatch() -> None:
    if not _PATCHES:
        return
    _PATCHES[1] -= 1
    if _PATCHES[1] == 0:
        for owner, name, original in _PATCHES[2]:
            setattr(owner, name, original)
        _PATCHES.clear()


class Harness:
    """A running bot wired to a FakeDiscord; helpers to act as users."""

    fake: FakeDiscord
    bot: GameBot

    def __init__(self, fake: FakeDiscord, bot: GameBot, errors: ErrorLog, patches: list):
        self.fake, self.bot, self.errors, self._patches = fake, bot, errors, patches
        self._ids = fake._ids
        self.commands: dict[str, app_commands.Command] = {}
        self.guild_id, self.channels = GUILD_ID, (CHANNEL_ID, OTHER_CHANNEL_ID)
        self.start_args: dict[str, Any] = {}  # how it was started (a restart starts the same way)

    # -- lifecycle ---------------------------------------------------------------------------------------

    @classmethod
    async def start(
        cls,
        db_path,
        fake: FakeDiscord | None = None,
        *,
        guild_id: int = GUILD_ID,
        channels: tuple[int, int] = (CHANNEL_ID, OTHER_CHANNEL_ID),
        **settings: Any,
    ) -> Harness:
        """A bot on `db_path` wired to `fake` (a new one by default), in the guild `guild_id` with the text
        channels `channels`; `settings` override bot.Settings fields. Several bots may share one fake (shards)."""
        fake = fake or FakeDiscord()
        _patch(fake)
        errors = ErrorLog()
        logging.getLogger().addHandler(errors)
        # boards are drawn in a thread unless a test asks for worker processes (spawning one per bot is slow)
        defaults = {"token": "fake-token", "database_path": str(db_path), "ai_wait": 0.0, "render_processes": 0}
        bot = GameBot(Settings(**{**defaults, **settings}))
        h = cls(fake, bot, errors, [])
        h.guild_id, h.channels = guild_id, channels
        h.start_args = {"guild_id": guild_id, "channels": channels, **settings}
        for channel in channels:
            fake.guild_of[channel] = guild_id
        await bot.login("fake-token")
        count, ids = bot.settings.shard_count or 1, list(bot.settings.shard_ids or [0])
        ready(bot, BOT_ID, APP_ID, guild_id=guild_id, shard_count=count, shard_ids=ids)
        bot._connection.parsers["GUILD_CREATE"](h.guild_payload())
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        await h.settle()
        return h

    def guild_payload(self) -> dict[str, Any]:
        everyone = {
            "id": str(self.guild_id),
            "name": "@everyone",
            "permissions": str(ALL_MEMBER),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return {
            "id": str(self.guild_id),
            "name": "Board game club",
            "owner_id": "1",
            "roles": [everyone],
            "channels": [
                self.channel_payload(self.channels[0], "games"),
                self.channel_payload(self.channels[1], "chat"),
            ],
            "members": [],
            "threads": [],
            "member_count": 10,
            "emojis": [],
            "stickers": [],
            "features": [],
            "unavailable": False,
            "large": False,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "system_channel_flags": 0,
            "joined_at": "2026-01-01T00:00:00+00:00",
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def channel_payload(self, cid: int, name: str) -> dict[str, Any]:
        return {
            "id": str(cid),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": name,
            "position": 0,
            "permission_overwrites": [],
            "parent_id": None,
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    async def close(self) -> None:
        if getattr(self, "_closed", False):  # a fixture may close a harness the test already restarted
            return
        self._closed = True
        await self.bot.close()
        await self.settle()
        _unpatch()
        logging.getLogger().removeHandler(self.errors)

    async def restart(self) -> Harness:
        """Discard this bot and start a new one on the same database file and the same fake Discord."""
        path = self.bot.settings.database_path
        await self.close()
        return await Harness.start(path, self.fake, **self.start_args)

    async def kill(self) -> Harness:
        """A crash (kill -9) and a new start: every task of this bot stops where it is and nothing more runs
        (no move finishes, nothing is posted or cleared); then a new bot starts on the same database file and
        the same fake Discord."""
        path = self.bot.settings.database_path
        me = asyncio.current_task()
        tasks = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.bot.session.closing = True  # a dead process finishes and posts nothing: close only releases resources
        self.bot.herald.closed = True
        await self.close()
        return await Harness.start(path, self.fake, **self.start_args)

    def send(self, payload: dict[str, Any], ia: Interaction) -> Interaction:
        """Deliver an interaction without waiting for the bot to finish with it (see `kill`)."""
        self.fake.interactions[ia.token] = ia
        self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        return ia

    # -- waiting -----------------------------------------------------------------------------------------

    async def settle(self, baseline: set[asyncio.Task] | None = None, timeout: float = 30) -> None:
        """Wait until every task started since `baseline` is done (view timeout timers excepted)."""
        baseline = baseline or set()
        deadline = time.monotonic() + timeout
        while True:
            pending = [
                t
                for t in asyncio.all_tasks()
                if t is not asyncio.current_task()
                and not t.done()
                and t not in baseline
                and "timeout_task_impl" not in getattr(t.get_coro(), "__qualname__", "")
                and "Loop._loop" not in getattr(t.get_coro(), "__qualname__", "")
            ]
            if not pending:
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"bot still busy after {timeout}s: {pending}")
            await asyncio.wait(pending, timeout=remaining)

    async def feed(self, payload: dict[str, Any], ia: Interaction) -> Interaction:
        baseline = set(asyncio.all_tasks())
        self.fake.interactions[ia.token] = ia
        self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        await self.settle(baseline)
        ia.done_at = time.perf_counter()
        self.check(ia)
        return ia

    async def click_many(self, clicks: list[tuple[User, Msg, str]]) -> list[Interaction]:
        """Several clicks arriving at once (fed together, then all handled concurrently)."""
        baseline = set(asyncio.all_tasks())
        out = []
        for user, message, label in clicks:
            b = self.button(message, label)
            payload, ia = self.component_payload(user, message, b["custom_id"], 2)
            self.fake.interactions[ia.token] = ia
            self.bot._connection.parsers["INTERACTION_CREATE"](payload)
            out.append(ia)
        await self.settle(baseline)
        for ia in out:
            ia.done_at = time.perf_counter()
            self.check(ia)
        return out

    def check(self, ia: Interaction) -> None:
        if ia.response_type is None:
            self.fake.violations.append(f"interaction {ia.id} ({ia.kind}) was never answered")
        elif ia.responded_at - ia.arrived > 3.0:
            self.fake.violations.append(f"interaction {ia.id} answered after {ia.responded_at - ia.arrived:.1f}s")
        if ia.response_type == 5 and ia.original is not None and ia.original.edits == 0:
            self.fake.violations.append(f"interaction {ia.id}: the 'thinking…' placeholder was never replaced")

    # -- building interactions ---------------------------------------------------------------------------

    async def add_guild(self, guild_id: int, channels: tuple[int, int]) -> None:
        """Another server the bot is in (GUILD_CREATE), with its two text channels (issue #24: two servers)."""
        saved = self.guild_id, self.channels
        self.guild_id, self.channels = guild_id, channels
        try:
            for channel in channels:
                self.fake.guild_of[channel] = guild_id
            self.bot._connection.parsers["GUILD_CREATE"](self.guild_payload())
        finally:
            self.guild_id, self.channels = saved
        await self.settle()

    def _base(self, user: User, kind: int, channel_id: int) -> tuple[dict[str, Any], Interaction]:
        iid = self.fake.snowflake()
        token = f"tok{iid}"
        ia = Interaction(iid, token, kind, user, time.perf_counter())
        ia.channel_id = channel_id
        guild = self.fake.guild_of.get(channel_id, self.guild_id)  # the server of the channel (or thread)
        channel = next((t for t in self.fake.threads if int(t["id"]) == channel_id), None)
        channel = channel or {**self.channel_payload(channel_id, "games"), "guild_id": str(guild)}
        payload = {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": str(guild),
            "channel_id": str(channel_id),
            "channel": channel,
            "member": user.member(),
            "app_permissions": str(ALL_MEMBER),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_LIMIT,
        }
        return payload, ia

    def _command(self, path: str) -> tuple[list[str], Any]:
        names = path.split()
        cmd = self.bot.tree.get_command(names[0])
        if cmd is None:
            raise AssertionError(f"no command /{names[0]}")
        for name in names[1:]:
            cmd = cmd.get_command(name)
            if cmd is None:
                raise AssertionError(f"no command /{path}")
        return names, cmd

    def _options(self, cmd, values: dict[str, Any], focused: str | None = None) -> list[dict[str, Any]]:
        params = {p.name: p for p in cmd.parameters}
        out = []
        for name, value in values.items():
            if name not in params:
                raise AssertionError(f"/{cmd.qualified_name} has no option {name}")
            opt = {"name": name, "type": params[name].type.value, "value": value}
            if name == focused:
                opt["focused"] = True
            out.append(opt)
        return out

    def _command_data(self, path: str, values: dict[str, Any], focused: str | None = None) -> dict[str, Any]:
        names, cmd = self._command(path)
        options = self._options(cmd, values, focused)
        for name in reversed(names[1:]):
            options = [{"name": name, "type": 1, "options": options}]
        return {"id": str(self.fake.snowflake()), "name": names[0], "type": 1, "options": options}

    async def run_command(self, user: User, path: str, *, channel_id: int = CHANNEL_ID, **values: Any) -> Interaction:
        """Invoke a slash command like `/game create game:alhambra` ("game create", game="alhambra")."""
        payload, ia = self._base(user, 2, channel_id)
        payload["data"] = self._command_data(path, values)
        return await self.feed(payload, ia)

    async def autocomplete(
        self, user: User, path: str, focused: str, *, channel_id: int = CHANNEL_ID, **values: Any
    ) -> list[dict[str, Any]]:
        payload, ia = self._base(user, 4, channel_id)
        payload["data"] = self._command_data(path, values, focused)
        ia = await self.feed(payload, ia)
        return ia.choices or []

    def component_payload(
        self, user: User, message: Msg, custom_id: str, component_type: int, values: list[str] | None = None
    ) -> tuple[dict[str, Any], Interaction]:
        if message.ephemeral and message.visible_to != user.id:
            raise AssertionError(f"{user.name} cannot see ephemeral message {message.id}")
        payload, ia = self._base(user, 3, message.channel_id)
        ia.source = message
        payload["message"] = message.payload()
        payload["data"] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            payload["data"]["values"] = values
        return payload, ia

    def button(self, message: Msg, label: str) -> dict[str, Any]:
        for b in message.buttons():
            if b.get("label") == label:
                return b
        raise AssertionError(f"no button {label!r} on message {message.id}: {message.labels()}\n{message.content}")

    async def click(self, user: User, message: Msg, label: str) -> Interaction:
        b = self.button(message, label)
        if b.get("disabled"):
            raise AssertionError(f"button {label!r} is disabled")
        payload, ia = self.component_payload(user, message, b["custom_id"], 2)
        return await self.feed(payload, ia)

    async def choose(self, user: User, message: Msg, select_index: int, value: str) -> Interaction:
        """Pick an option (by value or by label) in the message's select number `select_index`."""
        sel = message.selects()[select_index]
        values = {o["value"] for o in sel["options"]}
        if value not in values:
            by_label = [o["value"] for o in sel["options"] if o["label"] == value]
            if not by_label:
                raise AssertionError(f"no option {value!r} in select {select_index}: {sel['options']}")
            value = by_label[0]
        payload, ia = self.component_payload(user, message, sel["custom_id"], 3, [value])
        return await self.feed(payload, ia)

    # -- reading -----------------------------------------------------------------------------------------

    def public(self, channel_id: int | None = None) -> list[Msg]:
        """The public messages in the servers' channels (not the DMs: `dms`)."""
        return [
            m
            for m in self.fake.sent
            if m.public and m.via != "dm" and (channel_id is None or m.channel_id == channel_id)
        ]

    def dms(self, user: User) -> list[Msg]:
        """The DMs the bot sent `user` (issue #23)."""
        return [m for m in self.fake.sent if m.via == "dm" and self.fake.dm_channels.get(m.channel_id) == user.id]

    def last_public(self, channel_id: int | None = None) -> Msg:
        return self.public(channel_id)[-1]

    @property
    def unexpected_errors(self) -> list[str]:
        return [f"{r.name}: {r.getMessage()}" for r in self.errors.records]
