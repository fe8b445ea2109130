"""The engine contract shared by every game (DESIGN.md section 2, binding).

Engines are pure: no discord import, no I/O, no clock and no module-level randomness. The bot
layer only ever sees what `view` and `Event` give it, which is how hidden cards stay hidden.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

Seat = int
S = TypeVar("S")
A = TypeVar("A")


# --------------------------------------------------------------------------- errors
class GameError(Exception):
    """Base of every rules error; `code` lets the bot pick a friendly message."""

    code: ClassVar[str] = "game_error"


class InvalidActionError(GameError, ValueError):
    """The input is malformed or cannot be understood (e.g. a card name that does not parse)."""

    code = "invalid"


class IllegalActionError(GameError, ValueError):
    """The action is well formed but not legal in this state."""

    code = "illegal"


class NotYourTurnError(IllegalActionError):
    """The seat is not in `to_act` right now."""

    code = "not_your_turn"


class GameOverError(IllegalActionError):
    """The game has already ended."""

    code = "game_over"


class StaleStateError(GameError):
    """A button or command refers to an older version of the table (raised by the bot layer)."""

    code = "stale"


# --------------------------------------------------------------------------- steps and events
@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for logs and renderers.

    `text` is short human text in which seats appear as `{P0}`, `{P1}`, ... so the bot can put
    display names in. `visible_to=None` means everyone may see it; otherwise only those seats.
    A secret happening is emitted twice: a private event to the seats who know, and a public
    one without the secret ("{P1} drew a card").
    """

    kind: str
    text: str
    visible_to: frozenset[int] | None = None
    data: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def visible(self, seat: Seat | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


def public(kind: str, text: str, **data: Any) -> Event:
    return Event(kind, text, None, data)


def private(seats: int | frozenset[int] | set[int] | Sequence[int], kind: str, text: str,
            **data: Any) -> Event:
    who = frozenset([seats]) if isinstance(seats, int) else frozenset(seats)
    return Event(kind, text, who, data)


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    state: S
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game. `reason` says why it ended (a cap included)."""

    scores: dict[int, float]
    winners: frozenset[int]
    reason: str


_SEAT_RE = re.compile(r"\{P(\d+)\}")
# Free text a player typed, inside an engine's text, sits between these two control
# characters (which typed text never keeps: names and said text drop control characters).
TYPED_START, TYPED_END = "\x0e", "\x0f"
_TYPED_RE = re.compile("\x0e([^\x0e\x0f]*)\x0f")


def typed(text: str) -> str:
    """Free text a player typed (what a Hidden Rules player says, a hint), marked inside an
    engine's text so that renderers show it literally: escaped for markdown where markdown
    is rendered, without reading `{P3}` in it as a seat or changing its signs. Engines keep
    and check the text as typed; only its display is escaped (bot.ui.text.shown), on one
    line (`one_line`)."""
    return TYPED_START + one_line(text.replace(TYPED_START, "").replace(TYPED_END, "")) \
        + TYPED_END


def one_line(text: str) -> str:
    """Typed text shown on its line: a line break (kept, e.g. it separates the parts of
    what a Hidden Rules player says) is shown as " / "."""
    return text.replace("\n", " / ")


def typed_parts(text: str) -> list[tuple[str, bool]]:
    """`text` cut into (piece, is_typed) parts, in order, markers removed."""
    if TYPED_START not in text:
        return [(text, False)]
    parts: list[tuple[str, bool]] = []
    pos = 0
    for match in _TYPED_RE.finditer(text):
        parts.append((text[pos:match.start()], False))
        parts.append((match.group(1), True))
        pos = match.end()
    parts.append((text[pos:], False))
    return [(piece, is_typed) for piece, is_typed in parts if piece or is_typed]


def render_seats(text: str, names: Sequence[str],
                 typed_text: Callable[[str], str] = lambda piece: piece) -> str:
    """Replace `{P3}` placeholders with display names (used by logs, tests and the bot);
    typed text (`typed`) is left as typed, through `typed_text` (e.g. a markdown escape)."""
    def seats(piece: str) -> str:
        return _SEAT_RE.sub(lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names)
                            else f"Seat {int(m.group(1)) + 1}", piece)

    if TYPED_START not in text:
        return seats(text)
    return "".join(typed_text(piece) if is_typed else seats(piece)
                   for piece, is_typed in typed_parts(text))


# --------------------------------------------------------------------------- randomness
def rng_for(seed: int | str, counter: int) -> random.Random:
    """A generator for one chance event: the state stores (seed, counter), never RNG internals."""
    return random.Random(f"{seed}:{counter}")


class SeededState:
    """Mixin for state classes that carry `seed` and `rng_counter` fields."""

    seed: int
    rng_counter: int

    def next_rng(self) -> random.Random:
        rng = rng_for(self.seed, self.rng_counter)
        self.rng_counter += 1
        return rng


# --------------------------------------------------------------------------- options
class GameOptions(BaseModel):
    """Base for every game's `Options`: strict, immutable, every field described and bounded."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)


# --------------------------------------------------------------------------- the engine base
@dataclass(frozen=True, slots=True)
class AiPlayer:
    """A game's AI as the registry pairs it with its engine.

    `choose(engine, state, seat, rng)` picks a move from a determinized state;
    `timer_move(engine, state, seat)`, when given, is the deterministic move a turn timer
    plays for a seat whose time ran out (games whose safe default needs the AI's judgement).

    For the hard level's search (engines.ai_levels), a game may also give
    `rank(engine, state, seat, rng)`: the legal moves the AI would consider, best first by its
    own judgement, from a determinized state (the search tries only the first few);
    `value(engine, state, seat)`: how good an unfinished state is for `seat`, in [0, 1],
    where a playout stops; `playout(engine, state, seat, rng)`: a cheaper stand-in for
    `choose` inside playouts; `plan`: the search's size for this game (a SearchPlan); and
    `worlds(engine, state, seat, rng, count)`: the `count` determinized states to search in,
    when the game can sample them better than `count` independent `determinize` calls (e.g.
    spread evenly over the few things that decide a game); `sure(engine, state, seat)`: a
    move the game can prove best from what the seat sees (e.g. its own plays that certainly
    eliminate an opponent this turn), played without a search, else None;
    `lookahead(engine, state, seat, normal)`: a move the game's own exact lookahead prefers
    clearly to `normal` (the normal AI's move), e.g. Six Suit's extra-turn chain planner,
    played without the search, else None.
    """

    choose: Callable[..., Any]
    timer_move: Callable[..., Any] | None = None
    rank: Callable[..., list[Any]] | None = None
    value: Callable[..., float] | None = None
    plan: Any = None
    playout: Callable[..., Any] | None = None
    # `baseline(engine, state, seat, rng)`: the game's simple rule-aware player, a one-line
    # heuristic (never the AI's judgement); `bench.ai` measures the AI against it.
    baseline: Callable[..., Any] | None = None
    worlds: Callable[..., list[Any]] | None = None
    sure: Callable[..., Any] | None = None
    lookahead: Callable[..., Any] | None = None


class Engine(Generic[S, A]):
    """Base class of every game engine.

    Subclasses implement the contract members. The helpers here are shared so no game
    re-implements turn checks, AI plumbing or text parsing.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[GameOptions]]

    # ---- contract (override) -------------------------------------------------------------
    def new_game(self, n_players: int, seed: int, options: GameOptions | None = None) -> S:
        raise NotImplementedError

    def to_act(self, state: S) -> frozenset[int]:
        raise NotImplementedError

    def legal_actions(self, state: S, seat: Seat) -> Sequence[A]:
        raise NotImplementedError

    def apply(self, state: S, seat: Seat, action: A) -> Step[S]:
        raise NotImplementedError

    def view(self, state: S, seat: Seat | None) -> dict:
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        raise NotImplementedError

    def describe(self, state: S, action: A) -> str:
        raise NotImplementedError

    def determinize(self, state: S, seat: Seat, rng: random.Random) -> S:
        raise NotImplementedError

    def dump(self, state: S) -> str:
        raise NotImplementedError

    def load(self, text: str) -> S:
        raise NotImplementedError

    # ---- extensions used by the bot (override where the default does not fit) -------------
    def menu_path(self, state: S, action: A) -> tuple[str, ...]:
        """Labels for the turn panel's successive choices, e.g. ("Cast", "7♠ + 7♥", "→ Bob").

        Actions sharing a prefix are grouped; the default is one flat choice.
        """
        return (self.describe(state, action),)

    def waiting_for(self, state: S) -> frozenset[int]:
        """Seats the game is waiting on (turn timers apply to them); default: `to_act`.

        A game where others *may* act at any time (e.g. enforcing a rule) returns only the
        seats that *must* act; the others are optional actors.
        """
        return self.to_act(state)

    def default_action(self, state: S, seat: Seat) -> A:
        """What a turn timer plays for a seat that let its time run out."""
        return self.legal_actions(state, seat)[0]

    #: The game's AI, paired with the engine by the registry (`engines.register`): the rules
    #: module never imports its AI, so rules can be read, tested and loaded on their own.
    ai: AiPlayer | None = None

    def ai_policy(self, state: S, seat: Seat, rng: random.Random) -> A:
        """Pick an action from a determinized state: the paired AI, else a random legal move."""
        if self.ai is not None:
            return self.ai.choose(self, state, seat, rng)
        return rng.choice(list(self.legal_actions(state, seat)))

    def ai_timer_move(self, state: S, seat: Seat) -> A | None:
        """The paired AI's deterministic move for a seat whose time ran out, if it offers one."""
        if self.ai is not None and self.ai.timer_move is not None:
            return self.ai.timer_move(self, state, seat)
        return None

    def ai_action(self, state: S, seat: Seat, rng: random.Random) -> A | None:
        """The AI's move at the table's `ai_level`. It only ever sees determinized states,
        so it cannot peek.

        For an optional actor (in `to_act` but not `waiting_for`) it may return None: the AI
        does not want to act now.
        """
        from engines.ai_levels import choose_at_level, level_of

        return choose_at_level(self, state, seat, rng, level_of(self, state))

    def ai_value(self, state: S, seat: Seat) -> float:
        """How good `state` looks for `seat`, in [0, 1], where the hard AI's playouts stop:
        a finished game scores the seat's share of the win; an unfinished one sits in
        [0.25, 0.75] by the seat's lead in the game's scores (`scores`, `wins`, or the
        cards in `points`, whichever the state keeps). A game overrides it when that
        reads its progress poorly."""
        outcome = self.outcome(state)
        if outcome is not None:
            return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
        if self.ai is not None and self.ai.value is not None:
            return self.ai.value(self, state, seat)
        scores = _progress(state)
        if not scores:
            return 0.5
        lead = scores[seat] - max(v for p, v in enumerate(scores) if p != seat)
        return 0.5 + 0.25 * lead / (1.0 + abs(lead))

    def secret_labels(self, state: S, seat: Seat | None) -> frozenset[str]:
        """Labels (as rendered, e.g. "Q♠") of cards hidden from `seat`: used by leak checks."""
        return frozenset()

    def options_of(self, state: S) -> GameOptions:
        return state.options  # type: ignore[attr-defined]

    # ---- shared helpers -------------------------------------------------------------------
    def parse_options(self, options: GameOptions | Mapping[str, Any] | None) -> GameOptions:
        if options is None:
            return self.Options()
        if isinstance(options, GameOptions):
            return options
        return self.Options.model_validate(dict(options))

    def check_turn(self, state: S, seat: Seat) -> None:
        """Raise the right error if `seat` may not act now."""
        if self.outcome(state) is not None:
            raise GameOverError("The game is over.")
        if seat not in self.to_act(state):
            raise NotYourTurnError("It is not your turn.")

    def check_legal(self, state: S, seat: Seat, action: A) -> None:
        """Generic legality check: the action must be one `legal_actions` lists, with the
        same types inside (Python finds `True == 1 == 1.0`, but a seat or a value given as a
        bool or a float is not the listed move)."""
        self.check_turn(state, seat)
        if not is_listed(action, self.legal_actions(state, seat)):
            raise IllegalActionError("That move is not allowed right now.")

    def __repr__(self) -> str:
        return f"<engine {self.name}>"


def _progress(state: Any) -> list[float]:
    for name in ("scores", "wins", "points"):
        values = getattr(state, name, None)
        if isinstance(values, list) and values:
            return [float(len(v)) if isinstance(v, list) else float(v) for v in values]
    return []


def is_listed(action: Any, legal: Sequence[Any]) -> bool:
    """Whether `legal` holds an action equal to `action` with the same types inside (see
    `same_types`); False for garbage whose comparison raises."""
    try:
        return any(known == action and same_types(known, action) for known in legal)
    except TypeError:
        return False


def same_types(a: Any, b: Any) -> bool:
    """Whether two equal values also have the same types all the way down (dataclass
    fields, tuples, lists): `Keep(trigger=11)` and `Keep(trigger=11.0)` are equal but only
    the first is a move an engine lists."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(same_types(x, y) for x, y in zip(a, b, strict=True))
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return all(same_types(getattr(a, f.name), getattr(b, f.name))
                   for f in dataclasses.fields(a))
    return True
