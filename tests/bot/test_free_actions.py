"""Free actions (Alhambra's bonus cards, V62/V66; the test game's wave) are stored as moves but are not turns:
an open move panel or /move suggestion of another player stays valid, nobody is pinged, the idle clock keeps
running; a real move still makes old panels stale. Also: the engines' "move" log entries are never printed."""

from __future__ import annotations

import random

import engine
from cogs import _images
from tests.bot import fakegame
from tests.bot.driver import create_and_start, movers, play_one_action
from tests.bot.harness import CHANNEL_ID


async def wave(h, user):
    """`user` waves (a free action) through the session, announced like any move."""
    row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
    result = await h.bot.session.act(row.id, user.sid, fakegame.Wave())
    await h.settle()  # the herald posts the notice
    return result


async def click_to_confirm(h, user, panel):
    """Follow the panel's first choices to the Confirm step."""
    for _ in range(10):
        if "Confirm" in panel.labels():
            return
        if panel.selects():
            await h.choose(user, panel, 0, panel.selects()[0]["options"][0]["value"])
        else:
            await h.click(user, panel, panel.labels()[0])
        assert "moved on" not in panel.content, panel.content
    raise AssertionError(panel.content)


async def test_a_free_action_by_another_player_leaves_an_open_panel_valid(harness, users):
    """V62 [BOT]: Ana's panel, opened before Bo waves, still works at every step; the wave is announced
    without a ping or a "your turn"; Ana's move then makes Bo's old panel stale as before."""
    h = harness
    ana, bo = users[:2]
    post = await create_and_start(h, "fake", [ana, bo], options="no-claps")
    panel = (await h.click(ana, post, "Play my turn")).message
    await h.click(ana, panel, "Add")  # a step before the wave
    started = (await h.bot.session.storage.game_in_channel(CHANNEL_ID)).turn_started_at
    result = await wave(h, bo)
    assert result.free and result.row.version == 1 and result.row.turns == 0
    assert result.row.turn_started_at == started  # Ana's idle clock (reminders) keeps running
    public = h.last_public(CHANNEL_ID).content
    assert public == "**Bo** waves at the table.\nStill to move: **Ana**."  # the move told once
    assert "<@" not in public and "Your turn" not in public
    await h.choose(ana, panel, 0, "adds 4")  # steps after the wave
    assert "Play this move? **Ana** adds 4." in panel.content and "moved on" not in panel.content
    await h.click(ana, panel, "Confirm")
    assert panel.content.startswith("✅ Done: **Ana** adds 4.")
    row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert (row.version, row.turns) == (2, 1)
    assert h.last_public(CHANNEL_ID).content.splitlines()[-1] == f"Your turn, <@{bo.id}>."


async def test_a_real_move_still_makes_an_open_panel_stale(harness, users):
    """A turn action between opening a panel and clicking it is refused, even if the list reads alike."""
    h = harness
    ana, bo, cyd = users[:3]
    post = await create_and_start(h, "fake", [ana, bo, cyd])
    panel = (await h.click(ana, post, "Play my turn")).message
    await h.click(ana, panel, "Add")
    await h.choose(ana, panel, 0, "adds 8")  # crosses 7: a clap window for Bo and Cyd
    await h.click(ana, panel, "Confirm")
    post = h.last_public(CHANNEL_ID)
    bo_panel = (await h.click(bo, post, "Play my turn")).message
    clap = (await h.click(cyd, post, "Play my turn")).message
    await wave(h, ana)  # a free action: Bo's panel is still fine
    await h.click(bo, bo_panel, "Add")
    assert "moved on" not in bo_panel.content
    await h.click(cyd, clap, "Confirm")  # a turn action (out of turn): now it is stale
    await h.click(bo, bo_panel, "Back")
    assert bo_panel.content.startswith("*The game has moved on since this panel was opened")


async def test_move_suggestion_survives_a_free_action_but_not_a_move(harness, users):
    """/move: a suggestion listed before someone's wave still plays; one from before a real move does not."""
    h = harness
    ana, bo = users[:2]
    await create_and_start(h, "fake", [ana, bo], options="no-claps")
    choices = await h.autocomplete(ana, "move", "action", action="adds 3")
    await wave(h, bo)
    r = await h.run_command(ana, "move", action=choices[0]["value"])
    assert r.message.content.startswith("✅ Done: **Ana** adds 3.")
    bo_choice = (await h.autocomplete(bo, "move", "action", action="adds 5"))[0]["value"]
    await wave(h, ana)
    r = await h.run_command(bo, "move", action=bo_choice)
    assert r.message.content.startswith("✅ Done: **Bo** adds 5.")
    r = await h.run_command(ana, "move", action=choices[0]["value"])  # Ana's suggestion from two turns ago
    assert "earlier move" in r.message.content


async def test_engine_move_entries_are_not_printed(harness, users, monkeypatch):
    """The engines log a "move" entry per turn action (describe() text, the action's JSON) for the images; the
    bot prints the action's own text once and never turns those entries into lines."""
    h = harness
    ana, bo = users[:2]
    await create_and_start(h, "fake", [ana, bo])
    row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
    result = await h.bot.session.act(row.id, ana.sid, fakegame.Add(3))
    await h.settle()
    state = h.bot.session.state_of(result.row)
    assert [(e.kind, e.text, e.data) for e in state.log] == [("move", "adds 3", {"action": {"kind": "add", "n": 3}})]
    assert result.action_text == "adds 3"
    assert h.last_public(CHANNEL_ID).content == f"**Ana** adds 3.\nYour turn, <@{bo.id}>."
    # an entry that does not echo the move text would otherwise be printed: it is left out by its kind
    monkeypatch.setattr(fakegame.FakeRules, "describe", lambda self, a: "adds some")
    result = await h.bot.session.act(row.id, bo.sid, fakegame.Add(2))
    await h.settle()
    assert result.action_text == "adds some"
    assert h.last_public(CHANNEL_ID).content == f"**Bo** adds some.\nYour turn, <@{ana.id}>."


async def test_bonus_card_played_by_another_player_leaves_an_open_panel_valid(harness, users, monkeypatch):
    """V62 [BOT], with the real Alhambra engine and only clicks: while Ana's move panel is open, Bo plays a bonus
    card from the Bonus cards panel; the post names Ana without a ping, and Ana's panel still plays her move.
    Bo's bonus panel, opened before Ana's move, still works after it (free actions need no turn)."""
    rules = engine.get_rules("alhambra")
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(3))  # the game's seed
    monkeypatch.setattr(_images, "_draw_state", lambda *args, **kwargs: None)  # text posts: fast
    h, players = harness, users[:2]
    by_id = {p.id: p for p in players}
    session = h.bot.session
    post = await create_and_start(h, "alhambra", players, options="bonus")
    rnd = random.Random(4)
    for _ in range(300):  # play until the player who is not to move holds a playable bonus card
        row = await session.storage.game_in_channel(CHANNEL_ID)
        state = session.state_of(row)
        current = rules.to_move(state)[0]
        holders = [
            p
            for p in players
            if p.sid != current and any(type(a).__name__ == "PlayBonus" for a in rules.free_actions(state, p.sid))
        ]
        if holders and rules.to_move(state) == [current] and not state.seat(current).pending:
            break
        await play_one_action(
            h, by_id[movers(post, players)[0]], post, rnd, prefer=lambda t: "buy" in t.lower() or "place" in t.lower()
        )
        post = h.last_public(CHANNEL_ID)
    else:
        raise AssertionError("nobody got a playable bonus card")
    ana, bo = by_id[int(current)], holders[0]
    panel = (await h.click(ana, post, "Play my turn")).message
    bonus = (await h.click(bo, post, "Bonus cards")).message
    option = next(o for o in bonus.selects()[0]["options"] if "plays the bonus card" in o["label"])
    await h.choose(bo, bonus, 0, option["value"])
    await h.click(bo, bonus, "Confirm")
    assert "✅ Done" in bonus.content, bonus.content
    played = h.last_public(CHANNEL_ID).content
    assert "plays the bonus card" in played
    assert played.splitlines()[-1] == f"Still to move: **{ana.name}**." and "<@" not in played
    bonus = (await h.click(bo, post, "Bonus cards")).message  # opened again, before Ana's move
    await click_to_confirm(h, ana, panel)
    await h.click(ana, panel, "Confirm")
    assert panel.content.startswith(f"✅ Done: **{ana.name}**"), panel.content
    row = await session.storage.game_in_channel(CHANNEL_ID)
    assert row.turns == row.version - 1  # one free action among the moves
    option = next(o for o in bonus.selects()[0]["options"] if "only before the final scoring" in o["label"])
    await h.choose(bo, bonus, 0, option["value"])  # V66, after Ana's move: still valid
    await h.click(bo, bonus, "Confirm")
    assert "✅ Done" in bonus.content, bonus.content
