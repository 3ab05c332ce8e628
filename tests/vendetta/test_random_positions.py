"""Fuzzing from random positions: seeded random set-ups (mid-road, damaged and
inoperable cars, wrecks, choppers, tokens of every kind face up and down,
terrain overrides, scripted dice) played with random legal actions.  Every
step keeps the invariants of test_invariants, and the events refold to the
state.  A script asking for a token no longer in the pile is the only
refusal allowed (ScriptError)."""

import random

import pytest

from trvendetta.core.errors import ScriptError
from trvendetta.vendetta import components as comp

from .helpers import RS
from .test_invariants import check_action, check_event

COLORS = ["red", "blue", "green", "yellow"]
KINDS = ["small", "medium", "large"]


def random_position(seed: int) -> dict:
    r = random.Random(seed)
    c = comp.default()
    n = r.randint(2, 4)
    first = r.choice([0, 0, 1, 2])
    tiles = list(c.tiles().values())
    r.shuffle(tiles)
    road = [r.choice(sides) for sides in tiles[:3]]
    low, high = 8 * first + 1, 8 * first + 24
    spaces = [f"{lane}{num}" for lane in "abcdef" for num in range(low, high + 1)]
    r.shuffle(spaces)
    players = [{"name": f"p{i}", "color": COLORS[i], "dice": sorted(r.randint(1, 6) for _ in range(r.randint(1, 4))),
                "command_used": r.random() < 0.3} for i in range(n)]
    damage_left = dict(c.damage)
    vehicles = []
    for p in players:
        for kind in KINDS:
            roll = r.random()
            if roll < 0.15:
                vehicles.append({"id": f"{p['color']}-{kind}", "at": "eliminated"})
            elif roll < 0.3 and first == 0:
                vehicles.append({"id": f"{p['color']}-{kind}", "at": "start"})
            else:
                held = []
                for _ in range(r.choice([0, 0, 0, 1, 2])):
                    token = r.choice([k for k, v in damage_left.items() if v > 0])
                    damage_left[token] -= 1
                    held.append(token)
                vehicles.append({"id": f"{p['color']}-{kind}", "at": spaces.pop(), "damage": held,
                                 "moved": r.random() < 0.3, "momentum": r.choice([0, 0, 1, 2])})
    hazards_left = dict(c.hazards)
    tokens = []
    for _ in range(r.randint(0, 10)):
        kind = r.choice([None, None] + [k for k, v in hazards_left.items() if v > 0])
        if kind is not None:
            hazards_left[kind] -= 1
        tokens.append({"at": spaces.pop(), "kind": kind, "face_up": kind is not None and r.random() < 0.4})
    script = {
        "slam": [r.choice(["TOP", "BOTTOM"]) for _ in range(r.randint(0, 2))],
        "direction": [r.choice(["F", "FL", "FR", "B", "BL", "BR"]) for _ in range(r.randint(0, 3))],
        "shot": [r.choice(["SM", "M", "L", "SML"]) for _ in range(r.randint(0, 2))],
        "stunt": [r.randint(1, 4) for _ in range(r.randint(0, 2))],
        "movement": [r.randint(1, 6) for _ in range(r.randint(0, 4))],
    }
    return {
        "ruleset": "vendetta", "seed": seed, "round": r.randint(1, 4), "road": road, "first_piece": first,
        "road_die": r.choice([1, 2, 3]), "players": players, "vehicles": vehicles, "tokens": tokens,
        "wrecks": [{"at": spaces.pop()} for _ in range(r.randint(0, 3))],
        "choppers": [{"owner": p["name"], "at": spaces.pop()} for p in players if r.random() < 0.3],
        "terrain": [{"at": spaces.pop(), "kind": r.choice(["road", "offroad", "mud", "impassable"])}
                    for _ in range(r.randint(0, 4))],
        "fill": r.choice([None, "road"]),
        "script": script,
    }


@pytest.mark.parametrize("block", range(6))
def test_random_positions_keep_the_invariants(block):
    play_block(range(block * 50, block * 50 + 50))


@pytest.mark.slow
@pytest.mark.parametrize("block", range(20))
def test_many_random_positions(block):
    play_block(range(1000 + block * 250, 1000 + block * 250 + 250))


def play_block(seeds):
    for seed in seeds:
        data = random_position(seed)
        if data["fill"] is None:
            del data["fill"]
        state, events = RS.new_game(RS.position_from_dict(data))
        folded = RS.fold(events)
        assert folded == state
        chooser = random.Random(seed)
        history = list(events)
        for step in range(400):
            if RS.is_over(state):
                assert RS.legal_actions(state) == []
                break
            options = RS.legal_actions(state)
            assert options, f"seed {seed}: no legal action while running"
            try:
                new_state, new = RS.apply(state, chooser.choice(options))
            except ScriptError:
                break
            where = f"position seed {seed} step {step}"
            cur = state
            for e in new:
                nxt = RS.evolve(cur, e)
                check_event(cur, e, nxt, where)
                cur = nxt
            assert cur == new_state, where
            check_action(new_state, where)
            state, history = new_state, history + new
        assert RS.fold(history) == state
