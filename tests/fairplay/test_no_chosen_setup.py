"""Nobody chooses the set-up or the seed (docs/fair-play.md): an answer to an invitation or a
host's offer is fixed by the message and the answering key, so asking twice ("the first mail was
lost") gives the same answer and the one who reveals last (the inviter, the host) has nothing to
choose between; a second invitation between the same players, made before the first became a
game, is named to the invitee.  Each player with their own store and files."""

import pytest


def invite(tmp_path, players, name="duel", out="invite.json"):
    args = ["invite", "--name", name, "-o", tmp_path / out]
    for p, color in zip(players, ["red", "blue", "green"]):
        args += ["--player", f"{p.name}:{color}", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
    players[0](*args)
    return tmp_path / out


@pytest.mark.parametrize("names", [("ann", "bob"), ("ann", "bob", "cyd")])
def test_joining_twice_gives_the_same_answer_so_the_inviter_has_one_set_up(players, tmp_path, names):
    everyone = players(*names)
    ann, others = everyone[0], everyone[1:]
    inv = invite(tmp_path, everyone)
    for p in others:
        p("join", inv, "-o", tmp_path / f"{p.name}-1.json")
        again = p("join", inv, "-o", tmp_path / f"{p.name}-2.json").stdout
        assert "you answered this invitation before: wrote the same answer" in again
        assert (tmp_path / f"{p.name}-1.json").read_bytes() == (tmp_path / f"{p.name}-2.json").read_bytes()
    first = ann("new", "--invite", inv, *sum((["--join", tmp_path / f"{p.name}-1.json"] for p in others), []),
                "--name", "one").stdout
    # the attack: build a second game from the other answers and keep the set-up she likes: refused
    err = ann("new", "--invite", inv, *sum((["--join", tmp_path / f"{p.name}-2.json"] for p in others), []),
              "--name", "two", code=1).stderr
    assert "you created game one from this invitation already" in err
    assert "two" not in ann("games").stdout
    assert "exchange game" in first


def test_a_second_invitation_before_the_first_became_a_game_is_named_to_the_invitee(players, tmp_path):
    ann, bob = players("ann", "bob")
    first = invite(tmp_path, [ann, bob], "duel", "first.json")
    quiet = bob("join", first, "-o", tmp_path / "bob-1.json").stdout
    assert "invited you before" not in quiet
    # ann never starts it (she saw the set-up it gives), and invites bob again
    second = invite(tmp_path, [ann, bob], "duel", "second.json")
    out = bob("join", second, "-o", tmp_path / "bob-2.json").stdout
    assert "ann invited you before, at " in out and "and never started that game (duel)" in out
    # once a game of theirs started (bob imported it), a next invitation is not flagged for it
    ann("new", "--invite", second, "--join", tmp_path / "bob-2.json")
    ann("export", "duel", "-o", tmp_path / "duel.trv")
    bob("import", tmp_path / "duel.trv")
    third = invite(tmp_path, [ann, bob], "rematch", "third.json")
    out = bob("join", third, "-o", tmp_path / "bob-3.json").stdout
    assert out.count("invited you before") == 1 and "at " in out  # the first only: it never started


def offer(tmp_path, org, players, name="cup", out="offer.json"):
    args = ["host", "offer", "--name", name, "-o", tmp_path / out]
    for p, color in zip(players, ["red", "blue", "green"]):
        args += ["--player", f"{p.name}:{color}", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
    org(*args)
    return tmp_path / out


@pytest.mark.parametrize("names", [("ann", "bob"), ("ann", "bob", "cyd")])
def test_a_host_cannot_choose_among_contributions(players, tmp_path, names):
    org, *everyone = players("org", *names)
    got = offer(tmp_path, org, everyone)
    for p in everyone:
        p("host", "join", got, "-o", tmp_path / f"{p.name}-1.json")
        again = p("host", "join", got, "-o", tmp_path / f"{p.name}-2.json").stdout
        assert "you answered this offer before: wrote the same contribution" in again
        assert (tmp_path / f"{p.name}-1.json").read_bytes() == (tmp_path / f"{p.name}-2.json").read_bytes()
    org("host", "new", got, *sum((["--join", tmp_path / f"{p.name}-1.json"] for p in everyone), []))
    # grinding by a second game of the same offer (the same seed, another name): refused
    err = org("host", "new", got, "--name", "cup2",
              *sum((["--join", tmp_path / f"{p.name}-2.json"] for p in everyone), []), code=1).stderr
    assert "you created game cup from this offer already" in err and "its seed serves that game only" in err
    assert "cup2" not in org("games").stdout


def test_a_second_offer_before_the_first_became_a_game_is_named(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    first = offer(tmp_path, org, [ann, bob], "cup", "first.json")
    ann("host", "join", first, "-o", tmp_path / "ann-1.json")
    second = offer(tmp_path, org, [ann, bob], "cup", "second.json")
    out = ann("host", "join", second, "-o", tmp_path / "ann-2.json").stdout
    assert "offered you a game before, at " in out and "never started that game (cup)" in out
