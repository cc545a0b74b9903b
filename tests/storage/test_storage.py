"""The storage interface, the same for every backend: one open game per channel, one transaction per move with a
version check (move, state and notice together), the outbox, reminders claimed once, the AI flag, leases, and
indexed queries only."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from storage import NOT_DUE, ChannelBusy, Due, MoveRow, Seat, Shards, StaleVersion

ANA, BO = Seat("1", "Ana"), Seat("2", "Bo")


async def new_game(db, channel=1, guild=9):
    return await db.create_game(
        guild_id=guild, channel_id=channel, game="fake", options={"target": 30}, seed=5, creator=ANA
    )


async def started(db, channel=1, guild=9, due=NOT_DUE, now=None):
    g = await new_game(db, channel, guild)
    return await db.start_game(g.id, seats=[ANA, BO], state_json='{"s":0}', due=due, now=now)


async def test_one_open_game_per_channel(db):
    g = await new_game(db)
    with pytest.raises(ChannelBusy):
        await new_game(db)
    assert await new_game(db, channel=2)
    await db.cancel_game(g.id)
    assert await new_game(db)  # free again once cancelled
    assert (await db.last_game_in_channel(1)).id != g.id and (await db.game_in_channel(1)).status == "lobby"


async def test_commit_checks_the_version_and_writes_move_state_and_notice_together(db):
    g = await started(db)
    g1 = await db.commit_move(
        g,
        player="1",
        action={"kind": "add", "n": 3},
        state_json='{"s":3}',
        finished=False,
        notice=("move", {"player": "1"}),
        origin="0.x:1",
    )
    assert (g1.version, g1.turns, g1.state) == (1, 1, {"s": 3})
    assert await db.load_game(g.id) == g1  # the row it returns is the row it stored
    with pytest.raises(StaleVersion):  # chosen at version 0: someone moved first
        await db.commit_move(
            g,
            player="2",
            action={"kind": "add", "n": 4},
            state_json='{"s":7}',
            finished=False,
            notice=("move", {"player": "2"}),
        )
    assert [(m.move_number, m.player, m.action, m.origin) for m in await db.moves(g.id)] == [
        (1, "1", {"kind": "add", "n": 3}, "0.x:1")
    ]
    assert [n.payload for n in await db.pending_notices(g.id)] == [{"player": "1"}]  # none for the refused one
    done = await db.commit_move(g1, player="2", action={"kind": "add", "n": 30}, state_json='{"s":33}', finished=True)
    assert done.status == "finished"
    with pytest.raises(StaleVersion):  # a finished game takes no more moves
        await db.commit_move(done, player="1", action={}, state_json="{}", finished=True)
    assert [m.move_number for m in await db.moves(g.id, since=1)] == [2]


async def test_a_free_move_counts_as_a_move_but_not_as_a_turn(db):
    """A free action leaves `turns`, the idle clock and the next reminder of the player to move alone."""
    g = await started(db, due=Due(remind_at=5000.0), now=100.0)
    g = await db.commit_move(
        g,
        player="2",
        action={"kind": "wave"},
        state_json="{}",
        finished=False,
        free=True,
        due=Due(remind_at=9999.0),
        now=500.0,
    )
    assert (g.version, g.turns, g.turn_started_at) == (1, 0, 100.0)
    assert await db.claim_reminders(4999.0) == [] and await db.claim_reminders(5000.0) == [g.id]
    g = await db.commit_move(g, player="1", action={"kind": "add"}, state_json="{}", finished=False, now=600.0)
    assert (g.version, g.turns, g.turn_started_at) == (2, 1, 600.0)


async def test_lobby_updates_only_while_in_the_lobby(db):
    g = await new_game(db)
    g = await db.update_lobby(g.id, seats=[ANA, BO], lobby_message_id=77)
    assert g.player_ids == ("1", "2") and g.lobby_message_id == 77
    assert [x.id for x in await db.games_of("2")] == [g.id]
    await db.update_lobby(g.id, seats=[ANA])
    assert await db.games_of("2") == []
    await db.start_game(g.id, seats=[ANA, BO], state_json="{}")
    with pytest.raises(StaleVersion):
        await db.update_lobby(g.id, seats=[])
    with pytest.raises(StaleVersion):
        await db.start_game(g.id, seats=g.seats, state_json="{}")


async def test_games_of_a_guild_and_of_a_player(db):
    a = await new_game(db, channel=1)
    b = await started(db, channel=2)
    c = await started(db, channel=3, guild=8)
    await db.cancel_game(a.id)
    assert [g.id for g in await db.games_in_guild(9)] == [b.id]
    assert [g.id for g in await db.games_of("2")] == [b.id, c.id]
    assert [g.id for g in await db.games_of("2", limit=1)] == [b.id]


async def test_a_reminder_is_claimed_once_with_its_notice(db):
    g = await started(db, due=Due(remind_at=1000.0))
    results = await asyncio.gather(*[db.claim_reminders(1000.0) for _ in range(5)])
    assert sorted(i for r in results for i in r) == [g.id]  # claimed once, however many look at once
    notices = await db.pending_notices(g.id)
    assert [(n.kind, n.payload) for n in notices][-1] == ("reminder", {"at": 1000.0})
    assert await db.claim_reminders(10**9) == []  # once per turn: the next one comes with the next turn


async def test_the_ai_flag_follows_the_moves_and_shards(db):
    guilds = [8 << 22, 9 << 22]  # guilds on shards 0 and 1 of 2
    a = await started(db, channel=1, guild=guilds[0], due=Due(ai=True))
    b = await started(db, channel=2, guild=guilds[1], due=Due(ai=True))
    assert await db.ai_due() == [a.id, b.id]
    assert await db.ai_due(shards=Shards(2, (1,))) == [b.id]
    assert await db.ai_due(after=a.id) == [b.id]
    await db.set_ai_due(a.id, a.version + 1, False)  # at another version: ignored
    assert await db.ai_due(limit=1) == [a.id]
    a = await db.commit_move(a, player="1", action={}, state_json="{}", finished=False, due=Due(ai=False))
    assert await db.ai_due() == [b.id]
    await db.set_ai_due(b.id, b.version, False)
    assert await db.ai_due() == []


async def test_notices_are_kept_until_cleared_and_listed_per_shard(db):
    g = await started(db, guild=9 << 22)  # on shard 1 of 2
    g = await db.commit_move(
        g, player="1", action={}, state_json="{}", finished=False, notice=("move", {"n": 1}), now=100.0
    )
    assert await db.games_with_notices() == [g.id]
    assert await db.games_with_notices(older_than=50.0) == []
    assert await db.games_with_notices(shards=Shards(2, (0,))) == []
    assert await db.games_with_notices(shards=Shards(2, (1,))) == [g.id]
    notices = await db.pending_notices(g.id)
    await db.clear_notices([n.id for n in notices])
    assert await db.pending_notices(g.id) == [] and await db.games_with_notices() == []


async def test_a_lease_is_held_by_one_owner_until_it_expires(db):
    g = await started(db)
    assert await db.lease(g.id, "a", 60, now=0.0)
    assert not await db.lease(g.id, "b", 60, now=10.0)
    assert await db.lease(g.id, "a", 60, now=20.0)  # renewed by its owner
    assert await db.lease(g.id, "b", 60, now=100.0)  # expired: taken over
    await db.release(g.id, "a")  # not a's any more: nothing happens
    assert not await db.lease(g.id, "a", 60, now=110.0)
    await db.release(g.id, "b")
    assert await db.lease(g.id, "a", 60, now=120.0)


async def test_ids_beyond_the_integer_range_name_no_game(db):
    assert await db.load_game(2**70) is None and await db.load_game(-1) is None and await db.load_game(0) is None


async def test_a_game_imported_from_another_database_is_the_same(db, tmp_path):
    from storage.sqlite import SQLiteStorage

    other = await SQLiteStorage.open(str(tmp_path / "other.sqlite3"))
    try:
        g = await started(other)
        g = await other.commit_move(
            g,
            player="1",
            action={"kind": "add"},
            state_json='{"s":1}',
            finished=False,
            notice=("move", {"p": "1"}),
            origin="o",
        )
        await db.import_game(g, await other.moves(g.id), await other.pending_notices(g.id))
        assert await db.load_game(g.id) == g and await db.moves(g.id) == await other.moves(g.id)
        assert [(n.kind, n.payload) for n in await db.pending_notices(g.id)] == [
            (n.kind, n.payload) for n in await other.pending_notices(g.id)
        ]
        assert [x.id for x in await db.games_of("2")] == [g.id] and await db.all_game_ids() == [g.id]
    finally:
        await other.close()


async def test_no_query_scans_a_table_that_grows_with_the_games(db):
    """Every query the bot runs finds its rows through an index: none reads all games, moves or seats (the
    outbox and the leases hold only what is pending)."""
    plans = await db.query_plans()
    assert plans
    for name, plan in plans.items():
        assert not db.full_scan(
            plan,
            (
                "games",
                "moves",
                "move_archive",
                "seats",
                "results",
                "ratings",
                "tournaments",
                "seasons",
                "lfg_queue",
                "lfg_matches",
                "reviews",
            ),
        ), f"{name}:\n{plan}"


async def test_the_table_changes_only_by_compare_and_set_with_its_notice(db):
    """Two clicks on one decision: the first wins (the second finds the table changed)."""
    g = await started(db)
    a = await db.update_table(
        g.id, expect={}, table={"standins": {"1": "turn"}}, deadline_at=500.0, notice=("deadline", {"p": "1"})
    )
    assert a.table == {"standins": {"1": "turn"}} and a.deadline_at == 500.0
    assert await db.update_table(g.id, expect={}, table={"x": 1}, deadline_at=None) is None
    assert [(n.kind, n.payload) for n in await db.pending_notices(g.id)] == [("deadline", {"p": "1"})]
    assert [r.id for r in await db.deadlines_due(499.0)] == [] and [r.id for r in await db.deadlines_due(500.0)] == [
        g.id
    ]
    g = await db.commit_move(
        a, player="1", action={}, state_json="{}", finished=False, due=Due(deadline_at=900.0), table={}
    )
    assert (g.table, g.deadline_at) == ({}, 900.0) and (await db.load_game(g.id)).deadline_at == 900.0
    g = await db.commit_move(
        g, player="2", action={}, state_json="{}", finished=False, free=True, due=Due(deadline_at=1.0)
    )
    assert (await db.load_game(g.id)).deadline_at == 900.0  # a free action keeps the deadline


async def test_an_undo_moves_the_taken_back_moves_to_the_audit(db):
    g = await started(db)
    for n in range(3):
        g = await db.commit_move(
            g, player="1" if n % 2 == 0 else "2", action={"n": n}, state_json=f'{{"s":{n}}}', finished=False
        )
    assert await db.last_move_of(g.id, "2") == 2 and await db.last_move_of(g.id, "9") == 0
    u = await db.undo(g, keep=1, state_json='{"s":0}', turns=1, by="2", table={}, notice=("undo", {"by": "2"}))
    assert (u.version, u.turns, u.state) == (1, 1, {"s": 0})
    assert [m.move_number for m in await db.moves(g.id)] == [1]
    assert [(m.move_number, m.action) for m in await db.undone_moves(g.id)] == [(2, {"n": 1}), (3, {"n": 2})]
    with pytest.raises(StaleVersion):  # asked at a version that is gone
        await db.undo(g, keep=0, state_json="{}", turns=0, by="2", table={})
    u = await db.commit_move(u, player="2", action={"n": 9}, state_json="{}", finished=False)
    assert [m.action for m in await db.moves(g.id)] == [{"n": 0}, {"n": 9}]


async def test_guild_settings_are_kept(db):
    from storage import Guild

    assert await db.guild(7) == Guild(7)
    await db.set_guild(Guild(7, "hu"))
    await db.set_guild(Guild(2**62, "de"))
    assert await db.guild(7) == Guild(7, "hu") and await db.guild(2**62) == Guild(2**62, "de")
    await db.set_guild(Guild(7, None))
    assert await db.guild(7) == Guild(7)


async def test_players_settings_are_kept(db):
    from storage import Player

    assert await db.player("5") == Player("5")
    await db.set_player(Player("5", away_until=100.0, away_ai=True, skip_confirm=True, locale="hu"))
    await db.set_player(Player("6", locale="de"))
    both = await db.players(["5", "6", "7"])
    assert both["5"].away(99.0) and not both["5"].away(100.0) and both["5"].locale == "hu"
    assert both["6"] == Player("6", locale="de") and both["7"] == Player("7")
    quiet = Player("8", locale="cs", quiet="22:00-08:00", timezone="Europe/Budapest", dm="turn")
    await db.set_player(quiet)  # the settings of the prefs column (issue #23)
    assert await db.player("8") == quiet and (await db.players(["8"]))["8"] == quiet
    await db.set_player(Player("8"))
    assert await db.player("8") == Player("8")


async def raw(db, sql: str, *args):
    """A statement straight to the database (`?` parameters; `$n` for PostgreSQL), for what the interface hides."""
    from storage.sqlite import SQLiteStorage

    if isinstance(db, SQLiteStorage):
        async with db._db.execute(sql, args) as cur:
            return await cur.fetchall()
    n = iter(range(1, len(args) + 1))
    return await db._pool.fetch("".join(f"${next(n)}" if c == "?" else c for c in sql), *args)


async def log_rows(db, game_id):
    """(rows in `moves`, rows in `move_archive`) of a game."""
    moves = await raw(db, "SELECT count(*) FROM moves WHERE game_id = ?", game_id)
    archived = await raw(db, "SELECT count(*) FROM move_archive WHERE game_id = ?", game_id)
    return moves[0][0], archived[0][0]


async def play_log(db, n=7, channel=1, finish=True, now=1_700_000_000.123456):
    """A game of `n` moves by Ana, Bo and an AI seat, with origins, stand-in moves and real (fractional) times;
    the last one finishing it if `finish`. Returns (row, what `moves` read just before the final move)."""
    g = await db.create_game(guild_id=9, channel_id=channel, game="fake", options={}, seed=5, creator=ANA)
    g = await db.start_game(g.id, seats=[ANA, BO, Seat("ai:easy:3", "AI")], state_json='{"s":0}', now=now)
    before = []
    for k in range(n):
        last = finish and k == n - 1
        if last:
            before = await db.moves(g.id)
        g = await db.commit_move(
            g,
            player=["1", "2", "ai:easy:3"][k % 3],
            action={"kind": "add", "n": k, "text": "é ✓", "list": [k, None, 1.5]},
            state_json=f'{{"s":{k + 1}}}',
            finished=last,
            origin=f"{k}.x:{k}" if k % 3 != 2 else None,
            standin=k % 4 == 1,
            now=now + 61.7 * (k + 1),
        )
    return g, before


async def test_a_finished_games_log_is_archived_in_its_final_transaction_and_reads_the_same(db):
    g, before = await play_log(db)
    assert g.status == "finished" and await log_rows(db, g.id) == (0, 1)
    moves = await db.moves(g.id)
    # as before the archive: the earlier moves' origins dropped at the end, the final move keeps its own
    assert moves[:-1] == [dataclasses.replace(m, origin=None) for m in before]
    action = {"kind": "add", "n": 6, "text": "é ✓", "list": [6, None, 1.5]}
    assert moves[-1] == MoveRow(g.id, 7, "1", action, 1_700_000_000.123456 + 61.7 * 7, "6.x:6")
    assert [m.standin for m in moves] == [False, True, False, False, False, True, False]
    assert [m.move_number for m in await db.moves(g.id, since=5)] == [6, 7] and await db.moves(g.id, since=7) == []
    assert await db.last_move_of(g.id, "1") == 7 and await db.last_move_of(g.id, "ai:easy:3") == 6
    assert await db.last_move_of(g.id, "7") == 0
    assert await db.move_by_origin(g.id, "1", "6.x:6") == moves[-1]  # a retried final click: played
    assert await db.move_by_origin(g.id, "1", "0.x:0") is None and await db.move_by_origin(g.id, "2", "6.x:6") is None
    # results filled in later (a game finished without them) read the archive
    from records.figures import Finish, SeatFinish

    finish = Finish(tuple(SeatFinish(p, p, 10, p == "1", None, False, {}) for p in ("1", "2", "ai:easy:3")))
    assert await db.record_finish(g.id, finish)
    assert [r.record.moves for r in await db.game_results(g.id)] == [3, 2, 2]
    assert [r.record.standin_moves for r in await db.game_results(g.id)] == [0, 1, 1]


async def test_a_cancelled_games_log_is_archived_with_its_origins(db):
    g, _ = await play_log(db, n=4, finish=False)
    moves = await db.moves(g.id)
    assert await db.cancel_game(g.id) and await log_rows(db, g.id) == (0, 1)
    assert await db.moves(g.id) == moves and await db.move_by_origin(g.id, "1", "3.x:3") == moves[-1]
    assert not await db.cancel_game(g.id) and await db.moves(g.id) == moves
    lobby = await new_game(db, channel=2)
    assert await db.cancel_game(lobby.id) and await log_rows(db, lobby.id) == (0, 0) and await db.moves(lobby.id) == []


async def test_games_that_ended_before_the_archive_keep_their_rows_and_read_as_before(db):
    g, _ = await play_log(db, n=5, finish=False)
    await raw(db, "UPDATE games SET status = 'finished' WHERE id = ?", g.id)  # as a game finished before schema 9
    moves = await db.moves(g.id)
    assert await log_rows(db, g.id) == (5, 0) and len(moves) == 5
    assert await db.last_move_of(g.id, "2") == 5 and await db.move_by_origin(g.id, "2", "4.x:4") == moves[-1]
    assert [m.move_number for m in await db.moves(g.id, since=3)] == [4, 5]
    # copied into another database, it arrives archived and reads the same
    from storage.sqlite import SQLiteStorage

    other = await SQLiteStorage.open(":memory:")
    try:
        row = await db.load_game(g.id)
        await other.import_game(row, moves, [])
        assert await other.moves(g.id) == moves and await log_rows(other, g.id) == (0, 1)
        assert await other.load_game(g.id) == row
    finally:
        await other.close()


async def test_a_tournament_changes_by_compare_and_set_and_is_due_on_its_servers_shard(db):
    """A tournament is created in sign-up, read back as stored; of two updates from the same version the first
    wins (a round is set up once, even by two bots); the due pass sees only what is due, of its own shards."""
    a_guild, b_guild = 1 << 22, 2 << 22  # shard 1 and shard 0 of 2
    cup = await db.create_tournament(guild_id=a_guild, channel_id=5, data={"game": "gardens", "players": []}, now=10.0)
    assert (cup.status, cup.version, cup.due_at, cup.data) == ("signup", 0, None, {"game": "gardens", "players": []})
    assert await db.load_tournament(cup.id) == cup and await db.load_tournament(2**70) is None
    first = await db.update_tournament(cup, data={"round": 1}, status="running", due_at=100.0, now=11.0)
    assert first is not None and first.version == 1 and await db.load_tournament(cup.id) == first
    assert await db.update_tournament(cup, data={"round": 9}, status="running", due_at=1.0) is None
    assert (await db.load_tournament(cup.id)).data == {"round": 1}
    other = await db.create_tournament(guild_id=b_guild, channel_id=6, data={}, now=12.0)
    await db.update_tournament(other, data={}, status="running", due_at=50.0, now=12.0)
    assert [t.id for t in await db.tournaments_due(99.0)] == [other.id]
    assert [t.id for t in await db.tournaments_due(200.0)] == [other.id, cup.id]
    assert [t.id for t in await db.tournaments_due(200.0, shards=Shards(2, (1,)))] == [cup.id]
    assert [t.id for t in await db.tournaments_due(200.0, shards=Shards(2, (0,)))] == [other.id]
