"""A Carnival game recorded under rules version 1 (by main at a2bac5e, before
Killer Pillar could be played in the middle of an effect) re-executes and
verifies under its own version, and its log reads as it did then (but for the
sentences corrected since, ``tests/corrected.py``).

``tests/fixtures/carnival-v1-a2bac5e/g5.trv``: three bots on the Slaytona
side, seed 5; ``g5.log.txt``: what ``trv log`` printed then.  In it a damage
effect skids a car on the turn of a player holding party favors, which rules
version 2 would pause for them: the record holds no pause, so it verifies only
because re-execution sets the game up under the version it recorded."""

from pathlib import Path

import pytest

from corrected import as_said_now  # tests/ is on sys.path (rootdir conftest)

from trvendetta import replays
from trvendetta.vendetta import events as vev

from .helpers import RS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "carnival-v1-a2bac5e"


def _events(gf):
    out = []
    for r in gf.records:
        try:
            out.append(RS.decode_event(r.payload))
        except Exception:  # noqa: BLE001  (a record that is not an engine event)
            continue
    return out


def test_a_version_1_record_verifies_and_logs_as_it_did_then():
    gf = replays.read_file((FIXTURES / "g5.trv").read_bytes(), "g5.trv")
    verified = replays.verify_file(gf)
    events = _events(gf)
    assert verified.walker.number == len(events) and events[0].rules_version == "1"
    assert verified.note == ""  # a version this trv re-executes: nothing to warn about, and it imports
    lines = [f"{n:>5}. {RS.describe(e)}" for n, e in enumerate(events, 1)]
    assert "\n".join(lines) + "\n" == as_said_now((FIXTURES / "g5.log.txt").read_text(), carnival=True)
    # what version 2 would have paused for: a skid on the turn of a player holding favors
    state, paused = RS.initial_state(), 0
    for e in events:
        if isinstance(e, vev.DamageDrawn) and e.token.startswith("skid-") and state.favors.get(state.turn.player):
            paused += 1
        state = RS.evolve(state, e)
    assert paused >= 1 and state.rules_version == "1" and RS.is_over(state)


V3 = Path(__file__).resolve().parent.parent / "fixtures" / "carnival-v3-ed00572"


@pytest.mark.parametrize("name", ["sim-carnival-4p-211", "sim-carnival-2p-314"])
def test_a_version_3_record_verifies_and_logs_as_it_did_then(name):
    """Two bot games recorded by main at ed00572 under rules version 3 (the Energizer after a hit,
    a Thwumper's jump named before its roll, shots counted under In the Mood for Mayhem!):
    they re-execute under version 3, byte for byte, and log as then but for the sentences rules
    version 4's wording corrects (``tests/corrected.py``)."""
    gf = replays.read_file((V3 / f"{name}.trv").read_bytes(), f"{name}.trv")
    verified = replays.verify_file(gf)
    events = _events(gf)
    assert verified.walker.number == len(events) and events[0].rules_version == "3" and verified.note == ""
    lines = [f"{n:>5}. {RS.describe(e)}" for n, e in enumerate(events, 1)]
    then = (V3 / f"{name}.log.txt").read_text()
    assert "\n".join(lines) + "\n" == as_said_now(then, carnival=True)
    assert as_said_now(then, carnival=True) != then  # the corrected sentences are in it
