"""Nothing lost, nothing silent: every committed move gets exactly one public post and one ping, whatever step a
crash interrupts (the outbox), and a retried or double-clicked Confirm says "✅ Done" for the move it played."""

from __future__ import annotations

import random

import pytest

from tests.bot.driver import confirm_and_kill, create_and_start, movers, panel_at_confirm, play_one_action
from tests.bot.harness import CHANNEL_ID, Harness

# (the object whose fault hook stops the bot, the step): after the commit, after the board was drawn, after the
# post was sent but before its notice was cleared
CRASH_STEPS = [("session", "committed"), ("herald", "rendered"), ("herald", "posted")]


@pytest.mark.parametrize(("where", "step"), CRASH_STEPS, ids=[s for _, s in CRASH_STEPS])
async def test_a_crash_at_any_step_of_a_move_still_gives_one_post_and_one_ping(tmp_path, fake_game, users, where, step):
    h = await Harness.start(tmp_path / "games.sqlite3")
    try:
        ana, bo = users[:2]
        post = await create_and_start(h, "fake", [ana, bo], options="no-claps")
        panel = await panel_at_confirm(h, ana, post, "adds 4")
        h = await confirm_and_kill(h, ana, panel, where, step)
        row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
        assert row.version == 1
        posts = [m for m in h.public(CHANNEL_ID) if m.content.startswith("**Ana** adds 4.")]
        assert len(posts) == 1, [m.content for m in h.public(CHANNEL_ID)]
        assert posts[0].content.endswith(f"Your turn, <@{bo.id}>.") and len(posts[0].files) == 1
        later = [m for m in h.public(CHANNEL_ID) if m.id >= posts[0].id]
        assert sum(m.content.count(f"<@{bo.id}>") for m in later) == 1  # pinged once
        assert await h.bot.session.storage.games_with_notices() == []
        if "Confirm" in panel.labels():  # the crash came before her panel was answered: she retries
            await h.click(ana, panel, "Confirm")
        assert panel.content.startswith("✅ Done: **Ana** adds 4."), panel.content  # it was played, she is told
        assert (await h.bot.session.storage.game_in_channel(CHANNEL_ID)).version == 1
        # and the game goes on from the post
        await play_one_action(h, bo, posts[0], random.Random(1))
        assert (await h.bot.session.storage.game_in_channel(CHANNEL_ID)).version == 2
        assert h.last_public(CHANNEL_ID).content.startswith("**Bo** adds")
    finally:
        await h.close()
    assert h.fake.violations == []
    assert h.unexpected_errors == []


async def test_two_confirms_of_one_panel_play_once_and_the_panel_says_done(harness, users):
    h = harness
    ana, bo = users[:2]
    post = await create_and_start(h, "fake", [ana, bo], options="no-claps")
    panel = await panel_at_confirm(h, ana, post, "adds 4")
    before = len(h.public(CHANNEL_ID))
    clicks = await h.click_many([(ana, panel, "Confirm"), (ana, panel, "Confirm")])
    assert all(ia.response_type == 6 for ia in clicks)  # both answered at once (the panel edits itself)
    assert panel.content.startswith("✅ Done: **Ana** adds 4."), panel.content
    assert "moved on" not in panel.content and "not played" not in panel.content
    row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 1 and len(await h.bot.session.storage.moves(row.id)) == 1
    assert [m.content for m in h.public(CHANNEL_ID)[before:]] == [f"**Ana** adds 4.\nYour turn, <@{bo.id}>."]


async def test_two_confirms_of_an_exact_purchase_end_on_the_follow_up_panel(harness, users, monkeypatch):
    """A4/A22: an exact payment lets the buyer act again; confirmed twice at once, it is bought once and the
    panel ends on "✅ Done" with the buyer's next choices."""
    h = harness
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(11))  # the game's seed
    players = users[:3]
    by_id = {p.id: p for p in players}
    post = await create_and_start(h, "alhambra", players)
    rnd = random.Random(2)
    for _ in range(120):
        user = by_id[movers(post, players)[0]]
        r = await play_one_action(h, user, post, rnd, prefer=lambda t: "exact" in t or "Buy" in t, confirm=False)
        panel = r.message
        if "exact" in panel.content:
            version = (await h.bot.session.storage.game_in_channel(CHANNEL_ID)).version
            await h.click_many([(user, panel, "Confirm"), (user, panel, "Confirm")])
            assert panel.content.startswith(f"✅ Done: **{user.name}** buys"), panel.content
            assert (
                "What would you like to do?" in panel.content
                or "Choose your move" in panel.content
                or "possible move" in panel.content  # opened on the only kind with a choice (a menu)
                or "Play this move?" in panel.content
            ), panel.content  # the follow-up panel, in the same message
            assert panel.components, "the follow-up choices are on the panel"
            row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
            assert row.version == version + 1
            return
        await h.click(user, panel, "Confirm")
        post = h.last_public(CHANNEL_ID)
    pytest.fail("no exact purchase came up")


async def test_a_move_is_posted_from_its_committed_row_unless_a_later_notice_waits(harness, users):
    """The herald posts a move from the row its commit returned, without loading the game again. A row handed
    over while a notice of a later version waits (another move landed first) is not the game any more: the
    herald loads the game, and the post tells the later move."""
    h = harness
    ana, bo = users[:2]
    post = await create_and_start(h, "fake", [ana, bo], options="no-claps")
    session, herald = h.bot.session, h.bot.herald
    loads: list[int] = []
    real = session.storage.load_game

    async def counted(game_id):
        loads.append(game_id)
        return await real(game_id)

    session.storage.load_game = counted
    panel = await panel_at_confirm(h, ana, post, "adds 4")
    loads.clear()
    await h.click(ana, panel, "Confirm")
    await h.settle()
    row = await session.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 1 and h.last_public(CHANNEL_ID).content.startswith("**Ana** adds 4.")
    assert loads == [row.id, row.id]  # the click's own read, the session's under the game's lock; not the herald
    session.listeners.remove(herald.notify)  # Bo's move is committed, its notice left waiting
    try:
        await session.act(row.id, str(bo.id), session.legal_actions(row, str(bo.id))[0])
    finally:
        session.listeners.append(herald.notify)
    loads.clear()
    await herald.deliver(row.id, row=row)  # handed Ana's row (version 1) while Bo's notice (version 2) waits
    assert loads == [row.id]
    assert h.last_public(CHANNEL_ID).content.startswith("**Bo** adds"), h.last_public(CHANNEL_ID).content
    assert await session.storage.games_with_notices() == []
