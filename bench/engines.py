"""Engine throughput under random legal play, in process (no bot, no Discord).

For every registered engine and player count: games/s and actions/s over a fixed set of
seeded games (the same seeds every run; the median of ``--runs`` runs is reported), the
cost per call of ``legal_actions`` and ``apply`` (a separately timed pass), and per state
``dump``, ``load`` and clone time (``state.clone()`` if the state has one, else
``load(dump(state))``) over states sampled from those games.

An "action" is one loop step of a random player: ``to_act`` → pick a seat →
``legal_actions`` → pick one → ``apply``; the time also includes ``new_game``.

    python -m bench.engines                      # defaults: 4 players (clamped), 5 runs
    python -m bench.engines --players all --games 50 --runs 7
    python -m bench.engines --engines taboo --profile   # where the time goes
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time
from typing import Any

from bench import (
    clone_function,
    machine,
    median,
    pick_engines,
    player_counts,
    print_table,
    verdict,
    write_json,
)

GOAL_ACTIONS_PER_S = 50_000
MAX_ACTIONS_PER_GAME = 100_000


def play_random(engine: Any, n_players: int, seed: int, sample=None) -> int:
    """One game of random legal play; returns the number of actions."""
    rng = random.Random(seed)
    state = engine.new_game(n_players, seed)
    to_act, legal, apply = engine.to_act, engine.legal_actions, engine.apply
    for count in range(MAX_ACTIONS_PER_GAME):
        if sample is not None:
            sample(state)
        seats = to_act(state)
        if not seats:
            return count
        seat = rng.choice(sorted(seats))
        state = apply(state, seat, rng.choice(legal(state, seat))).state
    raise RuntimeError(f"{engine.name}: no end after {MAX_ACTIONS_PER_GAME} random actions")


def timed_run(engine: Any, n_players: int, seeds: list[int]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of this process, actions) for one run over `seeds`."""
    start, cpu = time.perf_counter(), time.process_time()
    actions = sum(play_random(engine, n_players, seed) for seed in seeds)
    return time.perf_counter() - start, time.process_time() - cpu, actions


def call_costs(engine: Any, n_players: int, seeds: list[int]) -> dict[str, float]:
    """Mean µs per new_game / to_act / legal_actions / apply call (instrumented pass)."""
    clock = time.perf_counter
    totals = {"new_game": 0.0, "to_act": 0.0, "legal_actions": 0.0, "apply": 0.0}
    calls = {k: 0 for k in totals}
    for seed in seeds:
        rng = random.Random(seed)
        t = clock()
        state = engine.new_game(n_players, seed)
        totals["new_game"] += clock() - t
        calls["new_game"] += 1
        while True:
            t = clock()
            seats = engine.to_act(state)
            totals["to_act"] += clock() - t
            calls["to_act"] += 1
            if not seats:
                break
            seat = rng.choice(sorted(seats))
            t = clock()
            legal = engine.legal_actions(state, seat)
            totals["legal_actions"] += clock() - t
            calls["legal_actions"] += 1
            action = rng.choice(legal)
            t = clock()
            state = engine.apply(state, seat, action).state
            totals["apply"] += clock() - t
            calls["apply"] += 1
    return {k: totals[k] / calls[k] * 1e6 if calls[k] else 0.0 for k in totals}


def sample_states(engine: Any, n_players: int, seeds: list[int], limit: int) -> list[Any]:
    states: list[Any] = []
    for seed in seeds:
        play_random(engine, n_players, seed, sample=states.append)
    if len(states) > limit:
        step = len(states) / limit
        states = [states[int(i * step)] for i in range(limit)]
    return states


def per_state_us(fn, items: list[Any], runs: int) -> float:
    """Median over runs of the mean µs per item."""
    results = []
    for _ in range(runs):
        start = time.perf_counter()
        for item in items:
            fn(item)
        results.append((time.perf_counter() - start) / len(items) * 1e6)
    return median(results)


def profile_engine(engine: Any, n_players: int, seeds: list[int], top: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    timed_run(engine, n_players, seeds)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engines", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", help="comma list of engine names (default: all registered)")
    parser.add_argument("--players", default="typical",
                        help="typical (4, clamped to the seat limits), min, max, all, or N")
    parser.add_argument("--games", type=int, default=20, help="seeded games per run (20)")
    parser.add_argument("--runs", type=int, default=5, help="runs per engine; median reported (5)")
    parser.add_argument("--states", type=int, default=300,
                        help="states sampled for dump/load/clone timing (300)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (1)")
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of one run per engine (top functions)")
    parser.add_argument("--top", type=int, default=15, help="functions shown by --profile")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)

    selected = pick_engines(args.engines)
    print(f"# bench.engines — {machine()}")
    print(f"# {args.games} seeded games per run, {args.runs} runs (median), players={args.players}")
    seeds = list(range(args.seed, args.seed + args.games))
    results = []
    profiles = []
    for name, engine in selected.items():
        for n in player_counts(engine, args.players):
            play_random(engine, n, seeds[0])  # warm-up (imports, caches)
            runs = [timed_run(engine, n, seeds) for _ in range(args.runs)]
            seconds = median(t for t, _, _ in runs)
            cpu_seconds = median(c for _, c, _ in runs)
            actions = runs[0][2]
            costs = call_costs(engine, n, seeds[: max(1, len(seeds) // 2)])
            states = sample_states(engine, n, seeds[:5], args.states)
            dumps = [engine.dump(s) for s in states]
            how, clone = clone_function(engine, states[0])
            row = {
                "engine": name, "players": n, "games": len(seeds), "actions": actions,
                "actions_per_game": actions / len(seeds),
                "games_per_s": len(seeds) / seconds, "actions_per_s": actions / seconds,
                "actions_per_cpu_s": actions / cpu_seconds,
                "run_seconds": [t for t, _, _ in runs],
                "us_legal_actions": costs["legal_actions"], "us_apply": costs["apply"],
                "us_to_act": costs["to_act"], "us_new_game": costs["new_game"],
                "us_dump": per_state_us(engine.dump, states, args.runs),
                "us_load": per_state_us(engine.load, dumps, args.runs),
                "dump_bytes": sum(len(d) for d in dumps) / len(dumps),
                "clone_how": how, "us_clone": per_state_us(clone, states, args.runs),
            }
            row["goal"] = verdict(max(row["actions_per_s"], row["actions_per_cpu_s"])
                                  > GOAL_ACTIONS_PER_S)
            results.append(row)
            print(f"  {name} ({n} players): {row['actions_per_s']:,.0f} actions/s", flush=True)
            if args.profile:
                profiles.append((name, n, profile_engine(engine, n, seeds, args.top)))

    print("\n## Random legal play (median of runs)\n")
    print_table(
        ["engine", "players", "actions/game", "games/s", "actions/s", "actions/CPU-s",
         f"goal > {GOAL_ACTIONS_PER_S:,}/s", "µs to_act", "µs legal_actions", "µs apply"],
        [[r["engine"], r["players"], r["actions_per_game"], r["games_per_s"],
          r["actions_per_s"], r["actions_per_cpu_s"], r["goal"], r["us_to_act"],
          r["us_legal_actions"], r["us_apply"]]
         for r in results])
    print("\nactions/s is wall-clock; actions/CPU-s divides by this process's CPU time, which "
          "is steadier when other work shares the machine. µs columns: mean wall time per "
          "call in an instrumented pass.")
    print("\n## State serialisation and copies (per state, median of runs)\n")
    print_table(
        ["engine", "players", "dump µs", "load µs", "dump+load µs", "JSON bytes",
         "clone", "clone µs"],
        [[r["engine"], r["players"], r["us_dump"], r["us_load"], r["us_dump"] + r["us_load"],
          r["dump_bytes"], r["clone_how"], r["us_clone"]] for r in results])
    for name, n, text in profiles:
        print(f"\n## cProfile: {name}, {n} players, one run (sorted by own time)\n")
        print(text)
    write_json(args.json, {"machine": machine(), "args": vars(args), "results": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
