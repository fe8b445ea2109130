"""Generic checks every registered engine must pass (DESIGN.md section 6).

Parametrized over `ENGINES`, so a game is checked the moment it registers. Each property is
exercised by hypothesis over seeds and player counts with random legal play.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import ENGINES
from engines.core import IllegalActionError, NotYourTurnError, Outcome, Step

MAX_ACTIONS = 30_000
NAMES = sorted(ENGINES)
PROPERTY = settings(max_examples=8, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

pytestmark = pytest.mark.skipif(not ENGINES, reason="no engine registered yet")


def _players(engine, data_or_rng) -> int:
    return data_or_rng.randint(engine.min_players, engine.max_players)


def random_playout(engine, n_players: int, seed: int, *, every=None, ai_seats=()):
    """Play random legal actions to the end; call `every(state)` on each state seen."""
    rng = random.Random(seed)
    state = engine.new_game(n_players, seed)
    for count in range(MAX_ACTIONS):
        if every:
            every(state)
        seats = sorted(engine.to_act(state))
        if not seats:
            return state, count
        seat = rng.choice(seats)
        if seat in ai_seats:
            action = engine.ai_action(state, seat, random.Random(rng.random()))
        else:
            action = rng.choice(list(engine.legal_actions(state, seat)))
        step = engine.apply(state, seat, action)
        assert isinstance(step, Step)
        state = step.state
    raise AssertionError(f"{engine.name}: no end after {MAX_ACTIONS} random actions")


@pytest.mark.parametrize("name", NAMES)
def test_identity_and_options(name):
    engine = ENGINES[name]
    assert engine.name == name
    assert engine.title and 1 <= engine.min_players <= engine.max_players
    options = engine.Options()
    for field_name, field in engine.Options.model_fields.items():
        assert field.description, f"option {field_name} needs a description"
    assert engine.Options.model_validate(options.model_dump()) == options


@pytest.mark.parametrize("name", NAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32), pick=st.randoms(use_true_random=False))
def test_random_play_terminates_with_outcome(name, seed, pick):
    engine = ENGINES[name]
    n = _players(engine, pick)
    state, _ = random_playout(engine, n, seed)
    result = engine.outcome(state)
    assert isinstance(result, Outcome)
    assert set(result.scores) == set(range(n))
    assert result.winners <= set(range(n))
    assert result.reason
    assert engine.to_act(state) == frozenset()


@pytest.mark.parametrize("name", NAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32), pick=st.randoms(use_true_random=False))
def test_same_seed_same_game(name, seed, pick):
    engine = ENGINES[name]
    n = _players(engine, pick)
    trace_a, trace_b = [], []
    random_playout(engine, n, seed, every=lambda s: trace_a.append(engine.view(s, None)))
    random_playout(engine, n, seed, every=lambda s: trace_b.append(engine.view(s, None)))
    assert trace_a == trace_b


@pytest.mark.parametrize("name", NAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32), pick=st.randoms(use_true_random=False))
def test_dump_load_determinize_views_and_secrets(name, seed, pick):
    engine = ENGINES[name]
    n = _players(engine, pick)
    check_rng = random.Random(seed ^ 0x5EED)

    def check(state):
        if check_rng.random() > 0.15:
            return
        text = engine.dump(state)
        assert isinstance(text, str)
        again = engine.load(text)
        assert engine.dump(again) == text
        assert engine.to_act(again) == engine.to_act(state)
        assert engine.outcome(again) == engine.outcome(state)
        for seat in [None, *range(n)]:
            view = engine.view(state, seat)
            json.dumps(view)  # JSON-serialisable
            assert engine.view(again, seat) == view
            if seat is not None:
                assert list(engine.legal_actions(again, seat)) == list(
                    engine.legal_actions(state, seat))
                # determinize keeps everything this seat knows
                det = engine.determinize(state, seat, random.Random(check_rng.random()))
                assert engine.view(det, seat) == view
                assert list(engine.legal_actions(det, seat)) == list(
                    engine.legal_actions(state, seat))
            # no view shows a card hidden from that seat
            blob = json.dumps(view, ensure_ascii=False)
            for label in engine.secret_labels(state, seat):
                assert label not in blob, f"{label} leaked to seat {seat}"

    random_playout(engine, n, seed, every=check)


@pytest.mark.parametrize("name", NAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32), pick=st.randoms(use_true_random=False))
def test_apply_never_mutates_and_rejects_bad_input(name, seed, pick):
    engine = ENGINES[name]
    n = _players(engine, pick)
    rng = random.Random(seed)
    state = engine.new_game(n, seed)
    for _ in range(60):
        seats = engine.to_act(state)
        if not seats:
            break
        idle = [s for s in range(n) if s not in seats]
        if idle:
            any_action = None
            for s in seats:
                legal = engine.legal_actions(state, s)
                if legal:
                    any_action = legal[0]
                    break
            with pytest.raises(NotYourTurnError):
                engine.apply(state, idle[0], any_action)
        seat = rng.choice(sorted(seats))
        legal = list(engine.legal_actions(state, seat))
        assert legal, f"seat {seat} is to act but has no legal action"
        with pytest.raises(IllegalActionError):
            engine.apply(state, seat, object())
        before = engine.dump(state)
        step = engine.apply(state, seat, rng.choice(legal))
        assert engine.dump(state) == before, "apply mutated its input"
        for event in step.events:
            assert isinstance(event.text, str)
        state = step.state


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), pick=st.randoms(use_true_random=False))
def test_ai_and_default_actions_are_legal(name, seed, pick):
    engine = ENGINES[name]
    n = _players(engine, pick)
    rng = random.Random(seed)
    state = engine.new_game(n, seed)
    for _ in range(120):
        seats = sorted(engine.to_act(state))
        if not seats:
            break
        seat = rng.choice(seats)
        action = engine.ai_action(state, seat, random.Random(seed))
        assert action in engine.legal_actions(state, seat)
        assert engine.describe(state, action)
        assert all(engine.menu_path(state, a) for a in engine.legal_actions(state, seat))
        default = engine.default_action(state, seat)
        engine.apply(state, seat, default)  # must not raise
        state = engine.apply(state, seat, action).state


def _bent(value):
    """`value` with one int inside it (dataclass field or tuple item, recursively) replaced
    by an equal float or bool: equal under ==, but not what the engine lists."""
    if type(value) is int:
        return [float(value), *([bool(value)] if value in (0, 1) else [])]
    if type(value) is tuple:
        return [(*value[:i], alt, *value[i + 1:])
                for i, item in enumerate(value) for alt in _bent(item)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = []
        for f in dataclasses.fields(value):
            for alt in _bent(getattr(value, f.name)):
                try:
                    out.append(dataclasses.replace(value, **{f.name: alt}))
                except (TypeError, ValueError):
                    pass
        return out
    return []


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), pick=st.randoms(use_true_random=False))
def test_an_action_with_a_float_or_bool_for_an_int_is_refused_or_read_as_listed(name, seed,
                                                                              pick):
    """DESIGN §2 (`apply` raises IllegalActionError for anything not legal): `True == 1 ==
    1.0` in Python, so a seat or value given as a bool or a float must not slip through as a
    legal move and end up in the state. An engine may refuse it or read it as the listed
    move it equals (Taboo reads a group however it is written); either way the new state
    is the one the listed move makes."""
    engine = ENGINES[name]
    rng = random.Random(seed)
    checked = []

    def bend_a_few_actions(state) -> None:
        seats = sorted(engine.to_act(state))
        if not seats or len(checked) >= 40:
            return
        checked.append(state)
        seat = rng.choice(seats)
        legal = list(engine.legal_actions(state, seat))
        for action in rng.sample(legal, min(6, len(legal))):
            listed = engine.dump(engine.apply(state, seat, action).state)
            for bent in _bent(action):
                try:
                    step = engine.apply(state, seat, bent)
                except IllegalActionError:
                    continue
                assert engine.dump(step.state) == listed, (name, action, bent)

    random_playout(engine, _players(engine, pick), seed, every=bend_a_few_actions)
