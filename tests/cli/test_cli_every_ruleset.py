"""The store and the command line are generic: the same checks for every registered ruleset."""

import json
import re

import pytest

from trvendetta.store import GameStore
from trvendetta import rulesets

NAMES = rulesets.names()


@pytest.mark.parametrize("name", NAMES)
def test_a_demo_game_is_stored_and_reads_back(trv, name):
    out = trv("demo", "--ruleset", name, "--seed", "1", "--players", "2", "--bot", "greedy", "--quiet").stdout
    winner = re.search(r"^winner: (\S+)$", out, re.M)[1]
    winner = None if winner == "nobody" else winner  # a game may end with no winner (the arena: no car left)
    events = int(re.search(r"^(\d+) events, ", out, re.M)[1])
    doc = trv.json("show")
    assert (doc["ruleset"], doc["version"], doc["finished"], doc["winner"]) == (name, events, True, winner)
    assert len(trv("log").stdout.splitlines()) == events
    with GameStore(trv.db) as store:
        game = store.load(doc["game"])
        ruleset = rulesets.get(name)
        assert store.verify(doc["game"]) == game.head == doc["head"]
        assert ruleset.fold(r.event for r in store.events(doc["game"])) == game.state
        assert ruleset.is_over(game.state)


@pytest.mark.parametrize("name", NAMES)
def test_new_legal_act_decide(trv, name):
    crew = ":cars" if rulesets.get(name).crews() else ""  # a ruleset with no crews takes a seat without one
    first = trv("new", "--ruleset", name, "--player", f"ann:red{crew}", "--player", f"bob:blue{crew}",
                "--seed", "5").stdout.splitlines()[0]
    assert first == f"{name}-1"
    actions = trv.json("legal")
    names = [line.strip() for line in trv("legal").stdout.splitlines()[1:]]
    assert len(actions) == len(names) > 0
    before = trv.json("show")["version"]
    trv("act", json.dumps(actions[-1]))
    middle = trv.json("show")["version"]
    assert middle > before
    choice = trv("legal").stdout.splitlines()[1].strip()  # printed names, as `trv decide` takes them
    trv("decide", *choice.split())
    assert trv.json("show")["version"] > middle
