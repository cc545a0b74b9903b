"""Nothing a player reads bypasses the catalogs: whole games of each type played through the harness
in the pseudo-language (every text of the catalogs wrapped in ⟦ ⟧, `i18n.catalogs.Pseudo`), by players whose
Discord language and whose server's language are that pseudo-language, and every message the bot sends or
edits (content, embeds, buttons, menus and their options, autocomplete choices) and every string drawn in the
board images must be catalog words, names, numbers or the commands' names of places (the rule of
tests/render/test_words.py, plus Discord's own syntax: mentions, timestamps, links).

The fake Discord records each message as the bot sent it, then hands the test driver the same message with the
markers taken out (the pseudo-language keeps the English inside them), so the driver plays as in English.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import engine
import i18n
from i18n import catalogs
from i18n.__main__ import all_entries
from render import _draw
from tests.bot.driver import create_and_start, play_one_action
from tests.bot.harness import CHANNEL_ID, GUILD_ID, FakeDiscord, Harness, User
from tests.render.test_words import clear_sprites, texts, untranslated

ADMIN_PERMISSIONS = 0xFFFFFFFF
MARKS = str.maketrans("", "", "⟦⟧")
DISCORD_SYNTAX = re.compile(r"<[@#]!?&?\d+>|<t:\d+(?::\w)?>|<a?:\w+:\d+>|</[\w -]+:\d+>|https?://[^\s⟦⟧]+|`#?\d+`")
TYPED = re.compile(r"\b([\w-]+)\s*=\s*([\w.-]+)")  # name=value, as the options are typed
MODULES = "vizier, huts, exchange, bonus"
GAMES = [("alhambra", 3, MODULES), ("gardens", 2, None), ("queens_garden", 3, None)]


def strip(value: Any) -> Any:
    """The same data with the pseudo-language's markers taken out."""
    if isinstance(value, str):
        return value.translate(MARKS)
    if isinstance(value, list):
        return [strip(v) for v in value]
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items()}
    return value


def words_of(data: dict[str, Any]) -> list[str]:
    """Every text of a message body a player reads."""
    out = [data.get("content") or ""]
    for e in data.get("embeds") or []:
        out += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text") or ""]
        out += [(e.get("author") or {}).get("name") or ""]
        out += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in e.get("fields") or []]
    rows = data.get("components") or []
    for c in (c for row in rows for c in row.get("components", [])):
        out += [c.get("label") or "", c.get("placeholder") or ""]
        for o in c.get("options") or []:
            out += [o.get("label") or "", o.get("description") or ""]
    return [s for s in out if s]


class PseudoDiscord(FakeDiscord):
    """Records what the bot wrote, keeps it without the markers."""

    def __init__(self) -> None:
        super().__init__()
        self.read: list[str] = []

    def create(self, channel_id, data, files, **kwargs):
        self.read += words_of(data)
        return super().create(channel_id, strip(data), files, **kwargs)

    def edit(self, msg, data, files):
        self.read += words_of(data)
        return super().edit(msg, strip(data), files)

    def _callback(self, ia, body, files):
        out = super()._callback(ia, body, files)
        for choice in ia.choices or []:
            self.read.append(choice["name"])
            choice["name"] = strip(choice["name"])
        return out


class PseudoHarness(Harness):
    def _base(self, user, kind, channel_id):
        payload, ia = super()._base(user, kind, channel_id)
        payload["locale"] = payload["guild_locale"] = i18n.PSEUDO
        return payload, ia

    def guild_payload(self):
        return {**super().guild_payload(), "preferred_locale": i18n.PSEUDO}


@pytest.fixture
def pseudo():
    i18n.install(i18n.PSEUDO, catalogs.pseudo(all_entries()))
    _draw.PARTS.clear()
    clear_sprites()
    try:
        yield i18n.PSEUDO
    finally:
        i18n.uninstall(i18n.PSEUDO)
        _draw.PARTS.clear()


def balanced(s: str) -> str:
    """A text shortened to fit ('…' at its start, middle or end) may have lost some ⟦ or ⟧: put them back at the
    ends, so that what is left of each catalog text still counts as one."""
    depth = lowest = 0
    for c in s:
        depth += (c == "⟦") - (c == "⟧")
        lowest = min(lowest, depth)
    return "⟦" * -lowest + s + "⟧" * (depth - lowest)


def option_words() -> frozenset[str]:
    """`/game create`'s options are typed as `name=value` in the same words in every language."""
    out = {"yes", "no", "none"}
    for game in engine.GAMES:
        for option in engine.get_rules(game).options.values():
            out.add(option.name)
            out.update(str(v) for v in getattr(option, "choices", None) or ())
    return frozenset(out)


def problems(read: list[str], names: frozenset[str]) -> dict[str, str]:
    found = {}
    for s in read:
        rest = balanced(DISCORD_SYNTAX.sub(" ", s))
        rest = TYPED.sub(lambda m: " " if {m[1], m[2]} <= option_words() else m[0], rest)
        bad = untranslated(rest, names)
        if bad:
            found[s] = bad
    return found


async def look_around(h: Harness, players: list[User], admin: User) -> None:
    """The commands a player uses beside their moves, in the middle or at the end of a game."""
    for path in ("game status", "game rules", "game log", "game board", "game mine", "game list", "game settings"):
        await h.run_command(players[0], path)
    await h.run_command(players[1], "game hand")
    await h.run_command(players[0], "stats")
    await h.autocomplete(players[0], "game create", "options", game="alhambra", options="viz")
    await h.run_command(admin, "language")


@pytest.mark.parametrize(("game", "n", "options"), GAMES, ids=[g for g, _, _ in GAMES])
async def test_every_text_of_a_whole_game_goes_through_the_catalogs(tmp_path, pseudo, game, n, options):
    fake = PseudoDiscord()
    h = await PseudoHarness.start(tmp_path / "games.sqlite3", fake)
    await h.bot.session.languages.set(GUILD_ID, None)  # the server's own locale: the pseudo-language
    players = [User(100000000000000001 + i, name) for i, name in enumerate(["Ana", "Bo", "Cyd"][:n])]
    admin = User(100000000000000099, "Mod", permissions=ADMIN_PERMISSIONS)
    rnd = random.Random(5)
    with _draw.recording() as drawn:
        post = await create_and_start(h, game, players, options=options)
        await look_around(h, players, admin)
        by_id = {p.id: p for p in players}
        for count in range(3000):
            if "Game over" in post.content:
                break
            mentioned = [int(m) for m in re.findall(r"<@(\d+)>", post.content.splitlines()[-1])]
            named = [p.id for p in players if f"**{p.name}**" in post.content.splitlines()[-1]]
            movers = mentioned + named
            assert movers, post.content
            await play_one_action(h, by_id[rnd.choice(movers)], post, rnd)
            post = h.last_public(CHANNEL_ID)
            if count == 40:
                await look_around(h, players, admin)
        assert "Game over" in post.content and count > 10
        await look_around(h, players, admin)
        await h.run_command(players[0], "leaderboard", game=game)
    await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []

    names = frozenset([*(p.name for p in [*players, admin]), h.guild_payload()["name"]])  # the server's name too
    said = problems(fake.read, names)
    assert not said, "texts that bypass the catalogs:\n" + "\n".join(f"{v!r} in {k!r}" for k, v in said.items())
    assert sum("⟦" in s for s in fake.read) > 100
    print(f"{game}: {count} actions, {len(fake.read)} texts read, {len(drawn)} drawn in images")
    shown = problems(texts(drawn), names)
    assert drawn and not shown, "image texts that bypass the catalogs:\n" + "\n".join(
        f"{v!r} in {k!r}" for k, v in shown.items()
    )
