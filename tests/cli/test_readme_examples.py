"""The README's example sessions are the real commands' output.

Every ```console block of the README sections listed in ``SECTIONS`` is run
in order, in one fresh store per section, under a frozen clock, and each
command's printed output must match what the README shows.  In the README a
line that is just ``...`` stands for any number of lines, and a line ending
in ``...`` for any line starting with what comes before it.

To regenerate the outputs after a change on purpose:
``python tests/cli/test_readme_examples.py --write`` (a command whose output
no longer matches gets its whole real output; shorten it with ``...`` again).
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from freezegun import freeze_time

README = Path(__file__).resolve().parents[2] / "README.md"
SECTIONS = ("A two-player session", "Playing against bots")
CLOCK = "2026-11-29 15:09:44"


def sections(text: str) -> dict[str, list[tuple[int, int]]]:
    """Section title -> the (start, end) line indexes of its console blocks' bodies."""
    lines = text.split("\n")
    out: dict[str, list[tuple[int, int]]] = {}
    title, start = None, None
    for i, line in enumerate(lines):
        if line.startswith("## "):
            title = line[3:].strip()
        elif line.startswith("```console"):
            start = i + 1
        elif line.startswith("```") and start is not None:
            out.setdefault(title, []).append((start, i))
            start = None
    return out


def commands(body: list[str]) -> list[tuple[str, list[str]]]:
    """(command line, expected output lines) for each ``$ trv ...`` line of a block."""
    out: list[tuple[str, list[str]]] = []
    for line in body:
        if line.startswith("$ "):
            out.append((line, []))
        elif out and line.strip():
            out[-1][1].append(line)
    return out


def argv(command: str) -> list[str]:
    words = shlex.split(command[2:], comments=True)
    assert words[0] == "trv", command
    return words[1:]


def matches(expected: list[str], actual: list[str]) -> bool:
    """``expected`` (with ``...`` elisions) matches ``actual`` line for line."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head.strip() == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    line = actual[0].rstrip()
    if head.endswith("..."):
        ok = line.startswith(head[:-3].rstrip(" ")) if head[:-3].strip() else True
    else:
        ok = line == head.rstrip()
    return ok and matches(rest, actual[1:])


def run_section(blocks: list[list[str]], db: Path):
    """Run every command of a section's blocks; yields (command, expected, actual lines)."""
    import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)
    from trvendetta.cli.main import cli

    runner = CliRunner()
    env = {"TRV_DB": str(db), "TRV_GAME": None, "NO_COLOR": "1", "TRV_AS": None}
    with freeze_time(CLOCK):
        for body in blocks:
            for command, expected in commands(body):
                result = runner.invoke(cli, argv(command), env=env, catch_exceptions=False)
                assert result.exit_code == 0, (command, result.output)
                yield command, expected, result.stdout.rstrip("\n").split("\n") if result.stdout else []


@pytest.mark.parametrize("title", SECTIONS)
def test_the_readme_example_outputs_are_true(title, tmp_path):
    text = README.read_text(encoding="utf-8")
    lines = text.split("\n")
    blocks = [lines[a:b] for a, b in sections(text)[title]]
    assert blocks, f"no console blocks under ## {title}"
    for command, expected, actual in run_section(blocks, tmp_path / "readme.sqlite"):
        assert matches(expected, actual), (
            f"README, ## {title}: `{command[2:]}` printed\n" + "\n".join(actual)
            + "\n\nbut the README shows\n" + "\n".join(expected)
            + "\n\n(run `python tests/cli/test_readme_examples.py --write` after a change on purpose)")


def write(tmp: Path) -> None:
    """Rewrite the outputs that no longer match with the real ones."""
    text = README.read_text(encoding="utf-8")
    lines = text.split("\n")
    found = sections(text)
    replace: dict[int, list[str]] = {}  # line index of a command -> new output lines
    for n, title in enumerate(SECTIONS):
        spans = found[title]
        blocks = [lines[a:b] for a, b in spans]
        starts = [i for a, b in spans for i in range(a, b) if lines[i].startswith("$ ")]
        for index, (command, expected, actual) in zip(starts, run_section(blocks, tmp / f"readme-{n}.sqlite")):
            if not matches(expected, actual):
                replace[index] = actual
                print(f"rewrote the output of `{command[2:]}`")
    out: list[str] = []
    skip = False
    for i, line in enumerate(lines):
        if i in replace:
            out.append(line)
            out.extend(replace[i])
            skip = True
            continue
        if skip and (line.startswith("$ ") or line.startswith("```") or not line.strip()):
            skip = False
        if not skip:
            out.append(line)
    README.write_text("\n".join(out), encoding="utf-8")


if __name__ == "__main__":
    import tempfile

    if "--write" not in sys.argv[1:]:
        sys.exit("usage: python tests/cli/test_readme_examples.py --write")
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp))
