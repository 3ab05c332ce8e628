"""Private favors in host games (docs/fair-play.md, "Private favors"): the host deals each Carnival
party favor face down for real, as a commitment in the record and its kind and nonce sealed to the
owner's key; playing it opens the commitment.  Tested as the opponent would attack it, each player
with their own store and packets as files."""

import base64
import json
import random
import re

import pytest

from fairplay_helpers import host_game, version
from test_host_remote import send

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def carnival_host_game(tmp_path, org, humans, bots=()):
    host_game(tmp_path, org, humans, bots, "--ruleset", "carnival")
    send(tmp_path, org, [org, *humans])


#: how many games a test plays at most to reach the situation it needs (no seed is chosen for luck)
GAMES = 6


def searched(players, tmp_path, names, start, reached):
    """Play up to GAMES fresh games (``start(root, players, n)`` sets game ``n`` up and plays it,
    chooser ``random.Random(n)``) until ``reached(players)``: the players of the first that does.
    A situation random play reaches in most games is found without depending on one seed."""
    for n in range(GAMES):
        root = tmp_path / f"game-{n}"
        ps = players(*names, root=root)
        start(root, ps, n)
        if reached(ps):
            return root, ps, n
    raise AssertionError(f"none of {GAMES} games reached the situation")


def held(p, seat):
    return json.loads(p("show", "--json").stdout)["favors"].get(seat, {})


def play_until(tmp_path, org, humans, chooser, done, limit=3000):
    """Legal actions (`trv legal --json`, `trv act`), ``chooser(options)``'s, each sent, until ``done()``."""
    by_name = {p.name: p for p in humans}
    for _ in range(limit):
        if done():
            return True
        first = org("legal").stdout.splitlines()[0]
        if first.startswith("the game is over"):
            return False
        p = by_name[first.split(":")[0]]
        options = json.loads(p("legal", "--json").stdout)
        p("act", json.dumps(chooser(options)))
        send(tmp_path, p, [org, *humans])
    raise AssertionError("the game did not end")


def dealt(p):
    """The favor-dealt events of ``p``'s record of the game (``trv log --json``)."""
    return [e["event"] for e in json.loads(p("log", "--json").stdout) if e["kind"] == "favor-dealt"]


def favors_first(chooser):
    """Random, but a favor whenever one can be played."""
    def choose(options):
        played = [o for o in options if o["type"] == "play-favor"]
        return chooser.choice(played or options)
    return choose


def keep_favors(chooser):
    """Random, but never a favor (Precision's many options would be chosen at once)."""
    def choose(options):
        return chooser.choice([o for o in options if o["type"] != "play-favor"] or options)
    return choose


def private_key(p):
    """``p``'s Ed25519 key as its seed and public key (what only ``p`` holds)."""
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key((p.home / "identities" / f"{p.name}.key").read_bytes(), None)
    return key.private_bytes_raw(), key.public_key().public_bytes_raw()


def until_bob_holds_a_favor(make_chooser):
    """``start`` for :func:`searched`: a Carnival host game of ann and bob hosted by org, played
    (``make_chooser(random.Random(n))``) until the first favor is dealt or the game ends; the game
    is the one sought when that favor is bob's (:func:`bob_holds_the_only_favor`)."""
    def start(root, ps, n):
        org, ann, bob = ps
        carnival_host_game(root, org, [ann, bob])
        play_until(root, org, [ann, bob], make_chooser(random.Random(n)), lambda: dealt(org))
    return start


def bob_holds_the_only_favor(ps):
    org = ps[0]
    return held(org, "bob").get("count") == 1 and [e["player"] for e in dealt(org)] == ["bob"]


@pytest.fixture
def dealt_to_bob(players, tmp_path):
    """A Carnival host game of ann and bob hosted by org, played until bob holds a favor."""
    _, (org, ann, bob), n = searched(players, tmp_path, ("org", "ann", "bob"),
                                     until_bob_holds_a_favor(lambda c: c.choice), bob_holds_the_only_favor)
    return org, ann, bob, random.Random(100 + n)


def test_the_opponent_reads_no_held_favor_in_the_record_the_log_or_show(dealt_to_bob):
    from trvendetta.app.sealing import open_box
    from trvendetta.carnival.favors import commit

    org, ann, bob, _ = dealt_to_bob
    mine = held(bob, "bob")
    assert mine["count"] == 1 and len(mine["kinds"]) == 1
    kind = mine["kinds"][0]
    assert held(ann, "bob") == {"count": 1} and held(org, "bob") == {"count": 1}  # counted, never named
    assert f"favors: {kind}" in bob("show").stdout and f"favors: {kind}" not in ann("show").stdout
    for p in (ann, org):
        record = p("export", "cup").stdout
        assert "favor-collected" not in record
        [event] = dealt(p)
        assert set(event) == {"type", "player", "vehicle", "at", "index", "commitment", "sealed"}
        assert list(event["sealed"]) == ["bob"]
        # the kind's name is in the components of event 1 (the mix) and nowhere after it
        events = [line for line in record.splitlines() if re.match(r"^\d+ [0-9a-f]{64} ", line)]
        assert all(kind not in line for line in events[1:])
        assert all(kind not in json.dumps(e) for e in json.loads(p("log", "--json").stdout)[1:])
    # the sealed box opens with bob's key only, to the opening of its commitment
    [event] = dealt(ann)
    box = event["sealed"]["bob"]
    assert open_box(*private_key(ann), box) is None and open_box(*private_key(org), box) is None
    opened, nonce = json.loads(open_box(*private_key(bob), box))
    assert opened == kind and commit(kind, nonce) == event["commitment"]
    # and its length is every favor's: the padded plaintext and the sealed box's 48 bytes
    from trvendetta.app.sealing import SEALED_SIZE

    assert len(base64.b64decode(box)) == SEALED_SIZE + 48


def test_show_follows_who_asks_not_whose_turn_it_is(dealt_to_bob, tmp_path):
    org, ann, bob, chooser = dealt_to_bob
    kind = held(bob, "bob")["kinds"][0]
    seen = set()
    for _ in range(40):
        first = org("legal").stdout.splitlines()[0]
        if first.startswith("the game is over") or not held(org, "bob").get("count"):
            break
        to_act = first.split(":")[0]
        seen.add(to_act)
        mine = held(bob, "bob")  # bob sees his favors whoever is to act
        assert kind in mine["kinds"] and len(mine["kinds"]) == mine["count"]
        assert "kinds" not in held(ann, "bob")  # ann never does, even when bob is to act
        p = {"ann": ann, "bob": bob}[to_act]
        p("act", json.dumps(keep_favors(chooser)(json.loads(p("legal", "--json").stdout))))
        send(tmp_path, p, [org, ann, bob])
    assert seen == {"ann", "bob"}


def test_a_played_favor_opens_its_commitment_and_every_store_verifies(dealt_to_bob, tmp_path):
    from trvendetta.carnival.favors import commit

    org, ann, bob, chooser = dealt_to_bob
    [event] = dealt(ann)
    play_until(tmp_path, org, [ann, bob], favors_first(chooser), lambda: False)
    played = [e["event"] for e in json.loads(ann("log", "--json").stdout) if e["kind"] == "favor-played"]
    dealt_now = {e["commitment"]: e for e in dealt(ann)}
    assert event["commitment"] in dealt_now and played
    for e in played:  # each names its kind and nonce, which open a commitment dealt to that player
        assert dealt_now[commit(e["favor"], e["nonce"])]["player"] == e["player"]
    for p in (org, ann, bob):
        out = p("verify").stdout
        assert out.startswith("OK: ") and "every roll checked against the host's revealed seed" in out


def test_a_forged_opening_or_a_favor_not_dealt_is_refused(dealt_to_bob, tmp_path, monkeypatch):
    from trvendetta.app.sealing import open_box
    from trvendetta.carnival import favors

    org, ann, bob, chooser = dealt_to_bob
    [event] = dealt(bob)
    kind, nonce = json.loads(open_box(*private_key(bob), event["sealed"]["bob"]))
    forged = "bootleg-turn" if kind != "bootleg-turn" else "killer-pillar"
    # until bob may play a favor before moving (he holds one: the decision comes, rules v2)
    assert play_until(tmp_path, org, [ann, bob], keep_favors(chooser),
                      lambda: org("legal").stdout.startswith("bob: favor"))
    wrong = {"type": "play-favor", "favor": forged, "nonce": nonce}
    if forged == "killer-pillar":  # its pillars, as the rules would take them now (the forgery is the kind)
        from trvendetta.app import GameService
        from trvendetta.carnival.components import PILLARS
        from trvendetta.store import GameStore

        raised = GameService(GameStore(org.db)).load("cup").state.raised
        low = (sorted(raised) or [""])[0]
        wrong["pillars"] = [low, next(p for p in PILLARS if p not in raised and p != low)]
    out = bob("act", json.dumps(wrong), code=1).stderr
    assert f"bob was dealt no favor that '{forged}' with nonce {nonce[:16]}... opens" in out
    # his own kind with a nonce of his own making: no favor dealt to him has that commitment
    made_up = {"type": "play-favor", "favor": kind, "nonce": "0" * 32}
    assert "bob was dealt no favor that" in bob("act", json.dumps(made_up), code=1).stderr
    # nor a favor he holds face down without its opening (what an older trv would send)
    assert "does not answer the pending decision" in bob("act", json.dumps({"type": "play-favor", "favor": forged}),
                                                         code=1).stderr
    # a cheater's trv that skips the check: his store takes it; nobody else's does, nor verify
    real = favors.open_held

    def cheat(held, kind_, nonce_):
        hidden = [i for i, k in enumerate(held) if favors.is_hidden(k)]
        return held[:hidden[0]] + (kind_,) + held[hidden[0] + 1:] if hidden else real(held, kind_, nonce_)

    monkeypatch.setattr(favors, "open_held", cheat)
    bob("act", json.dumps(wrong))
    packet = tmp_path / "forged.trv"
    bob("send", "-o", packet)
    monkeypatch.setattr(favors, "open_held", real)
    for p in (ann, org):
        refused = p("import", packet, code=1, multiline=True).stderr
        assert f"'favor {forged}" in refused and f"is illegal here: bob was dealt no favor that '{forged}'" in refused
        assert held(p, "bob") == {"count": 1}  # nothing was written
    assert "bob was dealt no favor that" in bob("verify", code=1, multiline=True).stderr


def test_the_host_cannot_change_a_favor_it_dealt(dealt_to_bob, tmp_path):
    from fairplay_helpers import rechain

    from trvendetta.carnival.favors import commit

    org, ann, bob, _ = dealt_to_bob
    [event] = dealt(org)
    number = next(e["n"] for e in json.loads(org("log", "--json").stdout) if e["kind"] == "favor-dealt")
    other = commit("solid-gold-muffler", "0" * 32)
    altered = tmp_path / "altered.trv"
    altered.write_text(rechain(org("export", "cup").stdout, number, event["commitment"], other))
    refused = ann("verify", altered, code=1, multiline=True).stderr
    assert "is not what the host" in refused and "signed" in refused


def test_a_host_dealing_another_favor_than_its_deck_is_found_once_it_reveals(players, tmp_path, monkeypatch):
    from trvendetta.carnival import favors

    real = favors.opening

    def chosen(pile, key, index):  # the host deals the favor it likes, not its deck's
        kind, nonce = real(pile, key, index)
        return next(k for k in sorted(pile) if k != kind and pile[k]), nonce

    monkeypatch.setattr(favors, "opening", chosen)
    _, (org, ann, bob), _ = searched(players, tmp_path, ("org", "ann", "bob"), until_bob_holds_a_favor(keep_favors),
                                     bob_holds_the_only_favor)
    monkeypatch.setattr(favors, "opening", real)
    # before the reveal nobody can tell (the deck follows the host's secret seed): bob's store takes it
    assert bob("verify").stdout.startswith("OK: ")
    org("host", "reveal", "cup")
    record = tmp_path / "revealed.trv"
    record.write_text(org("export", "cup").stdout)
    for p in (ann, bob):
        refused = p("verify", record, code=1, multiline=True).stderr
        assert "favor-dealt" in refused and "differs from the rules' result" in refused


def test_a_bot_seat_is_dealt_favors_face_down_and_the_game_verifies_everywhere(players, tmp_path):
    """The whole game: the greedy bot seat (rules v5) ends every turn it plays, and is dealt favors."""
    def start(root, ps, n):
        org, ann = ps
        carnival_host_game(root, org, [ann], [("robo", "greedy")])
        assert play_until(root, org, [ann], keep_favors(random.Random(n)), lambda: False) is False  # it ended

    def to_robo(ps):
        record = json.loads(ps[1]("log", "--json").stdout)
        return {e["event"]["commitment"] for e in record if e["kind"] == "favor-dealt" and e["event"]["player"] == "robo"}

    _, (org, ann), _ = searched(players, tmp_path, ("org", "ann"), start, to_robo)  # robo was dealt favors, face down to ann
    for p in (org, ann):
        out = p("verify").stdout
        assert out.startswith("OK: ") and "every roll checked against the host's revealed seed" in out


def _made_before_private_favors(monkeypatch):
    """Games set up as before private favors: favors dealt in the open (``favor-collected``)."""
    from trvendetta import rulesets
    from trvendetta.carnival import setup

    real = setup.start
    # (every store rebuilds event 1 with its own rules' first event: the trv of before's, here)
    carnival = type(rulesets.get("carnival"))
    monkeypatch.setattr(carnival, "setup_event", lambda self, position, rng=None: self.start(position, rng)[0])

    def start(position, components, rng=None, rules_version=setup.RULES_VERSION, private_favors=None):
        return real(position, components, rng, rules_version, bool(private_favors))

    monkeypatch.setattr(setup, "start", start)


def collected(p):
    return [e["event"] for e in json.loads(p("log", "--json").stdout) if e["kind"] == "favor-collected"]


def test_verify_says_a_host_game_made_before_private_favors_dealt_them_in_the_open(players, tmp_path, monkeypatch):
    # a game of today says nothing of it
    org2, cyd, dan = players("org2", "cyd", "dan")
    carnival_host_game(tmp_path, org2, [cyd, dan])
    assert "private favors" not in cyd("verify").stdout
    # the trv of before, in every store (each rebuilds event 1 with its own rules: favors in the open)
    _made_before_private_favors(monkeypatch)

    def start(root, ps, n):
        org, ann, bob = ps
        carnival_host_game(root, org, [ann, bob])
        # the game goes on as it was made (its first event says so), favors collected in the open
        play_until(root, org, [ann, bob], random.Random(n).choice, lambda: collected(org))

    _, (org, ann, bob), _ = searched(players, tmp_path, ("org", "ann", "bob"), start, lambda ps: collected(ps[0]))
    assert not dealt(org)
    for p in (org, ann, bob):
        out = p("verify").stdout
        assert out.startswith("OK: ")
        assert "made before private favors: every favor's kind is in the record from when it was collected " \
               "(favor-collected), so each player can read the favors the others hold" in out


def test_verify_says_a_signed_game_without_a_host_deals_favors_in_the_open(players, tmp_path):
    ann, bob = players("ann", "bob")
    ann("new", "--ruleset", "carnival", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--key", "ann=ann",
        "--key", f"bob={tmp_path / 'bob.pub'}", "--name", "local")
    out = ann("verify").stdout
    assert "dealt in the open (a signed game without a host; only a host deals face down): every favor's kind" in out
    assert "made before private favors" not in out


def test_the_replay_page_of_a_signed_game_shows_only_the_readers_favors(players, tmp_path, monkeypatch):
    """`trv replay --html` draws each frame from the view `trv show` gives the local identity: their
    own favors face up, nobody else's, whoever is to act (a signed game deals them in the open, so the
    record names every kind; the page's frames do not)."""
    import shutil

    from trvendetta.pictures import viewer

    table, ann, bob, cyd = players("table", "ann", "bob", "cyd")
    for p in (ann, bob):  # one terminal holding both keys plays the game
        for suffix in (".key", ".pub"):
            shutil.copy(p.home / "identities" / f"{p.name}{suffix}", table.home / "identities")

    def bob_to_act_holding_a_favor(n):
        """Game ``local-n`` (seed n, chooser n) played until bob is to act holding a favor: whether he was."""
        table("new", "--ruleset", "carnival", "--player", "ann:red:cars", "--player", "bob:blue:cars",
              "--key", f"ann={tmp_path / 'ann.pub'}", "--key", f"bob={tmp_path / 'bob.pub'}", "--name", f"local-{n}",
              "--seed", str(n))
        chooser = random.Random(n)
        while not (first := table("legal").stdout).startswith("the game is over"):
            who = first.split(":")[0]
            if held(table, "bob").get("count") and who == "bob":
                return True
            table("act", json.dumps(keep_favors(chooser)(json.loads(table("legal", "--json").stdout))), "--as", who)
        return False

    n = next((n for n in range(GAMES) if bob_to_act_holding_a_favor(n)), None)
    assert n is not None, f"in none of {GAMES} games was bob to act holding a favor"
    record = tmp_path / "local.trv"
    table("export", f"local-{n}", "-o", record)
    drawn: list[dict] = []
    real = viewer.scene
    monkeypatch.setattr(viewer, "scene", lambda view, *a, **k: drawn.append(view["favors"]) or real(view, *a, **k))
    for reader, own in ((ann, "ann"), (cyd, None)):
        drawn.clear()
        reader("replay", "--html", tmp_path / f"{reader.name}.html", record)
        assert drawn and any(frame["bob"]["count"] for frame in drawn)
        assert all("kinds" not in frame[seat] for frame in drawn for seat in frame if seat != own)
        if own:
            assert all("kinds" in frame[own] for frame in drawn)
    # the table, holding both keys, sees both (as its `trv show` does)
    drawn.clear()
    table("replay", "--html", tmp_path / "table.html", record)
    assert any(frame["bob"].get("kinds") for frame in drawn)


def _bob_may_play_a_favor(tmp_path, org, ann, bob, chooser):
    """Play on until bob's own turn lists a favor he holds face down (not mid-effect, not a slam
    reroll); that option, as `trv legal --json` lists it."""
    def ready():
        first = org("legal").stdout.splitlines()[0]
        if not first.startswith("bob: ") or "slam-reroll" in first or "play a party favor now?" in first:
            return False
        return any(o["type"] == "play-favor" for o in json.loads(bob("legal", "--json").stdout))
    assert play_until(tmp_path, org, [ann, bob], keep_favors(chooser), ready)
    return next(o for o in json.loads(bob("legal", "--json").stdout) if o["type"] == "play-favor")


def _flag(o):
    """The `trv turn --favor` text of a play-favor option."""
    if o["favor"] == "killer-pillar":
        return f"killer-pillar:{o['pillars'][0] or '-'},{o['pillars'][-1]}"
    if o["favor"] == "precision":
        return f"precision:{o['die']}={o['face']}"
    if o["favor"] == "double-barrel":
        return "double-barrel:" + (f"{o['shot']}={o['target']}" if o.get("shot") else o["target"])
    return o["favor"]


def _played(p):
    return [e["event"] for e in json.loads(p("log", "--json").stdout) if e["kind"] == "favor-played"]


def test_turn_previews_and_plays_a_favor_dealt_face_down(dealt_to_bob, tmp_path):
    org, ann, bob, chooser = dealt_to_bob
    option = _bob_may_play_a_favor(tmp_path, org, ann, bob, chooser)
    before = version(bob)
    preview = bob("turn", "--dry-run", "--favor", _flag(option)).stdout  # his own favor, opened by his key
    assert preview.startswith("dry run: nothing is recorded")
    # (a favor that rolls, as the Killer Pillar does, is previewed up to its roll, which the host makes)
    assert f"bob plays {option['favor']}" in preview or \
        f"stops before 'favor {option['favor']}" in preview and "it rolls a die or turns a hidden token" in preview
    assert version(bob) == before
    bob("turn", "--favor", _flag(option))
    _bob_plays_it(tmp_path, org, ann, bob, option)


def _bob_plays_it(tmp_path, org, ann, bob, option):
    """Bob's favor ``option``, played in his store, sent (with the host's dice if it rolls): every
    store holds it, its kind and nonce opened (the others' stores check the opening and take it)."""
    send(tmp_path, bob, [org, ann, bob])
    [played] = _played(bob)
    assert played["favor"] == option["favor"] and played["nonce"] == option["nonce"]
    for p in (org, ann):
        assert _played(p) == [played]


def test_decide_plays_a_favor_dealt_face_down_by_its_name(dealt_to_bob, tmp_path):
    from trvendetta.rulesets import get

    org, ann, bob, chooser = dealt_to_bob
    option = _bob_may_play_a_favor(tmp_path, org, ann, bob, chooser)
    carnival = get("carnival")
    name = carnival.describe_action(carnival.decode_action(json.dumps(option)))
    assert name in bob("legal").stdout and name not in ann("legal").stdout  # named to bob only
    bob("decide", *name.split())
    _bob_plays_it(tmp_path, org, ann, bob, option)


def test_a_preview_stops_before_a_move_the_host_deals_a_favor_for(players, tmp_path):
    """`trv turn --dry-run --path DIR` of a step that ends on a favor: the host deals it, so the
    preview stops before it (as before a die roll) and records nothing."""
    previews: list = []

    def start(root, ps, n):
        org, ann, bob = ps
        carnival_host_game(root, org, [ann, bob])
        by_name, chooser = {"ann": ann, "bob": bob}, random.Random(n)
        for _ in range(3000):
            first = org("legal").stdout.splitlines()[0]
            if first.startswith("the game is over"):
                return  # no favor was dealt
            p = by_name[first.split(":")[0]]
            action = keep_favors(chooser)(json.loads(p("legal", "--json").stdout))
            before = len(dealt(p))
            dry = None
            if action["type"] == "step" and first.startswith(f"{p.name}: step"):
                try:
                    dry = p("turn", "--dry-run", "--path", action["direction"]).stdout
                except AssertionError as exc:  # refused (exit 1)
                    dry = f"refused: {exc}"
            p("act", json.dumps(action))
            send(root, p, [org, ann, bob])
            if dry is not None and len(dealt(p)) > before:
                previews.append((dry, action))
                return

    searched(players, tmp_path, ("org", "ann", "bob"), start, lambda ps: bool(previews))
    [(dry, action)] = previews
    assert dry.startswith("dry run: nothing is recorded") and f"stops before '{action['direction']}'" in dry, dry
