"""`trv undo` and `trv send` walk only a game's last actions, from the stored state
(``replays.resume.tail_walk``): what they read of those records is what a walk
of the whole game reads, at every cut, and their answers are the whole walk's.

The games are the fair-play fixtures (signed exchange and host games with
reveals, games with bot seats and retractions), imported into a store."""

from pathlib import Path

import pytest

from trvendetta import replays, rulesets
from trvendetta.core.errors import TrvError
from trvendetta.replays import audit, outbox
from trvendetta.replays.resume import NeedsHistory, walker_after, walker_for
from trvendetta.replays.signatures import HOST
from trvendetta.store import GameStore

FIXTURES = Path(__file__).resolve().parent.parent / "fairplay" / "fixtures"
GAMES = ["signed-exchange2.trv", "signed-exchange3.trv", "signed-host.trv", "signed-seeded.trv",
         "main-vendetta-undo.trv", "main-vendetta-bots3.trv", "main-classic-bots.trv"]
SIGNED = [g for g in GAMES if g.startswith("signed-")]  # only a signed game is sent


@pytest.fixture
def imported(tmp_path, request):
    store = GameStore(tmp_path / "games.sqlite")
    data = (FIXTURES / request.param).read_bytes()
    game, _, _ = replays.import_file(store, replays.read_file(data, request.param))
    yield store, game
    store.close()


def _group(g):
    return (g.first, g.last, g.player, g.reveals, g.action)


def _draws(walker):
    d = walker.draws
    return None if d is None else (d.open, getattr(d, "next_draw", None), getattr(d, "revealed_at", 0))


@pytest.mark.parametrize("imported", GAMES, indirect=True)
def test_a_walk_resumed_at_every_cut_reads_the_records_after_it_as_a_whole_walk(imported):
    store, game = imported
    meta = store.header(game)
    ruleset = rulesets.get(meta.ruleset)
    records = store.events(game, decode=False)
    seats = outbox._Seats()
    whole = walker_for(ruleset, meta.charter, meta.domain, [seats], start=meta.genesis).walk(records)
    made = outbox.makers(walker_for, ruleset, meta.charter, meta.domain, records)
    resumed = 0
    for at in sorted({r.number - 1 for r in records if r.action and r.number > 1}):
        mine = outbox._Seats()
        try:
            walker = walker_after(store, game, at, [mine]).walk(records[at:])
        except NeedsHistory:  # a retraction reaching back past the cut: the callers walk further back
            continue
        resumed += 1
        assert (walker.state, walker.number, walker.head) == (whole.state, whole.number, whole.head), at
        assert [_group(g) for g in walker.live_actions[1:]] == [_group(g) for g in whole.live_actions
                                                                  if g.first > at], at
        assert _draws(walker) == _draws(whole), at
        after = outbox.makers_after(records, at, mine)
        assert all(m is outbox.UNKNOWN or m == w for m, w in zip(after, made[at:], strict=True)), at
    assert resumed > 3


def _whole_only(monkeypatch):
    monkeypatch.setattr(audit, "tail_walk", lambda store, game, records, visitors, enough, whole:
                        (whole(visitors()), None))
    from trvendetta.replays import resume

    monkeypatch.setattr(resume, "tail_walk", lambda store, game, records, visitors, enough, whole:
                        (whole(visitors()), None))


def _plan(store, game, bots):
    try:
        if bots:
            plan = replays.plan_undo_with_bots(store, game, bots, agreed=False)
            return [(r, _group(g)) for r, g in plan]
        retraction, group, walker = replays.plan_undo(store, game, agreed=True)
        return retraction, _group(group), walker.state, walker.number, walker.head
    except TrvError as exc:
        return str(exc)


@pytest.mark.parametrize("imported", GAMES, indirect=True)
def test_undo_plans_what_a_whole_walk_plans_undo_after_undo(imported, monkeypatch):
    store, game = imported
    bots = set(store.header(game).bots or {})
    for _ in range(6):  # each undo reaches further back: the walks resume further back or walk it all
        fast = [_plan(store, game, set()), _plan(store, game, bots) if bots else None]
        with monkeypatch.context() as m:
            _whole_only(m)
            assert [_plan(store, game, set()), _plan(store, game, bots) if bots else None] == fast
        if isinstance(fast[0], str) or store.header(game).charter:
            break  # nothing more to take back here (a signed game's undo needs its seats' keys)
        replays.undo(store, game, agreed=True)


@pytest.mark.parametrize("imported", SIGNED, indirect=True)
def test_send_finds_the_record_a_whole_walk_finds(imported, monkeypatch):
    store, game = imported
    meta = store.header(game)
    known = outbox.parties(meta.charter)
    assert known, "a signed fixture names its seats' keys"
    records = store.events(game, decode=False)
    made = outbox.makers(walker_for, rulesets.get(meta.ruleset), meta.charter, meta.domain, records)
    for local in [{p} for p in known] + [set(known) - {p} for p in known] + [{HOST}]:
        assert outbox.last_made_elsewhere(store, game, records, local, known) == \
            outbox.unsent_since(made, local, known), local
