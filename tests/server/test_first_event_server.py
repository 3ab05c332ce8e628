"""A club server sets a game up with loaded dice (docs/fair-play.md, "Every store rebuilds the set-up"):
its own trv patched and checking nothing, the offer and the contributions honest.  `trv --server
join`, `show` and a third party's `verify` of the record refuse it, naming the host; nothing is
written in any player's store.  2 and 3 players."""

import pytest


def _loaded(components):
    import msgspec

    from trvendetta.vendetta import components as comp

    dice = dict(components.dice)
    dice["movement"] = comp.Die("movement", ("4", "5", "6", "6", "6", "6"))
    return msgspec.structs.replace(components, dice=dice)


@pytest.mark.parametrize("three", [False, True])
def test_a_server_setting_a_game_up_with_loaded_dice_is_refused_by_every_store(club, monkeypatch, three):
    from trvendetta import replays
    from trvendetta.replays import setups
    from trvendetta.vendetta import rules

    names = ["ann", "bob", "cyd"] if three else ["ann", "bob"]
    people = [club.player(n) for n in names]
    players = [a for n, c in zip(names, ["red", "blue", "green"]) for a in ("--player", f"{n}:{c}:cars")]
    people[0]("new", *players, "--name", "duel")
    for p in people[1:-1]:
        p("join", "duel")
    server = club.club
    honest_start, records = server._start, []

    def loaded_start(offer, joined):
        real = rules.start
        with monkeypatch.context() as m:
            m.setattr(rules, "start", lambda position, components, *a, **k: real(position, _loaded(components), *a, **k))
            m.setattr(setups, "position_problem", lambda *args, **kwargs: None)  # the server's trv checks nothing
            out = honest_start(offer, joined)
            records.append(replays.export(server.service.store, "duel"))
        return out

    monkeypatch.setattr(server, "_start", loaded_start)
    err = people[-1]("join", "duel", code=1).stderr
    assert "components.dice differ from the rules' own" in err and "the host (" in err, err
    for p in people:
        err = p("show", code=1).stderr
        assert "components.dice differ" in err and "the host (" in err, (p, err)
        assert "duel" not in p.local("games").stdout  # nothing written
    [record] = records
    assert '"faces":["4","5","6","6","6","6"]' in record
    with pytest.raises(replays.Tampered, match="event 1 is not the set-up the offer .* gives: its components.dice"):
        replays.verify_file(replays.read_file(record.encode(), "duel.trv"))


def test_server_join_and_the_offer_show_the_terms_a_player_signs(club):
    """`trv --server join` prints the terms it signs, and the offer's document (what the page shows
    beside its Join button) lists them the same way: no player answers blind."""
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel", "--time", "3d")
    doc = club.club.offer_doc("duel")
    assert doc["terms"][0] == "ruleset: vendetta, rules version 2"
    assert doc["terms"][1] == "seats in turn order: ann (red, cars), bob (blue, cars)"
    assert doc["terms"][2].startswith("time control: 3d: each answer within 3d")
    assert doc["terms"][3].startswith("signed by: the server, key ")
    out = bob("join", "duel").stdout
    assert "the terms you sign, offer duel (" in out
    assert all(f"  {line}" in out for line in doc["terms"])
