"""Game records: export, import, verify, the move notation, claims, untrusted input."""

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from trvendetta import replays
from trvendetta.store import GameStore
from trvendetta.replays.record import FileError
from trvendetta.replays.walker import AuditError
from trvendetta import rulesets
from trvendetta.core.errors import TrvError

from replay_helpers import full_game, new_game, play

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("ruleset", ["vendetta", "classic"])
def test_full_game_exported_and_imported_verifies_with_the_same_head(tmp_path, trv, ruleset):
    a, b, record = tmp_path / "a.sqlite", tmp_path / "b.sqlite", tmp_path / "g.trv"
    head = full_game(a, ruleset, seed=3)
    assert trv(a, "verify", "g").stdout.startswith(f"OK: ")
    trv(a, "export", "g", "-o", record)
    text = record.read_text("utf-8")
    version = rulesets.get(ruleset).rules_version
    assert f'[Head "{head}"]' in text and f'[Ruleset "{ruleset}"]' in text and f'[RulesVersion "{version}"]' in text
    out = trv(b, "import", record).stdout
    assert head in out
    ok_a = trv(a, "verify", "g").stdout.splitlines()[0]
    ok_b = trv(b, "verify", "g").stdout.splitlines()[0]
    assert ok_a == ok_b == trv(b, "verify", record).stdout.splitlines()[0]
    assert ok_a.endswith(head)
    with GameStore(a) as sa, GameStore(b) as sb:
        ea, eb = sa.events("g"), sb.events("g")
        assert [(r.payload, r.action, r.hash) for r in ea] == [(r.payload, r.action, r.hash) for r in eb]
        assert sa.load("g").state == sb.load("g").state
    # the same record again: nothing new in it, no error (it applies like a packet over the same game)
    assert "already applied" in trv(b, "import", record).stdout


@pytest.mark.parametrize("ruleset", ["vendetta", "classic", "toy"])
def test_move_text_round_trips_through_the_rules(toy, ruleset):
    store = GameStore(":memory:")
    new_game(store, "g", ruleset, seed=5)
    play(store, "g", random.Random(5))
    gf = replays.read_file(replays.export(store, "g").encode())
    rs = rulesets.get(ruleset)
    setup = rs.start(gf.records and rs.decode_event(gf.records[0].payload).position)
    actions = replays.parse_movetext(rs, rs.fold(setup), gf.moves)
    assert actions == [r.decoded_action for r in store.events("g") if r.action]
    walker = replays.verify_file(gf).walker
    assert replays.movetext(rs, walker.live_actions) == gf.moves


def test_move_text_errors_name_the_move(toy):
    rs = toy
    state = rs.fold(rs.start(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 1)))
    with pytest.raises(TrvError, match="'add 9' is not legal"):
        replays.parse_movetext(rs, state, "1. ann: add 9")
    with pytest.raises(TrvError, match="waits on ann"):
        replays.parse_movetext(rs, state, "1. bob: add 1")


def test_two_processes_replaying_one_record_get_the_same_head(tmp_path):
    full_game(tmp_path / "a.sqlite", "vendetta", seed=2)
    with GameStore(tmp_path / "a.sqlite") as store:
        (tmp_path / "g.trv").write_text(replays.export(store, "g"), "utf-8")
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from trvendetta import replays;"
            "gf = replays.read_file(open(sys.argv[2], 'rb').read()); print(replays.verify_file(gf).head)")
    heads = {subprocess.run([sys.executable, "-c", code, str(ROOT), str(tmp_path / "g.trv")], capture_output=True,
                            text=True, check=True).stdout for _ in range(2)}
    assert len(heads) == 1 and len(heads.pop().strip()) == 64


def _toy_record(seed=1, actions=None):
    store = GameStore(":memory:")
    new_game(store, "g", "toy", seed=seed)
    play(store, "g", random.Random(seed), actions=actions)
    return store, replays.export(store, "g").encode()


def test_every_single_byte_edit_of_the_event_section_is_detected(toy):
    _, data = _toy_record(seed=4)
    start = data.index(b"\n% events\n") + len(b"\n% events\n")
    assert len(data) - start < 4000
    originals = replays.read_file(data)
    assert replays.verify_file(originals).events > 10
    for i in range(start, len(data)):
        for new in {data[i] ^ 0x01, ord("0") if data[i] != ord("0") else ord("1")}:
            edited = data[:i] + bytes([new]) + data[i + 1 :]
            with pytest.raises(TrvError) as err:
                replays.verify_file(replays.read_file(edited))
            assert re.search(r"event \d+", str(err.value)), (i, chr(new), str(err.value))


def test_an_edited_record_is_refused_by_import_and_nothing_is_written(tmp_path, trv, toy):
    _, data = _toy_record(seed=4)
    line = next(l for l in data.split(b"\n") if l.startswith(b"3 "))
    edited = data.replace(line, line.replace(b'"n":', b'"n": '))
    (tmp_path / "bad.trv").write_bytes(edited)
    err = trv(tmp_path / "b.sqlite", "import", tmp_path / "bad.trv", code=1).stderr
    assert "event 3:" in err and "hash does not follow" in err
    assert "no game" in trv(tmp_path / "b.sqlite", "verify", "g", code=1).stderr


def test_a_consistently_rehashed_forgery_is_caught_by_re_execution(toy):
    """Someone edits a roll and recomputes the whole chain: the rules disagree."""
    from trvendetta.store import chain

    store, data = _toy_record(seed=4)
    gf = replays.read_file(data)
    records = list(gf.records)
    target = next(r for r in records if b'"bonus":0' in r.payload)
    head = "0" * 64
    forged = []
    for r in records:
        payload = r.payload.replace(b'"bonus":0', b'"bonus":1') if r is target else r.payload
        head = chain(head, payload, r.action)
        forged.append(r._replace(payload=payload, hash=head))
    with pytest.raises(replays.Divergence) as err:
        replays.Walker(toy, reexecute=True).walk(forged)
    text = str(err.value)
    assert f"event {target.number} differs" in text and "recorded:" in text and "recomputed:" in text
    assert "bonus is 1 in the record but 0 when recomputed" in text


def test_claim_with_one_wrong_car_position_is_pinpointed(tmp_path, trv):
    db = tmp_path / "a.sqlite"
    with GameStore(db) as store:
        new_game(store, "g", "vendetta", seed=6)
        play(store, "g", random.Random(6), actions=40)
    trv(db, "export", "g", "-o", tmp_path / "g.trv")
    board = json.loads(trv(db, "show", "--json").stdout)
    (tmp_path / "right.json").write_text(json.dumps(board))
    assert "claim matches" in trv(db, "verify", tmp_path / "g.trv", "--claim", tmp_path / "right.json").stdout
    moved = next(v for v in board["vehicles"] if v["at"] not in ("start", None))
    real = moved["at"]
    moved["at"] = "a1" if real != "a1" else "b2"
    (tmp_path / "wrong.json").write_text(json.dumps(board))
    err = trv(db, "verify", tmp_path / "g.trv", "--claim", tmp_path / "wrong.json", code=1).stderr
    assert f"vehicle {moved['id']}: the claim has at \"{moved['at']}\"" in err
    assert f"the record has at \"{real}\"" in err
    # the same against the stored game
    err = trv(db, "verify", "g", "--claim", tmp_path / "wrong.json", code=1).stderr
    assert f"vehicle {moved['id']}" in err


def test_a_claim_at_an_earlier_event_is_compared_with_that_event(tmp_path, trv):
    db = tmp_path / "a.sqlite"
    with GameStore(db) as store:
        new_game(store, "g", "vendetta", seed=6)
        play(store, "g", random.Random(6), actions=30)
    early = json.loads(trv(db, "show", "--json", "--at", "20").stdout)
    (tmp_path / "early.json").write_text(json.dumps(early))
    assert "after event 20" in trv(db, "verify", "g", "--claim", tmp_path / "early.json").stdout


def test_other_rules_version_is_said_plainly(tmp_path, trv, toy):
    _, data = _toy_record(seed=2)
    other = data.replace(b'[RulesVersion "1"]', b'[RulesVersion "0.9"]')
    (tmp_path / "old.trv").write_bytes(other)
    out = trv(tmp_path / "b.sqlite", "verify", tmp_path / "old.trv").stdout
    assert out.startswith("OK: ") and "rules versions differ" in out
    err = trv(tmp_path / "b.sqlite", "import", tmp_path / "old.trv", code=1).stderr
    assert "version 0.9" in err and "versions differ" in err


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d.replace(b'[Seed "', b'[Colour "x"]\n[Seed "'), "unknown field `Colour`"),
        (lambda d: re.sub(rb'\[Events "\d+"\]', b'[Events "many"]', d), "$.Events"),
        (lambda d: re.sub(rb'\[Head "[0-9a-f]+"\]', b'[Head "abc"]', d), "$.Head"),
        (lambda d: d.replace(b"% trvendetta record 1", b"% chess pgn"), "not '% trvendetta record 1'"),
        (lambda d: d.replace(b"\n% events\n", b"\n% evens\n"), "no '% events' line"),
        (lambda d: d.replace(b"add 1", b"add 3", 1), "move text does not match"),
        (lambda d: b"\xff\xfe" + d, "not UTF-8"),
    ],
)
def test_untrusted_files_are_refused_with_one_clear_message(tmp_path, trv, toy, edit, message):
    _, data = _toy_record(seed=3)
    if b"add 1" not in data and message.startswith("move text"):
        pytest.skip("no 'add 1' in this game")
    (tmp_path / "x.trv").write_bytes(edit(data))
    err = trv(tmp_path / "b.sqlite", "import", tmp_path / "x.trv", code=1).stderr
    assert message in err, err
    assert err.count("\n") == 1


def test_oversize_files_are_refused_before_reading(tmp_path, trv, monkeypatch):
    from trvendetta.replays import record

    monkeypatch.setattr(record, "MAX_FILE_BYTES", 100)  # the one limit: the CLI reads it from there
    import trvendetta.cli.replay as cli_replay

    assert not hasattr(cli_replay, "MAX_FILE_BYTES")  # a copy taken at import would outlive this patch
    (tmp_path / "big.trv").write_bytes(b"x" * 101)
    assert "at most 100" in trv(tmp_path / "b.sqlite", "import", tmp_path / "big.trv", code=1).stderr
    with pytest.raises(FileError, match="at most 100"):
        replays.read_file(b"x" * 101)


def test_a_game_stored_without_its_actions_cannot_be_verified(toy):
    store = GameStore(":memory:")
    rs = toy
    state, events = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 1))
    state, more = rs.apply(state, rs.legal_actions(state)[0])
    store.create_game("old", "toy", [*events, *more])
    with pytest.raises(AuditError, match="actions were not recorded"):
        replays.verify_game(store, "old")


def test_replay_steps_through_events_without_waiting_off_a_terminal(tmp_path, trv, toy):
    db = tmp_path / "a.sqlite"
    with GameStore(db) as store:
        new_game(store, "g", "toy", seed=1)
        play(store, "g", random.Random(1), actions=6)
    out = trv(db, "replay", "g", "--from", "2", "--to", "4", "--delay", "1000").stdout
    numbers = re.findall(r"^\s+(\d+)\. ", out, re.M)
    assert numbers == ["2", "3", "4"]
    assert "race to 10" in out and ": add " in out


def test_export_to_stdout_and_every_new_command_has_help(tmp_path, trv, toy):
    db = tmp_path / "a.sqlite"
    with GameStore(db) as store:
        new_game(store, "g", "toy", seed=1)
    out = trv(db, "export").stdout
    assert out.startswith("% trvendetta record 1\n") and out.endswith("% end\n")
    for command in ("export", "import", "replay", "undo", "fork", "verify"):
        assert "Examples:" in trv(db, command, "--help").stdout


def test_doc_example_is_the_record_of_trv_demo_seed_1(tmp_path, trv):
    """docs/notation.md shows the real record of `trv demo --seed 1 --bot greedy` (header and moves)."""
    db = tmp_path / "demo.sqlite"
    trv(db, "demo", "--seed", "1", "--bot", "greedy", "--quiet")
    text = trv(db, "export", "demo-1").stdout
    doc = (ROOT / "docs" / "notation.md").read_text("utf-8")
    example = doc.split("```trv\n", 1)[1].split("```", 1)[0]
    mine = text.split("\n% events\n")[0]
    theirs = example.split("\n% events\n")[0]
    strip = lambda t: re.sub(r'\[Created "[^"]*"\]\n', "", t)  # noqa: E731
    assert strip(mine) == strip(theirs)
    # the doc shows event 1's components (6 kB of tiles, dice and tokens) as {...}
    lines = [re.sub(r',"components":\{.*\}\}$', ',"components":{...}}', t) for t in text.splitlines()]
    for line in example.split("\n% events\n")[1].splitlines():
        if line[:1].isdigit() or line.startswith("> "):
            assert line in lines, line


@pytest.mark.parametrize("tag, value", [("Result", "bob wins"), ("Players", "ann, eve"), ("Seed", "8")])
def test_a_header_that_contradicts_the_events_is_refused(tmp_path, trv, toy, tag, value):
    _, data = _toy_record(seed=3)
    edited = re.sub(rf'\[{tag} "[^"]*"\]'.encode(), f'[{tag} "{value}"]'.encode(), data)
    (tmp_path / "x.trv").write_bytes(edited)
    assert f"the header's {tag} says" in trv(tmp_path / "b.sqlite", "verify", tmp_path / "x.trv", code=1).stderr


def test_fork_and_import_names_are_checked(tmp_path, trv, toy):
    db = tmp_path / "a.sqlite"
    with GameStore(db) as store:
        new_game(store, "g", "toy", seed=1)
    assert "is not a name; a name is 1 to 40 letters" in trv(db, "fork", "g", "--at", "1", "--name", "a b", code=2).stderr


def test_a_record_with_crlf_line_ends_from_a_mailer_still_verifies(toy):
    _, data = _toy_record(seed=3)
    assert replays.verify_file(replays.read_file(data.replace(b"\n", b"\r\n"))).events > 1


def test_verify_and_export_pause_the_cyclic_collector_and_restore_it():
    import gc

    from trvendetta.replays.audit import without_cyclic_gc

    seen = []
    wrapped = without_cyclic_gc(lambda: seen.append(gc.isenabled()))
    assert gc.isenabled()
    wrapped()
    assert seen == [False] and gc.isenabled()
    boom = without_cyclic_gc(lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        boom()
    assert gc.isenabled()
