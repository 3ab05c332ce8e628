"""Stores written by earlier mains (every earlier row layout: plain library JSON, records packed with
marks 1-3, chunks of marks 4-7, compact ids, snapshot parts, layout 2's one row a command) upgrade with `trv store upgrade` into a
new store of the current layout, every game to the same records, hashes, heads, header and stamps;
the old store is left byte for byte as it was, and any other command on it says to upgrade it.

The fixtures and what main said about them were made by ``fixtures/make_old_store.py``.
"""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from trvendetta import replays, rulesets
from trvendetta.bots import get_bot
from trvendetta.cli.main import cli
from trvendetta.core.rng import Rng
from trvendetta.store import GameStore
from trvendetta.store.quick import QuickReader

HERE = Path(__file__).resolve().parent / "fixtures"
#: fixture name -> what main said about each of its games
SAID = {name: json.loads((HERE / f"{name}.json").read_text())
        for name in ("main-98de825", "main-4f76667-mark1", "main-a2bac5e-mark2", "main-582d785-chunks",
                     "main-c748638-mark6", "main-55e2233-layout2")}
CASES = [(fixture, game) for fixture, games in SAID.items() for game in sorted(games)]
ENV = {"TRV_STORE": None, "TRV_DB": None, "TRV_GAME": None, "NO_COLOR": "1"}


def records_digest(store, game):
    from hashlib import sha256

    h = sha256()
    for e in store.events(game, decode=False):
        h.update(repr((e.number, e.kind, e.ruleset, e.schema, e.payload, e.hash, e.previous, str(e.recorded_at),
                       e.action, e.sig)).encode())
    return h.hexdigest()


@pytest.fixture(params=sorted(SAID))
def fixture(request):
    return request.param


@pytest.fixture
def old(tmp_path, fixture):
    """A copy of the fixture."""
    path = tmp_path / "old.sqlite"
    shutil.copyfile(HERE / f"{fixture}.sqlite", path)
    return path


@pytest.fixture
def upgraded(old):
    result = CliRunner().invoke(cli, ["--db", str(old), "store", "upgrade"], env=ENV)
    assert result.exit_code == 0, result.output
    return old.with_name("old.v3.sqlite"), result.stdout


def test_the_upgrade_reports_each_game_and_leaves_the_old_store_as_it_was(old, fixture, upgraded):
    new, out = upgraded
    assert old.read_bytes() == (HERE / f"{fixture}.sqlite").read_bytes()
    lines = out.splitlines()
    for game in SAID[fixture]:
        assert f"upgraded {game}: {SAID[fixture][game]['version']} events, head {SAID[fixture][game]['head'][:16]} " \
               "(verified)" in lines
    assert lines[-1] == f"{len(SAID[fixture])} games and 0 tournaments written to {new}, each verified; " \
                        f"{old} is unchanged"


@pytest.mark.parametrize("fixture, game", CASES)
def test_every_old_game_upgrades_to_what_main_read(old, fixture, game, upgraded):
    new, _ = upgraded
    said = SAID[fixture][game]
    with GameStore(new) as s:
        assert records_digest(s, game) == said["records_sha256"]
        loaded = s.load(game)
        assert (loaded.version, loaded.head) == (said["version"], said["head"])
        assert s.verify(game) == said["head"]
        assert sorted(s.retracted(game)) == said["retracted"]
        header = s.header(game)
        assert list(header[1:7]) + [str(header.created)] == said["header"]
        assert replays.verify_game(s, game).head == said["head"]
        assert s.info(game).head == said["head"]
    with QuickReader.open(new) as reader:
        quick = reader.load(game)
    assert (quick.version, quick.head, quick.state) == (loaded.version, loaded.head, loaded.state)
    runner = CliRunner()
    shown = runner.invoke(cli, ["--db", str(new), "--game", game, "show", "--json"], env=ENV)
    assert shown.exit_code == 0 and json.loads(shown.stdout)["head"] == said["head"]
    verified = runner.invoke(cli, ["--db", str(new), "--game", game, "verify"], env=ENV)
    assert verified.exit_code == 0
    assert verified.stdout.splitlines()[0] == said["verify"].splitlines()[0]


def test_an_upgraded_game_takes_new_commands(fixture, upgraded):
    new, _ = upgraded
    rs = rulesets.get("vendetta")
    with GameStore(new) as s:
        loaded = s.load("duel")
        bot, rng = get_bot("random"), Rng(5, 5)
        for _ in range(3):
            action = bot.choose(rs, loaded.state, rng)
            _, events = rs.apply(loaded.state, action)
            loaded = s.append("duel", loaded.version, steps=[(action, events)])
        assert replays.verify_game(s, "duel").head == loaded.head
        assert loaded.version > SAID[fixture]["duel"]["version"]


@pytest.mark.parametrize("args", [["games"], ["show"], ["log"], ["legal"], ["verify", "duel"],
                                  ["turn", "--assign", "1"], ["export", "duel"]])
def test_any_other_command_on_an_old_store_says_to_upgrade_it_and_writes_nothing(old, fixture, args):
    result = CliRunner().invoke(cli, ["--db", str(old), "--game", "duel", *args], env=ENV)
    assert result.exit_code == 1, result.output
    assert result.stderr.strip().splitlines() == [
        f"Error: the store {old} is in an older layout; run `trv store upgrade` to copy its games and tournaments "
        "into a store of the current one (it leaves this one as it is)"]
    assert old.read_bytes() == (HERE / f"{fixture}.sqlite").read_bytes()
    assert sorted(p.name for p in old.parent.iterdir()) == ["old.sqlite"]


@pytest.mark.parametrize("fixture", ["main-c748638-mark6", "main-55e2233-layout2"])
def test_the_upgrade_copies_tournaments_and_refuses_what_is_no_upgrade(old, tmp_path, fixture):
    from trvendetta.app.upgrade import upgrade_store
    from trvendetta.store.errors import StoreError
    from trvendetta.store.legacy.layout2 import Layout2Store
    from trvendetta.store.legacy.store import GameStore as LegacyStore
    from trvendetta.store.tournament import TournamentLog
    from trvendetta.tournament import model

    with (Layout2Store if "layout2" in fixture else LegacyStore)(old) as s:  # a tournament as an older main stored it (its log through the library's app)
        log = TournamentLog(s)
        made = log.create("cup", model.check_new("cup", "vendetta", 2, 2, 4, (3, 1, 0), 5))
        made = log.append("cup", made.version, model.check_register(made.state, ["ann", "bob"]))
    target = tmp_path / "new.sqlite"
    copied = list(upgrade_store(str(old), str(target)))
    assert [c.game for c in copied][-1] == "tournament cup" and copied[-1].head == made.head
    with GameStore(target) as s:
        assert TournamentLog(s).load("cup").head == made.head
    with pytest.raises(StoreError, match="already in the current layout"):
        upgrade_store(str(target), str(tmp_path / "again.sqlite"))
    again = list(upgrade_store(str(old), str(target)))  # done before: said, nothing written
    assert {(c.game, c.head, c.done) for c in again} == {(c.game, c.head, "already there") for c in copied}
    with GameStore(target) as s:
        s.create_game("other", "vendetta", rulesets.get("vendetta").new_game(
            rulesets.get("vendetta").default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 3))[1])
    with pytest.raises(StoreError, match="already exists and holds other games than the old store's"):
        list(upgrade_store(str(old), str(target)))
