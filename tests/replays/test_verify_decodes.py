"""What ``trv verify`` decodes of a stored game: it re-runs the actions and compares the recomputed
events' bytes and the fold's with the stored ones, so it decodes only what the rules need to start from
(event 1, the set-up) and the actions; a stored event's payload or a snapshot's state is decoded only
to explain a difference (``Walker.feed``, ``integrity.store_damage``)."""

import pytest

from trvendetta import replays, rulesets
from trvendetta.bots import new_position, simulate
from trvendetta.store import GameStore


@pytest.fixture
def counted(monkeypatch):
    rs = rulesets.get("vendetta")
    calls = {"decode_event": 0, "decode_state": 0, "decode_action": 0}
    for name in calls:
        real = getattr(rs, name)

        def counting(*args, _real=real, _name=name):
            calls[_name] += 1
            return _real(*args)

        monkeypatch.setattr(rs, name, counting)
    return rs, calls


def test_verify_decodes_the_set_up_and_the_actions_only(tmp_path, counted):
    rs, calls = counted
    steps: list = []
    simulate(rs, 4, 3, ["random"], steps_out=steps)
    with GameStore(str(tmp_path / "g.sqlite"), snapshot_interval=100) as store:
        state, first = rs.new_game(new_position(rs, 4, 3))
        version = store.create_game("g", rs.name, first).version
        for action, events, after in steps:  # turn by turn, as `trv turn` stores a game
            version = store.append("g", version, steps=[(action, events)], state=after).version
        snapshots = len(store.snapshots("g"))
        for name in calls:
            calls[name] = 0
        verified = replays.verify_game(store, "g")
    assert verified.events == version and snapshots >= 2
    assert (calls["decode_event"], calls["decode_state"]) == (1, 0)
    assert 0 < calls["decode_action"] <= len(steps)  # (a read may decode an action met before only once)
