"""bench.ai's table options: a row can be played with the game's options set (Six Suit's
teams), so team games are measured as teams, not as everyone for themselves."""

from __future__ import annotations

import pytest

from bench.ai import Tally, play, run, side_of
from engines import ENGINES
from engines.core import InvalidActionError, Outcome


def test_a_team_row_plays_team_games_and_counts_a_team_win_for_every_teammate():
    engine = ENGINES["six_suit"]
    winners = play(engine, 4, 7000, dict.fromkeys(range(4), "random"), Tally(),
                   {"teams": 2}).winners
    assert winners and all((p + 2) % 4 in winners for p in winners)  # seats 0/2 and 1/3


def test_a_team_row_reports_one_team_s_share_as_the_fair_share():
    row = run(ENGINES["six_suit"], 4, "random", 2, 7000, options={"teams": 2})
    assert row["share"] == 0.5
    assert run(ENGINES["six_suit"], 4, "random", 1, 7000)["share"] == 0.25


def test_a_team_row_refuses_teams_the_table_cannot_form():
    with pytest.raises(InvalidActionError):
        play(ENGINES["six_suit"], 4, 7000, dict.fromkeys(range(4), "random"), Tally(),
             {"teams": 3})


def test_side_of_a_team_game_is_the_seat_and_its_teammates_every_k_th_seat():
    engine = ENGINES["six_suit"]
    assert side_of(engine, 6, 7000, {"teams": 3}, 1) == {1, 4}
    assert side_of(engine, 6, 7000, {"teams": 2}, 0) == {0, 2, 4}


def test_a_side_row_needs_teams():
    with pytest.raises(ValueError, match="team game"):
        side_of(ENGINES["six_suit"], 4, 7000, None, 0)
    with pytest.raises(ValueError, match="team game"):
        side_of(ENGINES["taboo"], 4, 7000, None, 0)


def test_a_side_row_plays_the_measured_seat_s_whole_side_hard_and_counts_it_once(monkeypatch):
    """`--side`: each game's hard seats are the measured seat (rotating) and its teammates,
    compared game by game with the same game all normal; only the measured seat's result is
    tallied (a team win is one win, not one per teammate)."""
    import bench.ai

    games: list[tuple[dict[int, str], frozenset | None]] = []

    def fake_play(engine, n, seed, seats, tally, options=None, counted=None):
        games.append((dict(seats), counted))
        if counted is not None:
            tally.games += 1
            for seat in counted:
                tally.seat_games[seat] += 1
                tally.seat_wins[seat] += 1
        return Outcome(dict.fromkeys(range(n), 0.0),
                       frozenset(p for p in range(n) if p % 2 == 0), "end")

    monkeypatch.setattr(bench.ai, "play", fake_play)
    row = run(ENGINES["six_suit"], 4, "hard", 2, 7000, options={"teams": 2}, side=True)
    hard_games = [(seats, counted) for seats, counted in games if counted is not None]
    normal_games = [seats for seats, counted in games if counted is None]
    assert [sorted(p for p, k in seats.items() if k == "hard") for seats, _ in hard_games] == [
        [0, 2], [1, 3]]
    assert [c for _s, c in hard_games] == [{0}, {1}]
    assert all(set(seats.values()) == {"normal"} for seats in normal_games)
    assert row["seat_win_rates"] == {0: 1.0, 1: 1.0} and len(row["diffs"]) == 2


def test_a_hard_row_compares_the_hard_seat_s_points_with_the_same_seat_s_all_normal(
        monkeypatch):
    """Every hard row keeps, game by game, the hard seats' mean points minus those same
    seats' points in the same game played all normal."""
    import bench.ai

    def fake_play(engine, n, seed, seats, tally, options=None, counted=None):
        tally.games += 1
        hard = [p for p in range(n) if seats[p] == "hard"]
        for p in hard:  # the hard seat wins alone
            tally.seat_games[p] += 1
            tally.seat_wins[p] += 1
        return Outcome({p: 5.0 if p in hard else float(p) for p in range(n)},
                       frozenset(hard or [0]), "end")

    monkeypatch.setattr(bench.ai, "play", fake_play)
    row = run(ENGINES["six_suit"], 4, "hard", 3, 7000)
    assert row["points_diffs"] == [5.0 - 0, 5.0 - 1, 5.0 - 2]  # seats 0, 1, 2 in turn
    assert row["points"] == 4.0 and row["diffs"] == [0.0, 1.0, 1.0]
