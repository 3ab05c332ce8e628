"""Fit the weights of Vendetta's ``evaluate`` (``vendetta/bot.py``'s ``WEIGHTS``) to who won (a benchmark tool).

``python -m bench.fit_evaluate [--bot front] [--games 400] [--players 2] [--every 15]``

Plays ``--games`` games of ``--bot`` against itself (game ``g`` has seed ``g``; in 2-player games the
crews pair as ``bench.bots balance`` pairs them: cars-cars, cars-Final Five, Final Five-Big Rig, Big
Rig-cars), takes the state every ``--every`` actions with who won the game, and fits the weights of
``bot.features`` by softmax regression (the winner's probability among the players not out; plain
Newton's method, no dependencies) on the even seeds.  It prints the fitted weights, and on the odd
seeds (held out) the log loss and the share of winners named, for the fitted weights, the current
``WEIGHTS`` and a coin.
"""

from __future__ import annotations

import argparse
import math

from trvendetta import rulesets
from trvendetta.bots import new_position
from trvendetta.bots.registry import get_bot
from trvendetta.core.rng import Rng
from trvendetta.vendetta import bot

PAIRS = (("cars", "cars"), ("cars", "finalfive"), ("finalfive", "bigrig"), ("bigrig", "cars"))


def samples(name: str, games: int, players: int, every: int) -> list[tuple[int, list[dict], int]]:
    """(seed, the players' features, the winner's index among them) of every ``every``-th state."""
    from trvendetta.bots.front import FrontBot

    rs = rulesets.get("vendetta")
    out = []
    for g in range(games):
        crews = PAIRS[g % len(PAIRS)] if players == 2 else ("cars",) * players
        seats = [(f"p{i + 1}", ("red", "blue", "green", "yellow")[i], crews[i]) for i in range(players)]
        state, _ = rs.new_game(rs.default_position(seats, g))
        bots = [FrontBot() if name == "front" else get_bot(name) for _ in range(players)]
        rngs = [Rng(g, 1000 + i) for i in range(players)]
        seen, n = [], 0
        while not rs.is_over(state):
            d = rs.pending(state)
            assert d is not None and d.player is not None
            if n % every == 0:
                seen.append(bot.features(state))
            i = int(d.player[1:]) - 1
            state, _ = rs.apply(state, bots[i].choose(rs, state, rngs[i], d))
            n += 1
        winner = rs.winner(state)
        for f in seen:
            names = list(f)
            if winner in names and len(names) > 1:
                out.append((g, [f[p] for p in names], names.index(winner)))
    return out


def probs(w: dict[str, float], fs: list[dict]) -> list[float]:
    xs = [sum(w[k] * v for k, v in f.items()) for f in fs]
    top = max(xs)
    es = [math.exp(x - top) for x in xs]
    total = sum(es)
    return [e / total for e in es]


def fit(data: list, rounds: int = 12, ridge: float = 1e-3) -> dict[str, float]:
    """Newton's method on the softmax log-likelihood (a small ridge keeps it solvable)."""
    keys = list(bot.WEIGHTS)
    k = len(keys)
    w = {key: 0.0 for key in keys}
    for _ in range(rounds):
        grad = [-ridge * w[key] for key in keys]
        hess = [[ridge * (i == j) for j in range(k)] for i in range(k)]
        for _, fs, won in data:
            ps = probs(w, fs)
            xs = [[f[key] for key in keys] for f in fs]
            mean = [sum(p * x[i] for p, x in zip(ps, xs)) for i in range(k)]
            for i in range(k):
                grad[i] += xs[won][i] - mean[i]
            for p, x in zip(ps, xs):
                d = [x[i] - mean[i] for i in range(k)]
                for i in range(k):
                    for j in range(k):
                        hess[i][j] += p * d[i] * d[j]
        step = _solve(hess, grad)
        for i, key in enumerate(keys):
            w[key] += step[i]
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def judge(w: dict[str, float] | None, data: list) -> tuple[float, float]:
    loss, named = 0.0, 0
    for _, fs, won in data:
        ps = probs(w, fs) if w is not None else [1 / len(fs)] * len(fs)
        loss -= math.log(max(1e-12, ps[won]))
        named += w is not None and max(range(len(ps)), key=ps.__getitem__) == won
    return loss / len(data), named / len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="front")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--every", type=int, default=15)
    args = parser.parse_args()
    data = samples(args.bot, args.games, args.players, args.every)
    train = [d for d in data if (d[0] // len(PAIRS)) % 2 == 0]
    test = [d for d in data if (d[0] // len(PAIRS)) % 2 == 1]
    w = fit(train)
    print(f"{len(train)} states to fit, {len(test)} held out")
    print("fitted:  {" + ", ".join(f'"{k}": {v:.2f}' for k, v in w.items()) + "}")
    for label, weights in (("fitted", w), ("current", bot.WEIGHTS), ("coin", None)):
        loss, named = judge(weights, test)
        print(f"{label:8} held-out log loss {loss:.3f}" + (f", winners named {100 * named:.0f}%" if weights else ""))


if __name__ == "__main__":
    main()
