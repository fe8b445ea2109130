"""Event-loop stall while hard AI decisions run, side by side: in a thread (`asyncio.to_thread`,
as the bot ran them before) and in the worker process (`bot.ai_worker`, as it runs them now).

A 1 ms ticker runs on the loop while ``--decisions`` hard decisions of one game play out;
the ticker's lateness is how long the loop waited (for the GIL, and for the CPU). Both modes
make the same decisions (same states, same rngs). The worker is started before timing, as
it is warm in a running bot after its first hard decision.

    python -m bench.ai_loop
    python -m bench.ai_loop --engine hidden_rules --players 4 --decisions 40
    python -m bench.ai_loop --engine taboo --players 2 --decisions 60 --modes process
"""
from __future__ import annotations

import argparse
import asyncio
import random
import time

from bench import load_average, percentile
from bot.ai_worker import AiWorker
from engines import ENGINES


async def _run(mode: str, game: str, players: int, decisions: int, worker: AiWorker) -> str:
    engine = ENGINES[game]
    state = engine.new_game(players, 3, {"ai_level": "hard"})
    lates: list[float] = []
    stop = False

    async def ticker() -> None:
        while not stop:
            t = time.perf_counter()
            await asyncio.sleep(0.001)
            lates.append(time.perf_counter() - t - 0.001)

    task = asyncio.create_task(ticker())
    spent: list[float] = []
    for n in range(decisions):
        seats = sorted(engine.waiting_for(state)) or sorted(engine.to_act(state))
        if not seats:
            break
        rng = random.Random(n)
        t = time.perf_counter()
        if mode == "thread":
            action = await asyncio.to_thread(engine.ai_action, state, seats[0], rng)
        else:
            action = await worker.choose(engine, state, seats[0], rng)
        spent.append(time.perf_counter() - t)
        if action is None:
            action = engine.default_action(state, seats[0])
        state = engine.apply(state, seats[0], action).state
    stop = True
    await task
    return (f"{mode:7} {len(spent)} hard {game} decisions ({players}p): wall p50 "
            f"{percentile(spent, 50) * 1e3:.0f} ms p95 {percentile(spent, 95) * 1e3:.0f} ms; "
            f"loop tick lateness p50 {percentile(lates, 50) * 1e3:.2f} ms p99 "
            f"{percentile(lates, 99) * 1e3:.2f} ms max {max(lates) * 1e3:.1f} ms "
            f"({len(lates)} ticks)")


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_loop", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="six_suit")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--modes", default="thread,process",
                        help="comma list: thread, process (process alone times hard decisions "
                        "as the bot makes them)")
    args = parser.parse_args(argv)
    worker = AiWorker(timeout=60)
    engine = ENGINES[args.engine]
    warm = engine.new_game(args.players, 3, {"ai_level": "hard"})
    await worker.choose(engine, warm, sorted(engine.to_act(warm))[0], random.Random(0))
    print(f"# bench.ai_loop — load average {load_average()} at start")
    try:
        for mode in args.modes.split(","):
            print(await _run(mode, args.engine, args.players, args.decisions, worker),
                  flush=True)
    finally:
        await worker.close()
    print(f"# load average {load_average()} at end")


if __name__ == "__main__":
    asyncio.run(main())
