"""The store's rows (docs/store.md, "The rows"), and reading them back checked against the hash chain.
No eventsourcing here (``trv show``'s quick path): rows come from :data:`Select` functions.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one

import zlib
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any, NamedTuple

import msgspec

from trvendetta import rulesets

from .errors import DamagedStore
from .records import (RETRACTION_KIND, STORE_KINDS, Loaded, StoredEvent, decode_bots, decode_payload,
                      decode_retraction, game_genesis, link, sha256_for)

HEAD_TOPIC, SAVE_TOPIC, SNAP_TOPIC, NAME_TOPIC = "h", "c", "s", "g"
#: bytes of the chain hash after a row's last record that the row stores (its read must reach them)
CHECK = 8
#: records a row at most (a longer command takes several rows, one transaction)
ROW_MAX = 256
Select = Callable[[str, "int | None", "int | None", bool, "int | None"], Sequence[tuple[int, str, bytes]]]
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
#: what damaged bytes may raise when decoded
BAD = (msgspec.DecodeError, msgspec.ValidationError, zlib.error, ValueError, TypeError, KeyError, IndexError,
       RecursionError, OverflowError)


class Head(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """A game's header (``created``: microseconds since 1970, UTC; :attr:`created_at` as a datetime)."""

    name: str
    ruleset: str
    rules_version: str
    store_schema: int
    parent: str
    parent_at: int
    parent_head: str
    bots: str
    charter: str
    domain: str
    created: int

    @property
    def genesis(self) -> str:
        return game_genesis(self.charter, self.bots, self.store_schema)

    @property
    def created_at(self) -> datetime:
        return _EPOCH + timedelta(microseconds=self.created)


class Rec(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """One record: its payload's schema and canonical bytes (its kind its opening, ``{"type":"KIND"``)."""

    schema: int
    payload: bytes
    action: bytes
    sig: bytes


class Save(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """One command's records, stamped ``stamp`` (microseconds, UTC), and the first ``CHECK`` bytes of
    the chain hash after its last record."""

    stamp: int
    check: bytes
    records: list[Rec]


class Snap(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """The game after its row's version of records: their last hash, the engine state's JSON (``rules``:
    the rules version that made it), and the retracted ranges."""

    head: bytes
    rules: str
    engine: bytes
    retracted: list[list[int]]


_encode = msgspec.msgpack.Encoder().encode
_new = tuple.__new__
_head, _save, _snap = msgspec.msgpack.Decoder(Head), msgspec.msgpack.Decoder(Save), msgspec.msgpack.Decoder(Snap)


def pack(value: Any, level: int = 9) -> bytes:
    """``value`` as a row holds it: MessagePack, zlib (``level``) with a window no wider than twice the bytes
    (a command's row is a few hundred: the same bytes as the widest window, without zeroing 256 KB for it)."""
    raw = _encode(value)
    bits = min(max(len(raw).bit_length() + 1, 9), 15)
    z = zlib.compressobj(level, zlib.DEFLATED, bits, min(bits - 6, 8))
    return z.compress(raw) + z.flush()


def micros(stamp: datetime) -> int:
    delta = stamp - _EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def kind_of(payload: bytes) -> str:
    """The kind a payload opens with (ValueError when it names none)."""
    if not payload.startswith(b'{"type":"'):
        raise ValueError("a payload that does not open with its kind")
    return payload[9:payload.index(b'"', 9)].decode()


class Folded(NamedTuple):
    """A game read and folded: the engine state of its live events after ``count`` records."""

    header: Head
    state: Any
    count: int  # type: ignore[assignment]  # the field callers read; it hides tuple.count, which none calls
    head: str
    retracted: list[list[int]]

    def loaded(self) -> Loaded:
        h = self.header
        return Loaded(h.name, rulesets.get(h.ruleset), self.state, self.count, self.head, decode_bots(h.bots),
                      h.charter, h.domain)


class SnapshotRead(NamedTuple):
    """One stored snapshot: after record ``number`` with ``head``; ``state`` its engine state (None when
    read with ``decode=False``: its JSON is in ``engine``), ``problem`` why it is not used (None when it is)."""

    number: int
    head: str
    state: Any
    problem: str | None
    engine: bytes = b""
    ruleset: str = ""


def decoded(snap: SnapshotRead) -> SnapshotRead:
    """A snapshot read with ``decode=False``, its engine state decoded (or the problem that it cannot be)."""
    if snap.state is not None or not snap.engine or snap.problem:
        return snap
    try:
        return snap._replace(state=rulesets.get(snap.ruleset).decode_state(snap.engine))
    except Exception as exc:  # noqa: BLE001  a damaged snapshot can raise almost anything
        return snap._replace(problem=f"it cannot be read ({type(exc).__name__}: {exc})"[:300])


def _damaged(game: str, number: int, what: str, exc: BaseException) -> DamagedStore:
    return DamagedStore(game, number, f"{what} ({type(exc).__name__}: {exc})"[:300])


def fold_live(ruleset: Any, records: Sequence[StoredEvent], state: Any = None,
              retracted: Sequence[Sequence[int]] = (), folded: int = 0,
              game: str = "") -> tuple[Any, list[list[int]]] | None:
    """``state`` (of the live events ``1..folded``) folded on with ``records`` but what retractions take
    back: (state, every retracted range), or None when one takes back an event ``state`` holds."""
    ranges, events = [list(r) for r in retracted], []
    try:
        for r in records:
            if r.kind == RETRACTION_KIND:
                taken = decode_retraction(r.payload)
                if taken.first <= folded:
                    return None
                ranges.append([taken.first, taken.last])
        dead = {n for first, last in ranges[len(retracted):] for n in range(first, last + 1)}
        for r in records:
            if r.kind not in STORE_KINDS and r.number not in dead:
                events.append(decode_payload(ruleset, r.kind, r.schema, r.payload))
    except BAD as exc:
        raise DamagedStore(game, r.number, f"it does not decode: {exc}") from None
    return (ruleset.fold(events, state) if events else state), ranges


class Reader:
    """Reads a store's games from its rows (``events``: the commands table, ``snapshots``: the
    application's), checking every record it returns or folds against the chain."""

    head_topic = HEAD_TOPIC

    def __init__(self, events: Select, snapshots: Select):
        self.select, self.select_snaps = events, snapshots
        self._headers: dict[str, Head] = {}  # a header row is written once, with its game: read once
        #: the last row a read that reached a game's end read: (game, its last record, the row's version, its
        #: bytes; ``0, b""``: no record)
        self.last_row: tuple[str, int, int, bytes] | None = None

    def save_of(self, version: int, topic: str, state: bytes) -> Save:
        """A command row's records (ValueError and the like: the row does not read)."""
        save = _save.decode(zlib.decompress(state))
        if topic != SAVE_TOPIC or len(save.check) != CHECK or not save.records:
            raise ValueError(f"a {topic!r} row without records or its check")
        return save

    def snap_of(self, version: int, topic: str, state: bytes) -> Snap:
        snap = _snap.decode(zlib.decompress(state))
        if topic != SNAP_TOPIC or len(snap.head) != 32:
            raise ValueError(f"a {topic!r} row without its head")
        return snap

    def header(self, game: str) -> Head | None:
        if game in self._headers:
            return self._headers[game]
        rows = self.select(game, None, 0, False, None)
        if not rows:
            return None
        version, topic, state = rows[-1]
        try:
            if version != 0 or topic != self.head_topic:
                raise ValueError(f"a {topic!r} row at version {version}")
            h = _head.decode(zlib.decompress(state))
        except BAD as exc:
            raise _damaged(game, 0, "its header does not read", exc) from None
        if h.name != game:
            raise DamagedStore(game, 0, f"its header names another game ({h.name[:40]!r})")
        self._headers[game] = h
        return h

    def _saves(self, game: str, rows: Sequence[tuple[int, str, bytes]]) -> list[tuple[int, Save]]:
        out = []
        for version, topic, state in rows:
            try:
                out.append((version, self.save_of(version, topic, state)))
            except BAD as exc:
                raise _damaged(game, max(version, 1), "it cannot be read", exc) from None
        return out

    def stored(self, game: str, since: int, upto: int | None, previous: str, decode: bool = True,
               header: Head | None = None, stamped: bool = True) -> list[StoredEvent]:
        """Records ``since < number <= upto`` (``previous``: the hash after ``since``), checked as
        docs/store.md says; the read stops where the rows end (``stamped=False``: ``recorded_at`` None)."""
        header = header or self.header(game)
        if header is None:
            return []
        name = header.ruleset
        rows = [r for r in self.select(game, None, since + 1, True, 1) if r[0] > 0] if since > 0 else []
        rows += self.select(game, max(rows[0][0] if rows else since, 0), upto, False, None)
        saves = self._saves(game, rows)
        out: list[StoredEvent] = []
        number, ruleset = since, rulesets.get(name) if decode and saves else None
        actions: dict[bytes, Any] = {}  # an action's encoding -> the action decoded once
        digest, sha256 = bytes.fromhex(previous), sha256_for(len(saves))
        for version, save in saves:
            if version > number + 1:
                raise DamagedStore(game, number + 1, f"events {number + 1}-{version - 1} are missing")
            stamp, first = _EPOCH + timedelta(microseconds=save.stamp) if stamped else None, max(version, number + 1)
            for n, r in enumerate(save.records, version):
                if n <= number:
                    continue
                if r.schema < 1:
                    raise DamagedStore(game, n, "its stored schema cannot be")
                try:
                    kind = kind_of(r.payload)
                except (ValueError, UnicodeDecodeError):
                    raise DamagedStore(game, n, "its payload does not open with its kind") from None
                digest = link(digest, r.payload, r.action, r.sig, sha256)
                h = digest.hex()
                event = action = None
                if ruleset is not None and (upto is None or n <= upto):
                    try:
                        event = decode_payload(ruleset, kind, r.schema, r.payload)
                        if r.action and kind not in STORE_KINDS:
                            action = actions.get(r.action) or ruleset.decode_action(r.action)
                            config = getattr(type(action), "__struct_config__", None)
                            if config is not None and config.frozen:  # records share it only when frozen
                                actions[r.action] = action
                    except BAD as exc:
                        raise DamagedStore(game, n, f"it does not decode: {exc}"[:300]) from None
                out.append(_new(StoredEvent, (n, kind, name, r.schema, r.payload, h, previous, stamp, event,
                                              r.action, action, r.sig)))
                previous, number = h, n
            if digest[:len(save.check)] != save.check:  # (a layout 2 row holds the whole hash)
                damage = DamagedStore(game, first, f"the hash does not follow from event {first - 1}'s")
                damage.hashes = (previous, save.check.hex())  # type: ignore[attr-defined]  # read by GameStore.verify
                raise damage
        if upto is None:  # the read reached the game's last row: as it read it, checked (GameStore's kept games)
            self.last_row = (game, number, rows[-1][0], bytes(rows[-1][2])) if rows else \
                (game, 0, 0, b"") if since == 0 else None
        return out if upto is None else [r for r in out if r.number <= upto]

    def links(self, game: str, upto: int, previous: str) -> str | None:
        """The chain hash after record ``upto``, each link from ``previous`` (the genesis) checked as
        :meth:`stored` checks it, nothing decoded; None when the rows end before it (DamagedStore: damage)."""
        saves = self._saves(game, self.select(game, 0, upto, False, None))
        number, digest, sha256 = 0, bytes.fromhex(previous), sha256_for(len(saves))
        for version, save in saves:
            if version != number + 1:
                raise DamagedStore(game, number + 1, f"events {number + 1}-{version - 1} are missing")
            for n, r in enumerate(save.records, version):
                if r.schema < 1 or not r.payload.startswith(b'{"type":"'):
                    raise DamagedStore(game, n, "its stored schema or its payload's kind cannot be")
                digest = link(digest, r.payload, r.action, r.sig, sha256)
            number = version + len(save.records) - 1
            if digest[:len(save.check)] != save.check:
                raise DamagedStore(game, version, f"the hash does not follow from event {version - 1}'s")
        return digest.hex() if number == upto else None

    def end(self, game: str) -> tuple[int, int, bytes] | None:
        """The game's last row: (the number of its last record, the row's version, its bytes); ``(0, 0, b"")``:
        no record yet; None: no such game."""
        return self.end_of(game, self.select(game, None, None, True, 1))

    def end_of(self, game: str, rows: Sequence[tuple[int, str, bytes]]) -> tuple[int, int, bytes] | None:
        """:meth:`end` from the game's last row as read (``rows``: it, or none)."""
        if not rows or rows[0][0] == 0:
            return (0, 0, b"") if rows else None
        version, save = self._saves(game, rows[:1])[0]
        return version + len(save.records) - 1, version, bytes(rows[0][2])

    def row_follows(self, game: str, version: int, state: bytes, hashes: Sequence[str], upto: int) -> bool:
        """Whether the command row ``version`` (``state``: its bytes) holds record ``upto`` and its records,
        each re-hashed from ``hashes[version - 1]``, are ``hashes``' (those it has) and end at its check."""
        if not 0 < version <= upto or version - 1 >= len(hashes):
            return False
        try:
            save = self.save_of(version, SAVE_TOPIC, state)
        except BAD:
            return False
        digest, sha256 = bytes.fromhex(hashes[version - 1]), sha256_for(1)
        for n, r in enumerate(save.records, version):
            digest = link(digest, r.payload, r.action, r.sig, sha256)
            if n < len(hashes) and digest.hex() != hashes[n]:
                return False
        return version + len(save.records) - 1 >= upto and digest[:len(save.check)] == save.check

    def last(self, game: str) -> int | None:
        """The number of the game's last record (0: none yet; None: no such game)."""
        rows = self.select(game, None, None, True, 1)
        if not rows or rows[0][0] == 0:
            return 0 if rows else None
        version, save = self._saves(game, rows)[0]
        return version + len(save.records) - 1

    def _start(self, game: str, header: Head, at: int | None) -> tuple[int, str, Any, list[list[int]]]:
        """Where a load up to ``at`` starts: (count, head, state, retracted) of the latest snapshot it can
        use (docs/store.md, "Every row is checked as it is read"), else the genesis."""
        start: tuple[int, str, Any, list[list[int]]] = (0, header.genesis, None, [])
        try:
            ruleset = rulesets.get(header.ruleset)
            snaps = [(v, self.snap_of(v, t, s)) for v, t, s in self.select_snaps(game, 0, at, True, 2)]
            if not snaps or snaps[0][1].rules != str(ruleset.rules_version) or not snaps[0][1].engine:
                return start
            (count, latest), witness = snaps[0], start
            if len(snaps) > 1 and snaps[1][1].rules == latest.rules and snaps[1][1].engine:
                v, w = snaps[1]
                witness = (v, w.head.hex(), ruleset.decode_state(w.engine), w.retracted)
            # every row before the witness, each link checked from the genesis (nothing decoded): damage
            # anywhere before the snapshot stops the load, as it stops verify (docs/store.md)
            if witness[0] and self.links(game, witness[0], header.genesis) != witness[1]:
                return start
            records = self.stored(game, witness[0], count, witness[1], False, header, stamped=False)
            if (records[-1].number if records else witness[0]) != count or records[-1].hash != latest.head.hex():
                return start
            folded = fold_live(ruleset, records, witness[2], witness[3], witness[0], game)
            if folded is None or folded[1] != latest.retracted or ruleset.encode(folded[0]) != latest.engine:
                return start
            return count, latest.head.hex(), folded[0], latest.retracted
        except Exception:  # noqa: BLE001  a snapshot is a cache: the events are read instead (verify names it)
            return start

    def _latest(self, game: str, header: Head, at: int, state: bytes | None) -> Folded | None:
        """The game folded on from the games index's copy of it after record ``at`` (``state``: a packed
        :class:`Snap`), when its rules are this program's and the row ending at ``at`` stores its head."""
        rows = self.select(game, None, at, True, 1)
        if not state or not rows or rows[0][0] == 0:
            return None
        (version, save), = self._saves(game, rows)  # the row is read: a damaged one stops the command
        try:
            snap, ruleset = self.snap_of(at, SNAP_TOPIC, state), rulesets.get(header.ruleset)
            if version + len(save.records) - 1 != at or save.check != snap.head[:CHECK] \
                    or snap.rules != str(ruleset.rules_version):
                return None
            copy = ruleset.decode_state(snap.engine)
        except Exception:  # noqa: BLE001  a cache: the game is loaded from its rows instead (verify names it)
            return None
        head = snap.head.hex()
        records = self.stored(game, at, None, head, False, header)  # the rows after it: checked, as any read
        try:
            folded = fold_live(ruleset, records, copy, snap.retracted, at, game)
        except DamagedStore:
            raise
        except Exception:  # noqa: BLE001  a copy the records do not fold on from (verify names it)
            return None
        if folded is None:  # a retraction takes back an event the copy holds
            return None
        return Folded(header, folded[0], records[-1].number if records else at, records[-1].hash if records else head,
                      folded[1])

    def load(self, game: str, at: int | None = None, latest: tuple[int, bytes | None] | None = None) -> Folded | None:
        """The game after its last record (or record ``at``), folded from its latest usable snapshot, or
        folded on from ``latest``, the games index's copy (``index.copy_of``), when it can be (docs/store.md)."""
        header = self.header(game)
        if header is None:
            return None
        if at is None and latest is not None and (found := self._latest(game, header, *latest)) is not None:
            return found
        ruleset = rulesets.get(header.ruleset)
        for count, head, state, retracted in (self._start(game, header, at), (0, header.genesis, None, [])):
            records = self.stored(game, count, at, head, False, header)
            folded = fold_live(ruleset, records, state, retracted, count, game)
            if folded is not None:  # else a retraction takes back an event the snapshot holds: from the start
                break
        assert folded is not None
        return Folded(header, folded[0], records[-1].number if records else count,
                      records[-1].hash if records else head, folded[1])

    def checked_hash(self, game: str, number: int) -> str | None:
        """The hash after record ``number``, checked as a load up to it checks it (None: no such record)."""
        header = self.header(game)
        if header is None:
            return None
        count, head, _, _ = self._start(game, header, number)
        records = self.stored(game, count, number, head, False, header)
        if (records[-1].number if records else count) != number:
            return None
        return records[-1].hash if records else head

    def snapshots(self, game: str, heads: Sequence[str] | None = None, decode: bool = True,
                  rows: Sequence[tuple[int, str, bytes]] | None = None) -> list[SnapshotRead]:
        """Every stored snapshot of ``game`` (or those of ``rows``), oldest first, each with why it is not
        used (``problem``; ``heads``: the records' hashes, else each is read)."""
        header, out = self.header(game), []
        for version, topic, state in self.select_snaps(game, 0, None, False, None) if rows is None else rows:
            try:
                snap = self.snap_of(version, topic, state)
            except BAD as exc:
                out.append(SnapshotRead(version, "", None, f"it cannot be read ({type(exc).__name__}: {exc})"[:300]))
                continue
            try:
                stored = heads[version - 1] if heads is not None and 0 < version <= len(heads) else \
                    self.checked_hash(game, version)
            except DamagedStore:
                stored = None
            problem = None if stored == snap.head.hex() else "its head is not the stored hash of its last event"
            read = SnapshotRead(version, snap.head.hex(), None, problem, snap.engine, header.ruleset if header else "")
            out.append(decoded(read) if decode else read)
        return out

    def tail(self, game: str, upto: int, limit: int) -> list[StoredEvent]:
        """The last records up to ``upto`` (at most ``limit``), checked from the hash before them."""
        since = max(upto - limit, 0)
        previous = self.checked_hash(game, since)  # (the genesis for 0; None: no such game or record)
        return [] if previous is None else self.stored(game, since, upto, previous, decode=False)
