"""The tournament vocabulary: what an organiser's log records, as frozen,
tagged msgspec structs (stable ``type`` tags: they are stored and must never
change).

A tournament is its own event-sourced aggregate: its state is the fold of
these events (:mod:`.model`).  No event carries a typed-in result: a table's
result is :class:`ResultReported`, made only from a game record that
verified by re-execution, or a :class:`Conceded` / :class:`NoShow` that says
who declared it.
"""

from __future__ import annotations

from typing import Annotated, Union

import msgspec

#: a player's or tournament's name: letters, digits, '-' and '_' (a seat name in a game)
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9][A-Za-z0-9_\-]*$")]
Hash = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
Round = Annotated[int, msgspec.Meta(ge=1, le=99)]
TableNo = Annotated[int, msgspec.Meta(ge=1, le=999)]


class TournamentEvent(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every tournament event."""


class TournamentCreated(TournamentEvent, tag="tournament-created", frozen=True, omit_defaults=True):
    """A tournament: its game, its number of rounds, the table sizes allowed,
    the points for each finishing place (1st, 2nd, ...) and the pairing seed.
    ``organiser``: the public key (hex) whose signed rulings on claims count, fixed here ("" in a
    tournament created before organiser keys, or without an identity: see ``model.ruler``)."""

    name: Name
    ruleset: str
    rounds: Round
    pod_min: Annotated[int, msgspec.Meta(ge=2, le=4)]
    pod_max: Annotated[int, msgspec.Meta(ge=2, le=4)]
    scoring: tuple[int, ...]
    seed: int
    organiser: Annotated[str, msgspec.Meta(pattern="^([0-9a-f]{64})?$")] = ""


class PlayerRegistered(TournamentEvent, tag="player-registered", frozen=True):
    """A player entered; ``from_round`` is the first round they can be paired
    in (1, or a later round for a late entry).  ``key`` is the player's
    Ed25519 public key (hex) when their seats are bound to it
    (docs/fair-play.md), "" when not: a result of theirs then counts only
    from a record they signed."""

    player: Name
    from_round: Round
    key: Annotated[str, msgspec.Meta(pattern="^([0-9a-f]{64})?$")] = ""


class PlayerDropped(TournamentEvent, tag="player-dropped", frozen=True):
    """A player left: not paired from ``from_round`` on; ``declared_by`` said so."""

    player: Name
    from_round: Round
    declared_by: Name


class Table(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One table of a round: its players in seat order (seat 1 first) and why."""

    table: TableNo
    players: tuple[Name, ...]
    reason: str


class RoundPaired(TournamentEvent, tag="round-paired", frozen=True):
    """The tables of round ``round``, found from ``seed`` (so reproducible)."""

    round: Round
    seed: int
    tables: tuple[Table, ...]


class TableGame(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    table: TableNo
    game: str
    game_id: Hash  # the hash of the game's event 1: the same game in every database


class RoundStarted(TournamentEvent, tag="round-started", omit_defaults=True, frozen=True):
    """``trv tournament start`` created a game for each table of the round.  ``host``: the
    organiser's public key when the round is played in host mode (docs/fair-play.md): then a
    table's result counts only from that game, verified against the host's revealed seed."""

    round: Round
    games: tuple[TableGame, ...]
    host: Annotated[str, msgspec.Meta(pattern="^([0-9a-f]{64})?$")] = ""


class Place(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A player's finishing place in one game (1 is best; equal places tie)
    and the cars they still had running at the end (a tie-break)."""

    player: Name
    place: Annotated[int, msgspec.Meta(ge=1, le=4)]
    cars: Annotated[int, msgspec.Meta(ge=0)] = 0


class ResultReported(TournamentEvent, tag="result-reported", frozen=True):
    """A table's result, read from a game record that verified (every action
    re-executed) and had finished: which game (its id and head hash) and
    every player's place in it."""

    round: Round
    table: TableNo
    game: str
    game_id: Hash
    head: Hash
    events: int
    places: tuple[Place, ...]
    end: str = ""  # the game's own reason for ending
    signed: bool = False  # the record binds seats to keys, and every action of those seats was signed
    #: the seats a bot played: the record's charter declares them bots (a host's or a club server's bot
    #: seats), or its chained Bots tag does (a tournament table's ``--bot``).  Unset (not written) when
    #: there are none, so a result counted before results named their bot seats keeps its bytes
    bots: tuple[Name, ...] | msgspec.UnsetType = msgspec.UNSET


class Conceded(TournamentEvent, tag="player-conceded", frozen=True):
    """``player`` conceded at their table; ``declared_by`` said so.  A player
    who concedes takes the last place at the table."""

    round: Round
    table: TableNo
    player: Name
    declared_by: Name


class NoShow(TournamentEvent, tag="no-show", frozen=True):
    """``player`` did not come to their table; ``declared_by`` said so.  Last place."""

    round: Round
    table: TableNo
    player: Name
    declared_by: Name


class ClaimRuled(TournamentEvent, tag="claim-ruled", frozen=True, omit_defaults=True):
    """The organiser's ruling on the claim on time that ended a table's game: ``upheld`` (the claim
    decides the table) or ``overturned`` (it does not: the table's result is recorded otherwise).
    ``claim``: SHA-256 of the claim's record payload (the same in every copy of the game); ``by``:
    the organiser's public key, whose Ed25519 signature ``sig`` (base64) covers :func:`ruling_message`."""

    round: Round
    table: TableNo
    game_id: Hash
    claim: Hash
    ruling: Annotated[str, msgspec.Meta(pattern="^(upheld|overturned)$")]
    by: Hash
    sig: Annotated[str, msgspec.Meta(max_length=200)]
    reason: Annotated[str, msgspec.Meta(max_length=400)] = ""
    #: the seat the claim is against and the record it names: an overturn covers every claim in the
    #: game against that seat at that record, however it is re-signed ("" and 0 in a ruling made
    #: before they were kept: it covers the one claim ``claim`` names)
    seat: Annotated[str, msgspec.Meta(max_length=40)] = ""
    after: Annotated[int, msgspec.Meta(ge=0)] = 0


def ruling_message(tournament: str, ruled: ClaimRuled) -> bytes:
    """What the organiser signs: the tournament, the table, the game, the claim, the ruling, the reason
    (and, in a ruling that names them, the claimed seat and the record the claim names)."""
    text = (f"trvendetta ruling {2 if ruled.seat else 1}\n{tournament}\n{ruled.round}\n{ruled.table}\n"
            f"{ruled.game_id}\n{ruled.claim}\n{ruled.ruling}\n{ruled.reason}")
    return (text + (f"\n{ruled.seat}\n{ruled.after}" if ruled.seat else "")).encode()


Event = Union[TournamentCreated, PlayerRegistered, PlayerDropped, RoundPaired, RoundStarted, ResultReported,
              Conceded, NoShow, ClaimRuled]

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Event)


def encode(event: TournamentEvent) -> bytes:
    """Canonical JSON of an event (fixed field order, tagged by ``type``)."""
    return _encoder.encode(event)


def decode(data: bytes | str) -> Event:
    """Decode one stored event strictly (unknown fields and bad values refused)."""
    return _decoder.decode(data)


def kind(event: TournamentEvent) -> str:
    tag = type(event).__struct_config__.tag
    assert isinstance(tag, str), "every tournament event is tagged with a string"
    return tag
