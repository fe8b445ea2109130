"""`bot.ui.text.clip`: text is cut where a reader expects it (issue 14 item 5): by whole
lines, else whole words, with an ellipsis, never inside markdown, within Discord's limits
counted as Discord counts them (code points)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ui.text import balanced, chunks, clip, plain, strip_markdown


def test_text_within_the_limit_is_unchanged():
    assert clip("short", 5) == "short"
    assert clip("🎴" * 10, 10) == "🎴" * 10  # one emoji is one character for Discord


def test_whole_lines_are_kept_and_the_cut_is_marked():
    text = "first line\nsecond line\nthird line"
    assert clip(text, 25) == "first line\nsecond line\n…"
    assert len(clip(text, 25)) <= 25


def test_keep_end_keeps_the_newest_whole_lines():
    text = "\n".join(f"• event number {i}" for i in range(100))
    cut = clip(text, 1024, keep="end")
    assert len(cut) <= 1024 and cut.startswith("…\n")
    lines = cut.split("\n")[1:]
    assert lines[-1] == "• event number 99"
    assert all(line.startswith("• event number ") for line in lines)  # no line cut in half


def test_one_long_line_is_cut_between_words():
    cut = clip("the quick brown fox jumps over the lazy dog", 20)
    assert cut == "the quick brown fox…"
    assert len(cut) <= 20


def test_a_cut_never_leaves_bold_or_spoilers_open():
    cut = clip("**a bold sentence that goes on and on** then plain", 20)
    assert balanced(cut) and cut.endswith("**…") and len(cut) <= 20
    cut = clip("||a spoiler that goes on and on|| then plain", 20)
    assert balanced(cut) and len(cut) <= 20


def test_a_cut_never_splits_code_spans_links_or_mentions():
    for text in ("a `code span that is quite long` b c d e f g",
                 "see [the rules page](https://example.com/rules) for more words here",
                 "ping <@123456789012345678> and <t:1700000000:R> then more words here"):
        for limit in range(4, len(text)):
            cut = clip(text, limit)
            assert len(cut) <= limit and balanced(cut), (limit, cut)
            assert cut.count("`") % 2 == 0 and cut.count("<") == cut.count(">")


def test_a_code_block_is_not_left_open_by_a_line_cut():
    text = "intro\n```\ncode line 1\ncode line 2\ncode line 3\n```\nafter"
    cut = clip(text, 30)
    assert cut.count("```") % 2 == 0 and len(cut) <= 30


def test_underscores_inside_words_are_not_emphasis():
    assert balanced("`points_target` = **6**, max_rounds too")
    assert not balanced("_open italic")


def test_plain_removes_markdown_for_places_that_show_it_raw():
    assert plain("Play `7♠` with **care**", 100) == "Play 7♠ with care"
    assert strip_markdown("[link](https://x.y)") == "link"


def test_chunks_split_at_line_breaks_within_the_limit():
    lines = [f"`option_{i}` = **{i}** — a description of option {i}" for i in range(60)]
    parts = chunks("\n".join(lines), 1024)
    assert len(parts) > 1 and all(len(p) <= 1024 for p in parts)
    assert "\n".join(parts).split("\n") == lines  # nothing lost, no line cut


markdown_text = st.lists(st.sampled_from(
    ["word", "longerword", "**", "*", "__", "_", "||", "~~", "`code span`", "\n", " ", "  ",
     "[a link](https://x.y/z)", "<@12345>", "🎴", "⚫5", "points_target"]), max_size=80
).map("".join)


@settings(max_examples=500)
@given(markdown_text, st.integers(min_value=1, max_value=120),
       st.sampled_from(["start", "end"]))
def test_clip_always_fits_and_never_opens_markdown(text, limit, keep):
    cut = clip(text, limit, keep=keep)
    assert len(cut) <= limit
    if len(text) <= limit:
        assert cut == text
    elif balanced(text):
        assert balanced(cut), (text, cut)


def test_clip_embed_puts_every_text_within_its_limit():
    import discord

    from bot.ui.render import clip_embed

    line = "• **someone** plays `7♠` and says something quite long"
    embed = discord.Embed(title="t" * 300, description="\n".join([line] * 200))
    embed.add_field(name="n" * 300, value="\n".join([line] * 50))
    embed.add_field(name="short", value="fine")
    embed.set_footer(text="f " * 1500)
    embed.set_author(name="a " * 200)
    clip_embed(embed)
    assert len(embed.title) <= 256 and len(embed.description) <= 4096
    assert len(embed.fields[0].name) <= 256 and len(embed.fields[0].value) <= 1024
    assert embed.fields[1].value == "fine"
    assert len(embed.footer.text) <= 2048 and len(embed.author.name) <= 256
    assert embed.fields[0].value.split("\n")[-1] == "…"
    assert all(part == line for part in embed.fields[0].value.split("\n")[:-1])


def test_escaped_characters_are_literal_not_markdown():
    """Names are escaped for markdown (`\\*star\\*`): a label shows the plain name, and a
    cut does not take an escaped star for an open emphasis."""
    assert plain(r"Remove \*star\* now", 100) == "Remove *star* now"
    assert balanced(r"a \*b") and balanced(r"\_x")
    assert clip(r"a \*b c d e f g h", 8) == r"a \*b c…"


def test_cap_note_counts_the_turn_under_way():
    """The safety cap's warning counts the turn or round being played: "1 round left" while
    playing the capped round read as if one more came after it, and Taboo (which passed the
    current turn's number) said "0 turns left" during its last turn."""
    from bot.ui.text import cap_note

    assert cap_note(10, 60, "round") is None  # far away
    assert cap_note(57, 60, "round") == ("⚠️ 3 rounds left before the safety cap, this one "
                                         "included")
    assert cap_note(59, 60, "round") == "⚠️ Last round before the safety cap"
    assert cap_note(60, 60, "round") is None  # passed: nothing ahead to warn about
