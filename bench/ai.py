"""AI decision time and strength: one AI seat (or more) against random players, in process.

Per registered engine, ``--games`` seeded games are played to the end. The AI seat(s) move
with ``engine.ai_action(state, seat, rng)`` (it determinizes itself, exactly as the bot calls
it), every other seat plays a uniformly random legal action. The AI seat rotates with the
game number so no seat position is favoured. Reported:

- decision time over every AI decision of every game: median, p95, max (goal: p95 < 1 s);
- results of the AI seat: sole wins, shared wins (the AI seat is among several winners —
  ties, or team-mates when the game is played in teams), no-winner games, losses; the win
  rate counts any game where the AI seat is in ``Outcome.winners``, next to the rate a
  random player would get (1 / players for free-for-all games).

An optional actor (in ``to_act`` but not ``waiting_for``) may decline (``None``); the loop
then lets another seat act, as the bot's table service does.

    python -m bench.ai                         # 50 games per engine, 4 players (clamped)
    python -m bench.ai --games 200 --players all
    python -m bench.ai --engines suspense --ai-seats 2 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time
from dataclasses import dataclass, field
from typing import Any

from bench import (
    machine,
    median,
    percentile,
    pick_engines,
    player_counts,
    print_table,
    verdict,
    write_json,
)

GOAL_P95_S = 1.0
MAX_ACTIONS = 100_000


@dataclass
class Tally:
    decisions: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    declined: int = 0
    games: int = 0
    sole_wins: int = 0
    shared_wins: int = 0
    no_winner: int = 0
    losses: int = 0
    actions: int = 0
    slowest: tuple[float, int, int] = (0.0, 0, 0)  # seconds, game seed, action index


def play(engine: Any, n: int, seed: int, ai_seats: set[int], tally: Tally) -> None:
    rng = random.Random(seed)
    state = engine.new_game(n, seed)
    declined_at: tuple[int, set[int]] = (-1, set())
    for count in range(MAX_ACTIONS):
        seats = sorted(engine.to_act(state))
        if not seats:
            break
        if declined_at[0] == count:
            seats = [s for s in seats if s not in declined_at[1]] or seats
        seat = rng.choice(seats)
        if seat in ai_seats:
            start, cpu = time.perf_counter(), time.thread_time()
            action = engine.ai_action(state, seat, random.Random(rng.random()))
            spent = time.perf_counter() - start
            tally.cpu.append(time.thread_time() - cpu)
            tally.decisions.append(spent)
            if spent > tally.slowest[0]:
                tally.slowest = (spent, seed, count)
            if action is None:
                tally.declined += 1
                if seat in engine.waiting_for(state):
                    raise RuntimeError(f"{engine.name}: AI declined a required move "
                                       f"(seed {seed}, action {count})")
                declined_at = (count, declined_at[1] | {seat} if declined_at[0] == count
                               else {seat})
                if set(seats) <= declined_at[1]:
                    raise RuntimeError(f"{engine.name}: every seat able to act declined")
                continue
        else:
            action = rng.choice(engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action).state
        tally.actions += 1
    else:
        raise RuntimeError(f"{engine.name}: no end after {MAX_ACTIONS} actions (seed {seed})")
    outcome = engine.outcome(state)
    tally.games += 1
    mine = ai_seats & set(outcome.winners)
    if not outcome.winners:
        tally.no_winner += 1
    elif mine and len(outcome.winners) == len(mine):
        tally.sole_wins += 1
    elif mine:
        tally.shared_wins += 1
    else:
        tally.losses += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", help="comma list of engine names (default: all registered)")
    parser.add_argument("--players", default="typical",
                        help="typical (4, clamped to the seat limits), min, max, all, or N")
    parser.add_argument("--games", type=int, default=50, help="seeded games per engine (50)")
    parser.add_argument("--ai-seats", type=int, default=1,
                        help="AI seats per game (1); the rest play randomly")
    parser.add_argument("--seed", type=int, default=1000, help="first game seed (1000)")
    parser.add_argument("--profile", action="store_true",
                        help="print a cProfile of the AI decisions (top functions)")
    parser.add_argument("--top", type=int, default=20, help="functions shown by --profile")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)

    print(f"# bench.ai — {machine()}")
    print(f"# {args.games} seeded games per engine and player count, {args.ai_seats} AI seat(s) "
          "against random players, AI seat rotating")
    rows, results, profiles = [], [], []
    for name, engine in pick_engines(args.engines).items():
        for n in player_counts(engine, args.players):
            k = min(max(args.ai_seats, 1), n)
            tally = Tally()
            profiler = cProfile.Profile() if args.profile else None
            wall = time.perf_counter()
            if profiler:
                profiler.enable()
            for g in range(args.games):
                seed = args.seed + g
                ai = {(g + i) % n for i in range(k)}
                play(engine, n, seed, ai, tally)
            if profiler:
                profiler.disable()
                out = io.StringIO()
                pstats.Stats(profiler, stream=out).sort_stats("cumtime").print_stats(args.top)
                profiles.append((name, n, out.getvalue()))
            wall = time.perf_counter() - wall
            d = tally.decisions
            p95 = percentile(d, 95)
            wins = tally.sole_wins + tally.shared_wins
            team_note = ""
            teams = getattr(engine.Options(), "teams", 0) or 0
            if teams >= 2:
                team_note = f" (teams of {n // teams})"
            result = {
                "engine": name, "players": n, "ai_seats": k, "games": tally.games,
                "decisions": len(d), "declined": tally.declined,
                "median_ms": median(d) * 1e3, "p95_ms": p95 * 1e3,
                "max_ms": max(d, default=0.0) * 1e3, "slowest": tally.slowest,
                "cpu_p95_ms": percentile(tally.cpu, 95) * 1e3,
                "sole_wins": tally.sole_wins, "shared_wins": tally.shared_wins,
                "no_winner": tally.no_winner, "losses": tally.losses,
                "win_rate": wins / tally.games if tally.games else float("nan"),
                "random_baseline": k / n, "wall_s": wall, "goal": verdict(p95 < GOAL_P95_S),
            }
            results.append(result)
            rows.append([f"{name}{team_note}", n, tally.games, len(d), result["median_ms"],
                         result["p95_ms"], result["max_ms"], result["cpu_p95_ms"],
                         result["goal"],
                         tally.sole_wins, tally.shared_wins, tally.no_winner, tally.losses,
                         f"{result['win_rate']:.0%}", f"{result['random_baseline']:.0%}"])
            print(f"  {name} ({n} players): p95 {result['p95_ms']:.1f} ms, win rate "
                  f"{result['win_rate']:.0%} in {wall:.1f}s", flush=True)

    print("\n## AI decision time and results against random players\n")
    print_table(["engine", "players", "games", "AI decisions", "median ms", "p95 ms", "max ms",
                 "CPU p95 ms", f"goal p95 < {GOAL_P95_S:g} s", "sole wins", "shared wins", "no winner",
                 "losses", "AI win rate", "random seat's share"], rows, digits=2)
    print("\nms columns are wall-clock per ai_action call; CPU p95 is the calling thread's CPU "
          "time (steadier on a shared machine).")
    print("win rate = games where an AI seat is in Outcome.winners (sole + shared) / games; "
          "\"random seat's share\" = AI seats / players, what random play would get in a "
          "free-for-all game.")
    for r in results:
        if r["max_ms"] > GOAL_P95_S * 1e3:
            print(f"slowest {r['engine']} decision: {r['max_ms']:.0f} ms "
                  f"(seed {r['slowest'][1]}, action {r['slowest'][2]})")
    for name, n, text in profiles:
        print(f"\n## cProfile of {name}, {n} players (sorted by cumulative time)\n")
        print(text)
    write_json(args.json, {"machine": machine(), "args": vars(args), "results": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
