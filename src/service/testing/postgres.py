"""PostgreSQL for the tests and tools: the server on 127.0.0.1:5432 (STICH_TEST_PG: another
admin URL) if one answers, else one of our own (the system's initdb and pg_ctl, in a temporary
directory, on a free port). Each test or run gets a fresh database (stich_test_<random>),
dropped afterwards, so runs never collide. The tests' fixtures (pg_admin, pg_url) are in
tests/conftest.py: without a server, a failure when CI is set, else a skip that says why.

    with fresh_database(find_admin()[0]) as url: ...
"""
from __future__ import annotations

import contextlib
import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile

from . import free_port

DEFAULT_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


def _answers(url: str) -> str | None:
    """None if the server at `url` takes a connection, else why not."""
    import psycopg
    try:
        with psycopg.connect(url, connect_timeout=3):
            return None
    except psycopg.Error as err:
        return str(err).splitlines()[0] if str(err) else type(err).__name__


class OwnServer:
    """initdb + pg_ctl start in a temporary directory (as the postgres user when we are root:
    initdb refuses root); stop() removes it."""

    def __init__(self):
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        initdb = found[-1] if found else shutil.which("initdb")
        if not initdb:
            raise RuntimeError("no PostgreSQL binaries (/usr/lib/postgresql/*/bin/initdb)")
        bindir = os.path.dirname(initdb)
        self.pg_ctl = os.path.join(bindir, "pg_ctl")
        self.dir = tempfile.mkdtemp(prefix="stich-pg-")
        self.data = os.path.join(self.dir, "data")
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root and there is no postgres user for initdb") from None
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self._run([initdb, "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8"])
        self.start()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        self._run([self.pg_ctl, "-D", self.data, "-l", os.path.join(self.dir, "log"), "-w", "-t", "60",
                   "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start"])

    def halt(self) -> None:
        """Stop the server as a crash would (its data stays for start())."""
        self._run([self.pg_ctl, "-D", self.data, "-m", "immediate", "-w", "stop"])

    def _run(self, argv: list[str]) -> None:
        done = subprocess.run(self.prefix + argv, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{os.path.basename(argv[0])} failed: {(done.stderr or done.stdout).strip()[-300:]}")

    def stop(self) -> None:
        subprocess.run(self.prefix + [self.pg_ctl, "-D", self.data, "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(self.dir, ignore_errors=True)


def create_database(admin: str, prefix: str = "stich_test_") -> tuple[str, str]:
    """A new empty database on the server of `admin`: (its name, its URL)."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict
    name = prefix + secrets.token_hex(6)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    p = conninfo_to_dict(admin)
    return name, f"postgresql://{p.get('user', 'postgres')}@{p.get('host', '127.0.0.1')}:{p.get('port', 5432)}/{name}"


def drop_database(admin: str, name: str) -> None:
    import psycopg
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def fresh_database(admin: str, prefix: str = "stich_test_"):
    name, url = create_database(admin, prefix)
    try:
        yield url
    finally:
        drop_database(admin, name)


def find_admin() -> tuple[str, OwnServer | None]:
    """(an admin URL, our own server if we had to start one); RuntimeError: neither works."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise RuntimeError("psycopg is not installed (pip install -e '.[dev]')") from None
    admin = os.environ.get("STICH_TEST_PG", DEFAULT_ADMIN)
    why = _answers(admin)
    if why is None:
        return admin, None
    try:
        own = OwnServer()
    except (RuntimeError, OSError, subprocess.SubprocessError) as err:
        raise RuntimeError(f"{admin} does not answer ({why}), and no server of our own: {err}") from None
    return own.url, own
