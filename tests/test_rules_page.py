"""docs/rules.md, the project's rules page, is held to the code so that it cannot drift:

- every knob of ``xueliu.Rules`` has a row in one of the page's knob tables, whose default is the
  default preset's value written as ``Rules.to_dict()`` writes it, and whose listed values are the
  ones the knob accepts (for knobs that take a fixed set);
- every base pattern and additive fan has a row with its Chinese name and its standard fan;
- every "docs/rules.md §N" cited anywhere in the repository names a heading of the page;
- every preset name of ``Rules`` is on the page, the wild-tile presets of §12.4 included.
"""

from __future__ import annotations

import ast
import json
import pathlib
import re
import subprocess
from collections.abc import Mapping, Set
from typing import Any

import pytest

from xueliu import Rules
from xueliu.patterns import ADDITIVE, BASE_PATTERNS, DEFAULT_FAN_TABLE
from xueliu.rules import KNOBS, PRESET_NAMES, WILD_PRESET_NAMES

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGE_PATH = ROOT / "docs" / "rules.md"
PAGE = PAGE_PATH.read_text("utf-8")

KNOB_HEADER = ["knob", "values", "default", "meaning"]
PATTERN_HEADER = ["id", "name", "fan", "definition"]
ADDITIVE_HEADER = ["id", "name", "fan", "knob", "when"]


# --- reading the page -------------------------------------------------------------------------


def _cells(line: str) -> list[str]:
    """The cells of one markdown table row (a ``\\|`` inside a cell is not a separator)."""
    inner = line.strip()[1:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def tables(page: str, header: list[str]) -> list[list[list[str]]]:
    """Every markdown table of ``page`` whose header row is ``header``: a list of rows of cells."""
    found: list[list[list[str]]] = []
    lines = page.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("|") and _cells(line) == header:
            rows = []
            i += 2  # the header and its |---| line
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            found.append(rows)
        else:
            i += 1
    return found


def _backticked(cell: str) -> str:
    """`name` -> name (the first cell of a knob or pattern row)."""
    m = re.fullmatch(r"`([^`]+)`", cell)
    assert m, f"expected a single `code` cell, got {cell!r}"
    return m.group(1)


def knob_rows(page: str) -> dict[str, list[dict[str, str]]]:
    """knob name -> its rows (values, default, meaning) over every knob table of the page."""
    rows: dict[str, list[dict[str, str]]] = {}
    for table in tables(page, KNOB_HEADER):
        for knob, values, default, meaning in table:
            rows.setdefault(_backticked(knob), []).append(
                {"values": values, "default": default, "meaning": meaning})
    return rows


def section_headings(page: str) -> set[str]:
    """The section numbers of the page's headings: "## §6 Fan" and "### §6.1 ..." give 6 and 6.1."""
    return set(re.findall(r"^#{2,4} §(\d+(?:\.\d+)*)\b", page, re.M))


# --- how the code writes a value --------------------------------------------------------------


def as_dict_value(value: Any) -> Any:
    """A knob value the way ``Rules.to_dict()`` writes it: sets as sorted lists, tuples as
    lists, mappings as dicts. (``to_dict`` leaves out a §11 knob at its default, so the test
    converts the value itself, and checks below that it agrees with ``to_dict`` wherever
    ``to_dict`` writes the knob.)"""
    if isinstance(value, Set):
        return sorted(value)
    if isinstance(value, (tuple, list)):
        return [as_dict_value(x) for x in value]
    if isinstance(value, Mapping):
        return {k: as_dict_value(x) for k, x in value.items()}
    return value


def written_default(knob: str) -> str:
    """The default cell the page must show for ``knob``: its JSON in backticks."""
    return "`" + json.dumps(as_dict_value(getattr(Rules(), knob)), ensure_ascii=False) + "`"


def accepted_choices(knob: str) -> list[Any] | None:
    """The values ``knob`` accepts when it takes a fixed set of them, read from the error that a
    bad value raises ("expected one of 'a', 'b'" / "expected True or False"); None otherwise."""
    try:
        Rules().replace(**{knob: "not a value of any knob"})
    except ValueError as e:
        message = str(e)
    else:
        return None
    if message.endswith("(expected True or False)"):
        return [True, False]
    m = re.search(r"\(expected one of (.*)\)$", message)
    if m is None:
        return None
    return [ast.literal_eval(x) for x in m.group(1).split(", ")]


def listed_values(cell: str) -> list[Any]:
    """The JSON literals written in backticks in a values cell."""
    out = []
    for token in re.findall(r"`([^`]+)`", cell):
        try:
            out.append(json.loads(token))
        except json.JSONDecodeError:
            pass
    return out


# --- knobs ------------------------------------------------------------------------------------


def test_the_default_preset_is_what_rules_gives_without_arguments():
    assert Rules() == Rules.preset("xueliu")


def test_every_knob_of_rules_has_a_row_on_the_rules_page():
    on_page = knob_rows(PAGE)
    assert sorted(set(KNOBS) - set(on_page)) == []
    assert sorted(set(on_page) - set(KNOBS)) == [], "the page lists a knob Rules does not have"


def test_every_knob_has_exactly_one_row():
    repeated = sorted(k for k, rows in knob_rows(PAGE).items() if len(rows) > 1)
    assert repeated == []


@pytest.mark.parametrize("knob", [k for k in KNOBS if k != "fan_table"])
def test_each_knob_row_shows_the_default_preset_value(knob):
    (row,) = knob_rows(PAGE)[knob]
    assert row["default"] == written_default(knob)


@pytest.mark.parametrize("knob", [k for k in KNOBS if k != "fan_table"])
def test_the_page_writes_defaults_as_to_dict_does(knob):
    """The conversion the default cells follow is to_dict's own, wherever to_dict writes the
    knob at its default (every knob but the §11 ones)."""
    written = Rules().to_dict()
    if knob in written:
        assert as_dict_value(getattr(Rules(), knob)) == written[knob]


def test_the_fan_table_default_is_the_pattern_table_of_section_6():
    (row,) = knob_rows(PAGE)["fan_table"]
    assert row["default"] == "the §6 table"
    assert dict(Rules().fan_table) == dict(DEFAULT_FAN_TABLE)  # checked row by row below


@pytest.mark.parametrize("knob", KNOBS)
def test_a_knob_with_a_fixed_set_of_values_lists_exactly_those(knob):
    choices = accepted_choices(knob)
    if choices is None:
        return  # ints, lists and maps: their range is written in words
    (row,) = knob_rows(PAGE)[knob]
    assert sorted(map(repr, listed_values(row["values"]))) == sorted(map(repr, choices))


# --- the fan tables ---------------------------------------------------------------------------


def test_every_base_pattern_is_on_the_page_with_its_name_and_standard_fan():
    rows = [row for table in tables(PAGE, PATTERN_HEADER) for row in table]
    on_page = {_backticked(pid): (name, fan) for pid, name, fan, _definition in rows}
    for p in BASE_PATTERNS:
        assert p.id in on_page, p.id
        name, fan = on_page[p.id]
        assert p.name in name.split(" / "), (p.id, name)
        assert fan == str(p.fan) == str(Rules().fan_table[p.id]), (p.id, fan)
    assert [_backticked(r[0]) for r in rows] == [p.id for p in BASE_PATTERNS], "table order"


def test_every_additive_fan_is_on_the_page_with_its_name():
    rows = [row for table in tables(PAGE, ADDITIVE_HEADER) for row in table]
    on_page = {(_backticked(fid), name.split(" / ")[0]) for fid, name, *_ in rows}
    missing = [(e.id, e.name) for e in ADDITIVE if (e.id, e.name) not in on_page]
    assert missing == []


# --- cited sections ---------------------------------------------------------------------------

_CITATION = re.compile(r"docs/rules\.md (§\d+(?:\.\d+)*(?:(?:, | and | or |–|-)§\d+(?:\.\d+)*)*)")


def tracked_text_files() -> list[pathlib.Path]:
    """The repository's tracked files, binary ones left out."""
    try:
        names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                               capture_output=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: walk the sources
        names = [str(p.relative_to(ROOT)) for d in ("python", "cpp", "docs", "tests", "tools")
                 for p in (ROOT / d).rglob("*") if p.is_file()] + ["README.md"]
    return [ROOT / n for n in names if n and (ROOT / n).is_file()
            and not n.endswith((".npz", ".gz", ".png", ".svg", ".npy", ".pt", ".bin"))]


def cited_sections() -> dict[str, list[str]]:
    """Section number -> the files that cite it as "docs/rules.md §N" (and "§N, §M" runs)."""
    cited: dict[str, list[str]] = {}
    for path in tracked_text_files():
        try:
            text = path.read_text("utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for run in _CITATION.findall(text):
            for number in re.findall(r"§(\d+(?:\.\d+)*)", run):
                cited.setdefault(number, []).append(str(path.relative_to(ROOT)))
    return cited


def test_the_code_cites_the_rules_page_by_section():
    cited = cited_sections()
    assert {"1", "6.1", "11.1", "11.4"} <= set(cited)


def test_every_section_cited_as_docs_rules_md_is_a_heading_of_the_page():
    headings = section_headings(PAGE)
    missing = {n: sorted(set(files))[:3] for n, files in cited_sections().items()
               if n not in headings}
    assert missing == {}


def test_the_page_has_every_section_from_1_to_12_and_the_subsections_the_code_uses():
    expected = {str(n) for n in range(1, 13)} | {"3.1", "3.2", "3.3", "6.1",
                                                  "11.1", "11.2", "11.3", "11.4",
                                                  "12.1", "12.2", "12.3", "12.4", "12.5"}
    assert expected <= section_headings(PAGE)


# --- presets ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESET_NAMES + WILD_PRESET_NAMES)
def test_every_preset_of_rules_is_named_on_the_page(name):
    Rules.preset(name)  # a real preset
    assert f"`{name}`" in PAGE
