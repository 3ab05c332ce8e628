"""A bot seat on the club server: a person on the CLI plays a whole game against a bot the server
runs; the record verifies offline and names the bot seat, run by the server's key."""

from __future__ import annotations

import base64
import json
import re
import sqlite3
import sys
from pathlib import Path

import httpx
import pytest

from trvendetta import replays

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fairplay"))
from fairplay_helpers import rechain  # noqa: E402


def play_alone(ann, game, limit=2000):
    """ann plays the first legal action whenever the game waits on her; the server plays the bot, so
    the game never waits on the bot seat when a command of hers ends."""
    for _ in range(limit):
        row = next(g for g in json.loads(ann("games", "--json").stdout)["games"] if g["game"] == game)
        if row["status"] == "over" or row["waiting_on"] is None:
            return row
        assert row["waiting_on"] == "ann", row
        action = json.loads(ann("legal", "--json", "--game", game).stdout)[0]
        ann("act", "--game", game, json.dumps(action))
    raise AssertionError("the game did not end")


def test_a_whole_game_against_a_server_bot_verifies_and_names_it(club, tmp_path):
    ann = club.player("ann")
    out = ann("new", "--player", "ann:red:cars", "--bot", "greedy:blue:cars:robo", "--name", "duel").stdout
    assert "duel" in out and "waiting on" in out
    row = play_alone(ann, "duel")
    assert row["status"] == "over"
    record = ann("export", "--game", "duel").stdout
    assert club.club.export("duel", None) == record
    path = tmp_path / "duel.trv"
    path.write_text(record)
    verified = ann("verify", str(path), server=False).stdout
    assert verified.startswith("OK:"), verified
    from trvendetta.replays.signatures import fingerprint

    # the bot seat, its kind and the key that runs it: the server's (the one `trv login` names)
    assert f"bot seats: robo (greedy, run by the host, key {fingerprint(club.public)})" in verified, verified
    doc = json.loads(ann("verify", str(path), "--json", server=False).stdout)
    assert doc["bot_seats"] == {"robo": {"kind": "greedy", "key": club.public, "run_by_host": True}}
    result = replays.verify_file(replays.read_file(record.encode(), "duel.trv"))
    assert result.walker.signatures.seats["robo"] == club.public
    assert result.signed.get("robo", 0) > 0 and result.signed.get("ann", 0) > 0


# ---------------------------------------------------------------- a crash before the bot's move

def _session(p) -> dict:
    saved = json.loads(next((p.home / "servers").glob("*.json")).read_text())
    return {"Authorization": f"Bearer {saved['token']}"}


def _row(p, game):
    return next(g for g in json.loads(p("games", "--json").stdout)["games"] if g["game"] == game)


def frozen_on_the_bot(club, ann, game="duel"):
    """ann plays until her move is stored and the server's bot move after it fails (a full disk):
    the game waits on the bot seat.  The version it stopped at."""
    failed = []

    def bot_play(turn, action):
        failed.append(turn.version)
        raise sqlite3.OperationalError("database or disk is full")
    club.club.bot_play = bot_play
    for _ in range(200):
        row = _row(ann, game)
        if row["waiting_on"] == "robo":
            assert failed and row["version"] == failed[-1]
            return row["version"]
        assert row["waiting_on"] == "ann", row
        action = json.loads(ann("legal", "--json", "--game", game).stdout)[0]
        ann("act", "--game", game, json.dumps(action))
    raise AssertionError("the game never waited on the bot")


@pytest.fixture
def bot_duel(club):
    ann = club.player("ann")
    ann("new", "--player", "ann:red:cars", "--bot", "greedy:blue:cars:robo", "--name", "duel")
    return ann


def test_a_restarted_server_plays_the_bot_move_a_crash_left_waiting(club, bot_duel, clubs, tmp_path):
    ann = bot_duel
    stopped = frozen_on_the_bot(club, ann)
    club.stop()
    again = clubs(tmp_path, club.store, home=club.home)  # the next start of the same club
    doc = httpx.get(f"{again.url}/api/games/duel", timeout=60).json()
    assert doc["version"] > stopped and doc["pending"]["player"] == "ann", doc["pending"]
    # the bot's moves reach the player through the normal sync (the club, at its new address)
    ann.url = again.url
    ann("login", again.url, server=False)
    assert "robo" in ann("log", "--game", "duel").stdout.split(f"{stopped:>5}.")[-1]
    replays.verify_file(replays.read_file(again.club.export("duel", None).encode(), "duel.trv"))


def test_the_servers_clock_plays_the_bot_move_a_failure_left_waiting(club, bot_duel):
    import asyncio

    stopped = frozen_on_the_bot(club, bot_duel)
    del club.club.bot_play  # the disk has room again
    assert club.on_store(club.club.tick)["bots"] == ["duel"]
    asyncio.run(club.app.state.server.bots_due())  # what `trv serve --clock` runs after each round
    doc = httpx.get(f"{club.url}/api/games/duel", timeout=60).json()
    assert doc["version"] > stopped and doc["pending"]["player"] == "ann"
    assert club.on_store(club.club.tick)["bots"] == []


def _packet_signed_for_the_bot(club, keys, tmp_path, head: str) -> bytes:
    """robo's next move as the server would record it (played in a copy of its store), re-signed by
    ann's key over the very message and re-chained (anyone can recompute the unkeyed chain): the
    packet a cheating player would post for the bot seat."""
    from trvendetta.app import GameService
    from trvendetta.app.host import bot_turn, play_bot
    from trvendetta.replays.signatures import domain_at, message
    from trvendetta.store import GameStore, chain

    copy = tmp_path / "copy.sqlite"
    src, dst = sqlite3.connect(club.store), sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.close()
    with GameStore(str(copy)) as store:
        before = store.version("duel")
        turn = bot_turn(store, "duel", club.club.host)
        play_bot(store, "duel", club.club.host, turn, turn.choose())
        packet = GameService(store).export("duel", since=before)
        gf = replays.read_file(packet.encode(), "packet")
        game_id, domain = store.events_head("duel", 1), store.header("duel").domain
    out, previous, action, sig, resigned = [], head, b"", b"", False
    for line in packet.split("\n"):
        if line.startswith("> "):
            action = line[2:].encode()
        elif line.startswith("+ robo:") and not resigned:
            number = int(re.search(r"^(\d+) ", packet[packet.index(line):].split("\n", 2)[1]).group(1))
            msg = message(domain_at(domain or "", game_id, number), number, previous, action)
            line = "+ robo:" + base64.b64encode(keys.sign("ann", msg)).decode()
            sig, resigned = line[2:].encode(), True
        elif line.startswith("+ "):
            sig = line[2:].encode()
        else:
            mm = re.match(r"^(\d+) ([0-9a-f]{64}) (\{.*)$", line)
            if mm:
                previous = chain(previous, mm.group(3).encode(), action, sig)
                line = f"{mm.group(1)} {previous} {mm.group(3)}"
                action, sig = b"", b""
        out.append(line)
    assert resigned and gf.records
    return re.sub(r'\[Head "[0-9a-f]{64}"\]', f'[Head "{previous}"]', "\n".join(out)).encode()


def test_a_player_cannot_move_for_the_bot_seat(club, bot_duel, tmp_path):
    ann = bot_duel
    stopped = frozen_on_the_bot(club, ann)
    from trvendetta.cli.identity import Keyring
    from trvendetta.replays.signatures import message

    http = httpx.Client(base_url=club.url, timeout=60)
    doc = http.get("/api/games/duel").json()
    assert doc["pending"]["player"] == "robo"
    legal = club.on_store(lambda: club.club._load("duel")[0])
    action = legal.ruleset.encode(legal.ruleset.legal_actions(legal.state)[0]).decode()
    keys = Keyring({"ann": club.club.accounts.player("ann")[1]}, "ann", ann.home)
    sig = keys.sign("ann", message(doc["domain"], doc["version"] + 1, doc["head"], action.encode()))
    answer = http.post("/api/games/duel/act", headers=_session(ann),
                       json={"action": action, "version": doc["version"], "signature": base64.b64encode(sig).decode()})
    assert answer.status_code == 403 and "robo's decision, not ann's" in answer.json()["error"]
    # the next route: a packet holding the bot's move, signed by ann's key under robo's name
    forged = _packet_signed_for_the_bot(club, keys, tmp_path, doc["head"])
    answer = http.post("/api/games/duel/packet", content=forged, headers=_session(ann))
    assert answer.status_code == 409, answer.text
    assert "is not signed by robo" in answer.json()["error"] and "made with ann's key" in answer.json()["error"]
    # and one who signs up as the bot's name: refused while the game is open (tests/server/test_sign_up.py);
    # past that (a sign-up that raced the offer), the seat is the server's key, not theirs
    robo = club.player("robo", login=False)
    assert "robo' is a bot seat in duel" in robo("login", club.url, server=False, code=1).stderr
    from trvendetta.cli.identity import identities

    club.on_store(club.club.accounts.register, "robo", identities(robo.home)[0].public, club.club.now())
    robo("login", club.url, server=False)  # a login of a player now, no sign-up
    answer = http.post("/api/games/duel/act", headers=_session(robo),
                       json={"action": action, "version": doc["version"], "signature": base64.b64encode(sig).decode()})
    assert answer.status_code == 403 and "robo is a bot seat in duel" in answer.json()["error"], answer.text
    assert club.club.store.version("duel") == stopped  # nothing was stored
    http.close()


def test_the_server_plays_no_seat_the_charter_did_not_give_a_bot(club, clubs, tmp_path):
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    for _ in range(100):  # until the game waits on bob
        row = _row(ann, "duel")
        if row["waiting_on"] == "bob":
            break
        ann("act", json.dumps(json.loads(ann("legal", "--json").stdout)[0]))
    version = club.club.store.version("duel")
    assert club.on_store(club.club.bot_turn, "duel") is None
    club.on_store(club.club.tick)  # the server's clock (and its start-up's open work) plays no one
    assert club.club.store.version("duel") == version
    # a bot seat named like a player of the server would take that player's seat
    ann("new", "--player", "ann:red:cars", "--bot", "greedy:blue:cars:bob", code=1)
    club.stop()
    again = clubs(tmp_path, club.store, home=club.home)
    assert again.club.store.version("duel") == version


def test_a_bot_seat_is_not_named_like_whoever_runs_it(club, tmp_path):
    """``host``, ``club``, ``server`` (any letter case) read like the runner itself: refused by the
    CLI before anything is sent, and by the server for a client that sends it anyway."""
    ann = club.player("ann")
    for name in ("host", "Club", "SERVER"):
        err = ann("new", "--player", "ann:red:cars", "--bot", f"greedy:blue:cars:{name}", "--name", "g",
                  code=2).stderr
        assert f"a bot seat cannot be called {name!r}" in err, err
    answer = httpx.post(f"{club.url}/api/games", headers=_session(ann), timeout=60,
                        json={"players": ["ann:red:cars"], "name": "g", "bots": ["greedy:blue:cars:server"]})
    assert answer.status_code == 400 and "cannot be called 'server'" in answer.json()["error"], answer.text
    assert club.club.accounts.offer("g") is None and not club.club.store.exists("g")
    # the same rule for a host's and a hot-seat game's bot seats (the CLI's one parse_bot)
    ann("new", "--player", "ann:red:cars", "--bot", "greedy:blue:cars:host", "--db", str(tmp_path / "x.sqlite"),
        server=False, code=2)
    ann("new", "--player", "ann:red:cars", "--bot", "greedy:blue:cars:hostile", "--db", str(tmp_path / "x.sqlite"),
        "--name", "fine", server=False)


def test_bot_seats_are_bounded_by_player(clubs, tmp_path):
    c = clubs(tmp_path, str(tmp_path / "club.sqlite"), bot_games=1)
    ann = c.player("ann")
    ann("new", "--player", "ann:red:cars", "--bot", "random:blue:cars", "--name", "one")
    err = ann("new", "--player", "ann:red:cars", "--bot", "random:blue:cars", "--name", "two", code=1).stderr
    assert "at most 1 open games or offers of a player at once, and yours are one" in err, err
    assert not c.club.store.exists("two") and c.club.accounts.offer("two") is None
    ann("new", "--player", "ann:red:cars", "--bot", "nobot:blue:cars", code=2)  # said before anything is sent
    off = clubs(tmp_path / "off", str(tmp_path / "off.sqlite"), bot_games=0)
    err = off.player("ann")("new", "--player", "ann:red:cars", "--bot", "random:blue:cars", code=1).stderr
    assert "plays no bot seats" in err


def test_a_stranger_cannot_fill_a_players_bot_allowance_with_offers_naming_them(club):
    """The attack: a fresh account names the victim in offers with bot seats up to the victim's
    allowance (2); the victim never answered them, so they are not his and take none of his slots."""
    from trvendetta.server.bots import open_bot_games

    ann, mallory = club.player("ann"), club.player("mallory")
    for game in ("bait1", "bait2"):
        mallory("new", "--player", "mallory:red:cars", "--player", "ann:blue:cars", "--bot", "random:green:cars",
                "--name", game)
    assert club.on_store(open_bot_games, club.club, "mallory") == ["bait1", "bait2"]  # hers: she made them
    assert club.on_store(open_bot_games, club.club, "ann") == []
    # the victim still offers his own bot games, as many as the allowance
    for game in ("mine1", "mine2"):
        ann("new", "--player", "ann:red:cars", "--bot", "random:blue:cars:robo", "--name", game)
    err = ann("new", "--player", "ann:red:cars", "--bot", "random:blue:cars", "--name", "three", code=1).stderr
    assert _yours(err) == {"mine1", "mine2"}, err  # the refusal names his own, and how to free one
    assert "trv --server URL resign --game G" in err, err
    assert "trv --server URL decline G" in err and "POST /api/offers/G/decline" in err, err
    # the next route: contribute to the bait for the victim.  A join is the session's player's own,
    # checked against their key: mallory's session contributes as mallory (done already), never as ann
    r = httpx.post(f"{club.url}/api/offers/bait1/join", headers=_session(mallory), timeout=60,
                   json={"value": "00" * 32, "signature": "AA", "kind": "derived"})
    assert r.status_code >= 400 or r.json().get("waiting_for") == ["ann"], r.text
    assert "ann" not in club.club.accounts.offer("bait1")[1]
    assert set(club.on_store(open_bot_games, club.club, "ann")) == {"mine1", "mine2"}
    # resigning a game of his frees a slot ...
    ann("resign", "--game", "mine2")
    # ... and an offer he contributed to is his: a game he agreed to play
    ann("join", "bait1")
    err = ann("new", "--player", "ann:red:cars", "--bot", "random:blue:cars", "--name", "three", code=1).stderr
    assert _yours(err) == {"bait1", "mine1"}, err
    # the bait he never answered he may decline (`trv --server URL decline G`), or leave: it costs him nothing
    assert "declined bait2" in ann("decline", "bait2").stdout
    assert club.club.accounts.offer("bait2") is None
    assert club.on_store(open_bot_games, club.club, "mallory") == ["bait1"]


def _yours(refusal: str) -> set[str]:
    """The games a bot-seat refusal (429) says are the player's."""
    found = re.search(r"yours are ([^:]*):", refusal)
    assert found, refusal
    return set(found.group(1).split(", "))

def test_a_search_bot_seat_plays_a_whole_game(clubs, tmp_path):
    c = clubs(tmp_path, str(tmp_path / "club.sqlite"), search_steps=20)
    ann = c.player("ann")
    ann("new", "--player", "ann:red:cars", "--bot", "search:blue:cars:deep", "--name", "deep")
    assert play_alone(ann, "deep")["status"] == "over"
    out = ann.local("verify", "--game", "deep").stdout  # the player's copy of the game
    assert "bot seats: deep (search, run by the host" in out, out


# ---------------------------------------------------------------- forged records
@pytest.fixture
def bot_record(club, bot_duel):
    play_alone(bot_duel, "duel")
    return bot_duel, club.club.export("duel", None)


def test_a_tournament_marks_the_server_bot_seat_and_rates_no_one_by_it(bot_record, tmp_path):
    """A club-server game counted as a tournament table: the charter's bot seat is marked in the
    result, `report` and the standings; ratings leave it out (and a game of one person and a bot
    rates no one)."""
    ann, record = bot_record
    path = tmp_path / "duel.trv"
    path.write_text(record)
    db = str(tmp_path / "cup.sqlite")

    def org(*args, code=0):
        return ann("--db", db, "tournament", *args, server=False, code=code)
    org("new", "cup", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    org("register", "cup", "ann", "robo")
    org("pair", "cup")
    # the attack first: a record whose charter makes ann a bot too (her seat then marked, her loss
    # unrated) does not verify, so it is not counted
    import msgspec

    from trvendetta.store import decode_charter

    charter = decode_charter(replays.read_file(record.encode(), "duel.trv").header.charter)
    (tmp_path / "forged.trv").write_text(_with_charter(record, msgspec.structs.replace(
        charter, bots={**charter.bots, "ann": "greedy"})))
    err = org("report", "cup", "--table", "1", str(tmp_path / "forged.trv"), code=1).stderr
    assert "does not verify" in err and "its result cannot count" in err, err
    out = org("report", "cup", "--table", "1", str(path)).stdout
    assert "played by a bot: robo" in out and "signed by ann, robo" in out, out
    rows = {r["player"]: r for r in json.loads(org("standings", "cup", "--json").stdout)}
    assert rows["robo"]["bot_games"] == 1 and rows["ann"]["bot_games"] == 0
    assert rows["ann"]["rating"] is None and rows["robo"]["rating"] is None  # one person: nothing to rate


def test_verify_refuses_a_bot_move_signed_by_another_key(bot_record, tmp_path):
    """The server's word covers the bot's choices only under its own key: a record whose bot move
    is signed by another key (a player's, over the very message) is refused."""
    from trvendetta.cli.identity import Keyring
    from trvendetta.replays.signatures import domain_at, message

    ann, record = bot_record
    gf = replays.read_file(record.encode(), "duel.trv")
    m = re.search(r"^(\d+) ([0-9a-f]{64}) .*\n> (.*)\n\+ robo:(\S+)\n(\d+) ", record, re.M)
    assert m
    number, previous, action = int(m.group(5)), m.group(2), m.group(3)
    keys = Keyring({"ann": gf.header.charter and json.loads(gf.header.charter)["seats"]["ann"]}, "ann", ann.home)
    msg = message(domain_at(gf.header.domain or "", gf.header.game_id, number), number, previous, action.encode())
    sig = base64.b64encode(keys.sign("ann", msg)).decode()
    forged = rechain(record.replace(f"+ robo:{m.group(4)}", f"+ robo:{sig}", 1))
    (tmp_path / "forged.trv").write_text(forged)
    err = ann("verify", tmp_path / "forged.trv", code=1, server=False, multiline=True).stderr
    assert f"event {number}" in err and "robo" in err, err


def _with_charter(record: str, charter) -> str:
    """The record with another charter (a ``store.Charter``, encoded canonically), its whole chain
    (event 1's hash, the GameId) recomputed from it: what anyone can recompute.  The signatures stay."""
    from trvendetta.store import chain, encode_charter, genesis

    text = encode_charter(charter)
    out, previous, action, sig = [], genesis(text), b"", b""
    first = None
    for line in record.split("\n"):
        if line.startswith("[Charter "):
            line = "[Charter " + json.dumps(text) + "]"
        elif line.startswith("> "):
            action = line[2:].encode()
        elif line.startswith("+ "):
            sig = line[2:].encode()
        else:
            mm = re.match(r"^(\d+) ([0-9a-f]{64}) (\{.*)$", line)
            if mm:
                previous = chain(previous, mm.group(3).encode(), action, sig)
                first = first or previous
                line = f"{mm.group(1)} {previous} {mm.group(3)}"
                action, sig = b"", b""
        out.append(line)
    forged = "\n".join(out)
    forged = re.sub(r'\[Head "[0-9a-f]{64}"\]', f'[Head "{previous}"]', forged)
    return re.sub(r'\[GameId "[0-9a-f]{64}"\]', f'[GameId "{first}"]', forged)


def test_verify_refuses_a_charter_forged_to_make_a_person_a_bot(bot_record, club, tmp_path):
    """A record whose charter declares ann's seat a bot (her games would then not count as hers)."""
    import msgspec

    from trvendetta.app.messages import Offer
    from trvendetta.replays.signatures import HOST
    from trvendetta.store import decode_charter

    ann, record = bot_record
    charter = decode_charter(replays.read_file(record.encode(), "duel.trv").header.charter)
    # the charter alone: its offer, signed by the server, still says ann is a person
    alone = msgspec.structs.replace(charter, bots={**charter.bots, "ann": "greedy"})
    (tmp_path / "alone.trv").write_text(_with_charter(record, alone))
    err = ann("verify", tmp_path / "alone.trv", code=1, server=False, multiline=True).stderr
    assert err.startswith("Error: event 1: ") and "its bot seats differ" in err, err
    # the next route, open to the server alone (it holds the key that signs offers): the offer too,
    # signed again; ann's signed contribution answers the offer she was sent, not this one
    offered = Offer.decode(bytes(charter.offered), "offer")
    changed = msgspec.structs.replace(offered, bots={**offered.bots, "ann": "greedy"}, sig="")
    changed = changed.signed(lambda body: club.club.host.keyring(club.public).sign(HOST, body))
    both = msgspec.structs.replace(alone, offered=msgspec.Raw(msgspec.json.encode(changed)), offer=changed.id())
    (tmp_path / "both.trv").write_text(_with_charter(record, both))
    err = ann("verify", tmp_path / "both.trv", code=1, server=False, multiline=True).stderr
    assert err.startswith("Error: event 1: ") and "ann is a bot seat the host runs" in err, err


def test_a_bot_thinking_holds_up_no_other_request(club, bot_duel):
    """The bot thinks on a thread of its own: while it does, the store thread answers others (here
    the bot is held mid-thought until another player's requests were answered)."""
    import threading

    from trvendetta.cli.identity import Keyring
    from trvendetta.replays.signatures import message

    ann = bot_duel
    held, thinking = threading.Event(), threading.Event()
    think = club.club.bot_think

    def slow(turn):
        thinking.set()
        assert held.wait(60), "the test never let the bot go on"
        return think(turn)
    club.club.bot_think = slow
    keys = Keyring({"ann": club.club.accounts.player("ann")[1]}, "ann", ann.home)
    answers = []

    def ann_moves():  # ann's moves over HTTP until one reaches the bot (its answer waits for the bot)
        with httpx.Client(base_url=club.url, timeout=90) as http:
            for _ in range(100):
                doc = http.get("/api/games/duel", headers=_session(ann)).json()
                action = doc["options"][0]["action"]
                sig = keys.sign("ann", message(doc["domain"], doc["version"] + 1, doc["head"], action.encode()))
                answers.append(http.post("/api/games/duel/act", headers=_session(ann), json={
                    "action": action, "version": doc["version"], "signature": base64.b64encode(sig).decode()}))
                if thinking.is_set():
                    return
    mover = threading.Thread(target=ann_moves)
    mover.start()
    try:
        assert thinking.wait(60), "ann's moves never reached the bot"
        bob = club.player("bob")  # a sign-up, a login and a game offered, while the bot thinks
        bob("new", "--player", "bob:blue:cars", "--player", "ann:red:cars", "--name", "other")
        doc = httpx.get(f"{club.url}/api/games/duel", timeout=60).json()
        assert doc["pending"]["player"] == "robo"  # ann's move is stored, the bot's not yet
        answered = len(answers)  # (ann's move that reached the bot is not answered yet)
    finally:
        held.set()
        mover.join(90)
    assert len(answers) == answered + 1 and answers[-1].status_code == 200, answers[-1].text
    after = httpx.get(f"{club.url}/api/games/duel", timeout=60).json()
    assert after["version"] == answers[-1].json()["version"] > doc["version"]
    assert after["pending"]["player"] == "ann"
