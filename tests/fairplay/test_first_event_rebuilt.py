"""Every store rebuilds ALL of event 1 from the offer or invitation (docs/fair-play.md, "Every store
rebuilds the set-up"): not only the position but the components the ruleset ships and the rules
version the offer names, byte for byte.  Attacks by a cheating host or inviter built from the
project's own code (its trv patched, and checking nothing), each player with their own store and
home, records as files, 2 and 3 players:

- loaded dice (a movement die of 4,5,6,6,6,6), by a host and by an inviter;
- the same components in another order (another road from the same draws);
- event 1 re-encoded with the same meaning (a space, fields reordered, a dict reversed): another
  game id, which every draw covers;
- an older rules version than the offer's, and an offer naming none."""

import json
import re

import pytest
from fairplay_helpers import host_game

from trvendetta import replays
from trvendetta.store import chain, genesis

pytestmark = pytest.mark.usefixtures("seeded_entropy")

NAMES = [("ann", "bob"), ("ann", "bob", "cyd")]


def _loaded(components):
    """The cheater's components: the movement die shows 4,5,6,6,6,6 instead of 1-6."""
    import msgspec

    from trvendetta.vendetta import components as comp

    dice = dict(components.dice)
    dice["movement"] = comp.Die("movement", ("4", "5", "6", "6", "6", "6"))
    return msgspec.structs.replace(components, dice=dice)


def _reordered(components):
    """The cheater's components: the same data in another order (the tile sides and the hazards rotated
    by one): other bytes of event 1, and, the rules walking them in order, other hazard spaces."""
    import msgspec

    sides, hazards = list(components.sides.items()), list(components.hazards.items())
    return msgspec.structs.replace(components, sides=dict(sides[1:] + sides[:1]),
                                   hazards=dict(hazards[1:] + hazards[:1]))


def _cheating_trv(monkeypatch, change):
    """The cheater's trv: Vendetta set up with ``change(components)``, and none of its checks of event 1."""
    from trvendetta.replays import setups
    from trvendetta.vendetta import rules

    real = rules.start
    monkeypatch.setattr(rules, "start", lambda position, components, *a, **k: real(position, change(components), *a, **k))
    monkeypatch.setattr(setups, "position_problem", lambda *args, **kwargs: None)


def _movement(record: str) -> list:
    first = next(line for line in record.splitlines() if line.startswith("1 "))
    return json.loads(first.split(" ", 2)[2])["components"]["dice"]["movement"]["faces"]


def _refused(tmp_path, record: str, people, game: str, *words) -> None:
    """Every player's store refuses the record (one clear error naming ``words``), writes nothing; so
    does `trv verify` of the file."""
    path = tmp_path / f"{game}-sent.trv"
    path.write_text(record)
    for p in people:
        err = p("import", path, code=1).stderr
        assert all(w in err for w in words), (p.name, err)
        assert game not in p("games").stdout  # nothing written
        err = p("verify", path, code=1).stderr
        assert all(w in err for w in words), (p.name, err)


@pytest.mark.parametrize("names", NAMES)
def test_a_host_game_set_up_with_loaded_dice_is_refused_by_every_store(players, tmp_path, names, monkeypatch):
    org, *humans = players("org", *names)
    with monkeypatch.context() as m:
        _cheating_trv(m, _loaded)
        host_game(tmp_path, org, humans)
        record = org("export", "cup").stdout
    assert _movement(record) == ["4", "5", "6", "6", "6", "6"]  # (the attack as the red team made it)
    _refused(tmp_path, record, humans, "cup", "event 1 is not the set-up the offer (cup) gives",
             "components.dice", "the host (")
    with pytest.raises(replays.Tampered, match="components.dice differ from the rules' own"):
        replays.verify_file(replays.read_file(record.encode(), "cup.trv"))


def test_a_host_choosing_among_orders_of_the_same_components_is_refused(players, tmp_path, monkeypatch):
    org, ann, bob = players("org", "ann", "bob")
    with monkeypatch.context() as m:
        _cheating_trv(m, _reordered)
        host_game(tmp_path, org, [ann, bob])
        record = org("export", "cup").stdout
    # (the same data in another order is another spelling of the shipped components: not theirs)
    _refused(tmp_path, record, [ann, bob], "cup", "event 1 is not in its canonical form", "the host (")


@pytest.mark.parametrize("names", NAMES)
def test_an_inviter_setting_up_loaded_dice_is_refused_by_every_store(players, tmp_path, names, monkeypatch):
    ann, *others = people = players(*names)
    args = ["invite", "--name", "duel", "-o", tmp_path / "invite.json"]
    for p, color in zip(people, ["red", "blue", "green"]):
        args += ["--player", f"{p.name}:{color}", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
    ann(*args)
    joins = []
    for p in others:
        p("join", tmp_path / "invite.json", "-o", tmp_path / f"{p.name}-join.json")
        joins += ["--join", tmp_path / f"{p.name}-join.json"]
    with monkeypatch.context() as m:
        _cheating_trv(m, _loaded)
        ann("new", "--invite", tmp_path / "invite.json", *joins)
        record = ann("export", "duel").stdout
    _refused(tmp_path, record, others, "duel", "event 1 is not the set-up the invitation (duel) gives",
             "components.dice", "the inviter, ann (")


def _event1_rewritten(record: str, edit) -> str:
    """The record with event 1's JSON text replaced by ``edit(text)`` and the chain, the game id and
    the head recomputed (events after it carry no signature here: the host's own unsigned set-up)."""
    lines = record.split("\n")
    charter = next(json.loads(line[len("[Charter "):-1]) for line in lines if line.startswith("[Charter "))
    bots = next((json.loads(line[len("[Bots "):-1]) for line in lines if line.startswith("[Bots ")), "")
    previous, ids, out = genesis(charter, bots), {}, []
    for line in lines:
        m = re.match(r"^(\d+) ([0-9a-f]{64}) (\{.*)$", line)
        if m:
            assert not line.endswith(" +"), "signed records are not handled"
            payload = edit(m.group(3)) if m.group(1) == "1" else m.group(3)
            new = chain(previous, payload.encode())
            ids[m.group(2)] = new
            previous, line = new, f"{m.group(1)} {new} {payload}"
        out.append(line)
    text = "\n".join(out)
    for old, new in ids.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    return text


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.replace('"type":"game-started"', '"type": "game-started"', 1), "not in its canonical form"),
    (lambda t: json.dumps({"components": json.loads(t)["components"],
                           **{k: v for k, v in json.loads(t).items() if k != "components"}},
                          separators=(",", ":")), "not in its canonical form"),
    (lambda t: json.dumps({**json.loads(t), "components": {
        **json.loads(t)["components"], "damage": dict(reversed(list(json.loads(t)["components"]["damage"].items())))}},
        separators=(",", ":")), "not in its canonical form"),
    (lambda t: re.sub(r'"rules_version":"\d+"', '"rules_version":"1"', t, count=1), "under rules version 1 of vendetta"),
], ids=["space", "reordered", "inner-dict-reversed", "older-rules"])
def test_event_1_re_encoded_or_downgraded_is_refused_in_words(players, tmp_path, edit, words):
    """Another spelling of event 1 is another game id (which every draw covers): a host fishing
    for rolls by respelling it, or an older rules version, is refused by import and verify alike,
    in words (import once failed with a traceback)."""
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    record = org("export", "cup").stdout
    cheat = _event1_rewritten(record, edit)
    assert cheat != record
    _refused(tmp_path, cheat, [ann, bob], "cup", words, "the host (")


def test_an_offer_names_its_rules_version_and_joins_refuse_one_naming_none_or_another(players, tmp_path):
    """The offer's rules version is signed (in the offer's id, which every contribution names); an
    offer naming none (as a trv before wrote them, which would let its host pick an older version)
    or another version than the joiner's trv plays is not answered, and nothing is written."""
    import msgspec

    from trvendetta.app.messages import Offer
    from trvendetta.cli.host import _host_keyring
    from trvendetta.replays.signatures import HOST

    org, ann, bob = players("org", "ann", "bob")
    org("host", "offer", "--name", "cup", "--ruleset", "carnival", "-o", tmp_path / "offer.json",
        "--player", "ann:red", "--key", f"ann={tmp_path / 'ann.pub'}", "--player", "bob:blue",
        "--key", f"bob={tmp_path / 'bob.pub'}")
    offer = Offer.decode((tmp_path / "offer.json").read_bytes(), "offer.json")
    assert offer.rules == "5" and b'"rules":"5"' in offer.body()
    for rules, words in (("", "names no rules version of carnival"),
                         ("1", "names rules version 1 of carnival, and this trv plays version 5")):
        forged = msgspec.structs.replace(offer, rules=rules, sig="").signed(
            lambda body: _host_keyring(offer.host, org.home).sign(HOST, body))
        path = tmp_path / f"offer-{rules or 'none'}.json"
        path.write_bytes(forged.file_bytes())
        err = ann("host", "join", path, "-o", tmp_path / "ann-x.json", code=1).stderr
        assert words in err and "not answered" in err
        assert not (tmp_path / "ann-x.json").exists()


def test_a_game_of_an_offer_naming_no_rules_version_verifies_marked(players, tmp_path, monkeypatch):
    """A format-2 game made before offers named their rules version keeps verifying, marked: its
    rules version is the host's word (one this trv replays); its components must still be the
    shipped ones, byte for byte."""
    import msgspec

    from trvendetta.app.messages import Offer
    from trvendetta.cli.host import _host_keyring
    from trvendetta.replays import setups
    from trvendetta.replays.signatures import HOST

    org, ann, bob = players("org", "ann", "bob")
    org("host", "offer", "--name", "cup", "-o", tmp_path / "offer.json", "--player", "ann:red",
        "--key", f"ann={tmp_path / 'ann.pub'}", "--player", "bob:blue", "--key", f"bob={tmp_path / 'bob.pub'}")
    offer = Offer.decode((tmp_path / "offer.json").read_bytes(), "offer.json")
    old = msgspec.structs.replace(offer, rules="", sig="").signed(
        lambda body: _host_keyring(offer.host, org.home).sign(HOST, body))
    assert b'"rules"' not in old.body() and b'"rules"' not in old.canonical()  # the bytes a trv before wrote
    (tmp_path / "offer.json").write_bytes(old.file_bytes())
    with monkeypatch.context() as m:  # the players' trv before answered any offer
        m.setattr(setups, "answer_problem", lambda message: None)
        for p in (ann, bob):
            p("host", "join", tmp_path / "offer.json", "-o", tmp_path / f"{p.name}.json")
    org("host", "new", tmp_path / "offer.json", "--join", tmp_path / "ann.json", "--join", tmp_path / "bob.json")
    record = org("export", "cup").stdout
    path = tmp_path / "cup.trv"
    path.write_text(record)
    for p in (ann, bob):
        p("import", path)
        out = p("verify").stdout
        assert out.startswith("OK: ") and "made before offers named their rules version" in out
    # its components are still checked
    cheat = _event1_rewritten(record, lambda t: t.replace('"faces":["1","2","3","4","5","6"]',
                                                          '"faces":["4","5","6","6","6","6"]', 1))
    with pytest.raises(replays.Tampered, match="components.dice differ"):
        replays.verify_file(replays.read_file(cheat.encode(), "cup.trv"))
