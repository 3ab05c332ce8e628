"""The engine's small error family (python-chess style): one base, a few kinds.

Every message names the input and what would have been legal, so a user (or
a test) can reproduce the problem from the message alone.
"""

from __future__ import annotations


class TrvError(Exception):
    """Base class of every error the engine raises on purpose."""


class NotationError(TrvError, ValueError):
    """Text that does not parse: a space name, a path, a die face."""


class RuleViolation(TrvError):
    """An action that the rules do not allow in this state.

    ``rule`` names the rule broken; ``legal`` lists the options that were legal
    (already formatted for people).  No events are produced.
    """

    def __init__(self, rule: str, message: str, legal: list[str] | tuple[str, ...] = ()):
        self.rule = rule
        self.legal = list(legal)
        text = f"{message} ({rule})"
        if self.legal:
            shown = self.legal if len(self.legal) <= 12 else self.legal[:12] + [f"... {len(self.legal) - 12} more"]
            text += "; legal: " + ", ".join(shown)
        super().__init__(text)


class PositionError(TrvError):
    """A position (set-up) that breaks a rule; ``field`` names where, ``legal``
    the values the field takes where they are few (a crew, a colour)."""

    def __init__(self, field: str, message: str, legal: tuple[str, ...] = ()):
        self.field = field
        self.message = message
        self.legal = tuple(legal)
        super().__init__(f"position {field}: {message}")


class DataError(TrvError):
    """A malformed component data file; names the file and the line or field."""

    def __init__(self, file: str, where: str, message: str):
        self.file = file
        self.where = where
        super().__init__(f"{file}: {where}: {message}")


class ScriptError(TrvError):
    """A scripted outcome that cannot happen (for example a token not in the pile)."""
