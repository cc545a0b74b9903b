"""Undo with guardrails, for each game: a player takes back their own turn at once if nobody moved since and it
revealed nothing; a turn that revealed something (a draw, a refill) is refused with the reason; taking back
moves of others needs every other human's consent; what is left equals the replay of the remaining log, and
what was taken back is kept in the audit table."""

from __future__ import annotations

import random

import pytest

import engine
from tests.bot.driver import movers, play_one_action
from tests.bot.harness import CHANNEL_ID
from tests.bot.test_tempo import start as start_gardens
from tests.bot.test_tempo import table_post


async def state_and_turn(h, game):
    """The stored game, its move log, the states after each move, and whether the last turn revealed anything."""
    row = await h.bot.storage.game_in_channel(CHANNEL_ID)
    moves = await h.bot.storage.moves(row.id)
    states = await h.bot.session.replay(row, moves)
    rules = engine.get_rules(game)
    last = moves[-1].player if moves else None
    turn = []
    for m in reversed(moves):
        if m.player != last:
            break
        turn.append(m)
    revealed = any(
        rules.reveals(states[m.move_number - 1], m.player, rules.action_from_json(m.action), states[m.move_number])
        for m in turn
    )
    return row, moves, states, last, revealed


async def start(h, game, players):
    await h.run_command(players[0], "game create", game=game)
    lobby = h.last_public()
    for p in players[1:]:
        await h.click(p, lobby, "Join")
    await h.click(players[0], lobby, "Start")
    return h.last_public()


@pytest.mark.parametrize("game", ["alhambra", "gardens", "queens_garden"])
async def test_own_turn_is_taken_back_and_a_revealing_one_refused(bots, users, game):
    h, players = bots, users[:2]
    by_id = {p.id: p for p in players}
    rnd = random.Random(4)
    post = await start(h, game, players)
    undone = refused = False
    for _ in range(400):
        if undone and refused or "Game over" in post.content:
            break
        await play_one_action(h, by_id[movers(post, players)[0]], post, rnd)
        await h.settle()
        row, moves, states, last, revealed = await state_and_turn(h, game)
        user = next(p for p in players if p.sid == last)
        if revealed and not refused:  # A-, G19/G21, Q16: a draw or a refill can't be taken back
            r = await h.run_command(user, "game undo")
            assert "can't be taken back" in r.message.content and "revealed something hidden" in r.message.content
            assert (await h.bot.storage.game_in_channel(CHANNEL_ID)).version == row.version
            refused = True
        elif not revealed and not undone:
            first = len(moves)
            while first > 1 and moves[first - 2].player == last:
                first -= 1
            r = await h.run_command(user, "game undo")
            assert r.message.content.startswith("↩️ Done"), r.message.content
            await h.settle()
            after = await h.bot.storage.game_in_channel(CHANNEL_ID)
            rules = engine.get_rules(game)
            assert after.version == first - 1
            assert rules.from_json(after.state) == states[first - 1]  # the replay of what is left
            audit = await h.bot.storage.undone_moves(row.id)
            assert [m.move_number for m in audit] == list(range(first, len(moves) + 1))
            assert h.last_public().content.startswith("↩️ ")
            assert h.last_public().files  # the board again
            undone = True
        post = table_post(h)
    assert undone and refused


async def test_taking_back_others_moves_needs_everyone_and_the_first_no_ends_it(bots, users):
    """G17 (colours are chosen in seat order, revealing nothing): after Ana and Bo chose, Ana asks to take hers
    back; Bo and Cyd must both agree; a "no" ends the request; once all agree, both choices are undone."""
    h, (ana, bo, cyd) = bots, users[:3]
    rnd = random.Random(2)
    post = await start_gardens(h, [ana, bo, cyd])
    for user in (ana, bo):
        await play_one_action(h, user, post, rnd)
        await h.settle()
        post = table_post(h)
    r = await h.run_command(ana, "game undo")
    assert "asked to agree" in r.message.content
    ask = h.last_public()
    assert f"<@{bo.id}>" in ask.content and f"<@{cyd.id}>" in ask.content
    r = await h.click(ana, ask, "Agree")
    assert "not yours" in r.message.content
    await h.click(cyd, ask, "Refuse")
    await h.settle()
    assert "refused" in h.last_public().content
    row = await h.bot.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 2 and "undo" not in row.table
    await h.run_command(ana, "game undo")
    ask = h.last_public()
    r = await h.click(bo, ask, "Agree")
    assert "Still waiting for Cyd" in r.message.content
    assert (await h.bot.storage.game_in_channel(CHANNEL_ID)).version == 2
    await h.click(cyd, ask, "Agree")
    await h.settle()
    row = await h.bot.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 0 and [m.player for m in await h.bot.storage.undone_moves(row.id)] == [ana.sid, bo.sid]
    rules = engine.get_rules("gardens")
    assert rules.from_json(row.state) == rules.new_game(list(row.player_ids), row.options, row.seed)
    assert h.last_public().content.startswith("↩️ **Ana** took back:")
    assert h.last_public().content.splitlines()[-1] == f"Your turn, <@{ana.id}>."


@pytest.mark.parametrize("game", ["alhambra", "queens_garden"])
async def test_a_consent_undo_in_each_game_replays_the_rest(bots, users, game):
    """Ana's turn and Bo's after it revealed nothing: Ana asks, Bo agrees, both are taken back; the state is the
    replay of the moves left and both moves are in the audit (hidden information: nothing revealed is ever
    taken back, so no draw is offered again)."""
    h, (ana, bo) = bots, users[:2]
    by_id = {ana.id: ana, bo.id: bo}
    rnd = random.Random(7)
    post = await start(h, game, [ana, bo])
    rules = engine.get_rules(game)
    for _ in range(500):
        assert "Game over" not in post.content
        await play_one_action(h, by_id[movers(post, [ana, bo])[0]], post, rnd)
        await h.settle()
        post = table_post(h)
        row, moves, states, last, _ = await state_and_turn(h, game)
        asker = ana.sid if last == bo.sid else bo.sid
        mine = [m.move_number for m in moves if m.player == asker]
        if not mine:
            continue
        first = mine[-1]
        while first > 1 and moves[first - 2].player == asker:
            first -= 1
        if any(
            rules.reveals(states[m.move_number - 1], m.player, rules.action_from_json(m.action), states[m.move_number])
            for m in moves[first - 1 :]
        ):
            continue
        user, other = (ana, bo) if asker == ana.sid else (bo, ana)
        r = await h.run_command(user, "game undo")
        assert "asked to agree" in r.message.content, r.message.content
        await h.click(other, h.last_public(), "Agree")
        await h.settle()
        after = await h.bot.storage.game_in_channel(CHANNEL_ID)
        assert after.version == first - 1 and rules.from_json(after.state) == states[first - 1]
        assert [m.move_number for m in await h.bot.storage.undone_moves(row.id)] == list(range(first, len(moves) + 1))
        return
    pytest.fail("no turn followed by another that both revealed nothing")
