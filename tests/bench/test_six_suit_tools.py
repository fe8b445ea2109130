"""The Six Suit hard-AI tools in bench: the win model's fit and the true-state judge."""

from __future__ import annotations

import random

from bench.six_suit_departures import alternatives, fixed_positions, headroom_rows, judge
from bench.six_suit_win_model import examples
from bench.win_model import fit, log_loss
from engines import ENGINES


def test_win_model_fit_learns_a_separating_weight_and_beats_the_flat_guess():
    """Logistic fit by Newton's method: a feature that decides the outcome gets a large
    positive weight, and the fitted model's log loss is below that of weights all zero."""
    rng = random.Random(1)
    data = []
    for i in range(400):
        x = rng.random()
        data.append(([1.0, x], 1.0 if rng.random() < x else 0.0, i))
    w = fit(data)
    assert w[1] > 2.0
    assert log_loss(w, data) < log_loss([0.0, 0.0], data)


def test_win_model_examples_are_turn_starts_after_free_time_with_a_win_share():
    rows = examples(4, 20000, 2)
    assert rows and all(0.0 <= y <= 1.0 for _f, y, _s in rows)
    assert {s for _f, _y, s in rows} == {20000, 20001}


def test_true_state_judge_finds_no_difference_between_a_move_and_itself():
    engine = ENGINES["six_suit"]
    seed, _i, state, seat = fixed_positions(engine, 4, 9000, 1, 5)[0]
    move = engine.ai.choose(engine, state, seat, random.Random(0))
    assert judge(engine, state, seat, move, move, 4, seed) == (0.0, 0.0)


def test_fixed_positions_include_free_time_only_when_asked():
    engine = ENGINES["six_suit"]
    after = fixed_positions(engine, 5, 9000, 1, 1)
    both = fixed_positions(engine, 5, 9000, 1, 1, free_time=True)
    assert not any(s.in_free_time() for _seed, _i, s, _seat in after)
    assert any(s.in_free_time() for _seed, _i, s, _seat in both)
    assert len(both) > len(after)


def test_headroom_alternatives_give_up_each_hand_card_first_and_never_the_normal_move():
    """The alternatives judged for headroom: the best-rated move of each hand card first (so
    giving up each card is tried), then the rest by rating, never the normal move itself."""
    engine = ENGINES["six_suit"]
    for _seed, _i, state, seat in fixed_positions(engine, 6, 9000, 2, 3, free_time=True):
        normal = engine.ai.choose(engine, state, seat, random.Random(0))
        alts = alternatives(engine, state, seat, normal, 4)
        assert normal not in alts and len(alts) == len(set(alts)) <= 4
        cards = {a.card for a in engine.legal_actions(state, seat)}
        firsts = [a.card for a in alts[:len(cards) - 1]]
        assert len(set(firsts)) == len(firsts)


def test_headroom_rows_report_each_phase_with_an_upper_bound_at_least_every_rank():
    engine = ENGINES["six_suit"]
    positions = fixed_positions(engine, 5, 9000, 1, 6, free_time=True)
    rows = headroom_rows(engine, positions, 2, 3)
    assert set(rows) == {"free time", "after"}
    assert sum(r["positions"] for r in rows.values()) == len(positions)
    for row in rows.values():
        assert row["best"] >= max(0.0, *row["by_rank"]) - 1e-12
        assert 0.0 <= row["flat"] <= 1.0


def test_win_model_for_a_range_of_sizes_fits_one_model_and_reports_each_size(capsys):
    """`--players 5-6` fits the one model those sizes share (`large_features`, the same
    length at each) and prints a held-out line per size and the weights; `--every 2` keeps
    every second turn start."""
    from bench.six_suit_win_model import main
    from engines.six_suit.ai import LARGE_MODEL, large_features

    every = examples(5, 20, 2, large_features)
    half = examples(5, 20, 2, large_features, every=2)
    assert len(half) in (len(every) // 2, len(every) // 2 + 1)
    assert {len(f) for f, _y, _s in every} == {len(LARGE_MODEL)}
    assert main(["--players", "5-6", "--games", "6", "--seed", "50", "--every", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == [" 5 players", " 6 players"]
    assert len(lines[2].strip("()").split(",")) == len(LARGE_MODEL)


def test_seat_comparison_plays_the_games_bench_ai_plays():
    """The seat tool's games are bench.ai's hard rows (same seeds, seats, levels): the win
    differences game by game are the same."""
    from bench.ai import run
    from bench.six_suit_seat import compare

    _hard, _normal, diffs = compare(5, 3, 9000)
    assert diffs == run(ENGINES["six_suit"], 5, "hard", 3, 9000)["diffs"]


def test_seat_tallies_add_up_kills_by_setup_and_points_by_source():
    """Every kill is counted under exactly one kind of setup, the seat is eliminated at most
    once a game, and kill, survival and payout points make up the final score."""
    from bench.six_suit_seat import seat_game

    for g in range(4):
        c = seat_game(6, 9100 + g, g % 6, hard=g % 2 == 0)
        by_setup = sum(v for k, v in c.items() if k.startswith("kills after"))
        assert by_setup == c["kills"]
        assert c["eliminated"] <= 1 and c["games"] == 1
        assert c["points: kills"] + c["points: survival"] + c["points: payout"] == c["score"]
        assert c["points: survival"] >= 0 and c["points: kills"] >= c["kills"]
