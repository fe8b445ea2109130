"""Pictures: time to draw and encode each game's board and hand, bytes per picture, and what
rendering does to the event loop.

For every registered game (at its largest table; Six Suit at 12 players) seeded random games
are played and, after every move, the board is drawn from the public view and one hand from
its seat's view, exactly as the bot does (`GameUI.board_picture` / `hand_picture`: draw,
palette, PNG). Reported per game: renders, median / p95 / max milliseconds per board and per
hand, the board's CPU time (the thread's own, which other work on a shared machine does not
inflate the way it does wall time), PNG bytes (median / max), and the first (cold) render, which also draws the card
sprites the later ones reuse.

Encodings: the same 12-player Six Suit boards written as PNG in the palette (zlib levels 1, 2
and 6) and as WebP (lossless and lossy, Pillow's fastest method), side by side.

Loop stalls: the same boards are rendered while an asyncio ticker (every 5 ms) measures how
late it wakes: in the worker process (as the bot does), in a worker thread (which still
takes the GIL from the loop) and on the loop itself (for comparison).

    python -m bench.pictures                 # every game, 3 games each
    python -m bench.pictures --games six_suit --plays 10 --json pictures.json
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import time
from typing import Any

from bench import machine, median, percentile, pick_engines, print_table, verdict, write_json
from bot.game_ui import registered_uis
from bot.pictures import PictureJob, render_off_loop
from bot.pictures.samples import random_states

GOAL_P95_MS = 20.0  # Six Suit at 12 players
GOAL_BYTES = 150_000
MAX_MOVES = 400


def _views(engine: Any, n: int, seed: int, moves: int):
    """(public view, (seat, seat view)) after each move of a seeded random game."""
    rng = random.Random(seed)
    for state in random_states(engine, n, seed, moves):
        shown = rng.randrange(n)
        yield engine.view(state, None), (shown, engine.view(state, shown))


def measure(game: str, engine: Any, ui: Any, plays: int, moves: int) -> dict[str, Any]:
    n = engine.max_players
    names = [f"Player {i + 1}" for i in range(n)]
    board_ms, hand_ms, board_bytes, hand_bytes, board_cpu = [], [], [], [], []
    cold = None
    for seed in range(plays):
        for public, (seat, private) in _views(engine, n, seed, moves):
            start, cpu = time.perf_counter(), time.thread_time()
            board = ui.board_picture(public, names)
            mid, cpu_end = time.perf_counter(), time.thread_time()
            hand = ui.hand_picture(private, names, seat)
            end = time.perf_counter()
            if cold is None:
                cold = (mid - start) * 1000
                continue
            board_ms.append((mid - start) * 1000)
            board_cpu.append((cpu_end - cpu) * 1000)
            hand_ms.append((end - mid) * 1000)
            board_bytes.append(len(board.data))
            hand_bytes.append(len(hand.data))
    return {"game": game, "players": n, "renders": len(board_ms), "cold_ms": cold,
            "board_ms": board_ms, "board_cpu_ms": board_cpu, "hand_ms": hand_ms, "board_bytes": board_bytes,
            "hand_bytes": hand_bytes}


def encodings(pictures: list[bytes]) -> list[list[Any]]:
    """CPU milliseconds (median, p95; the thread's own time, steady on a shared machine) and
    KB (median) to write the same boards in each format.
    PNG starts from the palette image the bot draws; WebP needs RGB (its conversion is not
    counted: drawing in RGB would have cost about as much)."""
    from PIL import Image

    images = [Image.open(io.BytesIO(data)) for data in pictures]
    for image in images:
        image.load()
    rgb = [image.convert("RGB") for image in images]
    formats = [("PNG, palette, zlib 1", images, {"format": "PNG", "compress_level": 1}),
               ("PNG, palette, zlib 2 (the bot)", images, {"format": "PNG", "compress_level": 2}),
               ("PNG, palette, zlib 6", images, {"format": "PNG", "compress_level": 6}),
               ("WebP lossless, method 0", rgb, {"format": "WEBP", "lossless": True,
                                                 "method": 0, "quality": 0}),
               ("WebP lossy q80, method 0", rgb, {"format": "WEBP", "quality": 80,
                                                  "method": 0})]
    rows = []
    for label, source, options in formats:
        ms, sizes = [], []
        for image in source:
            out = io.BytesIO()
            start = time.thread_time()
            image.save(out, **options)
            ms.append((time.thread_time() - start) * 1000)
            sizes.append(len(out.getvalue()))
        rows.append([label, len(ms), median(ms), percentile(ms, 95), median(sizes) / 1000])
    return rows


async def _stalls(jobs: list, mode: str) -> dict[str, float]:
    """Worst and p99 lateness of a 5 ms ticker while the jobs render, one after another."""
    late: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        loop = asyncio.get_running_loop()
        while not done.is_set():
            start = loop.time()
            await asyncio.sleep(0.005)
            late.append((loop.time() - start - 0.005) * 1000)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.02)
    for job in jobs:
        if mode == "worker process":
            await render_off_loop(job)
        elif mode == "worker thread":
            await asyncio.to_thread(job.draw)
        else:
            job.draw()
            await asyncio.sleep(0)
    done.set()
    await task
    return {"max_ms": max(late), "p99_ms": percentile(late, 99), "ticks": len(late)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", help="comma list of games (default: all)")
    parser.add_argument("--plays", type=int, default=3, help="seeded games per game")
    parser.add_argument("--moves", type=int, default=150, help="moves per game at most")
    parser.add_argument("--json", help="write the raw results here")
    args = parser.parse_args()
    print(f"# bench.pictures — {machine()}\n")
    uis = registered_uis()
    results = []
    for game, engine in pick_engines(args.games).items():
        results.append(measure(game, engine, uis[game], args.plays, min(args.moves, MAX_MOVES)))
    rows = [[r["game"] + f" ({r['players']})", r["renders"], r["cold_ms"],
             median(r["board_ms"]), percentile(r["board_ms"], 95), max(r["board_ms"]),
             median(r["board_cpu_ms"]), percentile(r["board_cpu_ms"], 95),
             median(r["hand_ms"]), percentile(r["hand_ms"], 95),
             f"{median(r['board_bytes']) / 1000:.0f} / {max(r['board_bytes']) / 1000:.0f}",
             f"{median(r['hand_bytes']) / 1000:.0f} / {max(r['hand_bytes']) / 1000:.0f}"]
            for r in results]
    print_table(["game (players)", "renders", "cold ms", "board ms p50", "p95", "max",
                 "board CPU ms p50", "p95",
                 "hand ms p50", "p95", "board KB p50 / max", "hand KB p50 / max"], rows)
    six = next((r for r in results if r["game"] == "six_suit"), None)
    if six:
        p95 = percentile(six["board_ms"], 95)
        cpu95 = percentile(six["board_cpu_ms"], 95)
        print(f"\nSix Suit at 12, board p95 {p95:.1f} ms (goal < {GOAL_P95_MS:.0f} ms): "
              f"{verdict(p95 < GOAL_P95_MS)}; CPU time p95 {cpu95:.1f} ms (what the wall time "
              "would be with a core to itself)")
    biggest = max(max(r["board_bytes"] + r["hand_bytes"]) for r in results)
    print(f"Largest picture {biggest / 1000:.0f} KB (goal < {GOAL_BYTES / 1000:.0f} KB): "
          f"{verdict(biggest < GOAL_BYTES)}")
    # loop stalls, with the largest boards
    game = "six_suit" if six else results[0]["game"]
    engine, ui = pick_engines(game)[game], uis[game]
    names = [f"Player {i + 1}" for i in range(engine.max_players)]
    views = [public for public, _ in _views(engine, engine.max_players, 99, 60)]
    if six:
        print(f"\nThe same {len(views)} Six Suit boards in each format:")
        print_table(["format", "boards", "CPU ms p50", "p95", "KB p50"],
                    encodings([ui.board_picture(v, names).data for v in views]))
    jobs = [PictureJob(game, v, names) for v in views]
    del ui
    asyncio.run(render_off_loop(jobs[0]))  # start the worker process and warm its sprites
    for job in jobs:
        job.draw()  # warm this process's sprites too
    stalls = {mode: asyncio.run(_stalls(jobs, mode))
              for mode in ("worker process", "worker thread", "on the loop")}
    print(f"\nEvent-loop lateness while {len(jobs)} {game} boards render "
          "(5 ms ticker):")
    print_table(["rendering", "ticks", "p99 ms late", "max ms late"],
                [[mode, s["ticks"], s["p99_ms"], s["max_ms"]] for mode, s in stalls.items()])
    write_json(args.json, {"machine": machine(), "results": results, "stalls": stalls})


if __name__ == "__main__":
    main()
