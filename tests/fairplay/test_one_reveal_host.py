"""One reveal per draw in host games (docs/fair-play.md): the host resolves draws only for the
game it created, each once; a fork sent to it is for looking only, a renamed copy is refused
before anything is written, and another intent for a draw it resolved is refused naming both.
The host's and each player's stores apart, packets as files."""

import random
import re

import pytest

from fairplay_helpers import Mail, version
from test_host import host_game
from test_one_reveal import _candidate, cheating_trv, copy_with_intent, other_option  # noqa: F401  (a fixture)

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def until_intent(tmp_path, org, players, seed):
    """Play (every packet mailed) until a player's action waits for the host's dice at a decision
    where another option needs dice too (the cheater's candidate, ``other_option``); that packet is kept."""
    chooser = random.Random(seed)
    by_name = {p.name: p for p in players}
    n = 0
    while True:
        legal = org("legal", "--game", "cup").stdout.splitlines()
        assert not legal[0].startswith("the game is over"), "no decision with two options that need dice"
        p = by_name[legal[0].split(":")[0]]
        since = version(p)
        options = [o.strip() for o in legal[1:]]
        out = p("decide", "--game", "cup", chooser.choice([o for o in options if not o.endswith(")")] or options)).stdout
        n += 1
        if "waits for the others' dice" in out:
            action = re.search(r"waits for the others' dice for '([^']+)'", out).group(1)
            if _candidate(p, since, action, f"probe{n}", "cup") is not None:
                return p, since, action
        packet = tmp_path / f"t{n}.trv"
        p("export", "cup", "--since", since, "-o", packet)
        Mail(tmp_path, [org, *players]).send(packet, p)


@pytest.mark.parametrize("names, seed", [(("ann", "bob"), 5), (("ann", "bob", "cyd"), 7)])
def test_a_renamed_copy_sent_to_the_host_is_refused_and_nothing_is_written(players, tmp_path, names, seed):
    org, *everyone = players("org", *names)
    host_game(tmp_path, org, everyone)
    p, since, action = until_intent(tmp_path, org, everyone, seed)
    candidate = other_option(p, since, action, "cup")
    copy, _ = copy_with_intent(tmp_path, p, since, candidate, "peek", "cup")
    before = org("games").stdout
    err = org("import", copy, code=1).stderr
    assert "one reveal per draw: the host's secret serves game cup" in err and "peek is a copy of it" in err
    assert org("games").stdout == before
    # the game's own intent is resolved as ever, and every store agrees
    p("export", "cup", "--since", since, "-o", tmp_path / "intent.trv")
    Mail(tmp_path, [org, *everyone]).send(tmp_path / "intent.trv", p)
    assert len({q("show", "--json").stdout for q in (org, *everyone)}) == 1


def test_another_intent_for_a_resolved_draw_is_refused_naming_both(players, tmp_path):
    """The route around: the copy under the game's own name, in another database of the host's
    (the same secrets): the host resolved the draw for the game's intent already."""
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    p, since, action = until_intent(tmp_path, org, [ann, bob], 5)
    candidate = other_option(p, since, action, "cup")
    copy, _ = copy_with_intent(tmp_path, p, since, candidate, "cup", "cup")
    p("export", "cup", "--since", since, "-o", tmp_path / "intent.trv")
    Mail(tmp_path, [org, ann, bob]).send(tmp_path / "intent.trv", p)
    second = type(org)(tmp_path, "org-second")
    second.home = org.home
    err = second("import", copy, code=1).stderr
    assert "one reveal per draw: the host revealed draw" in err
    assert f"{p.name}'s {action!r} (game cup" in err and f"refuses {p.name}'s {candidate!r}" in err
    assert "cup" not in second("games").stdout


def test_a_fork_sent_to_the_host_gets_no_roll_and_its_intent_is_evidence(players, tmp_path, cheating_trv):
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    p, since, action = until_intent(tmp_path, org, [ann, bob], 5)
    candidate = other_option(p, since, action, "cup")
    p("fork", "cup", "--at", since, "--name", "peek")
    with cheating_trv():  # a cheater's trv: it records an intent in a fork
        assert "waits for the others' dice" in p("decide", "--game", "peek", candidate).stdout
    p("export", "peek", "-o", tmp_path / "peek.trv")
    out = org("import", tmp_path / "peek.trv", "--reply", tmp_path / "peek-reply.trv").stdout
    assert "peek is a fork of cup" in out and "the host rolls no dice for it" in out
    assert not (tmp_path / "peek-reply.trv").exists()
    p("export", "cup", "--since", since, "-o", tmp_path / "intent.trv")
    Mail(tmp_path, [org, ann, bob]).send(tmp_path / "intent.trv", p)
    org("export", "cup", "-o", tmp_path / "cup-now.trv")
    err = org("verify", tmp_path / "cup-now.trv", "--against", tmp_path / "peek.trv", code=1, multiline=True)
    assert f"{p.name} signed two different games" in err.stderr and "signed two intents for draw" in err.stdout
