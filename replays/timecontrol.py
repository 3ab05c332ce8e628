"""Time controls and the times of claims, as a record holds them (docs/fair-play.md, "Time limits").

A signed game's charter may carry a time control (``Charter.time``):

* ``3d``: each answer within three days of the record it answers (a move,
  as correspondence chess plays it);
* ``7d+1d``: a reserve of seven days for the whole game, one more day for
  each answer given (Fischer's increment, as Board Game Arena's turn-based
  games play it).

Units are ``m`` (minutes), ``h`` and ``d``, combined largest first (``1d12h``).
Everything here is pure: it reads no clock (the shell passes ``now`` and the
store's stamps; ``app/clock.py``).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any, NamedTuple, overload

from trvendetta.core.errors import TrvError

_UNITS = (("d", timedelta(days=1)), ("h", timedelta(hours=1)), ("m", timedelta(minutes=1)))
_PART = re.compile(r"([0-9]{1,4})([dhm])")
#: the longest time a control may give (a reserve, a move's limit, an increment)
LONGEST = timedelta(days=365)
#: how far a claim's times may lie from a receiving store's own (clocks that differ, the mail of the
#: record it answers): a claim whose deadline is earlier than the receiver's own by more, or made
#: later than the receiver's now by more, is refused there (docs/fair-play.md, "Time limits");
#: at most this, and at most a 24th of the time a first answer has (:func:`tolerance`)
CLOCK_TOLERANCE = timedelta(hours=1)


class TimeControl(NamedTuple):
    """``per_move`` (``3d``) or a ``reserve`` plus an ``increment`` an answer (``7d+1d``)."""

    per_move: timedelta | None = None
    reserve: timedelta | None = None
    increment: timedelta = timedelta(0)

    @property
    def reserve_time(self) -> timedelta:
        """The reserve of a control without ``per_move`` (:func:`parse_time_control` sets one of the two)."""
        if self.reserve is None:
            raise ValueError(f"a time control with neither a time an answer nor a reserve: {tuple(self)}")
        return self.reserve

    def __str__(self) -> str:
        if self.per_move is not None:
            return duration_text(self.per_move)
        return f"{duration_text(self.reserve_time)}+{duration_text(self.increment)}"

    def __repr__(self) -> str:
        return f"parse_time_control({str(self)!r})"

    def describe(self) -> str:
        """In words: "3d a move", "a reserve of 7d, plus 1d an answer"."""
        if self.per_move is not None:
            return f"{self} an answer"
        return f"a reserve of {duration_text(self.reserve_time)}, plus {duration_text(self.increment)} an answer"


def duration_text(span: timedelta) -> str:
    """``1d12h`` (largest units first; ``0m`` for nothing)."""
    minutes = int(span.total_seconds()) // 60
    out = []
    for unit, size in _UNITS:
        n, minutes = divmod(minutes, int(size.total_seconds()) // 60)
        if n:
            out.append(f"{n}{unit}")
    return "".join(out) or "0m"


def exact_text(span: timedelta) -> str:
    """``1h59m59s``: :func:`duration_text` to the second (a refusal compares two times exactly: a span
    rounded down to the minute would read as within what it allows)."""
    seconds = int(span.total_seconds())
    whole = duration_text(timedelta(seconds=seconds - seconds % 60))
    rest = seconds % 60
    return (whole if whole != "0m" or not rest else "") + (f"{rest}s" if rest else "")


def _duration(text: str, whole: str) -> timedelta:
    parts = _PART.findall(text)
    if not text or "".join(n + u for n, u in parts) != text or len({u for _, u in parts}) != len(parts):
        raise TrvError(f"--time {whole!r}: {text!r} is not a duration; give a number and a unit, m, h or d "
                       "(for example 3d, 12h, 1d12h)")
    span = sum((int(n) * dict(_UNITS)[u] for n, u in parts), timedelta(0))
    if span > LONGEST:
        raise TrvError(f"--time {whole!r}: {text!r} is longer than {LONGEST.days} days")
    return span


def parse_time_control(text: str) -> TimeControl:
    """``3d`` (an answer) or ``RESERVE+INCREMENT`` (``7d+1d``); one clear error otherwise."""
    legal = "give 3d (each answer within three days) or 7d+1d (a reserve of 7 days, plus 1 day an answer)"
    if not isinstance(text, str) or not text or text.count("+") > 1:
        raise TrvError(f"--time {text!r} is not a time control; {legal}")
    reserve, plus, increment = text.partition("+")
    if not plus:
        span = _duration(text, text)
        if span < timedelta(minutes=1):
            raise TrvError(f"--time {text!r}: an answer needs at least a minute; {legal}")
        return TimeControl(per_move=span)
    got = TimeControl(reserve=_duration(reserve, text), increment=_duration(increment, text))
    if got.reserve_time < timedelta(minutes=1):
        raise TrvError(f"--time {text!r}: the reserve needs at least a minute; {legal}")
    return got


def control_of(charter: Any) -> TimeControl | None:
    """A decoded charter's time control (None: no time limit)."""
    text = getattr(charter, "time", "") if charter is not None else ""
    return parse_time_control(text) if text else None


# ------------------------------------------------------------------ stamps
def stamp_text(when: datetime) -> str:
    """A claim's or resignation's time: UTC, to the second (``2026-12-01T20:30:00Z``)."""
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_stamp(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def utc(when: datetime) -> datetime:
    return when.replace(tzinfo=timezone.utc) if when.tzinfo is None else when.astimezone(timezone.utc)


# ------------------------------------------------------------------ the clock
class Waiting(NamedTuple):
    """Whose answer a game waits for, since when (this store's clock) and until when."""

    seat: str
    #: what it has to give: ``decision`` (an action) or ``reveal`` (its dice for an open draw)
    unanswered: str
    #: the record it has to answer (the game's last), and that record's hash
    after: int
    after_hash: str
    since: datetime
    #: None: no time limit (no control, or the host or a bot is to answer)
    deadline: datetime | None
    control: TimeControl | None

    def line(self, now: datetime | None = None) -> str:
        """"bob's move since 2026-12-01 20:30 UTC; deadline 2026-12-04 20:30 UTC (3d an answer)"."""
        what = "dice" if self.unanswered == "reveal" else "move"
        text = f"{self.seat}'s {what} since {_show(self.since)}"
        if self.deadline is None or self.control is None:  # (a deadline comes with its control)
            return text
        text += f"; deadline {_show(self.deadline)} ({self.control.describe()})"
        if now is not None and now >= self.deadline:
            text += ": passed, the others may claim the game (trv claim)"
        return text

    def to_dict(self) -> dict:
        return {"seat": self.seat, "unanswered": self.unanswered, "after": self.after,
                "since": stamp_text(self.since), "deadline": stamp_text(self.deadline) if self.deadline else None,
                "time": str(self.control) if self.control else None}


def _show(when: datetime) -> str:
    return utc(when).strftime("%Y-%m-%d %H:%M UTC")


def charged(stamps: list[datetime], makers: list[str | None]) -> tuple[dict[str, timedelta], dict[str, int]]:
    """Each seat's time used and answers given, by this store's clock: the time between a record's
    stamp and the one before is its maker's (records of one command share a stamp: nothing between);
    an answer is a run of one maker's records ended by another's."""
    used: dict[str, timedelta] = {}
    answers: dict[str, int] = {}
    for i in range(1, len(stamps)):
        maker = makers[i]
        if maker is None:
            continue
        gap = utc(stamps[i]) - utc(stamps[i - 1])
        if gap > timedelta(0):
            used[maker] = used.get(maker, timedelta(0)) + gap
        if i + 1 == len(stamps) or makers[i + 1] != maker:
            answers[maker] = answers.get(maker, 0) + 1
    return used, answers


@overload
def deadline_for(control: TimeControl, since: datetime, seat: str, used: dict[str, timedelta] | None = None,
                 answers: dict[str, int] | None = None) -> datetime: ...
@overload
def deadline_for(control: TimeControl | None, since: datetime, seat: str, used: dict[str, timedelta] | None = None,
                 answers: dict[str, int] | None = None) -> datetime | None: ...
def deadline_for(control: TimeControl | None, since: datetime, seat: str,
                 used: dict[str, timedelta] | None = None, answers: dict[str, int] | None = None) -> datetime | None:
    """When ``seat``'s time to answer, from ``since``, runs out: a move's limit, or what is left of
    its reserve (the reserve, plus the increment for each answer given, less the time used)."""
    if control is None:
        return None
    if control.per_move is not None:
        return utc(since) + control.per_move
    left = control.reserve_time + control.increment * (answers or {}).get(seat, 0) - (used or {}).get(seat, timedelta(0))
    return utc(since) + max(left, timedelta(0))


def tolerance(control: TimeControl) -> timedelta:
    """How far a receiving store lets a claim's times differ from its own under ``control``: an hour,
    or a 24th of a first answer's time when that is less (2m30s for ``1h``)."""
    return min(CLOCK_TOLERANCE, longest_answer(control, 0) / 24)


def longest_answer(control: TimeControl, answers: int) -> timedelta:
    """The most time a seat that gave ``answers`` answers can have for the next one (a claim's
    deadline is at most this after its start)."""
    if control.per_move is not None:
        return control.per_move
    return control.reserve_time + control.increment * answers


__all__ = ["CLOCK_TOLERANCE", "LONGEST", "TimeControl", "Waiting", "charged", "control_of", "deadline_for", "duration_text",
           "longest_answer", "parse_stamp", "parse_time_control", "stamp_text", "tolerance"]
