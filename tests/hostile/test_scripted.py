"""Scripted outcomes are never passed off as rolls (issue 17): every view of
an event a position's [script] chose says so, and verify reports the set-up."""

SCRIPTED = ('players=[{name="ann",color="red"},{name="bob",color="blue"}]\nseed=2\n'
            "[script]\nmovement = [6, 6, 6, 6]\n")


def test_scripted_rolls_say_so_in_log_replay_and_verify(trv, tmp_path):
    (tmp_path / "p.toml").write_text(SCRIPTED, encoding="utf-8")
    trv("new", "--name", "s", "--position", tmp_path / "p.toml")
    log = trv("log").stdout
    assert "6 6 6 6" in log and "(scripted by the set-up, not rolled)" in log
    assert "(scripted by the set-up, not rolled)" in trv("replay", "s").stdout
    out = trv("verify", "s").stdout
    assert "scripted: the set-up fixes 4 dice and draws" in out
    trv("export", "s", "-o", tmp_path / "s.trv")
    assert "scripted: the set-up fixes 4 dice and draws" in trv("verify", tmp_path / "s.trv").stdout


def test_rolled_dice_are_not_called_scripted(trv):
    trv("new", "--name", "r", "--seed", 2, "--player", "ann:red", "--player", "bob:blue")
    assert "scripted" not in trv("log").stdout
    assert "scripted" not in trv("verify", "r").stdout
