"""`trv turn` as a new player meets it (issue 29): an air attack's shot never skipped in
silence, a motorcycle's shot at a Big Rig section, a flag that can never apply refused,
the rest of a turn kept after an interruption, and the true reason for steps not driven."""

from __future__ import annotations

RIG = """\
ruleset = "vendetta"
seed = 7
fill = "road"
road_die = 2
round = {round}
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
at = "e9"
"""

BIKES = """\
ruleset = "vendetta"
seed = 7
fill = "road"
road_die = 2
round = 2
active_player = "ann"
[[players]]
name = "ann"
color = "red"
crew = "finalfive"
dice = [4, 2, 6, 1, 3, 5]
[[players]]
name = "bob"
color = "blue"
crew = "bigrig"
dice = [3, 2, 1, 3]
[[vehicles]]
id = "red-bike1"
at = "c3"
[[vehicles]]
id = "red-bike2"
at = "a3"
[[vehicles]]
id = "blue-rear"
at = "c5"
[[vehicles]]
id = "blue-mid"
at = "c6"
[[vehicles]]
id = "blue-front"
at = "c7"
"""

AIR = ("turn", "--steering", "1", "--section", "mid", "--command", "airstrike", "--assign", "3", "--airstrike-at", "e8")


def start(trv, tmp_path, text: str) -> None:
    (tmp_path / "p.toml").write_text(text)
    trv("new", "--position", str(tmp_path / "p.toml"))


def fresh(trv, tmp_path, text: str):
    """Another store, started from ``text`` (to play the same turn another way)."""
    other = trv.__class__(tmp_path / "other.sqlite")
    start(other, tmp_path, text)
    return other


def version(trv) -> int:
    return trv.json("show")["version"]


def test_an_air_attack_with_a_target_in_the_arc_is_never_skipped_in_silence(trv, tmp_path):
    start(trv, tmp_path, RIG.format(round=2))
    err = trv(*AIR, code=1).stderr
    assert ("--airstrike-at e8: ann's chopper at e8 can fire at blue-large: name the shot with "
            "--airstrike-target TARGET (--airstrike-target none to hold fire)") in err
    assert version(trv) == 5  # nothing played
    out = trv(*AIR, "--airstrike-target", "blue-large").stdout
    assert "ann's chopper fires at blue-large" in out
    trv = fresh(trv, tmp_path, RIG.format(round=2))
    out = trv(*AIR, "--airstrike-target", "none").stdout
    assert "ann's chopper flies to e8" in out and "fires" not in out


def test_no_air_attack_in_round_one_is_the_reason_given(trv, tmp_path):
    start(trv, tmp_path, RIG.format(round=1))
    err = trv(*AIR, code=1).stderr
    assert "--airstrike-at e8: there is no air attack in round 1" in err


def test_a_motorcycle_shoots_a_big_rig_section_naming_its_command(trv, tmp_path):
    start(trv, tmp_path, BIKES)
    out = trv("turn", "--bike", "1", "--assign", "1", "--shoot", "blue-rear", "--target-command",
              "hazard-dispenser", "--bike", "2", "--assign", "2").stdout
    assert "red-bike1 fires at blue-rear" in out
    trv = fresh(trv, tmp_path, BIKES)
    err = trv("turn", "--bike", "1", "--assign", "1", "--shoot", "blue-rear", "--bike", "2", "--assign", "2",
              code=1).stderr  # without the command: the section's commands are named, not "not in the arc"
    assert "--bike 1 --shoot blue-rear: blue-rear is a Big Rig section: name the command aimed at" in err


def test_reroll_shot_without_the_targeting_computer_is_refused(trv, tmp_path):
    start(trv, tmp_path, RIG.format(round=2))
    err = trv("turn", "--steering", "1", "--section", "front", "--command", "missile-launcher", "--assign", "2",
              "--reroll-shot", code=1).stderr
    assert "--reroll-shot can never apply to this turn: only the Targeting Computer" in err
    assert version(trv) == 5


def test_the_flags_after_an_interruption_are_kept_in_the_command_printed(trv):
    trv("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "7", "--name", "duel")
    trv("turn", "--car", "medium", "--assign", "5", "--path", "F,F,FL,F,F,F,F", "--road-die")
    out = trv("turn", "--as", "ann", "--car", "large", "--assign", "6", "--path", "F,F,F,FR,F,F,F,F", "--road-die",
              "--shoot", "blue-medium").stdout
    lines = out.splitlines()
    assert lines[-2] == "not played yet (the turn waits on ann's slam-reroll): --shoot blue-medium"
    assert lines[-1] == "once ann has answered (trv decide ...), play them with: trv turn --as ann --shoot blue-medium"
    assert "--shoot" not in lines[-3]  # not among the flags a die roll made unusable
    trv("decide", "accept")
    assert "red-large fires at blue-medium" in trv("turn", "--as", "ann", "--shoot", "blue-medium").stdout


def test_steps_that_needed_a_road_die_never_offered_say_so(trv):
    trv("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "7", "--name", "duel")
    trv("turn", "--car", "medium", "--assign", "5")
    err = trv("turn", "--car", "small", "--assign", "4", "--path", "F,F,F,F,F,F", "--road-die", code=1).stderr
    assert ("--path F,F: 2 step(s) not driven: the move's 4 steps were driven, and these needed the road die, "
            "which was not offered; --road-die: red-small did not start on the road") in err
    assert "a slam, a hazard" not in err


def duel(trv) -> None:
    trv("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "7", "--name", "duel")


def test_a_dry_run_prints_the_turn_and_records_nothing(trv):
    duel(trv)
    out = trv("turn", "--car", "medium", "--assign", "5", "--dry-run").stdout
    lines = out.splitlines()
    assert lines[0] == "dry run: nothing is recorded"
    assert "   24. blue-medium ends its move at e5" in lines and lines[-2:] == ["   25. bob's turn ends",
                                                                            "the turn ends there"]
    assert "ann's turn" not in out and "rolls" not in out  # the next turn's dice are not the preview's to tell
    assert version(trv) == 14
    out = trv("turn", "--car", "medium", "--assign", "5", "--path", "F,F,FL", "--dry-run").stdout
    assert out.splitlines()[-1] == "then bob: step (2 moves left): FL, F, FR"  # where the path leaves the car
    assert version(trv) == 14


def test_a_dry_run_stops_before_a_die_roll_and_names_the_flags_it_did_not_preview(trv):
    duel(trv)
    trv("turn", "--car", "medium", "--assign", "5", "--path", "F,F,FL,F,F,F,F", "--road-die")
    out = trv("turn", "--car", "large", "--assign", "6", "--path", "F,F,F,FR,F,F,F,F", "--road-die", "--shoot",
              "blue-medium", "--dry-run").stdout
    assert "   38. red-large takes the road die bonus (+2)" in out
    assert "stops before 'F': it rolls a die or turns a hidden token, which a preview never shows" in out
    assert "slam" not in out  # the slam's dice are not shown
    assert "not previewed: --shoot blue-medium" in out
    assert version(trv) == 28
    err = trv("turn", "--car", "large", "--assign", "6", "--path", "F,F,F,F,F,F,F,F,F", "--dry-run", code=1).stderr
    assert "--path has 9 steps but this move has at most 6" in err and version(trv) == 28


def test_log_sentences_that_gave_the_wrong_reading_read_right():
    from trvendetta.carnival import events as cev
    from trvendetta.vendetta import events as vev

    assert vev.describe(vev.MoveFinished("red-small", None)) == "red-small's move ends off the board"
    assert vev.describe(vev.MoveFinished("red-small", "c4")) == "red-small ends its move at c4"
    assert cev.describe(vev.CarDisabled("blue-large")) == "blue-large is inoperable (it keeps its facing)"
    assert vev.describe(vev.CarDisabled("blue-large")) == "blue-large is inoperable and turned backward"
    assert cev.describe(cev.ShotTaken("ann", "after")).startswith("ann's shot after moving is counted")
    assert "after shot" not in " ".join(cev.describe(cev.ShotTaken("ann", k)) for k in cev.SHOT_TAKEN)
    rig = vev.describe(vev.SlamDirectionRolled("FL", "blue-small", None))
    assert rig == "slam direction die: FL (no slam die with a motorcycle or the Big Rig); blue-small moves"
    assert vev.describe(vev.PlayerOut("ann", "all cars eliminated")) == "ann is out (all vehicles eliminated)"
    assert cev.describe(vev.PlayerOut("ann", "no operational car")) == "ann is out (no operational vehicle)"
    drift = vev.describe(vev.MotorcycleDrifted("red-bike1", "red-bike2"))
    assert "drifts through" not in drift and "slams only where its move ends" in drift


def test_a_motorcycle_s_coasting_refusal_speaks_of_motorcycles(trv, tmp_path):
    start(trv, tmp_path, BIKES)
    err = trv("act", '{"type":"assign","car":"red-bike1","die":1,"momentum":true}', code=1).stderr
    assert "coasting for red-bike1 is not allowed now (coasting: only when no unmoved operational motorcycle" in err
    assert "per car" not in err


SPENT_RIG = RIG.format(round=2).replace('active_player = "ann"', 'active_player = "bob"').replace(
    'id = "red-mid"\nat = "c4"', 'id = "red-mid"\nat = "c4"\ndamage = ["traction-drive", "airstrike"]').replace(
    'id = "blue-large"\nat = "e9"', 'id = "blue-medium"\nat = "d2"')


def test_a_rig_section_with_every_aimable_command_damaged_is_named_as_no_target(trv, tmp_path):
    start(trv, tmp_path, SPENT_RIG)
    err = trv("turn", "--car", "medium", "--assign", "1", "--path", "F", "--shoot", "red-mid", "--target-command",
              "airstrike", code=1).stderr
    assert "--shoot red-mid: red-mid: every command a shot may aim at is damaged, so it is no target" in err, err
    assert "the turn ended before" not in err


def test_a_flag_refused_after_a_die_roll_is_reported_once_not_retried_for_ever(trv, tmp_path):
    """From c2 the car slams the rig's rear (chance): the shot at the spent section is then
    reported as not used (a refusal there was asked again and again: the command never ended)."""
    start(trv, tmp_path, SPENT_RIG.replace('at = "d2"', 'at = "c2"'))
    out = trv("turn", "--car", "medium", "--assign", "1", "--shoot", "red-mid", "--target-command", "airstrike").stdout
    assert out.count("--shoot red-mid:") == 1 and "not used after chance changed the turn (slam direction die" in out


def test_a_classic_step_refused_names_which_step_and_where(trv):
    trv("new", "--ruleset", "classic", "--player", "ann:red", "--player", "bob:blue", "--seed", "4")
    err = trv("turn", "--move", "6:F,F,F,F,F", code=1).stderr
    assert "--move 6:F,F,F,F,F: step 4 of 5 (F from a7) is not an option now" in err and "legal: FR" in err
