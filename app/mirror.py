"""A client's copy of a server's game compared with the server's record, by hash (docs/server.md,
"The CLI as a client").

The copy holds what the client checked and what it signed; the server's record is the server's
word.  They agree when the server's head is the copy's record of that number (the copy may be
behind: it imports the rest).  Otherwise the server lacks records the copy holds (a move the
client signed and posted that the server did not record), or its history splits from the copy's:
:func:`compare` names the first record where they differ, on both sides, so the client shows
the evidence (its own signed move) instead of either record silently."""

from __future__ import annotations

from typing import Any, NamedTuple


class Differs(NamedTuple):
    """The copy and the server's record differ from record ``at`` on: ``mine`` is the copy's
    record there (described), ``theirs`` the server's (None: the server has no record there)."""

    at: int
    server_version: int
    mine: str
    theirs: str | None
    #: the copy's records from ``at`` on, as a packet: the evidence (the client's signed moves)
    evidence: str

    def line(self, game: str) -> str:
        if self.theirs is None:
            return (f"the server's {game} ends at event {self.server_version}, but your copy holds event {self.at} "
                    f"on: {self.mine}; the server did not record it")
        return (f"the server's {game} splits from your copy at event {self.at}: the server has {self.theirs} "
                f"where your copy has {self.mine}")


def describe(payload: bytes, action: bytes, sig: bytes, number: int) -> str:
    """A record in a few words: an action with its signers, a claim or a resignation, else its kind."""
    from trvendetta.replays.signatures import parse
    from trvendetta.store import decode_outcome

    from .outcome import outcome_in

    signers = ", ".join(seat for seat, _ in parse(sig)) if sig else ""
    ended = outcome_in(number, payload)
    if ended is not None:
        return f"event {number}, '{ended.line()}'" + (f" (signed by {signers})" if signers else "")
    if action:
        return f"event {number}, the action {action.decode(errors='replace')}" + \
            (f" signed by {signers}" if signers else " (not yet signed)")
    kind = payload[:60].decode(errors="replace")
    return f"event {number} ({kind}...)" + (f", signed by {signers}" if signers else "")


def compare(store: Any, game: str, server_version: int, server_head: str,
            server_record: Any = None) -> Differs | None:
    """None when the copy of ``game`` agrees with the server's record (version and head), the copy
    possibly behind.  Else where they differ: ``server_record`` (the server's whole record, read)
    names the server's side of a split; without it only a copy ahead of an agreeing server is named."""
    from trvendetta.replays import audit

    have = store.version(game)
    if have >= server_version >= 1 and store.events_head(game, server_version) == server_head:
        if have == server_version:
            return None
        at = server_version + 1
        first = store.events(game, since=server_version, upto=at, decode=False)[0]
        return Differs(at, server_version, describe(first.payload, first.action, first.sig, at), None,
                       audit.export(store, game, since=server_version))
    if server_record is None:
        return None if have < server_version else Differs(0, server_version, "", "", "")
    theirs = list(server_record.records)
    mine = store.events(game, decode=False)
    at = next((i + 1 for i, (m, t) in enumerate(zip(mine, theirs)) if m.hash != t.hash), min(len(mine), len(theirs)) + 1)
    if at > len(mine):
        return None  # the copy is behind an agreeing server
    m = mine[at - 1]
    t = theirs[at - 1] if at <= len(theirs) else None
    return Differs(at, server_version, describe(m.payload, m.action, m.sig, at),
                   None if t is None else describe(t.payload, t.action, t.sig, at),
                   audit.export(store, game, since=at - 1))


__all__ = ["Differs", "compare", "describe"]
