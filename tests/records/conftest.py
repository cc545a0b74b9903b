"""The records tests run the storage half against every backend (the `db` fixture of tests/storage)."""

from tests.pgserver import pg_server, pg_url  # noqa: F401 (fixtures)
from tests.storage.conftest import db  # noqa: F401 (fixture)
