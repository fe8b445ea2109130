"""Hidden Rules' board picture says who acts during an accusation, whole, at any name length.

The picture's "Players" title is one line cut with "…" to the picture's width: with the
accusation's sentence in it ("bob to accept or challenge, then alice plays"), a 2-player
game with short names already lost "then alice plays", and 32-character names (Discord's
longest display names) lost even "to accept or challenge". The title now says only who
answers; the whole sentence is a note, which wraps.
"""

from __future__ import annotations

import dataclasses

import pytest

from bot.pictures.canvas import PAD
from bot.pictures.fonts import fit
from bot.pictures.sections import TITLE, _note_lines
from cogs.hidden_rules import pictures
from engines import ENGINES
from engines.hidden_rules.rules import Enforce, Keep, Play

ENGINE = ENGINES["hidden_rules"]
NARROWEST = 560 - 2 * PAD - 24  # a picture's inner width at its smallest (sections.draw)


def _accusation(n: int, seed: int = 7) -> dict:
    """The public view while the player of the last card is accused."""
    s = ENGINE.new_game(n, seed, ENGINE.Options.model_validate({"turn_seconds": 0}))
    for seat in range(n):
        s = ENGINE.apply(s, seat, next(a for a in ENGINE.legal_actions(s, seat)
                                       if isinstance(a, Keep))).state
    seat = ENGINE.view(s, None)["to_play"]
    s = ENGINE.apply(s, seat, next(a for a in ENGINE.legal_actions(s, seat)
                                   if isinstance(a, Play))).state
    enforcer = ENGINE.view(s, None)["window"]["may_enforce"][0]
    enforce = next(a for a in ENGINE.legal_actions(s, enforcer) if isinstance(a, Enforce))
    s = ENGINE.apply(s, enforcer, dataclasses.replace(enforce, hint="say please")).state
    view = ENGINE.view(s, None)
    assert view["pending"] and view["to_play"] is not None
    return view


@pytest.mark.parametrize(("n", "length"), [(2, 5), (3, 32), (5, 32)])
def test_who_acts_during_an_accusation_is_drawn_whole(n, length):
    view = _accusation(n)
    names = [f"{chr(65 + i)}{'x' * (length - 1)}" for i in range(n)]
    accused, after = names[view["pending"]["accused"]], names[view["to_play"]]
    sections = pictures.board_sections(view, names)
    players = next(s for s in sections if s.title.startswith("Players"))
    assert players.title == f"Players · {accused} to answer", players.title
    sentence = f"Now: {accused} to accept or challenge, then {after} plays."
    for section in sections:
        if sentence in section.note:
            lines = _note_lines(section, NARROWEST)
            assert " ".join(lines).startswith(sentence), lines  # wrapped, never cut
            assert not any(line.endswith("…") for line in lines), lines
            break
    else:
        raise AssertionError(f"no note says {sentence!r}")
    if length <= 5:  # a title with short names is drawn whole (its room: sections._section)
        assert fit(players.title, TITLE, NARROWEST - 12) == players.title


def test_the_picture_says_who_plays_outside_an_accusation_as_before():
    view = _accusation(2)
    view = {**view, "pending": None}
    names = ["alice", "bob"]
    sections = pictures.board_sections(view, names)
    assert sections[-1].title == f"Players · {names[view['to_play']]} to play"
    assert not any("Now:" in s.note for s in sections)
