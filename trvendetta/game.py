"""A game as one object: the library's way in (``docs/library.md``).

:class:`Game` holds a ruleset, the state and the events so far, and offers
what a program playing the game needs, the way ``chess.Board`` or an
OpenSpiel ``State`` do: the pending decision, the legal actions with their
printed names, playing one (by action or by name), the view.  Everything it
does is the ruleset's own API (:class:`~trvendetta.core.protocol.Ruleset`):
``default_position``, ``new_game``, ``pending``, ``parse_action``, ``apply``,
``view``, ``fold``; it adds no rule and reads no file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from . import rulesets
from .core.protocol import Decision, Ruleset


def load(name: str) -> Ruleset[Any, Any, Any]:
    """The ruleset registered as ``name`` (``vendetta``, ``carnival``, ``classic``, or a plugged-in one)."""
    return rulesets.get(name)


def _ruleset(ruleset: str | Ruleset[Any, Any, Any]) -> Ruleset[Any, Any, Any]:
    return load(ruleset) if isinstance(ruleset, str) else ruleset


def fold(ruleset: str | Ruleset[Any, Any, Any], events: Iterable[Any]) -> Any:
    """The state a record's events fold to; each event an event object or its
    canonical JSON (``bytes`` or ``str``, as ``Ruleset.encode`` writes it and a
    record stores it)."""
    rs = _ruleset(ruleset)
    return rs.fold(rs.decode_event(e) if isinstance(e, (bytes, str)) else e for e in events)


class Game:
    """One game: ``ruleset``, the current ``state`` and every ``event`` so far."""

    def __init__(self, ruleset: str | Ruleset[Any, Any, Any], state: Any, events: Iterable[Any] = ()) -> None:
        self.ruleset = _ruleset(ruleset)
        self.state = state
        self.events: list[Any] = list(events)

    # ------------------------------------------------------------ starting
    @classmethod
    def new(cls, ruleset: str | Ruleset[Any, Any, Any], players: Sequence[Sequence[str]], seed: int,
            **setup: str) -> Game:
        """A new game: ``players`` as ``(name, colour)`` or ``(name, colour, crew)``
        in turn order, every roll and draw from ``seed``; ``setup``: the ruleset's
        set-up choices (``Ruleset.setup_choices``: Vendetta's ``start_tile``,
        Carnival's ``side``)."""
        rs = _ruleset(ruleset)
        seats = [(p[0], p[1], p[2] if len(p) > 2 else "") for p in players]
        return cls.from_position(rs, rs.default_position(seats, seed, **setup))

    @classmethod
    def from_position(cls, ruleset: str | Ruleset[Any, Any, Any], position: Any) -> Game:
        """A game set up from a position (``Ruleset.position_from_dict`` reads one
        from a dict, as from a TOML file: docs/positions.md)."""
        rs = _ruleset(ruleset)
        state, events = rs.new_game(position)
        return cls(rs, state, events)

    @classmethod
    def from_events(cls, ruleset: str | Ruleset[Any, Any, Any], events: Iterable[Any]) -> Game:
        """A game folded from a record's events (objects, or their canonical JSON)."""
        rs = _ruleset(ruleset)
        decoded = [rs.decode_event(e) if isinstance(e, (bytes, str)) else e for e in events]
        return cls(rs, rs.fold(decoded), decoded)

    # ------------------------------------------------------------- reading
    @property
    def pending(self) -> Decision | None:
        """The one decision the game waits for (None once it is over)."""
        return self.ruleset.pending(self.state)

    @property
    def over(self) -> bool:
        return self.ruleset.is_over(self.state)

    @property
    def winner(self) -> str | None:
        return self.ruleset.winner(self.state)

    def legal(self) -> list[tuple[str, Any]]:
        """The options of the pending decision, each with its printed name (what
        ``trv legal`` prints and :meth:`play` takes)."""
        return [(self.ruleset.describe_action(a), a) for a in self.ruleset.legal_actions(self.state)]

    def view(self) -> dict[str, Any]:
        """The ``trv show --json`` document of the game (without the store's game, version and head)."""
        return self.ruleset.view(self.state)

    def describe(self, events: Iterable[Any] | None = None) -> list[str]:
        """One sentence for each of ``events`` (default: every event so far)."""
        return [self.ruleset.describe(e) for e in (self.events if events is None else events)]

    def encoded(self) -> list[bytes]:
        """Every event so far as canonical JSON (what a record stores; :meth:`from_events` reads it back)."""
        return [self.ruleset.encode(e) for e in self.events]

    # ------------------------------------------------------------- playing
    def play(self, action: Any) -> list[Any]:
        """Play ``action`` (an action, or its printed name): the new events.
        Raises ``RuleViolation`` (and changes nothing) for an illegal one."""
        if isinstance(action, str):
            action = self.ruleset.parse_action(self.state, action)
        self.state, new = self.ruleset.apply(self.state, action)
        self.events += new
        return new
