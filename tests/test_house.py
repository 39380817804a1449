"""The house stays readable for a newcomer: the project speaks of itself only (no numbered work
periods, no paths of a development machine), no Python module grows past 600 lines, and the
rules are cited from the project's own page (docs/rules.md), never from a file outside it."""

from __future__ import annotations

import pathlib
import re
from typing import Iterator, List

ROOT = pathlib.Path(__file__).resolve().parents[1]
TRACKED_DIRS = ["python", "cpp", "docs", "tests", "tools", "benchmarks", "examples", ".ci"]
TOP_FILES = ["README.md", "CONTRIBUTING.md", "pyproject.toml", "CMakeLists.txt"]
TEXT_SUFFIXES = {".py", ".pyi", ".cpp", ".hpp", ".md", ".js", ".html", ".css", ".toml", ".txt",
                 ".json", ".cfg", ""}
# Built or cached files that are not part of the source.
SKIP_PARTS = {"__pycache__", "build", ".pytest_cache", ".hypothesis"}


def _source_files() -> Iterator[pathlib.Path]:
    for name in TOP_FILES:
        path = ROOT / name
        if path.exists():
            yield path
    for top in TRACKED_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            if (path.is_file() and path.suffix in TEXT_SUFFIXES
                    and not SKIP_PARTS.intersection(path.relative_to(ROOT).parts)):
                yield path


def _hits(pattern: re.Pattern[str]) -> List[str]:
    found = []
    for path in _source_files():
        if path == pathlib.Path(__file__).resolve():
            continue
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    return found


def test_no_file_names_a_numbered_work_period() -> None:
    assert _hits(re.compile(r"\bsession\s+[0-9]", re.I)) == []


def test_no_file_names_a_path_of_a_development_machine() -> None:
    assert _hits(re.compile(r"(?<![\w.])/(work|root|home)/\w")) == []


def test_rules_are_cited_from_the_projects_own_page() -> None:
    # The specification the page restates is not part of a clone: a citation names docs/rules.md.
    # The public vectors (tests/data) are kept byte for byte as published; their "RULES §N" is
    # the numbering docs/rules.md keeps.
    hits = _hits(re.compile(r"\bRULES(\.md)?\s*§"))
    assert [hit for hit in hits if not hit.startswith("tests/data/")] == []


def test_no_python_module_is_over_600_lines() -> None:
    long = {str(path.relative_to(ROOT)): n
            for path in sorted((ROOT / "python").rglob("*.py"))
            if (n := len(path.read_text("utf-8").splitlines())) > 600}
    assert long == {}
