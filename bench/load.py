"""The real bot under load: N concurrent tables of simulated people against the fake Discord.

The bot runs in its own process (``bench.botproc``: ``create_bot(Settings(discord_token=
"fake-token", database_path=<temp file>, ai_delay=0, turn_seconds=0, dev_guild_id=...))``);
this process serves the fake Discord and plays. Per N (``--tables 10,100,500``):

1. setup — N channels, each with its own human players; every table is opened the way
   people do it: ``/<game> new``, **Join** clicks, **Start**. Tables are spread round-robin
   over the games the bot registered (``bot.tables.uis``); players per table: ``--players``.
2. play — all tables at once, each player acting as fast as the game allows: when the board
   names them under "To act" they press **Take my turn** and click through the ephemeral
   panel (random legal choices) until the move is confirmed (``--mode panel``, the default;
   that is what the board offers). ``--mode slash`` types ``/<game> move`` instead and picks
   one of the autocomplete suggestions. Every table stops after ``--moves`` confirmed moves
   (a finished game is followed by a new one) or at ``--duration`` seconds.
3. limits — the same for ``--limits-seconds`` without a move cap, the windows started
   afresh (``--per-route`` requests per ``--per-seconds`` per route and channel, and
   ``--global-per-second``); reports the 429 answers per route and global.

The fake enforces Discord's rate limits throughout, as in every test (5 requests per 5 s
per route and channel, 50/s global); ``--no-rate-limits`` turns them off for setup and play
to measure the bot's own capacity.

``--closed-dms`` (0.1) of the players have closed DMs: the bot's DMs to them are refused
with 403, which Discord counts as invalid requests (401, 403, 429; a bot is banned past
10,000 in 10 minutes); they are counted per 1,000 moves and per closed-DM player.

Figures: time from INTERACTION_CREATE to the interaction callback (the fake's
``ack_latencies``: p50/p99/max, and per kind of click), REST calls per confirmed move split
into public (guild channel), private (DM channel + DM creation) and interaction replies,
the bot's RSS growth per table, and CPU use of both processes. Goals: p99 ack < 50 ms at
500 tables; ≤ 2 public calls per move plus one private call per player whose private view
changed (a DM message is only sent for a changed view, so: no private calls beyond the DM
messages themselves); no 429 under the fake's limits.

    python -m bench.load                           # 10, 100 and 500 tables, 10 moves each
    python -m bench.load --tables 1000 --moves 20 --limits-seconds 60
    python -m bench.load --tables 500 --think 10   # people who take ~10 s per move
    python -m bench.load --tables 100 --profile sample   # where the bot's time goes
    python -m bench.load --tables 100 --pictures on,off  # what pictures add per move
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import os
import random
import re
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench import (
    GcWatch,
    cpu_pressure,
    fmt,
    gc_summary,
    listen_overflows,
    load_average,
    machine,
    median,
    player_counts,
    print_table,
    schedstat,
    verdict,
    wait_for_quiet,
    write_json,
)
from bench.cpuquota import CpuQuota, quota_summary
from bench.harness import (
    BotGroup,
    BotProcess,
    TableSim,
    TableSpec,
    ack_legs,
    ack_timeline,
    build_world_across,
    fresh_files,
    fresh_postgres,
    guilds_on_shards,
    invalid_requests,
    latency_summary,
    opening_and_steady,
    print_profile,
    settle,
    split_calls,
)
from bot.launcher import DEFAULT_BUDGET

GOAL_P99_MS = 50.0
GOAL_PUBLIC_PER_MOVE = 2.0


def table_specs(uis: dict[str, str], n: int, players: str, games: str | None) -> list[TableSpec]:
    from engines import ENGINES

    names = sorted(uis)
    if games:
        wanted = [g.strip() for g in games.split(",") if g.strip()]
        missing = [g for g in wanted if g not in uis]
        if missing:
            raise SystemExit(f"game(s) {missing} have no cog in the bot; it has {names}")
        names = wanted
    if not names:
        raise SystemExit("the bot registered no game UI (bot.tables.uis is empty)")
    specs = []
    for i in range(n):
        name = names[i % len(names)]
        specs.append(TableSpec(name, uis[name], player_counts(ENGINES[name], players)[0]))
    return specs


async def gather_sims(sims: list[TableSim], make) -> Counter:
    """Run `make(sim)` for every table; count exceptions by type and first words."""
    failures: Counter = Counter()
    results = await asyncio.gather(*(make(sim) for sim in sims), return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            text = re.sub(r"\d+", "N", str(result).replace("\n", " "))
            failures[f"{type(result).__name__}: {text[:110]}"] += 1
    return failures


def repeated_dms(fake, sims, since: float) -> int:
    """DMs sent during the phase whose text equals the DM before it to the same player: a
    DM should only go out when the private view changed."""
    repeats = 0
    for sim in sims:
        for user in sim.users:
            texts = [m.text for m in fake.dms(user) if m.created >= since]
            repeats += sum(a == b for a, b in itertools.pairwise(texts))
    return repeats


async def watch_loop_lag(into: list[float], period: float = 0.005) -> None:
    """How late a short sleep wakes up in this process, appended to `into` (seconds)."""
    while True:
        start = time.monotonic()
        await asyncio.sleep(period)
        into.append(time.monotonic() - start - period)


def pair(summary: dict[str, float]) -> str:
    return f"{fmt(summary['p50_ms'])} / {fmt(summary['p99_ms'])}"


def count_closed_dm_notes(fake, sims: list[TableSim]) -> int:
    """Channel messages telling a player their DMs are closed (`--closed-dms`)."""
    return sum(1 for sim in sims
               for place in (sim.channel, *fake.threads_of(sim.channel))
               for m in fake.channel_messages(place) if "direct messages" in m.content)


def invalid_summary(result: dict[str, Any], sims: list[TableSim]) -> dict[str, Any]:
    """Invalid requests (401/403/429: Discord bans a bot past 10,000 in 10 minutes) over
    setup and play, per 1,000 confirmed moves and per player with closed DMs. Each such
    player's table plays one game (or the start of one) in these phases, and they click
    their own turns: every click of theirs allows the bot one more DM try."""
    by_route = result["setup"]["invalid"] + result["play"]["invalid"]
    total = sum(by_route.values())
    moves = result["play"]["moves"]
    closed = sum(1 for sim in sims for user in sim.users if not user.dm_open)
    return {"total": total, "by_route": by_route, "closed_players": closed,
            "per_1000_moves": total * 1000 / moves if moves else float("nan"),
            "per_closed_player": total / closed if closed else float("nan")}


def phase_latencies(sims: list[TableSim]) -> dict[str, list[float]]:
    merged: dict[str, list[float]] = {}
    for sim in sims:
        for kind, values in sim.latencies.items():
            merged.setdefault(kind, []).extend(values)
    return merged


def stuck_report(sims: list[TableSim]) -> dict[str, int]:
    """Tables whose board did not move on within the players' patience (--timeout), and how
    many of those boards had moved on once the bot's queue was drained: a board that was
    only late (a backlog) rather than lost (a bug)."""
    stuck = [s for s in sims if s.stuck_at is not None]
    caught_up = 0
    for sim in stuck:
        version, actors, over = sim.board_state()
        caught_up += bool(over or (version > sim.stuck_at and actors))
    return {"tables": len(stuck), "caught_up_after_drain": caught_up}


def reset(sims: list[TableSim]) -> None:
    for sim in sims:
        sim.no_answer.clear()
        sim.latencies.clear()
        sim.interaction_ids.clear()
        sim.errors.clear()
        sim.stuck_at = None


Setup = tuple[str, int, str]  # database, processes, WEBHOOK_DELIVERIES (auto/always/never)
# earlier names of the deliveries: the token path whenever possible, or the channel only
DELIVERY_ALIASES = {"webhook": "always", "channel": "never"}


def parse_setups(text: str) -> list[Setup]:
    """"sqlite:1,sqlite:1:never,postgresql:2" -> [("sqlite", 1, "auto"),
    ("sqlite", 1, "never"), ("postgresql", 2, "auto")]: the third part is the bot's
    WEBHOOK_DELIVERIES (auto as deployed; `webhook`/`channel` mean always/never)."""
    setups = []
    for item in text.split(","):
        parts = item.strip().split(":")
        database, processes, deliveries = [*parts, *("1", "auto")[len(parts) - 1:]][:3]
        deliveries = DELIVERY_ALIASES.get(deliveries, deliveries)
        if (database not in ("sqlite", "postgresql") or not processes.isdigit()
                or deliveries not in ("auto", "always", "never")):
            raise SystemExit(f"--setups: {item!r} is not database:N[:auto|always|never]")
        if database == "sqlite" and int(processes) != 1:
            raise SystemExit("--setups: SQLite runs one process (one owner per file)")
        setups.append((database, int(processes), deliveries))
    return setups


def setup_label(database: str, processes: int, deliveries: str) -> str:
    name = "SQLite" if database == "sqlite" else "PostgreSQL"
    return f"{name} × {processes}" + ("" if deliveries == "auto" else f", {deliveries}")


def bot_schedstat(bot) -> tuple[float, ...]:
    """schedstat summed over the bot's processes."""
    return tuple(map(sum, zip(*(schedstat(pid) for pid in bot.pids), strict=True)))


async def run_one(n: int, args, workdir: Path, synchronous: str,
                  setup: Setup = ("sqlite", 1, "auto"), rep: int = 1,
                  pictures: bool = True) -> dict[str, Any]:
    from fakediscord import FakeDiscord

    database, processes, deliveries = setup
    fake = await FakeDiscord(timeout=args.timeout,
                             rate_limits=not args.no_rate_limits).start()
    fake.keep_uploads = False  # thousands of pictures: keep names and sizes, not bytes
    guilds = guilds_on_shards(fake, processes) if processes > 1 else [fake.add_guild("Bench Club")]
    name = (f"{n}-{database}{processes}-{deliveries}-{synchronous.lower()}-{rep}"
            + ("" if pictures else "-text"))
    profile_out = workdir / f"profile-{name}.out"
    db, log = fresh_files(workdir / f"load-{name}.db", workdir / f"bot-{name}.log")
    stack = contextlib.AsyncExitStack()
    target: Path | str = db
    if database == "postgresql":
        target = await stack.enter_async_context(fresh_postgres(args.pg_url))
    extra = [*(args.bot_args.split() if args.bot_args else []), "--synchronous", synchronous,
             "--webhook-deliveries", deliveries, *([] if pictures else ["--no-pictures"])]
    if processes > 1 and "--rest-budget" not in extra:
        # as the launcher does: Discord's global limit is the bot's, so each process gets
        # its share of REST_REQUESTS_PER_SECOND
        extra += ["--rest-budget", str(max(1, DEFAULT_BUDGET // processes))]
    quotas = [CpuQuota(f"bench-load-{os.getpid()}-{name}-{i}", args.cpu_quota,
                       args.cpu_weight).create()
              for i in range(processes)] if args.cpu_quota else []
    bots = [BotProcess(fake.port, target, guilds[i].id,
                       log if processes == 1 else log.with_name(f"bot-{name}-{i}.log"),
                       profile=args.profile if i == 0 else None, profile_out=profile_out,
                       trace=not args.no_trace,
                       extra_args=extra + (["--shard-count", str(processes), "--shard-ids",
                                            str(i)] if processes > 1 else []),
                       quota=quotas[i] if quotas else None)
            for i in range(processes)]
    bot = bots[0] if processes == 1 else BotGroup(bots)
    result: dict[str, Any] = {"tables": n, "synchronous": synchronous, "database": database,
                              "processes": processes, "deliveries": deliveries,
                              "label": (f"{n}" if args.setups == "sqlite:1"
                                        else f"{n}, {setup_label(*setup)}")
                              + ("" if "," not in args.pictures
                                 else ", pictures" if pictures else ", text only")
                              + (f" (run {rep})" if args.repeat > 1 else ""),
                              "pictures": pictures,
                              "rep": rep, "cpu_quota": args.cpu_quota,
                              "load": [load_average()], "pressure": [cpu_pressure()]}
    try:
        ready = await bot.start()
        specs = table_specs(ready["uis"], n, args.players, args.games)
        # the guilds exist; add the channels and players now (the bot hears CHANNEL_CREATE)
        seats = build_world_across(fake, specs, guilds, closed_dms=args.closed_dms)
        await fake.settle(timeout=60)
        rng = random.Random(args.seed)
        sims = [TableSim(fake, spec, channel, users, random.Random(rng.random()),
                         mode=args.mode, poll=args.poll, think=args.think)
                for spec, (channel, users) in zip(specs, seats, strict=True)]
        rss_base = bot.rss()
        result.update(games=Counter(s.game for s in specs),
                      players=Counter(s.players for s in specs))
        where = (f"SQLite synchronous={synchronous}" if database == "sqlite"
                 else f"PostgreSQL, {processes} process(es)") + (
                     f", WEBHOOK_DELIVERIES={deliveries}")
        print(f"\n## {n} tables ({where}): {dict(result['games'])}, "
              f"players per table {dict(result['players'])}", flush=True)

        # ---- setup
        semaphore = asyncio.Semaphore(args.open_concurrency or n)

        async def open_table(sim: TableSim) -> None:
            async with semaphore:
                await sim.open(args.timeout)

        t0 = time.monotonic()
        mark = setup_mark = fake.mark()
        setup_failures = await gather_sims(sims, open_table)
        # every board and first DM delivered (with the request budget on, that can take a
        # while after the last Start click): play must not start on a backlog
        drained = await bot.wait_idle(timeout=900)
        await settle(fake, quiet=0.5, timeout=300)
        setup_s = time.monotonic() - t0
        lobby = phase_latencies(sims).get("lobby", [])
        result["setup"] = {"seconds": setup_s, "failures": setup_failures,
                           "ack": latency_summary(lobby, sum(s.no_answer["lobby"]
                                                             for s in sims)),
                           "calls": split_calls(fake, mark)["counts"]}
        print(f"  setup: {n - sum(setup_failures.values())}/{n} tables started and delivered "
              f"in {setup_s:.1f}s{'' if drained else ' (NOT drained after 900 s)'}, lobby "
              f"clicks p99 {result['setup']['ack']['p99_ms']:.0f} ms", flush=True)
        if setup_failures:
            print(f"  setup failures: {dict(setup_failures.most_common(5))}")
        live = [s for s in sims if s.board is not None]
        result["setup"]["invalid"] = invalid_requests(fake, setup_mark)
        reset(sims)
        # This process (the fake Discord, its record of every message and call, and 2,000
        # players) holds millions of objects after setup; its full garbage collections
        # would stall the fake mid-phase and be counted in the bot's acknowledgement times.
        gc.collect()
        gc.freeze()
        driver_gc = GcWatch().start()

        # ---- play
        await bot.trace_reset()
        await bot.profiling(True)
        if args.quiet_wait:
            wait_for_quiet(args.quiet_wait)
        cpu_bot, cpu_me = bot.cpu_seconds(), time.process_time()
        cpu_worker = bot.children_cpu_seconds()
        quota_before = [q.usage() for q in quotas]
        sched_bot, sched_me = bot_schedstat(bot), schedstat()
        pressure_before = cpu_pressure()
        overflows_before = listen_overflows()
        ack_mark, mark = len(fake.ack_latencies), fake.mark()
        late_mark = len(fake.late_acks)
        moves_before = sum(s.moves for s in live)
        t0 = time.monotonic()
        deadline = t0 + args.duration
        # this process (the fake Discord and every player) is half of each ack's path
        fake_lag: list[float] = []
        lag_watch = asyncio.create_task(watch_loop_lag(fake_lag))
        failures = await gather_sims(live, lambda s: s.play(
            moves=args.moves, deadline=deadline, timeout=args.timeout))
        play_s = time.monotonic() - t0
        lag_watch.cancel()
        driver_gc.stop()
        # the calls a phase's moves cause include the deliveries still queued at its end
        await bot.wait_idle(timeout=900)
        await settle(fake, quiet=0.3, timeout=120)
        settle_s = time.monotonic() - t0
        quota_after = [q.usage() for q in quotas]
        await bot.profiling(False)
        trace = await bot.trace_dump()
        moves = sum(s.moves for s in live) - moves_before
        calls = split_calls(fake, mark)
        acks = fake.ack_latencies[ack_mark:]
        late = len(fake.late_acks) - late_mark
        never = sum(sum(s.no_answer.values()) for s in live) - late
        kinds = phase_latencies(live)
        rss_after = bot.rss()
        dm_posts = sum(count for route, count in calls["routes"]["private"].items()
                       if route.startswith("POST /channels/"))
        per_move = {k: calls["counts"][k] / moves if moves else float("nan")
                    for k in ("public", "private", "interaction", "other")}
        upload_kb = {k: calls["uploads"][k] / 1000 / moves if moves else float("nan")
                     for k in ("public", "private", "interaction")}
        result["play"] = {
            "seconds": play_s, "settle_seconds": settle_s, "moves": moves,
            "moves_per_s": moves / play_s if play_s else 0.0,
            "ack": latency_summary(acks, late + max(never, 0)),
            "by_kind": {k: latency_summary(v, sum(s.no_answer[k] for s in live))
                        for k, v in kinds.items()},
            "late_acks": late, "never_acked": max(never, 0), "calls": calls["counts"],
            "routes": {k: dict(v) for k, v in calls["routes"].items()},
            "statuses": dict(calls["statuses"]), "per_move": per_move,
            "picture_kb_per_move": upload_kb,
            "dm_posts_per_move": dm_posts / moves if moves else float("nan"),
            "dm_repeats": repeated_dms(fake, live, since=t0),
            "extra_private_per_move": (calls["counts"]["private"] - dm_posts) / moves
            if moves else float("nan"),
            "bot_cpu": (bot.cpu_seconds() - cpu_bot) / settle_s,
            "bot_runqueue_wait": (bot_schedstat(bot)[1] - sched_bot[1]) / settle_s,
            "driver_runqueue_wait": (schedstat()[1] - sched_me[1]) / settle_s,
            "cpu_pressure": f"{pressure_before} → {cpu_pressure()}",
            "listen_overflows": listen_overflows() - overflows_before,
            "bot_cpu_ms_per_move": (bot.cpu_seconds() - cpu_bot) * 1e3 / moves
            if moves else float("nan"),
            # the picture worker (a child of the bot), which bot_cpu does not count
            "worker_cpu_ms_per_move": (bot.children_cpu_seconds() - cpu_worker) * 1e3 / moves
            if moves else float("nan"),
            "driver_cpu": (time.process_time() - cpu_me) / settle_s,
            "errors": sum((s.errors for s in live), Counter()), "failures": failures,
            "rss_base": rss_base, "rss_after": rss_after,
            "rss_per_table_kb": (rss_after - rss_base) / n / 1024,
            "split": opening_and_steady(fake, live, t0, t0 + play_s),
            "driver_gc": gc_summary(driver_gc.pauses),
            "stuck": stuck_report(live),
            "invalid": invalid_requests(fake, mark),
        }
        if quotas:
            result["play"]["quota"] = quota_report(quota_before, quota_after,
                                                   args.cpu_quota, moves)
        result["invalid"] = invalid_summary(result, live)
        if trace:
            ids: dict[str, list[int]] = {}
            for sim in live:
                for kind, values in sim.interaction_ids.items():
                    ids.setdefault(kind, []).extend(values)
            every = [i for values in ids.values() for i in values]
            result["play"]["legs"] = {leg: latency_summary(v) for leg, v in
                                      ack_legs(fake, trace, every).items()}
            result["play"]["legs_by_kind"] = {
                kind: {leg: latency_summary(v) for leg, v in ack_legs(fake, trace, i).items()}
                for kind, i in ids.items()}
            result["play"]["timeline"] = ack_timeline(fake, trace, ids, t0)
            result["play"]["loop_lag"] = latency_summary(trace["loop_lag"])
            result["play"]["fake_loop_lag"] = latency_summary(fake_lag)
            result["play"]["storage"] = {k: latency_summary(v)
                                         for k, v in trace["storage"].items()}
            result["play"]["gc"] = gc_summary(trace.get("gc_pauses", []))
            result["play"]["stalls"] = trace.get("stalls", [])
        p = result["play"]
        print(f"  play: {moves} moves in {play_s:.1f}s ({p['moves_per_s']:.0f}/s), ack p50 "
              f"{p['ack']['p50_ms']:.1f} ms p99 {p['ack']['p99_ms']:.1f} ms max "
              f"{p['ack']['max_ms']:.0f} ms ({late} acknowledged after 3 s); per move: "
              f"public {per_move['public']:.2f}, "
              f"private {per_move['private']:.2f} ({p['dm_repeats']} DMs repeating the one "
              f"before); picture KB per move: public {upload_kb['public']:.1f}, private "
              f"{upload_kb['private']:.1f}, interaction {upload_kb['interaction']:.1f}; bot CPU {p['bot_cpu']:.0%}, bot waiting "
              f"for a CPU {p['bot_runqueue_wait']:.0%} of the time, CPU pressure "
              f"{p['cpu_pressure']}, TCP accept-queue overflows {p['listen_overflows']}",
              flush=True)
        print(f"  fake+players: {p['driver_gc']['collections']} garbage collections, "
              f"longest {p['driver_gc']['max_ms']:.0f} ms; event loop late by up to "
              f"{max(fake_lag, default=0.0) * 1e3:.0f} ms", flush=True)
        inv = result["invalid"]
        print(f"  invalid requests (401/403/429) in setup + play: {inv['total']} "
              f"({fmt(inv['per_1000_moves'])} per 1,000 moves; {inv['closed_players']} players "
              f"with closed DMs, {fmt(inv['per_closed_player'])} each): "
              f"{dict(inv['by_route'])}", flush=True)
        if quotas:
            print(f"  CPU quota {args.cpu_quota:g} CPU per bot process: "
                  f"{quota_line(p['quota'])}; fake+players CPU {p['driver_cpu']:.0%}, waiting "
                  f"for a CPU {p['driver_runqueue_wait']:.0%} of the phase", flush=True)
        if p["stuck"]["tables"]:
            print(f"  boards that did not move on within {args.timeout:g} s: "
                  f"{p['stuck']['tables']} table(s), of which "
                  f"{p['stuck']['caught_up_after_drain']} had moved on once the bot's queue "
                  "was drained", flush=True)
        if p["errors"] or failures:
            print(f"  refusals/errors: {dict(p['errors'].most_common(5))} "
                  f"{dict(failures.most_common(5))}")

        # ---- limits
        if args.limits_seconds > 0:
            reset(live)
            before = fake.rate_limit_stats
            per_route_before, global_before = Counter(before.per_route), before.global_
            fake.enforce_rate_limits(args.per_route, args.per_seconds, args.global_per_second)
            ack_mark, mark = len(fake.ack_latencies), fake.mark()
            late_mark = len(fake.late_acks)
            moves_before = sum(s.moves for s in live)
            closed_dm_notes = count_closed_dm_notes(fake, live)
            t0 = time.monotonic()
            failures = await gather_sims(live, lambda s: s.play(
                moves=10**9, deadline=t0 + args.limits_seconds, timeout=args.timeout))
            limit_s = time.monotonic() - t0
            drained = await settle(fake, quiet=0.5, timeout=max(60.0, args.limits_seconds))
            drain_s = time.monotonic() - t0 - limit_s
            stats = fake.rate_limit_stats
            per_route = Counter(stats.per_route) - per_route_before
            moves = sum(s.moves for s in live) - moves_before
            calls = split_calls(fake, mark)
            result["limits"] = {
                "seconds": limit_s, "drain_seconds": drain_s, "drained": drained,
                "moves": moves, "moves_per_s": moves / limit_s if limit_s else 0.0,
                "per_route_429": dict(per_route), "global_429": stats.global_ - global_before,
                "total_429": sum(per_route.values()) + stats.global_ - global_before,
                "ack": latency_summary(fake.ack_latencies[ack_mark:],
                                       len(fake.late_acks) - late_mark),
                "calls": calls["counts"],
                "rest_per_s": sum(v for k, v in calls["counts"].items()
                                  if k != "interaction") / (limit_s + drain_s),
                "errors": sum((s.errors for s in live), Counter()), "failures": failures,
                "limits": (args.per_route, args.per_seconds, args.global_per_second),
                "closed_dm_notes": count_closed_dm_notes(fake, live) - closed_dm_notes,
                "invalid": invalid_requests(fake, mark),
                "board_posts": board_posts(fake, mark),
            }
            if args.no_rate_limits:
                fake.disable_rate_limits()
            else:  # back to Discord's documented shape for the next size
                fake.enforce_rate_limits()
            q = result["limits"]
            print(f"  limits: {moves} moves in {limit_s:.0f}s ({q['moves_per_s']:.1f}/s), "
                  f"429s: {q['total_429']} (global {q['global_429']}, per route "
                  f"{dict(per_route)}), drained after {drain_s:.1f}s; \"can't DM you\" notes "
                  f"posted: {q['closed_dm_notes']}; invalid requests (401/403/429): "
                  f"{sum(q['invalid'].values())} ({dict(q['invalid'])})", flush=True)
        result["bot_stats"] = stats = await bot.stats()
        print(f"  bot heap after the run: {stats['gc_objects']:,} objects tracked by the GC "
              f"(a full collection took {stats['full_gc_seconds'] * 1e3:.0f} ms), "
              f"{stats['cached_messages']} cached messages, {stats['tasks']} asyncio tasks "
              f"(most: {stats['task_kinds'][:3]}); {stats.get('rate_limit_buckets')} "
              f"discord.py rate-limit buckets, walked {stats.get('bucket_walks')} times "
              "for idle ones", flush=True)
        problems = bot.log_problems()
        result["bot_log_problems"] = len(problems)
        result["bot_log_problem_lines"] = problems[:40]
        if problems:
            print(f"  the bot logged {len(problems)} error line(s), first: {problems[0][:160]}")
        # expected under load, one WARNING line each: answers too late for Discord, and
        # deliveries retried (the first 10 a minute; the rest in a summary line a minute)
        result["bot_log_expired"] = bot.log_count("expired before the bot's answer")
        result["bot_log_delivery_failed"] = bot.log_count("delivery failed")
        print(f"  the bot logged {result['bot_log_expired']} interaction(s) expired before "
              f"its answer and {result['bot_log_delivery_failed']} 'delivery failed' "
              "line(s)", flush=True)
    finally:
        await bot.stop()
        await fake.stop()
        await stack.aclose()
        for quota in quotas:
            try:
                quota.remove()
            except OSError as exc:
                print(f"  (could not remove cgroup {quota.name}: {exc})")
        result["load"].append(load_average())
        result["pressure"].append(cpu_pressure())
        print(f"  load average (1/5/15 min) before → after: {result['load'][0]} → "
              f"{result['load'][1]}; CPU pressure {result['pressure'][0]} → "
              f"{result['pressure'][1]}", flush=True)
    if args.profile:
        print(f"\n## Profile of the bot process during the play phase, {n} tables")
        moves = result.get("play", {}).get("moves") or 0
        print_profile(args.profile, profile_out, args.top,
                      per=("move", moves) if moves else None)
    return result


def durability_report(results: list[dict[str, Any]]) -> None:
    """What synchronous=FULL (a confirmed move survives power loss) costs against NORMAL."""
    runs = [r for r in results if r.get("play")]
    if len({r["synchronous"] for r in runs}) < 2:
        return
    print("\n## Durability: SQLite synchronous=FULL against NORMAL (play phase)\n")

    def storage(r: dict[str, Any], key: str) -> str:
        s = r["play"].get("storage", {}).get(key)
        return pair(s) if s else "—"

    print_table(["tables", "synchronous", "moves", "moves/s", "save_table p50 / p99 ms",
                 "sqlite trip p50 / p99 ms", "ack p50 ms", "ack p99 ms", "bot CPU ms/move"],
                [[r["label"], r["synchronous"], r["play"]["moves"], r["play"]["moves_per_s"],
                  storage(r, "save_table"), storage(r, "sqlite trip"),
                  r["play"]["ack"]["p50_ms"], r["play"]["ack"]["p99_ms"],
                  r["play"]["bot_cpu_ms_per_move"]] for r in runs], digits=2)
    print("\nsave_table: one awaited save (a move is confirmed only after it); sqlite trip: "
          "one statement through aiosqlite's thread (with FULL a commit waits for fsync of "
          "the WAL). Runs of one size follow each other on the same machine.")


def quota_report(before, after, cpus: float, moves: int) -> dict[str, Any]:
    """The bot processes' cgroup accounts over a phase: CPU (with picture workers), the
    share of each quota used and of the phase spent throttled."""
    each = [quota_summary(b, a, cpus) for b, a in zip(before, after, strict=True)]
    cpu = sum(e["cpu_seconds"] for e in each)
    return {"cpus": cpus, "each": each, "cpu_seconds": cpu,
            "quota_used": [e["quota_used"] for e in each],
            "throttled": [e["throttled"] for e in each],
            "cpu_ms_per_move": cpu * 1e3 / moves if moves else float("nan")}


def quota_line(q: dict[str, Any]) -> str:
    used = ", ".join(f"{u:.0%}" for u in q["quota_used"])
    held = ", ".join(f"{t:.0%}" for t in q["throttled"])
    return (f"quota used {used}, throttled in {held} of its periods; "
            f"{q['cpu_ms_per_move']:.1f} ms of bot CPU (picture workers included) per move")


def spread(values: list[float], digits: int = 1) -> str:
    """median [min–max] of the repetitions (just the value for one)."""
    if len(values) == 1:
        return f"{values[0]:,.{digits}f}"
    return (f"{median(values):,.{digits}f} [{min(values):,.{digits}f}–"
            f"{max(values):,.{digits}f}]")


def capacity_report(results: list[dict[str, Any]], args) -> None:
    """Each setup's repetitions together: moves/s in all and per bot process, against one
    process of the same size, with what every process had (its CPU quota) and what the
    fake and players used, so that a gain or its absence can be told apart from CPU
    starvation of either side."""
    runs = [r for r in results if r.get("play")]
    if args.repeat == 1 and not args.cpu_quota:
        return
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for r in runs:
        key = (r["tables"], r["database"], r["processes"], r["deliveries"], r["synchronous"])
        groups.setdefault(key, []).append(r)
    quota = f"{args.cpu_quota:g} CPU per bot process" if args.cpu_quota else "no CPU quota"
    print(f"\n## Capacity per process, {quota}, {args.repeat} run(s) of each, interleaved "
          "(median [min–max])\n")
    rows = []
    for key, rs in groups.items():
        n, database, processes, deliveries, _ = key
        rates = [r["play"]["moves_per_s"] for r in rs]
        one = [g for k, g in groups.items() if k[0] == n and k[2] == 1]
        ratio = (median(rates) / median(x["play"]["moves_per_s"] for x in one[0])
                 if one else float("nan"))
        quotas = [r["play"].get("quota") for r in rs]
        cpu_ms = [q["cpu_ms_per_move"] if q else r["play"]["bot_cpu_ms_per_move"]
                  for q, r in zip(quotas, rs, strict=True)]
        used = [u for q in quotas if q for u in q["quota_used"]]
        held = [t for q in quotas if q for t in q["throttled"]]
        opening = [r["play"]["split"]["opening"]["p99_ms"] for r in rs]
        rows.append([setup_label(database, processes, deliveries) + f", {n} tables",
                     spread(rates), spread([x / processes for x in rates]), f"{ratio:.2f}×",
                     spread(cpu_ms, 2), spread([1e3 / x for x in cpu_ms]),
                     spread([x * 100 for x in used], 0) + " %" if used else "—",
                     spread([x * 100 for x in held], 0) + " %" if held else "—",
                     spread([r["play"]["driver_cpu"] * 100 for r in rs], 0) + " %",
                     spread([r["play"]["driver_runqueue_wait"] * 100 for r in rs], 0) + " %",
                     spread([r["play"]["ack"]["p99_ms"] for r in rs], 0),
                     spread(opening, 0),
                     sum(r["play"]["late_acks"] for r in rs),
                     " / ".join(f"{r['load'][0]} → {r['load'][1]}" for r in rs)])
    print_table(["setup", "moves/s", "per process", "× 1 process", "bot CPU ms/move",
                 "moves per bot CPU-s", "quota used", "throttled", "fake+players CPU",
                 "fake+players waiting for a CPU", "ack p99 ms", "opening p99 ms",
                 "acks > 3 s", "load before → after"], rows)
    print("\nbot CPU: the bot processes' CPU time (with their picture workers when under a "
          "quota: the cgroup's account) per confirmed move of the play phase; quota used: "
          "each process's CPU time over the phase / its quota (every process listed); "
          "throttled: share of a process's 100 ms quota periods in which it spent its quota "
          "and was held back. "
          "A quota'd process that needs more than its quota shows ~100 % used: it had its "
          "CPU, whatever else ran. fake+players: this process, which must not be starved "
          "for the comparison to hold (its waiting share is time runnable without a CPU).")


def report(results: list[dict[str, Any]], args) -> None:
    limits = "no rate limits" if args.no_rate_limits else "under Discord's rate limits"
    print(f"\n## Play phase ({limits}): acknowledgement latency and REST calls per move\n")
    rows = []
    for r in results:
        p = r.get("play")
        if not p:
            continue
        rows.append([r["label"], p["moves"], p["moves_per_s"], p["ack"]["p50_ms"],
                     p["ack"]["p99_ms"], p["ack"]["max_ms"], p["late_acks"],
                     verdict(p["ack"]["p99_ms"] < GOAL_P99_MS),
                     p["per_move"]["public"], verdict(p["per_move"]["public"]
                                                      <= GOAL_PUBLIC_PER_MOVE),
                     p["per_move"]["private"], p["dm_posts_per_move"],
                     p["extra_private_per_move"], p["per_move"]["interaction"],
                     p["rss_per_table_kb"], p["bot_cpu_ms_per_move"], f"{p['bot_cpu']:.0%}",
                     f"{p['bot_runqueue_wait']:.0%}", f"{p['driver_cpu']:.0%}"])
    print_table(["tables", "moves", "moves/s", "ack p50 ms", "ack p99 ms", "ack max ms",
                 "acks > 3 s", f"p99 < {GOAL_P99_MS:g} ms", "public/move", "≤ 2", "private/move",
                 "DMs/move", "extra private/move", "interaction/move", "RSS KiB/table",
                 "bot CPU ms/move", "bot CPU", "bot threads waiting for a CPU",
                 "fake+players CPU"], rows, digits=2)
    print("\nack = INTERACTION_CREATE sent by the fake → the bot's callback received (every "
          "interaction of the phase). DMs/move = DM messages posted (one per changed private "
          "view); extra private = private calls beyond those (DM channel creation). CPU = "
          "share of one core over the phase; bot CPU ms/move = the bot process's CPU time "
          "(all its threads) / confirmed moves, which does not depend on how busy the machine "
          "is; bot waiting for CPU = time its threads were runnable but not running (Linux "
          "schedstat), i.e. what other work on the machine cost it.")
    split = [r for r in results if r.get("play", {}).get("split")]
    if split:
        print("\n### The opening burst and the play after it (ack ms)\n")
        print_table(["tables", "opening ms", "opening interactions", "opening p50",
                     "opening p99", "opening max", "after: interactions", "after: p50",
                     "after: p99", "after: max", f"after: p99 < {GOAL_P99_MS:g} ms"],
                    [[r["label"], (q := r["play"]["split"])["opening_seconds"] * 1e3,
                      q["opening"]["n"], q["opening"]["p50_ms"], q["opening"]["p99_ms"],
                      q["opening"]["max_ms"], q["steady"]["n"], q["steady"]["p50_ms"],
                      q["steady"]["p99_ms"], q["steady"]["max_ms"],
                      verdict(q["steady"]["p99_ms"] < GOAL_P99_MS)] for r in split], digits=1)
        print("\nPlay starts with every board showing, so every table's first player clicks "
              "in the same instant: the opening lasts until every table has made its first "
              "move. After it, each table's clicks follow its own board.")
    kinds = sorted({k for r in results if r.get("play") for k in r["play"]["by_kind"]})
    if kinds:
        print("\n### Acknowledgement latency by kind of interaction (p50 / p99 ms)\n")
        print_table(["tables", *kinds],
                    [[r["label"], *(pair(r["play"]["by_kind"][k])
                                     if k in r["play"]["by_kind"] else "—" for k in kinds)]
                     for r in results if r.get("play")])
        print("\nlobby = /new, Join, Start (setup phase); turn = Take my turn; panel = a choice "
              "in the panel; move = the click (or /move) that applies the move.")
    traced = [r for r in results if r.get("play", {}).get("legs")]
    if traced:
        print("\n### Where the acknowledgement time goes (p50 / p99 ms)\n")
        legs = list(traced[0]["play"]["legs"])
        stores = ("save_table", "save_metas", "finish_table", "sqlite trip")
        print_table(["tables", *legs, "fake loop lag", "bot loop lag", *stores],
                    [[r["label"], *(pair(r["play"]["legs"][leg]) for leg in legs),
                      pair(r["play"]["fake_loop_lag"]), pair(r["play"]["loop_lag"]),
                      *(pair(r["play"]["storage"][k]) if k in r["play"]["storage"] else "—"
                        for k in stores)] for r in traced])
        print("\nfake → bot loop: from the fake sending INTERACTION_CREATE to the bot's event "
              "loop reading it off the socket; inside the bot: from there to the bot starting "
              "its callback request (decode, dispatch, handler, lock, SQLite); callback → fake: "
              "until the fake received the callback. fake/bot loop lag: how late a 5 ms sleep "
              "wakes up in this process (fake + players) / in the bot. save_table/save_metas/"
              "finish_table: one awaited storage call (waiting for the write lock included); "
              "sqlite trip: one statement's trip through aiosqlite's thread.")
        for r in traced:
            gc = r["play"]["gc"]
            print(f"\n{r['label']} tables: {gc['collections']} garbage collections in the bot "
                  f"({gc['gen2']} full), {gc['total_ms']:.0f} ms in all, longest "
                  f"{gc['max_ms']:.1f} ms.")
            if r["play"]["stalls"]:
                print(f"{r['label']} tables, where the bot's loop was when it stalled > 50 ms "
                      "(innermost first):")
                for where, count in r["play"]["stalls"][:8]:
                    print(f"  - {count}× {where}")
        for r in traced:
            print(f"\n{r['label']} tables, inside the bot by kind (p50 / p99 ms): " + ", ".join(
                f"{kind} {pair(v['inside the bot'])}"
                for kind, v in sorted(r["play"]["legs_by_kind"].items())))
    if kinds:
        print("\n### Setup phase\n")
        print_table(["tables", "seconds", "lobby p50 ms", "lobby p99 ms", "lobby max ms",
                     "failures"],
                    [[r["label"], r["setup"]["seconds"], r["setup"]["ack"]["p50_ms"],
                      r["setup"]["ack"]["p99_ms"], r["setup"]["ack"]["max_ms"],
                      sum(r["setup"]["failures"].values())] for r in results if r.get("setup")])
    biggest = next((r for r in reversed(results) if r.get("play")), None)
    if biggest:
        print(f"\n### REST calls by route during play, {biggest['tables']} tables "
              f"({biggest['play']['moves']} moves)\n")
        rows = []
        for kind, routes in sorted(biggest["play"]["routes"].items()):
            for route, count in sorted(routes.items(), key=lambda kv: -kv[1]):
                rows.append([kind, route, count, count / max(biggest["play"]["moves"], 1)])
        print_table(["side", "route", "calls", "per move"], rows, digits=2)
    invalid = [r for r in results if r.get("invalid")]
    if invalid:
        print("\n## Invalid requests (401, 403, 429) in setup + play\n")
        print_table(["tables", "moves", "players with closed DMs", "invalid requests",
                     "per 1,000 moves", "per closed-DM player", "by status and route"],
                    [[r["label"], r["play"]["moves"], r["invalid"]["closed_players"],
                      r["invalid"]["total"], r["invalid"]["per_1000_moves"],
                      r["invalid"]["per_closed_player"], dict(r["invalid"]["by_route"])]
                     for r in invalid], digits=2)
        print("\nDiscord bans a bot past 10,000 invalid requests in 10 minutes. After a DM "
              "refused with 403 the bot sends that player no more DMs in that game, however "
              "often they click (goal: at most one per closed-DM player per game).")
    limited = [r for r in results if r.get("limits")]
    if limited:
        lim = limited[0]["limits"]["limits"]
        print(f"\n## Rate-limit phase: the fake enforces {lim[0]} requests / {lim[1]:g} s per "
              f"route and channel, {lim[2]} requests/s global\n")
        print_table(["tables", "seconds", "moves", "moves/s", "REST/s (non-interaction)",
                     "429 per route", "429 global", "no 429", "ack p99 ms", "drained after s"],
                    [[r["label"], r["limits"]["seconds"], r["limits"]["moves"],
                      r["limits"]["moves_per_s"], r["limits"]["rest_per_s"],
                      sum(r["limits"]["per_route_429"].values()), r["limits"]["global_429"],
                      verdict(r["limits"]["total_429"] == 0), r["limits"]["ack"]["p99_ms"],
                      r["limits"]["drain_seconds"]] for r in limited], digits=1)
        for r in limited:
            if r["limits"]["per_route_429"]:
                print(f"- {r['label']} tables, 429 by route: {r['limits']['per_route_429']}")


def board_posts(fake, since: int) -> dict[str, int]:
    """New public messages the bot posted since `since`: as interaction followups (shown
    with a reply header) or through the channel endpoint (plain)."""
    token = channel = 0
    for call in fake.calls[since:]:
        if call.method != "POST" or (call.status or 0) >= 300:
            continue
        if HOOK_POST.fullmatch(call.path):
            token += not int((call.json or {}).get("flags") or 0) & 64
        elif (match := CHANNEL_POST.fullmatch(call.path)) and (
                found := fake.channels.get(int(match[1]))) is not None and found.guild:
            channel += 1
    return {"token": token, "channel": channel}


HOOK_POST = re.compile(r"/webhooks/\d+/[^/]+")
CHANNEL_POST = re.compile(r"/channels/(\d+)/messages")


def webhooks_report(results: list[dict[str, Any]]) -> None:
    """WEBHOOK_DELIVERIES modes side by side: moves per second under Discord's limits."""
    limited = [r for r in results if r.get("limits")]
    if len({r["deliveries"] for r in limited}) < 2:
        return
    print("\n## WEBHOOK_DELIVERIES side by side (limits phase)\n")
    rows = []
    for r in limited:
        base = next((x for x in limited if x["tables"] == r["tables"]
                     and x["deliveries"] == "never" and x["database"] == r["database"]
                     and x["processes"] == r["processes"]), None)
        q, posts = r["limits"], r["limits"]["board_posts"]
        ratio = (q["moves_per_s"] / base["limits"]["moves_per_s"]
                 if base and base["limits"]["moves_per_s"] else float("nan"))
        share = posts["token"] / max(1, posts["token"] + posts["channel"])
        rows.append([r["label"], r["deliveries"], q["moves"], q["moves_per_s"], ratio,
                     f"{posts['token']} / {posts['channel']} ({share:.0%})", q["total_429"],
                     q["ack"]["p99_ms"]])
    print_table(["tables", "mode", "moves", "moves/s", "× never",
                 "posts by token / channel", "429s", "ack p99 ms"], rows, digits=2)


def picture_modes(args) -> list[bool]:
    """--pictures on,off -> [True, False]: each size with pictures, then text only."""
    modes = [m.strip().lower() for m in args.pictures.split(",") if m.strip()]
    if not modes or set(modes) - {"on", "off"}:
        raise SystemExit("--pictures takes on, off or both (on,off)")
    return [m == "on" for m in modes]


def pictures_report(results: list[dict[str, Any]]) -> None:
    """Pictures on against text only, each size's runs one after the other: what pictures
    add per confirmed move in REST calls, upload bytes and CPU (the bot's and its picture
    worker's)."""
    runs = [r for r in results if r.get("play")]
    if len({r["pictures"] for r in runs}) < 2:
        return
    print("\n## Pictures on against text only (play phase)\n")
    rows = []
    for r in runs:
        p = r["play"]
        kb = p["picture_kb_per_move"]
        rows.append([r["label"], p["moves"], p["moves_per_s"], p["ack"]["p50_ms"],
                     p["ack"]["p99_ms"], p["per_move"]["public"], p["per_move"]["private"],
                     p["per_move"]["interaction"], kb["public"], kb["private"],
                     kb["interaction"], kb["public"] + kb["private"] + kb["interaction"],
                     p["bot_cpu_ms_per_move"], p["worker_cpu_ms_per_move"],
                     f"{r['load'][0]} → {r['load'][-1]}"])
    print_table(["tables", "moves", "moves/s", "ack p50 ms", "ack p99 ms", "public/move",
                 "private/move", "interaction/move", "public KB/move", "private KB/move",
                 "interaction KB/move", "KB/move", "bot CPU ms/move",
                 "picture worker CPU ms/move", "load before → after"], rows, digits=2)
    print("\nKB/move: bytes of attached files uploaded per confirmed move (public: board "
          "messages in the channel; private: DMs; interaction: answers to clicks, e.g. My "
          "hand, and boards posted through a click's token, as WEBHOOK_DELIVERIES auto and "
          "always do). Calls per move count every REST request of that kind. The runs of one size "
          "follow each other on the same machine.")


async def run_all(args, sizes: list[int], modes: list[str], setups: list[Setup],
                  results: list[dict[str, Any]]) -> None:
    """Every repetition of every size and setup, interleaved, appended to `results`."""
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        workdir = Path(args.workdir or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        for rep in range(1, args.repeat + 1):
            for n in sizes:
                for setup in setups:
                    for synchronous in (modes if setup[0] == "sqlite" else ["FULL"]):
                        for pictures in picture_modes(args):
                            results.append(await run_one(n, args, workdir, synchronous,
                                                         setup, rep, pictures))


async def amain(args) -> int:
    sizes = [int(x) for x in args.tables.split(",") if x.strip()]
    modes = [m.strip().upper() for m in args.synchronous.split(",") if m.strip()]
    setups = parse_setups(args.setups)
    picture_modes(args)  # refuses a bad --pictures before anything runs
    if not modes or set(modes) - {"FULL", "NORMAL"}:
        raise SystemExit("--synchronous takes FULL, NORMAL or both (FULL,NORMAL)")
    print(f"# bench.load — {machine()}")
    print(f"# mode={args.mode}, {args.moves} moves per table (or {args.duration:g}s), "
          f"players={args.players}, bot in its own process, fake Discord + players here")
    print(f"# pictures: {args.pictures}")
    if args.bot_args:
        print(f"# bot process arguments: {args.bot_args}")
    results: list[dict[str, Any]] = []
    driver = None
    if args.cpu_quota:
        # the fake Discord and the players: no quota, the same weight as each bot process,
        # so that neither side is starved by other work on the machine
        driver = CpuQuota(f"bench-load-{os.getpid()}-driver", None, args.cpu_weight).create()
        driver.add(os.getpid())
        print(f"# each bot process (with its picture worker) in a cgroup v{driver.version} of "
              f"its own: quota {args.cpu_quota:g} CPU, weight {args.cpu_weight:g}× an "
              "ordinary process's; the fake Discord and players: no quota, the same weight")
    try:
        await run_all(args, sizes, modes, setups, results)
    finally:
        if driver is not None:
            driver.leave()
            driver.remove()
    report(results, args)
    capacity_report(results, args)
    durability_report(results)
    pictures_report(results)
    webhooks_report(results)
    if any(r.get("play") for r in results):
        biggest = max((r for r in results if r.get("play")), key=lambda r: r["tables"])
        print(f"\nmedian moves/s across sizes: "
              f"{median(r['play']['moves_per_s'] for r in results if r.get('play')):.0f}; "
              f"largest run: {biggest['tables']} tables")
    write_json(args.json, {"machine": machine(), "args": vars(args), "results": results})
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="10,100,500",
                        help="comma list of concurrent table counts (10,100,500)")
    parser.add_argument("--games", help="comma list of games to use (default: every game the "
                        "bot registered, round-robin)")
    parser.add_argument("--players", default="typical",
                        help="humans per table: typical (4, clamped), min, max or N")
    parser.add_argument("--moves", type=int, default=10,
                        help="confirmed moves per table in the play phase (10)")
    parser.add_argument("--duration", type=float, default=120.0,
                        help="time budget of the play phase in seconds (120)")
    parser.add_argument("--mode", choices=("panel", "slash"), default="panel",
                        help="how players move: the Take my turn panel, or /<game> move")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean pause before each move, seconds (0 = as fast as possible)")
    parser.add_argument("--limits-seconds", type=float, default=20.0,
                        help="length of the rate-limit phase (20; 0 = skip it)")
    parser.add_argument("--closed-dms", type=float, default=0.1,
                        help="share of players whose DMs are closed (0.1): the bot's DM to "
                        "them is refused with 403, an invalid request Discord counts")
    parser.add_argument("--no-rate-limits", action="store_true",
                        help="serve setup and play without Discord's rate limits (the fake "
                        "enforces them by default, as Discord does): the bot's own capacity, "
                        "not what Discord lets it do; the limits phase still enforces them")
    parser.add_argument("--per-route", type=int, default=5)
    parser.add_argument("--per-seconds", type=float, default=5.0)
    parser.add_argument("--global-per-second", type=int, default=50)
    parser.add_argument("--open-concurrency", type=int, default=50,
                        help="tables being opened at the same time in the setup (50; 0 = all "
                        "at once, a burst the bot cannot acknowledge within 3 s at 500)")
    parser.add_argument("--poll", type=float, default=0.02,
                        help="how often a player looks at the board, seconds (0.02)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="how long a player waits for an answer (60)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quiet-wait", type=float, default=0.0,
                        help="before each play phase wait up to this many seconds for CPU "
                        "pressure (10 s) < 15%% (0 = do not wait)")
    parser.add_argument("--profile", choices=("cprofile", "sample"),
                        help="profile the bot process during the play phase")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--bot-args", help="extra arguments for the bot process, e.g. "
                        "\"--switch-interval 0.0005\" (see python -m bench.botproc --help)")
    parser.add_argument("--no-trace", action="store_true",
                        help="do not timestamp interactions inside the bot (on by default: "
                        "it splits the ack time into its legs)")
    parser.add_argument("--pictures", default="on",
                        help="the bot's pictures: on (as deployed), off (text only, the bot's "
                        "--no-pictures) or on,off: each size with both, one after the other, "
                        "with what pictures add per move side by side")
    parser.add_argument("--synchronous", default="FULL",
                        help="SQLite synchronous setting(s) of the bot, a comma list: "
                        "FULL,NORMAL runs each size with both, one after the other, and "
                        "prints what FULL costs per move side by side (default: FULL, as "
                        "deployed)")
    parser.add_argument("--setups", default="sqlite:1",
                        help="database:processes to run each size with, one after the other "
                        "in this invocation (so their figures compare side by side): e.g. "
                        "sqlite:1,sqlite:1:always,sqlite:1:never,postgresql:2 (the third "
                        "part is the bot's WEBHOOK_DELIVERIES: auto, as deployed, always or "
                        "never; 'webhook' and 'channel' mean always and never). postgresql:N "
                        "runs N bot "
                        "processes on N shards (one server per shard, tables dealt round-"
                        "robin), each with 1/N of the request budget, as the launcher does "
                        "(default sqlite:1)")
    parser.add_argument("--pg-url", default=os.environ.get(
                        "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"),
                        help="PostgreSQL server for postgresql setups: each run creates a "
                        "database of its own there and drops it afterwards "
                        "(BENCH_DATABASE_URL, default the local server)")
    parser.add_argument("--cpu-quota", type=float, metavar="CPUS",
                        help="run each bot process (and its picture worker) in a cgroup of "
                        "its own with this many CPUs of quota, e.g. 0.3: equal small "
                        "machines for every process, whatever the number of processes, "
                        "while the fake Discord and players use the rest (Linux, root)")
    parser.add_argument("--cpu-weight", type=float, default=10.0,
                        help="with --cpu-quota: the CPU weight of each bot process's group "
                        "and of this process (the fake and players), in ordinary "
                        "processes (10): other work on the machine cannot take their CPU")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run every size and setup this many times, interleaved, and "
                        "print the median and range of each side by side (1)")
    parser.add_argument("--workdir", help="keep the databases, bot logs and profiles here "
                        "(default: a temporary directory, deleted)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    return asyncio.run(amain(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
