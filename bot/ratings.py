"""Skill ratings per game and server, from openskill's Plackett–Luce model.

Plackett–Luce (Weng & Lin 2011, as `openskill` implements it) rates a finished game as a
ranking of any number of players or teams, ties included, so one model covers a two-player
Suspense game, a five-player Suit Taboo game and Six Suit in teams. A rating is a belief
(mu, sigma); the number people see is openskill's conservative `ordinal`, mu − 3·sigma: a
new player starts at 0 and climbs as their results make the bot sure of their skill, so a
lucky first game does not put anyone on top of the leaderboard.

How a finished game becomes a ranking (`placements`), decided here and documented in the
README:

- The game's own standings: winners first, then everyone else by score, high to low (the
  order the result message shows). Equal standing is a tie, and openskill treats ties as
  ties.
- Team games (Six Suit's `teams`): each team is ranked as one (its winners, then the sum of
  its members' scores, as the game decides the winning team), and openskill shares the
  team's result among its members.
- A player who left the game (an AI finished their seat) is ranked last, below everyone who
  stayed, whatever the AI made of the seat; several who left tie for last. In a team game
  they are taken out of their team and ranked last alone, so teammates who stayed keep the
  team's result. (The same rule as the stats: a game played, not won.)
- A player whose time ran out and whom an AI replaced keeps the seat's result, win or
  loss: otherwise going idle would dodge a loss.
- AI seats are rated: every AI level of a game is one pseudo-player per server
  (`ai:easy`, `ai:normal`, `ai:hard`), rated like anyone, so beating a strong AI counts
  for more than beating a weak one and a lone player against AIs still gets a rating.
  Several AI seats in one game each play with the pseudo-player's rating; its new rating
  is the mean of theirs. The AI levels are listed under the leaderboard, never on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.ui.text import signs

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
Z = 3.0  # sigmas below the mean for the conservative rating (openskill's ordinal default)


@dataclass(frozen=True)
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        """The conservative rating people see: mu − 3·sigma (0 for a new player)."""
        return MODEL.create_rating([self.mu, self.sigma]).ordinal(z=Z)


def ordinal(mu: float, sigma: float) -> float:
    return Rating(mu, sigma).ordinal


# ---------------------------------------------------------------------- how a rating reads
def rating_text(mu: float | None, sigma: float | None) -> str:
    """The conservative rating people see, one decimal (a player never rated shows what a
    new player has: 0.0)."""
    if mu is None or sigma is None:
        mu, sigma = MODEL.mu, MODEL.sigma
    return signs(f"{round(ordinal(mu, sigma), 1) + 0.0:.1f}")


def trend_text(delta: float) -> str:
    """A rating change: ▲ 1.3, ▼ 0.4 or ± 0.0."""
    if round(delta, 1) == 0:
        return "± 0.0"
    return f"{'▲' if delta > 0 else '▼'} {abs(delta):.1f}"


def place_text(place: int) -> str:
    return f"{place}{'th' if 10 <= place % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th')}"


def player_key(seat: dict[str, Any], ai_level: str) -> str:
    """Whose rating a seat's result moves: its person (also when an AI finished the seat
    for them), or the pseudo-player of the table's AI level."""
    if seat.get("user_id"):
        return f"u:{int(seat['user_id'])}"
    return f"ai:{ai_level}"


@dataclass(frozen=True)
class Change:
    """One rated player's result in one game."""

    player: str
    user_id: int | None
    before: Rating
    after: Rating
    placement: int  # 1 = first; shared by ties (and by an AI level's seats: its best)
    won: bool


def placements(players: Sequence[dict[str, Any]], scores: dict[int, float],
               winners: Iterable[int]) -> list[tuple[list[int], int]]:
    """The game as a ranking: groups of seats that share a result (a team, or one seat) and
    each group's place (1 = first; equal places are ties). See the module docstring."""
    winners = set(winners)
    stayed = [p for p in players if not p.get("left")]
    teamed = any(isinstance(p.get("team"), int) for p in stayed)
    groups: dict[Any, list[int]] = {}
    for p in stayed:
        key = ("team", p["team"]) if teamed and isinstance(p.get("team"), int) \
            else ("seat", p["seat"])
        groups.setdefault(key, []).append(p["seat"])
    standing = {key: (0 if any(s in winners for s in seats) else 1,
                      -sum(float(scores.get(s, 0.0)) for s in seats))
                for key, seats in groups.items()}
    order = sorted(set(standing.values()))
    ranked = [(seats, order.index(standing[key]) + 1) for key, seats in groups.items()]
    last = len(order) + 1
    ranked += [([p["seat"]], last) for p in players if p.get("left")]
    return sorted(ranked, key=lambda item: (item[1], item[0]))


def rate(players: Sequence[dict[str, Any]], scores: dict[int, float], winners: Iterable[int],
         ai_level: str, current: dict[str, Rating]) -> list[Change]:
    """Every rated player's new rating after one game (`current`: ratings before it, by
    `player_key`; a player not in it starts fresh). Empty if the game ranks fewer than two
    sides (nothing to learn)."""
    winners = set(winners)
    ranking = placements(players, scores, winners)
    if len(ranking) < 2:
        return []
    by_seat = {p["seat"]: p for p in players}
    keys = {seat: player_key(by_seat[seat], ai_level) for seat in by_seat}
    teams = [[MODEL.create_rating([current.get(keys[s], Rating()).mu,
                                   current.get(keys[s], Rating()).sigma], name=keys[s])
              for s in seats] for seats, _ in ranking]
    rated = MODEL.rate(teams, ranks=[float(place) for _, place in ranking])
    results: dict[str, list[tuple[float, float, int, bool]]] = {}
    for (seats, place), team in zip(ranking, rated, strict=True):
        for seat, new in zip(seats, team, strict=True):
            won = seat in winners and not by_seat[seat].get("left")
            results.setdefault(keys[seat], []).append((new.mu, new.sigma, place, won))
    changes = []
    for key, outcomes in results.items():
        user = next((by_seat[s].get("user_id") for s in by_seat if keys[s] == key), None)
        changes.append(Change(
            player=key, user_id=int(user) if user else None,
            before=current.get(key, Rating()),
            after=Rating(sum(o[0] for o in outcomes) / len(outcomes),
                         sum(o[1] for o in outcomes) / len(outcomes)),
            placement=min(o[2] for o in outcomes), won=any(o[3] for o in outcomes)))
    return sorted(changes, key=lambda c: (c.placement, c.player))


@dataclass(frozen=True)
class RatingJob:
    """What `Storage.finish_table` needs to rate a game inside its transaction: whose
    ratings to read, and how to compute the new ones from them ((mu, sigma) by key)."""

    players: list[dict[str, Any]]
    scores: dict[int, float]
    winners: frozenset[int]
    ai_level: str

    @classmethod
    def of(cls, seats: Sequence[dict[str, Any]], scores: dict[int, float],
           winners: Iterable[int], ai_level: str) -> RatingJob:
        """The job for a finished table's seats (as the table service keeps them)."""
        keep = ("user_id", "ai", "left", "replaced", "team")
        return cls([{"seat": i, **{k: s.get(k) for k in keep}} for i, s in enumerate(seats)],
                   dict(scores), frozenset(winners), ai_level)

    @property
    def keys(self) -> list[str]:
        return sorted({player_key(p, self.ai_level) for p in self.players})

    def compute(self, current: dict[str, tuple[float, float]]) -> list[Change]:
        ratings = {key: Rating(mu, sigma) for key, (mu, sigma) in current.items()}
        return rate(self.players, self.scores, self.winners, self.ai_level, ratings)
