"""LOG_FORMAT=json (ops/logs.py): over a whole Alhambra game played through the fake Discord at DEBUG, every line
is one JSON object, the lines about a move name its game, guild, shard and interaction, and no line carries the
bot token, an interaction token or a card of anyone's hand. discord.py's own DEBUG lines that carry request
bodies (the harness replaces the HTTP layer, so they are fed here with the library's exact formats) keep their
route and status only."""

from __future__ import annotations

import inspect
import io
import json
import logging
import random

import discord.gateway
import discord.http

import engine
from ops import logs
from tests.bot.driver import create_and_start, movers, play_one_action
from tests.bot.harness import CHANNEL_ID, GUILD_ID, Harness
from tests.bot.test_leak import hand_words


def lines_of(stream: io.StringIO) -> list[dict]:
    out = []
    for line in stream.getvalue().splitlines():
        obj = json.loads(line)  # every line parses
        assert {"ts", "level", "logger", "msg"} <= obj.keys(), obj
        out.append(obj)
    return out


async def test_json_logs_of_a_full_game_carry_context_and_no_secret(tmp_path, users):
    stream = io.StringIO()
    handler = logs.setup(logging.DEBUG, "json", secrets=("fake-token",), stream=stream)
    level = logging.getLogger().level
    h = await Harness.start(tmp_path / "games.sqlite3", log_format="json")
    try:
        rules = engine.get_rules("alhambra")
        players = users[:3]
        by_id = {p.id: p for p in players}
        rnd = random.Random(5)
        hands: set[str] = set()  # every hand line any player was shown
        post = await create_and_start(h, "alhambra", players)
        actions = 0
        while "Game over" not in post.content:
            await play_one_action(h, by_id[rnd.choice(movers(post, players))], post, rnd)
            actions += 1
            post = h.last_public()
            if actions % 10 == 1 and "Game over" not in post.content:
                row = await h.bot.storage.game_in_channel(CHANNEL_ID)
                state = rules.from_json(row.state)
                for p in players:
                    reply = (await h.click(p, post, "My hand")).message
                    for words in hand_words(state.seat(p.sid).hand):
                        assert words in reply.content
                        hands.add(words)
    finally:
        await h.close()
        logging.getLogger().removeHandler(handler)
        logging.getLogger().setLevel(level)
        logging.getLogger("aiosqlite").setLevel(logging.NOTSET)
    assert h.fake.violations == [] and h.unexpected_errors == []
    found = lines_of(stream)
    text = stream.getvalue()
    assert len(found) > actions  # DEBUG: at least a line per move
    assert hands and not [w for w in hands if w in text], "a hand reached the logs"
    assert "fake-token" not in text
    tokens = list(h.fake.interactions)
    assert tokens and not [t for t in tokens if t in text], "an interaction token reached the logs"
    moves = [o for o in found if o["msg"].startswith("move played")]
    assert len(moves) >= actions // 2
    for o in moves:
        assert o["guild_id"] == GUILD_ID and o["shard"] == 0 and o["interaction_id"] > 0 and o["game_id"] > 0
    posts = [o for o in found if o["msg"].endswith("post(s) made")]
    assert posts and all("game_id" in o for o in posts)


def test_discord_debug_bodies_and_tokens_are_redacted():
    """The formats are discord.py's own (read from its source); the bodies and the tokens never come out."""
    http_src, gw_src = inspect.getsource(discord.http), inspect.getsource(discord.gateway)
    sent = "'%s %s with %s has returned %s'"
    received = "'%s %s has received %s'"
    event = "'For Shard ID %s: WebSocket Event: %s'"
    assert sent in http_src and received in http_src and event in gw_src
    hand = "dirham (green) 7+3 = **10**"
    url = "https://discord.com/api/v10/webhooks/900000000000000001/aW50ZXJhY3Rpb246MTIzOnNlY3JldA/messages/@original"
    stream = io.StringIO()
    handler = logs.setup(logging.DEBUG, "json", secrets=("the-bot-token",), stream=stream)
    try:
        logging.getLogger("discord.http").debug(sent.strip("'"), "PATCH", url, {"content": hand}, 200)
        logging.getLogger("discord.http").debug(received.strip("'"), "POST", url, {"content": hand})
        logging.getLogger("discord.gateway").debug(
            event.strip("'"), 0, {"op": 0, "t": "INTERACTION_CREATE", "d": {"token": "aW50ZXJhY3Rpb24", "x": hand}}
        )
        logging.getLogger("bot").warning("login with the-bot-token failed for %s", url)
        try:
            raise RuntimeError("the-bot-token")
        except RuntimeError:
            logging.getLogger("bot").exception("boom")
    finally:
        logging.getLogger().removeHandler(handler)
        logging.getLogger("aiosqlite").setLevel(logging.NOTSET)
    text = stream.getvalue()
    found = [json.loads(line) for line in text.splitlines()]
    assert len(found) == 5
    assert hand not in text and "the-bot-token" not in text and "aW50ZXJhY3Rpb24" not in text
    assert found[0]["msg"].startswith("PATCH https://discord.com/api/v10/webhooks/900000000000000001/[token]/")
    assert found[0]["msg"].endswith("200 (body not logged)")
    assert found[2]["msg"] == "shard 0: event INTERACTION_CREATE (op 0)"
    assert "RuntimeError: [token]" in found[4]["exc"]
