"""What several commands share: the rules from the command line, and reading or writing a hand's
record.

**The rules.** Every command that plays or reads hands under some rules takes them through
:func:`add_rules_options` (the options) and :func:`rules_from_args` (the :class:`~xueliu.Rules`
they name), with :func:`rules_name` as the commands' messages call them: an option that chooses
the rules another way is added in these three places and nowhere else. The rules are ``--preset``,
then the knobs of ``--rules FILE.json`` on it, then each ``--knob NAME=VALUE`` (one
:meth:`~xueliu.Rules.replace` of the file's and the options' knobs together, so its errors are
``Rules.replace``'s own). :func:`xueliu.cli.main` reads them once, before the command runs, into
``args.rules``; options that name no valid rules are a usage error (one line, exit code 2, nothing
run). (``xueliu simulate`` and ``xueliu arena`` hand their arguments to
:func:`xueliu.simulate.run_command` and :func:`xueliu.arena.run_command`, which read
``args.rules``.)
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any, Dict, List, Optional, Tuple

from ..errors import CommandError
from ..json_lines import LineError, read_json_line
from ..rules import PRESET_NAMES, Rules

__all__ = ["PRESETS", "RulesOptionError", "add_rules_options", "rules_from_args", "rules_given",
           "rules_name", "parse_knob", "load_record", "write_html"]

PRESETS = tuple(PRESET_NAMES)
"""Every preset (docs/rules.md §9, §11.4, §12.4): each command reads seats, suits and hand size
from it."""


# -- the rules -------------------------------------------------------------------------------------


class RulesOptionError(ValueError):
    """``--preset``, ``--rules`` and ``--knob`` name no valid rules: a usage error (exit code 2)."""


_KNOB_HELP = ("one knob of xueliu.Rules (docs/rules.md), on top of --preset and --rules; VALUE is "
              "JSON: --knob max_fan=6, --knob max_fan=null, --knob 'post_win_kongs=[\"added\"]', "
              "--knob 'fan_table={\"qingyise\": 4}'; a value that is not JSON is taken as a "
              "string: --knob mode=xuezhan (and None, True, False as in Python); repeatable")

_PYTHON_WORDS: Dict[str, Any] = {"None": None, "True": True, "False": False}


def add_rules_options(parser: argparse.ArgumentParser, help_text: Optional[str] = None, *,
                      preset_default: Optional[str] = "xueliu") -> None:
    """The options that choose a command's rules, in a group of their own: ``--preset`` (default
    ``preset_default``; ``help_text`` its help; every preset, the wild-tile rooms of
    docs/rules.md §12.4 included), ``--rules FILE.json`` and ``--knob NAME=VALUE``."""
    g = parser.add_argument_group(
        "rules", "the preset, then the knobs of --rules FILE.json on it, then each --knob "
                 "(errors are Rules.replace's)")
    g.add_argument("--preset", choices=PRESETS,
                   default=preset_default,
                   help=help_text or "the preset the rules start from (default xueliu)")
    g.add_argument("--rules", dest="rules_file", metavar="FILE.json", default=None,
                   help="knobs from a JSON object, e.g. what Rules.to_dict() writes, on top of "
                        "the preset (a knob the file leaves out keeps the preset's value)")
    g.add_argument("--knob", dest="knobs", action="append", default=[], metavar="NAME=VALUE",
                   help=_KNOB_HELP)


def parse_knob(text: str) -> Tuple[str, Any]:
    """``NAME=VALUE`` of ``--knob``: the value read as JSON, or else as the string it is (a bare
    word such as ``xuezhan``; ``None``, ``True`` and ``False`` as Python writes them)."""
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise RulesOptionError(f"--knob needs NAME=VALUE (e.g. max_fan=6), got {text!r}")
    try:
        value = json.loads(raw)
    except ValueError:
        value = _PYTHON_WORDS.get(raw.strip(), raw)
    return name, value


def _file_knobs(path: str) -> Dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise RulesOptionError(f"--rules {path}: cannot read it: {e.strerror}") from None
    except UnicodeDecodeError:
        raise RulesOptionError(f"--rules {path}: not UTF-8 text") from None
    try:
        data = json.loads(text)
    except ValueError as e:
        raise RulesOptionError(f"--rules {path}: not JSON ({e})") from None
    if not isinstance(data, dict):
        raise RulesOptionError(f"--rules {path}: the rules are a JSON object of knobs (what "
                               f"Rules.to_dict() writes), got {type(data).__name__}")
    return data


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the options of :func:`add_rules_options` chose (``args.rules`` once
    :func:`xueliu.cli.main` has read them): ``Rules.preset(--preset).replace(**knobs)``, the knobs
    those of ``--rules`` and then of each ``--knob``. A :class:`RulesOptionError` says what is
    wrong, with ``Rules.replace``'s own words for a knob or a value."""
    given = getattr(args, "rules", None)
    if isinstance(given, Rules):
        return given
    rules = Rules.preset(args.preset or "xueliu")
    knobs: Dict[str, Any] = {}
    if getattr(args, "rules_file", None) is not None:
        knobs.update(_file_knobs(args.rules_file))
    for text in getattr(args, "knobs", None) or ():
        name, value = parse_knob(text)
        knobs[name] = value
    if not knobs:
        return rules
    try:
        return rules.replace(**knobs)
    except (ValueError, TypeError) as e:
        raise RulesOptionError(str(e)) from None


def rules_given(args: argparse.Namespace) -> bool:
    """Whether the command line named rules at all (``xueliu serve``'s house rules)."""
    return bool(getattr(args, "preset", None) or getattr(args, "rules_file", None)
                or getattr(args, "knobs", None))


def rules_name(args: argparse.Namespace) -> str:
    """The chosen rules as a command's messages name them: the preset, then the file and the
    knobs on it (``xueliu + house.json + max_fan=6``)."""
    parts: List[str] = [str(args.preset or "xueliu")]
    if getattr(args, "rules_file", None) is not None:
        parts.append(os.path.basename(args.rules_file))
    parts.extend(t.strip() for t in getattr(args, "knobs", None) or ())
    return " + ".join(parts)


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
