"""Play whole games through the fake Discord and measure what players get: board size
(lines and characters of every version of the board a player saw), DMs that notified,
silent DM edits, and pings and new messages in the lobby's channel and in the game's thread.

    python -m scripts.table_report [--games all] [--players 4] [--seed 1] [--place thread]
                                   [--json PATH]

`--place channel` plays every game in its lobby's channel (the server setting
`table_place: channel`), `thread` (the default) in its own thread (bot.threads).

Every seat is a human clicking through the **Take my turn** panel (random legal choices),
with each game's default options, as `tests/e2e/test_board_size.py` does with short games.
The README's board-size and notification figures come from this script.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import SimpleNamespace

from bot.app import create_bot
from bot.settings import Settings
from fakediscord import FakeDiscord, MessageVersion, running_bot
from fakediscord.text import embed_texts
from tests.e2e.driver import TableDriver, dm_updates, notifying_dms, pings

COMMANDS = {"suspense": "suspense", "suit_taboo": "suittaboo", "hidden_rules": "hiddenrules",
            "taboo": "taboo", "six_suit": "sixsuit"}
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


def board_text(version: MessageVersion) -> str:
    """What a board version shows (its content and embeds; buttons are not lines of text)."""
    parts = [version.content] if version.content else []
    for embed in version.embeds:
        parts.extend(embed_texts(embed))
    return "\n".join(parts)


@dataclass
class GameReport:
    game: str
    players: int
    moves: int
    board_versions: int
    lines_median: float
    lines_max: int
    chars_median: float
    chars_max: int
    turns: dict[str, int] = field(default_factory=dict)  # turn starts per player
    notifying_dms: dict[str, int] = field(default_factory=dict)
    dm_edits: dict[str, int] = field(default_factory=dict)
    pings: dict[str, int] = field(default_factory=dict)  # in the lobby's channel
    thread_pings: dict[str, int] = field(default_factory=dict)  # in the game's thread
    channel_posts: int = 0  # new messages in the lobby's channel (lobby, boards, result...)
    thread_posts: int = 0  # new messages in the game's thread


class _Runner:
    """The bits of tests/e2e/conftest.BotRunner that TableDriver uses."""

    def __init__(self, bot) -> None:
        self.current = bot


async def play(game: str, players: int, seed: int, options: str | None = None,
               transcript: bool = False, place: str = "thread") -> tuple[GameReport, str]:
    """One whole game; its report and (if asked) a transcript of what players saw."""
    # Request rules as strict as ever, but no rate limits: the report counts what each move
    # delivers on its own (board versions, pings, DM edits), and the transcripts must come
    # out the same on every run; under Discord's limits deliveries coalesce by timing.
    fake = await FakeDiscord(rate_limits=False).start()
    undo = fake.patch_discord()
    try:
        guild = fake.add_guild("Card Club")
        channel = fake.add_channel(guild, "games")
        users = [fake.add_user(name) for name in NAMES[:players]]
        outsider = fake.add_user("outsider")
        for user in [*users, outsider]:
            fake.add_member(guild, user)
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(_env_file=None, discord_token="fake-token",
                                database_path=Path(tmp) / "report.db", ai_delay=0,
                                ai_hold_seconds=0, turn_seconds=0, dev_guild_id=guild.id, game_seed=seed,
                                rest_requests_per_second=0, pictures=False,
                                threads=place == "thread")
            bot = create_bot(settings, guild_ready_timeout=0.05)
            async with running_bot(fake, bot, timeout=15):
                world = SimpleNamespace(channel=channel, outsider=outsider, guild=guild)
                d = TableDriver(fake, world, _Runner(bot), COMMANDS[game])
                await d.open(users[0], users[1:], options=options)
                moves = await d.play_to_end(check_leaks_every=10 ** 9, sync_every=1)
                await fake.settle()
                text = await render_transcript(fake, d, users) if transcript else ""
                versions = d.board_versions()
                thread = d.thread
                posted = (len(fake.channel_messages(channel, include_deleted=True)),
                          len(fake.channel_messages(thread, include_deleted=True))
                          if thread else 0)
        sizes = [board_text(v) for v in versions]
        if os.environ.get("SHOW_LARGEST"):
            print(max(sizes, key=lambda t: len(t.splitlines())))
        lines = [len(t.splitlines()) for t in sizes]
        chars = [len(t) for t in sizes]
        report = GameReport(
            game=game, players=players, moves=moves, board_versions=len(versions),
            lines_median=statistics.median(lines), lines_max=max(lines),
            chars_median=statistics.median(chars), chars_max=max(chars),
            channel_posts=posted[0], thread_posts=posted[1])
        for user in users:
            new = notifying_dms(fake, user)
            report.notifying_dms[user.name] = len(new)
            report.dm_edits[user.name] = len(dm_updates(fake, user)) - len(new)
            report.pings[user.name] = pings(fake, user, channel)
            report.thread_pings[user.name] = pings(fake, user, d.thread) if d.thread else 0
            report.turns[user.name] = sum(
                1 for m in d.boards() if m.versions() and f"<@{user.id}>" in
                (m.versions()[0].content or ""))
        return report, text
    finally:
        undo()
        await fake.stop()


async def render_transcript(fake, d: TableDriver, users) -> str:
    """The channel as it stands at the end (lobby note, final board, result), the whole
    game as the board's History button shows it, and the first player's living DM."""
    import re

    names = {u.id: u.name for u in users}

    def shown(text: str) -> str:
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + names.get(int(m.group(1)), m.group(1)),
                      text.strip())
        return re.sub(r"<#(\d+)>", lambda m: "#" + getattr(
            fake.channels.get(int(m.group(1))), "name", m.group(1)), text)

    out = [f"===== #{d.world.channel.name} (everyone), at the end ====="]
    for message in fake.channel_messages(d.world.channel):
        if message.type == 18:  # Discord's own line, linking the thread
            out += [f"🧵 (Discord's own line, a link to the thread) The bot started a "
                    f"thread: {message.content}", "-----"]
            continue
        out += [shown(message.text), "-----"]
    if d.thread is not None:
        out.append(f"===== 🧵 {d.thread.name} (the game's thread, archived at the end) =====")
        for message in fake.channel_messages(d.thread):
            if message.type == 0:  # Discord's own starter line aside
                out += [shown(message.text), "-----"]
    out.append("===== 📜 History (the board's button; ephemeral, all pages) =====")
    out += [shown(await d.history()), "-----"]
    out.append(f"===== {users[0].name}'s DMs (one living message, edited in place) =====")
    for message in fake.dms(users[0]):
        out += [shown(message.text), "-----"]
    return "\n".join(out)


def summary(reports: list[GameReport]) -> str:
    rows = ["| game | players | moves | board versions | lines median / max | characters "
            "median / max | turns per player | notifying DMs per player | silent DM edits "
            "per player | pings per player: channel / thread | new messages: channel / "
            "thread |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]

    def spread(values: dict[str, int]) -> str:
        low, high = min(values.values()), max(values.values())
        return f"{low}" if low == high else f"{low}–{high}"

    for r in reports:
        rows.append(f"| {r.game} | {r.players} | {r.moves} | {r.board_versions} | "
                    f"{r.lines_median:g} / {r.lines_max} | {r.chars_median:g} / {r.chars_max}"
                    f" | {spread(r.turns)} | {spread(r.notifying_dms)} | "
                    f"{spread(r.dm_edits)} | {spread(r.pings)} / {spread(r.thread_pings)} | "
                    f"{r.channel_posts} / {r.thread_posts} |")
    return "\n".join(rows)


async def main(games: list[str], players: int, seed: int, json_path: str | None,
               place: str) -> None:
    reports = []
    for game in games:
        n = min(players, 3) if game == "suspense" else players
        report, _ = await play(game, n, seed, place=place)
        reports.append(report)
        print(f"{game}: {json.dumps(asdict(report))}", flush=True)
    print(summary(reports))
    if json_path:
        Path(json_path).write_text(json.dumps([asdict(r) for r in reports], indent=2))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="all", help="comma-separated engine names")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=int(os.environ.get("GAME_SEED", "1")))
    parser.add_argument("--place", choices=("thread", "channel"), default="thread")
    parser.add_argument("--json")
    args = parser.parse_args()
    chosen = list(COMMANDS) if args.games == "all" else args.games.split(",")
    asyncio.run(main(chosen, args.players, args.seed, args.json, args.place))
