"""One entry of a JSON file or a JSON-lines file, picked by the index every command shares.

The convention (docs/bots-and-cli.md): **lines count from 0**, as the ``"hand"`` field of
``xueliu simulate --out`` and the hand index in bot-error messages do, so ``--line 17`` of an
``--out`` file is hand 17, the hand a message such as "bot ... raised ... (hand 17, ...)" names.
Line ``n`` is the file's ``n + 1``-th line as an editor numbers them (blank lines count; picking
one is an error). A file that is one JSON document as a whole (a pretty-printed record, say) is a
single entry, line 0.

``xueliu replay --line`` picks its record here; any later command that takes ``--line`` must too.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["LineError", "read_json_line"]


class LineError(ValueError):
    """The file cannot be read, has no such line, or the line is not JSON; the message names the
    file and the line."""


def read_json_line(path: str, line: int) -> Any:
    """The JSON value at ``line`` (0-based) of the JSON-lines file ``path``, or the whole file's
    value when it is one JSON document and ``line`` is 0."""
    if isinstance(line, bool) or not isinstance(line, int):
        raise TypeError(f"line must be an int, got {type(line).__name__}")
    if line < 0:
        raise LineError(f"line {line} is negative: lines count from 0")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise LineError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise LineError(f"{path} is not UTF-8 text: {e.reason} at byte {e.start}") from None
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        pass
    else:
        if line != 0:
            raise LineError(f"{path} is one JSON document (line 0 only); line {line} is out "
                            f"of range")
        return whole
    lines = text.splitlines()
    if line >= len(lines):
        last = f"lines 0..{len(lines) - 1}" if lines else "no lines"
        raise LineError(f"{path} has {len(lines)} line{'s' if len(lines) != 1 else ''} "
                        f"({last}, counting from 0); line {line} is out of range")
    if not lines[line].strip():
        raise LineError(f"{path} line {line} (counting from 0) is blank")
    try:
        return json.loads(lines[line])
    except json.JSONDecodeError as e:
        raise LineError(f"{path} line {line} (counting from 0) is not JSON: {e.msg} "
                        f"(column {e.colno})") from None
