"""Record headers that lie (issue 17): forged Parent/ParentAt, a RulesVersion
that is not event 1's; bots travel in the record; exports are deterministic."""

import re

import pytest

from .helpers import stored_rows


@pytest.fixture
def duel(trv, tmp_path):
    trv("new", "--name", "duel", "--seed", 5, "--player", "ann:red", "--bot", "greedy:blue:cars")
    return trv("export", "duel").stdout


def _tag(text: str, tag: str, value: str) -> str:
    if f"[{tag} " in text:
        return re.sub(rf'^\[{tag} ".*"\]$', lambda m: f'[{tag} "{value}"]', text, flags=re.M)
    return text.replace('[Events "', f'[{tag} "{value}"]\n[Events "', 1)


def test_two_stores_export_the_same_game_byte_for_byte(trv, tmp_path, duel):
    (tmp_path / "d.trv").write_text(duel, encoding="utf-8")
    other = tmp_path / "other.sqlite"
    trv("import", tmp_path / "d.trv", db=other)
    assert trv("export", "duel", db=other).stdout == duel
    assert "[Created " not in duel and "[Created " in trv("export", "duel", "--created").stdout


def test_bot_seats_travel_in_the_record(trv, tmp_path, duel):
    assert '[Bots "{\\"greedy-blue\\":\\"greedy\\"}"]' in duel
    (tmp_path / "d.trv").write_text(duel, encoding="utf-8")
    other = tmp_path / "other.sqlite"
    trv("import", tmp_path / "d.trv", db=other)
    from trvendetta.store import GameStore

    with GameStore(other) as store:
        assert store.header("duel").bots == {"greedy-blue": "greedy"}  # it answers its decisions there too


@pytest.mark.parametrize("value, says", [
    ('{\\"ann\\":\\"greedy\\",\\"zed\\":\\"greedy\\"}', "event 1: its hash follows from neither"),
    ('{\\"greedy-blue\\":\\"oracle\\"}', "the Bots or Charter tag, or event 1, was changed"),
    ("[1]", "Bots is not a JSON object"),
])
def test_a_forged_bots_tag_is_refused(trv, tmp_path, duel, value, says):
    path = tmp_path / "d.trv"
    path.write_text(_tag(duel, "Bots", value), encoding="utf-8")
    assert says in trv("verify", path, code=1).stderr
    other = tmp_path / "other.sqlite"
    assert says in trv("import", path, db=other, code=1).stderr
    assert stored_rows(other) == 0


@pytest.mark.parametrize("tags, says", [
    ({"ParentAt": "3"}, "names no Parent"),
    ({"Parent": "duel", "ParentAt": "5"}, "is not the end of an action"),
    ({"Parent": "d u e l", "ParentAt": "14"}, "the header's Parent"),
    ({"RulesVersion": "0"}, "but event 1 says '2'"),
])
def test_forged_header_tags_are_refused(trv, tmp_path, duel, tags, says):
    text = duel
    for tag, value in tags.items():
        text = _tag(text, tag, value)
    path = tmp_path / "d.trv"
    path.write_text(text, encoding="utf-8")
    assert says in trv("verify", path, code=1).stderr
    other = tmp_path / "other.sqlite"
    assert says in trv("import", path, db=other, code=1).stderr
    assert stored_rows(other) == 0


def test_an_import_refuses_parent_tags_its_store_contradicts(trv, tmp_path, duel):
    trv("new", "--name", "other", "--seed", 6, "--player", "ann:red", "--player", "bob:blue")
    path = tmp_path / "d.trv"
    path.write_text(_tag(_tag(duel, "Parent", "other"), "ParentAt", "14"), encoding="utf-8")
    trv("verify", path)  # on its own the record holds together
    before = stored_rows(trv.db)
    assert "the Parent tags are not this game's" in trv("import", path, "--name", "copy", code=1).stderr
    assert stored_rows(trv.db) == before
