"""Helpers of the replay tests: a game store played by random legal actions."""

import random

from trvendetta.store import GameStore
from trvendetta import rulesets

PLAYERS = [("ann", "red", "cars"), ("bob", "blue", "cars")]


def new_game(store, name, ruleset_name, seed=1, players=PLAYERS):
    rs = rulesets.get(ruleset_name)
    state, events = rs.new_game(rs.default_position(players, seed))
    return store.create_game(name, rs.name, events)


def play(store, name, chooser, actions=None, until=None):
    """Apply random legal actions (recorded with their events) one save each."""
    done = 0
    while True:
        game = store.load(name)
        rs, state = game.ruleset, game.state
        if rs.is_over(state) or (actions is not None and done >= actions):
            return game
        if until is not None and until(rs, state):
            return game
        action = chooser.choice(rs.legal_actions(state))
        _, events = rs.apply(state, action)
        store.append(name, game.version, steps=[(action, events)])
        done += 1


def full_game(path, ruleset_name, seed=1, name="g"):
    with GameStore(path) as store:
        new_game(store, name, ruleset_name, seed)
        play(store, name, random.Random(seed))
        return store.load(name).head
