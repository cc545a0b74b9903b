"""Issue #20, small untruths in posts and replies: a time below a minute is told in seconds, the same in the
results post and in /stats (one formatting function); a rating just below zero shows no minus; a move is told
once in its post (an Alhambra hut taken, a first pass in Queen's Garden); a nudge pings exactly whom it
addresses."""

from __future__ import annotations

import random
import re

from records.ratings import Rating
from storage import RatingRow
from tests.bot.driver import create_and_start, movers, play_one_action, play_to_end
from tests.bot.harness import CHANNEL_ID, GUILD_ID
from tests.bot.test_records import stats_of

MENTION = re.compile(r"<@(\d+)>")


async def test_times_below_a_minute_are_seconds_in_the_results_and_in_stats(bots, users):
    """A whole Gardens game played in seconds: "Game over (N moves in 9 s)", each turn time in seconds (not
    "1 min"), and /stats gives the very same figures."""
    h, (ana, bo) = bots, users[:2]
    post = await create_and_start(h, "gardens", [ana, bo])
    final, _n = await play_to_end(h, [ana, bo], post, random.Random(5))
    print(f"\n{final.content}")
    row = await h.bot.storage.last_game_in_channel(CHANNEL_ID)
    assert row.updated_at - row.created_at < 60
    over = re.search(r"\*\*Game over\*\* \((\d+) moves in (\d+) s\)", final.content)
    assert over, final.content
    assert int(over[2]) == int(row.updated_at - row.created_at)
    times = next(x for x in final.content.splitlines() if x.startswith("⏱️ Turn times"))
    mine = re.search(r"\*\*Ana\*\* (\d+ s) / (\d+ s)", times) or re.search(r"Ana (\d+ s) / (\d+ s)", times)
    assert mine, times
    assert "min" not in times
    stats = (await stats_of(h, ana, game="gardens")).message
    text = stats.content + "".join(e.get("description", "") for e in stats.embeds)
    print(text)
    assert f"⏱️ Turn time: {mine[1]} on average, {mine[2]} median" in text


async def test_a_rating_just_below_zero_shows_no_minus(bots, users):
    h, ana = bots, users[0]
    rows = [
        RatingRow(GUILD_ID, "gardens", ana.sid, "Ana", Rating(5.96, 2.0, 9), 0.0),  # shown: 5.96 − 3 × 2 = −0.04
        RatingRow(GUILD_ID, "gardens", "200", "Bo", Rating(4.0, 2.0, 9), 0.0),  # −2
    ]
    await h.bot.session.storage.import_records([], rows)
    text = (await h.run_command(ana, "leaderboard", game="gardens")).message.embeds[0]["description"]
    print(text)
    assert "−0.0" not in text and "-0.0" not in text
    assert "**1.** Ana · 0.0 ·" in text and "**2.** Bo · −2 ·" in text, text


async def test_a_hut_taken_is_told_once_in_its_post(bots, users):
    """Alhambra with the Worker's Huts (V22): taking a hut is one line, the next hut that turns up in it."""
    h, (ana, bo, cyd) = bots, users[:3]
    post = await create_and_start(h, "alhambra", [ana, bo, cyd], options="huts")
    by_id = {u.id: u for u in (ana, bo, cyd)}
    rnd = random.Random(3)
    for _ in range(30):
        user = by_id[movers(post, [ana, bo, cyd])[0]]
        await play_one_action(h, user, post, rnd, prefer=lambda t: "hut" in t.lower(), prefer_chance=1.0)
        await h.settle()
        post = h.last_public()
        if "hut" in post.content.split("\n")[0]:
            break
    else:
        raise AssertionError("nobody took a hut")
    print(f"\n{post.content}")
    lines = post.content.splitlines()
    taken = [x for x in lines if "takes the" in x and "hut" in x]
    assert len(taken) == 1, lines
    assert re.search(r"takes the \w+ hut \(walls \w+\) \(V22\); (the .+ turns up|that stack is used up)\.$", taken[0])


async def test_a_first_pass_is_told_once_in_its_post(bots, users):
    """Queen's Garden (Q29): the first to pass takes the first-player marker, in the one line of the pass."""
    h, (ana, bo) = bots, users[:2]
    post = await create_and_start(h, "queens_garden", [ana, bo])
    first = {u.id: u for u in (ana, bo)}[movers(post, [ana, bo])[0]]
    await play_one_action(h, first, post, random.Random(1), prefer=lambda t: "Pass" in t, prefer_chance=1.0)
    await h.settle()
    lines = h.last_public().content.splitlines()
    print(lines)
    assert lines[0] == f"**{first.name}** passes first: takes the first-player marker, −1 point."
    assert not any(x.startswith(f"**{first.name}** passes") for x in lines[1:])


async def test_a_nudge_pings_exactly_the_player_it_addresses(harness, users):
    """The test game's clap window: after a multiple of 7 is crossed, the player to move must move and the
    others may clap. A nudge addresses the player to move only: it never pings the nudger nor those who only
    may clap; the player to move nudging is told it is their own turn; one away is not pinged."""
    h, players = harness, users[:3]
    post = await create_and_start(h, "fake", players)
    by_id = {u.id: u for u in players}
    rnd = random.Random(2)
    for _ in range(40):
        if "others may clap" in post.content:
            break
        await play_one_action(h, by_id[movers(post, players)[0]], post, rnd, prefer=lambda t: "adds" in t)
        await h.settle()
        post = h.last_public()
    else:
        raise AssertionError("no clap window")
    print(f"\n{post.content}")
    mover = by_id[int(MENTION.findall(post.content.splitlines()[-1])[0])]
    others = [u for u in players if u is not mover]
    r = await h.run_command(mover, "game nudge")
    assert r.message.ephemeral and "your own turn" in r.message.content, r.message.content
    r = await h.run_command(others[0], "game nudge")
    print(r.message.content)
    assert r.message.public and MENTION.findall(r.message.content) == [str(mover.id)], r.message.content
    h.bot.get_cog("GameCog").nudge_gap = 0
    await h.run_command(mover, "away", until="2d")
    r = await h.run_command(others[1], "game nudge")
    assert r.message.ephemeral and "They are away until <t:" in r.message.content, r.message.content
    assert not MENTION.findall(r.message.content)
