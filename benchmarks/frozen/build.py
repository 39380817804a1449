"""A commit of this repository built into a directory of its own, cached by the commit (as asv
builds the commits it benchmarks).

``commit_site(commit)`` returns a directory holding that commit's ``xueliu`` package with its
compiled ``_core``: ``git archive`` of the commit is unpacked into a temporary directory and
installed from there with ``pip install --target`` — ``--no-build-isolation --no-deps
--no-index``, so the build uses the current environment's scikit-build-core, pybind11, CMake and
Ninja and needs no network. The result is kept under the cache directory

    $XUELIU_BENCH_CACHE, else $XDG_CACHE_HOME/xueliu-benchmarks, else ~/.cache/xueliu-benchmarks

as ``<full commit id>-<interpreter tag>-<machine>/site``, so later runs (and other clones on the
same machine) reuse it; delete the directory to rebuild. A lock file serialises concurrent
first builds, and a build becomes visible only when complete (built elsewhere, then renamed).
The commit must be in the clone's history (a shallow clone needs ``git fetch --unshallow``).

    cd benchmarks && python -m frozen.build [COMMIT]     # build (or find) it, print the path
"""

from __future__ import annotations

import fcntl
import io
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from . import BASELINE

REPO = Path(__file__).resolve().parents[2]


def cache_root() -> Path:
    if os.environ.get("XUELIU_BENCH_CACHE"):
        return Path(os.environ["XUELIU_BENCH_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "xueliu-benchmarks"


def full_commit(commit: str) -> str:
    """The full id of ``commit`` in this repository, or a clear error."""
    run = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--verify", "--quiet",
                          f"{commit}^{{commit}}"], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"commit {commit} is not in the history of {REPO} (a shallow clone? "
                           f"git fetch --unshallow)")
    return run.stdout.strip()


def _build(sha: str, into: Path, log: Path) -> None:
    """Unpack ``sha`` into a temporary directory and pip-install it into ``into``."""
    with tempfile.TemporaryDirectory(prefix=f"xueliu-{sha[:7]}-", dir=into.parent) as tmp:
        src = Path(tmp) / "src"
        archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", sha],
                                 capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4: no links out, no devices
                tar.extractall(src, filter="data")
            else:
                tar.extractall(src)
        site = Path(tmp) / "site"
        with open(log, "w", encoding="utf-8") as out:
            build = subprocess.run(
                [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                 "--no-index", "--disable-pip-version-check", "--target", str(site), str(src)],
                stdout=out, stderr=subprocess.STDOUT)
        if build.returncode != 0:
            raise RuntimeError(f"building {sha[:7]} failed (pip exit {build.returncode}); "
                               f"its output: {log}")
        if into.exists():  # left by an interrupted older layout: never half a package
            shutil.rmtree(into)
        os.replace(site, into)


def commit_site(commit: str = BASELINE, *, quiet: bool = False) -> Path:
    """The directory to put first on ``sys.path`` for ``import xueliu`` to be ``commit``'s."""
    sha = full_commit(commit)
    key = f"{sha}-{sys.implementation.cache_tag}-{platform.machine()}"
    home = cache_root() / key
    site = home / "site"
    if (site / "xueliu").is_dir():
        return site
    home.mkdir(parents=True, exist_ok=True)
    with open(home / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another run may be building it: wait for that one
        if not (site / "xueliu").is_dir():
            if not quiet:
                print(f"building {commit} ({sha[:12]}) into {site} (once; a few minutes)",
                      file=sys.stderr, flush=True)
            start = time.perf_counter()
            _build(sha, site, home / "build.log")
            if not quiet:
                print(f"built {commit} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return site


def clear(commit: str = BASELINE) -> None:
    """Forget the cached build of ``commit`` (the next commit_site builds it again)."""
    shutil.rmtree(cache_root() / f"{full_commit(commit)}-{sys.implementation.cache_tag}-"
                                 f"{platform.machine()}", ignore_errors=True)


if __name__ == "__main__":
    print(commit_site(sys.argv[1] if len(sys.argv) > 1 else BASELINE))
