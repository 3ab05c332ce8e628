"""A game's end outside the rules: a claim on time and a resignation (docs/fair-play.md).

Both are store records (``trv-claim``, ``trv-resign``) appended after the
game's last record and sent like any packet.  Each names the record it
follows (``after`` and its hash) and is signed, in a game with bound seats,
over that: so a copy of it is valid wherever it lands after that record (a
store that had already taken the silent seat's late answer appends it after
that answer).  Nothing may follow it: the game is over, lost by the seat it
names (``Outcome``).

* :func:`claim` -- after a seat's deadline passed (``app.clock.waiting``, this
  store's clock the reference), another seat claims the game on time.
* :func:`resign` -- any bound seat resigns, in any signed game, at any time before the end.

``now`` is the caller's (the shell reads the clock; tests freeze it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from trvendetta.core.errors import TrvError
from trvendetta.replays.outcomes import OUTCOME_OPENINGS
from trvendetta.replays.timecontrol import duration_text, stamp_text
from trvendetta.core.fairplay import charter_of
from trvendetta.store import (CLAIM_KIND, RESIGN_KIND, Claim, GameStore, RawRecord, Resign, decode_charter,
                              decode_outcome, encode_draw)



class Outcome(NamedTuple):
    """How a claim or a resignation ended a game: ``loser`` lost (``how``: ``time`` or ``resigned``)
    at record ``number``."""

    number: int
    loser: str
    how: str
    record: Any  # the Claim or Resign

    def line(self) -> str:
        r = self.record
        if self.how == "time":
            return (f"game over: {r.seat} lost on time (claimed by {r.by} at {r.at}: {r.seat} had to answer "
                    f"event {r.after} by {r.deadline})")
        return f"game over: {r.seat} resigned (at {r.at})"


def outcome_in(number: int, payload: bytes) -> Outcome | None:
    """The outcome a record holds (None: not a claim or a resignation)."""
    if not payload.startswith(OUTCOME_OPENINGS):
        return None
    found = decode_outcome(payload)
    return Outcome(number, found.seat, "time" if isinstance(found, Claim) else "resigned", found)


def outcome_of(store: GameStore, game: str) -> Outcome | None:
    """The stored game's claim or resignation (its last record, but the host's reveal), if it ended so."""
    from trvendetta.replays.outcomes import last_record

    last = last_record(store, game)
    return None if last is None else outcome_in(last.number, last.payload)


def refuse_if_ended(store: GameStore, game: str) -> None:
    """One clear refusal for a command that would add to a game a claim or resignation ended."""
    ended = outcome_of(store, game)
    if ended is not None:
        raise TrvError(f"{ended.line()}; nothing more can be played in {game}")


def _signer(loaded: Any, game_id: str, keyring: Any, seat: str, after: int, after_hash: str) -> Any:
    """The signature of ``seat`` over the record as following record ``after`` (wherever it is appended)."""
    from trvendetta.replays.signatures import domain_at, entry, message

    def sign(number: int, previous: str, body: bytes) -> bytes:
        msg = message(domain_at(loaded.domain, game_id, after + 1), after + 1, after_hash, body)
        return entry(seat, keyring.sign(seat, msg))
    return sign


def _local_seat(keyring: Any, other_than: str | None, verb: str) -> str:
    mine = [s for s in keyring.local if s != other_than]
    if keyring.acting is not None:
        if keyring.acting not in keyring.local:
            raise TrvError(f"you act as {keyring.acting} (--as / $TRV_AS), whose key is not among your identities")
        if keyring.acting == other_than:
            raise TrvError(f"you act as {other_than}, the seat the game waits for: only another seat can {verb}")
        return keyring.acting
    if len(mine) != 1:
        which = ", ".join(sorted(mine)) or "none"
        raise TrvError(f"say which seat {verb}s with --as SEAT (your seats here: {which})")
    return mine[0]


def claim(store: GameStore, game: str, keyring: Any, now: datetime) -> Outcome:
    """Claim the game on time for a local seat: the game waits for another seat, whose deadline (by
    this store's clock) passed before ``now``.  Refused, saying why, otherwise."""
    from trvendetta.replays.signatures import HOST

    from .clock import waiting

    refuse_if_ended(store, game)
    meta = store.header(game)
    charter = decode_charter(meta.charter) if meta.charter else None
    if charter is None or not charter.time:
        raise TrvError(f"game {game} has no time limit (a signed game made with --time has one); nothing to claim; "
                       "to end it, a player resigns: trv resign")
    w = waiting(store, game)
    if w is None:
        raise TrvError(f"game {game} is over; nothing to claim")
    if w.seat == HOST:
        raise TrvError(f"game {game} waits for the host's dice since {stamp_text(w.since)}; the host is not a seat, "
                       "so there is no claim against it (in a tournament, ask the organiser for a ruling)")
    if w.deadline is None:
        raise TrvError(f"game {game} waits for {w.seat}, who has no time limit (a bot seat)")
    if keyring.acting == w.seat or set(keyring.local) == {w.seat}:
        raise TrvError(f"game {game} waits for your own {'dice' if w.unanswered == 'reveal' else 'move'} "
                       f"({w.seat}); only another seat can claim it")
    by = _local_seat(keyring, w.seat, "claim")
    if now < w.deadline:
        raise TrvError(f"{w.line()}: not passed yet ({_left(w.deadline - now)} left); claim after it")
    record = Claim(w.seat, by, w.after, w.after_hash, w.unanswered, str(w.control), stamp_text(w.since),
                   stamp_text(w.deadline), stamp_text(now))
    return _append(store, game, CLAIM_KIND, record, by, keyring, w.after, w.after_hash)


def resign(store: GameStore, game: str, keyring: Any, now: datetime, seat: str | None = None) -> Outcome:
    """``seat`` (a local bound seat; ``--as``) resigns: the game ends, lost by it."""
    refuse_if_ended(store, game)
    loaded = store.load(game)
    if not loaded.charter:
        raise TrvError(f"game {game} is a hot-seat game (no seat bound to a key): a resignation is a signed event, "
                       "and nothing here would show who made it; the players simply stop")
    ruleset = loaded.ruleset
    if ruleset.pending(loaded.state) is None:
        raise TrvError(f"game {game} is over already; nobody can resign it")
    players = [p.get("name", "") for p in ruleset.view(loaded.state).get("players", [])]
    charter = charter_of(loaded.charter)
    seat = seat or _local_seat(keyring, None, "resign")
    if seat not in players:
        raise TrvError(f"no player called {seat!r} in {game}; the players: {', '.join(players)}")
    if seat in charter.bots:
        raise TrvError(f"{seat} is a bot seat; a bot does not resign")
    if seat not in keyring.local:
        raise TrvError(f"{seat}'s seat is bound to a key that is not among your identities; only {seat} can "
                       f"resign for {seat}" if seat in charter.seats else
                       f"{seat}'s seat is not bound to a key: nothing would show that {seat} resigned")
    after = loaded.version
    after_hash = store.events_head(game, after)
    record = Resign(seat, after, after_hash, stamp_text(now))
    return _append(store, game, RESIGN_KIND, record, seat, keyring, after, after_hash)


def _held(outcome: Outcome | None) -> Outcome:
    """The outcome of a record written as a claim or a resignation (which holds one)."""
    if outcome is None:
        raise ValueError("a claim or a resignation that holds no outcome")
    return outcome


def _append(store: GameStore, game: str, kind: str, record: Any, seat: str, keyring: Any, after: int,
            after_hash: str, at: int | None = None) -> Outcome:
    """Append the record right after record ``after``, the last the caller read (``waiting``, or the
    game loaded to resign): if the game moved on since (another process took a move), nothing is
    written (``GameMovedOn``; the server answers 409), never a claim after moves it did not see.
    ``at``: append after that record instead (a test forging a claim kept back)."""
    at = after if at is None else at
    loaded = store.load(game)
    sign = _signer(loaded, store.events_head(game, 1), keyring, seat, after, after_hash)
    store.append(game, at, records=[RawRecord(kind, 1, encode_draw(record), b"", sign)])
    return _held(outcome_in(at + 1, encode_draw(record)))


def _left(span: Any) -> str:
    return duration_text(span) if span.total_seconds() >= 60 else "less than a minute"


__all__ = ["Late", "Outcome", "claim", "crossed", "outcome_in", "outcome_of", "refuse_if_ended", "resign"]


class Late(NamedTuple):
    """A packet that crossed a claim: ``appended`` the claim (this store had the silent seat's late
    answer), else the packet is the late answer itself, kept as evidence (the game stays over)."""

    outcome: Outcome
    appended: bool


def crossed(store: GameStore, game: str, gf: Any, now: datetime | None = None) -> Late | None:
    """A packet (or record) of ``game`` that forks from this store's copy because a claim crossed an
    answer in the mail; None when it is not that (the import's own refusal then stands).

    * This store's game ended (a claim or a resignation) and the packet holds other records after the
      point it ended at: the late answer; nothing is written (the caller keeps the file as evidence).
    * The packet ends with a claim on this game that names a record this store has, and this store
      has more after it (the silent seat's late answer, made here): the claim is appended after them,
      checked by a walk of the game (``replays.audit.confirm_late_claim``), and the game is over; unless
      this store's stamps show that answer came before the deadline (``app.clock.check_received``,
      with ``now``, this store's clock): the claim crossed an answer in time and is refused."""
    from trvendetta.replays import AlreadyApplied

    mine = outcome_of(store, game)
    records = list(gf.records)
    if mine is not None:
        h, after = gf.header, mine.record.after
        if gf.kind == "packet":
            same = h.since <= after and store.events_head(game, h.since) == h.since_hash
        else:
            same = bool(records) and records[0].hash == store.events_head(game, 1)
        if same and records and records[-1].payload.startswith(OUTCOME_OPENINGS) and \
                store.events(game, since=mine.number - 1, upto=mine.number, decode=False)[0].payload \
                == records[-1].payload:
            raise AlreadyApplied(f"already applied: this database has its claim (event {mine.number}); "
                                 "nothing was written")
        return Late(mine, False) if same and records and records[-1].number > after else None
    if not records:
        return None
    theirs = outcome_in(0, records[-1].payload)
    if theirs is None or not isinstance(theirs.record, Claim):
        return None
    found, version = theirs.record, store.version(game)
    if not found.after < version or store.events_head(game, found.after) != found.after_hash:
        return None
    have = {r.number: r for r in store.events(game, since=max(records[0].number - 1, 0), upto=found.after,
                                              decode=False)}
    for r in records[:-1]:  # what the packet holds up to the claim's point is this store's, byte for byte
        m = have.get(r.number)
        if r.number <= found.after and (m is None or (m.hash, m.payload, m.sig) != (r.hash, r.payload, r.sig)):
            return None
    if now is not None:
        from .clock import check_received

        check_received(store, game, found, [], now)
    _check_appended(store, game, records[-1], version)
    # at the version checked: a move another process took since refuses it (GameMovedOn), nothing written
    store.append(game, version, records=[RawRecord(CLAIM_KIND, 1, records[-1].payload, b"", records[-1].sig)])
    return Late(_held(outcome_in(version + 1, records[-1].payload)), True)


def _check_appended(store: GameStore, game: str, claim: Any, version: int) -> None:
    """The claim walked after this store's first ``version`` records, as it would be appended (raises
    naming what is wrong)."""
    from trvendetta import rulesets
    from trvendetta.replays.audit import confirm_late_claim
    from trvendetta.replays.resume import walker_for
    from trvendetta.store import StoredEvent, chain

    meta = store.header(game)
    ruleset = rulesets.get(meta.ruleset)
    mine = store.events(game, upto=version, decode=False)
    walker = walker_for(ruleset, meta.charter, meta.domain, start=meta.genesis)
    walker.feed_all(mine)
    head = walker.head
    walker.feed(StoredEvent(len(mine) + 1, CLAIM_KIND, meta.ruleset, 1, claim.payload,
                            chain(head, claim.payload, b"", claim.sig), head, None, None, b"", None, claim.sig))
    walker.end()
    confirm_late_claim(walker, ruleset, meta.charter, meta.domain, meta.genesis,
                       store.events(game, upto=claim_after(claim), decode=False))


def claim_after(record: Any) -> int:
    return decode_outcome(record.payload).after
