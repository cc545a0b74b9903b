"""Results and ratings in storage, on every backend: stored and rated in the transaction of a game's final move
(never half, never twice), two games ending at once both count, cancelled games are not rated, a rebuild gives
identical ratings, older finished games can be filled in, and the queries behind /leaderboard and /stats."""

from __future__ import annotations

import asyncio

import pytest

from records.figures import RATER, Finish, SeatFinish
from records.ratings import AI_RATINGS, Rating, SeatResult, rate
from storage import Seat, StaleVersion

GUILD = 9


async def play(db, seats, scores, *, channel=1, guild=GUILD, game="fake", standins=(), left=(), now=1000.0):
    """A game of `seats` (ids) played to its end: each seat moves once per round (three rounds; moves of the
    seats in `standins` made by a stand-in), the final move with the game's finish. Returns the row."""
    g = await db.create_game(
        guild_id=guild, channel_id=channel, game=game, options={}, seed=1, creator=Seat(seats[0], seats[0].upper())
    )
    g = await db.start_game(g.id, seats=[Seat(p, p.upper()) for p in seats], state_json="{}", now=now)
    best = max(scores)
    finish = Finish(
        tuple(
            SeatFinish(
                p, p.upper(), s, s == best, p.split(":")[1] if p.startswith("ai:") else None, p in left, {"x": s}
            )
            for p, s in zip(seats, scores, strict=True)
        )
    )
    moves = [p for _r in range(3) for p in seats]
    for n, p in enumerate(moves):
        last = n == len(moves) - 1
        g = await db.commit_move(
            g,
            player=p,
            action={"n": n},
            state_json="{}",
            finished=last,
            standin=p in standins,
            finish=finish if last else None,
            now=now + 10 * (n + 1),
        )
    return g


def ratings_of(rows):
    return {r.player: r.rating for r in rows}


async def test_the_final_move_stores_results_and_ratings_together(db):
    g = await play(db, ["1", "2", "ai:hard:3"], [30, 20, 25])
    results = await db.game_results(g.id)
    assert [r.record.player for r in results] == ["1", "2", "ai:hard:3"]
    assert [r.record.place for r in results] == [1, 3, 2] and [r.record.rated for r in results] == [True, True, False]
    # the first move of the game has no turn before it to time: two turns of 10 s (the seat before moved 10 s earlier)
    assert results[0].record.figures == {"x": 30} and results[0].record.turns == 2
    assert (results[0].record.turn_seconds, results[0].record.turn_median) == (20.0, 10.0)
    want = rate([SeatResult("1", 30, True), SeatResult("2", 20), SeatResult("ai:hard:3", 25, ai_level="hard")], {})
    board = await db.leaderboard(GUILD, "fake")
    assert ratings_of(board) == want and [r.player for r in board] == ["1", "2"]  # never the AI
    assert await db.leaderboard_size(GUILD, "fake") == 2 and await db.leaderboard(GUILD, "other") == []
    place, mine = await db.standing(GUILD, "fake", "2")
    assert place == 2 and mine.rating == want["2"] and mine.name == "2"
    assert await db.standing(GUILD, "fake", "ai:hard:3") is None
    (summary,) = await db.player_summary(GUILD, "1")
    assert (summary.game, summary.games, summary.wins, summary.best) == ("fake", 1, 1, 30)
    assert [r.figures for r in await db.player_recent(GUILD, "1", "fake")] == [{"x": 30}]
    assert await db.rating_history(GUILD, "fake", "1") == [(results[0].finished_at, want["1"])]
    assert results[0].record.before == Rating() and results[0].record.after == want["1"]


async def test_a_stand_in_seat_is_not_rated_and_someone_who_left_is_last(db):
    g = await play(db, ["1", "2", "3"], [10, 30, 20], standins={"2"}, left={"3"})
    bo, cyd = (await db.game_results(g.id))[1:]
    assert (bo.record.standin_moves, bo.record.rated, bo.record.place) == (3, False, 1)
    assert (cyd.record.abandoned, cyd.record.place, cyd.record.rated) == (True, 3, True)
    assert [m.standin for m in await db.moves(g.id)][:3] == [False, True, False]
    assert {r.player for r in await db.leaderboard(GUILD, "fake")} == {"1", "3"}
    normal = AI_RATINGS["normal"]
    assert normal == (25.0, 1.0)


async def test_a_cancelled_game_is_not_rated(db):
    g = await db.create_game(guild_id=GUILD, channel_id=5, game="fake", options={}, seed=1, creator=Seat("1", "A"))
    g = await db.start_game(g.id, seats=[Seat("1", "A"), Seat("2", "B")], state_json="{}")
    await db.commit_move(g, player="1", action={}, state_json="{}", finished=False)
    assert await db.cancel_game(g.id)
    assert await db.game_results(g.id) == [] and await db.leaderboard(GUILD, "fake") == []
    assert await db.unrecorded_games(GUILD) == []  # only finished games are ever filled in


async def test_two_games_ending_at_once_both_count(db):
    """Ana finishes two games in the same instant: both are rated, one after the other (never a lost update)."""
    games = []
    for channel in (1, 2):
        g = await db.create_game(
            guild_id=GUILD, channel_id=channel, game="fake", options={}, seed=1, creator=Seat("1", "A")
        )
        games.append(await db.start_game(g.id, seats=[Seat("1", "A"), Seat(f"{channel}0", "X")], state_json="{}"))
    finishes = [Finish((SeatFinish("1", "A", 5, True), SeatFinish(f"{c}0", "X", 1))) for c in (1, 2)]
    await asyncio.gather(
        *(
            db.commit_move(g, player="1", action={}, state_json="{}", finished=True, finish=f, now=50.0)
            for g, f in zip(games, finishes, strict=True)
        )
    )
    ana = (await db.standing(GUILD, "fake", "1"))[1].rating
    assert ana.games == 2
    first = rate([SeatResult("1", 5, True), SeatResult("x", 1)], {})["1"]
    assert ana == rate([SeatResult("1", 5, True), SeatResult("y", 1)], {"1": first})["1"]
    a, b = (await db.game_results(games[0].id))[0], (await db.game_results(games[1].id))[0]
    assert {a.seq, b.seq} == {1, 2} and {a.record.before, b.record.before} == {Rating(), first}


async def test_a_crash_in_the_final_transaction_leaves_the_game_unfinished_and_unrated(db, monkeypatch):
    import storage._rows as shared

    g = await db.create_game(guild_id=GUILD, channel_id=1, game="fake", options={}, seed=1, creator=Seat("1", "A"))
    g = await db.start_game(g.id, seats=[Seat("1", "A"), Seat("2", "B")], state_json="{}")
    finish = Finish((SeatFinish("1", "A", 5, True), SeatFinish("2", "B", 1)))
    real = shared.results_of

    def crash(*args):
        raise RuntimeError("power cut")

    monkeypatch.setattr(shared, "results_of", crash)
    with pytest.raises(RuntimeError):
        await db.commit_move(g, player="1", action={}, state_json="{}", finished=True, finish=finish)
    row = await db.load_game(g.id)
    assert (row.status, row.version, await db.moves(g.id), await db.game_results(g.id)) == ("active", 0, [], [])
    monkeypatch.setattr(shared, "results_of", real)
    done = await db.commit_move(g, player="1", action={}, state_json="{}", finished=True, finish=finish)
    with pytest.raises(StaleVersion):  # the same final move again (a retry): refused, rated once
        await db.commit_move(g, player="1", action={}, state_json="{}", finished=True, finish=finish)
    assert done.status == "finished" and len(await db.game_results(g.id)) == 2
    assert (await db.standing(GUILD, "fake", "1"))[1].rating.games == 1


async def test_a_rebuild_gives_identical_ratings(db):
    """A series of games of two kinds and two servers, with AI seats, stand-ins, someone leaving and a tie:
    rebuilding from nothing gives every rating, and every result's before/after, exactly as played."""
    series = [
        (["1", "2", "3"], [10, 20, 30], {}, {}),
        (["2", "3", "ai:easy:1"], [40, 40, 10], {}, {}),
        (["1", "3", "4", "ai:normal:2"], [5, 6, 7, 8], {"4"}, {}),
        (["1", "2"], [3, 9], {}, {"2"}),
        (["4", "1", "3", "2"], [1, 2, 3, 4], {}, {}),
    ]
    channel = 1
    for game in ("fake", "other"):
        for seats, scores, standins, left in series:
            await play(db, seats, scores, channel=channel, game=game, standins=standins, left=left, now=channel * 1e4)
            channel += 1
    await play(db, ["1", "2"], [1, 2], channel=99, guild=8)
    before = {game: await db.leaderboard(GUILD, game, limit=50) for game in ("fake", "other")}
    results = {gid: await db.game_results(gid) for gid in range(1, channel + 1)}
    other_guild = await db.leaderboard(8, "fake")
    assert await db.rebuild_ratings(GUILD, "fake") == len(series)
    assert await db.rebuild_ratings(GUILD, "other") == len(series)
    assert {game: await db.leaderboard(GUILD, game, limit=50) for game in ("fake", "other")} == before
    assert {gid: await db.game_results(gid) for gid in range(1, channel + 1)} == results
    assert await db.leaderboard(8, "fake") == other_guild
    assert await db.rebuild_ratings(GUILD, "none") == 0


async def test_older_finished_games_are_filled_in_then_put_in_order_by_a_rebuild(db):
    old = await db.create_game(guild_id=GUILD, channel_id=7, game="fake", options={}, seed=1, creator=Seat("1", "A"))
    old = await db.start_game(old.id, seats=[Seat("1", "A"), Seat("2", "B")], state_json="{}", now=10.0)
    old = await db.commit_move(old, player="1", action={}, state_json="{}", finished=True, now=20.0)  # no finish
    await play(db, ["1", "2"], [9, 1], channel=1, now=5000.0)
    assert await db.unrecorded_games(GUILD) == [old.id]
    finish = Finish((SeatFinish("1", "A", 1), SeatFinish("2", "B", 7, True)))
    assert await db.record_finish(old.id, finish) and not await db.record_finish(old.id, finish)
    assert await db.unrecorded_games(GUILD) == []
    assert (await db.game_results(old.id))[0].finished_at == 20.0  # at its own time: first in the order
    await db.rebuild_ratings(GUILD, "fake")
    first = rate([SeatResult("1", 1), SeatResult("2", 7, True)], {})
    want = rate([SeatResult("1", 9, True), SeatResult("2", 1)], first)
    assert ratings_of(await db.leaderboard(GUILD, "fake")) == want


async def test_the_leaderboard_pages_by_shown_value(db):
    for n in range(12):
        await play(db, [str(100 + n), "ai:easy:1"], [n, 5], channel=n + 1)
    board = await db.leaderboard(GUILD, "fake", limit=5)
    page2 = await db.leaderboard(GUILD, "fake", offset=5, limit=5)
    shown = [r.rating.shown for r in board + page2]
    assert shown == sorted(shown, reverse=True) and len({r.player for r in board + page2}) == 10
    assert await db.leaderboard_size(GUILD, "fake") == 12
    assert (await db.standing(GUILD, "fake", board[0].player))[0] == 1


async def test_the_copy_command_copies_results_and_ratings(tmp_path):
    from storage.__main__ import copy
    from storage.sqlite import SQLiteStorage

    src_path, dst_path = str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")
    src = await SQLiteStorage.open(src_path, rater=RATER)
    try:
        await play(src, ["1", "2", "ai:easy:1"], [3, 2, 1], standins={"2"})
        await play(src, ["1", "3"], [1, 2], channel=2, guild=8)
        want = (await src.game_results(1), await src.all_ratings())
    finally:
        await src.close()
    lines: list[str] = []
    await copy(src_path, dst_path, out=lines.append)
    assert "and 3 ratings" in lines[0] and "with their results and ratings" in lines[-1]
    dst = await SQLiteStorage.open(dst_path)
    try:
        assert (await dst.game_results(1), await dst.all_ratings()) == want
        assert [m.standin for m in await dst.moves(1)][:3] == [False, True, False]
    finally:
        await dst.close()
