"""Shared fixtures: the public vectors of RULES.md (tests/data/hands.json), and the --soak option."""

import json
import pathlib

import pytest

VECTORS_PATH = pathlib.Path(__file__).parent / "data" / "hands.json"


def load_vectors() -> dict:
    with open(VECTORS_PATH, encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="session")
def vectors() -> dict:
    return load_vectors()


def pytest_addoption(parser: pytest.Parser) -> None:
    # Lives here, in the top-level conftest, so that a plain `python -m pytest --soak` at the
    # repository root knows the option (pytest reads options only from initial conftests).
    parser.addoption(
        "--soak",
        action="store_true",
        default=False,
        help="long runs: the random-game invariants over >= 10,000 games per preset",
    )
