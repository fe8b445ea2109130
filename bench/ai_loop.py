"""Event-loop stall while hard AI decisions run in asyncio.to_thread, as the bot runs them.

A 1 ms ticker runs on the loop while 30 hard Six Suit decisions (4 players) run in a worker
thread; the ticker's lateness is how long the loop waited for the GIL (and the CPU).

    python -m bench.ai_loop
"""
from __future__ import annotations

import asyncio
import random
import time

from engines import ENGINES


async def main() -> None:
    e = ENGINES["six_suit"]
    s = e.new_game(4, 3, {"ai_level": "hard"})
    lates: list[float] = []
    stop = False
    async def ticker():
        while not stop:
            t = time.perf_counter()
            await asyncio.sleep(0.001)
            lates.append(time.perf_counter() - t - 0.001)
    task = asyncio.create_task(ticker())
    rng = random.Random(1)
    n = 0
    spent: list[float] = []
    while n < 30:
        seats = sorted(e.to_act(s))
        if not seats:
            break
        t = time.perf_counter()
        a = await asyncio.to_thread(e.ai_action, s, seats[0], rng)
        spent.append(time.perf_counter() - t)
        s = e.apply(s, seats[0], a).state
        n += 1
    stop = True
    await task
    lates.sort()
    spent.sort()
    print(f"{n} hard decisions in a thread, p50 {spent[len(spent)//2]*1e3:.0f} ms; loop tick lateness "
          f"p50 {lates[len(lates)//2]*1e3:.1f} ms p99 {lates[int(len(lates)*.99)]*1e3:.1f} ms max {lates[-1]*1e3:.1f} ms")
if __name__ == "__main__":
    asyncio.run(main())
