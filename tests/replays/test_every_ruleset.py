"""Records, undo, forks and packets over every registered ruleset (and the toy one)."""

import random

import pytest

from trvendetta import replays
from trvendetta.store import GameStore
from replay_helpers import new_game
from trvendetta import rulesets
from trvendetta.core.errors import TrvError


def _rulesets():
    return list(dict.fromkeys([*rulesets.names(), "toy"]))


@pytest.mark.parametrize("name", _rulesets())
@pytest.mark.parametrize("seed", [21, 22])
def test_random_games_with_undos_round_trip_and_verify(toy, name, seed):
    chooser = random.Random(seed)
    a = GameStore(":memory:")
    new_game(a, "g", name, seed=seed)
    undos = 0
    for _ in range(120):
        game = a.load("g")
        rs = game.ruleset
        if rs.is_over(game.state):
            break
        if chooser.random() < 0.15:
            try:
                replays.undo(a, "g", agreed=chooser.random() < 0.5)
                undos += 1
                continue
            except TrvError as exc:  # a refusal: play on
                assert "take it back only with --agreed" in str(exc) or "no action" in str(exc)
        action = chooser.choice(rs.legal_actions(game.state))
        _, events = rs.apply(game.state, action)
        a.append("g", game.version, steps=[(action, events)])
    if not undos:  # a short game: take its last action back, agreed
        replays.undo(a, "g", agreed=True)
    verified = replays.verify_game(a, "g")
    assert verified.head == a.load("g").head
    # the record rebuilds the same game elsewhere
    b = GameStore(":memory:")
    replays.import_file(b, replays.read_file(replays.export(a, "g").encode()))
    assert b.load("g").state == a.load("g").state and b.retracted("g") == a.retracted("g")
    # a fork at every third action boundary shares the history and verifies
    boundaries = [g.last for g in verified.walker.groups][1::3]
    for at in boundaries[:4]:
        replays.fork(a, "g", at, f"f{at}")
        assert a.load(f"f{at}").state == a.load("g", at=at).state
        assert replays.verify_game(a, f"f{at}").events == at
