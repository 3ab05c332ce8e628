"""A claim against the host ("the host did not reveal") is refused wherever it arrives, before
anything is written, and the draw is answered by the host's store; a host that never reveals is
named, with its commitment, by every player's `verify` and `show` (docs/fair-play.md).

The cheating player is built from the project's own code: its trv skips the claim command's own
refusal and appends the claim (``app.outcome``), signed with its key; separate stores, packets as
files."""

from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time
from test_host_remote import deliver, send

import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def _timed_host_game(tmp_path, org, humans):
    args = ["host", "offer", "--name", "cup", "--time", "3d", "-o", tmp_path / "offer.json"]
    for p, color in zip(humans, ["red", "blue", "green"]):
        args += ["--player", f"{p.name}:{color}", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
    org(*args)
    joins = []
    for p in humans:
        p("host", "join", tmp_path / "offer.json", "-o", tmp_path / f"{p.name}.json")
        joins += ["--join", tmp_path / f"{p.name}.json"]
    org("host", "new", tmp_path / "offer.json", *joins)
    send(tmp_path, org, [org, *humans])


def _claim_against_the_host(p, now) -> None:
    """``p``'s cheating trv: the claim that the host did not answer its draw, appended and signed."""
    from trvendetta.app.clock import waiting
    from trvendetta.app.outcome import _append
    from trvendetta.cli.identity import Keyring
    from trvendetta.replays.timecontrol import stamp_text
    from trvendetta.store import CLAIM_KIND, Claim, GameStore, decode_charter

    store = GameStore(p.db)
    w = waiting(store, "cup")
    since = w.since
    claim = Claim("the host", p.name, w.after, w.after_hash, "reveal", "3d", stamp_text(since),
                  stamp_text(since + timedelta(days=3)), stamp_text(now))
    seats = dict(decode_charter(store.header("cup").charter).seats)
    _append(store, "cup", CLAIM_KIND, claim, p.name, Keyring(seats, p.name, p.home), w.after, w.after_hash)


@pytest.mark.parametrize("names", [("ann", "bob"), ("ann", "bob", "cyd")])
def test_a_claim_against_the_host_is_refused_everywhere_and_writes_nothing(players, tmp_path, names, monkeypatch):
    import random

    from test_host_remote import until_intent

    people = players("org", *names)
    org, humans = people[0], people[1:]
    with freeze_time("2026-12-01 12:00:00") as clock:
        _timed_host_game(tmp_path, org, humans)
        actor = until_intent(tmp_path, org, humans, random.Random(3))
        actor("send", "-o", tmp_path / "intent.trv")  # the intent alone, as an honest trv sends it
        assert "waits for the host's dice" in actor("claim", code=1).stderr  # the honest trv refuses
        clock.tick(timedelta(days=3, minutes=5))
        _claim_against_the_host(actor, datetime.now(timezone.utc))
        with monkeypatch.context() as cheat:  # the cheater's trv checks no claim when it sends
            cheat.setattr("trvendetta.replays.outcomes._claim", lambda *args: None)
            actor("send", "-o", tmp_path / "claim.trv")
    before = {p.name: p("log").stdout for p in people}
    for p in people:
        if p is actor:
            continue
        err = p("import", tmp_path / "claim.trv", code=1).stderr
        assert "a claim against the host (" in err and "the host is no seat" in err, err
        assert p("log").stdout == before[p.name]  # nothing written: neither the claim nor a reveal
        out = p("verify").stdout
        assert out.startswith("OK: ")
    assert "a claim against the host (" in actor("verify", code=1).stderr  # the cheater's own copy fails
    # the draw is answered by the host's store: the intent, without the claim, gets its resolution
    out = org("import", tmp_path / "intent.trv").stdout
    assert "(rolled by the host)" in out and "wrote the reply packet" in out


def test_a_host_that_never_reveals_is_named_with_its_commitment_in_show_and_verify(players, tmp_path):
    from trvendetta.app.messages import Offer

    org, ann, bob = players("org", "ann", "bob")
    with freeze_time("2026-12-01 12:00:00"):
        _timed_host_game(tmp_path, org, [ann, bob])
        ann("resign")
        ann("send", "-o", tmp_path / "resign.trv")
        deliver(tmp_path, tmp_path / "resign.trv", ann, [bob])  # the host's store never gets it
    offer = Offer.decode((tmp_path / "offer.json").read_bytes(), "offer.json")
    for p in (ann, bob):
        shown = p("show").stdout
        assert "the host has not revealed its seed" in shown and offer.commit[:16] in shown
        out = p("verify").stdout
        assert out.startswith("OK: ") and f"has not revealed the seed it committed to ({offer.commit[:16]}" in out


def test_a_claim_over_a_pending_reveal_in_an_exchange_game_writes_nothing_and_the_reveal_follows(players, tmp_path):
    """The exchange game's counterpart: ann's intent waits for bob's reveal; bob's store never met it,
    and meets it with ann's claim: by bob's clock his time has not run (it starts when his store meets
    the intent), so his import refuses the claim and writes nothing, neither the claim nor a reveal
    after it; the intent alone then gets bob's reveal, as any draw does."""
    from test_time_limits import START, _play_until_anns_intent, timed_exchange

    ann, bob = players("ann", "bob")
    with freeze_time(START) as clock:
        timed_exchange(tmp_path, [ann, bob])
        intent = _play_until_anns_intent(tmp_path, ann, bob, clock)
        clock.tick(timedelta(days=3, minutes=1))
        assert "game over: bob lost on time (claimed by ann" in ann("claim").stdout
        ann("send", "-o", tmp_path / "claim.trv")
        log = bob("log").stdout
        err = bob("import", tmp_path / "claim.trv", code=1).stderr
        assert "the claim came before bob's time ran out here" in err and "nothing was written" in err
        assert bob("log").stdout == log  # neither the claim nor a reveal
        out = bob("import", intent, "--reply", tmp_path / "reply.trv").stdout
        assert "bob reveals dice for draw" in out and "wrote the reply packet" in out
    for p in (ann, bob):
        assert p("verify").stdout.startswith("OK: ")
