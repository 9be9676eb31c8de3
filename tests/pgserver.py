"""A throwaway PostgreSQL server for the tests: its own cluster in a temporary directory.

:class:`PgServer` runs Debian's ``initdb`` and ``pg_ctl`` (``postgresql`` package, installed by
``tools/install-system-deps.sh``) into a fresh directory, listening on 127.0.0.1 on a free port with
``trust`` authentication, and removes it all on :meth:`PgServer.stop`.  It runs as the current user;
as root (CI), whom ``initdb`` refuses, the cluster belongs to the ``postgres`` system user instead
(``runuser``).  ``KWX_TEST_POSTGRES_URL`` names an existing server to use instead (one where the
tests may create and drop databases).  Without either the tests fail with the reason — PostgreSQL
is part of the test setup, never skipped.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import asyncpg

__all__ = ["PgServer", "PgUnavailable", "drop_database", "fresh_database"]


class PgUnavailable(RuntimeError):
    """PostgreSQL cannot be started here (the message says why and what to install)."""


def _binary(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(Path(p).parts[-3]))
    if versions:
        return versions[-1]
    raise PgUnavailable(
        f"PostgreSQL's {name} is not installed: run tools/install-system-deps.sh (Debian's postgresql package) "
        "or set KWX_TEST_POSTGRES_URL to a server where the tests may create databases"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """A running throwaway cluster (or the server of ``KWX_TEST_POSTGRES_URL``); ``url`` is its
    maintenance database's URL."""

    def __init__(self) -> None:
        self.url = os.environ.get("KWX_TEST_POSTGRES_URL", "").strip()
        self._dir: Path | None = None
        self._as: list[str] = []
        if self.url:
            return
        initdb, self._pg_ctl = _binary("initdb"), _binary("pg_ctl")
        root = os.geteuid() == 0
        # as root the postgres user must reach the directory: /tmp, not a TMPDIR only root may enter
        self._dir = Path(tempfile.mkdtemp(prefix="kwx-pg-", dir="/tmp" if root else None))
        if root:  # initdb refuses root: the cluster belongs to the postgres user
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise PgUnavailable("running as root without a 'postgres' user: install Debian's postgresql") from None
            os.chown(self._dir, owner.pw_uid, owner.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        data, port = self._dir / "data", _free_port()
        self._run([initdb, "-D", str(data), "-A", "trust", "-U", "kwx", "-E", "UTF8", "--no-locale", "--no-sync"])
        options = (
            f"-c listen_addresses=127.0.0.1 -p {port} -k {self._dir} -c fsync=off -c full_page_writes=off "
            "-c max_connections=50"
        )
        log = self._dir / "server.log"
        self._run([self._pg_ctl, "-D", str(data), "-o", options, "-l", str(log), "-w", "-t", "60", "start"])
        self.url = f"postgresql://kwx@127.0.0.1:{port}/postgres"

    def _run(self, argv: list[str]) -> None:
        done = subprocess.run([*self._as, *argv], capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            log = self._dir / "server.log" if self._dir else None
            tail = log.read_text()[-2000:] if log and log.exists() else ""
            raise PgUnavailable(f"{' '.join(argv[:2])} failed: {done.stderr.strip() or done.stdout.strip()} {tail}")

    def stop(self) -> None:
        """Stop the throwaway cluster and remove its directory (nothing for an external server)."""
        if self._dir is None:
            return
        subprocess.run(
            [*self._as, self._pg_ctl, "-D", str(self._dir / "data"), "-m", "immediate", "-w", "stop"],
            capture_output=True, timeout=60, check=False,
        )  # fmt: skip
        shutil.rmtree(self._dir, ignore_errors=True)
        self._dir = None

    def database_url(self, name: str) -> str:
        """The URL of database ``name`` on this server."""
        base, _, _ = self.url.rpartition("/")
        return f"{base}/{name}"


async def fresh_database(server: PgServer) -> tuple[str, str]:
    """A new empty database on ``server``: ``(name, url)``."""
    name = f"kwx_test_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(server.url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return name, server.database_url(name)


async def drop_database(server: PgServer, name: str) -> None:
    """Drop database ``name`` (closing whatever still connects to it)."""
    conn = await asyncpg.connect(server.url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def main() -> None:
    """``python -m tests.pgserver``: start a throwaway cluster, print the server's version, stop it
    (.ci/run's check that PostgreSQL works here; exits non-zero with the reason otherwise)."""
    import asyncio

    server = PgServer()
    try:

        async def version() -> str:
            conn = await asyncpg.connect(server.url)
            try:
                return str(await conn.fetchval("SELECT version()"))
            finally:
                await conn.close()

        print(f"PostgreSQL for the tests: {asyncio.run(version())}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
