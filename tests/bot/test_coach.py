"""The coach through the network boundary (cogs/_coach.py, ai/coach.py): a hint in each game is deferred
("thinking…"), then answered privately with the hard AI's move at the coach's budget and seed, drawn on the
private preview and playable; hints are refused politely where the table forbids them; the review of a finished
game of each type lists per player the three moves with the largest estimated loss, with a win-chance chart; a
restart keeps a finished review and completes one in progress; and nothing of it shows another seat's hidden
information (Alhambra hands)."""

from __future__ import annotations

import io
import os
import random

import pytest
from PIL import Image

import ai
import engine
import present
from ai import coach
from cogs._text import esc
from tests.bot.driver import movers
from tests.bot.harness import CHANNEL_ID, Harness, Msg, User

GAMES = ["alhambra", "gardens", "queens_garden"]
HINT_ITERATIONS = 40  # test-sized budgets (the bot's defaults: 400 and 60)
REVIEW_ITERATIONS = 3
CHART = os.environ.get("COACH_CHART")  # a path: the test saves one review chart there, to be looked at


async def table(h: Harness, game: str, players: list[User], *, hints: bool = True, **values) -> Msg:
    """`/game create` (hints as asked), the others join, the creator starts: the first table post."""
    r = await h.run_command(players[0], "game create", game=game, hints=hints, **values)
    assert "is set up" in r.message.content, r.message.content
    lobby = h.last_public()
    assert ("🧭 **Hints allowed:**" in lobby.content) == hints  # said before anyone sits down
    for p in players[1:]:
        await h.click(p, lobby, "Join")
    await h.click(players[0], lobby, "Start")
    return h.last_public()


async def closed(h: Harness) -> None:
    """Close the bot; nothing it sent broke Discord's rules (an answer within 3 s, a "thinking…" replaced) and
    nothing went wrong on its side."""
    await h.close()
    assert h.fake.violations == [], h.fake.violations
    assert h.unexpected_errors == [], h.unexpected_errors


def seat_to_move(post: Msg, players: list[User]) -> User:
    ids = movers(post, players)
    return next(p for p in players if p.id == ids[0])


@pytest.mark.parametrize("game", GAMES)
async def test_a_hint_is_thought_in_a_worker_then_shown_privately_and_is_the_hard_ais_move(tmp_path, users, game):
    """The panel's Hint: a deferral first (Discord shows "thinking…"), then, only to the asker, the hard AI's
    move with its chance and two alternatives; it equals `ai.choose(..., "hard", seed, budget)` at the coach's
    budget and the AI seats' seed, is legal (its Play it button plays exactly it), and a placement comes drawn on
    the private preview. The search ran in the AI worker process, not in the bot."""
    h = await Harness.start(tmp_path / "g.sqlite3", ai_processes=1, hint_iterations=HINT_ITERATIONS)
    try:
        players = users[:2]
        post = await table(h, game, players)
        who = seat_to_move(post, players)
        panel = (await h.click(who, post, "Play my turn")).message
        assert "🧭 Hint" in panel.labels()
        row = await h.bot.storage.game_in_channel(CHANNEL_ID)
        state = h.bot.session.state_of(row)
        ia = await h.click(who, panel, "🧭 Hint")
        assert ia.response_type == 5 and ia.original is not None  # deferred: "thinking…", then the answer
        hint = ia.original
        assert hint.ephemeral and hint.visible_to == who.id
        assert "**Hint** from the hard AI (40 search iterations" in hint.content, hint.content
        expected = ai.choose(game, state, who.sid, "hard", row.seed + row.version, budget=HINT_ITERATIONS)
        rules = engine.get_rules(game)
        assert expected in rules.legal_actions(state, who.sid)
        best = hint.content.splitlines()[1]
        assert best.startswith(f"**Best: {esc(str(rules.describe(expected)))}**, about ") and best.endswith(
            "% to win"
        ), best
        assert len(hint.content.splitlines()) == 4 and hint.content.splitlines()[2].startswith("or: ")
        spec = present.for_game(game).preview(rules, state, who.sid, expected)
        assert [n for n, _ in hint.files] == (["preview.png"] if spec is not None else [])
        cog = h.bot.get_cog("AISeatsCog")
        assert cog.decided["process"] == 1 and cog.decided["thread"] == 0  # thought in the worker process
        again = await h.click(who, panel, "🧭 Hint")  # the same position: the kept answer, no second search
        assert again.original.content == hint.content and cog.decided["process"] == 1
        await h.click(who, hint, "Play it")
        await h.settle()
        moves = await h.bot.storage.moves(row.id)
        assert moves[-1].player == who.sid and moves[-1].action == rules.action_to_json(expected)
    finally:
        await closed(h)


async def test_hints_are_refused_politely_where_the_table_forbids_them_and_out_of_turn(tmp_path, users):
    h = await Harness.start(tmp_path / "g.sqlite3", ai_processes=0, hint_iterations=HINT_ITERATIONS)
    try:
        players = users[:2]
        post = await table(h, "gardens", players, hints=False)
        who = seat_to_move(post, players)
        other = next(p for p in players if p is not who)
        panel = (await h.click(who, post, "Play my turn")).message
        assert not any("Hint" in label for label in panel.labels())  # no button where hints are off
        r = await h.run_command(who, "game hint")
        assert r.message.ephemeral and r.message.content.startswith("Hints are off at this table."), r.message.content
        r = await h.run_command(who, "game settings", hints=True)  # the creator turns them on
        assert "🧭 Hints: allowed" in r.message.content
        r = await h.run_command(other, "game hint")
        assert r.message.ephemeral and r.message.content.startswith("It's not your turn"), r.message.content
        r = await h.run_command(who, "game hint")
        assert r.response_type == 5 and "**Best: " in r.message.content
        assert h.bot.get_cog("AISeatsCog").decided["thread"] == 1
    finally:
        await closed(h)


def test_a_hint_depends_only_on_the_askers_view():
    """Privacy, A-rules of hidden hands: re-dealing what Ana cannot see (the others' hands, the decks) changes
    neither the hint nor a review's judgement of her move; so no hint or review can tell another seat's hand."""
    rules = engine.get_rules("alhambra")
    players = ["1", "2", "3"]
    state = rules.new_game(players, {"vizier": True}, 11)
    for n in range(7):
        p = rules.to_move(state)[0]
        state = rules.apply(state, p, ai.choose("alhambra", state, p, "easy", n))
    ana = rules.to_move(state)[0]
    other = next(p for p in players if p != ana)
    redealt = ai.adapter("alhambra").determinise(rules, rules.view(state, ana), ana, random.Random(99))
    assert rules.to_json(rules.view(redealt, ana)) == rules.to_json(rules.view(state, ana))
    assert redealt.seat(other).hand != state.seat(other).hand  # someone else's hand really is another one
    assert coach.analyse("alhambra", state, ana, 5, 30) == coach.analyse("alhambra", redealt, ana, 5, 30)
    action = ai.choose("alhambra", state, ana, "easy", 3)
    assert coach.judge("alhambra", state, ana, action, 5, 10, number=8) == coach.judge(
        "alhambra", redealt, ana, action, 5, 10, number=8
    )
    assert coach.secret(rules, state, ana)  # she holds a hand: her unplayed options are hers alone


# --------------------------------------------------------------------------------------------- reviews


async def finished_game(h: Harness, ana: User, game: str) -> Msg:
    """A whole game played by the AI: Ana away with the AI playing for her, two easy AI seats beside her (one in
    Queen's Garden). Returns the final post."""
    await h.run_command(ana, "away", until="30d", ai=True)
    r = await h.run_command(
        ana, "game create", game=game, ai_players=1 if game == "queens_garden" else 2, ai_level="easy"
    )
    assert "is set up" in r.message.content
    await h.click(ana, h.last_public(), "Start")
    for _ in range(3000):
        await h.settle()
        if "**Game over**" in h.last_public().content:
            break
    final = h.last_public()
    assert "**Game over**" in final.content and "Review" in final.labels(), final.content
    return final


class Shown:
    """A review as the reader got it: its words (the first private message and any that follow), the first
    message (its chart and buttons)."""

    def __init__(self, ia):
        assert all(m.ephemeral for m in ia.replies)
        self.content = "\n".join(m.content for m in ia.replies)
        self.first: Msg = ia.original


async def reviewed(h: Harness, user: User, final: Msg) -> Shown:
    """Click Review until the review is there (the first click begins it; the coach computes in the background)."""
    for _ in range(200):
        ia = await h.click(user, final, "Review")
        assert ia.response_type == 5 and ia.message.ephemeral
        if "is being computed" not in ia.message.content:
            return Shown(ia)
        await h.settle()
        task = h.bot.get_cog("CoachCog").coach.running(int(final.buttons()[0]["custom_id"].split(":")[1]))
        if task is not None:
            await task
    raise AssertionError("the review never finished")


def costly_lines(text: str) -> dict[str, list[int]]:
    """The move numbers a review lists under each player's line."""
    out: dict[str, list[int]] = {}
    name = ""
    for line in text.splitlines()[1:]:
        if line.startswith("• move "):
            out[name].append(int(line.split()[2].rstrip(":")))
        else:
            name = line.split("**")[1]
            out[name] = []
    return out


@pytest.mark.parametrize("game", GAMES)
async def test_the_review_of_a_finished_game_lists_each_players_three_costliest_moves(tmp_path, users, game):
    h = await Harness.start(tmp_path / "g.sqlite3", ai_processes=0, review_iterations=REVIEW_ITERATIONS)
    try:
        ana = users[0]
        final = await finished_game(h, ana, game)
        text = await reviewed(h, ana, final)
        row = await h.bot.storage.last_game_in_channel(CHANNEL_ID)
        stored = await h.bot.storage.review(row.id)
        assert stored.done and [e["n"] for e in stored.entries] == list(range(1, row.version + 1))
        listed = costly_lines(text.content)
        assert set(listed) == {s.name for s in row.seats}
        for seat in row.seats:
            mine = [e for e in stored.entries if e["p"] == seat.id and not e["forced"]]
            losses = sorted((e["loss"] for e in mine if e["loss"] > 0), reverse=True)
            shown = listed[seat.name]
            assert len(shown) == min(3, len(losses)), text.content
            by_n = {e["n"]: e for e in mine}
            assert sorted((by_n[n]["loss"] for n in shown), reverse=True) == losses[:3]  # the largest losses
            assert all(by_n[n]["p"] == seat.id for n in shown)
        # every listed move has a button to the replay viewer just before it
        assert sorted(int(b["label"].split()[1]) for b in text.first.buttons()) == sorted(
            {n for v in listed.values() for n in v}
        )
        png = dict(text.first.files)[f"review-{row.id}.png"]
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and image.size[0] == 1000
        if CHART and game == "alhambra":
            with open(CHART, "wb") as f:
                f.write(png)
        # a judged move is what the coach computes for it again (deterministic at the review's budget)
        moves = await h.bot.storage.moves(row.id)
        rules = engine.get_rules(game)
        state = rules.new_game(list(row.player_ids), row.options, row.seed)
        for m in moves[:4]:
            state_before, state = state, rules.apply(state, m.player, rules.action_from_json(m.action))
        m = moves[3]
        again = coach.judge(
            game, state_before, m.player, rules.action_from_json(m.action), row.seed + 3, REVIEW_ITERATIONS, number=4
        )
        assert again == stored.entries[3]
        if listed[row.seats[0].name]:  # the viewer opens at the position before the costly move
            n = listed[row.seats[0].name][0]
            viewer = (await h.click(ana, text.first, f"Move {n}")).message
            assert f"Move {n - 1} of {row.version}" in viewer.content or n == 1
    finally:
        await closed(h)


async def test_a_review_is_for_that_servers_players_only(tmp_path, users):
    h = await Harness.start(tmp_path / "g.sqlite3", ai_processes=0, review_iterations=REVIEW_ITERATIONS)
    try:
        final = await finished_game(h, users[0], "queens_garden")
        row = await h.bot.storage.last_game_in_channel(CHANNEL_ID)
        r = await h.run_command(users[1], "game review", game=row.id + 1000)
        assert r.message.content == f"There is no game #{row.id + 1000} in this server."
        text = await reviewed(h, users[1], final)  # any player of the server may read it
        assert "**Review** of" in text.content
    finally:
        await closed(h)


async def test_a_restart_keeps_a_finished_review_and_completes_one_in_progress(tmp_path, users):
    h = await Harness.start(tmp_path / "g.sqlite3", ai_processes=0, review_iterations=REVIEW_ITERATIONS)
    ana = users[0]
    try:
        final = await finished_game(h, ana, "gardens")
        row = await h.bot.storage.last_game_in_channel(CHANNEL_ID)
        c = h.bot.get_cog("CoachCog").coach
        c.step_seconds, c.save_every, c.wait = 0.0, 0.0, 0.0  # a move a job, stored after each
        payload, ia = h.component_payload(ana, final, h.button(final, "Review")["custom_id"], 2)
        h.send(payload, ia)  # not waited for: the review goes on in the background
        storage = h.bot.storage
        for _ in range(500):  # let it judge some moves, then kill the bot mid-review
            found = await storage.review(row.id)
            if found is not None and len(found.entries) >= 5:
                break
            await asyncio_sleep()
        assert not found.done and 5 <= len(found.entries) < row.version
        h = await h.kill()
        c = h.bot.get_cog("CoachCog").coach  # the start-up resumed it (the harness waits until the bot is idle)
        task = c.running(row.id)
        if task is not None:
            await task
        done = await h.bot.storage.review(row.id)
        assert done.done and len(done.entries) == row.version
        assert done.entries[: len(found.entries)] == found.entries  # went on from what was stored
        assert 0 < c.judged <= row.version - len(found.entries)  # what was stored was not judged again
        text = await reviewed(h, ana, final)
        h = await h.restart()  # a finished review is kept: shown at once, nothing judged again
        again = await reviewed(h, ana, final)
        assert again.content == text.content and h.bot.get_cog("CoachCog").coach.judged == 0
        # a reader whose Discord speaks German gets it in German, chart and all (the catalog's words)
        payload, ia = h.component_payload(users[1], final, h.button(final, "Review")["custom_id"], 2)
        payload["locale"] = "de"
        german = await h.feed(payload, ia)
        assert german.original.content.startswith("🧭 **Analyse** von"), german.original.content
        assert "Genauigkeit" in german.original.content and [n for n, _ in german.original.files] == [
            f"review-{row.id}.png"
        ]
        assert german.original.files[0][1] != again.first.files[0][1]  # its title and axes are German too
    finally:
        await closed(h)


async def asyncio_sleep() -> None:
    import asyncio

    await asyncio.sleep(0.01)


async def test_the_review_shows_another_players_preferred_move_by_its_kind_only_while_they_held_a_hand(tmp_path, users):
    """Privacy: in an Alhambra review read by one player, another player's preferred move (the AI's choice they
    did not play) is never described while that player held a hand (it could name a card in it); their own are."""
    h = await Harness.start(tmp_path / "g.sqlite3", ai_processes=0, review_iterations=REVIEW_ITERATIONS)
    try:
        ana, bo = users[:2]
        final = await finished_game(h, ana, "alhambra")
        row = await h.bot.storage.last_game_in_channel(CHANNEL_ID)
        text = (await reviewed(h, bo, final)).content  # Bo is no player of the game: every line is another's
        stored = await h.bot.storage.review(row.id)
        rules = engine.get_rules("alhambra")
        moves = await h.bot.storage.moves(row.id)
        checked = 0
        for e in stored.entries:
            if e["best"] is None or not e["secret"] or e["best"] == moves[e["n"] - 1].action:
                continue
            described = str(rules.describe(rules.action_from_json(e["best"])))
            if f"move {e['n']}:" in text:
                line = next(x for x in text.splitlines() if x.startswith(f"• move {e['n']}:"))
                assert described not in line and "its details were theirs alone to see" in line, line
                checked += 1
        assert checked > 0
        own = (await reviewed(h, ana, final)).content  # Ana reads her own moves in full
        for line in own.split(f"**{ana.name}**")[1].split("\n**")[0].splitlines()[1:]:
            e = stored.entries[int(line.split()[2].rstrip(":")) - 1]
            if e["best"] is not None:
                assert esc(str(rules.describe(rules.action_from_json(e["best"])))) in line, line
    finally:
        await closed(h)
