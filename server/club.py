"""What a club server does, without HTTP: players log in with their keys, games are host
games the server hosts, and every move reaches the store through the application layer.

:class:`Club` is called by the HTTP routes (``server/app.py``) on one worker thread per
process (the store's work is serialised there).  Each method returns plain data or raises
:class:`Refused` (a status and one message); the routes turn that into a response.

What the server holds: its host identity (the key that signs what the host signs, and the
committed seeds of its games, both in its ``$TRV_HOME``, as for `trv host`), the store,
and its own tables (``server/accounts.py``).  What it never holds: a player's key.  Every
action reaches the store signed by its player: a packet a player's `trv` made and signed
(imported like a mailed one, every signature checked), or one action signed by the player's
key or by a key the player delegated to (``act``).
"""

from __future__ import annotations

import base64
import binascii
import os
import time
from collections.abc import Callable
from typing import Any

import msgspec

from trvendetta import replays, rulesets
from trvendetta.app import GameService, pending_line
from trvendetta.app.host import HostKeys
from trvendetta.app.messages import Contribution, Offer
from trvendetta.app.outcome import outcome_of
from trvendetta.app.sealing import dealer_view, hides
from trvendetta.core.draws import HOST_BYTES
from trvendetta.core.errors import RuleViolation, TrvError
from trvendetta.core.names import name_problem
from trvendetta.replays.keys import canonical_b64
from trvendetta.replays.setups import CONTRIBUTION_1, CONTRIBUTION_2
from trvendetta.replays.signatures import (DELEGATED_BYTES, HOST, delegated_entries, delegation_body, domain_at, entry,
                                           fingerprint, message, revocation_body, split_delegation, valid)
from trvendetta.store import (REVOKE_KIND, DamagedStore, GameExists, GameMovedOn, GameNotFound, GameStore, RawRecord,
                              Revoke, StoreUnsynced, decode_charter, encode_draw)

from .accounts import Accounts, digest
from .refused import Refused

#: what a player signs to log in: this, the server's key, and the challenge
LOGIN_PREFIX = b"trvendetta login 1\n"
CHALLENGE_SECONDS = 300
SESSION_SECONDS = 7 * 24 * 3600
#: what the server signs in a login challenge (its time and a nonce), so no challenge is stored
CHALLENGE_PREFIX = b"trvendetta challenge 1\n"
PAIRING_SECONDS = 600
#: whole records kept exported (each until its game moves on)
RECORDS_KEPT = 64
#: the longest a browser's delegation may run
MAX_DELEGATION_SECONDS = 90 * 24 * 3600
#: open games (and offers) with bot seats one player may have at once (`trv serve --bot-games`)
BOT_GAMES = 2


def _short(exc: BaseException) -> str:
    """One line naming a failure of the store or the disk."""
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:200]


def _store_down(exc: BaseException) -> bool:
    """Whether ``exc`` says the database does not answer (PostgreSQL's connection lost or none to be had
    from the pool) or takes no writes (a failed fsync: ``StoreUnsynced``): no one game's failure."""
    import sys

    if isinstance(exc, StoreUnsynced):
        return True
    psycopg = sys.modules.get("psycopg")  # imported only by a server on PostgreSQL
    return psycopg is not None and isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError))


def login_message(host_public: str, challenge: str) -> bytes:
    return b"%s%s\n%s" % (LOGIN_PREFIX, host_public.encode(), challenge.encode())


def revocation_message(player: str, host_public: str, at: int) -> bytes:
    """What a player's own key signs to revoke, on one server, every browser key it delegated there
    up to ``at`` (seconds since 1970): `trv login --revoke`."""
    return b"trvendetta revocation 1\n%s\n%s\n%d" % (player.encode(), host_public.encode(), at)


def pairing_key_message(token: str, public: str) -> bytes:
    """What a page signs with its new key when it offers it for a pairing: the key is the page's own
    (it holds the private half) and offered for this pairing only."""
    return b"trvendetta pairing key 1\n%s\n%s" % (token.encode(), public.encode())


def pairing_code(token: str, public: str) -> str:
    """The short code the page and `trv login --browser` both show for a pairing and a key (six
    digits of SHA-256 over both): the player types the page's into the CLI, which certifies the key
    that reached the server only if its code is the same, so a key another page slipped in first is
    never certified."""
    import hashlib

    digest = hashlib.sha256(b"trvendetta pairing code 1\n%s\n%s" % (token.encode(), public.encode())).digest()
    n = int.from_bytes(digest[:4], "big") % 1_000_000
    return f"{n // 1000:03d} {n % 1000:03d}"


def _b64(text: str, what: str, sizes: tuple[int, ...]) -> bytes:
    raw = canonical_b64(text) if isinstance(text, str) else None
    if raw is None:
        raise Refused(400, f"{what} is not base64 in its canonical spelling (b64encode of its bytes)")
    if len(raw) not in sizes:
        raise Refused(400, f"{what} is {len(raw)} bytes, not {' or '.join(map(str, sizes))}")
    return raw


def _hex_key(text: str, what: str) -> str:
    if not isinstance(text, str) or len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise Refused(400, f"{what} is not a public key (64 lower-case hex digits)")
    return text


class _Seen:
    """What this process worked out about a game at one version: a version's records never change,
    so nothing here is worked out twice (the game's state, whether it ended, the draw it waits for,
    its clock, its log, its picture, each player's document).  Any process's append makes a new
    version, which the next request reads (``Club._seen``)."""

    def __init__(self, loaded: Any, charter: Any):
        self.version, self.loaded, self.charter = loaded.version, loaded, charter
        self.memo: dict[Any, Any] = {}

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        if key not in self.memo:
            self.memo[key] = make()
        return self.memo[key]


#: games whose worked-out versions a process keeps (least recently used forgotten first)
SEEN_KEPT = 512


class Club:
    """One server process's view of the club: the store, the accounts, the host's keys."""

    def __init__(self, store: str, host: HostKeys, host_public: str, *, new_seed: Callable[[], str],
                 clock: Callable[[], float] = time.time, random_bytes: Callable[[int], bytes] = os.urandom,
                 mailer: Any = None, bot_games: int = BOT_GAMES, search_steps: int | None = None):
        self.store = GameStore(store)
        self.store.trust_own_reads()  # what this process checked or wrote is not checked again each read
        self.service = GameService(self.store)
        self.accounts = Accounts(store)
        self.host, self.host_public = host, host_public
        self.new_seed, self.clock, self.random_bytes, self.mailer = new_seed, clock, random_bytes, mailer
        self._seen_games: dict[str, _Seen] = {}
        self._game_ids: dict[str, str] = {}  # a game's first event's hash (its id): never changes
        self._logs: dict[str, tuple[int, list[str]]] = {}  # the log's lines at a version, extended after it
        self._keys: dict[str, str] = {}  # a player's bound key: a binding never changes
        #: whole records exported, by game: (version, text)
        self._records: dict[str, tuple[int, str]] = {}
        #: why a game's host step last failed (said on stderr once per cause, not every clock round)
        self._stuck: dict[str, str] = {}
        #: why a game's part of the clock's round last failed (said once per cause, as ``_stuck``)
        self._failing: dict[str, str] = {}
        #: bot seats (server/bots.py): how many open games with them a player may have, the search's budget
        self.bot_games, self.search_steps = bot_games, search_steps
        #: whether the bot seats play within the request that reached them (this object alone); the HTTP
        #: server sets it False and plays them itself, thinking on a thread of its own (``server.app``)
        self.inline_bots = True
        #: the games ``resolve_open`` found waiting on a bot seat it left to the HTTP server
        self.bots_due: list[str] = []

    def close(self) -> None:
        self.accounts.close()
        self.store.close()

    def now(self) -> int:
        return int(self.clock())

    def wall(self) -> Any:
        """This server's clock as a UTC datetime: the reference of its games' times (a claim a player
        posts is checked against it and the store's stamps, ``app.clock.check_received``)."""
        from datetime import datetime, timezone

        return datetime.fromtimestamp(self.clock(), timezone.utc)

    def _token(self) -> str:
        return base64.urlsafe_b64encode(self.random_bytes(32)).rstrip(b"=").decode()

    # -------------------------------------------------------------- login
    def challenge(self) -> dict:
        """A single-use login challenge, written nowhere: its time and a nonce, signed by the server's
        key (any process of the club checks it); a login marks it used."""
        body = self.now().to_bytes(8, "big") + self.random_bytes(16)
        sig = self.host.keyring(self.host_public).sign(HOST, CHALLENGE_PREFIX + body)
        token = base64.urlsafe_b64encode(body + sig).rstrip(b"=").decode()
        return {"challenge": token, "server": self.host_public, "expires_in": CHALLENGE_SECONDS}

    def _live_challenge(self, challenge: str) -> int | None:
        """When ``challenge`` was made, if it is this server's and live (its use is marked by the login)."""
        try:
            raw = base64.urlsafe_b64decode(challenge + "=" * (-len(challenge) % 4))
        except (binascii.Error, ValueError):
            return None
        if len(raw) != 24 + 64 or not valid(bytes.fromhex(self.host_public), raw[24:], CHALLENGE_PREFIX + raw[:24]):
            return None
        made = int.from_bytes(raw[:8], "big")
        return made if made <= self.now() < made + CHALLENGE_SECONDS else None

    def _name_free(self, name: str, public: str) -> None:
        """Refused when ``name`` is another player's but for letter case (annie and Annie are one name)."""
        folded = self.accounts.player_folded(name)
        if folded is None or folded[0] == name:
            return
        if folded[1] == public:
            raise Refused(403, f"your key {fingerprint(public)} is {folded[0]!r} on this server: log in as "
                               f"{folded[0]!r} (names that differ only in letter case are one name here)")
        raise Refused(403, f"the name {name!r} is taken: {folded[0]!r} plays on this server, and names that differ "
                           "only in letter case are one name here; choose another name")

    def login(self, name: str, public: str, challenge: str, signature: str,
              admit: Callable[[], None] | None = None) -> dict:
        """A login by ``public``'s signature of a live challenge of this server; the first login of a
        name binds it to the key (a sign-up: ``admit`` is asked first, and refuses past the limit of
        sign-ups of this client).  A refusal writes nothing."""
        problem = name_problem(name)
        if problem is not None:
            raise Refused(400, f"player name: {problem}")
        public = _hex_key(public, "public")
        raw = _b64(signature, "signature", (64,))
        used = Refused(401, "the challenge is unknown, used already or expired: ask for a new one "
                            "(GET /api/challenge)")
        made = self._live_challenge(challenge)
        if made is None:
            raise used
        if not valid(bytes.fromhex(public), raw, login_message(self.host_public, challenge)):
            raise Refused(401, f"the signature is not {fingerprint(public)}'s over this server's challenge")
        if self.accounts.player(name) is None:  # a sign-up
            self._name_free(name, public)
            from .bots import bot_seat_game

            seated = bot_seat_game(self, name)
            if seated is not None:  # the name would mean two seats there (server/bots.py)
                raise Refused(403, f"the name {name!r} is a bot seat in {seated} on this server (the server plays "
                                   "it): choose another name (it is free again once that game is over)")
            taken = self.accounts.player_by_key(public)
            if taken is not None:
                raise Refused(403, f"your key {fingerprint(public)} is {taken!r} on this server (one name a key): "
                                   "log in as that name, or with another identity")
            if admit is not None:
                admit()
        self.accounts.forget_expired(self.now())
        if not self.accounts.use_once(challenge, made + CHALLENGE_SECONDS):
            raise used
        if not self.accounts.register(name, public, self.now()):
            self._name_free(name, public)  # another process bound it first, but for letter case
            known = self.accounts.player(name)
            if known is None:  # the name is free, the key is another name's
                raise Refused(403, f"your key {fingerprint(public)} is {self.accounts.player_by_key(public)!r} on this "
                                   "server (one name a key): log in as that name, or with another identity")
            raise Refused(403, f"the name {name!r} belongs to key {fingerprint(known[1])} on this server; "
                               "log in with that identity or choose another name")
        return {"name": name, "token": self._session(name), "expires_in": SESSION_SECONDS}

    def _session(self, name: str, data: dict | None = None) -> str:
        token = self._token()
        self.accounts.put_token(token, "session", name, data or {}, self.now() + SESSION_SECONDS)
        return token

    def logout(self, token: str | None) -> dict:
        """The session ends (its token is forgotten): the next request with it is refused."""
        player = self.player_of(token)
        self.accounts.run("DELETE FROM trv_server_tokens WHERE digest = ? AND kind = ?", digest(token or ""),
                          "session")
        return {"name": player, "logged_out": True}

    def player_of(self, token: str | None) -> str:
        """The player a session token belongs to; 401 without a live one."""
        if not token:
            raise Refused(401, "log in first: trv login URL (no session token given)")
        found = self.accounts.token(token, "session", self.now())
        if found is None:
            raise Refused(401, "the session is unknown or expired: log in again (trv login URL)")
        return found[0]

    def set_email(self, player: str, email: str) -> dict:
        if email and ("@" not in email or any(c in email for c in " \r\n<>,;") or len(email) > 200):
            raise Refused(400, f"{email[:60]!r} is not an email address")
        self.accounts.set_email(player, email)
        return {"name": player, "email": email}

    # ----------------------------------------------------------- pairing
    def pairing(self, player: str) -> dict:
        """A browser pairing for ``player`` (`trv login --browser`): its secret token goes in the
        page's address fragment, never in a request line (so never in a log)."""
        token = self._token()
        self.accounts.put_token(token, "pairing", player, {}, self.now() + PAIRING_SECONDS)
        return {"pairing": token, "expires_in": PAIRING_SECONDS}

    def pairing_key(self, token: str, public: str, proof: str) -> dict:
        """The page's own public key, sent once with the pairing token and signed by that key
        (:func:`pairing_key_message`)."""
        public = _hex_key(public, "public")
        found = self.accounts.token(token, "pairing", self.now())
        if found is None:
            raise Refused(404, "no such pairing, or it expired: run trv login --browser URL again")
        if not valid(bytes.fromhex(public), _b64(proof, "proof", (64,)), pairing_key_message(token, public)):
            raise Refused(403, "the proof is not signed by the key offered: a page offers its own key")
        if found[1].get("key"):
            raise Refused(409, "this pairing has a browser key already: run trv login --browser URL again")
        self.accounts.update_token(token, "pairing", {"key": public})
        return {"player": found[0], "fingerprint": fingerprint(public), "server": self.host_public}

    def pairing_state(self, token: str, player: str | None = None) -> dict:
        found = self.accounts.token(token, "pairing", self.now())
        if found is None or (player is not None and found[0] != player):
            raise Refused(404, "no such pairing, or it expired: run trv login --browser URL again")
        data = found[1]
        return {"player": found[0], "key": data.get("key", ""), "delegation": data.get("delegation", ""),
                "until": data.get("until", 0)}

    def pairing_delegate(self, player: str, token: str, delegation: str) -> dict:
        """The CLI's delegation for the page's key, checked: signed by the player's key for this server."""
        state = self.pairing_state(token, player)
        if not state["key"]:
            raise Refused(409, "the page has not sent its key yet")
        raw = _b64(delegation, "delegation", (DELEGATED_BYTES - 64,))
        _, key, until, _ = split_delegation(b"\0" * 64 + raw)
        if key.hex() != state["key"]:
            raise Refused(400, "the delegation is for another key than the page's")
        self._check_delegation(player, raw, revocable=False)
        self.accounts.certified(player, key.hex(), self.now())
        self.accounts.update_token(token, "pairing", {"key": state["key"], "delegation": delegation,
                                                      "until": until})
        return {"player": player, "until": until}

    def pairing_finish(self, token: str, public: str) -> dict:
        """The page collects its delegation and a session (once)."""
        state = self.pairing_state(token)
        if state["key"] != public:
            raise Refused(409, "this pairing is for another browser key: run trv login --browser URL again")
        if not state["delegation"]:
            return {"ready": False}
        self.accounts.take_token(token, "pairing", self.now())
        # (its session is the pairing's: a revocation of the page's key ends it too)
        return {"ready": True, "player": state["player"], "delegation": state["delegation"], "until": state["until"],
                "token": self._session(state["player"], {"pairing": public}), "server": self.host_public}

    def revoke(self, player: str, at: int, signature: str, keys: list[str] | None = None) -> dict:
        """``player``'s signed revocation (made within ten minutes of this server's clock) of every browser
        key this server certified for them before it arrived (this server's clock decides, not the signer's
        ``at``), and of the sessions their pairings opened.  With ``keys`` (a revocation 2,
        ``replays.signatures.revocation_body``: the keys the player's CLI delegated, signed), it is also
        carried into each of the player's open games as a ``trv-revoke`` record, where `verify` honours it
        from its place on; signed again (a retry), it is added only to the games that lack it."""
        known = self.accounts.player(player)
        if known is None:
            raise Refused(403, f"{player} is not a player of this server")
        if not isinstance(at, int) or abs(at - self.now()) > 600:
            raise Refused(400, f"the revocation's time ({at}) is not this server's now ({self.now()}, ten minutes "
                               "either way): sign it again")
        if keys is not None:
            keys = [_hex_key(k, "a revoked key") for k in keys]
            if keys != sorted(set(keys)) or len(keys) > 1000:
                raise Refused(400, "the revoked keys are listed sorted, each once (at most 1000)")
        body = revocation_message(player, self.host_public, at) if keys is None else \
            revocation_body(player, self.host_public, at, keys)
        if not valid(bytes.fromhex(known[1]), _b64(signature, "signature", (64,)), body):
            raise Refused(403, f"the revocation is not signed by {player}'s key ({fingerprint(known[1])}) for this "
                               "server")
        count = self.accounts.revoke(player, at, signature)
        games: dict[str, int] = {}
        if keys is not None:
            record = Revoke(player, self.host_public, at, keys, signature)
            for row in self.games(player)["games"]:
                placed = self._carry_revocation(row["game"], player, known[1], record)
                if placed:
                    games[row["game"]] = placed
        # every key certified before it arrived, by this server's clock (not the signer's, which may be slow)
        return {"player": player, "revoked_until": max(at, self.now()), "revoked": count, "games": games}

    def _carry_revocation(self, game: str, player: str, public: str, record: Any) -> int:
        """Append ``player``'s revocation to ``game`` (theirs, seated with ``public``, not over), unless it
        holds it already: the number of its record there (0: not carried, the game is over or the seat is
        another key's)."""
        try:
            loaded, charter = self._load(game)
        except Refused:
            return 0
        if charter.seats.get(player) != public:
            return 0
        payload = encode_draw(record)
        while True:
            for r in self.store.events(game, decode=False):
                if r.payload == payload:
                    return r.number
            if outcome_of(self.store, game) is not None:
                return 0
            version = self.store.version(game)
            try:
                self.store.append(game, version, records=[RawRecord(REVOKE_KIND, 1, payload, b"", b"")])
            except GameMovedOn:
                continue  # another process appended first: look again
            return version + 1

    def _check_delegation(self, player: str, raw: bytes, revocable: bool = True) -> bytes:
        """A delegation (key, end, the player's signature): the delegated key, if the player's
        registered key signed it for this server, it has not ended (this server's clock) and the
        player has not revoked it (a key certified before their latest revocation arrived)."""
        _, key, until, seat_signature = split_delegation(b"\0" * 64 + raw)
        known = self.accounts.player(player)
        if known is None:
            raise Refused(403, f"{player} is not a player of this server")
        if not valid(bytes.fromhex(known[1]), seat_signature, delegation_body(player, key.hex(), self.host_public,
                                                                              until)):
            raise Refused(403, f"the delegation is not signed by {player}'s key ({fingerprint(known[1])}) for "
                               "this server")
        if until <= self.now():
            raise Refused(403, f"the delegation ended at {until} (this server's clock: {self.now()}); "
                               "run trv login --browser URL again")
        if until > self.now() + MAX_DELEGATION_SECONDS:
            raise Refused(400, f"a delegation runs at most {MAX_DELEGATION_SECONDS // 86400} days")
        revoked = self.accounts.revoked_until(player) if revocable else None
        if revoked is not None:
            certified = self.accounts.certified_at(player, key.hex())
            if certified is None or certified < 0:  # (a revocation marks every key certified before it arrived)
                raise Refused(403, f"{player} revoked the browser keys delegated on this server before their "
                                   f"revocation (signed by {player}'s key) reached it: key {fingerprint(key.hex())} "
                                   "may no longer act for them")
        return key

    def _delegated_in(self, player: str, version: int, gf: Any) -> None:
        """Every signature made with a delegated key among a packet's new records (after event
        ``version``) is checked as `act` checks one: its seat's own session posts it (``player``), and
        its delegation is that seat's, for this server, not ended by this server's clock."""
        for r, seat, raw in delegated_entries(r for r in gf.records if r.number > version):
            if seat != player:
                raise Refused(403, f"event {r.number} is signed with a key {seat} delegated (a browser's): "
                                   f"only {seat}'s own session posts it, and you are {player}")
            try:
                self._check_delegation(seat, raw[64:])
            except Refused as exc:
                raise Refused(exc.status, f"event {r.number}: {exc.message}") from None

    def _signed(self, player: str, public: str, raw: bytes, body: bytes) -> bool:
        """Whether ``raw`` (a plain or a delegated signature, with its delegation) signs ``body``
        for ``player`` (key ``public``)."""
        if len(raw) == DELEGATED_BYTES:
            return valid(self._check_delegation(player, raw[64:]), raw[:64], body)
        return len(raw) == 64 and valid(bytes.fromhex(public), raw, body)

    # ------------------------------------------------------------- games
    def _offer(self, game: str) -> tuple[Offer, dict] | None:
        found = self.accounts.offer(game)
        if found is None:
            return None
        return Offer.decode(found[0].encode(), game), found[1]

    def new_game(self, player: str, players: list[str], name: str | None, ruleset: str, time: str = "",
                 bots: list[str] | None = None) -> dict:
        """Offer a host game of this server: the seed committed now, every seat bound to its
        player's registered key; the game starts when every player has contributed.  ``bots``:
        bot seats after the players (``KIND:COLOR:CREW[:NAME]``, as `trv host offer --bot`), which
        the server runs, each bound to the server's key (server/bots.py)."""
        try:
            rules = rulesets.get(ruleset)
        except (KeyError, TrvError) as exc:
            raise Refused(400, f"no ruleset {ruleset!r}: {exc}") from None
        triples = []
        for text in players:
            parts = text.split(":") if isinstance(text, str) else []
            if len(parts) not in (2, 3) or any(name_problem(p) for p in parts):
                raise Refused(400, f"{str(text)[:60]!r}: give each player as NAME:COLOR[:CREW]")
            triples.append((parts[0], parts[1], parts[2] if len(parts) == 3 else ""))
        if player not in [t[0] for t in triples]:
            raise Refused(403, f"you ({player}) are not among the players; a player offers their own games")
        from .bots import bot_seats

        robots = bot_seats(self, player, bots or [])
        triples += [(name, color, crew) for name, color, crew, _ in robots]
        names = [t[0] for t in triples]
        if len(set(names)) != len(names):
            raise Refused(400, "a player is named twice" if not robots else
                               "a seat is named twice (a bot seat is named KIND-COLOR unless you give it a NAME)")
        seats = {name: self.host_public for name, _, _, _ in robots}
        for seat in names:
            if seat in seats:
                continue
            known = self.accounts.player(seat)
            if known is None:
                raise Refused(400, f"{seat} has never logged in to this server (trv login URL): no key to bind "
                                   "their seat to")
            seats[seat] = known[1]
        game = name or f"{rules.name}-{self.random_bytes(4).hex()}"
        problem = name_problem(game)
        if problem is not None:
            raise Refused(400, f"game name: {problem}")
        try:
            rules.default_position(triples, 0)  # the rules judge the seats now
        except TrvError as exc:
            raise Refused(400, str(exc)) from None
        if self.store.exists(game):
            raise Refused(409, f"there is a game called {game!r} already")
        if time:
            from trvendetta.app.clock import parse_time_control

            try:
                time = str(parse_time_control(time))
            except TrvError as exc:
                raise Refused(400, str(exc)) from None
        offer = Offer("trv-host-offer", game, rules.name, list(triples), seats, self.host_public,
                      self.new_seed(), bots={name: kind for name, _, _, kind in robots}, time=time,
                      rules=str(rules.rules_version))
        offer = offer.signed(lambda body: self.host.keyring(self.host_public).sign(HOST, body))
        if not self.accounts.put_offer(game, offer.file_bytes().decode(), player, self.now()):
            raise Refused(409, f"there is an offer called {game!r} already")
        return self.offer_doc(game)

    def offer_doc(self, game: str) -> dict:
        found = self._offer(game)
        if found is None:
            raise Refused(404, f"no offer called {game!r} (it may have become a game: GET /api/games/{game})")
        offer, joined = found
        return {"game": game, "offer": offer.file_bytes().decode(), "id": offer.id(), "commit": offer.commit,
                "joined": sorted(joined), "waiting_for": [s for s in offer.seats if s not in joined and s not in offer.bots],
                "bots": dict(offer.bots), "terms": _terms(offer)}

    def join(self, player: str, game: str, value: str, signature: str, kind: str = "trv-host-join") -> dict:
        """A player's contribution to an offer's seed (signed by their key, or a key they delegated
        to); the last one creates the game."""
        found = self._offer(game)
        if found is None:
            raise Refused(404, f"no offer called {game!r} waiting for contributions")
        offer, joined = found
        if player in offer.bots:
            raise Refused(403, f"{player} is a bot seat in {game}: the server contributes for it (a fixed value, "
                               "never one it chooses)")
        if player not in offer.seats:
            raise Refused(403, f"{player} has no seat in {game}")
        if player in joined:
            if Contribution.decode(joined[player].encode(), player).value == str(value).lower():
                return self.offer_doc(game)  # the same answer again (a retry after a lost reply): nothing new
            raise Refused(409, f"{player} contributed to {game} already, another value: a player answers an "
                               "offer once")
        try:
            if len(bytes.fromhex(value)) != HOST_BYTES:
                raise ValueError
        except (ValueError, TypeError):
            raise Refused(400, f"a contribution is {HOST_BYTES} random bytes, as hex") from None
        raw = _b64(signature, "signature", (64, DELEGATED_BYTES))
        if kind not in (CONTRIBUTION_1, CONTRIBUTION_2):
            raise Refused(400, f"a contribution's kind is {CONTRIBUTION_1} or {CONTRIBUTION_2}, not {kind!r}")
        answer = Contribution(kind, offer.id(), player, value.lower(), commit=offer.commit)
        if not self._signed(player, offer.seats[player], raw, answer.body()):
            raise Refused(403, f"the contribution is not signed by {player}'s key or a key {player} delegated to, "
                               f"over the offer's id and its commitment ({offer.commit[:16]}...)")
        answer = msgspec.structs.replace(answer, sig=base64.b64encode(raw).decode())
        for _ in range(20):
            if self.accounts.add_contribution(game, player, answer.file_bytes().decode(), joined):
                break
            found = self._offer(game)
            if found is None or player in found[1]:
                raise Refused(409, f"{player} contributed to {game} already, or it started")
            joined = found[1]
        joined = dict(joined, **{player: answer.file_bytes().decode()})
        if any(s not in joined and s not in offer.bots for s in offer.seats):
            return self.offer_doc(game)
        return self._bots_after(self._start(offer, joined), offer)

    def _start(self, offer: Offer, joined: dict) -> dict:
        answers = [(f"{seat}'s contribution", Contribution.decode(text.encode(), seat)) for seat, text in
                   sorted(joined.items())]

        def signed(answer: Contribution, key: str) -> bool:
            return self._signed(answer.seat, key, base64.b64decode(answer.sig), answer.body())
        try:
            self.service.new_host_game(offer, offer.game, answers, offer.game, self.host, signed,
                                       **self._bot_options())
        except GameExists:
            pass  # another process started it with the same contributions
        self.accounts.drop_offer(offer.game)
        return self.game_doc(offer.game, None)

    def _load(self, game: str) -> Any:
        seen = self._seen(game)
        return seen.loaded, seen.charter

    def _seen(self, game: str, version: int | None = None) -> _Seen:
        """The game as it stands (its worked-out version, or loaded now if it moved on).  Without ``version``
        the store is asked (a load: the store's kept game, when its last row is still the one it read, else
        read anew), and what was worked out is used only for the same version and head (a file rolled back
        and played on to the same length is another game)."""
        seen = self._seen_games.get(game)
        if version is not None and seen is not None and seen.version == version >= 0:
            self._seen_games[game] = self._seen_games.pop(game)  # the most recently used last
            return seen
        try:
            loaded = self.service.load(game)
        except GameNotFound:
            if self.accounts.offer(game) is not None:
                raise Refused(404, f"{game} is an offer waiting for contributions (GET /api/offers/{game})") from None
            raise Refused(404, f"no game called {game!r} on this server") from None
        if seen is not None and (seen.version, seen.loaded.head) == (loaded.version, loaded.head):
            self._seen_games[game] = self._seen_games.pop(game)
            return seen
        return self._keep(loaded)

    def _keep(self, loaded: Any) -> _Seen:
        charter = decode_charter(loaded.charter) if loaded.charter else None
        if charter is None or charter.dice != "host" or charter.host != self.host_public:
            raise Refused(404, f"{loaded.game!r} is not a game this server hosts")
        seen = _Seen(loaded, charter)
        self._seen_games.pop(loaded.game, None)
        self._seen_games[loaded.game] = seen
        while len(self._seen_games) > SEEN_KEPT:
            self._seen_games.pop(next(iter(self._seen_games)))
        return seen

    def _ended(self, seen: _Seen) -> Any:
        """How a claim or a resignation ended the game (None: it did not)."""
        return seen.get("ended", lambda: outcome_of(self.store, seen.loaded.game))

    def _waiting(self, seen: _Seen) -> str | None:
        """What the game's open draw waits for (None: no draw is open)."""
        return seen.get("waiting", lambda: self.service.waiting(seen.loaded.game))

    def _game_id(self, game: str) -> str:
        if game not in self._game_ids:
            self._game_ids[game] = self.store.events_head(game, 1)
        return self._game_ids[game]

    def _key(self, player: str) -> str | None:
        """The key ``player`` is bound to on this server (None: never logged in)."""
        if player not in self._keys:
            known = self.accounts.player(player)
            if known is None:
                return None
            self._keys[player] = known[1]
        return self._keys[player]

    def version(self, game: str) -> int:
        try:
            return self.store.version(game)
        except GameNotFound:
            return -1

    def games(self, player: str | None) -> dict:
        """Every game this server hosts (``player``: theirs), with whom each waits on, and the offers.  A
        game whose rows are damaged (``DamagedStore``) is listed under ``damaged`` with the store's words,
        never failing the list of the others; one whose index row does not read (its players unknown) is
        listed there only when all games are asked for."""
        out, waiting, damaged = [], [], []
        unread: list[Exception] = []
        for info in self.store.list_games(unread):
            if player is not None and player not in info.players:
                continue
            try:
                seen = self._seen(info.id, info.version)
            except Refused:
                continue
            except DamagedStore as exc:
                damaged.append({"game": info.id, "players": list(info.players), "error": _short(exc)})
                continue
            loaded = seen.loaded
            decision = loaded.ruleset.pending(loaded.state)
            ended = self._ended(seen)
            on = decision.player if decision and not ended else None
            draw = self._waiting(seen) if not ended else None
            row = {"game": info.id, "ruleset": info.ruleset, "players": list(info.players), "version": loaded.version,
                   "head": loaded.head, "status": "over" if ended else info.status, "winner": info.winner, "waiting_on": on,
                   "waiting_for_dice": bool(draw), "ended": ended.line() if ended else None}
            out.append(row)
            if player is not None and on == player and not draw:
                waiting.append(info.id)
        offers = []
        for game, text, joined in self.accounts.offers():
            offer = Offer.decode(text.encode(), game)
            if player is None or player in offer.seats:
                offers.append({"game": game, "players": list(offer.seats), "joined": sorted(joined),
                               "waiting_for": [s for s in offer.seats if s not in joined and s not in offer.bots],
                               "bots": dict(offer.bots), "terms": _terms(offer)})
                if player is not None and player in offer.seats and player not in joined and player not in offer.bots:
                    waiting.append(game)
        declined = [] if player is None else [
            {"game": game, "by": by, "at": at} for game, by, at in self.accounts.declined(player, self.now() - 30 * 86400)]
        if player is None:
            damaged += [{"game": str(getattr(exc, "game", "?")), "players": [], "error": _short(exc)} for exc in unread]
        return {"games": out, "offers": offers, "waiting_on_you": waiting, "declined": declined, "damaged": damaged}

    def game_doc(self, game: str, player: str | None) -> dict:
        """The game as a player's page shows it: the board (SVG), whose move it is, the legal options
        (with the bytes to sign) when it is ``player``'s, the log's sentences.  Party favors of other
        players are counted, never named.  Made once a version for each player who asks."""
        seen = self._seen(game)
        return seen.get(("doc", player), lambda: self._game_doc(seen, player))

    def game_json(self, game: str, player: str | None) -> bytes:
        """``game_doc`` as the JSON the route sends (encoded once a version for each player who asks)."""
        import msgspec

        seen = self._seen(game)
        return seen.get(("json", player), lambda: msgspec.json.encode(
            seen.get(("doc", player), lambda: self._game_doc(seen, player))))

    def _game_doc(self, seen: _Seen, player: str | None) -> dict:
        loaded, charter, game = seen.loaded, seen.charter, seen.loaded.game
        ruleset, state = loaded.ruleset, loaded.state
        hidden = player in charter.seats and hides(ruleset, loaded.charter)
        seen_state, openings = self.seat_state(seen, player)
        per_seat = hidden or ruleset.hidden_information  # (a view the ruleset redacts for each seat)
        view, svg = seen.get(("view", player if per_seat else None), lambda: self._view(seen_state, ruleset, player))
        ended = self._ended(seen)
        decision = None if ended else ruleset.pending(state)
        waiting = None if ended else self._waiting(seen)
        doc = {"game": game, "ruleset": ruleset.name, "version": loaded.version, "head": loaded.head,
               "domain": domain_at(loaded.domain, self._game_id(game), loaded.version + 1),
               "players": list(charter.seats), "you": player, "over": decision is None,
               "pending": None if decision is None else {"player": decision.player, "kind": decision.kind,
                                                        "prompt": decision.prompt},
               "waiting_for_dice": waiting, "options": [], "view": view,
               "line": ended.line() if ended else pending_line(ruleset, state)}
        if decision is not None and player == decision.player and not waiting:
            for action in ruleset.legal_actions(seen_state):
                encoded = ruleset.encode(ruleset.sealed_action(state, action, openings))  # a favor: with its opening
                doc["options"].append({"name": ruleset.describe_action(action), "action": encoded.decode()})
        doc["clock"] = seen.get("clock", lambda: self.timing(game, loaded))
        doc["svg"] = svg
        doc["log"] = seen.get("log", lambda: self._log(game, loaded.version))
        return doc

    def seat_state(self, seen: _Seen, player: str | None) -> tuple[Any, dict]:
        """The game as ``player``'s seat sees it, with the openings of its favors: the favors the host
        dealt to the player face up to that player only (the state itself, and no openings, for anyone
        else or a game that deals nothing face down).  Options are listed, and searched, from it."""
        loaded, charter = seen.loaded, seen.charter
        if player is not None and player in charter.seats and hides(loaded.ruleset, loaded.charter):
            return dealer_view(self.store, loaded, self.host.secret(charter.seed_commit), player)
        return loaded.state, {}

    @staticmethod
    def _view(state: Any, ruleset: Any, player: str | None) -> tuple[dict, str]:
        from trvendetta import pictures

        view = ruleset.redact(ruleset.view(state), [player] if player else [])  # the ruleset's own hiding
        return view, pictures.svg(view, None)

    def _log(self, game: str, version: int) -> list[str]:
        """The log's sentences up to ``version``: the lines of an earlier version kept, the records after it
        read (the whole game read again only when a retraction takes back earlier lines)."""
        from trvendetta.replays import readable
        from trvendetta.store import RETRACTION_KIND, STORE_KINDS, describe_store_record

        ruleset = self.store.ruleset_of(game)

        def line(r: Any) -> str:
            text = describe_store_record(r.event) if r.kind in STORE_KINDS else ruleset.describe(r.event)
            return f"{r.number:>5}. {text}"
        kept = self._logs.get(game)
        if kept is not None and kept[0] <= version:
            try:
                records = self.store.events(game, upto=version, since=kept[0])
            except TrvError:
                records = None
            if records is not None and all(r.kind != RETRACTION_KIND for r in records):
                lines = kept[1] + [line(r) for r in records]
                self._logs[game] = (version, lines)
                return lines
        records, _ = readable(self.store, game)
        records = [r for r in records if r.number <= version]
        dead = {n for r in records if r.kind == RETRACTION_KIND for n in range(r.event.first, r.event.last + 1)}
        lines = [line(r) for r in records if r.number not in dead and r.kind != RETRACTION_KIND]
        self._logs[game] = (version, lines)
        while len(self._logs) > SEEN_KEPT:
            self._logs.pop(next(iter(self._logs)))
        return lines

    # ------------------------------------------------------------- time
    def timing(self, game: str, loaded: Any = None) -> dict | None:
        """Whose answer the game waits for, since when, and the deadline, by this server's clock
        (its store's stamps: the reference in its games)."""
        from trvendetta.app.clock import stamp_text, waiting

        w = waiting(self.store, game, loaded)
        if w is None:
            return None
        return {"seat": w.seat, "unanswered": w.unanswered, "since": stamp_text(w.since),
                "deadline": stamp_text(w.deadline) if w.deadline else None,
                "control": str(w.control) if w.control else None, "line": w.line()}

    def tick(self, now: Any = None, base_url: str = "") -> dict:
        """What the server's clock does, every few seconds: a player whose deadline passed loses on
        time (a claim signed by the host: app/outcome.py), and a player the game waits on is
        reminded by email once a move (when they gave an address and the server has a mailer)."""
        from datetime import datetime, timezone

        from trvendetta.app import outcome

        from .reminders import reminder

        now = now or datetime.fromtimestamp(self.clock(), timezone.utc)
        resolved = self.resolve_open()
        claimed, reminded, failed = [], [], []
        keyring = self.host.keyring(self.host_public)
        for info in self._games():
            if info.status == "over":
                continue
            try:  # one game's failure stops no other game's part of the round (said once a cause)
                w = self._timed(info.id)
                if w is None:
                    pass
                elif w.deadline is not None and now >= w.deadline:
                    try:
                        outcome.claim(self.store, info.id, keyring, now)
                        claimed.append(info.id)
                    except (GameMovedOn, TrvError):
                        pass  # another process claimed it, or the player answered just now
                else:
                    address = self.accounts.email(w.seat) if self.mailer is not None else ""
                    if address and self.accounts.remind_once(info.id, w.after):
                        subject, body = reminder(w.seat, info.id, base_url, w.line())
                        try:
                            self.mailer.send(address, subject, body)
                            reminded.append((info.id, w.seat))
                        except OSError:  # smtplib.SMTPException too: a mail server refusing stops no game
                            pass
            except Exception as exc:  # noqa: BLE001
                if _store_down(exc):
                    raise  # no game's failure: the round fails, and is tried again
                failed.append(info.id)
                self._say_failed(info.id, "its part of the clock's round (time-outs, reminders)", exc)
                continue
            self._failing.pop(info.id, None)
        return {"claimed": claimed, "reminded": reminded, "resolved": resolved, "bots": list(self.bots_due),
                "failed": failed}

    def _timed(self, game: str) -> Any:
        """Whose answer ``game`` waits for, by the server's clock (``app.clock.Waiting``), when a seat of it
        the server's clock looks after (not the host's own); None when none."""
        from trvendetta.app.clock import waiting

        try:
            _, charter = self._load(game)
        except Refused:
            return None
        w = waiting(self.store, game)
        return None if w is None or w.seat not in charter.seats or w.seat == HOST else w

    def _games(self) -> list[Any]:
        """The games index's rows, most recently used first, for the server's clock: a row that does not
        read is said on stderr (once a cause) and left out, so it stops no other game's part of a round."""
        damaged: list[Exception] = []
        games = self.store.list_games(damaged)
        for exc in damaged:
            self._say_failed(str(getattr(exc, "game", "?")), "reading its games index row", exc)
        return games

    def _say_failed(self, game: str, what: str, exc: Exception) -> None:
        """Say on stderr that ``what`` of ``game`` failed, once for each cause (the clock tries each round)."""
        cause = _short(exc)
        if self._failing.get(game) != cause:
            import sys

            print(f"trv serve: game {game!r}: {what} failed ({cause}); the clock tries it again each round",
                  file=sys.stderr)
            self._failing[game] = cause

    # ------------------------------------------------------------- bot seats (server/bots.py)
    def _bot_options(self) -> dict:
        """How the host's step treats the bot seats: played now (``inline_bots``), with this server's
        bots, or left to the HTTP server (``bot_turn``, ``bot_think``, ``bot_play``)."""
        from .bots import make_bot

        return {"play_bots": self.inline_bots, "bots": lambda kind: make_bot(kind, self.search_steps)}

    def _bots_after(self, out: dict, charter: Any) -> dict:
        """A request's answer, marked (``_bots``, taken off by the route) when its game has bot seats the
        HTTP server is to play now."""
        if charter.bots and not self.inline_bots:
            out["_bots"] = True
        return out

    def bot_turn(self, game: str) -> Any:
        """The decision a bot seat of ``game`` is to take now (``app.host.BotTurn``), or None."""
        from trvendetta.app.host import bot_turn

        return bot_turn(self.store, game, self.host)

    def bot_think(self, turn: Any) -> Any:
        """The bot's action for ``turn``: pure, touches neither the store nor a key (any thread)."""
        from .bots import make_bot

        return turn.choose(lambda kind: make_bot(kind, self.search_steps))

    def bot_play(self, turn: Any, action: Any) -> int | None:
        """Record the bot's action (signed with the server's key under the seat's name) and roll the
        dice it waits for; the game's version after, or None when the game moved on meanwhile."""
        from trvendetta.app.host import play_bot

        try:
            play_bot(self.store, turn.game, self.host, turn, action)
        except GameMovedOn:
            return None
        return self.store.version(turn.game)

    def export(self, game: str, since: int | None) -> str:
        """The record (kept, for the version it was made at: a whole game's export walks every record),
        or the packet after event ``since``."""
        version = self.version(game)
        kept = self._records.get(game)
        if since is None and kept is not None and kept[0] == version >= 0:
            return kept[1]
        self._load(game)
        if since is not None and not 0 <= since <= version:
            raise Refused(400, f"--since {since}: the game has {version} events")
        text = self.service.export(game, since=since)
        if since is None:
            self._records[game] = (version, text)
            while len(self._records) > RECORDS_KEPT:
                self._records.pop(next(iter(self._records)))
        return text

    def _seated(self, game: str, player: str) -> tuple[Any, Any]:
        loaded, charter = self._load(game)
        if player in charter.bots:
            raise Refused(403, f"{player} is a bot seat in {game}: the server plays it, signed with its own key, "
                               "and no player moves for it")
        if player not in charter.seats or charter.seats[player] == self.host_public:
            raise Refused(403, f"{player} has no seat in {game}")
        if self._key(player) != charter.seats[player]:
            raise Refused(403, f"{player}'s seat in {game} is bound to another key than the one {player} logs in with")
        return loaded, charter

    def packet(self, player: str, game: str, data: bytes) -> dict:
        """A packet a player's `trv` made (its actions signed with the player's key): imported into
        the host's store like a mailed one (every signature and event checked, nothing written if
        anything is wrong), then the server resolves the draw it opened and answers bots."""
        _, charter = self._seated(game, player)
        try:
            gf = replays.read_file(data, f"{player}'s packet")
        except TrvError as exc:
            raise Refused(400, str(exc)) from None
        if gf.header.game != game:
            raise Refused(400, f"the packet is of game {gf.header.game!r}, not {game!r}")
        before = self.store.version(game)
        self._delegated_in(player, before, gf)
        try:
            self.service.import_file(data, f"{player}'s packet", parsed=gf, now=self.wall())
        except replays.AlreadyApplied:
            # sent again (the answer was lost): the draw it opened may still wait, if the server
            # stopped between storing it and rolling; roll it now
            self._finish(game, before)
            after = self.store.version(game)
            return {"game": game, "version": after, "added": 0, "_stored": True}
        except GameMovedOn as exc:
            raise Refused(409, str(exc)) from None
        except TrvError as exc:
            raise Refused(422 if isinstance(exc, replays.AuditError) else 409, str(exc)) from None
        self._finish(game, self.store.version(game))
        after = self.store.version(game)
        return self._bots_after({"game": game, "version": after, "added": after - before}, charter)

    def _finish(self, game: str, recorded: int) -> None:
        """After a player's records were stored (event ``recorded``): the host rolls the draw they
        opened, plays its bots, reveals at the end.  If that fails (a full disk, the database
        gone), the records stay stored and the answer says so: the server rolls the dice at its
        next start or clock round (``resolve_open``), so no game waits for ever."""
        try:
            self.service.answer_host(game, self.host, **self._bot_options())
        except GameMovedOn:
            now = self.store.version(game)
            if now < recorded:  # not rolled elsewhere: the store no longer holds the player's records
                raise Refused(409, f"your move is not stored: the game is at event {now}, before it (the store no "
                                   f"longer holds event {recorded}); load the game and play again") from None
            # else another process rolled them
        except TrvError as exc:  # the host's ledger refused the draw (one reveal per draw)
            raise Refused(409, str(exc)) from None
        except Exception as exc:  # noqa: BLE001  the store failed after the player's records were stored
            raise Refused(503, f"your move is recorded (the game is at event {recorded}), but the host's dice "
                               f"could not be rolled now ({_short(exc)}); the server rolls them by itself as soon "
                               "as it can", recorded=recorded) from None

    def resolve_open(self) -> list[str]:
        """Every game whose stored records wait on the host (an open draw to roll, an end whose seed is
        not revealed), finished now: at start-up and on the server's clock, so a game whose roll a
        crash or a full disk interrupted goes on by itself.  The games it finished."""
        from trvendetta.replays.host import host_draws_at

        done, self.bots_due = [], []
        for info in self._games():
            try:
                meta = self.store.header(info.id)
                charter = decode_charter(meta.charter) if meta.charter else None
                if charter is None or charter.dice != "host" or charter.host != self.host_public or meta.parent:
                    continue
                draws = host_draws_at(self.store, info.id, charter)
                if draws.revealed_at:
                    continue
                # a bot seat to play (its player's move stored, the bot's not yet: a crash in between)
                bot = bool(charter.bots) and info.status != "over" and self.bot_turn(info.id) is not None
                if draws.open is None and info.status != "over" and not outcome_of(self.store, info.id) and not bot:
                    continue
                if self.service.answer_host(info.id, self.host, **self._bot_options()).added:
                    done.append(info.id)
                if not self.inline_bots and charter.bots and self.bot_turn(info.id) is not None:
                    self.bots_due.append(info.id)
            except GameMovedOn:
                continue  # another process finished it (the next round reads it again)
            except StoreUnsynced:
                raise  # no game's failure: the store takes no writes until the server is restarted
            except Exception as exc:  # noqa: BLE001  one game that cannot be finished stops no other game
                # (a refusal too: the ledger's one reveal a draw, a damaged game: said, never skipped silently)
                cause = f"{type(exc).__name__}: {exc}"
                if self._stuck.get(info.id) != cause:
                    import sys

                    why = "the host refuses its step" if isinstance(exc, TrvError) else "its step failed"
                    print(f"trv serve: game {info.id!r} waits on the host and {why} ({cause}); "
                          f"the clock tries it again each round", file=sys.stderr)
                    self._stuck[info.id] = cause
                continue
            self._stuck.pop(info.id, None)
        return done

    def resign(self, player: str, game: str, version: int, at: str, signature: str) -> dict:
        """``player`` resigns: a ``trv-resign`` record signed by their key (or a delegated one) over its
        place after event ``version`` (``resign_payload`` with the time ``at``, within ten minutes of this
        server's clock); the game ends, lost by them, and the host reveals the seed."""
        from datetime import datetime, timezone

        from trvendetta.app import outcome
        from trvendetta.app.clock import parse_stamp

        loaded, charter = self._seated(game, player)
        if version != loaded.version:
            raise Refused(409, f"game moved on since you loaded it (now at event {loaded.version}, you signed "
                               f"after event {version}); load it again")
        try:
            when = parse_stamp(at)
        except (TrvError, ValueError):
            raise Refused(400, f"at={at[:40]!r} is not a time like 2026-01-02T03:04:05Z") from None
        if abs(when.timestamp() - self.clock()) > 600:
            now = datetime.fromtimestamp(self.clock(), timezone.utc)
            raise Refused(400, f"at={at} is not this server's time ({now:%Y-%m-%dT%H:%M:%SZ}, within ten minutes)")
        raw = _b64(signature, "signature", (64, DELEGATED_BYTES))
        relay = _Relay(self, player, charter, raw)
        try:
            ended = outcome.resign(self.store, game, relay, when, player)
        except GameMovedOn as exc:
            raise Refused(409, str(exc)) from None
        except TrvError as exc:
            raise Refused(relay.status or 409, str(exc)) from None
        self._finish(game, self.store.version(game))
        return {"game": game, "version": self.store.version(game), "ended": ended.line()}

    def claim(self, player: str, game: str) -> dict:
        """A seated player asks the server to end the game on time: the server's clock is the reference,
        so the server claims it, signed as the host, if the deadline of the seat it waits for has passed."""
        from datetime import datetime, timezone

        from trvendetta.app import outcome

        self._seated(game, player)
        now = datetime.fromtimestamp(self.clock(), timezone.utc)
        try:
            ended = outcome.claim(self.store, game, self.host.keyring(self.host_public), now)
        except GameMovedOn as exc:
            raise Refused(409, str(exc)) from None
        except TrvError as exc:
            raise Refused(409, str(exc)) from None
        self._finish(game, self.store.version(game))
        return {"game": game, "version": self.store.version(game), "ended": ended.line()}

    def act(self, player: str, game: str, action: str, version: int, signature: str) -> dict:
        """One action of ``player``'s, signed by their key or a key they delegated to, over this
        record's place in the chain (``replays.signatures.message``).  The application layer plays
        it (the rules judge it); the signature is checked against the bytes the store is about to
        write, so nothing unsigned, stale or changed is ever written."""
        loaded, charter = self._seated(game, player)
        seen = self._seen(game, loaded.version)
        if version != loaded.version:
            if 0 <= version < loaded.version and self._posted_again(game, player, version, action, signature):
                # its answer was lost, or said the store failed: answered as a packet sent again is
                self._finish(game, loaded.version)
                return {"game": game, "version": self.store.version(game), "added": 0, "_stored": True}
            raise Refused(409, f"game moved on since you loaded it (now at event {loaded.version}, you signed "
                               f"after event {version}); load it again")
        ruleset = loaded.ruleset
        ended = self._ended(seen)
        decision = None if ended else ruleset.pending(loaded.state)
        if decision is None:
            raise Refused(409, f"{game} is over ({ended.line() if ended else pending_line(ruleset, loaded.state)}); "
                               "no action is legal")
        if decision.player != player:
            raise Refused(403, f"it is {decision.player}'s decision, not {player}'s")
        waiting = self._waiting(seen)
        if waiting:
            raise Refused(409, waiting)
        raw = _b64(signature, "signature", (64, DELEGATED_BYTES))
        try:
            decoded = ruleset.decode_action(action.encode())
        except Exception as exc:  # noqa: BLE001  (any decoding problem is the client's)
            raise Refused(400, f"the action is not a {ruleset.name} action: {str(exc)[:200]}") from None
        if ruleset.encode(decoded) != action.encode():
            raise Refused(400, "the action is not in its canonical form (sign the bytes the server lists)")
        # the signature first, over the place in the chain this action takes (the next record, after
        # this head): a forged, replayed or misplaced one never reaches the rules
        msg = message(domain_at(loaded.domain, self._game_id(game), loaded.version + 1),
                      loaded.version + 1, loaded.head, action.encode())
        if not self._signed(player, charter.seats[player], raw, msg):
            raise Refused(403, f"the signature is not {player}'s over this action at this point of the game "
                               "(sign the server's message: game, record number, the hash before it, the action)")
        keyring = _Relay(self, player, charter, raw)
        try:
            played = self.service.play(game, lambda rules, current: [decoded], player=player,
                                       keyring_for=lambda loaded: keyring, after=loaded)
        except RuleViolation as exc:
            raise Refused(422, str(exc)) from None
        except GameMovedOn as exc:
            raise Refused(409, str(exc)) from None
        except TrvError as exc:
            raise Refused(keyring.status or 400, str(exc)) from None
        saved = played.loaded
        if played.waits_for_dice or charter.bots or ruleset.pending(saved.state) is None:
            # the host rolls the draw it opened, plays its bots, or reveals the seed at the end
            self._finish(game, saved.version)
            return self._bots_after({"game": game, "version": self.store.version(game)}, charter)
        self._keep(saved)  # the next request starts from the state the store just took
        return {"game": game, "version": saved.version}

    def _posted_again(self, game: str, player: str, version: int, action: str, signature: str) -> bool:
        """Whether the game's record after event ``version`` is this very action of ``player``'s, with this
        very signature: the same request posted again, not a move on a game that moved on."""
        raw = canonical_b64(signature) if isinstance(signature, str) else None
        if raw is None:
            return False
        found = self.store.events(game, upto=version + 1, since=version, decode=False, stamped=False)
        return bool(found) and found[0].action == action.encode() and found[0].sig == entry(player, raw)


def resign_payload(player: str, version: int, head: str, at: str) -> bytes:
    """The resignation record a player signs to resign at ``version`` (``POST /api/games/G/resign``)."""
    from trvendetta.store import Resign, encode_draw

    return encode_draw(Resign(player, version, head, at))


class _Relay:
    """The keyring ``GameService.play`` signs with when a player's signature arrives over HTTP: it
    makes no signature, it checks the player's against the very bytes the store is about to chain."""

    def __init__(self, club: Club, player: str, charter: Any, raw: bytes):
        self.club, self.player, self.raw = club, player, raw
        self.seats = dict(charter.seats)
        self.local = {player: None}
        self.acting = player
        self.status = 0

    def can_sign(self, seat: str) -> bool:
        return seat == self.player

    def refusal(self, seat: str | None) -> str | None:
        if seat is None or seat not in self.seats or seat == self.player:
            return None
        return f"it is {seat}'s decision, not {self.player}'s"

    def sign(self, seat: str, msg: bytes) -> bytes:
        if seat != self.player:
            self.status = 403
            raise TrvError(f"the action would be {seat}'s, not {self.player}'s")
        try:
            ok = self.club._signed(self.player, self.seats[seat], self.raw, msg)
        except Refused as exc:
            self.status = exc.status
            raise TrvError(exc.message) from None
        if not ok:
            self.status = 403
            raise TrvError(f"the signature is not {self.player}'s over this action at this point of the game "
                           "(sign the server's message: game, record number, the hash before it, the action)")
        return self.raw


def message_for(doc: dict, action: str) -> bytes:
    """What a player signs to play ``action`` on the game ``doc`` shows (``Club.game_doc``)."""
    return message(doc["domain"], doc["version"] + 1, doc["head"], action.encode())



def _terms(offer: Offer) -> list[str]:
    """The terms a player signs in answering ``offer`` (``replays.setups.terms``: what `trv --server
    join` prints), for the page to show beside its Join button."""
    from trvendetta.replays.keys import fingerprint
    from trvendetta.replays.setups import terms

    return terms(offer, f"the server, key {fingerprint(offer.host)}")


__all__ = ["Club", "Refused", "login_message", "message_for"]
