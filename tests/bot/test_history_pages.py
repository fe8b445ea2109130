"""History pages (bot.ui.render.history_pages): every line of a game on exactly one page, a
page within one embed description, and pages once full never moving as the game goes on."""

from __future__ import annotations

import random

from bot.ui.render import HISTORY_CHARS, HISTORY_PAGE, history_page, history_pages
from bot.ui.text import pages_of


def lines_of(sizes: list[int]) -> list[str]:
    return [f"line {i} " + "x" * size for i, size in enumerate(sizes)]


def test_short_lines_make_pages_of_fifteen() -> None:
    pages = history_pages(lines_of([10] * 40))
    assert pages == [(0, 15), (15, 30), (30, 40)]


def test_long_lines_make_shorter_pages_that_fit_an_embed() -> None:
    """Lines of 300-600 characters (a Hidden Rules play saying 200 escaped characters):
    each page's text, numbers included, fits the description; none is cut."""
    rng = random.Random(5)
    lines = lines_of([rng.randint(300, 600) for _ in range(120)])
    pages = history_pages(lines)
    assert [start for start, _ in pages] == [0] + [end for _, end in pages[:-1]]
    assert pages[-1][1] == len(lines)
    for number, (start, end) in enumerate(pages):
        embed, _view = history_page(1, "Hidden Rules", lines, number)
        assert len(embed.description) <= HISTORY_CHARS
        assert "…" not in embed.description and end - start <= HISTORY_PAGE
        for i in range(start, end):
            assert f"`{i + 1}.` {lines[i]}" in embed.description


def test_full_pages_stay_as_they_were_when_lines_are_added() -> None:
    rng = random.Random(7)
    lines = lines_of([rng.randint(5, 900) for _ in range(200)])
    before = history_pages(lines[:150])
    after = history_pages(lines)
    assert after[:len(before) - 1] == before[:-1]


def test_no_lines_is_one_page() -> None:
    assert history_pages([]) == [(0, 0)]
    embed, view = history_page(1, "Taboo", [], None)
    assert "Nothing has happened yet." in embed.description and view is None


def test_pages_of_counts_the_joiner() -> None:
    """Two parts of 10 joined by a blank line take 22 characters: a limit of 21 splits."""
    assert pages_of(["a" * 10, "b" * 10], 8, 22, "\n\n") == [(0, 2)]
    assert pages_of(["a" * 10, "b" * 10], 8, 21, "\n\n") == [(0, 1), (1, 2)]
    assert pages_of(["a" * 50], 8, 10) == [(0, 1)]  # too long alone: a page of its own
