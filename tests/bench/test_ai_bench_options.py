"""bench.ai's table options: a row can be played with the game's options set (Six Suit's
teams), so team games are measured as teams, not as everyone for themselves."""

from __future__ import annotations

import pytest

from bench.ai import Tally, play, run
from engines import ENGINES
from engines.core import InvalidActionError


def test_a_team_row_plays_team_games_and_counts_a_team_win_for_every_teammate():
    engine = ENGINES["six_suit"]
    winners = play(engine, 4, 7000, dict.fromkeys(range(4), "random"), Tally(), {"teams": 2})
    assert winners and all((p + 2) % 4 in winners for p in winners)  # seats 0/2 and 1/3


def test_a_team_row_reports_one_team_s_share_as_the_fair_share():
    row = run(ENGINES["six_suit"], 4, "random", 2, 7000, options={"teams": 2})
    assert row["share"] == 0.5
    assert run(ENGINES["six_suit"], 4, "random", 1, 7000)["share"] == 0.25


def test_a_team_row_refuses_teams_the_table_cannot_form():
    with pytest.raises(InvalidActionError):
        play(ENGINES["six_suit"], 4, 7000, dict.fromkeys(range(4), "random"), Tally(),
             {"teams": 3})
