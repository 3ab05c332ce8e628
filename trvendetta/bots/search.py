"""The search bot: Monte Carlo tree search over the engine's own rules and chance.

For the pending decision the bot runs iterations of information-set MCTS
(single observer, open loop), each one:

1. **determinize**: ``ruleset.determinize(state, seat, rng)`` draws again all
   that the deciding seat may not see (the seed the coming dice derive from,
   a face-down pile's order, the others' party favors), so the search plays
   from a state the seat cannot tell from the real one and never reads what
   is hidden from it;
2. **select and expand**: down a tree keyed by actions, each decision taken
   by UCB1 from the deciding player's own results, counting only the children
   legal in this iteration (after other dice an option may not exist); the
   options weighed are the rollout bot's best (``score_options`` as the
   front-die bot scores them) and grow with the visits (progressive
   widening: ``2 + WIDENING * sqrt(n)`` at a node reached ``n`` times; never
   an option scored a disaster, off the road, while another is legal): with
   a budget of a few dozen iterations the search weighs the few options the
   heuristic likes, not every one thinly; an option not tried yet is tried
   first, the favourite first, and the favourite keeps a progressive bias
   (``BIAS / (visits + 1)``); a decision with one option is taken without a
   node;
3. **chance**: every action is applied with the search's own RNG
   (``ruleset.apply(state, action, rng)``), so each iteration samples the dice
   and draws afresh from the engine's own chance model (an open-loop tree: the
   node after an action averages over its outcomes);
4. **play out** with the rollout bot (``ROLLOUTS``: the front-die bot by
   default, ``bots/front.py``, the greedy bot's heuristic but for a car crew's
   biggest die; ``greedy``; ``random`` for the cheap rollout) for ``horizon`` steps, and score
   where it got to by the ruleset's ``evaluate`` (each player's share of the
   game: a cut-short playout is far less noisy than one whole game's win or
   loss); to the end when the ruleset has no ``evaluate``, the winner scoring
   1 (a draw: 1 / players); each player's result is credited up the path to
   the decisions that player took.

The budget is a count of engine steps (actions applied, tree and rollouts),
not time: the same state, seed and budget give the same choice on any
machine, so a bot game replays exactly.  The option visited most is played
(ties: the better mean, then the heuristic's score, then the option listed first).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..core.errors import TrvError
from ..core.protocol import Decision, Ruleset
from ..core.rng import Rng
from .base import RandomBot
from .front import FrontBot
from .greedy import GreedyBot

#: the rollout policies by name: the front-die bot by default (it beats the greedy bot nine games in ten)
ROLLOUTS: dict[str, type[GreedyBot] | type[RandomBot]] = {
    "front": FrontBot, "greedy": GreedyBot, "random": RandomBot,
}

#: engine steps a decision may spend by default: about 60 ms of CPU for a 2-player Vendetta decision with
#: front-die rollouts, far under the half second a decision may take; the strength tables in docs/bots.md
#: are measured at this budget (whether more steps play better is not measured yet)
DEFAULT_STEPS = 1000
#: a rollout longer than this is cut off and scored as a draw (no ruleset's game gets near it)
MAX_ROLLOUT = 5000
#: the steps a rollout plays before the ruleset's ``evaluate`` scores where it got to (when it has one)
HORIZON = 40
#: the progressive bias toward the heuristic's favourite option: ``BIAS / (visits + 1)`` added to its UCB value
BIAS = 1.0
#: progressive widening: a node reached ``n`` times weighs its ``2 + WIDENING * sqrt(n)`` best options
WIDENING = 0.5
#: an option the heuristic scores at or below this is a disaster (``vendetta/bot.py``'s ``NEG``: off the road)
DISASTER = -500.0


class _Node:
    """A decision in the tree: per action its visits, wins (for the one who chose it) and how
    often it was legal when this node was reached (the availability count of ISMCTS)."""

    __slots__ = ("children", "visits", "wins", "avail", "prior", "n")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits: dict[Any, int] = {}
        self.wins: dict[Any, float] = {}
        self.avail: dict[Any, int] = {}
        #: the ruleset's heuristic score of each option (``score_options``), when it has one
        self.prior: dict[Any, float] = {}
        #: how often this node was reached (what progressive widening grows with)
        self.n = 0


class SearchBot:
    """Information-set MCTS with sampled chance and a step budget (see the module's text)."""

    name = "search"

    def __init__(self, steps: int = DEFAULT_STEPS, rollout: str = "front", exploration: float = 0.7,
                 horizon: int = HORIZON, bias: float = BIAS, widening: float = WIDENING) -> None:
        if steps < 1:
            raise TrvError(f"a search needs a budget of at least one step, not {steps}")
        self.steps = steps
        if rollout not in ROLLOUTS:
            raise TrvError(f"unknown rollout {rollout!r}; known: {', '.join(ROLLOUTS)}")
        self.rollout = ROLLOUTS[rollout]()
        #: the option scores that order the untried options and bias the favourite (the rollout bot's)
        self._scores = self.rollout.scores if isinstance(self.rollout, GreedyBot) else FrontBot().scores
        self.exploration = exploration
        self.horizon = horizon
        self.bias = bias
        self.widening = widening
        self._most = MAX_ROLLOUT  # this decision's rollout length (``choose`` sets it)

    def __repr__(self) -> str:
        return f"SearchBot(steps={self.steps}, rollout={self.rollout.name!r})"

    def choose(self, ruleset: Ruleset, state: Any, rng: Rng, decision: Decision | None = None) -> Any:
        decision = decision if decision is not None else ruleset.pending(state)
        if decision is None or not decision.options:
            raise TrvError("no decision is pending; a bot has nothing to choose")
        options = decision.options
        if len(options) == 1:
            return options[0]
        seat = decision.player
        names = [s.name for s in ruleset.seats(state)]
        self._most = self.horizon if self.horizon > 0 and ruleset.evaluate(state) is not None else MAX_ROLLOUT
        root = _Node()
        base = rng.below(1 << 62)
        seen = ruleset.determinize(state, seat, Rng(base, -1))  # the root's heuristic scores read this, not ``state``
        spent = 0
        while spent < self.steps:
            # common random numbers: the k-th try of every option starts from the same determinization
            # and the same stream of dice, so options are compared on the same luck
            action = self._select(ruleset, seen, decision, root, rng)
            stream = Rng(base, root.visits.get(action, 0))
            spent += self._iterate(ruleset, ruleset.determinize(state, seat, stream), root, stream, names, action)
        best = max(range(len(options)), key=lambda i: (root.visits.get(options[i], 0), _mean(root, options[i]),
                                                        root.prior.get(options[i], 0.0), -i))
        return options[best]

    def _iterate(self, rs: Ruleset, state: Any, root: _Node, rng: Rng, names: list[str], first: Any) -> int:
        """One iteration from a determinized ``state``, the root's option ``first`` chosen already;
        the steps it took."""
        path: list[tuple[_Node, Any, str | None]] = []
        node: _Node | None = root
        steps = 0
        while node is not None and not rs.is_over(state):
            decision = rs.pending(state)
            if decision is None:
                break
            options = decision.options
            if len(options) == 1:
                action = options[0]
            else:
                action = first if node is root else self._select(rs, state, decision, node, rng)
                path.append((node, action, decision.player))
                fresh = action not in node.children
                node = node.children.setdefault(action, _Node())
                if fresh:
                    node = None  # expanded: the rest is the rollout
            state, _ = rs.apply(state, action, rng)
            steps += 1
        state, more = self._rollout(rs, state, rng)
        steps += more
        shares = self._shares(rs, state, names)
        for at, action, player in path:
            at.visits[action] = at.visits.get(action, 0) + 1
            at.wins[action] = at.wins.get(action, 0.0) + shares.get(player or "", 0.0)
        return max(1, steps)

    @staticmethod
    def _shares(rs: Ruleset, state: Any, names: list[str]) -> dict[str, float]:
        """Each player's result of a playout: 1 for the winner; a game cut short, the ruleset's
        ``evaluate`` (else an equal share, a draw)."""
        if rs.is_over(state):
            winner = rs.winner(state)
            if winner is not None:
                return {winner: 1.0}
        else:
            value = rs.evaluate(state)
            if value is not None:
                return value
        return {n: 1.0 / max(1, len(names)) for n in names}

    def _select(self, rs: Ruleset, state: Any, decision: Decision, node: _Node, rng: Rng) -> Any:
        """UCB1 over the options legal now; an untried one first, the best by the ruleset's
        heuristic (``score_options``: what the greedy bot would play is tried first), ties and a
        ruleset without one by the RNG."""
        options = self._widen(rs, state, decision, node)
        avail = node.avail
        for a in options:
            avail[a] = avail.get(a, 0) + 1
        node.n += 1
        untried = [a for a in options if a not in node.visits]
        prior = node.prior
        if untried:
            if len(untried) == 1:
                return untried[0]
            first = max(prior.get(a, 0.0) for a in untried)
            return rng.pick([a for a in untried if prior.get(a, 0.0) == first])
        c, bias = self.exploration, self.bias
        favourite = max((prior.get(a, 0.0) for a in options), default=0.0) if prior else None
        best, value = options[0], -1.0
        for a in options:
            n = node.visits[a]
            ucb = node.wins[a] / n + c * math.sqrt(math.log(avail[a]) / n)
            if favourite is not None and prior.get(a) == favourite:
                ucb += bias / (n + 1)  # progressive bias: the heuristic's favourite, until the results speak
            if ucb > value:
                best, value = a, ucb
        return best

    def _widen(self, rs: Ruleset, state: Any, decision: Decision, node: _Node) -> Sequence[Any]:
        """The options the search weighs at ``node`` now (progressive widening): by the heuristic's
        score, best first, the first ``2 + sqrt(visits) / 2`` (``widening``), never one the heuristic
        calls a disaster (``DISASTER``: driving off the road) while another is legal; all of them
        when the ruleset has no heuristic or ``widening`` is 0."""
        options = decision.options
        prior = node.prior
        if any(a not in prior for a in options):
            scores = self._scores(rs, state, decision)
            if scores is None:
                return options
            prior.update(zip(options, scores))
        if not prior:
            return options
        ranked = sorted(options, key=lambda a: -prior[a])  # stable: the listed order breaks ties
        if prior[ranked[0]] > DISASTER:
            ranked = [a for a in ranked if prior[a] > DISASTER]
        if self.widening > 0:
            ranked = ranked[:2 + int(self.widening * math.sqrt(node.n))]
        return ranked

    def _rollout(self, rs: Ruleset, state: Any, rng: Rng) -> tuple[Any, int]:
        """Play on with the rollout bot, to the end or ``horizon`` steps when the ruleset can
        ``evaluate`` a game cut short; the state reached and the steps taken."""
        bot = self.rollout
        steps = 0
        most = self._most
        while steps < most and not rs.is_over(state):
            decision = rs.pending(state)
            if decision is None:
                break
            options = decision.options
            action = options[0] if len(options) == 1 else bot.choose(rs, state, rng, decision)
            state, _ = rs.apply(state, action, rng)
            steps += 1
        return state, steps


def _mean(node: _Node, action: Any) -> float:
    n = node.visits.get(action, 0)
    return node.wins.get(action, 0.0) / n if n else 0.0
