"""Time limits of a game at a distance (docs/fair-play.md, "Time limits, claims and resignation").

The time control's format and arithmetic are ``replays/timecontrol.py``
(a claim in a record is checked with them); here, whose answer a stored
game waits for and until when.

Nobody's clock is trusted, so each store's own is the reference: a seat's
time runs from the wall-clock stamp this store gave the record it has to
answer (made here, or imported) to the stamp of its answer (made here, or
imported).  So mail's delay is charged to the sender.  Everything here is a
pure function of the store's records and ``now`` (which the shell reads:
the engine reads no clock, and neither does this module; ``trv serve`` can
call :func:`waiting` with its own ``now``).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, NamedTuple

from trvendetta.core.errors import TrvError
from trvendetta.replays.timecontrol import (CLOCK_TOLERANCE, LONGEST, TimeControl, Waiting, charged, control_of,
                                            deadline_for, duration_text, exact_text, longest_answer, parse_stamp,
                                            parse_time_control, stamp_text, tolerance, utc)


def waiting(store: Any, game: str, loaded: Any = None) -> Waiting | None:
    """Whose answer the stored game waits for (None: over, ended by a claim or resignation, or
    nobody's decision), with its deadline by this store's clock.  ``loaded``: the game as the
    caller loaded it last (``store.load``), if it has it."""
    from trvendetta.replays.signatures import HOST
    from trvendetta.store import decode_charter

    from trvendetta.replays.outcomes import OUTCOME_OPENINGS
    from trvendetta.replays.walker import REVOKE_OPENING

    from .exchange import draws_of

    meta = store.header(game)
    loaded = loaded if loaded is not None and loaded.game == game else store.load(game)
    last = store.events(game, since=loaded.version - 1, upto=loaded.version, decode=False)[-1]
    if last.payload.startswith(OUTCOME_OPENINGS):  # a claim or a resignation ended it
        return None
    started = last  # the record whose stamp starts the seat's time: a revocation starts no clock
    while started.number > 1 and started.payload.startswith(REVOKE_OPENING):
        started = store.events(game, since=started.number - 2, upto=started.number - 1, decode=False)[-1]
    ruleset, state = loaded.ruleset, loaded.state
    charter = decode_charter(meta.charter) if meta.charter else None
    draws = draws_of(store, game, meta.charter) if charter is not None and charter.dice else None
    if draws is not None and draws.open is not None:
        seat, unanswered = draws.waiting_for(), "reveal"
        if seat == "the host":
            seat = HOST
    else:
        decision = ruleset.pending(state)
        if decision is None:
            return None
        seat, unanswered = decision.player, "decision"
    since = utc(started.recorded_at)
    control = control_of(charter)
    timed = charter is not None and seat in charter.seats and seat not in charter.bots
    deadline = None
    if control is not None and timed:
        if control.per_move is not None:
            deadline = deadline_for(control, since, seat)
        else:
            used, answers = _charged_in(store, game, meta)
            deadline = deadline_for(control, since, seat, used, answers)
    return Waiting(seat, unanswered, loaded.version, last.hash, since, deadline, control if timed else None)


def _charged_in(store: Any, game: str, meta: Any) -> tuple[dict[str, timedelta], dict[str, int]]:
    from trvendetta import rulesets
    from trvendetta.replays import outbox
    from trvendetta.replays.resume import walker_for

    records = list(store.events(game, decode=False))
    made = outbox.makers(walker_for, rulesets.get(meta.ruleset), meta.charter, meta.domain, records,
                         start=meta.genesis)
    return charged(clock_stamps(records, meta.created), made)


def clock_stamps(records: list[Any], created: datetime) -> list[datetime]:
    """This store's stamps of ``records`` as the clocks count them: a player's revocation of browser keys
    (``trv-revoke``, carried into the game by the server) is nobody's answer and stops or starts no clock,
    so it counts at the stamp of the record before it (a player cannot revoke to win time)."""
    from trvendetta.replays.walker import REVOKE_OPENING

    out: list[datetime] = []
    for r in records:
        out.append(out[-1] if out and r.payload.startswith(REVOKE_OPENING) else utc(r.recorded_at or created))
    return out


class ClaimRefused(TrvError):
    """A claim on time that this store's own stamps contradict (:func:`check_received`)."""


def check_received(store: Any, game: str, claim: Any, new: list[Any], now: datetime) -> None:
    """A claim that arrived here (a packet, a record over this store's game) checked against this
    store's own clock: ``new`` are the records that arrive with it, before it (stamped ``now``).

    Refused, naming both times: a claim made later than ``now`` by more than the tolerance (the
    claimant's clock is fast); one whose deadline is earlier than this store's own for that seat
    (from this store's stamp of the record the claim names, and the seat's time used by this
    store's stamps) by more than the tolerance (the record it answers reached this store later,
    was kept back, or was stamped back); one that crosses an answer this store holds, stamped before
    the deadline (the claim's or this store's)."""
    meta = store.header(game)
    stored = list(store.events(game, decode=False))
    _check_claim(meta, stored, clock_stamps(stored, meta.created), claim, new, now)


def check_received_whole(gf: Any, claim: Any, now: datetime) -> None:
    """A claim on time ending a record this store imports as a new game (it did not hold the game):
    every record reached this store ``now``, so the claimed seat's time starts now and the claim is
    checked as :func:`check_received` checks one arriving with the records before it (a claim made
    before the game reached this store, however its times read, is refused)."""
    h = gf.header
    meta = _Whole(h.ruleset, h.charter, h.domain, gf.genesis)
    _check_claim(meta, [], [], claim, [r for r in gf.records if r.number <= claim.after], now, whole=True)


class _Whole(NamedTuple):
    ruleset: str
    charter: str
    domain: str
    genesis: str


def _check_claim(meta: Any, stored: list[Any], stored_stamps: list[datetime], claim: Any, new: list[Any],
                 now: datetime, whole: bool = False) -> None:
    from trvendetta import rulesets
    from trvendetta.replays import outbox
    from trvendetta.replays.resume import walker_for

    control = control_of(decode_charter_of(meta))
    records = [*stored, *new]
    after = claim.after
    if control is None or not 1 <= after <= len(records):
        return  # the walk refuses it, naming why
    stamps = stored_stamps + [utc(now)] * len(new)
    seat, at, said = claim.seat, parse_stamp(claim.at), parse_stamp(claim.deadline)
    allowed = tolerance(control)
    if at > utc(now) + allowed:
        raise ClaimRefused(f"the claim against {seat} was made at {claim.at} by {claim.by}'s clock, "
                           f"{exact_text(at - utc(now))} after this store's clock ({stamp_text(now)}; it allows "
                           f"{exact_text(allowed)}): {claim.by}'s clock is fast; nothing was written")
    if control.per_move is not None:
        mine = deadline_for(control, stamps[after - 1], seat)
    else:
        made = outbox.makers(walker_for, rulesets.get(meta.ruleset), meta.charter, meta.domain, records[:after],
                             start=meta.genesis)
        mine = deadline_for(control, stamps[after - 1], seat, *charged(stamps[:after], made))
    got = "received" if after > len(stored) or stored[after - 1].recorded_at is None else "stamped"
    got_at = f"this store {got} event {after} at {stamp_text(stamps[after - 1])}"
    if whole:  # a game this store did not hold: each of its records reached it now
        got_at = (f"this store did not hold the game and received it whole, event {after} included, at "
                  f"{stamp_text(stamps[after - 1])}")
    if said < mine - allowed:
        raise ClaimRefused(f"the claim says {seat} had to answer event {after} by {claim.deadline} (from "
                           f"{claim.since}); {got_at}, so by "
                           f"its clock {seat}'s deadline is {stamp_text(mine)}, {exact_text(mine - said)} later "
                           f"(it allows {exact_text(allowed)}): the claim came before {seat}'s time ran out "
                           "here; nothing was written")
    if after < len(records):
        # only the claimed seat's own action or reveal answers: a revocation (any seat's, any time) or
        # another party's record is no answer (``outbox.makers``: a revocation is the host's)
        by_whom = outbox.makers(walker_for, rulesets.get(meta.ruleset), meta.charter, meta.domain, records,
                                start=meta.genesis)
        answer = next((i for i in range(after, len(records)) if by_whom[i] == seat), None)
        answered = stamps[answer] if answer is not None else None
        if answer is not None and answered is not None and answered <= max(mine, said):
            raise ClaimRefused(f"{seat} answered event {after} here at {stamp_text(answered)} (event {answer + 1}), "
                               f"before the deadline (the claim's {claim.deadline}; this store's "
                               f"{stamp_text(mine)}): the claim by {claim.by} crossed an answer in time; the evidence "
                               f"is {seat}'s signed event {answer + 1} stamped {stamp_text(answered)} and the claim's "
                               f"deadline {claim.deadline}; nothing was written")
    if utc(now) < mine - allowed:
        # one tolerance, not two: a deadline up to the tolerance early and a time up to it in this
        # store's future would otherwise take a claim twice the tolerance before this store's deadline
        raise ClaimRefused(f"the claim against {seat} reached this store at {stamp_text(now)}, "
                           f"{exact_text(mine - utc(now))} before {seat}'s deadline by this store's clock "
                           f"({stamp_text(mine)}; {got_at}; it allows {exact_text(allowed)}): {seat}'s time has "
                           "not run out here; nothing was written")


class DelegationEnded(TrvError):
    """A record signed with a delegated key whose delegation ended before it reached this store
    (:func:`check_delegations`)."""


def check_delegations(charter: str, new: list[Any], now: datetime) -> None:
    """Records that reach this store ``now`` (a packet's, a whole record's, a copy's new ones) checked
    against its clock: one signed with a delegated key (a browser page's, docs/server.md) whose
    delegation ended before ``now`` by more than the tolerance a claim gets under the game's time control
    (an hour without one) is refused, naming the seat, the key, the end and ``now``.  A record does not
    say when it was signed, so its arrival here is the latest it can have been; the walk checks the
    delegation itself (its seat's key signed it for this game's host)."""
    from trvendetta.replays.signatures import delegated_entries, fingerprint, split_delegation
    from trvendetta.store import decode_charter

    control = control_of(decode_charter(charter) if charter else None)
    allowed = CLOCK_TOLERANCE if control is None else tolerance(control)
    received = utc(now)
    for r, seat, raw in delegated_entries(new):
        _, key, until, _ = split_delegation(raw)
        if until + allowed.total_seconds() >= received.timestamp():
            continue
        end = datetime.fromtimestamp(until, timezone.utc)
        raise DelegationEnded(
            f"event {r.number}: {seat}'s signature was made with the delegated key {fingerprint(key.hex())}, "
            f"whose delegation ended at {stamp_text(end)} ({until}); this store received it at "
            f"{stamp_text(received)}, {exact_text(received - end)} later (it allows {exact_text(allowed)}): "
            f"a delegated key acts for {seat} only until its delegation ends; nothing was written")


def decode_charter_of(meta: Any) -> Any:
    from trvendetta.store import decode_charter

    return decode_charter(meta.charter) if meta.charter else None


__all__ = ["CLOCK_TOLERANCE", "ClaimRefused", "LONGEST", "TimeControl", "Waiting", "charged", "check_delegations",
           "check_received", "check_received_whole", "DelegationEnded",
           "clock_stamps", "control_of", "deadline_for", "duration_text", "longest_answer", "parse_stamp", "parse_time_control",
           "stamp_text", "waiting"]
