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


CARNIVAL = ('ruleset = "carnival"\nplayers=[{name="ann",color="red"},{name="bob",color="blue"}]\nseed=2\n'
            '[script]\nmovement = [6, 6, 6, 6]\ntina = ["tina-3"]\n')


def test_carnival_scripted_rolls_and_draws_say_so(trv, tmp_path):
    """The Carnival's own draws (here Tina's card) are scripted like dice."""
    from trvendetta.bots import get_bot
    from trvendetta.core.rng import Rng
    from trvendetta.store import GameStore

    (tmp_path / "c.toml").write_text(CARNIVAL, encoding="utf-8")
    trv("new", "--name", "c", "--position", tmp_path / "c.toml")
    bot = get_bot("random")
    with GameStore(trv.db) as store:  # random play until Tina flips her (scripted) card
        loaded = store.load("c")
        rs = loaded.ruleset
        for i in range(400):
            action = bot.choose(rs, loaded.state, Rng(7, 1000 + i), rs.pending(loaded.state))
            _, events = rs.apply(loaded.state, action)
            loaded = store.append("c", loaded.version, steps=[(action, events)])
            if any(rs.event_kind(e) == "tina-flipped" for e in events):
                break
        else:
            raise AssertionError("Tina never flipped a card")
    scripted = [line for line in trv("log").stdout.splitlines() if "(scripted by the set-up, not rolled)" in line]
    assert "6 6 6 6" in scripted[0] and "tina-3" in scripted[-1], scripted
    assert trv("replay", "c").stdout.count("(scripted by the set-up, not rolled)") == len(scripted)
    assert "scripted: the set-up fixes 5 dice and draws" in trv("verify", "c").stdout
