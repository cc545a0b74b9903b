"""Every post tells the truth: after an undo every public board is the stored position (no cache serves a board
of a position taken back), each notice is sent once even when AI runs make many posts at once, an animation is
shared once per channel (two Shares at once, or a Share after a restart), and the drawing and AI worker
processes end by themselves when the bot that started them dies."""

from __future__ import annotations

import os
import random
import signal
import time

import pytest

import engine
from cogs._session import Session
from render import render_state
from tests.bot.driver import movers, play_one_action
from tests.bot.harness import CHANNEL_ID, OTHER_CHANNEL_ID, Harness
from tests.bot.test_replays import stored_game
from tests.bot.test_shutdown import Bot
from tests.bot.test_shutdown import start_gardens as start_process_gardens
from tests.bot.test_tempo import start as start_gardens
from tests.bot.test_tempo import table_post


async def stored_board(h: Harness) -> bytes:
    """The public board of the stored position, drawn here from the database's state."""
    row = await h.bot.storage.game_in_channel(CHANNEL_ID)
    return render_state(row.game, row.state_json, None, Session.names(row))


async def assert_board_is_stored(h: Harness, what: str) -> None:
    post = h.last_public()
    assert post.files, f"{what}: no board in {post.content!r}"
    assert post.files[0][1] == await stored_board(h), f"{what}: the board is not the stored position"


async def test_every_board_after_an_undo_is_the_stored_position(bots, users):
    """G17 colours are chosen in seat order and reveal nothing, so they can be taken back at once (own undo) or
    with consent. Bo takes his choice back and chooses again: the new move reuses the number of the one taken
    back, and its post must show the new position. Later Bo asks to take back his turn after Cyd moved (consent):
    the "took back" post shows the position after the undo, which again has a number an undone move had."""
    h, (ana, bo, cyd) = bots, users[:3]
    rules = engine.get_rules("gardens")
    post = await start_gardens(h, [ana, bo, cyd])
    rnd = random.Random(3)

    async def play(user, what):
        await play_one_action(h, user, table_post(h), rnd)
        await h.settle()
        await assert_board_is_stored(h, what)

    await play(ana, "Ana's colour")
    await play(bo, "Bo's colour")
    taken_back = (await h.bot.storage.game_in_channel(CHANNEL_ID)).state_json
    for _attempt in range(10):  # Bo takes his colour back and chooses another one
        r = await h.run_command(bo, "game undo")
        assert r.message.content.startswith("↩️ Done"), r.message.content
        await h.settle()
        await assert_board_is_stored(h, "after Bo's own undo")
        await play(bo, "Bo's colour again (the number of the move taken back)")
        if (await h.bot.storage.game_in_channel(CHANNEL_ID)).state_json != taken_back:
            break
    else:
        raise AssertionError("Bo chose the same colour ten times")
    await play(cyd, "Cyd's colour")
    r = await h.run_command(bo, "game undo")
    assert "asked to agree" in r.message.content, r.message.content
    ask = h.last_public()
    for user in (ana, cyd):
        await h.click(user, ask, "Agree")
    await h.settle()
    assert h.last_public().content.startswith("↩️ **Bo** took back:"), h.last_public().content
    await assert_board_is_stored(h, "after the consented undo")
    row = await h.bot.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 1 and rules.from_json(row.state) is not None
    await play(bo, "Bo's colour after the consented undo")
    post = table_post(h)
    assert movers(post, [ana, bo, cyd]) == [cyd.id]


async def test_each_notice_is_sent_once_over_hundreds_of_posts_with_ai_runs(bots, users):
    """Whole games played by the AI alone (Ana away with the AI playing for her, AI seats beside her), where
    every commit asks the herald to post while it is still posting: the fake counts every message create that
    carries a nonce, before Discord's enforce_nonce rule would hide a second one. Over 300 posts: none twice."""
    h, ana = bots, users[0]
    r = await h.run_command(ana, "away", until="30d", ai=True)
    assert "The AI plays your turns" in r.message.content
    games = 0
    while sum(h.fake.nonce_sends.values()) < 300:
        tables = ((CHANNEL_ID, "queens_garden", 1), (OTHER_CHANNEL_ID, "alhambra", 2))
        for channel, game, ai in tables:  # two games at once, both played by the AI alone
            await h.run_command(ana, "game create", channel_id=channel, game=game, ai_players=ai, ai_level="easy")
            await h.click(ana, h.last_public(channel), "Start")
        for _ in range(2000):
            await h.settle()
            if all("Game over" in h.last_public(channel).content for channel, *_ in tables):
                break
        for channel, *_ in tables:
            assert "Game over" in h.last_public(channel).content, h.last_public(channel).content
        games += 2
    twice = {key: n for key, n in h.fake.nonce_sends.items() if n > 1}
    assert twice == {}, f"{len(twice)} of {len(h.fake.nonce_sends)} notices were sent more than once"
    assert games >= 2


def gifs(h: Harness) -> list:
    return [m for m in h.public() if any(name.endswith(".gif") for name, _data in m.files)]


async def test_two_shares_at_once_and_a_share_after_a_restart_post_one_animation(tmp_path, users):
    """Ana and Bo press Share at once: one GIF in the channel, the other is told it is being drawn; after a
    restart (the bot's memory gone) a Share links to that post instead of drawing and posting it again."""
    ana, bo = users[:2]
    h = await Harness.start(tmp_path / "games.sqlite3", ai_processes=0)
    try:
        await stored_game(h, 7, "gardens", 2, 5)
        views = [(await h.run_command(u, "game replay", game=7)).message for u in (ana, bo)]
        answers = await h.click_many(
            [(ana, views[0], "Share as animated GIF"), (bo, views[1], "Share as animated GIF")]
        )
        await h.settle()
        assert len(gifs(h)) == 1, [m.content for m in gifs(h)]
        texts = sorted(a.original.content for a in answers)
        assert texts[0].startswith("The animation of this game is being drawn"), texts
        assert texts[1].startswith("✅ Posted: "), texts
        post = gifs(h)[0]
        h = await h.restart()
        viewer = (await h.run_command(bo, "game replay", game=7)).message
        r = await h.click(bo, viewer, "Share as animated GIF")
        assert r.message.content.endswith(f"/{post.id}") and "already in this channel" in r.message.content
        assert len(gifs(h)) == 1 and h.bot.get_cog("ReplayCog").replays.drawn == 0
    finally:
        await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


def descendants(pid: int) -> set[int]:
    """The live processes below `pid` (children, their children...), read from /proc (zombies are not alive)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    out.add(pid)
        except OSError:
            pass
    return out


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="counts processes through /proc (Linux)")
def test_no_worker_of_the_bot_outlives_a_kill_9_by_10_seconds(tmp_path):
    """The real bot process with its drawing workers (started before it connects) and its AI worker (started by
    the first AI decision) is killed with SIGKILL, as the out-of-memory killer or a crash would end it: 10 s
    later none of the processes it started is alive."""
    b = Bot(tmp_path, AI_PROCESSES="1", RENDER_PROCESSES="2", AI_BUDGET="20")
    try:
        start_process_gardens(b, ai_players=1, ai_level="hard")
        b.send(user=0, play=7)
        b.wait_for(lambda c: c.startswith("**AI (hard) 1**"))  # the AI has decided in its worker
        workers = descendants(b.proc.pid)
        assert len(workers) >= 3, workers  # two drawing workers and the AI's (and multiprocessing's tracker)
    finally:
        b.proc.send_signal(signal.SIGKILL)
        b.proc.wait(10)
    deadline = time.monotonic() + 10
    while alive(workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = alive(workers)
    for pid in left:  # do not leak them into the rest of the run
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} of {len(workers)} worker processes outlived the bot by 10 s"
