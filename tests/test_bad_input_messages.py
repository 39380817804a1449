"""Bad input names its subject, through the command line as a person meets it: a weights file
that is not one (text, random bytes, a truncated archive, an archive without the network's
arrays, no file at all) says which file and what it is instead — never numpy's advice to load it
unsafely as a pickle — and ``xueliu serve`` on a busy port or an SQLite path it cannot open says
which port or which path."""

from __future__ import annotations

import socket
import subprocess
import sys

import numpy as np
import pytest

from xueliu.bots.neural_net import DEFAULT_WEIGHTS


def _xueliu(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xueliu", *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd, stdin=subprocess.DEVNULL)


def _arena_with(weights: str, cwd) -> subprocess.CompletedProcess:
    return _xueliu("arena", "--bots", f"neural:{weights},greedy", "--games", "2",
                   "--preset", "xueliu", cwd=cwd)


def _refused(p: subprocess.CompletedProcess, message: str) -> None:
    assert p.returncode == 1, p.stderr
    assert message in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr  # one line, no traceback
    assert "pickle" not in p.stderr.lower(), p.stderr  # never advice to load it unsafely


@pytest.mark.parametrize("content", [b"these are not weights\n",
                                     np.random.default_rng(3).bytes(4096)],
                         ids=["text", "random bytes"])
def test_a_file_that_is_no_archive_is_named_as_such(tmp_path, content):
    (tmp_path / "bad.npz").write_bytes(content)
    _refused(_arena_with("bad.npz", tmp_path),
             "bad.npz: not a neural bot weights file (not an .npz archive)")


def test_a_truncated_archive_is_named_as_such(tmp_path):
    data = open(DEFAULT_WEIGHTS, "rb").read()
    (tmp_path / "bad.npz").write_bytes(data[:len(data) // 2])
    _refused(_arena_with("bad.npz", tmp_path),
             "bad.npz: not a neural bot weights file (a truncated or damaged .npz archive)")


def test_an_archive_without_the_networks_arrays_says_what_is_missing(tmp_path):
    np.savez(tmp_path / "bad.npz", x=np.zeros(3))
    _refused(_arena_with("bad.npz", tmp_path), "bad.npz: not a neural bot weights file: no meta")
    with np.load(DEFAULT_WEIGHTS) as z:
        arrays = {k: z[k] for k in z.files if k != "b1"}
    np.savez(tmp_path / "nob1.npz", **arrays)
    _refused(_arena_with("nob1.npz", tmp_path),
             "nob1.npz: not a neural bot weights file: no array b1")
    np.savez(tmp_path / "objects.npz", meta=np.array([{"format": 1}], dtype=object))
    _refused(_arena_with("objects.npz", tmp_path),
             "objects.npz: not a neural bot weights file: an array that is not plain numbers")


def test_a_missing_weights_file_says_its_path(tmp_path):
    _refused(_arena_with("missing.npz", tmp_path),
             "cannot read the weights file 'missing.npz'")


def test_serve_on_a_busy_port_says_which_port(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        p = _xueliu("serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.db'}",
                    "--stop-after", "5")
    _refused(p, f"cannot listen on 127.0.0.1:{port}: Address already in use")
    assert "--port 0" in p.stderr
    assert not (tmp_path / "x.db").exists()  # refused before the database was touched


@pytest.mark.parametrize("where, why", [
    ("nowhere/x.db", "(the directory {tmp}/nowhere does not exist)"),
    ("file/x.db", "({tmp}/file is not a directory)"),
    ("", "(it is a directory)"),
])
def test_serve_on_an_sqlite_path_it_cannot_open_says_which_path(tmp_path, where, why):
    (tmp_path / "file").write_text("a file, not a directory\n")
    path = str(tmp_path / where) if where else str(tmp_path)
    p = _xueliu("serve", "--port", "0", "--db", f"sqlite:///{path}", "--stop-after", "5")
    _refused(p, f"cannot open the sqlite database {path} {why.format(tmp=tmp_path)}")
