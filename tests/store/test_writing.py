"""A save's records recorded in one loop (``writing.Batch.add_steps``: a save given the state after its
steps, ``trv sim --store``, a turn) write exactly the rows, and leave the aggregate exactly as, recording
them one by one (``Batch.add``, the path of a save that folds) does."""

import random
import sqlite3
from datetime import datetime, timezone

import pytest

from trvendetta import rulesets
from trvendetta.bots import simulate
from trvendetta.store import GameStore, RETRACTION_KIND, Retraction, StoreError, chunks
from trvendetta.store.aggregate import Game, game_uuid
from trvendetta.store.writing import Batch

STAMP = datetime(2026, 12, 1, 9, 30, 15, 123456, tzinfo=timezone.utc)
PLAYERS = [("ann", "red", "cars"), ("bob", "blue", "cars")]


def _vendetta_game(seed=3):
    """A random 4-player Vendetta game: (ruleset, set-up events, steps, the state after each step)."""
    rs = rulesets.get("vendetta")
    events, noted = [], []
    simulate(rs, 4, seed, ["random"], events_out=events, steps_out=noted)
    setup = events[: len(events) - sum(len(e) for _, e, _ in noted)]
    return rs, setup, [(a, e) for a, e, _ in noted], [s for _, _, s in noted]


def _toy_game(toy, seed=7):
    state, first = toy.new_game(toy.position_from_dict({"players": [list(p) for p in PLAYERS], "seed": seed,
                                                        "target": 60}))
    rnd, steps = random.Random(seed), []
    while not toy.is_over(state):
        action = rnd.choice(toy.legal_actions(state))
        state, new = toy.apply(state, action)
        steps.append((action, new))
    return first, steps


def _agg(rs, name="g"):
    return Game._create(Game.Created, id=game_uuid(name), timestamp=STAMP, name=name, ruleset=rs.name,
                        rules_version="1", store_schema=2)


def _one_by_one(rs, setup, steps):
    agg = _agg(rs)
    batch = Batch(agg, STAMP, fold=False, keep=False, stored_id=b"i" * 16, chunked=True)
    for event in setup:
        batch.add(rs, event)
    for step in steps:
        batch.add(rs, step[1][0], step[0], step[2] if len(step) > 2 else None)
        for event in step[1][1:]:
            batch.add(rs, event)
    batch.finish()
    return agg, batch


def _in_one_loop(rs, setup, steps, stops=()):
    """``add_steps`` over the set-up events, then the steps, stopping at each of ``stops`` (versions)."""
    agg = _agg(rs)
    batch = Batch(agg, STAMP, fold=False, keep=False, stored_id=b"i" * 16, chunked=True)
    assert batch.lean
    if setup:
        assert batch.add_steps(rs, [(None, setup)]) == 1
    done = 0
    for until in stops:  # each call records one step at least, and stops after the one reaching ``until``
        start, done = done, batch.add_steps(rs, steps, done, until)
        assert done > start and (agg.version >= until or done == len(steps))
        assert done == start + 1 or agg.version - len(steps[done - 1][1]) < until
    assert batch.add_steps(rs, steps, done) == len(steps)
    batch.finish()
    return agg, batch


def _same(one, other):
    (agg1, batch1), (agg2, batch2) = one, other
    assert batch2.rows == batch1.rows
    for field in ("count", "head", "version", "modified_on", "retracted", "stale"):
        assert getattr(agg2, field) == getattr(agg1, field), field


def test_a_vendetta_game_in_one_loop_writes_the_rows_of_one_record_at_a_time():
    rs, setup, steps, _ = _vendetta_game()
    one = _one_by_one(rs, setup, steps)
    assert len(one[1].rows) > 3 and {r.state[:1] for r in one[1].rows} == {chunks.MARK_7}
    _same(one, _in_one_loop(rs, setup, steps))
    _same(one, _in_one_loop(rs, setup, steps, stops=(40, 41, 200, 201, 202)))  # stopped and taken up again


def test_signed_steps_and_a_signature_holding_the_separator_write_the_same_rows(toy):
    first, steps = _toy_game(toy)
    asked = []

    def signer(number, previous, action):
        asked.append((number, previous, action))
        return b"ann:" + previous[:8].encode() + b"%d" % number

    signed = [(action, events, signer) for action, events in steps]
    one = _one_by_one(toy, first, signed)
    by_one, asked[:] = list(asked), []
    assert len(by_one) == len(steps)
    _same(one, _in_one_loop(toy, first, signed, stops=(10,)))
    assert asked == by_one  # each action signed after the same record number and hash

    def odd(number, previous, action):
        return b"ann:\x01" if number == 5 else b""

    odd_steps = [(action, events, odd) for action, events in steps]
    one = _one_by_one(toy, first, odd_steps)
    assert one[1].rows[0].state[:1] == chunks.MARK_6  # the chunk holding the separator
    _same(one, _in_one_loop(toy, first, odd_steps))


class _Retracting:
    """A ruleset whose events are retractions (no engine's are: a store's kind is only ever given raw), to hold
    ``add_steps`` to ``add`` for the one kind a record notes otherwise than by count and head."""

    name = "toy"
    event_schema = 1

    def __init__(self, toy):
        self.toy = toy

    def encode(self, obj):
        return self.toy.encode(obj) if not isinstance(obj, Retraction) else Retraction.__struct_encode__(obj)

    def event_kind(self, event):
        return RETRACTION_KIND if isinstance(event, Retraction) else self.toy.event_kind(event)

    def describe_action(self, action):
        return self.toy.describe_action(action)


def test_an_event_of_the_retraction_kind_is_noted_as_add_notes_it(toy):
    import msgspec

    Retraction.__struct_encode__ = staticmethod(msgspec.json.encode)
    try:
        first, steps = _toy_game(toy)
        rs = _Retracting(toy)
        steps = [*steps[:3], (steps[3][0], [*steps[3][1], Retraction(first=2, last=3, player=None)]), *steps[4:]]
        one = _one_by_one(rs, first, steps)
        assert one[0].stale and one[0].retracted == [[2, 3]]
        _same(one, _in_one_loop(rs, first, steps))
    finally:
        del Retraction.__struct_encode__


def test_a_step_without_events_is_refused_in_the_loop_too(toy):
    first, steps = _toy_game(toy)
    agg = _agg(toy)
    batch = Batch(agg, STAMP, fold=False, keep=False, stored_id=b"i" * 16, chunked=True)
    with pytest.raises(StoreError, match="produced no event"):
        batch.add_steps(toy, [steps[0], (steps[1][0], [])])


def _store_rows(db):
    con = sqlite3.connect(db)
    try:
        return {table: con.execute(f"SELECT originator_id, originator_version, topic, state FROM {table} "
                                   "ORDER BY originator_id, originator_version").fetchall()
                for table in ("stored_events", "stored_snapshots")}
    finally:
        con.close()


def test_a_game_stored_with_its_states_is_the_game_stored_folding_them(tmp_path):
    """``trv sim --store``'s save (the states given: one loop, the snapshot on the way at the state given)
    and a save that folds every event write the same rows and snapshots, byte for byte, at the same moment."""
    import eventsourcing.application  # noqa: F401  imported before the clock is frozen (tests/store/test_clock.py)
    from freezegun import freeze_time

    rs, setup, steps, states = _vendetta_game(seed=5)
    with freeze_time("2026-12-01 09:30:15.123456"):
        with GameStore(tmp_path / "given.sqlite", snapshot_interval=40) as store:
            given = store.create_game("g", rs.name, setup, steps=steps, state=states[-1], states=states)
        with GameStore(tmp_path / "folded.sqlite", snapshot_interval=40) as store:
            folded = store.create_game("g", rs.name, setup, steps=steps)
    assert given == folded
    rows = _store_rows(tmp_path / "given.sqlite")
    assert len(rows["stored_snapshots"]) >= 3  # the components, one on the way, one at the end
    assert rows == _store_rows(tmp_path / "folded.sqlite")
