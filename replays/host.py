"""Draws of a host game: a host holding a committed secret seed rolls the dice (docs/fair-play.md).

The charter (``dice="host"``) holds the host's public key, its commitment to
its secret seed (``seed_commit = SHA-256(seed || salt)``) and each seat's
contribution (``setup``).  The game's dice follow
``host_game_seed(seed, contributions)``: draw 1 is the set-up; a player's
action that needs chance is recorded as a signed intent (as in an exchange
game, with no reveal of its own: 64 zeros), and the host appends the action
resolved with :func:`~trvendetta.core.draws.host_rng` of the next draw,
signed by the host.  At the end the host publishes seed and salt in a
signed ``trv-host-reveal`` record.

Before that record a walk cannot re-execute a roll: :class:`HostDraws` gives
:data:`UNREVEALED` as the RNG and the walker folds those actions' recorded
events unchecked (the chain and every signature are still checked).  Given
the revealed seed (:func:`revealed_seed` finds it in the records first),
every roll is re-executed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from trvendetta.core.draws import host_commitment, host_game_seed, host_rng
from trvendetta.core.rng import NoDice
from trvendetta.core.fairplay import charter_of, decode_draw_as
from trvendetta.store import HOST_REVEAL_KIND, Charter, HostReveal, Intent, Reveal, decode_charter

from .walker import UNREVEALED, Tampered

#: an intent's own reveal in a host game (players add nothing per draw: the seed decides)
NO_REVEAL = "0" * 64
_MARK = b'{"type":"' + HOST_REVEAL_KIND.encode() + b'"'


def revealed_seed(charter: Charter | str, records: Iterable[Any]) -> bytes | None:
    """The game seed, when the records hold a reveal matching the charter's commitment (else None:
    the walk then stops at a reveal that does not match, naming it)."""
    parsed = decode_charter(charter) if isinstance(charter, str) else charter
    if parsed is None or parsed.dice != "host":
        return None
    for record in records:
        if record.payload.startswith(_MARK):
            found = decode_draw_as(record.payload, HostReveal)
            seed, salt = bytes.fromhex(found.seed), bytes.fromhex(found.salt)
            if host_commitment(seed, salt).hex() != parsed.seed_commit:
                return None
            return host_game_seed(seed, {s: bytes.fromhex(v) for s, v in parsed.setup.items()})
    return None


class HostDraws:
    """The open draw of a host game along a walk (the same hooks as ``replays.exchange.Draws``)."""

    def __init__(self, given: Charter | str, game_seed: bytes | None = None):
        charter = charter_of(given)
        self.charter = charter
        self.order = sorted(charter.seats)
        missing = [s for s in self.order if s not in charter.setup]
        if missing or not charter.host or not charter.seed_commit:
            raise Tampered(1, "the host game's charter lacks the host's key, its commitment or the "
                              f"contribution of {', '.join(missing) or 'a seat'}")
        self.game_seed = game_seed
        self.next_draw = 2
        #: the open draw: {"seat", "draw", "action", "reveals": {}, "number"}
        self.open: dict[str, Any] | None = None
        #: the record that revealed the seed (0: not yet)
        self.revealed_at = 0
        #: the game's id (event 1's hash), once known: a format-2 game's draws cover it
        self.game_id = ""
        #: a format-2 game (``replays.setups``): each draw follows its intent's content (the game, the
        #: record number, the action's canonical bytes), not the intent's chain hash, which holds
        #: signature bytes a signer could vary
        self.by_content = charter.v >= 2

    @property
    def checkable(self) -> bool:
        """Whether this walk re-executes the rolls (the seed is known)."""
        return self.game_seed is not None

    def setup_rng(self) -> Any:
        return host_rng(self.game_seed, 1) if self.game_seed is not None else UNREVEALED

    def waiting_for(self) -> str | None:
        return "the host" if self.open is not None else None

    def on_intent(self, record: Any, intent: Intent, seat: str | None) -> None:
        number = record.number
        if self.revealed_at:
            raise Tampered(number, f"a draw after the host revealed the seed (event {self.revealed_at}): "
                                   "its roll would be known in advance")
        if self.open is not None:
            raise Tampered(number, f"a new intent while draw {self.open['draw']} is still open")
        if intent.seat != seat:
            raise Tampered(number, f"the intent is {intent.seat}'s but the game waits on {seat}")
        if intent.draw != self.next_draw:
            raise Tampered(number, f"the intent opens draw {intent.draw}; the next draw is {self.next_draw}")
        if intent.reveal != NO_REVEAL:
            raise Tampered(number, "an intent of a host game carries a reveal; the host's seed decides its roll")
        from .exchange import opened

        self.open = opened(record, intent, {})

    def on_reveal(self, record: Any, reveal: Reveal) -> None:
        raise Tampered(record.number, f"a reveal of {reveal.seat} in a host game: the host rolls its dice")

    def on_host_reveal(self, record: Any, found: HostReveal) -> None:
        number = record.number
        if self.revealed_at:
            raise Tampered(number, f"the host's seed is revealed twice (first at event {self.revealed_at})")
        if self.open is not None:
            raise Tampered(number, f"the host reveals its seed while draw {self.open['draw']} is open")
        seed, salt = bytes.fromhex(found.seed), bytes.fromhex(found.salt)
        if host_commitment(seed, salt).hex() != self.charter.seed_commit:
            raise Tampered(number, "the revealed seed and salt are not the ones the host committed to "
                                   f"(SHA-256 of them is not {self.charter.seed_commit[:16]}...): the seed was changed")
        self.revealed_at = number

    def rng_of(self, open_: dict[str, Any], game_seed: bytes | None = None) -> Any:
        """The RNG of the open draw ``open_`` (with this walk's seed, or ``game_seed``)."""
        seed = game_seed if game_seed is not None else self.game_seed
        if seed is None:  # (rng_for asks once the seed is revealed; the host gives its own)
            raise ValueError("a host draw's dice need the game's seed: it is neither revealed nor given")
        if self.by_content:
            from .setups import intent_content

            if not self.game_id:
                raise Tampered(open_["number"], "a draw of a game whose first event was not walked")
            return host_rng(seed, open_["draw"], intent_content(self.game_id, open_["number"], open_["action"]))
        return host_rng(seed, open_["draw"], open_["hash"] if self.charter.nonce else "")

    def rng_for(self, record: Any) -> tuple[Any, bool]:
        """The RNG of the action starting at ``record``, and whether an intent covers it."""
        if self.open is None:
            return NoDice(), False
        if record.action != self.open["action"]:
            raise Tampered(record.number, f"the action resolved is not the one {self.open['seat']} recorded in "
                                          f"the intent (event {self.open['number']})")
        rng = self.rng_of(self.open) if self.game_seed is not None else UNREVEALED
        self.next_draw += 1
        self.open = None
        return rng, True


def host_draws_at(store: Any, game: str, charter: Charter | str, upto: int | None = None) -> HostDraws:
    """The draws of a stored host game after record ``upto`` (default: its
    last), from its newest draws' records only (``exchange.newest_draws``),
    not a walk of the whole game: the newest intent tells the next draw and
    whether it is open, and the host's reveal of its seed, if any, comes
    after it (the seed then makes the rolls checkable).  The store's own records were checked when they were appended
    (as for an exchange game's ``draws_at``); ``trv verify`` walks them all."""
    from trvendetta.store import INTENT_KIND

    from .exchange import newest_draws, read_draw

    draws = HostDraws(charter)
    draws.game_id = store.events_head(game, 1)
    records = newest_draws(store, game, upto)
    revealed = [r for r in records if r.kind == HOST_REVEAL_KIND]
    if revealed:
        draws.revealed_at, draws.game_seed = revealed[-1].number, revealed_seed(draws.charter, revealed)
    intents = [i for i, r in enumerate(records) if r.kind == INTENT_KIND]
    if not intents:
        return draws
    intent, _, resolved = read_draw(records, intents[-1])
    draws.next_draw = intent.draw + 1 if resolved else intent.draw
    if not resolved:
        from .exchange import opened

        draws.open = opened(records[intents[-1]], intent, {})
    return draws


def host_reveal_payload(seed: bytes, salt: bytes) -> bytes:
    from trvendetta.store import encode_draw

    return encode_draw(HostReveal(seed.hex(), salt.hex()))


__all__ = ["HostDraws", "UNREVEALED", "NO_REVEAL", "host_draws_at", "revealed_seed", "host_reveal_payload"]
