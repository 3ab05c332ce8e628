"""Undo without erasing, forks, and time travel (--at, replay) over them."""

import json
import random

import pytest

from trvendetta import replays
from trvendetta.store import GameStore
from replay_helpers import new_game, play
from trvendetta import rulesets
from trvendetta.core.errors import TrvError


def _play_until_undo(store, name, want, seed):
    """Random actions until ``want(refusal)`` holds for the last action (refusal: None or the reason)."""
    chooser = random.Random(seed)
    for _ in range(400):
        play(store, name, chooser, actions=1)
        try:
            _, group, _ = replays.plan_undo(store, name, agreed=False)
            refusal = None
        except TrvError as exc:
            refusal = str(exc)
        if want(refusal):
            return refusal
    pytest.fail("no such position found")


def test_undo_takes_back_the_last_action_and_keeps_it_in_the_store(tmp_path, trv):
    db = tmp_path / "a.sqlite"
    with GameStore(db) as store:
        new_game(store, "g", "vendetta", seed=7)
        _play_until_undo(store, "g", lambda refusal: refusal is None, seed=7)
        _, group, _ = replays.plan_undo(store, "g", agreed=False)
        before = store.load("g", at=group.first - 1).state
        version = store.version("g")
    out = trv(db, "undo").stdout
    span = f"event {group.first}" if group.first == group.last else f"events {group.first}-{group.last}"
    assert "takes back" in out and f"{span} retracted" in out
    with GameStore(db) as store:
        assert store.load("g").state == before
        assert store.version("g") == version + 1  # the retraction is a record; nothing erased
        assert store.retracted("g") == set(range(group.first, group.last + 1))
        assert store.load("g", at=group.last).state != before  # time travel still sees what happened
    log = trv(db, "log").stdout
    assert f"{group.first:>5}." not in log and "takes back" not in log
    full = trv(db, "log", "--all").stdout
    assert f"{group.first:>5}." in full and "[retracted]" in full and "takes back events" in full
    rows = json.loads(trv(db, "log", "--all", "--json").stdout)
    assert [r["n"] for r in rows if r["retracted"]] == list(range(group.first, group.last + 1))
    assert rows[group.first - 1]["action"] is not None
    # play on, then the whole history (with its retraction) verifies and travels by export/import
    with GameStore(db) as store:
        play(store, "g", random.Random(3), actions=5)
        head, count = store.load("g").head, store.version("g")
    assert trv(db, "verify").stdout.splitlines()[0] == f"OK: {count} events, head {head}"
    trv(db, "export", "-o", tmp_path / "g.trv")
    trv(tmp_path / "b.sqlite", "import", tmp_path / "g.trv")
    assert head in trv(tmp_path / "b.sqlite", "verify", "g").stdout
    with GameStore(db) as a, GameStore(tmp_path / "b.sqlite") as b:
        assert a.load("g").state == b.load("g").state
        assert a.retracted("g") == b.retracted("g")


def test_undo_is_refused_past_revealed_information_unless_agreed(tmp_path, trv):
    db = tmp_path / "a.sqlite"
    with GameStore(db) as store:
        new_game(store, "g", "vendetta", seed=5)
        refusal = _play_until_undo(store, "g", lambda r: r is not None and "revealed" in r, seed=5)
        version = store.version("g")
    err = trv(db, "undo", code=1).stderr
    assert "revealed new information" in err and "--agreed" in err
    with GameStore(db) as store:
        assert store.version("g") == version  # nothing written
    assert "(agreed)" in trv(db, "undo", "--agreed").stdout
    assert "(agreed)" in trv(db, "log", "--all").stdout
    assert trv(db, "verify").stdout.startswith("OK: ")
    assert refusal


def test_undo_across_players_needs_agreement_and_nothing_to_undo_is_said(tmp_path, trv, toy):
    db = tmp_path / "a.sqlite"
    with GameStore(db) as store:
        new_game(store, "g", "toy", seed=2)
    assert "no action to take back" in trv(db, "undo", code=1).stderr
    trv(db, "decide", "add", "2")  # ann adds: the decision passes to bob
    assert "waits on bob" in trv(db, "undo", code=1).stderr
    trv(db, "undo", "--agreed")
    assert "waiting on ann" in trv(db, "legal").stdout or "ann:" in trv(db, "legal").stdout
    assert trv(db, "verify").stdout.startswith("OK: 3 events")


def test_a_forged_retraction_of_revealed_information_fails_verification(toy):
    """verify re-checks each retraction against the undo rule."""
    from trvendetta.store import RETRACTION_KIND, RawRecord, Retraction, encode_retraction

    store = GameStore(":memory:")
    new_game(store, "g", "toy", seed=2)
    play(store, "g", random.Random(2), actions=1)
    bad = Retraction(2, store.version("g"), "ann", agreed=False)  # bob is to play: not ann's to take back
    store.append("g", store.version("g"), records=[RawRecord(RETRACTION_KIND, 1, encode_retraction(bad))])
    with pytest.raises(replays.Divergence, match="should have been refused"):
        replays.verify_game(store, "g")


def test_projections_skip_retracted_events_across_snapshots_and_reopening(tmp_path, toy):
    path = tmp_path / "snap.sqlite"
    with GameStore(path, snapshot_interval=3) as store:
        new_game(store, "g", "toy", seed=9, players=[("ann", "red", "cars"), ("bob", "blue", "cars")])
        chooser = random.Random(9)
        for _ in range(4):
            play(store, "g", chooser, actions=3)
            replays.undo(store, "g", agreed=True)
        play(store, "g", chooser, actions=3)
        records = store.events("g")
    walker = replays.Walker(toy, reexecute=True).walk(records)
    with GameStore(path, snapshot_interval=3) as store:
        assert store.load("g").state == walker.state
        for n in range(1, len(records) + 1):
            state, _ = replays.state_at(toy, records, n)
            assert store.load("g", at=n).state == state, n
        assert toy.version(store.load("g").state) == len(records) - len(walker.retracted) - len(walker.retractions)


def test_fork_shares_history_up_to_n_and_leaves_the_original_untouched(tmp_path, trv):
    db = tmp_path / "a.sqlite"
    with GameStore(db) as store:
        new_game(store, "g", "vendetta", seed=4)
        play(store, "g", random.Random(4), actions=40)
        records = store.events("g")
        head, version = store.load("g").head, store.version("g")
    walker = replays.Walker(rulesets.get("vendetta")).walk(records)
    at = walker.live_actions[len(walker.live_actions) // 2].last
    out = trv(db, "fork", "g", "--at", at, "--name", "what-if").stdout
    assert out.startswith("what-if\n") and f"after event {at}" in out
    with GameStore(db) as store:
        assert (store.load("g").head, store.version("g")) == (head, version)
        mine = store.events("what-if")
        assert [(r.payload, r.action, r.hash) for r in mine] == [(r.payload, r.action, r.hash) for r in records[:at]]
        meta = store.header("what-if")
        assert (meta.parent, meta.parent_at, meta.parent_head) == ("g", at, records[at - 1].hash)
        assert store.load("what-if").state == store.load("g", at=at).state
        play(store, "what-if", random.Random(99), actions=5)
    shown = json.loads(trv(db, "show", "--json", "--at", at, "--game", "g").stdout)
    forked = json.loads(trv(db, "show", "--json", "--at", at, "--game", "what-if").stdout)
    assert {k: v for k, v in shown.items() if k != "game"} == {k: v for k, v in forked.items() if k != "game"}
    assert trv(db, "verify", "what-if").stdout.startswith("OK: ")
    record = trv(db, "export", "what-if").stdout
    assert '[Parent "g"]' in record and f'[ParentAt "{at}"]' in record
    (tmp_path / "w.trv").write_text(record, "utf-8")
    trv(tmp_path / "b.sqlite", "import", tmp_path / "w.trv")
    with GameStore(tmp_path / "b.sqlite") as other:
        assert other.header("what-if").parent == "g"


def test_fork_inside_an_action_forks_before_it_and_says_so(tmp_path, trv):
    db = tmp_path / "a.sqlite"
    with GameStore(db) as store:
        new_game(store, "g", "vendetta", seed=4)
        play(store, "g", random.Random(4), actions=10)
        walker = replays.Walker(rulesets.get("vendetta")).walk(store.events("g"))
    group = next(g for g in walker.live_actions if g.last > g.first)
    out = trv(db, "fork", "g", "--at", group.first, "--name", "x").stdout
    assert f"event {group.first} is inside {group.player}'s " in out
    assert f"(events {group.first}-{group.last}): forked after event {group.first - 1}, before it " \
           f"(--at {group.last}: after it)" in out
    with GameStore(db) as store:
        assert store.header("x").parent_at == group.first - 1
        with pytest.raises(TrvError, match=f"fork at {group.first - 1} or {group.last}"):
            replays.fork(store, "g", group.first, "y")  # the library's strict fork still refuses
        assert not store.exists("y")
    doc = json.loads(trv(db, "fork", "g", "--at", 5, "--name", "z", "--json").stdout)
    assert (doc["game"], doc["parent"], doc["asked"], doc["current"]) == ("z", "g", 5, "g")
    assert doc["at"] > 5 and doc["moved"].startswith("event 5 is inside the set-up")
