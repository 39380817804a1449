"""What the ``xueliu`` command prints about itself and its tables (issue 47): help text free of
escape leaks and of a four-seat count at every table size, ``train --help`` grouped with a help
for every option, one format for every share of ``simulate``'s pattern table."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from xueliu.cli import main
from xueliu.simulate.summary import _share

COMMANDS = ["analyze", "simulate", "arena", "play", "replay", "review", "serve", "train"]


def help_of(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as e:
        main([*argv, "--help"])
    assert e.value.code == 0
    return out.getvalue()


@pytest.mark.parametrize("command", COMMANDS)
def test_no_help_shows_a_doubled_percent_sign(command):
    assert "%%" not in help_of(command)


def test_arena_help_names_no_seat_count_of_its_own():
    text = " ".join(help_of("arena").split())
    assert "95% interval" in text
    assert "three copies" not in text and "three opponents" not in text
    assert "three of" not in text and "four seatings" not in text
    assert "a copy of the reference in every other seat" in text


def test_every_command_that_plays_under_rules_takes_rules_and_knobs():
    for command in ("analyze", "simulate", "arena", "play", "serve"):
        text = help_of(command)
        assert "--rules FILE.json" in text and "--knob NAME=VALUE" in text, command
        assert "mode=xuezhan" in " ".join(text.split())  # a bare word is a string: said


def test_train_help_groups_its_options_and_helps_each_one():
    from xueliu.train.__main__ import build_parser

    p = build_parser("xueliu train")
    groups = {g.title: g for g in p._action_groups}
    for title in ("the run", "the network", "demonstrations (the data imitated)",
                  "imitation (behaviour cloning)",
                  "distillation (imitating networks' averaged policy)",
                  "improvement (branch points and close calls; docs/training.md)",
                  "PPO (self-play against a league)",
                  "evaluation (the best evaluation is OUT/weights.npz)", "output"):
        assert groups[title]._group_actions, title
    assert [a.dest for a in groups["options"]._group_actions] == ["help"]
    options = [a for a in p._actions if a.dest != "help"]
    assert len(options) == 57
    assert all(a.help and a.help.strip() for a in options), \
        [a.dest for a in options if not a.help]
    text = help_of("train")
    assert "\nPPO (self-play against a league):\n" in text


@pytest.mark.parametrize("n, total, shown", [
    (0, 0, "-"), (0, 5, "0.00%"), (5, 5, "100.00%"), (1, 3, "33.33%"), (1, 200, "0.50%"),
    (1, 10_000, "0.01%"), (1, 20_001, "<0.01%"), (1, 1_000_000, "<0.01%"),
    (926, 1000, "92.60%"),
])
def test_a_pattern_share_is_written_one_way(n, total, shown):
    assert _share(n, total) == shown


def test_simulate_pattern_table_writes_every_share_with_two_decimals(capsys):
    assert main(["simulate", "--games", "40", "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    table = out.split("patterns won (share of each bot's wins)\n", 1)[1].splitlines()[1:]
    assert table
    for line in table:
        for cell in line.split()[2:]:
            assert re.fullmatch(r"\d+\.\d\d%|<0\.01%|-", cell), line
