"""The largest texts the bot builds, against Discord's limits: every game at its largest
table with the longest names Discord allows (32 characters) made of characters that all
need escaping, emoji sequences and wide letters, through every screen, and the lists built
from finished games (history, replays, leaderboard) afterwards.

Nothing here checks a length by hand: the fake refuses whatever Discord's docs refuse
(2,000 characters of content, embed texts, 25 fields and options, 80-character labels,
100-character choices and thread names...), and every end-to-end test fails on a refused
request (`no_refused_bodies`, tests/e2e/conftest.py). Each test only drives the worst case.
"""

from __future__ import annotations

import pytest

from bot.tables.settings import SERVER_KEY
from bot.ui.render import HISTORY_PAGE
from engines.hidden_rules.rules import SAY_MAX
from fakediscord import User
from tests.e2e import screens
from tests.e2e.driver import TableDriver

pytestmark = pytest.mark.e2e

NICK_LIMIT = 32  # Discord's nicknames and display names
_ESCAPED = "*_~`|<>#-[]()@:\\"  # every one of them is escaped in markdown (two characters)


def longest_names(count: int) -> list[str]:
    """`count` different 32-character names: most of them all markdown characters (64 once
    escaped), one of emoji sequences (several code points each), one of wide letters, one
    that tries to ping everyone."""
    names = []
    for i in range(count):
        kind = i % 4
        if kind == 3:
            base = "👨\u200d👩\u200d👧\u200d👦" * 5  # 7 code points each
        elif kind == 2:
            base = "龍" * 30
        elif kind == 1:
            base = "@everyone @here <@&1> " * 2
        else:
            base = _ESCAPED * 2
        names.append(base[:NICK_LIMIT - 3] + f"{i:03d}")
    assert all(len(n) == NICK_LIMIT for n in names) and len(set(names)) == count
    return names


def nicknames(fake, world):
    """A `rename` hook: each player gets one of `longest_names` as their server nickname."""
    def rename(users: list[User]) -> None:
        for user, name in zip(users, longest_names(len(users)), strict=True):
            world.guild.members[user.id].nick = name
    return rename


async def lists_of_finished_games(fake, world, d, game: str) -> None:
    """What is built from finished games with these names in them: /history and its menu of
    games, /replay's suggestions and a replay's steps, the leaderboard, /stats."""
    user = d.players[1]
    history = await fake.slash(user, "history", channel=d.command_channel)
    assert history.ephemeral and not refused(history), history.text
    choices = await fake.autocomplete(user, "replay", focused="game", channel=d.command_channel)
    assert choices, "no finished game suggested"
    opened = await fake.slash(user, "replay", {"game": choices[0]["value"]}, channel=d.command_channel)
    assert not refused(opened), opened.text
    for label in ("Next", "My view", "Last"):
        button = next(b for b in opened.message.buttons() if b.get("label") == label)
        opened = await fake.click(user, opened.message, button["custom_id"])
        assert not refused(opened), opened.text
    board = await fake.slash(user, "leaderboard", {"game": game}, channel=d.command_channel)
    assert not refused(board) and "001" in board.text, board.text
    for who in d.players[:3]:
        stats = await fake.slash(user, "stats", {"user": who}, channel=d.command_channel)
        assert not refused(stats), stats.text


def refused(result) -> bool:
    """The bot's error answers start with ⚠️ (a game's own text may hold one further on)."""
    return result.text.startswith("⚠️")


@pytest.mark.parametrize(("command", "game", "humans", "options"), [
    ("sixsuit", "six_suit", 12, "teams=2 max_rounds=3"),
    ("suittaboo", "suit_taboo", 5, "wire=true"),
    ("hiddenrules", "hidden_rules", 5, "target=2"),
    ("taboo", "taboo", 6, None),
    ("suspense", "suspense", 3, "points_target=3"),
], ids=["six-suit-12", "suit-taboo-5", "hidden-rules-5", "taboo-6", "suspense-3"])
async def test_the_longest_names_at_the_largest_table(fake, world, bots, bot, command, game,
                                                      humans, options):
    """Every seat a human with a 32-character name of characters that all need escaping
    (or emoji sequences, wide letters, mention attempts): the lobby, every hand, the panel,
    the suggestions, History, the board and the result all stay within Discord's limits,
    and so do the lists of finished games that carry every name."""
    await bot.storage.set_game_settings(world.guild.id, SERVER_KEY,
                                        {"leaderboard_min_games": 1})
    d = await screens.play_full_table(fake, world, bots, command, game, humans=humans,
                                      options=options, human_moves=2 * humans,
                                      panel_steps=0, rename=nicknames(fake, world))
    names = {world.guild.members[u.id].nick for u in d.players}
    assert len(names) == humans
    await d.history()
    await lists_of_finished_games(fake, world, d, game)


async def test_every_history_line_is_on_a_page_however_long_the_lines(fake, world, bots):
    """Hidden Rules players with the longest names saying the most a play may carry (200
    characters, every one escaped in markdown): a History page holds what fits in an embed,
    so each line of the game is on some page, none cut away with the page's tail."""
    await bots.start()
    d = TableDriver(fake, world, bots, "hiddenrules")
    names = longest_names(2)
    for user, name in zip((world.alice, world.bob), names, strict=True):
        world.guild.members[user.id].nick = name
    d.modal_text = lambda modal: "*_" * (SAY_MAX // 2)
    await d.open(world.alice, [world.bob], options="quiet_table=false target=9")
    await d.play_to_end(pause_after=40)
    lines = await d.bot.tables.history(d.table_id)
    assert len(lines) > 2 * HISTORY_PAGE and sum(map(len, lines)) > 3 * 4096, len(lines)
    shown = await d.history()
    missing = [n for n in range(1, len(lines) + 1) if f"`{n}.`" not in shown]
    assert not missing, f"History lines never shown: {missing}"
    assert shown.count("\\*\\_" * (SAY_MAX // 2)) >= 20  # what they said, whole


async def test_every_finished_game_is_on_a_history_page_with_twelve_long_names(
        fake, world, bots):
    """/history lists 8 games a page, but a 12-seat game whose names all need escaping
    takes about a thousand characters: a page holds only what fits in its embed, and
    Older reaches every game, each shown whole."""
    bot = await bots.start()
    names = longest_names(12)
    count = 10
    for i in range(count):
        seats = [{"user_id": world.carol.id if s == 0 else None, "name": name, "ai": s > 0}
                 for s, name in enumerate(names)]
        row = await bot.storage.create_table(
            guild_id=world.guild.id, channel_id=world.channel.id, game="six_suit",
            host_id=world.carol.id, seats=seats, options={})
        row.started_at = 1000.0 * i
        await bot.storage.finish_table(row, scores={s: s for s in range(12)}, winners={11},
                                       reason="r", finished_at=1000.0 * i + 600)
    matches = await bot.storage.history_matches(world.guild.id, limit=count)
    result = await fake.slash(world.carol, "history", channel=world.channel)
    pages = [result.message.text]
    while (older := next((b for b in result.message.buttons()
                          if b.get("label") == "Older" and not b.get("disabled")), None)):
        result = await fake.click(world.carol, result.message, older["custom_id"])
        pages.append(result.message.text)
    everything = "\n".join(pages)
    assert len(pages) >= 2 and "…" not in everything, pages
    for match in matches:
        assert f"`#{match['id']}`" in everything, f"game #{match['id']} on no page"
    escaped = "\\*\\_\\~\\`\\|\\<\\>\\#\\-\\[\\]\\(\\)\\@\\:\\\\"
    assert everything.count(escaped) >= 3 * count  # every game's names, whole
