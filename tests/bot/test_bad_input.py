"""Bad input gets a clear ephemeral message and changes nothing: one test each."""

import random

import pytest

from engine import IllegalAction
from tests.bot import fakegame
from tests.bot.driver import create_and_start, play_to_end
from tests.bot.harness import CHANNEL_ID, OTHER_CHANNEL_ID


async def snapshot(h):
    row = await h.bot.session.storage.last_game_in_channel(CHANNEL_ID)
    return (row.version, row.status, row.state, len(h.public())) if row else (None, None, None, len(h.public()))


async def test_wrong_player_is_told_they_are_not_playing(harness, users):
    ana, bo, eve = users[0], users[1], users[4]
    post = await create_and_start(harness, "fake", [ana, bo])
    before = await snapshot(harness)
    r = await harness.click(eve, post, "Play my turn")
    assert r.message.ephemeral and r.message.visible_to == eve.id
    assert r.message.content == "You are not playing in this game; you can watch it with the Board button."
    r = await harness.run_command(eve, "move", action="adds 5")
    assert "not playing" in r.message.content
    assert await snapshot(harness) == before


async def test_not_your_turn_names_who_we_wait_for(harness, users):
    ana, bo = users[:2]
    post = await create_and_start(harness, "fake", [ana, bo])
    before = await snapshot(harness)
    r = await harness.click(bo, post, "Play my turn")
    assert r.message.ephemeral and r.message.content == "It's not your turn: waiting for Ana."
    assert await snapshot(harness) == before


async def test_finished_game_takes_no_more_moves(harness, users):
    ana, bo = users[:2]
    first = await create_and_start(harness, "fake", [ana, bo], options="target=30")
    final, _ = await play_to_end(harness, [ana, bo], first, random.Random(3))
    assert final.labels() == ["Results", "Rematch", "Replay", "Review"]
    before = await snapshot(harness)
    r = await harness.click(ana, first, "Play my turn")
    assert r.message.ephemeral and r.message.content == "This game is over: no more moves."
    r = await harness.run_command(ana, "move", action="adds 3")
    assert r.message.ephemeral and r.message.content == (
        "There is no game running in this channel: the last one, Race to the Target (#1), is over: `/game status` "
        "shows the results. Start a new one with `/game create`."
    )
    r = await harness.run_command(ana, "game status")  # still answers about the finished game
    assert "Game over" in r.message.content
    assert await snapshot(harness) == before


async def test_malformed_option_lists_what_is_allowed(harness, users):
    r = await harness.run_command(users[0], "game create", game="fake", options="target=7")
    assert r.message.ephemeral and r.message.content == "Option `target` must be one of 30, 60, 100, not `7`."
    r = await harness.run_command(users[0], "game create", game="fake", options="colour=red")
    assert r.message.content == "Race to the Target has no option `colour`. Options: target, claps."
    r = await harness.run_command(users[0], "game create", game="fake", options="claps=maybe")
    assert r.message.content == "Option `claps` is yes or no, not `maybe`."
    assert await harness.bot.session.storage.game_in_channel(CHANNEL_ID) is None


async def test_unknown_game_lists_the_games(harness, users):
    r = await harness.run_command(users[0], "game create", game="chess")
    assert r.message.ephemeral and r.message.content.startswith("I don't know the game `chess`. Choose one of:")
    assert "`alhambra`" in r.message.content
    assert await harness.bot.session.storage.game_in_channel(CHANNEL_ID) is None


async def test_channel_without_game_says_how_to_start_one(harness, users):
    for command in ("game status", "game join", "game start", "game board", "game hand", "game nudge"):
        r = await harness.run_command(users[0], command, channel_id=OTHER_CHANNEL_ID)
        assert r.message.ephemeral, command
        assert r.message.content == "There is no game in this channel. Start one with `/game create`.", command


async def test_illegal_action_gets_the_engines_message_and_changes_nothing(harness, users):
    """Buttons only offer legal moves, so an illegal one can only come from elsewhere (an AI seat, a bug):
    the session refuses it with the engine's own words and stores nothing."""
    ana, bo = users[:2]
    await create_and_start(harness, "fake", [ana, bo])
    row = await harness.bot.session.storage.game_in_channel(CHANNEL_ID)
    before = await snapshot(harness)
    with pytest.raises(IllegalAction, match="That card is not in your hand."):
        await harness.bot.session.act(row.id, ana.sid, fakegame.Play(card=999, boost=0))
    with pytest.raises(IllegalAction, match="You can only clap right after a multiple of 7 is crossed."):
        await harness.bot.session.act(row.id, ana.sid, fakegame.Clap())
    assert await snapshot(harness) == before


async def test_typed_move_that_is_not_a_legal_move(harness, users):
    ana, bo = users[:2]
    await create_and_start(harness, "fake", [ana, bo])
    before = await snapshot(harness)
    r = await harness.run_command(ana, "move", action="adds 99")
    assert r.message.ephemeral and r.message.content.startswith("I don't recognise the move `adds 99`.")
    assert await snapshot(harness) == before
    r = await harness.run_command(ana, "move", action="adds 12")  # the describe() text itself works
    assert r.message.ephemeral and r.message.content.startswith("✅ Done: **Ana** adds 12.")


async def test_unexpected_error_apologises_logs_and_keeps_the_game(harness, users, monkeypatch):
    ana, bo = users[:2]
    post = await create_and_start(harness, "fake", [ana, bo])
    before = await snapshot(harness)

    real_step = fakegame.FakeRules.step

    def broken_step(self, s, player, a):
        if a == fakegame.Add(12):
            raise RuntimeError("boom")
        return real_step(self, s, player, a)

    monkeypatch.setattr(fakegame.FakeRules, "step", broken_step)  # the test game breaks, not our code
    r = await harness.run_command(ana, "move", action="adds 12")
    assert r.message.ephemeral and r.message.content.startswith("Sorry, something went wrong on my side.")
    assert [rec.exc_info[1].args for rec in harness.errors.records] == [("boom",)]
    harness.errors.records.clear()
    assert await snapshot(harness) == before
    r = await harness.click(ana, post, "Play my turn")  # the bot keeps running and the game goes on
    assert r.message.ephemeral and "Your move" in r.message.content
    r = await harness.run_command(ana, "move", action="adds 13")
    assert r.message.content.startswith("✅ Done: **Ana** adds 13.")
    assert harness.last_public().content.startswith("**Ana** adds 13.")
