"""`trv turn` in a game whose dice come from other stores (docs/fair-play.md): the command stops
at the first action that needs them; every flag it did not play is named, with how to go on."""

from test_send import exchange_by_send


def test_a_turn_stopped_for_remote_dice_names_the_flags_it_did_not_play(players, tmp_path):
    ann, bob = players("ann", "bob")
    exchange_by_send(tmp_path, [ann, bob], "--ruleset", "toy")
    assert ann.pending() == "ann"
    out = ann("turn", "--assign", "2", "--no-reroll").stdout  # adding draws a chance bonus: the dice are bob's
    assert "waiting for bob's dice" in out
    assert "not played yet ('add 2' waits for the dice): --no-reroll" in out
    assert "once the reply is imported, play them with: trv turn --no-reroll" in out
    # a turn whose every flag was played says so (in another game of theirs: a fork draws no dice)
    ann("invite", "--name", "again", "-o", tmp_path / "again.json", "--ruleset", "toy", "--player", "ann:red",
        "--key", f"ann={tmp_path / 'ann.pub'}", "--player", "bob:blue", "--key", f"bob={tmp_path / 'bob.pub'}")
    bob("join", tmp_path / "again.json", "-o", tmp_path / "bob-again.json")
    ann("new", "--invite", tmp_path / "again.json", "--join", tmp_path / "bob-again.json")
    out = ann("turn", "--game", "again", "--assign", "3").stdout
    assert "every flag was played; 'add 3' waits for the dice" in out
