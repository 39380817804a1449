"""docs/presets.md shows every preset knob by knob ("Every preset, knob by knob"): each preset of
``Rules`` — the wild-tile ones of docs/rules.md §12.4 included — has its table there, with one row
per knob in ``KNOBS`` order, the value the code holds, and "≠ xueliu" exactly where it differs from
the default preset; and its "Which knob is my rule?" index names only real knobs."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

from xueliu.patterns import DEFAULT_FAN_TABLE
from xueliu.rules import KNOBS, PRESET_NAMES, WILD_PRESET_NAMES, Rules

PAGE = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "presets.md").read_text("utf-8")


def preset_rows(name: str) -> list[tuple[str, str, str]]:
    """The (knob, value, mark) rows of the table under ``### `name` ``."""
    m = re.search(rf"^### `{name}`\n(.*?)(?=^### |\Z)", PAGE, re.M | re.S)
    assert m, f"docs/presets.md has no section for {name}"
    rows = re.findall(r"^\| `(\w+)` \| `([^`]*)` \| ([^|]*)\|$", m.group(1), re.M)
    return [(knob, value, mark.strip()) for knob, value, mark in rows]


def shown(rules: Rules, knob: str, cell: str) -> object:
    """The value a cell shows, read back: suits as letters, the fan table as its changes."""
    if knob == "suits":
        return tuple(cell.split())
    if knob == "fan_table":
        changes = cell.removeprefix("standard").removeprefix(" + ")
        table = dict(DEFAULT_FAN_TABLE)
        for item in filter(None, changes.split(", ")):
            pid, fan = item.split()
            table[pid] = int(fan)
        return table
    if cell == "frozenset()":
        return frozenset()
    value = ast.literal_eval(cell)
    return frozenset(value) if isinstance(value, set) else value


@pytest.mark.parametrize("name", PRESET_NAMES + WILD_PRESET_NAMES)
def test_every_preset_is_shown_knob_by_knob_as_the_code_holds_it(name):
    rules, default = Rules.preset(name), Rules()
    rows = preset_rows(name)
    assert [knob for knob, _, _ in rows] == list(KNOBS)
    for knob, cell, mark in rows:
        assert shown(rules, knob, cell) == getattr(rules, knob), (knob, cell)
        assert (mark == "**≠ xueliu**") == (getattr(rules, knob) != getattr(default, knob)), knob


def test_the_knob_index_names_only_knobs_of_rules():
    index = PAGE.split("## Which knob is my rule?")[1].split("\n## ")[0]
    named = {m for cell in re.findall(r"^\|[^|]*\| (.*) \|$", index, re.M)
             for m in re.findall(r"`([a-z_]\w*)(?:=|`)", cell)}
    assert named and named <= set(KNOBS) | set(PRESET_NAMES) | set(WILD_PRESET_NAMES)
