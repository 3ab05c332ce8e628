"""Two records of one game: `trv verify A.trv --against B.trv`.

Says where they split, in the game's words; which player signed two
different continuations of the same history (equivocation: both signatures
are the proof, since a seat's signature covers the chain before it); and
what each record is worth on its own (``verify_file``: unsigned actions,
foreign signatures, events the rules do not give).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from trvendetta import rulesets
from trvendetta.core.errors import TrvError

from . import record as fmt
from .signatures import SignatureCheck, fingerprint, message, parse
from .walker import AuditError


@dataclass
class Dispute:
    lines: list[str] = field(default_factory=list)
    split: int | None = None  # the first event number where the records differ
    equivocator: str | None = None
    problems: dict[str, str] = field(default_factory=dict)  # "A"/"B" -> why it does not verify


def _describe(ruleset: Any, r: Any) -> str:
    if r is None:
        return "nothing (the record ends before)"
    try:
        if r.action:
            return f"the action {ruleset.describe_action(ruleset.decode_action(r.action))!r}"
        return f"the event \"{ruleset.describe(ruleset.decode_event(r.payload))}\""
    except Exception:  # noqa: BLE001 - a retraction or undecodable bytes
        return r.payload.decode("utf-8", "replace")[:100]


def _covering(check: SignatureCheck, records: tuple, start: int, seat: str) -> Any:
    """The first record from index ``start`` on carrying a valid signature of ``seat``."""
    for r in records[start:]:
        for named, sig in parse(r.sig) if r.sig else []:
            if named != seat:
                continue
            body = r.action or r.payload
            if check._valid(seat, sig, message(check.domain(r.number), r.number, r.previous, body)):
                return r, sig
    return None


def compare(a: fmt.GameFile, b: fmt.GameFile, names: tuple[str, str] = ("A", "B")) -> Dispute:
    """Compare two records of one game (see the module docstring)."""
    from .audit import verify_file

    out = Dispute()
    if a.kind != "record" or b.kind != "record":
        raise TrvError("--against compares two game records (trv export GAME), not turn packets")
    if a.header.game_id != b.header.game_id:
        raise TrvError(f"{names[0]} and {names[1]} are records of two different games (their first events differ: "
                       f"{a.header.game_id[:16]}... and {b.header.game_id[:16]}...)")
    ruleset = rulesets.get(a.header.ruleset)
    for name, gf in zip(names, (a, b)):
        try:
            verified = verify_file(gf)
            signed = ", ".join(f"{s} ({n})" for s, n in verified.signed.items())
            text = f"{name}: verifies ({verified.events} events" + (f"; signatures: {signed}" if signed else "") + \
                (f"; unsigned seats: {', '.join(verified.unsigned)}" if verified.unsigned else "") + ")"
            out.lines.append(text)
        except (AuditError, TrvError) as exc:
            first = str(exc).split("\n")
            out.problems[name] = first[0]
            out.lines.append(f"{name}: does NOT verify: " + " ".join(line.strip() for line in first))
    ra, rb = a.records, b.records
    n = 0
    while n < min(len(ra), len(rb)) and ra[n].hash == rb[n].hash:
        n += 1
    if n == len(ra) == len(rb):
        out.lines.insert(0, f"{names[0]} and {names[1]} are the same record ({n} events)")
        return out
    if n == min(len(ra), len(rb)):
        longer, shorter = (names[0], names[1]) if len(ra) > len(rb) else (names[1], names[0])
        out.lines.insert(0, f"{longer} extends {shorter}: they agree on events 1 to {n}, and {longer} has "
                            f"{abs(len(ra) - len(rb))} more")
        return out
    out.split = n + 1
    x, y = ra[n], rb[n]
    head = ra[n - 1].hash if n else "(the start)"
    out.lines.insert(0, f"{names[0]} and {names[1]} agree up to event {n} (head {head[:16]}...) and split at "
                        f"event {n + 1}:")
    out.lines.insert(1, f"  {names[0]}: {_describe(ruleset, x)}")
    out.lines.insert(2, f"  {names[1]}: {_describe(ruleset, y)}")
    check = SignatureCheck(a.header.charter, a.header.domain) if a.header.charter else None
    if check is None:
        out.lines.insert(3, "no seat is bound to a key: nothing shows who made either continuation")
        return out
    check.game_id = a.header.game_id
    # whose decision was it at the split?  the seat of the first differing action
    seat = _seat_at(ruleset, a, n)
    if seat is None or seat not in check.seats:
        out.lines.insert(3, f"the split is not at a bound seat's decision ({seat or 'the rules'}): compare each "
                            "record's own verdict below")
        return out
    fa, fb = _covering(check, ra, n, seat), _covering(check, rb, n, seat)
    if fa and fb:
        out.equivocator = seat
        proof = [f"{seat} ({fingerprint(check.seats[seat])}) signed both continuations of the history to event "
                 f"{n}: that is equivocation, and these two signatures are the proof:"]
        for name, (r, sig) in zip(names, (fa, fb)):
            proof.append(f"  {name} event {r.number} (after {r.previous[:16]}...): "
                         f"{seat}:{base64.b64encode(sig).decode()}")
        out.lines[3:3] = proof
    else:
        missing = [name for name, f in zip(names, (fa, fb)) if not f]
        out.lines.insert(3, f"only one continuation carries {seat}'s signature; {', '.join(missing)} holds "
                            f"{seat}'s action without it, so {seat} did not make it")
    return out


def _seat_at(ruleset: Any, gf: fmt.GameFile, index: int) -> str | None:
    """The seat whose decision the game waited on after the first ``index`` records."""
    from .audit import walker_for

    walker = walker_for(ruleset, gf.header.charter, gf.header.domain, start=gf.genesis)
    try:
        for r in gf.records[:index]:
            walker.feed(r)
    except AuditError:
        return None
    decision = ruleset.pending(walker.state)
    return decision.player if decision else None
