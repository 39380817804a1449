"""docs/learning.md shows the channels and the action table the code has."""

import re
from pathlib import Path

from xueliu.learn import (
    EXCHANGE_PICK, MULTIPLIER_SLOT, NUM_ACTIONS, NUM_ACTIONS_WILD, SWAP_BACK_SLOT, WILD_DISCARD,
    describe_index, encoder,
)
from xueliu.learn.channels import ORACLE_EXTRA

DOC = (Path(__file__).resolve().parents[2] / "docs" / "learning.md").read_text("utf-8")


def test_the_channel_tables_are_the_encoders_channels():
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \| (.*) \|$", DOC, re.M)
    oracle = encoder("oracle_v1")
    assert [(int(i), name, meaning) for i, name, meaning in rows] == [
        (i, name, meaning) for i, (name, meaning) in enumerate(oracle.channel_docs)]
    assert f"### `obs_v1` ({encoder('obs_v1').shape[0]} × 27)" in DOC
    assert f"### `oracle_v1` ({oracle.shape[0]} × 27)" in DOC


def test_the_action_table_covers_every_index_once():
    ranges = re.findall(r"^\| (\d+)(?: – (\d+))? \| ([a-z ]+)", DOC, re.M)
    covered = []
    for lo, hi, what in ranges:
        span = range(int(lo), int(hi or lo) + 1)
        covered.extend(span)
        for i in span:  # the row's first words name the decision of each index in it
            first = describe_index(i).split()[0].replace("_", " ")
            assert what.startswith(first.split()[0]) or first.startswith(what.split()[0]), (i, what)
    assert covered == list(range(NUM_ACTIONS_WILD))  # the 175, then those of a table with wilds
    assert f"`NUM_ACTIONS = {NUM_ACTIONS}`" in DOC
    assert f"`NUM_ACTIONS_WILD = {NUM_ACTIONS_WILD}`" in DOC
    assert EXCHANGE_PICK == 140 and MULTIPLIER_SLOT == 167
    assert WILD_DISCARD == NUM_ACTIONS and SWAP_BACK_SLOT == NUM_ACTIONS + 1


def test_the_wild_channel_tables_are_the_wild_encoders_channels():
    obs, oracle = encoder("obs_wild_v1"), encoder("oracle_wild_v1")
    rows = re.findall(r"^\| (\d+) \((obs|oracle)_wild_v1\) \| `(\w+)` \| (.*) \|$", DOC, re.M)
    plain = len(encoder("obs_v1").channels)
    extra = len(obs.channels) + len(ORACLE_EXTRA)
    assert [(int(i), name, meaning) for i, _, name, meaning in rows] == [
        (i, name, meaning) for i, (name, meaning) in enumerate(oracle.channel_docs)
        if plain <= i < len(obs.channels) or i >= extra]
    assert f"`obs_wild_v1` ({obs.shape[0]} × 27) and `oracle_wild_v1` ({oracle.shape[0]} × 27)" \
        in DOC
