"""The one API every ruleset exposes (OpenSpiel style), and the pure game loop.

A ruleset is a small object of pure functions (the decider pattern):

* ``start(position) -> events``: the first events of a game (``GameStarted``
  carrying the validated position, then every set-up roll and draw);
* ``legal_actions(state)``: the options of the one pending decision;
* ``decide(state, action, rng) -> events``: the rules; raises
  :class:`RuleViolation` and produces nothing for an illegal action;
* ``evolve(state, event) -> state``: a tiny handler per event type, never
  validating, so that old games always fold.

State is always the fold of ``evolve`` over the events from ``initial_state()``.
Everything else (the store, the CLI, replays, bots) talks to a ruleset only
through this class, so a new game plugs in by subclassing it and calling
:func:`trvendetta.rulesets.register` from its own package.

The class is generic over the ruleset's state, action and event types
(``Ruleset[State, Action, Event]``), and declares everything the shell asks
of a game: who sits where and who is out (``seats``), the round, the winner
and why the game ended (``summary`` for ``trv games``), the pieces that can
be eliminated and what eliminated them (``pieces``, ``elimination``: the
simulator's tallies), which events reveal information (each event type's
``reveals`` class variable), and the greedy bot's heuristics
(``score_options``).  The shell reads no field of a state or an event.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Generic, TypeVar, get_args

import msgspec

from .errors import RuleViolation
from .rng import Rng
from .turnflags import TurnFlag


class Decision(msgspec.Struct, frozen=True):
    """The one thing a game is waiting for: who chooses, what kind, the options."""

    player: str | None
    kind: str
    options: tuple[Any, ...]
    prompt: str = ""


S = TypeVar("S")  # the ruleset's state
A = TypeVar("A")  # its actions (a tagged union)
E = TypeVar("E")  # its events (a tagged union)


class Seat(msgspec.Struct, frozen=True):
    """A player as the shell sees one: name, colour, crew, and whether out."""

    name: str
    color: str
    crew: str = ""
    out: bool = False


class Summary(msgspec.Struct, frozen=True):
    """What ``trv games`` lists of a game: round, players, status, winner and
    why it ended (``status`` is ``new``, ``playing`` or ``over``)."""

    round: int | None
    players: tuple[str, ...]
    status: str
    winner: str | None = None
    end_reason: str | None = None


def _tagged(union: Any) -> tuple[bytes, dict[bytes, Any], dict[bytes, Any]]:
    """How canonical JSON of ``union``'s events opens (``{"type":"``, empty when its types
    do not share one tag field), and each type by its tag as that JSON writes it."""
    types = get_args(union) or (union,)
    configs = [getattr(t, "__struct_config__", None) for t in types]
    fields = {c.tag_field for c in configs if c is not None}
    if len(fields) != 1 or any(c is None or not isinstance(c.tag, str) for c in configs):
        return b"", {}, {}
    opening = b"{" + msgspec.json.encode(fields.pop()) + b':"'
    return opening, {msgspec.json.encode(c.tag)[1:-1]: t for c, t in zip(configs, types) if c is not None}, {}


def _plugged_in() -> bool:
    """Import every installed crew plug-in (``trvendetta.crews``), whose event and action types
    join the unions of the rulesets it plays in: True the first time, when some may have
    registered (a game seating one is read before anything asked for its crew by name)."""
    from .. import plugins

    return plugins.load_all(plugins.CREWS)


class Later:
    """A class attribute imported on first use, from ``"module:name"``: a ruleset's
    ``action_type`` or ``turn_flags`` when only its deciding code needs that module
    (looking at a game never does; docs/performance.md, "Where the store's time goes")."""

    def __init__(self, where: str) -> None:
        self.module, _, self.name = where.partition(":")
        self.value: Any = None

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if self.value is None:
            from importlib import import_module

            self.value = getattr(import_module(self.module), self.name)
        return self.value


class Ruleset(Generic[S, A, E]):
    """Base class of every ruleset; subclasses fill in the class attributes."""

    #: registry name (``vendetta``, ``classic``) and the rules version games record
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    rules_version: ClassVar[str] = "1"
    #: every rules version this program re-executes a recorded game under (a game keeps
    #: the version it recorded: its set-up event carries it); at least ``rules_version``
    rules_versions: ClassVar[tuple[str, ...]] = ("1",)
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    #: set-up choices `trv new` offers besides the seats: keyword of
    #: ``default_position`` -> its legal values (Vendetta: ``start_tile``)
    setup_choices: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: whether a player holds something face down that the others may not see (Carnival's party
    #: favors): such a game at a distance needs someone to deal it in secret (a host)
    hidden_information: ClassVar[bool] = False
    #: each set-up choice's ``trv new --help`` line (the CLI builds ``--start-tile`` from these two)
    setup_help: ClassVar[dict[str, str]] = {}
    #: the ``trv turn`` flags this ruleset reads (the CLI builds ``trv turn`` from them)
    turn_flags: ClassVar[tuple[TurnFlag, ...]] = ()
    #: an upper bound on the number of events in a game (checked by simulation)
    max_events: ClassVar[int] = 100_000
    #: msgspec tagged unions (``typing.Union[...]``) and the state / position types
    action_type: ClassVar[Any] = None
    event_type: ClassVar[Any] = None
    state_type: ClassVar[Any] = None
    position_type: ClassVar[Any] = None
    #: top-level fields of the state that stay the same through a game and
    #: across games (a game's components): the store keeps each distinct value
    #: once instead of in every snapshot (``trvendetta.store.parts``)
    shared_state: ClassVar[tuple[str, ...]] = ()

    def __init__(self) -> None:
        self._enc = msgspec.json.Encoder()
        self._union: Any = None  # the event union's decoder, built on first use
        self._kinds: Any = None  # (opening, {tag's JSON: type}, {tag's JSON: decoder}), decoders built on first use
        self._action_dec: Any = None  # built on the first decode: reading a game for show decodes no action
        self._state_dec = msgspec.json.Decoder(self.state_type)

    # ------------------------------------------------------------------ rules
    def initial_state(self) -> S:
        raise NotImplementedError

    def start(self, position: Any, rng: Rng | None = None) -> list[E]:
        raise NotImplementedError

    def setup_event(self, position: Any, rng: Rng | None = None) -> E:
        """The first event ``start(position, rng)`` gives (``GameStarted``), which every store
        compares a host or exchange game's event 1 with (``replays.setups``); a ruleset may give it
        without running its set-up (the conformance test checks it is ``start``'s)."""
        return self.start(position, rng)[0]

    def restart(self, first_event: E, rng: Rng | None = None) -> list[E]:
        """The set-up events of a recorded game again, from its first event
        (re-execution): by default ``start`` of the position it carries; a
        ruleset whose first event also records its components uses those.
        ``rng``: an exchange game's set-up draw (docs/fair-play.md)."""
        position = first_event.position  # type: ignore[attr-defined]
        return self.start(position) if rng is None else self.start(position, rng)

    def pending(self, state: S) -> Decision | None:
        raise NotImplementedError

    def legal_actions(self, state: S) -> list[A]:
        decision = self.pending(state)
        return [] if decision is None else list(decision.options)

    def decide(self, state: S, action: A, rng: Rng) -> list[E]:
        raise NotImplementedError

    def evolve(self, state: S, event: E) -> S:
        raise NotImplementedError

    def is_over(self, state: S) -> bool:
        raise NotImplementedError

    def winner(self, state: S) -> str | None:
        raise NotImplementedError

    def seed(self, state: S) -> int:
        """The seed every roll and draw of the game derives from."""
        return state.seed  # type: ignore[attr-defined]

    def version(self, state: S) -> int:
        """Number of events folded into ``state``."""
        return state.version  # type: ignore[attr-defined]

    # ------------------------------------------------- what the shell reads
    def seats(self, state: S) -> tuple[Seat, ...]:
        """The players in seat order, with their colour, crew and whether out."""
        raise NotImplementedError

    def round(self, state: S) -> int | None:
        """The round being played (None: the game has no rounds)."""
        return None

    def end_reason(self, state: S) -> str | None:
        """Why the game ended, in words (None while it runs)."""
        return None

    def summary(self, state: S) -> Summary:
        """What ``trv games`` lists: built from the queries above."""
        status = "over" if self.is_over(state) else ("playing" if self.version(state) else "new")
        over = status == "over"
        return Summary(self.round(state), tuple(s.name for s in self.seats(state)), status,
                       self.winner(state) if over else None, self.end_reason(state) if over else None)

    def pieces(self, state: S) -> tuple[str, ...]:
        """The ids of the pieces that can be eliminated (vehicles, cars)."""
        return ()

    def running(self, state: S, player: str) -> int:
        """How many of ``player``'s pieces can still race (a tournament's tie-break: the cars
        still running at the end of a game)."""
        return 0

    def elimination(self, event: E) -> str | None:
        """The cause, in words, when ``event`` takes a piece out of play."""
        return None

    # ---------------------------------------------------------------- bots
    def score_options(self, state: S, decision: Decision) -> Sequence[float] | None:
        """The greedy bot's heuristic: a score per option of ``decision``
        (higher is better; ties are broken by the bot's RNG), or None when
        the ruleset offers none (the greedy bot then picks at random).
        Pure: it must not apply actions (that would peek at future dice)."""
        return None

    def evaluate(self, state: S) -> dict[str, float] | None:
        """The search bot's heuristic value of a running game: each player's share of it (0 to 1,
        summing to 1), so a search may stop a playout early and score where it got to; None when
        the ruleset offers none (the search then plays every playout to the end).  Pure, and it
        reads only what every player sees."""
        return None

    def determinize(self, state: S, seat: str | None, rng: Rng) -> S:
        """A state ``seat`` cannot tell from ``state``: what the seat may not see (the order of a
        face-down pile, the others' face-down pieces, the seed the coming dice derive from) drawn
        again with ``rng`` from what it could be, given what the seat sees.  The search bot
        (``bots/search.py``) plays only from such states, so it never reads hidden information.
        By default the seed alone is replaced: a ruleset whose state hides nothing else."""
        from msgspec.structs import replace

        if isinstance(state, msgspec.Struct) and hasattr(state, "seed"):
            return replace(state, seed=rng.below(1 << 62))
        return state

    # ------------------------------------------------------------ positions
    def default_position(self, players: Sequence[tuple[str, str, str]], seed: int) -> Any:
        """A new game's position from ``(name, color, crew)`` triples."""
        raise NotImplementedError

    def position_from_dict(self, data: dict) -> Any:
        """Validate a position (as read from TOML); raises PositionError."""
        raise NotImplementedError

    # --------------------------------------------------------- presentation
    def describe(self, event: E) -> str:
        """One short human sentence for an event."""
        raise NotImplementedError

    def describe_action(self, action: A) -> str:
        """The short printed name of an action (``trv decide`` matches it)."""
        raise NotImplementedError

    def parse_action(self, state: S, name: str) -> A:
        """The option of the pending decision called ``name``, the reading half of
        the notation whose writing half is :meth:`describe_action`: its printed
        name, or the line ``trv legal`` prints for it (its note included), or
        the same letters in another case when only one option has them.  The one
        matcher of names: ``trv decide`` and the move text of records
        (``replays.parse_movetext``) both ask it.  Raises RuleViolation naming
        the legal options."""
        decision = self.pending(state)
        options = () if decision is None else decision.options
        named = {self.describe_action(a): a for a in options}
        if name in named:
            return named[name]
        for a in options:  # a line of `trv legal` as printed, with its note, names the option too
            note = self.warning(state, a)
            if note:
                named[f"{self.describe_action(a)}  ({note})"] = a
        if name in named:
            return named[name]
        folded = [a for n, a in named.items() if n.casefold() == name.casefold()]
        if len(folded) == 1:
            return folded[0]
        what = f"{decision.kind} for {decision.player}" if decision else "game over"
        from .names import did_you_mean

        hint = did_you_mean(name, [self.describe_action(a) for a in options])
        raise RuleViolation(what, f"{name!r} is not an option of the pending decision{hint}", list(named))

    def colors(self) -> tuple[str, ...]:
        """The colours a player may choose in a new game (empty: any name)."""
        return ()

    def crews(self) -> tuple[str, ...]:
        """The crews a player may choose in a new game (empty: the ruleset has none)."""
        return ()

    #: the crew of a seat given none (``default_position`` takes an empty crew as this one; the
    #: simulator counts such seats under it): the shell names no crew of its own
    default_crew: ClassVar[str] = ""

    def redact(self, view: dict, seats: Sequence[str]) -> dict:
        """``view`` (a ``view`` document, changed in place and returned) as the one who plays
        ``seats`` may see it (none: a spectator): what the ruleset hides from them taken out.
        The club server shows one state's view to every seat and spectator through it, so it
        knows nothing of where a ruleset keeps its hidden pieces (``trv show`` and ``trv replay
        --html`` build their state for the viewer with :meth:`private_view` instead, as the text
        board is drawn from a state).  ``view`` itself by default."""
        return view

    def legend(self) -> str:
        """What the symbols of ``render`` mean (``trv show --legend``)."""
        return ""

    def warning(self, state: S, action: A) -> str:
        """A short note ``trv legal`` prints beside an option (Vendetta marks
        fatal steps); empty when there is nothing to say."""
        return ""

    def legal_lines(self, state: S, options: Sequence[A]) -> list[str]:
        """What ``trv legal`` prints of the pending decision's ``options``: by
        default one line per option, its printed name and its warning; a
        ruleset may summarise a large set in fewer lines (``trv legal --json``
        still lists every option)."""
        out = []
        for a in options:
            note = self.warning(state, a)
            out.append(self.describe_action(a) + (f"  ({note})" if note else ""))
        return out

    def view(self, state: S) -> dict:
        """The ``trv show --json`` document (without game/version/head)."""
        raise NotImplementedError

    # -------------------------------------------- hidden pieces dealt in secret (host games)
    def sealed_pieces(self, events: Sequence[E]) -> list[tuple[str, str, str]]:
        """The pieces dealt face down to one player in ``events``, each ``(seat, commitment,
        sealed)``: ``sealed`` is what the host's shell sealed to the seat's key (base64).  None by
        default (a ruleset without hidden pieces)."""
        return []

    def dealt_openings(self, state: S, events: Sequence[E], favor_key: bytes, seat: str) -> dict[str, tuple[str, str]]:
        """What the dealer (the host, with its favor key) knows of the pieces dealt to ``seat`` in
        ``events``: commitment -> (kind, nonce).  None by default."""
        return {}

    def opens(self, commitment: str, kind: str, nonce: str) -> bool:
        """Whether ``kind`` and ``nonce`` open ``commitment`` (False by default)."""
        return False

    def private_view(self, state: S, openings: dict[str, tuple[str, str]], seats: Sequence[str]) -> S:
        """``state`` as the one who plays ``seats`` may see it: the pieces dealt to them opened
        (``openings``: commitment -> (kind, nonce), from the boxes their keys opened), their own
        shown face up and nobody else's.  The state itself by default."""
        return state

    def dealt_in_the_open(self, first_event: E) -> str | None:
        """What a game of hidden pieces whose first event is ``first_event`` shows every player of
        them when it dealt them in the open (their kinds in its record), in words; None when it
        deals them face down, or has none to hide (the default)."""
        return None

    def sealed_action(self, state: S, action: A, openings: dict[str, tuple[str, str]]) -> A:
        """``action`` with the opening of the face-down piece it plays (``openings`` as above), so
        that the rules, from ``state`` where the piece is face down, can check it.  ``action`` by default."""
        return action

    def same_event(self, recorded: bytes, recomputed: bytes) -> bool:
        """Whether a recorded event that differs from the rules' in its bytes is the same event:
        only in what the host's shell adds and the rules cannot recompute (a sealed box).
        False by default."""
        return False

    def render(self, state: S, color: bool = False) -> str:
        """The board and dashboards as text."""
        raise NotImplementedError

    def turn_driver(self, flags: dict) -> Any:
        """An object whose ``next(state)`` maps ``trv turn`` flags (keyed as
        ``TurnFlag.key``, only this ruleset's) onto the successive actions of
        one turn (None: the flags answer nothing more), and whose
        ``finish(state)`` then lists a ``FlagProblem`` for every flag given
        that was not used (see ``core.turnflags``)."""
        raise NotImplementedError

    # -------------------------------------------------------------- codecs
    def encode(self, obj: Any) -> bytes:
        """Canonical JSON of an action, event or state (field order is fixed)."""
        return self._enc.encode(obj)

    @property
    def encoder(self) -> Callable[[Any], bytes]:
        """:meth:`encode` as one callable, for a loop that encodes every event of a game (``trv verify``): the
        encoder's own method where a ruleset keeps this class's ``encode`` (one Python call less an event)."""
        if type(self).encode is Ruleset.encode:
            return self._enc.encode
        return self.encode

    def decode_event(self, data: bytes | str) -> E:
        """An event, by the decoder of its own type when its JSON opens with its tag, as
        canonical JSON does (else, or with a tag no type has, by the union's: the same
        event or the same error either way).  Building the union's decoder resolves
        every event type (about 9 M instructions for Vendetta's 56, an eighth of what
        `trv show` adds to the import floor), while a load meets a couple of dozen
        kinds; each kind's decoder is built the first time one is read.  A tag no
        type has imports the installed crew plug-ins first (once: :func:`_plugged_in`)."""
        if self._kinds is None:
            self._kinds = _tagged(self.event_type)
        opening, types, decoders = self._kinds
        if isinstance(data, str):
            data = data.encode()
        if opening and data.startswith(opening):
            tag = data[len(opening):data.find(b'"', len(opening))]
            decoder = decoders.get(tag)
            if decoder is None and tag in types:
                decoder = decoders[tag] = msgspec.json.Decoder(types[tag])
            if decoder is not None:
                return decoder.decode(data)
            if tag not in types and _plugged_in():  # a type an installed crew plug-in brings: once more
                self._union = self._kinds = self._action_dec = None
                return self.decode_event(data)
        return self._union_decoder().decode(data)

    def _union_decoder(self) -> Any:
        if self._union is None:
            self._union = msgspec.json.Decoder(self.event_type)
        return self._union

    def decode_action(self, data: bytes | str) -> A:
        decoder = self._action_dec
        if decoder is None:
            decoder = self._action_dec = msgspec.json.Decoder(self.action_type)
        return decoder.decode(data)

    def decode_state(self, data: bytes | str) -> S:
        return self._state_dec.decode(data)

    def event_kind(self, event: E) -> str:
        return type(event).__struct_config__.tag  # type: ignore[attr-defined]  # every event is a tagged msgspec Struct

    def reveals(self, event: E) -> bool:
        """Whether ``event`` reveals new information (a die roll, a drawn or
        turned token, a tile laid from the pile): ``trv undo`` will not take
        back an action past it without ``--agreed``.  Each event type declares
        it: ``reveals: ClassVar[bool] = True`` in its class body."""
        return type(event).reveals  # type: ignore[attr-defined]

    # ------------------------------------------------------------ the loop
    def fold(self, events: Iterable[E], state: S | None = None) -> S:
        """Fold ``events`` into ``state`` (the initial state when omitted)."""
        evolve = self.evolve
        state = self.initial_state() if state is None else state
        for event in events:
            state = evolve(state, event)
        return state

    def apply(self, state: S, action: A, rng: Rng | None = None) -> tuple[S, list[E]]:
        """Decide ``action`` with the derived RNG (or ``rng``, when the game's
        chance comes from elsewhere: the players' reveals, docs/fair-play.md)
        and fold the result.

        Returns the new state and the new events.  Raises RuleViolation (and
        returns nothing) for an illegal action.
        """
        if self.is_over(state):
            raise RuleViolation("game over", "the game is over; no action is legal")
        if rng is None:
            rng = Rng.for_action(self.seed(state), self.version(state))
        events = self.decide(state, action, rng)
        return self.fold(events, state), events

    def new_game(self, position: Any, rng: Rng | None = None) -> tuple[S, list[E]]:
        """The first events (``start``); ``rng`` replaces the position's seed for the set-up's chance."""
        events = self.start(position) if rng is None else self.start(position, rng)
        return self.fold(events), events

    def check_legal(self, state: S, action: A) -> Decision:
        """Raise RuleViolation unless ``action`` answers the pending decision."""
        decision = self.pending(state)
        if decision is None:
            raise RuleViolation("game over", "the game is over; no action is legal")
        if action not in decision.options:
            raise RuleViolation(
                f"pending decision: {decision.kind}",
                f"{self.describe_action(action)} does not answer the pending decision "
                f"({decision.kind} for {decision.player})",
                [self.describe_action(o) for o in decision.options],
            )
        return decision


class PlayedRuleset(Ruleset[S, A, E]):
    """A ruleset whose state keeps the usual fields: ``phase`` (``over`` at the
    end), ``winner``, ``end_reason``, ``round`` and ``players`` (each with
    ``name``, ``color``, ``crew``, ``out``).  The queries the shell reads of
    such a state, written once (Vendetta, Carnival and classic use them)."""

    def is_over(self, state: S) -> bool:
        return state.phase == "over"  # type: ignore[attr-defined]

    def describe(self, event: E) -> str:
        """The event's sentence (:meth:`sentence`), and a note when a position's script
        chose its outcome (``core.events.scripted``)."""
        from .events import SCRIPTED_NOTE, scripted

        return self.sentence(event) + (SCRIPTED_NOTE if scripted(event) else "")

    def sentence(self, event: E) -> str:
        """One short human sentence for an event (:meth:`describe` adds the script's note)."""
        raise NotImplementedError

    def winner(self, state: S) -> str | None:
        return state.winner  # type: ignore[attr-defined]

    def seats(self, state: S) -> tuple[Seat, ...]:
        return tuple(Seat(p.name, p.color, p.crew, p.out) for p in state.players)  # type: ignore[attr-defined]

    def round(self, state: S) -> int | None:
        return state.round  # type: ignore[attr-defined]

    def end_reason(self, state: S) -> str | None:
        return state.end_reason  # type: ignore[attr-defined]
