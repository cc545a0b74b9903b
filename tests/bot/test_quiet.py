"""Issue #23, respecting players' time: quiet hours (`/prefs quiet:22-08 timezone:Europe/Budapest`: nobody pings,
reminds or DMs a player in their night, their deadline clock waits over it across a daylight-saving change,
`/game status` says so) and DM notices (`/prefs dm:turn|deadline`: one per turn, within a per-user budget, and a
one-time note in the channel for a player whose DMs are closed). The clock is the test's: `time.time` returns
the simulated time, and the passes are called with it."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime

import pytest

from cogs._quiet import awake_after, parse_quiet, quiet_until
from storage import Player
from tests.bot.driver import confirm_and_kill, dm_turn_at_confirm, movers, play_one_action
from tests.bot.harness import CHANNEL_ID, Harness
from tests.bot.test_tempo import start, table_post

ZONE = "Europe/Budapest"
HOUR = 3600.0


def utc(*args: int) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()


@pytest.fixture
def clock(monkeypatch):
    """The simulated time: `clock[0]`, what every `time.time()` of the bot returns."""
    now = [utc(2026, 10, 21, 10)]  # a Wednesday; the clocks go back on Sunday 25 October, 03:00 -> 02:00
    monkeypatch.setattr(time, "time", lambda: now[0])
    return now


def test_a_night_across_the_autumn_change_is_eleven_hours_and_the_spring_one_nine():
    """The arithmetic: 22:00 CEST -> 08:00 CET is 11 h (20:00 -> 07:00 UTC); 22:00 CET -> 08:00 CEST 9 h."""
    ana = Player("1", quiet=parse_quiet("22-08"), timezone=ZONE)
    assert quiet_until(ana, utc(2026, 10, 24, 20, 30)) == utc(2026, 10, 25, 7)
    assert quiet_until(ana, utc(2026, 10, 24, 19, 59)) is None
    assert quiet_until(ana, utc(2026, 3, 28, 21, 0)) == utc(2026, 3, 29, 6)
    # 12 h of clock from 19:00 UTC (21:00 CEST) on Saturday: 1 h, the 11 h night, 11 h more
    assert awake_after(utc(2026, 10, 24, 19), 12 * HOUR, [ana]) == utc(2026, 10, 25, 18)
    assert awake_after(utc(2026, 10, 24, 19), 12 * HOUR, []) == utc(2026, 10, 25, 7)
    assert parse_quiet("22:30-7") == "22:30-07:00"


async def _row(h):
    return await h.bot.storage.game_in_channel(CHANNEL_ID)


async def test_quiet_hours_shift_the_deadline_past_the_night_and_status_says_so(bots, users, clock):
    """Ana's turn begins at 21:00 on the Saturday of the change with a 12 h deadline: it ends at 19:00 (CET) on
    Sunday, not at 08:00: 1 h before her night, the 11 h night (the clocks go back), 11 h after it. The reminder
    comes at half of her day's time, the warning 1 h 12 min of it before the end; /game status in her night
    says "quiet until 08:00 (their time)"."""
    h, (ana, bo) = bots, users[:2]
    r = await h.run_command(ana, "prefs", quiet="22-08", timezone="europe/budapest")
    assert "Quiet hours 22:00–08:00 (Europe/Budapest)" in r.message.content, r.message.content
    choices = await h.autocomplete(ana, "prefs", "timezone", timezone="Europe/Bu")
    assert "Europe/Budapest" in [c["value"] for c in choices]
    clock[0] = utc(2026, 10, 24, 18)
    post = await start(h, [bo, ana], deadline="12h")
    rnd = random.Random(1)
    if movers(post, [ana, bo])[0] == ana.id:  # Bo should begin: Ana passes her first turn at once
        await play_one_action(h, ana, post, rnd)
        await h.settle()
    clock[0] = utc(2026, 10, 24, 19)  # 21:00 in Budapest: Bo moves, Ana's turn begins
    await play_one_action(h, bo, table_post(h), rnd)
    await h.settle()
    post = table_post(h)
    assert movers(post, [ana, bo]) == [ana.id], post.content
    assert f"<@{ana.id}>" in post.content  # 21:00: not yet her night
    end = utc(2026, 10, 25, 18)  # 1 h before the night, the 11 h night, 11 h after it
    assert f"<t:{int(end)}:R>" in post.content, post.content
    row = await _row(h)
    assert row.deadline_at == pytest.approx(end - 1.2 * HOUR)  # the warning: 1 h 12 min of her day before the end
    cog = h.bot.get_cog("TurnsCog")
    clock[0] = utc(2026, 10, 25, 0)
    assert await cog.send_reminders(now=clock[0]) == 0  # half the deadline: 6 h of her day, at 12:00
    clock[0] = utc(2026, 10, 25, 12)
    assert await cog.send_reminders(now=clock[0]) == 1
    await h.settle()
    assert f"<@{ana.id}>" in h.last_public().content
    clock[0] = end - 1.2 * HOUR + 1
    assert await cog.pass_deadlines(now=clock[0]) == 1  # the warning, with the shifted end
    await h.settle()
    assert h.last_public().content.startswith(f"⏳ <@{ana.id}>, your move"), h.last_public().content
    assert f"<t:{int(end)}:R>" in h.last_public().content
    assert (await _row(h)).deadline_at == pytest.approx(end)
    clock[0] = utc(2026, 10, 25, 23)  # midnight in Budapest (CET now)
    status = await h.run_command(bo, "game status")
    assert "quiet until 08:00 (their time)" in status.message.content, status.message.content
    assert f"<t:{int(end)}:R>" in status.message.content


async def test_a_turn_that_begins_in_the_night_pings_in_the_morning(bots, users, clock):
    """Bo moves at 23:30 Budapest time: the post names Ana without a ping; the reminder comes at 08:00 hers."""
    h, (ana, bo) = bots, users[:2]
    await h.run_command(ana, "prefs", quiet="22-08", timezone=ZONE)
    clock[0] = utc(2026, 10, 22, 20)
    post = await start(h, [bo, ana])
    rnd = random.Random(2)
    if movers(post, [ana, bo])[0] == ana.id:
        await play_one_action(h, ana, post, rnd)
        await h.settle()
    clock[0] = utc(2026, 10, 22, 21, 30)  # 23:30 CEST
    await play_one_action(h, bo, table_post(h), rnd)
    await h.settle()
    post = table_post(h)
    assert f"<@{ana.id}>" not in post.content and "**Ana**" in post.content.splitlines()[-1], post.content
    cog = h.bot.get_cog("TurnsCog")
    clock[0] = utc(2026, 10, 23, 5, 59)
    assert await cog.send_reminders(now=clock[0]) == 0
    clock[0] = utc(2026, 10, 23, 6, 0)  # 08:00 CEST
    assert await cog.send_reminders(now=clock[0]) == 1
    await h.settle()
    assert f"<@{ana.id}>" in h.last_public().content and "Reminder" in h.last_public().content


async def test_a_week_of_moves_across_the_change_never_pings_a_player_in_her_night(bots, users, clock):
    """A simulated week (Wednesday to Wednesday, over the night the clocks go back) of a 12 h-deadline game, and
    new ones when it ends: Bo plays within hours at any time; Ana only by day, and sometimes not for a day. The
    reminder and deadline passes run every 20 simulated minutes. No post made in Ana's night pings her, no
    deadline of hers ends or warns in it, and the clock still moves her turns on (warnings, the table's ask)."""
    h, (ana, bo) = bots, users[:2]
    await h.run_command(ana, "prefs", quiet="22-08", timezone=ZONE, dm="turn")
    me = await h.bot.storage.player(ana.sid)
    rnd = random.Random(23)
    cog = h.bot.get_cog("TurnsCog")
    end_of_week = clock[0] + 7 * 24 * HOUR
    seen = dms = 0
    pinged_at: list[float] = []
    night_posts = 0

    def look() -> None:
        nonlocal seen, night_posts, dms
        if len(h.dms(ana)) > dms:
            assert quiet_until(me, clock[0]) is None, ("DMed in her night", datetime.fromtimestamp(clock[0], UTC))
            dms = len(h.dms(ana))
        for m in h.public()[seen:]:
            asleep = quiet_until(me, clock[0]) is not None
            if f"<@{ana.id}>" in m.content:
                assert not asleep, (datetime.fromtimestamp(clock[0], UTC), m.content)
                pinged_at.append(clock[0])
            night_posts += asleep and ana.name in m.content
        seen = len(h.public())

    async def wait(until: float, player=None) -> None:
        """The passes every 20 minutes until `until` (or until it is no longer `player`'s turn)."""
        while clock[0] < until:
            if player is not None and player.id not in movers(table_post(h), [ana, bo]):
                return
            clock[0] = min(until, clock[0] + 20 * 60)
            await cog.send_reminders(now=clock[0])
            await cog.pass_deadlines(now=clock[0])
            await h.settle()
            look()

    post = await start(h, [ana, bo], deadline="12h")
    look()
    games = 1
    while clock[0] < end_of_week:
        post = table_post(h)
        if "Game over" in post.content:
            post = await start(h, [ana, bo], deadline="12h")
            games += 1
            look()
            continue
        row = await _row(h)
        who = movers(post, [ana, bo])
        if ana.id in who and row.deadline_at is not None:  # her clock: never due in her night
            assert quiet_until(me, row.deadline_at) is None, datetime.fromtimestamp(row.deadline_at, UTC)
        if not who or (who[0] == ana.id and row.table.get("sub", {}).get(ana.sid)):
            await wait(clock[0] + HOUR)  # the AI plays for her: let it
            continue
        if who[0] == bo.id:
            await wait(clock[0] + rnd.choice([0.2, 1, 2, 6]) * HOUR, bo)
            player = bo
        else:
            later = rnd.choice([0.5, 1, 3, 8, 40]) * HOUR  # sometimes much later: the clock moves her on
            await wait(clock[0] + later, ana)
            if quiet_until(me, clock[0]) is not None:
                await wait(quiet_until(me, clock[0]) + rnd.uniform(0, 2) * HOUR, ana)
            player = ana
        post = table_post(h)
        if player.id in movers(post, [ana, bo]) and "Game over" not in post.content:
            await play_one_action(h, player, post, rnd)
            await h.settle()
            look()
    assert len(pinged_at) >= 10 and night_posts > 0, (len(pinged_at), night_posts)
    said = [m.content for m in h.public()]
    assert any(c.startswith(f"⏳ <@{ana.id}>, your move") for c in said), "she was never warned"
    assert any("**Ana**'s deadline has passed" in c for c in said), "her clock never ran out"
    assert dms > 5, dms
    print(
        f"\n{games} game(s), {len(pinged_at)} pings and {dms} DMs of Ana, {night_posts} posts naming her in her night"
    )


# --------------------------------------------------------------------------------------------- DM notices


async def _turn_to(h, player, others, rnd):
    """The others play until it is `player`'s turn (or the game ended); returns the post."""
    everyone = [player, *others]
    for _ in range(20):
        post = table_post(h)
        if "Game over" in post.content or player.id in movers(post, everyone):
            return post
        who = next(p for p in everyone if p.id == movers(post, everyone)[0])
        await play_one_action(h, who, post, rnd)
        await h.settle()
    raise AssertionError(table_post(h).content)


async def test_a_dm_notice_comes_once_per_turn_with_a_link_and_the_digest(bots, users, clock):
    """`/prefs dm:turn`: Bo's move begins Ana's turn: one DM "your turn", with the link to that post and what Bo
    did; the reminder of the same turn sends none; her next turn brings the next one."""
    h, (ana, bo) = bots, users[:2]
    r = await h.run_command(ana, "prefs", dm="turn")
    assert "DM notices: when your turn begins" in r.message.content, r.message.content
    post = await start(h, [bo, ana])
    rnd = random.Random(5)
    if movers(post, [ana, bo])[0] == ana.id:
        await play_one_action(h, ana, post, rnd)
        await h.settle()
        post = table_post(h)
    before = len(h.dms(ana))
    clock[0] += 600
    await play_one_action(h, bo, table_post(h), rnd)
    await h.settle()
    post = table_post(h)
    assert movers(post, [ana, bo]) == [ana.id]
    dms = h.dms(ana)
    assert len(dms) == before + 1, [m.content for m in dms]
    assert dms[-1].content.startswith("🎲 Your turn in The Gardens of the Alhambra"), dms[-1].content
    assert f"https://discord.com/channels/{post.guild_id}/{post.channel_id}/{post.id}" in dms[-1].content
    assert "📜 Since your last turn, Ana:" in dms[-1].content and "• **Bo**" in dms[-1].content
    cog = h.bot.get_cog("TurnsCog")
    clock[0] += 25 * HOUR
    assert await cog.send_reminders(now=clock[0]) == 1
    await h.settle()
    assert "Reminder" in h.last_public().content and len(h.dms(ana)) == before + 1  # one per turn
    await play_one_action(h, ana, table_post(h), rnd)
    await h.settle()
    await _turn_to(h, ana, [bo], rnd)
    assert len(h.dms(ana)) == before + 2
    assert h.bot.herald.dms == before + 2


async def test_a_burst_of_a_hundred_turns_stays_within_the_dm_budget(bots, users, clock):
    """100 turns in 100 simulated minutes (new games when one ends): Ana's turn begins about 50 times, and she
    gets at most DM_BUDGET DMs in any hour, the last of each hour saying the next ones wait."""
    from cogs._herald import DM_BUDGET, DM_WINDOW

    h, (ana, bo) = bots, users[:2]
    await h.run_command(ana, "prefs", dm="turn")
    rnd = random.Random(7)
    await start(h, [ana, bo])
    sent: set[float] = set()
    turns = began = 0
    while turns < 100:
        post = table_post(h)
        if "Game over" in post.content:
            await start(h, [ana, bo])
            continue
        who = movers(post, [ana, bo])[0]
        clock[0] += 60
        await play_one_action(h, ana if who == ana.id else bo, post, rnd)
        await h.settle()
        turns += 1
        began += movers(table_post(h), [ana, bo])[:1] == [ana.id] and who != ana.id
        sent.update((await h.bot.storage.player(ana.sid)).dm_sent)  # when the herald sent each (its clock)
    await h.settle()
    sent.update((await h.bot.storage.player(ana.sid)).dm_sent)
    sent_at = sorted(sent)
    assert len(sent_at) == len(h.dms(ana)), (sent_at, len(h.dms(ana)))
    assert began > 30, began
    assert DM_BUDGET <= len(sent_at) <= DM_BUDGET * 2, len(sent_at)  # 100 minutes: two windows at most
    for i in range(len(sent_at) - DM_BUDGET):
        assert sent_at[i + DM_BUDGET] - sent_at[i] >= DM_WINDOW, "more DMs in an hour than the budget"
    last = h.dms(ana)[DM_BUDGET - 1].content
    assert "the next ones wait" in last, last
    assert h.bot.herald.dms_held > 20
    print(f"\n{turns} turns, Ana's began {began} times: {len(sent_at)} DMs, {h.bot.herald.dms_held} held back")


async def test_a_player_whose_dms_are_closed_is_told_once_in_the_channel(bots, users, clock):
    """Ana asked for DMs but accepts none (Discord answers 50007): the first try switches her DM notices off
    and says so once in the game's channel; her later turns try no DM and repeat no note."""
    h, (ana, bo) = bots, users[:2]
    await h.run_command(ana, "prefs", dm="turn")
    h.fake.dms_closed.add(ana.id)
    await start(h, [bo, ana])
    rnd = random.Random(9)
    for _ in range(3):
        await _turn_to(h, ana, [bo], rnd)
        clock[0] += 600
        await play_one_action(h, ana, table_post(h), rnd)
        await h.settle()
    notes = [m.content for m in h.public() if m.content.startswith("📪")]
    assert len(notes) == 1 and f"<@{ana.id}>" in notes[0] and "/prefs dm:turn" in notes[0], notes
    assert h.dms(ana) == [] and (await h.bot.storage.player(ana.sid)).dm == "off"
    opened = [u for u in h.fake.requests if u[1].endswith("/users/@me/channels")]
    sends = [u for u in h.fake.requests if u[0] == "POST" and any(str(c) in u[1] for c in h.fake.dm_channels)]
    assert len(opened) == 1 and len(sends) == 1, (opened, sends)
    r = await h.run_command(ana, "prefs")
    assert "DM notices: off" in r.message.content


@pytest.mark.parametrize(("where", "step"), [("session", "committed"), ("herald", "posted"), ("herald", "dm")])
async def test_a_crash_at_any_step_neither_loses_nor_doubles_a_dm(tmp_path, fake_game, users, where, step):
    """Bo asked for DMs; Ana's Confirm begins his turn, and the bot is killed after the commit, after the post,
    or after the DM was sent but before it was counted: after the start, Bo has exactly one DM of that turn."""
    h = await Harness.start(tmp_path / "games.sqlite3")
    try:
        ana, bo = users[:2]
        panel = await dm_turn_at_confirm(h, ana, bo)
        h = await confirm_and_kill(h, ana, panel, where, step)
        dms = h.dms(bo)
        assert len(dms) == 1 and dms[0].content.startswith("🎲 Your turn in"), [m.content for m in dms]
        assert await h.bot.session.storage.games_with_notices() == []
        assert (await h.bot.storage.player(bo.sid)).dm_turns == ("1:1",)
    finally:
        await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


async def test_dm_deadline_sends_only_the_warning_and_a_nudge_waits_for_the_morning(bots, users, clock):
    """`/prefs dm:deadline`: no DM when her turn begins, one with the deadline's warning (its end as a timestamp
    and the link); in her night, `/game nudge` pings nobody and says until when."""
    h, (ana, bo) = bots, users[:2]
    await h.run_command(ana, "prefs", dm="deadline", quiet="22-08", timezone=ZONE)
    clock[0] = utc(2026, 10, 22, 8)  # 10:00 in Budapest
    await start(h, [bo, ana], deadline="12h")
    rnd = random.Random(4)
    await _turn_to(h, ana, [bo], rnd)
    assert h.dms(ana) == []
    row = await _row(h)
    clock[0] = row.deadline_at + 1
    assert await h.bot.get_cog("TurnsCog").pass_deadlines(now=clock[0]) == 1
    await h.settle()
    warning = h.last_public()
    assert warning.content.startswith(f"⏳ <@{ana.id}>, your move"), warning.content
    dms = h.dms(ana)
    assert len(dms) == 1 and dms[0].content.startswith("⏳ Your deadline in"), [m.content for m in dms]
    assert f"/{warning.id}" in dms[0].content and f"<t:{int((await _row(h)).deadline_at)}:R>" in dms[0].content
    clock[0] = quiet_until(Player("x", quiet="22:00-08:00", timezone=ZONE), utc(2026, 10, 22, 21)) - HOUR
    r = await h.run_command(bo, "game nudge")
    assert "night for them until" in r.message.content, r.message.content
    assert f"<@{ana.id}>" not in (r.message.content + "".join(m.content for m in r.replies))
