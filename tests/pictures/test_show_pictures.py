"""`trv show --svg FILE`, `--png FILE` and `--at N` from the command line (issue 14)."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

from trvendetta.cli.main import cli

from .helpers import EXAMPLES, parse, vehicles_drawn


def run(db, *args, code=0, env=None):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)],
                                env={"TRV_GAME": None, "TRV_DB": None, "NO_COLOR": "1", **(env or {})},
                                catch_exceptions=False)
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    if code == 1:
        assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1, result.stderr
    return result


@pytest.fixture
def game(tmp_path):
    db = tmp_path / "trv.sqlite"
    example = next(p for p in EXAMPLES if p.stem.startswith("vendetta"))
    run(db, "new", "--position", example, "--name", "slam")
    run(db, "turn", "--car", "red-large", "--assign", "4", "--path", "F")
    return db


def test_show_svg_writes_the_board_and_not_the_text_board(game, tmp_path):
    out = tmp_path / "board.svg"
    result = run(game, "show", "--svg", out)
    assert result.stdout == ""  # the picture was asked for, not the text board as well
    assert f"into {out}" in result.stderr
    assert '"game": "slam"' in run(game, "show", "--svg", out, "--json").stdout
    root = parse(out.read_text(encoding="utf-8"))
    drawn = vehicles_drawn(root)
    assert {"red-large", "blue-small"} <= set(drawn)
    caption = "".join(next(e for e in root.iter() if e.get("class") == "dash caption").itertext())
    assert caption.startswith("after event ") and "F" in caption  # the last action, highlighted
    assert not list(tmp_path.glob("*.part"))


def test_show_svg_at_an_earlier_event(game, tmp_path):
    from trvendetta import pictures

    from .helpers import example

    run(game, "show", "--at", 1, "--svg", tmp_path / "first.svg")
    run(game, "show", "--svg", tmp_path / "now.svg")
    first = parse((tmp_path / "first.svg").read_text(encoding="utf-8"))
    now = parse((tmp_path / "now.svg").read_text(encoding="utf-8"))
    rs, state = example(next(p for p in EXAMPLES if p.stem.startswith("vendetta")))
    start = vehicles_drawn(parse(pictures.svg(rs.view(state))))
    assert vehicles_drawn(first)["red-large"].get("data-at") == start["red-large"].get("data-at") == "c3"
    assert vehicles_drawn(now)["red-large"].get("data-at") != "c3"
    assert not [e for e in first.iter() if e.get("class") == "dash caption"]  # no action yet after event 1


def test_show_svg_to_standard_output_prints_only_the_picture(game):
    result = run(game, "show", "--svg", "-")
    parse(result.stdout)


def test_show_png_names_the_extra_when_cairosvg_is_missing(game, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg now raises ImportError
    result = run(game, "show", "--png", tmp_path / "b.png", code=1)
    assert "trvendetta[png]" in result.stderr and "cairosvg" in result.stderr
    assert not (tmp_path / "b.png").exists()


def test_show_png_draws_a_png(game, tmp_path):
    from trvendetta.pictures.png import converter
    from trvendetta.core.errors import TrvError
    try:
        converter()
    except TrvError as err:  # the extra, or the cairo library it loads, is missing here
        pytest.skip(str(err))
    out = tmp_path / "b.png"
    run(game, "show", "--png", out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_show_svg_into_a_missing_folder_is_one_clear_line(game, tmp_path):
    result = run(game, "show", "--svg", tmp_path / "nowhere" / "b.svg", code=1)
    assert "cannot write" in result.stderr
