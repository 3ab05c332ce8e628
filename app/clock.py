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

from typing import Any

from trvendetta.replays.timecontrol import (LONGEST, TimeControl, Waiting, charged, control_of, deadline_for,
                                            duration_text, longest_answer, parse_stamp, parse_time_control,
                                            stamp_text, utc)


def waiting(store: Any, game: str) -> Waiting | None:
    """Whose answer the stored game waits for (None: over, ended by a claim or resignation, or
    nobody's decision), with its deadline by this store's clock."""
    from trvendetta.replays.signatures import HOST
    from trvendetta.store import decode_charter

    from trvendetta.replays.outcomes import OUTCOME_OPENINGS

    from .exchange import draws_of

    meta = store.header(game)
    loaded = store.load(game)
    last = store.events(game, since=loaded.version - 1, decode=False)[-1]
    if last.payload.startswith(OUTCOME_OPENINGS):  # a claim or a resignation ended it
        return None
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
    since = utc(last.recorded_at)
    control = control_of(charter)
    timed = control is not None and seat in (charter.seats if charter else {}) and seat not in charter.bots
    deadline = None
    if timed and control.per_move is not None:
        deadline = deadline_for(control, since, seat)
    elif timed:
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
    return charged([r.recorded_at or meta.created for r in records], made)


__all__ = ["waiting", "LONGEST", "TimeControl", "Waiting", "charged", "control_of", "deadline_for", "duration_text",
           "longest_answer", "parse_stamp", "parse_time_control", "stamp_text", "waiting"]
