"""Several bot processes over one PostgreSQL, each running its own shards: every game is played, reminded and
announced by the process that owns its guild, exactly once, also while two processes overlap (a redeploy), and
a game goes on when the processes are restarted in turn."""

from __future__ import annotations

import asyncio
import random

import asyncpg

from tests.bot.driver import play_one_action
from tests.bot.harness import FakeDiscord, Harness

G0, G1 = 8 << 22, 9 << 22  # guilds on shards 0 and 1 of 2 ((guild_id >> 22) % 2)
CH0 = (920000000000000101, 920000000000000102)
CH1 = (920000000000000201, 920000000000000202)


async def start(fake, tmp_path, url, guild, channels, shard):
    return await Harness.start(
        tmp_path / "unused.sqlite3",
        fake,
        guild_id=guild,
        channels=channels,
        database_url=url,
        shard_count=2,
        shard_ids=(shard,),
    )


async def settle(*bots):
    for h in bots:
        await h.settle()


def ai_posts(h, channel):
    return [m for m in h.public(channel) if m.content.startswith("**AI (easy) 1**")]


async def test_two_processes_with_their_own_shards_share_one_postgresql(pg_url, users, tmp_path):
    fake = FakeDiscord()
    a = await start(fake, tmp_path, pg_url, G0, CH0, 0)
    b = await start(fake, tmp_path, pg_url, G1, CH1, 1)
    bots = [a, b]
    try:
        ana, bo = users[:2]
        tables = ((a, ana, CH0[0]), (b, bo, CH1[0]))
        for h, user, channel in tables:
            await h.run_command(user, "game create", channel_id=channel, game="gardens", ai_players=1, ai_level="easy")
            await h.click(user, h.last_public(channel), "Start")
        rnd = random.Random(4)
        for _ in range(4):  # each human plays; each AI answers, posted by the process of its guild
            for h, user, channel in tables:
                await play_one_action(h, user, h.last_public(channel), rnd)
            await settle(a, b)
        con = await asyncpg.connect(pg_url)
        try:
            for h, _, channel in tables:
                gid = await con.fetchval("SELECT id FROM games WHERE channel_id = $1", channel)
                ai_moves = await con.fetchval(
                    "SELECT count(*) FROM moves WHERE game_id = $1 AND player = $2", gid, "ai:easy:1"
                )
                assert ai_moves >= 1 and len(ai_posts(h, channel)) == ai_moves  # each AI move posted once
            assert await con.fetchval("SELECT count(*) FROM notices") == 0
            # both reminders fall due; both processes, and a third one overlapping the first (a redeploy),
            # run their reminder pass at the same moment: each game is reminded once, by its own shard
            c = await start(fake, tmp_path, pg_url, G0, CH0, 0)
            bots.append(c)
            while c.bot.get_cog("TurnsCog").reminders.current_loop < 1:  # its start-up pass (the periodic loop's
                await asyncio.sleep(0.01)  # first round) is over: it cannot claim the reminders set due below
            await con.execute("UPDATE games SET remind_at = 0 WHERE status = 'active'")
            counts = await asyncio.gather(*(h.bot.get_cog("TurnsCog").send_reminders() for h in (a, b, c)))
            await settle(a, b, c)
            assert sorted(counts) == [0, 1, 1]
            for channel in (CH0[0], CH1[0]):
                assert len([m for m in fake.sent if m.channel_id == channel and "Reminder" in m.content]) == 1
            assert await con.fetchval("SELECT count(*) FROM notices") == 0
        finally:
            await con.close()
        await c.close()
        bots.remove(c)
        # restarted in turn: each game goes on under its shard's new process
        for i, (guild, channels, shard) in enumerate(((G0, CH0, 0), (G1, CH1, 1))):
            await bots[i].close()
            bots[i] = await start(fake, tmp_path, pg_url, guild, channels, shard)
            h, user, channel = bots[i], tables[i][1], tables[i][2]
            before = len(ai_posts(h, channel))
            await play_one_action(h, user, h.last_public(channel), rnd)
            await settle(*bots)
            assert (
                h.last_public(channel).content.startswith("**AI (easy) 1**") and len(ai_posts(h, channel)) == before + 1
            )
    finally:
        for h in bots:
            await h.close()
    assert fake.violations == []
    assert all(h.unexpected_errors == [] for h in bots)
