"""A human substitute for a vacant seat (cogs/_substitutes.py, issue #24): Cyd leaves a game of The Gardens for
good; the table's post offers Take this seat; Eve (not playing) asks, Ana agrees, Bo's "no" ends a first request,
then both agree to a second one (its buttons work after a restart); Eve holds the hand Cyd's seat held, plays it to
the end, and is marked as a substitute in the results, not rated for that game."""

from __future__ import annotations

import random

from tests.bot.driver import movers, play_one_action
from tests.bot.harness import CHANNEL_ID, GUILD_ID
from tests.bot.test_tempo import play_until, start, table_post, turn_of


def hand_text(ia) -> str:
    return ia.message.content.split("\n", 1)[1]


async def test_a_substitute_takes_a_vacant_seat_after_consent_and_finishes_with_its_hand(bots, users):
    h, (ana, bo, cyd, dee, eve) = bots, users
    rnd = random.Random(11)
    storage = h.bot.session.storage
    post = await start(h, [ana, bo, cyd])
    post = await play_until(h, [ana, bo, cyd], post, rnd, turn_of(ana))  # Cyd leaves while Ana is to move
    assert "Take this seat" not in post.labels()
    cyds_hand = hand_text(await h.click(cyd, post, "My hand"))
    assert cyds_hand.startswith("Your hand: ")
    ask = (await h.run_command(cyd, "game leave")).message
    await h.click(cyd, ask, "Leave for good")
    await h.settle()
    left = h.last_public()
    assert left.content.startswith("🚪 **Cyd** left the game") and "Take this seat" in left.labels()

    # a player of the game cannot take it; Eve asks, Bo refuses: nothing changes
    mine = await h.click(ana, left, "Take this seat")
    assert mine.ephemeral_text == "You are playing in this game already."
    asked = await h.click(eve, left, "Take this seat")
    assert asked.ephemeral_text == "Asked: the seat is yours once every player agrees."
    question = h.last_public()
    assert question.content == (
        f'🪑 **Eve** offers to take over **Cyd**\'s seat. <@{ana.id}>, <@{bo.id}>: do you agree? The first "no" ends it.'
    ), question.content
    again = await h.click(dee, left, "Take this seat")
    assert "already waiting for the table's answer" in again.ephemeral_text
    outsider = await h.click(dee, question, "Agree")
    assert "waits for the players' answers, not yours" in outsider.ephemeral_text
    await h.click(bo, question, "Refuse")
    await h.settle()
    assert h.last_public().content == "🪑 **Bo** refused: **Eve** does not take the seat."
    row = await storage.game_in_channel(CHANNEL_ID)
    assert cyd.sid in row.player_ids and "seat_ask" not in row.table

    # the second request: Ana agrees, the bot restarts, Bo agrees: the seat is Eve's, with Cyd's hand
    await h.click(eve, h.last_public(), "Take this seat")
    question = h.last_public()
    noted = await h.click(ana, question, "Agree")
    assert noted.ephemeral_text == "Noted. Still waiting for Bo."
    h = await h.restart()
    storage = h.bot.session.storage
    before = await storage.game_in_channel(CHANNEL_ID)
    await h.click(bo, question, "Agree")
    await h.settle()
    taken = h.last_public()
    assert taken.content.startswith(
        f"🪑 <@{eve.id}> takes over **Cyd**'s seat as a substitute (not rated for this game)"
    ), taken.content
    assert taken.files and "Take this seat" not in taken.labels()
    row = await storage.game_in_channel(CHANNEL_ID)
    assert [s.name for s in row.seats] == ["Ana", "Bo", "Eve"] and cyd.sid not in row.player_ids
    assert row.table["substitutes"] == {eve.sid: cyd.sid} and "left" not in row.table and "sub" not in row.table
    assert row.version == before.version  # no move was made: the seat changed hands
    assert hand_text(await h.click(eve, taken, "My hand")) == cyds_hand  # the hand the seat held
    refused = await h.click(cyd, taken, "My hand")
    assert "You are not seated in this game" in refused.ephemeral_text
    assert [g.id for g in await storage.games_of(eve.sid)] == [row.id] and await storage.games_of(cyd.sid) == []

    # Eve plays the seat to the end with the others; nobody stands in for it any more
    players = [ana, bo, eve]
    by_id = {u.id: u for u in players}
    post = table_post(h)
    for _i in range(400):
        if "Game over" in post.content:
            break
        await play_one_action(h, by_id[movers(post, players)[0]], post, rnd)
        await h.settle()
        post = table_post(h)
    assert "Game over" in post.content, post.content
    assert "\nNot rated (substitutes for this game): **Eve**" in post.content, post.content
    assert "**Eve** " not in post.content.split("📈")[1].splitlines()[0]  # not in the ratings line
    row = await storage.last_game_in_channel(CHANNEL_ID)
    moves = await storage.moves(row.id)
    assert any(m.player == eve.sid and not m.standin for m in moves)
    results = {r.record.player: r.record for r in await storage.game_results(row.id)}
    assert set(results) == {ana.sid, bo.sid, eve.sid}
    assert results[eve.sid].substitute and not results[eve.sid].rated and results[eve.sid].after is None
    assert results[ana.sid].rated and results[bo.sid].rated and not results[ana.sid].substitute
    board = {r.player for r in await storage.leaderboard(GUILD_ID, "gardens")}
    assert board == {ana.sid, bo.sid}
    await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []
