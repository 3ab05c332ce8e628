"""What a player's CLI keeps of the browser keys it delegated on club servers, and of the revocations
it signed (docs/server.md, "Revoking").

The list of delegated keys is the player's own (every key their identity certified from this home,
kept before the certificate leaves: a crash after it loses none), so a revocation names them in
its signed body instead of taking the server's word for which keys were certified.  A revocation
the CLI signed is kept with where the server said it carried it; a copy of a game that the
revocation should be in and is not, is named (:func:`omitted`).

Files under ``HOME/delegations/`` (one JSON file per server key: ``{player: [key, ...]}``) and
``HOME/revocations/`` (``SERVER-PLAYER.json``: a list of revocations), written whole (a temporary
file, then renamed)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from trvendetta.store import REVOKE_KIND, Revoke, decode_revoke

OPENING = b'{"type":"' + REVOKE_KIND.encode() + b'"'


def _write(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(path.name + ".part")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(json.dumps(data, indent=1, sort_keys=True) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    tmp.replace(path)


def _read(path: Path, empty: Any) -> Any:
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        return empty


def delegated(home: Path, server: str, player: str, key: str) -> None:
    """Note that ``player``'s identity certifies ``key`` on the server ``server`` (before it does)."""
    path = home / "delegations" / f"{server}.json"
    known = _read(path, {})
    keys = set(known.get(player, []))
    if key not in keys:
        known[player] = sorted(keys | {key})
        _write(path, known)


def delegated_keys(home: Path, server: str, player: str) -> list[str]:
    """Every key ``player`` certified on ``server`` from this home, sorted."""
    return sorted(set(_read(home / "delegations" / f"{server}.json", {}).get(player, [])))


def _revocations_file(home: Path, server: str, player: str) -> Path:
    return home / "revocations" / f"{server}-{player}.json"


def keep(home: Path, record: Revoke, open_games: dict[str, int], games: dict[str, int] | None = None) -> None:
    """Keep a signed revocation, with the games this home's copy held open when it was signed (each at
    its copy's version then) and, once the server answered, where it says it carried it."""
    path = _revocations_file(home, record.server, record.seat)
    kept = [r for r in _read(path, []) if r["sig"] != record.sig]
    kept.append({"at": record.at, "keys": list(record.keys), "sig": record.sig, "open": open_games,
                 "games": games or {}})
    _write(path, kept)


def kept_revocation(home: Path, server: str, player: str) -> Revoke | None:
    """The latest revocation ``player`` signed from this home for ``server``."""
    kept = _read(_revocations_file(home, server, player), [])
    if not kept:
        return None
    r = max(kept, key=lambda r: r["at"])
    return Revoke(player, server, r["at"], r["keys"], r["sig"])


def open_games(where: str, player: str) -> tuple[dict[str, int], list[str]]:
    """The games of the store at ``where`` (a server's copy) where ``player`` has a seat and that are not
    over (their versions), and every delegated key that signed for ``player`` in its games (each checked
    when the copy took it: a key ``player``'s own key certified)."""
    from trvendetta.replays.signatures import DELEGATED_BYTES, parse, split_delegation
    from trvendetta.store import GameStore

    from .outcome import outcome_of

    store = GameStore(where)
    try:
        games, keys = {}, set()
        for info in store.list_games():
            if player not in info.players:
                continue
            if info.status != "over" and outcome_of(store, info.id) is None:
                games[info.id] = store.version(info.id)
            for r in store.events(info.id, decode=False, stamped=False):
                for seat, raw in (parse(r.sig) if r.sig else []):
                    if seat == player and len(raw) == DELEGATED_BYTES:
                        keys.add(split_delegation(raw)[1].hex())
        return games, sorted(keys)
    finally:
        store.close()


def omitted(home: Path, server: str, player: str, store: Any, game: str) -> str | None:
    """Why the copy of ``game`` in ``store`` lacks a revocation ``player`` signed for ``server`` that it
    should hold, else None.  It should, when the game was open in this copy when the revocation was
    signed (at version V) and the record went on past V: the server carries a revocation into every open
    game of its player's at once, so a record signed after V with a revoked key, a game that went on
    without it, or a game the server said it carried it into, holding none, names the omission."""
    from trvendetta.replays.signatures import fingerprint

    path = _revocations_file(home, server, player)
    revocations = [r for r in _read(path, []) if game in r.get("open", {}) or game in r.get("games", {})]
    if not revocations:
        return None
    records = store.events(game, decode=False)
    held = {decode_revoke(r.payload).sig: r.number for r in records if r.payload.startswith(OPENING)}
    where = f"your signed revocation is kept in {path}"
    for revocation in revocations:
        if revocation["sig"] in held:
            continue
        said = revocation.get("games", {}).get(game)
        if said:
            return (f"the server said it carried your revocation (signed at {revocation['at']}) into {game} at event "
                    f"{said}, and its record holds no revocation of yours: it omitted it ({where})")
        since = revocation.get("open", {}).get(game, 0)
        for r, key in _revoked_signatures(records[since:], player, revocation["keys"]):
            return (f"event {r.number} of {game} is signed with key {fingerprint(key)}, which you revoked (signed at "
                    f"{revocation['at']}), and the server's record of {game} holds no revocation of yours: the server "
                    f"omitted it ({where})")
        from .outcome import outcome_of

        if len(records) > since and outcome_of(store, game) is None:
            return (f"{game} went on past event {since} (where your copy was when you revoked your browser keys) "
                    f"without your revocation: the server omitted it ({where})")
    return None


def _revoked_signatures(records: list[Any], player: str, keys: list[str]) -> Any:
    """(record, key hex) of each signature of ``player``'s among ``records`` made with one of ``keys``."""
    from trvendetta.replays.signatures import DELEGATED_BYTES, parse, split_delegation

    revoked = {bytes.fromhex(k) for k in keys}
    for r in records:
        for seat, raw in (parse(r.sig) if r.sig else []):
            if seat == player and len(raw) == DELEGATED_BYTES and split_delegation(raw)[1] in revoked:
                yield r, split_delegation(raw)[1].hex()


def placed_late(home: Path, server: str, player: str, store: Any, game: str) -> str | None:
    """A note when the server placed a revocation of ``player``'s after records signed with a key it revokes
    that came after the point this copy had reached when it was signed: made before the revocation reached
    the server, or the server placed it late (only the server's clock tells which); else None."""
    from trvendetta.replays.signatures import fingerprint

    path = _revocations_file(home, server, player)
    records = None
    for revocation in _read(path, []):
        since = revocation.get("open", {}).get(game)
        if since is None:
            continue
        records = records if records is not None else store.events(game, decode=False)
        placed = next((r.number for r in records if r.payload.startswith(OPENING)
                       and decode_revoke(r.payload).sig == revocation["sig"]), None)
        if placed is None:
            continue
        for r, key in _revoked_signatures(records[since:placed - 1], player, revocation["keys"]):
            return (f"note: event {r.number} of {game} is signed with key {fingerprint(key)}, which you revoked; the "
                    f"server placed your revocation at event {placed}, after it and after event {since}, where your "
                    "copy was when you signed it: the move reached the server before your revocation, or the server "
                    "placed it late (only its clock says which)")
    return None


__all__ = ["delegated", "delegated_keys", "keep", "kept_revocation", "omitted", "open_games", "placed_late"]
