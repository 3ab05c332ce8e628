"""The command line on the carnival ruleset: set-up, refusals, show and a turn."""

from pathlib import Path

import pytest

BIG_RIG = "The Big Rig is not allowed in the arena. Tina was very clear about that."
DIRECTIONS = {"F", "FR", "BR", "B", "BL", "FL"}


def test_new_takes_the_arena_side_and_show_json_adds_the_carnivals_parts(trv):
    trv("new", "--ruleset", "carnival", "--side", "slaytona", "--player", "ann:red", "--player", "bob:blue:finalfive",
        "--seed", "3")
    doc = trv.json("show")
    assert doc["ruleset"] == "carnival" and doc["side"] == "slaytona" and len(doc["tiles"]) == 3
    assert doc["scrap"] == {"ann": 0, "bob": 0} and doc["super_weapons"] == {} and doc["decree"] is None
    assert doc["pillars"]["raised"] == [] and sorted(doc["pillars"]["spaces"]) == list("ABCDEFGHI")
    assert doc["favors"] == {"ann": {"count": 0, "kinds": []}, "bob": {"count": 0}}  # ann is to play
    assert {v["facing"] for v in doc["vehicles"]} <= DIRECTIONS and all(v["at"] == "start" for v in doc["vehicles"])
    assert len(doc["vehicles"]) == 3 + 5
    assert "road" not in doc  # Vendetta's road of tiles means nothing in the arena: its board is board["arena"]


def test_show_draws_the_arena_with_facing_arrows(trv):
    trv("new", "--ruleset", "carnival", "--player", "ann:red", "--player", "bob:blue", "--seed", "3")
    trv("turn", "--car", "small", "--assign", str(trv.json("show")["players"][0]["dice"][0]), "--path", "F")
    out = trv("show").stdout
    assert "haulasseum arena" in out and "red-small@" in out and "R↑" in out
    assert "scrap 0" in out and "Tina: 5 cards in her pile" in out


@pytest.mark.parametrize("crew", ["bigrig"])
def test_the_big_rig_is_refused_and_nothing_is_written(trv, crew):
    err = trv("new", "--ruleset", "carnival", "--player", "ann:red", "--player", f"bob:blue:{crew}", code=1).stderr
    assert BIG_RIG in err
    assert not trv.db.exists() or "carnival" not in trv("games").stdout


def test_side_is_a_carnival_choice_only(trv):
    err = trv("new", "--player", "ann:red", "--player", "bob:blue", "--side", "slaytona", code=2).stderr
    assert "--side is not a set-up choice of the vendetta ruleset" in err
    err = trv("new", "--ruleset", "carnival", "--player", "ann:red", "--player", "bob:blue", "--side", "x", code=2).stderr
    assert "'x'; choose haulasseum or slaytona" in err


POSITION = (Path(__file__).resolve().parents[2] / "docs" / "examples" / "carnival-favors.toml").read_text()


@pytest.fixture
def arena(trv, tmp_path):
    path = tmp_path / "carnival.toml"
    path.write_text(POSITION)
    trv("new", "--position", str(path))
    return trv


def test_turn_plays_witness_me_favors_and_a_super_weapon(arena):
    out = arena("turn", "--witness-me", "--favor", "precision:shot=L", "--favor", "killer-pillar:-,C",
                "--car", "medium", "--assign", "1", "--path", "F", "--weapon", "blue-large").stdout
    assert "plays Witness Me!" in out and "plays precision: the shot die set to L" in out
    assert "blue-medium is eliminated: crushed by killer pillar C" in out
    assert "red-medium fires at blue-large; shot die: L; hit" in out
    doc = arena.json("show")
    assert doc["scrap"]["ann"] == 3 + 1 + 2 and doc["pillars"]["raised"] == ["C"]
    assert doc["favors"]["ann"] == {"count": 0}  # bob is to play now: ann's are counted only


def test_a_favor_not_held_or_not_playable_refuses_the_turn(arena):
    before = arena.json("show")["version"]
    err = arena("turn", "--favor", "mega-repair", "--car", "medium", "--assign", "1", "--path", "F",
                "--no-shoot", code=1).stderr
    assert "--favor mega-repair: ann holds no mega-repair" in err
    assert arena.json("show")["version"] == before  # nothing recorded
    err = arena("turn", "--weapon", "nobody", "--car", "medium", "--assign", "1", "--path", "F", code=1).stderr
    assert "--weapon nobody" in err


def test_legal_lists_the_carnivals_options_summarising_the_large_families(arena):
    out = arena("legal").stdout
    assert "witness me" in out and "assign 4 to red-medium" in out
    assert "favor killer-pillar - RAISE: none is raised; RAISE one of A B C D E F G H I" in out
    assert "favor precision DIE FACE: shot SM M L SML; slam TOP BOTTOM; direction FL F FR BL B BR; stunt 1 2 3 4" in out
    listed = arena.json("legal")  # every option, each one an action object
    assert sum(a.get("favor") == "killer-pillar" for a in listed) == 9 and sum(
        a.get("favor") == "precision" for a in listed) == 4 + 2 + 6 + 4
    arena("decide", "favor killer-pillar - C")  # a written-out option of a summarised family is taken as before
    assert arena.json("show")["pillars"]["raised"] == ["C"]


def test_legal_summarises_the_choppers_places_and_facings(arena):
    arena("decide", "assign 1 to red-medium")
    arena("decide", "airstrike 2")
    out = arena("legal").stdout
    listed = arena.json("legal")
    arena_spaces = {a["at"] for a in listed if a["facing"] == "FR"}  # only arena spaces offer a choice of facing
    assert f"chopper SPACE FACING: {len(arena_spaces)} spaces x 6 facings = {6 * len(arena_spaces)} options" in out
    road = [a for a in listed if a["at"] not in arena_spaces]
    assert road and len(listed) == 6 * len(arena_spaces) + len(road)  # a road-tile space: one option, its tile's forward
    assert {a["facing"] for a in road} == {"F", "BR", "BL"} and "road-tile spaces facing BR, the tile's forward" in out
    assert len(out.splitlines()) < 30


def test_airstrike_at_takes_the_choppers_facing_in_the_arena(arena):
    err = arena("turn", "--car", "medium", "--assign", "3", "--command", "airstrike", "--command-die", "2",
                "--airstrike-at", "l12:B", "--path", "F,F,F", "--no-shoot", code=1).stderr
    assert "--airstrike-at l12:B" in err and "cannot fly to l12" in err  # l12 is a spotlight
    out = arena("turn", "--car", "medium", "--assign", "3", "--command", "airstrike", "--command-die", "2",
                "--airstrike-at", "l13:B", "--path", "F,F,F", "--no-shoot").stdout
    assert "ann's chopper flies to l13" in out and "ann's chopper faces B" in out


SLAM_POSITION = """ruleset = "carnival"
seed = 7
tiles = ["the-parking-lot", "choke", "mudhole"]
favor_tokens = []
weapon_tokens = []
round = 2
active_player = "ann"
first_player = "ann"
favors = { ann = ["killer-pillar"] }
[[players]]
name = "ann"
color = "red"
dice = [1, 2, 3, 4]
[[players]]
name = "bob"
color = "blue"
dice = [3, 3, 5, 6]
[[vehicles]]
id = "red-medium"
at = "k9"
[[vehicles]]
id = "blue-medium"
at = "k10"
[script]
slam = ["BOTTOM"]
direction = ["FL"]
"""


def test_turn_plays_killer_pillar_in_the_middle_of_a_slam_with_at_effect(trv, tmp_path):
    path = tmp_path / "slam.toml"
    path.write_text(SLAM_POSITION)
    trv("new", "--position", str(path))
    out = trv("turn", "--favor", "killer-pillar:-,A@effect", "--car", "medium", "--assign", "1", "--path", "F").stdout
    assert "ann may play a party favor before the slammed car is moved" in out
    assert out.index("killer pillars raised: A") < out.index("blue-medium is pushed FL from k10 to j10")
    assert "blue-medium is eliminated: drove into impassable terrain at j10" in out
    assert trv.json("show")["scrap"]["ann"] == 3
    # without @effect the favor is played at the turn's first chance (the start), and the slam is not paused for it
    trv("new", "--position", str(path))
    out = trv("turn", "--favor", "killer-pillar:-,B", "--car", "medium", "--assign", "1", "--path", "F").stdout
    assert out.index("killer pillars raised: B") < out.index("ann assigns 1 to red-medium")
    assert "before the slammed car is moved" not in out and "blue-medium is pushed FL from k10 to j10" in out


def test_turn_plays_double_barrel_with_the_super_weapon(trv, tmp_path):
    path = tmp_path / "barrel.toml"  # red-medium's Laser Kebab reaches blue-large, past blue-small
    path.write_text(POSITION.replace('"precision", "killer-pillar"', '"double-barrel"').replace(
        'damage = ["dent"]', 'damage = ["dent", "dent"]\nshot = ["L", "SM"]'))
    trv("new", "--position", str(path))
    out = trv("turn", "--favor", "double-barrel:weapon=blue-large", "--car", "medium", "--assign", "1",
              "--path", "F", "--shoot", "blue-small").stdout
    assert "ann plays double-barrel: a super-weapon shot at blue-large before moving" in out
    assert out.index("red-medium fires at blue-large") < out.index("red-medium moves") < out.index(
        "red-medium fires at blue-small")


#: rules v4's decisions in one `trv turn` (issue 45): red-medium (k9, the Thwumper) and ann's
#: favors, under In the Mood for Mayhem!
FLAGS_POSITION = """ruleset = "carnival"
seed = 7
tiles = ["the-parking-lot", "choke", "mudhole"]
favor_tokens = []
weapon_tokens = []
round = 2
active_player = "ann"
first_player = "ann"
decree = "in-the-mood-for-mayhem"
decree_round = 1
favors = { ann = ["killer-pillar", "full-throttle"] }
[[players]]
name = "ann"
color = "red"
dice = [1, 2, 3, 4]
[[players]]
name = "bob"
color = "blue"
dice = [3, 3, 5, 6]
[[vehicles]]
id = "red-medium"
at = "k9"
[[vehicles]]
id = "blue-small"
at = "k14"
[[vehicles]]
id = "blue-medium"
at = "l11"
[script]
shot = ["SML", "SML"]
damage = ["dent", "dent"]
"""


@pytest.fixture
def mayhem(trv, tmp_path):
    path = tmp_path / "mayhem.toml"
    path.write_text(FLAGS_POSITION)
    trv("new", "--position", str(path))
    return trv


def test_one_turn_takes_full_throttle_in_path_mayhems_second_shot_and_a_favor_after_it(mayhem):
    """Full Throttle: "You must move all 3 spaces" (the last 3 steps of --path); In the Mood for
    Mayhem!: "you may shoot another time" (--second-shot); Killer Pillar: "Play at any time on
    your turn" (--favor ...@end, after the shots)."""
    out = mayhem("turn", "--car", "medium", "--assign", "1", "--favor", "full-throttle", "--path", "F,F,F,F",
                 "--shoot", "blue-small", "--second-shot", "blue-small", "--favor", "killer-pillar:-,C@end").stdout
    assert "ann plays full-throttle" in out and "red-medium moves F from k12 to k13" in out
    assert out.count("red-medium fires at blue-small") == 2
    assert out.index("red-medium fires at blue-small") < out.rindex("red-medium fires at blue-small") < out.index(
        "killer pillars raised: C") < out.index("blue-medium is eliminated: crushed by killer pillar C")
    doc = mayhem.json("show")
    assert doc["pending"]["player"] == "bob" and doc["scrap"]["ann"] == 2 + 2 + 3 and doc["pillars"]["raised"] == ["C"]


def test_without_second_shot_the_second_shot_is_declined(mayhem):
    out = mayhem("turn", "--car", "medium", "--assign", "4", "--path", "F,F,F,F", "--shoot", "blue-small").stdout
    assert out.count("red-medium fires at blue-small") == 1 and "ann takes no second shot" in out
    assert mayhem.json("show")["pending"]["player"] == "bob"


def test_the_thwumpers_way_is_given_to_weapon_and_chosen_after_its_roll(trv, tmp_path):
    path = tmp_path / "thwump.toml"
    path.write_text(FLAGS_POSITION.replace("decree = ", "# decree = ").replace("decree_round = 1", "")
                    .replace("favors = {", 'weapons = { red-medium = "thwumper" }\nfavors = {')
                    .replace("[script]", "[script]\nstunt = [2]"))
    trv("new", "--position", str(path))
    out = trv("turn", "--car", "medium", "--assign", "1", "--path", "F", "--weapon", "FR").stdout
    assert out.index("stunt die for the Thwumper of red-medium: 2") < out.index("the Thwumper of red-medium jumps FR")
    assert "red-medium moves FR from k10 to m11" in out
    assert "ann plays no more party favors this turn" in out and trv.json("show")["pending"]["player"] == "bob"


def test_double_barrels_jump_takes_its_way_after_the_roll(trv, tmp_path):
    path = tmp_path / "barrel-thwump.toml"
    path.write_text(FLAGS_POSITION.replace("decree = ", "# decree = ").replace("decree_round = 1", "")
                    .replace('favors = { ann = ["killer-pillar", "full-throttle"] }',
                             'weapons = { red-medium = "thwumper" }\nfavors = { ann = ["double-barrel"] }')
                    .replace("[script]", "[script]\nstunt = [2]"))
    trv("new", "--position", str(path))
    out = trv("turn", "--favor", "double-barrel:thwump=FR", "--car", "medium", "--assign", "1", "--path", "F").stdout
    assert out.index("stunt die for the Thwumper of red-medium: 2") < out.index("the Thwumper of red-medium jumps FR")
    assert out.index("red-medium moves FR from k9 to m10") < out.index("red-medium moves F from m10 to m11")


def test_weapon_thwump_alone_rolls_and_the_next_turn_command_chooses_the_way(trv, tmp_path):
    """The Thwumper: "Roll the stunt die and move it that many spaces in a straight line in any
    direction you choose": `--weapon thwump` rolls, the player sees the die, then `--weapon DIR`."""
    path = tmp_path / "thwump.toml"
    path.write_text(FLAGS_POSITION.replace("decree = ", "# decree = ").replace("decree_round = 1", "")
                    .replace("favors = {", 'weapons = { red-medium = "thwumper" }\nfavors = {')
                    .replace("[script]", "[script]\nstunt = [2]"))
    trv("new", "--position", str(path))
    out = trv("turn", "--car", "medium", "--assign", "1", "--path", "F", "--weapon", "thwump").stdout
    assert "stunt die for the Thwumper of red-medium: 2" in out and "jumps FR" not in out
    assert "waiting on ann: thwump (the Thwumper's stunt die shows 2: jump which way?)" in out
    out = trv("turn", "--weapon", "FR").stdout
    assert "red-medium moves FR from k10 to m11" in out and trv.json("show")["pending"]["player"] == "bob"


@pytest.mark.parametrize("flags", [("--weapon", "FX"), ("--favor", "double-barrel:thwump=FX")])
def test_a_way_the_thwumper_cannot_jump_is_refused_before_the_roll(trv, tmp_path, flags):
    path = tmp_path / "thwump.toml"
    path.write_text(FLAGS_POSITION.replace("decree = ", "# decree = ").replace("decree_round = 1", "")
                    .replace('favors = { ann = ["killer-pillar", "full-throttle"] }',
                             'weapons = { red-medium = "thwumper" }\nfavors = { ann = ["double-barrel"] }')
                    .replace("[script]", "[script]\nstunt = [2]"))
    trv("new", "--position", str(path))
    before = trv.json("show")["head"]
    err = trv("turn", "--car", "medium", "--assign", "1", "--path", "F", *flags, code=1).stderr
    assert f"{' '.join(flags)}: the Thwumper jumps F, FR, BR, B, BL or FL, not FX" in err
    assert "Traceback" not in err and trv.json("show")["head"] == before


def test_favor_at_shoot_is_played_after_moving_before_the_shot(mayhem):
    """Killer Pillar: "Play at any time on your turn": @shoot plays it in the shoot step, once the
    car has moved and before it fires (without it, at the turn's first chance: before moving)."""
    out = mayhem("turn", "--favor", "killer-pillar:-,C@shoot", "--car", "medium", "--assign", "4",
                 "--path", "F,F,F,F", "--shoot", "blue-small").stdout
    assert out.rindex("red-medium moves F") < out.index("killer pillars raised: C") < out.index(
        "red-medium fires at blue-small")
    assert "blue-medium is eliminated: crushed by killer pillar C" in out
    assert mayhem.json("show")["pending"]["player"] == "bob"


@pytest.mark.parametrize("favor, why", [
    ("killer-pillar:-,Z@shoot", "killer-pillar:LOWER,RAISE takes two different pillars of A, B, C, D, E, F, G, H, I"),
    ("killer-pillar:C,C@end", "killer-pillar:LOWER,RAISE takes two different pillars"),
    ("precision:shot=Q", "precision:DIE=FACE sets an FX die to one of its faces: shot SM M L SML; slam TOP BOTTOM"),
    ("precision:roll=2", "precision:DIE=FACE sets an FX die to one of its faces"),
    ("foo", "no party favor is called foo; the ones played are bootleg-turn, double-barrel"),
    ("solid-gold-muffler", "solid-gold-muffler is never played"),
])
def test_a_favor_naming_no_favor_pillar_or_face_is_refused_before_any_die(mayhem, favor, why):
    """Bad input is refused whole, even when the favor would come after a die roll (@shoot, @end: a
    flag not used after a roll is otherwise only reported): one message, nothing written."""
    before = mayhem.json("show")["head"]
    err = mayhem("turn", "--favor", favor, "--car", "medium", "--assign", "4", "--path", "F,F,F,F",
                 "--shoot", "blue-small", code=1).stderr
    assert f"--favor {favor}: {why}" in err and "--path" not in err and "Traceback" not in err
    assert mayhem.json("show")["head"] == before
