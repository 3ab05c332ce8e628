"""The command line on the real Vendetta ruleset: error paths and a whole game."""

import json
import re

import pytest

from trvendetta import rulesets

SHOW_KEYS = {
    "game", "ruleset", "version", "head", "round", "active_player", "pending", "finished", "winner",
    "road_die", "road", "players", "vehicles", "choppers", "wrecks", "tokens", "board",
}
VEHICLE_KEYS = {"id", "owner", "kind", "size", "at", "facing", "status", "damage", "moved", "momentum"}
PLAYER_KEYS = {"name", "color", "crew", "dice", "command_used", "out"}

POSITION = """\
ruleset = "vendetta"
seed = 7
fill = "road"
road_die = 2
active_player = "ann"
[[players]]
name = "ann"
color = "red"
crew = "cars"
dice = [4, 2, 6, 1]
[[players]]
name = "bob"
color = "blue"
crew = "cars"
dice = [3, 3, 5, 1]
[[vehicles]]
id = "red-medium"
at = "c5"
moved = true
[[vehicles]]
id = "red-small"
at = "a3"
[[vehicles]]
id = "blue-medium"
at = "e7"
"""


@pytest.fixture
def position(tmp_path):
    def write(text=POSITION):
        path = tmp_path / "position.toml"
        path.write_text(text)
        return str(path)

    return write


@pytest.fixture
def game(trv, position):
    """A position: ann to assign; red-medium has moved this round; dice 4 2 6 1."""
    trv("new", "--position", position())
    return trv


def version(trv):
    return trv.json("show")["version"]


def check_show(trv):
    doc = trv.json("show")
    assert set(doc) == SHOW_KEYS
    assert doc["ruleset"] == "vendetta"
    log = json.loads(trv("log", "--json").stdout)
    assert doc["version"] == len(log) and doc["head"] == log[-1]["hash"]
    names = [p["name"] for p in doc["players"]]
    for p in doc["players"]:
        assert set(p) == PLAYER_KEYS
    for v in doc["vehicles"]:
        assert set(v) == VEHICLE_KEYS
        assert v["owner"] in names and v["size"] in ("S", "M", "L")
        assert v["status"] in ("operational", "inoperable", "eliminated")
        assert (v["at"] is None) == (v["status"] == "eliminated")
    if doc["finished"]:
        assert doc["pending"] is None
    else:
        assert set(doc["pending"]) >= {"player", "kind", "options"} and doc["pending"]["player"] in names
    firsts = [r["first"] for r in doc["road"]]
    assert firsts == [firsts[0], firsts[0] + 8, firsts[0] + 16]  # rear to front (the road moves on)
    assert all(r["last"] == r["first"] + 7 for r in doc["road"])
    return doc


def test_bad_die(game):
    before = version(game)
    err = game("turn", "--car", "small", "--assign", "7", code=1).stderr
    assert "7" in err.split("legal:")[0] and "legal: assign 1 to red-small" in err
    game("turn", "--car", "small", "--assign", "3", code=1)  # a 3 is not among ann's dice 4 2 6 1
    assert version(game) == before


def test_car_already_moved(game):
    before = version(game)
    err = game("turn", "--car", "medium", "--assign", "4", code=1).stderr
    problem, legal = err.split("legal:")
    assert "red-medium" in problem and "to red-small" in legal and "red-medium" not in legal
    assert version(game) == before


def test_illegal_path(game):
    before = version(game)
    err = game("turn", "--car", "small", "--assign", "4", "--path", "F,B,F", code=1).stderr
    assert "B" in err.split("legal:")[0] and "legal: FL, F, FR" in err
    assert version(game) == before  # the assign and the first step are not kept either


def test_wrong_player(game):
    before = version(game)
    err = game("act", '{"type":"assign","car":"blue-medium","die":3}', code=1).stderr
    problem, legal = err.split("legal:")
    assert "blue-medium" in problem and "ann" in problem and "blue" not in legal
    err = game("turn", "--as", "bob", "--car", "medium", "--assign", "3", code=1).stderr
    assert "it is ann's decision (assign), not bob's" in err
    assert version(game) == before


def test_a_path_shorter_than_the_move_waits_for_the_next_step(game):
    out = game("turn", "--car", "small", "--assign", "2", "--path", "F").stdout
    assert "waiting on ann: step" in out
    doc = game.json("show")
    assert doc["pending"]["kind"] == "step"
    game("decide", "F")


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda t: t.replace("dice = [4, 2, 6, 1]", "dice = [4, 2, 7, 1]"), "players[0].dice"),
        (lambda t: t.replace('at = "a3"', 'at = "z99"'), "vehicles"),
        (lambda t: t.replace('at = "a3"', 'at = "c5"'), "vehicles"),
        (lambda t: t + "colour = 3\n", "colour"),
        (lambda t: t.replace("seed = 7", "seed = "), "TOML"),
        (lambda t: t.replace("road_die = 2", "road_die = 6"), "road_die"),
    ],
)  # (a file naming no ruleset there is: a usage error, tests/cli/test_cli_setup_refusals.py)
def test_malformed_position_file(trv, position, edit, field):
    err = trv("new", "--position", position(edit(POSITION)), code=1).stderr
    assert field in err
    assert "no games yet" in trv("games").stdout


def test_position_file_and_players_exclude_each_other(trv, position):
    trv("new", "--position", position(), "--player", "x:y", code=2)
    trv("new", "--position", "/no/such/file.toml", code=2)


def test_legal_json_is_exactly_the_engine_encoding(game):
    ruleset = rulesets.get("vendetta")
    before = version(game)
    raw = json.loads(game("legal", "--json").stdout)
    for obj in raw:
        action = ruleset.decode_action(json.dumps(obj))
        assert json.loads(ruleset.encode(action)) == obj
    game("act", json.dumps(raw[0]))
    assert version(game) > before


def test_show_at_an_earlier_event_and_plain_text(game):
    game("turn", "--car", "small", "--assign", "2", "--no-shoot")
    assert game.json("show", "--at", "3")["version"] == 3
    text = game("show").stdout
    assert "\x1b[" not in text and "red-small" in text


def choose(options):
    shoots = [o for o in options if o.startswith("shoot")]
    for pick in (shoots[:1], ["F"], ["accept"], ["road-die"], options[:1]):
        if pick and pick[0] in options:
            return pick[0]


@pytest.mark.parametrize("seed", [2, 3])
def test_a_whole_two_player_game_through_turn_and_decide(trv, seed):
    out = trv("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", str(seed)).stdout
    game_id = out.splitlines()[0]
    waited = set()
    for command in range(500):
        doc = check_show(trv)
        if doc["finished"]:
            break
        pending = doc["pending"]
        if pending["kind"] == "assign":
            best = max(pending["options"], key=lambda o: int(o.split()[1]) if o.startswith("assign") else -1)
            m = re.fullmatch(r"assign (\d) to (\S+)", best)
            if m:
                result = trv.runner.invoke(
                    trv_cli(), ["--db", str(trv.db), "turn", "--car", m[2], "--assign", m[1], "--road-die"],
                    env=trv.env)
                if result.exit_code == 0:
                    last = result.stdout.splitlines()[-1]
                    if last.startswith("waiting on") and "assign" not in last:
                        waited.add(last.split(":")[1].strip().split()[0])
                    continue
                assert result.exit_code == 1 and "Traceback" not in result.stderr  # a blocked step: decide
                assert trv.json("show")["version"] == doc["version"]
        trv("decide", *choose(pending["options"]).split())
    else:
        pytest.fail("no winner after 500 commands")
    assert doc["winner"] in ("ann", "bob")
    assert {"shoot", "step"} & waited  # the flags left decisions open and the game waited
    games = trv.json("games")
    assert games[0]["id"] == game_id and games[0]["status"] == "over" and games[0]["winner"] == doc["winner"]
    assert len(trv("log").stdout.splitlines()) == doc["version"]


def trv_cli():
    from trvendetta.cli.main import cli

    return cli


@pytest.mark.parametrize("choice, side", [("parking-lot", "the-parking-lot"), ("perdition", "the-road-to-perdition")])
def test_new_start_tile_chooses_the_rear_road_piece(trv, choice, side):
    """Set-up step 1: "Choose the rear road piece"; the other two are drawn."""
    trv("new", "--player", "ann:red", "--player", "bob:blue", "--seed", "5", "--start-tile", choice)
    road = trv.json("show")["road"]
    assert road[0]["name"] == side and len(road) == 3


def test_new_start_tile_refuses_other_values_and_rulesets(trv, position):
    err = trv("new", "--player", "ann:red", "--player", "bob:blue", "--start-tile", "choke", code=2).stderr
    assert "parking-lot or perdition" in err
    err = trv("new", "--ruleset", "classic", "--player", "ann:red", "--player", "bob:blue",
              "--start-tile", "perdition", code=2).stderr
    assert "classic" in err
    trv("new", "--position", position(), "--start-tile", "perdition", code=2)
    assert "no games yet" in trv("games").stdout


FINAL_FIVE = """\
ruleset = "vendetta"
seed = 7
fill = "road"
road_die = 2
active_player = "ann"
[[players]]
name = "ann"
color = "red"
crew = "finalfive"
dice = [4, 2, 6, 1, 3, 5]
[[players]]
name = "bob"
color = "blue"
crew = "cars"
dice = [3, 3, 5, 1]
[[vehicles]]
id = "red-bike1"
at = "c3"
[[vehicles]]
id = "red-bike2"
at = "e3"
[[vehicles]]
id = "blue-small"
at = "c7"
"""


@pytest.fixture
def bikes(trv, position):
    trv("new", "--position", position(FINAL_FIVE))
    return trv


def test_turn_moves_two_motorcycles_from_bike_groups(bikes):
    out = bikes("turn", "--bike", "1", "--assign", "2", "--path", "F,F", "--bike", "2", "--assign", "1",
                "--path", "FL").stdout
    assert "ann assigns 1 to red-bike2, to move second" in out
    view = bikes.json("show")
    where = {v["id"]: v["at"] for v in view["vehicles"]}
    assert where["red-bike1"] == "c5" and where["red-bike2"] == "d3"
    assert {v["kind"] for v in view["vehicles"] if v["owner"] == "ann"} == {"motorcycle"}


def test_bike_flags_are_grouped_and_checked(bikes):
    err = bikes("turn", "--assign", "2", "--bike", "1", code=2).stderr
    assert "before the first --bike" in err
    err = bikes("turn", "--bike", "1", "--assign", "2", "--assign", "3", code=2).stderr
    assert "--assign given twice for --bike 1" in err
    err = bikes("turn", "--bike", "1", "--assign", "2", code=1).stderr
    assert "add a second --bike group, or --command" in err
    assert bikes.json("show")["version"] == bikes.json("show")["version"]  # nothing written
    err = bikes("turn", "--bike", "1", "--assign", "2", "--path", "F,F,F,F,F", "--bike", "2", "--assign", "1", code=1).stderr
    assert "--path for --bike 1 has 5 steps" in err


def test_one_motorcycle_and_a_command(bikes):
    out = bikes("turn", "--bike", "1", "--assign", "4", "--command", "nitro", "--command-die", "2").stdout
    assert "ann uses nitro with a 2" in out
    assert {v["id"]: v["at"] for v in bikes.json("show")["vehicles"]}["red-bike1"] == "c9"


def test_show_draws_motorcycles_by_marking_and_side_by_side(bikes):
    for choice in ("assign 4 to red-bike1", "assign 1 to red-bike2", "F", "F", "F", "F"):
        bikes("decide", *choice.split())
    assert bikes.json("show")["pending"]["kind"] == "road-bonus"  # red-bike1 drifted onto blue-small's space
    board = bikes("show").stdout
    assert "   7    .      R1BS     ." in board  # side by side, no brackets
    assert "[R2]" in board and "[R1]" not in board


BIG_RIG = """\
ruleset = "vendetta"
seed = 7
fill = "road"
road_die = 2
active_player = "ann"
[[players]]
name = "ann"
color = "red"
crew = "bigrig"
dice = [3, 2, 1, 3]
[[players]]
name = "bob"
color = "blue"
crew = "cars"
dice = [3, 3, 5, 1]
[[vehicles]]
id = "red-rear"
at = "c3"
[[vehicles]]
id = "red-mid"
at = "c4"
[[vehicles]]
id = "red-front"
at = "c5"
[[vehicles]]
id = "blue-large"
at = "b1"
"""


@pytest.fixture
def rig(trv, position):
    trv("new", "--position", position(BIG_RIG))
    return trv


def test_turn_drives_the_big_rig_with_steering_and_a_section(rig):
    out = rig("turn", "--steering", "2", "--section", "front", "--command", "cow-catcher", "--assign", "3",
              "--path", "F,FR,F").stdout
    assert "ann sets Hydraulic Steering to 2" in out and "ann assigns 3 to the front section's cow-catcher" in out
    view = rig.json("show")
    sections = {v["id"]: (v["kind"], v["at"], v["damaged_commands"]) for v in view["vehicles"] if v["owner"] == "ann"}
    assert sections == {"red-rear": ("bigrig-rear", "c6", []), "red-mid": ("bigrig-mid", "d6", []),
                        "red-front": ("bigrig-front", "d7", [])}
    assert view["players"][0]["steering"] == 1
    board = rig("show").stdout
    assert "[R>]" in board and "[R=]" in board and "[R<]" in board


def test_turn_shoots_a_big_rig_section_at_a_named_command(rig):
    rig("turn", "--steering", "2", "--section", "rear", "--command", "targeting-computer", "--assign", "1",
        "--path", "F", "--no-shoot")
    out = rig("turn", "--car", "large", "--assign", "3", "--path", "F,F,F,F", "--shoot", "red-front",
              "--target-command", "missile-launcher", code=1).stderr
    assert "--path" in out  # four steps for a 3
    out = rig("turn", "--car", "large", "--assign", "3", "--path", "F,F,F", "--shoot", "red-mid",
              "--target-command", "repair", code=1).stderr
    assert "shoot red-mid repair" in out and "shoot-command" not in out


def test_section_without_command_is_refused(rig):
    err = rig("turn", "--steering", "2", "--section", "front", "--assign", "3", code=1).stderr
    assert "--section front: needs --command" in err


def test_turn_places_the_rigs_damage_and_drops_a_hazard(rig, position):
    imp = BIG_RIG + '[[terrain]]\nat = "c6"\nkind = "impassable"\n'
    rig("new", "--position", position(imp), "--name", "imp")
    out = rig("turn", "--game", "imp", "--steering", "2", "--section", "rear", "--command", "hazard-dispenser",
              "--assign", "1").stdout
    assert "waiting on ann: place-damage" in out  # Dependable: the rig's player places the token
    rig("decide", "--game", "imp", "damage", "mid", "airstrike")
    rig("turn", "--game", "imp", "--hazard-at", "c3")
    rig("new", "--position", position(imp), "--name", "imp2")
    rig("turn", "--game", "imp2", "--steering", "2", "--section", "rear", "--command", "hazard-dispenser",
        "--assign", "1", "--place-damage", "mid:airstrike", "--hazard-at", "c3")
    for game in ("imp", "imp2"):
        view = rig.json("show", "--game", game)
        damaged = {v["id"]: v["damaged_commands"] for v in view["vehicles"] if v["owner"] == "ann"}
        assert damaged["red-mid"] == ["airstrike"] and {"at": "c3", "kind": None} in view["tokens"]
        assert view["pending"]["player"] == "bob"


def test_shooting_a_section_without_naming_a_command_is_refused(rig):
    rig("turn", "--steering", "2", "--section", "rear", "--command", "targeting-computer", "--assign", "1",
        "--path", "F", "--no-shoot")
    err = rig("turn", "--car", "large", "--assign", "3", "--path", "F,F,F", "--shoot", "red-mid", code=1).stderr
    assert "red-mid is a Big Rig section: name the command aimed at with --target-command" in err
    out = rig("turn", "--car", "large", "--assign", "3", "--path", "F,F,F", "--shoot", "red-mid",
              "--target-command", "traction-drive").stdout
    assert "blue-large fires at red-mid" in out


def test_every_bike_flag_is_used_or_the_turn_is_refused(bikes):
    before = bikes.json("show")["version"]
    err = bikes("turn", "--bike", "1", "--assign", "2", "--path", "F,F", "--shoot", "blue-large",
                "--bike", "2", "--assign", "1", code=1).stderr
    assert "--bike 1 --shoot blue-large: no shot was possible" in err
    assert bikes.json("show")["version"] == before  # nothing recorded
    out = bikes("turn", "--bike", "1", "--assign", "2", "--path", "F,F", "--bike", "2", "--assign", "1",
                "--path", "F", "--road-die").stdout
    assert "red-bike2 takes the road die bonus" in out


def test_a_game_of_every_crew_from_the_command_line(trv):
    """The issue's example: a Big Rig, the Final Five and a car crew at one table."""
    trv("new", "--player", "ann:red:bigrig", "--player", "bob:yellow:finalfive", "--player", "cy:blue:cars",
        "--seed", "11", "--name", "mixed")
    view = trv.json("show", "--game", "mixed")
    kinds = {v["id"]: v["kind"] for v in view["vehicles"]}
    assert kinds["red-front"] == "bigrig-front" and kinds["red-rear"] == "bigrig-rear"
    assert [kinds[f"yellow-bike{i}"] for i in range(1, 6)] == ["motorcycle"] * 5
    assert kinds["blue-small"] == "small"
    assert view["pending"]["player"] == "ann" and view["pending"]["kind"] == "steering"
    trv("new", "--bot", "greedy:red:bigrig", "--bot", "greedy:yellow:finalfive", "--bot", "random:blue:cars",
        "--seed", "12", "--name", "bots")
    assert trv.json("show", "--game", "bots")["finished"]
    assert trv("verify", "bots").stdout.startswith("OK")
