"""Clocks that fit async play (cogs/_bank.py): a chess-clock time bank counts each player's own time exactly, and
never their quiet hours; a vacation day is spent before the table is asked; a reminder already scheduled moves out
of the quiet hours a player sets. The clock is the test's: `time.time` returns the simulated time."""

from __future__ import annotations

import random
import time

import pytest

import engine
from cogs._undo import replayed
from tests.bot.driver import movers, play_one_action
from tests.bot.harness import CHANNEL_ID
from tests.bot.test_quiet import HOUR, ZONE, utc
from tests.bot.test_tempo import start, table_post

DAY = 24 * HOUR


@pytest.fixture
def clock(monkeypatch):
    """The simulated time: `clock[0]`, what every `time.time()` of the bot returns."""
    now = [utc(2026, 10, 21, 10)]  # a Wednesday, days before the clocks go back
    monkeypatch.setattr(time, "time", lambda: now[0])
    return now


async def _row(h):
    return await h.bot.storage.game_in_channel(CHANNEL_ID)


def night_overlap(t0: float, t1: float) -> float:
    """Seconds of [t0, t1) inside 22:00-08:00 Budapest in late October 2026 before the change (20:00-06:00 UTC)."""
    total = 0.0
    for day in range(18, 25):
        s, e = utc(2026, 10, day, 20), utc(2026, 10, day + 1, 6)
        total += max(0.0, min(e, t1) - max(s, t0))
    return total


async def test_a_time_bank_counts_each_players_own_time_exactly_and_never_a_night(bots, users, clock):
    """`bank:1d+2h`: each starts with 24 h, gets 2 h back after each turn. Moves are made at set times, one of
    Bo's turns across his night (22-08 Budapest): his bank spends only the time outside it. After each move both
    banks are what the test counts from the times (to the second), and the deadline is the bank's end."""
    h, (ana, bo) = bots, users[:2]
    await h.run_command(bo, "prefs", quiet="22-08", timezone=ZONE)
    clock[0] = utc(2026, 10, 21, 10)
    post = await start(h, [ana, bo], bank="1d+2h")
    r = await h.run_command(ana, "game settings")
    assert "Time bank: 1 d each, 2 h more after every turn, at most 2 d." in r.message.content, r.message.content
    rules = engine.get_rules("gardens")
    gaps = [600, 3000, 9017, 1800, 5400, 700, 2600, 4000]  # seconds each move takes, but Bo's night turn
    expected = {ana.sid: DAY, bo.sid: DAY}
    rnd = random.Random(11)
    last, nights = clock[0], 0
    for gap in gaps:
        who = {ana.id: ana, bo.id: bo}[movers(post, [ana, bo])[0]]
        t = last + gap
        if who is bo and not nights:  # his turn runs over his night: from before it to 07:00:03 UTC (09:00 his)
            t = utc(2026, 10, 22, 7, 0, 3)
        clock[0] = t
        await play_one_action(h, who, post, rnd)
        await h.settle()
        post = table_post(h)
        row = await _row(h)
        moves = await h.bot.storage.moves(row.id)
        before, after = list(replayed(row, moves))[-2:]
        action = rules.action_from_json(moves[-1].action)
        spent = (t - last) - (night_overlap(last, t) if who is bo else 0.0)
        nights += who is bo and night_overlap(last, t) > 0
        expected[who.sid] -= spent
        if rules.turn_over(before, who.sid, action, after):
            expected[who.sid] = min(expected[who.sid] + 2 * HOUR, 2 * DAY)
        banks = row.table["banks"]
        for p in (ana.sid, bo.sid):
            assert banks.get(p, DAY) == pytest.approx(expected[p], abs=1.0), (p, banks, expected)
        nxt = movers(post, [ana, bo])[0]
        end = row.deadline_at  # the warning before the end of the bank of the player to move
        left = expected[str(nxt)]
        assert end is not None and end <= t + left + (night_overlap(t, t + 3 * DAY) if nxt == bo.id else 0) + 1
        last = t
    assert nights >= 1 and expected[bo.sid] < DAY  # he spent some, not his night
    status = await h.run_command(ana, "game status")
    assert "⏱️ Time left: **Ana** " in status.message.content, status.message.content


async def test_a_vacation_day_is_spent_before_the_table_is_asked(bots, users):
    """`deadline:12h vacation:1`: the warning, then at the deadline a vacation day of the late player is used
    (the deadline moves a day on); only at the next one is the table asked what to do."""
    h, (ana, bo) = bots, users[:2]
    post = await start(h, [ana, bo], deadline="12h", vacation=1)
    late = movers(post, [ana, bo])[0]
    cog = h.bot.get_cog("TurnsCog")

    async def step() -> str:
        row = await _row(h)
        assert await cog.pass_deadlines(now=row.deadline_at + 1) == 1
        await h.settle()
        return h.last_public().content

    assert (await step()).startswith(f"⏳ <@{late}>, your move")  # the warning
    end = (await _row(h)).deadline_at
    said = await step()
    assert said.startswith("🏝️ **") and "one vacation day used (0 left)" in said, said
    row = await _row(h)
    assert row.deadline_at == pytest.approx(end + 1 + DAY) and row.table["vacations"] == {str(late): 1}
    assert f"<t:{int(row.deadline_at)}:R>" in said
    said = await step()
    assert "deadline has passed" in said and "what now?" in said, said  # now the table is asked
    assert "Let the AI play for" in " ".join(h.last_public().labels())


async def test_setting_quiet_hours_moves_a_scheduled_reminder_out_of_the_night(bots, users, clock):
    """Ana's turn begins at 23:00 Budapest time on a Wednesday; her reminder (24 h) is due at 23:00 on Thursday.
    She then sets quiet hours 22-08: the reminder moves to 08:00 on Thursday (a turn that began in her night
    reminds her in her morning), is sent then, and pings her (before, it was dropped in her night)."""
    h, (ana, bo) = bots, users[:2]
    clock[0] = utc(2026, 10, 21, 20, 50)
    post = await start(h, [ana, bo])
    rnd = random.Random(12)
    if movers(post, [ana, bo])[0] == ana.id:
        await play_one_action(h, ana, post, rnd)
        await h.settle()
    clock[0] = utc(2026, 10, 21, 21)
    await play_one_action(h, bo, table_post(h), rnd)
    await h.settle()
    assert movers(table_post(h), [ana, bo]) == [ana.id]
    assert (await _row(h)).remind_at == pytest.approx(utc(2026, 10, 22, 21))
    clock[0] = utc(2026, 10, 21, 21, 30)
    await h.run_command(ana, "prefs", quiet="22-08", timezone=ZONE)
    assert (await _row(h)).remind_at == pytest.approx(utc(2026, 10, 22, 6))
    cog = h.bot.get_cog("TurnsCog")
    clock[0] = utc(2026, 10, 22, 5, 59)
    assert await cog.send_reminders(now=clock[0]) == 0
    clock[0] = utc(2026, 10, 22, 6)
    assert await cog.send_reminders(now=clock[0]) == 1
    await h.settle()
    assert f"<@{ana.id}>" in h.last_public().content and "Reminder" in h.last_public().content


async def test_an_empty_bank_is_the_deadline_then_a_vacation_day_then_the_table(bots, users, clock):
    """`bank:1d+2h vacation:1`: the player to move is warned before her day of bank runs out, its end is the
    deadline, a vacation day moves it a day on, and only then is the table asked; her bank is then empty."""
    h, (ana, bo) = bots, users[:2]
    post = await start(h, [ana, bo], bank="1d+2h", vacation=1)
    late = movers(post, [ana, bo])[0]
    began = clock[0]
    cog = h.bot.get_cog("TurnsCog")

    async def step() -> str:
        row = await _row(h)
        clock[0] = row.deadline_at + 1
        assert await cog.pass_deadlines(now=clock[0]) == 1
        await h.settle()
        return h.last_public().content

    assert (await _row(h)).deadline_at == pytest.approx(began + DAY - 2 * HOUR)  # warned 2 h before the end
    said = await step()
    assert said.startswith(f"⏳ <@{late}>, your move") and f"<t:{int(began + DAY)}:R>" in said, said
    said = await step()
    assert "one vacation day used (0 left)" in said, said
    assert (await _row(h)).deadline_at == pytest.approx(began + 2 * DAY + 1)
    said = await step()
    assert "deadline has passed" in said and "what now?" in said, said
    status = await h.run_command(bo, "game status")
    assert "⏱️ Time left:" in status.message.content and "🏝️ 0" in status.message.content, status.message.content
