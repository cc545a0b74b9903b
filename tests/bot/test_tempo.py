"""Keep every game moving: deadlines and the table's decision, AI stand-ins and "I'm back", away mode, the
"since your last turn" digest. The clock is the test's: the passes are called with the time to pretend."""

from __future__ import annotations

import random
import re

from tests.bot.driver import clock, movers, play_one_action
from tests.bot.harness import CHANNEL_ID, OTHER_CHANNEL_ID

MENTION = re.compile(r"<@(\d+)>")


async def start(h, players, channel=CHANNEL_ID, **values):
    await h.run_command(players[0], "game create", channel_id=channel, game="gardens", **values)
    lobby = h.last_public(channel)
    for p in players[1:]:
        await h.click(p, lobby, "Join")
    await h.click(players[0], lobby, "Start")
    return h.last_public(channel)


async def play_until(h, players, post, rnd, stop, channel=CHANNEL_ID, limit=60):
    """Humans play (random legal moves) until `stop(post)`; returns the last post."""
    by_id = {p.id: p for p in players}
    for _ in range(limit):
        if stop(post) or "Game over" in post.content:
            return post
        await play_one_action(h, by_id[movers(post, players)[0]], post, rnd)
        await h.settle()
        post = table_post(h, channel)
    raise AssertionError(post.content)


TURN = re.compile(r"^(Your turn, |To move: |Still to move: |\*\*[^*]+\*\* (continues|moves next)\.)")


def table_post(h, channel=CHANNEL_ID):
    """The newest post that says who is to move (or ends the game): notes of the clock are skipped."""
    return next(
        m for m in reversed(h.public(channel)) if "Game over" in m.content or TURN.match(m.content.splitlines()[-1])
    )


def turn_of(player):
    return lambda post: post.content.splitlines()[-1] == f"Your turn, <@{player.id}>."


async def test_a_late_player_is_played_by_the_ai_until_back_then_finishes_the_game(bots, users):
    """Deadline 12 h: Cyd stops answering; he is warned, then the deadline passes and the table is asked; Ana
    picks "until Cyd is back"; the AI plays his turns ("AI for Cyd", never pinged); he clicks I'm back and
    plays on to the end."""
    h, (ana, bo, cyd) = bots, users[:3]
    rnd = random.Random(3)
    post = await start(h, [ana, bo, cyd], deadline="12h")
    post = await play_until(h, [ana, bo, cyd], post, rnd, turn_of(cyd))
    assert "⏳ Deadline <t:" in post.content
    await clock(h)  # the warning, shortly before the deadline
    assert h.last_public().content.startswith(f"⏳ <@{cyd.id}>, your move")
    await clock(h)  # the deadline: the table decides
    ask = h.last_public()
    assert "deadline has passed" in ask.content and f"<@{ana.id}>" in ask.content and f"<@{cyd.id}>" not in ask.content
    r = await h.click(cyd, ask, "…until Cyd is back")  # not the late player himself
    assert "just play your move" in r.message.content
    clicks = await h.click_many([(ana, ask, "…until Cyd is back"), (bo, ask, "Wait longer")])  # at once
    answers = [ia.message.content if ia.message else "" for ia in clicks]
    assert sum("decided" in a and "first" in a for a in answers) == 1 or "Wait longer" not in ask.content
    await h.settle()
    row = await h.bot.storage.game_in_channel(CHANNEL_ID)
    assert row.table.get("sub") == {cyd.sid: "back"}  # Ana's answer won: Bo's came second
    assert h.last_public().content.startswith("**AI for Cyd**")
    first = len(h.public())
    by_id = {u.id: u for u in (ana, bo, cyd)}
    for _ in range(9):  # Ana and Bo play; the AI answers for Cyd each time
        post = table_post(h)
        if "Game over" in post.content:
            break
        mover = movers(post, [ana, bo, cyd])[0]
        assert mover != cyd.id, post.content
        await play_one_action(h, by_id[mover], post, rnd)
        await h.settle()
    assert sum(m.content.startswith("**AI for Cyd**") for m in h.public()[first:]) >= 2
    post = table_post(h)
    assert not any(f"<@{cyd.id}>" in m.content for m in h.public()[first:])
    assert "I'm back" in post.labels()
    r = await h.click(cyd, post, "I'm back")
    assert "Welcome back" in r.message.content
    await h.settle()
    post = table_post(h)
    post = await play_until(h, [ana, bo, cyd], post, rnd, lambda p: False, limit=200)
    assert "Game over" in post.content
    row = await h.bot.storage.last_game_in_channel(CHANNEL_ID)
    players = {m.player for m in await h.bot.storage.moves(row.id)}
    assert cyd.sid in players


async def test_when_nobody_decides_the_creators_default_applies(bots, users):
    """on_timeout ai (the default): one more deadline after the table was asked, the AI plays that turn only;
    with on_timeout wait, the table waits one more deadline instead."""
    h, (ana, bo) = bots, users[:2]
    rnd = random.Random(5)
    post = await start(h, [ana, bo], deadline="24h")
    post = await play_until(h, [ana, bo], post, rnd, turn_of(bo))
    await clock(h, 3)  # warning, deadline (the table is asked), nobody answers: the default
    await h.settle()
    texts = [m.content for m in h.public()[-3:]]
    assert any("Nobody decided: the AI plays this turn for **Bo**" in t for t in texts), texts
    assert h.last_public().content.startswith("**AI for Bo**")
    row = await h.bot.storage.game_in_channel(CHANNEL_ID)
    assert "sub" not in row.table  # this turn only
    await h.run_command(ana, "game settings", on_timeout="wait")
    post = await play_until(h, [ana, bo], table_post(h), rnd, turn_of(bo))
    await clock(h, 3)
    assert h.last_public().content == f"⏳ Waiting one more deadline for <@{bo.id}>."


async def test_away_with_the_ai_plays_in_two_games_at_once_and_pings_nobody(bots, users):
    h, (ana, bo) = bots, users[:2]
    rnd = random.Random(9)
    r = await h.run_command(bo, "away", until="3d", ai=True)
    assert "away until" in r.message.content and "The AI plays your turns" in r.message.content
    for channel in (CHANNEL_ID, OTHER_CHANNEL_ID):
        post = await start(h, [ana, bo], channel=channel)
        for _ in range(4):  # Ana plays; the AI answers for Bo at once
            await play_one_action(h, ana, post, rnd)
            await h.settle()
            post = h.last_public(channel)
            assert post.content.startswith("**AI for Bo**"), post.content
    assert not any(f"<@{bo.id}>" in m.content for m in h.public())
    status = await h.run_command(ana, "game status")
    assert "**Bo** is away until" in status.message.content
    r = await h.run_command(bo, "away", until="off")
    assert "Welcome back" in r.message.content


async def test_the_digest_lists_exactly_the_public_moves_since_the_pinged_players_last_turn(bots, users):
    """Over a whole 3-player game: each ping carries the moves made since that player's previous move, except
    the post's own (told above it), at most five of them (then "…and N more")."""
    h, players = bots, users[:3]
    rnd = random.Random(11)
    post = await start(h, players)
    post = await play_until(h, players, post, rnd, lambda p: False, limit=300)
    assert "Game over" in post.content
    row = await h.bot.storage.last_game_in_channel(CHANNEL_ID)
    moves = await h.bot.storage.moves(row.id)
    rules = h.bot.session.rules("gardens")
    names = {p.sid: p.name for p in players}
    said = [f"• **{names[m.player]}** {rules.describe(rules.action_from_json(m.action))}" for m in moves]
    move_posts = [m for m in h.public() if m.content.startswith("**")]
    assert len(move_posts) == len(moves)  # one post per move here: post k tells move k
    checked = 0
    for k, post in enumerate(move_posts, start=1):
        lines = post.content.splitlines()
        head = next((n for n, x in enumerate(lines) if x.startswith("📜 Since your last turn")), None)
        pinged = MENTION.findall(lines[-1])
        if not pinged:
            assert head is None
            continue
        who = pinged[0]
        before = [m.move_number for m in moves[: k - 1] if m.player == who]
        want = said[(before[-1] if before else 0) : k - 1]
        if head is None:  # nothing happened between: no digest
            assert want == [], (k, want)
            continue
        if len(want) > 5:
            want = [*want[:4], f"• …and {len(want) - 4} more (`/game log since:me`)"]
        got = [x for x in lines[head + 1 :] if x.startswith("• ")]
        assert got == want, (k, got, want)
        checked += 1
    assert checked >= 10
