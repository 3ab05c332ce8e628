"""Real processes: concurrent writers, a process killed mid-command, `trv demo`.

No sleeping: the two writers are lined up with pipes (each says READY once it
has loaded the game and decided its events, then waits to be released).
"""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

RUN = str(Path(__file__).resolve().parent / "run_trv.py")
ROOT = Path(__file__).resolve().parents[2]


def spawn(db, *args, fault="", **kw):
    env = {**os.environ, "TRV_TEST_FAULT": fault, "NO_COLOR": "1"}
    env.pop("TRV_GAME", None)
    return subprocess.Popen([sys.executable, RUN, "--store", str(db), *args], env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def run(db, *args, fault="", code=0):
    proc = spawn(db, *args, fault=fault)
    out, err = proc.communicate()
    assert proc.returncode == code, (args, proc.returncode, out, err)
    return out, err


def show(db):
    return json.loads(run(db, "show", "--json")[0])


@pytest.fixture(params=["sqlite", "postgresql"])
def db(tmp_path, request):
    """The same store on both backends: what one command sees of another is the same."""
    path = tmp_path / "games.sqlite" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    run(path, "new", "--ruleset", "toy", "--player", "ann:red", "--player", "bob:blue", "--seed", "4", "--name", "race")
    return path


def test_two_processes_at_the_same_version_one_wins(db):
    first = spawn(db, "turn", "--assign", "1", fault="pause-before-append")
    second = spawn(db, "decide", "add", "3", fault="pause-before-append")
    assert first.stderr.readline() == "READY\n"
    assert second.stderr.readline() == "READY\n"  # both loaded at version 1
    out1, err1 = first.communicate("go\n")
    assert first.returncode == 0, err1
    now = show(db)["version"]
    assert now > 1
    out2, err2 = second.communicate("go\n")
    assert second.returncode == 1
    assert err2 == f"Error: game moved on since you loaded it (now at event {now}); run the command again\n"
    assert out2 == ""
    log = json.loads(run(db, "log", "--json")[0])
    assert len(log) == now and log[1]["event"]["n"] == 1  # the winner's move, and only it
    run(db, "decide", "add", "3")  # running the command again works


def test_a_process_killed_inside_the_save_leaves_the_last_complete_command(db):
    run(db, "turn", "--assign", "2")
    before = show(db)
    proc = spawn(db, "turn", "--assign", "3", fault="kill-in-insert")
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    after = show(db)
    assert (after["version"], after["head"]) == (before["version"], before["head"])
    log = json.loads(run(db, "log", "--json")[0])
    assert len(log) == before["version"]
    run(db, "turn", "--assign", "3")  # and the game goes on
    assert show(db)["version"] > before["version"]


def test_a_process_killed_after_the_commit_keeps_the_command(db):
    before = show(db)
    proc = spawn(db, "turn", "--assign", "3", fault="kill-after-save")
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    after = show(db)
    assert after["version"] > before["version"]
    listed = json.loads(run(db, "games", "--json")[0])[0]
    assert (listed["id"], listed["version"]) == ("race", after["version"])  # its index row, in the same commit


@pytest.mark.parametrize("command", [["turn", "--assign", "3"], ["act"], ["undo", "--agreed"]])
def test_a_retry_with_after_of_a_command_killed_after_its_commit_does_nothing(db, command):
    """Issue 42: a retry never does a command twice.  Killed just after its commit the command landed but
    said nothing; run again with --after (the event `trv show` printed) it is refused, the game as the
    first run left it.  Without --after a retry is a new command (docs/store.md)."""
    run(db, "turn", "--assign", "2")
    seen = show(db)["version"]
    if command == ["act"]:
        command = ["act", json.dumps(json.loads(run(db, "legal", "--json")[0])[0])]
    proc = spawn(db, *command, "--after", str(seen), fault="kill-after-save")
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    landed = show(db)
    assert landed["version"] > seen
    _, err = run(db, *command, "--after", str(seen), code=1)
    assert err == (f"Error: game moved on (now at event {landed['version']}), not at event {seen} as --after says: "
                   f"nothing was done; look at `trv show` (a retry of a command that landed is refused here)\n")
    assert (show(db)["version"], show(db)["head"]) == (landed["version"], landed["head"])


def test_trv_demo_as_a_real_process(tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    env.pop("TRV_DB", None)
    env.pop("TRV_STORE", None)
    proc = subprocess.run([sys.executable, "-m", "trvendetta.cli.main", "demo", "--seed", "3", "--bot", "greedy"], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "winner: " in proc.stdout and " events, " in proc.stdout
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_killed_vendetta_turn_keeps_none_of_its_events(tmp_path, backend, request):
    """A turn is many events (assign, command, steps, road die, shot...): all or none."""
    db = tmp_path / "v.sqlite" if backend == "sqlite" else request.getfixturevalue("pg_url")
    run(db, "new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "2")
    before = show(db)
    option = before["pending"]["options"][-1]  # like "assign 5 to blue-large"
    _, die, _, car = option.split()
    args = ("turn", "--car", car, "--assign", die, "--path", "F,F,F,F,F,F", "--no-shoot")
    proc = spawn(db, *args, fault="kill-in-insert")
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    after = show(db)
    assert (after["version"], after["head"]) == (before["version"], before["head"])
    out, _ = run(db, *args)
    assert len(out.splitlines()) > 3  # the same command, run again, records its events
    assert show(db)["version"] > before["version"] + 2


def _retractions(db) -> int:
    return sum(e["kind"] == "trv-retraction" for e in json.loads(run(db, "log", "--all", "--json")[0]))


def test_an_undo_killed_inside_its_save_takes_nothing_back(db):
    """An undo's retraction, index row and any snapshot are one transaction: killed between its writes it
    leaves the game as it was (verify passes), and undo run again takes back exactly one action."""
    run(db, "turn", "--assign", "2")
    run(db, "turn", "--assign", "3")
    before = show(db)
    proc = spawn(db, "undo", "--agreed", fault="kill-in-insert")
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    after = show(db)
    assert (after["version"], after["head"]) == (before["version"], before["head"])
    assert _retractions(db) == 0
    run(db, "verify")
    run(db, "undo", "--agreed")
    assert _retractions(db) == 1 and show(db)["version"] == before["version"] + 1
    listed = json.loads(run(db, "games", "--json")[0])[0]
    assert (listed["version"], listed["head"]) == (show(db)["version"], show(db)["head"])
    run(db, "verify")


@pytest.mark.parametrize("how", ["import", "fork"])
def test_a_game_holding_an_undo_made_by_a_killed_import_or_fork_is_not_left_unlisted(db, tmp_path, how):
    """A new game whose records hold a retraction (an import, a fork) is written with its index row in one
    transaction: a kill leaves no game, and the same command run again makes it, listed by `trv games`."""
    run(db, "turn", "--assign", "2")
    run(db, "turn", "--assign", "3")
    run(db, "undo", "--agreed")
    record = tmp_path / "race.trv"
    run(db, "export", "--output", str(record))
    at = str(show(db)["version"])
    args = ("import", str(record), "--name", "copy") if how == "import" else ("fork", "race", "--at", at, "--name", "copy")
    proc = spawn(db, *args, fault="kill-in-insert")
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    assert "copy" not in [g["id"] for g in json.loads(run(db, "games", "--json")[0])]
    run(db, *args)
    listed = {g["id"]: g for g in json.loads(run(db, "games", "--json")[0])}
    assert listed["copy"]["version"] == int(at)
    run(db, "--game", "copy", "verify")
