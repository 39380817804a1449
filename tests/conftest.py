"""Shared fixtures: the public vectors of RULES.md (tests/data/hands.json)."""

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
