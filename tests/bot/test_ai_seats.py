"""AI seats in the bot, through the harness: seating them from the lobby or /game create, whole games of
one human and two AI seats (final scores = the engine's), AI moves resumed after a restart, a failing AI leaving
the game untouched, an AI deciding off the event loop while a human acts, one worker per game, no pings."""

import asyncio
import random
import re
import threading
import time

import pytest

import ai
import engine
from bot import budget_from_env
from cogs.ai_seats import AISeatsCog
from tests.bot.driver import announced_scores, play_one_action, play_to_end
from tests.bot.harness import CHANNEL_ID, Harness

MENTION = re.compile(r"<@!?(\d+)>")


def cog_of(h: Harness) -> AISeatsCog:
    cog = h.bot.get_cog("AISeatsCog")  # of the extension's own module object (load_extension imports afresh)
    assert type(cog).__name__ == "AISeatsCog"
    return cog


def transcript(h: Harness, first: int = 14, last: int = 3) -> str:
    """What the channel shows, as a reader scrolls it (long games: the start and the end)."""
    posts = [m.content for m in h.public()]
    shown = (
        posts
        if len(posts) <= first + last
        else [*posts[:first], f"… {len(posts) - first - last} posts …", *posts[-last:]]
    )
    return "\n----\n".join(shown)


class FakeAI:
    """An AI for the test game "fake" (which has no real one): claps when it may, else adds `n`. `gate` holds the
    first decision in its worker thread until set, to show that the event loop and the humans go on meanwhile."""

    def __init__(self, monkeypatch):
        self.calls: list[tuple[str, int, int]] = []  # (seat, seed, total) per decision
        self.gate: threading.Event | None = None
        self.fail = False
        self.n = 5
        real_adapter, real_choose, real_available = ai.adapter, ai.choose, ai.available

        def adapter(game):
            return object() if game == "fake" else real_adapter(game)

        def available(game):
            return game == "fake" or real_available(game)

        def choose(game, state, seat, level, seed, budget=None):
            if game != "fake":
                return real_choose(game, state, seat, level, seed, budget)
            self.calls.append((seat, seed, state.total))
            if self.gate is not None and len(self.calls) == 1:
                assert self.gate.wait(10), "the test never opened the gate"
            if self.fail:
                raise RuntimeError("the AI broke")
            from tests.bot import fakegame

            legal = engine.get_rules("fake").legal_actions(state, seat)
            clap = [a for a in legal if isinstance(a, fakegame.Clap)]
            return clap[0] if clap else fakegame.Add(self.n)

        monkeypatch.setattr(ai, "adapter", adapter)
        monkeypatch.setattr(ai, "available", available)
        monkeypatch.setattr(ai, "choose", choose)


@pytest.fixture
def fake_ai(monkeypatch, harness):
    """The fake AI replaces `ai.choose` in this process only: the cog decides in a thread (AI_PROCESSES=0)."""
    cog_of(harness).processes = 0
    return FakeAI(monkeypatch)


async def fake_table(h: Harness, ana, *, ai_players: int = 1, options: str = "no-claps"):
    """A fake game of Ana and `ai_players` AI seats, started. Returns the first table post."""
    await h.run_command(ana, "game create", game="fake", options=options)
    await h.run_command(ana, "game add_ai", level="easy", count=ai_players)
    await h.click(ana, h.last_public(), "Start")
    return h.last_public()


# --------------------------------------------------------------------------------------------- the lobby


async def test_creator_adds_and_removes_ai_seats_from_the_lobby(harness, users):
    """Add AI opens a panel only the creator can use; choices edit the panel and the lobby post in place."""
    ana, bo = users[:2]
    await harness.run_command(ana, "game create", game="gardens")
    lobby = harness.last_public()
    assert lobby.labels() == ["Join", "Leave", "Add AI", "Start", "Cancel", "Rules"]
    r = await harness.click(bo, lobby, "Add AI")
    assert r.message.ephemeral and "Only the creator (Ana) can add or remove AI players" in r.message.content
    public = len(harness.public())
    panel = (await harness.click(ana, lobby, "Add AI")).message
    assert panel.ephemeral and panel.visible_to == ana.id and "AI players" in panel.content
    assert [o["value"] for o in panel.selects()[0]["options"]] == ["easy", "normal", "hard"]
    await harness.choose(ana, panel, 0, "normal")
    await harness.choose(ana, panel, 0, "hard")
    await harness.choose(ana, panel, 0, "easy")
    assert "*Added AI (easy) 3.*" in panel.content and "4 of 4 seats taken" in panel.content
    assert "The table is full." in panel.content and len(panel.selects()) == 1  # only "Remove" is left
    assert "2. AI (normal) 1\n3. AI (hard) 2\n4. AI (easy) 3" in lobby.content
    r = await harness.click(bo, lobby, "Join")
    assert "The table is full (4 players)" in r.message.content
    await harness.choose(ana, panel, 0, "ai:hard:2")
    assert "*Removed AI (hard) 2.*" in panel.content and "AI (hard) 2" not in lobby.content
    assert len(harness.public()) == public  # the lobby post was only edited, never posted again
    await harness.click(bo, lobby, "Join")
    r = await harness.run_command(ana, "game remove_ai")  # the typed way: the last AI seat added
    assert r.message.content == "Removed AI (easy) 3."
    assert "1. Ana\n2. AI (normal) 1\n3. Bo\n" in lobby.content
    choices = await harness.autocomplete(ana, "game remove_ai", "player", player="")
    assert choices == [{"name": "AI (normal) 1", "value": "ai:normal:1"}]
    r = await harness.run_command(ana, "game add_ai", level="hard", count=2)
    assert r.message.content == "Only 1 seat left (at most 4 players)."
    r = await harness.run_command(ana, "game add_ai", level="hard")
    assert r.message.content == "Added AI (hard) 2 (4 of 4 seats taken)."
    assert "4. AI (hard) 2" in lobby.content


async def test_game_create_seats_ai_players_and_refuses_too_many(harness, users):
    ana = users[0]
    r = await harness.run_command(ana, "game create", game="gardens", ai_players=4, ai_level="easy")
    assert r.message.ephemeral and "at most 4 players: you and up to 3 AI players, not 4" in r.message.content
    assert await harness.bot.session.storage.game_in_channel(CHANNEL_ID) is None  # nothing half-made
    await harness.run_command(ana, "game create", game="gardens", ai_players=2, ai_level="easy")
    lobby = harness.last_public()
    assert "1. Ana\n2. AI (easy) 1\n3. AI (easy) 2" in lobby.content and "(3 of 2–4)" in lobby.content
    r = await harness.click(ana, lobby, "Leave")  # the creator keeps a seat: a table of only AI seats can't be
    assert "use Cancel" in r.message.content


async def test_games_without_an_ai_offer_no_add_ai(harness, users):
    ana = users[0]
    r = await harness.run_command(ana, "game create", game="fake", ai_players=1)
    assert "There is no AI player for Race to the Target yet." in r.message.content
    await harness.run_command(ana, "game create", game="fake")
    assert "Add AI" not in harness.last_public().labels()
    r = await harness.run_command(ana, "game add_ai")
    assert "There is no AI player for Race to the Target yet." in r.message.content


# --------------------------------------------------------------------------------------------- whole games

# (game, levels of the two AI seats, how they are seated). Hard plays with a small iteration budget.
GAMES = [
    ("alhambra", ("normal", "easy"), "button"),
    ("gardens", ("hard", "easy"), "button"),
    ("queens_garden", ("normal", "normal"), "create"),
]


@pytest.mark.parametrize(("game", "levels", "how"), GAMES, ids=[g[0] for g in GAMES])
async def test_one_human_and_two_ai_seats_finish_a_game(harness, users, monkeypatch, game, levels, how):
    """Ana plays by clicks and menus only; the AI seats move by themselves, each move told in order (one post per
    human action, one per AI turn), never pinged; the final announced scores are the engine's."""
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(2026))  # the game's seed: reproducible
    ana = users[0]
    cog_of(harness).budget = 8  # iterations for "hard": fast and deterministic
    t0 = time.perf_counter()
    if how == "create" and levels[0] == levels[1]:
        await harness.run_command(ana, "game create", game=game, ai_players=2, ai_level=levels[0])
        lobby = harness.last_public()
    else:
        await harness.run_command(ana, "game create", game=game)
        lobby = harness.last_public()
        panel = (await harness.click(ana, lobby, "Add AI")).message
        for level in levels:
            await harness.choose(ana, panel, 0, level)
    await harness.click(ana, lobby, "Start")
    start = harness.public()[1]
    names = [ai.display_name(ai.ai_player_id(level, n)) for n, level in enumerate(levels, 1)]
    assert f"Seat order: **Ana** → **{names[0]}** → **{names[1]}**" in start.content
    post = harness.last_public()  # the AI seats may have moved first
    final, human_actions = await play_to_end(harness, [ana], post, random.Random(3))

    storage = harness.bot.session.storage
    row = await storage.last_game_in_channel(CHANNEL_ID)
    rules = engine.get_rules(game)
    state = rules.from_json(row.state)
    assert row.status == "finished" and rules.is_over(state)
    assert announced_scores(final) == {row.seat_name(p): s for p, s in rules.scores(state).items()}
    moves = await storage.moves(row.id)
    by = {p: sum(m.player == p for m in moves) for p in row.player_ids}
    assert by[ana.sid] == human_actions and all(by[p] > 0 for p in row.player_ids)
    # every move is told in order, in the post of its turn: one post per human action, one per AI turn
    public = harness.public()
    lines = [line for m in public[2:] for line in m.content.splitlines()]
    at = 0
    for move in moves:
        said = f"**{row.seat_name(move.player)}** {rules.describe(rules.action_from_json(move.action))}."
        at = next(i for i in range(at, len(lines)) if lines[i].startswith(said[:-1])) + 1  # or told with more
    firsts = [m.content.splitlines()[0] for m in public[2:]]
    assert sum(f.startswith("**Ana** ") for f in firsts) == human_actions
    assert human_actions < len(public) - 2 <= row.version
    if game == "alhambra":  # AI turns of several actions (buy, place...) took one post each
        assert len(public) - 2 < row.version
    pings = [int(u) for m in public for u in MENTION.findall(m.content)]
    assert set(pings) <= {ana.id} and len(pings) <= human_actions  # AI seats never pinged; Ana once per turn
    assert "AI (" in final.content and "Game over" in final.content
    await harness.click(ana, final, "Rematch")  # the same seats, AI players included
    assert f"1. Ana\n2. {names[0]}\n3. {names[1]}\n" in harness.last_public().content
    print(
        f"\n{game} with {names}: {row.version} moves ({human_actions} by Ana) in {time.perf_counter() - t0:.1f}s"
        f"\n{transcript(harness)}"
    )


# --------------------------------------------------------------------------------------------- restarts


async def test_ai_move_resumes_after_a_restart(tmp_path, fake_game, users):
    """The bot stops after Ana's move, before the AI's (as in a crash); the next start plays it, and the game
    goes on to the end."""
    h = await Harness.start(tmp_path / "games.sqlite3")
    ana = users[0]
    await h.run_command(ana, "game create", game="gardens", ai_players=1, ai_level="normal")
    await h.click(ana, h.last_public(), "Start")
    h.bot.session.listeners.remove(h.bot.get_cog("AISeatsCog").kick)  # the AI is not told: the bot "dies" first
    await play_one_action(h, ana, h.last_public(), random.Random(1))
    post = h.last_public()
    assert post.content.splitlines()[-1] == "**AI (normal) 1** moves next."
    row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert h.bot.session.to_move(row) == ["ai:normal:1"]
    fake = h.fake
    h = await h.restart()
    assert h.fake is fake
    resumed = h.public()[len(h.public()) - 1]
    assert resumed.content.startswith("**AI (normal) 1** ") and resumed is not post
    row = await h.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 2 and h.bot.session.to_move(row) == [ana.sid]
    final, _ = await play_to_end(h, [ana], h.last_public(), random.Random(2))
    assert "Game over" in final.content
    await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


# --------------------------------------------------------------------------------------------- robustness


async def test_a_failing_ai_is_logged_noted_once_and_leaves_the_game_untouched(harness, users, fake_ai):
    ana = users[0]
    post = await fake_table(harness, ana)
    fake_ai.fail = True
    await play_one_action(harness, ana, post, random.Random(1))
    note = harness.last_public()
    assert note.content.startswith("⚠️ **AI (easy) 1** ran into a problem choosing its move; nothing was changed.")
    assert "<@" not in note.content and note.components == []
    row = await harness.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 1 and harness.bot.session.to_move(row) == ["ai:easy:1"]
    [record] = harness.errors.records
    assert "AI ai:easy:1 failed deciding move 2" in record.getMessage() and record.exc_info[1].args == ("the AI broke",)
    harness.errors.records.clear()
    await cog_of(harness).kick_all()  # the periodic pass tries again: still broken, no second note
    await harness.settle()
    assert harness.last_public() is note and harness.errors.records == []
    fake_ai.fail = False
    await cog_of(harness).kick_all()
    await harness.settle()
    assert harness.last_public().content.startswith("**AI (easy) 1** adds 5.")
    row = await harness.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 2
    # each decision had a fixed seed: the game's seed plus the move number
    assert [seed for _, seed, _ in fake_ai.calls] == [row.seed + 1] * 3


async def test_ai_thinks_off_the_event_loop_while_a_human_acts_out_of_turn(harness, users, fake_ai):
    """Ana and the AI are both to move (a clap window): the AI's decision is held in its thread; meanwhile Ana's
    clicks are answered and her clap is played; the AI's stale decision is dropped and it decides again."""
    ana = users[0]
    post = await fake_table(harness, ana, options="claps")
    fake_ai.gate = threading.Event()
    fake_ai.n = 1
    panel = (await harness.click(ana, post, "Play my turn")).message
    await harness.click(ana, panel, "Add")
    await harness.choose(ana, panel, 0, "adds 8")  # passes 7: the AI (next) and Ana (clap) are to move
    confirm = asyncio.create_task(harness.click(ana, panel, "Confirm"))
    for _ in range(500):
        if fake_ai.calls:
            break
        await asyncio.sleep(0.01)
    assert fake_ai.calls == [("ai:easy:1", fake_ai.calls[0][1], 8)]  # thinking, in its thread
    for _ in range(500):  # Ana's move is posted (right after its commit, by the herald)
        if not await harness.bot.storage.games_with_notices():
            break
        await asyncio.sleep(0.01)
    post = harness.last_public()
    assert post.content.splitlines()[-2:] == [
        "⏳ **Ana** may act out of turn until **AI (easy) 1** acts.",
        "**AI (easy) 1** moves next.",
    ]
    t = time.perf_counter()
    clap = (await harness.click(ana, post, "Play my turn")).message
    await harness.click(ana, clap, "Confirm")
    assert time.perf_counter() - t < 2 and harness.last_public().content.startswith("**Ana** claps for a point.")
    assert len(fake_ai.calls) == 1  # the AI is still thinking about the old position
    fake_ai.gate.set()
    await confirm
    posts = [m.content.splitlines()[0] for m in harness.public()[-3:]]
    assert posts == ["**Ana** adds 8.", "**Ana** claps for a point.", "**AI (easy) 1** adds 1."]
    assert [c[2] for c in fake_ai.calls] == [8, 8]  # decided again after Ana's clap (same total, new move)
    row = await harness.bot.session.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 3 and [m.player for m in await harness.bot.session.storage.moves(row.id)] == [
        ana.sid,
        ana.sid,
        "ai:easy:1",
    ]


async def test_many_kicks_give_one_ai_move(harness, users, fake_ai):
    """One worker per game: kicked 20 times at once, the AI plays its move once."""
    ana = users[0]
    post = await fake_table(harness, ana)
    session = harness.bot.session
    session.listeners.clear()
    await play_one_action(harness, ana, post, random.Random(4))
    cog = cog_of(harness)
    row = await session.storage.game_in_channel(CHANNEL_ID)
    for _ in range(20):
        cog.kick(row.id)
    await cog.kick_all()
    await harness.settle()
    row = await session.storage.game_in_channel(CHANNEL_ID)
    assert row.version == 2 and len(fake_ai.calls) == 1 and session.to_move(row) == [ana.sid]


async def test_several_ai_seats_in_a_row_each_post_their_move(harness, users, fake_ai):
    ana = users[0]
    post = await fake_table(harness, ana, ai_players=2)
    await play_one_action(harness, ana, post, random.Random(2))
    lines = [m.content.splitlines() for m in harness.public()[-3:]]
    assert lines[1] == ["**AI (easy) 1** adds 5.", "**AI (easy) 2** moves next."]
    # Ana's ping carries what happened since her last turn (the moves before this post's own)
    assert lines[2] == [
        "**AI (easy) 2** adds 5.",
        "📜 Since your last turn, Ana:",
        "• **AI (easy) 1** adds 5",
        f"Your turn, <@{ana.id}>.",
    ]
    assert lines[0][-1] == "**AI (easy) 1** moves next."


async def test_ai_seats_are_never_reminded_or_nudged(harness, users, fake_ai):
    ana, bo = users[:2]
    await fake_table(harness, ana)
    session = harness.bot.session
    session.listeners.clear()
    await play_one_action(harness, ana, harness.last_public(), random.Random(4))  # the AI is to move, idle
    turns = harness.bot.get_cog("TurnsCog")
    assert await turns.send_reminders(now=time.time() + 30 * 24 * 3600) == 0
    r = await harness.run_command(bo, "game nudge")
    assert r.message.ephemeral and "An AI player is to move: it plays by itself" in r.message.content


def test_ai_budget_setting():
    assert budget_from_env(None) is None and budget_from_env("") is None
    assert budget_from_env("1.5") == 1.5 and budget_from_env("2s") == 2.0
    assert budget_from_env("200") == 200 and budget_from_env("0") is None
    with pytest.raises(SystemExit, match="AI_BUDGET must be"):  # a typo stops the bot with one clear line
        budget_from_env("fast")


def test_an_ai_turn_in_one_post_keeps_its_moves_in_order_and_the_next_player_last(monkeypatch):
    """Several moves of one AI turn share a post; whatever their length, the post fits and ends with who's next."""
    from cogs import _text
    from storage import Seat
    from tests.bot.test_messages import row as sample_row

    row = sample_row(seats=(Seat("11", "Ana"), Seat("ai:easy:1", "AI (easy) 1")), updated_at=60.0)

    def move(n, to_move, text="takes money"):
        return {
            "player": "ai:easy:1",
            "action": {"kind": "say", "text": f"{text} {n}"},
            "events": [],
            "to_move": list(to_move),
            "before": ["ai:easy:1"],
            "side": [],
            "free": False,
            "finished": False,
            "scores": {},
            "winners": [],
        }

    class Words:  # describes the test's actions by their text (the move post only needs `describe`)
        @staticmethod
        def action_from_json(data):
            return data["text"]

        @staticmethod
        def describe(text):
            return text

    monkeypatch.setattr(_text, "engine_rules", lambda game: Words)
    short = [move(n, ("ai:easy:1",)) for n in range(3)]
    text = _text.move_content(row, [*short, move(3, ("11",))])
    assert text.splitlines() == [f"**AI (easy) 1** takes money {n}." for n in range(4)] + ["Your turn, <@11>."]
    long = [move(n, ("ai:easy:1",), "x" * 280) for n in range(9)]
    text = _text.move_content(row, [*long, move(9, ("11",), "x" * 280)])
    lines = text.splitlines()
    assert len(text) <= 2000 and lines[-1] == "Your turn, <@11>." and lines[-2].endswith(" 9.")
    assert lines[0].startswith("*…") and "earlier moves: see `/game log`" in lines[0]
