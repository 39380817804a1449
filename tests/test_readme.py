"""The README shows real output: its `xueliu analyze` transcripts match the command, and its Python
examples run and print what their comments say."""

import contextlib
import io
import pathlib
import re
import subprocess
import sys

import pytest

README = (pathlib.Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
BLOCKS = re.findall(r"```(\w*)\n(.*?)```", README, flags=re.S)


def _transcripts():
    """(argv, expected lines up to an elided '...') for each `$ xueliu ...` block."""
    for _, body in BLOCKS:
        lines = body.rstrip("\n").split("\n")
        if lines[0].startswith("$ xueliu "):
            shown = lines[1:lines.index("  ...")] if "  ..." in lines else lines[1:]
            yield lines[0][2:].split(), shown


@pytest.mark.parametrize("argv, shown", list(_transcripts()), ids=lambda x: " ".join(x)
                         if isinstance(x, list) and x and x[0] == "xueliu" else "")
def test_readme_transcript_is_the_commands_real_output(argv, shown):
    out = subprocess.run([sys.executable, "-m", "xueliu", *argv[1:]], capture_output=True,
                         text=True, encoding="utf-8", check=True).stdout.split("\n")
    assert out[:len(shown)] == shown


def _python_blocks():
    return [body for lang, body in BLOCKS if lang == "python" and "import xueliu" in body]


@pytest.mark.parametrize("body", _python_blocks(), ids=lambda b: b.split("\n")[2][:40])
def test_readme_python_example_prints_what_its_comments_say(body):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(body, "README.md", "exec"), {})
    out = printed.getvalue()
    # `print(x)  # shown` and the `# shown` lines right after a print: each shown text is printed.
    for line in body.split("\n"):
        m = re.search(r"#\s+(.*)$", line)
        if m is None or "..." in m.group(1) or not re.match(r"\s*(print|#)", line):
            continue
        shown = re.sub(r"\s*\(.*\)$", "", m.group(1)) if line.lstrip().startswith("print") else m.group(1)
        if shown.startswith(("the ", "payer,")):  # prose, not output
            continue
        assert shown.strip() in " ".join(out.split()), shown


# The counts and names README states in its prose, each against the code it speaks of (cheap:
# no game is played). A README number that no longer matches fails here.

def _sentence(pattern: str) -> re.Match:
    m = re.search(pattern, " ".join(README.split()))  # prose wraps anywhere: one line of it
    assert m is not None, f"README no longer says {pattern!r}"
    return m


def _names(text: str) -> list:
    return re.findall(r"`(\w+)`", text)


def test_readme_counts_the_built_in_bots_and_names_them():
    from xueliu.bots import BOTS

    m = _sentence(r"(\d+) built-in bots \(([^)]*)\)")
    assert int(m.group(1)) == len(BOTS)
    assert _names(m.group(2)) == list(BOTS)


def test_readme_counts_the_subcommands_and_names_them():
    from xueliu.cli import main

    shown = io.StringIO()
    with contextlib.redirect_stdout(shown), pytest.raises(SystemExit):
        main(["--help"])
    # argparse lists each subcommand indented by four spaces, its help beside or below it.
    commands = re.findall(r"^    (\w+)(?:\s|$)", shown.getvalue(), flags=re.M)
    m = _sentence(r"command's (\d+) subcommands: (.*?)\.( |$)")
    assert int(m.group(1)) == len(commands)
    assert _names(m.group(2)) == commands


def test_readme_counts_the_presets_and_names_them():
    from xueliu.rules.presets import PRESET_NAMES

    m = _sentence(r"The (\d+) presets are (.*?)\(smaller tables")
    assert int(m.group(1)) == len(PRESET_NAMES)
    assert _names(m.group(2)) == list(PRESET_NAMES)


def test_readme_says_how_many_tiles_the_analyze_example_reads_and_how_many_discards_it_finds():
    import xueliu

    m = _sentence(r"`xueliu analyze --preset (\w+) (\w+)` reads an? (\d+)-tile hand of \S+ \(its (\d+) "
                  r"tiles and a draw\) and finds (\d+) discards that leave it ready")
    preset, text, tiles, dealt, ready = m.groups()
    hand = xueliu.parse_hand(text)
    assert int(hand.counts.sum()) + 3 * len(hand.melds) == int(tiles)
    assert xueliu.Rules.preset(preset).shape.hand_size == int(dealt) == int(tiles) - 1
    options = xueliu.best_discards(hand, rules=preset)
    assert sum(o.shanten == 0 for o in options) == int(ready)


def test_readme_gives_the_action_space_and_the_observation_shape_the_code_has():
    from xueliu.learn import NUM_ACTIONS
    from xueliu.learn.channels import OBS_V1

    m = _sentence(r"action space of (\d+) indices .*? `float32\[(\d+), 27\]` planes \(`obs_v1`")
    assert (int(m.group(1)), int(m.group(2))) == (NUM_ACTIONS, len(OBS_V1))
