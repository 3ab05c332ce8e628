"""An agreed undo at a distance: the other players sign the retraction first.

    bob$ trv undo --agreed --ask -o undo.json       # the retraction bob asks for, as the record will hold it
    ann$ trv undo --sign undo.json -o undo-ann.json # ann checks it against her store and signs it
    bob$ trv undo --agreed --with undo-ann.json     # bob appends it with every signature

A signature names the game, the record's number, the hash before it and the
retraction's bytes (``replays.signatures.message``), so ann's signature is
good for exactly that retraction at exactly that point of the game.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import msgspec

from trvendetta.core.errors import TrvError


class UndoRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    type: str
    game_id: str
    number: int
    previous: str
    payload: str
    what: str
    sigs: dict[str, str] = {}


def plan(store: Any, game: str) -> tuple[UndoRequest, Any, Any, Any]:
    """The agreed retraction this store would append now, as a request."""
    from trvendetta.replays.audit import plan_undo
    from trvendetta.store import decode_charter, encode_retraction

    meta = store.header(game)
    if not meta.charter:
        raise TrvError("only a game with seats bound to keys needs the other players' signatures; use --agreed")
    if meta.bots:
        raise TrvError("a game with bot seats takes back several actions at once; ask for it in one store")
    retraction, group, walker = plan_undo(store, game, agreed=True)
    what = f"{group.player}'s {walker.ruleset.describe_action(group.action)!r} (events {group.first}-{group.last})"
    request = UndoRequest("trv-undo-request", walker.signatures.game_id, walker.number + 1, walker.head,
                          encode_retraction(retraction).decode(), what)
    return request, decode_charter(meta.charter), meta, walker


def message_of(request: UndoRequest, domain_spec: str) -> bytes:
    from trvendetta.replays.signatures import domain_at, message

    return message(domain_at(domain_spec, request.game_id, request.number), request.number, request.previous,
                   request.payload.encode())


def read(path: str) -> UndoRequest:
    from .args import read_untrusted

    try:
        return msgspec.json.decode(read_untrusted(path), type=UndoRequest)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise TrvError(f"{path} is not an undo request (trv undo --ask): {exc}") from None


def write(path: str, request: UndoRequest) -> None:
    Path(path).write_bytes(msgspec.json.format(msgspec.json.encode(request), indent=1) + b"\n")


def ask(store: Any, game: str, output: str) -> str:
    request, charter, _, _ = plan(store, game)
    write(output, request)
    return (f"wrote the request to take back {request.what} to {output}: every other player signs it with "
            f"`trv undo --sign {output} -o FILE`; then run `trv undo --agreed --with FILE ...`")


def sign(store: Any, game: str, path: str, output: str, keyring: Any) -> str:
    """Check a request against this store (the same game at the same point, the
    same retraction) and sign it with this store's identities."""
    request = read(path)
    mine, charter, meta, _ = plan(store, game)
    if (mine.game_id, mine.number, mine.previous, mine.payload) != (request.game_id, request.number,
                                                                    request.previous, request.payload):
        raise TrvError(f"{path} asks to take back {request.what} after event {request.number - 1}, but this "
                       f"store would take back {mine.what} after event {mine.number - 1}: import the missing "
                       "packets first, or refuse it")
    msg = message_of(request, meta.domain)
    sigs = dict(request.sigs)
    signed = [seat for seat in sorted(charter.seats) if keyring.can_sign(seat)]
    if not signed:
        raise TrvError("none of this game's seats is bound to one of your identities (trv id show)")
    for seat in signed:
        sigs[seat] = base64.b64encode(keyring.sign(seat, msg)).decode()
    write(output, msgspec.structs.replace(request, sigs=sigs))
    return f"signed the request to take back {request.what} as {', '.join(signed)}: send {output} back"


class WithSignatures:
    """A keyring that also holds signatures the other players made for one retraction."""

    def __init__(self, keyring: Any, paths: tuple[str, ...], charter: Any, domain: str):
        from trvendetta.replays.keys import canonical_b64
        from trvendetta.replays.signatures import SignatureCheck

        self.keyring, self.seats = keyring, keyring.seats
        self.given: dict[str, tuple[bytes, bytes]] = {}
        check = SignatureCheck(charter)
        for path in paths:
            request = read(path)
            msg = message_of(request, domain)
            for seat, text in request.sigs.items():
                found = canonical_b64(text)
                if found is None:
                    raise TrvError(f"{path}: {seat}'s signature is not base64 in its canonical spelling "
                                   "(b64encode of its bytes)")
                sig = found
                if not check._valid(seat, sig, msg):
                    raise TrvError(f"{path}: the signature named {seat} is not {seat}'s over this retraction")
                self.given[seat] = (msg, sig)

    def can_sign(self, seat: str) -> bool:
        return self.keyring.can_sign(seat) or seat in self.given

    def sign(self, seat: str, msg: bytes) -> bytes:
        if self.keyring.can_sign(seat):
            return self.keyring.sign(seat, msg)
        wanted, sig = self.given[seat]
        if wanted != msg:
            raise TrvError(f"{seat}'s signature is for another retraction (the game moved on since it was asked "
                           "for); ask again with trv undo --agreed --ask")
        return sig


def keyring_with(store: Any, game: str, keyring: Any, paths: tuple[str, ...]) -> WithSignatures:
    from trvendetta.store import decode_charter

    meta = store.header(game)
    return WithSignatures(keyring, paths, decode_charter(meta.charter), meta.domain)


__all__ = ["ask", "keyring_with", "sign"]
