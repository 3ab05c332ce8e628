"""`trv turn` uses every flag it is given, or refuses the whole command.

Each case starts from a position with scripted dice.  A refusal is one line
naming the flag, why it could not be used and what was legal, exit 1, and
nothing recorded; when a die roll changed the turn first, what was played
stands and the message names the flags that were not used.  A flag of
another ruleset is a usage error (exit 2) naming the ruleset it belongs to.
"""

from __future__ import annotations

import copy

import pytest

VENDETTA = {
    "ruleset": "vendetta", "seed": 7, "road": ["the-parking-lot", "choke", "mudhole"], "road_die": 2,
    "fill": "road", "tokens": [], "active_player": "ann",
    "players": [{"name": "ann", "color": "red", "dice": [4, 2, 6, 1]},
                {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6]}],
    "vehicles": [{"id": "red-medium", "at": "c3"}],
}
CLASSIC = {
    "ruleset": "classic", "seed": 3, "round": 2, "active_player": "ann", "wrecks": [],
    "players": [{"name": "ann", "color": "red"}, {"name": "bob", "color": "blue"}],
    "cars": [{"id": "red-6", "at": "d6"}, {"id": "red-5", "at": "b6"}, {"id": "blue-5", "at": "d8"}],
    "script": {"yellow": [2, 1, 1], "red": [5, 2]},
}


def toml(data: dict) -> str:
    """Just enough TOML for a position: scalars, lists, arrays of tables, one sub-table."""

    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return str(v)
        if isinstance(v, str):
            return '"' + v + '"'
        return "[" + ", ".join(value(x) for x in v) + "]"

    head, tables = [], []
    for key, v in data.items():
        if isinstance(v, dict):
            tables.append(f"[{key}]\n" + "".join(f"{k} = {value(x)}\n" for k, x in v.items()))
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            for item in v:
                tables.append(f"[[{key}]]\n" + "".join(f"{k} = {value(x)}\n" for k, x in item.items()))
        else:
            head.append(f"{key} = {value(v)}\n")
    return "".join(head) + "\n".join(tables)


@pytest.fixture
def start(trv, tmp_path):
    def begin(base: dict, **changes):
        data = copy.deepcopy(base)
        data.update(changes)
        path = tmp_path / "position.toml"
        path.write_text(toml(data))
        trv("new", "--position", str(path))
        return trv

    return begin


def version(trv) -> int:
    return trv.json("show")["version"]


def refused(trv, *args, flag: str, why: str, legal: str | None = None) -> str:
    """The turn is refused (exit 1, one line, nothing recorded) naming ``flag`` and ``why``."""
    before = version(trv)
    err = trv("turn", *args, code=1).stderr
    assert f"{flag}: {why}" in err, err
    assert "nothing was played" in err
    if legal is not None:
        assert f"legal: {legal}" in err, err
    assert version(trv) == before
    return err


# ----------------------------------------------------------------- Vendetta
def test_shoot_with_nothing_to_fire_at(start):
    trv = start(VENDETTA)
    refused(trv, "--car", "medium", "--assign", "1", "--shoot", "blue-large", flag="--shoot blue-large",
            why="nothing in red-medium's front arc at c4 to fire at")


def test_shoot_at_a_target_out_of_reach(start):
    trv = start(VENDETTA, vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-large", "at": "c6"},
                                    {"id": "blue-small", "at": "a9"}])
    refused(trv, "--car", "medium", "--assign", "2", "--shoot", "blue-small", flag="--shoot blue-small",
            why="blue-small is not in red-medium's front arc at c5", legal="shoot blue-large, no-shoot")


def test_road_die_off_road_and_on_a_momentum_move(start):
    trv = start(VENDETTA, terrain=[{"at": "c4", "kind": "offroad"}])
    refused(trv, "--car", "medium", "--assign", "1", "--road-die", flag="--road-die",
            why="red-medium did not start on the road or left it (now at c4)")
    trv = start(VENDETTA, vehicles=[{"id": "red-medium", "at": "c3", "moved": True},
                                    {"id": "red-small", "at": "eliminated"}, {"id": "red-large", "at": "eliminated"}])
    refused(trv, "--car", "medium", "--assign", "1", "--momentum", "--road-die", flag="--road-die",
            why="a momentum move cannot take the road die")


def test_a_command_already_used_this_round(start):
    trv = start(VENDETTA, players=[{"name": "ann", "color": "red", "dice": [4, 2, 6, 1], "command_used": True},
                                   {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6]}])
    refused(trv, "--car", "medium", "--assign", "4", "--command", "nitro", "--command-die", "2",
            flag="--command nitro", why="ann already used a command this round", legal="FL, F, FR")


def test_a_path_longer_than_the_moves_after_mud_is_refused(start):
    trv = start(VENDETTA, terrain=[{"at": "c5", "kind": "mud"}])
    refused(trv, "--car", "medium", "--assign", "4", "--path", "F,F,F,F", flag="--path F",
            why="1 step(s) not driven: red-medium's movement ended at c6")


def test_reroll_with_no_slam(start):
    trv = start(VENDETTA)
    refused(trv, "--car", "medium", "--assign", "1", "--reroll", flag="--reroll",
            why="no slam reroll was ann's to decide")


def test_repair_without_the_repair_command_and_command_die_without_a_command(start):
    trv = start(VENDETTA, vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "red-large", "at": "a3",
                                                                      "damage": ["dent"]}])
    refused(trv, "--car", "medium", "--assign", "4", "--repair", "large", flag="--repair large",
            why="no --command to go with it", legal="no-command")
    refused(trv, "--car", "medium", "--assign", "4", "--command", "nitro", "--command-die", "2", "--repair",
            "large", flag="--repair large", why="--repair needs --command repair (the command is nitro)")
    refused(trv, "--car", "medium", "--assign", "4", "--command-die", "6", flag="--command-die 6",
            why="no --command to go with it")


def test_airstrike_flags_without_the_air_attack_or_with_nothing_in_reach(start):
    trv = start(VENDETTA, round=2)
    refused(trv, "--car", "medium", "--assign", "1", "--airstrike-at", "c8", flag="--airstrike-at c8",
            why="no air attack this turn (use --command airstrike)")
    refused(trv, "--car", "medium", "--assign", "1", "--command", "airstrike", "--command-die", "2",
            "--airstrike-at", "c8", "--airstrike-target", "blue-small", flag="--airstrike-target blue-small",
            why="nothing in the chopper's front arc at c8 to fire at")


@pytest.mark.parametrize("flag, value, owner", [("--ram", "6:blue-5", "classic"), ("--chopper", "blue-4", "classic"),
                                                ("--move", "6:F", "classic")])
def test_a_classic_flag_in_a_vendetta_game_is_a_usage_error(start, flag, value, owner):
    trv = start(VENDETTA)
    err = trv("turn", "--car", "medium", "--assign", "1", flag, value, code=2).stderr
    assert f"{flag} is a flag of {owner}, not of vendetta" in err


def test_a_slam_mid_turn_keeps_what_was_played_and_names_the_flags_it_made_unusable(start):
    """The die roll (a slam) changed the turn: the assign and the steps before
    it stand, the turn goes on to its next decision, and the message says
    which flags were not used and why."""
    trv = start(VENDETTA, vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-medium", "at": "c5"},
                                    {"id": "blue-large", "at": "a9"}],
                script={"slam": ["BOTTOM"], "direction": ["FL"], "shot": ["M"], "damage": ["dent"]})
    before = version(trv)
    out = trv("turn", "--car", "medium", "--assign", "4", "--path", "F,F,F,F", "--road-die",
              "--shoot", "blue-medium").stdout
    assert "red-medium moves F from c4 to c5" in out and version(trv) > before
    assert "red-medium fires at blue-medium" in out  # the shot could still be taken, and was
    last = out.splitlines()[-1]
    assert last.startswith("not used after chance changed the turn (slam die: BOTTOM; direction die: FL")
    assert "--path F,F: 2 step(s) not driven: red-medium's movement ended at c5" in last
    assert "--road-die: red-medium's movement ended early at c5" in last
    assert trv.json("show")["pending"]["player"] == "bob"


def test_a_slam_waiting_on_a_reroll_keeps_the_later_flags_in_the_command_that_plays_them(start):
    trv = start(VENDETTA, vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-small", "at": "c5"}],
                script={"slam": ["BOTTOM"], "direction": ["FR"]})
    out = trv("turn", "--car", "medium", "--assign", "4", "--path", "F,F,F,F", "--no-shoot").stdout
    assert "waiting on ann: slam-reroll" in out
    assert "--path F,F: 2 step(s) not driven" in out
    assert "not played yet (the turn waits on ann's slam-reroll): --no-shoot" in out
    assert out.endswith("play them with: trv turn --no-shoot\n")
    assert trv.json("show")["pending"]["kind"] == "slam-reroll"


def test_the_default_straight_ahead_path_never_drives_into_certain_elimination(start):
    trv = start(VENDETTA, terrain=[{"at": "c5", "kind": "impassable"}])
    before = version(trv)
    err = trv("turn", "--car", "medium", "--assign", "2", code=1).stderr
    assert "the straight-ahead step F from c4 drives into impassable terrain at c5 (eliminated)" in err
    assert "steps that are not fatal: FL, FR" in err and version(trv) == before
    trv("turn", "--car", "medium", "--assign", "2", "--path", "F")  # spelled out: the player's choice
    assert "fatal: drives into impassable terrain at c5" in trv("legal").stdout
    out = trv("turn", "--path", "F").stdout
    assert "red-medium is eliminated" in out or "impassable" in out


# ------------------------------------------------------------------ classic
def test_vendetta_flags_in_a_classic_game_are_usage_errors(start):
    trv = start(CLASSIC)
    for args in (["--command", "nitro"], ["--momentum"], ["--reroll"], ["--no-shoot"]):
        err = trv("turn", "--move", "6:F,F", *args, code=2).stderr
        assert f"{args[0]} is a flag of vendetta" in err and "not of classic" in err


def test_classic_repeated_shoot_is_used_in_order_and_a_repeated_chopper_is_a_usage_error(start):
    trv = start(CLASSIC)
    err = trv("turn", "--move", "6:F,F", "--move", "5:F", "--chopper", "blue-5", "--chopper", "blue-5",
              code=2).stderr
    assert "--chopper given 2 times; a classic turn takes one" in err
    refused(trv, "--move", "6:F,F", "--move", "5:F", "--shoot", "6:blue-5", "--shoot", "5:blue-5",
            flag="--shoot 6:blue-5", why="shoot blue-5 with red-6 is not an option now")


def test_classic_move_longer_than_the_die(start):
    trv = start(CLASSIC)
    refused(trv, "--move", "6:2:F,F,F", flag="--move 6:2:F,F,F", why="1 step(s) not driven (F): the move of red-6 was over")


def test_classic_move_for_a_car_that_gets_no_die(start):
    trv = start(CLASSIC, cars=[{"id": "red-6", "at": "d6"}, {"id": "red-5", "at": "dumped"},
                               {"id": "blue-5", "at": "d8"}])
    refused(trv, "--move", "6:F,F", "--move", "5:F", flag="--move 5:F", why="red-5 got no die: it is dumped")


def test_classic_repair_without_double_sixes(start):
    trv = start(CLASSIC)
    refused(trv, "--move", "6:F,F", "--repair", "5", flag="--repair 5", why="no repair this turn")


def test_classic_attacks_when_none_is_possible(start):
    trv = start(CLASSIC, round=1)
    for flag, value in (("--ram", "6:blue-5"), ("--shoot", "6:blue-5"), ("--chopper", "blue-5")):
        refused(trv, "--move", "6:F,F", "--move", "5:F", flag, value, flag=f"{flag} {value}",
                why="no attacks in the first round")
    trv = start(CLASSIC, cars=[{"id": "red-6", "at": "d6"}, {"id": "blue-5", "at": "g20"}])
    refused(trv, "--move", "6:F,F", "--ram", "6:blue-5", flag="--ram 6:blue-5",
            why="ram blue-5 with red-6 is not an option now", legal="chopper blue-5, end-turn")


def test_classic_single_car_flags_with_move_are_refused(start):
    trv = start(CLASSIC)
    for args in (["--car", "6"], ["--assign", "2"], ["--path", "F,F"], ["--road-die"]):
        err = trv("turn", "--move", "6:F,F", *args, code=1).stderr
        assert "--move gives every move when it is used" in err and args[0] in err


# --------------------------------------------------------------------- help
def test_turn_help_lists_each_rulesets_flags_under_its_own_heading(trv):
    out = trv("turn", "--help").stdout
    headings = {name: out.index(f"(--ruleset {name}) flags:") for name in ("vendetta", "classic", "carnival", "toy")}
    assert out.index("Thunder Road: Vendetta (--ruleset vendetta)") < out.index("Thunder Road (1986) (--ruleset classic)")

    def section(name: str) -> str:
        start = headings[name]
        return out[start:min([h for h in headings.values() if h > start], default=len(out))]

    assert "--command nitro|drift|repair|airstrike" in section("vendetta")
    assert "--move CAR:[DIE:]PATH" in section("classic") and "--command" not in section("classic")
    assert "--reroll/--no-reroll" in section("toy")
    assert "--car" in section("carnival")


def test_no_road_die_declines_and_cannot_be_combined_with_road_die(start):
    trv = start(VENDETTA)
    err = trv("turn", "--car", "medium", "--assign", "1", "--road-die", "--no-road-die", code=2).stderr
    assert "--road-die and --no-road-die exclude each other" in err
    out = trv("turn", "--car", "medium", "--assign", "1", "--no-road-die").stdout
    assert "red-medium declines the road die bonus" in out


def test_turn_help_shows_each_ruleset_only_its_flags_with_each_crews_under_its_own_heading(trv):
    sections: dict[str, str] = {}  # heading -> the lines under it
    heading = ""
    for line in trv("turn", "--help").stdout.splitlines():
        if line.endswith("flags:") and "(--ruleset " in line:
            heading = line[line.index("(--ruleset "):]
            sections[heading] = ""
        elif heading:
            sections[heading] += line + "\n"
    rig = sections["(--ruleset vendetta), with the bigrig crew flags:"]
    assert "--steering N" in rig and "--cow-catcher" in rig
    assert "--bike N" in sections["(--ruleset vendetta), with the finalfive crew flags:"]
    assert "--steering" not in sections["(--ruleset vendetta) flags:"]
    carnival = {h: text for h, text in sections.items() if h.startswith("(--ruleset carnival)")}
    assert "--favor" in carnival["(--ruleset carnival) flags:"]
    assert "--bike N" in carnival["(--ruleset carnival), with the finalfive crew flags:"]
    assert len(carnival) == 2 and "--steering" not in "".join(carnival.values())  # no Big Rig in the arena
