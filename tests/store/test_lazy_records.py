"""``GameStore.events(..., lazy=True)`` (``store.runs.Records``: ``trv verify``'s read) is the eager read's
records, made where asked, and its segments are their raw fields; what the eager read names as damage, verify
names in the same words at the same record, whichever of the two reads meets it."""

import random
import shutil
from pathlib import Path

import pytest
from test_chunks import _rows, _set, _whole_game

from trvendetta import replays, rulesets
from trvendetta.bots import get_bot
from trvendetta.core.rng import Rng
from trvendetta.replays.walker import Visitor
from trvendetta.store import DamagedStore, GameStore, Retraction, chunks

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _played(toy, db) -> None:
    """A toy game stored as ``trv`` stores one: its set-up and first actions whole (chunks of up to 32), then a
    save for each action (a row of one or two records), then a retraction."""
    first, steps, states = _whole_game(toy)
    with GameStore(db) as s:
        loaded = s.create_game("g", "toy", first, steps=steps[:40], state=states[39], states=states[:40])
        for i in range(40, len(steps) - 1):
            loaded = s.append("g", loaded.version, steps=[steps[i]], state=states[i])
        taken = len(steps[-2][1])  # the last action's events, taken back
        s.retract("g", loaded.version, Retraction(loaded.version - taken + 1, loaded.version, "ann", True))


def _lazy(store, game, since=0):
    return store.events(game, since=since, decode=False, stamped=False, lazy=True)


def _eager(store, game, since=0):
    return store.events(game, since=since, decode=False, stamped=False)


def _same(lazy, eager) -> None:
    assert len(lazy) == len(eager)
    assert list(lazy) == eager
    n = len(eager)
    for i in [0, 1, n // 2, n - 1, -1, -n] if n > 1 else []:
        assert lazy[i] == eager[i] and lazy.hash(i) == eager[i].hash, i
    for a, b in [(0, n), (3, n // 2), (n // 2, n + 5), (5, 5), (7, 2), (-4, None)]:
        assert list(lazy[a:b]) == eager[a:b], (a, b)
        assert list(lazy[a:b][1:3]) == eager[a:b][1:3], (a, b)
    assert list(lazy[::2]) == eager[::2]
    fields, hashes = [], b""
    for segment in lazy.segments():
        assert segment.first == eager[0].number + len(fields) // 3 and segment.count
        fields += segment.fields
        hashes += segment.hashes
    assert fields == [f for r in eager for f in (r.payload, r.action, r.sig)]
    assert hashes == b"".join(bytes.fromhex(r.hash) for r in eager)
    with pytest.raises(IndexError):
        lazy[n]


def test_a_lazy_read_of_lean_chunks_is_the_eager_reads_records(toy, db):
    _played(toy, db)
    assert {s[:1] for _, s in _rows(db)} == {chunks.MARK_7}
    with GameStore(db) as s:
        n = len(_eager(s, "g"))
        assert len(_lazy(s, "g").segments()) == 1  # a game of lean chunks: one segment
        for since in (0, 1, 30, 33, n - 2, n):
            _same(_lazy(s, "g", since), _eager(s, "g", since))
        view = _lazy(s, "g")[10:20]
        assert [seg.first for seg in view.segments()] == [11] and len(view.segments()[0].fields) == 30


@pytest.mark.parametrize("fixture", ["main-2026-11-30", "main-2026-12-01-chunks", "main-2026-12-01-mark6"])
def test_a_lazy_read_of_older_rows_is_the_eager_reads_records(tmp_path, fixture):
    path = tmp_path / "old.sqlite"
    shutil.copyfile(FIXTURES / f"{fixture}.sqlite", path)
    with GameStore(str(path)) as s:
        games = [g.id for g in s.list_games()]
        assert games
        for game in games:
            _same(_lazy(s, game), _eager(s, game))
            replays.verify_game(s, game)
        # new turns of an old game: lean chunks after its older rows, then older rows' records after them
        rs, loaded = rulesets.get("vendetta"), s.load("duel")
        bot, rng = get_bot("random"), Rng(5, 5)
        for _ in range(3):
            action = bot.choose(rs, loaded.state, rng)
            _, events = rs.apply(loaded.state, action)
            loaded = s.append("duel", loaded.version, steps=[(action, events)])
        for since in (0, 2, loaded.version - 4):
            _same(_lazy(s, "duel", since), _eager(s, "duel", since))
        assert replays.verify_game(s, "duel").head == loaded.head


def _relean(db, version: int, edit) -> None:
    """Rewrite the lean chunk stored at ``version`` with ``edit(ruleset, schema, fields)`` applied (its hashes as
    stored: nothing is re-chained)."""
    state = dict(_rows(db))[version]
    (ruleset, schema, fields, raw, count), _ = chunks.unpack_lean(state)
    ruleset, schema, fields = edit(ruleset, schema, fields[2:])
    hashes = [raw[32 * i:32 * i + 32].hex() for i in range(count)]
    _set(db, version, chunks.pack_lean(state[2:10], hashes, ruleset, schema, fields))


def _first_of_row(db, version: int) -> int:
    return version - dict(_rows(db))[version][1]  # a row under its last record's version holds count records


@pytest.mark.parametrize("where", ["first", "later"])
def test_verify_names_a_lean_record_that_does_not_decode_as_the_eager_read_does(toy, db, where):
    _played(toy, db)
    versions = [v for v, s in _rows(db) if s[1] >= 3]
    version = versions[0] if where == "first" else versions[-1]
    i = 0 if where == "first" else 1  # a row's first record is checked as the row is read; another when walked

    def edit(ruleset, schema, fields):
        fields[3 * i] = b'{"typ":' + fields[3 * i][8:]
        return ruleset, schema, fields

    _relean(db, version, edit)
    number = _first_of_row(db, version) + i
    with GameStore(db) as s:
        with pytest.raises(DamagedStore) as eager:
            _eager(s, "g")
        with pytest.raises(DamagedStore) as verified:
            replays.verify_game(s, "g")
    assert eager.value.number == verified.value.number == number
    assert eager.value.detail == verified.value.detail and "does not open with its kind" in verified.value.detail


@pytest.mark.parametrize("edit, says", [
    (lambda ruleset, schema, fields: ("no-such-rules", schema, fields), "no-such-rules"),
    (lambda ruleset, schema, fields: (ruleset, 99, fields), "schema 99"),
])
def test_a_lean_row_of_an_unknown_ruleset_or_schema_is_named_as_it_is_read(toy, db, edit, says):
    """A row's ruleset and schema are not chained: the lazy read checks them as it reads the row."""
    _played(toy, db)
    version = [v for v, _ in _rows(db)][len(_rows(db)) // 2]
    _relean(db, version, edit)
    with GameStore(db) as s:
        with pytest.raises(DamagedStore) as eager:
            _eager(s, "g")
        with pytest.raises(DamagedStore) as lazy:
            _lazy(s, "g")
    assert eager.value.number == lazy.value.number == _first_of_row(db, version)
    assert eager.value.detail == lazy.value.detail and says in lazy.value.detail


def test_a_walk_of_a_lazy_read_is_the_walk_of_its_records(toy, db):
    """The walker's loop over segments leaves the walker ``feed`` leaves, over a lazy read whole and in slices,
    and over the same records changed (a payload re-chained: a divergence named at its record)."""
    from trvendetta.replays.integrity import walk_noting
    from trvendetta.replays.resume import walker_for

    _played(toy, db)
    with GameStore(db) as s:
        header = s.header("g")
        lazy, eager = _lazy(s, "g"), _eager(s, "g")

    class Quiet(Visitor):  # its walker feeds each record through ``feed``
        needs_event_state = False

    def walk(records, general: bool, cuts=()):
        w = walker_for(toy, header.charter, header.domain, [Quiet()] if general else [], reexecute=True,
                       start=header.genesis)
        walk_noting(w, records, cuts)
        return (w.number, w.head, toy.encode(w.state), sorted(w.retracted), sorted(w.retractions),
                [(g.first, g.last, g.reveals) for g in w.groups])

    rnd = random.Random(5)
    cuts = sorted(rnd.sample(range(1, len(eager)), 6))
    assert walk(lazy, False) == walk(lazy, False, cuts) == walk(eager, True) == walk(eager, False, cuts)
