"""Command and option descriptions as Discord shows them: plain text (Discord shows
backticks and asterisks raw there) within 100 characters (issue 14 item 5)."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.e2e

MARKDOWN = re.compile(r"`|\*\*|__|~~|\|\||(?<![A-Za-z0-9])[*_]|[*_](?![A-Za-z0-9])")


def walk(commands, path=""):
    for command in commands:
        name = f"{path} {command['name']}".strip()
        yield name, command.get("description", "")
        for choice in command.get("choices") or []:
            yield f"{name} choice", choice["name"]
        yield from walk(command.get("options") or [], name)


async def test_every_description_is_plain_text_within_100_characters(fake, world, bot):
    texts = list(walk(fake.synced_commands(world.guild)))
    assert len(texts) > 50
    bad = [(name, text) for name, text in texts
           if not 1 <= len(text) <= 100 or MARKDOWN.search(text)]
    assert not bad, "\n".join(f"{n}: {t}" for n, t in bad)


async def test_every_option_says_what_it_is(fake, world, bot):
    """discord.py fills a missing option description with "…", which Discord shows as the
    option's help (it did for `/config show|set|reset game:`)."""
    blank = [name for name, text in walk(fake.synced_commands(world.guild))
             if text.strip() in ("…", "...", "")]
    assert not blank, blank
