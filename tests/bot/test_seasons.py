"""Rating seasons (cogs/seasons.py, issue #24): an admin starts a season, two games are rated inside it, the
season ends with a public archive post of its podium, `/seasons` keeps it, and the next season's board starts as
the admin chose: carried over, or reset."""

from __future__ import annotations

import random

import discord

from cogs._records import rating_number
from tests.bot.driver import create_and_start, play_to_end
from tests.bot.harness import GUILD_ID, SERVER_ADMIN, User


async def board(h, user):
    return (await h.run_command(user, "leaderboard", game="gardens")).message.embeds[0]


async def test_a_season_rates_its_games_ends_with_its_podium_and_the_next_starts_carried_or_reset(bots, users):
    h, (ana, bo) = bots, users[:2]
    admin = User(100000000000000098, "Ada", permissions=SERVER_ADMIN)
    storage = h.bot.session.storage

    refused = await h.run_command(ana, "season start", name="Spring")
    assert "Only server admins" in refused.ephemeral_text and await storage.seasons(GUILD_ID) == []
    group = h.bot.tree.get_command("season")  # Discord shows it to server managers only
    assert group.default_permissions == discord.Permissions(manage_guild=True)
    nothing = await h.run_command(admin, "season end")
    assert "No season is running" in nothing.ephemeral_text

    # a game before any season: its ratings are cleared when Spring starts with a reset
    post = await create_and_start(h, "gardens", [ana, bo])
    await play_to_end(h, [ana, bo], post, random.Random(1))
    assert await storage.leaderboard_size(GUILD_ID, "gardens") == 2
    started = await h.run_command(admin, "season start", name="Spring", ratings="reset")
    assert not started.message.ephemeral
    assert started.message.content == "🏁 Season 1 · Spring begins: every rating starts again from nothing."
    assert await storage.leaderboard_size(GUILD_ID, "gardens") == 0
    again = await h.run_command(admin, "season start", name="Twice")
    assert "A season is running already" in again.ephemeral_text

    # two games rated inside the season, from nothing
    for seed in (3, 4):
        post = await create_and_start(h, "gardens", [ana, bo])
        await play_to_end(h, [ana, bo], post, random.Random(seed))
    ratings = await storage.leaderboard(GUILD_ID, "gardens")
    assert [r.rating.games for r in ratings] == [2, 2]
    shown = await board(h, ana)
    assert shown["title"] == "🏆 The Gardens of the Alhambra: leaderboard · Season 1 · Spring", shown

    ended = await h.run_command(admin, "season end")
    post = ended.message
    assert not post.ephemeral and post.content.startswith("🏆 Season 1 · Spring is over. The podium:"), post.content
    medals = " · ".join(
        f"{m} {r.name} {rating_number(r.rating.shown)}" for m, r in zip(("🥇", "🥈"), ratings, strict=True)
    )
    assert f"**The Gardens of the Alhambra**: {medals}" in post.content, post.content
    (spring,) = await storage.seasons(GUILD_ID)
    assert spring.ended_at is not None and [p[0] for p in spring.podium["gardens"]] == [r.player for r in ratings]
    archive = (await h.run_command(bo, "seasons")).message
    assert archive.ephemeral and "**Season 1 · Spring**: <t:" in archive.content and medals in archive.content

    # Summer carries the ratings over: the board is as Spring left it, and a rebuild keeps it so
    summer = await h.run_command(admin, "season start", name="Summer", ratings="carry")
    assert summer.message.content == "🏁 Season 2 · Summer begins: the ratings carry over."
    assert await storage.leaderboard(GUILD_ID, "gardens") == ratings
    assert (await board(h, ana))["title"].endswith("· Season 2 · Summer")
    await h.run_command(admin, "ratings rebuild")
    assert await storage.leaderboard(GUILD_ID, "gardens") == ratings  # from Spring's reset on, not from the start
    ended = await h.run_command(admin, "season end")
    assert "Nobody finished a rated game during this season." in ended.message.content  # carried, not played

    # Autumn resets them: the board starts empty and the next game rates both as new players
    autumn = await h.run_command(admin, "season start", name="Autumn", ratings="reset")
    assert "every rating starts again from nothing" in autumn.message.content
    assert "Nobody has finished a rated game" in (await board(h, ana))["description"]
    post = await create_and_start(h, "gardens", [ana, bo])
    await play_to_end(h, [ana, bo], post, random.Random(5))
    assert [r.rating.games for r in await storage.leaderboard(GUILD_ID, "gardens")] == [1, 1]
    archive = (await h.run_command(bo, "seasons")).message.content
    assert (
        archive.index("Season 3 · Autumn**: running since")
        < archive.index("Season 2 · Summer")
        < archive.index("Season 1 · Spring")
    )
