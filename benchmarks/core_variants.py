"""The native module of this checkout built other ways, for same-run comparisons with the installed
one (benchmarks/test_bench_dispatch.py):

- ``native``: ``-DXUELIU_NATIVE=ON``, everything compiled with ``-march=native`` for this
  machine's CPU, no dispatch (the yardstick of the runtime dispatch: issue 16's target is batch
  ``is_win`` and ``waits`` within 1.3x of it);
- ``portable``: ``-DXUELIU_DISPATCH=OFF``, baseline x86-64 only (what the dispatch's "default"
  clone runs on a CPU without POPCNT or x86-64-v3).

Each is configured with CMake and only its ``_core`` target built (Ninja, the current
environment's pybind11; nothing downloaded) into the benchmark cache (:func:`frozen.build.
cache_root`), keyed by a hash of the C++ sources and CMakeLists.txt — and, for ``native``, of
this CPU's model and flags — so an unchanged tree builds once. A variant is loaded as a bare
``_core`` module in a child process (two modules registering the same C++ types cannot share a
process): :class:`CoreProcess`.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any, List, Optional

from frozen.build import REPO, cache_root

HERE = Path(__file__).resolve().parent
VARIANTS = {"native": ["-DXUELIU_NATIVE=ON"], "portable": ["-DXUELIU_DISPATCH=OFF"]}


def _cpu_identity() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            lines = [ln for ln in f if ln.startswith(("model name", "flags"))]
        return "".join(sorted(set(lines)))
    except OSError:
        import platform
        return platform.processor() + platform.machine()


def source_key(variant: str) -> str:
    """A hash of what the variant's build depends on."""
    h = hashlib.sha256()
    files = [REPO / "CMakeLists.txt", *sorted((REPO / "cpp").rglob("*.[ch]pp"))]
    for path in files:
        h.update(str(path.relative_to(REPO)).encode() + b"\0" + path.read_bytes() + b"\0")
    h.update(" ".join(VARIANTS[variant]).encode())
    h.update(sys.implementation.cache_tag.encode())
    if variant == "native":
        h.update(_cpu_identity().encode())
    return h.hexdigest()[:16]


BUILD_MODULES = ("pybind11", "scikit_build_core")
"""What a build imports in this interpreter (``pip install --no-build-isolation`` of an old
commit, :mod:`frozen.build`; pybind11's CMake files for :func:`built`)."""
BUILD_PROGRAMS = ("cmake", "ninja")
INSTALL_HINT = 'pip install ".[bench]"'


def _search_path() -> str:
    """Where CMake and Ninja are looked for: the current environment's scripts (the pip
    packages), then ``$PATH``."""
    return os.pathsep.join([sysconfig.get_path("scripts"), os.environ.get("PATH", "")])


def missing_build_tools(path: Optional[str] = None) -> List[str]:
    """The tools a benchmark that builds another core needs (an old commit from git, or a variant
    of this checkout: :func:`built`) that this environment lacks: :data:`BUILD_MODULES` not
    importable here, :data:`BUILD_PROGRAMS` not found on ``path`` (default
    :func:`_search_path`). The ``bench`` extra brings them all (:data:`INSTALL_HINT`)."""
    missing = []
    for module in BUILD_MODULES:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a module set to None in sys.modules: not importable
            found = False
        if not found:
            missing.append(module)
    where = _search_path() if path is None else path
    missing += [name for name in BUILD_PROGRAMS if shutil.which(name, path=where) is None]
    return missing


def _tool(name: str) -> str:
    """CMake or Ninja: the current environment's (the pip packages), else the system's."""
    found = shutil.which(name, path=_search_path())
    if found is None:
        raise RuntimeError(f"{name} not found ({INSTALL_HINT})")
    return found


def built(variant: str) -> Path:
    """The ``_core`` shared object of ``variant``, built on first use."""
    import pybind11

    home = cache_root() / f"core-{variant}-{source_key(variant)}"
    done = home / "core.json"
    if done.exists():
        return Path(json.loads(done.read_text())["module"])
    home.mkdir(parents=True, exist_ok=True)
    with open(home / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if done.exists():
            return Path(json.loads(done.read_text())["module"])
        print(f"building the {variant} core into {home} (once; a few minutes)", file=sys.stderr,
              flush=True)
        build = Path(tempfile.mkdtemp(prefix="build-", dir=home))
        log = home / "build.log"
        with open(log, "w", encoding="utf-8") as out:
            steps = [
                [_tool("cmake"), "-S", str(REPO), "-B", str(build), "-G", "Ninja",
                 f"-DCMAKE_MAKE_PROGRAM={_tool('ninja')}", "-DCMAKE_BUILD_TYPE=Release",
                 "-DSKBUILD_PROJECT_NAME=xueliu", "-DSKBUILD_PROJECT_VERSION=0.1.0",
                 f"-Dpybind11_DIR={pybind11.get_cmake_dir()}",
                 f"-DPython_EXECUTABLE={sys.executable}", *VARIANTS[variant]],
                [_tool("cmake"), "--build", str(build), "--target", "_core"],
            ]
            for step in steps:
                if subprocess.run(step, stdout=out, stderr=subprocess.STDOUT).returncode != 0:
                    raise RuntimeError(f"building the {variant} core failed; its output: {log}")
        module = next(build.glob("_core*" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so")))
        done.write_text(json.dumps({"module": str(module), "flags": VARIANTS[variant]}))
        return module


CHILD = r"""
import importlib.machinery, importlib.util, json, sys, time
sys.path.insert(0, sys.argv[2])
import numpy as np
loader = importlib.machinery.ExtensionFileLoader("_core", sys.argv[1])
spec = importlib.util.spec_from_file_location("_core", sys.argv[1], loader=loader)
core = importlib.util.module_from_spec(spec)
loader.exec_module(core)
import conftest
proto, sys.stdout = sys.stdout, sys.stderr
arrays = {}
for line in sys.stdin:
    req = json.loads(line)
    try:
        if req["op"] == "load":      # a (N, 27) uint8 array (and an int8 void array) from .npy
            arrays[req["name"]] = np.load(req["path"])
            out = len(arrays[req["name"]])
        elif req["op"] == "time":    # the fastest of `repeat` calls, in seconds
            f = getattr(core, req["fn"])
            args = [arrays[a] if isinstance(a, str) and a in arrays else a for a in req["args"]]
            f(*args)
            best = float("inf")
            for _ in range(req["repeat"]):
                t = time.perf_counter()
                f(*args)
                best = min(best, time.perf_counter() - t)
            out = best
        elif req["op"] == "save":    # the call's result, to a .npy file
            f = getattr(core, req["fn"])
            args = [arrays[a] if isinstance(a, str) and a in arrays else a for a in req["args"]]
            np.save(req["path"], f(*args))
            out = req["path"]
        elif req["op"] == "timeit":  # the fastest of `repeat` timeit rounds, seconds a run
            import timeit
            names = {"core": core, "np": np, **arrays}
            timer = timeit.Timer(req["stmt"], req.get("setup", "pass"), globals=names)
            out = min(timer.repeat(req["repeat"], req["number"])) / req["number"]
        elif req["op"] == "info":
            out = core.dispatch_info() if hasattr(core, "dispatch_info") else {}
        reply = {"ok": out}
    except Exception:
        import traceback
        reply = {"error": traceback.format_exc()}
    proto.write(json.dumps(reply) + "\n")
    proto.flush()
"""


class CoreProcess:
    """A child process with the ``_core`` module at ``path`` loaded as a bare ``_core``."""

    def __init__(self, path: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["OPENBLAS_NUM_THREADS"] = "1"
        self.path = path
        self._proc = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(HERE)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                      env=env)

    def request(self, **req: Any) -> Any:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps(req) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the process of {self.path} exited ({self._proc.wait()})")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"{req['op']} failed in the process of {self.path}:\n"
                               f"{reply['error']}")
        return reply["ok"]

    def close(self) -> None:
        if self._proc.poll() is None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            self._proc.wait(timeout=30)

    def __enter__(self) -> "CoreProcess":
        return self

    def __exit__(self, *exc: Optional[object]) -> None:
        self.close()
