"""Due times and claims the storage keeps so that nothing is done twice or never: a finished game's animation
shared in a channel (the first claim wins on every backend, a posted share is remembered by its message id, a
claim given up or left stale by a dead claimant can be taken again), and the first turn's deadline stored by the
start itself; the coach's review of a finished game, begun once and kept with its progress."""

from __future__ import annotations

import asyncio


async def test_the_first_claim_wins_and_the_post_is_remembered(db):
    first, second = await asyncio.gather(db.claim_share(1, 10, "en", now=100.0), db.claim_share(1, 10, "en", now=100.0))
    assert sorted([first, second]) == [(False, None), (True, None)]
    assert await db.claim_share(1, 10, "en", now=101.0) == (False, None)  # still being drawn
    assert await db.claim_share(1, 11, "en", now=101.0) == (True, None)  # another channel
    assert await db.claim_share(1, 10, "de", now=101.0) == (True, None)  # another language
    await db.share_posted(1, 10, "en", 123456789012345678)
    assert await db.claim_share(1, 10, "en", now=5000.0) == (False, 123456789012345678)  # never stale once posted


async def test_a_claim_given_up_or_stale_can_be_taken_again(db):
    assert await db.claim_share(2, 10, "en", now=100.0) == (True, None)
    await db.share_posted(2, 10, "en", None)  # the drawing failed: given up
    assert await db.claim_share(2, 10, "en", now=101.0) == (True, None)
    assert await db.claim_share(2, 10, "en", now=101.0 + 899) == (False, None)
    assert await db.claim_share(2, 10, "en", now=101.0 + 901) == (True, None)  # its claimant died long ago


async def test_a_start_stores_the_first_turns_deadline_with_its_reminder(db):
    """The first turn's due times are stored by the start's own transaction, as a move stores the next turn's:
    its deadline too (the deadline pass finds it), not only the reminder."""
    from storage import Due, Seat

    ana, bo = Seat("1", "Ana"), Seat("2", "Bo")
    g = await db.create_game(guild_id=9, channel_id=1, game="fake", options={}, seed=5, creator=ana)
    row = await db.start_game(g.id, seats=[ana, bo], state_json="{}", due=Due(remind_at=500.0, deadline_at=900.0))
    assert row.deadline_at == 900.0 and (await db.load_game(g.id)).deadline_at == 900.0
    assert [r.id for r in await db.deadlines_due(1000.0)] == [g.id]
    assert await db.deadlines_due(800.0) == []


async def test_a_compact_tables_board_message_is_remembered_replaced_and_forgotten(db):
    """The living board's message id (cogs/_compact.py), 19 digits as Discord's are, on every backend."""
    assert await db.board_message(7) is None
    await db.set_board_message(7, 1234567890123456789)
    await db.set_board_message(8, 5)
    assert await db.board_message(7) == 1234567890123456789
    await db.set_board_message(7, 1234567890123456790)  # posted again (the old one was deleted)
    assert await db.board_message(7) == 1234567890123456790
    await db.set_board_message(7, None)
    assert await db.board_message(7) is None and await db.board_message(8) == 5


async def test_a_scheduled_reminder_moves_only_while_its_turn_is_pending(db):
    """`move_reminder` moves the reminder of the turn it names; one already claimed, or of an earlier turn, is
    left alone (False)."""
    from storage import Due, Seat

    ana, bo = Seat("1", "Ana"), Seat("2", "Bo")
    g = await db.create_game(guild_id=9, channel_id=1, game="fake", options={}, seed=5, creator=ana)
    row = await db.start_game(g.id, seats=[ana, bo], state_json="{}", due=Due(remind_at=500.0))
    assert not await db.move_reminder(g.id, row.turns + 1, 700.0)
    assert await db.move_reminder(g.id, row.turns, 700.0)
    assert (await db.load_game(g.id)).remind_at == 700.0
    assert await db.claim_reminders(600.0) == []
    assert await db.claim_reminders(700.0) == [g.id]
    assert not await db.move_reminder(g.id, row.turns, 900.0)  # claimed: nothing scheduled to move


async def test_a_review_is_begun_once_kept_with_its_progress_and_listed_while_it_runs(db):
    from storage import Review

    assert await db.review(7) is None and await db.reviews_running() == []
    first, second = await asyncio.gather(db.begin_review(7, now=10.0), db.begin_review(7, now=10.0))
    assert sorted([first, second]) == [False, True]  # two asking at once start it once
    assert await db.begin_review(8, now=11.0)
    assert await db.review(7) == Review(7, "running", (), 10.0)
    assert await db.reviews_running() == [7, 8] and await db.reviews_running(after=7) == [8]
    entries = ({"n": 1, "p": "1", "loss": 0.25, "best": {"a": [1, 2]}, "forced": False},)
    await db.save_review(Review(7, "running", entries), now=12.0)
    assert (await db.review(7)).entries == entries
    await db.save_review(Review(7, "done", entries * 2), now=13.0)
    assert await db.review(7) == Review(7, "done", entries * 2, 13.0)
    assert await db.reviews_running() == [8]  # a finished review leaves the running index
    assert not await db.begin_review(7, now=14.0)
