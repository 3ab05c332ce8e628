"""Bot seats in host games (docs/fair-play.md): the host runs them; the charter declares each bot
seat and binds it to the host's key, so the host's store plays and signs the bot's actions (and
resolves their dice); every store ends alike and verifies every roll after the reveal."""

import random
import re

import pytest

from fairplay_helpers import host_game, version
from test_host_remote import deliver, send

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def host_bot_game(tmp_path, org, humans, bots):
    out = host_game(tmp_path, org, humans, bots)
    for name, kind in bots:
        assert f"{name} (bot {kind}, run by the host" in out
    send(tmp_path, org, [org, *humans])
    return out


def play_to_the_end(tmp_path, org, humans, chooser):
    by_name = {p.name: p for p in humans}
    stores = [org, *humans]
    for _ in range(2000):
        legal = org("legal").stdout.splitlines()
        if legal[0].startswith("the game is over"):
            return
        p = by_name[legal[0].split(":")[0]]  # never a bot seat: the host's store plays those at once
        p("decide", chooser.choice(legal[1:]).strip())
        send(tmp_path, p, stores)
    raise AssertionError("the game did not end")


def finished_alike(stores):
    shown = {p("show", "--json").stdout for p in stores}
    assert len(shown) == 1 and stores[0]("legal").stdout.startswith("the game is over")
    for p in stores:
        out = p("verify").stdout
        assert out.startswith("OK: ") and "every roll checked against the host's revealed seed" in out
        assert "bot seats: robo (greedy, run by the host" in out


def test_a_host_game_with_a_bot_seat_across_two_stores(players, tmp_path):
    org, ann = players("org", "ann")
    host_bot_game(tmp_path, org, [ann], [("robo", "greedy")])
    play_to_the_end(tmp_path, org, [ann], random.Random(41))
    finished_alike([org, ann])
    record = org("export", "cup").stdout
    assert re.search(r"^\+ robo:", record, re.M)  # the bot's actions, signed with the host's key
    assert '\\"bots\\":{\\"robo\\":\\"greedy\\"}' in record  # the charter declares the bot seat


def test_a_host_game_with_a_bot_seat_across_three_stores(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    host_bot_game(tmp_path, org, [ann, bob], [("robo", "greedy")])
    play_to_the_end(tmp_path, org, [ann, bob], random.Random(42))
    finished_alike([org, ann, bob])


def test_a_host_game_of_bots_only_is_played_by_the_host_and_verifies_elsewhere(players, tmp_path):
    org, ann = players("org", "ann")
    org("host", "offer", "--name", "cup", "-o", tmp_path / "offer.json",
        "--bot", "greedy:red:cars:robo", "--bot", "random:blue:cars:rita")
    out = org("host", "new", tmp_path / "offer.json").stdout
    assert "the host reveals the game's secret seed" in out
    assert org("legal").stdout.startswith("the game is over")
    org("export", "cup", "-o", tmp_path / "cup.trv")
    out = ann("verify", tmp_path / "cup.trv").stdout
    assert out.startswith("OK: ") and "every roll checked" in out and "robo (greedy" in out and "rita (random" in out
    ann("import", tmp_path / "cup.trv")
    assert ann("show", "--json").stdout == org("show", "--json").stdout
