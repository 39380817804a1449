"""Fixtures of the server tests: a throwaway PostgreSQL cluster, a fresh database per test (SQLite
file or PostgreSQL database), and real ``xueliu serve`` processes on loopback."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from typing import Iterator, List, Optional

import pytest

# Fast timers: a discard has 10 s × 0.02 = 0.2 s, a bot thinks 20 ms.
TIME_SCALE = "0.02"


def _pg_bin() -> str:
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(d, "initdb")):
            return d
    initdb = shutil.which("initdb")
    if initdb is None:
        raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql); "
                           ".ci/run installs it")
    return os.path.dirname(initdb)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A PostgreSQL cluster in a temporary directory, run as the ``postgres`` user under root
    (initdb refuses root), stopped and deleted at the end of the session."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        self.dir = tempfile.mkdtemp(prefix="xueliu-pg-")
        self.port = free_port()
        self.as_user: List[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._names = itertools.count(1)

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=600)  # only against a hang

    def start(self) -> None:
        data = os.path.join(self.dir, "data")
        self._run(os.path.join(self.bin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres",
                  "-E", "UTF8", "--no-sync")
        # fsync off: the tests kill our server, never PostgreSQL, so its own durability is not
        # what they measure, and the machine's disk stays quiet.
        log = os.path.join(self.dir, "log")
        for attempt in range(5):
            opts = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
                    "-c synchronous_commit=off -c max_connections=300")
            try:
                # -t: how long pg_ctl waits for the server to accept connections (a busy
                # machine's start-up is slow; this only bounds a hang).
                self._run(os.path.join(self.bin, "pg_ctl"), "-D", data, "-o", opts, "-l", log,
                          "-w", "-t", "300", "start")
                return
            except subprocess.CalledProcessError:
                # The port free_port() saw may have been taken since by another process: try
                # another one.
                with open(log, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                taken = "could not bind" in text or "already in use" in text
                if not taken or attempt == 4:
                    raise
                self.port = free_port()

    def stop(self) -> None:
        try:
            self._run(os.path.join(self.bin, "pg_ctl"), "-D", os.path.join(self.dir, "data"),
                      "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def new_database(self) -> str:
        import psycopg

        name = f"xueliu_test_{next(self._names)}"
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres",
                             autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")  # a generated name, not input
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    cluster = Cluster()
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: "os.PathLike[str]") -> str:
    if request.param == "sqlite":
        return f"sqlite:///{os.path.join(tmp_path, 'xueliu.db')}"
    cluster: Cluster = request.getfixturevalue("postgres")
    return cluster.new_database()


@pytest.fixture
def pg_url(postgres: Cluster) -> str:
    return postgres.new_database()


class ServerProcess:
    """``xueliu serve`` in a child process. ``start()`` waits for the line naming its address;
    restarts reuse the port, so clients reconnect to the same address."""

    def __init__(self, db: str, *extra: str, port: int = 0, log_dir: Optional[str] = None) -> None:
        self.db = db
        self.extra = list(extra)
        self.port = port
        self.proc: Optional[subprocess.Popen[str]] = None
        self.address = ""
        self.log = open(os.path.join(log_dir or tempfile.gettempdir(),
                                     f"serve-{os.getpid()}-{id(self)}.log"), "a")

    def start(self) -> str:
        cmd = [sys.executable, "-m", "xueliu", "serve", "--port", str(self.port), "--db", self.db,
               "--time-scale", TIME_SCALE, "--stop-after", "600", *self.extra]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.log, text=True)
        # Only against a server that never comes up: on a busy machine start-up can take long.
        watchdog = threading.Timer(300, self.proc.kill)
        watchdog.start()
        try:
            line = self.proc.stdout.readline() if self.proc.stdout else ""
        finally:
            watchdog.cancel()
        if "listening on" not in line:
            self.proc.kill()
            raise RuntimeError(f"xueliu serve did not start: {line!r} (log {self.log.name})")
        self.address = line.split()[4]
        self.port = int(self.address.rsplit(":", 1)[1])
        return self.address

    @property
    def ws(self) -> str:
        return self.address.replace("http://", "ws://") + "/ws"

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()


@pytest.fixture
def serve(tmp_path: "os.PathLike[str]") -> Iterator[object]:
    """``serve(db, *flags)`` starts a server process; every one is stopped at the end."""
    started: List[ServerProcess] = []

    def start(db: str, *extra: str, port: int = 0) -> ServerProcess:
        s = ServerProcess(db, *extra, port=port, log_dir=str(tmp_path))
        s.start()
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()
        s.log.close()
