"""A finished game's record, and replaying it step by step.

Engines are deterministic from `(n_players, seed, options)` and the moves, so a record keeps
exactly those (plus the seats and the notes the bot added, such as "ran out of time"), and
every step of the game is rebuilt on demand instead of stored.

While a game is played the table service appends one JSON line per move to the table's row,
in the same save as the move (`entries`): a start line, the moves (seat, action, and whether
an AI or a turn timer made it), and notes. It also keeps a running hash (`chain_link`) of
what the channel saw after each step: the public view and the public events. The record
stores that hash and the outcome; a replay recomputes both and refuses to show a game whose
replay differs anywhere (after a rules change, say) instead of showing a wrong one.
`rules_fingerprint` (a hash of the rules' source and data) is stored too, so the refusal can
say the rules changed since.

Record formats: the running hash covers the public view, so a view that gains a field would
make every older record look different. A record says which view its hash was taken of
(`format`), and the hash is recomputed over that same view: format 1 is the view before Six
Suit counted the cards under each pile (no seat `depth`), format 2 the view with it. A table
keeps the format it began with (`chain_format` in its meta; a table begun before formats,
format 1), so a game that runs across an upgrade is hashed the same way from start to end.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.replay.codec import CodecError, decode_action, encode_action
from engines.core import Engine, Event, GameError

RECORD_FORMAT = 2  # what new tables record
READABLE_FORMATS = (1, 2)
ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------- while playing
def start_entry(seed: int, n_players: int) -> dict[str, Any]:
    return {"start": {"seed": str(seed), "n": n_players}}


def move_entry(seat: int, action: Any, by: str | None = None) -> dict[str, Any]:
    """A move; `by` is "ai" (an AI seat, or an AI playing for someone) or "timer" (the
    turn timer played a default move), absent for a person's own move."""
    entry = {"seat": seat, "act": encode_action(action)}
    if by:
        entry["by"] = by
    return entry


def note_entry(text: str) -> dict[str, Any]:
    """A line the bot added to the game's history (`{P1}` placeholders kept)."""
    return {"note": text}


def entry_lines(version: int, entries: Iterable[dict[str, Any]]) -> str:
    """Entries saved with the table's `version` as the JSON lines appended to its row."""
    return "".join(json.dumps({"v": version, **e}, ensure_ascii=False,
                              separators=(",", ":")) + "\n" for e in entries)


def parse_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False,
                      separators=(",", ":")).encode()


def chain_view(engine: Engine, state: Any, fmt: int = RECORD_FORMAT) -> dict[str, Any]:
    """The public view as a record of format `fmt` hashed it."""
    view = engine.view(state, None)
    if fmt < 2 and engine.name == "six_suit":  # format 1: piles were not counted
        view = {**view, "seats": [{k: v for k, v in seat.items() if k != "depth"}
                                  for seat in view["seats"]]}
    return view


def chain_link(previous: str, engine: Engine, state: Any, events: Iterable[Event] = (),
               fmt: int = RECORD_FORMAT) -> str:
    """The running hash after one step: the previous link, what the channel then saw (the
    public view, as format `fmt` has it) and the public events of the step."""
    digest = hashlib.sha256(previous.encode())
    digest.update(_canonical(chain_view(engine, state, fmt)))
    digest.update(_canonical([[e.kind, e.text] for e in events if e.visible_to is None]))
    return digest.hexdigest()[:32]


@functools.cache
def rules_fingerprint(game: str) -> str:
    """A hash of what decides a game's rules: its engine package (its AI aside: AI moves
    are recorded like any other), the shared engine code and its data files (texts such as
    the rules summary aside)."""
    digest = hashlib.sha256()
    paths = sorted(p for p in (ROOT / "engines" / game).glob("*.py") if p.name != "ai.py")
    paths += [ROOT / "engines" / "core.py", ROOT / "engines" / "cards.py"]
    paths += sorted(p for p in (ROOT / "data" / game).glob("*")
                    if p.is_file() and p.suffix != ".md")
    for path in paths:
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


# ---------------------------------------------------------------------- the record
@dataclass
class GameRecord:
    """What is kept of a finished game to replay it (stored as JSON in match_records)."""

    game: str
    rules: str
    seed: int
    n_players: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    entries: list[dict[str, Any]]
    outcome: dict[str, Any]  # {"scores": {seat: score}, "winners": [...], "reason": str}
    chain: str
    format: int = RECORD_FORMAT

    def to_json(self) -> str:
        return json.dumps({"format": self.format, "game": self.game, "rules": self.rules,
                           "seed": str(self.seed), "n_players": self.n_players,
                           "options": self.options, "seats": self.seats,
                           "entries": self.entries, "outcome": self.outcome,
                           "chain": self.chain}, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        data = json.loads(text)
        return cls(game=data["game"], rules=data["rules"], seed=int(data["seed"]),
                   n_players=data["n_players"], options=data["options"], seats=data["seats"],
                   entries=data["entries"], outcome=data["outcome"], chain=data["chain"],
                   format=data.get("format", 0))

    @property
    def moves(self) -> int:
        return sum(1 for e in self.entries if "act" in e)


def outcome_json(scores: dict[int, float], winners: Iterable[int], reason: str
                 ) -> dict[str, Any]:
    return {"scores": {str(k): float(v) for k, v in sorted(scores.items())},
            "winners": sorted(winners), "reason": reason}


def seats_json(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a record keeps of each seat: who sat there and how the game ended for them."""
    keep = ("user_id", "name", "ai", "left", "replaced", "team")
    return [{k: s[k] for k in keep if s.get(k) not in (None, False)} for s in seats]


def build_record(engine: Engine, *, lines: str, options: dict[str, Any],
                 seats: list[dict[str, Any]], outcome: dict[str, Any], chain: str,
                 fmt: int = RECORD_FORMAT) -> GameRecord | None:
    """The record of a finished table from its stored move lines; None if the lines do not
    cover the whole game (a game that began before moves were recorded)."""
    entries = parse_lines(lines)
    if not entries or "start" not in entries[0] or not chain:
        return None
    start = entries[0]["start"]
    return GameRecord(game=engine.name, rules=rules_fingerprint(engine.name),
                      seed=int(start["seed"]), n_players=int(start["n"]), options=options,
                      seats=seats_json(seats), entries=entries[1:], outcome=outcome,
                      chain=chain, format=fmt)


# ---------------------------------------------------------------------- replaying
class ReplayMismatch(Exception):
    """The record does not replay to what was recorded; the message says where."""


@dataclass
class Frame:
    """One step of a replayed game: the state after it and what happened in it."""

    index: int  # 0 = the deal, k = after the k-th move
    state: Any
    seat: int | None = None  # who moved (None for the deal)
    action: Any = None
    by: str | None = None
    events: tuple[Event, ...] = ()
    notes: list[str] = field(default_factory=list)  # the bot's lines before this move
    before: Any = None  # the state the move was made in (for `describe`)


@dataclass(frozen=True)
class Move:
    seat: int
    action: Any
    by: str | None
    events: tuple[Event, ...]
    notes: tuple[str, ...]


CHECKPOINT = 25  # a replay keeps every 25th state and applies the moves after it


@dataclass
class Replay:
    """A replayed game. Only every `CHECKPOINT`-th state is kept (a long Six Suit game has
    over a thousand): a step is rebuilt from the checkpoint before it, at most 24 moves,
    a fraction of a millisecond."""

    record: GameRecord
    engine: Engine
    moves: list[Move]
    checkpoints: dict[int, Any]

    @property
    def last(self) -> int:
        """The last step (= the number of moves); step 0 is the deal."""
        return len(self.moves)

    def state_at(self, step: int) -> Any:
        base = step - step % CHECKPOINT
        state = self.checkpoints[base]
        for k in range(base, step):
            move = self.moves[k]
            state = self.engine.apply(state, move.seat, move.action).state
        return state

    def frames(self) -> Iterator[Frame]:
        """Every step in order, each move applied once (for a whole-game export: `frame`
        step by step would replay up to 24 moves for each)."""
        state = self.checkpoints[0]
        yield Frame(0, state)
        for k, move in enumerate(self.moves, start=1):
            after = self.engine.apply(state, move.seat, move.action).state
            yield Frame(k, after, move.seat, move.action, move.by, move.events,
                        list(move.notes), state)
            state = after

    def frame(self, step: int) -> Frame:
        if step == 0:
            return Frame(0, self.checkpoints[0])
        before = self.state_at(step - 1)
        move = self.moves[step - 1]
        state = self.engine.apply(before, move.seat, move.action).state
        return Frame(step, state, move.seat, move.action, move.by, move.events,
                     list(move.notes), before)


def replay(engine: Engine, record: GameRecord) -> Replay:
    """Rebuild every step of `record`; ReplayMismatch if it does not reproduce the recorded
    game exactly (every move legal, every public view and event, the outcome)."""
    if record.format not in READABLE_FORMATS:
        raise ReplayMismatch(f"the record is in format {record.format}; this version reads "
                             f"formats {', '.join(map(str, READABLE_FORMATS))}")
    if record.game != engine.name:
        raise ReplayMismatch("the record is of another game")
    try:
        state = engine.new_game(record.n_players, record.seed,
                                engine.parse_options(record.options))
    except (GameError, ValueError) as exc:
        raise ReplayMismatch(f"the game can't be dealt again: {exc}") from None
    fmt = record.format
    link = chain_link("", engine, state, fmt=fmt)
    checkpoints = {0: state}
    moves: list[Move] = []
    notes: list[str] = []
    for entry in record.entries:
        if "note" in entry:
            notes.append(str(entry["note"]))
            continue
        step = len(moves) + 1
        try:
            action = decode_action(engine, entry["act"])
            seat = int(entry["seat"])
            result = engine.apply(state, seat, action)
        except (CodecError, GameError, ValueError, KeyError, TypeError) as exc:
            raise ReplayMismatch(f"move {step} can't be made again ({exc})") from None
        link = chain_link(link, engine, result.state, result.events, fmt)
        moves.append(Move(seat, action, entry.get("by"), tuple(result.events), tuple(notes)))
        notes = []
        state = result.state
        if step % CHECKPOINT == 0:
            checkpoints[step] = state
    outcome = engine.outcome(state)
    if outcome is None:
        raise ReplayMismatch(f"the game is not over after its {len(moves)} moves")
    again = outcome_json(outcome.scores, outcome.winners, outcome.reason)
    if again != record.outcome:
        raise ReplayMismatch("it ends with another result than the one recorded")
    if link != record.chain:
        raise ReplayMismatch("the table would not look the same at every step")
    return Replay(record, engine, moves, checkpoints)
