"""xueliu.json_lines: the one place a command picks a line of a JSON-lines file; lines count from
0, as the "hand" field of `simulate --out` does (docs/bots-and-cli.md)."""

from __future__ import annotations

import json

import pytest

from xueliu.json_lines import LineError, read_json_line


def test_line_n_is_the_files_n_plus_first_line(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text("".join(json.dumps({"hand": i}) + "\n" for i in range(4)), encoding="utf-8")
    for n in range(4):
        assert read_json_line(str(path), n) == {"hand": n}


def test_blank_lines_count_and_picking_one_is_an_error(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text('{"a": 0}\n\n{"a": 2}\n', encoding="utf-8")
    assert read_json_line(str(path), 2) == {"a": 2}
    with pytest.raises(LineError, match="line 1 .*is blank"):
        read_json_line(str(path), 1)


def test_a_whole_json_document_is_line_0_only(tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"seed": 7, "decisions": []}, indent=2), encoding="utf-8")
    assert read_json_line(str(path), 0) == {"seed": 7, "decisions": []}
    with pytest.raises(LineError, match="one JSON document"):
        read_json_line(str(path), 1)


@pytest.mark.parametrize("line, needle", [(3, "3 lines \\(lines 0..2, counting from 0\\)"),
                                          (-1, "negative")])
def test_out_of_range_names_the_valid_lines(tmp_path, line, needle):
    path = tmp_path / "h.jsonl"
    path.write_text("[0]\n[1]\n[2]\n", encoding="utf-8")
    with pytest.raises(LineError, match=needle):
        read_json_line(str(path), line)


def test_a_line_that_is_not_json_is_named(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text('[0]\n{oops\n', encoding="utf-8")
    with pytest.raises(LineError, match="line 1 \\(counting from 0\\) is not JSON"):
        read_json_line(str(path), 1)


def test_a_missing_file_and_a_wrong_type_are_clear_errors(tmp_path):
    with pytest.raises(LineError, match="cannot read"):
        read_json_line(str(tmp_path / "missing.jsonl"), 0)
    with pytest.raises(TypeError, match="line must be an int"):
        read_json_line(str(tmp_path / "missing.jsonl"), "0")  # type: ignore[arg-type]
