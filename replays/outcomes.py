"""A claim on time or a resignation in a record, checked as the walker meets it (docs/fair-play.md).

A ``trv-claim`` or ``trv-resign`` record ends the game: the seat it names
lost.  :func:`ended` checks one against the game as walked to the record
before it, and :class:`Ended` is what the walk keeps (``Walker.outcome``);
nothing may follow it.  What a record can show is checked; what it cannot
(the claimant's clock) is the claimant's word, signed:

* a claim follows the very record it names (``after``, its hash), made by a
  bound seat other than the one it claims against, signed over that record;
  the game then waited for the claimed seat (its decision, or its reveal of
  an open draw), under the charter's time control (``control``); its times
  are in order (``since <= deadline <= at``) and its deadline is no later
  than the control allows (a move's limit exactly; a reserve: the reserve
  and an increment for every action of that seat so far);
* a resignation names a player of the game before its end, follows the
  record it names, and is signed by that seat (a game without bound seats
  has no resignation: nothing would show who resigned).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import msgspec

from trvendetta.store import CLAIM_KIND, HOST_REVEAL_KIND, RESIGN_KIND, Claim, decode_outcome

from .timecontrol import duration_text, longest_answer, parse_stamp, parse_time_control

_HOST_REVEAL = b'{"type":"' + HOST_REVEAL_KIND.encode() + b'"'
OUTCOME_OPENINGS = (b'{"type":"' + CLAIM_KIND.encode() + b'"', b'{"type":"' + RESIGN_KIND.encode() + b'"')


class Ended(NamedTuple):
    """The game ended at record ``number``: ``loser`` lost, ``how`` (``time`` or ``resigned``)."""

    number: int
    loser: str
    how: str
    record: Any  # the Claim or Resign
    sentence: str
    #: a claim appended after the silent seat's late answer (the records between are that evidence)
    late: bool = False


def last_record(store: Any, game: str) -> Any:
    """A stored game's last record but a host's reveal of its seed (which may follow a claim or a
    resignation: it changes nothing), or None for a game of one record."""
    version = store.version(game)
    if version < 2:
        return None
    last = store.events(game, since=max(0, version - 2), decode=False)
    if last[-1].payload.startswith(_HOST_REVEAL) and len(last) > 1:
        return last[-2]
    return last[-1]


def ended_in(store: Any, game: str) -> bool:
    """Whether a stored game's last record (but the host's reveal) is a claim or a resignation
    (nothing may follow it)."""
    last = last_record(store, game)
    return last is not None and last.payload.startswith(OUTCOME_OPENINGS)


def sentence_of(found: Any) -> str:
    if isinstance(found, Claim):
        return f"{found.seat} lost on time, claimed by {found.by}"
    return f"{found.seat} resigned"


def ended(walker: Any, record: Any, action: Any, Tampered: Any,  # noqa: N803 - the walker's classes
          resumed_after: int = 0, NeedsHistory: Any = None) -> Ended:
    """The outcome ``record`` holds, checked against ``walker`` (the game up to the record before);
    ``Tampered`` is the walker's error for a record that does not hold together.  One that follows
    later records than the one it names (a store that had taken the silent seat's late answer
    appends the claim after it) is ``late``: the game at the record it names is checked by
    :func:`confirm_late`, from a walk to that record.  ``resumed_after``: the record a resumed walk
    started after (0: a whole walk); a late claim naming an earlier one raises ``NeedsHistory``."""
    number = record.number
    if action is not None:
        raise Tampered(number, "a claim or a resignation carries an action")
    try:
        found = decode_outcome(record.payload)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise Tampered(number, f"not a claim or a resignation: {exc}") from None
    what = _what(found)
    late = 1 <= found.after < number - 1 and isinstance(found, Claim)
    if not late:
        if found.after != number - 1 or found.after_hash != walker.head:
            raise Tampered(number, f"{what} names event {found.after} ({found.after_hash[:16]}...) but follows event "
                                   f"{number - 1} ({walker.head[:16]}...): it was made for another point of the game")
        _at(walker, number, found, Tampered)
    else:
        if resumed_after > found.after and NeedsHistory is not None:
            raise NeedsHistory(number)  # only a whole walk knows who made the records after the claimed point
        assert isinstance(found, Claim)  # (late)
        _only_the_answer(walker, number, found, Tampered)
    check = walker.signatures
    if check is None:
        raise Tampered(number, f"{what} in a game without bound seats: a claim or a resignation is signed")
    check.on_outcome(record, found.seat if not isinstance(found, Claim) else found.by, found.after,
                     found.after_hash, what)
    how = "time" if isinstance(found, Claim) else "resigned"
    return Ended(number, found.seat, how, found, sentence_of(found), late)


def confirm_late(walker: Any, ended: Ended, Tampered: Any) -> None:  # noqa: N803
    """A late claim (``Ended.late``) checked against ``walker``, a walk of the game to the record the claim
    names: that record's hash, and everything :func:`ended` checks of a claim that follows it."""
    found = ended.record
    if walker.number != found.after or walker.head != found.after_hash:
        raise Tampered(ended.number, f"{_what(found)} names event {found.after} ({found.after_hash[:16]}...), which "
                                     "is not this game's: it was made for another game or another point of it")
    _at(walker, ended.number, found, Tampered)


def _only_the_answer(walker: Any, number: int, claim: Claim, Tampered: Any) -> None:  # noqa: N803
    """A late claim follows the claimed seat's own late answer and nothing else: its run of actions,
    with the automatic records (events, reveals, a host's resolutions) they caused.  An action of
    another seat (the claimant's, or a bot seat's: whoever ran it, the game went on), an intent another seat opened, a retraction, or the game's
    end between the record the claim names and the claim, and the game went on after that answer:
    a claim kept back until it suited its claimant, which no store appends."""
    seat, after = claim.seat, claim.after
    if walker.ruleset.pending(walker.state) is None:
        raise Tampered(number, f"the claim against {seat} names event {after} but follows the game's end at "
                               f"event {number - 1}: a claim is appended only right after {seat}'s late answer")
    others = [g for g in walker.groups if g.first > after and g.action is not None and g.player != seat]
    draws = walker.draws
    opened = draws.open["seat"] if draws is not None and draws.open is not None else None
    undone = [n for n in getattr(walker, "retractions", ()) if n > after]
    if others or (opened is not None and opened != seat) or undone:
        by = (f"{others[0].player}'s action (event {others[0].first})" if others else
              f"{opened}'s intent" if opened is not None and opened != seat else f"a retraction (event {min(undone)})")
        raise Tampered(number, f"the claim against {seat} names event {after}, but {by} follows it: a late claim "
                               f"follows only the claimed seat's own answer ({seat}'s); the game went on after "
                               "that point, so the claim was kept back until it suited its claimant")


def _what(found: Any) -> str:
    return "the claim" if isinstance(found, Claim) else f"{found.seat}'s resignation"


def _at(walker: Any, number: int, found: Any, Tampered: Any) -> None:  # noqa: N803
    """What a claim or a resignation says of the game it follows (``walker``, at that record)."""
    what = _what(found)
    ruleset, state = walker.ruleset, walker.state
    decision = ruleset.pending(state)
    if decision is None:
        raise Tampered(number, f"{what} comes after the game's end")
    check = walker.signatures
    seats = check.seats if check is not None else {}
    if isinstance(found, Claim):
        _claim(walker, number, found, decision, seats, Tampered)
    else:
        players = [p.name for p in ruleset.seats(state)]
        if found.seat not in players:
            raise Tampered(number, f"a resignation of {found.seat!r}, who is no player of this game "
                                   f"({', '.join(players)})")
        if check is not None and found.seat in check.bots:
            raise Tampered(number, f"a resignation of the bot seat {found.seat}")


def _claim(walker: Any, number: int, claim: Claim, decision: Any, seats: dict, Tampered: Any) -> None:  # noqa: N803
    check = walker.signatures
    time = getattr(check, "time", "") if check is not None else ""
    if not time:
        raise Tampered(number, "a claim on time in a game without a time control")
    if claim.control != time:
        raise Tampered(number, f"the claim names the time control {claim.control!r}; the game's is {time!r}")
    # a host game's host (its clock is the reference in its games) claims under the name it signs with
    host_claims = bool(getattr(check, "host", "")) and claim.by == getattr(check, "HOST", None)
    if (claim.by not in seats and not host_claims) or claim.by == claim.seat:
        raise Tampered(number, f"a claim by {claim.by!r} against {claim.seat}: only another bound seat claims "
                               "(or a host game's host)")
    draws = walker.draws
    if draws is not None and draws.open is not None and bool(getattr(check, "host", "")):
        raise Tampered(number, f"a claim against {check._who(check.HOST)}, whose dice the game waits "
                               "for: the host is no seat and has no time limit; its store answers the draw, and a "
                               "host that never does is named, with its commitment, by `trv verify` and `trv show`")
    if draws is not None and draws.open is not None:
        waited, what = draws.waiting_for(), "reveal"
    else:
        waited, what = decision.player, "decision"
    if (waited, what) != (claim.seat, claim.unanswered):
        raise Tampered(number, f"the claim says the game waited for {claim.seat}'s {claim.unanswered}; it waited "
                               f"for {waited}'s {what}")
    if claim.seat in check.bots:
        raise Tampered(number, f"a claim against the bot seat {claim.seat}, which has no time limit")
    since, deadline, at = (parse_stamp(t) for t in (claim.since, claim.deadline, claim.at))
    if not since <= deadline <= at:
        raise Tampered(number, f"the claim's times are not in order (since {claim.since}, deadline "
                               f"{claim.deadline}, claimed {claim.at}): a claim comes after the deadline")
    control = parse_time_control(time)
    answers = sum(1 for g in walker.groups if g.action is not None and g.player == claim.seat)
    allowed = longest_answer(control, answers)
    # a seat that has answered nothing yet has used none of its reserve: its deadline is the whole of it
    exact = control.per_move is not None or (not answers and not _revealed(draws, claim.seat))
    if deadline - since > allowed or (exact and deadline - since != allowed):
        first = "" if control.per_move is not None or not exact else \
            f" ({claim.seat} has not answered before, so its whole reserve is left: {duration_text(allowed)})"
        raise Tampered(number, f"the claim's deadline ({claim.deadline}) is not what {time!r} gives from "
                               f"{claim.since}{first}")


def _revealed(draws: Any, seat: str) -> bool:
    """Whether ``seat`` revealed for a draw after the set-up (an exchange game's answer that is no action)."""
    if draws is None or not hasattr(draws, "setup") or seat not in getattr(draws, "seats", ()):
        return False
    if draws.open is not None and seat in draws.open["reveals"] and seat != draws.open["seat"]:
        return True
    return draws.last[seat] != draws.setup[draws.seats.index(seat)]


__all__ = ["Ended", "OUTCOME_OPENINGS", "confirm_late", "ended", "ended_in", "sentence_of"]
