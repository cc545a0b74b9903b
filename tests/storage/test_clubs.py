"""Seasons, the looking-for-game queue and substitutes (issue #24) on every backend: a season opens once and a
reset clears the server's ratings with it, its podium counts only those rated during it; the queue is read per
server and shared, a match takes its players once (two matches racing for one player: one wins), its data
changes by compare-and-set with the players it puts back, the timeout pass reads its shards' due matches; a seat
changes hands only at the version and table it was asked at."""

from __future__ import annotations

import dataclasses

from storage import QueueEntry, Rating, RatingRow, Seat, Shards
from tests.storage.test_storage import ANA, started

G, H = 9 << 22, 8 << 22  # two servers, on shards 1 and 0 of 2


def rating(guild, player, shown, at):
    return RatingRow(guild, "fake", player, f"P{player}", Rating(shown + 3.0, 1.0, 5), at)


async def test_a_season_opens_once_resets_or_carries_and_archives_its_podium(db):
    await db.import_records([], [rating(G, "1", 10.0, 100.0), rating(G, "2", 5.0, 200.0), rating(H, "1", 1.0, 1.0)])
    spring = await db.start_season(G, name="Spring", reset=False, now=150.0)
    assert (spring.number, spring.reset, spring.ended_at) == (1, False, None)
    assert await db.start_season(G, name="Twice", reset=True, now=160.0) is None  # one runs already
    assert await db.leaderboard_size(G, "fake") == 2  # carried over
    await db.import_records([], [rating(G, "3", 7.0, 300.0)])
    ended = await db.end_season(G, games=["fake", "gardens"], now=400.0)
    # the podium: those rated since the season began (player 1's carried 10.0 was not played for)
    assert ended.podium == {"fake": [["2", "P2", 5.0, 5], ["3", "P3", 7.0, 5]][::-1]}
    assert await db.end_season(G, games=["fake"], now=401.0) is None
    summer = await db.start_season(G, name="", reset=True, now=500.0)
    assert summer.number == 2 and await db.leaderboard_size(G, "fake") == 0
    assert await db.leaderboard_size(H, "fake") == 1  # another server's ratings stay
    assert [s.number for s in await db.seasons(G)] == [2, 1]
    (old,) = await db.seasons(G, before=2)
    assert old.podium == ended.podium and old.ended_at == 400.0 and old.name == "Spring"
    assert await db.leaderboard(G, "fake", since=0.0) == []


def entry(guild, player, since, shared=True, **kw):
    return QueueEntry(guild, player, "fake", f"P{player}", since, shared, **kw)


async def test_the_queue_is_read_per_server_and_shared_and_a_match_takes_its_players_once(db):
    a = entry(G, "1", 1.0, players=2, speed="fast", band=5.0, rating=3.5, pace="slow", ignored=1)
    b = entry(H, "2", 2.0)
    c = entry(H, "3", 3.0, shared=False)
    for e in (a, b, c):
        await db.queue_put(e)
    assert await db.queue_waiting("fake", G, shared=False) == [a]
    assert await db.queue_waiting("fake", G, shared=True) == [a, b]  # not H's own-server entry
    assert await db.queue_waiting("fake", H, shared=True) == [a, b, c]
    assert await db.queue_waiting("other", G, shared=True) == []
    match = await db.open_match([a, b], guild_id=G, expires_at=600.0, data={"members": ["1", "2"]}, now=5.0)
    assert match is not None and match.status == "open" and await db.load_match(match.id) == match
    assert await db.open_match([b, c], guild_id=H, expires_at=600.0, data={}, now=6.0) is None  # b is taken
    assert await db.queue_waiting("fake", H, shared=True) == [c]  # nothing of the losing match happened
    # compare-and-set: the first of two answers wins; an expired match puts players back at their place
    first = await db.update_match(match.id, expect=match.data, data={**match.data, "ok": 1})
    assert first is not None and first.data["ok"] == 1
    assert await db.update_match(match.id, expect=match.data, data={"late": 1}) is None
    assert [m.id for m in await db.matches_due(600.0)] == [match.id] and await db.matches_due(599.0) == []
    assert await db.matches_due(600.0, shards=Shards(2, (0,))) == []  # the match is G's, on shard 1
    back = dataclasses.replace(a, ignored=2)
    done = await db.update_match(match.id, expect=first.data, data=first.data, status="expired", requeue=[back])
    assert done.status == "expired" and await db.matches_due(1e9) == []
    assert await db.queue_waiting("fake", G, shared=True) == [back]
    assert await db.update_match(match.id, expect=first.data, data={}, status="open") is None  # not open any more
    assert await db.queue_drop(G, "1", "other") == 0 and await db.queue_drop(G, "1") == 1
    assert await db.queue_drop(H, "3", "fake") == 1 and await db.queue_waiting("fake", H, shared=True) == []


async def test_a_seat_changes_hands_at_the_version_and_table_it_was_asked_at(db):
    g = await started(db)
    eve = Seat("5", "Eve")
    done = await db.replace_seat(
        g, seats=[ANA, eve], state_json='{"s":5}', table={"substitutes": {"5": "2"}}, notice=("seat_taken", {"by": "5"})
    )
    assert done.seats == (ANA, eve) and done.state == {"s": 5} and done.version == g.version
    assert done.table == {"substitutes": {"5": "2"}} and await db.load_game(g.id) == done
    assert [n.kind for n in await db.pending_notices(g.id)][-1] == "seat_taken"
    assert [x.id for x in await db.games_of("5")] == [g.id] and await db.games_of("2") == []
    assert await db.replace_seat(g, seats=[ANA], state_json="{}", table={}) is None  # its table changed since
