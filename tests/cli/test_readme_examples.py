"""The example sessions of README.md and docs/*.md are the real commands' output.

Every ```console block of a section listed in ``CHECKED`` is run in order, in one
fresh folder and store per section (after the sections it continues, run first),
under a frozen clock, and each command's printed output must match what the page
shows.  A line that is just ``...`` stands for any number of lines, and a line
ending in ``...`` for any line starting with what comes before it; a command shown
without output is run (it must succeed) but its output is not compared.  A prompt
``ann$`` runs as ann would (her own ``$TRV_HOME``); ``> FILE`` writes the command's
output to FILE.  Every console block of the pages that shows a command's output
must be in a checked section (``test_every_console_block_with_output_is_checked``).

To regenerate the outputs after a change on purpose:
``python tests/cli/test_readme_examples.py --write`` (a command whose output
no longer matches gets its whole real output; shorten it with ``...`` again).
"""

from __future__ import annotations

import os
import re
from contextlib import nullcontext
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from freezegun import freeze_time

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
#: (page, section) -> the sections whose commands run first, in the same folder and store
CHECKED: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {
    ("README.md", "A two-player session"): (),
    ("README.md", "Playing against bots"): (),
    ("README.md", "Records, play by email, undo and audit"): (("README.md", "A two-player session"),),
    ("README.md", "A tournament"): (),
    ("docs/fair-play.md", "Seats bound to keys"): (("docs/fair-play.md", "Identities (`trv id`)"),),
}
#: what a section needs that its page leaves to the reader: bob's public key, made in his own home
SETUP: dict[tuple[str, str], list[str]] = {
    ("docs/fair-play.md", "Seats bound to keys"): ["bob$ trv id new bob", "bob$ trv id show bob > bob.pub"],
}
CLOCK = "2026-11-29 15:09:44"
#: sections run on the real clock: they print no time, and the tournament log's store rows take no fake one
UNFROZEN = {("README.md", "A tournament")}
PROMPT = re.compile(r"^(?:(\w+)\$|\$) ")


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
    """(command line, expected output lines) for each prompt line of a block."""
    out: list[tuple[str, list[str]]] = []
    for line in body:
        if PROMPT.match(line):
            out.append((line, []))
        elif out and line.strip():
            out[-1][1].append(line)
    return out


def argv(command: str) -> tuple[str | None, list[str], str | None]:
    """(who runs it, the words after ``trv``, the file ``>`` writes) of a prompt line; words None
    for a command that is not ``trv``."""
    found = PROMPT.match(command)
    assert found is not None, command
    words = shlex.split(command[found.end():], comments=True)
    target = None
    if ">" in words:
        at = words.index(">")
        words, target = words[:at], words[at + 1]
    if not words or words[0] != "trv":
        return found.group(1), [], None
    return found.group(1), words[1:], target


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


def blocks_of(key: tuple[str, str]) -> list[list[str]]:
    page, title = key
    text = (ROOT / page).read_text(encoding="utf-8")
    lines = text.split("\n")
    return [lines[a:b] for a, b in sections(text).get(title, [])]


def run_section(key: tuple[str, str], folder: Path, *, prelude: bool = True):
    """Run every command of a section's blocks (after its preludes' and set-up's) in ``folder``;
    yields (command, expected, actual lines) for the section's own."""
    import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)
    from trvendetta.cli.main import cli

    runner = CliRunner()
    base = {"TRV_DB": str(folder / "trv.sqlite"), "TRV_GAME": None, "TRV_STORE": None, "TRV_SERVER": None,
            "NO_COLOR": "1", "TRV_AS": None}
    steps: list[tuple[str, list[str], bool]] = []
    if prelude:
        for before in CHECKED[key]:
            steps += [(c, [], False) for body in blocks_of(before) for c, _ in commands(body)]
    steps += [(c, [], False) for c in SETUP.get(key, [])]
    steps += [(c, e, True) for body in blocks_of(key) for c, e in commands(body)]
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with freeze_time(CLOCK) if key not in UNFROZEN else nullcontext():
            for command, expected, own in steps:
                who, words, target = argv(command)
                if not words:
                    continue  # not a trv command (pip, sqlite-utils...)
                env = {**base, "TRV_HOME": str(folder / f"home-{who or 'you'}")}
                result = runner.invoke(cli, words, env=env, catch_exceptions=False)
                assert result.exit_code == 0, (command, result.output)
                out = result.stdout.rstrip("\n").split("\n") if result.stdout else []
                if target is not None:
                    Path(target).write_text(result.stdout)
                    out = []
                if own:
                    yield command, expected, out
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("key", sorted(CHECKED), ids=lambda k: f"{k[0]}: {k[1]}")
def test_the_example_outputs_are_true(key, tmp_path):
    assert blocks_of(key), f"no console blocks under ## {key[1]} in {key[0]}"
    for command, expected, actual in run_section(key, tmp_path):
        if not expected:
            continue
        assert matches(expected, actual), (
            f"{key[0]}, ## {key[1]}: `{command}` printed\n" + "\n".join(actual)
            + f"\n\nbut {key[0]} shows\n" + "\n".join(expected)
            + "\n\n(run `python tests/cli/test_readme_examples.py --write` after a change on purpose)")


def test_every_console_block_with_output_is_checked():
    unchecked = []
    for page in PAGES:
        name = str(page.relative_to(ROOT))
        text = page.read_text(encoding="utf-8")
        lines = text.split("\n")
        for title, spans in sections(text).items():
            for a, b in spans:
                shows_output = any(expected for _, expected in commands(lines[a:b]))
                if shows_output and (name, title) not in CHECKED:
                    unchecked.append(f"{name}:{a}: ## {title}")
    assert not unchecked, "console blocks showing output that no test runs:\n" + "\n".join(unchecked)


def write(tmp: Path) -> None:
    """Rewrite the outputs that no longer match with the real ones."""
    for page in PAGES:
        name = str(page.relative_to(ROOT))
        text = page.read_text(encoding="utf-8")
        lines = text.split("\n")
        found = sections(text)
        replace: dict[int, list[str]] = {}  # line index of a command -> new output lines
        for n, (key_page, title) in enumerate(k for k in CHECKED if k[0] == name):
            spans = found[title]
            starts = [i for a, b in spans for i in range(a, b) if PROMPT.match(lines[i])]
            folder = tmp / f"{n}-{name.replace('/', '-')}"
            folder.mkdir()
            for index, (command, expected, actual) in zip(starts, run_section((key_page, title), folder)):
                if expected and not matches(expected, actual):
                    replace[index] = actual
                    print(f"{name}: rewrote the output of `{command}`")
        out: list[str] = []
        skip = False
        for i, line in enumerate(lines):
            if i in replace:
                out.append(line)
                out.extend(replace[i])
                skip = True
                continue
            if skip and (PROMPT.match(line) or line.startswith("```") or not line.strip()):
                skip = False
            if not skip:
                out.append(line)
        page.write_text("\n".join(out), encoding="utf-8")


if __name__ == "__main__":
    import tempfile

    if "--write" not in sys.argv[1:]:
        sys.exit("usage: python tests/cli/test_readme_examples.py --write")
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp))
