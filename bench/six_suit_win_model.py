"""Fit Six Suit's `WIN_MODEL` (engines/six_suit/ai.py): the hard search's judgement of an
unfinished everyone-for-themselves deal, as the seat's chance to win.

Normal self-play games are played to the end; wherever a seat's normal turn starts after
free time (where the hard search's playouts stop: its next turn), the state's
`win_features` for that seat and whether it won (a share of a tie) are one example. An
L2-regularised logistic regression is fitted by Newton's method (pure Python), on the
games whose seed is not a multiple of 5; those that are give the held-out log loss, next to
that of always predicting the average and that of the model in the code.

A range of sizes (`--players 5-12`) fits the one model those sizes share (`LARGE_MODEL`,
on `large_features`): `--games` games per size (seeds `--seed` + 1000·players on), each
size's examples thinned to about `--most` for the fit (pure Python), and the held-out
log loss reported per size, against that size's average.

    python -m bench.six_suit_win_model --players 4 --games 3000 --seed 20000
    python -m bench.six_suit_win_model --players 5-12 --games 2000 --seed 20000 --every 2
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable

from engines import ENGINES
from engines.six_suit.ai import LARGE_MODEL, WIN_MODEL, large_features, win_features
from engines.six_suit.rules import PREDICT

Example = tuple[list[float], float, int]


def examples(n: int, first: int, games: int,
             features: Callable[..., list[float]] = win_features,
             every: int = 1) -> list[Example]:
    """The examples of `games` self-play games from seed `first` on (every `every`-th turn
    start, counted from the game's seed)."""
    engine = ENGINES["six_suit"]
    out = []
    for seed in range(first, first + games):
        s = engine.new_game(n, seed)
        rng = random.Random(seed)
        starts = []
        count = seed
        while engine.outcome(s) is None:
            seat = min(engine.to_act(s))
            if s.phase == PREDICT and s.chain == 0 and not s.in_free_time():
                count += 1
                if count % every == 0:
                    starts.append((seat, features(s, seat)))
            s = engine.apply(s, seat, engine.ai.choose(engine, s, seat, rng)).state
        winners = engine.outcome(s).winners
        out += [(f, 1.0 / len(winners) if seat in winners else 0.0, seed)
                for seat, f in starts]
    return out


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


def fit(data: list[tuple[list[float], float, int]], ridge: float = 1.0,
        steps: int = 12) -> list[float]:
    d = len(data[0][0])
    w = [0.0] * d
    for _ in range(steps):
        g = [-ridge * x for x in w]
        h = [[ridge if i == j else 0.0 for j in range(d)] for i in range(d)]
        for f, y, _seed in data:
            p = 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(w, f, strict=True))))
            q = p * (1.0 - p)
            nz = [i for i in range(d) if f[i]]
            for i in nz:
                g[i] += (y - p) * f[i]
                row = h[i]
                for j in nz:
                    row[j] += q * f[i] * f[j]
        w = [a + b for a, b in zip(w, _solve(h, g), strict=True)]
    return w


def log_loss(w: list[float], data: list[tuple[list[float], float, int]]) -> float:
    total = 0.0
    for f, y, _seed in data:
        p = 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(w, f, strict=True))))
        p = min(max(p, 1e-9), 1.0 - 1e-9)
        total -= y * math.log(p) + (1.0 - y) * math.log(1.0 - p)
    return total / len(data)


def _flat(data: list[Example]) -> float:
    """Log loss of always predicting the average of `data`."""
    mean = sum(y for _f, y, _s in data) / len(data)
    return -(mean * math.log(mean) + (1 - mean) * math.log(1 - mean))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.six_suit_win_model",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", default="4", help="a size (3, 4) or a range (5-12)")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=20000)
    parser.add_argument("--most", type=int, default=5000,
                        help="a range of sizes: each size's examples to fit with, thinned "
                        "to about this many (5000)")
    parser.add_argument("--every", type=int, default=1,
                        help="keep every N-th turn start (1)")
    args = parser.parse_args(argv)
    if "-" in args.players:
        low, high = (int(x) for x in args.players.split("-"))
        return _fit_sizes(range(low, high + 1), args.seed, args.games, args.most,
                          args.every)
    n = int(args.players)
    data = examples(n, args.seed, args.games, every=args.every)
    train = [x for x in data if x[2] % 5]
    test = [x for x in data if not x[2] % 5]
    w = fit(train)
    print(f"{len(train)} examples to fit, {len(test)} held out; held-out log loss: model "
          f"{log_loss(w, test):.4f}, the average alone {_flat(train):.4f}"
          + (f", the model in the code {log_loss(list(WIN_MODEL[n]), test):.4f}"
             if len(WIN_MODEL.get(n, ())) == len(w) else ""))
    print("(" + ", ".join(f"{x:.4f}" for x in w) + ")")
    return 0


def _fit_sizes(sizes: range, seed: int, games: int, most: int, every: int) -> int:
    """One model for every size in `sizes` (`LARGE_MODEL` on `large_features`)."""
    train: dict[int, list[Example]] = {}
    test: dict[int, list[Example]] = {}
    for n in sizes:
        data = examples(n, seed + 1000 * n, games, large_features, every)
        fitting = [x for x in data if x[2] % 5]
        train[n] = fitting[::max(1, len(fitting) // most)]
        test[n] = [x for x in data if not x[2] % 5]
    w = fit([x for n in sizes for x in train[n]])
    coded = len(LARGE_MODEL) == len(w)
    for n in sizes:
        print(f"{n:2} players: {len(train[n])} examples to fit, {len(test[n])} held out; "
              f"held-out log loss: model {log_loss(w, test[n]):.4f}, the average alone "
              f"{_flat(train[n]):.4f}"
              + (f", the model in the code {log_loss(list(LARGE_MODEL), test[n]):.4f}"
                 if coded else ""))
    print("(" + ", ".join(f"{x:.4f}" for x in w) + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
