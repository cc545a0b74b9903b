"""Looking for a game (cogs/lfg.py, issue #24): two servers in the shared queue match players across them by
the stated filters (game, table size, speed from the average turn time on record, rating band); Accept buttons
survive a restart and the table opens in a thread of the host server's queue channel, the other server's players
invited; an ignored match times out on the test's clock, the queue goes on, and a player who ignored two
matches leaves it."""

from __future__ import annotations

import re

from storage import QueueEntry, Rating, RatingRow, ResultRow
from storage.results import SeatRecord
from tests.bot.harness import CHANNEL_ID, GUILD_ID, SERVER_ADMIN, User

GUILD_B = GUILD_ID + (1 << 22)
CH_B = (930000000000000001, 930000000000000002)


def record(player: str, name: str, turn_seconds: float) -> SeatRecord:
    return SeatRecord(0, player, name, 10, 1, None, False, 10, 0, True, None, None, 10, turn_seconds, None, {})


async def on_record(storage, guild: int, user: User, *, rating: float, turn: float, game_id: int) -> None:
    """A finished game of The Gardens on record for `user` in `guild`: their rating and average turn time."""
    result = ResultRow(game_id, guild, "gardens", 1e9 + game_id, 1, record(user.sid, user.name, 10 * turn))
    row = RatingRow(guild, "gardens", user.sid, user.name, Rating(rating + 3.0, 1.0, 6), 1e9 + game_id)
    await storage.import_records([result], [row])


def match_posts(h, channel: int) -> list:
    return [m for m in h.public(channel) if m.content.startswith("🎲 A table of")]


async def test_two_servers_in_the_shared_queue_match_by_filters_and_ignored_matches_time_out(bots, users):
    h = bots
    ana, bo, cyd, dee, eve = users
    fay, gus = User(100000000000000011, "Fay"), User(100000000000000012, "Gus")
    admin = User(100000000000000098, "Ada", permissions=SERVER_ADMIN)
    await h.add_guild(GUILD_B, CH_B)
    storage = h.bot.session.storage

    off = await h.run_command(ana, "lfg", game="gardens")
    assert "Looking for a game is off on this server" in off.ephemeral_text
    refused = await h.run_command(ana, "lfg_setup", shared=True)
    assert "Only server admins" in refused.ephemeral_text
    on_a = await h.run_command(admin, "lfg_setup", shared=True)
    assert f"Matched tables open in threads of <#{CHANNEL_ID}>" in on_a.ephemeral_text
    await h.run_command(admin, "lfg_setup", channel_id=CH_B[0], shared=True)
    assert (await storage.guild(GUILD_B)).lfg_channel == CH_B[0] and (await storage.guild(GUILD_ID)).lfg_shared

    # on record: Ana (A) fast and new to ratings (0); on B: Bo slow, Cyd fast rated 20, Dee fast rated 3
    await on_record(storage, GUILD_ID, ana, rating=0.0, turn=600, game_id=9001)
    await on_record(storage, GUILD_B, bo, rating=1.0, turn=86400, game_id=9002)
    await on_record(storage, GUILD_B, cyd, rating=20.0, turn=300, game_id=9003)
    await on_record(storage, GUILD_B, dee, rating=3.0, turn=900, game_id=9004)

    # B's players wait first: Cyd only for opponents within ±5 of his 20, Bo for slow ones, Dee for a table of two,
    # Eve (A) for another game
    for user, values in ((cyd, {"rating": 5}), (bo, {"speed": "slow"}), (dee, {"players": 2})):
        waiting = await h.run_command(user, "lfg", channel_id=CH_B[0], game="gardens", **values)
        assert "You are in the queue for The Gardens of the Alhambra" in waiting.ephemeral_text, waiting.ephemeral_text
    await h.run_command(eve, "lfg", game="alhambra")
    assert match_posts(h, CH_B[0]) == []

    # Ana (A) wants fast opponents within ±10: not Cyd (rating), not Bo (slow), not Eve (game): Dee, from server B
    matched = await h.run_command(ana, "lfg", game="gardens", speed="fast", rating=10)
    assert matched.ephemeral_text.startswith("🎲 Matched for The Gardens of the Alhambra!"), matched.ephemeral_text
    (post_a,) = match_posts(h, CHANNEL_ID)
    (post_b,) = match_posts(h, CH_B[0])
    assert f"<@{ana.id}>" in post_a.content and "With 1 player of another server." in post_a.content
    assert f"<@{dee.id}>" in post_b.content and f"<@{ana.id}>" not in post_b.content
    assert post_a.labels() == ["Accept", "Decline"]
    left = {e.player for e in await storage.queue_waiting("gardens", GUILD_B, shared=True)}
    assert left == {bo.sid, cyd.sid}

    outsider = await h.click(bo, post_b, "Accept")
    assert "This match is for the players it pings" in outsider.ephemeral_text
    first = await h.click(dee, post_b, "Accept")
    assert first.ephemeral_text == "✅ Accepted. Waiting for Ana."
    h = await h.restart()  # the buttons need nothing the old process held
    storage = h.bot.session.storage
    last = await h.click(ana, post_a, "Accept")
    thread = int(re.search(r"<#(\d+)>", last.ephemeral_text)[1])
    assert h.fake.threads[-1]["parent_id"] == str(CHANNEL_ID) and int(h.fake.threads[-1]["id"]) == thread
    row = await storage.game_in_channel(thread)
    assert row.guild_id == GUILD_ID and row.status == "active" and [s.name for s in row.seats] == ["Dee", "Ana"]
    in_thread = h.public(thread)
    assert in_thread[0].content == f"🎲 Matched by the queue: <@{dee.id}>, <@{ana.id}>. Good game!"
    assert "begins" in in_thread[1].content
    (channel, code, _body) = h.fake.invites[-1]
    assert channel == CHANNEL_ID
    told_b = h.last_public(CH_B[0]).content
    assert f"join it with https://discord.gg/{code}, then play in <#{thread}>" in told_b, told_b
    assert h.last_public(CHANNEL_ID).content == f"✅ <@{ana.id}>: everyone accepted, your table is open in <#{thread}>."
    again = await h.click(ana, post_a, "Accept")
    assert "This match is over" in again.ephemeral_text

    # Fay (A), with no turns on record, suits Bo's "slow" (Cyd's band keeps him out); Fay accepts, Bo ignores it
    await h.run_command(fay, "lfg", game="gardens")
    post = match_posts(h, CHANNEL_ID)[-1]
    assert f"<@{fay.id}>" in post.content
    await h.click(fay, post, "Accept")
    cog = h.bot.get_cog("LfgCog")
    match = (await storage.matches_due(1e12))[0]
    assert await cog.pass_matches(now=match.expires_at - 1) == 0  # not yet
    assert await cog.pass_matches(now=match.expires_at + 1) == 1
    await h.settle()
    timed_out = [m.content for m in h.public(CH_B[0]) if m.content.startswith("⌛")]
    assert timed_out == [
        "⌛ The table of The Gardens of the Alhambra timed out: **Bo** did not accept.\nBack in the queue: **Bo**."
    ]
    # the queue goes on: Fay and Bo wait again and are matched again at once; Bo ignores that one too and leaves
    second = (await storage.matches_due(1e12))[0]
    assert second.id != match.id and {m["player"] for m in second.data["members"]} == {fay.sid, bo.sid}
    assert [m["ignored"] for m in second.data["members"] if m["player"] == bo.sid] == [1]
    await h.click(fay, match_posts(h, CHANNEL_ID)[-1], "Accept")
    assert await cog.pass_matches(now=second.expires_at + 1) == 1
    await h.settle()
    gone = h.last_public(CH_B[0]).content
    assert f"<@{bo.id}> left the queue after 2 ignored matches." in gone, gone
    waiting = {e.player for e in await storage.queue_waiting("gardens", GUILD_ID, shared=True)}
    assert waiting == {cyd.sid, fay.sid}

    # Gus (A) comes along: he and Fay get their table
    await h.run_command(gus, "lfg", game="gardens")
    post = match_posts(h, CHANNEL_ID)[-1]
    assert f"<@{fay.id}>" in post.content and f"<@{gus.id}>" in post.content
    await h.click(gus, post, "Accept")
    done = await h.click(fay, post, "Accept")
    assert "the table is in <#" in done.ephemeral_text
    assert (await h.run_command(cyd, "lfg_leave", channel_id=CH_B[0])).ephemeral_text == "You left the queue."
    await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


def test_a_group_is_the_largest_table_that_suitable_players_fill_the_longest_waiting_first():
    """`find_group` on its own: every filter holds both ways, a table size asked for is kept, the longest
    waiting come first, and one player waiting in two servers' queues takes one seat."""
    from cogs.lfg import find_group, pace_of

    def e(player, since, guild=GUILD_ID, **kw):
        return QueueEntry(guild, player, "gardens", player, since, True, **kw)

    assert (pace_of(0, 0.0), pace_of(4, 3600.0), pace_of(2, 7200.0), pace_of(1, 86400.0)) == (
        None,
        "fast",
        "normal",
        "slow",
    )
    waiting = [
        e("a", 1, rating=20.0, band=5.0),  # suits only those rated 15 to 25
        e("b", 2, pace="slow"),
        e("c", 3, players=2),
        e("b", 4, guild=GUILD_B),  # b again, from another server
        e("d", 5),
        e("e", 6, rating=18.0),
    ]
    seed = e("n", 7, speed="slow")
    group = find_group([*waiting, seed], seed, [2, 3, 4])
    assert [g.player for g in group] == ["b", "d", "e", "n"]  # a: rating; c: wants two; b once; e: no pace yet
    assert [g.player for g in find_group(waiting, e("m", 8, players=2), [2, 3, 4])] == ["b", "m"]
    assert find_group(waiting, e("x", 9, players=5), [2, 3, 4]) is None
    assert [g.player for g in find_group(waiting, e("y", 9, rating=19.0, band=1.0), [2, 3])] == ["a", "e", "y"]
