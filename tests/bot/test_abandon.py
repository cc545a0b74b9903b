"""Leaving a running game for good (cogs/_leaving.py): `/game leave` asks first (its buttons survive a
restart), the table is told in public, the AI plays the seat to the end, the player who left cannot come back, is
never pinged again, and is ranked last (and rated) when the game ends; the last human leaving cancels the game."""

from __future__ import annotations

import random

from records.figures import seat_result
from records.ratings import rate_places
from tests.bot.driver import movers, play_one_action
from tests.bot.harness import CHANNEL_ID
from tests.bot.test_tempo import play_until, start, table_post, turn_of


async def test_a_player_leaves_mid_game_the_ai_plays_their_seat_and_they_are_ranked_last(bots, users):
    """Ana, Bo and Cyd play The Gardens with stand-ins switched off. Cyd asks to leave, keeps his seat once, then
    leaves for good (the confirmation's buttons work after a restart): a public post says so, the AI plays his
    seat to the end without ever pinging him, his panel, "I'm back", undo and a second leave are refused, and the
    results place him last, rated like everyone else."""
    h, (ana, bo, cyd) = bots, users[:3]
    rnd = random.Random(11)
    post = await start(h, [ana, bo, cyd])
    await h.run_command(ana, "game settings", standins=False)  # leaving works all the same
    post = await play_until(h, [ana, bo, cyd], post, rnd, turn_of(cyd))
    post = await play_until(h, [ana, bo, cyd], table_post(h), rnd, turn_of(ana))
    storage = h.bot.session.storage
    before = await storage.game_in_channel(CHANNEL_ID)

    ask = (await h.run_command(cyd, "game leave")).message
    assert ask.ephemeral and ask.visible_to == cyd.id
    game = f"#{before.id}"
    assert ask.content == (
        f"Leave game {game} for good? The AI plays your seat to the end; you will be ranked last."
    ), ask.content
    assert ask.labels() == ["Leave for good", "Keep my seat"]
    kept = await h.click(cyd, ask, "Keep my seat")
    assert kept.message.content == "You keep your seat: nothing was changed." and kept.message.labels() == []
    assert (await storage.game_in_channel(CHANNEL_ID)).table == before.table

    ask = (await h.run_command(cyd, "game leave")).message
    h = await h.restart()  # the confirmation needs nothing the old process held
    storage = h.bot.session.storage
    public_before = len(h.public())
    done = await h.click(cyd, ask, "Leave for good")
    assert done.message.content == "You left the game." and done.message.labels() == []
    await h.settle()
    notice = h.public()[public_before]
    assert notice.content == "🚪 **Cyd** left the game; the AI plays their seat to the end.", notice.content
    assert "I'm back" not in notice.labels() and "Play my turn" in notice.labels()
    row = await storage.game_in_channel(CHANNEL_ID)
    assert row.table["left"] == [cyd.sid] and row.table["sub"] == {cyd.sid: "left"}
    assert row.table.get("standins") is False
    left_at = row.version

    again = await h.run_command(cyd, "game leave")
    assert again.ephemeral_text == "You left this game: the AI plays your seat to the end."
    status = await h.run_command(ana, "game status")
    assert "🚪 **Cyd** left the game; the AI plays their seat to the end." in status.ephemeral_text

    # Ana and Bo play on; each time it is Cyd's turn the AI plays it, and nobody pings him any more
    refused = False
    first = len(h.public())
    by_id = {u.id: u for u in (ana, bo, cyd)}
    for _i in range(300):
        post = table_post(h)
        if "Game over" in post.content:
            break
        if not refused:  # his panel, "I'm back" and undo, from a live post
            panel = await h.click(cyd, post, "Play my turn")
            assert panel.ephemeral_text == "You left this game: the AI plays your seat to the end."
            assert "I'm back" not in post.labels()
            undo = await h.run_command(cyd, "game undo")
            assert undo.ephemeral_text == "You left this game: the AI plays your seat to the end."
            refused = True
        mover = movers(post, [ana, bo, cyd])[0]
        assert mover != cyd.id, post.content
        await play_one_action(h, by_id[mover], post, rnd)
        await h.settle()
    assert "Game over" in post.content, post.content
    assert refused
    later = h.public()[first:]
    assert any(m.content.startswith("**AI for Cyd**") for m in later)
    assert not any(f"<@{cyd.id}>" in m.content for m in later)

    row = await storage.last_game_in_channel(CHANNEL_ID)
    moves = await storage.moves(row.id)
    assert all(m.standin for m in moves if m.player == cyd.sid and m.move_number > left_at)
    results = {r.record.player: r.record for r in await storage.game_results(row.id)}
    assert results[cyd.sid].abandoned and results[cyd.sid].rated and results[cyd.sid].place == 3
    assert {results[ana.sid].place, results[bo.sid].place} <= {1, 2}
    assert not results[ana.sid].abandoned and results[ana.sid].rated and results[bo.sid].rated
    seats = [seat_result(r) for r in sorted(results.values(), key=lambda r: r.seat)]
    want = rate_places(seats, [r.place for r in sorted(results.values(), key=lambda r: r.seat)], {})
    assert {p: r.after for p, r in results.items()} == want
    assert "📈 Ratings: " in post.content and "**Cyd** " in post.content.split("📈")[1]
    await h.close()  # the bot after the restart (the fixture closes the first one)
    assert h.fake.violations == [] and h.unexpected_errors == []


async def test_the_last_human_leaving_cancels_the_game(bots, users):
    """Ana and Bo with one AI player: Bo leaves (the AI plays his seat), then Ana, the last human who plays for
    herself, is told the game will be cancelled; it is, in public, and nothing is rated."""
    h, (ana, bo) = bots, users[:2]
    rnd = random.Random(4)
    post = await start(h, [ana, bo], ai_players=1)
    post = await play_until(h, [ana, bo], post, rnd, turn_of(bo))
    ask = (await h.run_command(bo, "game leave")).message
    assert "The AI plays your seat to the end" in ask.content
    await h.click(bo, ask, "Leave for good")
    await h.settle()  # it was his turn: the AI plays it at once
    assert any(m.content.startswith("**AI for Bo**") for m in h.public()[-3:])
    storage = h.bot.session.storage
    row = await storage.game_in_channel(CHANNEL_ID)
    assert row.status == "active" and row.table["left"] == [bo.sid]

    ask = (await h.run_command(ana, "game leave")).message
    assert ask.content == f"Leave game #{row.id} for good? Nobody else plays it any more, so it will be cancelled."
    done = await h.click(ana, ask, "Leave for good")
    assert done.message.content == "You left the game."
    await h.settle()
    assert h.last_public().content == "🚪 **Ana** left the game: nobody is left to play it, so it is cancelled."
    row = await storage.last_game_in_channel(CHANNEL_ID)
    assert row.status == "cancelled"
    assert await storage.game_results(row.id) == []
    gone = await h.run_command(ana, "game leave")
    assert "was cancelled" in gone.ephemeral_text, gone.ephemeral_text
