"""Our real catalogs at work through the harness: a Hungarian player in a German server reads Hungarian
panels and errors while the move posts are German; /game rules in Czech; the command tree sent to Discord carries
every language's names and descriptions within Discord's limits (names lowercase, unique among siblings, at most
32 characters; descriptions at most 100)."""

from __future__ import annotations

import re

import pytest

import engine
import present
from i18n import language_of, words
from tests.bot.harness import GUILD_ID, Harness, User
from tests.bot.test_language import German, press

DISCORD_CODES = ("hu", "cs", "es-ES", "es-419", "de")
NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.fixture
def users():
    return [User(100000000000000001 + i, name) for i, name in enumerate(["Ana", "Bo", "Cyd"])]


async def test_a_hungarian_player_in_a_german_server(tmp_path, users):
    ana, bo = users[:2]
    hu, de = words("hu"), words("de")
    German.LOCALES = {ana.id: "hu", bo.id: "de"}
    h = await German.start(tmp_path / "games.sqlite3")
    try:
        r = await h.run_command(ana, "game create", game="gardens")
        assert r.message.ephemeral and r.message.content.startswith("A játékod"), r.message.content
        await press(h, bo, h.last_public(), "join")
        await press(h, ana, h.last_public(), "start")
        start = h.last_public()
        row = await h.bot.storage.last_game_in_channel(start.channel_id)
        first = engine.get_rules("gardens").to_move(engine.get_rules("gardens").from_json(row.state))[0]
        assert start.content.splitlines()[-1] == de("Your turn, {who}.", who=f"<@{first}>"), start.content
        assert de("Play my turn") in start.labels(), start.labels()

        r = await h.run_command(ana, "game undo")  # an error: in her language
        assert r.message.content == hu("You have no move to take back."), r.message.content
        player, other = (ana, bo) if str(ana.id) == first else (bo, ana)
        theirs = hu if other is ana else de
        r = await press(h, other, start, "play")  # not their turn: told so in their own language
        waiting = theirs("It's not your turn: waiting for {names}.", names=player.name)
        assert r.message.ephemeral and r.message.content == waiting, r.message.content

        mine = hu if player is ana else de
        r = await press(h, player, start, "play")  # the panel: in the player's own language
        panel = r.message
        title = mine.text(present.title("gardens"))
        head = mine("**Your move** in {title} (move {number}).", title=title, number=1)
        assert panel.ephemeral and panel.content.splitlines()[0] == head, panel.content
    finally:
        await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


async def test_game_rules_in_czech(tmp_path, users):
    cs = words("cs")
    German.LOCALES = {users[0].id: "cs"}
    h = await German.start(tmp_path / "games.sqlite3")
    try:
        for game in engine.GAMES:
            r = await h.run_command(users[0], "game rules", game=game)
            czech = cs.text(engine.get_rules(game).summary(None))
            english = words("en").text(engine.get_rules(game).summary(None))
            shown = "\n".join(m.content for m in r.replies)
            assert czech.split("\n")[0] in shown and czech != english, shown[:300]
    finally:
        await h.close()


async def test_the_command_tree_carries_every_language(tmp_path):
    h = await Harness.start(tmp_path / "games.sqlite3", dev_guild_id=GUILD_ID)
    try:
        tree = h.fake.synced
        assert tree

        def check(item: dict, where: str, siblings: dict[str, set[str]]) -> None:
            names = item.get("name_localizations") or {}
            for code in set(DISCORD_CODES) - set(names):  # only where the word is the same as in English
                lang = language_of(code)
                assert words(lang).command_name(item["name"]) == item["name"], (where, code, names)
            for code, name in names.items():
                assert NAME.match(name) and name == name.lower(), (where, code, name)
                assert name not in siblings.setdefault(code, set()), (where, code, name, "not unique")
                siblings[code].add(name)
            descriptions = item.get("description_localizations") or {}
            assert set(descriptions) == set(DISCORD_CODES), (where, descriptions)
            assert all(1 <= len(d) <= 100 for d in descriptions.values()), (where, descriptions)
            for choice in item.get("choices") or []:
                shown = choice.get("name_localizations") or {}
                assert all(1 <= len(n) <= 100 for n in shown.values()), (where, choice)

        def walk(cmd: dict, where: str, siblings: dict[str, set[str]]) -> None:
            check(cmd, where, siblings)
            inner: dict[str, set[str]] = {}
            for opt in cmd.get("options", []):
                if opt["type"] in (1, 2):
                    walk(opt, f"{where} {opt['name']}", inner)
                else:
                    check(opt, f"{where} {opt['name']}", inner)

        top: dict[str, set[str]] = {}
        for cmd in tree:
            walk(cmd, cmd["name"], top)
        german = {c["name"]: (c.get("name_localizations") or {}).get("de") for c in tree}
        assert german["game"] == words("de").command_name("game") != "game", german
    finally:
        await h.close()


def test_options_take_yes_and_no_in_every_language():
    """The lobby shows an option's value in the reader's words (igen, ano, sí, ja): typing them back works."""
    from cogs._options import parse_options

    typed = "vizier=igen, huts=nein, bonus=sí, exchange=ne"
    assert parse_options("alhambra", typed) == {"vizier": True, "huts": False, "bonus": True, "exchange": False}
