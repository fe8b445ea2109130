"""Hard AI decisions run in a worker process (bot.ai_worker): the same move as in-process,
and a worker that hangs, dies or fails never leaves a seat without a move."""

from __future__ import annotations

import os
import random
import time

from bot.ai_worker import AiWorker, normal_move
from engines import ENGINES


def _hard_taboo():
    engine = ENGINES["taboo"]
    return engine, engine.new_game(2, 7, {"ai_level": "hard"})


def _hangs(*_args):
    time.sleep(600)


def _dies(*_args):
    os._exit(3)


def _raises(*_args):
    raise RuntimeError("search failed")


async def test_the_worker_plays_exactly_the_in_process_hard_move():
    engine, state = _hard_taboo()
    worker = AiWorker(timeout=60)
    try:
        for seed in range(3):
            seat = sorted(engine.to_act(state))[0]
            moved = await worker.choose(engine, state, seat, random.Random(seed))
            assert moved == engine.ai_action(state, seat, random.Random(seed))
            state = engine.apply(state, seat, moved).state
        assert worker.decisions == 3 and worker.fallbacks == 0
    finally:
        await worker.close()


async def test_a_hung_worker_is_replaced_by_the_normal_move_and_restarted():
    engine, state = _hard_taboo()
    seat = sorted(engine.to_act(state))[0]
    worker = AiWorker(timeout=1.0, target=_hangs)
    try:
        moved = await worker.choose(engine, state, seat, random.Random(1))
        assert moved == normal_move(engine, state, seat, random.Random(1))
        assert worker.fallbacks == 1 and worker._pool is None  # killed; next one is fresh
        worker.target = AiWorker().target
        worker.timeout = 60
        assert await worker.choose(engine, state, seat, random.Random(1)) == engine.ai_action(
            state, seat, random.Random(1))
    finally:
        await worker.close()


async def test_a_worker_that_dies_or_fails_gives_the_normal_move():
    engine, state = _hard_taboo()
    seat = sorted(engine.to_act(state))[0]
    for target in (_dies, _raises):
        worker = AiWorker(timeout=60, target=target)
        try:
            moved = await worker.choose(engine, state, seat, random.Random(2))
            assert moved == normal_move(engine, state, seat, random.Random(2))
            assert worker.fallbacks == 1
        finally:
            await worker.close()
