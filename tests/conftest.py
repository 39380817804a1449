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
