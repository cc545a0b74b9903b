"""A quieter channel (`posts:compact`, cogs/_compact.py): a game keeps one living board message, edited after every
move to the board of the stored position, and only what must notify somebody is posted (the turn line that pings,
the clock's notices, the results). It survives a kill -9 mid-edit with one board and one turn line, and the old
buttons work after a restart."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest

import engine
from cogs._session import Session
from cogs._undo import replayed
from render import render_state
from tests.bot.driver import movers, play_one_action
from tests.bot.harness import CHANNEL_ID, Harness, Msg
from tests.bot.test_tempo import start

HEADING = re.compile(r"^📋 \*\*.+\*\* \(game #\d+\), move (\d+)$")
GAMES = [("alhambra", 2), ("gardens", 2), ("queens_garden", 1)]


def track_board(h: Harness) -> list[tuple[int, str, bytes]]:
    """Every state the fake's messages take that carries a board: (message id, content, board PNG), in order."""
    seen: list[tuple[int, str, bytes]] = []
    fake = h.fake
    create, edit = fake.create, fake.edit

    def record(msg: Msg) -> Msg:
        boards = [data for name, data in msg.files if name == "board.png"]
        if boards and msg.public:
            seen.append((msg.id, msg.content, boards[0]))
        return msg

    fake.create = lambda *a, **k: record(create(*a, **k))  # type: ignore[method-assign]
    fake.edit = lambda *a, **k: record(edit(*a, **k))  # type: ignore[method-assign]
    return seen


async def stored_board(h: Harness) -> bytes:
    row = await h.bot.storage.game_in_channel(CHANNEL_ID)
    return render_state(row.game, row.state_json, None, Session.names(row))


async def living_board(h: Harness) -> Msg:
    row = await h.bot.storage.last_game_in_channel(CHANNEL_ID)
    board = await h.bot.storage.board_message(row.id)
    assert board is not None
    return h.fake.messages[board]


@pytest.mark.parametrize(("game", "ai_players"), GAMES, ids=[g for g, _ in GAMES])
async def test_a_compact_game_keeps_one_board_that_shows_the_stored_position_after_every_move(
    bots, users, game, ai_players
):
    """The AI plays the whole game (Ana away, the AI playing for her, AI seats beside her). Every board the
    channel is shown is the one living message, and each of its states is the render of the stored position after
    the move it names; the last is the final position. Besides the board only the first turn
    line and the results are posted."""
    h, ana = bots, users[0]
    await h.run_command(ana, "away", until="30d", ai=True)
    seen = track_board(h)
    r = await h.run_command(ana, "game create", game=game, ai_players=ai_players, ai_level="easy", posts="compact")
    assert "is set up" in r.message.content
    lobby = h.last_public()
    await h.click(ana, lobby, "Start")
    for _ in range(3000):
        await h.settle()
        if "**Game over**" in h.last_public().content:
            break
    storage = h.bot.storage
    row = await storage.last_game_in_channel(CHANNEL_ID)
    assert row.status == "finished"
    board = await living_board(h)
    assert {mid for mid, _, _ in seen} == {board.id}  # one board message, never another post with a board
    rules = engine.get_rules(game)
    states = list(replayed(row, await storage.moves(row.id)))
    shown = []
    for _mid, content, png in seen:
        version = int(HEADING.match(content.splitlines()[0])[1])
        expected = render_state(game, json.dumps(rules.to_json(states[version])), None, Session.names(row))
        assert png == expected, f"the board of move {version} is not the stored position after it"
        shown.append(version)
    assert shown == sorted(shown) and shown[0] == 0 and shown[-1] == row.version
    assert board.files[0][1] == render_state(game, row.state_json, None, Session.names(row))
    assert len(board.files) == 1 and board.edits == len(seen) - 1  # an edit replaces the image, never adds one
    posts = [m for m in h.public() if m.id > lobby.id and m.id != board.id]
    final = posts[-1]
    assert "**Game over**" in final.content and [n for n, _ in final.files] == ["scores.png"], final.content
    # the start names who begins (Ana's is pinged: her away mode came before the game); nothing else is posted
    assert len(posts) <= 2 and all(m.content.startswith("Your turn") for m in posts[:-1]), [m.content for m in posts]
    assert len(seen) <= row.version + 1  # at most one edit per move (several when the herald is behind: one)


async def test_turn_lines_ping_the_next_player_and_the_board_follows_every_move(bots, users):
    """Two humans play Gardens compactly from the board's buttons: after each move the board is the stored
    position, and one short turn line (no image) pings the player whose turn begins, with a link to the board."""
    h, (ana, bo) = bots, users[:2]
    post = await start(h, [ana, bo], posts="compact")
    board = await living_board(h)
    assert board.files and post.id == board.id + 1 and post.content.startswith("Your turn, <@")  # the start's
    rnd = random.Random(4)
    for _ in range(8):
        who = {ana.id: ana, bo.id: bo}[movers(board, [ana, bo])[0]]
        before = len(h.public())
        await play_one_action(h, who, board, rnd)
        await h.settle()
        assert board.files[0][1] == await stored_board(h) and len(board.files) == 1
        new = h.public()[before:]
        assert all(not m.files for m in new), [m.content for m in new]
        nxt = movers(board, [ana, bo])
        if nxt != [who.id]:  # a turn began: its player is pinged once, in a short line
            assert len(new) == 1 and new[0].content.startswith(f"Your turn, <@{nxt[0]}>"), [m.content for m in new]
            assert f"/{board.id})" in new[0].content and "Play my turn" in new[0].labels()
        else:
            assert new == []
        assert "<@" not in board.content  # the board names, never pings (an edit notifies nobody)


@pytest.mark.parametrize("step", ["rendered", "edited"])
async def test_a_kill_mid_edit_leaves_one_board_one_turn_line_and_buttons_that_work(tmp_path, users, step):
    """The bot dies while editing the board after Ana's move (before the edit, or after it before the turn line):
    after the restart the board shows the stored position, Bo is pinged once, and the board's buttons and those
    of an earlier turn line (posted by the dead process) still play."""
    h = await Harness.start(tmp_path / "games.sqlite3", ai_processes=0)
    try:
        ana, bo = users[:2]
        await start(h, [ana, bo], posts="compact")
        board = await living_board(h)
        rnd = random.Random(7)
        while movers(board, [ana, bo]) != [ana.id] or not h.public()[-1].content.startswith("Your turn"):
            who = {ana.id: ana, bo.id: bo}[movers(board, [ana, bo])[0]]
            await play_one_action(h, who, board, rnd)
            await h.settle()
        old_line = h.public()[-1]
        panel = (await play_one_action(h, ana, board, rnd, confirm=False)).message
        reached = asyncio.Event()

        async def die_here(name: str) -> None:
            if name == step:
                reached.set()
                await asyncio.Event().wait()  # killed while it stands here

        h.bot.herald.fault = die_here
        payload, ia = h.component_payload(ana, panel, h.button(panel, "Confirm")["custom_id"], 2)
        h.send(payload, ia)
        await asyncio.wait_for(reached.wait(), 10)
        count = len(h.public())
        h = await h.kill()
        await h.settle()  # the start-up pass delivers what the outbox holds
        assert await h.bot.storage.games_with_notices() == []
        assert await living_board(h) is board and board.files[0][1] == await stored_board(h)
        assert len(board.files) == 1
        new = [m for m in h.public()[count - 1 :] if m.id > old_line.id]
        nxt = movers(board, [ana, bo])
        pings = [m for m in new if f"<@{nxt[0]}>" in m.content]
        assert len(pings) <= 1 and (len(pings) == 1) == (nxt == [bo.id]), [m.content for m in new]
        assert not any(m.files for m in new)
        # the old buttons: the board's, then an earlier turn line's (both made before the restart)
        who = {ana.id: ana, bo.id: bo}[nxt[0]]
        await play_one_action(h, who, board, rnd)
        await h.settle()
        assert board.files[0][1] == await stored_board(h)
        r = await h.click(users[0], old_line, "Board")
        assert r.message is not None and r.message.ephemeral and r.message.files
        assert h.fake.violations == [] and h.unexpected_errors == []
    finally:
        await h.close()


async def test_settings_switch_a_running_game_to_compact_and_back(bots, users):
    """`/game settings posts:compact` (creator only): the next move starts a living board below the posts so far;
    `posts:every` goes back to a post per move."""
    h, (ana, bo) = bots, users[:2]
    post = await start(h, [ana, bo])
    r = await h.run_command(bo, "game settings", posts="compact")
    assert "Only the creator" in r.message.content
    r = await h.run_command(ana, "game settings", posts="compact")
    assert "Posts: compact" in r.message.content, r.message.content
    rnd = random.Random(9)
    who = {ana.id: ana, bo.id: bo}[movers(post, [ana, bo])[0]]
    await play_one_action(h, who, post, rnd)
    await h.settle()
    board = await living_board(h)
    assert board.id > post.id and board.files[0][1] == await stored_board(h)
    await h.run_command(ana, "game settings", posts="every")
    who = {ana.id: ana, bo.id: bo}[movers(board, [ana, bo])[0]]
    edits = board.edits
    await play_one_action(h, who, board, rnd)
    await h.settle()
    assert board.edits == edits and h.last_public().files  # a post with its board again
