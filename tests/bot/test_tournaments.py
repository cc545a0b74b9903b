"""Tournaments through the harness (issue #24): `/tournament create`, the sign-up post's buttons, each table's
game in its own thread played to the end with the panels, standings after each round as text and an image, and
the round changes surviving kill -9. The pairings and the standings are checked against an independent
computation here (brute force over every split of the players), not against records/tournaments.py."""

from __future__ import annotations

import asyncio
import itertools
import random
import re

import discord
import pytest

import engine
from tests.bot.driver import play_to_end
from tests.bot.harness import ALL_MEMBER, CHANNEL_ID, Harness, Msg, User

MOD = User(100000000000000098, "Mod", permissions=ALL_MEMBER | discord.Permissions(manage_guild=True).value)


def players(n: int) -> list[User]:
    names = ["Ana", "Bo", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal"]
    return [User(100000000000000001 + i, names[i]) for i in range(n)]


async def sign_up(h: Harness, people: list[User], starter: User | None = None, **values) -> Msg:
    """The first creates the tournament, the others join, `starter` (default the creator) starts it."""
    await h.run_command(people[0], "tournament create", **values)
    post = next(m for m in reversed(h.public(CHANNEL_ID)) if "Tournament #" in m.content)
    for p in people[1:]:
        r = await h.click(p, post, "Join")
        assert "You're in" in r.message.content
    r = await h.click(starter or people[0], post, "Start")
    assert "has started" in r.message.content, r.message.content
    return post


async def tournament(h: Harness, tid: int = 1):
    return await h.bot.storage.load_tournament(tid)


def current_tables(t) -> list[dict]:
    return t.data["history"][-1]["tables"] if t.data["history"] else []


async def play_round(h: Harness, people: list[User], rnd: random.Random) -> None:
    """Every table's game of the current round played to its end, through its thread's posts."""
    t = await tournament(h)
    by_id = {p.sid: p for p in people}
    for table in current_tables(t):
        thread = int(table["thread"])
        seated = [by_id[p] for p in table["players"]]
        await play_to_end(h, seated, h.last_public(thread), rnd, channel_id=thread)
        await h.settle()


# -- the independent computation ----------------------------------------------------------------------------


def points_at(scores: dict[str, float]) -> dict[str, float]:
    """One point per opponent beaten, half per tie."""
    return {
        p: sum(1.0 if scores[p] > scores[q] else 0.5 if scores[p] == scores[q] else 0.0 for q in scores if q != p)
        for p in scores
    }


async def results_of(h: Harness, t) -> list[list[dict[str, float]]]:
    """The final scores of every game of every round, read from the finished games themselves."""
    out = []
    for rnd in t.data["history"]:
        games = []
        for table in rnd["tables"]:
            row = await h.bot.storage.load_game(int(table["game"]))
            rules = engine.get_rules(row.game)
            scores = rules.scores(rules.from_json(row.state))
            games.append({p: float(scores[p]) for p in table["players"]})
        out.append(games)
    return out


def table_standings(seeds: list[str], rounds: list[list[dict[str, float]]]) -> list[tuple[str, float, float, float]]:
    """(player, points, Buchholz, score) ranked: points, Buchholz, score, seed."""
    pts = dict.fromkeys(seeds, 0.0)
    score = dict.fromkeys(seeds, 0.0)
    opponents: dict[str, list[str]] = {p: [] for p in seeds}
    for games in rounds:
        for scores in games:
            for p, v in points_at(scores).items():
                pts[p] += v
                score[p] += scores[p]
                opponents[p] += [q for q in scores if q != p]
    rows = [(p, pts[p], sum(pts[q] for q in opponents[p]), score[p]) for p in seeds]
    return sorted(rows, key=lambda r: (-r[1], -r[2], -r[3], seeds.index(r[0])))


def splits(people: list[str], size: int):
    """Every split of `people` into tables of `size` (unordered)."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for mates in itertools.combinations(rest, size - 1):
        left = [p for p in rest if p not in mates]
        for more in splits(left, size):
            yield [(first, *mates), *more]


def repeats(tables, met: set[frozenset[str]]) -> int:
    return sum(frozenset(pq) in met for t in tables for pq in itertools.combinations(t, 2))


def spread(tables, order: list[str]) -> int:
    return sum(max(order.index(p) for p in t) - min(order.index(p) for p in t) for t in tables)


LINE = re.compile(r"^(\d+)\. \*\*([^*]+)\*\*: (\S+) points \(Buchholz (\S+), score (\d+)\)$")


def half(text: str) -> float:
    return float(text.replace("½", ".5")) if text != "½" else 0.5


# -- the tests ----------------------------------------------------------------------------------------------


async def test_a_swiss_tournament_of_eight_in_fours_runs_to_the_end_with_pairings_and_standings(harness):
    """8 players, 3 rounds of 4-player Gardens, every game played to its end through its thread: round 1 by
    seed, each later round with the fewest repeats possible (brute force over all 35 splits) and, among those,
    the tables closest in the standings; standings after each round as text and image, the final one with the
    points and Buchholz computed here from the games' own final scores."""
    h, people, rnd = harness, players(8), random.Random(3)
    names = {p.sid: p.name for p in people}
    await sign_up(h, people, game="gardens", format="swiss", rounds=3, players_per_table=4)
    await h.settle()
    seeds = [p.sid for p in people]  # nobody is rated: sign-up order
    met: set[frozenset[str]] = set()
    threads: set[int] = set()
    for n in range(1, 4):
        t = await tournament(h)
        assert len(t.data["history"]) == n and t.status == "running"
        tables = [tuple(x["players"]) for x in current_tables(t)]
        assert sorted(p for x in tables for p in x) == sorted(seeds) and all(len(x) == 4 for x in tables)
        threads |= {int(x["thread"]) for x in current_tables(t)}
        before = table_standings(seeds, await results_of(h, t) if n > 1 else [])
        order = [r[0] for r in before] if n > 1 else seeds
        if n == 1:
            assert tables == [tuple(seeds[:4]), tuple(seeds[4:])]
        else:
            every = list(splits(order, 4))
            fewest = min(repeats(s, met) for s in every)
            assert repeats(tables, met) == fewest  # 4: two of each earlier table, unavoidably
            assert spread(tables, order) == min(spread(s, order) for s in every if repeats(s, met) == fewest)
        met |= {frozenset(pq) for x in tables for pq in itertools.combinations(x, 2)}
        round_post = next(m for m in reversed(h.public(CHANNEL_ID)) if f"round {n} of 3: the tables" in m.content)
        assert all(f"<#{x['thread']}>" in round_post.content for x in current_tables(t))
        await play_round(h, people, rnd)
        if n < 3:
            post = next(m for m in h.public(CHANNEL_ID) if f"standings after round {n} of 3" in m.content)
            assert post.files[0][0] == "standings.png"
    assert len(threads) == 6  # each table's game in a thread of its own
    t = await tournament(h)
    assert t.status == "finished" and t.due_at is None
    final = h.last_public(CHANNEL_ID)
    assert "final standings" in final.content and final.files and final.files[0][1][:4] == b"\x89PNG"
    want = table_standings(seeds, await results_of(h, t))
    got = [LINE.match(line).groups() for line in final.content.splitlines()[1:]]
    assert [(names[p], pts, bh, round(sc)) for p, pts, bh, sc in want] == [
        (name, half(pts), half(bh), int(sc)) for _n, name, pts, bh, sc in got
    ]
    assert [int(g[0]) for g in got] == list(range(1, 9))
    for rows in (await h.bot.storage.games_in_guild(h.guild_id),):
        assert rows == []  # every table's game ended
    signup = next(m for m in h.public(CHANNEL_ID) if "Tournament #1" in m.content)
    assert "is over" in signup.content and not signup.buttons()


async def test_a_round_robin_of_four_in_twos_pairs_everyone_once(harness):
    """4 players, 2-player Gardens: 3 rounds by the circle method, every pair exactly once, two tables a round;
    the final standings' points are the wins (computed here from the games)."""
    h, people, rnd = harness, players(4), random.Random(5)
    await sign_up(h, people, game="gardens", format="round_robin", players_per_table=2)
    await h.settle()
    for n in range(1, 4):
        t = await tournament(h)
        assert len(t.data["history"]) == n and len(current_tables(t)) == 2
        await play_round(h, people, rnd)
    t = await tournament(h)
    assert t.status == "finished"
    pairs = [frozenset(x["players"]) for r in t.data["history"] for x in r["tables"]]
    everyone = {frozenset(pq) for pq in itertools.combinations([p.sid for p in people], 2)}
    assert len(pairs) == 6 and set(pairs) == everyone  # each pair once
    want = table_standings([p.sid for p in people], await results_of(h, t))
    final = h.last_public(CHANNEL_ID)
    assert "final standings" in final.content and "Buchholz" not in final.content
    names = {p.sid: p.name for p in people}
    assert [line.split("**")[1] for line in final.content.splitlines()[1:]] == [names[r[0]] for r in want]
    assert sum(r[1] for r in want) == 6  # one point per game (a draw: a half each)


async def test_a_knockout_of_four_is_seeded_by_rating_and_started_by_a_manager(harness):
    """Ratings put Dee first, then Cyd, Bo, Ana: the semi-finals are Dee–Ana and Cyd–Bo (1 v 4, 2 v 3); only
    the organiser or *Manage Server* may start (Bo may not; a moderator may); the final is between the two
    winners, and its winner tops the final standings with two wins."""
    from storage import Rating, RatingRow

    h, people, rnd = harness, players(4), random.Random(11)
    ana, bo, cyd, dee = people
    rated = [(dee, 30.0), (cyd, 28.0), (bo, 26.0)]  # Ana is unrated: the last seed
    await h.bot.storage.import_records(
        [], [RatingRow(h.guild_id, "gardens", u.sid, u.name, Rating(mu, 1.0, 5), 1.0) for u, mu in rated]
    )
    await h.run_command(ana, "tournament create", game="gardens", format="knockout", players_per_table=2)
    post = next(m for m in reversed(h.public(CHANNEL_ID)) if "Tournament #" in m.content)
    for p in people[1:]:
        await h.click(p, post, "Join")
    refused = await h.click(bo, post, "Start")
    assert "Only the organiser" in refused.message.content and (await tournament(h)).status == "signup"
    started = await h.click(MOD, post, "Start")
    assert "has started" in started.message.content
    await h.settle()
    t = await tournament(h)
    assert t.data["seeds"] == [dee.sid, cyd.sid, bo.sid, ana.sid]
    assert [set(x["players"]) for x in current_tables(t)] == [{dee.sid, ana.sid}, {cyd.sid, bo.sid}]
    await play_round(h, people, rnd)
    t = await tournament(h)
    semis = t.data["history"][0]["tables"]
    winners = {max(x["players"], key=lambda p, x=x: (x["scores"][p], -x["players"].index(p))) for x in semis}
    assert len(t.data["history"]) == 2 and set(current_tables(t)[0]["players"]) == winners
    await play_round(h, people, rnd)
    t = await tournament(h)
    assert t.status == "finished" and len(t.data["history"]) == 2
    final = current_tables(t)[0]
    champion = max(final["players"], key=lambda p: (final["scores"][p], -final["players"].index(p)))
    text = h.last_public(CHANNEL_ID).content
    names = {p.sid: p.name for p in people}
    assert text.splitlines()[1].startswith(f"1. **{names[champion]}**: 2 points")


async def test_at_the_time_limit_a_running_game_is_scored_as_it_stands_and_a_leaver_is_dropped(tmp_path, fake_game):
    """A Swiss of 4 in 2-player Gardens: one table finishes, the other is mid-game when the round's time limit
    passes: it is cancelled (never rated), its scores as they stood count, its thread says so, and round 2 is
    paired. Then Cyd leaves the tournament: their running game goes to the AI (their seat in the table's
    `left`), and round 3 pairs the other three (one bye, never twice to the same player while avoidable)."""
    h, people, rnd = await Harness.start(tmp_path / "games.sqlite3", ai_processes=0), players(4), random.Random(2)
    try:
        await time_limit_and_leaving(h, people, rnd)
    finally:
        await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


async def time_limit_and_leaving(h: Harness, people: list[User], rnd: random.Random) -> None:
    post = await sign_up(h, people, game="gardens", format="swiss", rounds=3, players_per_table=2)
    await h.settle()
    t = await tournament(h)
    by_id = {p.sid: p for p in people}
    done, slow = current_tables(t)
    await play_to_end(
        h, [by_id[p] for p in done["players"]], h.last_public(int(done["thread"])), rnd, channel_id=int(done["thread"])
    )
    from tests.bot.driver import movers, play_one_action

    thread = int(slow["thread"])
    for _i in range(3):
        last = h.last_public(thread)
        await play_one_action(h, by_id[str(movers(last, people)[0])], last, rnd)
    await h.settle()
    t = await tournament(h)
    assert len(t.data["history"]) == 1 and t.due_at == t.data["history"][0]["ends"]
    running = await h.bot.storage.load_game(int(slow["game"]))
    rules = engine.get_rules("gardens")
    standing = rules.scores(rules.from_json(running.state))
    cog = h.bot.get_cog("TournamentCog")
    assert await cog.pass_tournaments(now=t.due_at - 1) == 0  # not yet
    assert await cog.pass_tournaments(now=t.due_at + 1) == 1
    await h.settle()
    t = await tournament(h)
    first = t.data["history"][0]["tables"][1]
    assert first["how"] == "limit" and first["scores"] == {p: standing[p] for p in slow["players"]}
    assert (await h.bot.storage.load_game(int(slow["game"]))).status == "cancelled"
    assert "scored as it stands" in h.last_public(thread).content
    assert len(t.data["history"]) == 2
    # Cyd leaves: dropped from pairings, their game goes to the AI
    cyd = people[2]
    r = await h.click(cyd, post, "Leave the tournament")
    assert "You left the tournament" in r.message.content
    await h.settle()
    t = await tournament(h)
    assert cyd.sid in t.data["dropped"]
    table = next(x for x in current_tables(t) if cyd.sid in x["players"])
    game = await h.bot.storage.load_game(int(table["game"]))
    assert cyd.sid in game.table["left"]
    for x in current_tables(t):  # the AI plays Cyd's turns; the others play theirs
        where, seated = int(x["thread"]), [by_id[p] for p in x["players"] if p != cyd.sid]
        for _i in range(500):
            last = next(
                m for m in reversed(h.public(where)) if set(movers(m, people)) - {cyd.id} or "Game over" in m.content
            )
            if "Game over" in last.content:
                break
            ids = [i for i in movers(last, people) if i != cyd.id]
            if ids:
                await play_one_action(h, by_id[str(ids[0])], last, rnd)
            await h.settle()
        assert any("Game over" in m.content for m in h.public(where)), [s.name for s in seated]
    await h.settle()
    t = await tournament(h)
    assert len(t.data["history"]) == 3
    third = t.data["history"][2]
    assert cyd.sid not in [p for x in third["tables"] for p in x["players"]] + third["byes"]
    assert len(third["byes"]) == 1 and len(third["tables"]) == 1
    earlier_byes = [p for r in t.data["history"][:2] for p in r["byes"]]
    assert third["byes"][0] not in earlier_byes
    left_table = next(x for x in t.data["history"][1]["tables"] if cyd.sid in x["players"])
    assert left_table["left"] == [cyd.sid]  # placed last at that table whatever the AI scored


async def kill_at(h: Harness, step: str, trigger) -> Harness:
    """Start a round change with `trigger()`; the bot is killed (kill -9) when the tournament reaches `step`.
    Returns the harness of the new process, settled (its start-up pass went on with the tournament)."""
    reached = asyncio.Event()

    async def die_here(name: str) -> None:
        if name == step:
            reached.set()
            await asyncio.Event().wait()  # the process is killed while it stands here

    h.bot.get_cog("TournamentCog").fault = die_here
    task = asyncio.ensure_future(trigger())
    await asyncio.wait_for(reached.wait(), 10)
    h = await h.kill()
    assert task.done()
    await h.settle()
    return h


async def check_round(h: Harness, n: int, people: list[User]) -> None:
    """Round `n` has every table it was paired with, each with one game of its own in a thread of its own, and
    nothing more: no game twice, none missing, no thread without its game, the round's post once."""
    t = await tournament(h)
    assert len(t.data["history"]) == n and t.status == "running"
    tables = current_tables(t)
    assert len(tables) == 2 and sorted(p for x in tables for p in x["players"]) == sorted(p.sid for p in people)
    games = [await h.bot.storage.load_game(i) for i in await h.bot.storage.all_game_ids()]
    mine = [g for g in games if g.table["tournament"][1] == n]
    assert sorted(g.id for g in mine) == sorted(int(x["game"]) for x in tables)
    for x in tables:
        g = next(g for g in mine if g.id == int(x["game"]))
        assert g.status == "active" and g.channel_id == int(x["thread"]) and list(g.player_ids) == x["players"]
    assert len(games) == len(h.fake.threads) == 2 * n  # every thread has its game, every game its thread
    posts = [m for m in h.public(CHANNEL_ID) if f"round {n} of 3: the tables" in m.content]
    assert len(posts) == 1


@pytest.mark.parametrize("step", ["paired", "thread", "game"])
async def test_a_tournament_survives_kill_9_at_each_round_change(tmp_path, fake_game, step):
    """A round robin of 4 in twos (the test game): the bot is killed at `step` of every round change (the round's
    pairings stored; a table's thread opened; a table's game made and started but not yet recorded), and the
    new process goes on from there: every round has exactly its tables, and the tournament ends."""
    h, people, rnd = await Harness.start(tmp_path / "games.sqlite3"), players(4), random.Random(8)
    try:
        await h.run_command(
            people[0],
            "tournament create",
            game="fake",
            format="round_robin",
            players_per_table=2,
            options="target=30, no-claps",
        )
        post = next(m for m in reversed(h.public(CHANNEL_ID)) if "Tournament #" in m.content)
        for p in people[1:]:
            await h.click(p, post, "Join")
        payload, ia = h.component_payload(people[0], post, h.button(post, "Start")["custom_id"], 2)
        h = await kill_at(h, step, lambda: asyncio.sleep(0, h.send(payload, ia)))
        await check_round(h, 1, people)
        for n in (2, 3):
            cog = h.bot.get_cog("TournamentCog")
            cog.session.listeners.remove(cog.kick)  # the round changes when the pass runs, not at the last move
            await play_round(h, people, rnd)
            due = (await tournament(h)).due_at
            h = await kill_at(h, step, lambda cog=cog, due=due: cog.pass_tournaments(now=due + 1))
            await check_round(h, n, people)
        await play_round(h, people, rnd)
        t = await tournament(h)
        assert t.status == "finished" and sum(len(r["tables"]) for r in t.data["history"]) == 6
        assert len(await h.bot.storage.all_game_ids()) == 6
        assert sum("final standings" in m.content for m in h.public(CHANNEL_ID)) == 1
    finally:
        await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []
