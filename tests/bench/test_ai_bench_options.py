"""bench.ai's table options: a row can be played with the game's options set (Six Suit's
teams), so team games are measured as teams, not as everyone for themselves."""

from __future__ import annotations

import pytest

from bench.ai import Tally, half_of, play, run, side_of, win_share
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
        return Outcome(dict.fromkeys(range(n), 0.0), frozenset(p for p in range(n) if p % 2 == 0),
                       "end")

    monkeypatch.setattr(bench.ai, "play", fake_play)
    row = run(ENGINES["six_suit"], 4, "hard", 2, 7000, options={"teams": 2}, side=True)
    hard_games = [(seats, counted) for seats, counted in games if counted is not None]
    normal_games = [seats for seats, counted in games if counted is None]
    assert [sorted(p for p, k in seats.items() if k == "hard") for seats, _ in hard_games] == [
        [0, 2], [1, 3]]
    assert [c for _s, c in hard_games] == [{0}, {1}]
    assert all(set(seats.values()) == {"normal"} for seats in normal_games)
    assert row["seat_win_rates"] == {0: 1.0, 1: 1.0} and len(row["diffs"]) == 2


def test_a_half_row_seats_every_other_seat_hard_each_seat_in_half_the_games():
    assert half_of(8, 0) == {0, 2, 4, 6} and half_of(8, 1) == {1, 3, 5, 7}
    assert half_of(9, 0) == {0, 2, 4, 6, 8} and half_of(9, 3) == {1, 3, 5, 7}


def test_a_tied_win_is_shared_between_the_seats_that_tied():
    assert win_share(frozenset({1, 2}), frozenset({0, 2})) == 0.5
    assert win_share(frozenset({3}), frozenset({0, 2})) == 0.0
    assert win_share(frozenset({2}), frozenset({0, 2})) == 1.0


def test_a_half_row_compares_the_hard_seats_share_and_points_with_the_same_seats_normal(
        monkeypatch):
    """`--half`: game g seats `half_of(n, g)` hard; each game counts the hard seats' share of
    the win against those seats' share in the same game all normal, and the hard seats'
    mean points against theirs all normal."""
    import bench.ai

    games: list[dict[int, str]] = []

    def fake_play(engine, n, seed, seats, tally, options=None, counted=None):
        games.append(dict(seats))
        tally.games += 1
        if "hard" in seats.values():  # hard seats win alone, with 3 points each
            return Outcome({p: 3.0 if seats[p] == "hard" else 0.0 for p in range(n)},
                           frozenset(p for p in range(n) if seats[p] == "hard"), "end")
        return Outcome(dict.fromkeys(range(n), 1.0), frozenset({0, 1}), "end")  # a tie

    monkeypatch.setattr(bench.ai, "play", fake_play)
    row = run(ENGINES["six_suit"], 4, "hard", 2, 7000, half=True)
    hard_games = [seats for seats in games if "hard" in seats.values()]
    assert [sorted(p for p, k in seats.items() if k == "hard") for seats in hard_games] == [
        [0, 2], [1, 3]]
    assert row["diffs"] == [0.5, 0.5] and row["win_rate"] == 1.0
    assert row["normal_same_seat"] == 0.5 and row["share"] == 0.5
    assert row["points_diffs"] == [2.0, 2.0] and row["points"] == 2.0


def test_a_half_row_of_real_games_plays_and_reports_both_figures():
    row = run(ENGINES["six_suit"], 5, "hard", 2, 7000, half=True)
    assert len(row["diffs"]) == 2 and len(row["points_diffs"]) == 2
    assert all(-1.0 <= d <= 1.0 for d in row["diffs"])
    assert row["share"] == pytest.approx((3 + 2) / 10)
