"""One reveal per draw, bound to one game (docs/fair-play.md): the attacks of fishing for a roll
with a fork or a copy of an exchange game, tried as cheating players would, each with their own
store and packets as files, and the routes around each defence."""

import random
import re

import pytest

from fairplay_helpers import Mail, version
from test_exchange import exchange_game, pick


def until_intent(tmp_path, players, seed=2):
    """Play (mailing every packet) until someone's action waits for dice at a decision where another
    option needs dice too (the cheater's candidate, :func:`other_option`); that intent's packet is
    not mailed.  Returns the actor, the game's version before the command, and its output."""
    chooser = random.Random(seed)
    by_name = {p.name: p for p in players}
    n = 0
    while True:
        legal = players[0]("legal", "--game", "duel").stdout.splitlines()
        assert not legal[0].startswith("the game is over"), "no decision with two options that need dice"
        p = by_name[legal[0].split(":")[0]]
        since = version(p)
        out = p("decide", "--game", "duel", pick(chooser, legal[1:])).stdout
        n += 1
        if "waits for the others' dice" in out:
            action = re.search(r"waits for the others' dice for '([^']+)'", out).group(1)
            if _candidate(p, since, action, f"probe{n}") is not None:
                return p, since, out
        packet = tmp_path / f"t{n}.trv"
        p("export", "duel", "--since", since, "-o", packet)
        Mail(tmp_path, players).send(packet, p)


def after(log: str, since: int) -> str:
    """The lines of a `trv log` for the events after ``since`` (earlier draws were revealed as ever)."""
    return "\n".join(line for line in log.splitlines()
                     if re.match(r"^\s*(\d+)\. ", line) and int(line.split(".")[0]) > since)


def _candidate(p, since, action, prefix, game="duel"):
    """Another legal option at the decision the intent answered that needs dice too (the cheater's
    candidate): each tried in a fork of its own (named from ``prefix``), which refuses to draw for
    it; None when there is none."""
    p("fork", game, "--at", since, "--name", prefix)
    legal = [o.strip() for o in p("legal", "--game", prefix).stdout.splitlines()[1:]]
    for n, option in enumerate(o for o in legal if o != action):
        p("fork", game, "--at", since, "--name", f"{prefix}-{n}")
        result = p.runner.invoke(__import__("trvendetta.cli.main", fromlist=["cli"]).cli,
                                 ["--db", str(p.db), "decide", "--game", f"{prefix}-{n}", option],
                                 env={"TRV_HOME": str(p.home), "TRV_GAME": None, "TRV_DB": None, "TRV_AS": None})
        if result.exit_code == 1 and "needs dice" in result.stderr:
            return option
    return None


def other_option(p, since, action, game="duel"):
    """The cheater's candidate at the intent :func:`until_intent` stopped at (it has one)."""
    option = _candidate(p, since, action, "look", game)
    assert option is not None, "until_intent stops only where another option needs dice"
    return option


@pytest.fixture
def cheating_trv(tmp_path):
    """A cheater's trv, for the commands run inside it: it records an intent in a fork (ours
    refuses: a fork is for looking only) and keeps no ledger of its secret's draws."""
    import contextlib

    from trvendetta.app import exchange
    from trvendetta.app.ledger import Ledger

    @contextlib.contextmanager
    def cheating():
        real = exchange.ExchangeTurn.__init__

        def init(self, *args, **kwargs):
            real(self, *args, **kwargs)
            self.parent, self.ledger = "", Ledger(tmp_path / "cheater-forgets")

        exchange.ExchangeTurn.__init__ = init
        try:
            yield
        finally:
            exchange.ExchangeTurn.__init__ = real

    return cheating


def copy_with_intent(tmp_path, cheater, since, option, name, game="duel"):
    """The cheater's copy of the game up to ``since`` with an intent for ``option``, as a record
    file named ``name`` and without fork tags: made in a store of its own (a copy of the record,
    imported and played on), so its signatures name the game itself."""
    import shutil

    # the game as it was before the intent: the record up to `since`, through a fork's own record
    cheater("fork", game, "--at", since, "--name", f"{name}-cut")
    copy = type(cheater)(tmp_path, f"{cheater.name}-copy")  # `trv` as another of the cheater's machines
    # the cheater's identity and secret copied to another machine, without the ledger of its draws
    shutil.copytree(cheater.home, copy.home, ignore=shutil.ignore_patterns("*.ledger"))
    cut = tmp_path / f"{name}-cut.trv"
    cheater("export", f"{name}-cut", "-o", cut)
    stripped = re.sub(r'^\[(Parent|ParentAt|Domain) "[^"]*"\]\n', "", cut.read_text(), flags=re.M)
    stripped = stripped.replace(f'[Game "{name}-cut"]', f'[Game "{game}"]')
    (tmp_path / f"{name}-clean.trv").write_text(stripped)
    copy("import", tmp_path / f"{name}-clean.trv", "--name", name)
    copy("decide", "--game", name, option)
    out = tmp_path / f"{name}.trv"
    copy("export", name, "-o", out)
    return out, copy


def test_a_fork_with_a_candidate_intent_gets_no_reveal_and_is_evidence(players, tmp_path, cheating_trv):
    ann, bob = exchange_game(tmp_path, players("ann", "bob"))
    p, since, out = until_intent(tmp_path, [ann, bob])
    other = bob if p is ann else ann
    action = re.search(r"waits for the others' dice for '([^']+)'", out).group(1)
    candidate = other_option(p, since, action)
    # the cheater's trv records the candidate in a fork and mails the fork's record
    p("fork", "duel", "--at", since, "--name", "peek")
    with cheating_trv():
        assert "waits for the others' dice" in p("decide", "--game", "peek", candidate).stdout
    p("export", "peek", "-o", tmp_path / "peek.trv")
    answered = other("import", tmp_path / "peek.trv", "--reply", tmp_path / "peek-reply.trv").stdout
    assert "peek is a fork of duel" in answered and "for looking only" in answered and "no dice revealed" in answered
    assert not (tmp_path / "peek-reply.trv").exists()
    assert "reveals dice" not in after(other("log", "--game", "peek").stdout, since)
    # the game goes on: the real intent is answered as ever
    p("export", "duel", "--since", since, "-o", tmp_path / "intent.trv")
    other("import", tmp_path / "intent.trv", "--reply", tmp_path / "reply.trv")
    p("import", tmp_path / "reply.trv")
    # the two signed intents for one draw are the proof
    other("export", "duel", "-o", tmp_path / "duel.trv")
    err = other("verify", tmp_path / "duel.trv", "--against", tmp_path / "peek.trv", code=1, multiline=True)
    assert f"{p.name} signed two different games" in err.stderr
    assert re.search(rf"{p.name} \(\w+\) signed two intents for draw \d+ of this game: that is equivocation",
                     err.stdout)


@pytest.mark.parametrize("names, seed", [(("ann", "bob"), 2), (("ann", "bob", "cyd"), 6)])
def test_a_copy_under_another_name_is_refused_naming_both_games_and_nothing_is_written(players, tmp_path, names,
                                                                                      seed):
    everyone = exchange_game(tmp_path, players(*names))
    p, since, out = until_intent(tmp_path, everyone, seed)
    action = re.search(r"waits for the others' dice for '([^']+)'", out).group(1)
    candidate = other_option(p, since, action)
    copy, _ = copy_with_intent(tmp_path, p, since, candidate, "peek")
    for other in (q for q in everyone if q is not p):
        before = other("games").stdout
        err = other("import", copy, code=1).stderr
        assert "one reveal per draw" in err and "serves game duel" in err and "peek is a copy of it" in err
        assert f"no dice for {p.name}'s" in err
        assert other("games").stdout == before  # nothing was written
        kept = "".join(f.read_text() for f in (other.home / "secrets").glob("*.ledger"))
        assert '"refused": true' in kept and '"game": "peek"' in kept  # the refused intent, as evidence
    # the real intent is answered by everyone, in turn
    mail = Mail(tmp_path, everyone)
    p("export", "duel", "--since", since, "-o", tmp_path / "intent.trv")
    mail.send(tmp_path / "intent.trv", p)
    shown = {q("show", "--json").stdout for q in everyone}
    assert len(shown) == 1 and "waiting for" not in p("show").stdout


def test_another_intent_after_the_reveal_is_refused_naming_both_intents(players, tmp_path):
    """The route around a refused copy: the other store revealed the draw for the game's intent;
    the cheater then sends another action for the same draw, as a copy under the same name in
    another database of the receiver (or after its store was lost): refused, naming both."""
    ann, bob = exchange_game(tmp_path, players("ann", "bob"))
    p, since, out = until_intent(tmp_path, [ann, bob])
    other = bob if p is ann else ann
    action = re.search(r"waits for the others' dice for '([^']+)'", out).group(1)
    candidate = other_option(p, since, action)
    copy, _ = copy_with_intent(tmp_path, p, since, candidate, "duel")
    p("export", "duel", "--since", since, "-o", tmp_path / "intent.trv")
    other("import", tmp_path / "intent.trv", "--reply", tmp_path / "reply.trv")
    # the receiver's other database (the same identity and secrets): the copy of duel with another intent
    second = type(other)(tmp_path, f"{other.name}-second")
    second.home = other.home
    err = second("import", copy, code=1).stderr
    assert "one reveal per draw" in err and f"{other.name} revealed draw" in err
    assert f"{p.name}'s {action!r} (game duel" in err and f"and refuses {p.name}'s {candidate!r}" in err
    assert "duel" not in second("games").stdout  # nothing was written
    # the game's own intent again (the actor's record, ending on it) is no second intent: answered alike
    p("export", "duel", "-o", tmp_path / "actor.trv")
    again = second("import", tmp_path / "actor.trv", "--reply", tmp_path / "again.trv").stdout
    assert f"{other.name} reveals dice" in again
    assert (tmp_path / "again.trv").read_text() == (tmp_path / "reply.trv").read_text()


def test_a_game_of_today_is_not_marked_and_one_made_before_is(players, tmp_path):
    ann, bob = exchange_game(tmp_path, players("ann", "bob"))
    out = ann("verify").stdout
    assert "made before" not in out and "shared key" not in out


def test_the_players_own_store_refuses_a_second_intent_for_a_draw(players, tmp_path):
    """The player's own ledger: a copy of her game in another of her databases (the same secrets)
    draws nothing for another action once the game's intent took the draw."""
    ann, bob = exchange_game(tmp_path, players("ann", "bob"))
    p, since, out = until_intent(tmp_path, [ann, bob])
    action = re.search(r"waits for the others' dice for '([^']+)'", out).group(1)
    candidate = other_option(p, since, action)
    p("fork", "duel", "--at", since, "--name", "cut")
    p("export", "cut", "-o", tmp_path / "cut.trv")
    clean = re.sub(r'^\[(Parent|ParentAt|Domain) "[^"]*"\]\n', "", (tmp_path / "cut.trv").read_text(), flags=re.M)
    (tmp_path / "clean.trv").write_text(clean.replace('[Game "cut"]', '[Game "duel"]'))
    second = type(p)(tmp_path, f"{p.name}-second")
    second.home = p.home
    second("import", tmp_path / "clean.trv")
    err = second("decide", candidate, code=1).stderr
    assert f"one reveal per draw: {p.name} revealed draw" in err and f"and refuses {p.name}'s {candidate!r}" in err
    assert "waits for the others' dice" not in after(second("log").stdout, since)  # nothing was written
