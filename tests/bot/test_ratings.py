"""Ratings (issue 18) are openskill's own Plackett–Luce results for the ranking each finished
game makes (bot.ratings): the tests rate the same teams and ranks with the library directly
and expect exactly its numbers, for two players, several players, ties, teams, players who
left, and AI seats."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.ratings import Rating, RatingJob, ordinal, placements, rate

LIB = PlackettLuce()  # the library with its defaults, as the bot uses it


def _lib(teams: list[list[Rating]], ranks: list[int]) -> list[list[Rating]]:
    """openskill's own answer."""
    out = LIB.rate([[LIB.create_rating([r.mu, r.sigma]) for r in team] for team in teams],
                   ranks=[float(r) for r in ranks])
    return [[Rating(p.mu, p.sigma) for p in team] for team in out]


def _seats(*users, **flags) -> list[dict]:
    return [{"seat": i, "user_id": u, "ai": u is None, **flags.get(str(i), {})}
            for i, u in enumerate(users)]


def _by_player(changes) -> dict[str, Rating]:
    return {c.player: c.after for c in changes}


def _close(a: Rating, b: Rating) -> bool:
    return a.mu == pytest.approx(b.mu, abs=1e-12) and \
        a.sigma == pytest.approx(b.sigma, abs=1e-12)


def test_two_players_the_winner_gains_what_the_library_says():
    changes = rate(_seats(1, 2), {0: 6, 1: 2}, {0}, "normal", {})
    [[win], [lose]] = _lib([[Rating()], [Rating()]], [1, 2])
    got = _by_player(changes)
    assert _close(got["u:1"], win) and _close(got["u:2"], lose)
    assert got["u:1"].ordinal > 0 > got["u:2"].ordinal
    first = next(c for c in changes if c.player == "u:1")
    assert first.won and first.placement == 1 and first.before == Rating()


def test_ratings_carry_over_from_game_to_game():
    before = {"u:1": Rating(31.0, 4.0), "u:2": Rating(22.0, 6.5)}
    changes = rate(_seats(1, 2), {0: 1, 1: 3}, {1}, "normal", before)
    [[win], [lose]] = _lib([[before["u:2"]], [before["u:1"]]], [1, 2])
    got = _by_player(changes)
    assert _close(got["u:2"], win) and _close(got["u:1"], lose)


def test_several_players_are_ranked_by_the_games_standings():
    # Suit Taboo-like: one winner, then round wins high to low
    scores = {0: 1, 1: 2, 2: 0, 3: 1, 4: 3}
    changes = rate(_seats(1, 2, 3, 4, 5), scores, {4}, "normal", {})
    expected = _lib([[Rating()]] * 5, [1, 2, 3, 3, 4])  # seats 4, 1, 0 and 3 tied, 2
    order = ["u:5", "u:2", "u:1", "u:4", "u:3"]
    got = _by_player(changes)
    for key, [want] in zip(order, expected, strict=True):
        assert _close(got[key], want), key
    assert [c.placement for c in changes] == [1, 2, 3, 3, 4]


def test_a_tie_for_first_is_a_tie():
    # Taboo: two players share the best score, both win
    changes = rate(_seats(1, 2, 3), {0: 7, 1: 7, 2: 2}, {0, 1}, "normal", {})
    expected = _lib([[Rating()], [Rating()], [Rating()]], [1, 1, 2])
    got = _by_player(changes)
    assert _close(got["u:1"], expected[0][0]) and _close(got["u:2"], expected[1][0])
    assert _close(got["u:3"], expected[2][0])
    assert got["u:1"] == got["u:2"]


def test_everyone_tied_moves_nobody_far():
    changes = rate(_seats(1, 2), {0: 0, 1: 0}, set(), "normal", {})
    expected = _lib([[Rating()], [Rating()]], [1, 1])
    assert all(_close(c.after, expected[0][0]) for c in changes)


def test_teams_share_their_teams_result():
    # Six Suit with 2 teams of 2: seat i on team i % 2; team 1 (seats 1, 3) wins on total
    players = _seats(1, 2, 3, 4)
    for p in players:
        p["team"] = p["seat"] % 2
    scores = {0: 5, 1: 2, 2: 0, 3: 4}  # team 0: 5, team 1: 6
    changes = rate(players, scores, {1, 3}, "normal", {"u:2": Rating(28, 5)})
    [[a, b], [c, d]] = _lib([[Rating(28, 5), Rating()], [Rating(), Rating()]], [1, 2])
    got = _by_player(changes)
    assert _close(got["u:2"], a) and _close(got["u:4"], b)
    assert _close(got["u:1"], c) and _close(got["u:3"], d)
    assert placements(players, scores, {1, 3}) == [([1, 3], 1), ([0, 2], 2)]


def test_a_player_who_left_is_last_and_leaves_their_team_to_its_result():
    players = _seats(1, 2, 3, 4, **{"2": {"left": True}})
    for p in players:
        p["team"] = p["seat"] % 2
    # seat 2 left team 0; the AI playing it scored well, team 0 still wins
    scores = {0: 3, 1: 1, 2: 9, 3: 1}
    ranking = placements(players, scores, {0, 2})
    assert ranking == [([0], 1), ([1, 3], 2), ([2], 3)]
    changes = rate(players, scores, {0, 2}, "normal", {})
    expected = _lib([[Rating()], [Rating(), Rating()], [Rating()]], [1, 2, 3])
    got = _by_player(changes)
    assert _close(got["u:1"], expected[0][0]) and _close(got["u:3"], expected[2][0])
    left = next(c for c in changes if c.player == "u:3")
    assert not left.won and left.placement == 3


def test_players_who_left_tie_for_last_whatever_their_seat_scored():
    players = _seats(1, 2, 3, **{"0": {"left": True}, "1": {"left": True}})
    changes = rate(players, {0: 10, 1: 0, 2: 1}, {0}, "normal", {})
    expected = _lib([[Rating()], [Rating()], [Rating()]], [1, 2, 2])
    got = _by_player(changes)
    assert _close(got["u:3"], expected[0][0])
    assert _close(got["u:1"], expected[1][0]) and got["u:1"] == got["u:2"]


def test_a_replaced_player_keeps_the_seats_result():
    players = _seats(1, 2, **{"0": {"replaced": True, "ai": True}})
    changes = rate(players, {0: 6, 1: 1}, {0}, "normal", {})
    assert next(c for c in changes if c.player == "u:1").won


def test_ai_seats_are_one_pseudo_player_per_level_moved_by_the_mean_of_its_seats():
    players = _seats(1, None, None)
    current = {"ai:hard": Rating(30.0, 3.0)}
    changes = rate(players, {0: 1, 1: 4, 2: 2}, {1}, "hard", current)
    expected = _lib([[Rating(30, 3)], [Rating(30, 3)], [Rating()]], [1, 2, 3])
    got = _by_player(changes)
    assert set(got) == {"u:1", "ai:hard"}
    assert _close(got["u:1"], expected[2][0])
    mean = Rating((expected[0][0].mu + expected[1][0].mu) / 2,
                  (expected[0][0].sigma + expected[1][0].sigma) / 2)
    assert _close(got["ai:hard"], mean)
    ai = next(c for c in changes if c.player == "ai:hard")
    assert ai.placement == 1 and ai.won and ai.user_id is None


def test_the_job_names_whose_ratings_it_needs():
    seats = [{"user_id": 7, "name": "A"}, {"user_id": None, "ai": True, "name": "🤖"},
             {"user_id": 8, "name": "B", "left": True}]
    job = RatingJob.of(seats, {0: 1, 1: 0, 2: 0}, {0}, "easy")
    assert job.keys == ["ai:easy", "u:7", "u:8"]
    changes = job.compute({"u:7": (30.0, 5.0)})
    assert {c.player for c in changes} == set(job.keys)
    assert next(c for c in changes if c.player == "u:7").before == Rating(30.0, 5.0)
    assert next(c for c in changes if c.player == "u:8").placement == 3


def test_the_conservative_rating_is_the_librarys_ordinal():
    assert ordinal(25.0, 25 / 3) == pytest.approx(0.0)
    assert ordinal(30.0, 2.0) == pytest.approx(LIB.create_rating([30.0, 2.0]).ordinal())
