"""Fit Taboo's `WIN_MODEL` (engines/taboo/ai.py): the hard search's judgement at 5 and 6
players of an unfinished game at the start of the seat's turn, as its chance to win.

Normal self-play games are played to the end; at the start of every turn (where the hard
search's playouts stop: the seat's next turn), the state's `win_features` for the seat to
move and whether it won (a share of a tie) are one example. The L2-regularised logistic
regression of bench.win_model is fitted on the games whose seed is not a multiple
of 5; those that are give the held-out log loss, next to that of always predicting the
average and that of the model in the code.

    python -m bench.taboo_win_model --players 5 --games 2000 --seed 30000
"""

from __future__ import annotations

import argparse
from typing import Any

from bench.win_model import Example, fit, flat_log_loss, held_out, log_loss, self_play_examples
from engines import ENGINES
from engines.taboo.ai import WIN_MODEL, win_features
from engines.taboo.rules import EMPTY, TURN


def examples(n: int, first: int, games: int) -> list[Example]:
    """The examples of `games` self-play games from seed `first` on: every turn start."""
    engine = ENGINES["taboo"]

    def start(s: Any, seat: int) -> list[float] | None:
        return win_features(engine, s, seat) if s.phase in (TURN, EMPTY) else None

    return self_play_examples(engine, n, first, games, start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.taboo_win_model",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=30000)
    parser.add_argument("--ridge", type=float, default=1.0)
    args = parser.parse_args(argv)
    data = examples(args.players, args.seed, args.games)
    train, test = held_out(data)
    w = fit(train, ridge=args.ridge, steps=8)
    print(f"{len(train)} examples to fit, {len(test)} held out; held-out log loss: model "
          f"{log_loss(w, test):.4f}, the average alone {flat_log_loss(train):.4f}"
          + (f", the model in the code {log_loss(list(WIN_MODEL[args.players]), test):.4f}"
             if len(WIN_MODEL.get(args.players, ())) == len(w) else ""))
    print("(" + ", ".join(f"{x:.4f}" for x in w) + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
