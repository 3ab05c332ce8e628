"""The fuzz suite of issue 17: hostile position files, records, packets,
claims and command lines, generated and mutated by hypothesis.

Every input must end in exit 0, 1 (one ``Error:`` line) or 2 (a usage
error): never a traceback (``Trv`` fails the test on one), and a command
that is refused must leave the store exactly as it was (zero events
appended).  Each target runs ``BUDGET`` inputs in the default suite (the
same inputs every run: ``derandomize``) and ``LONG_BUDGET`` under ``-m slow``;
``TRV_FUZZ_EXAMPLES`` / ``TRV_FUZZ_LONG_EXAMPLES`` change them.
"""

from __future__ import annotations

import shutil

import click
import pytest
from hypothesis import given
from hypothesis import strategies as st

from trvendetta import rulesets
from trvendetta.bots import get_bot
from trvendetta.cli.main import cli
from trvendetta.core.rng import Rng
from trvendetta.store import GameStore

from .fuzzing import (BUDGET, HUGE, LONG_BUDGET, TRIED, WEIRD_TEXT, fuzz_settings, json_texts, mutate_record,
                      position_texts)
from .helpers import Trv, play_random, stored_rows

pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
BUDGETS = [pytest.param(BUDGET, id="budget"), pytest.param(LONG_BUDGET, id="long", marks=pytest.mark.slow)]


def extend(db, game: str, actions: int, seed: int = 11) -> int:
    """Play ``actions`` more random actions in ``game``; returns its event count."""
    bot = get_bot("random")
    with GameStore(db) as store:
        loaded = store.load(game)
        rs = loaded.ruleset
        for i in range(actions):
            if rs.is_over(loaded.state):
                break
            action = bot.choose(rs, loaded.state, Rng(seed, i), rs.pending(loaded.state))
            _, new = rs.apply(loaded.state, action)
            loaded = store.append(game, loaded.version, steps=[(action, new)])
        return loaded.version


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A store with game ``g`` (with a retraction) and ``h``; a record of
    ``g``; a packet extending ``h`` past the store's copy; ``h``'s board."""
    d = tmp_path_factory.mktemp("fuzzbase")
    db = d / "base.sqlite"
    play_random(db, "g", seed=3, actions=12)
    trv = Trv(db)
    trv("undo", "--agreed", "--game", "g")
    play_random(db, "h", seed=4, actions=6)
    ahead = d / "ahead.sqlite"
    shutil.copy(db, ahead)
    with GameStore(db) as store:
        since = store.load("h").version
    extend(ahead, "h", 3)
    return {
        "db": db,
        "record": trv("export", "g").stdout,
        "packet": trv("export", "h", "--since", since, db=ahead).stdout,
        "claim": trv("show", "--game", "h", "--json").stdout,
    }


@pytest.fixture
def store(base, tmp_path):
    db = tmp_path / "trv.sqlite"
    shutil.copy(base["db"], db)
    return db


def _refused_writes_nothing(trv: Trv, db, *args, **kwargs):
    before = stored_rows(db)
    result = trv(*args, code=None, **kwargs)
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.stderr)
    if result.exit_code != 0:
        assert stored_rows(db) == before, (args, result.stderr)
    return result


@pytest.mark.parametrize("budget", BUDGETS)
def test_position_files(tmp_path, budget):
    db = tmp_path / "trv.sqlite"
    trv = Trv(db)
    path = tmp_path / "p.toml"

    @fuzz_settings(budget)
    @given(text=position_texts())
    def run(text):
        TRIED["position files"] += 1
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        _refused_writes_nothing(trv, db, "new", "--position", path)

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_records(base, tmp_path, budget):
    db = tmp_path / "trv.sqlite"
    shutil.copy(base["db"], db)
    trv = Trv(db)
    path = tmp_path / "r.trv"
    names = iter(range(10**9))

    @fuzz_settings(budget)
    @given(data=st.data())
    def run(data):
        TRIED["records"] += 1
        path.write_bytes(mutate_record(data, base["record"]))
        trv("verify", path, code=None)
        _refused_writes_nothing(trv, db, "import", path, "--name", f"x{next(names)}")

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_packets(base, tmp_path, budget):
    db = tmp_path / "trv.sqlite"
    path = tmp_path / "p.trv"

    @fuzz_settings(budget)
    @given(data=st.data())
    def run(data):
        TRIED["packets"] += 1
        shutil.copy(base["db"], db)
        path.write_bytes(mutate_record(data, base["packet"]))
        _refused_writes_nothing(Trv(db), db, "import", path)

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_claims(base, store, tmp_path, budget):
    trv = Trv(store)
    path = tmp_path / "c.json"
    from .fuzzing import replace_somewhere

    @fuzz_settings(budget)
    @given(data=st.data())
    def run(data):
        TRIED["claims"] += 1
        value = data.draw(json_texts(), label="value")
        text = replace_somewhere(base["claim"], data, value) if data.draw(st.booleans(), label="edit") else value
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        _refused_writes_nothing(trv, store, "verify", "h", "--claim", path)

    run()


#: commands whose arguments are fuzzed (demo, sim and tournament play whole
#: games; id and store manage keys and stores outside one game store)
FUZZED_COMMANDS = ["new", "games", "show", "log", "turn", "legal", "act", "decide", "export", "import", "replay",
                   "undo", "fork", "verify"]


def _command_lines(record_path: str, position_path: str) -> st.SearchStrategy[list[str]]:
    ctx = click.Context(cli)
    commands = {name: cli.get_command(ctx, name) for name in FUZZED_COMMANDS}
    argv_text = [t for t in WEIRD_TEXT if "\x00" not in t]  # a real argv cannot hold a NUL byte
    values = st.one_of(
        st.integers(-3, 60).map(str), st.sampled_from(HUGE), st.sampled_from(argv_text),
        st.sampled_from(["g", "h", "nosuch", "ann", "bob", "red-small", "blue-medium", "small", "medium",
                         "ann:red", "bob:blue:cars", "greedy:blue:cars", "random:green:cars:z", "F,F,FR",
                         "6:F,F", "assign 3 to red-small", record_path, position_path, "out.trv", "-"]),
        st.text(max_size=12).filter(lambda t: "/" not in t and "\x00" not in t),
    )

    @st.composite
    def line(draw):
        name = draw(st.sampled_from(FUZZED_COMMANDS))
        params = commands[name].params
        argv = [name]
        for _ in range(draw(st.integers(0, 5))):
            p = draw(st.sampled_from(params))
            if isinstance(p, click.Option):
                argv.append(draw(st.sampled_from(p.opts)))
                if not p.is_flag:
                    argv.append(draw(values))
            else:
                argv.append(draw(values))
        if draw(st.integers(0, 9)) == 0:
            argv.insert(draw(st.integers(1, len(argv))), draw(values))
        return argv

    return line()


@pytest.mark.parametrize("budget", BUDGETS)
def test_command_lines(base, store, tmp_path, monkeypatch, budget):
    monkeypatch.chdir(tmp_path)  # any file a command writes lands here
    (tmp_path / "r.trv").write_text(base["record"], encoding="utf-8")
    (tmp_path / "p.toml").write_text('players=[{name="ann",color="red"},{name="bob",color="blue"}]\n',
                                     encoding="utf-8")
    trv = Trv(store)

    @fuzz_settings(budget)
    @given(argv=_command_lines("r.trv", "p.toml"))
    def run(argv):
        TRIED["command lines"] += 1
        _refused_writes_nothing(trv, store, *argv)

    run()


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    if TRIED:
        print("\nfuzz inputs tried: " + ", ".join(f"{k} {v}" for k, v in sorted(TRIED.items())))


def test_the_rulesets_fuzzed_are_registered():
    assert {"vendetta", "classic"} <= set(rulesets.names())
