"""One rule for names and seeds (core.names), checked before anything is
written; whatever the store accepts exports, verifies and imports."""

import pytest

from trvendetta.core import names
from trvendetta.core.errors import PositionError
from trvendetta import rulesets

from .helpers import stored_rows

BAD_NAMES = ["a b", "a" * 41, "é", "blué", "", "ann\n", "a:b", "a/b", "ann\x00", "٣", "ａ"]
GOOD_NAMES = ["a", "A" * 40, "ann_2.b-c", "...", "-x", "0"]


@pytest.mark.parametrize("text", BAD_NAMES)
def test_a_bad_name_is_refused_with_the_rule(text):
    with pytest.raises(names.BadName) as err:
        names.check_name(text, "--player")
    assert str(err.value).startswith("--player: ") and names.NAME_RULE in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("text", GOOD_NAMES)
def test_a_good_name_passes(text):
    assert names.check_name(text) == text and names.is_name(text)


@pytest.mark.parametrize("seed", [-1, 2**63, 10**2000, True, "7", 1.5])
def test_a_bad_seed_is_refused(seed):
    with pytest.raises(names.BadName) as err:
        names.check_seed(seed)
    assert len(str(err.value)) < 200


@pytest.mark.parametrize("seed", [0, 1, 2**63 - 1])
def test_a_good_seed_passes(seed):
    assert names.check_seed(seed) == seed


@pytest.mark.parametrize("ruleset", ["vendetta", "classic"])
@pytest.mark.parametrize("field", ["name", "color"])
def test_positions_and_default_setups_use_the_rule(ruleset, field):
    rs = rulesets.get(ruleset)
    players = [("ann", "red", "cars"), ("bob", "blue", "cars")]
    bad = [("a b", "red", "cars") if field == "name" else ("ann", "ré d", "cars"), players[1]]
    with pytest.raises(PositionError, match=rf"players\[0\]\.{field}"):
        rs.default_position(bad, 1)
    with pytest.raises(PositionError, match="seed"):
        rs.default_position(players, 2**63)
    data = {"ruleset": ruleset, "seed": 1, "players": [{"name": "ann", "color": "red"},
                                                       {"name": "bob", "color": "blue"}]}
    data["players"][1][field] = "x" * 41
    with pytest.raises(PositionError, match=rf"players\[1\]\.{field}"):
        rs.position_from_dict(data)


@pytest.mark.parametrize("args", [
    ["--player", "a b:red", "--player", "bob:blue"],
    ["--player", "a" * 41 + ":red", "--player", "bob:blue"],
    ["--player", "ann:" + "r" * 41, "--player", "bob:blue"],
    ["--player", "ann:red", "--bot", "greedy:blue:cars:é"],
    ["--player", "ann:red", "--bot", "greedy:blué:cars"],
    ["--bot", "greedy:red:cars", "--bot", "random:blue:cars:" + "b" * 41],
    ["--ruleset", "classic", "--player", "a b:red", "--player", "bob:blue"],
    ["--name", "é", "--player", "ann:red", "--player", "bob:blue"],
    ["--name", "g" * 200, "--player", "ann:red", "--player", "bob:blue"],
    ["--seed", "9" * 2000, "--player", "ann:red", "--player", "bob:blue"],
    ["--seed", str(2**63), "--player", "ann:red", "--player", "bob:blue"],
    ["--seed", "-1", "--player", "ann:red", "--player", "bob:blue"],
])
def test_trv_new_refuses_a_bad_name_or_seed_and_writes_nothing(trv, args):
    result = trv("new", *args, code=2)
    assert "Error: " in result.stderr and "Traceback" not in result.stderr
    assert stored_rows(trv.db) == 0


def test_a_position_file_with_a_bad_name_or_seed_writes_nothing(trv, tmp_path):
    for text in ['players=[{name="ann",color="red"},{name="bob",color="blue"}]\nseed=9223372036854775808\n',
                 'players=[{name="ann\\n",color="red"},{name="bob",color="blue"}]\n',
                 'players=[{name="ann",color="r\u00e9d"},{name="bob",color="blue"}]\n']:
        (tmp_path / "p.toml").write_text(text, encoding="utf-8")
        assert "position " in trv("new", "--position", tmp_path / "p.toml", code=1).stderr
    assert stored_rows(trv.db) == 0


@pytest.mark.parametrize("ruleset", ["vendetta", "classic"])
def test_the_longest_names_and_largest_seed_export_verify_and_import(trv, tmp_path, ruleset):
    game, ann = "G" * 40, "a" * 40
    red, blue = "red", "blue"  # colours are each ruleset's own list (issue 9): names carry the edge cases
    crew = "cars" if ruleset == "vendetta" else ""  # the classic game has no crews and refuses one
    trv("new", "--ruleset", ruleset, "--name", game, "--seed", 2**63 - 1, "--player", f"{ann}:{red}",
        "--bot", f"greedy:{blue}:{crew}:{'-_.' * 13}z")
    trv("show", "--game", game)
    trv("export", game, "-o", tmp_path / "g.trv")
    trv("verify", game)
    trv("verify", tmp_path / "g.trv")
    other = tmp_path / "other.sqlite"
    assert f"imported game into {game}" in trv("import", tmp_path / "g.trv", db=other).stdout
    trv("verify", game, db=other)


def test_a_bot_only_game_with_edge_names_is_played_and_stays_readable(trv):
    assert "give the seat a NAME" in trv("new", "--bot", "random:red:cars", "--bot", "random:" + "c" * 40 + ":cars",
                                         code=2).stderr
    trv("new", "--seed", 3, "--bot", "random:red:cars:" + "x" * 40, "--bot", "random:blue:cars:" + "c" * 40)
    assert "game over" in trv("show").stdout
    trv("verify")


def test_import_refuses_a_record_whose_game_name_breaks_the_rule(trv, tmp_path):
    trv("new", "--name", "duel", "--seed", 1, "--player", "ann:red", "--player", "bob:blue")
    text = trv("export", "duel").stdout.replace('[Game "duel"]', '[Game "d.u.e.l' + "l" * 40 + '"]')
    (tmp_path / "x.trv").write_text(text, encoding="utf-8")
    other = tmp_path / "other.sqlite"
    assert "--name NEW" in trv("import", tmp_path / "x.trv", db=other, code=1).stderr
    assert stored_rows(other) == 0
    assert "imported game into duel2" in trv("import", tmp_path / "x.trv", "--name", "duel2", db=other).stdout
