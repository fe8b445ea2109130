"""AI strength and decision time, against three kinds of opponents, with 95 % intervals.

Per game and player count, ``--games`` seeded games are played to the end, the AI seat
rotating with the game number so no seat is favoured. AI seats move with
``engine.ai_action`` (determinized, exactly as the bot calls it); opponents are

- ``random``: a uniformly random legal move;
- ``baseline``: the game's simple rule-aware player (``engine.ai.baseline``: a one-line
  heuristic per game, documented in ``engines/<game>/ai.py``) — never illegal, no judgement;
- ``self``: every seat is the normal AI (per-seat win rates; in Hidden Rules also the
  enforcement record: challenges of correct enforcements, wrong enforcements);
- ``hard``: one hard AI seat against normal AI seats (the level must beat normal). Each
  game is also played with a normal AI in that seat (same seed, same deals): its win rate
  is the fair share hard must beat, and the game-by-game difference has its own interval.

Per-role results: Suit Taboo round wins as the joker or an ace; Suspense match points as
the dealer or not. Decision times: CPU (thread) and wall clock, p95 with the sample size.

Each win rate has a Wilson 95 % interval. An AI seat "wins" when it is in Outcome.winners.

    python -m bench.ai                              # 300 games per row, 2 and 4 players
    python -m bench.ai --games 1000 --engines taboo --players 2
    python -m bench.ai --opponents hard --games 150 --engines taboo --players 2
    python -m bench.ai --opponents hard --engines six_suit --players 2 --jobs 3  # same games
    python -m bench.ai --opponents hard --engines six_suit --players 6 --option teams=2
    python -m bench.ai --opponents hard --engines six_suit --players 6 --option teams=2 --side

``--option name=value`` (repeatable) sets a table option for every game of the run, e.g.
Six Suit's teams: the measured seat then wins when its team does, and its fair share is one
team's. ``--side`` makes a hard row of a team game side against side: the measured seat's
teammates play hard too (a table's ``ai_level`` is every AI seat's), the rest normal; the
game-by-game comparison is then with that whole side normal. Every hard row also prints the
hard seats' points per game, hard minus normal, game by game: at a large table, where a seat
wins one game in 8 to 12, points tell a small difference apart with fewer games than wins.
(A hard row of a game without teams keeps one hard seat: with hard and normal seats
alternating, Six Suit's figures measure the layout, not the level; README, "A measurement
that misled".)
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench import machine, percentile, pick_engines, write_json
from engines.ai_levels import with_level

MAX_ACTIONS = 100_000


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (95 % by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def paired_ci95(diffs: list[float]) -> tuple[float, float, float]:
    """The mean of game-by-game differences and its 95 % interval (normal approximation):
    the "hard minus normal" figure of every hard row (`run`, `bench.six_suit_seat`)."""
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
    half = 1.96 * sd / math.sqrt(len(diffs))
    return mean, mean - half, mean + half


def baseline_move(engine: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """The game's rule-aware baseline (`engine.ai.baseline`, a one-line heuristic per game,
    documented in its AI module), given the real state: it reads only its own hand, role or
    rule and the table, like a player would. None for an optional actor lets the moment
    pass."""
    move = engine.ai.baseline(engine, state, seat, rng)
    if move is None and seat in engine.waiting_for(state):
        return engine.legal_actions(state, seat)[0]
    return move


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0
    seat_wins: Counter = field(default_factory=Counter)
    seat_games: Counter = field(default_factory=Counter)
    decisions: list[float] = field(default_factory=list)
    walls: list[float] = field(default_factory=list)  # wall clock of the same decisions
    enforcement: Counter = field(default_factory=Counter)
    # per role: [sum, count] of round wins (Suit Taboo: joker / ace) or match points
    # (Suspense: dealer / not), for the measured seats
    roles: dict = field(default_factory=dict)
    # hard rows: per game, the hard seats' mean points minus theirs with everyone normal
    points: list[float] = field(default_factory=list)


def play(engine: Any, n: int, seed: int, seats: dict[int, str], tally: Tally,
         options: dict[str, Any] | None = None,
         counted: frozenset[int] | None = None,
         observe: Callable[[Any, int, Any, Any], None] | None = None) -> Any:
    """One game; `seats` maps seat -> "normal" / "hard" (an AI) or "random" / "baseline";
    `options` are the table's options (the game's defaults when None). Wins are tallied for
    the seats of the measured kind, or for `counted` alone when given (a hard side: only
    the measured seat, its teammates' wins being the same win). `observe(state, seat,
    action, step)` sees every move with the state before it (`bench.six_suit_seat`).
    Returns the game's Outcome (its winners and every seat's points)."""
    rng = random.Random(seed)
    state = engine.new_game(n, seed, engine.parse_options(options))
    declined: set[int] = set()
    for _count in range(MAX_ACTIONS):
        actors = sorted(engine.to_act(state))
        if not actors:
            break
        ready = [a for a in actors if a not in declined] or actors
        seat = rng.choice(ready)
        kind = seats[seat]
        sub = random.Random(rng.random())
        if kind in ("normal", "hard", "easy"):
            view_state = state if kind == "normal" else with_level(state, kind)
            start, wall = time.thread_time(), time.perf_counter()
            action = engine.ai_action(view_state, seat, sub)
            if kind == "hard" or all(k == "normal" for k in seats.values()):
                tally.decisions.append(time.thread_time() - start)
                tally.walls.append(time.perf_counter() - wall)
        elif kind == "baseline":
            action = baseline_move(engine, state, seat, sub)
        else:
            action = sub.choice(list(engine.legal_actions(state, seat)))
        if action is None:
            if seat in engine.waiting_for(state):
                action = engine.default_action(state, seat)
            else:
                declined.add(seat)
                if set(actors) <= declined:
                    raise RuntimeError(f"{engine.name}: every seat declined (seed {seed})")
                continue
        before = _round_record(state)
        step = engine.apply(state, seat, action)
        if observe is not None:
            observe(state, seat, action, step)
        state = step.state
        declined = set()
        after = _round_record(state)
        if after is not None and after is not before:
            _role_record(engine.name, after, seats, tally.roles)
    else:
        raise RuntimeError(f"{engine.name}: no end after {MAX_ACTIONS} actions (seed {seed})")
    outcome = engine.outcome(state)
    tally.games += 1
    measured = "hard" if "hard" in seats.values() else "normal"
    for seat, kind in seats.items():
        if (kind == measured) if counted is None else (seat in counted):
            tally.seat_games[seat] += 1
            if seat in outcome.winners:
                tally.seat_wins[seat] += 1
    if engine.name == "hidden_rules":
        _enforcement_record(state, tally.enforcement)
    return outcome


def _round_record(state: Any) -> Any:
    """The summary a game keeps of its last round or match (a new object each time)."""
    return getattr(state, "last_round", None) or getattr(state, "last_match", None)


def _role_record(game: str, summary: dict, seats: dict[int, str], roles: dict) -> None:
    """Per-role results of the measured seats: Suit Taboo round wins as the joker or an
    ace; Suspense match points as the dealer (who sees the secret card) or not."""
    measured = "hard" if "hard" in seats.values() else "normal"
    for seat, kind in seats.items():
        if kind != measured:
            continue
        if game == "suit_taboo":
            line = summary["players"][seat]
            role = "joker" if "joker" in line["role_name"] else "ace"
            won = float(seat in summary["winners"])
        elif game == "suspense":
            role = "dealer" if summary["dealer"] == seat else "not dealer"
            won = float(summary["points"][seat])
        else:
            return
        total = roles.setdefault(role, [0.0, 0])
        total[0] += won
        total[1] += 1


def _enforcement_record(state: Any, counter: Counter) -> None:
    """Hidden Rules: how enforcements went (a challenge reveals the truth; an accepted one
    is judged against the real rule, which the benchmark may read)."""
    from engines.hidden_rules.decks import broken

    for r in state.history:
        if r.holder < 0 or r.enforcer < 0:
            continue
        correct = broken(state.rule_t[r.holder], state.rule_a[r.holder], r.ctx)
        own = "own" if r.enforcer == r.holder else "other"
        counter[f"{own} enforcements"] += 1
        counter[f"{own} correct"] += correct
        if correct and r.result == "wrong":
            raise AssertionError("the engine settled a correct enforcement as wrong")
        if correct and r.result in ("right", "wrong"):
            counter[f"{own} correct challenged"] += 1
        if not correct:
            counter[f"{own} wrong"] += 1


def side_of(engine: Any, n: int, seed: int, options: dict[str, Any] | None,
            me: int) -> frozenset[int]:
    """The seats on `me`'s side of a team game (teammates included), from the game's own
    `faction`; a game or table without teams has none to offer."""
    state = engine.new_game(n, seed, engine.parse_options(options))
    faction = getattr(state, "faction", None)
    if faction is None or not getattr(state, "teams", 0):
        raise ValueError(f"{engine.name}: --side needs a team game (e.g. --option teams=2)")
    return frozenset(p for p in range(n) if faction(p) == faction(me))


def _games(engine: Any, n: int, opponents: str, numbers: range, first_seed: int,
           options: dict[str, Any] | None = None,
           side: bool = False) -> tuple[Tally, list[float]]:
    """Games `numbers` of a row (game g: seed first_seed + g, measured seat g % n). With
    `side` (hard rows of team games), the measured seat's teammates play hard too: a table's
    `ai_level` is every AI seat's, so hard against normal is then side against side. Every
    hard row also keeps, game by game, the hard seats' mean points minus the same seats'
    mean points with everyone normal (`tally.points`)."""
    tally = Tally()
    diffs: list[float] = []
    for g in numbers:
        me = g % n
        counted = None
        if opponents == "self":
            seats = dict.fromkeys(range(n), "normal")
        elif opponents == "hard":
            hard = side_of(engine, n, first_seed + g, options, me) if side else {me}
            seats = {p: ("hard" if p in hard else "normal") for p in range(n)}
            counted = frozenset({me}) if side else None
        else:
            seats = {p: ("normal" if p == me else opponents) for p in range(n)}
        outcome = play(engine, n, first_seed + g, seats, tally, options, counted)
        if opponents == "hard":
            same = play(engine, n, first_seed + g, dict.fromkeys(range(n), "normal"), Tally(),
                        options)
            diffs.append(float(me in outcome.winners) - float(me in same.winners))
            tally.points.append(sum(outcome.scores[p] - same.scores[p] for p in hard)
                                / len(hard))
    return tally, diffs


def _games_by_name(name: str, n: int, opponents: str, numbers: range, first_seed: int,
                   options: dict[str, Any] | None = None,
                   side: bool = False) -> tuple[Tally, list[float]]:
    from engines import ENGINES

    return _games(ENGINES[name], n, opponents, numbers, first_seed, options, side)


def _in_processes(name: str, n: int, opponents: str, games: int, first_seed: int, jobs: int,
                  options: dict[str, Any] | None = None,
                  side: bool = False) -> tuple[Tally, list[float]]:
    """The same games as one process plays (same seeds, same seats), split into `jobs`
    contiguous blocks played by separate processes and merged in game order: only the
    decision times differ (the processes share the CPU)."""
    from concurrent.futures import ProcessPoolExecutor

    step = -(-games // jobs)
    blocks = [range(a, min(games, a + step)) for a in range(0, games, step)]
    with ProcessPoolExecutor(max_workers=len(blocks)) as pool:
        parts = list(pool.map(_games_by_name, [name] * len(blocks), [n] * len(blocks),
                              [opponents] * len(blocks), blocks,
                              [first_seed] * len(blocks), [options] * len(blocks),
                              [side] * len(blocks)))
    tally, diffs = Tally(), []
    for part, part_diffs in parts:
        tally.games += part.games
        tally.wins += part.wins
        tally.seat_wins.update(part.seat_wins)
        tally.seat_games.update(part.seat_games)
        tally.decisions += part.decisions
        tally.walls += part.walls
        tally.enforcement.update(part.enforcement)
        for role, (total, count) in part.roles.items():
            mine = tally.roles.setdefault(role, [0.0, 0])
            mine[0] += total
            mine[1] += count
        tally.points += part.points
        diffs += part_diffs
    return tally, diffs


def run(engine: Any, n: int, opponents: str, games: int, first_seed: int, jobs: int = 1,
        options: dict[str, Any] | None = None, side: bool = False) -> dict:
    """One row. A hard row also plays every game with the normal AI in the hard seat (the
    same seed, so the same deals): the fair share to beat is that normal seat's win rate,
    and `paired` is the mean difference, game by game, with its 95 % interval; `points` is
    the same for the hard seats' mean points. With `jobs` > 1 the same games are shared out
    to that many processes (`_in_processes`)."""
    if jobs > 1:
        tally, diffs = _in_processes(engine.name, n, opponents, games, first_seed, jobs,
                                     options, side)
    else:
        tally, diffs = _games(engine, n, opponents, range(games), first_seed, options, side)
    extra: dict[str, Any] = {}
    won = float(sum(tally.seat_wins.values()))
    if diffs:
        hard_rate = won / tally.games
        points, points_low, points_high = paired_ci95(tally.points)
        normal_rate = hard_rate - sum(diffs) / len(diffs)
        mean, low, high = paired_ci95(diffs)
        extra = {"diffs": diffs, "decision_ms": [t * 1e3 for t in tally.decisions],
                 "wall_ms": [t * 1e3 for t in tally.walls],
                 "normal_same_seat": normal_rate,
                 "normal_same_seat_ci95": wilson(normal_rate * len(diffs), len(diffs)),
                 "paired": mean, "paired_ci95": (low, high), "points_diffs": tally.points,
                 "points": points, "points_ci95": (points_low, points_high)}
    wins = sum(tally.seat_wins.values()) / n if opponents == "self" else won
    low, high = wilson(wins, tally.games)
    teams = getattr(engine.parse_options(options), "teams", 0)
    share = 1 / teams if teams >= 2 else 1 / n
    return {"engine": engine.name, "players": n, "opponents": opponents, "games": tally.games,
            "win_rate": wins / tally.games, "ci95": (low, high), "share": share,
            "seat_win_rates": {s: tally.seat_wins[s] / tally.seat_games[s]
                               for s in sorted(tally.seat_games)},
            "cpu_p95_ms": percentile(tally.decisions, 95) * 1e3 if tally.decisions else 0.0,
            "wall_p95_ms": percentile(tally.walls, 95) * 1e3 if tally.walls else 0.0,
            "wall_max_ms": max(tally.walls) * 1e3 if tally.walls else 0.0,
            "decisions": len(tally.decisions), "enforcement": dict(tally.enforcement), **extra,
            "roles": {r: {"mean": v[0] / v[1], "n": v[1]} for r, v in sorted(tally.roles.items())}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", help="comma list of engine names (default: all)")
    parser.add_argument("--players", default="2,4",
                        help="comma list of player counts, clamped to each game's limits (2,4)")
    parser.add_argument("--games", type=int, default=300, help="games per row (300)")
    parser.add_argument("--opponents", default="random,baseline,self",
                        help="comma list of: random, baseline, self, hard (hard vs normal "
                        "is slow: ~0.1-0.5 s per hard decision, so it is asked for apart)")
    parser.add_argument("--seed", type=int, default=1000, help="first game seed (1000)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes sharing each row's games (1); the same games and "
                        "results, only the decision times are then measured under that load")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a table option for every game, e.g. teams=2 (repeatable)")
    parser.add_argument("--side", action="store_true",
                        help="hard rows of team games: the measured seat's teammates play "
                        "hard too (side against side, as at a table set to hard)")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option) or None
    print(f"# bench.ai — {machine()}; {args.games} games per row, AI seat rotating"
          + (f", {args.jobs} processes" if args.jobs > 1 else "")
          + "".join(f", {k}={v}" for k, v in (options or {}).items())
          + (", hard rows: the measured seat's whole side hard" if args.side else ""))
    results = []
    for name, engine in pick_engines(args.engines).items():
        counts = sorted({min(max(int(p), engine.min_players), engine.max_players)
                         for p in args.players.split(",")})
        for n in counts:
            for opp in args.opponents.split(","):
                wall = time.perf_counter()
                r = run(engine, n, opp, args.games, args.seed, args.jobs, options,
                        args.side and opp == "hard")
                r["wall_s"] = time.perf_counter() - wall
                results.append(r)
                low, high = r["ci95"]
                who = {"self": "every seat normal AI", "hard": "hard AI vs normal AIs"}.get(
                    opp, f"normal AI vs {opp}")
                line = (f"{name:12} {n}p  {who:24} games {r['games']:4}  win "
                        f"{r['win_rate']:6.1%} [{low:.1%}, {high:.1%}]  share {r['share']:.0%}")
                if opp == "self":
                    line += "  per seat " + " ".join(f"{v:.0%}" for v in
                                                    r["seat_win_rates"].values())
                if r["decisions"]:
                    line += (f"  CPU p95 {r['cpu_p95_ms']:.1f} ms, wall p95 "
                             f"{r['wall_p95_ms']:.1f} ms (n={r['decisions']})")
                print(line, flush=True)
                if "paired" in r:
                    nl, nh = r["normal_same_seat_ci95"]
                    pl, ph = r["paired_ci95"]
                    print(f"{'':16}fair share: a normal AI in the same seats (same seeds) won "
                          f"{r['normal_same_seat']:.1%} [{nl:.1%}, {nh:.1%}]; hard minus "
                          f"normal, game by game: {r['paired']:+.1%} [{pl:+.1%}, {ph:+.1%}]",
                          flush=True)
                    ql, qh = r["points_ci95"]
                    print(f"{'':16}points per hard seat, hard minus normal, game by game: "
                          f"{r['points']:+.2f} [{ql:+.2f}, {qh:+.2f}]", flush=True)
                if r["roles"]:
                    what = "round win rate" if name == "suit_taboo" else "points per match"
                    print(f"{'':16}{what} by role: " + ", ".join(
                        f"{role} {v['mean']:.2f} (n={v['n']})" for role, v in r["roles"].items()),
                        flush=True)
                if r["enforcement"]:
                    e = r["enforcement"]
                    print(f"{'':16}enforcements by the rule's holder: {e.get('own enforcements', 0)}"
                          f", wrong {e.get('own wrong', 0)}, correct ones challenged "
                          f"{e.get('own correct challenged', 0)} of {e.get('own correct', 0)}; "
                          f"of others' rules: {e.get('other enforcements', 0)}, wrong "
                          f"{e.get('other wrong', 0)}", flush=True)
    write_json(args.json, {"machine": machine(), "args": vars(args), "results": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
