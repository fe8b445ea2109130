"""bench.ai's table options: a row can be played with the game's options set (Six Suit's
teams), so team games are measured as teams, not as everyone for themselves."""

from __future__ import annotations

import pytest

from bench.ai import Tally, hard_seats, play, run, side_of
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
        return frozenset(p for p in range(n) if p % 2 == 0)

    monkeypatch.setattr(bench.ai, "play", fake_play)
    row = run(ENGINES["six_suit"], 4, "hard", 2, 7000, options={"teams": 2}, layout="side")
    hard_games = [(seats, counted) for seats, counted in games if counted is not None]
    normal_games = [seats for seats, counted in games if counted is None]
    assert [sorted(p for p, k in seats.items() if k == "hard") for seats, _ in hard_games] == [
        [0, 2], [1, 3]]
    assert [c for _s, c in hard_games] == [{0}, {1}]
    assert all(set(seats.values()) == {"normal"} for seats in normal_games)
    assert row["seat_win_rates"] == {0: 1.0, 1: 1.0} and len(row["diffs"]) == 2


def test_a_half_row_seats_hard_on_every_other_seat_from_the_measured_one():
    engine = ENGINES["six_suit"]
    assert hard_seats(engine, 8, 7000, None, 1, "half") == {1, 3, 5, 7}
    assert hard_seats(engine, 5, 7000, None, 3, "half") == {3, 0}  # n // 2, alternating
    assert hard_seats(engine, 12, 7000, None, 0, "half") == set(range(0, 12, 2))
    assert hard_seats(engine, 8, 7000, None, 1, "seat") == {1}


def test_a_half_row_refuses_a_team_game():
    with pytest.raises(ValueError, match="--side"):
        hard_seats(ENGINES["six_suit"], 6, 7000, {"teams": 2}, 0, "half")


def test_a_half_row_tallies_every_hard_seat_and_averages_its_differences(monkeypatch):
    """`--half`: each hard seat is tallied, and the game's difference is the mean over the
    hard seats of (won at the half-hard table) minus (won by a normal AI in that seat of
    the same game all normal)."""
    import bench.ai

    games: list[dict[int, str]] = []

    def fake_play(engine, n, seed, seats, tally, options=None, counted=None):
        games.append(dict(seats))
        hard = [p for p, k in seats.items() if k == "hard"]
        if hard:  # the half-hard game: seat 2 wins; all normal: seat 1 wins
            tally.games += 1
            for p in hard:
                tally.seat_games[p] += 1
                tally.seat_wins[p] += p == 2
            return frozenset({2})
        return frozenset({1})

    monkeypatch.setattr(bench.ai, "play", fake_play)
    row = run(ENGINES["six_suit"], 4, "hard", 2, 7000, layout="half")
    hard = [sorted(p for p, k in seats.items() if k == "hard") for seats in games[::2]]
    assert hard == [[0, 2], [1, 3]]
    assert all(set(seats.values()) == {"normal"} for seats in games[1::2])
    # game 0: seats 0, 2 -> (0 - 0 + 1 - 0) / 2; game 1: seats 1, 3 -> (0 - 1 + 0 - 0) / 2
    assert row["diffs"] == [0.5, -0.5]
    assert row["win_rate"] == 0.25  # 1 win in 4 hard seat-games
    assert row["normal_same_seat"] == 0.25


def test_a_half_row_plays_real_games():
    row = run(ENGINES["six_suit"], 5, "hard", 2, 7000, layout="half")
    assert row["games"] == 2 and len(row["diffs"]) == 2
    assert set(row["seat_win_rates"]) == {0, 1, 2, 3}  # games 0 and 1: seats 0, 2 and 1, 3
    assert all(-1.0 <= d <= 1.0 for d in row["diffs"])
