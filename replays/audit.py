"""Export, import, play-by-email packets, verify, undo, fork and claims.

Every operation walks the records with :class:`replays.walker.Walker`; the
store is used only through ``GameStore``'s API.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import wraps
from typing import Any

import msgspec

from trvendetta.store.records import charter_dice, decode_bots, encode_bots
from trvendetta.store import (CLAIM_KIND, GENESIS, RESIGN_KIND, RETRACTION_KIND, REVOKE_KIND, STORE_KINDS, DamagedStore, GameStore, RawRecord, Retraction,
                         StoredEvent, chain, encode_retraction, genesis)
from trvendetta import rulesets
from trvendetta.core.errors import TrvError
from trvendetta.core.names import name_problem

from . import record as fmt
from .integrity import Heads, IncompleteExport, index_row, missing_tail, readable, store_damage, walk_noting
from .moves import MovesVisitor
from .resume import BEFORE, resumable, tail_walk, walker_after, walker_for
from .signatures import entry, fork_domain, message
from .walker import AuditError, Divergence, Group, Tampered, Walker, undo_refusal


class AlreadyApplied(TrvError):
    """A packet whose every event this database already has (not an error: exit 0)."""


class PacketRefused(TrvError):
    """A turn packet that does not extend this database's game exactly."""

    def __init__(self, reason: str, message: str):
        self.reason = reason  # stale | forked | out of order | other game | tampered
        super().__init__(f"packet refused ({reason}): {message}; nothing was written")


@dataclass
class Verified:
    events: int
    head: str
    note: str
    walker: Walker
    #: bot seats the hash chain does not cover (a game stored before they were chained)
    bots_unchained: bool = False

    @property
    def signed(self) -> dict[str, int]:
        """The seats bound to keys, with the number of their signatures checked."""
        check = self.walker.signatures
        return {seat: check.checked.get(seat, 0) for seat in check.seats} if check else {}

    @property
    def rolls_unchecked(self) -> bool:
        """A host game whose host has not revealed its seed yet: the rolls cannot be re-executed."""
        return getattr(self.walker.draws, "checkable", True) is False

    @property
    def unsigned(self) -> list[str]:
        """The seats whose actions nothing ties to a player (not bound to a key)."""
        check = self.walker.signatures
        players = [p.strip() for p in players_text(self.walker.ruleset, self.walker.state).split(",") if p.strip()]
        return [p for p in players if not check or p not in check.seats]


def rules_note(ruleset: Any, recorded: str) -> str:
    """A plain sentence when the record's rules version is not one this program
    re-executes (``Ruleset.rules_versions``: a game recorded under an earlier
    version that the rules still play, as it was played, needs no note)."""
    if str(recorded) in {str(v) for v in (ruleset.rules_version, *ruleset.rules_versions)}:
        return ""
    return (f"The game was recorded under {ruleset.name} rules version {recorded}; this trv has version "
            f"{ruleset.rules_version}: the rules versions differ.")


def result_text(ruleset: Any, state: Any) -> str:
    if not ruleset.is_over(state):
        return "playing"
    winner = ruleset.winner(state)
    return f"{winner} wins" if winner else "no winner"


def players_text(ruleset: Any, state: Any) -> str:
    return ", ".join(seat.name for seat in ruleset.seats(state))


def without_cyclic_gc(fn: Any) -> Any:
    """Run ``fn`` with Python's cyclic garbage collector paused.

    Reading a long game makes millions of small objects (records, events,
    states) and no reference cycles; the collector kept scanning them for
    nothing (verify and export of a 100k-event game ran 1.3-2x slower with
    it, issue 16).  Reference counting still frees everything as usual."""

    @wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        if not gc.isenabled():
            return fn(*args, **kwargs)
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            gc.enable()

    return run


# -------------------------------------------------------------------- export
@without_cyclic_gc
def export(store: GameStore, game: str, since: int | None = None, *, created: bool = False) -> str:
    """The game record of ``game`` (``since`` None), or the turn packet of the
    records after event ``since``.  Deterministic: the same game exports to
    the same bytes from every store, unless ``created`` asks for the store's
    own creation time (the ``Created`` tag).  A damaged game raises
    :class:`IncompleteExport` carrying the file of the events that can be
    read (``readable``): the caller writes it and says it is incomplete.
    A packet's records are walked from the stored state after ``since``
    (``replays.resume``), not from event 1."""
    records, damage = readable(store, game)
    meta = store.header(game)
    ruleset = rulesets.get(meta.ruleset)
    if since is not None and not 0 <= since <= len(records):
        raise TrvError(f"game {game!r} has {len(records)} events; --since must be 0 to {len(records)}")

    def whole() -> tuple[Walker, MovesVisitor]:
        moves = MovesVisitor(since or 0)
        return walker_for(ruleset, meta.charter, meta.domain, [moves], start=meta.genesis).walk(records), moves

    def packet() -> tuple[Walker, MovesVisitor]:
        moves = MovesVisitor(since or 0)
        walker = walker_after(store, game, since or 0, [moves])
        return (walker.walk(records[since or 0:]), moves) if walker is not None else whole()

    walker, moves = resumable(packet, whole) if since and damage is None else whole()
    head = records[-1].hash if records else meta.genesis
    header = fmt.Header(
        game=game,
        ruleset=ruleset.name,
        rules_version=meta.rules_version,
        game_id=records[0].hash if records else GENESIS,
        events=len(records),
        head=head,
        players=players_text(ruleset, walker.state),
        seed=str(_seed(ruleset, walker.state)),
        bots=encode_bots(meta.bots),
        created=meta.created.isoformat(timespec="seconds") if created else "",
        parent=meta.parent,
        parent_at=meta.parent_at,
        charter=meta.charter,
        domain=meta.domain,
        result=result_text(ruleset, walker.state),
        since=since or 0,
        since_hash=(records[since - 1].hash if since else meta.genesis if since is not None else GENESIS),
    )
    kind = "record" if since is None else "packet"
    text = fmt.write(kind, header, moves.text(ruleset), records if since is None else records[since:])
    if damage is not None:
        raise IncompleteExport(damage, text, len(records))
    return text


def _seed(ruleset: Any, state: Any) -> Any:
    try:
        return ruleset.seed(state)
    except AttributeError:
        return ""


# -------------------------------------------------------------------- verify
def verify_game(store: GameStore, game: str) -> Verified:
    """Re-execute every recorded action of a stored game and check every byte;
    damage is named in full (other commands only point here)."""
    try:
        return _verify_game(store, game)
    except DamagedStore as exc:
        raise exc.in_full() from None


@without_cyclic_gc
def _verify_game(store: GameStore, game: str) -> Verified:
    meta = store.header(game)
    ruleset = rulesets.get(meta.ruleset)
    note = rules_note(ruleset, meta.rules_version)
    # every link checked as it is read (the walk checks that they follow one another, ``chained``); their
    # wall-clock stamps are not verify's, and not read
    records = store.events(game, decode=False, stamped=False)
    # their heads checked against these records; their states decoded after the walk, when not the fold's bytes
    snapshots = store.snapshots(game, Heads(records), decode=False)
    info = index_row(store, game)
    missing_tail(game, len(records), info, snapshots)
    host = charter_dice(meta.charter) == "host"
    walker = walker_for(ruleset, meta.charter, meta.domain, reexecute=True, rules_note=note,
                        records=records if host else None, start=meta.genesis, chained=True)
    cached = store.index_state(game, Heads(records), decode=False)
    states = walk_noting(walker, records, [s.number for s in snapshots] + ([cached.number] if cached else []))
    if walker.outcome is not None and walker.outcome.late:
        confirm_late_claim(walker, ruleset, meta.charter, meta.domain, meta.genesis,
                           store.events(game, upto=walker.outcome.record.after, decode=False))
    problems = store_damage(store, walker, info, snapshots, states, cached)
    if problems:
        more = f" (and {len(problems) - 1} more: {'; '.join(problems[1:])})" if len(problems) > 1 else ""
        raise DamagedStore(game, None, f"events 1-{walker.number} verify, but {problems[0]}{more}")
    return Verified(walker.number, walker.head, note, walker, meta.bots_unchained)


def confirm_late_claim(walker: Walker, ruleset: Any, charter: str, domain: str, start: str, prefix: Any) -> None:
    """A claim appended after the silent seat's late answer (``walker.outcome.late``): checked against the
    game as it stood at the record the claim names (``prefix``: the records to it, walked again)."""
    from .outcomes import confirm_late

    at = walker_for(ruleset, charter, domain, start=start)
    at.feed_all(prefix)
    confirm_late(at, walker.outcome, Tampered)


def read_file(data: bytes, source: str = "file") -> fmt.GameFile:
    """A record or packet, plain or in an armoured block pasted anywhere in a mail (``replays.mail``)."""
    from .mail import unwrap

    return fmt.read(unwrap(data, fmt.MAX_FILE_BYTES, source), source)


@without_cyclic_gc
def verify_file(gf: fmt.GameFile) -> Verified:
    """Re-execute a game record file (not a packet: it needs the game before it)."""
    if gf.kind != "record":
        raise TrvError("a turn packet holds only part of a game: import it into the game's database, "
                       "then run `trv verify GAME`")
    ruleset = rulesets.get(gf.header.ruleset)
    note = rules_note(ruleset, gf.header.rules_version)
    moves = MovesVisitor()
    walker = walker_for(ruleset, gf.header.charter, gf.header.domain, [moves], reexecute=True, start=gf.genesis,
                        rules_note=note, records=gf.records).walk(gf.records)
    if walker.outcome is not None and walker.outcome.late:
        confirm_late_claim(walker, ruleset, gf.header.charter, gf.header.domain, gf.genesis,
                           gf.records[:walker.outcome.record.after])
    _check_summary(gf, walker, moves)
    return Verified(walker.number, walker.head, note, walker, gf.bots_unchained)


def _check_summary(gf: fmt.GameFile, walker: Walker, moves: MovesVisitor) -> None:
    """The header and the move text must say what the events say."""
    h = gf.header
    if gf.records and h.game_id != gf.records[0].hash and h.since == 0:
        raise Tampered(1, "the header's GameId is not the hash of event 1")
    if gf.moves != moves.text(walker.ruleset):
        raise fmt.FileError("the move text does not match the events (it was edited); the events are the record")
    rs, state = walker.ruleset, walker.state
    for tag, said, derived in (("Players", h.players, players_text(rs, state)),
                               ("Seed", h.seed, str(_seed(rs, state))),
                               ("Result", h.result, result_text(rs, state))):
        if said != derived:
            raise fmt.FileError(f"the header's {tag} says {said!r} but the events say {derived!r}")
    first = getattr(walker, "_first_event", None)
    recorded = getattr(first, "rules_version", None)
    if recorded is not None and str(recorded) != h.rules_version:
        raise fmt.FileError(f"the header's RulesVersion says {h.rules_version!r} but event 1 says {str(recorded)!r}")
    seats = {seat.name for seat in rs.seats(state)} if gf.records else set()
    from trvendetta.bots import bot_names

    for seat, bot in decode_bots(h.bots).items():
        if seat not in seats or bot not in bot_names():
            raise fmt.FileError(f"the header's Bots names {seat!r} ({bot!r}); the seats are {', '.join(sorted(seats))} "
                                f"and the bots {', '.join(bot_names())}")
    if not h.parent and h.parent_at:
        raise fmt.FileError(f"the header's ParentAt is {h.parent_at} but it names no Parent")
    if h.parent:
        problem = name_problem(h.parent)
        if problem is not None:
            raise fmt.FileError(f"the header's Parent: {problem}")
        if not any(g.last == h.parent_at for g in walker.groups):
            raise fmt.FileError(f"the header's ParentAt {h.parent_at} is not the end of an action of this game; "
                                "a fork shares whole actions")


# -------------------------------------------------------------------- import
def import_file(store: GameStore, gf: fmt.GameFile, name: str | None = None,
                admit: Callable[[Walker, list[Any]], None] | None = None) -> tuple[str, int, str]:
    """Import a record (a new game) or a packet (extends a game). Returns (game, events, head).
    ``admit``: called with the walk and the new records (a new game's: all of them) once they are
    checked, before anything is written (it raises to refuse them)."""
    if gf.kind == "packet":
        return import_packet(store, gf, admit)
    if name is None and _same_game(store, gf):
        # the record of a game this store has (`trv send` writes the whole record until another player
        # has made something): its new part applies like a packet's, after the overlap is checked
        return import_packet(store, msgspec.structs.replace(
            gf, kind="packet", header=msgspec.structs.replace(gf.header, since=0, since_hash=genesis(gf.header.charter))),
            admit)
    verified = verify_file(gf)
    if verified.note:
        raise TrvError(verified.note + " Import it with the trv it was played with.")
    from .sameid import refuse_second_copy

    refuse_second_copy(store, gf)
    if admit is not None:  # a game this store did not hold: every record of it is new here
        admit(verified.walker, list(gf.records))
    game = name or gf.header.game
    if name is None and name_problem(game) is not None:
        raise TrvError(f"the record's game name: {name_problem(game)}; import it under another: --name NEW")
    h = gf.header
    records = [RawRecord(_kind_of(r, verified.walker), 1, r.payload, r.action, r.sig) for r in gf.records]
    parent_head = gf.records[h.parent_at - 1].hash if h.parent and 1 <= h.parent_at <= len(gf.records) else ""
    if parent_head and store.exists(h.parent) and store.version(h.parent) >= h.parent_at \
            and store.events_head(h.parent, h.parent_at) != parent_head:
        raise TrvError(f"the record says it forks {h.parent!r} after event {h.parent_at}, but this store's "
                       f"{h.parent!r} has another event {h.parent_at}: the Parent tags are not this game's")
    loaded = store.create_game(game, h.ruleset, records=records, parent=h.parent, parent_at=h.parent_at,
                               parent_head=parent_head, charter=h.charter, domain=h.domain, bots=decode_bots(h.bots),
                               rules_version=h.rules_version, store_schema=gf.store_schema)
    if loaded.head != verified.head:  # cannot happen: the same bytes chain the same way
        raise TrvError(f"imported head {loaded.head} differs from the record's {verified.head}")
    return game, loaded.version, loaded.head


def _same_game(store: GameStore, gf: fmt.GameFile) -> bool:
    """Whether this store holds the game of record ``gf`` (same name, same first event)."""
    game = gf.header.game
    if not store.exists(game):
        return False
    return store.version(game) >= 1 and store.events_head(game, 1) == gf.header.game_id


def _kind_of(record: StoredEvent, walker: Walker) -> str:
    if record.number in walker.retractions:
        return RETRACTION_KIND
    if walker.outcome is not None and record.number == walker.outcome.number:
        return CLAIM_KIND if walker.outcome.how == "time" else RESIGN_KIND
    if walker.revocations and record.number in walker.revocations:
        return REVOKE_KIND
    if walker.draws is not None:
        from .walker import _typed

        kind = _typed.decode(record.payload).type
        if kind in STORE_KINDS:
            return kind
    return walker.ruleset.event_kind(walker.ruleset.decode_event(record.payload))


def import_packet(store: GameStore, gf: fmt.GameFile,
                  admit: Callable[[Walker, list[Any]], None] | None = None) -> tuple[str, int, str]:
    """Append a packet's new records, checked from this store's state: the
    records before the packet are not walked again (``replays.resume``),
    unless it takes back an action from before its start."""
    h = gf.header
    game = h.game
    if not store.exists(game):
        raise PacketRefused("other game", f"it is for game {game!r}, which this database does not have")
    meta = store.header(game)
    ruleset = rulesets.get(meta.ruleset)
    now = store.version(game)
    game_id = store.events_head(game, 1) if now else ""
    if h.ruleset != meta.ruleset or not now or game_id != h.game_id:
        raise PacketRefused("other game", f"it is for another game called {game!r} (its first event is "
                                          f"{h.game_id[:16]}..., this database's is {game_id[:16] or '-'}...)")
    # the packet's own chain, from the hash it claims to follow
    head = h.since_hash
    for r in gf.records:
        link = chain(head, r.payload, r.action, r.sig)
        if link != r.hash:
            raise PacketRefused("tampered", f"event {r.number}: the hash does not follow from event "
                                            f"{r.number - 1} and this event's content")
        head = link
    since = h.since
    if since > now:
        raise PacketRefused("out of order", f"it starts after event {since} but this database has only "
                                            f"{now} events; import the packets before it first")
    mine_at = store.events_head(game, since)
    if mine_at != h.since_hash:
        raise PacketRefused("forked", f"it follows a different event {since} than this database's "
                                      f"({h.since_hash[:16]}... vs {mine_at[:16]}...)")
    theirs = list(gf.records)
    have: Sequence[StoredEvent] = []
    if since < now:
        # the part this database has must be the same, byte for byte; the rest is applied
        have = store.events(game, since=since, decode=False)
        for r, m in zip(theirs, have):
            if (r.hash, r.payload, r.action, r.sig) != (m.hash, m.payload, m.action, m.sig):
                raise PacketRefused("forked", f"its event {r.number} differs from this database's event "
                                              f"{r.number}: the two games have branched")
        if len(theirs) <= now - since:
            raise AlreadyApplied(f"already applied: this database has its events ({since + 1} to {h.events}) "
                                 f"and is at event {now}; nothing was written")
        theirs = theirs[now - since:]
    note = rules_note(ruleset, meta.rules_version)

    def whole() -> tuple[Walker, MovesVisitor]:
        mine = store.events(game)
        moves = MovesVisitor(since)
        walker = walker_for(ruleset, meta.charter, meta.domain, [moves], rules_note=note, records=[*mine, *theirs],
                            start=meta.genesis)
        for r in mine:
            walker.feed(r)
        walker.start_checking()
        return walker, moves

    def resumed() -> tuple[Walker, MovesVisitor]:
        # from the stored state after ``since``; the part this store has (checked byte
        # for byte above, as `trv send` repeats a turn so far) is folded, not re-executed
        moves = MovesVisitor(since)
        walker = walker_after(store, game, since, [moves], rules_note=note, records=[*have, *theirs])
        if walker is None:
            return whole()
        for r in have:
            walker.feed(r)
        walker.start_checking()
        return walker, moves

    def check(start: Callable[[], tuple[Walker, MovesVisitor]]) -> tuple[Walker, MovesVisitor]:
        walker, moves = start()
        for r in theirs:
            walker.feed(r)
        walker.end()
        return walker, moves

    try:
        walker, moves = resumable(lambda: check(resumed), lambda: check(whole))
    except AuditError as exc:
        raise PacketRefused("tampered", str(exc).replace("\n", " ")) from None
    if walker.outcome is not None and walker.outcome.late:
        try:
            confirm_late_claim(walker, ruleset, meta.charter, meta.domain, meta.genesis,
                               store.events(game, upto=walker.outcome.record.after, decode=False))
        except AuditError as exc:
            raise PacketRefused("tampered", str(exc).replace("\n", " ")) from None
    if gf.moves != moves.text(ruleset):
        raise PacketRefused("tampered", "its move text does not match its events")
    if admit is not None:
        admit(walker, theirs)
    records = [RawRecord(_kind_of(r, walker), 1, r.payload, r.action, r.sig) for r in theirs]
    loaded = store.append(game, now, records=records)
    return game, loaded.version, loaded.head


# ---------------------------------------------------------------------- undo
def _undo_walk(store: GameStore, game: str, takes: Callable[[list[Group]], Group | None]) -> Walker:
    """The game walked far enough back for an undo: ``takes(live_actions)`` names the oldest
    group the undo reads, which must have been walked (not the stand-in for the actions
    before a resumed walk's start, ``replays.resume.tail_walk``)."""
    meta = store.header(game)
    ruleset = rulesets.get(meta.ruleset)

    def enough(walker: Walker, at: int) -> bool:
        group = takes(walker.live_actions)
        return group is not None and group.action is not BEFORE

    def whole(visitors: list[Any]) -> Walker:
        return walker_for(ruleset, meta.charter, meta.domain, start=meta.genesis).walk(store.events(game))

    return tail_walk(store, game, store.events(game, decode=False), list, enough, whole)[0]


def _bots_chain(live: list[Group], bots: set[str]) -> list[Group]:
    """The live actions ``undo`` takes back in a game with bot seats, newest first: the bots'
    after the last human one, and that one (the last is a bot's when only bots played)."""
    chain_: list[Group] = []
    for group in reversed(live):
        chain_.append(group)
        if group.action is BEFORE or group.player not in bots:
            break
    return chain_


def plan_undo(store: GameStore, game: str, *, agreed: bool) -> tuple[Retraction, Group, Walker]:
    """The retraction ``trv undo`` would append, or a TrvError saying why not.  The game is
    walked from its stored state before its last actions (``_undo_walk``), not from event 1."""
    walker = _undo_walk(store, game, lambda live: live[-1] if live else None)
    ruleset = walker.ruleset
    _no_open_draw(walker)
    live = walker.live_actions
    if not live:
        raise TrvError(f"game {game!r}: no action to take back")
    group = live[-1]
    refusal = undo_refusal(ruleset, group, walker.state, agreed=agreed)
    if refusal:
        what = ruleset.describe_action(group.action)
        raise TrvError(f"cannot take back {group.player}'s {what!r} (events {group.first}-{group.last}): {refusal}")
    return Retraction(group.first, group.last, group.player, agreed), group, walker


def _no_open_draw(walker: Walker) -> None:
    """An exchange game's open draw is finished before anything is taken back."""
    draws = walker.draws
    if draws is not None and draws.open is not None:
        raise TrvError(f"draw {draws.open['draw']} is open (waiting for {draws.waiting_for()}'s dice); "
                       "take an action back once it is resolved")
    if getattr(draws, "revealed_at", 0):
        raise TrvError(f"the host revealed the game's secret seed at event {draws.revealed_at}: every later "
                       "roll would be known in advance, so nothing can be taken back and played again")


def undo(store: GameStore, game: str, *, agreed: bool = False,
         keyring: Any = None) -> tuple[Retraction, Group, Any]:
    retraction, group, walker = plan_undo(store, game, agreed=agreed)
    records = sign_retractions(walker, [retraction], [group], keyring)
    loaded = store.append(game, walker.number, records=records)
    return retraction, group, loaded


def sign_retractions(walker: Walker, retractions: list[Retraction], groups: list[Group],
                     keyring: Any) -> list[RawRecord]:
    """The retraction records, signed in a game with bound seats: by the
    player taking the action back, and an agreed one by every bound seat
    (``keyring.sign(seat, message)`` for the seats whose keys are here)."""
    check = walker.signatures
    if check is None:
        return [RawRecord(RETRACTION_KIND, 1, encode_retraction(r)) for r in retractions]
    out = []
    number, previous = walker.number, walker.head
    for retraction, group in zip(retractions, groups):
        payload = encode_retraction(retraction)
        number += 1
        taker = retraction.player
        from .setups import bot_retraction_problem

        problem = bot_retraction_problem(check.charter, taker, group.player)
        if problem:
            raise TrvError(f"not taken back: {problem}")
        needed = sorted(check.seats) if retraction.agreed else [taker] if taker is not None and taker in check.seats \
            else []
        missing = [s for s in needed if keyring is None or not keyring.can_sign(s)]
        if missing:
            what = walker.ruleset.describe_action(group.action)
            raise TrvError(f"taking back {group.player}'s {what!r} needs the signature of {', '.join(missing)}, "
                           f"whose key is not among your identities: "
                           + ("an agreed undo is signed by every bound seat" if retraction.agreed else
                              "only the player taking an action back may sign it"))
        msg = message(check.domain(number), number, previous, payload)
        sig = b" ".join(entry(seat, keyring.sign(seat, msg)) for seat in needed) if keyring is not None else b""
        # (no keyring: nobody is needed, or ``missing`` named them)
        out.append(RawRecord(RETRACTION_KIND, 1, payload, b"", sig))
        previous = chain(previous, payload, b"", sig)
    return out


def plan_undo_with_bots(store: GameStore, game: str, bots: set[str], *,
                        agreed: bool) -> list[tuple[Retraction, Group]]:
    """In a game with bot seats: take back the bots' actions after the last
    human action, and that action, newest first (one retraction each).

    A bot always agrees, so these retractions are recorded as agreed; but
    taking back an action that revealed new information (a die roll, a
    token), or any action once the game is over, still needs --agreed."""
    return _plan_with_bots(store, game, bots, agreed=agreed)[0]


def _plan_with_bots(store: GameStore, game: str, bots: set[str], *,
                    agreed: bool) -> tuple[list[tuple[Retraction, Group]], Walker]:
    walker = _undo_walk(store, game, lambda live: _bots_chain(live, bots)[-1] if live else None)
    ruleset = walker.ruleset
    _no_open_draw(walker)
    live = walker.live_actions
    if not live:
        raise TrvError(f"game {game!r}: no action to take back")
    chain_ = _bots_chain(live, bots)
    if chain_[-1].player in bots:
        raise TrvError(f"game {game!r}: no human action to take back (only bots have played)")
    if not agreed:
        if ruleset.is_over(walker.state):
            raise TrvError("the game is over; take the last action back only with --agreed")
        for group in chain_:
            if group.reveals:
                what = ruleset.describe_action(group.action)
                raise TrvError(f"cannot take back {group.player}'s {what!r} (events {group.first}-{group.last}): "
                               f"event {group.reveals} revealed new information; take it back only with --agreed")
    human = chain_[-1].player
    if len(chain_) == 1:
        refusal = undo_refusal(ruleset, chain_[0], walker.state, agreed=agreed)
        if refusal:
            what = ruleset.describe_action(chain_[0].action)
            raise TrvError(f"cannot take back {human}'s {what!r} (events {chain_[0].first}-{chain_[0].last}): "
                           f"{refusal}")
        return [(Retraction(chain_[0].first, chain_[0].last, human, agreed), chain_[0])], walker
    return [(Retraction(g.first, g.last, human, True), g) for g in chain_], walker


def undo_with_bots(store: GameStore, game: str, bots: set[str], *, agreed: bool = False,
                   keyring: Any = None) -> tuple[list[tuple[Retraction, Group]], Any]:
    """Append the retractions of :func:`plan_undo_with_bots` in one save."""
    plan, walker = _plan_with_bots(store, game, bots, agreed=agreed)
    records = sign_retractions(walker, [r for r, _ in plan], [g for _, g in plan], keyring)
    loaded = store.append(game, walker.number, records=records)
    return plan, loaded


def plan_undo_turn(store: GameStore, game: str, bots: set[str], *,
                   agreed: bool) -> tuple[list[tuple[Retraction, Group]], Walker]:
    """``trv undo --turn``: take back a whole move, newest first: the bots' actions after the last
    human one (a game with bot seats), then that player's actions back to the start of their turn
    (the action after the last one whose events started a turn: ``turn-started``).  Without
    ``agreed``, refused past new information (a roll, a token) or once the turn has passed to
    another player (a bot's answer aside)."""
    kinds: dict[int, str] = {}

    def starts_turn(group: Group) -> bool:
        if not kinds:
            kinds.update((r.number, r.kind) for r in store.events(game, decode=False, stamped=False))
        return any(kinds.get(n) == "turn-started" for n in range(group.first, group.last + 1))

    def turn(live: list[Group]) -> list[Group]:
        taken: list[Group] = []
        for group in reversed(live):
            if group.action is BEFORE:
                return [*taken, group]  # walk further back
            if group.action is None:  # the set-up
                break
            human = next((g.player for g in taken if g.player not in bots), None)
            if taken and (human is not None and (group.player != human or starts_turn(group))):
                break
            taken.append(group)
        return taken

    walker = _undo_walk(store, game, lambda live: turn(live)[-1] if turn(live) else None)
    ruleset = walker.ruleset
    _no_open_draw(walker)
    taken = turn(walker.live_actions)
    if not taken or all(g.player in bots for g in taken):
        raise TrvError(f"game {game!r}: no move to take back" + (" (only bots have played)" if taken else ""))
    human = next(g.player for g in taken if g.player not in bots)
    if not agreed:
        if ruleset.is_over(walker.state):
            raise TrvError("the game is over; take the last move back only with --agreed")
        for group in taken:
            if group.reveals:
                what = ruleset.describe_action(group.action)
                raise TrvError(f"cannot take back {human}'s move: {group.player}'s {what!r} (events {group.first}-"
                               f"{group.last}): event {group.reveals} revealed new information; take it back only "
                               "with --agreed")
        decision = ruleset.pending(walker.state)
        if decision is not None and decision.player != human and decision.player not in bots:
            raise TrvError(f"{human}'s move is over and the game now waits on {decision.player}; take it back "
                           "only with --agreed")
    by_bots = any(g.player in bots for g in taken)  # a bot always agrees (as plain undo records it)
    return [(Retraction(g.first, g.last, human, agreed or by_bots), g) for g in taken], walker


def undo_turn(store: GameStore, game: str, bots: set[str], *, agreed: bool = False,
              keyring: Any = None) -> tuple[list[tuple[Retraction, Group]], Any]:
    """Append the retractions of :func:`plan_undo_turn` in one save."""
    plan, walker = plan_undo_turn(store, game, bots, agreed=agreed)
    records = sign_retractions(walker, [r for r, _ in plan], [g for _, g in plan], keyring)
    loaded = store.append(game, walker.number, records=records)
    return plan, loaded


# ---------------------------------------------------------------------- fork
def fork(store: GameStore, game: str, at: int, name: str) -> Any:
    """A new game sharing ``game``'s records up to event ``at`` (an action boundary)."""
    return fork_near(store, game, at, name, inside=False)[0]


def fork_near(store: GameStore, game: str, at: int, name: str, *, inside: bool = True) -> tuple[Any, int, str]:
    """:func:`fork` after event ``at``, or, ``at`` being inside an action (``inside``), at the
    boundary before it (the what-if replays that action; after the set-up when ``at`` is inside
    it).  Returns the fork, the event it shares up to and the sentence saying where it moved
    ("" at a boundary); without ``inside``, a point inside an action is refused naming both."""
    records = store.events(game)
    if not 1 <= at <= len(records):
        raise TrvError(f"game {game!r} has {len(records)} events; --at must be 1 to {len(records)}")
    meta = store.header(game)
    ruleset = rulesets.get(meta.ruleset)
    walker = walker_for(ruleset, meta.charter, meta.domain, start=meta.genesis).walk(records[:at])
    note = ""
    if at < len(records) and not records[at].action and records[at].kind != RETRACTION_KIND:
        group = walker.groups[-1]
        nxt = next((r.number - 1 for r in records[at:] if r.action or r.kind == RETRACTION_KIND), len(records))
        what = "the set-up" if group.action is None else f"{group.player}'s {ruleset.describe_action(group.action)!r}"
        if not inside:
            raise TrvError(f"event {at} is inside {what} (events {group.first}-{nxt}); fork at {group.first - 1} "
                           f"or {nxt}")
        before = group.first - 1 if group.action is not None else nxt
        note = (f"event {at} is inside {what} (events {group.first}-{nxt}): forked after event {before}, "
                + ("its end" if group.action is None else f"before it (--at {nxt}: after it)"))
        at = before
    raws = [RawRecord(r.kind, r.schema, r.payload, r.action, r.sig) for r in records[:at]]
    # a fork of a signed game signs in its own name: its actions never pass as the original's
    domain = fork_domain(meta.domain, records[0].hash, at) if meta.charter else ""
    return store.create_game(name, meta.ruleset, records=raws, parent=game, parent_at=at,
                             parent_head=records[at - 1].hash, bots=meta.bots, charter=meta.charter,
                             domain=domain, rules_version=meta.rules_version,
                             store_schema=meta.store_schema), at, note


# --------------------------------------------------------------------- claims
MAX_CLAIM_BYTES = 4 * 1024 * 1024


def state_at(ruleset: Any, records: Any, number: int | None, charter: str = "",
             domain: str = "", start: str | None = None) -> tuple[Any, int]:
    walker = walker_for(ruleset, charter, domain, start=start)
    for r in records:
        if number is not None and r.number > number:
            break
        walker.feed(r)
    return walker.state, walker.number


def compare_claim(ruleset: Any, state: Any, number: int, claim_bytes: bytes) -> str | None:
    """None if the claimed board (``trv show --json``) is the record's; else one
    sentence naming the first differing vehicle or token."""
    if len(claim_bytes) > MAX_CLAIM_BYTES:
        raise TrvError(f"the claim is {len(claim_bytes)} bytes; at most {MAX_CLAIM_BYTES}")
    try:
        claim = msgspec.json.decode(claim_bytes, type=dict[str, Any])
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise TrvError(f"the claim is not a JSON object like `trv show --json`: {exc}") from None
    except RecursionError:
        raise TrvError("the claim is nested too deeply to be a `trv show --json` document") from None
    view = ruleset.view(state)
    if not any(key in view for key in claim):
        raise TrvError(f"the claim names no field of the board ({', '.join(view)}), so it claims nothing; "
                       "give it as `trv show --json` prints the board")
    for key, recorded in view.items():
        if key not in claim:
            continue
        claimed = claim[key]
        if claimed == recorded:
            continue
        if isinstance(recorded, list) and isinstance(claimed, list):
            found = _compare_list(key, claimed, recorded, number)
            if found:
                return found
        return (f"{key}: the claim says {_j(claimed)} but after event {number} the record has {_j(recorded)}")
    return None


def _j(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _label(key: str, item: Any) -> str:
    singular = key[:-1] if key.endswith("s") else key
    if isinstance(item, dict):
        for k in ("id", "name"):
            if k in item:
                return f"{singular} {item[k]}"
        if "at" in item:
            return f"{singular} at {item['at']}"
    return f"{singular} {_j(item)}"


def _plain(value: Any) -> bool:
    """A claimed id or name that can be looked up (a claim may put anything there)."""
    return value is None or isinstance(value, (str, int, float, bool))


def _compare_list(key: str, claimed: list, recorded: list, number: int) -> str | None:
    ident = next((k for k in ("id", "name") if recorded and all(isinstance(x, dict) and k in x for x in recorded)), None)
    if ident:
        theirs = {x.get(ident): x for x in claimed if isinstance(x, dict) and _plain(x.get(ident))}
        for item in recorded:
            other = theirs.get(item[ident])
            label = _label(key, item)
            if other is None:
                return f"{label}: missing from the claim; after event {number} the record has {_j(item)}"
            if other != item:
                for field, value in item.items():
                    if other.get(field) != value:
                        return (f"{label}: the claim has {field} {_j(other.get(field))} but after event {number} "
                                f"the record has {field} {_j(value)}")
                extra = next(f for f in other if f not in item)
                return f"{label}: the claim has an extra field {extra!r}"
        known = {x[ident] for x in recorded}
        for x in claimed:
            if isinstance(x, dict) and (not _plain(x.get(ident)) or x.get(ident) not in known):
                return f"{_label(key, x)}: in the claim but not in the record after event {number}"
        return None
    for i in range(max(len(claimed), len(recorded))):
        a = claimed[i] if i < len(claimed) else None
        b = recorded[i] if i < len(recorded) else None
        if a != b:
            if b is None:
                return f"{_label(key, a)}: in the claim but not in the record after event {number}"
            if a is None:
                return f"{_label(key, b)}: missing from the claim; after event {number} the record has it"
            return f"{_label(key, b)}: the claim has {_j(a)} but after event {number} the record has {_j(b)}"
    return None


__all__ = [
    "Divergence",
    "AlreadyApplied",
    "PacketRefused",
    "Tampered",
    "Verified",
    "compare_claim",
    "export",
    "fork",
    "fork_near",
    "plan_undo_turn",
    "undo_turn",
    "import_file",
    "plan_undo",
    "read_file",
    "undo",
    "undo_with_bots",
    "verify_file",
    "verify_game",
]
