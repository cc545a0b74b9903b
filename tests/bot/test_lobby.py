"""The game lifecycle through the harness: create (here or in a thread), join, leave, start, cancel, list, status,
log, rules, nudge; one game per channel; the lobby post edits itself."""

from tests.bot.driver import create_and_start, movers, play_one_action
from tests.bot.harness import CHANNEL_ID, OTHER_CHANNEL_ID


async def test_lobby_post_edits_itself_as_people_join_and_leave(harness, users):
    ana, bo, cyd = users[:3]
    r = await harness.run_command(ana, "game create", game="fake", options="target=30, no-claps")
    assert r.message.ephemeral and r.message.content == (
        "Your game of Race to the Target is set up: the lobby post is below. Press **Start** there once everyone "
        "has joined."
    )
    lobby = harness.last_public()
    assert lobby.public and "Race to the Target" in lobby.content and "target = 30" in lobby.content
    assert "claps = no" in lobby.content
    assert lobby.labels() == ["Join", "Leave", "Start", "Cancel", "Rules"]
    sent_before = len(harness.fake.sent)
    await harness.click(bo, lobby, "Join")
    await harness.click(cyd, lobby, "Join")
    assert "3. Cyd" in lobby.content and "(3 of 2–4)" in lobby.content
    await harness.click(cyd, lobby, "Leave")
    assert "Cyd" not in lobby.content
    assert len(harness.fake.sent) == sent_before  # edits only, no new messages
    r = await harness.run_command(cyd, "game join")
    assert r.message.ephemeral and "You're in" in r.message.content
    assert "3. Cyd" in lobby.content  # the /game join command edited the lobby post too


async def test_start_shows_the_seat_order_and_mentions_the_first_player(harness, users):
    ana, bo = users[:2]
    post = await create_and_start(harness, "fake", [ana, bo])
    assert "Seat order: **Ana** → **Bo**" in post.content
    assert movers(post, users) == [ana.id] and f"<@{ana.id}>" in post.content
    assert post.labels() == ["Play my turn", "My hand", "Free actions", "Board", "Rules"]  # the fake declares one
    assert post.files and post.files[0][0] == "board.png"


async def test_only_the_creator_starts_and_only_with_enough_players(harness, users):
    ana, bo = users[:2]
    await harness.run_command(ana, "game create", game="fake")
    lobby = harness.last_public()
    r = await harness.click(ana, lobby, "Start")
    assert r.message.ephemeral and "needs at least 2 players" in r.message.content
    await harness.click(bo, lobby, "Join")
    r = await harness.click(bo, lobby, "Start")
    assert r.message.ephemeral and "Only the creator (Ana)" in r.message.content
    row = await harness.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert row.status == "lobby"


async def test_one_game_per_channel_and_threads_for_more(harness, users):
    ana, bo = users[:2]
    await harness.run_command(ana, "game create", game="fake")
    r = await harness.run_command(bo, "game create", game="fake")
    assert r.message.ephemeral and "already has a game of Race to the Target" in r.message.content
    assert "thread" in r.message.content
    r = await harness.run_command(bo, "game create", game="fake", thread=True)
    assert r.message.ephemeral and "the lobby post is in <#" in r.message.content
    thread_id = int(harness.fake.threads[-1]["id"])
    lobby = harness.last_public(thread_id)
    assert "created by **Bo**" in lobby.content
    await harness.click(ana, lobby, "Join")
    await harness.click(bo, lobby, "Start")
    assert "begins" in harness.last_public(thread_id).content
    r = await harness.run_command(ana, "game list")
    assert r.message.content.count("Race to the Target") == 2


async def test_cancel_by_creator_or_manager_only(harness, users, admin):
    ana, bo = users[:2]
    await harness.run_command(ana, "game create", game="fake")
    lobby = harness.last_public()
    await harness.click(bo, lobby, "Join")
    r = await harness.click(bo, lobby, "Cancel")
    assert r.message.ephemeral and "Manage Channels" in r.message.content
    r = await harness.run_command(admin, "game cancel")
    assert r.message.public and "cancelled" in r.message.content
    assert "cancelled" in lobby.content and lobby.components == []
    r = await harness.run_command(ana, "game create", game="fake")  # the channel is free again
    assert "is set up" in r.message.content


async def test_status_log_list_rules_and_hand(harness, users):
    ana, bo, eve = users[0], users[1], users[4]
    post = await create_and_start(harness, "fake", [ana, bo], options="no-claps")
    import random

    rnd = random.Random(1)
    await play_one_action(harness, ana, post, rnd)
    post = harness.last_public()
    status = (await harness.run_command(eve, "game status")).message
    assert status.ephemeral and "move 2" in status.content and "**Scores:**" in status.content
    log = (await harness.run_command(eve, "game log")).message
    assert log.ephemeral and log.content.splitlines()[1].startswith("1. Ana ")
    mine = (await harness.run_command(bo, "game list", mine=True)).message
    assert "your turn" in mine.content
    theirs = (await harness.run_command(ana, "game list", mine=True)).message
    assert "your turn" not in theirs.content and "waiting for Bo" in theirs.content
    rules = (await harness.run_command(eve, "game rules")).message
    assert rules.ephemeral and "race ends at 60" in rules.content
    hand = (await harness.click(bo, post, "My hand")).message
    assert hand.ephemeral and hand.visible_to == bo.id and "Only you can see this" in hand.content
    board = (await harness.click(eve, post, "Board")).message
    assert board.ephemeral and board.files and "move 2" in board.content


async def test_nudge_pings_the_player_to_move_at_most_once_an_hour(harness, users):
    ana, bo = users[:2]
    await create_and_start(harness, "fake", [ana, bo])
    r = await harness.run_command(ana, "game nudge")
    assert r.message.ephemeral and "your own turn" in r.message.content
    r = await harness.run_command(bo, "game nudge")
    assert r.message.public and f"<@{ana.id}>" in r.message.content
    r = await harness.run_command(bo, "game nudge")
    assert r.message.ephemeral and "nudge again in" in r.message.content


async def test_idle_reminder_once_per_turn_from_stored_timestamps(harness, users):
    import time

    ana, bo = users[:2]
    await create_and_start(harness, "fake", [ana, bo])
    cog = harness.bot.get_cog("TurnsCog")
    assert await cog.send_reminders(now=time.time() + 3600) == 0  # not idle long enough
    assert await cog.send_reminders(now=time.time() + 25 * 3600) == 1
    await harness.settle()  # the herald posts it (a reminder is a notice, like a move)
    reminder = harness.last_public()
    assert "Reminder" in reminder.content and f"<@{ana.id}>" in reminder.content
    assert "Play my turn" in reminder.labels() and "(waiting for 1 d 1 h)" in reminder.content
    assert await cog.send_reminders(now=time.time() + 26 * 3600) == 0  # once per turn


async def test_commands_sync_within_discords_limits(harness):
    await harness.bot.tree.sync()
    names = {c["name"] for c in harness.fake.synced}
    assert names == {
        *("game", "move", "away", "prefs", "language", "ratings", "leaderboard", "stats", "tournament"),
        *("season", "seasons", "lfg", "lfg_leave", "lfg_setup"),  # clubs (issue #24)
    }
    game = next(c for c in harness.fake.synced if c["name"] == "game")
    assert {o["name"] for o in game["options"]} >= {
        "create",
        "join",
        "leave",
        "start",
        "cancel",
        "status",
        "board",
        "hand",
        "log",
        "list",
        "rules",
        "nudge",
        "play",
    }
    assert harness.bot.get_cog("GameCog") is not None and harness.bot.get_cog("TurnsCog") is not None


async def test_game_autocomplete_lists_the_games(harness, users):
    choices = await harness.autocomplete(users[0], "game create", "game", game="alh")
    assert choices[0] == {"name": "Alhambra", "value": "alhambra"}
    assert {"name": "The Gardens of the Alhambra", "value": "gardens"} in choices
    choices = await harness.autocomplete(users[0], "game create", "options", game="fake", options="tar")
    assert "target=30" in [c["value"] for c in choices]


async def test_other_channel_has_its_own_game(harness, users):
    ana, bo = users[:2]
    await create_and_start(harness, "fake", [ana, bo])
    await create_and_start(harness, "fake", [bo, ana], channel_id=OTHER_CHANNEL_ID)
    listing = (await harness.run_command(ana, "game list")).message.content
    assert f"<#{CHANNEL_ID}>" in listing and f"<#{OTHER_CHANNEL_ID}>" in listing


async def test_rematch_opens_a_lobby_with_the_same_players(harness, users):
    import random

    from tests.bot.driver import play_to_end

    ana, bo = users[:2]
    post = await create_and_start(harness, "fake", [ana, bo], options="target=30")
    final, _ = await play_to_end(harness, [ana, bo], post, random.Random(2))
    r = await harness.click(bo, final, "Rematch")
    assert r.message.ephemeral and "Rematch!" in r.message.content
    lobby = harness.last_public()
    assert "created by **Bo**" in lobby.content and "1. Bo\n2. Ana" in lobby.content and "target = 30" in lobby.content


async def test_lobby_that_cannot_be_posted_frees_the_channel(harness, users):
    harness.fake.fail_routes.add("POST /channels/{channel_id}/messages")
    r = await harness.run_command(users[0], "game create", game="fake")
    assert r.message.ephemeral and "I can't post in this channel" in r.message.content
    harness.fake.fail_routes.clear()
    assert await harness.bot.session.storage.game_in_channel(CHANNEL_ID) is None


async def test_thread_refused_outside_a_text_channel_replaces_the_thinking_message(harness, users):
    """An error after a "thinking…" deferral replaces the placeholder instead of leaving it spinning."""
    ana, bo = users[:2]
    await harness.run_command(bo, "game create", game="fake", thread=True)
    thread_id = int(harness.fake.threads[-1]["id"])
    r = await harness.run_command(ana, "game create", game="fake", thread=True, channel_id=thread_id)
    assert r.message.via == "deferred" and r.message.ephemeral and r.followups == []
    assert r.message.content == "I can only open a thread from a normal text channel. Create the game here instead."


async def test_reminders_survive_a_restart(tmp_path, fake_game, users):
    """The idle clock lives in the database: a bot started later still reminds, and only once."""
    import time

    from tests.bot.harness import Harness

    h = await Harness.start(tmp_path / "games.sqlite3")
    ana, bo = users[:2]
    await create_and_start(h, "fake", [ana, bo])
    h = await h.restart()
    cog = h.bot.get_cog("TurnsCog")
    assert await cog.send_reminders(now=time.time() + 30 * 3600) == 1
    assert f"<@{ana.id}>" in h.last_public().content
    h = await h.restart()
    assert await h.bot.get_cog("TurnsCog").send_reminders(now=time.time() + 31 * 3600) == 0
    await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


async def test_a_long_rules_summary_is_sent_whole(harness, users):
    """/game rules: a summary longer than one Discord message arrives in several ephemeral messages, uncut
    (Queen's Garden's is the longest)."""
    import engine

    text = str(engine.get_rules("queens_garden").summary(None))  # English: the harness user reads English
    r = await harness.run_command(users[0], "game rules", game="queens_garden")
    assert all(m.ephemeral for m in r.replies)
    shown = "\n".join(m.content for m in r.replies)
    assert text in shown and " …" not in shown.replace(text, "")
    if len(text) > 2000:
        assert len(r.replies) > 1
