"""The evaluation fit (``bench/fit_evaluate.py``): softmax regression by Newton's method."""

from __future__ import annotations

import random

from bench import fit_evaluate as fe
from trvendetta.vendetta import bot


def test_the_fit_recovers_known_weights_from_who_won() -> None:
    truth = {k: 0.0 for k in bot.WEIGHTS} | {"front": 3.0, "damage": -2.0}
    rnd = random.Random(1)
    data = []
    for g in range(1500):
        fs = [{k: rnd.random() for k in bot.WEIGHTS} for _ in range(2 + g % 3)]
        ps = fe.probs(truth, fs)
        won = rnd.choices(range(len(fs)), weights=ps)[0]
        data.append((g, fs, won))
    w = fe.fit(data[:1000])
    assert abs(w["front"] - 3.0) < 0.6 and abs(w["damage"] + 2.0) < 0.6
    assert all(abs(w[k]) < 0.6 for k in bot.WEIGHTS if k not in ("front", "damage"))
    fitted, named = fe.judge(w, data[1000:])
    coin, _ = fe.judge(None, data[1000:])
    assert fitted < coin - 0.05 and named > 0.5


def test_solve() -> None:
    assert [round(x, 9) for x in fe._solve([[0.0, 2.0], [4.0, 1.0]], [2.0, 9.0])] == [2.0, 1.0]
