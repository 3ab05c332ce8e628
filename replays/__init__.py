"""Replays, audit and play by email: game records, turn packets, verify, undo, forks.

Everything walks a game's records with the one :class:`~replays.walker.Walker`
(visitor style); see docs/notation.md for the file format.

The names below are loaded on first use (PEP 562), so importing one light
module of the package (``trvendetta.replays.notation``, the move text's
reader and writer) loads no walker and no store code.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the type checker sees every name; a program imports each module when it first asks
    from .audit import (
        AlreadyApplied,
        PacketRefused,
        Verified,
        compare_claim,
        export,
        fork,
        import_file,
        plan_undo,
        read_file,
        state_at,
        undo,
        undo_with_bots,
        verify_file,
        verify_game,
    )
    from .integrity import IncompleteExport, readable
    from .moves import MovesVisitor
    from .notation import movetext, parse_movetext
    from .record import FileError, GameFile, Header
    from .walker import AuditError, Divergence, Group, Tampered, Visitor, Walker, first_difference, undo_refusal

#: where each name lives
_HOME = {
    **dict.fromkeys(("AlreadyApplied", "PacketRefused", "Verified", "compare_claim", "export", "fork", "fork_near", "import_file",
                     "plan_undo", "plan_undo_turn", "read_file", "state_at", "undo", "undo_turn", "undo_with_bots", "verify_file", "verify_game"),
                    "audit"),
    "IncompleteExport": "integrity", "readable": "integrity",
    "MovesVisitor": "moves", "movetext": "notation", "parse_movetext": "notation",
    "FileError": "record", "GameFile": "record", "Header": "record",
    **dict.fromkeys(("AuditError", "Divergence", "Group", "Tampered", "Visitor", "Walker", "first_difference",
                     "undo_refusal"), "walker"),
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "AuditError",
    "Divergence",
    "FileError",
    "GameFile",
    "Group",
    "Header",
    "IncompleteExport",
    "MovesVisitor",
    "AlreadyApplied",
    "PacketRefused",
    "Tampered",
    "Verified",
    "Visitor",
    "Walker",
    "compare_claim",
    "export",
    "first_difference",
    "fork",
    "fork_near",
    "plan_undo_turn",
    "undo_turn",
    "import_file",
    "movetext",
    "parse_movetext",
    "plan_undo",
    "read_file",
    "readable",
    "state_at",
    "undo",
    "undo_with_bots",
    "undo_refusal",
    "verify_file",
    "verify_game",
]
