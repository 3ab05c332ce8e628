"""Snapshots keep a ruleset's shared state (Vendetta's components) apart, once
per distinct value (``event_store/parts.py``), and a load starts from the
latest snapshot only when the snapshot before it folds to it."""

import json
import sqlite3


from trvendetta import rulesets
from trvendetta.bots import get_bot
from trvendetta.core.rng import Rng
from trvendetta.store import GameStore
from trvendetta.store.packing import unpack
from trvendetta.store.parts import address, join, split
from trvendetta.store.quick import QuickReader
from trvendetta.store.records import game_key


def _play(store, rs, name: str, seed: int, actions: int) -> list:
    state, events = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], seed))
    loaded = store.create_game(name, rs.name, events)
    everything = list(events)
    bot = get_bot("random")
    for i in range(actions):
        if rs.is_over(loaded.state):
            break
        action = bot.choose(rs, loaded.state, Rng(seed, 1000 + i), rs.pending(loaded.state))
        state, new = rs.apply(loaded.state, action)
        loaded = store.append(name, loaded.version, steps=[(action, new)], state=state)
        everything += new
    return everything


def test_split_and_join_give_the_same_state_back():
    rs = rulesets.get("vendetta")
    state, _ = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 4))
    whole = rs.encode(state)
    rest, parts = split(whole, rs.shared_state)
    assert set(parts) == {"components"} and b'"components"' not in rest
    assert len(rest) < len(whole) // 2
    assert rs.decode_state(join(rest, parts)) == state
    assert split(whole, ()) == (whole, {})
    assert join(b"{}", {"a": b"[1]"}) == b'{"a":[1]}'


def test_a_vendetta_snapshot_names_its_components_stored_once_for_every_game(tmp_path):
    db = tmp_path / "trv.sqlite"
    rs = rulesets.get("vendetta")
    with GameStore(db, snapshot_interval=10) as store:
        folds = {name: rs.fold(_play(store, rs, name, seed, 40)) for name, seed in (("a", 5), ("b", 6))}
        for name, state in folds.items():
            assert store.load(name).state == state
            assert all(s.problem is None and s.state is not None for s in store.snapshots(name))
    for name, state in folds.items():
        with QuickReader.open(db) as quick:
            assert quick.load(name).state == state
    con = sqlite3.connect(db)
    parts = con.execute("SELECT originator_id, originator_version, state FROM stored_snapshots "
                        "WHERE topic = 'trv:part'").fetchall()
    assert len(parts) == 1  # both games, every snapshot: one row
    (addr, version, data), = parts
    assert version == 1 and address(unpack(data)) == addr
    assert unpack(data) == rs.encode(folds["a"].components)
    snaps = con.execute("SELECT topic, state FROM stored_snapshots WHERE originator_id = ?", [game_key("a")]).fetchall()
    assert len(snaps) >= 3 and {t for t, _ in snaps} == {"trv:s"}
    for _, data in snaps:
        state = json.loads(unpack(data))["state"]
        assert state["parts"] == {"components": addr} and '"components"' not in state["engine"]
        assert len(data) < 1000  # fits in its SQLite page (a 4 KiB page holds a cell of up to about 1 kB)


def test_a_load_starts_from_the_latest_snapshot_once_the_one_before_folds_to_it(tmp_path):
    db = tmp_path / "trv.sqlite"
    rs = rulesets.get("vendetta")
    with GameStore(db, snapshot_interval=10) as store:
        _play(store, rs, "g", 5, 40)
    with GameStore(db) as store:
        read = store.reader.rows.events
        asked = []

        def spy(gid, gt=0, lte=None, desc=False, limit=None):
            if lte is None or lte - gt > 1:  # not one record's hash (a snapshot's cheap check)
                asked.append(gt)
            return read(gid, gt, lte, desc, limit)

        store.reader.rows = store.reader.rows._replace(events=spy)
        loaded = store.load("g")
        versions = [s.number + 1 for s in store.snapshots("g")]
    # the fold from the snapshot before the latest, then the events after the latest
    assert asked == [versions[-2], versions[-1]], (asked, versions)
    assert loaded.version > versions[-1] - 1


def test_a_state_split_without_encoding_its_parts_is_split_of_its_json():
    """``split_state`` (what a snapshot takes since the fifth 1 Dec 2026 session) gives ``split``'s bytes for every
    state of a game, its parts' JSON and addresses kept while the state holds the same object, and falls back
    to ``split`` for what it cannot unset (a field left out at its default, a renamed one, an array-like
    struct, anything not a struct); a part that is None stays in place."""
    import msgspec

    from trvendetta.bots import simulate
    from trvendetta.store.parts import split_state

    rs = rulesets.get("vendetta")
    noted = []
    simulate(rs, 4, 8, ["random"], steps_out=noted)

    def expected(encode, state, names):
        rest, parts = split(encode(state), names)
        return rest, {name: (data, address(data)) for name, data in parts.items()}

    for _, _, state in noted[::7]:
        found = split_state(rs.encode, state, rs.shared_state)
        assert found == expected(rs.encode, state, rs.shared_state) and set(found[1]) == {"components"}
    assert split_state(rs.encode, noted[0][2], ()) == (rs.encode(noted[0][2]), {})

    class Part(msgspec.Struct, frozen=True):
        xs: tuple[int, ...]

    class Plain(msgspec.Struct, frozen=True):
        a: int
        shared: Part | None = None
        b: str = "b"

    class Defaults(msgspec.Struct, frozen=True, omit_defaults=True):  # its part left out of the JSON at its default
        a: int
        shared: tuple[int, ...] = ()
        b: str = "b"

    class Renamed(msgspec.Struct, frozen=True, rename={"shared": "common"}):  # its part's JSON key is another
        a: int
        shared: Part | None = None
        b: str = "b"

    class Listed(Plain, array_like=True):
        pass

    encode = msgspec.json.encode
    for kind in (Plain, Defaults, Renamed, Listed):
        for value in (Part((1, 2)), (), None):
            for b in ("b", "c"):
                state = kind(1, value, b)
                try:
                    want = expected(encode, state, ("shared",))
                except msgspec.DecodeError:  # an array-like struct's JSON is no object: split refuses it, as before
                    want = None
                if want is None:
                    try:
                        split_state(encode, state, ("shared",))
                    except msgspec.DecodeError:
                        continue
                    raise AssertionError("split_state took apart what split refuses")
                assert split_state(encode, state, ("shared",)) == want, (kind, value, b)
    assert split_state(encode, Renamed(1, Part((1,))), ("common",)) == expected(encode, Renamed(1, Part((1,))),
                                                                                ("common",))
    assert split_state(encode, {"a": 1, "shared": [1]}, ("shared",)) == expected(encode, {"a": 1, "shared": [1]},
                                                                                  ("shared",))
