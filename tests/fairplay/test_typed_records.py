"""The typed readers of fair-play records the record tools use (found by the whole-tree type check):
a game without a charter, asked for one, is one clear error (it was an AttributeError on None); a draw
record is decoded as the one type its kind names, and a record of another kind is refused; a time
control's reserve is read through ``reserve_time``; a quoted line of mail loses its quote marks."""

from datetime import timedelta

import msgspec
import pytest

from trvendetta.core.errors import TrvError
from trvendetta.core.fairplay import Charter, HostReveal, Intent, Reveal, charter_of, decode_draw_as, encode_draw
from trvendetta.replays.exchange import Draws
from trvendetta.replays.host import HostDraws
from trvendetta.replays.mail import armor, unwrap
from trvendetta.replays.timecontrol import TimeControl, deadline_for, parse_time_control

HEX = "ab" * 32


def test_a_game_without_a_charter_is_named_not_an_attribute_error():
    for make in (Draws, HostDraws, charter_of):
        with pytest.raises(TrvError, match="this game has no charter"):
            make("")


def test_a_charter_is_taken_as_it_is_or_decoded_from_its_text():
    charter = Charter(seats={"ann": HEX})
    assert charter_of(charter) is charter
    assert charter_of(msgspec.json.encode(charter).decode()) == charter


def test_a_draw_record_decodes_as_its_own_kind_only():
    intent = Intent(seat="ann", draw=2, reveal=HEX)
    assert decode_draw_as(encode_draw(intent), Intent) == intent
    with pytest.raises(msgspec.ValidationError):
        decode_draw_as(encode_draw(intent), Reveal)  # an intent is no reveal, though the fields match
    with pytest.raises(msgspec.ValidationError):
        decode_draw_as(encode_draw(HostReveal(seed=HEX, salt=HEX)), Intent)


def test_a_reserve_control_reads_its_reserve():
    control = parse_time_control("7d+1d")
    assert control.reserve_time == timedelta(days=7)
    assert str(control) == "7d+1d"
    assert control.describe() == "a reserve of 7d, plus 1d an answer"
    with pytest.raises(ValueError, match="neither a time an answer nor a reserve"):
        TimeControl().reserve_time


def test_deadline_of_a_reserve_control_counts_answers_and_time_used():
    from datetime import datetime, timezone

    since = datetime(2026, 12, 1, 12, tzinfo=timezone.utc)
    control = parse_time_control("2d+1d")
    assert deadline_for(control, since, "ann", {"ann": timedelta(days=1)}, {"ann": 2}) == since + timedelta(days=3)


def test_a_quoted_armoured_block_is_read_through_its_quote_marks():
    block = armor('{"packet": 1}', ["1. ann moves"])
    quoted = "".join(f"> >{line}\r\n" for line in block.splitlines()).encode()
    assert unwrap(block.encode(), 1000) == unwrap(quoted, 1000) == b'{"packet": 1}'

