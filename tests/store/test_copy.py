"""``trv store copy``: games copied between stores are the same games, verified."""

import pytest
from click.testing import CliRunner

from trvendetta import replays, rulesets
from trvendetta.bots import new_position
from trvendetta.bots import get_bot
from trvendetta.cli.main import cli
from trvendetta.core.rng import Rng
from trvendetta.store import GameStore, StoreError
from trvendetta.app.stores import copy_store


def _play(store, name, seed, moves, bots=None):
    rs = rulesets.get("vendetta")
    state, events = rs.new_game(new_position(rs, 3, seed))
    loaded = store.create_game(name, "vendetta", events, bots=bots)
    bot, rng = get_bot("random"), Rng(seed, 1)
    for _ in range(moves):
        action = bot.choose(rs, loaded.state, rng)
        _, new = rs.apply(loaded.state, action)
        loaded = store.append(name, loaded.version, steps=[(action, new)])
    return loaded


@pytest.fixture
def source(tmp_path):
    """An SQLite store with a plain game, a game with bot seats and an undo, and a fork."""
    path = tmp_path / "club.sqlite"
    with GameStore(path) as s:
        _play(s, "duel", 1, 12)
        _play(s, "bots", 2, 6, bots={"p2": "random"})
        replays.undo(s, "bots", agreed=True)
        starts = [e.number for e in s.events("duel", decode=False) if e.action]
        replays.fork(s, "duel", starts[-2] - 1, "what-if")
    return path


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request, tmp_path):
    return str(tmp_path / "copy.sqlite") if request.param == "sqlite" else request.getfixturevalue("pg_url")


def _everything(store, game):
    return store.header(game), [e[:8] + e[9:] for e in store.events(game, decode=False)]


def test_a_copy_is_the_same_games_byte_for_byte(source, target):
    copied = list(copy_store(str(source), target))
    with GameStore(source) as src, GameStore(target) as dst:
        assert sorted(c.game for c in copied) == ["bots", "duel", "what-if"]
        assert {c.done for c in copied} == {"copied"}
        for c in copied:
            # header (with its creation time), every record (with its stamp), head, retractions
            assert _everything(dst, c.game) == _everything(src, c.game)
            assert dst.load(c.game) == src.load(c.game)
            assert dst.retracted(c.game) == src.retracted(c.game)
            assert replays.verify_game(dst, c.game).head == c.head == src.verify(c.game)
            info_src, info_dst = src.info(c.game), dst.info(c.game)
            assert (info_dst.players, info_dst.status, info_dst.version, info_dst.head) == \
                (info_src.players, info_src.status, info_src.version, info_src.head)
        assert dst.header("what-if").parent == "duel" and dst.load("bots").bots == {"p2": "random"}
        assert dst.retracted("bots")
        # copying again changes nothing
        assert {c.done for c in copy_store(str(source), target)} == {"already there"}
        assert _everything(dst, "duel") == _everything(src, "duel")


def test_a_game_with_another_history_stops_the_copy_before_anything_is_written(source, target):
    with GameStore(target) as dst:
        _play(dst, "what-if", 9, 2)
    with pytest.raises(StoreError, match="'what-if' is already in the target with another history"):
        list(copy_store(str(source), target))
    with GameStore(target) as dst:
        assert [g.id for g in dst.list_games()] == ["what-if"]
    with pytest.raises(StoreError, match="no game 'nope' in the source store"):
        list(copy_store(str(source), target, ["nope"]))
    assert [c.game for c in copy_store(str(source), target, ["duel"])] == ["duel"]


def test_trv_store_copy(source, target):
    runner = CliRunner()
    env = {"TRV_STORE": None, "TRV_DB": None, "TRV_GAME": None}
    out = runner.invoke(cli, ["store", "copy", "--from", f"sqlite:{source}", "--to", target], env=env)
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert len(lines) == 3 and all(line.startswith("copied ") and line.endswith("(verified)") for line in lines)
    again = runner.invoke(cli, ["--db", str(source), "store", "copy", "--to", target, "--game", "duel"], env=env)
    assert again.exit_code == 0 and again.stdout.startswith("already there duel: ")
    shown = runner.invoke(cli, ["--store", target, "--game", "duel", "log"], env=env)
    assert shown.exit_code == 0 and shown.stdout == runner.invoke(
        cli, ["--db", str(source), "--game", "duel", "log"], env=env).stdout
    same = runner.invoke(cli, ["store", "copy", "--from", str(source), "--to", f"sqlite:{source}"], env=env)
    assert same.exit_code == 2 and "--from and --to name the same store" in same.stderr
