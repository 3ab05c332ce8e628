"""``trv turn`` flags as data each ruleset declares, and the strict-use bookkeeping.

A ruleset lists its flags in ``turn_flags`` (OpenSpiel style: the game
declares, the shell never asks "which game is this?"); the CLI builds
``trv turn`` from the declarations of every registered ruleset.

A turn uses every flag it is given or is refused: a turn driver records each
flag it used and, for a flag it could not use, a :class:`FlagProblem` (the
flag, why, what was legal then).  The CLI refuses the whole command on a
problem, unless chance changed the turn first (a slam, a revealed token):
then what was played stands and the problems are reported.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from collections.abc import Iterable, Sequence

import msgspec

#: the kinds of value a flag takes
KINDS = ("text", "int", "flag", "switch", "steps")


class TurnFlag(msgspec.Struct, frozen=True):
    """One ``trv turn`` option of a ruleset.

    ``name`` is the option without dashes (``road-die``); ``kind`` is text,
    int, flag (present or not), switch (``--x/--no-x``, unset by default) or
    steps (comma-separated, like ``F,FR,F``); ``multiple`` lets it repeat;
    ``excludes`` names flags it may not be combined with; ``choices``, where
    the flag takes a few fixed words (a car's size), lists them: the shell
    completes them and refuses another as a usage error (``red-large`` names
    ``large`` with its colour, which the rules check); ``crew`` names the
    crew it is for (the Big Rig's ``--steering``), empty for every crew's;
    ``groups``, ``most`` and ``noun`` make it a grouping flag (see the fields).
    """

    name: str
    kind: str = "text"
    help: str = ""
    metavar: str = ""
    multiple: bool = False
    excludes: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    #: the crew whose turn takes it ("": every crew's); ``trv turn --help`` lists it under that crew
    crew: str = ""
    #: a grouping flag (the Final Five's ``--bike``): the keys of the flags that, given after it, are
    #: its group's; the turn driver gets the groups in order as ``KEYs`` (``bikes``)
    groups: tuple[str, ...] = ()
    #: how many groups a turn takes at most (0: any number), and what one group moves (its noun)
    most: int = 0
    noun: str = ""

    def refuses(self, value: object) -> bool:
        """Whether ``value`` is none of the flag's ``choices`` (never, without any)."""
        text = str(value)
        return bool(self.choices) and text not in self.choices and text.rpartition("-")[2] not in self.choices

    @property
    def key(self) -> str:
        """The key of the flag in the dict a turn driver is given."""
        return self.name.replace("-", "_")


class FlagProblem(msgspec.Struct, frozen=True):
    """A flag that could not be used: ``flag`` as typed, ``why``, and the
    legal options of the decision where that showed."""

    flag: str
    why: str
    legal: tuple[str, ...] = ()
    #: the flag answers a later decision of the turn, which now waits on another one
    #: (a slam reroll, another player's): it can still be played once that is answered
    waits: bool = False

    def text(self) -> str:
        return f"{self.flag}: {self.why}"


def option(flag: str, value: object = None) -> str:
    """``--shoot blue-large`` as the player typed it (``--road-die`` for a flag)."""
    if value is None or value is True:
        return f"--{flag}"
    if isinstance(value, (list, tuple)):
        value = ",".join(map(str, value))
    return f"--{flag} {value}"


def given(flags: dict, declared: Sequence[TurnFlag]) -> list[TurnFlag]:
    """The declared flags that were given a value."""
    return [f for f in declared if flags.get(f.key) not in (None, False, (), [])]


def by_key(declared: Iterable[TurnFlag]) -> dict[str, TurnFlag]:
    return {f.key: f for f in declared}
