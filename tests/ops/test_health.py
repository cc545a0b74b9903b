"""The health and metrics server (ops/health.py, ops/metrics.py) of a bot driven through the fake Discord:
/healthz answers, /readyz follows the database (a real PostgreSQL server stopped and started again), /metrics is
valid Prometheus text whose counters move as a game is played."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import aiohttp
import yaml
from prometheus_client.parser import text_string_to_metric_families

from tests.bot.driver import create_and_start, play_to_end
from tests.bot.harness import Harness
from tests.pgserver import start_server

SUFFIXES = ("", "_total", "_bucket", "_count", "_sum")
DOCS = Path(__file__).resolve().parents[2] / "docs"
DASHBOARD, ALERTS, GUIDE = DOCS / "grafana-dashboard.json", DOCS / "prometheus-alerts.yaml", DOCS / "operating.md"


async def get(h: Harness, path: str) -> tuple[int, str]:
    health = h.bot.health
    assert health is not None and health.host == "127.0.0.1"  # localhost unless HEALTH_HOST says otherwise
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{health.port}{path}") as r:
        return r.status, await r.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape: (name, sorted labels) -> value (the parser rejects malformed text)."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def total(scrape: dict, name: str, **labels: str) -> float:
    want = set(labels.items())
    return sum(v for (n, ls), v in scrape.items() if n == name and want <= set(ls))


async def test_metrics_parse_and_move_as_a_game_is_played(tmp_path, fake_game, users):
    h = await Harness.start(tmp_path / "games.sqlite3", health_port=0)
    try:
        assert await get(h, "/healthz") == (200, "ok\n")
        status, text = await get(h, "/readyz")
        assert (status, text) == (200, "ready\n")
        before = samples((await get(h, "/metrics"))[1])
        assert total(before, "alhambra_moves_total") == 0
        assert total(before, "alhambra_shard_up", shard="0") == 1

        post = await create_and_start(h, "fake", users[:2])
        final, actions = await play_to_end(h, users[:2], post, random.Random(3))
        status, text = await get(h, "/metrics")
        assert status == 200
        after = samples(text)
        played = total(after, "alhambra_moves_total", outcome="played")
        assert played >= actions > 0
        assert total(after, "alhambra_interactions_total", kind="component") >= actions
        assert total(after, "alhambra_interactions_total", kind="command") >= 1
        assert total(after, "alhambra_interaction_errors_total") == 0
        assert total(after, "alhambra_posts_total") >= actions  # one post per move at least (and the start)
        # every post was caused by a click: its latency histogram counted each one
        assert total(after, "alhambra_interaction_post_seconds_count") >= actions
        assert total(after, "alhambra_db_operation_seconds_count", operation="commit_move") == played
        assert total(after, "alhambra_db_operation_seconds_count", operation="load_game") > 0
        assert total(after, "alhambra_outbox_notices") == 0  # everything was posted
        assert ("alhambra_event_loop_lag_seconds", ()) in after
        assert total(after, "alhambra_worker_queue", pool="render") == 0
        # the example Grafana dashboard asks only for metrics this bot exports (some have no sample yet)
        # and so do the example alerting rules (each with a severity and a summary docs/operating.md explains)
        asked = set(re.findall(r"alhambra_[a-z_]+", DASHBOARD.read_text(encoding="utf-8")))
        rules = [r for g in yaml.safe_load(ALERTS.read_text(encoding="utf-8"))["groups"] for r in g["rules"]]
        asked |= {m for r in rules for m in re.findall(r"alhambra_[a-z_]+", r["expr"])}
        known = {f.name + end for f in text_string_to_metric_families(text) for end in SUFFIXES}
        assert asked and asked <= known, asked - known
        guide = GUIDE.read_text(encoding="utf-8")
        for r in rules:
            assert r["labels"]["severity"] in ("page", "warn", "info") and r["annotations"]["summary"]
            assert f"`{r['alert']}`" in guide, f"docs/operating.md does not explain {r['alert']}"
    finally:
        await h.close()
    assert h.fake.violations == [] and h.unexpected_errors == []


def pg_ctl(server, *args: str) -> None:
    server._run([str(server.pg_ctl), "-D", str(server.data), *args], f"pg_ctl {args[-1]}")


async def test_readyz_follows_the_database(tmp_path, fake_game, users):
    """/readyz is 503 naming the database while the PostgreSQL server is stopped, 200 again once it is back
    (the bot's connections reconnect by themselves); /healthz stays 200 throughout."""
    server = await asyncio.to_thread(start_server)
    h = None
    try:
        h = await Harness.start(tmp_path / "unused.sqlite3", database_url=server.url(), health_port=0)
        assert (await get(h, "/readyz"))[0] == 200
        await asyncio.to_thread(pg_ctl, server, "-m", "immediate", "-w", "stop")
        status, text = await get(h, "/readyz")
        assert status == 503 and "database: not reachable" in text, text
        assert await get(h, "/healthz") == (200, "ok\n")
        scrape = samples((await get(h, "/metrics"))[1])  # the metrics still go out without the database
        assert total(scrape, "alhambra_db_operation_errors_total", operation="outbox_stats") >= 1
        await asyncio.to_thread(pg_ctl, server, "-l", str(server.log), "-w", "-t", "60", "start")
        for _ in range(50):
            status, text = await get(h, "/readyz")
            if status == 200:
                break
            await asyncio.sleep(0.1)
        assert (status, text) == (200, "ready\n")
        post = await create_and_start(h, "fake", users[:2])  # and the bot plays on
        assert "begins" in post.content
    finally:
        if h is not None:
            h.errors.records.clear()  # the warnings of the outage are expected; errors are not checked here
            await h.close()
        await asyncio.to_thread(server.stop)
