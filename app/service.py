"""The application layer: load -> decide -> save, and the bot seats.

:class:`GameService` is what the CLI, the replay tools and the tests call to
change a game (eventsourcing's ``Application`` with command methods, in the
functional style): it loads a game from the store, asks the ruleset to decide,
lets the bot seats answer their decisions, and saves everything a command
produced in one append.  It prints nothing and parses nothing: each command
returns what happened (:class:`Played`, :class:`Undone`), and the CLI turns
that into text.

Layers: the engine (``trvendetta`` core, rulesets, bots) knows nothing of
this module; this module uses the store (``trvendetta.store``) and the
record tools (``trvendetta.replays``: verify, import, undo plans, forks);
the CLI uses this module (``tests/packaging/test_layers.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from trvendetta import replays
from trvendetta.bots.seats import BotMove, bot_moves
from trvendetta.core.errors import RuleViolation, TrvError
from trvendetta.core.rng import NeedDice, NoDice
from trvendetta.store import GameExists, GameStore, Loaded, NotAfter
from trvendetta.store.records import charter_dice

from .decisions import MAX_ACTIONS_PER_COMMAND, check_player, pending_line
from .sealing import local_view
from .signing import sign_runs


class Played(NamedTuple):
    """What one command added: the actions' events (numbered from ``first``),
    then each bot's action and events, and the game as saved."""

    ruleset: Any
    first: int
    events: list[Any]
    bots: list[BotMove]
    loaded: Loaded
    note: str = ""  # what the command waits for besides a decision (an exchange game's reveals)
    #: the command stopped at an action waiting for other stores' dice (``note`` says whose):
    #: the decision it answers is taken, so no one is to play until they come
    waits_for_dice: bool = False

    @property
    def state(self) -> Any:
        return self.loaded.state


class Preview(NamedTuple):
    """What ``GameService.preview`` played on a copy: the events from number ``first``, the
    state reached, the action it stopped before (its dice or hidden token are not shown;
    None if it did not stop for chance), and whether the turn ended (nothing after that
    shown: the next turn's dice are not the preview's to tell)."""

    ruleset: Any
    first: int
    events: list[Any]
    state: Any
    stopped_before: Any
    ended: bool


class Undone(NamedTuple):
    """The retractions ``undo`` appended (numbered from ``first``), each with
    the group of events it took back, then what the bots played after it."""

    ruleset: Any
    first: int
    retractions: list[tuple[Any, Any]]
    played: Played


class GameService:
    """Every command that changes a game, over one :class:`GameStore`."""

    def __init__(self, store: GameStore):
        self.store = store

    # ------------------------------------------------------------ reading
    def load(self, game: str, at: int | None = None) -> Loaded:
        """The game (after event ``at``).  Looking writes nothing (so a read
        never waits on, or fails for, another process's write lock): a
        command that plays makes the game current by its own save."""
        return self.store.load(game, at=at)

    def events(self, game: str, upto: int | None = None, since: int = 0) -> Sequence[Any]:
        """The game's stored records ``since < number <= upto``, decoded (retractions included)."""
        return self.store.events(game, upto=upto, since=since)

    def next_id(self, ruleset: str, after: int = 0) -> str:
        """The default id of a new game: ``RULESET-N``, the first N not taken (past ``after``)."""
        n = max(len(self.store.list_games()), after) + 1
        while self.store.exists(f"{ruleset}-{n}"):
            n += 1
        return f"{ruleset}-{n}"

    def _default_names(self, ruleset: str, stem: str | None) -> Iterator[str]:
        """Names for a game nobody named, free when looked at: ``RULESET-N``,
        or ``stem``, ``stem-2``, ``stem-3``... when a stem is given."""
        if stem is None:
            game = self.next_id(ruleset)
            while True:
                yield game
                game = self.next_id(ruleset, int(game.rsplit("-", 1)[1]))
        for n in itertools.count(1):
            game = stem if n == 1 else f"{stem}-{n}"
            if not self.store.exists(game):
                yield game

    #: how many default names ``new_game`` tries when other processes take them first
    DEFAULT_NAME_TRIES = 100

    # ----------------------------------------------------------- commands
    def new_game(self, ruleset: Any, position: Any, name: str | None = None, *,
                 bots: dict[str, str] | None = None, charter: str = "", rng: Any = None,
                 stem: str | None = None) -> Played:
        """Set up a game from ``position``; the bot seats answer their
        decisions at once (a game of bots only is played to the end).
        ``rng``: an exchange game's set-up chance, from the players' reveals.
        Without ``name`` the game takes the first free default name
        (``_default_names``; ``stem`` chooses its pattern)."""
        state, events = ruleset.new_game(position, rng)
        state, moves = bot_moves(ruleset, state, bots or {}, len(events))
        steps = [(m.action, m.events) for m in moves]
        if name:
            loaded = self.store.create_game(name, ruleset.name, events, steps=steps, bots=bots or {}, charter=charter,
                                            state=state)
            return Played(ruleset, len(events) + 1, [], moves, loaded)
        # no name given: when another process takes the default name between the look and
        # the save, take the next one (a name nobody gave never collides)
        for game in itertools.islice(self._default_names(ruleset.name, stem), self.DEFAULT_NAME_TRIES):
            try:
                loaded = self.store.create_game(game, ruleset.name, events, steps=steps, bots=bots or {},
                                                charter=charter, state=state)
                return Played(ruleset, len(events) + 1, [], moves, loaded)
            except GameExists:
                continue
        raise TrvError(f"{self.DEFAULT_NAME_TRIES} default game names were taken while creating this one; "
                       "give one with --name")

    def play(self, game: str, actions: Callable[[Any, Callable[[], Any]], Iterable[Any]], *,
             player: str | None = None, keyring_for: Callable[[Loaded], Any] | None = None,
             observe: Callable[[list[Any]], None] | None = None,
             secrets: Callable[[str], bytes | None] | None = None, ledger: Any = None,
             after: Loaded | None = None, seen_at: int | None = None) -> Played:
        """Apply the actions one after another, let the bot seats answer after
        them, and append all of it (each action with the events it produced)
        in one save.

        ``actions(ruleset, current_state)`` yields actions; ``current_state()``
        returns the state reached so far.  ``player`` (``--as``) refuses to act
        for anyone else.  In a game whose seats are bound to keys, the keyring
        ``keyring_for(loaded)`` gives signs their actions (docs/fair-play.md).
        ``observe(events)``, when given, sees the events of each action as it
        is applied.  In an exchange or host game (dice at a distance,
        docs/fair-play.md) an action needing dice is recorded as an intent
        (``app.exchange.ExchangeTurn``; ``secrets(commitment)`` gives the
        player's secret); the command stops there and ``Played.note`` says
        what it waits for.  A RuleViolation anywhere appends nothing.
        ``after``: the game as this caller's last command saved it
        (``Played.loaded``), played on without loading it again; if anything
        was appended since, the save refuses (``GameMovedOn``) and writes nothing.
        ``seen_at`` (``--after N``): the event the player saw; a game at another one is refused
        (``NotAfter``), so a retry of a command that landed does nothing (the append expects this load's count).
        """
        loaded = after if after is not None and after.game == game else self.load(game)
        if seen_at is not None and loaded.version != seen_at:
            raise NotAfter(seen_at, loaded.version)
        ruleset, state = loaded.ruleset, loaded.state
        if after is None and loaded.charter:
            from .outcome import refuse_if_ended

            refuse_if_ended(self.store, game)  # a claim or a resignation ended it (a signed game's)
        if ruleset.is_over(state):
            raise RuleViolation("game over", f"{pending_line(ruleset, state)}; no action is legal")
        check_player(ruleset, state, player)
        keyring = keyring_for(loaded) if keyring_for is not None and loaded.charter else None
        draws = None
        if keyring is not None and charter_dice(loaded.charter):
            from .exchange import ExchangeTurn

            if ledger is None and charter_dice(loaded.charter) == "exchange":
                raise TrvError("an exchange game is played with the ledger of your secrets (app.ledger)")
            draws = ExchangeTurn(self.store, loaded, keyring, secrets or (lambda commitment: None), ledger)
        steps: list[tuple[Any, ...]] = []
        seats: list[str | None] = []
        current = [state]
        # pieces dealt face down (a host game's favors): chosen seeing one's own, played with their openings
        openings, mine = local_view(self.store, loaded, keyring)

        def seen() -> Any:
            return ruleset.private_view(current[0], openings, mine) if mine else current[0]
        for n, action in enumerate(actions(ruleset, seen)):
            if n >= MAX_ACTIONS_PER_COMMAND:
                raise TrvError(f"more than {MAX_ACTIONS_PER_COMMAND} actions in one command; giving up")
            if openings:
                action = ruleset.sealed_action(current[0], action, openings)
            if keyring is not None:
                decision = ruleset.pending(current[0])
                seat = decision.player if decision else None
                refusal = keyring.refusal(seat)
                if refusal:
                    raise TrvError(refusal)
                seats.append(seat)
            if draws is not None:
                applied = draws.apply(ruleset, current[0], action, seat)
                if applied is None:  # it needs dice: recorded as an intent; the rest waits for the reveals
                    seats.pop()
                    break
                current[0], events = applied
            else:
                current[0], events = ruleset.apply(current[0], action)
            steps.append((action, events))
            if observe is not None:
                observe(events)
        human = [e for _, events in steps for e in events]
        after, moves = bot_moves(ruleset, current[0], loaded.bots or {}, loaded.version + len(human))
        steps.extend((m.action, m.events) for m in moves)
        records: list[Any] = []
        turn = draws if draws is not None and draws.intent is not None else None
        intent = turn is not None
        if turn is not None:
            steps, records = turn.finish(steps, seats)
        elif keyring is not None:
            steps = sign_runs(self.store, loaded, keyring, steps, seats + [m.player for m in moves])
        # the state after them: the store takes it rather than folding the events again (not with records)
        saved = self.store.append(loaded.game, loaded.version, steps=steps, records=records, state=after)
        if turn is not None:
            turn.recorded()
        note = turn.note(loaded.version, saved.version) if turn is not None else ""
        if keyring is not None and not intent and shared(loaded.charter, keyring):
            note = "send it to the other players: trv send"  # a game at a distance: say what to send
        return Played(ruleset, loaded.version + 1, human, moves, saved, note, intent)

    def preview(self, game: str, actions: Callable[[Any, Callable[[], Any]], Generator[Any, None, None]], *,
                player: str | None = None, keyring_for: Callable[[Any], Any] | None = None) -> Preview:
        """Play the actions as ``play`` would, on a copy, recording nothing (``trv turn --dry-run``).
        ``keyring_for`` as ``play``'s: in a game that deals pieces face down, the actions are chosen
        seeing one's own (played with their openings) and the state returned is one's own view.

        A preview never tells chance: it stops before the first action whose events would
        reveal a die roll or a hidden token (the dice follow the seed and the number of
        events, so showing them would let a player try a turn before choosing it), and
        shows nothing after the turn's end (the next player's dice).  In a game with dice at a
        distance (exchange, host) it stops before the first action that needs any (its dice, or a
        favor the host deals, come from secrets, not from the seed).  A RuleViolation from
        ``actions`` (a flag the turn cannot use) is raised as ``play`` raises it."""
        loaded = self.load(game)
        ruleset, state = loaded.ruleset, loaded.state
        if ruleset.is_over(state):
            raise RuleViolation("game over", f"{pending_line(ruleset, state)}; no action is legal")
        check_player(ruleset, state, player)
        current = [state]
        shown: list[Any] = []
        stopped = None
        ended = False
        keyring = keyring_for(loaded) if keyring_for is not None and loaded.charter else None
        openings, mine = local_view(self.store, loaded, keyring)
        remote = bool(charter_dice(loaded.charter))  # its dice come from secrets, not from its seed

        def seen() -> Any:
            return ruleset.private_view(current[0], openings, mine) if mine else current[0]
        chosen = actions(ruleset, seen)
        try:
            for n, action in enumerate(chosen):
                if n >= MAX_ACTIONS_PER_COMMAND:
                    raise TrvError(f"more than {MAX_ACTIONS_PER_COMMAND} actions in one command; giving up")
                if openings:
                    action = ruleset.sealed_action(current[0], action, openings)
                if remote:  # dice at a distance (exchange, host): an action that needs them is not previewed
                    try:
                        after, events = ruleset.apply(current[0], action, NoDice())
                    except NeedDice:
                        stopped = action
                        break
                else:
                    after, events = ruleset.apply(current[0], action)
                kept: list[Any] = []
                for event in events:
                    if ended:
                        break
                    if ruleset.reveals(event):
                        stopped = action
                        break
                    kept.append(event)
                    ended = ruleset.event_kind(event) == "turn-ended"
                if stopped is not None:
                    break
                shown.extend(kept)
                current[0] = after
        finally:
            chosen.close()
        return Preview(ruleset, loaded.version + 1, shown, seen(), stopped, ended)

    def answer_draws(self, game: str, keyring: Any, secrets: Callable[[str], bytes | None], ledger: Any) -> Any:
        """After an import into an exchange game: append this store's reveals
        for the open draw and, from the last one, the resolved action
        (``app.exchange.Answered``: what was added), each checked against the
        ``ledger`` of this store's secrets (``app.ledger``)."""
        from .exchange import answer_draws

        return answer_draws(self.store, game, keyring, secrets, ledger)

    def new_host_game(self, offer: Any, offer_file: str, answers: list[tuple[str, Any]], name: str, host: Any,
                      signed: Any = None, **bots: Any) -> tuple[Played, Any]:
        """The host game of ``offer`` (``app.messages.Offer``) with every player's
        contribution, created in this (the host's) store; then the bot seats the
        host runs play (``app.host.new_host_game``; ``host``: ``app.host.HostKeys``;
        ``signed``: how a contribution's signature is checked, ``app.host.contributions``;
        ``bots``: ``play_bots`` and ``bots``, as ``answer_host`` takes them)."""
        from .host import new_host_game

        return new_host_game(self, offer, offer_file, answers, name, host, signed, **bots)

    def answer_host(self, game: str, host: Any, **bots: Any) -> Any:
        """In a host game's host store, after an import: resolve the open draw,
        play the host's bot seats, reveal the seed at the end (``app.exchange.Answered``;
        ``bots``: ``play_bots`` and ``bots`` of ``app.host.answer_host``)."""
        from .host import answer_host

        return answer_host(self.store, game, host, **bots)

    def reveal_seed(self, game: str, host: Any) -> int:
        """The host's signed reveal of its seed, appended; the records before it."""
        from .host import reveal_seed

        return reveal_seed(self.store, game, host)

    def waiting(self, game: str) -> str | None:
        """What an open draw waits for ("waiting for bob's dice (...)"), or None."""
        from .exchange import waiting_line

        return waiting_line(self.store, game)

    def run_bots(self, game: str) -> Played:
        """After a command that saved (undo, import, fork): the bot seats
        answer their decisions, in one more save."""
        loaded = self.store.load(game)
        if loaded.charter and loaded.bots:
            from .outcome import outcome_of

            if outcome_of(self.store, game) is not None:  # a claim or a resignation ended it: no bot plays on
                return Played(loaded.ruleset, loaded.version + 1, [], [], loaded)
        after, moves = bot_moves(loaded.ruleset, loaded.state, loaded.bots or {}, loaded.version)
        if moves:
            loaded = self.store.append(game, loaded.version, steps=[(m.action, m.events) for m in moves], state=after)
        first = loaded.version + 1 - sum(len(m.events) for m in moves)
        return Played(loaded.ruleset, first, [], moves, loaded)

    def undo(self, game: str, *, agreed: bool = False, keyring: Any = None, turn: bool = False,
             seen_at: int | None = None) -> Undone:
        """Take back the last action (with a game's bot seats: the bots'
        actions after the last human one too), appending retractions; then
        the bots answer again.  ``turn``: the player's whole move, back to the
        start of their turn (``replays.undo_turn``).  ``seen_at`` (``--after N``): refused (``NotAfter``)
        unless the game is after event N, so a retry of an undo that landed takes back nothing more."""
        if seen_at is not None and (now := self.store.version(game)) != seen_at:
            raise NotAfter(seen_at, now)
        header = self.store.header(game)
        if header.charter:
            from .outcome import refuse_if_ended

            refuse_if_ended(self.store, game)  # nothing is taken back past a claim or a resignation
        bots = header.bots or {}
        if turn:
            plan, loaded = replays.undo_turn(self.store, game, set(bots), agreed=agreed, keyring=keyring)
        elif bots:
            plan, loaded = replays.undo_with_bots(self.store, game, set(bots), agreed=agreed, keyring=keyring)
        else:
            retraction, group, loaded = replays.undo(self.store, game, agreed=agreed, keyring=keyring)
            plan = [(retraction, group)]
        self.store.touch(game)
        played = self.run_bots(game)
        return Undone(loaded.ruleset, loaded.version - len(plan) + 1, plan, played)

    def fork(self, game: str, at: int, name: str, *, switch: bool = True) -> tuple[Loaded, Played]:
        """A new game sharing ``game``'s history up to event ``at`` (the
        original untouched); it keeps the bot seats, which answer at once.
        ``switch``: the fork becomes the current game (the one commands act
        on without a name); else ``game`` stays current.  ``at`` inside an
        action is refused (:meth:`fork_near` forks at the boundary before it)."""
        loaded, played, _, _ = self.fork_near(game, at, name, switch=switch, inside=False)
        return loaded, played

    def fork_near(self, game: str, at: int, name: str, *, switch: bool = True,
                  inside: bool = True) -> tuple[Loaded, Played, int, str]:
        """:meth:`fork`, at the action boundary before ``at`` when ``at`` is inside an action
        (``replays.fork_near``); also returns the event it forked after and the sentence
        saying it moved ("" when ``at`` was a boundary)."""
        loaded, at, note = replays.fork_near(self.store, game, at, name, inside=inside)
        self.store.touch(name)
        played = self.run_bots(name)
        if not switch:
            self.store.touch(game)
        return loaded, played, at, note

    def import_file(self, data: bytes, source: str, name: str | None = None,
                    parsed: Any = None, now: Any = None) -> tuple[Any, str, int, str]:
        """Import a record (a new game) or a turn packet (extends the game),
        checked through the rules before anything is written.  Returns
        (file, game, events, head); the caller then lets the bots answer
        (``run_bots``), after anything the import asks of this side (an
        exchange game's reveals).  ``parsed``: the file, already read
        (``replays.read_file``).  A packet this store already has raises
        ``replays.AlreadyApplied`` (not an error).  ``now``: this store's clock, against which a claim
        on time arriving over a game it has is checked (``app.clock.check_received``); None for a copy
        that takes another store's clock as its reference (``trv --server``'s copy of a server game)."""
        gf = parsed if parsed is not None else replays.read_file(data, source)
        admit = None if now is None else claims_against_clock(self.store, gf, now)
        game, events, head = replays.import_file(self.store, gf, name, admit)
        self.store.touch(game)
        return gf, game, events, head

    def export(self, game: str, since: int | None = None, *, created: bool = False) -> str:
        """The game record (``since`` None) or the turn packet after event
        ``since``; byte for byte the same from every store unless ``created``
        adds the store's creation time."""
        return replays.export(self.store, game, since=since, created=created)


def claims_against_clock(store: Any, gf: Any, now: Any) -> Any:
    """The check of a file's new records against this store's clock ``now`` (``replays.import_file``'s
    ``admit``): in a game it holds, none signed with a delegated key whose delegation ended
    (``app.clock.check_delegations``); and a claim on time among them: over a game it holds, against its stamps; a game it did not hold
    (the whole record new here), as received now."""
    def admit(walker: Any, new: list[Any]) -> None:
        from .clock import check_delegations

        if new and new[0].number > 1 and store.exists(gf.header.game):
            # a record signed with a delegated key after its delegation ended, arriving in a game this store
            # follows; a whole record new here is not checked: this store cannot tell when its records were
            # signed, no more than verify can (an archive of a club game taken after its pages' delegations)
            check_delegations(store.header(gf.header.game).charter, new, now)
        ended = walker.outcome
        if ended is None or ended.how != "time" or not new or ended.number < new[0].number:
            return
        from .clock import check_received, check_received_whole

        if new[0].number == 1:
            check_received_whole(gf, ended.record, now)
        else:
            check_received(store, gf.header.game, ended.record, [r for r in new if r.number < ended.number], now)
    return admit


def shared(charter: str, keyring: Any) -> bool:
    """Whether a signed game is played at a distance from this store: some bound seat's key, or
    a host game's host key, is someone else's (else there is nobody to send anything to)."""
    from trvendetta.store.records import charter_dice

    return charter_dice(charter) == "host" or set(keyring.seats) != set(keyring.local)


__all__ = ["GameService", "Played", "Preview", "Undone", "pending_line", "check_player", "MAX_ACTIONS_PER_COMMAND"]
