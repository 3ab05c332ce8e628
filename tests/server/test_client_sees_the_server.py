"""`trv --server` compares the server's record with its own copy by head hash: a move the client
signed that the server did not record, and a history that splits from the copy, are named with the
signed move kept as evidence, never shown silently.  The cheating server is the project's own,
with its packet route made to answer 409 "game moved on" and record nothing."""

from __future__ import annotations

import json
from datetime import timedelta

from trvendetta.app.clock import parse_stamp
from trvendetta.server.club import Refused


def test_a_move_the_server_dropped_then_claimed_against_is_named(club):
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel", "--time", "1h")
    bob("join", "duel")
    mover = json.loads(ann("games", "--json").stdout)["games"][0]["waiting_on"]
    p = {"ann": ann, "bob": bob}[mover]
    before = club.club.export("duel", None)
    server_version = club.club.store.version("duel")

    def dropped(player, game, data):  # the server answers 409 and records nothing
        raise Refused(409, f"{game} moved on since this move was made: game moved on")

    club.club.packet = dropped
    action = json.loads(p("legal", "--json").stdout)[0]
    from trvendetta.cli.main import cli

    result = p.runner.invoke(cli, ["act", json.dumps(action)], env={
        "TRV_GAME": None, "TRV_DB": None, "TRV_AS": None, "TRV_STORE": None, "NO_COLOR": "1",
        "TRV_HOME": str(p.home), "TRV_SERVER": p.url})
    assert result.exit_code == 1 and "not sent" in result.stderr, result.stderr
    assert club.club.export("duel", None) == before
    # the copy holds the signed move the server lacks: named, not shown as played
    err = p("show", code=1, multiline=True).stderr
    assert f"the server's duel ends at event {server_version}, but your copy holds event {server_version + 1} on" \
        in err and f"signed by {mover}" in err and "the server did not record it" in err, err
    evidence = p.home / "evidence" / f"duel-server-{server_version + 1}.trv"
    assert evidence.exists() and f"+ {mover}:" in evidence.read_text()
    # then the server claims against the move it dropped: the histories split, and that is named
    deadline = parse_stamp(club.on_store(club.club.timing, "duel")["deadline"])
    assert club.on_store(club.club.tick, deadline + timedelta(seconds=1))["claimed"] == ["duel"]
    err = p("show", code=1, multiline=True).stderr
    assert f"the server's duel splits from your copy at event {server_version + 1}: the server has event " \
           f"{server_version + 1}, 'game over: {mover} lost on time (claimed by @host" in err and \
           f"where your copy has event {server_version + 1}, the action" in err and f"signed by {mover}" in err, err
    # the other player, whose copy never held the move, sees the server's record as it is
    other = bob if p is ann else ann
    assert f"{mover} lost on time" in other("show").stdout
    # with her copy moved aside (the evidence kept), she follows the server's record
    for f in (p.home / "servers").glob("*.sqlite"):
        f.rename(f.with_suffix(".aside"))
    assert f"game over: {mover} lost on time" in p("show").stdout
