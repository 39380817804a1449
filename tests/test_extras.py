"""The install hints name extras that exist: what README and error messages tell a user to pip
install is in the package's metadata (pyproject's optional-dependencies), and the dev extra
brings the tools the README's type-check and lint line runs."""

from __future__ import annotations

import re
import sys
from importlib.metadata import metadata
from pathlib import Path

import pytest

from xueliu.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]


def _extra_requirements(extra: str) -> list[str]:
    marker = f'extra == "{extra}"'
    return [r.split(";")[0].strip() for r in metadata("xueliu").get_all("Requires-Dist") or []
            if marker in r]


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\[<>=!~ ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_dev_extra_brings_mypy_ruff_and_everything_the_tests_need():
    assert "dev" in (metadata("xueliu").get_all("Provides-Extra") or [])
    assert {"mypy", "ruff", "xueliu"} <= _names(_extra_requirements("dev"))
    assert "xueliu[test]" in _extra_requirements("dev")


def test_the_readme_says_how_to_get_the_type_checker():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(text for text in readme.split("\n\n") if "mypy" in text)
    assert 'pip install -e ".[dev]"' in line and "ruff check" in line


def test_the_ray_hint_is_an_install_from_the_clone_of_an_extra_that_exists(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(RuntimeError) as err:
        simulate(4, backend="ray")
    extra = re.search(r'pip install "\.\[(\w+)\]"', str(err.value))
    assert extra is not None, str(err.value)
    assert extra.group(1) == "ray" and "ray" in _names(_extra_requirements("ray"))
