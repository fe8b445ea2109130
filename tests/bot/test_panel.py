"""The turn panel's tree of choices, built from legal_actions and menu_path."""

from __future__ import annotations

from dataclasses import dataclass

from bot.ui import panel
from engines.core import Engine


@dataclass(frozen=True)
class Act:
    path: tuple[str, ...]


class TreeEngine(Engine):
    name, title, min_players, max_players = "tree", "Tree", 1, 1

    def __init__(self, paths):
        self.actions = [Act(p) for p in paths]

    def legal_actions(self, state, seat):
        return self.actions

    def menu_path(self, state, action):
        return action.path


def level(paths, prefix=()):
    return panel.resolve(TreeEngine(paths), None, 0, ["Ann", "Bo"], prefix)


def test_groups_share_a_prefix_and_leaves_resolve_to_actions():
    paths = [("Play", "7♠"), ("Play", "8♥"), ("Pass",)]
    top = level(paths)
    assert top.options == ["Play", "Pass"] and top.action is None
    cards = level(paths, (0,))
    assert cards.options == ["7♠", "8♥"] and cards.crumbs == ["Play"]
    assert level(paths, (0, 1)).action == Act(("Play", "8♥"))
    assert level(paths, (1,)).action == Act(("Pass",))


def test_a_single_group_is_stepped_into_but_a_lone_move_waits_for_a_click():
    stepped = level([("Play", "7♠"), ("Play", "8♥")])
    assert stepped.prefix == (0,) and stepped.options == ["7♠", "8♥"]
    lone = level([("Draw",)])
    assert lone.action is None and lone.options == ["Draw"]
    assert level([("Draw",)], (0,)).action == Act(("Draw",))


def test_seat_placeholders_become_names_and_bad_prefixes_raise():
    named = level([("Cast", "→ {P1}"), ("Cast", "→ {P0}")], (0,))
    assert named.options == ["→ Bo", "→ Ann"]
    try:
        level([("Pass",)], (3,))
    except IndexError:
        pass
    else:
        raise AssertionError("an index out of range must raise")
    assert panel.decode(panel.encode((1, 0, 12))) == (1, 0, 12)


def test_back_skips_screens_that_were_stepped_through():
    paths = [("Keep", "T1", "A1"), ("Keep", "T1", "A2"), ("Keep", "T2", "A1")]
    engine = TreeEngine(paths)
    top = panel.resolve(engine, None, 0, [], ())
    assert top.prefix == (0,) and top.options == ["T1", "T2"]  # "Keep" stepped through
    assert panel.back_of(engine, None, 0, [], top.prefix) is None
    deeper = panel.resolve(engine, None, 0, [], (0, 0))
    assert panel.back_of(engine, None, 0, [], deeper.prefix) == (0,)


def test_menu_paths_are_computed_once_per_state_and_seat():
    """A move through the panel resolves several screens of one state (Take my turn, each
    step, Back, the final click); the legal actions are asked for once. A new state (every
    move makes one; states are never mutated) or another seat asks again."""

    class Counting(TreeEngine):
        calls = 0

        def legal_actions(self, state, seat):
            Counting.calls += 1
            return self.actions

    engine = Counting([("Play", "7♠"), ("Play", "8♥"), ("Pass",)])
    state, names = object(), ["Ann", "Bo"]
    for prefix in [(), (0,), (0, 1), (1,)]:
        panel.resolve(engine, state, 0, names, prefix)
    panel.back_of(engine, state, 0, names, (0, 1))
    assert Counting.calls == 1
    panel.resolve(engine, object(), 0, names, ())
    panel.resolve(engine, state, 1, names, ())
    assert Counting.calls == 3
