"""Golden transcripts guard against accidental rule changes (see transcript.py)."""

import pytest

from trvendetta.rulesets import get

from .transcript import GAMES, path, transcript


@pytest.mark.parametrize("name", sorted(GAMES))
def test_transcript_matches_the_golden_file(name):
    assert transcript(name) == path(name).read_text(encoding="utf-8"), (
        f"the {name} playthrough changed; if the rules change was intended, run "
        "`python -m tests.golden.transcript` and review the diff")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_sentence_is_one_short_line(name):
    rs = get(name)
    for line in transcript(name).splitlines()[1:-1]:
        sentence = line.split(". ", 1)[1]
        assert sentence and "\n" not in sentence and len(sentence) <= 160, line
    assert rs.name == name
