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
from .signatures import HOST, SignatureCheck, fingerprint, message, parse
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


def signed_intents(gf: fmt.GameFile) -> dict[tuple[str, int], tuple[Any, bytes]]:
    """Every intent of a record or packet that carries its seat's valid signature (checked in the
    file's own name: a fork's intents sign the fork's domain), by (seat, draw)."""
    from trvendetta.core.fairplay import decode_draw_as
    from trvendetta.store import INTENT_KIND, Intent

    if not gf.header.charter:
        return {}
    check = SignatureCheck(gf.header.charter, gf.header.domain)
    check.game_id = gf.header.game_id
    mark = b'{"type":"%s"' % INTENT_KIND.encode()
    found: dict[tuple[str, int], tuple[Any, bytes]] = {}
    for r in gf.records:
        if not r.payload.startswith(mark) or not r.sig:
            continue
        try:
            intent, entries = decode_draw_as(r.payload, Intent), parse(r.sig)
        except (ValueError, Exception):  # noqa: BLE001 - a damaged intent is no one's evidence
            continue
        for named, sig in entries:
            msg = message(check.domain(r.number), r.number, r.previous, r.action)
            if named == intent.seat and check._valid(named, sig, msg):
                found[(intent.seat, intent.draw)] = (r, sig)
    return found


def intent_equivocation(a: fmt.GameFile, b: fmt.GameFile,
                        names: tuple[str, str]) -> tuple[str, list[str], int] | None:
    """Two different intents for the same draw of one game, each signed by the same seat (a fork's
    or a copy's candidate action beside the game's: one reveal per draw, docs/fair-play.md):
    the seat, the lines giving both signatures as the proof and the first intent's event; None when
    there are none."""
    if a.header.game_id != b.header.game_id:
        return None
    ours, theirs = signed_intents(a), signed_intents(b)
    ruleset = rulesets.get(a.header.ruleset)
    for key in sorted(set(ours) & set(theirs)):
        (ra, sa), (rb, sb) = ours[key], theirs[key]
        if ra.hash == rb.hash:
            continue
        seat, draw = key
        check = SignatureCheck(a.header.charter)
        lines = [f"{seat} ({fingerprint(check.seats[seat])}) signed two intents for draw {draw} of this game: "
                 "that is equivocation (one reveal per draw: a candidate action tried for its dice), and these "
                 "two signatures are the proof:"]
        for name, r, sig in ((names[0], ra, sa), (names[1], rb, sb)):
            lines.append(f"  {name} event {r.number} (after {r.previous[:16]}...): {_describe(ruleset, r)}, "
                         f"{seat}:{base64.b64encode(sig).decode()}")
        return seat, lines, min(ra.number, rb.number)
    return None


def compare(a: fmt.GameFile, b: fmt.GameFile, names: tuple[str, str] = ("A", "B")) -> Dispute:
    """Compare two records of one game (see the module docstring); a turn packet is compared for
    its intents only (two signed intents for one draw)."""
    from .audit import verify_file

    out = Dispute()
    if a.header.game_id != b.header.game_id:
        raise TrvError(f"{names[0]} and {names[1]} are records of two different games (their first events differ: "
                       f"{a.header.game_id[:16]}... and {b.header.game_id[:16]}...)")
    twice = intent_equivocation(a, b, names)
    if a.kind != "record" or b.kind != "record":
        if twice is None:
            raise TrvError("--against compares two game records (trv export GAME); a turn packet only for "
                           "two signed intents of one draw, and these hold none")
        out.equivocator, out.lines, out.split = twice
        return out
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
    while n < min(len(ra), len(rb)) and _same(ra[n], rb[n]):
        n += 1
    if n == len(ra) == len(rb):
        if out.problems:  # the same bytes, yet one does not verify: never "the same record" first
            out.lines.insert(0, f"{names[0]} and {names[1]} hold the same {n} events, but "
                                f"{' and '.join(out.problems)} does not verify (below)")
        else:
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
    host = _host_equivocation(check, ruleset, x, y, names) if not out.problems else None
    if host is not None:
        out.equivocator = HOST
        out.lines[3:3] = host
        return out
    # whose decision was it at the split?  the seat of the first differing action
    seat = _seat_at(ruleset, a, n)
    if seat is None or seat not in check.seats:
        out.lines.insert(3, f"the split is not at a bound seat's decision ({seat or 'the rules'}): compare each "
                            "record's own verdict below")
        return out
    fa, fb = _covering(check, ra, n, seat), _covering(check, rb, n, seat)
    if twice is not None:  # a candidate intent beside the game's (a fork's signatures name the fork)
        out.equivocator = twice[0]
        out.lines[3:3] = twice[1]
    elif fa and fb:
        out.equivocator = seat
        proof = [f"{seat} ({fingerprint(check.seats[seat])}) signed both continuations of the history to event "
                 f"{n}: that is equivocation, and these two signatures are the proof:"]
        for name, (r, sig) in zip(names, (fa, fb)):
            proof.append(f"  {name} event {r.number} (after {r.previous[:16]}...): "
                         f"{seat}:{base64.b64encode(sig).decode()}")
        out.lines[3:3] = proof
    else:
        from .outcomes import OUTCOME_OPENINGS

        missing = [(name, r) for name, r, f in zip(names, (x, y), (fa, fb)) if not f]
        ended = [name for name, r in missing if r.payload.startswith(OUTCOME_OPENINGS)]
        if ended:  # a claim or a resignation there, not an action: nobody's equivocation
            answered = [name for name in names if name not in ended]
            out.lines.insert(3, f"{', '.join(ended)} ends there with a claim or a resignation, and "
                                f"{', '.join(answered)} holds {seat}'s signed action instead: the copies split "
                                "where one store took the end and the other the move")
        else:
            out.lines.insert(3, f"only one continuation carries {seat}'s signature; "
                                f"{', '.join(name for name, _ in missing)} holds {seat}'s action without it, so "
                                f"{seat} did not make it")
    return out


def _same(x: Any, y: Any) -> bool:
    """Two records alike byte for byte (a copy with an edited roll may keep the hash it no longer matches)."""
    return (x.hash, x.previous, x.kind, x.payload, x.action, x.sig) == (y.hash, y.previous, y.kind, y.payload,
                                                                        y.action, y.sig)


def _host_equivocation(check: SignatureCheck, ruleset: Any, x: Any, y: Any, names: tuple[str, str]) -> list[str] | None:
    """Two records of a host game (each verified, so each host signature checked) that split at the
    resolution of one intent: the same action after the same history, each signed by the host over
    other events (other dice).  The host resolved one intent twice: the lines giving both host
    signatures as the proof; None when the split is not that."""
    if not check.host or not x.action or x.action != y.action or x.previous != y.previous:
        return None
    found = []
    for r in (x, y):
        entries = [sig for named, sig in (parse(r.sig) if r.sig else []) if named == HOST]
        if len(entries) != 1:
            return None
        found.append(entries[0])
    if found[0] == found[1]:
        return None
    what = ruleset.describe_action(ruleset.decode_action(x.action))
    lines = [f"the host ({fingerprint(check.host)}) signed two different resolutions of {what!r} after event "
             f"{x.number - 1}: that is equivocation by the host (one intent, two rolls), and these two host "
             "signatures are the proof:"]
    for name, r, sig in ((names[0], x, found[0]), (names[1], y, found[1])):
        lines.append(f"  {name} event {r.number} (after {r.previous[:16]}...): {_describe(ruleset, r)}, "
                     f"{HOST}:{base64.b64encode(sig).decode()}")
    return lines


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
