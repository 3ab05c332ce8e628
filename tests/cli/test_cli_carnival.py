"""The command line on the carnival ruleset: set-up, refusals, show and a turn."""

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
