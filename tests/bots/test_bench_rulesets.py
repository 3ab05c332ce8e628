"""The benchmarks measure any registered ruleset (none is hard-coded)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "store"))

import toy_ruleset  # noqa: E402

from bench import run  # noqa: E402


def test_fold_and_sim_run_for_the_toy_ruleset():
    toy = toy_ruleset.RULESET
    events = run.long_history(toy, 60)
    assert len(events) == 60 and all(type(e).__module__ == "toy_ruleset" for e in events)
    sim = run.bench_sim(toy, 1, 3)
    assert sim["value"] > 0 and sim["games_per_run"] == 3


def test_the_ruleset_is_an_option(capsys):
    try:
        run.main(["--help"])
    except SystemExit:
        pass
    assert "--ruleset" in capsys.readouterr().out
