"""The server's clock in its games: a player out of time loses by a claim the host signs, and
the player a game waits on is reminded by email (a local aiosmtpd), once a move."""

from __future__ import annotations

import json
import socket
from datetime import timedelta

import pytest

from trvendetta.app.clock import parse_stamp


def started(club, time="1h"):
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel", "--time", time)
    bob("join", "duel")
    return ann, bob


def test_a_player_out_of_time_loses_by_the_hosts_signed_claim(club, tmp_path):
    ann, bob = started(club)
    clock = club.on_store(club.club.timing, "duel")
    assert clock["control"] == "1h" and clock["deadline"]
    deadline = parse_stamp(clock["deadline"])
    silent = clock["seat"]
    # before the deadline, nothing; after it, the host claims the game for the server's clock
    assert club.on_store(club.club.tick, deadline - timedelta(minutes=1))["claimed"] == []
    assert club.on_store(club.club.tick, deadline + timedelta(seconds=1))["claimed"] == ["duel"]
    assert club.on_store(club.club.tick, deadline + timedelta(seconds=2))["claimed"] == []  # once
    record = club.club.export("duel", None)
    claim = [line for line in record.splitlines() if '"type":"trv-claim"' in line]
    assert len(claim) == 1 and f'"seat":"{silent}"' in claim[0] and '"by":"@host"' in claim[0]
    (tmp_path / "duel.trv").write_text(record)
    out = ann("verify", tmp_path / "duel.trv", server=False).stdout
    assert out.startswith("OK:") and f"{silent} lost on time, claimed by @host" in out, out
    # the clock's next round revealed the seed after the claim (a record read from a file takes it)
    assert "every roll checked against the host's revealed seed" in out, out
    # the silent player's move after it is refused, and nothing is written
    who = {"ann": ann, "bob": bob}[silent]
    row = json.loads(who("games", "--json").stdout)["games"][0]
    assert row["status"] == "over" and row["waiting_on"] is None and f"{silent} lost on time" in row["ended"]
    err = who("act", json.dumps(json.loads(who("legal", "--json").stdout)[0]), code=1).stderr
    assert "lost on time" in err and "nothing more can be played" in err, err
    assert club.club.export("duel", None) == record


def test_a_claim_the_host_did_not_sign_is_refused(club, tmp_path):
    """The route around a host's claim: a player writing one in the host's name."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fairplay"))
    from fairplay_helpers import rechain

    ann, bob = started(club)
    deadline = parse_stamp(club.on_store(club.club.timing, "duel")["deadline"])
    club.on_store(club.club.tick, deadline + timedelta(seconds=1))
    record = club.club.export("duel", None)
    lines = record.splitlines()
    at = next(i for i, line in enumerate(lines) if '"type":"trv-claim"' in line)
    sig = next(i for i in range(at - 1, 0, -1) if lines[i].startswith("+ @host:"))
    lines[sig] = "+ @host:" + "A" * 86 + "=="
    (tmp_path / "forged.trv").write_text(rechain("\n".join(lines) + "\n"))
    err = ann("verify", tmp_path / "forged.trv", code=1, server=False).stderr
    assert "the claim is not signed by the host" in err, err


class Inbox:
    def __init__(self):
        self.mails = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        self.mails.append((envelope.rcpt_tos, envelope.content.decode("utf-8", "replace")))
        return "250 OK"


@pytest.fixture
def inbox():
    aiosmtpd = pytest.importorskip("aiosmtpd.controller")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    box = Inbox()
    controller = aiosmtpd.Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    box.url = f"smtp://127.0.0.1:{port}?from=club@example.org"
    yield box
    controller.stop()


def test_the_player_a_game_waits_on_is_reminded_once_a_move(club, inbox):
    from trvendetta.server.reminders import Mailer

    club.club.mailer = Mailer.from_url(inbox.url)
    ann, bob = started(club, time="3d")
    for p in (ann, bob):
        p("login", club.url, "--email", f"{p.name}@example.org", server=False)
    waiting = club.on_store(club.club.timing, "duel")["seat"]
    assert club.on_store(club.club.tick, None, "https://club.example.org")["reminded"] == [("duel", waiting)]
    assert club.on_store(club.club.tick, None, "https://club.example.org")["reminded"] == []  # not twice
    (to, mail), = inbox.mails
    assert to == [f"{waiting}@example.org"] and "Subject: trv: duel waits on you" in mail
    assert "https://club.example.org/play/duel" in mail and "deadline" in mail
    # a move later, the one it then waits on is reminded
    who = {"ann": ann, "bob": bob}[waiting]
    who("act", json.dumps(json.loads(who("legal", "--json").stdout)[0]))
    now = club.on_store(club.club.timing, "duel")["seat"]
    assert club.on_store(club.club.tick, None, "")["reminded"] == [("duel", now)]
    assert len(inbox.mails) == 2


def test_a_bad_smtp_address_is_one_message():
    from trvendetta.core.errors import TrvError
    from trvendetta.server.reminders import Mailer

    for url, words in [("http://x", "smtp://"), ("smtp://mail.example.org:25", "say who the reminders are from")]:
        with pytest.raises(TrvError, match=words):
            Mailer.from_url(url)
    m = Mailer.from_url("smtps://club:s3cret@mail.example.org?from=club@example.org")
    assert (m.port, m.tls, m.password) == (465, "ssl", "s3cret") and "s3cret" not in str(m)


@pytest.mark.parametrize("damage", ["index ahead", "index row unreadable"])
def test_a_damaged_game_stops_no_other_games_time_out(club, tmp_path, capsys, damage):
    """The server's clock takes each game's part of its round on its own: a damaged game, listed before a
    healthy one whose time ran out, is said on stderr (once, naming it) and the healthy one is claimed."""
    import sqlite3

    ann, bob = started(club)
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "broken", "--time", "1h")
    bob("join", "broken")
    edit = "version = version + 2" if damage == "index ahead" else "status = 'lost'"
    with sqlite3.connect(tmp_path / "club.sqlite") as con:
        con.execute(f"UPDATE trv_games SET {edit} WHERE id = 'broken'")
        listed = [r[0] for r in con.execute("SELECT id FROM trv_games ORDER BY last_used DESC, id")]
    con.close()
    assert listed == ["broken", "duel"]  # the damaged game's part of the round comes first
    deadline = parse_stamp(club.on_store(club.club.timing, "duel")["deadline"])
    capsys.readouterr()
    first = club.on_store(club.club.tick, deadline + timedelta(seconds=1))
    assert first["claimed"] == ["duel"]
    assert first["failed"] == (["broken"] if damage == "index ahead" else [])  # (a row that does not read: not listed)
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and said.startswith("trv serve: game 'broken': ") and "DamagedStore" in said, said
    assert "tries it again each round" in said
    club.on_store(club.club.tick, deadline + timedelta(seconds=2))
    assert capsys.readouterr().err == ""  # said once a cause, not every round
    assert '"type":"trv-claim"' in club.club.export("duel", None)


def test_a_database_that_does_not_answer_fails_the_clocks_whole_round(club, monkeypatch):
    """No game's failure: the round is said once as the round's (server/app.py), not once a game."""
    psycopg = pytest.importorskip("psycopg")
    started(club)

    def down(game):
        raise psycopg.OperationalError("the connection is lost")

    monkeypatch.setattr(club.club, "_timed", down)
    with pytest.raises(psycopg.OperationalError):
        club.on_store(club.club.tick, None)
    assert club.club._failing == {}
