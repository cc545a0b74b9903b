"""The storage suite runs against every backend: `db` is an empty, open database of each kind. PostgreSQL runs
on a real server the tests start themselves (tests/pgserver.py): one per xdist worker, a new database per test."""

from __future__ import annotations

import pytest

from records.figures import RATER
from storage.sqlite import SQLiteStorage
from tests.pgserver import pg_server, pg_url  # noqa: F401 (fixtures)

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
async def db(request, tmp_path):
    if request.param == "sqlite":
        s = await SQLiteStorage.open(str(tmp_path / "t.sqlite3"), rater=RATER)
    else:
        from storage.postgres import PostgresStorage

        s = await PostgresStorage.open(request.getfixturevalue("pg_url"), rater=RATER)
    yield s
    await s.close()
