"""Issue #20, the clock tells the truth: the first turn's deadline passes like any other; an away player's
pending turn pings nobody until they are back. The passes are called with the time to pretend."""

from __future__ import annotations

import pytest

from tests.bot.harness import CHANNEL_ID


async def start(h, players, **values):
    await h.run_command(players[0], "game create", game="gardens", **values)
    lobby = h.last_public()
    for p in players[1:]:
        await h.click(p, lobby, "Join")
    await h.click(players[0], lobby, "Start")
    return h.last_public()


async def row_of(h):
    return await h.bot.storage.game_in_channel(CHANNEL_ID)


async def test_the_first_turn_has_its_deadline_warning_then_the_tables_decision(bots, users):
    """deadline:12h and the first player never moves: the reminder at half time, the warning before the
    deadline, then the post asking the table with its three buttons, as for any later turn."""
    h, (ana, bo) = bots, users[:2]
    post = await start(h, [ana, bo], deadline="12h")
    assert "⏳ Deadline <t:" in post.content, post.content
    first = post.content.splitlines()[-1]
    late = ana if f"<@{ana.id}>" in first else bo
    row = await row_of(h)
    assert row.deadline_at is not None, "the first turn's deadline was never stored"
    start_at = row.turn_started_at
    assert row.deadline_at == pytest.approx(start_at + 12 * 3600 - 3600 * 1.2)
    cog = h.bot.get_cog("TurnsCog")
    assert await cog.send_reminders(now=start_at + 6 * 3600 + 1) == 1  # half time
    await h.settle()
    assert f"<@{late.id}>" in h.last_public().content
    assert await cog.pass_deadlines(now=row.deadline_at + 1) == 1  # the warning
    await h.settle()
    assert h.last_public().content.startswith(f"⏳ <@{late.id}>, your move"), h.last_public().content
    row = await row_of(h)
    assert row.deadline_at == pytest.approx(start_at + 12 * 3600)
    assert await cog.pass_deadlines(now=row.deadline_at + 1) == 1  # the deadline: the table is asked
    await h.settle()
    ask = h.last_public()
    assert "deadline has passed" in ask.content, ask.content
    assert ask.labels() == [f"Let the AI play for {late.name} this turn", f"…until {late.name} is back", "Wait longer"]
    print("\n" + "\n---\n".join(m.content for m in h.public()))


def pings(h, user, since):
    return [m.content for m in h.public()[since:] if f"<@{user.id}>" in m.content]


@pytest.mark.parametrize("deadline", ["12h", None])
async def test_an_away_players_pending_turn_pings_nobody_until_they_are_back(bots, users, deadline):
    """`/away until:20h` (no AI) while the turn is already pending: neither the reminder (half the deadline, or
    the 24 h reminder) nor the deadline's warning pings them while away; back, the turn's clock starts again
    from the return, and its deadline passes like any other."""
    h, (ana, bo) = bots, users[:2]
    values = {"deadline": deadline} if deadline else {}
    post = await start(h, [ana, bo], **values)
    late = ana if f"<@{ana.id}>" in post.content.splitlines()[-1] else bo
    r = await h.run_command(late, "away", until="20h" if deadline else "3d")
    assert "nobody pings or reminds you" in r.message.content
    await h.settle()
    seen = len(h.public())
    row = await row_of(h)
    start_at = row.turn_started_at
    cog = h.bot.get_cog("TurnsCog")
    for hours in (6.5, 11, 12.5, 19.5) if deadline else (6.5, 24.5, 48, 71):  # while away
        await cog.send_reminders(now=start_at + hours * 3600)
        await cog.pass_deadlines(now=start_at + hours * 3600)
        await h.settle()
    assert pings(h, late, seen) == [], "pinged while away"
    status = await h.run_command(late, "game status")
    assert "⏳ Deadline" not in status.message.content  # nobody is on the clock while away
    r = await h.run_command(late, "away", until="off")
    assert "Welcome back" in r.message.content
    row = await row_of(h)
    if not deadline:
        assert row.deadline_at is None
        return
    back_at = h.bot.session.clock_start(row)
    assert row.deadline_at == pytest.approx(back_at + 12 * 3600 - 3600 * 1.2)  # a whole deadline from the return
    assert await cog.pass_deadlines(now=row.deadline_at + 1) == 1
    await h.settle()
    assert h.last_public().content.startswith(f"⏳ <@{late.id}>, your move"), h.last_public().content
    assert f"<t:{int(back_at + 12 * 3600)}:R>" in h.last_public().content


async def test_when_the_away_time_runs_out_the_pending_turns_clock_starts_again(bots, users):
    """Nobody types `/away until:off`: at the end of the away time the clock wakes (without a post) and gives a
    whole deadline from then; its warning then pings the player like any other."""
    h, (ana, bo) = bots, users[:2]
    post = await start(h, [ana, bo], deadline="12h")
    late = ana if f"<@{ana.id}>" in post.content.splitlines()[-1] else bo
    await h.run_command(late, "away", until="20h")
    row = await row_of(h)
    me = await h.bot.storage.player(late.sid)
    assert row.table.get("phase") == "away" and row.deadline_at == pytest.approx(me.away_until)
    seen = len(h.public())
    cog = h.bot.get_cog("TurnsCog")
    assert await cog.pass_deadlines(now=me.away_until + 1) == 1  # the wake-up: no post
    await h.settle()
    assert len(h.public()) == seen
    row = await row_of(h)
    assert row.deadline_at == pytest.approx(me.away_until + 1 + 12 * 3600 - 3600 * 1.2)
    assert await cog.pass_deadlines(now=row.deadline_at + 1) == 1
    await h.settle()
    assert h.last_public().content.startswith(f"⏳ <@{late.id}>, your move"), h.last_public().content
