"""Work on whole stores (``trv store copy``): copy games and tournaments from one store to another.

A copy of a game is the same game: the same header and the same records, byte
for byte (so the same hash chain), with their original stamps; it is read back
and compared with its source record by record, its chain recomputed, and any
difference is an error naming the game and event (``copy_game``).  This module
opens the two stores, refuses a copy of a store onto itself, and decides, before
anything is written, what each game and tournament needs:

- not in the target: copied whole (``copy_game``);
- the same head in the target: left as it is ("already there");
- the target holds an earlier part of the same history (every one of its
  records is the source's, byte for byte, so its head is the source's hash
  at that event): the records after it are appended ("brought up to date"),
  then the chains compared again;
- any other history: the whole copy is refused, nothing written.

A tournament's log is copied by its events (their canonical bytes, so its
hash chain and head are the source's; the stamps are the copy's).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from trvendetta.core.errors import TrvError
from trvendetta.store import GameStore, location
from trvendetta.store.errors import CHECK_HINT, GameNotFound, StoreError
from trvendetta.store.records import RawRecord
from trvendetta.store.rows import decoded


class Copied(NamedTuple):
    game: str
    events: int
    head: str
    done: str  # "copied", "already there" or "brought up to date"


def _fingerprint(store: Any, game: str) -> list[tuple]:
    return [(e.number, e.kind, e.schema, e.payload, e.action, e.sig, e.hash)
            for e in store.events(game, decode=False)]


def copy_game(source: Any, target: Any, game: str) -> Copied:
    """Copy one game the target does not hold (what it holds is ``app.stores``' to plan) and verify the copy."""
    if target.exists(game):
        raise StoreError(f"game {game!r} is already in the target")
    head = source.verify(game)
    header = source.header(game)
    stored = source.events(game, decode=False)
    records = [RawRecord(e.kind, e.schema, e.payload, e.action, e.sig, e.recorded_at) for e in stored]
    target.create_game(game, header.ruleset, records=records, parent=header.parent, parent_at=header.parent_at,
                       parent_head=header.parent_head, bots=header.bots or None, charter=header.charter,
                       domain=header.domain, rules_version=header.rules_version, created_at=header.created,
                       store_schema=header.store_schema)
    theirs, ours = _fingerprint(source, game), _fingerprint(target, game)
    for a, b in zip(theirs, ours):
        if a != b:
            raise StoreError(f"the copy of game {game!r} differs from its source at event {a[0]}")
    if len(theirs) != len(ours):
        raise StoreError(f"the copy of game {game!r} has {len(ours)} events, its source {len(theirs)}")
    if target.verify(game) != head:
        raise StoreError(f"the copy of game {game!r} does not verify")
    a, b = source.header(game), target.header(game)
    if a[1:] != b[1:]:  # ruleset, rules version, parent, creation time, bots, charter, domain...
        raise StoreError(f"the copy of game {game!r} has another header than its source")
    return Copied(game, len(records), head, "copied")


class SameStore(TrvError):
    """The source and the target of a copy are one store."""


def copy_store(source: str, target: str, games: Sequence[str] = (), *,
               tournaments: bool | None = None, check: Any = None, now: Any = None) -> Iterator[Copied]:
    """Copy ``games`` (default: every game) and the tournaments (default: every one, unless
    games were named) from the store at ``source`` into the one at ``target``, one at a
    time as the result is iterated (a tournament's ``Copied.game`` is ``tournament NAME``).
    Raises :class:`SameStore` at once, before either store is opened, when both name one
    store, and StoreError, before anything is written, when the target holds another
    history of one of them, or when a game's set-up is not the one its charter's messages give
    (:func:`setup_problem`).  ``check(game, charter, game_id, started)``: the shell's checks of a
    game's seed inputs against the user's own answers (``app.host.check_seed_inputs``), which raise
    TrvError; run for every game before anything is written.  ``now``: the target's clock, against
    which a claim on time the copy would append to a game the target holds is checked as an import
    checks it (:func:`copied_claim_problem`), and a record a game the target holds would gain signed with a
    delegated key whose delegation ended before it (:func:`copied_delegation_problem`); None: not
    checked (a copy between one's own stores)."""
    if location.parse(source) == location.parse(target):
        raise SameStore("the source and the target are the same store")
    return _copy(source, target, games, not games if tournaments is None else tournaments, check, now)


def setup_problem(store: GameStore, game: str) -> str | None:
    """Why a stored game's set-up is not the one the messages its charter keeps give (what every
    walk checks at event 1, ``replays.setups``: the offer or invitation, every answer's signature, the
    nonce, the position; a charter stripped of them), without re-executing the game; None: it is."""
    from trvendetta import rulesets
    from trvendetta.replays.setups import position_problem
    from trvendetta.replays.signatures import SignatureCheck

    meta = store.header(game)
    if not meta.charter:
        return None
    check = SignatureCheck(meta.charter)
    problem = check.contributions_problem()
    if problem is None and check.charter is not None and check.charter.v:
        ruleset = rulesets.get(meta.ruleset)
        first = store.events(game, upto=1, decode=False)[0]
        problem = position_problem(check.charter, ruleset, ruleset.decode_event(first.payload), first.payload)
    return None if problem is None else f"event 1: {problem}"


def copied_claim_problem(src: GameStore, dst: GameStore, game: str, upto: int, now: Any) -> str | None:
    """Why the claim on time ending the records a copy would append to the target's game (after its
    ``upto`` events) is one the target's own stamps refuse, as `trv import` checks it
    (``app.clock.check_received``: the records new to the target count as received ``now``); None: no
    claim, or one the target takes."""
    from trvendetta.store import Claim

    from .clock import ClaimRefused, check_received
    from .outcome import outcome_in

    new = list(src.events(game, since=upto, decode=False))
    ended = outcome_in(new[-1].number, new[-1].payload) if new else None
    if ended is None or not isinstance(ended.record, Claim):
        return None
    try:
        check_received(dst, game, ended.record, [r for r in new if r.number < ended.number], now)
    except ClaimRefused as exc:
        return str(exc)
    return None


def copied_delegation_problem(src: GameStore, game: str, upto: int, now: Any) -> str | None:
    """Why the records a copy would add to the target's game (after its ``upto`` events; all of a game
    new to it) hold a signature made with a delegated key whose delegation ended before ``now``, as
    `trv import` checks them (``app.clock.check_delegations``); None: they hold none."""
    from .clock import DelegationEnded, check_delegations

    try:
        check_delegations(src.header(game).charter, list(src.events(game, since=upto, decode=False)), now)
    except DelegationEnded as exc:
        return str(exc)
    return None


def _copy(source: str, target: str, games: Sequence[str], tournaments: bool, check: Any = None,
          now: Any = None) -> Iterator[Copied]:
    from trvendetta.store.tournament import TournamentLog

    with GameStore(source) as src, GameStore(target) as dst:
        plan = [(game, _game_plan(src, dst, game)) for game in _games(src, games)]
        for game, (how, _) in plan:  # the set-up and claim checks an import makes, before anything is written
            if how == "same":
                continue
            try:
                problem = setup_problem(src, game)
            except StoreError:
                continue  # (a damaged game: the copy names it)
            if problem:
                raise StoreError(f"game {game!r}: {problem}; nothing was copied")
            if how == "extend" and now is not None:  # nor a record the target's game gains, signed by a key
                # whose delegation ended, by the target's clock (a game new to it: as a whole import, unchecked)
                problem = copied_delegation_problem(src, game, _, now)
                if problem:
                    raise StoreError(f"game {game!r}: {problem.removesuffix('; nothing was written')}; nothing was "
                                     "copied")
            if how == "extend" and now is not None:  # a claim the target's own stamps refuse is not copied
                problem = copied_claim_problem(src, dst, game, _, now)
                if problem:
                    raise StoreError(f"game {game!r}: {problem.removesuffix('; nothing was written')}; nothing was "
                                     "copied")
            if check is not None:
                meta = src.header(game)
                check(game, meta.charter, src.events_head(game, 1), _started(src, game))
        logs = (TournamentLog(src), TournamentLog(dst))
        named = [(name, _tournament_plan(*logs, name)) for name in logs[0].names()] if tournaments else []
        for game, (how, upto) in plan:
            if how == "copy":
                yield copy_game(src, dst, game)
            elif how == "same":
                yield Copied(game, upto, dst.verify(game), "already there")
            else:
                yield _bring_up_to_date(src, dst, game, upto)
        for name, (how, upto) in named:
            yield _copy_tournament(*logs, name, how, upto)


def _started(store: GameStore, game: str) -> tuple[str, list[tuple[str, str]]]:
    """A stored game's ruleset and its seats' names and colours in order, from its event 1."""
    from trvendetta import rulesets

    ruleset = rulesets.get(store.header(game).ruleset)
    first = store.events(game, upto=1, decode=False)[0]
    state = ruleset.evolve(ruleset.initial_state(), ruleset.decode_event(first.payload))
    return ruleset.name, [(seat.name, seat.color) for seat in ruleset.seats(state)]


def _games(src: GameStore, games: Sequence[str]) -> list[str]:
    known = _every_game(src)
    missing = [g for g in games if g not in known]
    if missing:
        raise StoreError(f"no game {missing[0]!r} in the source store; games: {', '.join(known) or 'none'}")
    return [g for g in known if not games or g in set(games)]


def _every_game(store: GameStore) -> list[str]:
    """Every game of a store: those its games index lists (oldest first), then any it does not list but
    whose name row is stored (an index row lost: such a game is copied, or named as damaged, not dropped)."""
    listed = [info.id for info in sorted(store.list_games(), key=lambda i: (i.created, i.id))]
    return listed + [name for name in store.names(every=True) if name not in set(listed)]


class Checked(NamedTuple):
    """One game scrubbed by ``trv store check``: its events, its head, what is wrong ([]: nothing)."""

    game: str
    events: int
    head: str
    problems: list[str]


def check_store(store: GameStore) -> Iterator[Checked]:
    """Scrub every game of ``store``, one at a time as the result is iterated (``trv store check``): every
    row read and its chain checked from the genesis, its games-index row and copy, its snapshots; first
    SQLite's ``PRAGMA integrity_check`` of the whole file (a ``Checked`` named "" when it finds anything).
    It reads only, and re-executes no action (``trv verify`` does)."""
    file = store.integrity()
    if file:
        yield Checked("", 0, "", [f"SQLite's integrity check: {p}" for p in file])
    try:
        games = _every_game(store)
    except StoreError:  # an index row that does not read: the games are named by their rows (and it by its)
        games = store.names(every=True)
    for game in games:
        checked = check_game(store, game)
        if checked is not None:
            yield checked


def check_game(store: GameStore, game: str) -> Checked | None:
    """What ``trv store check`` finds wrong with one game (see :func:`check_store`); None for a name row
    alone (no header, no rows, no index row: what a crash of an older writer left, no game)."""
    problems: list[str] = []
    try:
        head = store.verify(game)
        events = store.version(game)
    except GameNotFound:
        return None
    except TrvError as exc:
        detail = exc.in_full() if hasattr(exc, "in_full") else exc
        return Checked(game, 0, "", [_said(game, str(detail))])
    try:
        info = store.info(game)
    except TrvError as exc:
        problems.append("the games index has no row for it" if isinstance(exc, GameNotFound)
                        else str(exc))
        info = None
    if info is not None and (info.version, info.head) != (events, head):
        problems.append(f"the games index says it has {info.version} events (head {info.head[:16]}...), the "
                        f"store holds {events} (head {head[:16]}...)")
    try:
        copies = [(f"the snapshot after event {s.number}", s) for s in store.snapshots(game, decode=False)]
        cached = store.index_state(game, decode=False) if info is not None else None
    except TrvError as exc:
        copies, cached = [], None
        problems.append(str(exc))
    shown = copies + ([("the games index's copy", cached)] if cached is not None else [])
    try:  # the records folded (no action re-executed): every snapshot and the index's fields and copy
        state, states = store.folds(game, [snap.number for _, snap in shown])
    except TrvError as exc:
        state, states = None, {}
        problems.append(str(exc))
    if info is not None and state is not None and (info.version, info.head) == (events, head):
        from trvendetta.replays.integrity import index_fields

        problems += index_fields(info, store.ruleset_of(game), state)
    for where, snap in shown:
        if snap.number > events:
            problems.append(f"{where} is past the last stored event {events}")
        elif snap.problem:
            problems.append(f"{where}: {snap.problem}")
        elif snap.engine != states.get(snap.number) and snap.number in states:
            snap = decoded(snap)  # (the same state encoded otherwise, by an older program: not damage)
            if snap.problem or snap.state is None or store.ruleset_of(game).encode(snap.state) != states[snap.number]:
                problems.append(f"{where}: {snap.problem}" if snap.problem else
                                f"{where} is not the fold of events 1-{snap.number}: it was edited")
    return Checked(game, events, head, [_said(game, p) for p in problems])


def _said(game: str, problem: str) -> str:
    """A damage line as ``trv store check`` prints it under the game's name."""
    return problem.removeprefix(f"game {game!r} is damaged: ").replace(CHECK_HINT, "")


def _game_plan(src: GameStore, dst: GameStore, game: str) -> tuple[str, int]:
    """("copy", 0), ("same", n) or ("extend", n: the target's events); StoreError otherwise."""
    if not dst.exists(game):
        return "copy", 0
    head, theirs = dst.verify(game), dst.version(game)
    records = src.events(game, decode=False)
    if head == src.verify(game):
        return "same", theirs
    mine, other = src.header(game), dst.header(game)
    same_game = (mine.ruleset, mine.rules_version, mine.created, mine.charter) == \
        (other.ruleset, other.rules_version, other.created, other.charter)
    if same_game and theirs < len(records) and records[theirs - 1].hash == head:
        return "extend", theirs
    raise StoreError(f"game {game!r} is already in the target with another history (its {theirs} events are not "
                     "the start of the source's); nothing was copied (rename or remove one of them first)")


def _bring_up_to_date(src: GameStore, dst: GameStore, game: str, upto: int) -> Copied:
    records = src.events(game, decode=False)[upto:]
    dst.append(game, upto, records=[RawRecord(r.kind, r.schema, r.payload, r.action, r.sig, r.recorded_at)
                                    for r in records])
    head = src.verify(game)
    if dst.verify(game) != head or dst.version(game) != src.version(game):
        raise StoreError(f"the copy of game {game!r} does not match its source after event {upto}")
    return Copied(game, src.version(game), head, "brought up to date")


def _tournament_plan(src: Any, dst: Any, name: str) -> tuple[str, int]:
    if not dst.exists(name):
        return "copy", 0
    ours, theirs = src.records(name), dst.records(name)
    if [r.payload for r in theirs] == [r.payload for r in ours[:len(theirs)]]:
        return ("same" if len(theirs) == len(ours) else "extend"), len(theirs)
    raise StoreError(f"tournament {name!r} is already in the target with another history; nothing was copied")


def _copy_tournament(src: Any, dst: Any, name: str, how: str, upto: int) -> Copied:
    from trvendetta.tournament import events as tev

    head = src.verify(name)
    label = f"tournament {name}"
    if how == "same":
        return Copied(label, upto, head, "already there")
    events = [tev.decode(r.payload) for r in src.records(name)[upto:]]
    if how == "copy":
        dst.create(name, events)
    else:
        dst.append(name, upto, events)
    if dst.verify(name) != head:
        raise StoreError(f"the copy of tournament {name!r} does not match its source")
    return Copied(label, len(src.records(name)), head, "copied" if how == "copy" else "brought up to date")
