"""Shared parts of the bot benchmarks (``bench.load``, ``bench.restart``).

- :class:`BotProcess` runs the real bot in a child process (``bench.botproc``) against the
  fake Discord served by this process, and reads its RSS and CPU time from ``/proc``.
- :func:`build_world` makes one guild with a channel and distinct simulated players per table.
- :class:`TableSim` plays one table the way people do: ``/<game> new``, Join, Start, then
  whoever the board names under "To act" presses **Take my turn** and clicks through the
  ephemeral panel (random choices) until the move is confirmed — or, with ``mode="slash"``,
  types ``/<game> move`` and picks one of the autocomplete suggestions. Players only read
  what Discord shows them (the board message), never the bot's memory.
- :func:`split_calls` sorts the REST calls the bot made into public (guild channel),
  private (DM channel, DM creation), interaction (callbacks, followups) and other.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pstats
import random
import re
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import ROOT, percentile, print_table
from bench.cpuquota import CpuQuota

MENTION = re.compile(r"<@!?(\d+)>")
TURN_BUTTON = re.compile(r"t:(\d+):turn:(\d+)")  # Take my turn carries table id and version
CHANNEL_PATH = re.compile(r"^/channels/(\d+)")
CONFIRM = "✅"


# --------------------------------------------------------------------------- the bot process
def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


def child_pids(pid: int) -> list[int]:
    """The running child processes of a process (Linux: every thread's children list)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                found += [int(x) for x in fh.read().split()]
        except OSError:
            continue
    return found


class BotProcess:
    """``python -m bench.botproc`` as a child process; JSON lines on stdout, commands on stdin."""

    def __init__(self, port: int, db: Path, guild_id: int, log_path: Path,
                 profile: str | None = None, profile_out: Path | None = None,
                 trace: bool = False, extra_args: list[str] | None = None,
                 quota: CpuQuota | None = None) -> None:
        self.port, self.db, self.guild_id = port, db, guild_id
        self.quota = quota  # the process and its children run under this CPU quota
        self.trace = trace
        self.extra_args = list(extra_args or [])
        self.log_path, self.profile, self.profile_out = log_path, profile, profile_out
        self.proc: asyncio.subprocess.Process | None = None
        self.spawned_at = 0.0
        self.ready: dict[str, Any] = {}
        self._log = None

    async def start(self, timeout: float = 120.0) -> dict[str, Any]:
        cmd = [sys.executable, "-m", "bench.botproc", "--port", str(self.port),
               "--db", str(self.db), "--guild", str(self.guild_id)]
        if self.profile:
            cmd += ["--profile", self.profile, "--profile-out", str(self.profile_out)]
        if self.trace:
            cmd.append("--trace")
        cmd += self.extra_args
        self._log = open(self.log_path, "a")  # noqa: SIM115 (closed in stop)
        self.spawned_at = time.monotonic()
        self.proc = await asyncio.create_subprocess_exec(
            *cmd, cwd=str(ROOT), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=self._log, limit=2**24,
            preexec_fn=self.quota.preexec if self.quota else None)
        self.ready = await self.expect("ready", timeout)
        return self.ready

    async def expect(self, event: str, timeout: float = 60.0) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"bot process: no {event!r} within {timeout}s "
                                   f"(see {self.log_path})")
            line = await asyncio.wait_for(self.proc.stdout.readline(), remaining)
            if not line:
                raise RuntimeError(f"bot process exited before {event!r} (see {self.log_path})")
            try:
                data = json.loads(line)
            except ValueError:
                continue
            if data.get("event") == "crashed":
                raise RuntimeError(f"bot process crashed (see {self.log_path})")
            if data.get("event") == event:
                return data

    async def send(self, command: str) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write((command + "\n").encode())
        await self.proc.stdin.drain()

    async def stats(self) -> dict[str, Any]:
        await self.send("stats")
        return await self.expect("stats")

    async def wait_idle(self, timeout: float, poll: float = 0.2) -> bool:
        """Wait until the bot has no delivery to make, no request queued for its request
        budget and no DM channel being opened (True), or `timeout` passed (False)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            await self.send("idle")
            idle = await self.expect("idle")
            if not idle["deliveries"] and not idle["budget_waiting"] \
                    and not idle.get("dm_opens"):
                return True
            await asyncio.sleep(poll)
        return False

    async def trace_reset(self) -> None:
        if self.trace:
            await self.send("trace-reset")
            await self.expect("trace-reset")

    async def trace_dump(self) -> dict[str, Any]:
        if not self.trace:
            return {}
        await self.send("trace")
        return await self.expect("trace")

    async def profiling(self, on: bool) -> None:
        if self.profile:
            await self.send("prof-start" if on else "prof-stop")
            await self.expect("prof-started" if on else "prof-stopped")

    async def stop(self, timeout: float = 60.0) -> None:
        if self.proc is None:
            return
        if self.proc.returncode is None:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.send("stop")
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def rss(self) -> int:
        try:
            with open(f"/proc/{self.pid}/statm") as fh:
                return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except OSError:
            return 0

    def cpu_seconds(self) -> float:
        """User + system CPU time of the bot process so far."""
        return process_cpu_seconds(self.pid)

    def children_cpu_seconds(self) -> float:
        """CPU time so far of the bot's running child processes (its picture worker), which
        `cpu_seconds` does not count."""
        return sum(process_cpu_seconds(child) for child in child_pids(self.pid))

    def log_count(self, needle: str) -> int:
        """Lines of the bot's log that contain `needle`."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return 0
        return sum(needle in line for line in text.splitlines())

    def log_problems(self) -> list[str]:
        """ERROR/CRITICAL lines and tracebacks the bot logged."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return []
        problems: list[str] = []
        in_traceback = False
        for ln in lines:
            if " ERROR " in ln or " CRITICAL " in ln or ln.startswith("Traceback"):
                problems.append(ln)
                in_traceback = ln.startswith("Traceback")
            elif in_traceback and not ln[:2].isdigit():
                problems[-1] += "\n" + ln  # the traceback's body belongs to its line
            else:
                in_traceback = False
        return problems


    @property
    def pids(self) -> list[int]:
        return [self.pid]


class BotGroup:
    """Several BotProcess on the shards of one bot (one database, PostgreSQL), seen as one:
    `bench.load` asks it what it asks a single process, and gets the sum (CPU, RSS), the
    union (traces, log lines) or all of them (idle only when every process is)."""

    def __init__(self, bots: list[BotProcess]) -> None:
        self.bots = bots

    async def start(self, timeout: float = 120.0) -> dict[str, Any]:
        readies = [await bot.start(timeout) for bot in self.bots]
        return {**readies[0], "live": sum(r.get("live", 0) for r in readies)}

    async def wait_idle(self, timeout: float, poll: float = 0.2) -> bool:
        results = await asyncio.gather(*(b.wait_idle(timeout, poll) for b in self.bots))
        return all(results)

    async def trace_reset(self) -> None:
        await asyncio.gather(*(b.trace_reset() for b in self.bots))

    async def trace_dump(self) -> dict[str, Any]:
        traces = [await b.trace_dump() for b in self.bots]
        if not any(traces):
            return {}
        merged: dict[str, Any] = {"received": {}, "callback": {}, "loop_lag": [],
                                  "storage": defaultdict(list), "gc_pauses": [], "stalls": []}
        stalls: Counter = Counter()
        for trace in traces:
            merged["received"].update(trace.get("received", {}))
            merged["callback"].update(trace.get("callback", {}))
            merged["loop_lag"] += trace.get("loop_lag", [])
            merged["gc_pauses"] += trace.get("gc_pauses", [])
            for key, values in trace.get("storage", {}).items():
                merged["storage"][key] += values
            stalls.update(dict(trace.get("stalls", [])))
        merged["storage"] = dict(merged["storage"])
        merged["stalls"] = stalls.most_common(15)
        return merged

    async def profiling(self, on: bool) -> None:
        await asyncio.gather(*(b.profiling(on) for b in self.bots))

    async def stats(self) -> dict[str, Any]:
        every = [await b.stats() for b in self.bots]
        out = dict(every[0])
        for key, value in out.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                out[key] = sum(e.get(key, 0) for e in every)
        return out

    async def stop(self, timeout: float = 60.0) -> None:
        await asyncio.gather(*(b.stop(timeout) for b in self.bots))

    @property
    def pid(self) -> int:
        return self.bots[0].pid

    @property
    def pids(self) -> list[int]:
        return [b.pid for b in self.bots]

    def rss(self) -> int:
        return sum(b.rss() for b in self.bots)

    def cpu_seconds(self) -> float:
        return sum(b.cpu_seconds() for b in self.bots)

    def children_cpu_seconds(self) -> float:
        return sum(b.children_cpu_seconds() for b in self.bots)

    def log_problems(self) -> list[str]:
        return [line for b in self.bots for line in b.log_problems()]

    def log_count(self, needle: str) -> int:
        return sum(b.log_count(needle) for b in self.bots)


@contextlib.asynccontextmanager
async def fresh_postgres(url: str):
    """A new PostgreSQL database on the server of `url` for one run (its URL), dropped
    afterwards with every session still on it."""
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    import asyncpg

    name = f"cardtable_bench_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(url, timeout=10)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
    finally:
        admin = await asyncpg.connect(url, timeout=10)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


def guilds_on_shards(fake, shards: int, name: str = "Bench Club") -> list[Any]:
    """One guild per shard: guild i's events reach shard i ((id >> 22) % shards)."""
    from fakediscord.gateway import shard_of

    found: dict[int, Any] = {}
    while len(found) < shards:
        guild = fake.add_guild(f"{name} {len(found) + 1}")
        found.setdefault(shard_of(guild.id, shards), guild)
        time.sleep(0.001)  # guild ids carry the millisecond: the next lands elsewhere
    return [found[i] for i in range(shards)]


# --------------------------------------------------------------------------- the world
@dataclass
class TableSpec:
    game: str
    command: str
    players: int


def build_world_across(fake, specs: list[TableSpec], guilds: list[Any],
                       closed_dms: float = 0.0) -> list[tuple[Any, list[Any]]]:
    """`build_world` with the tables dealt round-robin over `guilds` (one per shard); the
    seats come back in the order of `specs`."""
    seats: list[Any] = [None] * len(specs)
    for g, guild in enumerate(guilds):
        mine = list(range(g, len(specs), len(guilds)))
        _, built = build_world(fake, [specs[i] for i in mine], guild, closed_dms=closed_dms,
                               prefix=f"g{g}-")
        for i, seat in zip(mine, built, strict=True):
            seats[i] = seat
    return seats


def build_world(fake, specs: list[TableSpec], guild=None, closed_dms: float = 0.0,
                prefix: str = ""):
    """One guild (made if not given); per table a channel and its own players (members).

    `closed_dms`: the share of players whose DMs are closed (a DM to them is refused with
    403), spread evenly over the players in order. The bot may already be connected: it
    hears about new channels by CHANNEL_CREATE.
    """
    guild = guild or fake.add_guild("Bench Club")
    seats = []
    made = 0
    for i, spec in enumerate(specs):
        channel = fake.add_channel(guild, f"{prefix}table-{i}")
        users = []
        for k in range(spec.players):
            closed = int((made + 1) * closed_dms) > int(made * closed_dms)
            users.append(fake.add_user(f"{prefix}p{i}-{k}", dm_open=not closed))
            made += 1
        for user in users:
            fake.add_member(guild, user)
        seats.append((channel, users))
    return guild, seats


def _said(result) -> str:
    """What an answer itself says: the message's content (the panel's or the reply's own
    words), not the hand or board shown in its embeds, where a ⚠️ can be part of the game
    (Six Suit marks a shape 5/6 with one: the players took the panel for a refusal)."""
    content = result.message.content if result.message is not None else ""
    return content or result.text


# --------------------------------------------------------------------------- one table
@dataclass
class TableSim:
    fake: Any
    spec: TableSpec
    channel: Any
    users: list[Any]
    rng: random.Random
    mode: str = "panel"
    poll: float = 0.02
    think: float = 0.0
    table_id: int | None = None
    board: Any = None
    moves: int = 0
    games_started: int = 0
    games_finished: int = 0
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    interaction_ids: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    no_answer: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    last_error: str = ""
    confirmed_at: list[float] = field(default_factory=list)  # when each move was confirmed
    stuck_at: int | None = None  # the board version that did not move on within the timeout

    # ---------------------------------------------------------------- reading the board
    def board_state(self) -> tuple[int, list[Any], bool]:
        """(version shown, players the board says must act, game over?)"""
        if self.board.deleted:  # the turn passed: the bot posted the board anew below
            self.board = self._newest_board() or self.board
        if self.board.deleted:
            # no newer board yet: it is on its way (a board posted by a process that was
            # killed before saving it is deleted by its replacement, which posts the
            # current one); not the end of the game, which the last board says in words
            return -1, [], False
        embeds = self.board.embeds or [{}]
        header = embeds[0]
        description = header.get("description") or ""
        version = -1  # the board shows no version in its text; its Take my turn button does
        for component in self.board.buttons():
            match = TURN_BUTTON.fullmatch(component.get("custom_id", ""))
            if match and int(match.group(1)) == self.table_id:
                version = int(match.group(2))
        over = "Game over" in description
        ids = [int(m) for m in MENTION.findall(description.split("\n", 1)[0])]
        by_id = {u.id: u for u in self.users}
        return version, [by_id[i] for i in ids if i in by_id], over

    def _newest_board(self) -> Any:
        marker = f"t:{self.table_id}:hist"  # every board has History, the last one too
        # the game's own thread first (THREADS on: bot.threads), then its channel
        for place in [*reversed(self.fake.threads_of(self.channel)), self.channel]:
            for message in reversed(self.fake.channel_messages(place)):  # not deleted
                if any(marker in c.get("custom_id", "") for c in message.buttons()):
                    return message
        return None

    async def _find_board(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            board = self._newest_board()
            if board is not None:
                self.board = board
                return
            await asyncio.sleep(self.poll)
        raise TimeoutError(f"table {self.table_id}: no board after {timeout}s")

    async def wait_turn(self, newer_than: int, timeout: float) -> tuple[int, list[Any], bool]:
        """Wait until the board shows a version after `newer_than` naming a human (or the end)."""
        deadline = time.monotonic() + timeout
        while True:
            version, actors, over = self.board_state()
            if over or (version > newer_than and actors):
                return version, actors, over
            if time.monotonic() > deadline:
                self.stuck_at = version
                raise TimeoutError(f"table {self.table_id}: board stuck at move {version}")
            await asyncio.sleep(self.poll)

    # ---------------------------------------------------------------- interactions
    async def _interact(self, kind: str, coro, *, tolerate: bool = False):
        """Run one interaction; a click the bot did not acknowledge within Discord's 3 s is
        counted (Discord would say "This interaction failed") and, in play, tolerated: the
        player simply looks at the board again and retries."""
        from fakediscord import BotDidNotRespond

        try:
            result = await coro
        except BotDidNotRespond as exc:
            self.no_answer[kind] += 1
            if not tolerate:
                raise
            self.errors["not acknowledged within 3 s"] += 1
            self.last_error = str(exc)
            return None
        self.latencies[kind].append(result.latency)
        self.interaction_ids[kind].append(result.interaction_id)
        return result

    async def open(self, timeout: float = 120.0) -> None:
        host, *others = self.users
        result = await self._interact("lobby", self.fake.slash(
            host, f"{self.spec.command} new", channel=self.channel, timeout=timeout))
        lobby = result.message
        found = re.search(r"t:(\d+):join", json.dumps(lobby.components)) if lobby else None
        if found is None:
            raise RuntimeError(f"no lobby: {result.text[:200]}")
        self.table_id = int(found.group(1))
        for user in others:
            await self._interact("lobby", self.fake.click(
                user, lobby, f"t:{self.table_id}:join", timeout=timeout))
        result = await self._interact("lobby", self.fake.click(
            host, lobby, f"t:{self.table_id}:start", timeout=timeout))
        if "started" not in result.text:
            raise RuntimeError(f"could not start: {result.text[:200]}")
        self.games_started += 1
        self.board = None
        await self._find_board(timeout)

    async def move(self, user, timeout: float) -> bool:
        if self.mode == "slash":
            return await self._move_by_slash(user, timeout)
        return await self._move_by_panel(user, timeout)

    async def _move_by_panel(self, user, timeout: float) -> bool:
        turn_id = next((c["custom_id"] for c in self.board.buttons()
                        if c["custom_id"].startswith(f"t:{self.table_id}:turn")), None)
        if turn_id is None:
            return False
        result = await self._interact("turn", self.fake.click(user, self.board, turn_id,
                                                              timeout=timeout), tolerate=True)
        for _ in range(12):
            if result is None:
                return False
            if result.modal is not None:  # a move that carries text (e.g. Hidden Rules)
                fields = {c.get("custom_id"): "bench" for c in _inputs(result.modal.components)}
                result = await self._interact("move", self.fake.submit_modal(
                    user, result.modal.custom_id, fields, timeout=timeout), tolerate=True)
                return result is not None and self._confirmed(result)
            said = _said(result)
            if CONFIRM in said or "⚠️" in said or "out of date" in said:
                return self._confirmed(result)
            message = result.message
            # Back goes nowhere; Try DMs again is no move (a closed-DM player's panel shows
            # it once, and these players know their DMs are closed)
            comps = [c for c in message.buttons()
                     if not (c.get("label") or "").startswith(("Back", "Try DMs again"))]
            selects = [c for c in comps if c.get("type") == 3]
            if selects:
                options = [o for o in selects[0]["options"] if not o["value"].startswith("page:")]
                pick = self.rng.choice(options)
                coro = self.fake.select(user, message, selects[0]["custom_id"], [pick["value"]],
                                        timeout=timeout)
            elif comps:
                coro = self.fake.click(user, message, self.rng.choice(comps)["custom_id"],
                                       timeout=timeout)
            else:
                return self._confirmed(result)
            result = await self._interact("panel", coro, tolerate=True)
        self.errors["panel never reached a move"] += 1
        return False

    async def _move_by_slash(self, user, timeout: float) -> bool:
        command = f"{self.spec.command} move"
        start = time.monotonic()
        where = self._game_channel()
        choices = await self.fake.autocomplete(user, command, focused="action",
                                               channel=where, timeout=timeout)
        self.latencies["autocomplete"].append(time.monotonic() - start)
        if not choices:
            self.errors["no autocomplete choices"] += 1
            return False
        pick = self.rng.choice(choices)
        result = await self._interact("move", self.fake.slash(
            user, command, {"action": pick["value"]}, channel=where, timeout=timeout),
            tolerate=True)
        return result is not None and self._confirmed(result)

    def _game_channel(self) -> Any:
        """Where the game is played: its board's channel (its thread with THREADS on)."""
        board = getattr(self, "board", None)
        return self.fake.channels.get(board.channel_id, self.channel) if board else self.channel

    def _confirmed(self, result) -> bool:
        text = _said(result)
        if CONFIRM in text:
            self.moves += 1
            self.confirmed_at.append(time.monotonic())
            return True
        reason = text.split("\n", 1)[0][:80] or f"callback type {result.type}"
        self.errors[re.sub(r"\d+", "N", reason)] += 1
        self.last_error = text
        return False

    # ---------------------------------------------------------------- the loop
    async def play(self, *, moves: int, deadline: float, timeout: float,
                   new_games: bool = True) -> None:
        """Make `moves` confirmed moves (opening new games as games end) or stop at deadline."""
        seen = -1
        target = self.moves + moves
        while self.moves < target and time.monotonic() < deadline:
            try:
                version, actors, over = await self.wait_turn(
                    seen, min(timeout, max(deadline - time.monotonic(), 0.1)))
            except TimeoutError as exc:
                if time.monotonic() >= deadline:
                    self.stuck_at = None  # the phase ended, not the patience
                    return
                self.errors[str(exc).split(":")[1].strip()[:40]] += 1
                return
            if over:
                self.games_finished += 1
                if not new_games:
                    return
                await self.open(timeout)
                seen = -1
                continue
            if self.think:
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
            if await self.move(actors[0], timeout):
                seen = version
            else:  # refused or not acknowledged: look at the board again in a moment
                await asyncio.sleep(max(self.poll, 0.5))


def _inputs(components: list[dict]) -> list[dict]:
    out = []
    for comp in components:
        if comp.get("type") == 1:
            out.extend(c for c in comp.get("components", []) if "custom_id" in c)
        elif isinstance(comp.get("component"), dict):
            out.append(comp["component"])
        elif "custom_id" in comp:
            out.append(comp)
    return out


def fresh_files(db: Path, *logs: Path) -> tuple[Path, ...]:
    """Remove what an earlier run left under these names (a kept --workdir): its SQLite file
    would hand this run tables whose channels this fake does not know, and the bot would
    spend the run retrying their deliveries."""
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm"), *logs):
        path.unlink(missing_ok=True)
    return (db, *logs)


async def settle(fake, quiet: float, timeout: float) -> bool:
    """`fake.settle` that reports instead of raising when the bot never goes quiet."""
    try:
        await fake.settle(quiet=quiet, timeout=timeout)
        return True
    except AssertionError:
        return False


# --------------------------------------------------------------------------- REST calls
def split_calls(fake, since: int, until: int | None = None) -> dict[str, Any]:
    """Classify the bot's REST calls in `fake.calls[since:until]`."""
    from fakediscord.models import CHANNEL_DM

    counts: Counter[str] = Counter()
    routes: dict[str, Counter[str]] = defaultdict(Counter)
    statuses: Counter[int] = Counter()
    uploads: Counter[str] = Counter()  # bytes of uploaded files (pictures) per kind
    for call in fake.calls[since:until]:
        path = call.path
        if path.startswith(("/interactions/", "/webhooks/")):
            kind = "interaction"
        elif path.startswith("/users/@me/channels"):
            kind = "private"
        else:
            match = CHANNEL_PATH.match(path)
            channel = fake.channels.get(int(match.group(1))) if match else None
            if channel is None:
                kind = "other"
            elif channel.type == CHANNEL_DM:
                kind = "private"
            else:
                kind = "public"
        counts[kind] += 1
        routes[kind][call.route] += 1
        statuses[call.status or 0] += 1
        uploads[kind] += sum(f.get("size", 0) for f in call.files)
    return {"counts": counts, "routes": routes, "statuses": statuses, "uploads": uploads}


INVALID_STATUSES = (401, 403, 429)  # what Discord counts toward its invalid-request ban


def invalid_requests(fake, since: int, until: int | None = None) -> Counter[str]:
    """The bot's requests in `fake.calls[since:until]` answered 401, 403 or 429, by status
    and route (Discord bans a bot past 10,000 of them in 10 minutes)."""
    return Counter(f"{call.status} {call.route}" for call in fake.calls[since:until]
                   if call.status in INVALID_STATUSES)


def _legs(fake, trace: dict[str, Any], ids: list[int]):
    """(interaction, sent, fake→bot, inside the bot, callback→fake) in seconds, for each
    of `ids` whose timestamps are all known."""
    received, callback = trace.get("received", {}), trace.get("callback", {})
    for iid in ids:
        pending = fake.interactions.get(iid)
        got, answered = received.get(str(iid)), callback.get(str(iid))
        if pending is None or pending.acked_at is None or got is None or answered is None:
            continue
        yield (iid, pending.dispatched_at, got - pending.dispatched_at, answered - got,
               pending.acked_at - answered)


def ack_legs(fake, trace: dict[str, Any], ids: list[int]) -> dict[str, list[float]]:
    """Split each interaction's ack time into fake→bot, inside the bot, bot→fake."""
    legs: dict[str, list[float]] = {"fake → bot loop": [], "inside the bot": [],
                                    "callback → fake": []}
    for _, _, *times in _legs(fake, trace, ids):
        for values, seconds in zip(legs.values(), times, strict=True):
            values.append(seconds)
    return legs


def ack_timeline(fake, trace: dict[str, Any], ids: dict[str, list[int]], t0: float
                 ) -> list[list[Any]]:
    """Per interaction: [kind, sent (s after t0), fake→bot, inside the bot, callback→fake]
    in ms, in order of sending: whether slow acknowledgements come in bursts shows here."""
    rows = [[kind, round(sent - t0, 4), *(round(leg * 1e3, 2) for leg in times)]
            for kind, values in ids.items()
            for _, sent, *times in _legs(fake, trace, values)]
    return sorted(rows, key=lambda row: row[1])


def opening_and_steady(fake, sims: list[TableSim], start: float, end: float
                        ) -> dict[str, Any]:
    """Acknowledgement latency of a play phase split at the moment every table had made its
    first move. Play starts with every table's board already showing, so every table's
    first player clicks within the same few milliseconds: an opening burst, the worst case
    (real tables do not all wait for a click at the same moment), measured apart from the
    play after it.
    An interaction never acknowledged (or after Discord's 3 s) counts as infinitely slow."""
    firsts = [next((t for t in sim.confirmed_at if t >= start), None) for sim in sims]
    opening_end = max((t for t in firsts if t is not None), default=start)
    parts: dict[str, list[float]] = {"opening": [], "steady": []}
    for pending in fake.interactions.values():
        if not start <= pending.dispatched_at <= end:
            continue
        latency = (pending.acked_at - pending.dispatched_at
                   if pending.acked_at is not None else float("inf"))
        parts["opening" if pending.dispatched_at < opening_end else "steady"].append(latency)
    out: dict[str, Any] = {"opening_seconds": opening_end - start}
    for name, values in parts.items():
        finite = [v for v in values if v <= 3.0]
        out[name] = latency_summary(finite, len(values) - len(finite))
    return out


def latency_summary(values: list[float], late: int = 0) -> dict[str, float]:
    """Percentiles in ms; `late` interactions acknowledged after Discord's 3 s (or never)
    count as infinitely slow, so a percentile that falls among them reads "> 3 s"."""
    values = list(values) + [float("inf")] * late
    return {"n": len(values), "late": late, "p50_ms": percentile(values, 50) * 1e3,
            "p90_ms": percentile(values, 90) * 1e3, "p99_ms": percentile(values, 99) * 1e3,
            "max_ms": max(values, default=float("nan")) * 1e3}


# --------------------------------------------------------------------------- profiles
CATEGORIES = (
    ("engines/", "engines (game rules)"),
    ("/bot/", "bot/ (service, delivery, UI)"),
    ("/cogs/", "cogs/"),
    ("/discord/", "discord.py"),
    ("/aiohttp/", "aiohttp (HTTP client, websocket)"),
    ("/aiosqlite/", "aiosqlite"),
    ("/json/", "json"),
    ("/asyncio/", "asyncio"),
    ("/yarl/", "yarl / multidict"),
    ("/multidict/", "yarl / multidict"),
)


def profile_categories(path: Path) -> list[tuple[str, float]]:
    """Own time of a cProfile dump summed by package (C functions go to their caller's
    package when pstats cannot place them)."""
    stats = pstats.Stats(str(path))
    totals: Counter[str] = Counter()
    for (filename, _line, name), (_cc, _nc, tottime, _ct, callers) in stats.stats.items():
        where = filename
        if filename == "~" and callers:  # a built-in: charge it to its main caller's package
            where = max(callers.items(), key=lambda kv: kv[1][2])[0][0]
        label = next((lab for marker, lab in CATEGORIES if marker in where), None)
        if label is None:
            label = "sqlite3 / other built-ins" if "sqlite" in name else "other"
        totals[label] += tottime
    return totals.most_common()


def print_profile(kind: str, path: Path, top: int = 25, per: tuple[str, int] | None = None
                  ) -> None:
    if not path.exists():
        print(f"(no profile written at {path})")
        return
    if kind == "cprofile":
        cats = profile_categories(path)
        total = sum(v for _, v in cats) or 1.0
        print("\n### CPU time of the bot's event-loop thread by package (cProfile with "
              "time.thread_time; own time)\n")
        headers = ["package", "CPU s", "share"]
        if per:
            headers.append(f"ms per {per[0]}")
        print_table(headers, [[label, seconds, f"{seconds / total:.0%}",
                               *([seconds * 1e3 / per[1]] if per else [])]
                              for label, seconds in cats], digits=2)
        for key in ("tottime", "cumulative"):
            print(f"\n### bot process cProfile, sorted by {key}\n")
            print("```")
            stats = pstats.Stats(str(path), stream=sys.stdout)
            stats.strip_dirs().sort_stats(key).print_stats(top)
            print("```")
        return
    report = json.loads(path.read_text())
    print(f"\n### bot process sampling profile ({report['samples']} samples every "
          f"{report['interval'] * 1e3:.0f} ms of the main thread)\n")
    for key, title in (("leaf", "innermost frame"),
                       ("ours", "innermost frame in bot/, cogs/ or engines/")):
        print(f"\n{title}:\n")
        print_table(["where", "samples", "share"],
                    [[k, v, f"{s:.1%}"] for k, v, s in report[key]])
    print("\nhottest stacks (innermost first, 6 frames):\n")
    for k, _count, s in report["stacks"][:12]:
        print(f"- {s:.1%} {k}")
