"""AI seats and the vizier out of turn (Alhambra, The Vizier's Favour, V4/V6/V7/V12), through the harness: AI
claimants are asked `ai.choose(..., optional=True)` once per position, before an AI whose turn it is (V7), and a
purchase they choose is played like any move; a human whose turn it is is never kept waiting by them (their click
wins, the AI's stale decision is dropped); a restart resumes an AI turn left half-way."""

from __future__ import annotations

import asyncio
import random
import threading
import time

import pytest

import ai
import engine
from cogs import _images
from cogs.ai_seats import AISeatsCog
from tests.bot.driver import announced_scores, movers, play_one_action, play_to_end
from tests.bot.harness import CHANNEL_ID, Harness


def cog_of(h: Harness) -> AISeatsCog:
    cog = h.bot.get_cog("AISeatsCog")
    assert type(cog).__name__ == "AISeatsCog"
    return cog


class Recorder:
    """Wraps the real `ai.choose` in the bot's process (the cog decides in a thread: AI_PROCESSES=0) and records
    every decision in order: (seed, seat, optional, action). With `hold`, the first optional decision whose state
    it accepts waits in its thread until `release` is set, then buys the first vizier purchase it may."""

    def __init__(self, monkeypatch):
        self.calls: list[tuple[int, str, bool, object]] = []
        self.hold = None
        self.held = threading.Event()  # set when a decision is being held
        self.release = threading.Event()
        real = ai.choose

        def choose(game, state, seat, level, seed, budget=None, *, optional=False):
            action = real(game, state, seat, level, seed, budget, optional=optional)
            if optional and self.hold is not None and not self.held.is_set() and self.hold(state):
                self.held.set()
                assert self.release.wait(10), "the test never released the held decision"
                legal = engine.get_rules(game).legal_actions(state, seat)
                action = next(a for a in legal if type(a).__name__ == "VizierBuy")
            self.calls.append((seed, seat, optional, action))
            return action

        monkeypatch.setattr(ai, "choose", choose)


@pytest.fixture
def recorder(monkeypatch, harness):
    cog_of(harness).processes = 0
    cog_of(harness).budget = 8  # hard: a few iterations, deterministic
    return Recorder(monkeypatch)


async def vizier_table(h: Harness, ana, levels: tuple[str, ...], seed: int):
    """Alhambra with the vizier module: Ana and AI seats of `levels`, started with a fixed game seed."""
    real = random.SystemRandom
    random.SystemRandom = lambda: random.Random(seed)  # the game's seed (restored below)
    try:
        await h.run_command(ana, "game create", game="alhambra", options="vizier")
        lobby = h.last_public()
        panel = (await h.click(ana, lobby, "Add AI")).message
        for level in levels:
            await h.choose(ana, panel, 0, level)
        await h.click(ana, lobby, "Start")
    finally:
        random.SystemRandom = real
    return h.last_public()


def replay(rules, row, moves):
    """The state before each move (index = move number) and after the last one."""
    states = [rules.new_game(list(row.player_ids), row.options, row.seed)]
    for m in moves:
        states.append(rules.apply(states[-1], m.player, rules.action_from_json(m.action)))
    return states


async def finished_vizier_game(h: Harness, ana):
    """Ana (random clicks) and AI seats normal + easy play a whole vizier game (seed 31) to its end; returns the
    final post, Ana's action count, the stored row, its moves and the state before each move (and after the last)."""
    post = await vizier_table(h, ana, ("normal", "easy"), seed=31)
    final, human_actions = await play_to_end(h, [ana], post, random.Random(5))
    assert "Game over" in final.content
    storage = h.bot.session.storage
    row = await storage.last_game_in_channel(CHANNEL_ID)
    moves = await storage.moves(row.id)
    return final, human_actions, row, moves, replay(engine.get_rules("alhambra"), row, moves)


def ai_claimants(rules, state) -> list[str]:
    """The AI seats that may buy out of turn in `state` (not the current player), in V7 order."""
    side = set(rules.vizier_claimants(state))
    return [p for p in rules.to_move(state)[1:] if p in side and ai.is_ai(p)]


async def test_V4_V7_ai_seats_use_the_vizier_out_of_turn_and_the_game_finishes(harness, users, recorder, monkeypatch):
    """A whole game of Ana and two AI seats with the vizier module: AI claimants are asked once per position, all
    of them before an AI whose turn it is (V7: the window closes with its first action, V12); at least one AI buys
    out of turn (V4/V6: then places the tile, announced in one post); the final post has the engine's scores."""
    monkeypatch.setattr(_images, "_draw_state", lambda *args, **kwargs: None)  # text posts: the pictures aren't tested
    t0 = time.perf_counter()
    final, human_actions, row, moves, states = await finished_vizier_game(harness, users[0])
    rules = engine.get_rules("alhambra")
    assert row.status == "finished" and rules.to_json(states[-1]) == row.state
    assert announced_scores(final) == {row.seat_name(p): s for p, s in rules.scores(states[-1]).items()}

    # out-of-turn purchases by AI seats (V4): a VizierBuy by a player whose turn it was not, then its placement
    out_of_turn = [
        (m, states[i])
        for i, m in enumerate(moves)
        if type(rules.action_from_json(m.action)).__name__ == "VizierBuy"
        and m.player != states[i].players[states[i].current]
    ]
    by_ai = [m for m, _ in out_of_turn if ai.is_ai(m.player)]
    assert by_ai, "no AI seat used its vizier out of turn"
    text = "\n".join(m.content for m in harness.public())
    for m in by_ai:
        buy = rules.describe(rules.action_from_json(m.action))
        assert f"**{row.seat_name(m.player)}** {buy}." in text

    # each optional decision once per (position, seat); claimants first, in V7 order, before the AI to move
    optional = [(seed, seat) for seed, seat, opt, _ in recorder.calls if opt]
    assert len(optional) == len(set(optional)) and optional
    for i, (seed, seat, opt, _) in enumerate(recorder.calls):
        version = seed - row.seed
        if opt:
            assert seat in ai_claimants(rules, states[version]), (version, seat)
            continue
        asked = [s for sd, s, o, _ in recorder.calls[:i] if o and sd == seed]
        want = ai_claimants(rules, states[version])
        assert asked == want, (version, seat, asked, want)
    bought = [(seed, seat) for seed, seat, opt, a in recorder.calls if opt and a is not None]
    assert len(bought) == len(by_ai)
    print(
        f"\nalhambra+vizier, Ana + 2 AI: {row.version} moves ({human_actions} by Ana), {len(optional)} optional "
        f"decisions, {len(by_ai)} AI vizier purchases out of turn, in {time.perf_counter() - t0:.1f}s"
    )


async def test_V12_a_human_whose_turn_it_is_is_not_kept_waiting_by_an_ai_claimant(
    harness, users, recorder, monkeypatch
):
    """V12: while an AI claimant still decides whether to buy out of turn, Ana (whose turn it is) plays: her move
    goes through and is posted at once; the AI's decision, a vizier purchase for a position that is gone, is
    dropped (the window closed with Ana's action) and nothing is asked again for the old position."""
    monkeypatch.setattr(_images, "_draw_state", lambda *args, **kwargs: None)
    ana = users[0]
    rules = engine.get_rules("alhambra")
    session = harness.bot.session
    recorder.hold = lambda state: (
        rules.to_move(state)[0] == ana.sid
        and any(
            type(a).__name__ == "VizierBuy" for p in ai_claimants(rules, state) for a in rules.legal_actions(state, p)
        )
    )
    post = await vizier_table(harness, ana, ("normal", "normal"), seed=31)
    rnd = random.Random(5)
    # Ana plays until, after an AI turn, an AI claimant is held deciding at the start of her turn
    for _ in range(200):
        move = asyncio.create_task(play_one_action(harness, ana, post, rnd))
        while not move.done() and not recorder.held.is_set():
            await asyncio.sleep(0.01)
        if recorder.held.is_set():
            break
        await move
        post = harness.last_public()
    else:
        pytest.fail("no AI claimant decided at the start of Ana's turn")
    row = await session.storage.game_in_channel(CHANNEL_ID)
    held_at = row.version
    for _ in range(500):  # the posts of the moves so far are out (the herald posts right after each commit)
        if not await session.storage.games_with_notices():
            break
        await asyncio.sleep(0.01)
    post = harness.last_public()
    assert session.to_move(row)[0] == ana.sid and post.content.splitlines()[-1].startswith(f"Your turn, <@{ana.id}>")
    calls = len(recorder.calls)
    await play_one_action(harness, ana, post, rnd)  # not kept waiting: answered while the AI still thinks
    assert harness.last_public().content.startswith("**Ana** ") and len(recorder.calls) == calls
    row = await session.storage.game_in_channel(CHANNEL_ID)
    assert row.version > held_at
    recorder.release.set()
    await move
    await harness.settle()
    moves = await session.storage.moves(row.id)
    assert moves[held_at].player == ana.sid  # the move after the held position is Ana's, not the AI's purchase
    seed = row.seed + held_at
    held = [c for c in recorder.calls if c[0] == seed and c[2]]
    assert len(held) == 1 and type(held[0][3]).__name__ == "VizierBuy"  # decided, then dropped: stale
    assert not any(m.player == held[0][1] and rules.action_from_json(m.action) == held[0][3] for m in moves[held_at:])


async def test_a_restart_resumes_an_ai_turn_left_half_way(tmp_path, fake_game, users, monkeypatch):
    """The bot stops after the AI's first action of a turn (a purchase: it still has to place the tile), as in a
    crash; the new bot over the same database resumes the turn, deciding in its worker process, and the game goes
    on: Ana's next turns are answered by the AI as usual."""
    monkeypatch.setattr(_images, "_draw_state", lambda *args, **kwargs: None)
    monkeypatch.delenv("AI_PROCESSES", raising=False)
    bots = [await Harness.start(tmp_path / "games.sqlite3")]
    try:
        await restart_mid_turn(bots, users[0])
    finally:  # a bot left open (a failed assertion) would keep the test run from ending
        if bots[-1] is not None:
            await bots[-1].close()
    assert bots[-1].fake.violations == [] and bots[-1].unexpected_errors == []


async def restart_mid_turn(bots: list[Harness], ana) -> None:
    h = bots[0]
    rules = engine.get_rules("alhambra")
    post = await vizier_table(h, ana, ("normal",), seed=31)
    session = h.bot.session
    session.listeners.clear()  # the AI is told nothing from now on: the bot "dies" before its turn is done
    rnd = random.Random(2)
    row = await session.storage.game_in_channel(CHANNEL_ID)
    while session.to_move(row)[0] != "ai:normal:1" or session.out_of_turn(row):
        await play_one_action(h, ana, post, rnd)
        post = h.last_public()
        row = await session.storage.game_in_channel(CHANNEL_ID)
    state = session.state_of(row)
    buys = [a for a in rules.legal_actions(state, "ai:normal:1") if type(a).__name__ == "BuyTile"]
    assert buys, "the AI can buy nothing here: choose another seed"
    await session.act(row.id, "ai:normal:1", buys[0], expected_version=row.version)  # as its worker would
    row = await session.storage.game_in_channel(CHANNEL_ID)
    assert session.to_move(row) == ["ai:normal:1"]  # half-way: the tile waits to be placed
    half = row.version
    bots.append(None)  # the old bot is closed by restart()
    h = bots[-1] = await h.restart()
    cog = cog_of(h)
    row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert row.version > half and h.bot.session.to_move(row)[0] == ana.sid
    assert cog.processes == 1 and cog.decided["process"] >= 1 and cog.decided["thread"] == 0
    post = h.last_public()
    place = rules.describe(rules.action_from_json((await h.bot.session.storage.moves(row.id))[half].action))
    assert post.content.startswith(f"**AI (normal) 1** {place}."), post.content  # the resumed placement, posted
    for _ in range(6):
        assert movers(post, [ana]) == [ana.id], post.content  # her turn (or she carries on): the AI answered
        await play_one_action(h, ana, post, rnd)
        post = h.last_public()
        row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
        assert h.bot.session.to_move(row)[0] == ana.sid


async def test_V12_an_ai_to_move_leaves_human_vizier_claimants_time_to_call(harness, users, recorder, monkeypatch):
    """V12: at the table the next player starts "unless someone calls for the vizier". An AI whose turn it is would
    close the window at once, so while a human may use their vizier it waits AI_VIZIER_WAIT seconds after the last
    move; positions where no human can claim are played at once."""
    monkeypatch.setattr(_images, "_draw_state", lambda *args, **kwargs: None)
    wait = 0.3
    cog_of(harness).out_of_turn_wait = wait
    _, _, row, moves, states = await finished_vizier_game(harness, users[0])
    rules = engine.get_rules("alhambra")
    waited, prompt = [], []
    for i, m in enumerate(moves[1:], start=1):
        before = states[i]
        if not ai.is_ai(m.player) or m.player != before.players[before.current] or not before.window:
            continue
        humans_may_claim = [
            p for p in rules.to_move(before)[1:] if not ai.is_ai(p) and p in rules.vizier_claimants(before)
        ]
        gap = m.created_at - moves[i - 1].created_at
        (waited if humans_may_claim else prompt).append(gap)
    assert waited, "no position where Ana could call for her vizier before the AI's turn"
    assert min(waited) >= wait - 0.02, waited
    print(f"\n{len(waited)} AI turns waited for Ana's vizier (min gap {min(waited):.2f}s), {len(prompt)} did not")
