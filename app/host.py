"""Host games in the application layer (docs/fair-play.md).

A host holding a committed secret seed rolls the dice.  Here, in the host's
store: the game is created from the host's :class:`~app.messages.Offer` and
every player's :class:`~app.messages.Contribution` (:func:`new_host_game`);
after an import (or the creation) the open draw is resolved with the game's
seed and signed by the host, and the bot seats the host runs play
(:func:`answer_host`); at the game's end, or when asked
(:func:`reveal_seed`), the host reveals its seed in a signed record.

Everything works from the stored state: the draws from the newest draws'
records (``replays.host.host_draws_at``), the engine state from the store,
never from a walk of the whole game.  The host's secret and key are the
shell's business: every function takes a :class:`HostKeys`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from trvendetta import rulesets
from trvendetta.core.draws import HOST_BYTES, host_game_seed, host_rng
from trvendetta.core.errors import TrvError
from trvendetta.replays.setups import CONTRIBUTION_1, CONTRIBUTION_2
from trvendetta.replays.signatures import HOST
from trvendetta.store import GameStore

from .decisions import MAX_ACTIONS_PER_COMMAND
from .exchange import Answered
from .messages import Contribution, Offer


class HostKeys(NamedTuple):
    """What the host's shell hands over: ``secret(commitment_hex)``, its seed
    and salt (None when this user is not that game's host); ``keyring(public_hex)``,
    something whose ``sign(HOST, message)`` signs with that key (raising
    TrvError when it is not one of this user's); ``where``, where the seeds
    are kept (for messages)."""

    secret: Callable[[str], "tuple[bytes, bytes] | None"]
    keyring: Callable[[str], Any]
    where: str
    #: the ledger of the host's seeds (``app.ledger``): the game each serves, the intent each draw resolved
    ledger: Any


class _As:
    """The host's key signing under any name (``@host``, or a bot seat it runs)."""

    def __init__(self, keyring: Any):
        self.keyring = keyring

    def sign(self, name: str, message: bytes) -> bytes:
        return self.keyring.sign(HOST, message)


def contributions(offer: Offer, answers: list[tuple[str, Contribution]],
                  signed: "Callable[[Contribution, str], bool] | None" = None) -> dict[str, str]:
    """Every human seat's contribution (hex) to the offer, each checked: its
    offer, its seat's signature, its size; one clear error naming the file.
    ``signed(answer, seat_key)``: whether the seat signed it (default: with the
    seat's own key; a club server also takes a key the seat delegated to)."""
    found: dict[str, str] = {}
    signed = signed or (lambda answer, key: answer.signed_by(key))
    for path, answer in answers:
        if answer.offer != offer.id():
            raise TrvError(f"{path} answers another offer")
        if answer.type not in (CONTRIBUTION_1, CONTRIBUTION_2):
            raise TrvError(f"{path} is not a contribution ({answer.type!r})")
        if answer.commit != offer.commit:
            raise TrvError(f"{path}: {answer.seat}'s contribution does not sign the offer's commitment "
                           f"({offer.commit[:16]}...)" + ("" if answer.commit else
                                                         ": made by an older trv; make a new offer"))
        if answer.seat not in offer.seats or not signed(answer, offer.seats[answer.seat]):
            raise TrvError(f"{path} is not signed by {answer.seat}'s key")
        if len(bytes.fromhex(answer.value)) != HOST_BYTES:
            raise TrvError(f"{path}: {answer.seat}'s contribution is not {HOST_BYTES} bytes")
        if answer.seat in offer.bots:
            raise TrvError(f"{path}: {answer.seat} is a bot seat; the host contributes for it")
        found[answer.seat] = answer.value
    missing = [s for s in offer.seats if s not in found and s not in offer.bots]
    if missing:
        raise TrvError(f"no contribution from {', '.join(missing)} yet for {offer.game}: give every --join FILE")
    return found


def check_seed_inputs(charter_text: str, game: str, game_id: str, can_sign: Callable[[str], bool],
                      answers: Any, ledger: Any, started: "tuple[str, list[tuple[str, str]]] | None" = None) -> None:
    """In a player's store, before a host game is written (an import, a club server's copy): refuse
    it, naming the host, when the seed inputs are not the ones this player signed: its own
    contribution is not the one it gave to that offer (``answers``: ``app.ledger.Answers``), the
    host's commitment is not the offer's, it is another game than the offer's (``started``: its
    ruleset and its seats' names and colours in order, from event 1; the charter's seats, keys, bot
    seats and time control), or it is a second game of one offer (``ledger``: the game each host's
    commitment serves here).  ``can_sign(seat)``: whether a local identity holds the seat's key.

    The answers are looked up by the player's key and the host's commitment, never by an offer id,
    a seat's name or a host key the charter names (a cheating host writes those): a game without
    signed contributions whose commitment this key never answered, while an offer it answered never
    started, is one whose host committed after reading the contributions, under whatever name,
    identity or set of players."""
    from trvendetta.replays.setups import CONTRIBUTION_2
    from trvendetta.replays.signatures import fingerprint
    from trvendetta.store import decode_charter

    charter = decode_charter(charter_text) if charter_text else None
    if charter is None or charter.dice != "host":
        return
    mine = [s for s in sorted(charter.seats) if s not in charter.bots and can_sign(s)]
    if not mine:
        return
    host = f"the host ({fingerprint(charter.host)})"
    made = ledger.bound(charter.seed_commit)
    if made is not None and made["id"] != game_id:
        raise TrvError(f"{game} is another game from the offer of game {made['bind']} ({made['id'][:16]}...), "
                       f"which {host} started already: one offer makes one game (a second would let the host keep "
                       "the one it likes); nothing imported")
    offers = [e for e in answers.all() if answers.to_host(e)]
    for seat in mine:
        value = charter.setup.get(seat, "")
        # this key's answers to any host's offer (a host may add or drop a player, or rename a seat)
        among = [e for e in offers if charter.seats[seat] in e["keys"]]
        # by the keys and the commitment (a seat's name is the host's to write too): this seat's answer first
        answered = sorted((e for e in among if e["commit"] == charter.seed_commit), key=lambda e: e["seat"] != seat)
        given = answered[0] if answered else None
        if given is None:
            open_ = [e for e in among if ledger.bound(e["commit"]) is None]
            if open_ and not charter.signed:  # (a signed contribution shows the commitment came first)
                e = open_[-1]
                raise TrvError(f"{game}: {host} started it with commitment {charter.seed_commit[:16]}..., which is "
                               f"not the one of the offer you ({seat}) answered ({e['game']}, from key "
                               f"{fingerprint(e['from'])}, commitment {e['commit'][:16]}..., at {e['at']}), which "
                               "never started: a host that commits after reading the contributions chooses the "
                               "seed; nothing imported")
            continue  # (the charter's signature of the seat, checked by the walk, shows its key signed it)
        from .messages import Contribution

        answer = Contribution.decode(given["answer"].encode(), "your recorded answer")
        if value != answer.value:
            raise TrvError(f"{game}: {host} started it with {value[:16]}... as {seat}'s "
                           f"contribution to the seed, and you contributed {answer.value[:16]}... to its offer "
                           f"({given['game']}): the host chose your part of the seed; nothing imported")
        if answer.type == CONTRIBUTION_2 and not charter.v:
            raise TrvError(f"{game}: {host} stripped its charter of the offer and of the players' signatures, to pass "
                           f"it off as a game made before signed contributions: you ({seat}) answered its commitment "
                           f"({charter.seed_commit[:16]}...) for {given['game']} with a contribution of format 2, "
                           "which a trv that keeps the offer in the charter made; nothing imported")
        differs = given.get("offer") and _not_the_offer(charter, Offer.decode(given["offer"].encode(),
                                                                               "your recorded offer"), started)
        if differs:
            raise TrvError(f"{game}: {host} started another game than the offer you ({seat}) answered "
                           f"({given['game']}): its {differs} differ; from one set of contributions a host "
                           "that starts the game it likes chooses the dice; nothing imported")


def _not_the_offer(charter: Any, offer: Offer, started: "tuple[str, list[tuple[str, str]]] | None") -> str:
    """What of a host game differs from the offer it was made from ("" when nothing does)."""
    found = [what for what, ours, theirs in (
        ("seats and keys", dict(charter.seats), dict(offer.seats)), ("host", charter.host, offer.host),
        ("bot seats", dict(charter.bots), dict(offer.bots)), ("time control", charter.time, offer.time))
        if ours != theirs]
    if started is not None:
        ruleset, seats = started
        if ruleset != offer.ruleset:
            found.append("ruleset")
        if seats != [(p[0], p[1]) for p in offer.players]:
            found.append("players (their order or colours)")
    return ", ".join(found)


def new_host_game(service: Any, offer: Offer, offer_file: str, answers: list[tuple[str, Contribution]],
                  name: str, host: HostKeys, signed: "Callable[[Contribution, str], bool] | None" = None,
                  play_bots: bool = True, bots: "Callable[[str], Any] | None" = None) -> tuple[Any, Answered]:
    """The host game of ``offer`` with the players' contributions; the host's
    store then plays any bot seat that is to act (each bot seat contributes
    ``BOT_CONTRIBUTION``; ``play_bots`` and ``bots`` as :func:`answer_host`'s).  Returns what
    ``GameService.new_game`` played and what :func:`answer_host` added."""
    import msgspec

    from trvendetta.replays.charters import nonce_of
    from trvendetta.replays.setups import FORMAT
    from trvendetta.replays.signatures import BOT_CONTRIBUTION
    from trvendetta.store import Charter, encode_charter

    secret = host.secret(offer.commit)
    if secret is None:
        raise TrvError(f"{offer_file}: its commitment is not one of yours (no seed in {host.where}); "
                       "only the host who wrote the offer creates the game")
    with host.ledger.locked(offer.commit):  # two `trv host new` of one offer at once make one game too
        made = host.ledger.bound(offer.commit)
        if made is not None:  # one game per seed: a second would be a copy, or another set of contributions
            raise TrvError(f"{offer_file}: you created game {made['bind']} from this offer already "
                           f"({made['id'][:16]}...); its seed serves that game only")
        given = contributions(offer, answers, signed)
        # each player's signature over its contribution, the offer and its commitment, kept in the charter
        sigs = {answer.seat: answer.sig for _, answer in answers}
        # the host's contribution for each bot seat: fixed, so it cannot pick one after reading the players'
        given.update({seat: BOT_CONTRIBUTION for seat in offer.bots})
        if offer.time:
            from .clock import parse_time_control

            parse_time_control(offer.time)  # a time control this trv reads, or one clear error
        # the nonce: the offer's id and every player's answer's, so every player's answer is in the game's id
        nonce = nonce_of(offer.id(), *(answer.id() for _, answer in sorted(answers, key=lambda a: a[1].seat)))
        # format 2: the offer itself, so that every store rebuilds the set-up and the nonce from it
        charter = encode_charter(Charter(dict(offer.seats), "host", {}, given, offer.host, offer.commit,
                                         dict(offer.bots), time=offer.time, nonce=nonce, offer=offer.id(),
                                         signed=sigs, v=FORMAT, offered=msgspec.Raw(offer.canonical())))
        game_seed = host_game_seed(secret[0], {s: bytes.fromhex(v) for s, v in given.items()})
        rules = rulesets.get(offer.ruleset)
        pos = rules.default_position(list(offer.players), 0)
        played = service.new_game(rules, pos, name, charter=charter, rng=host_rng(game_seed, 1))
        host.ledger.bind(offer.commit, played.loaded.game, service.store.events_head(played.loaded.game, 1))
    return played, answer_host(service.store, played.loaded.game, host, bots, play_bots)


def _signer(keys: Any, spec: str, game_id: str, name: str = HOST) -> Any:
    """A record's signer under ``name`` (the host, or a bot seat it runs)."""
    from trvendetta.replays.signatures import domain_at, entry, message

    def sign(number: int, previous: str, body: bytes) -> bytes:
        return entry(name, keys.sign(name, message(domain_at(spec, game_id, number), number, previous, body)))
    return sign


def _reveal_record(secret: tuple[bytes, bytes], sign: Any) -> Any:
    """The host's signed reveal of its seed and salt."""
    from trvendetta.replays.host import host_reveal_payload
    from trvendetta.store import HOST_REVEAL_KIND, RawRecord

    return RawRecord(HOST_REVEAL_KIND, 1, host_reveal_payload(*secret), b"", sign)


class _Game:
    """One host game as this command changes it: the stored game, its draws, the host's signers."""

    def __init__(self, store: GameStore, game: str, charter: Any, draws: Any, keys: Any, ledger: Any):
        self.store, self.charter, self.draws, self.keys, self.ledger = store, charter, draws, keys, ledger
        self.loaded = store.load(game)
        self.spec, self.game_id = self.loaded.domain, store.events_head(game, 1)

    def sign(self, name: str = HOST) -> Any:
        return _signer(self.keys, self.spec, self.game_id, name)

    def append(self, **kwargs: Any) -> None:
        self.loaded = self.store.append(self.loaded.game, self.loaded.version, **kwargs)


def answer_host(store: GameStore, game: str, host: HostKeys,
                bots: "Callable[[str], Any] | None" = None, play_bots: bool = True) -> Answered:
    """In the host's store, after an import or the game's creation: resolve the open draw with the
    game's seed, signed by the host; play the bot seats the host runs (a bot's action that needs
    dice is recorded as its intent and resolved at once); at the game's end reveal the seed.
    ``bots(kind)``: the bot that plays a seat of that kind (default ``bots.registry.get_bot``);
    ``play_bots=False``: the bot seats are left to the caller (:func:`bot_turn`, :func:`play_bot`),
    which thinks elsewhere (a club server, off its store thread)."""
    from trvendetta.core.fairplay import charter_of
    from trvendetta.replays.host import host_draws_at

    from .exchange import looking_only

    meta = store.header(game)
    charter = charter_of(meta.charter)
    secret = host.secret(charter.seed_commit)
    draws = host_draws_at(store, game, charter)
    before = store.version(game)
    if secret is None and not meta.parent:  # a player's store: the game of that offer has started
        host.ledger.bind(charter.seed_commit, game, store.events_head(game, 1))
    from trvendetta.replays.outcomes import ended_in

    if secret is None or draws.revealed_at:
        return Answered(before, [])  # (not its host, or revealed)
    if meta.parent:
        return Answered(before, [], looking_only(game, meta.parent) + ": the host rolls no dice for it")
    if ended_in(store, game):  # ended by a claim or a resignation: the seed is revealed, as at any end
        g = _Game(store, game, charter, draws, _As(host.keyring(charter.host)), host.ledger)
        g.append(records=[_reveal_record(secret, g.sign())])
        return Answered(before, [(True, "the host reveals the game's secret seed: every roll can now be checked")])
    added: list[tuple[bool, str]] = []
    seed = host_game_seed(secret[0], {s: bytes.fromhex(v) for s, v in charter.setup.items()})
    g = _Game(store, game, charter, draws, _As(host.keyring(charter.host)), host.ledger)
    for _ in range(MAX_ACTIONS_PER_COMMAND):
        if draws.open is not None:
            _resolve(g, seed, added)
            continue
        turn = _bot_turn(g) if play_bots else None
        if turn is None:
            break
        _record_bot(g, turn, turn.choose(bots), added)
    else:
        raise TrvError(f"the bot seats took {MAX_ACTIONS_PER_COMMAND} actions and the game is not over; giving up")
    if g.loaded.ruleset.pending(g.loaded.state) is None:  # game over: every roll becomes checkable
        g.append(records=[_reveal_record(secret, g.sign())])
        added.append((True, "the host reveals the game's secret seed: every roll can now be checked"))
    return Answered(before, added)


class BotTurn(NamedTuple):
    """A decision a bot seat the host runs is to take, with everything its bot reads: the state as
    the seat sees it (the favors dealt face down to it opened, nobody else's), the bot's RNG.
    :meth:`choose` is pure (no store, no key), so a server runs it on a thread of its own."""

    game: str
    #: the game's version and head the turn was read at (the bot's action is recorded only there)
    version: int
    head: str
    seat: str
    kind: str
    ruleset: Any
    state: Any
    seen: Any
    rng: Any
    decision: Any
    openings: "dict[str, tuple[str, str]] | None"

    def choose(self, bots: "Callable[[str], Any] | None" = None) -> Any:
        """The bot's action (sealed with its opening when it plays a favor dealt face down)."""
        from trvendetta.bots.registry import get_bot

        bot = (bots or get_bot)(self.kind)
        action = bot.choose(self.ruleset, self.seen, self.rng, self.decision)
        if self.openings:
            action = self.ruleset.sealed_action(self.state, action, self.openings)
        return action


def bot_turn(store: GameStore, game: str, host: HostKeys) -> BotTurn | None:
    """The decision a bot seat this host runs is to take now (None: the game waits on no such seat,
    on the host's dice, or is over; or this is not its host's store)."""
    from trvendetta.core.fairplay import charter_of
    from trvendetta.replays.host import host_draws_at
    from trvendetta.replays.outcomes import ended_in

    meta = store.header(game)
    charter = charter_of(meta.charter)
    if charter is None or not charter.bots or meta.parent or host.secret(charter.seed_commit) is None:
        return None
    draws = host_draws_at(store, game, charter)
    if draws.revealed_at or draws.open is not None or ended_in(store, game):
        return None
    return _bot_turn(_Game(store, game, charter, draws, _As(host.keyring(charter.host)), host.ledger))


def play_bot(store: GameStore, game: str, host: HostKeys, turn: BotTurn, action: Any) -> Answered:
    """Record the bot's ``action`` for ``turn`` (signed with the host's key under the seat's name),
    then answer as :func:`answer_host` does (the dice it waits for, the reveal at the end), leaving
    the next bot decision to the caller.  GameMovedOn when the game is no longer where the turn was
    read (another process played it, or a player's claim ended the game)."""
    from trvendetta.core.fairplay import charter_of
    from trvendetta.replays.host import host_draws_at
    from trvendetta.store import GameMovedOn

    before = store.version(game)
    current = bot_turn(store, game, host)
    if current is None or (current.version, current.head, current.seat) != (turn.version, turn.head, turn.seat):
        raise GameMovedOn(before)
    charter = charter_of(store.header(game).charter)
    g = _Game(store, game, charter, host_draws_at(store, game, charter), _As(host.keyring(charter.host)), host.ledger)
    added: list[tuple[bool, str]] = []
    _record_bot(g, current, action, added)
    after = answer_host(store, game, host, play_bots=False)
    return Answered(before, added + after.added)


def _resolve(g: _Game, seed: bytes, added: list) -> None:
    """The open draw's action, rolled with the draw's RNG, recorded signed by the host over every event."""
    from trvendetta.replays.signatures import resolution_body

    from .exchange import intent_ref
    from .ledger import claim
    from .sealing import hides, sealer

    ruleset, open_ = g.loaded.ruleset, g.draws.open
    # the host's seed serves the game it created only, each draw once (a renamed copy, another intent: refused)
    claim(g.ledger, g.charter.seed_commit, "the host", intent_ref(g.store, g.loaded.game, open_, ruleset))
    action = ruleset.decode_action(open_["action"])
    rng = g.draws.rng_of(open_, seed)
    if hides(ruleset, g.loaded.charter):  # a favor dealt face down is sealed to its owner's key only
        rng.sealer = sealer(dict(g.charter.seats))
    state, events = ruleset.apply(g.loaded.state, action, rng)
    payloads = [ruleset.encode(e) for e in events]
    host_signer = g.sign()

    def sign(number: int, previous: str, body: bytes) -> bytes:
        return host_signer(number, previous, resolution_body(body, payloads))

    g.append(steps=[(action, events, sign)], state=state)
    g.draws.open, g.draws.next_draw = None, g.draws.next_draw + 1
    added.append((False, f"{open_['seat']}: {ruleset.describe_action(action)} (rolled by the host)"))
    added.extend((True, ruleset.describe(e)) for e in events)


def _bot_turn(g: _Game) -> BotTurn | None:
    """When the game waits on a bot seat the host runs: what its bot reads to choose (None: the
    decision is not such a bot's)."""
    from trvendetta.bots.seats import bot_rng

    ruleset, state, charter = g.loaded.ruleset, g.loaded.state, g.charter
    decision = ruleset.pending(state)
    if decision is None or decision.player not in charter.bots or charter.seats.get(decision.player) != charter.host:
        return None
    seat = decision.player
    seen, openings = state, _bot_openings(g, seat)
    if openings is not None:  # the bot looks at the favors dealt to it, face down to everyone else
        seen = ruleset.private_view(state, openings, [seat])
    return BotTurn(g.loaded.game, g.loaded.version, g.loaded.head, seat, charter.bots[seat], ruleset, state, seen,
                   bot_rng(ruleset, state, g.loaded.version), decision, openings)


def _record_bot(g: _Game, turn: BotTurn, action: Any, added: list) -> None:
    """The bot's action, recorded signed with the host's key under the seat's name (one that needs
    dice: as its intent, which opens the next draw)."""
    from trvendetta.core.rng import NeedDice, NoDice

    from .exchange import intent_record

    ruleset, state, seat, kind = g.loaded.ruleset, g.loaded.state, turn.seat, turn.kind
    what = ruleset.describe_action(action)
    try:
        after, events = ruleset.apply(state, action, NoDice())
    except NeedDice:
        encoded = ruleset.encode(action)
        record = intent_record(g.loaded, g.draws, g.game_id, g.keys, seat, encoded,
                               lambda commitment: None)  # the host's seed decides
        g.append(records=[record])
        g.draws.open = {"seat": seat, "draw": g.draws.next_draw, "action": encoded, "reveals": {},
                        "number": g.loaded.version, "hash": g.loaded.head,
                        "previous": g.store.events_head(g.loaded.game, g.loaded.version - 1), "sig": b""}
        added.append((True, f"{seat} (bot {kind}) waits for the host's dice for {what!r}"))
        return
    g.append(steps=[(action, events, g.sign(seat))], state=after)
    added.append((False, f"{seat} (bot {kind}): {what}"))
    added.extend((True, ruleset.describe(e)) for e in events)


def _bot_openings(g: _Game, seat: str) -> "dict[str, tuple[str, str]] | None":
    """The favors dealt face down to the bot seat ``seat``, opened with the host's key (None: the
    game deals nothing face down)."""
    from .sealing import hides, openings

    if not hides(g.loaded.ruleset, g.loaded.charter):
        return None
    keys = g.keys.keyring
    records = g.store.events(g.loaded.game, upto=g.loaded.version)
    return openings(g.loaded.ruleset, [r.event for r in records],
                    lambda owner, box: keys.open_sealed(HOST, box) if owner == seat else None)


def reveal_seed(store: GameStore, game: str, host: HostKeys) -> int:
    """Append the host's signed reveal of its seed (no more dice after it);
    returns the game's records before it.  Refused, with the reason, in a
    game that is not this user's host game, that has its reveal already, or
    whose draw is open."""
    from trvendetta.replays.host import host_draws_at
    from trvendetta.store import decode_charter

    charter = decode_charter(store.header(game).charter)
    if charter is None or charter.dice != "host":
        raise TrvError(f"game {game!r} is not a host game (trv host new); it has no secret seed to reveal")
    secret = host.secret(charter.seed_commit)
    if secret is None:
        raise TrvError(f"game {game!r}: its seed is not in {host.where}; only its host can reveal it")
    draws = host_draws_at(store, game, charter)
    if draws.revealed_at:
        raise TrvError(f"game {game!r}: the seed was revealed at event {draws.revealed_at} already")
    if draws.open is not None:
        raise TrvError(f"game {game!r}: draw {draws.open['draw']} is open; import it and resolve it first")
    g = _Game(store, game, charter, draws, _As(host.keyring(charter.host)), host.ledger)
    before = g.loaded.version
    g.append(records=[_reveal_record(secret, g.sign())])
    return before


__all__ = ["BotTurn", "HostKeys", "answer_host", "bot_turn", "check_seed_inputs", "contributions", "new_host_game",
           "play_bot", "reveal_seed"]
