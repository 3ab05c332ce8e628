"""Every store rebuilds a game's set-up from the messages the players signed (docs/fair-play.md).

A charter of format 2 (``Charter.v``) keeps the host's offer (or the inviter's invitation) itself, as
the JSON its signer signed (``offered``), and every player's signature over its answer (``signed``):
a host game's contributions, an exchange game's joins.  From them alone every store (verify,
import, a club server's copy, ``trv store copy``) rebuilds

- the offer's id and its signer's signature, and that the charter's seats, keys, host, commitment,
  bot seats and time control are the offer's (:func:`charter_problem`);
- every answer, and checks its signature by its seat's key (a host game's contribution names the
  offer and the host's commitment; an exchange game's join the invitation, the joiner's commitment
  and its set-up reveal): a host or an inviter cannot swap one;
- the game's nonce (``replays.charters.nonce_of`` over the offer and every answer): nobody chooses it;
- the set-up position (players in order, colours, crews, ruleset, position seed 0) from the offer's
  players, compared with event 1 (:func:`position_problem`).

Only the formats a released trv wrote are accepted, each with every check it carries; any other
format number is refused.  A charter of format 0 (made before) keeps no offer; ``trv verify`` marks
such a game by its format (``replays.charters.marks``), and a format-0 charter holding what no trv
wrote in that format is refused.  A format-0 charter cannot be forged from a format-2 game by
stripping it and keeping the signatures: an answer made for format 2 is signed as such (a host
contribution's type is :data:`CONTRIBUTION_2`); stripped of them too, each player's store finds
its own answer to the commitment in its ledger (``app.host.check_seed_inputs``).

A player's contribution of format 2 is derived, not drawn: ``value = SHA-256(prefix + its Ed25519
signature over the host's commitment and the offer's id)`` (:func:`derived_value`).  Ed25519
signatures are deterministic, so every home of the player, with or without its ledger, gives the
same bytes for one offer, and a host cannot get two different contributions from one player; nor
can it compute one (it lacks the player's key), even by offering again with an answered commitment.

Every signature a charter keeps (``signed``, the offer's ``sig``) must be base64 in its canonical
spelling (``replays.keys.canonical_b64``): each other spelling would be another game id.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import msgspec

#: the charter format that keeps the offer or invitation and every answer's signature
FORMAT = 2
#: a host game's contribution made for format 2 (its value derived from the player's signature)
CONTRIBUTION_2 = "trv-host-join-2"
#: a contribution of the trv before format 2 (a random value), or of a club server's page
CONTRIBUTION_1 = "trv-host-join"
OFFER_TYPE = "trv-host-offer"
INVITE_TYPE = "trv-invite"
JOIN_TYPE = "trv-join"


def derivation_message(commit: str, offer: str) -> bytes:
    """What a player signs to derive its contribution to the host's offer ``offer`` (its id, hex)
    whose commitment is ``commit`` (hex): both, so one key gives one contribution per offer, and a
    second offer reusing an answered commitment gets contributions its host cannot know in advance
    (the player's trv refuses to answer it anyway: ``app.ledger.answer_once``)."""
    return b"trvendetta host contribution 3\n" + commit.encode() + b"\n" + offer.encode()


def derived_value(signature: bytes) -> str:
    """A format-2 contribution (hex) from the player's signature over :func:`derivation_message`."""
    return hashlib.sha256(b"trvendetta contribution value 2\n" + signature).hexdigest()


def join_secret_message(invite: str) -> bytes:
    """What a joiner signs to derive its chain secret for the invitation ``invite`` (its id, hex)."""
    return b"trvendetta exchange join secret 1\n" + invite.encode()


def derived_secret(signature: bytes) -> bytes:
    """A joiner's chain secret (32 bytes) from its signature over :func:`join_secret_message`:
    Ed25519 signatures are deterministic, so every home of the joiner gives the same join (the same
    commitment and set-up reveal) to one invitation, and the inviter, without the joiner's key,
    cannot compute it."""
    return hashlib.sha256(b"trvendetta join secret value 1\n" + signature).digest()


def intent_content(game_id: str, number: int, action: bytes) -> str:
    """What a format-2 host game's draw covers of its intent (hex): the game, the intent's record
    number and its action's canonical bytes, not its signature (whose bytes the signer could vary:
    a host running a bot seat would fish for rolls by re-signing)."""
    return hashlib.sha256(b"trvendetta intent content 1\n" + game_id.encode() + b"\n%d\n" % number
                          + action).hexdigest()


def bot_retraction_problem(charter: Any, taker: str | None, player: str | None) -> str | None:
    """Why a retraction asked by seat ``taker`` of an action of ``player`` is refused in a format-2
    host game (None: it is not): a bot seat's action is never taken back.  A bot seat's key is the
    host's, and a format-2 draw covers the intent's record number: each take-back of a bot's action
    would move its next intent two records on, to another roll the host (who holds the seed) computes
    before choosing, so a host could grind its bot's rolls by undo."""
    if charter is None or charter.v != FORMAT or charter.dice != "host" or not charter.bots:
        return None
    seat = taker if taker in charter.bots else player if player in charter.bots else None
    if seat is None:
        return None
    from .keys import fingerprint

    return (f"{seat} is a bot seat the host ({fingerprint(charter.host)}) runs, and a bot's action is never taken "
            "back: each take-back would move its next intent to another record number, so to another roll the host, "
            "who holds the seed, could compute before choosing")


def _sig(text: str) -> bytes:
    from .keys import canonical_b64

    return canonical_b64(text) or b""


def _spelling_problem(charter: Any) -> str | None:
    """Why a charter's signatures are not in their one base64 spelling (None: they are): each kept
    string is hashed into the game's id, so another spelling of one signature is another game."""
    from .keys import canonical_b64

    for seat, text in sorted(charter.signed.items()):
        if canonical_b64(text) is None:
            return (f"the charter's field signed.{seat} is not base64 in its canonical spelling (b64encode of its "
                    "bytes): other spellings of one signature would let whoever wrote the charter choose the game's id")
    return None


def offered_message(charter: Any, kind: type) -> Any:
    """The offer or invitation a format-2 charter keeps, decoded (None when it keeps none, or when
    its bytes are not that message's compact JSON: other bytes of one message would let its keeper
    choose the game's id)."""
    raw = bytes(charter.offered)
    if not raw:
        return None
    try:
        message: object = msgspec.json.decode(raw, type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return message if message.canonical() == raw else None  # type: ignore[attr-defined]


def charter_problem(charter: Any, charter_text: str, who: Callable[[str], str],
                    signed_by: Callable[[str, bytes, bytes], bool]) -> str | None:
    """Why a charter's set-up is not the one its messages give (None: it is, or the charter is of a
    format that keeps none: ``replays.charters.marks`` says so).  ``who(seat)`` names a seat or
    ``"host"`` for messages; ``signed_by(seat, signature, body)`` checks a seat's signature (a
    delegated key included)."""
    if charter is None or not charter.seats:
        return None
    if charter.v > FORMAT:
        return f"the charter is of format {charter.v}, made by a newer trv than this one (format {FORMAT})"
    if charter.v not in (0, FORMAT):
        return (f"the charter is of format {charter.v}, which no trv makes (0: made before, {FORMAT}: keeps the "
                "offer): a format that would skip the checks of what the players signed is refused")
    if not charter.dice:  # a local game: format 0, no offer, no answers, as every trv wrote it
        if charter.v or charter.offer or charter.signed or bytes(charter.offered):
            return ("the charter of a game without a host or an exchange of dice keeps a format, an offer or "
                    "answers, which no trv wrote: refused")
        return None
    spelling = _spelling_problem(charter)
    if spelling:
        return spelling
    if charter.v != FORMAT:
        if bytes(charter.offered):
            return ("the charter keeps an offer but not its format (2): a charter stripped of its format, "
                    "refused rather than taken as a record made before")
        # format 0, as released trv wrote it: a host game with no offer and no signature, or with the
        # offer's id and every player's signature (checked by ``SignatureCheck``); an exchange game
        # with neither
        if charter.dice == "exchange" and (charter.offer or charter.signed):
            return ("the charter is of format 0 and keeps an invitation's id or joins' signatures, which no trv "
                    f"wrote in that format (an exchange game keeps them in format {FORMAT}): refused")
        if charter.dice == "host" and charter.signed and not charter.offer:
            return ("the charter is of format 0 and keeps the players' signatures without the offer they answered, "
                    "which no trv wrote: refused")
        return None
    if charter_text:
        from trvendetta.store import decode_charter, encode_charter

        if encode_charter(decode_charter(charter_text)) != charter_text:
            return "the charter is not in its canonical form: its bytes would let whoever wrote it choose the game's id"
    if charter.dice == "host":
        return _host_problem(charter, who, signed_by)
    return _exchange_problem(charter, who, signed_by)


def _stripped(what: str) -> str:
    return (f"the charter is of format {FORMAT} but keeps no {what}: a charter stripped of what the players "
            "signed is refused, never taken as a record made before")


def _host_problem(charter: Any, who: Callable[[str], str],
                  signed_by: Callable[[str, bytes, bytes], bool]) -> str | None:
    from .keys import BOT_CONTRIBUTION, fingerprint, nonce_of
    from .messages import Contribution, Offer

    host = f"the host ({fingerprint(charter.host)})" if charter.host else "the host"
    offer = offered_message(charter, Offer)
    if offer is None:
        return _stripped("offer (or an offer in another form than the one signed)")
    if offer.type != OFFER_TYPE or offer.id() != charter.offer:
        return f"the offer the charter keeps is not the one it names ({charter.offer[:16]}...): {host} changed it"
    if _sig(offer.sig) == b"" and offer.sig:
        return ("the offer the charter keeps has its field sig in another base64 spelling than its canonical one "
                f"(b64encode of its bytes): {host} could choose the game's id by its spelling")
    if not offer.signed_by(offer.host):
        return f"the offer the charter keeps is not signed by the host key it names ({fingerprint(offer.host)})"
    if charter.seed_commit != offer.commit:
        return (f"the game's commitment ({charter.seed_commit[:16]}...) is not the offer's ({offer.commit[:16]}...): "
                f"{host} started it with another seed, one it could commit to after reading the contributions")
    differs = [what for what, ours, theirs in (
        ("host", charter.host, offer.host),
        ("seats and keys", dict(charter.seats), dict(offer.seats)), ("bot seats", dict(charter.bots), dict(offer.bots)),
        ("time control", charter.time, offer.time)) if ours != theirs]
    if charter.commits or charter.order:
        differs.append("exchange fields")
    if differs:
        return (f"the game is not the offer's ({offer.game}): its {', '.join(differs)} differ; {host} started "
                "another game than the one its players answered")
    ids = []
    for seat in sorted(charter.seats):
        value = charter.setup.get(seat, "")
        if seat in charter.bots:
            if value != BOT_CONTRIBUTION or seat in charter.signed:
                return (f"{seat} is a bot seat the host runs, and {host} contributed {value[:16]}... for it instead "
                        f"of {BOT_CONTRIBUTION[:16]}...: the host could have chosen it after reading the players'")
            continue
        if seat not in charter.signed:
            return _stripped(f"signature of {who(seat)} over its contribution")
        signature = _sig(charter.signed[seat])
        found = None
        for kind in (CONTRIBUTION_2, CONTRIBUTION_1):
            answer = Contribution(kind, charter.offer, seat, value, commit=charter.seed_commit)
            if value and signed_by(seat, signature, answer.body()):
                found = answer
                break
        if found is None:
            return (f"{seat}'s contribution to the seed ({value[:16]}...) is not what {who(seat)} signed for offer "
                    f"{charter.offer[:16]}... and commitment {charter.seed_commit[:16]}...: {host} changed the "
                    "contribution, or committed to its seed after reading it")
        ids.append(found.id())
    extra = sorted(set(charter.signed) - set(charter.seats) | set(charter.setup) - set(charter.seats))
    if extra:
        return f"the charter holds contributions of {', '.join(extra)}, who have no seat"
    nonce = nonce_of(charter.offer, *ids)
    if charter.nonce != nonce:
        return (f"the game's nonce ({charter.nonce[:16]}...) is not the one its offer and contributions give "
                f"({nonce[:16]}...): {host} chose it")
    return None


def _exchange_problem(charter: Any, who: Callable[[str], str],
                      signed_by: Callable[[str, bytes, bytes], bool]) -> str | None:
    from .keys import nonce_of
    from .messages import Invite, Join

    invite = offered_message(charter, Invite)
    if invite is None:
        return _stripped("invitation (or an invitation in another form than the one signed)")
    creator = invite.creator
    inviter = who(creator) if creator in charter.seats else creator
    if invite.type != INVITE_TYPE or invite.id() != charter.offer:
        return f"the invitation the charter keeps is not the one it names ({charter.offer[:16]}...)"
    if _sig(invite.sig) == b"" and invite.sig:
        return ("the invitation the charter keeps has its field sig in another base64 spelling than its canonical "
                "one (b64encode of its bytes): the inviter could choose the game's id by its spelling")
    if creator not in invite.seats or not invite.signed_by(invite.seats[creator]):
        return f"the invitation the charter keeps is not signed by its creator's key ({creator})"
    differs = [what for what, ours, theirs in (
        ("seats and keys", dict(charter.seats), dict(invite.seats)),
        ("inviter's commitment", charter.commits.get(creator, ""), invite.commit),
        ("turn order", list(charter.order), [p[0] for p in invite.players]), ("time control", charter.time, invite.time))
        if ours != theirs]
    if charter.host or charter.seed_commit or charter.bots:
        differs.append("host fields")
    if differs:
        return (f"the game is not the invitation's ({invite.game}): its {', '.join(differs)} differ; {inviter} "
                "started another game than the one its players answered")
    ids = {}
    for seat in sorted(charter.seats):
        if seat == creator:
            if seat in charter.signed:
                return f"the charter holds a join of {inviter}, who invited"
            continue
        if seat not in charter.signed:
            return _stripped(f"join of {who(seat)} (its signature over its commitment)")
        answer = Join(JOIN_TYPE, charter.offer, seat, charter.commits.get(seat, ""), charter.setup.get(seat, ""))
        if not signed_by(seat, _sig(charter.signed[seat]), answer.body()):
            return (f"{seat}'s commitment and set-up reveal ({charter.commits.get(seat, '')[:16]}...) are not what "
                    f"{who(seat)} signed in its answer to the invitation: {inviter} swapped them")
        ids[seat] = answer.id()
    extra = sorted(set(charter.signed) - set(charter.seats) | set(charter.commits) - set(charter.seats))
    if extra:
        return f"the charter holds answers of {', '.join(extra)}, who have no seat"
    nonce = nonce_of(charter.offer, *(ids[s] for s in sorted(ids)))
    if charter.nonce != nonce:
        return (f"the game's nonce ({charter.nonce[:16]}...) is not the one its invitation and answers give "
                f"({nonce[:16]}...): {inviter} chose it")
    return None


def first_event(dice: str, ruleset: Any, message: Any, rules_version: str) -> bytes:
    """Event 1 as the offer or invitation ``message`` gives it, in its canonical bytes: the rules'
    own set-up of the offer's players (position seed 0) with the components this trv ships for the
    ruleset and those crews, under ``rules_version``.  Nothing in it depends on the dice but whether
    a host deals hidden pieces (its RNG has a favor key: ``dice == "host"``)."""
    from trvendetta.core.rng import Rng

    rng = Rng(0, 0)
    if dice == "host":
        rng.favor_key = bytes(32)  # (what Carnival asks: is there a dealer)
    position = ruleset.default_position([tuple(p) for p in message.players], 0)
    event = ruleset.setup_event(position, rng)
    if getattr(event, "rules_version", rules_version) != rules_version:
        event = msgspec.structs.replace(event, rules_version=rules_version)
    return bytes(ruleset.encode(event))


def rules_version_problem(ruleset: Any, message: Any) -> str | None:
    """Why this trv does not set up the game an offer or invitation names the rules version of
    (None: it names this trv's, or none: one made before offers named it)."""
    wanted, ours = message.rules, str(ruleset.rules_version)
    if not wanted or wanted == ours:
        return None
    return (f"it names rules version {wanted} of {ruleset.name}, and this trv plays version {ours} (older versions "
            "only replay old records): ask for an offer made with this version")


def answer_problem(message: Any) -> str | None:
    """Why this trv does not answer an offer or invitation (None: it does): a ruleset it does not
    know, or a rules version other than the one it plays; one that names none was made by a trv
    before offers named it (a host could set such a game up under any older version)."""
    from trvendetta import rulesets

    try:
        ruleset = rulesets.get(message.ruleset)
    except Exception as exc:  # noqa: BLE001 - an unknown or broken ruleset: one clear refusal
        return f"its ruleset: {exc}"
    if not message.rules:
        return (f"it names no rules version of {ruleset.name} (a trv before offers named theirs wrote it), so its "
                f"game could be set up under any older version; ask for one made with this trv (version "
                f"{ruleset.rules_version})")
    return rules_version_problem(ruleset, message)


def terms(message: Any, signer: str) -> list[str]:
    """The terms a player signs in answering an offer or invitation, one line each: its ruleset and
    rules version, the seats in turn order with their colours and crews (a bot seat: the host runs
    it), the time control, and who signed it (``signer``: its key's name and fingerprint)."""
    from trvendetta import rulesets

    default = getattr(rulesets.get(message.ruleset), "default_crew", "") or "the default crew"
    bots = dict(getattr(message, "bots", {}) or {})
    seats = ", ".join(f"{name} ({color}, {crew or default}"
                      + (f"; bot {bots[name]}, run by the host, who sees every roll)" if name in bots else ")")
                      for name, color, crew in message.players)
    return [f"ruleset: {message.ruleset}, rules version {message.rules or '(none named)'}",
            f"seats in turn order: {seats}",
            f"time control: {_time_words(message.time)}",
            f"signed by: {signer}"]


def _time_words(text: str) -> str:
    """A time control as the terms say it: what a seat must do not to lose on time."""
    if not text:
        return "none (nobody can claim a game on time)"
    if "+" in text:
        reserve, _, increment = text.partition("+")
        return (f"{text}: a reserve of {reserve} plus {increment} an answer; a seat that runs out loses on time "
                "when another seat claims")
    return f"{text}: each answer within {text}; a seat that does not answer in time loses when another seat claims"


def _known_version(ruleset: Any, version: str) -> bool:
    """Whether ``version`` is one this trv's ruleset replays (``Ruleset.rules_versions``)."""
    return version in {str(v) for v in (ruleset.rules_version, *ruleset.rules_versions)}


def position_problem(charter: Any, ruleset: Any, first: Any, payload: bytes | None = None) -> str | None:
    """Why event 1 is not the one a format-2 charter's offer or invitation gives (None: it is): its
    ruleset, its players in order with their colours and crews, position seed 0, and, given its
    ``payload`` (its bytes), ALL of it: the components this trv ships (dice, road pieces, hazards),
    the rules version the message names (one made before offers named it: any version this trv
    replays, marked by ``replays.charters.marks``), in its canonical bytes."""
    if charter is None or charter.v != FORMAT or not bytes(charter.offered):
        return None
    from .messages import Invite, Offer

    message = offered_message(charter, Offer if charter.dice == "host" else Invite)
    if message is None:
        return None  # (``charter_problem`` named it)
    from trvendetta import rulesets

    from .keys import fingerprint

    said = "offer" if charter.dice == "host" else "invitation"
    whose = (f"the host ({fingerprint(charter.host)})" if charter.dice == "host" else
             f"the inviter, {message.creator} ({fingerprint(charter.seats.get(message.creator, '0' * 64))})")
    try:
        offered = rulesets.get(message.ruleset)
    except Exception:  # noqa: BLE001 - an unknown ruleset is a set-up that differs
        offered = None
    if offered is None or offered.name != ruleset.name:
        return (f"the game is played under {ruleset.name}, and its {said} "
                f"names {message.ruleset}: {whose} started another game than the one its players answered")
    position = getattr(first, "position", None)
    try:
        expected = ruleset.default_position([tuple(p) for p in message.players], 0)
    except Exception as exc:  # noqa: BLE001 - the rules refuse the offered players
        return f"the offer's players are refused by the rules: {exc}"
    if position is None or msgspec.json.encode(position) != msgspec.json.encode(expected):
        return (f"the set-up (event 1: players, colours, crews, their order, the position's seed) is not the one the "
                f"{said} ({message.game}) gives: {whose} started "
                "another game than the one its players answered")
    if payload is None:
        return None
    recorded = getattr(first, "rules_version", None)
    if recorded is None:  # (a ruleset whose event 1 records no rules version: it has one)
        recorded = message.rules or str(ruleset.rules_version)
    version = message.rules or recorded
    if message.rules and recorded != message.rules:
        return (f"event 1 sets the game up under rules version {recorded} of {ruleset.name}, and the {said} "
                f"({message.game}) names version {message.rules}: {whose} started another game than the one its "
                "players answered")
    if not _known_version(ruleset, version):
        return (f"event 1 sets the game up under rules version {recorded!r} of {ruleset.name}, which this trv does "
                f"not replay ({', '.join(ruleset.rules_versions)}): {whose} started another game than the one its players "
                "answered")
    try:
        wanted = first_event(charter.dice, ruleset, message, version)
    except Exception as exc:  # noqa: BLE001 - the rules refuse to set the offer's game up
        return f"the {said}'s game cannot be set up by the rules: {exc}"
    raw = bytes(payload)
    if raw == wanted:
        return None
    if bytes(ruleset.encode(first)) == wanted or _same_json(raw, wanted):
        return (f"event 1 is not in its canonical form (the rules' own JSON of it, key for key and byte for byte): "
                f"other bytes of one set-up would let {whose} choose the game's id; refused")
    return (f"event 1 is not the set-up the {said} ({message.game}) gives: its {_differs(raw, wanted)} differ from "
            f"the rules' own (the components this trv ships for {ruleset.name}, rules version {version}): {whose} "
            "set the game up with other ones")


def _same_json(raw: bytes, wanted: bytes) -> bool:
    """Whether two JSON texts hold one value (the same keys and values, in any order or spacing)."""
    try:
        return bool(msgspec.json.decode(raw) == msgspec.json.decode(wanted))
    except msgspec.DecodeError:
        return False


def _differs(raw: bytes, wanted: bytes) -> str:
    """Which fields of event 1 differ from the rules' set-up, by path (``components.dice``...)."""
    try:
        ours, theirs = msgspec.json.decode(raw), msgspec.json.decode(wanted)
    except msgspec.DecodeError:
        return "bytes"
    paths: list[str] = []

    def walk(a: Any, b: Any, path: str, depth: int) -> None:
        if a == b:
            return
        if depth < 2 and isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                walk(a.get(key), b.get(key), f"{path}.{key}" if path else key, depth + 1)
            return
        paths.append(path or "bytes")

    walk(ours, theirs, "", 0)
    return ", ".join(paths[:4]) + (" ..." if len(paths) > 4 else "") if paths else "bytes"


__all__ = ["CONTRIBUTION_1", "CONTRIBUTION_2", "FORMAT", "bot_retraction_problem", "derived_secret", "join_secret_message", "charter_problem", "derivation_message", "derived_value",
           "first_event", "intent_content", "offered_message", "position_problem", "rules_version_problem",
           "answer_problem", "terms"]
