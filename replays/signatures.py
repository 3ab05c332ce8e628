"""Signed actions: who made each action of a game whose seats are bound to keys.

A game's charter (``trvendetta.store.Charter``) binds seats to Ed25519 public
keys before event 1.  Every action of a bound seat is signed by that seat
over the game (its *domain*: event 1's hash, or for a fork its own), the
record's number, the hash of the record before it and the action's
canonical bytes (:func:`message`).  A signature signs the chain up to the
record it rides on, so it also covers the actions of the same seat just
before it: a seat signs the last action of each run of its actions (a
turn), and every action of the run is covered (docs/fair-play.md says why:
one signature per action cost more than the whole re-execution).

A retraction (``trv undo``) is signed by the player taking the action back;
an agreed one (past a die roll, across players, after the game's end) by
every bound seat.

The record's ``sig`` field is ``seat:base64`` entries separated by spaces.
:class:`SignatureCheck` checks them during a walk (``replays.walker``); its
errors name the event, the seat and the signer.  Every signature is checked
(:func:`valid`: libsodium's Ed25519, through PyNaCl; keys and signing stay
with ``cryptography``): the check itself is nearly all that signatures cost
a walk, so nothing else is computed per action unless a check fails
(docs/performance.md).
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Iterator
from typing import Any


from trvendetta.store import Charter, decode_charter

from .keys import BOT_CONTRIBUTION, canonical_b64, contribution_body, fingerprint, valid
from .walker import Tampered

#: the prefix of every signed message (a version, so the format can change)
PREFIX = b"trvendetta signature 1\n"
#: the name a host game's host signs under (``@`` is in no seat's name)
HOST = "@host"
#: the prefix of a delegation: a seat's key lets another key act for it in one host's games
DELEGATION_PREFIX = b"trvendetta delegation 1\n"
#: a delegated signature's bytes: the signature (64), the delegated key (32), the delegation's
#: end (8, seconds since 1970, big-endian) and the seat key's signature of the delegation (64)
DELEGATED_BYTES = 64 + 32 + 8 + 64


def delegation_body(seat: str, delegate_hex: str, host_hex: str, until: int) -> bytes:
    """What a seat's own key signs to let the key ``delegate_hex`` act for it in the games
    hosted by ``host_hex`` (a club server's key) until ``until`` (seconds since 1970)."""
    return b"%s%s\n%s\n%s\n%d" % (DELEGATION_PREFIX, seat.encode(), delegate_hex.encode(), host_hex.encode(), until)


#: the prefix of a revocation: a seat's key takes back, on one host, the delegations it names
REVOCATION_PREFIX = b"trvendetta revocation 2\n"


def revocation_body(seat: str, host_hex: str, at: int, keys: list[str]) -> bytes:
    """What a seat's own key signs to revoke, on the host (club server) ``host_hex``, the delegated
    keys ``keys`` (hex, sorted) at ``at`` (seconds since 1970): `trv login --revoke`.  Carried into
    each of the seat's games as a ``trv-revoke`` record, it counts from its place in the chain."""
    return b"%s%s\n%s\n%d\n%s" % (REVOCATION_PREFIX, seat.encode(), host_hex.encode(), at,
                                    ",".join(keys).encode())


def delegated(signature: bytes, delegation: bytes) -> bytes:
    """A signature made with a delegated key, carrying its delegation (key, end and the seat's
    signature of it: 104 bytes, :func:`split_delegation`), as one entry's bytes."""
    return signature + delegation


def split_delegation(raw: bytes) -> tuple[bytes, bytes, int, bytes]:
    """A delegated signature's parts: (signature, delegated key, until, the seat's signature)."""
    return raw[:64], raw[64:96], int.from_bytes(raw[96:104], "big"), raw[104:168]


def message(domain: str, number: int, previous: str, body: bytes) -> bytes:
    """The bytes a seat signs for the record ``number`` following ``previous``."""
    return b"%s%s\n%d\n%s\n%s" % (PREFIX, domain.encode(), number, previous.encode(), body)


def resolution_body(action: bytes, payloads: list[bytes]) -> bytes:
    """What a host game's host signs for a draw it resolved (with :func:`message`): the action
    and every event it produced, one a line (canonical JSON holds no raw newline), so the
    host's word covers the rolls themselves before its seed is revealed."""
    return b"\n".join([action, *payloads])


#: what an action is, in words; computed only for an error message (describing each action costs a walk more
#: than checking its run's signature)
What = str | Callable[[], str]


def _said(what: What) -> str:
    return what if isinstance(what, str) else what()


def fork_domain(spec: str, game_id: str, at: int) -> str:
    """The domain spec of a fork taken after record ``at`` of a game with
    domain spec ``spec``: its records after ``at`` are signed in the fork's
    own name, so a fork's signed actions never pass as the original's.

    A spec is ``"N:HEX N:HEX ..."``: from record N+1 on, signatures name HEX
    (before the first entry, the game id: event 1's hash)."""
    parent = domain_at(spec, game_id, at)
    own = hashlib.sha256(b"trvendetta fork 1\n%s\n%d" % (parent.encode(), at)).hexdigest()
    return f"{spec} {at}:{own}".strip()


def domain_at(spec: str, game_id: str, number: int) -> str:
    """What the signature of record ``number`` names (see :func:`fork_domain`)."""
    found = game_id
    for item in spec.split():
        after, _, hexdigest = item.partition(":")
        if int(after) < number:
            found = hexdigest
    return found


def parse(sig: bytes) -> list[tuple[str, bytes]]:
    """``b"ann:BASE64 bob:BASE64"`` -> [(seat, 64 signature bytes)]; ValueError if malformed."""
    out = []
    for entry in sig.split(b" "):
        seat, colon, text = entry.partition(b":")
        if not colon or not seat:
            raise ValueError(f"{entry[:40]!r} is not SEAT:SIGNATURE")
        found = canonical_b64(text.decode("ascii", "replace"))
        if found is None:
            raise ValueError(f"the signature of {seat.decode('utf-8', 'replace')} is not base64 in its canonical "
                             "spelling (b64encode of its bytes): another spelling would change the record's hash")
        raw = found
        if len(raw) not in (64, DELEGATED_BYTES):
            raise ValueError(f"the signature of {seat.decode('utf-8', 'replace')} is not 64 bytes "
                             f"(nor {DELEGATED_BYTES}: one made with a delegated key)")
        out.append((seat.decode("utf-8", "replace"), raw))
    return out


def delegated_entries(records: Any) -> Iterator[tuple[Any, str, bytes]]:
    """Each signature made with a delegated key among ``records`` (raw records with ``sig``):
    (record, seat, the entry's bytes).  An unreadable signature line is skipped: the walk refuses it,
    naming the event."""
    for r in records:
        if not isinstance(r.sig, bytes) or not r.sig:
            continue
        try:
            entries = parse(r.sig)
        except ValueError:
            continue
        for seat, raw in entries:
            if len(raw) == DELEGATED_BYTES:
                yield r, seat, raw


def entry(seat: str, signature: bytes) -> bytes:
    return seat.encode() + b":" + base64.b64encode(signature)


def sign_runs(steps: list[tuple[Any, ...]], seats: list[str | None], bound: Any, sign: Any,
              spec: str, game_id: str) -> list[tuple[Any, ...]]:
    """Give the last step of each run of one bound seat's actions a signer
    (``GameStore.append`` calls it with the record's number and previous
    hash); the signature covers the run through the chain.

    ``steps`` are ``(action, events)`` pairs, ``seats`` whose decision each
    answered, ``bound`` the bound seats, ``sign(seat, message) -> 64 bytes``."""

    def signer(seat: str) -> Any:
        def make(number: int, previous: str, action: bytes) -> bytes:
            msg = message(domain_at(spec, game_id, number), number, previous, action)
            return entry(seat, sign(seat, msg))
        return make

    out = []
    for i, (step, seat) in enumerate(zip(steps, seats)):
        last_of_run = i + 1 == len(steps) or seats[i + 1] != seat
        if seat is not None and seat in bound and last_of_run:
            out.append((step[0], step[1], signer(seat)))
        else:
            out.append(step)
    return out


class SignatureCheck:
    """Checks the signatures of one walk against a charter (see the module docstring)."""

    #: the name a host game's host signs under (for the walk's other checks: ``replays.outcomes``)
    HOST = HOST

    def __init__(self, charter: Charter | str | None, domain: str = ""):
        #: the charter's text when given as text (a charter of format 2 must be canonical)
        self.charter_text = charter if isinstance(charter, str) else ""
        if isinstance(charter, str):
            charter = decode_charter(charter)
        self.charter = charter
        self.seats: dict[str, str] = dict(charter.seats) if charter else {}
        #: a host game's host key (docs/fair-play.md, host mode): it signs each draw it resolves
        self.host = charter.host if charter else ""
        #: bot seats ``{seat: kind}``; each signs with the key of whoever runs it
        self.bots: dict[str, str] = dict(charter.bots) if charter else {}
        #: the charter's time control ("" for none): a claim on time names it
        self.time = charter.time if charter else ""
        #: the domain spec (see :func:`fork_domain`) and the game id (event 1's hash, once seen)
        self.spec = domain
        self.game_id = ""
        #: each signer's raw public key (32 bytes), decoded once per walk
        self._keys: dict[str, bytes] = {seat: bytes.fromhex(pub) for seat, pub in self.seats.items()}
        if self.seats and self.host:
            self._keys[HOST] = bytes.fromhex(self.host)
        #: the newest action of a bound seat that no signature covers yet: (seat, number, what)
        self.open: tuple[str, int, What] | None = None
        #: seat -> number of signatures checked
        self.checked: dict[str, int] = {}
        #: a host game's resolution whose events are still being walked: (record, what, payloads)
        self.resolution: tuple[Any, What, list[bytes]] | None = None
        #: delegated keys checked in this walk: (seat, delegation bytes) -> the key (None: refused)
        self._delegations: dict[tuple[str, bytes], bytes | None] = {}
        #: seat -> signatures made with a delegated key (a browser's, docs/server.md)
        self.delegated: dict[str, int] = {}
        #: seat -> {delegated key: the record of the seat's revocation of it}: from that record on, the
        #: key acts for no one (``on_revocation``)
        self.revoked: dict[str, dict[bytes, int]] = {}
        #: a walk resumed after a point of a stored game (``replays.resume``): the revocations before it,
        #: read when a delegated signature is first checked, ``[(record, Revoke)]``
        self.earlier: Callable[[], list[tuple[Any, Any]]] | None = None
        #: host signatures over a resolution's action only (records of trv before the host signed
        #: the events too): accepted, and counted so that `verify` says so
        self.legacy_host = 0

    def domain(self, number: int) -> str:
        """What the signature of record ``number`` names."""
        return domain_at(self.spec, self.game_id, number)

    @property
    def bound(self) -> bool:
        return bool(self.seats)

    def _who(self, seat: str) -> str:
        if seat == HOST and self.host:
            return f"the host ({fingerprint(self.host)})"
        return f"{seat} ({fingerprint(self.seats[seat])})" if seat in self.seats else seat

    def _valid(self, seat: str, signature: bytes, msg: bytes) -> bool:
        key = self._keys.get(seat)
        if key is None:
            return False
        if len(signature) == DELEGATED_BYTES:
            delegate = self._delegate(seat, signature[64:])
            if delegate is None or not valid(delegate, signature[:64], msg):
                return False
            if self.earlier is not None:
                earlier, self.earlier = self.earlier, None
                for record, found in earlier():
                    self._note_revocation(record, found)
            if self.revoked and delegate in self.revoked.get(seat, ()):
                return False  # (``_signer`` names the key and the revocation)
            self.delegated[seat] = self.delegated.get(seat, 0) + 1
            return True
        return valid(key, signature, msg)

    def _delegate(self, seat: str, delegation: bytes) -> bytes | None:
        """The key a seat's delegation lets act for it, when the seat's own key signed it for
        this game's host (a delegation names one host: a club server); else None.  A record does
        not say when a signature was made, so the delegation's end is checked where records
        arrive, by the receiving store's clock (``app.clock.check_delegations``; a server's as a
        move or packet is posted to it), not here."""
        found = self._delegations.get((seat, delegation), b"")
        if found != b"":
            return found
        _, key, until, seat_signature = split_delegation(b"\0" * 64 + delegation)
        body = delegation_body(seat, key.hex(), self.host, until)
        ok = bool(self.host) and seat != HOST and valid(self._keys[seat], seat_signature, body)
        self._delegations[(seat, delegation)] = key if ok else None
        return key if ok else None

    def _signer(self, signature: bytes, msg: bytes) -> str:
        """Whose key made ``signature``, among the game's seats (for the message)."""
        if len(signature) == DELEGATED_BYTES:
            _, key, until, _ = split_delegation(signature)
            for seat in self.seats:
                if self._delegate(seat, signature[64:]) is not None:
                    made = valid(key, signature[:64], msg)
                    revoked = self.revoked.get(seat, {}).get(key)
                    return (f"key {fingerprint(key.hex())}, delegated by {seat} until {until}"
                            + ("" if made else ", over other bytes (another action, record or game)")
                            + ("" if revoked is None else
                               f", which {seat} revoked at event {revoked} (a revocation signed by {seat}'s own "
                               "key): a revoked key acts for no one after its revocation"))
            return (f"key {fingerprint(key.hex())}, whose delegation no seat of this game signed for "
                    f"this game's host{'' if self.host else ' (this game has none)'}")
        for seat in self.seats:
            if self._valid(seat, signature, msg):
                return f"{seat}'s key"
        if self.host and HOST in self._keys and valid(self._keys[HOST], signature[:64], msg):
            return f"the host's key ({fingerprint(self.host)})"
        return "a key of none of this game's seats"

    def contributions_problem(self) -> str | None:
        """In a host game with signed contributions: why its seed inputs are not the ones the
        players signed (a contribution changed, a commitment made after them, a bot seat's value
        picked by the host); None when they are, or when the game keeps no signatures (made before)."""
        charter = self.charter
        from .setups import CONTRIBUTION_2, charter_problem

        if charter is not None:
            problem = charter_problem(charter, self.charter_text, self._who, self._signed_as)
            if problem or charter.v:
                return problem
        if charter is None or charter.dice != "host" or not charter.offer:
            return None
        host = f"the host ({fingerprint(charter.host)})"
        for seat in sorted(charter.seats):
            value = charter.setup.get(seat, "")
            if seat in charter.bots:
                if value != BOT_CONTRIBUTION or seat in charter.signed:
                    return (f"{seat} is a bot seat the host runs, and {host} contributed {value[:16]}... for it "
                            f"instead of {BOT_CONTRIBUTION[:16]}...: the host could have chosen it after reading the "
                            "players' contributions")
                continue
            body = contribution_body(charter.offer, seat, value, charter.seed_commit)
            signature = canonical_b64(charter.signed.get(seat, "")) or b""
            if not value or len(signature) not in (64, DELEGATED_BYTES) or not self._valid(seat, signature, body):
                if value and self._valid(seat, signature, contribution_body(charter.offer, seat, value,
                                                                            charter.seed_commit, CONTRIBUTION_2)):
                    return (f"{seat}'s contribution was signed by {self._who(seat)} for a charter of format 2, which "
                            f"keeps the offer; this charter was stripped of its format by {host}: refused, never "
                            "taken as a record made before")
                return (f"{seat}'s contribution to the seed ({value[:16]}...) is not what {self._who(seat)} signed "
                        f"for offer {charter.offer[:16]}... and commitment {charter.seed_commit[:16]}...: {host} "
                        "changed the contribution, or committed to its seed after reading it")
        extra = sorted(set(charter.signed) - set(charter.seats) | set(charter.setup) - set(charter.seats))
        if extra:
            return f"the charter holds contributions of {', '.join(extra)}, who have no seat"
        return None

    def _signed_as(self, seat: str, signature: bytes, body: bytes) -> bool:
        """Whether ``signature`` is ``seat``'s (its key, or a key it delegated) over ``body``."""
        return len(signature) in (64, DELEGATED_BYTES) and self._valid(seat, signature, body)

    def _entries(self, number: int, sig: bytes) -> list[tuple[str, bytes]]:
        if not sig:
            return []
        try:
            return parse(sig)
        except ValueError as exc:
            raise Tampered(number, f"the signature line is malformed: {exc}") from None

    def _close(self, seat: str | None) -> None:
        if self.open is not None and self.open[0] != seat:
            who, number, what = self.open
            raise Tampered(number, f"{who}'s action {_said(what)!r} carries no signature of {self._who(who)}, and no "
                                   f"later signature of {who}'s covers it: {who} did not sign it")

    def on_setup(self, number: int, record: Any) -> None:
        if number == 1:
            self.game_id = record.hash
            problem = self.contributions_problem()
            if problem:
                raise Tampered(1, problem)
        if record.sig:
            raise Tampered(number, "a set-up event carries a signature")

    def on_action(self, record: Any, seat: str | None, what: What, covered: bool = False) -> None:
        """An action of ``seat`` starts at ``record``; ``covered``: its signed
        intent came before it (an exchange game's draw), so it needs no more.
        ``what`` says the action (or gives it, when asked: only errors ask)."""
        number = record.number
        self.flush()
        self._close(seat)
        if covered and self.host:  # checked once its last event is walked (see ``on_event``)
            self.resolution = (record, lambda: f"the resolution of {seat}'s {_said(what)!r}", [])
            return
        entries = self._entries(number, record.sig)
        if covered and not entries:
            return
        if seat not in self.seats:
            if entries:
                raise Tampered(number, f"{seat}'s action {_said(what)!r} is signed, but {seat}'s seat is not bound to "
                                       "a key")
            return
        if not entries:
            self.open = (seat, number, what)
            return
        if len(entries) != 1:
            raise Tampered(number, f"{seat}'s action {_said(what)!r} carries {len(entries)} signatures; an action "
                                   "carries its seat's only")
        named, signature = entries[0]
        msg = message(self.domain(number), number, record.previous, record.action)
        if named != seat or not self._valid(seat, signature, msg):
            raise Tampered(number, f"{seat}'s action {_said(what)!r} is not signed by {self._who(seat)}: the signature "
                                   f"names {named} and was made with {self._signer(signature, msg)}")
        self.checked[seat] = self.checked.get(seat, 0) + 1
        self.open = None

    def on_event(self, record: Any) -> None:
        """An event of the action being walked (the walker calls it while a resolution is open)."""
        if self.resolution is not None:
            self.resolution[2].append(record.payload)

    def flush(self) -> None:
        """The open resolution's events are all walked: check the host's signature over them."""
        if self.resolution is None:
            return
        record, what, payloads = self.resolution
        self.resolution = None
        self.check_host(record, resolution_body(record.action, payloads), what, legacy=record.action)

    def on_host_reveal(self, record: Any) -> None:
        self.flush()
        self.check_host(record, record.payload, "the host's reveal of the seed")

    def check_host(self, record: Any, body: bytes, what: What, legacy: bytes | None = None) -> None:
        """A host game's record the host signs (a draw it resolved, its seed's reveal).  ``legacy``:
        the body an older trv signed for a resolution (its action only), accepted and counted."""
        number = record.number
        entries = self._entries(number, record.sig)
        msg = message(self.domain(number), number, record.previous, body)
        who = f"the host ({fingerprint(self.host)})"
        if len(entries) != 1 or entries[0][0] != HOST:
            raise Tampered(number, f"{_said(what)} carries no signature of {who}; the host signs every draw it "
                                   "resolves and its seed's reveal")
        # (no game with bot seats was ever signed the old way: their host key also signs as a seat)
        if legacy is not None and not self.bots and not self._valid(HOST, entries[0][1], msg) and \
                self._valid(HOST, entries[0][1], message(self.domain(number), number, record.previous, legacy)):
            self.legacy_host += 1
            self.checked[HOST] = self.checked.get(HOST, 0) + 1
            return
        if not self._valid(HOST, entries[0][1], msg):
            if legacy is not None:
                raise Tampered(number, f"{_said(what)} is not what {who} signed: its action or one of its events "
                                       "(a roll) was changed, or another key signed it")
            raise Tampered(number, f"{_said(what)} is not signed by {who}: the signature was made with "
                                   f"{self._signer(entries[0][1], msg)}")
        self.checked[HOST] = self.checked.get(HOST, 0) + 1

    def on_retraction(self, record: Any, taker: str | None, agreed: bool, what: str) -> None:
        """A retraction: signed by ``taker``; agreed, by every bound seat."""
        number = record.number
        self.flush()
        self._close(None)
        needed = set(self.seats) if agreed else {s for s in self.seats if s == taker}
        entries = self._entries(number, record.sig)
        msg = message(self.domain(number), number, record.previous, record.payload)
        given = {}
        for named, signature in entries:
            if named not in self.seats or not self._valid(named, signature, msg):
                raise Tampered(number, f"the retraction of {what!r} carries a signature naming {named} that "
                                       f"{named}'s key did not make (made with {self._signer(signature, msg)})")
            given[named] = True
            self.checked[named] = self.checked.get(named, 0) + 1
        missing = sorted(needed - set(given))
        if missing:
            how = "an agreed retraction needs every bound seat's signature" if agreed else \
                "a retraction needs the signature of the player taking the action back"
            raise Tampered(number, f"the retraction of {taker}'s {what!r} is not signed by "
                                   f"{', '.join(self._who(s) for s in missing)} ({how})")

    def on_revocation(self, record: Any, found: Any) -> None:
        """A seat's revocation (``trvendetta.store.Revoke``) at ``record``: signed by the seat's own bound
        key for this game's host; from here on its keys act for no one.  What came before stays."""
        self.flush()
        self._note_revocation(record, found)
        self.checked[found.seat] = self.checked.get(found.seat, 0) + 1

    def _note_revocation(self, record: Any, found: Any) -> None:
        number = record.number
        seat = found.seat
        what = f"the revocation of {seat}'s browser keys"
        if seat not in self.seats or not self.host:
            raise Tampered(number, f"{what}: {seat} has no seat bound to a key in this game"
                                   if seat not in self.seats else f"{what}, in a game without a host (server)")
        if found.server != self.host:
            raise Tampered(number, f"{what} is for the server {fingerprint(found.server)}, not this game's host "
                                   f"({fingerprint(self.host)})")
        if found.keys != sorted(set(found.keys)):
            raise Tampered(number, f"{what} names its keys out of order or twice")
        signature = canonical_b64(found.sig) or b""
        body = revocation_body(seat, found.server, found.at, found.keys)
        if len(signature) != 64 or not valid(self._keys[seat], signature, body):
            made = self._signer(signature, body) if len(signature) == 64 else "no signature of 64 bytes"
            raise Tampered(number, f"{what} is not signed by {self._who(seat)}: made with {made}; only a seat's "
                                   "own key revokes its delegations")
        mine = self.revoked.setdefault(seat, {})
        for key in found.keys:
            mine.setdefault(bytes.fromhex(key), number)

    def on_outcome(self, record: Any, seat: str, after: int, after_hash: str, what: str) -> None:
        """A claim (``seat``: the claimant) or a resignation (``seat``: the seat resigning): signed by
        ``seat`` when bound, over the record it follows (``after``, its hash), wherever it lies."""
        number = record.number
        self.flush()
        self._close(None)
        entries = self._entries(number, record.sig)
        if seat not in self.seats and not (seat == HOST and self.host and self.seats):
            if entries:
                raise Tampered(number, f"{what} is signed, but {seat}'s seat is not bound to a key")
            return
        msg = message(self.domain(after + 1), after + 1, after_hash, record.payload)
        if len(entries) != 1 or entries[0][0] != seat or not self._valid(seat, entries[0][1], msg):
            made = self._signer(entries[0][1], msg) if entries else "no key (it is unsigned)"
            raise Tampered(number, f"{what} is not signed by {self._who(seat)}: made with {made}")
        self.checked[seat] = self.checked.get(seat, 0) + 1

    def end(self) -> None:
        self.flush()
        self._close(None)


__all__ = ["BOT_CONTRIBUTION", "DELEGATED_BYTES", "HOST", "revocation_body", "contribution_body", "SignatureCheck", "delegated", "delegation_body", "split_delegation", "domain_at", "resolution_body", "sign_runs", "entry", "fingerprint",
           "fork_domain", "message", "parse", "valid"]
