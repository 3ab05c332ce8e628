"""A tournament's results from verified game records, and its export file.

``result_of_game`` / ``result_of_file`` turn a game record into a
``ResultReported`` only after the record verified (every action re-executed
by ``replays.audit``) and the game has finished; the finishing places are
read from the live events (``trvendetta.tournament.places``).

The export is one text file (docs/tournament.md)::

    % trvendetta tournament 1
    [Tournament "spring"]
    [Ruleset "vendetta"]
    [Events "31"]
    [Head "<hash of the last tournament event>"]
    [Games "12"]

    % tournament events
    1 <hash> {"type":"tournament-created",...}
    ...
    % standings
    {"rank":1,"player":"ann",...}        one JSON line per player
    % game 48213                          the byte length of the record after it
    % trvendetta record 1                 a game record exactly as `trv export` writes it
    ...
    % end
    % end tournament

``verify_export`` re-checks everything from the file alone: the tournament
chain, every game record by re-execution, every result against its record
(same game, head and places) and the standings against the events.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import msgspec

from trvendetta import rulesets
from trvendetta.core.errors import TrvError
from trvendetta.store import GENESIS, DamagedStore, chain, decode_charter
from trvendetta.store.records import decode_bots
from trvendetta.tournament import events as tev
from trvendetta.tournament import model
from trvendetta.tournament.places import finishing_places
from trvendetta.tournament.standings import Standing, standings

from . import audit
from . import record as fmt
from .signatures import fingerprint
from .walker import Visitor, Walker  # noqa: F401  (Walker: the visitor hooks' type)

MAGIC = "% trvendetta tournament 1"
MAX_FILE_BYTES = 512 * 1024 * 1024


class ResultRefused(TrvError):
    """A game record that cannot be a table's result."""


class _Outs(Visitor):
    """Collects who went out, and in which live action (retractions undone)."""

    needs_event_state = False

    def __init__(self) -> None:
        self.outs: list[tuple[int, str, int]] = []  # (action's first event, player, event number)

    def on_event(self, walker: Walker, record: Any, event: Any) -> None:
        if walker.ruleset.event_kind(event) == "player-out":
            self.outs.append((walker.groups[-1].first, event.player, record.number))

    def on_retraction(self, walker: Walker, record: Any, retraction: Any, group: Any) -> None:
        self.outs = [o for o in self.outs if not group.first <= o[2] <= group.last]


def _places(ruleset: Any, records: Any, charter: str = "", domain: str = "", start: str | None = None
            ) -> tuple[Any, tuple[tev.Place, ...], str, Any]:
    """The state at the end, the finishing places, why it ended, and the claim on time or the
    resignation that ended it, if one did (``outcomes.Ended``: its loser places last, out after
    everyone the rules put out)."""
    outs = _Outs()
    walker = audit.walker_for(ruleset, charter, domain, [outs], start=start).walk(records)
    state = walker.state
    players = [p.get("name", "") for p in ruleset.view(state).get("players", [])]
    ended = walker.outcome  # a claim on time or a resignation: its loser is out last, after every other out
    before = [(g, p) for g, p, n in outs.outs if ended is None or n <= ended.record.after]  # (not a late answer's)
    out = before + ([(ended.number, ended.loser)] if ended is not None else [])
    places = finishing_places(players, None if ended is not None else ruleset.winner(state), out,
                              {p: ruleset.running(state, p) for p in players})
    reason = ended.sentence if ended is not None else str(getattr(state, "end_reason", "") or "")
    return state, places, reason, ended


class Checked(NamedTuple):
    """A result read from a verified record, and the seats its charter binds to keys; for a host
    game, its host's key and whether every roll was checked (the seed revealed)."""

    result: tev.ResultReported
    bound: dict[str, str]
    host: str = ""
    rolls_checked: bool = True
    #: SHA-256 of the claim on time that ended the game ("" when none did): what an organiser rules on
    claim: str = ""
    #: the seat that claim is against, when no record of the game is signed by it (no action, no
    #: reveal): nothing shows the game ever reached it ("" otherwise)
    claimed_silent: str = ""
    #: the seat that claim is against and the record it names ("" and 0 when no claim ended the game)
    claim_seat: str = ""
    claim_after: int = 0


def bot_seats(charter: Any, bots: dict[str, str] | None, bots_unchained: bool, players: list[str]) -> tuple[str, ...]:
    """The seats of a verified record a bot played: those its charter declares bots (a host's or a
    club server's, bound to the runner's key) and those its Bots tag names when the hash chain
    covers the tag (a hot-seat game's, a tournament table's ``--bot``).  A Bots tag outside the
    chain (a game stored before bot seats were chained) proves nothing and marks no seat."""
    named = set(charter.bots) if charter is not None else set()
    if not bots_unchained:
        named |= set(bots or {})
    return tuple(p for p in players if p in named)


def _result(round_: int, table: int, game: str, ruleset: Any, verified: audit.Verified, records: Any,
            charter: str, domain: str, start: str, parent: str = "", parent_at: int = 0,
            bots: dict[str, str] | None = None) -> Checked:
    if verified.note:
        raise ResultRefused(f"game {game}: {verified.note}")
    if parent:
        raise ResultRefused(f"game {game} is a fork of {parent} (after event {parent_at}): a fork is for looking "
                            f"only, and its result (a claim or a resignation in it included) cannot count; report "
                            f"{parent} itself")
    from .sameid import forked_domain

    if records and forked_domain(domain, records[0].hash):
        raise ResultRefused(f"game {game} is a fork: its [Domain] ({domain[:40]}...) names a game other than its own "
                            "start, so its signatures from there on are a fork's (its Parent tags were dropped): a fork "
                            "is for looking only, and its result (a claim in it included) cannot count; report the "
                            "game it forks")
    from .charters import shared_key_line

    parsed = decode_charter(charter) if charter else None
    shared = shared_key_line(parsed)
    if shared:
        raise ResultRefused(f"game {game}: {shared}: one person signed as two players; its result cannot count")
    state, places, end, ended = _places(ruleset, records, charter, domain, start)
    if not ended and not ruleset.is_over(state):
        raise ResultRefused(f"game {game} has not finished ({verified.events} events; "
                            f"{audit.result_text(ruleset, state)}); report it when it is over")
    if not places:
        raise ResultRefused(f"game {game} names no players")
    bound = dict(parsed.seats) if parsed else {}
    robots = bot_seats(parsed, bots, verified.bots_unchained, [p.player for p in places])
    result = tev.ResultReported(round_, table, game, records[0].hash, verified.head, verified.events, places, end,
                                signed=bool(bound), bots=robots or msgspec.UNSET)
    host = parsed.host if parsed is not None and parsed.dice == "host" else ""
    claim = ""
    if ended is not None and ended.how == "time":
        import hashlib

        from trvendetta.store import encode_draw

        claim = hashlib.sha256(encode_draw(ended.record)).hexdigest()
    silent = ended.loser if claim and not _made_by(ruleset, charter, domain, start, records, ended.loser) else ""
    return Checked(result, bound, host, not verified.rolls_unchecked, claim, silent,
                   ended.record.seat if claim else "", ended.record.after if claim else 0)


def _made_by(ruleset: Any, charter: str, domain: str, start: str | None, records: Any, seat: str,
             since: int = 0) -> bool:
    """Whether ``seat`` made any of ``records[since:]`` (an action, a reveal, a retraction: not a
    revocation nor another party's record; ``outbox.makers``)."""
    from . import outbox

    made = outbox.makers(audit.walker_for, ruleset, charter, domain, list(records), start=start)
    return seat in made[since:]


def _made_in(gf: Any, seat: str, since: int = 0) -> bool:
    return _made_by(rulesets.get(gf.header.ruleset), gf.header.charter, gf.header.domain, gf.genesis, gf.records,
                    seat, since)


def check_silent_claim(checked: Checked, upheld: bool, copies: Sequence[tuple[str, bytes]] = ()) -> None:
    """A claim on time against a seat that signed nothing in the game (nor in any of ``copies``, every
    seat's copy given) counts only when the organiser upheld it (``upheld``: a ruling signed by the
    tournament's organiser): its claimant could have made the game and claimed it without ever
    sending it (docs/fair-play.md, "Threat model")."""
    seat = checked.claimed_silent
    if not seat or upheld:
        return
    for source, data in copies:
        try:
            gf = audit.read_file(data, source)
            if not (gf.records and gf.records[0].hash == checked.result.game_id):
                continue
            audit.verify_file(gf)  # (its signatures checked: a copy with a made-up one of the seat's proves nothing)
            if not _made_in(gf, seat):
                continue
        except (audit.AuditError, fmt.FileError, TrvError):
            continue
        return
    r = checked.result
    raise ResultRefused(f"game {r.game} ended on a claim on time against {seat}, and no record of it is signed by "
                        f"{seat} (no move, no reveal): nothing shows the game ever reached {seat}, so the claim "
                        f"counts only if the organiser upholds it (trv tournament rule NAME --table {r.table} "
                        "--uphold or --overturn)")


def check_evidence(store: Any, checked: Checked, evidence: list[tuple[str, bytes]]) -> None:
    """Refuse a result when a file given as evidence (another copy of the game, a fork's or a
    copy's record or packet) shows a player of it signed two continuations or two intents for
    one draw (``disputes.compare``: equivocation, docs/fair-play.md): the two signatures, named."""
    from . import disputes

    if not evidence:
        return
    game = checked.result.game
    ours = audit.read_file(audit.export(store, game).encode(), game)
    for source, data in evidence:
        try:
            theirs = audit.read_file(data, source)
            found = disputes.compare(ours, theirs, (game, source))
        except (audit.AuditError, fmt.FileError, TrvError) as exc:
            raise ResultRefused(f"{source} is no evidence about {game}: {str(exc).splitlines()[0]}") from None
        if found.equivocator:
            proof = "; ".join(line.strip() for line in found.lines
                              if line.strip().startswith((f"{game} event ", f"{source} event ")))
            raise ResultRefused(f"{found.equivocator} signed two different histories of {game} (equivocation, "
                                f"shown by {source}): the result cannot count; the proof: {proof}")


def check_host_round(state: model.State, checked: Checked) -> None:
    """In a round played in host mode, a result counts only from the table's own game (the one
    `start` created, hosted by the round's host) with every roll checked against the revealed seed."""
    result = checked.result
    r = state.round(result.round)
    if r is None or not r.host:
        return
    t = model.table_of(state, result.round, result.table)
    where = f"round {result.round} is played in host mode (host {fingerprint(r.host)})"
    if checked.host != r.host or result.game_id != t.game_id:
        raise ResultRefused(f"{where}: table {t.table}'s result counts only from its host game {t.game}; "
                            f"{result.game} is not that game")
    if not checked.rolls_checked:
        raise ResultRefused(f"{where}: the host has not revealed {t.game}'s seed, so its rolls cannot be checked "
                            f"yet (trv host reveal {t.game})")


def result_of_game(store: Any, game: str, round_: int, table: int) -> Checked:
    """Re-execute a stored game; its result if it verified and finished."""
    try:
        verified = audit.verify_game(store, game)
    except (audit.AuditError, DamagedStore) as exc:  # damage the read names, or the walk
        first = str(exc).split("\n")[0]
        raise ResultRefused(f"game {game} does not verify ({first}); its result cannot count") from None
    meta = store.header(game)
    ruleset = rulesets.get(meta.ruleset)
    return _result(round_, table, game, ruleset, verified, store.events(game), meta.charter, meta.domain,
                   meta.genesis, meta.parent, meta.parent_at, meta.bots)


def result_of_file(store: Any, data: bytes, source: str, round_: int, table: int) -> Checked:
    """Re-execute a record file; import the game into the store (so exports
    hold it) and return its result if it verified and finished."""
    try:
        gf = audit.read_file(data, source)
        if gf.kind != "record":
            raise ResultRefused(f"{source} is a turn packet; a result needs the whole game record")
        verified = audit.verify_file(gf)
    except (audit.AuditError, fmt.FileError) as exc:
        first = str(exc).split("\n")[0]
        raise ResultRefused(f"{source} does not verify ({first}); its result cannot count") from None
    ruleset = rulesets.get(gf.header.ruleset)
    checked = _result(round_, table, gf.header.game, ruleset, verified, list(gf.records), gf.header.charter,
                      gf.header.domain, gf.genesis, gf.header.parent, gf.header.parent_at, decode_bots(gf.header.bots))
    result, game = checked.result, gf.header.game
    from .sameid import held_as

    held = held_as(store, result.game_id, but=game) if not (store.exists(game) and store.version(game) >= 1 and
                                                            store.events_head(game, 1) == result.game_id) else []
    if held:
        # this store holds the game under another name: the record (a copy, renamed) is compared with it
        game = held[0]
        checked = checked._replace(result=msgspec.structs.replace(result, game=game))
        result = checked.result
        gf = msgspec.structs.replace(gf, header=msgspec.structs.replace(gf.header, game=game))
        source = f"{source} (game {gf.records[0].hash[:16]}..., held here as {game})"
    if store.exists(game):
        mine = store.events(game, decode=False)
        same_game = bool(mine) and mine[0].hash == result.game_id
        if same_game and len(mine) < len(gf.records) and gf.records[len(mine) - 1].hash == mine[-1].hash:
            audit.import_file(store, gf)  # played on elsewhere: the record extends the stored game
        elif not same_game:
            raise ResultRefused(f"this store has another game called {game}; import the record under another "
                                "name with `trv import --name`, then report that")
        elif mine[-1].hash != result.head:
            split = next((i + 1 for i, (a, b) in enumerate(zip(mine, gf.records)) if a.hash != b.hash), None)
            raise ResultRefused(
                f"this store's {game} and {source} differ: " + (
                    f"they split at event {split} (compare them: trv export {game} -o mine.trv && trv verify "
                    f"mine.trv --against {source})" if split is not None else
                    f"the store's game has {len(mine)} events, past the record's {len(gf.records)}; report the "
                    f"store's game (trv tournament report NAME --table {table} {game})"))
    else:
        audit.import_file(store, gf)
    return checked


def _same_end(a: Any, b: Any) -> bool:
    """Whether two copies end with the very same claim (its bytes and signature) and agree up to the
    record it names: one of them may hold the silent seat's late answer before it."""
    from trvendetta.store import decode_outcome

    from .outcomes import OUTCOME_OPENINGS

    if not a.records or not b.records:
        return False
    x, y = a.records[-1], b.records[-1]
    if not x.payload.startswith(OUTCOME_OPENINGS) or (x.payload, x.sig) != (y.payload, y.sig):
        return False
    after = decode_outcome(x.payload).after
    return len(a.records) > after and len(b.records) > after and a.records[after - 1].hash == b.records[after - 1].hash


def _claim_at_split(a: Any, b: Any, split: int) -> tuple[Any, str] | None:
    """When copy ``a`` ends at ``split`` with a claim on time naming the record before it, and copy
    ``b`` holds another record there (the claimed seat's answer): the claim and its SHA-256."""
    import hashlib

    from trvendetta.store import Claim, decode_outcome, encode_draw

    from .outcomes import _HOST_REVEAL, OUTCOME_OPENINGS

    rest = a.records[split - 1:]
    if not rest or len(b.records) < split or not rest[0].payload.startswith(OUTCOME_OPENINGS):
        return None
    if any(not r.payload.startswith(_HOST_REVEAL) for r in rest[1:]):
        return None
    found = decode_outcome(rest[0].payload)
    if not isinstance(found, Claim) or found.after != split - 1:
        return None
    return found, hashlib.sha256(encode_draw(found)).hexdigest()


def _late_claim(a: Any) -> tuple[Any, str] | None:
    """When copy ``a`` ends with a claim on time appended after the claimed seat's late answer (it
    follows later records than the one it names): the claim and its SHA-256."""
    import hashlib

    from trvendetta.store import Claim, decode_outcome, encode_draw

    from .outcomes import _HOST_REVEAL, OUTCOME_OPENINGS

    ends = len(a.records)
    while ends and a.records[ends - 1].payload.startswith(_HOST_REVEAL):
        ends -= 1
    if ends < 2 or not a.records[ends - 1].payload.startswith(OUTCOME_OPENINGS):
        return None
    found = decode_outcome(a.records[ends - 1].payload)
    if not isinstance(found, Claim) or found.after >= ends - 1:
        return None
    return found, hashlib.sha256(encode_draw(found)).hexdigest()


def _ruled(files: list[tuple[str, Any, bytes]], c: Any, claim: Any, digest: str, claimant: str,
           upheld: frozenset[str], overturned: frozenset[str]) -> tuple[str, bytes]:
    """An organiser's ruling on a claim a seat's copy contradicts: the claimant's copy ``c`` when
    upheld; refused when overturned (the caller refuses it, with the evidence, when neither)."""
    if digest in upheld:  # the organiser ruled: the claimant's copy counts, if no other splits elsewhere
        return _upheld_copy(files, c, claim)
    raise ResultRefused(f"the organiser overturned {claim.by}'s claim on time against {claim.seat} "
                        f"({claimant}): it does not count; record the table's result another way "
                        "(trv tournament concede / no-show, or a game played again)")


def _upheld_copy(files: list[tuple[str, Any, bytes]], c: Any, claim: Any) -> tuple[str, bytes]:
    """The claimant's copy ``c`` of an upheld claim, when every other copy agrees with it up to the
    record the claim names (the answer after it is what the organiser ruled on)."""
    for source, gf, _ in files:
        if len(gf.records) < claim.after or gf.records[claim.after - 1].hash != c.records[claim.after - 1].hash:
            raise ResultRefused(f"{source} is not the game of the upheld claim up to event {claim.after}: the copies "
                                "split before it; no result counts from them")
    return next((source, data) for source, gf, data in files if gf is c)


def one_of_copies(copies: list[tuple[str, bytes]], upheld: frozenset[str] = frozenset(),
                  overturned: frozenset[str] = frozenset()) -> tuple[str, bytes]:
    """Of every seat's copy of one game (record files), the one to count: each must be the same
    record, or a longer one extending it (a store that had not yet received the last packet).  Two
    that split are refused with the evidence (``replays.disputes``: where they split, and a seat's
    two signatures when it signed both histories), which one record alone cannot show.  A copy that
    ends with a claim on time where another holds an answer contradicts it: refused, unless the
    organiser upheld that claim (``upheld``: the SHA-256 of each claim upheld by a signed ruling),
    then the claimant's copy counts (``overturned``: refused, saying so)."""
    from . import disputes

    files = [(source, audit.read_file(data, source), data) for source, data in copies]
    for source, gf, _ in files:
        if gf.kind != "record":
            raise ResultRefused(f"{source} is a turn packet; every copy must be the whole game record")
    longest = max(files, key=lambda f: len(f[1].records))
    if all(_same_end(longest[1], gf) for _, gf, _ in files):
        # one claim ends every copy; a store that had the silent seat's late answer holds it before the
        # claim (evidence): the claimant's copy, where the claim follows the record it names, counts
        longest = min(files, key=lambda f: len(f[1].records))
    for source, gf, _ in files:
        if gf is longest[1] or _same_end(longest[1], gf):
            continue
        found = disputes.compare(longest[1], gf, (longest[0], source))
        if not found.equivocator and not found.problems and found.split is not None:
            silent = None  # (the claimant's file, when the other copy holds nothing of the claimed seat's)
            for (claimant, c), (answerer, o) in (((longest[0], longest[1]), (source, gf)),
                                                 ((source, gf), (longest[0], longest[1]))):
                crossed = _claim_at_split(c, o, found.split)
                if crossed is None:
                    continue
                claim, digest = crossed
                if not _made_in(o, claim.seat, found.split - 1):
                    # only the claimed seat's own action or reveal answers: a revocation it appended (or
                    # another party's record) contradicts nothing
                    silent = next(f for f in files if f[1] is c)
                    break
                if digest in upheld or digest in overturned:
                    return _ruled(files, c, claim, digest, claimant, upheld, overturned)
                raise ResultRefused("\n".join([
                    f"{answerer} holds {claim.seat}'s answer to event {claim.after} (event {found.split}) where "
                    f"{claimant} ends with {claim.by}'s claim on time against {claim.seat} (deadline {claim.deadline}): "
                    "a seat's copy contradicts the claim, so no result counts from it until the organiser rules on "
                    f"it (trv tournament rule NAME --table T {claimant} --uphold or --overturn); the evidence:",
                    *("  " + line for line in found.lines)]))
            if silent is not None:
                longest = silent
                continue
        late = _late_claim(longest[1]) if found.split is None and not found.problems else None
        if late is not None and len(gf.records) > late[0].after:
            # a copy that holds the claimed seat's answer without the claim appended after it: its store
            # refused the claim (it stamped the answer in time), which the claimant's store took late
            claim, digest = late
            if digest in upheld or digest in overturned:
                return _ruled(files, longest[1], claim, digest, longest[0], upheld, overturned)
            raise ResultRefused(
                f"{source} holds {claim.seat}'s answer to event {claim.after} (event {claim.after + 1}) without "
                f"{claim.by}'s claim on time against {claim.seat} (deadline {claim.deadline}), which {longest[0]} "
                "appends after that answer: a seat's copy contradicts the claim (its store did not take it), so no "
                f"result counts from it until the organiser rules on it (trv tournament rule NAME --table T "
                f"{longest[0]} --uphold or --overturn)")
        if found.equivocator or found.split is not None or found.problems:
            why = (f"{found.equivocator} signed two different games" if found.equivocator else
                   f"the copies split at event {found.split}" if found.split is not None else
                   f"{', '.join(found.problems)} does not verify")
            raise ResultRefused("\n".join([f"the copies of the game differ ({why}); no result counts from them:",
                                           *("  " + line for line in found.lines)]))
    return longest[0], longest[2]


def check_signatures(state: model.State, checked: Checked) -> tev.ResultReported:
    """Where a player registered with a key, the record must bind their seat
    to that key (its charter, docs/fair-play.md); verification has already
    refused a record in which any action of a bound seat is not signed by
    that seat.  So a result naming a keyed player counts only if that player
    signed every action of their seat."""
    result, bound = checked.result, checked.bound
    played = {p.player for p in result.places}
    for e in state.entrants:
        if not e.key or e.name not in played:
            continue
        if e.name not in bound:
            raise ResultRefused(f"{e.name} registered with key {fingerprint(e.key)}, but game {result.game} does "
                                f"not bind {e.name}'s seat to a key: the record must be signed by {e.name}")
        if bound[e.name] != e.key:
            raise ResultRefused(f"game {result.game} binds {e.name}'s seat to key {fingerprint(bound[e.name])}, "
                                f"not to the key {e.name} registered with ({fingerprint(e.key)})")
    return result


# -------------------------------------------------------------------- export
def ruling_sig_checks(name: str, ruled: tev.ClaimRuled) -> bool:
    """Whether the ruling's signature checks against the key it names, over
    :func:`~trvendetta.tournament.events.ruling_message` (whose key that is: ``model.ruler_problem``)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from .keys import canonical_b64

    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(ruled.by)).verify(
            canonical_b64(ruled.sig) or b"", tev.ruling_message(name, ruled))
    except (InvalidSignature, ValueError):
        return False
    return True


def _tag(key: str, value: Any) -> str:
    return f"[{key} {msgspec.json.encode(str(value)).decode()}]"


def export(store: Any, log: Any, name: str) -> str:
    """The tournament's events, standings and every reported game's record, as one file."""
    records = log.records(name)
    state = model.fold(tev.decode(r.payload) for r in records)
    games = [t.reported for r in state.rounds for t in r.tables if t.reported is not None]
    created = state.created
    lines = [MAGIC, _tag("Tournament", name), _tag("Ruleset", created.ruleset if created else ""),
             _tag("Events", len(records)), _tag("Head", records[-1].hash if records else GENESIS),
             _tag("Games", len(games)), "", "% tournament events"]
    lines += [f"{r.number} {r.hash} {r.payload.decode()}" for r in records]
    lines.append("% standings")
    lines += [msgspec.json.encode(s).decode() for s in standings(state)]
    out = "\n".join(lines) + "\n"
    for g in games:
        text = audit.export(store, g.game)
        out += f"% game {len(text.encode())}\n" + text
    return out + "% end tournament\n"


class Exported(msgspec.Struct, frozen=True):
    name: str
    events: int
    head: str
    games: int
    standings: tuple[Standing, ...]


_LINE = re.compile(rb"^([1-9][0-9]{0,8}) ([0-9a-f]{64}) (\{.*\})$")
_GAME = re.compile(rb"^% game ([1-9][0-9]{0,9})$")
_TAGL = re.compile(r'^\[([A-Za-z]{1,30}) ("(?:[^"\\]|\\.)*")\]$')


class ExportBroken(TrvError):
    """A tournament export that does not verify."""


def _show(line: bytes) -> str:
    """A line of an untrusted file, quoted and cut short for a one-line message."""
    return repr(line[:60].decode("utf-8", "replace"))


def verify_export(data: bytes, source: str = "file") -> Exported:
    """Check a tournament export from the file alone (see the module docstring)."""
    if len(data) > MAX_FILE_BYTES:
        raise ExportBroken(f"{source}: {len(data)} bytes; an export may be at most {MAX_FILE_BYTES}")
    pos = 0

    def line() -> bytes:
        nonlocal pos
        end = data.find(b"\n", pos)
        if end < 0:
            raise ExportBroken(f"{source}: ends in the middle of a line; the file was cut or edited")
        text, pos = data[pos:end], end + 1
        return text

    if line() != MAGIC.encode():
        raise ExportBroken(f"{source}: the first line is not {MAGIC!r}: not a tournament export")
    tags: dict[str, str] = {}
    while (text := line()) != b"":
        tag = _TAGL.match(text.decode("utf-8", "replace"))
        if not tag:
            raise ExportBroken(f"{source}: header line {_show(text)} is not [Key \"value\"]")
        try:
            tags[tag.group(1)] = msgspec.json.decode(tag.group(2), type=str)
        except msgspec.DecodeError as exc:
            raise ExportBroken(f"{source}: header line {_show(text)}: {exc}") from None
    if line() != b"% tournament events":
        raise ExportBroken(f"{source}: no '% tournament events' line after the header")
    state, head, number = model.State(), GENESIS, 0
    while (text := line()) != b"% standings":
        m = _LINE.match(text)
        if not m:
            raise ExportBroken(f"{source}: tournament event {number + 1}: {_show(text)} is not 'NUMBER HASH EVENT'")
        number += 1
        if int(m.group(1)) != number:
            raise ExportBroken(f"{source}: tournament event numbered {int(m.group(1))}, expected {number}")
        if chain(head, m.group(3)) != m.group(2).decode():
            raise ExportBroken(f"{source}: tournament event {number}: the hash does not follow from event "
                               f"{number - 1} and this event's content: it was changed")
        head = m.group(2).decode()
        try:
            event = tev.decode(m.group(3))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise ExportBroken(f"{source}: tournament event {number}: {exc}") from None
        if tev.encode(event) != m.group(3):
            raise ExportBroken(f"{source}: tournament event {number} is not canonical JSON")
        if isinstance(event, tev.ClaimRuled):  # only the organiser's key rules, and its signature checks
            problem = model.ruler_problem(state, event)
            if problem is not None or not ruling_sig_checks(state.name, event):
                raise ExportBroken(f"{source}: tournament event {number}: " + (
                    problem or f"the ruling is not signed by the key it names ({event.by[:16]}...)") +
                    ": it was forged or changed")
        state = model.evolve(state, event)
    if tags.get("Events") != str(number) or tags.get("Head") != head or tags.get("Tournament") != state.name:
        raise ExportBroken(f"{source}: the header's Tournament/Events/Head do not match the events "
                           f"({state.name}, {number}, {head[:16]}...)")
    claimed: list[bytes] = []
    while not (text := line()).startswith(b"% game ") and text != b"% end tournament":
        claimed.append(text)
    records: dict[str, tuple[audit.Verified, Any]] = {}
    while text != b"% end tournament":
        m = _GAME.match(text)
        if not m:
            raise ExportBroken(f"{source}: {_show(text)} is not a '% game BYTES' line")
        size = int(m.group(1))
        body = data[pos:pos + size]
        pos += size
        if len(body) != size:
            raise ExportBroken(f"{source}: a game record is cut short")
        try:
            gf = audit.read_file(body, f"{source} (game {len(records) + 1})")
            verified = audit.verify_file(gf)
        except TrvError as exc:
            raise ExportBroken(f"{source}: a game record does not verify: {str(exc).splitlines()[0]}") from None
        records[gf.records[0].hash if gf.records else GENESIS] = (verified, gf)
        text = line()
    if pos != len(data):
        raise ExportBroken(f"{source}: text after '% end tournament'")
    reported = [t.reported for r in state.rounds for t in r.tables if t.reported is not None]
    for res in reported:
        found = records.get(res.game_id)
        if found is None:
            raise ExportBroken(f"{source}: round {res.round} table {res.table}: the record of game {res.game} "
                               "is not in the file")
        verified, gf = found
        ruleset = rulesets.get(gf.header.ruleset)
        _, places, _, _ = _places(ruleset, list(gf.records), gf.header.charter, gf.header.domain, gf.genesis)
        if verified.head != res.head or places != res.places:
            raise ExportBroken(f"{source}: round {res.round} table {res.table}: the result does not match the "
                               f"record of game {res.game} (head or finishing places differ)")
        charter = decode_charter(gf.header.charter) if gf.header.charter else None
        robots = bot_seats(charter, decode_bots(gf.header.bots), verified.bots_unchained, [p.player for p in places])
        # (unset: a result counted before results named their bot seats, rated as it was then)
        if not isinstance(res.bots, msgspec.UnsetType) and res.bots != robots:
            raise ExportBroken(f"{source}: round {res.round} table {res.table}: the result's bot seats "
                               f"({', '.join(res.bots or ()) or 'none'}) are not the ones the record of game "
                               f"{res.game} declares ({', '.join(robots) or 'none'})")
    if len(records) != len(reported):
        raise ExportBroken(f"{source}: {len(records)} game records for {len(reported)} reported results")
    table = standings(state)
    if [msgspec.json.encode(s) for s in table] != claimed:
        raise ExportBroken(f"{source}: the standings in the file are not the ones the events give")
    return Exported(state.name, number, head, len(reported), tuple(table))
