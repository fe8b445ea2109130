"""What a game's cog provides so the generic table framework can show that game.

A game plugs in by subclassing `GameUI` (rendering only: views in, Discord embeds out) and
`bot.game_cog.GameCog` (its slash commands). Nothing else in `bot/` knows about any game.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import discord

from bot.pictures import Picture
from engines.core import Engine, Outcome

DATA_DIR = Path(__file__).resolve().parents[1] / "data"


@dataclass(frozen=True)
class TextPrompt:
    """Free text a move carries (e.g. what a Hidden Rules player says with a card)."""

    title: str
    label: str
    placeholder: str = ""
    required: bool = False
    max_length: int = 200


class GameUI:
    engine: Engine
    command: str  # the slash command group, e.g. "suspense"
    emoji: str = "🎴"
    colour: int = 0x5865F2
    blurb: str = ""  # one line for /help
    # cogs/<game>/pictures.py: board_picture(view, names), hand_picture(view, names, seat)
    pictures: ModuleType | None = None

    def rules_markdown(self) -> str:
        path = DATA_DIR / self.engine.name / "rules.md"
        return path.read_text(encoding="utf-8") if path.exists() else "No rules summary yet."

    def quick_start(self) -> str | None:
        """The rules text's `## Quick start` section (shown first by `/<game> rules`, with a
        **Full rules** button), or None if the text has none."""
        return quick_start_of(self.rules_markdown())

    def render_board(self, view: dict[str, Any], names: list[str]) -> list[discord.Embed]:
        """The public board below the framework's header (several embeds allowed, ≤ 9)."""
        raise NotImplementedError

    def render_private(self, view: dict[str, Any], names: list[str], seat: int, *,
                       with_table: bool = True) -> discord.Embed:
        """One seat's private view: hand, secret role or rule.

        `with_table=False` is the living DM's version: only what derives from the seat's own
        secrets (hand, role, secret rule, cards only they know), nothing that depends on the
        public table (piles, the row, what can be captured, accusations, whose turn it
        is). The DM is edited only when what it shows changes, and the public table changes
        on nearly every move: shown in the DM it went stale (or would cost an edit of every
        player's DM per move). **My hand** and the move panel are rendered on each click,
        so they show everything (`with_table=True`)."""
        raise NotImplementedError

    def board_picture(self, view: dict[str, Any], names: list[str]) -> Picture | None:
        """The board as a picture (cogs/<game>/pictures.py), drawn from the public view only.
        Runs in a worker thread: it must use nothing but its arguments."""
        return self.pictures.board_picture(view, names) if self.pictures else None

    def hand_picture(self, view: dict[str, Any], names: list[str], seat: int, *,
                     with_table: bool = True) -> Picture | None:
        """One seat's private view as a picture, drawn from that seat's view only
        (`with_table=False`: the DM's, without the public table, like `render_private`)."""
        if self.pictures is None:
            return None
        return self.pictures.hand_picture(view, names, seat, with_table=with_table)

    def turn_hint(self, view: dict[str, Any], names: list[str]) -> str | None:
        """A few words for the turn notice on what is asked (e.g. "consent or veto …")."""
        return None

    def text_prompt(self, action: Any) -> TextPrompt | None:
        """If a move carries free text, the panel asks for it in a form first."""
        return None

    def with_text(self, action: Any, text: str) -> Any:
        """The move with the player's text filled in (see `text_prompt`)."""
        return action

    def render_result(self, outcome: Outcome, view: dict[str, Any], names: list[str]) -> str:
        """Final standings text; the default lists scores, winners first."""
        order = sorted(outcome.scores, key=lambda s: (s not in outcome.winners,
                                                      -outcome.scores[s], s))
        lines = []
        for seat in order:
            crown = "🏆 " if seat in outcome.winners else ""
            lines.append(f"{crown}**{names[seat]}** — {self.score_text(outcome.scores[seat])}")
        return "\n".join(lines)

    def score_text(self, score: float) -> str:
        """How a final score reads (a game may name its unit, e.g. "2 round wins")."""
        return str(int(score)) if float(score).is_integer() else str(round(score, 2))


def registered_uis() -> dict[str, GameUI]:
    """Each registered engine's `GameUI`, from its `cogs/<game>/cog.py`, without a bot
    (benchmarks, scripts and tests that draw pictures use it)."""
    import importlib

    from engines import ENGINES

    uis: dict[str, GameUI] = {}
    for name in ENGINES:
        module = importlib.import_module(f"cogs.{name}.cog")
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, GameUI) and value is not GameUI
                    and getattr(value, "engine", None) is ENGINES[name]):
                uis[name] = value()
                break
    return uis


def quick_start_of(markdown: str) -> str | None:
    """The body of a `## Quick start` section (up to the next heading of level 1 or 2)."""
    lines = markdown.splitlines()
    start = next((i for i, line in enumerate(lines)
                  if line.strip().lower().lstrip("#").strip() == "quick start"
                  and line.lstrip().startswith("##")), None)
    if start is None:
        return None
    body = []
    for line in lines[start + 1:]:
        if line.startswith("# ") or line.startswith("## "):
            break
        body.append(line)
    return "\n".join(body).strip() or None
