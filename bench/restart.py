"""Restart time: from starting a new bot process to N tables in progress answering again.

Per N (``--tables 10,100,500``): a first bot process opens N tables through the fake Discord
exactly as people do (``/<game> new``, Join, Start; games round-robin over
``bot.tables.uis``) and plays ``--moves`` moves on each, so every table is mid-game with a
board and a turn notice. That bot is stopped (``bot.close()``). A new process is started on
the same SQLite file (``python -m bench.botproc``: ``create_bot(Settings(...))`` + start) and,
as soon as it is ready, the player each old board names under "To act" presses that board's
**Take my turn** button, on every table at once. Reported, from the moment the new process
was spawned:

- interpreter up, imports done, ``create_bot`` called, ready (the table service re-attached
  every stored table in ``setup_hook``, before the gateway connection);
- every table answered: the panel came back on each old board (p50 and the last table);
- every table moved: each of those players finished a move through the panel.

    python -m bench.restart                          # 10, 100 and 500 tables
    python -m bench.restart --tables 1000 --moves 3
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench import (
    cpu_pressure,
    machine,
    percentile,
    print_table,
    schedstat,
    wait_for_quiet,
    write_json,
)
from bench.harness import (
    BotProcess,
    TableSim,
    _said,
    build_world,
    fresh_files,
    settle,
    split_calls,
)
from bench.load import gather_sims, table_specs


async def answer_after_restart(sim: TableSim, timeout: float, complete: bool
                               ) -> tuple[float | None, float | None, str]:
    """The waiting player clicks Take my turn on the old board; times answered and moved."""
    _version, actors, over = sim.board_state()
    if over or not actors:
        return None, None, "no player to act on the board"
    user = actors[0]
    turn_id = next((c["custom_id"] for c in sim.board.buttons()
                    if c["custom_id"].startswith(f"t:{sim.table_id}:turn")), None)
    if turn_id is None:
        return None, None, "no Take my turn button"
    result = await sim.fake.click(user, sim.board, turn_id, timeout=timeout)
    answered = time.monotonic()
    if result.message is None or "⚠️" in _said(result):
        return answered, None, result.text[:80]
    if not complete:
        return answered, None, ""
    moves_before = sim.moves
    # continue through the panel the reply opened (same logic as a normal move)
    sim_result = result
    for _ in range(12):
        text = _said(sim_result)
        if "✅" in text or "⚠️" in text or sim_result.modal is not None:
            break
        comps = [c for c in sim_result.message.buttons()
                 if not (c.get("label") or "").startswith("Back")]
        selects = [c for c in comps if c.get("type") == 3]
        if selects:
            options = [o for o in selects[0]["options"] if not o["value"].startswith("page:")]
            sim_result = await sim.fake.select(user, sim_result.message, selects[0]["custom_id"],
                                               [sim.rng.choice(options)["value"]],
                                               timeout=timeout)
        elif comps:
            sim_result = await sim.fake.click(user, sim_result.message,
                                              sim.rng.choice(comps)["custom_id"],
                                              timeout=timeout)
        else:
            break
    if sim_result.modal is not None:
        fields = {"text": "bench"}
        sim_result = await sim.fake.submit_modal(user, sim_result.modal.custom_id, fields,
                                                 timeout=timeout)
    sim._confirmed(sim_result)
    moved = time.monotonic() if sim.moves > moves_before else None
    return answered, moved, "" if moved else sim_result.text[:80]


async def run_one(n: int, args, workdir: Path) -> dict[str, Any]:
    from fakediscord import FakeDiscord

    fake = await FakeDiscord(timeout=args.timeout).start()
    fake.keep_uploads = False  # thousands of pictures: keep names and sizes, not bytes
    guild = fake.add_guild("Bench Club")
    db, *_ = fresh_files(workdir / f"restart-{n}.db", workdir / f"bot-{n}-first.log",
                         workdir / f"bot-{n}-second.log")
    first = BotProcess(fake.port, db, guild.id, workdir / f"bot-{n}-first.log")
    second = BotProcess(fake.port, db, guild.id, workdir / f"bot-{n}-second.log",
                        profile=args.profile, profile_out=workdir / f"restart-{n}.prof",
                        extra_args=["--profile-from-start"] if args.profile else None)
    result: dict[str, Any] = {"tables": n}
    try:
        ready = await first.start()
        specs = table_specs(ready["uis"], n, args.players, args.games)
        _, seats = build_world(fake, specs, guild)
        await fake.settle(timeout=60)
        rng = random.Random(args.seed)
        sims = [TableSim(fake, spec, channel, users, random.Random(rng.random()))
                for spec, (channel, users) in zip(specs, seats, strict=True)]
        print(f"\n## {n} tables: {dict(Counter(s.game for s in specs))}", flush=True)
        t0 = time.monotonic()
        semaphore = asyncio.Semaphore(args.open_concurrency or n)

        async def open_table(sim: TableSim) -> None:
            async with semaphore:
                await sim.open(args.timeout)

        failures = await gather_sims(sims, open_table)
        deadline = time.monotonic() + args.timeout * 4
        failures += await gather_sims([s for s in sims if s.board is not None],
                                      lambda s: s.play(moves=args.moves, deadline=deadline,
                                                       timeout=args.timeout, new_games=False))
        # every move delivered before the stop (with the request budget that takes a while):
        # the old boards must name who really acts
        await first.wait_idle(timeout=900)
        await settle(fake, quiet=0.3, timeout=120)
        prepared = [s for s in sims if s.board is not None and not s.board_state()[2]]
        print(f"  prepared {len(prepared)}/{n} tables in progress in "
              f"{time.monotonic() - t0:.1f}s ({sum(s.moves for s in sims)} moves)"
              + (f"; failures {dict(failures)}" if failures else ""), flush=True)
        result["prepared"] = len(prepared)
        result["db_bytes"] = db.stat().st_size + sum(
            p.stat().st_size for p in workdir.glob(f"{db.name}-*"))

        t0 = time.monotonic()
        await first.stop()
        result["stop_seconds"] = time.monotonic() - t0
        await asyncio.sleep(args.pause)
        if args.quiet_wait:
            wait_for_quiet(args.quiet_wait)
        pressure = cpu_pressure()
        sched_first = schedstat()

        # ---- the restart
        mark = fake.mark()
        ready = await second.start()
        spawned = second.spawned_at
        result.update(
            interpreter_s=ready["t_start"] - spawned, imports_s=ready["t_imported"] - spawned,
            create_s=ready["t_create"] - spawned, ready_s=ready["t"] - spawned,
            reattached=ready["live"])
        ready_mark = fake.mark()
        outcomes = await asyncio.gather(
            *(answer_after_restart(s, args.timeout, not args.no_move) for s in prepared),
            return_exceptions=True)
        await second.profiling(False)
        answered = [o[0] - spawned for o in outcomes if not isinstance(o, BaseException)
                    and o[0] is not None and not o[2].startswith("⚠")]
        moved = [o[1] - spawned for o in outcomes if not isinstance(o, BaseException)
                 and o[1] is not None]
        problems = Counter(
            (f"{type(o).__name__}: {o}" if isinstance(o, BaseException) else o[2])[:80]
            for o in outcomes if isinstance(o, BaseException) or o[2])
        result.update(
            answered=len(answered), moved=len(moved),
            answered_p50_s=percentile(answered, 50), answered_all_s=max(answered, default=0),
            moved_p50_s=percentile(moved, 50), moved_all_s=max(moved, default=0),
            problems=dict(problems),
            calls_before_ready=split_calls(fake, mark, ready_mark)["counts"],
            rss_after=second.rss(), cpu_pressure=pressure,
            bot_cpu_s=second.cpu_seconds(), bot_runqueue_wait_s=schedstat(second.pid)[1],
            driver_runqueue_wait_s=schedstat()[1] - sched_first[1])
        print(f"  restart: ready {result['ready_s']:.2f}s after spawn "
              f"({result['reattached']} tables re-attached); all {len(answered)} answered "
              f"after {result['answered_all_s']:.2f}s, all {len(moved)} moved after "
              f"{result['moved_all_s']:.2f}s; the new bot used {result['bot_cpu_s']:.2f} s of "
              f"CPU and waited {result['bot_runqueue_wait_s']:.2f} s for one (CPU pressure "
              f"{pressure})" + (f"; problems {dict(problems)}" if problems else ""), flush=True)
        log = second.log_problems()
        result["bot_log_problems"] = len(log)
        if log:
            print(f"  the new bot logged {len(log)} error line(s), first: {log[0][:160]}")
    finally:
        await first.stop()
        await second.stop()
        await fake.stop()
    if args.profile:
        from bench.harness import print_profile

        print(f"\n## Profile of the new bot process from its start until every table answered, "
              f"{n} tables")
        print_profile(args.profile, workdir / f"restart-{n}.prof", args.top)
    return result


def report(results: list[dict[str, Any]]) -> None:
    print("\n## Restart: seconds from spawning the new bot process\n")
    print_table(["tables", "re-attached / in progress", "interpreter up", "imports done", "create_bot",
                 "ready", "answered p50", "all answered", "moved p50", "all moved",
                 "DB MiB", "old bot stop s", "bot CPU s", "bot waited for CPU s"],
                [[r["tables"], f"{r['reattached']}/{r['prepared']}", r["interpreter_s"],
                  r["imports_s"], r["create_s"], r["ready_s"], r["answered_p50_s"],
                  r["answered_all_s"], r["moved_p50_s"], r["moved_all_s"],
                  r["db_bytes"] / 2**20, r["stop_seconds"], r["bot_cpu_s"],
                  r["bot_runqueue_wait_s"]]
                 for r in results if "ready_s" in r], digits=2)
    print("\nready = the new bot's wait_until_ready() returned (stored tables are re-attached "
          "in setup_hook, before the gateway connects); answered = the panel came back for "
          "the player the old board names (a click on every old board, all at once); moved = "
          "that player then finished a move through the panel. bot CPU s / waited for CPU s: "
          "the new process's CPU time and the time its threads were runnable but not running, "
          "from spawn until every table had moved.")
    for r in results:
        if r.get("problems"):
            print(f"- {r['tables']} tables: {r['problems']}")


async def amain(args) -> int:
    print(f"# bench.restart — {machine()}")
    print(f"# {args.moves} move(s) per table before the restart, players={args.players}")
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-restart-") as tmp:
        workdir = Path(args.workdir or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        for n in [int(x) for x in args.tables.split(",") if x.strip()]:
            results.append(await run_one(n, args, workdir))
    report(results)
    write_json(args.json, {"machine": machine(), "args": vars(args), "results": results})
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.restart", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="10,100,500",
                        help="comma list of table counts (10,100,500)")
    parser.add_argument("--games", help="comma list of games (default: every registered cog)")
    parser.add_argument("--players", default="typical",
                        help="humans per table: typical (4, clamped), min, max or N")
    parser.add_argument("--moves", type=int, default=2,
                        help="moves per table before the restart (2)")
    parser.add_argument("--open-concurrency", type=int, default=50,
                        help="tables being opened at the same time before the restart (50)")
    parser.add_argument("--pause", type=float, default=0.5,
                        help="seconds between stopping the old bot and starting the new (0.5)")
    parser.add_argument("--no-move", action="store_true",
                        help="only time the answer to Take my turn, do not finish a move")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--quiet-wait", type=float, default=0.0,
                        help="before each restart wait up to this many seconds for CPU "
                        "pressure (10 s) < 15%% (0 = do not wait)")
    parser.add_argument("--profile", choices=("cprofile", "sample"),
                        help="profile the new bot process from its start until every table "
                        "answered")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--workdir", help="keep databases and logs here")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    return asyncio.run(amain(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
