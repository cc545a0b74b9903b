"""Every player in their own language, through the harness: ephemeral replies in the clicking user's
Discord language, public posts in the server's (its /language choice, else its own Discord locale), /language for
server admins only and kept across a restart, and the command tree sent to Discord localised within its limits.

Until translators fill the catalogs, the languages here are fakes installed with `i18n.install`: each marks every
text it translates with its code (`«hu»…`), so a test sees which language each text went through."""

from __future__ import annotations

import gettext
import re

import discord
import pytest

import i18n
from tests.bot.harness import ALL_MEMBER, CHANNEL_ID, GUILD_ID, Harness, Msg, User

FAKES = ("hu", "cs", "es", "de")
DISCORD_CODES = ("hu", "cs", "es-ES", "es-419", "de")
ADMIN = ALL_MEMBER | discord.Permissions(manage_guild=True).value
NAME = re.compile(r"^[-_\w]{1,32}$")


class Marked(gettext.NullTranslations):
    """A fake language: every text marked with its code (command names get a prefix Discord accepts)."""

    def __init__(self, code: str):
        super().__init__()
        self.code = code

    def gettext(self, message: str) -> str:
        return f"«{self.code}»{message}" if message else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"«{self.code}»{msgid1 if n == 1 else msgid2}"

    def pgettext(self, context: str, message: str) -> str:
        return f"{self.code}_{message}" if context == i18n.COMMAND_NAME else self.gettext(message)


def mark(code: str) -> str:
    return f"«{code}»"


@pytest.fixture
def fake_languages():
    for code in FAKES:
        i18n.install(code, Marked(code))
    yield
    for code in FAKES:
        i18n.uninstall(code)


class German(Harness):
    """A server whose own Discord language is German; each user's Discord language is in `LOCALES` (else en-US)."""

    SERVER = "de"
    LOCALES: dict[int, str] = {}

    def _base(self, user, kind, channel_id):
        payload, ia = super()._base(user, kind, channel_id)
        payload["locale"] = self.LOCALES.get(user.id, "en-US")
        payload["guild_locale"] = self.SERVER
        return payload, ia

    def guild_payload(self):
        return {**super().guild_payload(), "preferred_locale": self.SERVER}


async def press(h: Harness, user: User, message: Msg, op: str):
    """Click the button whose custom_id ends with `:op` (labels are in some language)."""
    button = next((b for b in message.buttons() if b["custom_id"].endswith(f":{op}")), None)
    assert button is not None, (op, message.labels())
    payload, ia = h.component_payload(user, message, button["custom_id"], 2)
    return await h.feed(payload, ia)


def check_clean(h: Harness) -> None:
    assert h.fake.violations == [], h.fake.violations
    assert h.unexpected_errors == [], h.unexpected_errors


async def start_fake_game(h: Harness, ana: User, bo: User) -> Msg:
    r = await h.run_command(ana, "game create", game="fake")
    assert r.message.ephemeral
    lobby = h.last_public()
    await press(h, bo, lobby, "join")
    await press(h, ana, h.last_public(), "start")
    return h.last_public()


async def test_a_hungarian_player_in_a_german_server_reads_hungarian_replies_and_german_posts(
    tmp_path, fake_game, users, fake_languages
):
    ana, bo = users[:2]
    German.LOCALES = {ana.id: "hu", bo.id: "de"}
    h = await German.start(tmp_path / "games.sqlite3")
    try:
        r = await h.run_command(ana, "game create", game="fake")
        assert r.message.ephemeral and r.message.content.startswith(mark("hu")), r.message.content
        lobby = h.last_public()
        await press(h, bo, lobby, "join")
        await press(h, ana, h.last_public(), "start")
        start = h.last_public()
        assert start.content.startswith(mark("de") + "🎲"), start.content
        assert mark("hu") not in start.text()
        assert all(label.startswith(mark("de")) for label in start.labels()), start.labels()

        # her panel, errors and replies: Hungarian
        r = await press(h, ana, start, "play")
        panel = r.message
        assert panel.ephemeral and panel.content.startswith(mark("hu")), panel.content
        assert all(mark("de") not in label for label in panel.labels()), panel.labels()
        r = await h.run_command(ana, "game undo")
        assert r.message.content == mark("hu") + "You have no move to take back.", r.message.content
        r = await press(h, ana, start, "hand")
        assert r.message.ephemeral and r.message.content.startswith(mark("hu") + "🔒"), r.message.content
        r = await h.run_command(ana, "game status")
        assert r.message.content.startswith(mark("hu") + "**"), r.message.content
        assert mark("hu") + "Race to the Target" in r.message.content
        r = await h.run_command(ana, "game rules")
        assert r.message.content.startswith("📜 ") and mark("hu") + "Add 1–30" in r.message.content
        r = await h.run_command(bo, "game status")  # Bo reads German
        assert r.message.content.startswith(mark("de") + "**") and mark("hu") not in r.message.content

        # Ana's move: her reply in Hungarian, the move post in German
        r = await h.run_command(ana, "move", action="adds 5")
        assert r.message.ephemeral and mark("hu") in r.message.content and mark("de") not in r.message.content
        await h.settle()
        post = h.last_public()
        assert post.content.splitlines()[0].startswith(mark("de")), post.content
        assert mark("de") + "adds 5" in post.content and mark("hu") not in post.text()
        assert post.content.splitlines()[-1] == f"{mark('de')}Your turn, <@{bo.id}>.", post.content
        assert all(label.startswith(mark("de")) for label in post.labels()), post.labels()
        r = await press(h, ana, post, "play")  # not her turn now: told so in Hungarian
        assert r.message.ephemeral and r.message.content.startswith(mark("hu")), r.message.content

        # a public line from a command (the nudge) is German too, whoever sent it
        h.bot.get_cog("GameCog").nudge_gap = 0
        await h.run_command(ana, "game nudge")
        assert h.last_public().content.startswith(mark("de") + "⏰"), h.last_public().content
    finally:
        await h.close()
    check_clean(h)


async def test_language_is_for_admins_and_survives_a_restart(tmp_path, fake_game, users, fake_languages):
    ana, bo = users[:2]
    mod = User(100000000000000098, "Mod", permissions=ADMIN)
    h = await Harness.start(tmp_path / "games.sqlite3")  # an English server
    try:
        r = await h.run_command(ana, "language", language="de")
        assert r.message.ephemeral and "Manage Server" in r.message.content, r.message.content
        assert (await h.bot.storage.guild(GUILD_ID)).language is None

        r = await h.run_command(mod, "language")
        assert r.message.content == "This server's game posts are in English, the server's own language."
        r = await h.run_command(mod, "language", language="de")  # the reply is in the admin's own language
        assert r.message.content == "From now on this server's game posts are in Deutsch."
        h = await h.restart()
        post = await start_fake_game(h, ana, bo)
        assert post.content.startswith(mark("de") + "🎲"), post.content
        r = await h.run_command(mod, "language")  # the admin reads English: their own language
        assert r.message.content == "This server's game posts are in Deutsch, as an admin chose."

        r = await h.run_command(mod, "language", language="server")
        assert r.message.content == "From now on this server's game posts follow the server's own language: English."
        await h.run_command(ana, "game cancel")
        assert h.last_public().content.startswith("**Ana** cancelled"), h.last_public().content
    finally:
        await h.close()
    check_clean(h)


async def test_the_command_tree_carries_every_language_within_discords_limits(tmp_path, fake_languages):
    h = await Harness.start(tmp_path / "games.sqlite3", dev_guild_id=GUILD_ID)  # synced to the server at start
    try:
        tree = h.fake.synced
        assert tree, "no commands were synced"
        seen = {"commands": 0, "choices": 0}

        def check(item: dict, where: str, *, described: bool = True) -> None:
            names = item.get("name_localizations") or {}
            assert set(names) == set(DISCORD_CODES), (where, names)
            for code, name in names.items():
                assert NAME.match(name) and name == name.lower(), (where, code, name)
            if described:
                descriptions = item.get("description_localizations") or {}
                assert set(descriptions) == set(DISCORD_CODES), (where, descriptions)
                assert all(1 <= len(d) <= 100 for d in descriptions.values()), (where, descriptions)

        def walk(cmd: dict, where: str) -> None:
            check(cmd, where)
            seen["commands"] += 1
            for opt in cmd.get("options", []):
                if opt["type"] in (1, 2):
                    walk(opt, f"{where} {opt['name']}")
                    continue
                check(opt, f"{where} {opt['name']}")
                for choice in opt.get("choices", []):
                    localised = choice.get("name_localizations") or {}
                    if choice["name"] in i18n.LANGUAGES.values():  # a language's own name: the same for all
                        assert not localised, choice
                        continue
                    assert set(localised) == set(DISCORD_CODES), choice
                    assert all(1 <= len(n) <= 100 for n in localised.values()), choice
                    seen["choices"] += 1

        for cmd in tree:
            walk(cmd, "/" + cmd["name"])
        assert seen["commands"] > 20 and seen["choices"] > 5, seen
        game = next(c for c in tree if c["name"] == "game")
        assert game["name_localizations"]["de"] == "de_game"
        assert game["description_localizations"]["es-419"] == mark("es") + "Play board games in this channel"
        language = next(c for c in tree if c["name"] == "language")
        assert int(language["default_member_permissions"]) == discord.Permissions(manage_guild=True).value
        assert language.get("contexts") in (None, [0]) and language.get("dm_permission") in (None, False)
    finally:
        await h.close()
    check_clean(h)


async def test_a_move_post_is_worded_when_it_is_posted(tmp_path, fake_game, users, fake_languages):
    """The notice keeps the engine's words as data: a language chosen between the move and its post applies;
    a notice stored before (its events as English strings) still posts."""
    ana, bo = users[:2]
    mod = User(100000000000000098, "Mod", permissions=ADMIN)
    h = await Harness.start(tmp_path / "games.sqlite3")
    try:
        await start_fake_game(h, ana, bo)
        row = await h.bot.storage.game_in_channel(CHANNEL_ID)
        h.bot.herald.closed = True  # the move is stored with its notice, not posted yet
        await h.bot.session.act(row.id, ana.sid, h.bot.session.rules("fake").action_from_json({"kind": "add", "n": 9}))
        h.bot.herald.closed = False
        pending = await h.bot.storage.pending_notices(row.id)
        assert pending and all(isinstance(e[1], (dict, str)) for n in pending for e in n.payload["events"])
        await h.run_command(mod, "language", language="hu")
        await h.bot.herald.flush(row.id)
        post = h.last_public()
        assert post.content.startswith(mark("hu")) and mark("hu") + "adds 9" in post.content, post.content
    finally:
        await h.close()
    check_clean(h)


async def test_the_real_catalogs_keep_the_command_tree_within_discords_limits(tmp_path):
    """The translators' own words (not the marked fakes above): a name or description in any language that
    Discord would refuse at the sync is a violation of the fake (tests/bot/harness.py checks every language's)."""
    h = await Harness.start(tmp_path / "games.sqlite3", dev_guild_id=GUILD_ID)
    try:
        game = next(c for c in h.fake.synced if c["name"] == "game")
        assert set(game["description_localizations"]) == set(DISCORD_CODES)
    finally:
        await h.close()
    assert h.fake.violations == [], h.fake.violations
