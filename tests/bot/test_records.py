"""After the game, through the harness: a finished game's results post carries every rated player's rating change
and the score chart; /leaderboard pages with buttons that survive a restart; /stats answers for oneself, for
another player and for one game; /ratings rebuild is for server managers and gives the same ratings. Every answer
within Discord's limits (the harness checks content, embeds, components and the 3 s)."""

from __future__ import annotations

import random

import discord

from records.ratings import AI_RATINGS, Rating, SeatResult, rate
from storage import RatingRow
from tests.bot.driver import create_and_start, play_to_end
from tests.bot.harness import ALL_MEMBER, CHANNEL_ID, GUILD_ID, Harness, User

MANAGER = User(100000000000000098, "Mod", permissions=ALL_MEMBER | discord.Permissions(manage_guild=True).value)


async def stats_of(h: Harness, by: User, **values):
    """/stats (its `user` option cannot be a keyword of `run_command`)."""
    payload, ia = h._base(by, 2, CHANNEL_ID)
    payload["data"] = h._command_data("stats", values)
    return await h.feed(payload, ia)


async def test_a_full_game_ends_with_each_players_rating_change_and_the_score_chart(bots, users):
    """Ana and Bo play The Gardens of the Alhambra to the end: the final post gives both new ratings with their
    change (openskill's own numbers), and the score progression chart beside the board."""
    h, (ana, bo) = bots, users[:2]
    post = await create_and_start(h, "gardens", [ana, bo])
    final, _n = await play_to_end(h, [ana, bo], post, random.Random(5))
    storage = h.bot.session.storage
    row = await storage.last_game_in_channel(CHANNEL_ID)
    results = await storage.game_results(row.id)
    scores = {r.record.player: r.record.score for r in results}
    best = max(scores.values())
    want = rate([SeatResult(p, s, s == best) for p, s in scores.items()], {})
    assert {r.record.player: r.record.after for r in results} == want
    line = next(x for x in final.content.splitlines() if x.startswith("📈 Ratings: "))
    for user in (ana, bo):
        new = want[user.sid]
        change = f"{new.shown:+.1f}".replace("-", "−")
        shown = f"{new.shown:.1f}".replace("-", "−")
        assert f"**{user.name}** {shown} ({change}, provisional)" in line, line
    names = [name for name, _data in final.files]
    assert names == ["board.png", "scores.png"], names
    board = await h.run_command(ana, "leaderboard", game="gardens")
    text = board.message.embeds[0]["description"]
    assert "**1.**" in text and "**2.**" in text and "You: **#" in text
    print(f"\n{final.content}")


async def test_ai_seats_never_appear_on_the_leaderboard(bots, users):
    h, ana = bots, users[0]
    await h.run_command(ana, "game create", game="gardens", ai_players=1, ai_level="easy")
    await h.click(ana, h.last_public(), "Start")
    final, _n = await play_to_end(h, [ana], h.last_public(), random.Random(2))
    assert "📈 Ratings: **Ana** " in final.content and "AI (easy)" not in final.content.split("📈")[1]
    board = (await h.run_command(ana, "leaderboard", game="gardens")).message.embeds[0]["description"]
    assert "Ana" in board and "AI" not in board
    row = await h.bot.session.storage.last_game_in_channel(CHANNEL_ID)
    (mine,) = [r.record for r in await h.bot.session.storage.game_results(row.id) if r.record.player == ana.sid]
    ai_won = [r for r in await h.bot.session.storage.game_results(row.id) if r.record.ai_level][0].record.place == 1
    easy = SeatResult("ai:easy:2", 0, ai_won, "easy")
    assert mine.after == rate([SeatResult(ana.sid, 0, not ai_won), easy], {})[ana.sid]
    assert AI_RATINGS["easy"][0] < AI_RATINGS["normal"][0] < AI_RATINGS["hard"][0]


async def test_the_leaderboard_pages_with_buttons_that_survive_a_restart(bots, users):
    h, ana = bots, users[0]
    rows = [
        RatingRow(GUILD_ID, "gardens", str(200 + n), f"Player {n}", Rating(20.0 + n, 2.0, 3 + n), 0.0)
        for n in range(23)
    ]
    rows.append(RatingRow(GUILD_ID, "gardens", ana.sid, "Ana", Rating(31.0, 4.0, 9), 0.0))
    await h.bot.session.storage.import_records([], rows)
    first = (await h.run_command(ana, "leaderboard", game="gardens")).message
    assert first.ephemeral and first.labels() == ["◀", "▶"] and first.buttons()[0].get("disabled")
    text = first.embeds[0]["description"]
    assert text.startswith("**1.** Player 22 · 36 · 25 games") and "**10.** Player 13" in text
    assert "You: **#18** · 19" in text and "page 1 of 3" in first.embeds[0]["footer"]["text"]
    h = await h.restart()  # the buttons need nothing the old process held
    second = (await h.click(ana, first, "▶")).message
    assert (
        "**11.** Player 12" in second.embeds[0]["description"] and "page 2 of 3" in second.embeds[0]["footer"]["text"]
    )
    third = (await h.click(ana, second, "▶")).message
    assert "**24.** Player 0" in third.embeds[0]["description"] and third.buttons()[1].get("disabled")
    back = (await h.click(ana, third, "◀")).message
    assert "page 2 of 3" in back.embeds[0]["footer"]["text"]
    empty = (await h.run_command(ana, "leaderboard", game="alhambra")).message
    assert "Nobody has finished a rated game" in empty.embeds[0]["description"] and empty.labels() == []
    forged = await h.feed(*h.component_payload(ana, first, "lb:nogame:2:n", 2))
    assert "out of date" in forged.ephemeral_text
    await h.close()


async def test_stats_for_oneself_another_player_and_one_game(bots, users):
    h, (ana, bo, cyd) = bots, users[:3]
    for seed in (1, 2):
        post = await create_and_start(h, "gardens", [ana, bo])
        await play_to_end(h, [ana, bo], post, random.Random(seed))
    mine = (await stats_of(h, ana)).message
    embed = mine.embeds[0]
    assert embed["title"] == "📊 Statistics: Ana" and embed["image"]["url"] == "attachment://stats.png"
    assert [name for name, _data in mine.files] == ["stats.png"]
    assert "**The Gardens of the Alhambra**: 2 games, " in embed["description"]
    assert "⏱️ Turn time: " in embed["description"] and "• Buildings won: " in embed["description"]
    assert "🏆 Rating " in embed["description"] and ", #" in embed["description"] and " of 2" in embed["description"]
    other = (await stats_of(h, cyd, user=bo.sid, game="gardens")).message
    assert "2 games" in other.embeds[0]["description"]
    nothing = (await stats_of(h, ana, user=cyd.sid)).message
    assert nothing.content == f"<@{cyd.id}> has no finished games on this server yet."
    none_here = (await stats_of(h, ana, game="alhambra")).message
    assert "Ana has no finished games" in none_here.content


async def test_ratings_rebuild_is_for_managers_and_gives_the_same_ratings(bots, users):
    h, (ana, bo) = bots, users[:2]
    storage = h.bot.session.storage
    for seed in (3, 4):
        post = await create_and_start(h, "gardens", [ana, bo])
        await play_to_end(h, [ana, bo], post, random.Random(seed))
    before = await storage.leaderboard(GUILD_ID, "gardens")
    refused = await h.run_command(ana, "ratings rebuild")
    assert "Only members who may manage this server" in refused.ephemeral_text
    done = await h.run_command(MANAGER, "ratings rebuild")
    assert "Ratings rebuilt from 2 finished games, in order." in done.message.content
    assert await storage.leaderboard(GUILD_ID, "gardens") == before
    group = h.bot.tree.get_command("ratings")  # Discord shows it to server managers only (they may change that)
    assert group.default_permissions == discord.Permissions(manage_guild=True)


async def test_a_seat_the_ai_stood_in_for_all_game_is_not_rated(bots, users):
    """Cyd never turns up: at his first deadline the table lets the AI play for him until he is back, and he never
    is. His seat is not rated (the results post says so); Ana and Bo are, against the stand-in's level."""
    from tests.bot.driver import clock
    from tests.bot.test_tempo import play_until, start, turn_of

    h, (ana, bo, cyd) = bots, users[:3]
    rnd = random.Random(3)
    post = await start(h, [ana, bo, cyd], deadline="12h")
    await play_until(h, [ana, bo, cyd], post, rnd, turn_of(cyd))
    await clock(h, 2)  # the warning, then the deadline: the table decides
    await h.click(ana, h.last_public(), "…until Cyd is back")
    await h.settle()
    final = await play_until(h, [ana, bo, cyd], h.last_public(), rnd, lambda p: False, limit=300)
    assert "Game over" in final.content
    assert "Not rated (the AI played most of their moves): **Cyd**" in final.content
    assert "📈 Ratings: **Ana** " in final.content and "**Bo** " in final.content.split("📈")[1]
    storage = h.bot.session.storage
    row = await storage.last_game_in_channel(CHANNEL_ID)
    cyds = [m.standin for m in await storage.moves(row.id) if m.player == cyd.sid]
    assert cyds and all(cyds)
    results = {r.record.player: r.record for r in await storage.game_results(row.id)}
    assert not results[cyd.sid].rated and results[ana.sid].rated and results[bo.sid].rated
    assert await storage.standing(GUILD_ID, "gardens", cyd.sid) is None
