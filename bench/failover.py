"""A bot process killed mid-game, and its shards resumed by a new one (PostgreSQL, shards).

Per N (``--tables 100``): ``--processes`` bot processes (``bench.botproc``, 2 by default) run
one bot on as many shards of the fake Discord, sharing one fresh PostgreSQL database; one
server per shard, N tables dealt round-robin over them, opened as people do. Then every
table plays as fast as its players click. After ``--kill-after`` seconds of play the last
process is killed with SIGKILL — no shutdown, no flush, in the middle of its tables' moves —
and after ``--pause`` seconds (the launcher's first restart waits 1 s) a new process starts
on the same shards. Play goes on throughout: the players of the dead shard's tables keep
clicking their boards (unanswered clicks are retried) until the new process answers.

After every confirmed move (the ✅ the player sees) the table's stored version is read, so
the benchmark knows the last version each player was promised. Reported:

- moves lost: confirmed moves whose version the database no longer holds after the kill
  (must be 0), over the tables of the killed process;
- time to resume: from the kill (and from the new process's spawn) until it was ready, until
  the first and the last of the dead shard's tables made a confirmed move again;
- the other shard's tables: their moves per second before, during and after the outage (they
  must not notice it).

    python -m bench.failover                       # 100 tables, 2 processes
    python -m bench.failover --tables 500 --kill-after 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench import cpu_pressure, machine, percentile, print_table, write_json
from bench.harness import (
    BotProcess,
    TableSim,
    build_world_across,
    fresh_postgres,
    guilds_on_shards,
    settle,
)
from bench.load import gather_sims, table_specs
from bot.launcher import DEFAULT_BUDGET

CLICK_PATIENCE = 5.0  # seconds a player waits for a click's answer (Discord: 3)


class WatchedTable(TableSim):
    """A TableSim that reads the stored version after each confirmed move."""

    promised: int = 0  # the stored version read right after the last ✅
    shard: int = 0
    pool: Any = None

    async def _interact(self, kind: str, coro, *, tolerate: bool = False):
        """While no process serves the table's shard, Discord shows the player "This
        interaction failed" after 3 s; they look at the board again and retry."""
        from fakediscord import FakeDiscordError

        try:
            return await super()._interact(kind, coro, tolerate=tolerate)
        except FakeDiscordError as exc:
            if not tolerate or "no bot is connected" not in str(exc):
                raise
            self.no_answer[kind] += 1
            self.errors["no process on the shard"] += 1
            await asyncio.sleep(3.0)
            return None

    async def open(self, timeout: float = 120.0) -> None:
        self.promised = 0  # a new game, a new table: its versions start again
        await super().open(timeout)

    async def move(self, user, timeout: float) -> bool:
        # a click sent to the process as it was killed is never answered: Discord shows
        # "This interaction failed" after 3 s and the player clicks again; waiting for it
        # as long as for a board (--timeout) kept players idle after the new process was up
        moved = await super().move(user, min(timeout, CLICK_PATIENCE))
        if moved:
            version = await self.pool.fetchval(
                "SELECT version FROM game_tables WHERE id = $1", self.table_id)
            self.promised = max(self.promised, version or 0)
        return moved


async def run_one(n: int, args, workdir: Path) -> dict[str, Any]:
    import asyncpg

    from fakediscord import FakeDiscord

    p = args.processes
    fake = await FakeDiscord(timeout=args.timeout).start()
    fake.keep_uploads = False
    guilds = guilds_on_shards(fake, p)
    result: dict[str, Any] = {"tables": n, "processes": p}
    async with contextlib.AsyncExitStack() as stack:
        url = await stack.enter_async_context(fresh_postgres(args.pg_url))
        pool = await asyncpg.create_pool(url, min_size=1, max_size=4)
        stack.push_async_callback(pool.close)

        def process(shard: int, generation: int) -> BotProcess:
            return BotProcess(fake.port, url, guilds[shard].id,
                              workdir / f"bot-{n}-shard{shard}-{generation}.log",
                              extra_args=["--shard-count", str(p), "--shard-ids", str(shard),
                                          "--rest-budget", str(args.rest_budget // p),
                                          # a finished game is followed by a new one at once
                                          "--command-cooldown", "0"])

        bots = [process(shard, 0) for shard in range(p)]
        stack.push_async_callback(lambda: asyncio.gather(*(b.stop() for b in bots)))
        readies = [await bot.start() for bot in bots]
        specs = table_specs(readies[0]["uis"], n, args.players, args.games)
        seats = build_world_across(fake, specs, guilds)
        await fake.settle(timeout=60)
        rng = random.Random(args.seed)
        sims = []
        for i, (spec, (channel, users)) in enumerate(zip(specs, seats, strict=True)):
            sim = WatchedTable(fake, spec, channel, users, random.Random(rng.random()))
            sim.shard, sim.pool = i % p, pool
            sims.append(sim)
        print(f"\n## {n} tables on {p} processes: {dict(Counter(s.game for s in specs))}",
              flush=True)
        semaphore = asyncio.Semaphore(50)

        async def open_table(sim: TableSim) -> None:
            async with semaphore:
                await sim.open(args.timeout)

        failures = await gather_sims(sims, open_table)
        for bot in bots:
            await bot.wait_idle(timeout=600)
        await settle(fake, quiet=0.3, timeout=120)
        live = [s for s in sims if s.board is not None]
        victim = p - 1
        mine = [s for s in live if s.shard == victim]
        others = [s for s in live if s.shard != victim]
        print(f"  {len(live)}/{n} tables started ({len(mine)} on the shard to kill)"
              + (f"; failures {dict(failures)}" if failures else ""), flush=True)

        t0 = time.monotonic()
        end = t0 + args.kill_after + args.after
        playing = asyncio.ensure_future(gather_sims(live, lambda s: s.play(
            moves=10**9, deadline=end, timeout=args.timeout)))
        await asyncio.sleep(args.kill_after)
        pressure = cpu_pressure()
        # ---- the kill
        killed = time.monotonic()
        promised = {s.table_id: s.promised for s in mine}
        moves_before = {id(s): s.moves for s in mine}  # a sim may open a new game (new id)
        bots[victim].proc.kill()
        await bots[victim].proc.wait()
        await bots[victim].stop()  # closes its log
        await asyncio.sleep(args.pause)
        replacement = process(victim, 1)
        bots[victim] = replacement
        ready = await replacement.start()
        ready_at = ready["t"]  # CLOCK_MONOTONIC: the same clock in both processes
        # moves lost: the versions promised before the kill, against what the database holds
        rows = await pool.fetch("SELECT id, version FROM game_tables WHERE id = ANY($1::bigint[])",
                                list(promised))
        stored = {r["id"]: r["version"] for r in rows}
        lost = {tid: v - stored.get(tid, 0) for tid, v in promised.items()
                if stored.get(tid, 0) < v and tid in stored}
        gone = [tid for tid in promised if tid not in stored]  # finished games are no row
        # time to resume: each table of the dead shard moving again
        deadline = time.monotonic() + args.timeout
        while time.monotonic() < deadline:
            resumed = [s for s in mine if s.moves > moves_before[id(s)]]
            if len(resumed) == len(mine):
                break
            await asyncio.sleep(0.05)
        again = sorted(next(t for t in s.confirmed_at if t > killed) - killed
                       for s in mine if any(t > killed for t in s.confirmed_at))
        outcome = await playing
        # the dead shard's tables that never moved again: what their players were looking at
        idle = [s for s in mine if not any(t > killed for t in s.confirmed_at)]
        now = {r["id"]: r["version"] for r in await pool.fetch(
            "SELECT id, version FROM game_tables WHERE id = ANY($1::bigint[])",
            [s.table_id for s in idle])}
        result["not_resumed"] = [
            {"table": s.table_id, "game": s.spec.game, "board_shows": s.board_state()[0],
             "board_deleted": bool(s.board.deleted), "stored": now.get(s.table_id),
             "promised": promised.get(s.table_id), "last_error": (s.last_error or "")[:120],
             "boards_in_channel": [
                 (m.id == s.board.id, [c["custom_id"] for c in m.buttons()
                                       if ":turn" in c.get("custom_id", "")])
                 for m in fake.channel_messages(s.channel)
                 if any(f"t:{s.table_id}:hist" in c.get("custom_id", "") for c in m.buttons())],
             "moves": s.moves, "no_answer": dict(s.no_answer), "errors": dict(s.errors)}
            for s in idle]
        result["errors"] = dict(sum((s.errors for s in mine), Counter()))
        result["failures"] = dict(outcome)
        # the other shards' tables: moves per second before / during / after the outage
        window = (killed, (killed + again[-1]) if again else end)

        def rate(start: float, stop: float) -> float:
            moves = sum(1 for s in others for t in s.confirmed_at if start <= t < stop)
            return moves / (stop - start) if stop > start else float("nan")

        result.update(
            started=len(live), on_killed_shard=len(mine),
            promised_moves=sum(promised.values()), moves_lost=sum(lost.values()),
            tables_losing=len(lost), finished_meanwhile=len(gone),
            ready_after_kill_s=ready_at - killed, spawn_to_ready_s=ready_at
            - replacement.spawned_at,
            resumed=len(again), first_resumed_s=again[0] if again else None,
            p50_resumed_s=percentile(again, 50) if again else None,
            all_resumed_s=again[-1] if len(again) == len(mine) else None,
            others_before=rate(t0, killed), others_during=rate(*window),
            others_after=rate(window[1], end), cpu_pressure=pressure,
            reattached=ready["live"])
        print(f"  killed shard {victim}: {result['promised_moves']} moves promised on its "
              f"{len(mine)} tables, {result['moves_lost']} lost; the new process was ready "
              f"{result['ready_after_kill_s']:.2f}s after the kill ({result['reattached']} "
              f"tables re-attached), its tables moved again after {again[0] if again else 0:.2f}"
              f"–{again[-1] if again else 0:.2f}s ({len(again)}/{len(mine)}); the other "
              f"shard's moves/s before / during / after: {result['others_before']:.1f} / "
              f"{result['others_during']:.1f} / {result['others_after']:.1f}", flush=True)
        if idle:
            behind = sum(1 for x in result["not_resumed"] if x["board_shows"] != x["stored"])
            print(f"  {len(idle)} of the dead shard's tables never moved again: {behind} of "
                  f"them show a board older than the database; first: "
                  f"{result['not_resumed'][0]}", flush=True)
        if result["errors"] or result["failures"]:
            print(f"  the killed shard's players saw: {result['errors']} {result['failures']}")
        problems = [line for b in bots for line in b.log_problems()]
        result["bot_log_problems"] = len(problems)
        if problems:
            print(f"  the bots logged {len(problems)} error line(s), first: {problems[0][:160]}")
    await fake.stop()
    return result


def report(results: list[dict[str, Any]]) -> None:
    print("\n## A process killed mid-game and its shards resumed by a new one\n")
    print_table(["tables", "processes", "tables on the killed shard", "moves promised there",
                 "moves lost", "ready after kill s", "spawn → ready s", "first table moved s",
                 "p50 s", "all moved s", "other shards moves/s before / during / after"],
                [[r["tables"], r["processes"], r["on_killed_shard"], r["promised_moves"],
                  r["moves_lost"], r["ready_after_kill_s"], r["spawn_to_ready_s"],
                  r["first_resumed_s"], r["p50_resumed_s"], r["all_resumed_s"],
                  f"{r['others_before']:.1f} / {r['others_during']:.1f} / "
                  f"{r['others_after']:.1f}"] for r in results], digits=2)
    print("\nmoves promised: the sum over the killed shard's tables of the stored version read "
          "right after each player's last ✅ before the kill; moves lost: how far the database "
          "was behind those promises after the kill (must be 0). Times are seconds after the "
          "kill (the new process was spawned --pause s after it); 'moved' = that table's "
          "first confirmed move after the kill.")


async def amain(args) -> int:
    print(f"# bench.failover — {machine()}")
    print(f"# {args.processes} processes on PostgreSQL, kill -9 after {args.kill_after:g}s "
          f"of play, new process {args.pause:g}s later")
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-failover-") as tmp:
        workdir = Path(args.workdir or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        for n in [int(x) for x in args.tables.split(",") if x.strip()]:
            results.append(await run_one(n, args, workdir))
    report(results)
    write_json(args.json, {"machine": machine(), "args": vars(args), "results": results})
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.failover", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="100", help="comma list of table counts (100)")
    parser.add_argument("--processes", type=int, default=2, help="bot processes (2)")
    parser.add_argument("--games", help="comma list of games (default: every registered cog)")
    parser.add_argument("--players", default="typical",
                        help="humans per table: typical (4, clamped), min, max or N")
    parser.add_argument("--kill-after", type=float, default=10.0,
                        help="seconds of play before the kill (10)")
    parser.add_argument("--after", type=float, default=20.0,
                        help="seconds of play after the kill (20)")
    parser.add_argument("--pause", type=float, default=1.0,
                        help="seconds between the kill and spawning the new process (1, the "
                        "launcher's first restart)")
    parser.add_argument("--rest-budget", type=int, default=DEFAULT_BUDGET,
                        help="REST_REQUESTS_PER_SECOND of the whole bot, split between the "
                        "processes (45)")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--pg-url", default=os.environ.get(
                        "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"),
                        help="PostgreSQL server: the run creates a database there and drops "
                        "it afterwards (BENCH_DATABASE_URL, default the local server)")
    parser.add_argument("--workdir", help="keep the bot logs here")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    return asyncio.run(amain(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
