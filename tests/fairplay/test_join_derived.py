"""An exchange game's join is derived from the joiner's key (docs/fair-play.md, "Exchange games"):
the same bytes from every home of one key, so an inviter who gets a second answer (from a laptop
without the first's ledger) cannot build both games privately and keep the one she likes.  The
attack: bob answers one invitation from two homes holding his key; then the next route around
(the same home asked again; another invitation gets another join)."""

import shutil

import pytest

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def _second_home(players, bob):
    """Another home of bob's key (a laptop): its own store, ledger and secrets, bob's identity copied in."""
    [laptop] = players("laptop")
    for suffix in (".key", ".pub"):
        shutil.copy(bob.home / "identities" / f"bob{suffix}", laptop.home / "identities")
    return laptop


def _invite(ann, tmp_path, name):
    ann("invite", "--name", name, "-o", tmp_path / f"{name}.json", "--player", "ann:red",
        "--key", f"ann={tmp_path / 'ann.pub'}", "--player", "bob:blue", "--key", f"bob={tmp_path / 'bob.pub'}")
    return tmp_path / f"{name}.json"


def test_a_join_is_the_same_bytes_from_every_home_of_the_key(players, tmp_path):
    ann, bob = players("ann", "bob")
    laptop = _second_home(players, bob)
    invite = _invite(ann, tmp_path, "duel")
    bob("join", invite, "-o", tmp_path / "bob-home.json")
    laptop("join", invite, "--as", "bob", "-o", tmp_path / "bob-laptop.json")
    assert (tmp_path / "bob-home.json").read_bytes() == (tmp_path / "bob-laptop.json").read_bytes()
    # the game made from either plays on from the laptop too: its secrets hold the same chain
    ann("new", "--invite", invite, "--join", tmp_path / "bob-laptop.json")
    assert "duel" in ann("games").stdout
    # another invitation of the same players gets another join (the inviter could not know it before)
    again = _invite(ann, tmp_path, "duel2")
    bob("join", again, "-o", tmp_path / "bob-again.json")
    assert (tmp_path / "bob-again.json").read_bytes() != (tmp_path / "bob-home.json").read_bytes()
