"""The event store through its public API (with the toy ruleset: persistence, not rules)."""

import random
import sqlite3
import zlib

import msgspec
import pytest

import toy_ruleset
from trvendetta.store import (
    GENESIS,
    ChainBroken,
    GameExists,
    GameMovedOn,
    GameNotFound,
    GameStore,
    SchemaError,
    StoreError,
    chain,
    default_db_path,
)

PLAYERS = [("ann", "red", "cars"), ("bob", "blue", "cars")]


def new(store, toy, name="g", seed=7, target=10):
    pos = toy.position_from_dict({"players": [list(p) for p in PLAYERS], "seed": seed, "target": target})
    _, events = toy.new_game(pos)
    return store.create_game(name, "toy", events)


def play(store, toy, name, n, seed=1):
    """Play up to n random actions, one append each (as the CLI does)."""
    rnd = random.Random(seed)
    for _ in range(n):
        game = store.load(name)
        if toy.is_over(game.state):
            return game
        state, events = toy.apply(game.state, rnd.choice(toy.legal_actions(game.state)))
        saved = store.append(name, game.version, events)
        assert (saved.state, saved.version) == (state, game.version + len(events))
    return store.load(name)


@pytest.fixture(params=["sqlite", "memory", "postgresql"])
def store(request, toy, db):
    where = {"sqlite": db, "memory": ":memory:"}.get(request.param) or request.getfixturevalue("pg_url")
    with GameStore(where) as s:
        yield s


def test_create_then_load(store, toy):
    created = new(store, toy)
    loaded = store.load("g")
    assert (loaded.game, loaded.version, loaded.head) == ("g", 1, created.head)
    assert loaded.ruleset is toy
    assert loaded.state == created.state
    assert toy.version(loaded.state) == loaded.version


def test_hash_chain_over_canonical_payloads(store, toy):
    new(store, toy)
    game = play(store, toy, "g", 8)
    records = store.events("g")
    assert [r.number for r in records] == list(range(1, game.version + 1))
    head = GENESIS
    for r in records:
        assert r.previous == head
        assert r.payload == toy.encode(r.event)  # stored bytes are the canonical encoding
        assert r.kind == toy.event_kind(r.event)
        assert (r.schema, r.ruleset) == (1, "toy")
        head = chain(head, r.payload)
        assert r.hash == head
    assert head == game.head == store.verify("g")
    assert toy.fold(r.event for r in records) == game.state


def test_events_upto_and_since(store, toy):
    new(store, toy)
    game = play(store, toy, "g", 6)
    every = store.events("g")
    assert store.events("g", upto=3) == every[:3]
    assert store.events("g", since=2, upto=4) == every[2:4]
    assert store.events("g", since=game.version) == []


def test_same_actions_give_the_same_hashes_in_any_store(toy, db):
    """The hash covers the domain payload only, never the wall-clock timestamp."""
    heads = []
    for path in (db, ":memory:"):
        with GameStore(path) as s:
            new(s, toy, "same")
            heads.append(play(s, toy, "same", 10, seed=3).head)
    assert heads[0] == heads[1]


def test_load_at_an_earlier_event(store, toy):
    new(store, toy)
    play(store, toy, "g", 6)
    records = store.events("g")
    at3 = store.load("g", at=3)
    assert at3.version == 3
    assert at3.head == records[2].hash
    assert at3.state == toy.fold(r.event for r in records[:3])
    with pytest.raises(StoreError, match="1 to"):
        store.load("g", at=records[-1].number + 5)


def test_append_at_a_stale_version_is_refused_and_writes_nothing(toy, db):
    with GameStore(db) as one, GameStore(db) as two:
        new(one, toy)
        a = one.load("g")
        b = two.load("g")
        _, ea = toy.apply(a.state, toy_ruleset.Add(1))
        _, eb = toy.apply(b.state, toy_ruleset.Add(3))
        one.append("g", a.version, ea)
        with pytest.raises(GameMovedOn) as err:
            two.append("g", b.version, eb)
        assert str(err.value) == (
            f"game moved on since you loaded it (now at event {1 + len(ea)}); run the command again"
        )
        assert two.load("g").version == 1 + len(ea)
        assert [r.event for r in two.events("g")][1:] == ea


def test_append_with_a_version_already_passed_is_refused(store, toy):
    new(store, toy)
    game = store.load("g")
    _, events = toy.apply(game.state, toy_ruleset.Add(2))
    store.append("g", game.version, events)
    with pytest.raises(GameMovedOn, match=f"now at event {1 + len(events)}"):
        store.append("g", game.version, events)


def test_one_append_is_one_transaction(toy, db):
    """Several events from one command: all of them or none."""
    with GameStore(db) as s:
        new(s, toy)
        game = s.load("g")
        _, events = toy.apply(game.state, toy_ruleset.Add(1))
        with pytest.raises(TypeError):
            s.append("g", game.version, events + [object()])  # cannot encode: nothing saved
        assert s.load("g").version == 1
    with GameStore(db) as s:
        assert s.load("g").version == 1
        s.append("g", 1, events)
        assert s.load("g").version == 1 + len(events)


def test_duplicate_game_name(store, toy):
    new(store, toy)
    with pytest.raises(GameExists, match="'g' already exists"):
        new(store, toy)


def test_unknown_game_names_the_known_ones(store, toy):
    new(store, toy, "alpha")
    with pytest.raises(GameNotFound, match="no game 'beta'.*alpha"):
        store.load("beta")
    with pytest.raises(GameNotFound):
        store.events("beta")


def test_stored_topics_are_explicit_and_stable(toy, db):
    with GameStore(db, snapshot_interval=2) as s:
        new(s, toy)
        play(s, toy, "g", 4)
    con = sqlite3.connect(db)
    assert set(con.execute("SELECT originator_version = 0, topic FROM stored_commands")) == {(1, "h"), (0, "c")}
    assert set(con.execute("SELECT originator_version = 0, topic FROM stored_events")) == {(1, "g"), (0, "s")}


def test_snapshots_are_small_and_load_the_same_state(toy, db):
    with GameStore(db, snapshot_interval=4) as s:
        new(s, toy, target=60)
        game = play(s, toy, "g", 40)
        full = toy.fold(r.event for r in s.events("g"))
        assert game.state == full
    con = sqlite3.connect(db)
    rows = con.execute("SELECT originator_version, state FROM stored_events WHERE topic = 's'").fetchall()
    assert len(rows) >= game.version // 4 - 1
    for version, state in rows:
        snap = msgspec.msgpack.decode(zlib.decompress(state))  # MessagePack, zlib-compressed (docs/store.md)
        assert len(snap[0]) == 32
        assert len(state) < 600
    with GameStore(db, snapshot_interval=4) as s:
        again = s.load("g")
        assert (again.state, again.head, again.version) == (full, game.head, game.version)


def test_a_snapshot_of_other_rules_is_ignored(toy, db, monkeypatch):
    with GameStore(db, snapshot_interval=2) as s:
        new(s, toy)
        game = play(s, toy, "g", 6)
    monkeypatch.setattr(toy_ruleset.Toy, "rules_version", "2")
    with GameStore(db) as s:
        assert s.load("g").state == game.state


def test_older_event_schemas_are_upcast(toy, db, monkeypatch):
    with GameStore(db) as s:
        new(s, toy)
        game = play(s, toy, "g", 4)
    seen = []

    def upcast(data, schema):
        seen.append((data["type"], schema))
        return data

    monkeypatch.setattr(toy_ruleset.Toy, "event_schema", 2, raising=False)
    with GameStore(db) as s:
        with pytest.raises(SchemaError, match="schema 1; ruleset 'toy' reads schema 2"):
            s.load("g")
        monkeypatch.setattr(toy_ruleset.Toy, "upcast_event", staticmethod(upcast), raising=False)
        assert s.load("g").state == game.state
        assert seen[0] == ("started", 1)


def test_verify_finds_a_rewritten_event(toy, db):
    from tamper import edit_record  # tests/ is on sys.path (rootdir conftest)

    with GameStore(db) as s:
        new(s, toy)
        play(s, toy, "g", 5)
        record = s.events("g")[1]

    def edit(doc: dict) -> None:
        doc["payload"] = doc["payload"].replace('"n":', '"n":1')

    # an attacker edits the file behind the store's back (the store itself never updates a row)
    assert edit_record(db, record.hash, edit) == 1
    with GameStore(db) as s, pytest.raises(ChainBroken, match="broken at event 2"):
        s.verify("g")


def test_game_index(toy, db):
    with GameStore(db) as s:
        new(s, toy, "first")
        new(s, toy, "second")
        assert s.latest_game() == "second"
        play(s, toy, "first", 2)
        assert s.latest_game() == "first"
        s.touch("second")
        assert [g.id for g in s.list_games()] == ["second", "first"]
        done = play(s, toy, "first", 200)
        info = s.info("first")
        assert info.status == "over" and info.winner == toy.winner(done.state)
        assert (info.players, info.ruleset, info.version, info.head) == (("ann", "bob"), "toy", done.version, done.head)
    con = sqlite3.connect(db)
    with con:
        con.execute("DROP TABLE trv_games")
    with GameStore(db) as s:  # the index is derived: rebuilt from the events
        assert {g.id for g in s.list_games()} == {"first", "second"}
        assert s.info("first").status == "over"


def test_database_is_created_on_first_use(toy, tmp_path):
    path = tmp_path / "deep" / "er" / "trv.sqlite"
    with GameStore(path) as s:
        new(s, toy)
    assert path.exists()


def test_default_db_path():
    assert str(default_db_path({"TRV_DB": "/x/y.sqlite"})) == "/x/y.sqlite"
    assert str(default_db_path({"XDG_DATA_HOME": "/d"})) == "/d/trvendetta/trv.sqlite"
    assert str(default_db_path({"HOME": "/h"})).endswith(".local/share/trvendetta/trv.sqlite")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_command_and_its_index_row_commit_together(toy, db, monkeypatch, request, backend):
    """The index row is written in the command's own transaction: when it cannot be written, nothing of
    the command is (the error is the command's); the next append writes both; a row that names more
    events than the store holds refuses an append (a cut-off tail)."""
    from trvendetta.store.index import GameIndex

    where = db if backend == "sqlite" else request.getfixturevalue("pg_url")
    with GameStore(where) as s:
        new(s, toy)
        game = s.load("g")
        put = GameIndex.put

        def broken(self, row, **kwargs):
            if kwargs.get("cursor") is not None:
                raise RuntimeError("disk on fire")
            return put(self, row, **kwargs)

        monkeypatch.setattr(GameIndex, "put", broken)
        action = toy.legal_actions(game.state)[0]
        state, events = toy.apply(game.state, action)
        with pytest.raises(RuntimeError, match="disk on fire"):
            s.append("g", game.version, steps=[(action, events)], state=state)
        assert s.info("g").version == game.version == s.version("g")
        monkeypatch.setattr(GameIndex, "put", put)
        done = s.append("g", game.version, steps=[(action, events)], state=state)
        assert (s.info("g").version, s.info("g").head) == (done.version, done.head) == (s.version("g"), done.head)
        if backend == "postgresql":
            return
        with sqlite3.connect(db) as con:
            con.execute("UPDATE trv_games SET version = version + 3 WHERE id = 'g'")
        con.close()
        state2, events2 = toy.apply(state, toy.legal_actions(state)[0])
    with GameStore(where) as s:  # a fresh process: nothing of the game held in memory
        with pytest.raises(StoreError, match="damaged at event"):
            s.append("g", done.version, steps=[(toy.legal_actions(state)[0], events2)], state=state2)
        assert s.version("g") == done.version


def test_the_index_copies_each_game_every_copy_interval_records(toy, db):
    """The copy is taken after a game's first command and after each command that passes a multiple of
    COPY_INTERVAL records; the quick reader folds on from it to the same game as a full load."""
    from trvendetta.store.quick import QuickReader
    from trvendetta.store.records import COPY_INTERVAL

    with GameStore(db) as s:
        first = new(s, toy, target=100)
        expected, version, seen = first.version, first.version, set()
        rnd = random.Random(3)
        while not toy.is_over((game := s.load("g")).state):
            state, events = toy.apply(game.state, rnd.choice(toy.legal_actions(game.state)))
            saved = s.append("g", version, events, state=state)
            if saved.version // COPY_INTERVAL != version // COPY_INTERVAL:
                expected = saved.version
            version = saved.version
            (at,), = sqlite3.connect(db).execute("SELECT state_at FROM trv_games WHERE id = 'g'").fetchall()
            assert at == expected
            seen.add(at)
            with QuickReader.open(db) as quick:
                fast = quick.load("g")
            assert (fast.state, fast.version, fast.head) == (saved.state, saved.version, saved.head)
    assert len(seen) >= 2 and version > COPY_INTERVAL + 20  # the last load folded 20 and more records on

def test_a_given_state_spares_the_second_fold_and_is_the_fold(toy, db):
    """``state=`` (what ``ruleset.apply`` returned) is taken as the aggregate's
    state; it is exactly what folding the stored events gives."""
    rnd = random.Random(4)
    with GameStore(db, snapshot_interval=3) as s:
        loaded = new(s, toy)
        for _ in range(6):
            state = loaded.state
            action = rnd.choice(toy.legal_actions(state))
            state, events = toy.apply(state, action)
            folds = []
            real = type(toy).evolve
            type(toy).evolve = lambda self, st, ev: folds.append(ev) or real(self, st, ev)
            try:
                loaded = s.append("g", loaded.version, steps=[(action, events)], state=state)
            finally:
                type(toy).evolve = real
            assert loaded.state == state
            assert folds == []  # not folded a second time
    with GameStore(db) as s:
        again = s.load("g")
        assert again.state == loaded.state == toy.fold(e.event for e in s.events("g"))
        assert s.info("g").version == loaded.version


def test_a_store_keeps_only_a_few_games_in_memory(toy):
    """``trv sim --store`` writes thousands of games through one store: memory stays flat."""
    s = GameStore(":memory:")
    for i in range(3 * GameStore.KEEP_LOADED):
        new(s, toy, f"g{i}")
    assert len(s._loaded) == GameStore.KEEP_LOADED
    assert list(s._loaded) == [f"g{i}" for i in range(2 * GameStore.KEEP_LOADED, 3 * GameStore.KEEP_LOADED)]


def test_a_read_decodes_each_distinct_action_once_and_only_shares_frozen_ones(toy, db):
    """``GameStore.events`` decodes an action the game repeats once (records share the decoded, frozen
    struct: verify reads every action of a game); a ruleset whose decoded action could be changed in place
    gets one of its own for every record."""
    with GameStore(db) as s:
        loaded = new(s, toy)
        rnd = random.Random(3)
        for _ in range(12):
            action = rnd.choice(toy.legal_actions(loaded.state)[:2])
            state, events = toy.apply(loaded.state, action)
            loaded = s.append("g", loaded.version, steps=[(action, events)], state=state)
        acted = [r for r in s.events("g") if r.action]
    by_bytes = {}
    for r in acted:
        assert r.decoded_action == toy.decode_action(r.action)
        by_bytes.setdefault(r.action, set()).add(id(r.decoded_action))
    assert len(by_bytes) < len(acted) and all(len(ids) == 1 for ids in by_bytes.values())


