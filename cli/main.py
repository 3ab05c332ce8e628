"""The `trv` entry point (``trv = trvendetta.cli.main:main``; ``python -m trvendetta.cli.main``).

It only starts the click group of ``cli/group.py`` (``from trvendetta.cli.main
import cli`` still gives that group).  Start-up is most of a short command
such as ``trv show``, and what start-up makes (modules, classes, functions,
click's commands) lives until the process ends, so the cyclic garbage
collector has nothing to find in it: it is paused while the group is
imported, and what was made is then moved out of its reach (``gc.freeze``),
so neither a command's own collections nor the one at exit walk it again
(docs/performance.md, "Where the store's time goes").
"""

from __future__ import annotations

import gc
import sys
from typing import Any


def main() -> None:
    if sys.argv[1:] == ["--version"]:  # the version alone needs neither click nor the commands
        from trvendetta import __version__

        print(f"trv {__version__}")
        return
    running = gc.isenabled()
    gc.disable()
    try:
        from .group import cli
    finally:
        gc.freeze()
        if running:
            gc.enable()
    try:
        cli(prog_name="trv")
    finally:
        gc.freeze()


def __getattr__(name: str) -> Any:
    """``cli``, ``COMMANDS`` and the rest of ``cli/group.py``, imported on first use (never for a
    dunder: ``from trvendetta.cli.main import main``, as the console script runs, asks for ``__path__``)."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import group

    try:
        return getattr(group, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


if __name__ == "__main__":
    main()
