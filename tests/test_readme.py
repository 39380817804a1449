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
