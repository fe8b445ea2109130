"""bot.ui.names: the one escaping of names and typed text (issue 15, hostile names)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.ui.names import (
    EMPTY_ECHO,
    FALLBACK_NAME,
    NAME_LIMIT,
    clean_name,
    echo,
    escape_markdown,
    pings,
    safe_name,
    said,
    seat_names,
)


def unescape(text: str) -> str:
    """What Discord shows for escaped text: a backslash before punctuation disappears."""
    return re.sub(r"\\([^0-9A-Za-z\s])", r"\1", text).replace("@\u200b", "@")


def test_markdown_and_mentions_are_escaped_and_shown_as_typed():
    for name in ("[free nitro](https://example.com)", "**x** __y__", "<@123456789012345678>",
                 "@everyone", "<#1> <:e:1:>", "`code`", "||spoiler||", "# big", "> quote"):
        escaped = escape_markdown(name)
        assert unescape(escaped) == name
        assert safe_name(name) == escape_markdown(clean_name(name))
        assert not re.search(r"(?<!\\)[*_~`|<>#\[\]()]", escaped), escaped
    assert "\\@\u200beveryone" in safe_name("@everyone")
    assert "https\\:" in safe_name("https://x.y")  # no autolink either


def test_names_are_one_line_visible_and_bounded():
    assert clean_name("a\nb\tc\r\nd") == "a b c d"
    assert clean_name("zero\u200bwidth\u202e") == "zerowidth"
    assert clean_name("\u200b\u200b") == FALLBACK_NAME
    assert clean_name("\u3164") == FALLBACK_NAME  # an "invisible" Hangul filler name
    assert clean_name("x" * 100) == "x" * (NAME_LIMIT - 1) + "…"
    family = "👨\u200d👩\u200d👧"
    assert clean_name(family) == family  # joined emoji stay joined


@given(st.text(max_size=200))
def test_any_name_is_bounded_and_escapes_round_trip(raw):
    name = clean_name(raw)
    assert 0 < len(name) <= NAME_LIMIT and "\n" not in name
    assert unescape(escape_markdown(name)) == name


def test_echo_never_leaves_its_code_span_nor_grows_past_its_limit():
    shown = echo("`" * 10 + "x" * 6000)
    assert shown.count("`") == 2 and len(shown) <= 62


def test_said_keeps_what_was_typed_for_the_game_to_count():
    """Hidden Rules: what a player says is kept as typed (invisible characters dropped,
    spaces squeezed, line breaks kept: they separate parts); escaping is for display only,
    so the quiet table's 100 characters count what was typed."""
    assert said("**sorry**  please\nhave a\u200b nice day\n\n") == \
        "**sorry** please\nhave a nice day"


def test_typed_text_in_an_engines_text_is_shown_literally():
    """A player's words inside an event are escaped where markdown renders, never read as
    seats or signs, and plain where text shows raw."""
    from bot.ui.text import shown
    from engines.core import typed

    text = "{P0} plays 7♥ — says “" + typed("**-2** {P1} @everyone") + "”, -2."
    assert shown(text, ["ann", "bob"]) == \
        "ann plays 7♥ — says “\\*\\*\\-2\\*\\* {P1} \\@\u200beveryone”, −2."
    assert shown(text, ["ann", "bob"], markdown=False) == \
        "ann plays 7♥ — says “**-2** {P1} @everyone”, −2."


def test_pings_name_exactly_the_users_given():
    assert pings().to_dict()["parse"] == [] and not pings().to_dict().get("users")
    mentions = pings(5, 7).to_dict()
    assert mentions["parse"] == [] and mentions["users"] == [5, 7]
    assert not mentions.get("replied_user")


def test_escaped_names_count_as_plain_text_when_text_is_cut():
    """bot.ui.text.clip treats a backslash escape as one unit: an escaped `*` is no
    emphasis marker, so text with escaped names is balanced and never cut between the
    backslash and its character."""
    from bot.ui.text import balanced, clip

    for name in ("**x**", "a_b*", "`tick", "||s"):
        assert balanced(f"**{safe_name(name)}** wins")
    text = " ".join([safe_name("**x** [a](b)")] * 40)
    cut = clip(text, 100)
    assert len(cut) <= 100 and not cut.rstrip("…").rstrip().endswith("\\")


def test_echo_of_empty_input_says_nothing_was_given_not_a_display_name():
    """`/taboo new options:max_turns=` quoted the empty value back as `Player` (the
    fallback for a display name with nothing visible in it)."""
    for blank in ("", "   ", "\u200b"):
        assert echo(blank) == EMPTY_ECHO
        assert FALLBACK_NAME not in echo(blank)
    assert echo("abc") == "`abc`"


def test_seats_sharing_a_name_are_told_apart_by_their_seat_number():
    """Display names are not unique: two seats called "Alex" (any case) made every board
    line and button ambiguous. Shared names get the seat number; unique ones are as before;
    two names with nothing visible ("Player") are told apart too."""
    raw = ["Alex", "bob", "alex", "\u200b", "\u2060", "*Cat*"]
    plain = seat_names(raw, markdown=False)
    assert plain == ["Alex (1)", "bob", "alex (3)", "Player (4)", "Player (5)", "*Cat*"]
    shown = seat_names(raw, markdown=True)
    assert shown[0] == "Alex \\(1\\)" and shown[1] == "bob" and shown[5] == "\\*Cat\\*"
    assert seat_names(["Ann", "Bob"], markdown=True) == [safe_name("Ann"), safe_name("Bob")]
    assert seat_names(["Ann", "Bob"], markdown=False) == ["Ann", "Bob"]
