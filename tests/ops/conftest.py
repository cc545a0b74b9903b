"""Fixtures for the operations tests: the Discord-layer ones (a fake game, players) and the real PostgreSQL."""

from tests.bot.conftest import fake_game, users  # noqa: F401 (re-exported fixtures)
from tests.pgserver import pg_server, pg_url  # noqa: F401
