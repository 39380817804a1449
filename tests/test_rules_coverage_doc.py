"""docs/rules-coverage.md names the test of each rule: every test it names exists, so the page
cannot point at a test that was renamed or removed."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "rules-coverage.md").read_text("utf-8")


def test_every_test_the_coverage_page_names_exists():
    named = sorted(set(re.findall(r"(tests/[\w/]+\.py)::(\w+)", PAGE)))
    assert len(named) > 300
    missing = [f"{path}::{name}" for path, name in named
               if not re.search(rf"^(?:async )?def {name}\(", (ROOT / path).read_text("utf-8"), re.M)]
    assert missing == []
