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


def test_a_turn_waiting_for_dice_says_whose_and_the_reply_says_whom_to_mail(players, tmp_path):
    """The turn's output ends with whose dice it waits for, not with "waiting on ann" (the decision
    is taken: nobody is to play); the reply names whom it goes to and, when the game now waits on
    the replier, that a move played first rides in the same mail (docs/fair-play.md, mails per turn)."""
    from test_send import sent

    ann, bob = players("ann", "bob")
    exchange_by_send(tmp_path, [ann, bob], "--ruleset", "toy")
    out = ann("turn", "--assign", "2", "--no-reroll").stdout
    assert "waiting on ann" not in out and "ann waits for the others' dice for 'add 2'" in out
    assert out.index("waits for the others' dice") < out.index("waiting for bob's dice")
    packet, _ = sent(ann, tmp_path, 1)
    out = bob("import", packet).stdout
    assert "ann adds 2" in out and "waiting on bob" in out
    assert ": send it to ann (or play bob's move first: `trv send` then carries the reply and the move in one " \
           "mail)" in out
    bob("turn", "--assign", "1")  # bob plays before mailing: one packet carries his reveal and his move
    packet, said = sent(bob, tmp_path, 2)
    assert "send it to ann" in said
    out = ann("import", packet).stdout
    assert "bob reveals dice for draw 2" in out and "bob: add 1" in out


def test_the_hint_for_after_the_dice_is_withdrawn_when_the_dice_change_the_turn(players, tmp_path):
    """ann's turn waited for bob's dice with --no-reroll unplayed; once bob's reply is imported the
    game waits on bob, so `trv turn --no-reroll` no longer applies to ann: the import says so."""
    from test_send import sent

    ann, bob = players("ann", "bob")
    exchange_by_send(tmp_path, [ann, bob], "--ruleset", "toy")
    out = ann("turn", "--assign", "2", "--no-reroll").stdout
    assert "once the reply is imported, play them with: trv turn --no-reroll" in out
    packet, _ = sent(ann, tmp_path, 1)
    bob("import", packet)
    reply, _ = sent(bob, tmp_path, 2)
    out = ann("import", reply).stdout
    assert "withdrawn: `trv turn --no-reroll`, printed while the turn waited for the dice, no longer applies: " \
           "it is bob's decision" in out, out
    out = ann("import", reply).stdout  # said once: the hint is gone
    assert "withdrawn" not in out
