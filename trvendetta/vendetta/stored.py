"""Decoding a stored state (a snapshot, an index row's copy): the crews' own structs, and the
older shape that kept them as flat fields.

A state of Vendetta (or of a ruleset built on it) keeps each crew's own state in
``Player.crew_state`` and ``Turn.crew_state``, structs registered by the crews
(``parts.state``), decoded by their tags through the decoder's ``dec_hook``
(``parts.decode_crew_state``).  States written before kept the Big Rig's and the Final
Five's as flat fields of every player and turn; such a state is read as plain data, each
crew's upcast (``parts.upcast``) lifts its fields into its struct, and the result is
converted to the state type: the state its events fold to now
(tests/vendetta/test_old_states.py).  Events and records never changed shape.
"""

from __future__ import annotations

from typing import Any

import msgspec

from . import parts

#: a player's field and, in the older shape, the field after it (msgspec writes a struct's fields
#: in their order; now ``crew_state`` follows); only a player has a field called ``turns``, and a
#: name cannot hold a quote (``core/names.py``), so only a field's name matches it
TURNS, OLD_NEXT = b'"turns":', b',"steering":'


def old_shape(raw: bytes) -> bool:
    """Whether ``raw`` is a state of the older shape (its players' fields flat): only a
    state with players has something to lift."""
    i = raw.find(TURNS)
    return i >= 0 and raw[i + len(TURNS):i + len(TURNS) + 24].lstrip(b"0123456789").startswith(OLD_NEXT)


def decode(data: bytes | str, state_type: type, decoder: msgspec.json.Decoder) -> Any:
    """``data`` decoded as ``state_type`` by ``decoder`` (one with ``parts.decode_crew_state``
    as its ``dec_hook``), the older shape lifted first."""
    raw = data.encode() if isinstance(data, str) else data
    if not old_shape(raw):
        return decoder.decode(raw)
    doc = msgspec.json.decode(raw)
    upcasts = parts.upcasts()
    for p in doc.get("players") or ():
        _lift(p, [player for player, _ in upcasts])
    if doc.get("turn") is not None:
        _lift(doc["turn"], [turn for _, turn in upcasts])
    doc.pop("crew_state", None)  # a plug-in crew's counters by player: no crew of the project kept any
    return msgspec.convert(doc, state_type, dec_hook=parts.decode_crew_state)


def _lift(fields: dict, upcasts: list) -> None:
    """A player's or turn's old fields: each crew takes out its own; the one it was gets them back as its state."""
    for upcast in upcasts:
        own = upcast(fields)
        if own is not None:
            fields["crew_state"] = own
