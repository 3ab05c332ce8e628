"""What a charter says about the game it starts (docs/fair-play.md, "Unique games").

A charter binds seats to keys before event 1 and is hashed into it, so it is
where a game's identity is made: its ``nonce`` (:func:`nonce_of`) makes the
game unlike any other with the same seats, keys and seed, so a signature made
in one game never verifies in another; one key bound to two players' seats
(:func:`shared_keys`) makes one person look like two.  :func:`marks` says, for
``trv verify``, what a charter leaves open.
"""

from __future__ import annotations

from typing import Any

from trvendetta.store import Charter, decode_charter

from .keys import NONCE_PREFIX, nonce_of


def _charter(charter: Charter | str | None) -> Charter | None:
    return decode_charter(charter) if isinstance(charter, str) else charter


def shared_keys(charter: Charter | str | None) -> list[tuple[str, list[str]]]:
    """Each key bound to more than one player (bot seats excepted: they take the key of whoever
    runs them; a host game's host counts as a player here, since it sees every roll), with the
    seats (and ``the host``) it is bound to, by key."""
    found = _charter(charter)
    if found is None:
        return []
    holders: dict[str, list[str]] = {}
    for seat, key in sorted(found.seats.items()):
        if seat not in found.bots:
            holders.setdefault(key, []).append(seat)
    if found.host and found.host in holders:
        holders[found.host].append("the host")
    return [(key, seats) for key, seats in sorted(holders.items()) if len(seats) > 1]


def shared_key_line(charter: Charter | str | None) -> str | None:
    """'one key (4e7a...) is bound to ann and bob': None when every player has a key of their own."""
    from .keys import fingerprint

    shared = shared_keys(charter)
    if not shared:
        return None
    return "; ".join(f"one key ({fingerprint(key)}) is bound to {' and '.join(seats)}" for key, seats in shared)


def marks(charter: Charter | str | None) -> list[str]:
    """What ``trv verify`` says a signed game's charter leaves open (nothing for a game of today)."""
    found = _charter(charter)
    if found is None or not found.seats:
        return []
    out = []
    line = shared_key_line(found)
    if line:
        out.append(f"shared key: {line} (made with --allow-shared-key): the record does not show "
                   "different players; tournaments refuse it")
    from .setups import FORMAT

    # by the charter's format (``Charter.v``): what a format keeps is checked by every store (a charter
    # missing what its format keeps is refused, never marked); format 0 is what trv wrote before
    if found.v < FORMAT and found.dice == "host":
        if found.signed:  # format 0 with the offer's id and signed contributions (checked), no offer
            out.append("made before the set-up was kept (format 0): the players' signatures over their "
                       "contributions and the host's commitment are checked, but the record keeps no offer, so its "
                       "seat order, colours and nonce are the host's word, not rebuilt from what the players signed")
        else:
            out.append("made before signed contributions: the host could choose the seed (the record keeps no "
                       "player's signature over its contribution, nor over the host's commitment)")
    elif found.v < FORMAT and found.dice == "exchange":
        out.append("made before signed joins (format 0): the record keeps no invitation nor any join's signature, "
                   "so a player's commitment and the turn order are the inviter's word (each player's own store "
                   "checks its commitment)")
    if found.v == FORMAT and found.dice and not _names_rules(found):
        out.append("made before offers named their rules version: the rules version event 1 carries (one this trv "
                   f"replays) is the {'host' if found.dice == 'host' else 'inviter'}'s word, not what the players signed")
    if not found.nonce:
        if found.dice:
            out.append("made before one-reveal-per-draw: fork fishing was possible (a player could have "
                       "learnt a roll from a fork's or a copy's draw before choosing)")
        else:
            out.append("made before unique games: another game with the same seed, seats and keys has the "
                       "same id, and signatures made in it verify here")
    return out


def _names_rules(charter: Charter) -> bool:
    """Whether a format-2 charter's offer or invitation names the rules version its players signed."""
    from .messages import Invite, Offer
    from .setups import offered_message

    message = offered_message(charter, Offer if charter.dice == "host" else Invite)
    return message is None or bool(message.rules)


def has_nonce(charter: Any) -> bool:
    """Whether a game's draws cover their intents and its stores keep one reveal per draw (a charter
    with a nonce: made since one-reveal-per-draw)."""
    found = _charter(charter)
    return found is not None and bool(found.nonce)


__all__ = ["NONCE_PREFIX", "has_nonce", "marks", "nonce_of", "shared_key_line", "shared_keys"]
