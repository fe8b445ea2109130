"""Where one hard Six Suit seat gains and loses against the normal seat it replaces.

Plays the games `bench.ai --opponents hard` plays (game g: seed first + g, measured seat
g % n, hard there among normal AIs, and the same seed all normal) and tallies, for the
measured seat, per game both ways side by side: kills (their points; after whose setup: the
killer's own, the victim's own, a third player's, by how many seats before the killer;
in an extra-turn chain; as a ghost), the setups it made (an opponent raised to one card
from a six suit after free time, its own chains' included: who finished them, or whether
they escaped), how it was eliminated (by whom, in seats after it; after whose setup),
points by source (kills, survival, payout), final score, rank and wins. Why: the win-rate
difference alone says nothing of where a hard variant gains or loses (issue 19, 8-12
players).

    python -m bench.six_suit_seat --players 8 --games 400 --seed 9000
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from bench.ai import Tally, paired_ci95, play
from engines import ENGINES
from engines.six_suit.cards import is_six_suit, reaches


def _reach(s: Any, p: int) -> int:
    return max(reaches(s.tops[p * 6:p * 6 + 6])) if s.alive[p] else 0


class SeatLog:
    """`bench.ai.play`'s observer: the measured seat `me`'s tallies for one game."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.tally: Counter = Counter()
        self.setup: dict[int, int] = {}  # victim at reach 5 -> who raised them there
        self.left: set[int] = set()  # victims of setups the seat made after free time

    def __call__(self, s: Any, seat: int, action: Any, step: Any) -> None:
        from engines.six_suit.rules import Play

        me, c, after = self.me, self.tally, step.state
        n = s.n
        if any(e.kind == "payout" for e in step.events):
            c["points: payout"] += after.scores[me] - s.scores[me] - sum(
                pts for _v, by, pts, _k in after.elims[len(s.elims):] if by == me)
        for v, by, pts, _k in after.elims[len(s.elims):]:
            maker = self.setup.pop(v, -1)
            kind = ("none" if maker < 0 else "the killer's own" if maker == by else
                    "the victim's own" if maker == v else "a third player's")
            if by == me:
                c["kills"] += 1
                c["points: kills"] += pts
                c[f"kills after {kind} setup"] += 1
                c["kills in an extra-turn chain"] += s.chain > 0
                c["kills as a ghost"] += not s.alive[me]
                if kind == "a third player's":
                    c[f"kills, setup left by seat me-{(me - maker) % n}"] += 1
            if v == me:
                c["eliminated"] += 1
                c[f"eliminated by seat me+{(by - me) % n}"] += 1
                c[f"eliminated after {kind} setup"] += 1
            if v in self.left:
                self.left.discard(v)
                who = "the seat" if by == me else f"seat me+{(by - me) % n}"
                c[f"setups made, finished by {who}"] += 1
        if isinstance(action, Play) and after.phase != "over":
            t = action.target
            now = _reach(after, t)
            if after.alive[t] and now >= 5 > _reach(s, t) and not is_six_suit(after.tops_of(t)):
                self.setup[t] = seat
                if seat == me and t != me and not s.in_free_time():
                    c["setups made"] += 1
                    self.left.add(t)
            elif after.alive[t] and now < 5:
                self.setup.pop(t, None)
                if t in self.left:
                    self.left.discard(t)
                    c["setups made, escaped"] += 1

    def finish(self, scores: list[int], won: bool) -> Counter:
        c, me = self.tally, self.me
        c["games"] += 1
        c["won"] += won
        c["score"] += scores[me]
        c["rank (1 = most points, ties share the best)"] += 1 + sum(
            x > scores[me] for x in scores)
        c["points: survival"] += scores[me] - c["points: kills"] - c["points: payout"]
        return c


def seat_game(n: int, seed: int, me: int, hard: bool) -> Counter:
    """One game as `bench.ai` plays it (hard in seat `me` when `hard`); `me`'s tallies."""
    engine = ENGINES["six_suit"]
    log = SeatLog(me)
    seats = {p: ("hard" if hard and p == me else "normal") for p in range(n)}
    outcome = play(engine, n, seed, seats, Tally(), observe=log)
    return log.finish([int(outcome.scores[p]) for p in range(n)], me in outcome.winners)


def compare(n: int, games: int, first_seed: int) -> tuple[Counter, Counter, list[float]]:
    """Totals over `games` games hard and normal in the measured seat, and the win
    differences game by game."""
    hard, normal, diffs = Counter(), Counter(), []
    for g in range(games):
        h = seat_game(n, first_seed + g, g % n, True)
        m = seat_game(n, first_seed + g, g % n, False)
        hard.update(h)
        normal.update(m)
        diffs.append(float(h["won"] - m["won"]))
    return hard, normal, diffs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.six_suit_seat", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=9000)
    args = parser.parse_args(argv)
    hard, normal, diffs = compare(args.players, args.games, args.seed)
    g = args.games
    print(f"# Six Suit {args.players}p, one hard seat vs the normal seat, {g} games, seeds "
          f"{args.seed}-{args.seed + g - 1}: per game")
    for key in sorted(set(hard) | set(normal)):
        h, m = hard[key] / g, normal[key] / g
        print(f"{key:52} hard {h:7.3f}  normal {m:7.3f}  diff {h - m:+7.3f}")
    mean, low, high = paired_ci95(diffs)
    print(f"wins, hard minus normal, game by game: {mean:+.1%} [{low:+.1%}, {high:+.1%}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
