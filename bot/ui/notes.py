"""Autocomplete that always says something: a note instead of Discord's bare "no options".

An empty list of suggestions shows as "no options" and leaves a player guessing (is it not
their turn? do they have no such move? did they mistype?). Every autocomplete of a game
command is wrapped in `explained`: the refusal its command would give (raised as a
TableError while the suggestions are made) becomes the one choice offered, its name saying
why; and when what was typed matches nothing, the one choice says that.

Discord sends a choice's value if the player picks it anyway, so a refusal's note has the
value `NOTE` (`NOTE_NUMBER` for a whole-number option): no move's value. The command checks
first what its autocomplete checked, so a note picked in the same situation is refused with
the same words; if the game has moved on since, `is_note` lets it refuse with
`NOTE_PICKED`. The "no suggestion matches" note instead sends what was typed (`no_match`).
Discord's limits hold: one choice, its name 1–100 characters of plain text, its value a
string of 1–100 characters or, for a whole-number option, an integer.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.tables.service import TableError
from bot.tables.settings import OptionsError
from bot.ui.names import clean_name
from bot.ui.text import OPTION_LIMIT, plain

MAX_CHOICES = 25  # Discord's limit of choices in one autocomplete answer
CHOICE_VALUE_MAX = 100  # characters of a choice's string value (Discord's limit)
NOTE = "-"  # the value of a note in a text option: no card, name or move is written so
NOTE_NUMBER = 0  # in a whole-number option (its range starts at 0 for it: no pile is 0)
NOTE_PICKED = ("That choice was only a note, not a move: pick one of the suggestions (clear "
               "what you typed to see them all), or use **Take my turn** on the board.")
TYPED_SHOWN = 32  # characters of what was typed quoted in a "no suggestion matches" note
# (its sentence then fits a choice's name whole)
_WHOLE = re.compile(r"[+-]?[0-9]{1,16}", re.ASCII)  # a typed whole number
WHOLE_MAX = 2**53 - 1  # the largest integer option value Discord takes

Choices = list[app_commands.Choice]


_MENTION = re.compile(r"<(#|@!?)([0-9]{1,20})>", re.ASCII)


def unmentioned(text: str, guild: discord.Guild | None) -> str:
    """`text` with channel and member mentions as names (`#games`, `@alice`): a choice's
    name shows a mention raw, as `<#1234…>`."""
    def name(match: re.Match) -> str:
        kind, ident = match[1], int(match[2])
        if kind == "#":
            where = guild.get_channel_or_thread(ident) if guild is not None else None
            return f"#{where.name}" if where is not None else "its channel"
        member = guild.get_member(ident) if guild is not None else None
        return f"@{clean_name(member.display_name)}" if member is not None else "someone"
    return _MENTION.sub(name, text)


def note(reason: str, value: str | int = NOTE, guild: discord.Guild | None = None) -> Choices:
    """The one choice that says why there is nothing to choose (mentions as names and
    markdown removed: a choice's name shows them raw; cut at a word to Discord's 100
    characters)."""
    text = plain(unmentioned(reason, guild), OPTION_LIMIT)
    return [app_commands.Choice(name=text or "Nothing to choose now", value=value)]


def no_match(typed: str, value: str | int = NOTE, top: int = WHOLE_MAX) -> Choices:
    """The note for suggestions that what was typed filtered away. Picked (a client may
    also pick the highlighted choice on Enter), it sends what was typed, as if there were
    no note: a command takes typed text the suggestions may not list (Hidden Rules `7h`
    for 7♥, Six Suit `3 red triangle`), and judges the rest in its own words. Only what no
    choice's value can carry (over 100 characters; a whole number outside `value` to
    `top`, the option's range, which a client would not send) sends the note's own
    `value`."""
    shown = clean_name(typed, TYPED_SHOWN, fallback="")
    if not shown:
        return note("There's nothing to choose here right now.", value)
    return note(f"No suggestion matches “{shown}”: send it as typed, or clear it to see all.",
                _as_typed(typed, value, top))


def _as_typed(typed: str, value: str | int, top: int) -> str | int:
    """`typed` as a choice's value of the option's type (`value`'s), else `value`."""
    if isinstance(value, int):
        text = typed.strip()
        number = int(text) if _WHOLE.fullmatch(text) else None
        return number if number is not None and value <= number <= top else value
    return typed if 1 <= len(typed) <= CHOICE_VALUE_MAX else value


def is_note(value: Any) -> bool:
    """Whether a submitted value is a note's (`NOTE` typed or picked, `NOTE_NUMBER`)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value == NOTE_NUMBER
    return isinstance(value, str) and value.strip() == NOTE


def refuse_notes(*values: Any, then: str = NOTE_PICKED) -> None:
    """Refuse a command given a note's value (after its own checks, which say why when the
    situation is still the one the note described), saying `then`."""
    if any(is_note(v) for v in values):
        raise TableError(then)


Suggest = Callable[[Any, discord.Interaction, str], Awaitable[Choices]]


def explained(value: str | int = NOTE, *, top: int = WHOLE_MAX
              ) -> Callable[[Suggest], Suggest]:
    """Wrap an autocomplete callback (a cog method): a refusal it raises becomes a note,
    and no suggestion left becomes the "no suggestion matches" note; at most 25 choices.
    `top`: a whole-number option's max_value (its min_value is `NOTE_NUMBER`)."""
    def wrap(suggest: Suggest) -> Suggest:
        @functools.wraps(suggest)
        async def explaining(self: Any, interaction: discord.Interaction, current: str
                             ) -> Choices:
            try:
                choices = await suggest(self, interaction, current)
            except (TableError, OptionsError) as exc:
                return note(str(exc), value, interaction.guild)
            return choices[:MAX_CHOICES] or no_match(str(current or ""), value, top)
        return explaining
    return wrap
