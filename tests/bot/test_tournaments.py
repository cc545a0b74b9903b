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
