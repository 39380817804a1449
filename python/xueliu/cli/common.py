"""What several commands share: the rules from the command line, and reading or writing a hand's
record.

**The rules.** Every command that plays or reads hands under some rules takes them through
:func:`add_rules_options` (the options) and :func:`rules_from_args` (the :class:`~xueliu.Rules`
they name), with :func:`rules_name` as the commands' messages call them: an option that chooses
the rules another way is added in these three places and nowhere else. (``xueliu simulate`` and
``xueliu arena`` hand their arguments to :func:`xueliu.simulate.run_command` and
:func:`xueliu.arena.run_command`, which read ``args.preset`` themselves.)
"""

from __future__ import annotations

import argparse
from typing import Any, Dict, Optional

from ..errors import CommandError
from ..json_lines import LineError, read_json_line
from ..rules import PRESET_NAMES, Rules

__all__ = ["PRESETS", "add_rules_options", "rules_from_args", "rules_name", "load_record",
           "write_html"]

PRESETS = tuple(PRESET_NAMES)
"""Every preset (docs/rules.md §9, §11.4): each command reads seats, suits and hand size from it."""


# -- the rules -------------------------------------------------------------------------------------


def add_rules_options(parser: argparse.ArgumentParser, help_text: Optional[str] = None) -> None:
    """The options that choose a command's rules: ``--preset`` (default xueliu), ``help_text`` its
    help (none given: the help lists its choices alone)."""
    parser.add_argument("--preset", choices=PRESETS, default="xueliu", help=help_text)


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the options of :func:`add_rules_options` chose."""
    return Rules.preset(args.preset)


def rules_name(args: argparse.Namespace) -> str:
    """The chosen rules as a command's messages name them (the preset)."""
    return str(args.preset)


# -- records ---------------------------------------------------------------------------------------


def load_record(path: str, line: int) -> Dict[str, Any]:
    """The record in ``path``: a JSON file, or line ``line`` (from 0) of a JSON-lines file (a line
    of ``xueliu simulate --out`` holds it under ``"record"``)."""
    try:
        data = read_json_line(path, line)
    except LineError as e:
        raise CommandError(str(e)) from None
    if isinstance(data, dict) and "record" in data and isinstance(data["record"], dict):
        data = data["record"]  # a line of `xueliu simulate --out`
    if not isinstance(data, dict):
        raise CommandError(f"{path}: a record is a JSON object, got {type(data).__name__}")
    return data


def write_html(path: str, text: str) -> None:
    """A web page written to ``path`` (a failure is the command's error)."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise CommandError(f"cannot write {path}: {e.strerror}") from None
