"""The store records each action with its events, chained; retractions; forks' parents."""

import hashlib

import pytest

from trvendetta.store import GENESIS, GameStore, RawRecord, Retraction, StoreError, chain
from trvendetta.core.errors import TrvError


def _started(toy, seed=1):
    return toy.new_game(toy.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], seed))


def test_each_action_rides_on_its_first_event_and_is_hashed(toy, db):
    state, events = _started(toy)
    with GameStore(db) as store:
        store.create_game("g", "toy", events)
        action = toy.legal_actions(state)[0]
        state, new = toy.apply(state, action)
        store.append("g", 1, steps=[(action, new)])
        records = store.events("g")
    assert [r.action for r in records] == [b"", toy.encode(action)] + [b""] * (len(new) - 1)
    assert records[1].decoded_action == action
    body = toy.encode(action) + b"\n" + records[1].payload
    assert records[1].hash == hashlib.sha256(bytes.fromhex(records[0].hash) + body).hexdigest()
    assert records[0].hash == chain(GENESIS, records[0].payload)  # no action: the old formula


def test_verify_names_an_edited_action(toy, db):
    from tamper import edit_record  # tests/ is on sys.path (rootdir conftest)

    state, events = _started(toy)
    with GameStore(db) as store:
        store.create_game("g", "toy", events)
        action = toy.legal_actions(state)[0]
        store.append("g", 1, steps=[(action, toy.apply(state, action)[1])])
        record = store.events("g")[1]
    assert record.action == b'{"type":"add","n":1}'

    def edit(doc: dict) -> None:
        doc["action"] = doc["action"].replace(":1}", ":2}")

    # an attacker edits the file behind the store's back (the store itself never updates a row)
    assert edit_record(db, record.hash, edit) == 1
    with GameStore(db) as store, pytest.raises(TrvError, match="hash chain broken at event 2"):
        store.verify("g")


def test_an_action_without_events_is_refused_and_nothing_written(toy):
    state, events = _started(toy)
    store = GameStore(":memory:")
    store.create_game("g", "toy", events)
    with pytest.raises(StoreError, match="produced no event"):
        store.append("g", 1, steps=[(toy.legal_actions(state)[0], [])])
    assert store.version("g") == 1


def test_a_retraction_is_a_record_and_projections_fold_live_events_only(toy, db):
    state0, events = _started(toy)
    with GameStore(db, snapshot_interval=2) as store:
        store.create_game("g", "toy", events)
        action = toy.legal_actions(state0)[0]
        state1, new = toy.apply(state0, action)
        store.append("g", 1, steps=[(action, new)])
        v = store.version("g")
        loaded = store.retract("g", v, Retraction(2, v, "ann", agreed=True))
        assert loaded.version == v + 1 and loaded.state == state0
        assert store.retracted("g") == set(range(2, v + 1))
        assert store.load("g", at=v).state == state1
        # the same action again: the same RNG (the live count is the same), new numbers
        again = store.append("g", v + 1, steps=[(action, new)])
        assert again.state == state1 and again.version == v + 1 + len(new)
    with GameStore(db, snapshot_interval=2) as store:  # from snapshots, after reopening
        snaps = store.snapshots("g")
        assert snaps and snaps[-1].state is not None and snaps[-1].problem is None  # refolded, not empty
        assert store.load("g").state == state1
        assert store.load("g", at=v + 1).state == state0


def test_raw_records_and_fork_parents(toy):
    state, events = _started(toy)
    store = GameStore(":memory:")
    store.create_game("g", "toy", events)
    recs = store.events("g")
    copy = store.create_game("h", "toy", records=[RawRecord(r.kind, r.schema, r.payload, r.action) for r in recs],
                             parent="g", parent_at=1, parent_head=recs[0].hash)
    assert copy.head == recs[0].hash and copy.state == store.load("g").state
    meta = store.header("h")
    assert (meta.parent, meta.parent_at, meta.parent_head, meta.rules_version) == ("g", 1, recs[0].hash, "1")
    assert store.header("g").parent == ""
