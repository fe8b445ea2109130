"""What the games' win-model tools share: self-play examples and a logistic fit.

A win model (`WIN_MODEL` in Six Suit and Taboo, `LARGE_MODEL` in Six Suit) is the hard
search's judgement where its playouts stop: a seat's chance to win from facts it may know,
evaluated by `engines.ai_levels.chance`. Each game's tool (bench.six_suit_win_model,
bench.taboo_win_model) says only where its examples are taken and what it prints; the
self-play loop, the fit (L2-regularised logistic regression by Newton's method, in pure
Python) and the log losses live here once.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from engines.ai_levels import chance

# (facts, the seat's share of the win, the game's seed)
Example = tuple[list[float], float, int]
# start(state, seat): the facts of `seat` if the state is one where examples are taken
Start = Callable[[Any, int], list[float] | None]


def self_play_examples(engine: Any, n: int, first: int, games: int, start: Start,
                       every: int = 1) -> list[Example]:
    """Normal self-play games from seed `first` on, played to the end: wherever `start`
    gives the facts of the seat to move, one example labelled with that seat's share of the
    win (every `every`-th such state, counted from the game's seed)."""
    out: list[Example] = []
    for seed in range(first, first + games):
        s = engine.new_game(n, seed)
        rng = random.Random(seed)
        starts = []
        count = seed
        while engine.outcome(s) is None:
            seat = min(engine.to_act(s))
            facts = start(s, seat)
            if facts is not None:
                count += 1
                if count % every == 0:
                    starts.append((seat, facts))
            s = engine.apply(s, seat, engine.ai.choose(engine, s, seat, rng)).state
        winners = engine.outcome(s).winners
        out += [(f, 1.0 / len(winners) if seat in winners else 0.0, seed)
                for seat, f in starts]
    return out


def held_out(data: list[Example]) -> tuple[list[Example], list[Example]]:
    """(to fit, held out): the games whose seed is a multiple of 5 are held out."""
    return [x for x in data if x[2] % 5], [x for x in data if not x[2] % 5]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(data: list[Example], ridge: float = 1.0, steps: int = 12) -> list[float]:
    """Logistic-regression weights for `data` (L2 penalty `ridge`, `steps` Newton steps)."""
    d = len(data[0][0])
    w = [0.0] * d
    for _ in range(steps):
        g = [-ridge * x for x in w]
        h = [[ridge if i == j else 0.0 for j in range(d)] for i in range(d)]
        for f, y, _seed in data:
            p = chance(w, f)
            q = p * (1.0 - p)
            nz = [i for i in range(d) if f[i]]
            for i in nz:
                g[i] += (y - p) * f[i]
                row = h[i]
                for j in nz:
                    row[j] += q * f[i] * f[j]
        w = [a + b for a, b in zip(w, _solve(h, g), strict=True)]
    return w


def log_loss(w: list[float], data: list[Example]) -> float:
    """Mean log loss of the model `w` on `data`."""
    total = 0.0
    for f, y, _seed in data:
        p = min(max(chance(w, f), 1e-9), 1.0 - 1e-9)
        total -= y * math.log(p) + (1.0 - y) * math.log(1.0 - p)
    return total / len(data)


def flat_log_loss(data: list[Example]) -> float:
    """Log loss of always predicting the average of `data` (what a model must beat)."""
    mean = sum(y for _f, y, _s in data) / len(data)
    return -(mean * math.log(mean) + (1 - mean) * math.log(1 - mean))
