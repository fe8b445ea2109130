"""Where Six Suit's hard AI departs from the normal AI, and whether the departures pay.

Plays seeded games with one hard seat (as `bench.ai --opponents hard` does); at every hard
decision it also computes the normal AI's move (the same rng, so the same move the hard
level started from) and which part of hard made the move: `sure` (a sure elimination),
`lookahead` (the extra-turn chain planner) or `search`. Where the two moves differ, a
true-state judge (full information: for this tool only, never for the AI) plays each move
out `--judge` times to the end of the game with the normal AI on every seat, the hidden
draw order reshuffled per playout (the same shuffle and rng stream for both moves), and
reports the difference in win chance (a tie shares the win).

    python -m bench.six_suit_departures --players 4 --games 10 --seed 5000 --judge 100

With `--every N`, the same judge at fixed positions instead: every N-th play decision after
free time in normal self-play games, hard's move (with `--plan` overrides, or the
points-lead value with `--points-value`) against the normal move, summed over the
positions (0 where they agree), so that variants are compared on the same positions:

    python -m bench.six_suit_departures --players 4 --games 30 --seed 9000 --every 2

With `--headroom N` (and `--every`), how much any change of move could gain at those
positions: the normal heuristic's first N alternatives to the normal move (the best-rated
move of each hand card first, then the rest by rating) each judged against the normal move.
Per phase (free time or after it) it prints the mean gain of the best alternative (an upper
bound, inflated by the judge's noise: the largest of N noisy gains), the mean gain of each
rank, and the share of positions where no alternative changes the seat's win chance at all
(e.g. a ghost that can no longer win). `--free-time` adds the play decisions of free time:

    python -m bench.six_suit_departures --players 8 --games 10 --seed 5000 --every 3 \
        --headroom 4 --free-time --judge 60
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from typing import Any

from engines import ENGINES
from engines.ai_levels import with_level
from engines.core import is_listed


def rollout(engine: Any, state: Any, seat: int, move: Any, rng: random.Random) -> float:
    """`move` from the true `state` (draw order reshuffled), then normal AI on every seat to
    the end: the seat's share of the win."""
    s = state.clone()
    rng.shuffle(s.draw)
    s.seed = rng.randrange(2**62)
    s.rng_counter = 0
    s = engine.apply(s, seat, move).state
    choose = engine.ai.choose
    while (out := engine.outcome(s)) is None:
        actor = min(engine.to_act(s))
        s = engine.apply(s, actor, choose(engine, s, actor, rng)).state
    return 1.0 / len(out.winners) if seat in out.winners else 0.0


def judge(engine: Any, state: Any, seat: int, a: Any, b: Any, k: int, seed: int
          ) -> tuple[float, float]:
    """Mean and standard error of value(a) - value(b) over k paired true-state playouts."""
    diffs = []
    for i in range(k):
        va = rollout(engine, state, seat, a, random.Random(seed * 1000 + i))
        vb = rollout(engine, state, seat, b, random.Random(seed * 1000 + i))
        diffs.append(va - vb)
    mean = sum(diffs) / k
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, k - 1))
    return mean, sd / math.sqrt(k)


def route(engine: Any, state: Any, seat: int, normal: Any) -> str:
    legal = list(engine.legal_actions(state, seat))
    if len(legal) <= 1:
        return "single"
    own = engine.determinize(state, seat, random.Random(0))
    move = engine.ai.sure(engine, own, seat)
    if move is not None and is_listed(move, legal):
        return "sure"
    move = engine.ai.lookahead(engine, own, seat, normal)
    if move is not None and is_listed(move, legal):
        return "lookahead" if move != normal else "lookahead-keep"
    return "search"


def oracle(engine: Any, state: Any, seat: int, move: Any, normal: Any, k: int, seed: int,
           top: int) -> dict:
    """Every one of the first `top` ranked moves (and hard's) judged against the normal move."""
    ranked = engine.ai.rank(engine, engine.determinize(state, seat, random.Random(seed)), seat,
                            random.Random(seed))
    moves = [normal] + [m for m in [move, *ranked[:top]] if m != normal]
    seen: list[Any] = []
    for m in moves:
        if m not in seen:
            seen.append(m)
    gains = {}
    for m in seen[1:]:
        mean, se = judge(engine, state, seat, m, normal, k, seed)
        gains[repr(m)] = (round(mean, 4), round(se, 4))
    return {"gains": gains, "ranked": [repr(m) for m in ranked[:top]]}


def game(engine: Any, n: int, seed: int, me: int, k: int, out: list[dict],
         top: int = 0) -> float:
    rng = random.Random(seed)
    state = engine.new_game(n, seed)
    step = 0
    while engine.outcome(state) is None:
        actors = sorted(engine.to_act(state))
        seat = rng.choice(actors)
        sub = random.Random(rng.random())
        if seat == me:
            saved = sub.getstate()
            move = engine.ai_action(with_level(state, "hard"), seat, sub)
            r2 = random.Random()
            r2.setstate(saved)
            normal = engine.ai_policy(engine.determinize(state, seat, r2), seat, r2)
            legal = engine.legal_actions(state, seat)
            if top and len(legal) > 1 and type(legal[0]).__name__ == "Play" \
                    and not state.in_free_time():
                how = route(engine, state, seat, normal)
                rec = {"seed": seed, "step": step, "route": how, "hard": repr(move),
                       "normal": repr(normal), "round": state.round, "chain": state.chain,
                       "alive": sum(state.alive), "me_alive": state.alive[seat],
                       **oracle(engine, state, seat, move, normal, k, seed * 1000 + step,
                                top)}
                out.append(rec)
                print(json.dumps(rec), flush=True)
            elif not top and move != normal:
                how = route(engine, state, seat, normal)
                t = time.perf_counter()
                mean, se = judge(engine, state, seat, move, normal, k, seed * 1000 + step)
                rec = {"seed": seed, "step": step, "route": how, "gain": mean, "se": se,
                       "kind": type(move).__name__, "round": state.round,
                       "chain": state.chain, "alive": sum(state.alive),
                       "hard": repr(move), "normal": repr(normal),
                       "s": round(time.perf_counter() - t, 2)}
                out.append(rec)
                print(json.dumps(rec), flush=True)
        else:
            move = engine.ai_action(state, seat, sub)
        state = engine.apply(state, seat, move).state
        step += 1
    winners = engine.outcome(state).winners
    return 1.0 / len(winners) if me in winners else 0.0


def fixed_positions(engine: Any, n: int, first: int, games: int, every: int,
                    free_time: bool = False) -> list[tuple[int, int, Any, int]]:
    """Every `every`-th play decision after free time (with `free_time`, in free time too)
    with a choice, of any seat in normal self-play games: (seed, index, state, seat)."""
    out = []
    for seed in range(first, first + games):
        s = engine.new_game(n, seed)
        rng = random.Random(seed)
        i = 0
        while engine.outcome(s) is None:
            seat = min(engine.to_act(s))
            if (s.phase == "play" and (free_time or not s.in_free_time())
                    and len(engine.legal_actions(s, seat)) > 1):
                if i % every == 0:
                    out.append((seed, i, s, seat))
                i += 1
            s = engine.apply(s, seat, engine.ai.choose(engine, s, seat, rng)).state
    return out


def positions_row(engine: Any, positions: list, k: int) -> tuple[int, float, float]:
    """Hard's move at each fixed position (its rng from the position), judged against the
    normal move where they differ: (departures, summed gain, the judge's standard error)."""
    departures, total, var = 0, 0.0, 0.0
    for seed, i, s, seat in positions:
        rng = random.Random(seed * 7919 + i)
        saved = rng.getstate()
        move = engine.ai_action(with_level(s, "hard"), seat, rng)
        rng.setstate(saved)
        normal = engine.ai_policy(engine.determinize(s, seat, rng), seat, rng)
        if move != normal:
            departures += 1
            mean, se = judge(engine, s, seat, move, normal, k, seed * 1000 + i)
            total += mean
            var += se * se
    return departures, total, math.sqrt(var)


def alternatives(engine: Any, state: Any, seat: int, normal: Any, top: int) -> list[Any]:
    """The normal heuristic's first `top` alternatives to `normal`: the best-rated move of
    each hand card first (which card is given up), then the rest by rating."""
    from engines.six_suit.ai import move_value

    ranked = sorted(engine.legal_actions(state, seat),
                    key=lambda a: -move_value(state, seat, a))
    cards: set[int] = set()
    firsts = []
    for a in ranked:
        if a.card not in cards:
            cards.add(a.card)
            firsts.append(a)
    out: list[Any] = []
    for a in firsts + ranked:
        if a != normal and a not in out:
            out.append(a)
    return out[:top]


def headroom_rows(engine: Any, positions: list, k: int, top: int) -> dict[str, dict]:
    """Per phase ("free time", "after"): positions, the mean gain over the normal move of the
    best of the `top` alternatives (0 when none gains), the mean gain of each rank, and the
    share of positions where every alternative judged exactly as the normal move."""
    rows: dict[str, dict] = {}
    for seed, i, s, seat in positions:
        rng = random.Random(seed * 7919 + i)
        normal = engine.ai_policy(engine.determinize(s, seat, rng), seat, rng)
        gains = [judge(engine, s, seat, a, normal, k, seed * 1000 + i)[0]
                 for a in alternatives(engine, s, seat, normal, top)]
        row = rows.setdefault("free time" if s.in_free_time() else "after",
                              {"positions": 0, "best": 0.0, "by_rank": [0.0] * top,
                               "flat": 0})
        row["positions"] += 1
        row["best"] += max([0.0, *gains])
        for r, g in enumerate(gains):
            row["by_rank"][r] += g
        row["flat"] += all(g == 0.0 for g in gains)
    for row in rows.values():
        count = row["positions"]
        row["best"] /= count
        row["by_rank"] = [g / count for g in row["by_rank"]]
        row["flat"] /= count
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.six_suit_departures",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=5000)
    p.add_argument("--judge", type=int, default=100, help="playouts per move judged")
    p.add_argument("--oracle", type=int, default=0,
                   help="judge the first N ranked moves at every hard play decision")
    p.add_argument("--every", type=int, default=0,
                   help="instead of games with a hard seat: hard at every N-th play "
                   "decision of normal self-play games (fixed positions), judged")
    p.add_argument("--headroom", type=int, default=0,
                   help="with --every: judge the first N alternatives to the normal move")
    p.add_argument("--free-time", action="store_true",
                   help="with --every: positions in free time too")
    p.add_argument("--plan", default="",
                   help="SearchPlan fields to override, e.g. z=2,worlds=16,budget=0")
    p.add_argument("--points-value", action="store_true",
                   help="judge by the points-lead value (no WIN_MODEL), as before it")
    args = p.parse_args(argv)
    engine = ENGINES["six_suit"]
    if args.plan or args.points_value:
        import dataclasses

        from engines.six_suit import ai

        fields = {k: (float(v) if k == "z" else int(v))
                  for k, v in (x.split("=") for x in args.plan.split(",") if x)}
        engine.ai = dataclasses.replace(
            engine.ai, plan=dataclasses.replace(engine.ai.plan, **fields))
        if args.points_value:
            ai.WIN_MODEL.clear()
    if args.every:
        positions = fixed_positions(engine, args.players, args.seed, args.games, args.every,
                                    args.free_time)
        if args.headroom:
            for phase, row in headroom_rows(engine, positions, args.judge,
                                            args.headroom).items():
                ranks = ", ".join(f"{100 * g:+.2f}" for g in row["by_rank"])
                print(f"{phase}: {row['positions']} positions, best alternative "
                      f"{100 * row['best']:+.2f} points a position (an upper bound), by rank "
                      f"{ranks}; nothing at stake at {100 * row['flat']:.0f} %")
            return 0
        dep, total, se = positions_row(engine, positions, args.judge)
        print(f"{len(positions)} positions, {dep} departures, summed gain {total:+.3f} "
              f"(judge's standard error {se:.3f}), per 100 positions "
              f"{100 * total / len(positions):+.2f}")
        return 0
    out: list[dict] = []
    for g in range(args.games):
        game(engine, args.players, args.seed + g, g % args.players, args.judge, out,
             args.oracle)
    if args.oracle:
        return 0
    by: dict[str, list[dict]] = {}
    for r in out:
        by.setdefault(r["route"], []).append(r)
    for how, rs in sorted(by.items()):
        gains = [r["gain"] for r in rs]
        mean = sum(gains) / len(gains)
        sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, len(gains) - 1))
        better = sum(r["gain"] > 2 * r["se"] for r in rs)
        worse = sum(r["gain"] < -2 * r["se"] for r in rs)
        print(f"{how:15} n={len(rs):4}  mean gain {mean:+.4f} ± {1.96 * sd / math.sqrt(len(rs)):.4f}"
              f"  clearly better {better}, clearly worse {worse}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
