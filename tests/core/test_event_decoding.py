"""``Ruleset.decode_event`` decodes by each event type's own decoder (core/protocol.py):
it must give what the decoder of the whole event union gives, event for event and error
for error, whatever the process decoded before."""

import random
import re

import msgspec
import pytest

from trvendetta import rulesets
from trvendetta.bots import simulate


def _outcome(decode, data: bytes):
    try:
        return decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("name", ["vendetta", "carnival", "classic"])
def test_an_event_decodes_as_the_event_union_decodes_it(name):
    rs = rulesets.get(name)
    events: list = []
    simulate(rs, 2, 11, ["random"], events_out=events)
    payloads = [rs.encode(e) for e in events]
    union = msgspec.json.Decoder(rs.event_type).decode
    fresh = type(rs)()  # its own decoders, none built yet
    assert [fresh.decode_event(p) for p in payloads] == events
    assert fresh._union is None  # the union's decoder never built: every payload opened with its tag
    rng = random.Random(name)
    alphabet = b'{}[]":,0123456789abcdefghijklmnopqrstuvwxyz-_ \\'
    for _ in range(3000):
        data = bytearray(rng.choice(payloads))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(data))
            if rng.random() < 0.5:
                data[at] = rng.choice(alphabet)
            else:
                data[at:at + 1] = b""
        assert _outcome(fresh.decode_event, bytes(data)) == _outcome(union, bytes(data)), bytes(data)
    for data in payloads:  # a number written as a string, a field added: refused alike
        for changed in (re.sub(rb':(\d+)', rb':"\1"', data, count=1), data[:-1] + b',"extra":1}'):
            assert _outcome(fresh.decode_event, changed) == _outcome(union, changed), changed
    tag = type(events[-1]).__struct_config__.tag
    again = rs.encode(events[-1]).replace(f'"{tag}"'.encode(), b'"no-such-kind"', 1)
    assert _outcome(fresh.decode_event, again) == _outcome(union, again)
    assert fresh.decode_event(payloads[0].decode()) == events[0]  # text as well as bytes


def test_a_long_read_decodes_as_a_short_one():
    """No decoder is switched by how much a process has read: the thousandth event decodes
    the way the first did, through its own type's decoder."""
    rs = rulesets.get("vendetta")
    events: list = []
    while len(events) < 2000:
        simulate(rs, 2, len(events), ["random"], events_out=events)
    fresh = type(rs)()
    assert [fresh.decode_event(rs.encode(e)) for e in events] == events
    assert fresh._union is None


@pytest.mark.parametrize("name", ["vendetta", "carnival", "classic"])
def test_a_rulesets_encoder_gives_its_encodes_bytes_and_an_encode_of_its_own_is_kept(name):
    """``Ruleset.encoder`` (``trv verify`` encodes every event through it) is ``encode`` as one callable: the
    same bytes, and a ruleset that encodes in a way of its own keeps it."""
    rs = rulesets.get(name)
    events: list = []
    simulate(rs, 2, 5, ["random"], events_out=events)
    assert [rs.encoder(e) for e in events] == [rs.encode(e) for e in events]

    class Own(type(rs)):
        def encode(self, obj):
            return b"own:" + super().encode(obj)

    own = Own()
    assert own.encoder(events[0]) == b"own:" + rs.encode(events[0])
