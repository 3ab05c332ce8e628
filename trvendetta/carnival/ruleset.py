"""The Carnival of Chaos ruleset: Vendetta's rules in the arena (rulebook 002).

``Carnival`` is Vendetta's ruleset object with the arena's state, set-up,
positions, events and views; its rules are Vendetta's ``rules`` run on a
:class:`~trvendetta.carnival.model.CarnivalState`, whose board answers where
the arena differs (``carnival/board.py``).  Its components (the arena, the
cards, and Vendetta's tiles, dice and crews) ride in its first event.
"""

from __future__ import annotations

from ..core.errors import PositionError
from ..core.protocol import Decision
from ..vendetta import Registered, Vendetta, stored
from ..vendetta.events import GameStarted
from ..vendetta.model import State
from ..vendetta.position import Position
from . import actions as cact
from . import components as comp
from . import events as cev
from . import setup, view
from .driver import TURN_FLAGS, CarnivalDriver
from .model import CarnivalState
from .position import CarnivalPosition, arena_refusal, from_dict, validate


class Carnival(Vendetta):
    name = "carnival"
    title = "Thunder Road: Vendetta - Carnival of Chaos"
    rules_version = setup.RULES_VERSION
    rules_versions = ("1", "2", "3", "4", "5")  # setup.start sets a recorded game up under its version
    min_players = 2
    max_players = 4
    max_events = 50_000
    #: Vendetta's registered types (its crews' included) with the Carnival's own
    event_type = Registered("events", cev.OWN, (GameStarted,))
    action_type = Registered("actions", cact.OWN)
    base_flags = TURN_FLAGS
    state_type = CarnivalState
    position_type = CarnivalPosition
    setup_choices = {"side": comp.SIDES}
    hidden_information = True  # party favors, collected face down
    setup_help = {"side": "Carnival of Chaos set-up step 1: the arena's side (default haulasseum, the easier one)."}

    def __init__(self, components: comp.CarnivalComponents | None = None):
        super().__init__()
        self._carnival = components

    @property
    def carnival(self) -> comp.CarnivalComponents:
        """The components new games are set up with (the data files unless injected)."""
        if self._carnival is None:
            self._carnival = comp.default()
        return self._carnival

    @property
    def components(self):
        return self.carnival.vendetta

    def crews(self) -> tuple[str, ...]:
        """Vendetta's crews that the arena takes: none that declares an ``arena_refusal`` (002)."""
        return tuple(c for c in super().crews() if arena_refusal(c) is None)

    def _with_crews(self, names) -> comp.CarnivalComponents:
        """Its components with the registered crews among ``names`` that it takes
        (``vendetta.components.with_crews``): a game seating none records what it did before."""
        from msgspec.structs import replace

        from ..vendetta import components as vcomp

        v = vcomp.with_crews(self.carnival.vendetta, names, self.name)
        return self.carnival if v is self.carnival.vendetta else replace(self.carnival, vendetta=v)

    def initial_state(self) -> CarnivalState:
        return CarnivalState()

    def start(self, position: Position, rng=None) -> list:
        assert isinstance(position, CarnivalPosition), "a Carnival game starts from its own position_type"
        c = self._with_crews(p.crew for p in position.players)
        return setup.start(validate(position, c), c, rng)

    def setup_event(self, position: Position, rng=None):
        """``start``'s first event (``setup.start``: a host's RNG, which has a favor key, deals the
        favors face down), without running the set-up."""
        assert isinstance(position, CarnivalPosition), "a Carnival game starts from its own position_type"
        c = self._with_crews(p.crew for p in position.players)
        private = getattr(rng, "favor_key", None) is not None and not position.favors
        return cev.CarnivalStarted(validate(position, c), str(self.rules_version), c, private)

    def restart(self, first_event, rng=None) -> list:
        """The set-up events again, with the components and the rules version the game recorded."""
        c = first_event.components
        return setup.start(validate(first_event.position, c), c, rng, first_event.rules_version,
                           first_event.private_favors)

    def score_options(self, state, decision: Decision) -> list[float] | None:
        from . import bot

        return bot.score_options(state, decision)

    def evaluate(self, state):
        """The search's value of a running game: scrap, then operable vehicles (``bot.evaluate``)."""
        from . import bot

        return bot.evaluate(state)

    def default_position(self, players, seed: int, side: str | None = None) -> CarnivalPosition:
        low, high = self.carnival.game.players
        if not low <= len(players) <= high:
            raise PositionError("players", f"{len(players)} player{'' if len(players) == 1 else 's'}; "
                                f"Carnival of Chaos is for {low} to {high}")
        if side is not None and side not in comp.SIDES:
            raise PositionError("side", f"{side!r}; the arena's sides are {' or '.join(comp.SIDES)}")
        from ..vendetta.position import PlayerSetup

        seats = tuple(PlayerSetup(n, c, crew or self.default_crew) for n, c, crew in players)
        pos = CarnivalPosition(players=seats, seed=seed, side=side or comp.SIDES[0])
        return self._check_colors(validate(pos, self._with_crews(p.crew for p in seats)))

    def position_from_dict(self, data: dict) -> CarnivalPosition:
        from ..vendetta import components as vcomp

        return self._check_colors(from_dict(data, self._with_crews(vcomp.extra_crews(self.name))))

    def decode_state(self, data: bytes | str) -> CarnivalState:
        """A stored state (the Final Five's second motorcycle of one saved while it was a flat
        field of the turn lifted into its struct: ``vendetta.stored.decode``)."""
        return stored.decode(data, self.state_type, self._state_dec)

    def sentence(self, event) -> str:
        return cev.describe(event)

    def describe_action(self, action) -> str:
        return cact.describe_action(action)

    def legal_lines(self, state: State, options) -> list[str]:
        """``trv legal``: the chopper's, Killer Pillar's and Precision's many options summarised (``legal.py``)."""
        assert isinstance(state, CarnivalState), "a Carnival game's states are its own state_type"
        from . import legal

        return legal.lines(self, state, options)

    def turn_driver(self, flags: dict) -> CarnivalDriver:
        return CarnivalDriver(flags, self.turn_flags)

    def view(self, state: State) -> dict:
        assert isinstance(state, CarnivalState), "a Carnival game's states are its own state_type"
        return view.view(state)

    def redact(self, doc: dict, seats) -> dict:
        return view.redact(doc, seats)

    # ------------------------------------------------ private favors (host games, ``favors.deck``)
    def apply(self, state, action, rng=None):
        if isinstance(action, cact.PlayFavor) and action.nonce is not None:
            return self._play_dealt(state, action, rng)
        return super().apply(state, action, rng)

    def _play_dealt(self, state, action, rng):
        """A face-down favor played with its opening: refused unless ``favor`` and ``nonce`` open
        the commitment of a favor the player was dealt; the ``FavorPlayed`` event carries the nonce."""
        from msgspec.structs import replace

        from ..core.errors import RuleViolation
        from . import favors

        d = self.pending(state)
        player = d.player if d is not None else ""
        opened = favors.open_held(tuple(state.favors.get(player, ())), action.favor, action.nonce)
        if opened is not None:
            after, events = super().apply(replace(state, favors={**state.favors, player: opened}),
                                          replace(action, nonce=None), rng)
        elif state.nonces.get(player, {}).get(action.favor) == action.nonce:  # (a folded state has no nonces)
            after, events = super().apply(state, action, rng)  # a private view: it lists the favor opened already
        else:
            raise RuleViolation("party-favors", f"{player or 'nobody'} was dealt no favor that {action.favor!r} with "
                                                f"nonce {action.nonce[:16]}... opens: a favor is played as it was "
                                                "dealt (its commitment)")
        for i, e in enumerate(events):
            if isinstance(e, cev.FavorPlayed) and e.player == player and e.favor == action.favor:
                events = events[:i] + [replace(e, nonce=action.nonce)] + events[i + 1:]
                break
        return after, events

    def sealed_pieces(self, events):
        return [(e.player, e.commitment, e.sealed.get(e.player, "")) for e in events if isinstance(e, cev.FavorDealt)]

    def dealt_openings(self, state, events, favor_key: bytes, seat: str):
        from . import favors

        found = {}
        for e in events:
            if isinstance(e, cev.FavorDealt) and e.player == seat:
                kind, nonce = favors.opening(state.favor_pile, favor_key, e.index)
                if favors.commit(kind, nonce) == e.commitment:
                    found[e.commitment] = (kind, nonce)
        return found

    def opens(self, commitment: str, kind: str, nonce: str) -> bool:
        from . import favors

        return kind in favors.TIMING and favors.commit(kind, nonce) == commitment

    def private_view(self, state, openings, seats):
        from msgspec.structs import replace

        from . import favors

        held, nonces = {}, {}
        for p, entries in state.favors.items():
            shown, mine = [], {}
            for entry in entries:
                found = openings.get(entry.partition(":")[2]) if p in seats and favors.is_hidden(entry) else None
                shown.append(entry if found is None else found[0])
                if found is not None:
                    mine.setdefault(found[0], found[1])  # the first of a kind: the one sealed_action plays
            held[p] = tuple(shown)
            if mine:
                nonces[p] = mine
        return replace(state, favors=held, viewers=tuple(seats), nonces=nonces)

    def determinize(self, state, seat, rng):
        """Vendetta's (the seed; the arena has no road pile) and the favors the other players hold:
        each known kind drawn again from those ``seat`` has not seen (the mix left and the others'
        favors); a favor still sealed (``#INDEX:COMMITMENT``) stays as it is."""
        from msgspec.structs import replace

        from .favors import is_hidden

        state = super().determinize(state, seat, rng)
        pool = dict(state.favor_pile)
        for p, held in state.favors.items():
            for kind in held:
                if p != seat and not is_hidden(kind):
                    pool[kind] = pool.get(kind, 0) + 1
        redrawn = {}
        for p, held in state.favors.items():
            if p != seat:
                held = tuple(k if is_hidden(k) else self._draw_favor(pool, rng) for k in held)
            redrawn[p] = held
        return replace(state, favors=redrawn, favor_pile={k: pool[k] for k in sorted(pool)})

    @staticmethod
    def _draw_favor(pool, rng):
        kind = rng.weighted(pool)
        pool[kind] -= 1
        return kind

    def dealt_in_the_open(self, first_event):
        if not isinstance(first_event, cev.CarnivalStarted) or first_event.private_favors:
            return None
        return "every favor's kind is in the record from when it was collected (favor-collected), so each " \
               "player can read the favors the others hold"

    def sealed_action(self, state, action, openings):
        from msgspec.structs import replace

        from . import favors

        if not isinstance(action, cact.PlayFavor) or action.nonce is not None:
            return action
        d = self.pending(state)
        for entry in state.favors.get(d.player, ()) if d is not None else ():
            found = openings.get(entry.partition(":")[2]) if favors.is_hidden(entry) else None
            if found is not None and found[0] == action.favor:
                return replace(action, nonce=found[1])
        return action

    def same_event(self, recorded: bytes, recomputed: bytes) -> bool:
        from msgspec.structs import replace

        mark = b'{"type":"favor-dealt"'
        if not (recorded.startswith(mark) and recomputed.startswith(mark)):
            return False
        try:
            a, b = self.decode_event(recorded), self.decode_event(recomputed)
        except Exception:
            return False
        return isinstance(a, cev.FavorDealt) and isinstance(b, cev.FavorDealt) and \
            replace(a, sealed={}) == replace(b, sealed={})

    def render(self, state: State, color: bool = False) -> str:
        assert isinstance(state, CarnivalState), "a Carnival game's states are its own state_type"
        return view.render_text(state, color)

    def legend(self) -> str:
        return view.LEGEND
