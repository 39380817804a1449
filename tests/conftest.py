"""Shared fixtures: the public test vectors (tests/data/hands.json), the --soak option, and
one Hypothesis seed per run.

Hypothesis runs are reproducible: every run uses one seed for all property tests and prints it in
the pytest header (``hypothesis seed 1234 ...``). To replay a run, pass that seed back:
``python -m pytest --hypothesis-seed=1234`` (or set ``XUELIU_HYPOTHESIS_SEED=1234``, e.g. in CI
to pin it). Without either, each run draws a fresh seed, so runs keep exploring; a failure also
prints a ``@reproduce_failure`` blob for the one failing example (the ``xueliu`` profile's
``print_blob``). See docs/testing.md.
"""

import json
import os
import pathlib
import re
import secrets

import pytest
from hypothesis import settings

VECTORS_PATH = pathlib.Path(__file__).parent / "data" / "hands.json"
SEED_ENV = "XUELIU_HYPOTHESIS_SEED"

settings.register_profile("xueliu", print_blob=True)
settings.load_profile("xueliu")


def load_vectors() -> dict:
    with open(VECTORS_PATH, encoding="utf-8") as f:
        return json.load(f)


# The vectors' docs/rules.md §12 cases (wild tiles) are held by tests/test_wild_reference.py until
# the engine implements wild tiles; the other tests of the vectors take the cases made before §12,
# exactly as many as they ran before §12 was added (counted, so that no case is dropped unseen).
WILD_PRESETS = ("yaoji", "leshan", "yibin", "luzhou_gui", "hongzhong")
WILD_KNOBS = ("wild_kinds", "extra_wilds", "four_wilds", "no_wild_bonus", "wild_gen",
              "wild_fifth_copy", "wild_discard", "soft_peng", "soft_kong", "swap_back",
              "soft_kong_pay")
CASES_BEFORE_WILD_TILES = {"eval_cases": 337, "wait_cases": 40, "shanten_cases": 50,
                           "parse_cases": 31}


def is_wild_tiles_case(case: dict) -> bool:
    """A §12 case: its preset is a §12 one, its overrides set a §12 knob, it names a 本金, or its
    hand is in §12 notation (红中 7z / 中, a soft meld such as (55m1s)). The parse cases carry no
    rules, and one of them writes a §1 hand: those are known by their ids (XQ...)."""
    text = case.get("hand", case.get("text", ""))
    return (case.get("preset") in WILD_PRESETS
            or any(knob in case.get("overrides", {}) for knob in WILD_KNOBS)
            or "benjin" in case
            or re.search(r"z|中|[(\[]\d+[^\d)\]]\d", text) is not None
            or case["id"].startswith("XQ"))


def cases_before_wild_tiles(vectors: dict, kind: str) -> list:
    """The ``kind`` cases (eval_cases, wait_cases, ...) of the vectors made before §12."""
    cases = [case for case in vectors[kind] if not is_wild_tiles_case(case)]
    assert len(cases) == CASES_BEFORE_WILD_TILES[kind], (kind, len(cases))
    return cases


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


def _seed_source(config: pytest.Config) -> str:
    if config.getoption("hypothesis_seed", None) is not None:
        return "--hypothesis-seed"
    return SEED_ENV if os.environ.get(SEED_ENV) else "drawn for this run"


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Fix the run's seed before Hypothesis's own plugin reads --hypothesis-seed (tryfirst): the
    option as given, else XUELIU_HYPOTHESIS_SEED, else a fresh random one."""
    config._xueliu_seed_source = _seed_source(config)  # type: ignore[attr-defined]
    if config.getoption("hypothesis_seed", None) is None:
        seed = os.environ.get(SEED_ENV) or str(secrets.randbelow(2**32))
        config.option.hypothesis_seed = seed


def pytest_report_header(config: pytest.Config) -> str:
    seed = config.getoption("hypothesis_seed", None)
    source = getattr(config, "_xueliu_seed_source", "")
    return (f"hypothesis seed {seed} ({source}); replay with "
            f"python -m pytest --hypothesis-seed={seed}")
