"""The bot side of the bot benchmarks: the real bot in its own process, against a fake Discord.

Started by ``bench.harness.BotProcess`` (not meant to be run by hand)::

    python -m bench.botproc --port PORT --db PATH --guild GUILD_ID [--profile cprofile|sample]

It points discord.py at the fake on 127.0.0.1:PORT, builds the bot with
``bot.app.create_bot(Settings(discord_token="fake-token", database_path=..., ai_delay=0,
turn_seconds=0, dev_guild_id=...))``, starts it, and prints one JSON line per event on stdout
(``ready`` with the registered game UIs, ``stats``, ``stopped``). It reads commands on stdin:
``stats``, ``trace``/``trace-reset`` (with ``--trace``), ``prof-start``/``prof-stop``
(with ``--profile``) and ``stop``. All times are ``time.monotonic()`` (one clock for every process of the
machine), so the parent can measure from the moment it spawned this process.

Running the bot in its own process keeps the fake's own work (and the simulated players) off
the bot's event loop and core, and lets the parent read the bot's RSS and CPU time alone.
"""

from __future__ import annotations

import time

T_START = time.monotonic()  # as early as possible: the interpreter is up, nothing imported

import argparse  # noqa: E402
import asyncio  # noqa: E402
import collections  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import traceback  # noqa: E402

from bench import GcWatch  # noqa: E402


def emit(event: str, **data) -> None:
    sys.stdout.write(json.dumps({"event": event, "t": time.monotonic(), **data}) + "\n")
    sys.stdout.flush()


class Sampler:
    """A py-spy-like sampling profiler: every `interval` s, record the main thread's stack.

    Reports (a) the innermost frame and (b) the innermost frame inside this project (bot/,
    cogs/, engines/) per sample, so both "what the CPU runs" and "which of our calls led
    there" are visible. Idle time shows up as the event loop's `select`.
    """

    def __init__(self, interval: float = 0.002) -> None:
        self.interval = interval
        self.leaf: collections.Counter[str] = collections.Counter()
        self.ours: collections.Counter[str] = collections.Counter()
        self.stacks: collections.Counter[str] = collections.Counter()
        self.samples = 0
        self._stop = threading.Event()
        self._main = threading.main_thread().ident
        self._thread = threading.Thread(target=self._run, name="sampler", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    @staticmethod
    def _where(frame) -> str:
        code = frame.f_code
        path = code.co_filename
        for marker in ("/site-packages/", "/lib/python3"):
            if marker in path:
                path = path.split(marker, 1)[1]
                break
        else:
            path = path.rsplit("/", 2)[-2] + "/" + path.rsplit("/", 1)[-1] if "/" in path \
                else path
        return f"{path}:{code.co_name}"

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            frame = sys._current_frames().get(self._main)
            if frame is None:
                continue
            self.samples += 1
            self.leaf[self._where(frame)] += 1
            chain = []
            ours = None
            f = frame
            while f is not None:
                name = f.f_code.co_filename
                if ours is None and any(f"/{d}/" in name for d in ("bot", "cogs", "engines")) \
                        and "/site-packages/" not in name:
                    ours = self._where(f)
                chain.append(self._where(f))
                f = f.f_back
            self.ours[ours or "(outside bot/cogs/engines)"] += 1
            self.stacks[" <- ".join(chain[:6])] += 1

    def report(self, top: int = 25) -> dict:
        def share(counter):
            return [(k, v, v / max(self.samples, 1)) for k, v in counter.most_common(top)]
        return {"samples": self.samples, "interval": self.interval,
                "leaf": share(self.leaf), "ours": share(self.ours),
                "stacks": share(self.stacks)}


class Profiling:
    """cProfile or the sampler, switched on and off by the parent (`prof-start`/`prof-stop`)
    so that only the measured phase is profiled."""

    def __init__(self, kind: str | None, out: str | None) -> None:
        self.kind, self.out = kind, out
        self.active = None

    def start(self) -> None:
        if self.kind == "cprofile":
            import cProfile

            # CPU time of the event-loop thread, not wall time: the profile then shows what
            # the bot computes, undistorted by waits and by other work on the machine.
            self.active = cProfile.Profile(time.thread_time)
            self.active.enable()
        elif self.kind == "sample":
            self.active = Sampler()
            self.active.start()

    def stop(self) -> None:
        if self.active is None:
            return
        if self.kind == "cprofile":
            self.active.disable()
            self.active.dump_stats(self.out)
        else:
            self.active.stop()
            with open(self.out, "w") as fh:
                json.dump(self.active.report(), fh)
        self.active = None


PROFILING = Profiling(None, None)
# the bot's log level (BENCH_LOG_LEVEL=INFO to see what it did, e.g. in bench.failover)
LOG_LEVEL = os.environ.get("BENCH_LOG_LEVEL", "WARNING")


class Tracer:
    """Cheap timestamps that split an interaction's acknowledgement time into its legs.

    - ``received[id]``: when the bot's event loop took the INTERACTION_CREATE frame off the
      gateway socket (before decoding it);
    - ``callback[id]``: when the bot started its interaction callback request;
    - ``loop_lag``: how late a 5 ms sleep wakes up (event-loop congestion);
    - ``storage``: seconds per ``Storage.save_table`` / ``save_meta`` call (SQLite thread).

    The parent joins these with the fake's dispatch and receipt times (same monotonic clock).
    """

    INTERACTION = re.compile(r'"t": ?"INTERACTION_CREATE".*?"d": ?\{"id": ?"(\d+)"')

    def __init__(self) -> None:
        self.gc = GcWatch()  # started by install()
        self.reset()

    def reset(self) -> None:
        self.received: dict[str, float] = {}
        self.callback: dict[str, float] = {}
        self.loop_lag: list[float] = []
        self.storage: dict[str, list[float]] = collections.defaultdict(list)
        self.gc.pauses.clear()
        self.stalls: collections.Counter[str] = collections.Counter()
        self.stall_seconds: list[float] = []
        self._tick = time.monotonic()

    def _watchdog(self, threshold: float = 0.05) -> None:
        """When the loop has not ticked for `threshold` s, note what the main thread runs."""
        main = threading.main_thread().ident
        reported_for = None
        while True:
            time.sleep(0.01)
            tick = self._tick
            late = time.monotonic() - tick
            if late < threshold or reported_for == tick:
                continue
            reported_for = tick
            frame = sys._current_frames().get(main)
            chain = []
            while frame is not None and len(chain) < 40:
                chain.append(Sampler._where(frame))
                frame = frame.f_back
            ours = [c for c in chain if c.split("/", 1)[0] in ("bot", "cogs", "engines",
                                                               "tables", "ui")]
            key = " <- ".join(chain[:4]) + (f" [ours: {ours[0]}]" if ours else "")
            self.stalls[key] += 1

    def install(self) -> None:
        import discord.gateway
        import discord.webhook.async_ as webhook

        from bot.storage import Storage

        tracer = self
        original_receive = discord.gateway.DiscordWebSocket.received_message

        async def received_message(ws, msg, /):
            if type(msg) is str and "INTERACTION_CREATE" in msg[:80]:
                match = tracer.INTERACTION.search(msg[:300])
                if match:
                    tracer.received[match.group(1)] = time.monotonic()
            return await original_receive(ws, msg)

        discord.gateway.DiscordWebSocket.received_message = received_message
        original_callback = webhook.AsyncWebhookAdapter.create_interaction_response

        def create_interaction_response(adapter, interaction_id, *args, **kwargs):
            tracer.callback[str(interaction_id)] = time.monotonic()
            return original_callback(adapter, interaction_id, *args, **kwargs)

        webhook.AsyncWebhookAdapter.create_interaction_response = create_interaction_response
        import aiosqlite

        # the storage calls as the bot awaits them (write lock included), and each trip
        # through aiosqlite's thread on its own ("sqlite trip")
        for owner, name, label in ((Storage, "save_table", "save_table"),
                                   (Storage, "save_metas", "save_metas"),
                                   (Storage, "finish_table", "finish_table"),
                                   (aiosqlite.Connection, "_execute", "sqlite trip")):
            original = getattr(owner, name)

            def timed(original=original, label=label):
                async def wrapper(*args, **kwargs):
                    start = time.monotonic()
                    try:
                        return await original(*args, **kwargs)
                    finally:
                        tracer.storage[label].append(time.monotonic() - start)
                return wrapper

            setattr(owner, name, timed())
        self.gc.start()
        threading.Thread(target=self._watchdog, name="stall-watchdog", daemon=True).start()

    async def watch_loop(self, period: float = 0.005) -> None:
        while True:
            start = time.monotonic()
            await asyncio.sleep(period)
            self._tick = now = time.monotonic()
            self.loop_lag.append(now - start - period)

    def dump(self) -> dict:
        return {"received": self.received, "callback": self.callback,
                "loop_lag": self.loop_lag, "storage": dict(self.storage),
                "gc_pauses": self.gc.pauses, "stalls": self.stalls.most_common(15)}


TRACER = Tracer()


async def commands(bot) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = (await reader.readline()).decode().strip()
        if not line or line == "stop":
            return
        if line == "stats":
            import gc

            start = time.perf_counter()
            gc.collect()
            full_gc = time.perf_counter() - start
            def kind(task) -> str:
                coro = task.get_coro()
                name = getattr(coro, "__qualname__", "?")
                owner = getattr(getattr(coro, "cr_frame", None), "f_locals", {}).get("self")
                if owner is not None and "timeout" in name:
                    name += f" of {type(owner).__qualname__} (timeout {owner.timeout})"
                return name

            kinds = collections.Counter(kind(t) for t in asyncio.all_tasks())
            emit("stats", live=len(bot.tables.live), tasks=len(asyncio.all_tasks()),
                 task_kinds=kinds.most_common(6),
                 gc_objects=len(gc.get_objects()), full_gc_seconds=full_gc,
                 cached_messages=len(bot.cached_messages),
                 guilds=len(bot.guilds), private_channels=len(bot.private_channels),
                 rate_limit_buckets=len(bot.http._buckets),
                 bucket_walks=getattr(bot.bucket_sweeper, "walks", None))
        elif line == "idle":
            # deliveries still to make, and requests queued for the request budget: a phase
            # of the benchmark should not start while the last one is still draining
            busy = sum(1 for t in bot.tables.live.values()
                       if t.dirty or (t.delivery_task is not None and not t.delivery_task.done()))
            budget = getattr(bot, "request_budget", None)
            # DM channels still being opened (one bot-wide bucket): their DMs follow
            emit("idle", deliveries=busy, budget_waiting=budget.waiting if budget else 0,
                 dm_opens=len(bot.tables.publisher.dm_opens))
        elif line == "trace":
            emit("trace", **TRACER.dump())
        elif line == "trace-reset":
            TRACER.reset()
            emit("trace-reset")
        elif line == "prof-start":
            PROFILING.start()
            emit("prof-started")
        elif line == "prof-stop":
            PROFILING.stop()
            emit("prof-stopped", path=PROFILING.out)


WHAT_IFS = {
    "no-message-events": "the bot does not subscribe to message events (guild_messages and "
                         "dm_messages intents off): Discord stops echoing every board edit, "
                         "turn notice and DM back over the gateway",
    "unstored-views": "views are not kept in discord.py's ViewStore (our components are all "
                      "DynamicItems routed by custom id): no 15-minute timeout task per "
                      "ephemeral panel",
    "no-message-cache": "discord.py keeps no message cache (max_messages=None): with the "
                        "default 1000 cached messages every MESSAGE_UPDATE/DELETE echo scans "
                        "the cache in Python",
}


def apply_what_ifs(names: list[str]) -> None:
    """Diagnostics: emulate a proposed fix without touching bot/ (see WHAT_IFS)."""
    import discord

    unknown = set(names) - set(WHAT_IFS)
    if unknown:
        raise SystemExit(f"unknown --what-if {sorted(unknown)}; known: {sorted(WHAT_IFS)}")
    if "no-message-events" in names:
        original = discord.Intents.default.__func__

        def default(cls):
            intents = original(cls)
            intents.guild_messages = False
            intents.dm_messages = False
            return intents

        discord.Intents.default = classmethod(default)
    if "unstored-views" in names:
        discord.ui.View.is_finished = lambda self: True


async def run(args) -> int:
    t_main = time.monotonic()
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = f"http://127.0.0.1:{args.port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{args.port}/")
    from bot.app import create_bot
    from bot.settings import Settings

    t_imported = time.monotonic()
    what_ifs = [w for w in (args.what_if or "").split(",") if w]
    apply_what_ifs(what_ifs)
    if args.trace:
        TRACER.install()
        TRACER.task = asyncio.create_task(TRACER.watch_loop(), name="loop-lag")
    from bot.backends import is_postgres_url

    database = ({"database_url": args.db} if is_postgres_url(args.db)
                else {"database_path": args.db})
    shards = ({} if args.shard_count is None
              else {"shard_count": args.shard_count, "shard_ids": args.shard_ids})
    settings = Settings(_env_file=None, discord_token="fake-token", **database, **shards,
                        ai_delay=0, ai_hold_seconds=0, turn_seconds=0, dev_guild_id=args.guild,
                        log_level=LOG_LEVEL, pictures=not args.no_pictures,
                        threads=args.threads,
                        **({} if args.command_cooldown is None
                           else {"command_cooldown": args.command_cooldown}),
                        **({} if args.rest_budget is None
                           else {"rest_requests_per_second": args.rest_budget}),
                        **({} if args.synchronous is None
                           else {"sqlite_synchronous": args.synchronous}),
                        **({} if args.webhook_deliveries is None
                           else {"webhook_deliveries": args.webhook_deliveries}))
    t_create = time.monotonic()
    extra = {"max_messages": None} if "no-message-cache" in what_ifs else {}
    # as `python -m bot` builds it (freeze_gc), plus what the diagnostics ask for
    bot = create_bot(settings, guild_ready_timeout=0.05, freeze_gc=True, **extra)
    task = asyncio.create_task(bot.start("fake-token"), name="bot")
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=args.timeout,
                                 return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        if task in done:
            task.result()
        raise TimeoutError(f"bot not ready after {args.timeout}s")
    emit("ready", t_start=T_START, t_main=t_main, t_imported=t_imported, t_create=t_create,
         live=len(bot.tables.live),
         uis={name: ui.command for name, ui in sorted(bot.tables.uis.items())})
    try:
        await commands(bot)
    finally:
        await bot.close()
        try:
            await asyncio.wait_for(task, 10)
        except (asyncio.CancelledError, TimeoutError):
            pass
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.botproc")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True,
                        help="a SQLite file, or a postgresql:// URL (DATABASE_URL)")
    parser.add_argument("--shard-count", type=int, help="SHARD_COUNT (default: unsharded)")
    parser.add_argument("--shard-ids", help="SHARD_IDS, a comma list (needs --shard-count)")
    parser.add_argument("--guild", type=int, required=True)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--trace", action="store_true",
                        help="timestamps per interaction, loop lag and storage call times")
    parser.add_argument("--what-if", help="comma list of proposed fixes to emulate: "
                        + "; ".join(f"{k} = {v}" for k, v in WHAT_IFS.items()))
    parser.add_argument("--switch-interval", type=float,
                        help="sys.setswitchinterval for the bot process (diagnostics: GIL "
                        "hand-over between the event loop and the SQLite thread)")
    parser.add_argument("--rest-budget", type=int,
                        help="REST_REQUESTS_PER_SECOND for the bot (default: the setting's "
                        "default, 45; 0 = no budget, to measure the bot's own capacity)")
    parser.add_argument("--command-cooldown", type=float,
                        help="COMMAND_COOLDOWN for the bot (default: the setting's default)")
    parser.add_argument("--synchronous", type=str.upper, choices=("FULL", "NORMAL"),
                        help="SQLITE_SYNCHRONOUS for the bot (default: the setting's default, "
                        "FULL)")
    parser.add_argument("--webhook-deliveries", choices=("auto", "always", "never"),
                        help="WEBHOOK_DELIVERIES (default: the setting's default, auto)")
    parser.add_argument("--no-pictures", action="store_true",
                        help="text only (PICTURES=false), to compare with pictures on")
    parser.add_argument("--threads", action="store_true",
                        help="games in their own threads (THREADS=true, the bot's default); "
                        "off, games stay in their channels, as in the figures measured "
                        "before threads, where the bench harness looks for boards")
    parser.add_argument("--profile", choices=("cprofile", "sample"))
    parser.add_argument("--profile-out", help="where --profile writes its result")
    parser.add_argument("--profile-from-start", action="store_true",
                        help="profile from the process start (imports, create_bot, setup_hook) "
                        "until prof-stop")
    args = parser.parse_args(argv)
    logging.basicConfig(level=LOG_LEVEL, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    PROFILING.kind, PROFILING.out = args.profile, args.profile_out
    if args.profile and args.profile_from_start:
        PROFILING.start()
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    try:
        code = asyncio.run(run(args))
    except Exception:
        traceback.print_exc()
        emit("crashed")
        return 1
    finally:
        PROFILING.stop()
    emit("stopped")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
