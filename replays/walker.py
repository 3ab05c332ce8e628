"""The one walker over a game's records: every exporter and auditor uses it.

A game is its list of records (``StoredEvent``-shaped: ``number``,
``payload``, ``hash``, ``action``, and ``kind``/``event`` when known): the
set-up events, then for each player action the events it produced (the
action rides on the first of them), and retraction records written by
``trv undo``.  :class:`Walker` takes them one by one, in order, and

* checks the numbering and the hash chain (``chain(previous, payload, action)``);
* decodes every payload and action strictly through the ruleset;
* folds the *live* projection: a retraction puts the state back to just
  before the retracted action, so the state always equals the fold of the
  events that are not retracted (the store's projection);
* groups events by the action that produced them (``Group``), so undo,
  forks and the notation know where actions begin and end;
* when ``reexecute`` is on, recomputes every event through the rules from the
  recorded set-up and seed (``ruleset.restart(first_event)`` for the set-up,
  ``ruleset.apply(state, action)`` for each action) and compares the bytes;

and calls each visitor's hooks (python-chess's visitor, for records).
Errors are :class:`Tampered` (the bytes do not hold together) and
:class:`Divergence` (the rules do not give the recorded events).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from trvendetta.core.rng import NeedDice
from trvendetta.store import (GENESIS, HOST_REVEAL_KIND, INTENT_KIND, RETRACTION_KIND, REVEAL_KIND, REVOKE_KIND, Retraction,
                              StoredEvent, chain, decode_draw, decode_retraction, decode_revoke)
from trvendetta.core.errors import TrvError

from .outcomes import OUTCOME_OPENINGS, ended


#: how a revocation record's payload begins (its canonical JSON's tag)
REVOKE_OPENING = b'{"type":"' + REVOKE_KIND.encode() + b'"'


class AuditError(TrvError):
    """A record that does not hold together or does not follow from the rules."""

    def __init__(self, number: int, message: str):
        self.number = number
        super().__init__(message)


class Tampered(AuditError):
    """The bytes of a record are inconsistent (numbering, syntax, hash chain, decoding)."""

    def __init__(self, number: int, reason: str):
        super().__init__(number, f"event {number}: {reason}")


class Divergence(AuditError):
    """The rules, re-executed, give another event than the one recorded."""

    def __init__(self, number: int, recorded: bytes | None, recomputed: bytes | None, sentence: str,
                 note: str = ""):
        self.recorded = recorded
        self.recomputed = recomputed
        self.sentence = sentence
        text = (
            f"event {number} differs from the rules' result\n"
            f"  recorded:   {_show(recorded)}\n"
            f"  recomputed: {_show(recomputed)}\n"
            f"{sentence}"
        )
        if note:
            text += f"\n{note}"
        super().__init__(number, text)


def _show(data: bytes | None) -> str:
    return "(nothing)" if data is None else data.decode("utf-8", "replace")


def first_difference(recorded: bytes | None, recomputed: bytes | None) -> str:
    """One sentence naming the first field where two canonical JSON events differ."""
    if recorded is None:
        return "The rules produce this event but the record has none here."
    if recomputed is None:
        return "The record has this event but the rules produce no event here."
    try:
        a, b = msgspec.json.decode(recorded), msgspec.json.decode(recomputed)
    except msgspec.DecodeError:
        return "The recorded bytes are not the rules' canonical JSON."
    path = _diff(a, b, "")
    if path is None:
        return "The two events hold the same values but not the same bytes (not canonical JSON)."
    where, x, y = path
    if where in ("", ".type"):
        return f"The record has a {_kind(a)} event where the rules produce a {_kind(b)} event."
    return (f"In the {_kind(a)} event, {where.lstrip('.')} is {_compact(x)} in the record "
            f"but {_compact(y)} when recomputed.")


def _kind_of(record: StoredEvent) -> str:
    """A record's type: the store's, or (a record read from a file) its payload's; "" if unreadable."""
    if record.kind:
        return record.kind
    try:
        return _typed.decode(record.payload).type
    except (msgspec.DecodeError, msgspec.ValidationError):
        return ""


def _kind(obj: Any) -> str:
    return obj.get("type", "?") if isinstance(obj, dict) else type(obj).__name__


def _compact(value: Any) -> str:
    return msgspec.json.encode(value).decode()


_MISSING = object()


def _diff(a: Any, b: Any, path: str) -> tuple[str, Any, Any] | None:
    if isinstance(a, dict) and isinstance(b, dict):
        if a.get("type") != b.get("type"):
            return (path + ".type" if path else ".type", a.get("type"), b.get("type"))
        for key in list(a) + [k for k in b if k not in a]:
            found = _diff(a.get(key, _MISSING), b.get(key, _MISSING), f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            found = _diff(a[i] if i < len(a) else _MISSING, b[i] if i < len(b) else _MISSING, f"{path}[{i}]")
            if found:
                return found
        return None
    if a is _MISSING or b is _MISSING or a != b or type(a) is not type(b):
        return (path, None if a is _MISSING else a, None if b is _MISSING else b)
    return None


#: a group's player or round not asked of the ruleset yet
ASK = object()


class Group(msgspec.Struct):
    """One player action and the events it produced (or the set-up, ``action is None``).  A struct (not a
    dataclass): ``trv verify`` makes one an action, and msgspec's ``__init__`` is a third of the instructions
    of a dataclass's (1.0k instructions an event of the bench game's verify, docs/performance.md)."""

    first: int
    last: int
    action: Any
    player_: Any  # the player, or ASK: asked of ``ruleset`` only when needed
    state_before: Any
    reveals: int = 0  # number of the first event that revealed information, 0 if none
    round_: Any = None  # the round, or ASK: asked of ``ruleset`` only when needed
    rng: Any = None  # an exchange game's RNG for this action (replays.exchange), None: the seed's
    ruleset: Any = None  # what a player or round left to ASK is asked of

    @property
    def player(self) -> str | None:
        """Whose decision the action answered (the engine's ``pending`` is not
        cheap, so a re-executing walker asks only when someone wants to know)."""
        if self.player_ is ASK:
            decision = self.ruleset.pending(self.state_before)
            self.player_ = decision.player if decision else None
        return self.player_

    @property
    def round(self) -> Any:
        """The round the action was played in (asked of the ruleset when someone wants to know)."""
        if self.round_ is ASK:
            self.round_ = self.ruleset.round(self.state_before)
        return self.round_


class NeedsHistory(Exception):
    """A walk resumed after record N (``replays.resume``) met a retraction of
    an action from before N: only a walk from event 1 knows that action."""


#: the action of the stand-in group a resumed walk starts with (the actions before it)
BEFORE = object()


#: the RNG of an action a host game's host rolled, while its seed is secret
#: (``replays.host``): the walker folds that action's recorded events unchecked
UNREVEALED = object()


class Visitor:
    """Hooks called by :class:`Walker`; override the ones you need (in a
    subclass, or on the instance before the walker is made: a walker looks
    up which ``on_action`` and ``on_event`` hooks are its visitors' own once,
    and calls only those for each action and event)."""

    #: whether ``walker.state`` must be the state after each event when a hook
    #: runs; a re-executing walker whose visitors all say False takes the state
    #: after each action from ``ruleset.apply`` instead of folding every event again
    needs_event_state = True

    def on_setup(self, walker: "Walker", record: StoredEvent, event: Any) -> None:
        """A set-up event, folded (``walker.state`` is the state after it)."""

    def on_action(self, walker: "Walker", record: StoredEvent, group: Group) -> None:
        """A player action starts at ``record`` (``group.state_before`` is the state before it)."""

    def on_event(self, walker: "Walker", record: StoredEvent, event: Any) -> None:
        """An engine event, folded (set-up events too)."""

    def on_retraction(self, walker: "Walker", record: StoredEvent, retraction: Retraction, group: Group) -> None:
        """``group`` was taken back; ``walker.state`` is the state before it again."""

    def on_draw(self, walker: "Walker", record: StoredEvent, entry: Any, action: Any) -> None:
        """A game with dice at a distance: an intent (``action``: the action waiting for the draw),
        a reveal or the host's reveal of its seed (``action`` None); the state does not change."""

    def on_end(self, walker: "Walker") -> None:
        """No more records."""


class _Typed(msgspec.Struct):
    type: str


_typed = msgspec.json.Decoder(_Typed)


def frozen(value: Any) -> bool:
    """Can records share ``value`` (a frozen msgspec struct: every ruleset's actions are)?"""
    config = getattr(type(value), "__struct_config__", None)
    return config is not None and config.frozen


def _hooks(visitors: Sequence[Visitor], name: str) -> list[Any]:
    """The visitors' bound ``name`` hooks, leaving out those that are the base class's (doing nothing)."""
    base = getattr(Visitor, name)
    return [hook for hook in (getattr(v, name) for v in visitors) if getattr(hook, "__func__", None) is not base]


class Walker:
    """Walks records in order; see the module docstring."""

    def __init__(self, ruleset: Any, visitors: Sequence[Visitor] = (), *, reexecute: bool = False,
                 head: str = GENESIS, rules_note: str = "", signatures: Any = None, draws: Any = None,
                 chained: bool = False):
        self.ruleset = ruleset
        #: whether the records' hashes are their reader's, each computed from its bytes and the record
        #: before's (``GameStore.events`` checks every link as it reads): the walk then checks that each
        #: record follows its head instead of hashing the same bytes again
        self.chained = chained
        #: a ``replays.exchange.Draws`` for an exchange game (None: chance follows the seed)
        self.draws = draws
        #: a ``replays.signatures.SignatureCheck`` for a game with bound seats (None: unsigned game)
        self.signatures = signatures
        self.visitors = list(visitors)
        #: whether a visitor needs the state after each event (``Visitor.needs_event_state``)
        self._event_state = any(v.needs_event_state for v in self.visitors)
        #: the visitors' own ``on_action`` and ``on_event`` hooks (the base class's do nothing: not called
        #: for each action and event)
        self._on_action = _hooks(self.visitors, "on_action")
        self._on_event = _hooks(self.visitors, "on_event")
        self.reexecute = reexecute
        self.rules_note = rules_note
        self.state = ruleset.initial_state()
        self.head = head
        self.number = 0
        self.groups: list[Group] = []  # live groups, oldest first
        self.retracted: set[int] = set()
        self.retractions: set[int] = set()
        self.records: int = 0
        self._queue: list[bytes] = []
        #: the state ``ruleset.apply`` gave for the action being checked (fast re-execution)
        self._after: Any = None
        #: the recomputed events, as objects, in step with ``_queue``: the bytes are ``_queue``
        self._events: list[Any] = []
        #: re-execution paused for one action whose roll is not checkable yet (a host game's secret seed)
        self._paused = False
        #: the frozen actions decoded, by their canonical bytes (a game repeats its actions)
        self._actions: dict[bytes, Any] = {}
        #: actions run ahead (``_run_ahead``) by their record's number: (state, action, state after, events)
        self._ran: dict[int, tuple[Any, Any, Any, list[Any]]] = {}
        #: the ruleset's encoder as one callable (``Ruleset.encoder``)
        self._encode = ruleset.encoder
        #: the claim on time or resignation that ended the game (``replays.outcomes.Ended``): nothing may follow
        self.outcome: Any = None
        #: the records that are a seat's revocation of delegated keys (``trv-revoke``)
        self.revocations: list[int] = []

    # ------------------------------------------------------------- public
    def walk(self, records: Iterable[StoredEvent]) -> "Walker":
        self.feed_all(records)
        self.end()
        return self

    def feed_all(self, records: Iterable[StoredEvent]) -> None:
        """:meth:`feed` each record in order (``walk`` without ``end``).

        A re-executing walk that takes each action's state from ``apply`` (no visitor needs the state after
        every event; no signatures or draws) runs the actions of the records ahead in batches of
        :attr:`AHEAD` (:meth:`_run_ahead`) before feeding them: the engine's code and data stay in the CPU's
        caches for a batch (about a tenth of verify's CPU time, docs/performance.md)."""
        feed = self.feed
        if not (self.reexecute and not self._event_state and self.draws is None and self.signatures is None
                and isinstance(records, Sequence)):
            for record in records:
                feed(record)
            return
        at, end = 0, len(records)
        while at < end:
            stop = self._run_ahead(records, at)
            for i in range(at, stop):
                feed(records[i])
            at = stop

    #: how many actions :meth:`feed_all` runs ahead at a time
    AHEAD = 64

    def _run_ahead(self, records: Sequence[StoredEvent], at: int) -> int:
        """Run (``ruleset.apply``) the actions of ``records[at:]``, at most :attr:`AHEAD`, each from the state the
        one before gave, as the walk will run them when every record between holds; keep each result for
        :meth:`_start_action`, which takes it only where the walk's state is the very state it was run from (a
        retraction puts the walk back on an earlier state: a result run past it is never taken).  Stops at an
        action that does not decode or that the rules refuse (the walk then runs it and says why).  Returns
        where the records it ran end (the next action's record, or the end)."""
        self._ran = ran = {}
        if self._after is not None:  # inside an action: the next starts from the state apply gave for it
            state = self._after
        elif self.groups and not self._queue:  # between actions
            state = self.state
        else:  # before the set-up is walked, or inside it: the next action's state is not known yet
            return at + 1
        apply, actions, taken, end = self.ruleset.apply, self._actions, 0, len(records)
        for i in range(at, end):
            record = records[i]
            action_bytes = record.action
            if not action_bytes or record.number == 1:
                continue
            if taken == self.AHEAD:
                return i
            action = record.decoded_action or actions.get(action_bytes)
            try:
                if action is None:
                    action = self._decode_action(record.number, action_bytes)
                after, events = apply(state, action)
            except Exception:  # noqa: BLE001 - the walk runs it again and names what is wrong
                return i + 1
            ran[record.number] = (state, action, after, events)
            state, taken = after, taken + 1
        return end

    def feed(self, record: StoredEvent) -> None:
        number = self.number + 1
        if record.number != number:
            raise Tampered(number, f"numbered {record.number}, expected {number}")
        # (the host's reveal of its seed may follow: it changes nothing, and makes every roll checkable)
        if self.outcome is not None and _kind_of(record) != HOST_REVEAL_KIND:
            raise Tampered(number, f"a record after the game ended at event {self.outcome.number} "
                                   f"({self.outcome.sentence}): nothing may follow a claim or a resignation")
        payload, action_bytes, sig = record.payload, record.action or b"", record.sig or b""
        if self.chained:  # its hash is the read's, from its bytes and ``previous``
            expected = record.hash
            if record.previous != self.head:
                raise Tampered(number, f"the record was read after {record.previous[:16]}..., not after the "
                                       f"walk's {self.head[:16]}...: the records are not one game's, in order")
        else:
            expected = chain(self.head, payload, action_bytes, sig)
            if record.hash != expected:
                before = f"event {number - 1}" if number > 1 else "the game's start (its Charter and Bots)"
                raise Tampered(number, f"the hash does not follow from {before} and this event's "
                                       f"content (recorded {record.hash[:16]}..., computed {expected[:16]}...): "
                                       "the event or its action was changed")
        if sig and self.signatures is None:
            raise Tampered(number, "the event carries a signature but no seat of this game is bound to a key")
        action = None
        if action_bytes:
            if self._paused:
                self._resume()
            action = record.decoded_action
            if action is None:
                action = self._decode_action(number, action_bytes)
        if number > 1 and payload.startswith(OUTCOME_OPENINGS):
            self._resume()
            if self._queue:
                self._diverge(number, payload, self._queue[-1],
                              "The record ends the game before the rules finished producing the last action's events.")
            resumed = self.groups[0].first if self.groups and self.groups[0].action is BEFORE else 0
            self.outcome = ended(self, record, action, Tampered, resumed, NeedsHistory)
            self.number, self.head = number, expected
            return
        if number > 1 and payload.startswith(REVOKE_OPENING):
            self._revocation(record, number, action)
            self.number, self.head = number, expected
            return
        if self.draws is not None and number > 1 and self._draw_record(record, number, action):
            return
        # re-executing, an action is re-run before its first event is decoded:
        # when the recorded bytes are the recomputed ones, that event needs no decoding
        early = action is not None and number > 1 and self.reexecute and bool(self.groups)
        if early:
            self.number, self.head = number, expected
            self._start_action(record, action)
        queue = self._queue
        if queue and queue[-1] == payload and (record.event is None or not record.kind):
            # re-executing, the recorded bytes are the recomputed event's: that is the event (an engine
            # event, not a retraction's), checked
            kind, event, recomputed = "", self._events.pop(), queue.pop()
        else:
            kind, event = self._decode(number, record)
            recomputed = None
        self.number, self.head = number, expected
        if kind == RETRACTION_KIND:
            if action is not None:
                raise Tampered(number, "a retraction record carries an action")
            self._retract(record, event)
            return
        if sig and action is None:
            raise Tampered(number, "an event no action produced carries a signature")
        if number == 1:
            if action is not None:
                raise Tampered(1, "the set-up event carries an action")
            if self.signatures is not None:
                self.signatures.on_setup(1, record)
                charter = self.signatures.charter
                if charter is not None and charter.v:  # (format 2: the set-up is the offer's, rebuilt)
                    from .setups import position_problem

                    problem = position_problem(charter, self.ruleset, event, payload)
                    if problem:
                        raise Tampered(1, problem)
            if self.draws is not None:
                self.draws.game_id = expected
            self._setup(record, event)
            queue = self._queue
        elif action is not None:
            if not early:
                self._start_action(record, action)
                queue = self._queue
        elif self.groups[-1].last != number - 1:
            raise Tampered(number, "after a retraction the next event must carry the action that produced it")
        # the event, checked against the rules' (re-executing) and folded
        if recomputed is None and self.reexecute:
            if not queue:
                sentence = first_difference(payload, None)
                if not action_bytes and self.groups[-1].action is None and number > 1:
                    sentence = ("The record has this event but no recorded action produced it "
                                "(the game's actions were not recorded).")
                self._diverge(number, payload, None, sentence)
            recomputed = queue.pop()
            rules_event = self._events.pop()
            # (a host's sealed box for a favor it dealt is not the rules' to recompute: ``Ruleset.same_event``)
            if recomputed != payload and not self.ruleset.same_event(payload, recomputed):
                sentence = first_difference(payload, recomputed)
                words = self._in_words(event, payload, rules_event)
                self._diverge(number, payload, recomputed, sentence + (f"\n{words}" if words else ""))
        if self._after is None:
            self.state = self.ruleset.evolve(self.state, event)
        elif not queue:  # the action's last event: its state, as apply gave it
            self.state, self._after = self._after, None
        group = self.groups[-1]
        group.last = number
        if self.signatures is not None and self.signatures.resolution is not None:
            self.signatures.on_event(record)  # a host's resolution: its signature covers every event
        if not group.reveals and self.ruleset.reveals(event):
            group.reveals = number
        if group.action is None:
            for v in self.visitors:
                v.on_setup(self, record, event)
                v.on_event(self, record, event)
        else:
            for hook in self._on_event:
                hook(self, record, event)

    def _decode_action(self, number: int, action: bytes) -> Any:
        """A record's action decoded (a frozen one kept: a game repeats its actions), or Tampered."""
        decoded = self._actions.get(action)
        if decoded is not None:
            return decoded
        try:
            decoded = self.ruleset.decode_action(action)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise Tampered(number, f"the recorded action is not a {self.ruleset.name} action: {exc}") from None
        except RecursionError:
            raise Tampered(number, "the recorded action is nested too deeply") from None
        if frozen(decoded):
            self._actions[action] = decoded
        return decoded

    def _pause(self) -> None:
        """Fold the current action's recorded events unchecked (its roll's seed is secret yet)."""
        if self.reexecute:
            self.reexecute, self._paused = False, True

    def _resume(self) -> None:
        if self._paused:
            self.reexecute, self._paused = True, False

    def end(self) -> None:
        self._resume()
        if self.signatures is not None:
            self.signatures.end()
        if self._queue:
            recomputed = self._queue[-1]
            self._diverge(self.number + 1, None, recomputed,
                          "The record ends here but the rules produce more events for the last action.")
        for v in self.visitors:
            v.on_end(self)

    def _draw_record(self, record: StoredEvent, number: int, action: Any) -> bool:
        """An exchange game's intent or reveal (True), checked and noted; else False."""
        try:
            kind = _typed.decode(record.payload).type
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise Tampered(number, f"not a {self.ruleset.name} event: {exc}") from None
        if kind not in (INTENT_KIND, REVEAL_KIND, HOST_REVEAL_KIND):
            return False
        self._resume()
        if self._queue:
            self._diverge(number, record.payload, self._queue[-1],
                          "The record opens a draw before the rules finished producing the last action's events.")
        try:
            entry = decode_draw(record.payload)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise Tampered(number, f"not an intent or a reveal: {exc}") from None
        self.number, self.head = number, record.hash
        if kind == HOST_REVEAL_KIND:
            on_host_reveal = getattr(self.draws, "on_host_reveal", None)
            if action is not None or on_host_reveal is None:
                raise Tampered(number, "a host's reveal of its seed in a game without a host, or with an action")
            on_host_reveal(record, entry)  # the commitment first: a changed seed is named as such
            self.signatures.on_host_reveal(record)
            self._noted(record, entry, None)
            return True
        if kind == REVEAL_KIND:
            if action is not None or record.sig:
                raise Tampered(number, "a reveal carries an action or a signature")
            self.draws.on_reveal(record, entry)
            self._noted(record, entry, None)
            return True
        if action is None:
            raise Tampered(number, "an intent carries no action")
        if getattr(self.draws, "by_content", False) and self.ruleset.encode(action) != record.action:
            raise Tampered(number, "the intent's action is not in its canonical form: its dice would follow "
                                   "bytes its signer chose")
        decision = self.ruleset.pending(self.state)
        seat = decision.player if decision else None
        if self.signatures is not None:
            self.signatures.on_action(record, seat, lambda: self.ruleset.describe_action(action))
        self.draws.on_intent(record, entry, seat)
        self._noted(record, entry, action)
        return True

    def _revocation(self, record: StoredEvent, number: int, action: Any) -> None:
        """A seat's revocation of delegated keys (``trv-revoke``), between two actions: checked and
        noted by the signature check (from here on, its keys act for no one)."""
        self._resume()
        if self._queue:
            self._diverge(number, record.payload, self._queue[-1],
                          "The record revokes keys before the rules finished producing the last action's events.")
        if action is not None or record.sig:
            raise Tampered(number, "a revocation carries an action or a record signature (its own is inside it)")
        try:
            found = decode_revoke(record.payload)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise Tampered(number, f"not a revocation: {exc}") from None
        if self.signatures is None:
            raise Tampered(number, "a revocation in a game without bound seats: it is signed by a seat's key")
        self.signatures.on_revocation(record, found)
        self.revocations.append(number)

    def _noted(self, record: StoredEvent, entry: Any, action: Any) -> None:
        for v in self.visitors:
            v.on_draw(self, record, entry, action)

    def start_checking(self) -> None:
        """Turn re-execution on mid-walk (after trusted records): recompute the
        last action's events so the rest of it can be checked too."""
        if self.reexecute:
            return
        self.reexecute = True
        if not self.groups:
            return
        group = self.groups[-1]
        if group.action is BEFORE:  # a resumed walk: its start is after a whole action (replays.resume)
            return
        if group.rng is UNREVEALED or (group.action is None and self.draws is not None
                                       and self.draws.setup_rng() is UNREVEALED):
            self._pause()
            return
        if group.action is None:
            events = self.ruleset.restart(self._first_event) if self.draws is None else \
                self.ruleset.restart(self._first_event, self.draws.setup_rng())
        else:
            _, events = self._apply(group.state_before, group.action, group.rng)
        done = group.last - group.first + 1
        self._events = list(reversed(events[done:]))
        self._queue = list(map(self._encode, self._events))

    @property
    def settled(self) -> bool:
        """Whether ``state`` is the fold of the records walked (not inside an action whose state
        a re-executing walk takes from ``apply`` at its last event)."""
        return self._after is None

    @property
    def live_actions(self) -> list[Group]:
        return [g for g in self.groups if g.action is not None]

    # ------------------------------------------------------------ helpers
    def _decode(self, number: int, record: StoredEvent) -> tuple[str, Any]:
        if record.event is not None and record.kind:
            return record.kind, record.event
        try:
            kind = _typed.decode(record.payload).type
            if kind == RETRACTION_KIND:
                return kind, decode_retraction(record.payload)
            event = self.ruleset.decode_event(record.payload)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise Tampered(number, f"not a {self.ruleset.name} event: {exc}") from None
        except RecursionError:
            raise Tampered(number, f"not a {self.ruleset.name} event: nested too deeply") from None
        return self.ruleset.event_kind(event), event

    def _in_words(self, event: Any, recorded: bytes, rules_event: Any) -> str:
        """The two events as the game says them ("bob rolls movement dice: 6 6 6 6")."""
        try:
            if event is None:
                event = self.ruleset.decode_event(recorded)
            said, rules = self.ruleset.describe(event), self.ruleset.describe(rules_event)
        except Exception:  # noqa: BLE001 - undecodable bytes already have their sentence
            return ""
        if said == rules:
            return ""
        return f"In the game's words: the record says \"{said}\"; the rules give \"{rules}\"."

    def _diverge(self, number: int, recorded: bytes | None, recomputed: bytes | None, sentence: str) -> None:
        raise Divergence(number, recorded, recomputed, sentence, self.rules_note)

    def _setup(self, record: StoredEvent, event: Any) -> None:
        self._first_event = event
        if self.reexecute and self.draws is not None and self.draws.setup_rng() is UNREVEALED:
            self._pause()
        if self.reexecute:
            position = getattr(event, "position", None)
            if position is None:
                self._diverge(1, record.payload, None, "The first event does not carry the game's set-up position.")
            try:
                events = self.ruleset.restart(event) if self.draws is None else \
                    self.ruleset.restart(event, self.draws.setup_rng())
            except (TrvError, ValueError, TypeError, KeyError, IndexError) as exc:
                self._diverge(1, record.payload, None, f"The recorded set-up is refused by the rules: {exc}")
            self._events = events[::-1]
            self._queue = list(map(self._encode, self._events))
        self.groups.append(Group(1, 0, None, None, self.state, ruleset=self.ruleset))

    def _start_action(self, record: StoredEvent, action: Any) -> None:
        number = record.number
        if self._queue:
            self._diverge(number, record.payload, self._queue[-1],
                          "The record starts a new action here but the rules produce more events for the last one.")
        ruleset = self.ruleset
        group = Group(number, number - 1, action, ASK, self.state, 0, ASK, None, ruleset)
        if self.signatures is not None:
            # signatures need every action's seat: ask before ``apply`` (which asks
            # too), while the engine's one-entry memo still holds this state
            group.player  # noqa: B018
        covered = False
        if self.draws is not None:
            group.rng, covered = self.draws.rng_for(record)
            if group.rng is UNREVEALED:
                self._pause()
        if self.reexecute:
            ran = self._ran.pop(number, None) if self._ran else None
            try:
                if ran is not None and ran[0] is self.state and ran[1] == action and group.rng is None:
                    after, events = ran[2], ran[3]  # run ahead from this very state (``_run_ahead``)
                else:
                    after, events = ruleset.apply(self.state, action) if group.rng is None else \
                        ruleset.apply(self.state, action, group.rng)
            except TrvError as exc:
                self._diverge(number, record.payload, None,
                              f"The recorded action {self.ruleset.describe_action(action)!r} is illegal here: {exc}")
            except NeedDice:
                self._diverge(number, record.payload, None,
                              f"The recorded action {self.ruleset.describe_action(action)!r} needs dice, but no "
                              "draw was made for it (an exchange game records an intent and every player's "
                              "reveal first)")
            events = events[::-1]  # both popped from the end
            self._queue = list(map(self._encode, events))
            self._events = events
            if not self._event_state:
                # every recorded event will be checked equal to the recomputed
                # one, so the fold of the recorded events is this state
                self._after = after
            if not self._queue:
                self._diverge(number, record.payload, None, "The recorded action produces no event.")
        self.groups.append(group)
        if self.signatures is not None:
            self.signatures.on_action(record, group.player, lambda: self.ruleset.describe_action(action), covered)
        for hook in self._on_action:
            hook(self, record, group)

    def _apply(self, state: Any, action: Any, rng: Any) -> tuple[Any, list[Any]]:
        if rng is None:
            return self.ruleset.apply(state, action)
        return self.ruleset.apply(state, action, rng)

    def _retract(self, record: StoredEvent, retraction: Retraction) -> None:
        number = record.number
        self._resume()
        if self._queue:
            self._diverge(number, record.payload, self._queue[-1],
                          "The record takes an action back before the rules finished producing its events.")
        if self.draws is not None and self.draws.open is not None:
            raise Tampered(number, f"a retraction while draw {self.draws.open['draw']} is open")
        group = self.groups[-1] if self.groups else None
        if group is not None and group.action is BEFORE:
            raise NeedsHistory(number)
        if group is None or group.action is None or (retraction.first, retraction.last) != (group.first, group.last):
            live = f"events {group.first}-{group.last}" if group and group.action is not None else "no action"
            raise Tampered(number, f"the retraction of events {retraction.first}-{retraction.last} does not take "
                                   f"back the last live action ({live})")
        if self.signatures is not None and self.signatures.charter is not None:
            from .setups import bot_retraction_problem

            problem = bot_retraction_problem(self.signatures.charter, retraction.player, group.player)
            if problem:
                raise Tampered(number, f"a retraction: {problem}")
        if self.reexecute:
            refusal = undo_refusal(self.ruleset, group, self.state, agreed=retraction.agreed)
            if refusal:
                self._diverge(number, record.payload, None, f"This retraction should have been refused: {refusal}")
        if self.signatures is not None:
            self.signatures.on_retraction(record, retraction.player, retraction.agreed,
                                          self.ruleset.describe_action(group.action))
        elif record.sig:
            raise Tampered(number, "the retraction carries a signature but no seat is bound to a key")
        self.groups.pop()
        self.state = group.state_before
        self.retracted.update(range(group.first, group.last + 1))
        self.retractions.add(number)
        for v in self.visitors:
            v.on_retraction(self, record, retraction, group)


def undo_refusal(ruleset: Any, group: Group, state_now: Any, *, agreed: bool) -> str | None:
    """Why taking ``group`` back needs the players' agreement (None: it does not)."""
    if agreed:
        return None
    if group.reveals:
        return (f"event {group.reveals} revealed new information; take it back only with --agreed")
    decision = ruleset.pending(state_now)
    if decision is None:
        return "the game is over; take the last action back only with --agreed"
    if group.player != decision.player:
        return (f"the last action was {group.player}'s and the game now waits on {decision.player}; "
                "take it back only with --agreed")
    return None

