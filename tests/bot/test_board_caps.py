"""The board mentions a safety cap only while it lies ahead: a finished game showed
"⚠️ 0 turns left before the safety cap" (Taboo, Six Suit) or "4 turns left" (Hidden Rules,
won on points) under its final standings."""

from __future__ import annotations

import random

import pytest

from cogs.hidden_rules.cog import HiddenRulesUI
from cogs.six_suit.cog import SixSuitUI
from cogs.taboo.cog import TabooUI
from engines import ENGINES


def _text(embeds) -> str:
    parts = []
    for embed in embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{field.name} {field.value}" for field in embed.fields]
    return "\n".join(parts)


@pytest.mark.parametrize(("game", "ui", "options"), [
    ("taboo", TabooUI, {"max_turns": 20}),
    ("six_suit", SixSuitUI, {"max_rounds": 3, "free_time_rounds": 1}),
    ("hidden_rules", HiddenRulesUI, {"max_turns": 50, "target": 10}),
])
def test_a_finished_board_names_no_safety_cap(game, ui, options):
    engine = ENGINES[game]
    rng = random.Random(3)
    state = engine.new_game(3, 11, options)
    names = ["Ann", "Bob", "Cat"]
    warned = False
    for _ in range(5000):
        if engine.outcome(state) is not None:
            break
        warned |= "before the safety cap" in _text(ui().render_board(engine.view(state, None),
                                                                    names))
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(list(engine.legal_actions(state, seat)))
                             ).state
    assert engine.outcome(state) is not None
    assert warned, "the cap was never near, so the test checked nothing"
    # (the reason may say the cap ended the game; no warning of a cap ahead remains)
    assert "before the safety cap" not in _text(ui().render_board(engine.view(state, None),
                                                                  names))


def test_every_private_view_opens_with_its_games_emoji():
    """Each hand's title starts with the game's emoji ("🎭 Your Suspense hand"); Six Suit's
    alone read "Your Six Suit hand"."""
    from cogs.suit_taboo.cog import SuitTabooUI
    from cogs.suspense.cog import SuspenseUI

    for game, ui in (("six_suit", SixSuitUI), ("taboo", TabooUI), ("hidden_rules", HiddenRulesUI),
                     ("suit_taboo", SuitTabooUI), ("suspense", SuspenseUI)):
        engine = ENGINES[game]
        state = engine.new_game(3, 1)
        embed = ui().render_private(engine.view(state, 0), ["Ann", "Bob", "Cat"], 0)
        assert embed.title.startswith(ui.emoji), (game, embed.title)


def test_six_suit_board_never_reads_a_round_past_the_cap():
    """A deal ended by a 4-round cap showed "Round 5" on its final board. The last board
    reads "Round 4"; the cap's warning counts the round under way ("Last round")."""
    engine = ENGINES["six_suit"]
    rng = random.Random(5)
    state = engine.new_game(3, 7, {"max_rounds": 4, "free_time_rounds": 1})
    names = ["Ann", "Bob", "Cat"]
    texts = []
    while engine.outcome(state) is None:
        texts.append(_text(SixSuitUI().render_board(engine.view(state, None), names)))
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(list(engine.legal_actions(state, seat)))
                             ).state
    final = _text(SixSuitUI().render_board(engine.view(state, None), names))
    assert "cap" in engine.outcome(state).reason
    assert "**Round 4**" in final and "Round 5" not in final
    assert not any("Round 5" in text for text in texts)
    assert any("⚠️ Last round before the safety cap" in text for text in texts)


def test_six_suit_final_phase_past_the_cap_says_why_it_goes_on():
    """RULINGS: "a final phase that has begun always runs to its end". The crafted deal of
    the engine's final-phase test, with a 3-round cap: the rounds past the cap say why they
    are still played, and no cap warning ("0 rounds left") shows while the phase runs."""
    from engines.six_suit.rules import Discard, Play, Predict
    from tests.engines.test_six_suit import C, build, turn

    engine = ENGINES["six_suit"]
    tops = {1: "1rh 2yh 3gh 1bh 2kh 4bc", 2: "1rc 2yc 3gc 1bc 2kc 4yt"}
    state = build(3, tops=tops, hands={0: "4bh 4yc"}, draw="1ys 2gs 3gs", max_rounds=3)
    state, _ = turn(state, 0, "1ys", Play(C("4bh"), 1, 5))
    state, _ = turn(state, 0, "2gs", Play(C("4yc"), 2, 5))
    state, _ = turn(state, 0, "3gs", Discard(C("3gs")))
    names = ["Ann", "Bob", "Cat"]
    past_cap = []
    while engine.outcome(state) is None:
        text = _text(SixSuitUI().render_board(engine.view(state, None), names))
        assert "safety cap" not in text
        if engine.view(state, None)["round"] > 3:
            past_cap.append(text)
        seat = state.current
        state = engine.apply(state, seat, Predict(0, 0, 0)).state
        state = engine.apply(state, seat, Discard(state.hands[seat][0])).state
    assert past_cap and all("** (final phase, past the 3-round cap)" in text
                            for text in past_cap)
    assert "**Round 4** (final phase, past the 3-round cap)" in past_cap[0]
