"""Many processes writing to one store at once: nothing lost, nothing duplicated.

8 processes play random moves in the same 50 games (each move one command:
load, apply, append at the loaded version, retry on "game moved on").  On
PostgreSQL (a club's or a tournament's server) and on SQLite alike, every
game's stored events are exactly the appends the processes saw succeed, in an
unbroken chain of versions, and every game re-executes and verifies.
"""

import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from trvendetta import replays, rulesets
from trvendetta.bots import new_position
from trvendetta.store import GameMovedOn, GameStore
from trvendetta.store.errors import DamagedStore

WORKER = str(Path(__file__).resolve().parent / "concurrent_worker.py")
PROCESSES, GAMES, MOVES = 8, 50, 25


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, tmp_path):
    return str(tmp_path / "club.sqlite") if request.param == "sqlite" else request.getfixturevalue("pg_url")


def test_eight_processes_fifty_games_nothing_lost_or_duplicated(where):
    rs = rulesets.get("vendetta")
    start = {}
    with GameStore(where) as store:
        for g in range(GAMES):
            _, events = rs.new_game(new_position(rs, 3, g))
            start[f"g{g}"] = store.create_game(f"g{g}", "vendetta", events).version
    procs = [subprocess.Popen([sys.executable, WORKER, where, str(w), str(MOVES), str(GAMES)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for w in range(PROCESSES)]
    results = []
    for proc in procs:
        out, err = proc.communicate()
        assert proc.returncode == 0, err
        results.append(json.loads(out))

    appends = defaultdict(list)
    for r in results:
        for game, version, n in r["done"]:
            appends[game].append((version, n))
        for message in r["refused"]:
            assert re.fullmatch(r"game moved on since you loaded it \(now at event \d+\); run the command again",
                                message), message
    assert sum(len(r["done"]) for r in results) == PROCESSES * MOVES  # no game ends within 25 moves each
    with GameStore(where) as store:
        for game, first in start.items():
            # the successful appends chain from the set-up to the stored head, each version once
            version = first
            for at, n in sorted(appends[game]):
                assert at == version, (game, at, version)
                version += n
            assert store.version(game) == version == store.info(game).version
            checked = replays.verify_game(store, game)  # re-executes every recorded action
            assert checked.events == version and checked.head == store.verify(game)
            assert sum(1 for e in store.events(game, decode=False) if e.action) == len(appends[game])


def test_a_stale_append_says_the_same_on_every_backend(tmp_path, request):
    """The message a player sees is the store's, whatever the server."""
    messages = []
    rs = rulesets.get("vendetta")
    for where in (str(tmp_path / "a.sqlite"), request.getfixturevalue("pg_url")):
        with GameStore(where) as one, GameStore(where) as two:
            _, events = rs.new_game(new_position(rs, 2, 5))
            one.create_game("duel", "vendetta", events)
            seen = two.load("duel")
            state = one.load("duel").state
            action = rs.legal_actions(state)[0]
            _, new = rs.apply(state, action)
            now = one.append("duel", seen.version, steps=[(action, new)]).version
            with pytest.raises(GameMovedOn) as refused:
                two.append("duel", seen.version, steps=[(action, new)])
            assert two.version("duel") == now
            messages.append(str(refused.value))
    assert messages[0] == messages[1] == f"game moved on since you loaded it (now at event {now}); run the command again"


@pytest.mark.parametrize("index_row", ["missing", "behind"])
def test_two_appends_after_the_same_event_one_refused_even_without_a_sound_index_row(where, index_row):
    """A command's records are one row, stored under its last record's version (``store.chunks``): two
    appends after the same event of two and one records are stored under different versions, so the events
    table does not refuse the second; the games index row, checked and written in each save's transaction,
    does.  Where that row is missing or behind the events (a hand-edited index) the game is damaged:
    neither append lands."""
    rs = rulesets.get("vendetta")
    with GameStore(where) as first, GameStore(where) as second:
        _, events = rs.new_game(new_position(rs, 2, 3))
        start = first.create_game("g", "vendetta", events)
        state, steps = start.state, []
        while sum(len(e) for _, e in steps) < 2:  # the first append: two records or more
            action = rs.legal_actions(state)[0]
            state, new = rs.apply(state, action)
            steps.append((action, new))
        index = first.index
        with index.transaction(commit=True) as c:
            if index_row == "missing":
                c.execute(index._sql(f"DELETE FROM {index.table} WHERE id = ?"), ["g"])
            else:
                c.execute(index._sql(f"UPDATE {index.table} SET version = 1 WHERE id = ?"), ["g"])
        # an index row missing or behind the events is damage (a command writes both in one transaction,
        # so they never part): a store that did not write it refuses to load the game, and of two
        # appends after the same event one at most lands
        with pytest.raises(DamagedStore):
            second.load("g")
        landed = []
        for store, these in ((first, steps), (second, [steps[0]])):
            try:
                landed.append(store.append("g", start.version, steps=these).version)
            except (DamagedStore, GameMovedOn):
                pass
        assert len(landed) <= 1
