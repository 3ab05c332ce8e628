"""Replays, audit and play by email: game records, turn packets, verify, undo, forks.

Everything walks a game's records with the one :class:`~replays.walker.Walker`
(visitor style); see docs/notation.md for the file format.
"""

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
from .notation import MovesVisitor, movetext, parse_movetext
from .record import FileError, GameFile, Header
from .walker import AuditError, Divergence, Group, Tampered, Visitor, Walker, first_difference, undo_refusal

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
