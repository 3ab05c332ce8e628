"""The application layer of tournaments: every `trv tournament` command that writes.

:class:`TournamentService` over a :class:`GameStore` appends to a tournament's
log (``trvendetta.store.tournament``) after the pure checks
(``trvendetta.tournament.model``), rewrites the read model after each append
(``trvendetta.app.tournament_read``), creates a round's games through
:class:`GameService`, and counts results only from verified records
(``trvendetta.replays.tournament``).  It prints nothing and reads no file but
a record to report: each method returns what happened and the CLI prints it
(docs/tournament.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, NamedTuple

from trvendetta import rulesets
from trvendetta.core.errors import TrvError
from trvendetta.store import Charter, GameStore, encode_charter
from trvendetta.store.tournament import TournamentLog
from trvendetta.tournament import events as tev
from trvendetta.tournament import model
from trvendetta.tournament.pairing import pair_next

COLORS = ("red", "blue", "green", "yellow")


class TableStarted(NamedTuple):
    """One table's game, as ``start_round`` created it: its table, game id,
    ruleset, events and the state it reached (bots only: the end)."""

    table: Any  # trvendetta.tournament.events.Table
    game: str
    ruleset: Any
    events: int
    state: Any


class Reported(NamedTuple):
    """A counted result: the round, what the record showed, the event logged and the tournament after it."""

    round: int
    checked: Any  # trvendetta.replays.tournament.Checked
    result: tev.ResultReported
    state: model.State


def table_games(name: str, r: Any) -> list[str]:
    """The game id of each table of round ``r``: ``NAME-rR-tT``."""
    return [f"{name}-r{r.round}-t{t.table}" for t in r.tables]


def game_seed(seed: int, round_: int, table: int) -> int:
    """The dice seed of a table's game, from the tournament's seed."""
    return int.from_bytes(hashlib.sha256(f"trvendetta-tournament:{seed}:{round_}:{table}".encode()).digest()[:8],
                          "big") >> 1


def charter_of(bound: dict[str, str], nonce: str = "") -> str:
    """The game's charter binding the keyed players' seats (docs/fair-play.md), with its nonce; ""
    for none."""
    return encode_charter(Charter(bound, nonce=nonce)) if bound else ""


def round_of(state: model.State, given: int | None) -> int:
    """The round a command names, or the last one paired."""
    if given is not None:
        return given
    if not state.rounds:
        raise TrvError("no round is paired yet; run `trv tournament pair NAME` first")
    return state.rounds[-1].round


def check_ruling(name: str, state: model.State, t: Any, checked: Any) -> None:
    """A table's game that ended on a claim the organiser overturned does not count (its result is
    recorded otherwise); a ruling by any key but the one whose rulings count (``model.ruler``), or
    whose signature does not check, is refused as forged."""
    ruled = t.ruling
    if ruled is None or not checked.claim or ruled.game_id != checked.result.game_id:
        return
    covered = ruled.claim == checked.claim or (  # an overturn covers a claim re-signed at the same point
        ruled.ruling == "overturned" and bool(ruled.seat)
        and (ruled.seat, ruled.after) == (checked.claim_seat, checked.claim_after))
    if not covered:
        return
    problem = ruling_problem(name, state, ruled)
    if problem is not None:
        raise TrvError(problem)
    if ruled.ruling == "overturned":
        what = "the claim that ended it" if ruled.claim == checked.claim else (
            f"the claim against {ruled.seat} at event {ruled.after}, and the one that ends this copy is another "
            f"claim against {ruled.seat} at event {ruled.after} (signed again), which the overturn covers")
        raise TrvError(f"game {checked.result.game}: the organiser ({ruled.by[:16]}...) overturned {what} "
                       f"({checked.result.end}{'; ' + ruled.reason if ruled.reason else ''}): it does not "
                       f"decide round {ruled.round} table {ruled.table}; record the table's result another way "
                       "(trv tournament concede / no-show, or a game played again)")


def upheld_here(name: str, state: model.State, t: Any, checked: Any) -> bool:
    """Whether the table's signed ruling upholds the very claim that ended ``checked``'s game."""
    ruled = t.ruling
    return (ruled is not None and ruled.ruling == "upheld" and bool(checked.claim) and ruled.claim == checked.claim
            and ruled.game_id == checked.result.game_id and ruling_signed(name, state, ruled))


def ruling_signed(name: str, state: model.State, ruled: tev.ClaimRuled) -> bool:
    """Whether the ruling is by the key whose rulings count and signed by it."""
    return ruling_problem(name, state, ruled) is None


def ruling_problem(name: str, state: model.State, ruled: tev.ClaimRuled) -> str | None:
    """Why a ruling does not count (None: it does): not by the key whose rulings count
    (``model.ruler``: the organiser's, fixed at `tournament new`), or its signature over
    :func:`~trvendetta.tournament.events.ruling_message` does not check."""
    from trvendetta.replays.tournament import ruling_sig_checks

    problem = model.ruler_problem(state, ruled)
    if problem is not None:
        return problem + ": it was forged or changed"
    if not ruling_sig_checks(name, ruled):
        return (f"round {ruled.round} table {ruled.table}: the ruling on the claim is not signed by the key it "
                f"names ({ruled.by[:16]}...): it was forged or changed")
    return None


def _export(store: GameStore, game: str) -> str:
    from trvendetta.replays.audit import export

    return export(store, game)


class TournamentService:
    """Every tournament command that writes, over one :class:`GameStore`."""

    @staticmethod
    def _same_id(data: bytes, game_id: str) -> bool:
        from trvendetta.replays.audit import read_file

        try:
            return bool(game_id) and read_file(data, "record").header.game_id == game_id
        except TrvError:
            return False

    def __init__(self, store: GameStore):
        self.store = store
        self.log = TournamentLog(store)

    # ------------------------------------------------------------ reading
    def load(self, name: str) -> Any:
        """The tournament as stored (``TournamentLoaded``: state and version)."""
        return self.log.load(name)

    def names(self) -> list[str]:
        return self.log.names()

    def project(self, name: str) -> list[dict]:
        """Rewrite ``name``'s read model (and every rating); its standings rows."""
        from trvendetta.app.tournament_read import project

        return project(self.store, self.log, name)

    def standings(self, name: str) -> list[dict]:
        """The standings rows, only from an unbroken log (its hash chain checked), the read model rewritten."""
        self.log.verify(name)
        return self.project(name)

    def export(self, name: str) -> str:
        """The export file's text (the log checked first)."""
        from trvendetta.replays.tournament import export

        self.log.verify(name)
        return export(self.store, self.log, name)

    def commit(self, name: str, events: list[tev.TournamentEvent], version: int) -> model.State:
        """Append a command's events (refused if the log moved on since ``version``), then the read model."""
        saved = self.log.append(name, version, events)
        self.project(name)
        return saved.state

    # ----------------------------------------------------------- commands
    def new(self, name: str, ruleset: Any, rounds: int, pod: tuple[int, int], scoring: tuple[int, ...],
            seed: int, organiser: str = "") -> model.State:
        """Create a tournament of ``ruleset`` (a Ruleset); ``organiser``: the public key (hex) whose
        signed rulings count in it ("" for none)."""
        events = model.check_new(name, ruleset.name, rounds, pod[0], pod[1], scoring, seed,
                                 ruleset.max_players, ruleset.min_players, organiser)
        created = self.log.create(name, events)
        self.project(name)
        return created.state

    def register(self, name: str, players: tuple[str, ...], bound: dict[str, str]) -> tev.TournamentEvent:
        """Enter players (``bound``: player -> public key); the first event (its ``from_round``)."""
        loaded = self.log.load(name)
        events = model.check_register(loaded.state, players, bound)
        self.commit(name, events, loaded.version)
        return events[0]

    def drop(self, name: str, player: str, by: str) -> tev.TournamentEvent:
        loaded = self.log.load(name)
        events = model.check_drop(loaded.state, player, by)
        self.commit(name, events, loaded.version)
        return events[0]

    def pair(self, name: str) -> Any:
        """Pair the next round; the ``round-paired`` event."""
        loaded = self.log.load(name)
        event = pair_next(loaded.state)
        self.commit(name, [event], loaded.version)
        return event

    def out(self, name: str, round_: int | None, table: int, player: str, by: str,
            no_show: bool) -> tuple[int, model.State]:
        """A concession or a no-show; the round and the tournament after it."""
        loaded = self.log.load(name)
        r = round_of(loaded.state, round_)
        events = model.check_out(loaded.state, r, table, player, by, no_show)
        return r, self.commit(name, events, loaded.version)

    def check_free(self, names: list[str]) -> None:
        """Refuses (nothing written) when any of the games ``names`` is already in the store."""
        taken = [g for g in names if self.store.exists(g)]
        if taken:
            raise TrvError(f"games {', '.join(taken)} already exist in this store; nothing was created")

    def start_round(self, name: str, loaded: Any, r: Any, kinds: dict[str, str], keyed: dict[str, str],
                    observe: Callable[[TableStarted], None] | None = None) -> list[TableStarted]:
        """Create round ``r``'s games (one per table, seats in table order; ``kinds``: the bot
        seats; ``keyed``: the seats bound to a key), then log ``round-started``.  ``loaded``:
        the tournament as the caller checked it (the log refuses the round if it moved on).
        ``observe`` sees each table's game as it is created."""
        from trvendetta.replays.charters import nonce_of

        from .service import GameService

        names = table_games(name, r)
        self.check_free(names)
        created = loaded.state.created
        assert created is not None
        rules = rulesets.get(created.ruleset)
        games = GameService(self.store)
        done, logged = [], []
        for t, game in zip(r.tables, names):
            seats = [(p, COLORS[i], "") for i, p in enumerate(t.players)]
            position = rules.default_position(seats, game_seed(created.seed, r.round, t.table))
            mine = {p: k for p, k in kinds.items() if p in t.players}
            # the nonce: this tournament's log as it stands, the round and the table (no other game has it)
            nonce = nonce_of("tournament", name, str(getattr(loaded, "head", "")), str(r.round), str(t.table))
            charter = charter_of({p: keyed[p] for p in t.players if p in keyed}, nonce)
            saved = games.new_game(rules, position, game, bots=mine, charter=charter).loaded
            logged.append(tev.TableGame(t.table, game, self.store.events_head(game, 1)))
            done.append(TableStarted(t, game, rules, saved.version, saved.state))
            if observe is not None:
                observe(done[-1])
        self.commit(name, [tev.RoundStarted(r.round, tuple(logged))], loaded.version)
        return done

    def start_hosted(self, name: str, loaded: Any, r: Any, offers: dict[str, tuple[str, Any]],
                     contributions: Callable[[], list[tuple[str, Any]]], create: Callable[[Any, str, list, str], Any],
                     observe: Callable[[TableStarted], None] | None = None) -> list[TableStarted]:
        """Host mode: each table's host game from its offer (``offers``: game -> (file, Offer))
        and its players' contributions (``contributions()``: (file, Contribution) each, read once
        the offers and the games' names are checked), every table checked
        before any game is created; then ``round-started`` naming the host.  ``create(offer,
        file, contributions, game)`` creates one host game (``GameService.new_host_game`` with
        the shell's host keys)."""
        names = table_games(name, r)
        for t, game in zip(r.tables, names):
            got = offers[game][1]
            if got.game != game or sorted(got.seats) != sorted(t.players):
                raise TrvError(f"{offers[game][0]} is not the offer of round {r.round} table {t.table} "
                               f"({', '.join(t.players)})")
        hosts = {got.host for _, got in offers.values()}
        if len(hosts) != 1:
            raise TrvError("the round's offers name more than one host; one organiser hosts a round")
        self.check_free(names)
        answers = contributions()
        for game in names:  # every table's contributions are checked before any game is created
            _, got = offers[game]
            have = {a.seat for _, a in answers if a.offer == got.id()}
            missing = [s for s in got.seats if s not in got.bots and s not in have]
            if missing:
                raise TrvError(f"no contribution from {', '.join(missing)} for {game} yet: give every --join FILE")
        done, logged = [], []
        for t, game in zip(r.tables, names):
            path, got = offers[game]
            played, _ = create(got, path, [(f, a) for f, a in answers if a.offer == got.id()], game)
            end = self.store.load(game)
            logged.append(tev.TableGame(t.table, game, self.store.events_head(game, 1)))
            done.append(TableStarted(t, game, played.ruleset, end.version, end.state))
            if observe is not None:
                observe(done[-1])
        self.commit(name, [tev.RoundStarted(r.round, tuple(logged), host=hosts.pop())], loaded.version)
        return done

    def rule(self, name: str, table: int, round_: int | None, source: str | None, read: Callable[[str], bytes | None],
             ruling: str, reason: str, by: str, sign: Callable[[bytes], bytes]) -> tuple[tev.ClaimRuled, model.State]:
        """The organiser's ruling on the claim on time that ended a table's game (``source`` as for
        :meth:`report`), signed with ``sign`` by the key ``by``: ``upheld`` or ``overturned``."""
        import base64

        from msgspec.structs import replace

        from trvendetta.replays.tournament import result_of_file, result_of_game

        loaded = self.log.load(name)
        state = loaded.state
        r = round_of(state, round_)
        if source is None:
            source = model.table_of(state, r, table).game
            if not source:
                raise TrvError(f"round {r} table {table} has no game from `start`; name the game or record file")
        data = None if self.store.exists(source) else read(source)
        checked = (result_of_file(self.store, data, source, r, table) if data is not None
                   else result_of_game(self.store, source, r, table))
        if not checked.claim:
            how = checked.result.end or "by the rules"
            raise TrvError(f"game {checked.result.game} did not end on a claim on time ({how}): there is no claim "
                           "to rule on")
        ruled = tev.ClaimRuled(r, table, checked.result.game_id, checked.claim, ruling, by, "", reason,
                               checked.claim_seat, checked.claim_after)
        ruled = replace(ruled, sig=base64.b64encode(sign(tev.ruling_message(name, ruled))).decode())
        events = model.check_rule(state, ruled)
        return ruled, self.commit(name, events, loaded.version)

    def decided_without_game(self, name: str, table: int, round_: int | None) -> tuple[int, dict[str, int]] | None:
        """A table decided by concessions and no-shows, with no game counted: (its round, its
        places); None for any other table (``report`` then reads its game)."""
        state = self.log.load(name).state
        r = round_of(state, round_)
        t = model.table_of(state, r, table)
        places = model.table_places(t)
        return (r, places) if t.reported is None and places is not None else None

    def report(self, name: str, table: int, round_: int | None, source: str | None,
               read: Callable[[str], bytes | None], copies: tuple[str, ...] = (),
               evidence: list[tuple[str, bytes]] | None = None) -> Reported:
        """Count a table's result from a game record: the game ``source`` in this store (default:
        the one ``start_round`` created), or, when ``read(source)`` gives bytes, a record file
        (imported so exports hold it).  The record must verify, have finished (by the rules, a
        claim on time or a resignation) and be played and signed as the tournament requires.
        ``copies``: more record files of the same game (every seat's): they must agree, else the
        result is refused with the evidence (``replays.tournament.one_of_copies``).  ``evidence``
        (file, bytes) that a player of it equivocated (two signed intents for one draw, two signed
        continuations) refuses it."""
        from trvendetta.replays.tournament import (check_evidence, check_host_round, check_signatures,
                                                   check_silent_claim, one_of_copies, result_of_file, result_of_game)

        loaded = self.log.load(name)
        state = loaded.state
        r = round_of(state, round_)
        t = model.table_of(state, r, table)
        if t.game and source is not None and source != t.game and self.store.exists(t.game):
            # a record file of the table's game (a copy, under any name) must agree with this store's own
            data = read(source)
            if data is not None and self._same_id(data, t.game_id):
                copies = (*copies, t.game)
        files: list[tuple[str, bytes]] = []
        if copies:
            for path in (source, *copies):
                data = read(path) if path is not None and path != t.game else None
                if path is not None and path == t.game and self.store.exists(path):
                    data = _export(self.store, path).encode()
                if data is None or path is None:
                    raise TrvError(f"{path}: not a record file; give every seat's copy as a file (trv export GAME)")
                files.append((path, data))
            if t.ruling is not None and (problem := ruling_problem(name, state, t.ruling)) is not None:
                raise TrvError(problem)
            ruled = t.ruling
            upheld = frozenset({ruled.claim} if ruled is not None and ruled.ruling == "upheld" else ())
            overturned = frozenset({ruled.claim} if ruled is not None and ruled.ruling == "overturned" else ())
            source, data = one_of_copies(files, upheld, overturned)
            read = {source: data}.get

        if source is None:
            t = model.table_of(state, r, table)
            if not t.game:
                raise TrvError(f"round {r} table {table} has no game from `start`; name the game or record file")
            source = t.game
        data = None if self.store.exists(source) else read(source)
        if data is not None:
            checked = result_of_file(self.store, data, source, r, table)
        else:
            checked = result_of_game(self.store, source, r, table)
        check_host_round(state, checked)
        check_evidence(self.store, checked, evidence or [])
        t = model.table_of(state, r, table)
        check_ruling(name, state, t, checked)
        check_silent_claim(checked, upheld_here(name, state, t, checked), files)
        result = check_signatures(state, checked)
        events = model.check_report(state, result)
        return Reported(r, checked, result, self.commit(name, events, loaded.version))
