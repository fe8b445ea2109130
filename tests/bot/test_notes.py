"""bot.ui.notes: the one suggestion offered instead of none, within Discord's limits
(application-commands.mdx, "Application Command Option Choice Structure": a name of 1–100
characters, a string value of at most 100, or an integer for an integer option)."""

from __future__ import annotations

import pytest

from bot.ui.notes import NOTE, NOTE_NUMBER, is_note, no_match, note, unmentioned
from bot.ui.text import strip_markdown
from cogs.config import MANAGERS_ONLY, NO_GAME_YET
from cogs.history import NO_REPLAYS
from cogs.six_suit.cog import SixSuitCog
from cogs.suit_taboo.cog import SuitTabooCog
from cogs.suspense.cog import SuspenseCog


def test_a_note_is_one_plain_choice_within_discords_limits():
    [choice] = note("**Bold** `/taboo draw` " + "word " * 40, NOTE_NUMBER)
    assert 1 <= len(choice.name) <= 100 and choice.name.endswith("…")
    assert "**" not in choice.name and "`" not in choice.name
    assert choice.value == 0 and isinstance(choice.value, int)
    [empty] = note("", NOTE)
    assert empty.name and empty.value == "-"


def test_nothing_matches_quotes_what_was_typed_short_and_on_one_line():
    [choice] = no_match("zeb\nra" + "x" * 200)
    assert choice.name.startswith("No suggestion matches “zeb ra") and len(choice.name) <= 100
    assert choice.name.endswith("or clear it to see all."), choice.name  # said whole
    [blank] = no_match("   ")
    assert "nothing to choose" in blank.name


def test_picking_nothing_matches_sends_what_was_typed():
    """What was typed may be a move the suggestions do not list (Hidden Rules takes `7h`
    for 7♥, Six Suit `3 red triangle`): picked, the note sends it as typed (a client may
    also pick the highlighted choice on Enter), and the command judges it; only what no
    choice's value can carry (over 100 characters, or not a whole number Discord takes)
    sends the note's own value."""
    assert no_match("7h")[0].value == "7h"
    assert no_match("x" * 100)[0].value == "x" * 100
    assert no_match("x" * 101)[0].value == NOTE
    assert no_match("123", NOTE_NUMBER)[0].value == 123
    assert no_match(str(2**53 - 1), NOTE_NUMBER)[0].value == 2**53 - 1
    for typed in ("12a", str(2**53), "", "-", "-3"):
        assert no_match(typed, NOTE_NUMBER)[0].value == NOTE_NUMBER, typed
    # within the option's range only (a client refuses to send a value outside it)
    assert no_match("6", NOTE_NUMBER, top=6)[0].value == 6
    assert no_match("7", NOTE_NUMBER, top=6)[0].value == NOTE_NUMBER


def test_mentions_become_names_a_choice_can_show():
    class Place:
        name = "games"

    class Guild:
        def get_channel_or_thread(self, ident):
            return Place() if ident == 12 else None

        def get_member(self, ident):
            return None

    text = unmentioned("Your game is in <#12>, not <#13>; ask <@99>.", Guild())
    assert text == "Your game is in #games, not its channel; ask someone."


@pytest.mark.parametrize(("value", "noted"), [("-", True), (" - ", True), (0, True),
                                              ("1.2", False), (1, False), (False, False),
                                              ("?", False), (None, False)])
def test_what_counts_as_a_note(value, noted):
    assert is_note(value) is noted


@pytest.mark.parametrize("reason", [
    SuitTabooCog.NO_PICK, SuitTabooCog.NO_BUILD, SuitTabooCog.NO_CAST, SuitTabooCog.NO_ACCUSE,
    SuitTabooCog.ACCUSE_FIRST, SuspenseCog.NO_CARD, MANAGERS_ONLY, NO_GAME_YET, NO_REPLAYS])
def test_the_reasons_notes_give_fit_a_choice_whole(reason):
    """Said whole in a note (never cut with "…"): at most 100 characters without markdown."""
    assert len(strip_markdown(reason)) <= 100, strip_markdown(reason)


def test_six_suits_phase_hints_fit_a_choice_whole():
    from engines.six_suit.rules import Consent, Discard, Predict

    for legal in ([Predict(0, 0, 0)], [Consent()], [Discard(0)], []):
        reason = SixSuitCog._phase_hint(None, legal)
        assert len(strip_markdown(reason)) <= 100, reason
