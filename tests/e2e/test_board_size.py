"""Issue 16, a board that fits a phone: over whole games at 4 players (Suspense: 3), every
version of every game's board, measured in lines and characters as a player sees it
(content and embeds). Every board, the largest included, has at most 20 lines and 1,500
characters; each game's median and maximum are printed (README has the figures of
`python -m scripts.table_report`, whole games with default options; tests/bot/
test_board_lines.py renders every board of ten random whole games of each game)."""

from __future__ import annotations

import statistics

import pytest

from scripts.table_report import play

pytestmark = pytest.mark.e2e

SHORT = {  # whole games, kept short by each game's own options
    "suspense": "points_target=3",
    "suit_taboo": "max_turns_per_round=60 max_rounds=3",
    "hidden_rules": "target=2 max_turns=60",
    "taboo": "max_turns=40",
    "six_suit": "max_rounds=12 free_time_rounds=1",
}


@pytest.mark.parametrize("game", sorted(SHORT))
async def test_every_board_of_a_whole_game_fits_a_phone(game):
    players = 3 if game == "suspense" else 4
    report, _ = await play(game, players, seed=1, options=SHORT[game])
    assert report.board_versions > 5
    print(f"{game}: {report.board_versions} boards, lines median {report.lines_median:g} max "
          f"{report.lines_max}, characters median {report.chars_median:g} max "
          f"{report.chars_max}")
    assert report.lines_median <= 20 and report.chars_median <= 1500, report
    assert report.lines_max <= 20 and report.chars_max <= 1500, report
    # ≤ 1 notifying DM per player per round of turns, and far fewer in practice
    for name, dms in report.notifying_dms.items():
        assert dms <= max(1, report.turns[name]), (name, report)
    assert statistics.mean(report.notifying_dms.values()) <= 3, report
