"""Issue 16, a board that fits a phone: at 4 players (Suspense: 3, its most) every board of
ten random whole games of each game, as the bot renders it with its turn notice, has at most
20 lines and 1,500 characters; the newest events give way first (History keeps them all),
and the games' own lines are tight enough that they rarely have to."""

from __future__ import annotations

import statistics

import pytest

from bot.ui import render
from tests.bot.board_sizes import UIS, _table, boards

GAMES = sorted(UIS)
SEEDS = range(1, 11)


def players(game: str) -> int:
    return 3 if game == "suspense" else 4


@pytest.mark.parametrize("game", GAMES)
def test_every_board_of_ten_whole_games_fits_a_phone(game):
    seen = [b for seed in SEEDS for b in boards(game, players(game), seed)]
    assert len(seen) > 100
    worst = max(seen, key=lambda b: (b.lines, b.chars))
    assert worst.lines <= render.BOARD_LINES == 20, worst.text
    assert max(b.chars for b in seen) <= render.BOARD_CHARS == 1500
    assert statistics.median(b.lines for b in seen) <= 20
    # the newest events are shown: at least two of them on 95 % of boards that have them
    later = [b for b in seen if b.move >= render.RECENT_LINES]
    shown = [sum(line.startswith("• ") for line in b.text.splitlines()) for b in later]
    assert sum(n >= 2 for n in shown) >= 0.95 * len(shown), sorted(shown)[:20]


def test_the_newest_events_give_way_when_the_game_needs_the_room():
    """The budget holds whatever a game renders: with a one-line notice and a 15-line body,
    two events fit (title, To act, two events) and they are the newest."""
    import discord

    class Tall(type(UIS["taboo"])):
        def render_board(self, view, names):
            return [discord.Embed(description="\n".join(f"line {i}" for i in range(15)))]

    live = _table("taboo", 4, 1)
    live.ui = Tall()
    live.state = live.engine.new_game(4, 1)
    live.meta["log"] = [f"event {i}" for i in range(4)]
    text = render.shown_text("🎯 notice", render.board_embeds(live, "🎯 notice"))
    assert len(text.splitlines()) == 20
    assert "event 3" in text and "event 2" in text and "event 1" not in text
