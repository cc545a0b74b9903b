"""The storage suite runs against every backend: `db` is an empty, open database of each kind."""

from __future__ import annotations

import pytest

from storage.sqlite import SQLiteStorage

BACKENDS = ["sqlite"]


@pytest.fixture(params=BACKENDS)
async def db(request, tmp_path):
    if request.param == "sqlite":
        s = await SQLiteStorage.open(str(tmp_path / "t.sqlite3"))
    yield s
    await s.close()
