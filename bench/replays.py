"""What game records and replays cost, per game at its largest table (random legal play).

- the running hash the table service adds to every move (public view + events, sha256);
- the record's size (JSON);
- loading a replay: every move replayed and checked against the record;
- showing one step (`frame_embeds`, the player's own view: from the checkpoint before it);
- the export of a player's own view (every step, both views), its size.

    python -m bench.replays [--seed 11]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bench import pick_engines
from bot.game_ui import registered_uis
from bot.replay.record import (
    GameRecord,
    chain_link,
    move_entry,
    outcome_json,
    replay,
    rules_fingerprint,
)
from bot.replay.show import export_json, frame_embeds


def measure(name: str, engine, ui, seed: int) -> str:
    n = engine.max_players
    rng = random.Random(seed)
    state = engine.new_game(n, seed)
    link = chain_link("", engine, state)
    entries, hashing = [], []
    while engine.to_act(state):
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(list(engine.legal_actions(state, seat)))
        step = engine.apply(state, seat, action)
        start = time.perf_counter()
        link = chain_link(link, engine, step.state, step.events)
        hashing.append(time.perf_counter() - start)
        entries.append(json.loads(json.dumps(move_entry(seat, action))))
        state = step.state
    outcome = engine.outcome(state)
    record = GameRecord(game=name, rules=rules_fingerprint(name), seed=seed, n_players=n,
                        options={}, seats=[{"name": f"P{i}"} for i in range(n)],
                        entries=entries, chain=link,
                        outcome=outcome_json(outcome.scores, outcome.winners, outcome.reason))
    start = time.perf_counter()
    again = replay(engine, record)
    loading = time.perf_counter() - start
    shows = []
    for k in range(0, again.last + 1, max(1, again.last // 50)):
        start = time.perf_counter()
        frame_embeds(ui, again, k, match_id=1, seat=0)
        shows.append(time.perf_counter() - start)
    start = time.perf_counter()
    data, _ = export_json(again, {"id": 1, "finished_at": 0.0, "duration": 0.0}, seat=0)
    exporting = time.perf_counter() - start
    ordered = sorted(hashing)
    return (f"| {engine.title} ({n}) | {len(hashing)} | {statistics.median(hashing) * 1e6:.0f}"
            f" / {ordered[int(len(ordered) * 0.95)] * 1e6:.0f} µs | "
            f"{len(record.to_json()) / 1024:.1f} KiB | {loading * 1e3:.0f} ms | "
            f"{statistics.median(shows) * 1e3:.1f} / {max(shows) * 1e3:.1f} ms "
            f"({len(shows)}) | {exporting * 1e3:.0f} ms, {len(data) / 1e6:.2f} MB |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replays", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", help="comma list of engine names (default: all)")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    uis = registered_uis()
    print("| game (players) | moves | hash per move p50 / p95 | record | load (replay + check) "
          "| one step p50 / max (steps) | export of own view |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, engine in pick_engines(args.engines).items():
        print(measure(name, engine, uis[name], args.seed), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
