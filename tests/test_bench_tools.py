"""The benchmarks that build another core (an old commit from git, or a variant of this checkout)
are skipped, with the one line that says what to install (``pip install ".[bench]"``), where
the build tools are missing — not errors of a failed build: the check itself
(benchmarks/core_variants.py ``missing_build_tools``, benchmarks/conftest.py), with CMake and
Ninja present or not on a PATH made here and the build modules importable or not."""

from __future__ import annotations

import importlib.machinery
import os
import sys
import types
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture
def bench(monkeypatch):
    """benchmarks/core_variants.py and the conftest's skip rule, imported as the benchmarks see
    them (benchmarks/ first on sys.path)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    # (the conftest sets OPENBLAS_NUM_THREADS if unset: undone after the test)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", os.environ.get("OPENBLAS_NUM_THREADS", "1"))
    import core_variants

    source = (BENCHMARKS / "conftest.py").read_text(encoding="utf-8")
    conftest = types.ModuleType("bench_conftest")
    exec(compile(source, str(BENCHMARKS / "conftest.py"), "exec"), conftest.__dict__)
    return core_variants, conftest


def _programs(tmp_path: Path, *names: str) -> str:
    """A directory holding executables ``names`` (each exits 0): a PATH with them only."""
    home = tmp_path / "bin"
    home.mkdir()
    for name in names:
        exe = home / name
        exe.write_text("#!/bin/sh\nexit 0\n")
        exe.chmod(0o755)
    return str(home)


def _importable(monkeypatch, *names: str, present: bool) -> None:
    for name in names:
        if present:
            module = types.ModuleType(name)
            module.__spec__ = importlib.machinery.ModuleSpec(name, None)
            monkeypatch.setitem(sys.modules, name, module)
        else:
            monkeypatch.setitem(sys.modules, name, None)  # import raises: not installed


def test_programs_missing_from_the_path_are_named(bench, tmp_path, monkeypatch):
    core_variants, _ = bench
    _importable(monkeypatch, "pybind11", "scikit_build_core", present=True)
    assert core_variants.missing_build_tools(_programs(tmp_path, "cmake", "ninja")) == []
    (tmp_path / "bin" / "ninja").unlink()
    assert core_variants.missing_build_tools(str(tmp_path / "bin")) == ["ninja"]
    assert core_variants.missing_build_tools(os.pathsep.join([str(tmp_path / "none")])) == \
        ["cmake", "ninja"]


def test_modules_that_cannot_be_imported_are_named(bench, tmp_path, monkeypatch):
    core_variants, _ = bench
    path = _programs(tmp_path, "cmake", "ninja")
    _importable(monkeypatch, "pybind11", present=False)
    _importable(monkeypatch, "scikit_build_core", present=True)
    assert core_variants.missing_build_tools(path) == ["pybind11"]
    _importable(monkeypatch, "scikit_build_core", present=False)
    assert core_variants.missing_build_tools(path) == ["pybind11", "scikit_build_core"]


def test_only_the_tests_that_build_are_skipped_and_the_reason_says_what_to_install(bench):
    _, conftest = bench
    reason = conftest.build_skip_reason(["benchmark", "engines"], ["pybind11", "cmake"])
    assert reason == 'builds another core and pybind11, cmake are missing: pip install ".[bench]"'
    assert "\n" not in reason
    assert "ninja is missing" in conftest.build_skip_reason(["modules"], ["ninja"])
    assert conftest.build_skip_reason(["benchmark", "hands14"], ["cmake"]) is None  # no build
    assert conftest.build_skip_reason(["engines"], []) is None  # everything there: it runs
