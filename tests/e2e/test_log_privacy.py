"""The logs carry no hidden information: whole games played with every log record captured
at DEBUG (discord.py's included: its HTTP client and gateway log bodies and events there),
then no private line — a DM's or an ephemeral answer's text, or the alt text of a picture in
one — and no card, role or secret rule hidden at the deal appears in any record."""

from __future__ import annotations

import logging

import pytest

from tests.e2e.driver import TableDriver

pytestmark = pytest.mark.e2e

# Lines shorter than this are words any message may hold ("Your hand", a name).
MIN_LINE = 12
# The fake Discord's own records (it runs in the test's process): not the bot's logs.
FAKE_LOGGERS = ("fakediscord", "aiohttp.access", "aiohttp.server", "aiohttp.web")


def bot_log_texts(records: list[logging.LogRecord]) -> list[str]:
    """Each record the bot side made, as a handler would write it (message and traceback)."""
    formatter = logging.Formatter()
    texts = []
    for record in records:
        if record.name.startswith(FAKE_LOGGERS):
            continue
        texts.append(f"{record.name} {record.getMessage()}")
        if record.exc_info:
            texts.append(formatter.formatException(record.exc_info))
    return texts


def texts_of(messages) -> list[str]:
    """Every version's text of `messages` plus their attachments' alt texts."""
    texts = []
    for message in messages:
        texts.extend(message.version_texts())
        texts.extend(a.get("description") or "" for a in message.attachments)
    return texts


def private_lines(fake, d: TableDriver) -> set[str]:
    """The lines only one player was shown (their DMs and ephemeral answers), that no public
    message of the server ever held."""
    public = "\n".join(texts_of(
        m for guild in fake.guilds.values() for channel in [*guild.channels, *guild.threads]
        for m in fake.channel_messages(channel, include_deleted=True)))
    lines = set()
    for user in d.players:
        dm = fake._dm_channels.get(user.id)
        dms = fake.channel_messages(dm, include_deleted=True) if dm is not None else []
        for text in texts_of([*dms, *fake.ephemerals(user)]):
            lines.update(line.strip() for line in text.splitlines()
                         if len(line.strip()) >= MIN_LINE and line.strip() not in public)
    return lines


GAMES = {
    # (command, the host's friends, AI seats, options, what the first DM says)
    "suit_taboo": ("suittaboo", 2, 1, "max_reshuffles=0 max_turns_per_round=60",
                   "Your role this round"),
    "hidden_rules": ("hiddenrules", 1, 2, "turn_seconds=0 target=2 max_turns=60",
                     "Choose your secret rule"),
}


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_game_logs_no_hand_role_rule_or_private_line(fake, world, bots, bot,
                                                                    caplog, game):
    caplog.set_level(logging.DEBUG)
    command, friends, ai, options, first_dm = GAMES[game]
    d = TableDriver(fake, world, bots, command)
    await d.open(world.alice, [world.bob, world.carol][:friends], ai=ai, options=options)
    assert first_dm in fake.dms(world.alice)[0].text
    table = d.table
    hidden_at_deal = set(table.engine.secret_labels(table.state, None))
    assert hidden_at_deal
    await d.play_to_end(choose=lambda labels: 0)

    logs = bot_log_texts(caplog.records)
    assert any(text.startswith("discord.http") for text in logs), "DEBUG lines were captured"
    private = private_lines(fake, d)
    assert any(first_dm in line for line in private), "the DMs were read"
    everything = "\n".join(logs)
    leaked = sorted(line for line in private if line in everything)
    assert not leaked, f"private lines in the logs: {leaked[:5]}"
    named = sorted(label for label in hidden_at_deal if label in everything)
    assert not named, f"cards, roles or rules hidden at the deal in the logs: {named[:10]}"
