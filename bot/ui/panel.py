"""The "Take my turn" panel: a tree of choices built from `legal_actions` and `menu_path`.

Actions whose menu paths share a prefix are grouped, so a big action list (a Suit Taboo cast,
a Six Suit prediction) becomes a few small steps. The position in the tree travels in the
component's custom id as indices, which is stable because the table version is in it too.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from engines.core import Engine, render_seats

MAX_BUTTONS = 5
PAGE = 24  # select options per page, leaving room for "More…"


@dataclass
class PanelLevel:
    prefix: tuple[int, ...]  # the choice indices that lead here
    crumbs: list[str]  # labels chosen so far
    options: list[str]  # labels offered at this level
    action: Any = None  # set when the prefix designates exactly one action


CACHED_PATHS = 512

# (ids of the engine and the state, seat, names) -> (engine, state, its menu paths). States
# are immutable (the engine contract: `apply` returns a new state), so a state's legal
# actions and labels never change; engine and state are kept so that their ids cannot be
# reused by other objects while the entry exists.
_path_cache: OrderedDict[tuple, tuple[Any, Any, list[tuple[Any, tuple]]]] = OrderedDict()


def _paths(engine: Engine, state: Any, seat: int, names: list[str]) -> list[tuple[Any, tuple]]:
    """Every legal action of `seat` with its menu path, computed once per state and seat.

    One move through the panel asks for them several times (Take my turn, each step, Back,
    the click that plays): at 500 tables that was about a tenth of the bot's CPU time in
    the burst of first moves (cProfile of bench.load)."""
    key = (id(engine), id(state), seat, tuple(names))
    hit = _path_cache.get(key)
    if hit is not None and hit[0] is engine and hit[1] is state:
        _path_cache.move_to_end(key)
        return hit[2]
    paths = [(a, tuple(render_seats(label, names) for label in engine.menu_path(state, a)))
             for a in engine.legal_actions(state, seat)]
    _path_cache[key] = (engine, state, paths)
    if len(_path_cache) > CACHED_PATHS:
        _path_cache.popitem(last=False)
    return paths


def _unique(labels) -> list[str]:
    seen: dict[str, None] = {}
    for label in labels:
        seen.setdefault(label, None)
    return list(seen)


def resolve(engine: Engine, state: Any, seat: int, names: list[str],
            prefix: tuple[int, ...]) -> PanelLevel:
    """Walk `prefix` (choice indices) down the tree; raise IndexError if it does not fit."""
    candidates = _paths(engine, state, seat, names)
    crumbs: list[str] = []
    for depth, choice in enumerate(prefix):
        labels = _unique(p[depth] for _, p in candidates if len(p) > depth)
        label = labels[choice]
        crumbs.append(label)
        candidates = [(a, p) for a, p in candidates if len(p) > depth and p[depth] == label]
    depth = len(prefix)
    finished = [a for a, p in candidates if len(p) == depth]
    deeper = [(a, p) for a, p in candidates if len(p) > depth]
    if finished and not deeper:
        return PanelLevel(prefix, crumbs, [], finished[0])
    options = _unique(p[depth] for _, p in deeper)
    lone_move = len(deeper) == 1 and len(deeper[0][1]) == depth + 1
    if len(options) == 1 and not finished and not lone_move and depth < 8:
        # a single group is no choice: step into it (a lone move still waits for a click)
        return resolve(engine, state, seat, names, (*prefix, 0))
    return PanelLevel(prefix, crumbs, options, None)


def encode(prefix: tuple[int, ...]) -> str:
    return ".".join(str(i) for i in prefix)


def decode(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(".") if p != "")


def back_of(engine: Engine, state: Any, seat: int, names: list[str],
            prefix: tuple[int, ...]) -> tuple[int, ...] | None:
    """Where Back leads: the nearest earlier screen that differs (levels with one choice are
    stepped through, so going back one index may land on this very screen), or None."""
    back = prefix
    while back:
        back = back[:-1]
        if resolve(engine, state, seat, names, back).prefix != prefix:
            return back
    return None
