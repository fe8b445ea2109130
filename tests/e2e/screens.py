"""Checks the largest-table games (tests/e2e/test_*_full.py) share: every screen opened by
real clicks and commands, each answered once, every text within Discord's limits and cut
where a reader expects it, closed DMs costing one refused request per game, and
nothing hidden shown to the wrong person."""

from __future__ import annotations

import asyncio
import re

from fakediscord import User
from tests.e2e.driver import TableDriver

NOTICE = "can't send you direct messages"
STOPPED = "so I stopped DMing you for this game"
# the largest-table games' turn timer: humans click within it; the last one lets it run out.
# 2 s was too short on a loaded machine (4 test workers, load 20): the screens opened before
# the first move took longer, the timer gave every seat to an AI and no human moved at all
TURN_SECONDS = 8
# markdown Discord would show raw in a label, a choice or a command description
RAW_MARKDOWN = re.compile(r"`|\*\*|__|~~|\|\|")


def add_players(fake, world, count: int, *, closed: int = 0, prefix: str = "player"
                ) -> list[User]:
    """`count` more members of the test server, the first `closed` with their DMs closed."""
    users = []
    for i in range(count):
        user = fake.add_user(f"{prefix}{i + 1}", dm_open=i >= closed)
        fake.add_member(world.guild, user)
        users.append(user)
    return users


def answers(result) -> list[str]:
    """Every message one interaction got: its reply and any followups."""
    return ([result.text] if result.message is not None else []) + [
        m.text for m in result.followups]


async def full_rules(fake, user: User, command: str, channel) -> tuple[str, str]:
    """`/<game> rules` as a member reads it: the quick start it answers with, then every
    message the **Full rules** button sends (as text)."""
    quick = await fake.slash(user, f"{command} rules", channel=channel)
    assert quick.ephemeral
    [button] = [b for b in quick.message.buttons() if b.get("label") == "Full rules"]
    full = await fake.click(user, quick.message, button["custom_id"])
    await fake.settle()
    return quick.text, "\n".join([full.text, *(f.text for f in full.followups)])


async def open_reference_screens(fake, d: TableDriver, user: User, game: str) -> None:
    """`/<game> rules`, `/stats`, `/leaderboard` and `/config show`: each answered once,
    without an error, privately except the leaderboard. Typed where the game is, or in the
    lobby's channel once the game's thread is archived (Discord offers no commands there)."""
    channel = d.command_channel
    for command, options in ((f"{d.command} rules", {}), ("stats", {}),
                             ("leaderboard", {"game": game}), ("config show", {"game": game})):
        result = await fake.slash(user, command, options, channel=channel)
        got = answers(result)
        assert len(got) == 1 and "⚠️" not in got[0], (command, got)
        assert result.ephemeral == (command != "leaderboard"), command
        if command.endswith(" rules"):
            # the rules name every card there is; they show nothing of this game's state
            assert got[0].startswith(d.bot.tables.uis[game].emoji), got[0][:80]
            d.earlier.setdefault(user.id, set()).add(got[0])
    await fake.settle()


async def open_hands(fake, d: TableDriver, users: list[User]) -> None:
    """Every player presses **My hand** on the current board (closed DMs or not)."""
    for user in users:
        if d.table is None:
            return
        result = await d.click(user, d.board(), "My hand")
        got = answers(result)
        # an error answer starts with ⚠️ (a hand may show a game's own ⚠️ warning line)
        assert len(got) == 1 and result.ephemeral and not got[0].startswith("⚠️"), got
        assert "only you can see this" in got[0].lower(), got[0][:200]


async def autocomplete_moves(fake, d: TableDriver, user: User) -> None:
    """`/<game> move` suggestions: 1–25 names of 1–100 characters, no raw markdown."""
    choices = await fake.autocomplete(user, f"{d.command} move", focused="action",
                                      channel=d.channel)
    assert len(choices) <= 25
    for choice in choices:
        assert 1 <= len(choice["name"]) <= 100 and not RAW_MARKDOWN.search(choice["name"]), \
            choice


def assert_panels_plain(fake, users: list[User]) -> None:
    """Panel buttons and menus show their labels raw: no markdown, within the limits."""
    for user in users:
        for message in fake.ephemerals(user):
            for version in message.versions():
                for row in version.components:
                    for comp in row.get("components", []):
                        label = comp.get("label") or ""
                        assert len(label) <= 80 and not RAW_MARKDOWN.search(label), label
                        for option in comp.get("options", []):
                            assert len(option["label"]) <= 100, option
                            assert not RAW_MARKDOWN.search(option["label"]), option


def deepest_panel(fake, users: list[User]) -> int:
    """The most steps deep any player went in the Take my turn panel (`A › B` = 1)."""
    depth = 0
    for user in users:
        for message in fake.ephemerals(user):
            for version in message.versions():
                for line in version.text.split("\n"):
                    if "Your move" in line:
                        depth = max(depth, line.count(" › "))
    return depth


def assert_recent_keeps_whole_lines(d: TableDriver) -> None:
    """The board's Recent field: whole log lines only, the newest last, within 1024."""
    for version in d.board_versions():
        for embed in version.embeds:
            for field in embed.get("fields", []):
                if field["name"] != "Recent":
                    continue
                value = field["value"]
                assert len(value) <= 1024
                lines = value.split("\n")
                if lines[0] == "…":
                    lines = lines[1:]
                assert all(line.startswith("• ") for line in lines), value


def refused_dms(fake, user: User) -> list:
    dm = fake.dm_channel(user)
    return [c for c in fake.calls if c.status == 403 and c.method == "POST"
            and c.path.endswith(f"/channels/{dm.id}/messages")]


def closed_dm_notices(fake, d: TableDriver, user: User) -> list[str]:
    return [m.text for m in fake.channel_messages(d.channel)
            if NOTICE in m.text and f"<@{user.id}>" in m.text]


def dms_stopped_hints(fake, user: User) -> list[str]:
    """The ephemeral answers that told `user` their DMs stopped (with Try DMs again)."""
    return [m.text for m in fake.ephemerals(user) if STOPPED in m.text
            and any(b.get("label") == "Try DMs again" for b in m.buttons())]


def assert_closed_dms_handled(fake, d: TableDriver, user: User) -> None:
    """One notice in the channel naming the player and no secret; exactly one refused DM in
    the whole game although they clicked all along (a click does not re-enable DMs); their
    ephemeral answers said once that DMs stopped, with the Try DMs again button."""
    notices = closed_dm_notices(fake, d, user)
    assert len(notices) == 1, notices
    assert len(refused_dms(fake, user)) == 1, len(refused_dms(fake, user))
    assert not fake.dms(user)
    assert len(dms_stopped_hints(fake, user)) == 1, dms_stopped_hints(fake, user)


async def leave(fake, d: TableDriver, user: User) -> None:
    """The board's **Leave**, then **Leave the game** in the confirmation: an AI plays the
    seat to the end."""
    table = d.table
    if table is None or table.finished:
        return  # the AI seats finished the game meanwhile
    ask = await d.click(user, d.board(), "Leave")
    assert len(answers(ask)) == 1 and ask.ephemeral, answers(ask)
    if not any(b.get("label") == "Leave the game" for b in ask.message.buttons()):
        # the AI seats and the turn timer finished the game between the check and the click
        assert table.finished and "⚠️" in ask.text, ask.text
        return
    done = await d.click(user, ask.message, "Leave the game")
    if table.finished:  # the game ended between the two clicks: nothing to leave
        assert "⚠️" in done.text, done.text
        return
    # not waiting for the board to show it: under Discord's rate limits that can take
    # seconds, and the 2 s turn timer keeps running for the player who stays
    assert "You left" in done.text, done.text


async def play_then_hand_over(fake, d: TableDriver, *, human_moves: int, last: User) -> int:
    """Humans play `human_moves` moves through the panel (every step clicked, a leak scan
    after each) and open their hands again; then all but `last` leave through the board's
    Leave (an AI takes each seat), `last` stops clicking (the turn timer gives their seat
    to an AI: the table runs with afk_turns=1), and the AI seats play to the end, a leak
    scan all along."""
    moves = await d.play_to_end(pause_after=human_moves)
    if d.table is None:  # the game ended during or right after the humans' moves
        await d.result_posted()
        return moves
    await open_hands(fake, d, d.players)
    def human(user: User) -> bool:
        seat = d.table.seat_of(user.id) if d.table is not None else None
        return seat is not None and not d.table.is_ai(seat)

    for user in d.players:
        # the last human to leave would end the game (cancelled: nobody else playing), and
        # the turn timer may give `last`'s seat to an AI any moment: the last one besides
        # `last` stays and goes idle too (the timer gives the seat to an AI)
        if user is not last and human(user) and any(
                human(other) for other in d.players if other not in (user, last)):
            await leave(fake, d, user)
    for _ in range(600):
        if d.table is None:
            break
        d.assert_no_leaks()  # it runs on the bot's loop: not too often
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the AI seats did not finish the game")
    await d.result_posted()
    return moves


def assert_game_over(fake, d: TableDriver) -> str:
    """The result message: in the lobby's channel (where a game played in its own thread
    posts it too), or in the channel the game was played in."""
    places = [d.world.channel] + ([d.channel] if d.channel is not d.world.channel else [])
    over = [m.text for place in places for m in fake.channel_messages(place)
            if "game over" in m.text]
    assert over, "no result was posted"
    return over[-1]


async def play_full_table(fake, world, bots, command: str, game: str, *, humans: int,
                          ai: int = 0, options: str | None = None, human_moves: int = 12,
                          panel_steps: int = 1, before_start=None, rename=None
                          ) -> TableDriver:
    """Open `command` at its largest table (`humans` people — alice hosts, one has closed
    DMs — and `ai` AI seats), open every screen, play `human_moves` moves through the panel,
    then hand the seats over to AI players who finish the game (`play_then_hand_over`), and
    run every check above; someone went at least `panel_steps` steps deep in the panel.
    `before_start(d, lobby)` may click more in the lobby; `rename(users)` may give the
    players other names before they join (all of them, the host first)."""
    pool = [world.bob, world.carol, world.dave]
    open_others = humans - 2
    if open_others > len(pool):
        pool += add_players(fake, world, open_others - len(pool))
    closed = add_players(fake, world, 1, closed=1, prefix="closed")[0]
    if rename is not None:
        rename([world.alice, *pool[:open_others], closed])
    d = TableDriver(fake, world, bots, command)

    async def lobby_step(lobby):
        if before_start is not None:
            await before_start(d, lobby)

    timers = f"turn_seconds={TURN_SECONDS} afk_turns=1"
    await d.open(world.alice, [*pool[:open_others], closed], ai=ai,
                 options=f"{options or ''} {timers}".strip(), before_start=lobby_step)
    table = d.table
    assert len(table.seats) == table.engine.max_players, len(table.seats)
    await open_hands(fake, d, d.players)
    await open_reference_screens(fake, d, world.bob, game)
    seat = await d.next_human()
    if seat is not None:
        await autocomplete_moves(fake, d, d.seat_user(seat))
    moves = await play_then_hand_over(fake, d, human_moves=human_moves, last=closed)
    assert moves > 0
    assert_game_over(fake, d)
    await open_reference_screens(fake, d, closed, game)
    assert_recent_keeps_whole_lines(d)
    assert_panels_plain(fake, d.players)
    assert deepest_panel(fake, d.players) >= panel_steps
    assert_closed_dms_handled(fake, d, closed)
    return d
