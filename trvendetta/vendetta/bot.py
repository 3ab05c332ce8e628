"""The greedy bot's heuristics for Vendetta (``Vendetta.score_options``).

The greedy bot scores every legal option of the pending decision with the
rules below and takes the best (ties broken by the seat's RNG); a decision
kind with no rule here is answered at random.

For **Vendetta** it scores every legal option of the pending decision with
the rules below and takes the best (ties broken by the seat's RNG):

* **assign**: give the largest die to the rearmost car (cars on the rear
  piece are lost when the road scrolls); keep a 6 back while a car of ours is
  inoperable and the command is unused (to repair it).  With only momentum
  left, spend the smallest die on the rearmost car.
* **command**: repair an inoperable car of ours; else nitro (the largest die
  1-3) when the car stands on road and the space ahead is clear road; else
  drift (the smallest die 3-5) when a vehicle stands in the car's front arc;
  else an air attack (the smallest die) when some space puts an opponent in
  the chopper's front arc; else no command.
* **step**: progress toward the finish (``F`` scores more than ``FL``/``FR``;
  driving off the front of the road scores most), and avoid what hurts:
  off-board and impassable spaces (never, when anything else is legal), known
  mines, wreckage and oil slicks, unknown hazard tokens, occupied spaces (a
  slam; cheaper with a drift ready), mud and off-road (lose the road die),
  spaces next to the road's edge, and, on the last move, a chopper's space
  (a car ending its turn there is eliminated).  Half of the best next step's
  score is added, so the car does not drive into a dead end.
* **road-bonus**: take it when the straight path ahead for the road die's
  value is clear road (or the car stands on a chopper's space); else decline.
* **shoot** / **airstrike-target**: the target with the best hit chance, the
  count of shot-die faces that show its size; own cars are never targets,
  cars already holding two damage tokens count for nothing, wrecks for half.
  No shot when nothing scores.
* **airstrike-place**: the empty space whose front arc holds the best
  target by the same score (and, as a tie-break, one that is not directly
  in front of our own cars).
* **slam-choose**: in a slam between two vehicles of one rank (two of our
  motorcycles), move the one whose push is safe, else the one further back.
* **cow-catcher**: a vehicle met by the Big Rig's Cow Catcher goes to the
  safer of front left and front right (its owner decides, whatever their crew).
* **A crew's own** (``Crew.score_option``, asked first for each option of its
  player's decisions): the Final Five's (``crews/finalfive/rules.py``: the second
  motorcycle's die scores above every command but a repair) and the Big Rig's
  (``crews/bigrig/rules.py``: steering, the section die, where a minor damage token goes,
  the Targeting Computer's reroll, the Hazard Dispenser's token).  A
  motorcycle's step treats a road vehicle as something to drift through,
  unless it is the last step (``Crew.drifts_through_vehicles``).
* **slam-reroll**: reroll when the rolled slam would push one of our own
  vehicles off the road or into impassable terrain; otherwise accept.
"""

from __future__ import annotations

import math
from functools import lru_cache

from ..core import geometry
from ..core.bases import Heuristics as BaseHeuristics
from ..core.protocol import Decision
from . import board as b
from . import crew as crews
from .model import State

NEG = -1000.0


def score_options(state: State, decision: Decision) -> list[float] | None:
    """A score per option of ``decision`` (higher is better), or None (random)."""
    return Heuristics(state, decision).scores()


#: the weights of :func:`evaluate`'s features, fitted (logistic regression) to who won 300 greedy
#: 2-player games from states every 15 actions (docs/bots.md): the frontmost and the rearmost
#: operational vehicle's place count most (the race to the Finish Line, the road scrolling away
#: under the rearmost), then inoperable vehicles and damage against
WEIGHTS = {"operational": -0.32, "inoperable": -1.5, "place": 0.6, "front": 2.75, "rear": 1.87,
           "damage": -0.92, "distance": 1.65}


def evaluate(state: State) -> dict[str, float]:
    """Each player's share of a running game, for the search bot's playouts cut short
    (``Ruleset.evaluate``): a softmax over the players of a linear score (``WEIGHTS``) of their
    :func:`features`.  A player out has no share; the winner of a game over has it all.  Reads
    only the board."""
    players = [p.name for p in state.players]
    if state.phase == "over":
        return {p: (1.0 if p == state.winner else 0.0) if state.winner else 1.0 / len(players) for p in players}
    w = WEIGHTS
    score = {p: sum(w[k] * x for k, x in f.items()) for p, f in features(state).items()}
    if not score:
        return {p: 1.0 / len(players) for p in players}
    top = max(score.values())
    exp = {p: math.exp(x - top) for p, x in score.items()}
    total = sum(exp.values())
    return {p: exp.get(p, 0.0) / total for p in players}


def features(state: State) -> dict[str, dict[str, float]]:
    """What :func:`evaluate` weighs, per player not out (``WEIGHTS``' keys): their operational and
    inoperable vehicles and damage tokens (per vehicle the crew started with), the place of their
    operational vehicles between the rear of the road and its front (summed per vehicle, the
    frontmost, the rearmost), and the frontmost one's distance along five road pieces."""
    players = [p.name for p in state.players]
    board = state.board
    lo, hi = board.extent(state)
    span = max(1, hi - lo)
    far = 5 * 2 * state.components.rows  # type: ignore[union-attr]
    mine: dict[str, list] = {p: [] for p in players}
    for v in state.vehicles:
        if v.owner in mine:
            mine[v.owner].append(v)
    out: dict[str, dict[str, float]] = {}
    for p in state.players:
        if p.out:
            continue
        vs = mine[p.name]
        n = max(1, len(vs))
        running = [v for v in vs if v.at is not None and v.status == "operational"]
        places = [0.0 if v.start else min(1.0, max(0.0, (board.progress(v.at) - lo) / span)) for v in running]
        out[p.name] = {
            "operational": len(running) / n,
            "inoperable": sum(1 for v in vs if v.at is not None and v.status == "inoperable") / n,
            "place": sum(places) / n, "front": max(places, default=0.0), "rear": min(places, default=0.0),
            "damage": sum(len(v.damage) for v in running) / n,
            "distance": max((board.progress(v.at) for v in running if not v.start), default=0) / far,
        }
    return out


@lru_cache(maxsize=16)
def _hits(faces: tuple) -> dict[str, int]:
    return {size: sum(1 for f in faces if size in f) for size in "SML"}


class Heuristics(BaseHeuristics):
    """The Vendetta heuristics; one method per decision kind, and the deciding
    player's crew first for each option (:meth:`score`)."""

    def __init__(self, state: State, decision: Decision):
        super().__init__(state, decision)
        self.b = b
        #: the deciding player's crew, whose own scores come first (``Crew.score_option``)
        self.crew = crews.of(state, decision.player) if decision.player is not None else None
        assert state.components is not None, "a started game has its components"
        #: the shot die's faces that hit each size (``_hits``: a game's components are one object)
        self.hits = _hits(state.components.dice["shot"].faces)
        self._strikes: dict | None = None
        self._own_front: set | None = None
        #: ``_space_score`` by its arguments: a step's options look ahead at overlapping spaces
        self._spaces: dict = {}
        #: ``_index``'s maps, made on first use
        self._tokens: dict = {}
        self._where: dict | None = None
        self._choppers: set = set()
        self._terrains: dict = {}
        #: the moving car, whether this step is its last and whether it is a motorcycle (``_step``)
        self._mover: tuple | None = None

    def scores(self) -> list[float] | None:
        """A score per option: the crew's or the decision kind's method's; None when some
        option has neither (a decision kind with no heuristic: random)."""
        handler = getattr(self, "_" + self.decision.kind.replace("-", "_"), None)
        out = [self.score(handler, a) for a in self.decision.options]
        return None if any(x is None for x in out) else out  # type: ignore[return-value]

    def score(self, handler, a) -> float | None:
        """One option's score: the deciding player's crew's own (``Crew.score_option``),
        else ``handler``'s (the decision kind's method), else None."""
        own = self.crew.score_option(self, a) if self.crew is not None else None
        if own is not None:
            return own
        return handler(a) if handler is not None else None

    # ------------------------------------------------------------ helpers
    def _mine(self):
        return [v for v in self.state.vehicles if v.owner == self.me and v.at is not None]

    def _y(self, v) -> int:
        return self.state.board.progress(v.at) if v.at is not None else 10**6

    def _target_score(self, oid: str) -> float:
        b = self.b
        if b.is_wreck(oid):
            return self.hits[b.WRECK_SIZE] / 2
        v = b.vehicle(self.state, oid)
        if v.owner == self.me or len(v.damage) >= b.crew_of(self.state, v.owner).slots:  # already inoperable
            return 0.0
        return float(self.hits[v.size])

    def _space_score(self, sp, last: bool, drift: bool = False, bike: bool = False) -> float:
        """What entering ``sp`` is worth to our moving car, progress aside."""
        s = self.state
        terrain = self._ground(sp)
        if terrain == "beyond":
            final = s.final_piece is not None and s.road[-1].index >= s.final_piece
            return 100.0 if final else 6.0
        if terrain in ("offboard", "impassable"):
            return NEG
        score = 0.0
        if self._where is None:
            self._index()
        token = self._tokens.get(sp)
        if token is not None:
            if not token.face_up:
                score -= 8
            else:
                score -= {"mine": 60, "wreckage": 40, "oil-slick": 15, "mud": 4}.get(token.kind, 0)
        here = self._where.get(sp)  # type: ignore[union-attr]
        if here:
            if bike and not last and not here[1]:
                score -= 1  # a motorcycle drifts through road vehicles while moving
            else:
                score -= 5 if drift else 30
        if terrain == "mud":
            score -= 4
        elif terrain == "offroad":
            score -= 2
        if s.board.at_side(s, sp):
            score -= 3
        if sp in self._choppers:
            score -= 50 if last else 2
        return score

    def _ground(self, sp) -> str:
        """``board.terrain`` of ``sp``, each space asked once a decision."""
        terrain = self._terrains.get(sp)
        if terrain is None:
            terrain = self._terrains[sp] = self.b.terrain(self.state, sp)
        return terrain

    def _index(self) -> None:
        """The board's tokens, occupied spaces and choppers by space, once a decision (what
        ``_space_score`` asks of every space it scores; the same answers as ``board``'s
        ``token_at``, ``occupants`` and ``chopper_spaces``)."""
        s = self.state
        tokens: dict = {}
        for t in s.tokens:
            tokens.setdefault(t.at, t)  # the first on a space, as ``token_at``
        where: dict = {}  # space -> [anyone there, a wreck there]
        for v in s.vehicles:
            if v.at is not None and not v.start:
                where.setdefault(v.at, [True, False])
        for w in s.wrecks:
            where.setdefault(w.at, [True, False])[1] = True
        self._tokens, self._where, self._choppers = tokens, where, self.b.chopper_spaces(s)

    def _clear_road(self, sp) -> bool:
        b, s = self.b, self.state
        token = b.token_at(s, sp)
        return (
            b.terrain(s, sp) in ("road", "beyond")
            and (token is None or (token.face_up and token.kind == "road"))
            and not b.occupants(s, sp)
            and sp not in b.chopper_spaces(s)
        )

    def _turn_car(self):
        t = self.state.turn
        return self.b.vehicle(self.state, t.car) if t is not None and t.car else None

    # ---------------------------------------------------------- decisions
    def _assign(self, a) -> float:
        b = self.b
        if not hasattr(a, "car"):  # Pass
            return 0.0
        p = b.player(self.state, self.me)
        car = b.vehicle(self.state, a.car)
        rear = -self._y(car) / 100.0  # rearmost first
        if a.momentum:
            return rear - a.die / 10.0
        keep_six = (
            a.die == 6
            and not p.command_used
            and p.dice.count(6) == 1
            and any(v.status == "inoperable" for v in self._mine())
        )
        return rear + a.die / 10.0 - (10 if keep_six else 0)

    def _command(self, a) -> float:
        b, s = self.b, self.state
        if not hasattr(a, "command"):  # NoCommand
            return 0.0
        car = self._turn_car()
        if a.command == "repair":
            return 50.0 if b.vehicle(s, a.target).status == "inoperable" else -1.0
        if a.command == "nitro":
            if car is None or car.start or b.terrain(s, car.at) != "road":
                return -1.0
            ahead = s.board.neighbour(car.at, "F", car.facing)
            return 20.0 + a.die if self._clear_road(ahead) else -1.0
        if a.command == "drift":
            if car is None or car.start:
                return -1.0
            busy = b.front_arc_targets(s, car.at, car.facing, exclude=car.id)
            return 10.0 - a.die if busy else -1.0
        if a.command == "airstrike":
            best = max(self._strike_map().values(), default=0.0)
            return 5.0 + best - a.die / 10.0 if best > 0 else -1.0
        return -1.0

    def _strike_map(self) -> dict:
        """Empty space -> the best target score in a chopper's front arc there.

        A target is in the front arc of the spaces in its own rear arc, so
        only those spaces are scored (cached for the decision)."""
        if self._strikes is None:
            s = self.state
            targets = [(v.id, v.at) for v in s.vehicles if v.at is not None and not v.start]
            targets += [(w.id, w.at) for w in s.wrecks]
            empty = set(self._empty_spaces())
            out: dict = {}
            for oid, at in targets:
                score = self._target_score(oid)
                if score <= 0:
                    continue
                for sp in s.board.arc(at, "F", geometry.REAR_ARC):
                    if sp in empty and score > out.get(sp, 0.0):
                        out[sp] = score
            self._strikes = out
        return self._strikes

    def _empty_spaces(self):
        """Where a chopper may fly: the board's chopper spaces with no vehicle, wreck or chopper."""
        b, s = self.b, self.state
        busy = {v.at for v in s.vehicles if v.at is not None and not v.start}
        busy |= {w.at for w in s.wrecks} | b.chopper_spaces(s)
        return [sp for sp, _ in s.board.chopper_spaces(s) if sp not in busy]

    def _airstrike_place(self, a) -> float:
        sp = self.b.sq(a.at)
        if self._own_front is None:  # the spaces in front of our operational cars, once a decision
            self._own_front = {
                f for v in self._mine() if not v.start and v.status == "operational"
                for f in self.state.board.arc(v.at, v.facing)
            }
        return self._strike_map().get(sp, 0.0) - (0.5 if sp in self._own_front else 0.0)

    def _shoot(self, a) -> float:
        if not hasattr(a, "target"):  # NoShoot
            return 0.0
        return self._target_score(a.target) or -1.0

    _airstrike_target = _shoot

    def _step(self, a) -> float:
        s = self.state
        t = s.turn
        if self._mover is None:  # the same for every option of the decision
            car = self._turn_car()
            bonus_later = t.road_ok and not t.road_taken and not t.momentum and bool(s.road_die)
            last = t.moves_left <= 1 and not bonus_later
            bike = crews.of_vehicle(s, car.id).drifts_through_vehicles  # a motorcycle
            self._mover = (car, last, bike)
        car, last, bike = self._mover
        board = s.board
        sp = board.neighbour(car.at, a.direction, car.facing)
        score = self._space(sp, last, t.drift, bike)
        if score <= NEG:
            return score
        progress = {"F": 4.0, "FL": 2.0, "FR": 2.0}[a.direction]
        if t.moves_left > 1 and self._ground(sp) != "beyond":
            nxt = max(self._space(ahead, t.moves_left == 2, False, bike) for ahead in board.arc(sp, car.facing))
            score += max(nxt, -100.0) / 2
        return score + progress

    def _space(self, sp, last: bool, drift: bool, bike: bool) -> float:
        """``_space_score``, each space scored once a decision (the state and the car do not change)."""
        key = (sp, last, drift, bike)
        score = self._spaces.get(key)
        if score is None:
            score = self._spaces[key] = self._space_score(sp, last, drift=drift, bike=bike)
        return score

    def _road_bonus(self, a) -> float:
        s = self.state
        car = self._turn_car()
        if car.at in self.b.chopper_spaces(s):
            want = True
        else:
            sp, want = car.at, True
            for _ in range(s.road_die or 0):
                sp = s.board.neighbour(sp, "F", car.facing)
                if self.b.terrain(s, sp) == "beyond":
                    break
                if not self._clear_road(sp):
                    want = False
                    break
        return 1.0 if a.take == want else 0.0

    # --------------------------------------------- decisions any crew's player may face
    def _cow_catcher(self, a) -> float:
        b, s = self.b, self.state
        at = b.position_of(s, s.cow[0])
        to = s.board.neighbour(at, a.direction, "F")
        return self._space_score(to, True) if b.terrain(s, to) != "beyond" else 0.0

    def _slam_choose(self, a) -> float:
        """Two vehicles of one rank slammed (two of our motorcycles): move the one whose
        push is safe, the one further back (it is the likelier to be lost) on a tie."""
        b, s = self.b, self.state
        v = b.vehicle(s, a.vehicle)
        to = s.board.neighbour(v.at, s.slam.direction, v.facing)
        safe = b.terrain(s, to) not in ("offboard", "impassable", "rear")
        return (10.0 if safe else 0.0) - s.board.progress(v.at) / 100.0

    def _slam_reroll(self, a) -> float:
        b, s = self.b, self.state
        slam = s.slam
        moved = slam.top if slam.slam == "TOP" else slam.bottom
        at = b.position_of(s, moved)
        reroll = False
        if at is not None and b.owner_of(s, moved) == self.me:
            to = s.board.neighbour(at, slam.direction, b.facing_of(s, moved))
            reroll = b.terrain(s, to) in ("offboard", "impassable")
        return 1.0 if a.reroll == reroll else 0.0
