"""A tiny ruleset ("toy": race to a target) that exercises the whole Ruleset API.

The store and CLI tests use it so that they test persistence and the command
line, not Vendetta's rules, and so that they prove both are generic over the
ruleset found by name.  Rules: players take turns adding 1-3 to their score
plus a chance bonus (0 or 1, from the derived RNG); when a score lands on a
multiple of 4 the next player decides whether to veto it (score - 1).  The
first to reach the target wins.

It plugs in the way any ruleset does, touching nothing outside this module:
it registers itself (``rulesets.register``) when imported, declares which
events reveal information (none: the undo tests take back any toy action,
chance bonus included, without ``--agreed``), what the shell reads (seats,
round), and a greedy heuristic (``score_options``).
"""

from __future__ import annotations

from typing import Union

import msgspec

from trvendetta import rulesets
from trvendetta.core.bases import BaseAction, Strict
from trvendetta.core.errors import PositionError, RuleViolation
from trvendetta.core.events import BaseEvent
from trvendetta.core.protocol import Decision, Ruleset, Seat
from trvendetta.core.turnflags import FlagProblem, TurnFlag


class ToyPosition(Strict):
    players: tuple[tuple[str, str, str], ...]
    ruleset: str = "toy"
    seed: int = 0
    target: int = 10


class Add(BaseAction, tag="add"):
    n: int


class Veto(BaseAction, tag="veto"):
    veto: bool


class Started(BaseEvent, tag="started"):  # no toy event reveals anything (BaseEvent.reveals is False)
    position: ToyPosition


class Added(BaseEvent, tag="added"):
    player: str
    n: int
    bonus: int


class Vetoed(BaseEvent, tag="vetoed"):
    player: str
    veto: bool


class Won(BaseEvent, tag="won"):
    player: str


class ToyState(msgspec.Struct, frozen=True):
    seed: int = 0
    version: int = 0
    target: int = 10
    players: tuple[tuple[str, str, str], ...] = ()
    scores: tuple[int, ...] = ()
    active: int = 0
    veto_by: int | None = None
    winner: str | None = None


class Toy(Ruleset[ToyState, Union[Add, Veto], Union[Started, Added, Vetoed, Won]]):
    name = "toy"
    #: the toy declares its own `trv turn` flags, as every ruleset does
    turn_flags = (
        TurnFlag("assign", "int", metavar="N", help="Add N (1-3) to your score."),
        TurnFlag("reroll", "switch", help="Veto (--reroll) or allow (--no-reroll) the last score."),
    )
    title = "Toy race"
    rules_version = "1"
    action_type = Union[Add, Veto]
    event_type = Union[Started, Added, Vetoed, Won]
    state_type = ToyState
    position_type = ToyPosition

    def initial_state(self):
        return ToyState()

    def crews(self):
        """Each seat records a crew, and the only one is the cars (``trv new`` refuses another)."""
        return ("cars",)

    def default_position(self, players, seed):
        return self.position_from_dict({"players": [list(p) for p in players], "seed": seed})

    def position_from_dict(self, data):
        try:
            pos = msgspec.convert(data, ToyPosition)
        except msgspec.ValidationError as exc:
            raise PositionError("file", str(exc)) from None
        if not 2 <= len(pos.players) <= 4:
            raise PositionError("players", f"{len(pos.players)} players; toy is for 2 to 4")
        if not 1 <= pos.target <= 100:
            raise PositionError("target", f"{pos.target} is not 1-100")
        return pos

    def start(self, position, rng=None):  # no set-up chance: rng (an exchange game's) is unused
        return [Started(position)]

    def evolve(self, state, event):
        state = msgspec.structs.replace(state, version=state.version + 1)
        match event:
            case Started(pos):
                return msgspec.structs.replace(
                    state, seed=pos.seed, target=pos.target, players=pos.players,
                    scores=(0,) * len(pos.players),
                )
            case Added(player, n, bonus):
                i = self._index(state, player)
                scores = list(state.scores)
                scores[i] += n + bonus
                nxt = (i + 1) % len(state.players)
                veto = nxt if scores[i] % 4 == 0 and scores[i] < state.target else None
                return msgspec.structs.replace(state, scores=tuple(scores), active=nxt, veto_by=veto)
            case Vetoed(player, veto):
                scores = list(state.scores)
                mover = (state.veto_by - 1) % len(state.players)
                if veto:
                    scores[mover] -= 1
                return msgspec.structs.replace(state, scores=tuple(scores), veto_by=None)
            case Won(player):
                return msgspec.structs.replace(state, winner=player)
        raise TypeError(event)

    def _index(self, state, player):
        return [p[0] for p in state.players].index(player)

    def pending(self, state):
        if state.winner is not None or not state.players:
            return None
        if state.veto_by is not None:
            who = state.players[state.veto_by][0]
            return Decision(who, "veto", (Veto(False), Veto(True)), f"{who}: veto or allow")
        who = state.players[state.active][0]
        return Decision(who, "add", (Add(1), Add(2), Add(3)), f"{who}: add 1, 2 or 3")

    def decide(self, state, action, rng):
        decision = self.check_legal(state, action)
        if isinstance(action, Veto):
            return [Vetoed(decision.player, action.veto)]
        bonus = rng.below(2)
        events = [Added(decision.player, action.n, bonus)]
        i = self._index(state, decision.player)
        if state.scores[i] + action.n + bonus >= state.target:
            events.append(Won(decision.player))
        return events

    def is_over(self, state):
        return state.winner is not None

    def winner(self, state):
        return state.winner

    def seats(self, state):
        return tuple(Seat(name, color, crew) for name, color, crew in state.players)

    def round(self, state):
        return 1 + sum(state.scores) // 10 if state.scores else 1

    def score_options(self, state, decision):
        """Greedy: add as much as possible; veto when the mover leads."""
        if decision.kind == "add":
            return [a.n for a in decision.options]
        mover = (state.veto_by - 1) % len(state.players)
        leads = state.scores[mover] >= max(state.scores)
        return [1.0 if a.veto == leads else 0.0 for a in decision.options]

    def describe(self, event):
        match event:
            case Started(pos):
                return f"a toy race to {pos.target} starts: " + ", ".join(p[0] for p in pos.players)
            case Added(player, n, bonus):
                return f"{player} adds {n}" + (" plus a bonus 1" if bonus else "")
            case Vetoed(player, veto):
                return f"{player} {'vetoes' if veto else 'allows'} it"
            case Won(player):
                return f"{player} wins"
        raise TypeError(event)

    def describe_action(self, action):
        if isinstance(action, Add):
            return f"add {action.n}"
        return "veto" if action.veto else "allow"

    def view(self, state):
        d = self.pending(state)
        return {
            "ruleset": self.name,
            "round": self.round(state),
            "active_player": state.players[state.active][0] if state.players else None,
            "pending": None if d is None else {
                "player": d.player, "kind": d.kind,
                "options": [msgspec.to_builtins(o) for o in d.options],
            },
            "finished": state.winner is not None,
            "winner": state.winner,
            "players": [
                {"name": p[0], "color": p[1], "crew": p[2], "score": s}
                for p, s in zip(state.players, state.scores)
            ],
        }

    def render(self, state, color=False):
        lines = [f"race to {state.target}"]
        for (name, col, _), score in zip(state.players, state.scores):
            bar = "#" * score
            if color:
                bar = f"\x1b[1m{bar}\x1b[0m"
            lines.append(f"{name:>8} {col:<7} {score:>3} {bar}")
        d = self.pending(state)
        lines.append(f"winner: {state.winner}" if d is None else f"waiting on {d.player}: {d.kind}")
        return "\n".join(lines)

    def turn_driver(self, flags):
        return ToyDriver(self, flags)


class ToyDriver:
    """Maps `trv turn` flags to actions: --assign N adds N, --reroll/--no-reroll vetoes."""

    def __init__(self, ruleset, flags):
        self.ruleset = ruleset
        self.flags = flags
        self.added = False
        self.vetoed = False

    def next(self, state):
        d = self.ruleset.pending(state)
        if d is None:
            return None
        if d.kind == "add" and not self.added and self.flags.get("assign") is not None:
            self.added = True
            return Add(self.flags["assign"])
        if d.kind == "veto" and not self.vetoed and self.flags.get("reroll") is not None:
            self.vetoed = True
            return Veto(self.flags["reroll"])
        return None

    def finish(self, state):
        """Flags given but not used: the turn waits on something else first."""
        d = self.ruleset.pending(state)
        waits = f"the game waits on {d.kind} for {d.player}" if d else "the game is over"
        out = []
        if self.flags.get("assign") is not None and not self.added:
            out.append(FlagProblem(f"--assign {self.flags['assign']}", waits))
        if self.flags.get("reroll") is not None and not self.vetoed:
            out.append(FlagProblem("--reroll" if self.flags["reroll"] else "--no-reroll", waits))
        return out


RULESET = rulesets.register(Toy())


def register() -> Toy:
    """The toy ruleset, registered (importing this module registers it)."""
    return rulesets.register(RULESET)
