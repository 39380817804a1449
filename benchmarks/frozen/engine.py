"""An engine in a child process: ``EngineProcess("e2892b9")`` is a Python process in which
``import xueliu`` is the package built from that commit (:mod:`frozen.build`);
``EngineProcess(None)`` one with the current package, for timing both the same way.

Two packages named ``xueliu`` cannot share a process, so the old one gets its own: the child is
started with ``python -S`` (no site hooks, so an editable install's import hook cannot hand it the
current package) and a ``sys.path`` of the commit's directory first, then benchmarks/ and the
parent's site-packages (numpy). It runs the functions of :mod:`frozen.calls` on request —
``engine.call("play_hands", "xueliu", 200)`` — one JSON line each way over its stdin and stdout;
what the child prints goes to stderr.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
from pathlib import Path
from typing import Any, List, Optional

HERE = Path(__file__).resolve().parents[1]  # benchmarks/

CHILD = r"""
import json, sys
paths = json.loads(sys.argv[1])
sys.path[:0] = paths
proto = sys.stdout
sys.stdout = sys.stderr
from frozen import calls
for line in sys.stdin:
    request = json.loads(line)
    try:
        reply = {"ok": getattr(calls, request["fn"])(*request["args"])}
    except Exception:
        import traceback
        reply = {"error": traceback.format_exc()}
    proto.write(json.dumps(reply) + "\n")
    proto.flush()
"""


def site_packages() -> List[str]:
    """This interpreter's site-packages directories (what ``-S`` leaves off ``sys.path``)."""
    dirs = list(site.getsitepackages())
    user = site.getusersitepackages()
    if isinstance(user, str) and os.path.isdir(user):
        dirs.append(user)
    return [d for d in dirs if os.path.isdir(d)]


def child_command(commit: Optional[str]) -> List[str]:
    """The argv of a child whose ``import xueliu`` is ``commit``'s package (None: the current
    one), ready to run ``CHILD`` or, with a different ``-c``, any code."""
    if commit is None:
        return [sys.executable, "-c", CHILD, json.dumps([str(HERE)])]
    from .build import commit_site
    paths = [str(commit_site(commit)), str(HERE), *site_packages()]
    return [sys.executable, "-S", "-c", CHILD, json.dumps(paths)]


def child_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    return env


class EngineProcess:
    """A child process running :mod:`frozen.calls` against ``commit``'s xueliu (None: the
    current one). Use as a context manager, or call :meth:`close`."""

    def __init__(self, commit: Optional[str]) -> None:
        self.commit = commit
        self._proc = subprocess.Popen(child_command(commit), stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, env=child_env())

    def call(self, fn: str, *args: Any) -> Any:
        """``frozen.calls.<fn>(*args)`` in the child; its (JSON) result, or its error raised
        here with the child's traceback."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps({"fn": fn, "args": list(args)}) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.commit or 'current'} engine's process exited "
                               f"(status {self._proc.wait()})")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"{fn} failed in the {self.commit or 'current'} engine's "
                               f"process:\n{reply['error']}")
        return reply["ok"]

    def version(self) -> str:
        """Where the child's xueliu comes from (to check it is the intended one)."""
        return self.call("package_path")

    def close(self) -> None:
        if self._proc.poll() is None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()

    def __enter__(self) -> "EngineProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
