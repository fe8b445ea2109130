"""A fingerprint of each engine's behaviour, to prove a speed-up changed nothing.

Plays seeded random games (every player count) and hashes, at every step: the seats to act,
the legal actions of the seat that moves, the events of the move (kind, text, who sees them),
the dumped state, every seat's view and the public view, and now and then the AI's choice. Run
it before and after an optimisation: identical hashes mean identical games, deals and texts.

    python -m bench.fingerprint                 # all engines
    python -m bench.fingerprint --engines taboo --games 40

The hash must not depend on Python's per-process string hashing (set orders), so the script
re-runs itself with PYTHONHASHSEED=0 when that is not already fixed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from typing import Any

from bench import pick_engines

MAX_STEPS = 100_000
AI_EVERY = 29


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def fingerprint_game(engine: Any, n_players: int, seed: int, with_ai: bool) -> tuple[str, int]:
    """(hex digest, steps) of one seeded random game."""
    digest = hashlib.sha256()
    rng = random.Random(seed * 7919 + n_players)
    state = engine.new_game(n_players, seed)
    for step in range(MAX_STEPS):
        digest.update(engine.dump(state).encode())
        for seat in [None, *range(n_players)]:
            digest.update(_canon(engine.view(state, seat)).encode())
        seats = sorted(engine.to_act(state))
        digest.update(repr(seats).encode())
        if not seats:
            digest.update(repr(engine.outcome(state)).encode())
            return digest.hexdigest(), step
        seat = rng.choice(seats)
        legal = list(engine.legal_actions(state, seat))
        digest.update(repr(legal).encode())
        digest.update(repr([engine.describe(state, a) for a in legal]).encode())
        if with_ai and step % AI_EVERY == 0:
            digest.update(repr(engine.ai_action(state, seat, random.Random(step))).encode())
        action = rng.choice(legal)
        result = engine.apply(state, seat, action)
        for event in result.events:
            visible = None if event.visible_to is None else sorted(event.visible_to)
            digest.update(_canon([event.kind, event.text, visible, dict(event.data)]).encode())
        state = result.state
    raise RuntimeError(f"{engine.name}: no end after {MAX_STEPS} steps")


def main(argv: list[str] | None = None) -> int:
    if os.environ.get("PYTHONHASHSEED") != "0":
        env = dict(os.environ, PYTHONHASHSEED="0")
        os.execve(sys.executable, [sys.executable, "-m", "bench.fingerprint", *sys.argv[1:]], env)
    parser = argparse.ArgumentParser(prog="python -m bench.fingerprint", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", help="comma list of engine names (default: all)")
    parser.add_argument("--games", type=int, default=4, help="seeded games per player count (4)")
    parser.add_argument("--no-ai", action="store_true", help="skip the AI choices")
    args = parser.parse_args(argv)
    for name, engine in pick_engines(args.engines).items():
        total = hashlib.sha256()
        steps = 0
        for n in range(engine.min_players, engine.max_players + 1):
            for seed in range(1, args.games + 1):
                digest, count = fingerprint_game(engine, n, seed, not args.no_ai)
                total.update(digest.encode())
                steps += count
        print(f"{name}: {total.hexdigest()[:16]} ({steps} steps)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
