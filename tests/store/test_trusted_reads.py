"""A store that trusts its own reads (``GameStore.trust_own_reads``, the server's) keeps the records it
checked or wrote and does not check them again on each read; everything else is checked as in any
store: rows another process appended, and whatever a fresh store or ``verify`` reads."""

import pytest

from test_store import new, play
from trvendetta.store import ChainBroken, DamagedStore, GameStore


def _same(a, b):
    return [(r.number, r.kind, r.payload, r.hash, r.previous, r.action, r.sig) for r in a] == \
        [(r.number, r.kind, r.payload, r.hash, r.previous, r.action, r.sig) for r in b]


def _next(toy, store, game="g"):
    g = store.load(game)
    return g.version, toy.apply(g.state, toy.legal_actions(g.state)[0])[1]


def test_it_reads_what_a_plain_store_reads_while_another_process_appends(toy, db):
    with GameStore(db) as writer, GameStore(db) as trusting, GameStore(db) as plain:
        trusting.trust_own_reads()
        new(writer, toy)
        for turn in range(12):
            store = trusting if turn % 3 else writer  # appends by this process and by another
            version, events = _next(toy, store)
            store.append("g", version, events)
            assert _same(trusting.events("g"), plain.events("g"))
            count = plain.version("g")
            for since, upto in ((0, 1), (1, count), (count - 1, None), (count // 2, count - 1), (count, None)):
                assert _same(trusting.events("g", upto=upto, since=since), plain.events("g", upto=upto, since=since))
                assert trusting.events_head("g", since) == plain.events_head("g", since)
            loaded, fresh = trusting.load("g"), plain.load("g")
            assert (loaded.version, loaded.head, loaded.state) == (fresh.version, fresh.head, fresh.state)


def test_rows_another_process_appended_are_checked(toy, db):
    from tamper import edit_record  # tests/ is on sys.path (rootdir conftest)

    with GameStore(db) as writer, GameStore(db) as trusting:
        trusting.trust_own_reads()
        new(writer, toy)
        play(writer, toy, "g", 4)
        before = trusting.events("g")  # read and checked: kept
        trusting.load("g")
        version, events = _next(toy, writer)
        added = writer.append("g", version, events)

        def edit(doc: dict) -> None:
            doc["payload"] = doc["payload"].replace('"n":', '"n":1')

        assert edit_record(db, added.head, edit) == 1  # the new row, damaged behind both stores' backs
        with pytest.raises(DamagedStore, match=f"event {before[-1].number + 1}"):
            trusting.events("g")
        with pytest.raises(DamagedStore):
            trusting.load("g")
        with pytest.raises(DamagedStore):
            trusting.events("g", since=before[-1].number)


def test_verify_and_every_other_store_still_find_damage_to_kept_records(toy, db):
    from tamper import edit_record

    with GameStore(db) as trusting:
        trusting.trust_own_reads()
        new(trusting, toy)
        play(trusting, toy, "g", 5)
        record = trusting.events("g")[2]

        def edit(doc: dict) -> None:
            doc["payload"] = doc["payload"].replace('"n":', '"n":1')

        assert edit_record(db, record.hash, edit) == 1
        # the trusting process does not read its kept records again, but its verify reads every row
        with pytest.raises(ChainBroken, match="broken at event 3"):
            trusting.verify("g")
        with GameStore(db) as plain, pytest.raises(DamagedStore):
            plain.events("g")


def test_a_store_that_does_not_opt_in_checks_every_read(toy, db):
    from tamper import edit_record

    with GameStore(db) as plain:
        new(plain, toy)
        play(plain, toy, "g", 5)
        record = plain.events("g")[2]

        def edit(doc: dict) -> None:
            doc["payload"] = doc["payload"].replace('"n":', '"n":1')

        assert edit_record(db, record.hash, edit) == 1
        with pytest.raises(DamagedStore):
            plain.events("g")  # the same process: it read the record before, and checks it again


def test_one_look_reads_a_games_end_once_and_an_append_still_finds_another_processes(toy, db):
    from trvendetta.store import GameMovedOn

    with GameStore(db) as writer, GameStore(db) as trusting:
        trusting.trust_own_reads()
        new(writer, toy)
        play(writer, toy, "g", 3)
        with trusting.one_look():
            seen = trusting.version("g")
            records = trusting.events("g")
            version, events = _next(toy, trusting)
            writer.append("g", version, events)  # another process, during this look
            assert trusting.version("g") == seen == records[-1].number  # the look's own view
            with pytest.raises(GameMovedOn):
                trusting.append("g", version, events)
            assert trusting.version("g") == seen + len(events)  # read again after the refusal
            assert _same(trusting.events("g"), writer.events("g"))
            version, events = _next(toy, trusting)
            mine = trusting.append("g", version, events)
            assert trusting.version("g") == mine.version  # its own append, known without a read
            assert _same(trusting.events("g"), writer.events("g"))
        assert trusting.version("g") == writer.version("g")


def test_a_tail_read_of_a_game_not_kept_is_checked_as_always(toy, db):
    """A game is kept only from a whole read: the clock's look at the tail of every game (more than
    are kept) reads as any store reads, the rows before the tail checked too."""
    from tamper import edit_record

    with GameStore(db) as trusting:
        trusting.trust_own_reads(games=1)
        for name, seed in (("g", 7), ("h", 8)):
            new(trusting, toy, name, seed=seed)
            play(trusting, toy, name, 5)
        trusting.events("h")  # kept; "g" is not (one game kept)
        with GameStore(db) as plain:
            record = plain.events("g", upto=2)[1]

        def edit(doc: dict) -> None:
            doc["payload"] = doc["payload"].replace('"n":', '"n":1')

        assert edit_record(db, record.hash, edit) == 1
        with pytest.raises(DamagedStore):
            trusting.events("g", since=trusting.version("g") - 2)


def test_its_own_writes_are_served_as_a_read_of_their_rows_returns_them(toy, db):
    """A kept chain takes the records this process writes without reading their rows back: each field as a
    plain read returns it (the event and the action decoded from their bytes, the row's stamp), for
    actions, events without one and a retraction."""
    from trvendetta.store import Retraction

    with GameStore(db) as trusting, GameStore(db) as plain:
        trusting.trust_own_reads()
        new(trusting, toy)
        trusting.events("g")  # kept from a whole read
        for turn in range(4):
            g = trusting.load("g")
            action = toy.legal_actions(g.state)[0]
            done = trusting.append("g", g.version, steps=[(action, toy.apply(g.state, action)[1])])
        trusting.retract("g", done.version, Retraction(g.version + 1, done.version, None))
        version, events = _next(toy, trusting)
        trusting.append("g", version, events)
        reads = []
        stored = trusting.reader.stored
        trusting.reader.stored = lambda *a, **k: reads.append(a) or stored(*a, **k)
        with trusting.one_look():
            mine = trusting.events("g")
        assert not reads  # nothing read back
        theirs = plain.events("g")
        assert [r.decoded_action for r in theirs if r.action]  # (actions were recorded)
        assert list(mine) == list(theirs)
