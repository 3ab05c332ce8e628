"""A player answering an offer or an invitation is shown the terms it signs (docs/fair-play.md,
"Host mode"): the ruleset and rules version, the seats in turn order with colours and crews, the
bot seats the host runs, the time control and the signer's key.  The attack: a host offered a
1-minute clock and a bot seat it runs, and its players answered blind."""

import re

import pytest

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def test_host_join_prints_the_terms_it_signs(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    org("host", "offer", "--name", "cup", "--time", "1m", "-o", tmp_path / "offer.json",
        "--player", "ann:red", "--key", f"ann={tmp_path / 'ann.pub'}", "--player", "bob:blue:bigrig",
        "--key", f"bob={tmp_path / 'bob.pub'}", "--bot", "greedy:green:cars:robo")
    out = ann("host", "join", tmp_path / "offer.json", "-o", tmp_path / "ann.json").stdout
    host = re.search(r"send it to the host \(key ([0-9a-f]{16})", out)
    assert "the terms you sign, offer cup (" in out
    assert "ruleset: vendetta, rules version 2" in out
    assert ("seats in turn order: ann (red, cars), bob (blue, bigrig), robo (green, cars; bot greedy, run by the "
            "host, who sees every roll)") in out
    assert "time control: 1m: each answer within 1m; a seat that does not answer in time loses" in out
    assert f"signed by: the host, key {host.group(1)}" in out
    assert out.index("the terms you sign") < out.index("wrote your contribution")
    # asked again, the same terms with the same answer
    again = ann("host", "join", tmp_path / "offer.json", "-o", tmp_path / "ann2.json").stdout
    assert "seats in turn order: ann (red, cars)" in again
    assert (tmp_path / "ann.json").read_bytes() == (tmp_path / "ann2.json").read_bytes()


def test_join_prints_the_terms_of_an_invitation(players, tmp_path):
    ann, bob = players("ann", "bob")
    ann("invite", "--name", "duel", "--time", "7d+1d", "-o", tmp_path / "invite.json", "--player", "ann:red",
        "--key", f"ann={tmp_path / 'ann.pub'}", "--player", "bob:blue", "--key", f"bob={tmp_path / 'bob.pub'}")
    out = bob("join", tmp_path / "invite.json", "-o", tmp_path / "bob.json").stdout
    assert "the terms you sign, invitation duel (" in out
    assert "ruleset: vendetta, rules version 2" in out and "seats in turn order: ann (red, cars), bob (blue, cars)" in out
    assert "time control: 7d+1d: a reserve of 7d plus 1d an answer" in out
    assert re.search(r"signed by: ann, key [0-9a-f]{16}", out)
