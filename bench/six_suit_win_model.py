"""Fit Six Suit's `WIN_MODEL` (engines/six_suit/ai.py): the hard search's judgement of an
unfinished everyone-for-themselves deal, as the seat's chance to win.

Normal self-play games are played to the end; wherever a seat's normal turn starts after
free time (where the hard search's playouts stop: its next turn), the state's
`win_features` for that seat and whether it won (a share of a tie) are one example. An
L2-regularised logistic regression (bench.win_model) is fitted on the
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
from collections.abc import Callable
from typing import Any

from bench.win_model import (
    Example,
    fit,
    flat_log_loss,
    held_out,
    log_loss,
    self_play_examples,
)
from engines import ENGINES
from engines.six_suit.ai import LARGE_MODEL, WIN_MODEL, large_features, win_features
from engines.six_suit.rules import PREDICT


def examples(n: int, first: int, games: int,
             features: Callable[..., list[float]] = win_features,
             every: int = 1) -> list[Example]:
    """The examples of `games` self-play games from seed `first` on: every seat's normal
    turn start after free time (every `every`-th, counted from the game's seed)."""
    def start(s: Any, seat: int) -> list[float] | None:
        if s.phase == PREDICT and s.chain == 0 and not s.in_free_time():
            return features(s, seat)
        return None

    return self_play_examples(ENGINES["six_suit"], n, first, games, start, every)


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
    train, test = held_out(data)
    w = fit(train)
    print(f"{len(train)} examples to fit, {len(test)} held out; held-out log loss: model "
          f"{log_loss(w, test):.4f}, the average alone {flat_log_loss(train):.4f}"
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
        fitting, test[n] = held_out(data)
        train[n] = fitting[::max(1, len(fitting) // most)]
    w = fit([x for n in sizes for x in train[n]])
    coded = len(LARGE_MODEL) == len(w)
    for n in sizes:
        print(f"{n:2} players: {len(train[n])} examples to fit, {len(test[n])} held out; "
              f"held-out log loss: model {log_loss(w, test[n]):.4f}, the average alone "
              f"{flat_log_loss(train[n]):.4f}"
              + (f", the model in the code {log_loss(list(LARGE_MODEL), test[n]):.4f}"
                 if coded else ""))
    print("(" + ", ".join(f"{x:.4f}" for x in w) + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
