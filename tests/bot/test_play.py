"""Playing through the panel and /move: paging, narrowing, Back, out-of-turn actions, stale panels, a double
Confirm applied once, restarts."""

import random

import pytest

from tests.bot.driver import create_and_start, movers, play_one_action, play_to_end
from tests.bot.harness import CHANNEL_ID, Harness


async def open_kind(h, user, post, kind_label):
    panel = (await h.click(user, post, "Play my turn")).message
    await h.click(user, panel, kind_label)
    return panel


async def test_panel_pages_through_more_than_25_moves(harness, users):
    ana, bo = users[:2]
    post = await create_and_start(harness, "fake", [ana, bo], options="no-claps")
    panel = await open_kind(harness, ana, post, "Add")
    assert "30 possible moves (page 1 of 2)" in panel.content
    assert len(panel.selects()[0]["options"]) == 25 and panel.labels() == ["Next ▶", "Back"]
    await harness.click(ana, panel, "Next ▶")
    assert [o["label"] for o in panel.selects()[0]["options"]] == [f"adds {n}" for n in range(26, 31)]
    await harness.click(ana, panel, "◀ Previous")
    await harness.choose(ana, panel, 0, "adds 7")
    assert "Play this move? **Ana** adds 7." in panel.content
    await harness.click(ana, panel, "Back")  # Back steps the panel back, never a move
    assert "page 1 of 2" in panel.content
    await harness.choose(ana, panel, 0, "adds 9")
    await harness.click(ana, panel, "Confirm")
    assert panel.content.startswith("✅ Done: **Ana** adds 9.") and panel.components == []
    public = harness.last_public()
    assert (
        public.content == f"**Ana** adds 9.\nThe total passed 7: others may clap!\nYour turn, <@{bo.id}>."
        or public.content == f"**Ana** adds 9.\nYour turn, <@{bo.id}>."
    )


async def test_panel_narrows_a_long_list_by_the_actions_fields(harness, users):
    """30 "play" moves (3 cards x 10 boosts) are narrowed by card first, then chosen."""
    ana, bo = users[:2]
    post = await create_and_start(harness, "fake", [ana, bo])
    panel = await open_kind(harness, ana, post, "Play")
    groups = panel.selects()[0]["options"]
    assert len(groups) == 3 and all(g["label"].endswith("… (10 ways)") for g in groups)
    await harness.choose(ana, panel, 0, groups[1]["value"])
    labels = [o["label"] for o in panel.selects()[0]["options"]]
    assert len(labels) == 10 and all(label.startswith(groups[1]["label"].split(" …")[0]) for label in labels)
    await harness.click(ana, panel, "Back")
    assert len(panel.selects()[0]["options"]) == 3


async def test_out_of_turn_clap_and_private_draw(harness, users):
    """Several players in to_move: the others may clap out of turn; a drawn card is told only to its owner."""
    ana, bo, cyd = users[:3]
    post = await create_and_start(harness, "fake", [ana, bo, cyd])
    panel = await open_kind(harness, ana, post, "Add")
    await harness.choose(ana, panel, 0, "adds 8")
    await harness.click(ana, panel, "Confirm")
    post = harness.last_public()
    assert "others may clap" in post.content
    # the clappers act out of turn (the rules' `out_of_turn`): named in one line, never pinged; Bo's turn begins
    assert post.content.splitlines()[-2:] == [
        "⏳ **Ana**, **Cyd** may act out of turn until **Bo** acts.",
        f"Your turn, <@{bo.id}>.",
    ]
    clap = (await harness.click(cyd, post, "Play my turn")).message
    assert "Play this move? **Cyd** claps." in clap.content  # the only move: straight to Confirm
    bo_panel = (await harness.click(bo, post, "Play my turn")).message
    await harness.click(cyd, clap, "Confirm")
    # Bo was already pinged when the window opened: he is named without a new ping
    assert harness.last_public().content == f"**Cyd** claps for a point.\nStill to move: **{bo.name}**."
    # Bo's panel was opened before Cyd's clap: it is refused as stale and shows his choices now
    await harness.click(bo, bo_panel, "Play")
    assert bo_panel.content.startswith("*The game has moved on since this panel was opened")
    # Bo plays a card: he alone learns what he drew
    post = harness.last_public()
    bo_panel = await open_kind(harness, bo, post, "Play")
    await harness.choose(bo, bo_panel, 0, "0")
    await harness.choose(bo, bo_panel, 0, bo_panel.selects()[0]["options"][0]["value"])
    await harness.click(bo, bo_panel, "Confirm")
    assert "🔒 Only you see this: **Bo** draw the" in bo_panel.content
    public = harness.last_public().content
    assert "**Bo** draws a card" in public and "draw the" not in public


async def test_same_move_clicked_20_times_at_once_is_applied_once(harness, users):
    ana, bo = users[:2]
    post = await create_and_start(harness, "fake", [ana, bo], options="no-claps")
    panel = await open_kind(harness, ana, post, "Add")
    await harness.choose(ana, panel, 0, "adds 5")
    publics = len(harness.public())
    results = await harness.click_many([(ana, panel, "Confirm")] * 20)
    row = await harness.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 1 and len(await harness.bot.session.storage.moves(row.id)) == 1
    assert len(harness.public()) == publics + 1
    assert all(r.response_type is not None for r in results)
    assert "already played" in panel.content or "Done" in panel.content
    assert len(harness.fake.violations) == 0


async def test_concurrent_acts_through_the_session_apply_once(harness, users):
    """The session lock and the storage's version check: 20 racing submissions, one move."""
    import asyncio

    from cogs._session import StaleMove
    from tests.bot import fakegame

    ana, bo = users[:2]
    await create_and_start(harness, "fake", [ana, bo], options="no-claps")
    row = await harness.bot.session.storage.game_in_channel(CHANNEL_ID)
    outcomes = await asyncio.gather(
        *[harness.bot.session.act(row.id, ana.sid, fakegame.Add(5), expected_version=0) for _ in range(20)],
        return_exceptions=True,
    )
    assert sum(not isinstance(o, Exception) for o in outcomes) == 1
    assert all(isinstance(o, StaleMove) for o in outcomes if isinstance(o, Exception))
    assert (await harness.bot.session.load(row.id)).version == 1


async def test_move_command_autocompletes_the_legal_moves(harness, users):
    ana, bo = users[:2]
    await create_and_start(harness, "fake", [ana, bo], options="no-claps")
    choices = await harness.autocomplete(ana, "move", "action", action="adds 2")
    assert [c["name"] for c in choices] == [
        "adds 2",
        "adds 20",
        "adds 21",
        "adds 22",
        "adds 23",
        "adds 24",
        "adds 25",
        "adds 26",
        "adds 27",
        "adds 28",
        "adds 29",
    ]
    # not Bo's turn: no move offered, just the reason
    assert await harness.autocomplete(bo, "move", "action", action="") == [
        {"name": "It's not your turn: waiting for Ana.", "value": "none"}
    ]
    r = await harness.run_command(ana, "move", action=choices[1]["value"])
    assert r.message.content.startswith("✅ Done: **Ana** adds 20.")
    r = await harness.run_command(bo, "move", action=choices[0]["value"])  # Ana's old suggestion
    assert r.message.ephemeral and "earlier move" in r.message.content


@pytest.mark.parametrize("game", ["fake", "gardens"])
async def test_restart_mid_game_old_buttons_still_work(tmp_path, fake_game, users, game):
    """The bot is discarded mid-game and a new one started on the same database file: a table post and an
    ephemeral panel from before the restart still work, and the game finishes."""
    h = await Harness.start(tmp_path / "games.sqlite3")
    ana, bo = users[:2]
    rnd = random.Random(5)
    post = await create_and_start(h, game, [ana, bo])
    for _ in range(3):
        await play_one_action(h, {u.id: u for u in (ana, bo)}[rnd.choice(movers(post, [ana, bo]))], post, rnd)
        post = h.last_public()
    mover = {u.id: u for u in (ana, bo)}[movers(post, [ana, bo])[0]]
    panel = (await h.click(mover, post, "Play my turn")).message
    fake = h.fake
    h = await h.restart()
    assert h.fake is fake and h.bot is not None
    # the old panel's first choice still works after the restart
    if panel.selects():
        await h.choose(mover, panel, 0, panel.selects()[0]["options"][0]["value"])
    else:
        await h.click(mover, panel, panel.labels()[0])
    assert "Your move" in panel.content or "Play this move?" in panel.content
    final, _ = await play_to_end(h, [ana, bo], post, rnd)  # `post` is from before the restart
    assert "Game over" in final.content
    await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


async def test_placement_preview_before_confirm(harness, users):
    """UX: a placement shows a small picture of the player's own board before Confirm; Back removes it."""
    ana, bo = users[:2]
    post = await create_and_start(harness, "gardens", [ana, bo])
    for user in (ana, bo):  # choose colours (G17)
        panel = (await harness.click(user, post, "Play my turn")).message
        await harness.choose(user, panel, 0, panel.selects()[0]["options"][0]["value"])
        await harness.click(user, panel, "Confirm")
        post = harness.last_public()
    panel = (await harness.click(ana, post, "Play my turn")).message
    await harness.choose(ana, panel, 0, panel.selects()[0]["options"][0]["value"])  # a space
    assert panel.files == []
    await harness.choose(ana, panel, 0, panel.selects()[0]["options"][1]["value"])  # a rotation
    assert "Play this move?" in panel.content and [f[0] for f in panel.files] == ["preview.png"]
    assert panel.files[0][1].startswith(b"\x89PNG")
    await harness.click(ana, panel, "Back")
    assert panel.files == [] and panel.selects()
