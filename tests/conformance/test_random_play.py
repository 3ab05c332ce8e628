"""Conformance over every registered ruleset (OpenSpiel's random simulation tests).

Seeded random games; at every step:

* ``legal_actions`` is never empty while the game runs, and every listed
  action encodes and decodes to itself;
* a sample of the listed actions is accepted (applied to the pre-state, the
  result discarded), and deciding the same action twice gives the same events;
* an action from an earlier, different decision raises RuleViolation and
  leaves the state exactly as it was;
* every new event and the new state round-trip through ``encode`` /
  ``decode_event`` / ``decode_state``;
* the state folded from the *decoded* events equals the state evolved step by
  step, and (every ``refold_every`` steps and at the end) so does the fold of
  the whole history from the initial state;
* the version counts the events, and the game ends within ``max_events``;
* a terminal state has no pending decision and no legal action, and refuses
  any action with RuleViolation;
* the contract the shell reads holds: every event type declares whether it
  reveals information, the pending player has a seat, ``summary`` agrees
  with ``is_over``/``winner``, and ``score_options`` gives a score per
  option (or None), so the greedy bot can play every ruleset.

The toy ruleset of the store tests, the dunes of ``tests/plugins`` (a
board and a crew of their own) and its ring road (a board whose lanes wrap)
plug in by importing their own modules (each registers itself) and are
checked like the built-in ones.

The quick sample runs in the default suite; ``-m slow`` runs 10,000 games.
"""

from __future__ import annotations

import sys
import typing
from pathlib import Path

import pytest

from trvendetta import rulesets
from trvendetta.bots import new_position
from trvendetta.core.errors import RuleViolation
from trvendetta.core.rng import Rng

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "store"))
import toy_ruleset  # noqa: E402,F401  (registers the toy ruleset, from its own module only)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "plugins"))
import dunes  # noqa: E402,F401  (registers the dunes ruleset, its board and its crew, from its own module only)
import ringroad  # noqa: E402,F401  (registers the ringroad ruleset and its board, from its own package only)


def _configs() -> list[tuple[str, int]]:
    out = []
    for name in rulesets.names():
        rs = rulesets.get(name)
        for players in range(max(2, rs.min_players), min(4, rs.max_players) + 1):
            out.append((name, players))
    return out


CONFIGS = _configs()
QUICK_GAMES = 3
LONG_GAMES = 10_000
LONG_CHUNK = 200


class GameChecker:
    """Plays one seeded random game, checking the conformance properties."""

    def __init__(self, name: str, players: int, seed: int, *, refold_every: int = 1, sample: int = 3,
                 crews: tuple[str, ...] | str = "cars"):
        self.rs = rulesets.get(name)
        self.players = players
        self.crews = crews
        self.seed = seed
        self.refold_every = refold_every
        self.sample = sample
        self.rng = Rng(seed, 1000)  # the random player's choices
        self.check_rng = Rng(seed, 2000)  # which listed actions get sampled
        self.history: list = []  # every event so far (decoded copies)
        self.previous_options: list[list] = []  # options of earlier decisions

    def where(self, step: int, action=None) -> str:
        crews = "" if self.crews == "cars" else f" ({','.join(self.crews)})"
        text = f"{self.rs.name}, {self.players} players{crews}, seed {self.seed}, step {step}"
        return text + (f", action {self.rs.describe_action(action)}" if action is not None else "")

    # ------------------------------------------------------------ codecs
    def roundtrip_events(self, events: list, where: str) -> list:
        rs = self.rs
        out = []
        for e in events:
            data = rs.encode(e)
            back = rs.decode_event(data)
            assert back == e, f"{where}: event does not round-trip: {e!r}"
            assert rs.encode(back) == data, f"{where}: event encoding is not canonical: {e!r}"
            out.append(back)
        return out

    def roundtrip_state(self, state, where: str) -> None:
        rs = self.rs
        data = rs.encode(state)
        back = rs.decode_state(data)
        assert back == state, f"{where}: state does not round-trip"
        assert rs.encode(back) == data, f"{where}: state encoding is not canonical"

    # -------------------------------------------------------------- play
    def run(self):
        rs = self.rs
        state, events = rs.new_game(new_position(rs, self.players, self.seed, self.crews))
        self.history = self.roundtrip_events(events, self.where(0))
        replayed = rs.fold(self.history)
        assert replayed == state, f"{self.where(0)}: set-up events do not fold to the new game's state"
        self.roundtrip_state(state, self.where(0))
        step = 0
        while not rs.is_over(state):
            step += 1
            state, replayed = self.step(state, replayed, step)
            assert len(self.history) <= rs.max_events, (
                f"{self.where(step)}: {len(self.history)} events; the game did not end within "
                f"max_events={rs.max_events}"
            )
        self.check_terminal(state, step)
        assert rs.fold(self.history) == state, f"{self.where(step)}: the whole history does not fold to the end state"
        return state, self.history, step

    def step(self, state, replayed, step: int):
        rs = self.rs
        where = self.where(step)
        decision = rs.pending(state)
        legal = rs.legal_actions(state)
        assert decision is not None and legal, f"{where}: the game is running but no action is legal"
        self.check_contract(state, decision, where)
        assert len(set(map(rs.encode, legal))) == len(legal), f"{where}: an action is listed twice"
        for a in legal:
            data = rs.encode(a)
            assert rs.decode_action(data) == a, f"{where}: action does not round-trip: {a!r}"
        before = rs.encode(state)
        action = self.rng.pick(legal)
        where = self.where(step, action)
        new_state, events = rs.apply(state, action)

        # a sample of the other listed actions is accepted; deciding is pure
        others = [a for a in legal if a != action]
        for a in [action] + [self.check_rng.pick(others) for _ in range(min(self.sample, len(others)))]:
            try:
                s2, e2 = rs.apply(state, a)
            except Exception as exc:  # noqa: BLE001 - reported with the seed and step
                raise AssertionError(f"{self.where(step, a)}: a listed action was refused: {exc!r}") from exc
            if a is action:
                assert e2 == events and s2 == new_state, f"{where}: deciding the same action twice differs"
        assert rs.encode(state) == before, f"{where}: applying an action changed the pre-state"

        # an action from an earlier, different decision is refused and changes nothing
        illegal = self.illegal_candidate(legal)
        if illegal is not None:
            with pytest.raises(RuleViolation):
                rs.apply(state, illegal)
            assert rs.encode(state) == before, f"{where}: a refused action changed the state"
        self.previous_options.append(legal)
        if len(self.previous_options) > 8:
            del self.previous_options[0]

        # codecs, fold of the decoded events, whole-history fold
        assert events, f"{where}: an accepted action produced no event"
        decoded = self.roundtrip_events(events, where)
        self.history.extend(decoded)
        replayed = rs.fold(decoded, replayed)
        assert replayed == new_state, f"{where}: folding the decoded events differs from the evolved state"
        assert rs.version(new_state) == len(self.history), f"{where}: version does not count the events"
        self.roundtrip_state(new_state, where)
        if self.refold_every and step % self.refold_every == 0:
            assert rs.fold(self.history) == new_state, f"{where}: the whole history does not fold to the state"
        return new_state, replayed

    def check_contract(self, state, decision, where: str) -> None:
        """What the shell reads of a running game, through the contract only."""
        rs = self.rs
        seats = rs.seats(state)
        assert len({s.name for s in seats}) == len(seats) == self.players, f"{where}: seats {seats!r}"
        assert decision.player in {s.name for s in seats}, f"{where}: {decision.player} has no seat"
        summary = rs.summary(state)
        assert summary.status == "playing" and summary.winner is None, f"{where}: summary {summary!r}"
        assert summary.round is None or isinstance(summary.round, int), f"{where}: round {summary.round!r}"
        scores = rs.score_options(state, decision)
        if scores is not None:
            assert len(scores) == len(decision.options), f"{where}: {len(scores)} scores for {len(decision.options)} options"
            assert all(isinstance(x, (int, float)) for x in scores), f"{where}: scores {scores!r}"

    def illegal_candidate(self, legal: list):
        for options in reversed(self.previous_options):
            for a in options:
                if a not in legal:
                    return a
        return None

    def check_terminal(self, state, step: int) -> None:
        rs = self.rs
        where = self.where(step)
        assert rs.pending(state) is None, f"{where}: a finished game still has a pending decision"
        summary = rs.summary(state)
        assert summary.status == "over" and summary.winner == rs.winner(state), f"{where}: summary {summary!r}"
        assert rs.legal_actions(state) == [], f"{where}: a finished game still lists legal actions"
        for options in self.previous_options[-1:]:
            with pytest.raises(RuleViolation):
                rs.apply(state, options[0])
        self.roundtrip_state(state, where)


@pytest.mark.parametrize("name", sorted({name for name, _ in CONFIGS}))
def test_every_event_type_declares_whether_it_reveals(name: str) -> None:
    """``reveals`` is a class variable of each event type (not a field, not a tag's spelling)."""
    rs = rulesets.get(name)
    for cls in typing.get_args(rs.event_type):
        assert isinstance(getattr(cls, "reveals", None), bool), f"{name}: {cls.__name__} declares no reveals"
        assert "reveals" not in cls.__struct_fields__, f"{name}: {cls.__name__}.reveals is a field"


def test_the_toy_ruleset_plugs_in_from_its_own_module() -> None:
    assert "toy" in rulesets.names() and rulesets.get("toy") is toy_ruleset.RULESET


@pytest.mark.parametrize("name", sorted({name for name, _ in CONFIGS}))
def test_the_greedy_bot_plays_every_ruleset_through_the_contract(name: str) -> None:
    """The greedy bot uses the ruleset's own heuristic (and no ruleset's name or internals)."""
    from trvendetta.bots import simulate

    result = simulate(rulesets.get(name), 2, 5, ["greedy"])
    assert result.finished and result.winner is not None


@pytest.mark.parametrize("name,players", CONFIGS)
def test_random_games_conform(name: str, players: int) -> None:
    for seed in range(QUICK_GAMES):
        GameChecker(name, players, seed).run()


def _long_params() -> list:
    if not CONFIGS:
        return []
    per_config = -(-LONG_GAMES // len(CONFIGS))  # at least LONG_GAMES in all
    params = []
    for name, players in CONFIGS:
        for start in range(0, per_config, LONG_CHUNK):
            count = min(LONG_CHUNK, per_config - start)
            params.append(pytest.param(name, players, 10_000 + start, count, id=f"{name}-{players}p-{start}"))
    return params


#: Vendetta with mixed crews (seed 001): the crews rotate over the seats from game to game
MIXED = [("finalfive", "cars"), ("finalfive", "cars", "cars"), ("cars", "finalfive", "cars", "cars"),
         ("bigrig", "cars"), ("bigrig", "finalfive", "cars"), ("bigrig", "finalfive", "cars", "cars")]


@pytest.mark.parametrize("crews", MIXED, ids=lambda c: "-".join(c))
def test_random_mixed_crew_games_conform(crews: tuple[str, ...]) -> None:
    for seed in range(QUICK_GAMES):
        GameChecker("vendetta", len(crews), seed, crews=crews).run()


#: Carnival of Chaos with the Final Five (the Big Rig is not allowed in the arena)
CARNIVAL_MIXED = [("finalfive", "cars"), ("cars", "finalfive", "cars"), ("cars", "cars", "finalfive", "cars")]


@pytest.mark.parametrize("crews", CARNIVAL_MIXED, ids=lambda c: "-".join(c))
def test_random_carnival_games_with_the_final_five_conform(crews: tuple[str, ...]) -> None:
    for seed in range(QUICK_GAMES):
        GameChecker("carnival", len(crews), seed, crews=crews).run()


@pytest.mark.slow
@pytest.mark.parametrize("crews", MIXED, ids=lambda c: "-".join(c))
def test_random_mixed_crew_games_conform_long(crews: tuple[str, ...]) -> None:
    for seed in range(10_000, 10_000 + 300):
        GameChecker("vendetta", len(crews), seed, crews=crews, refold_every=50, sample=2).run()


@pytest.mark.slow
@pytest.mark.parametrize("name,players,first_seed,games", _long_params())
def test_random_games_conform_long(name: str, players: int, first_seed: int, games: int) -> None:
    for seed in range(first_seed, first_seed + games):
        GameChecker(name, players, seed, refold_every=50, sample=2).run()


def test_a_known_game_is_reproducible() -> None:
    """Two runs of the same seed give the very same events (no hidden state)."""
    for name, players in CONFIGS:
        _, first, _ = GameChecker(name, players, 123, refold_every=0, sample=0).run()
        _, second, _ = GameChecker(name, players, 123, refold_every=0, sample=0).run()
        rs = rulesets.get(name)
        assert [rs.encode(e) for e in first] == [rs.encode(e) for e in second]


@pytest.mark.parametrize("name,players", CONFIGS)
@pytest.mark.parametrize("dealer", [False, True], ids=["no-dealer", "host"])
def test_the_setup_event_is_starts_first_event(name: str, players: int, dealer: bool) -> None:
    """``Ruleset.setup_event`` (what every store rebuilds a host or exchange game's event 1 with,
    ``replays.setups.first_event``) is the first event ``start`` gives, byte for byte, with mixed
    crews too, with an RNG that deals hidden pieces (a host's) or not."""
    from trvendetta.core.rng import Rng

    ruleset = rulesets.get(name)
    crews = list(ruleset.crews()) or [""]  # each crew once (the Big Rig, the Final Five: one a game), then the first
    colors = ruleset.colors() or tuple(f"c{i}" for i in range(players))
    seats = [(f"p{i}", colors[i], crews[i] if i < len(crews) else crews[0]) for i in range(players)]
    position = ruleset.default_position(seats, 0)
    made = []
    for _ in range(2):
        rng = Rng(7, 0)
        if dealer:
            rng.favor_key = bytes(32)  # type: ignore[attr-defined]
        made.append(rng)
    assert ruleset.encode(ruleset.setup_event(position, made[0])) == ruleset.encode(ruleset.start(position, made[1])[0])
