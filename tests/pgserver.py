"""A real, throw-away PostgreSQL server for the tests (any test folder may use it).

    from tests.pgserver import pg_server, pg_url  # noqa: F401  (re-export the fixtures in a conftest.py)

`pg_server` (session scope: one server per xdist worker, started on first use) runs Debian's PostgreSQL
binaries (`/usr/lib/postgresql/*/bin`, else `initdb`/`pg_ctl` on PATH): `initdb` into a new temporary
directory, then `pg_ctl start` listening on a Unix socket in that directory only (no TCP port, so workers
never collide). PostgreSQL refuses to run as root, so under root the server runs as the `postgres` system user
(else `nobody`, else a `pgtest` user created with `useradd`) through `runuser` (or `setpriv`), and the
directory belongs to that user. The server is tuned for tests (`fsync=off`): nothing survives it anyway.
`pg_url` is a fresh, empty place per test: a new schema (the URL sets its `search_path`) in the worker's test
database, dropped afterwards: about 12 ms, where `CREATE DATABASE` takes about 0.3 s here (`create_database()`
still offers that, for a test that needs a whole database). A watchdog process stops the server and removes
its directory if the test process dies without doing so (killed, timed out).

If the server cannot be started the tests using it FAIL with the reason (and the server log): a machine
without PostgreSQL is a broken CI, not a reason to skip (`.ci/run` installs the `postgresql` package).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import pytest

T = TypeVar("T")

PORT = 5432  # only names the socket file (.s.PGSQL.5432) in the server's own directory
SUPERUSER = "postgres"
TEST_DATABASE = "tests"  # where pg_url's schemas live

# Test settings: durability off (the data dies with the test run), fewer background writes.
FAST = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


# Run by the watchdog: argv = [owner pid, directory, *stop command]. The owner is its parent: once that died
# (even as an unreaped zombie) the watchdog has been handed to another parent.
WATCHDOG = """
import os, shutil, subprocess, sys, time
owner, directory, stop = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
while os.getppid() == owner:
    time.sleep(0.5)
if os.path.exists(os.path.join(directory, "data", "postmaster.pid")):
    subprocess.run(stop, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
shutil.rmtree(directory, ignore_errors=True)
"""


class ServerError(RuntimeError):
    """The test server could not be set up; the message says why and what to install."""


def find_binaries() -> tuple[Path, Path]:
    """(initdb, pg_ctl): the newest Debian cluster binaries, else the ones on PATH."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: [int(x) if x.isdigit() else 0 for x in Path(p).parts[-3].split(".")],
    )
    if candidates:
        initdb = Path(candidates[-1])
    else:
        found = shutil.which("initdb")
        if found is None:
            raise ServerError(
                "PostgreSQL is not installed: no /usr/lib/postgresql/*/bin/initdb and no initdb on PATH. "
                "Install Debian's `postgresql` package (apt-get install postgresql); .ci/run does this."
            )
        initdb = Path(found).resolve()
    pg_ctl = initdb.with_name("pg_ctl")
    if not pg_ctl.exists():
        found = shutil.which("pg_ctl")
        if found is None:
            raise ServerError(f"{initdb} has no pg_ctl next to it and there is none on PATH.")
        pg_ctl = Path(found)
    return initdb, pg_ctl


def _server_user() -> pwd.struct_passwd | None:
    """The unprivileged user to run the server as (None: the current user, who is not root)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    useradd = shutil.which("useradd")
    if useradd is None:
        raise ServerError("Running as root, no `postgres` or `nobody` user to run PostgreSQL as, and no useradd.")
    subprocess.run([useradd, "--system", "--no-create-home", "pgtest"], check=True, capture_output=True)
    return pwd.getpwnam("pgtest")


def _as_user(user: pwd.struct_passwd | None, argv: list[str]) -> list[str]:
    if user is None:
        return argv
    if runuser := shutil.which("runuser"):
        return [runuser, "-u", user.pw_name, "--", *argv]
    if setpriv := shutil.which("setpriv"):
        return [setpriv, f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups", "--", *argv]
    raise ServerError("Running as root without runuser or setpriv (util-linux) to start PostgreSQL unprivileged.")


def _base_dir() -> str:
    """A temporary directory every user can traverse (the server user must reach its data directory)."""
    base = tempfile.gettempdir()
    path = Path(base).resolve()
    for p in (path, *path.parents):
        if not os.stat(p).st_mode & stat.S_IXOTH:
            return "/tmp"
    # a Unix socket path holds at most 107 bytes
    return base if len(base) < 60 else "/tmp"


def _run_async(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to completion on its own loop in its own thread (callable from sync code and from
    fixtures of async tests alike, whatever loop is current)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(make())  # type: ignore[arg-type]
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


class PgServer:
    """One running test server. `url(db)` is its connection URL; `create_database()` a fresh database."""

    def __init__(self, *, durable: bool = False):
        self.initdb, self.pg_ctl = find_binaries()
        self.user = _server_user()
        self.dir = Path(tempfile.mkdtemp(prefix="pgtest-", dir=_base_dir()))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.durable = durable
        self._names = itertools.count(1)
        self.running = False
        self._watchdog: subprocess.Popen[bytes] | None = None
        if self.user is not None:
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        os.chmod(self.dir, 0o755)  # the socket lives here: the (root) test process connects through it

    @property
    def socket_dir(self) -> str:
        return str(self.dir)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={quote(self.socket_dir, safe='')}&port={PORT}"

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env["LC_ALL"] = "C"
        return env

    def _run(self, argv: list[str], what: str, timeout: float = 120) -> None:
        try:
            proc = subprocess.run(
                _as_user(self.user, argv),
                capture_output=True,
                text=True,
                env=self._env(),
                cwd=self.dir,
                timeout=timeout,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ServerError(f"{what} failed: {exc}") from exc
        if proc.returncode != 0:
            raise ServerError(
                f"{what} failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}\n{self.log_tail()}"
            )

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log.read_text(errors="replace").splitlines()[-lines:]
        except OSError:
            return ""
        return "server log:\n" + "\n".join(text)

    def start(self) -> None:
        self._watch()
        self._run(
            [
                str(self.initdb),
                "-D",
                str(self.data),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--no-locale",
                "-E",
                "UTF8",
                *([] if self.durable else ["--no-sync"]),
            ],
            f"initdb ({self.initdb}, as {self.user.pw_name if self.user else 'the current user'})",
        )
        settings = {
            "listen_addresses": "''",
            "unix_socket_directories": f"'{self.socket_dir}'",
            "port": str(PORT),
            "max_connections": "100",
            "shared_buffers": "32MB",
            **({} if self.durable else FAST),
        }
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write("\n# tests/pgserver.py\n" + "".join(f"{k} = {v}\n" for k, v in settings.items()))
        self._run(
            [str(self.pg_ctl), "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start"],
            "pg_ctl start",
        )
        self.running = True
        _run_async(lambda: self._admin(f"CREATE DATABASE {TEST_DATABASE}"))

    def _stop_argv(self) -> list[str]:
        return _as_user(self.user, [str(self.pg_ctl), "-D", str(self.data), "-m", "immediate", "-w", "stop"])

    def _watch(self) -> None:
        """A watchdog process (its own session, so a signal to the test run's process group spares it) that stops
        the server and removes its directory if this process dies without doing so (killed, timed out)."""
        self._watchdog = subprocess.Popen(
            [sys.executable, "-c", WATCHDOG, str(os.getpid()), str(self.dir), *self._stop_argv()],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=self._env(),
        )

    def stop(self) -> None:
        if self._watchdog is not None:
            self._watchdog.kill()
            self._watchdog.wait()
            self._watchdog = None
        if self.running:
            self.running = False
            with contextlib.suppress(ServerError):
                self._run([str(self.pg_ctl), "-D", str(self.data), "-m", "immediate", "-w", "stop"], "pg_ctl stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    async def _admin(self, sql: str, database: str = "postgres") -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url(database))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    def create_database(self) -> str:
        """A new, empty database; its URL."""
        name = f"t{os.getpid()}_{next(self._names)}"
        _run_async(lambda: self._admin(f"CREATE DATABASE {name} TEMPLATE template0"))
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = url.split("/")[3].split("?")[0]
        _run_async(lambda: self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))

    def create_schema(self) -> str:
        """A new, empty schema in the test database; the URL of the database with that schema as its search
        path (asyncpg passes unknown URL parameters on as server settings)."""
        name = f"s{os.getpid()}_{next(self._names)}"
        _run_async(lambda: self._admin(f"CREATE SCHEMA {name}", TEST_DATABASE))
        return f"{self.url(TEST_DATABASE)}&search_path={name}"

    def drop_schema(self, url: str) -> None:
        """Drop the schema; connections a test left open (and holding locks) are cut first if they are in the
        way, so that a leak fails the test instead of hanging the run."""
        name = url.rsplit("search_path=", 1)[1]
        _run_async(lambda: self._drop_schema(name))

    async def _drop_schema(self, name: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url(TEST_DATABASE))
        try:
            await conn.execute("SET lock_timeout = '5s'")
            try:
                await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
            except asyncpg.LockNotAvailableError:
                await conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
                raise ServerError(f"The test left connections holding locks in schema {name} (now cut).") from None
        finally:
            await conn.close()


def start_server(*, durable: bool = False) -> PgServer:
    """A started server (stopped at exit at the latest); ServerError with the reason if it cannot start."""
    server = PgServer(durable=durable)
    atexit.register(server.stop)
    try:
        server.start()
    except BaseException:
        server.stop()
        raise
    return server


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    try:
        server = start_server()
    except ServerError as exc:
        pytest.fail(f"Could not start the PostgreSQL test server: {exc}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """The URL of a fresh, empty schema on the test server (dropped after the test)."""
    url = pg_server.create_schema()
    yield url
    pg_server.drop_schema(url)
