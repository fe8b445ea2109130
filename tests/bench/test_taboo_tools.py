"""The Taboo hard-AI tool in bench: the examples its win model is fitted to."""

from __future__ import annotations

from bench.taboo_win_model import examples
from engines import ENGINES
from engines.taboo.ai import WIN_MODEL, win_features
from engines.taboo.rules import EMPTY, TURN


def test_taboo_win_model_examples_are_turn_starts_with_a_win_share():
    """One example per turn start of a normal self-play game (the features of the seat to
    move, as `value` sees them where the search's playouts stop), labelled with that seat's
    share of the win; every seat's examples of a game add up to one win."""
    engine = ENGINES["taboo"]
    rows = examples(5, 30000, 1)
    assert rows and {s for _f, _y, s in rows} == {30000}
    assert all(len(f) == len(WIN_MODEL[5]) for f, _y, _s in rows)
    assert all(0.0 <= y <= 1.0 for _f, y, _s in rows)
    first = engine.new_game(5, 30000)
    assert first.phase in (TURN, EMPTY)
    assert rows[0][0] == win_features(engine, first, first.current)
