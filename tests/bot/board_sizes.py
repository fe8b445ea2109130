"""Every board of seeded random whole games, rendered by the bot's own code without Discord:
the lines and characters a player would see (turn notice, header, the game's embeds).

The e2e test (tests/e2e/test_board_size.py) measures one game of each through the fake; this
measures every state of many games in a second, so a rare phase (a Six Suit extra-turn chain
in the final phase, a Suit Taboo reveal during end mode) is not missed."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from bot.game_ui import registered_uis
from bot.storage import TableRow
from bot.tables.live import LiveTable
from bot.ui import render
from engines import ENGINES

UIS = registered_uis()
NOTICE = ("🎯 <@123456789012345678>, it's your move in **{title}** — a hint of a few words "
          "(time runs out <t:1795550140:R>).")


@dataclass
class Board:
    game: str
    seed: int
    move: int
    lines: int
    chars: int
    text: str


def _table(game: str, players: int, seed: int) -> LiveTable:
    seats = [{"user_id": 100_000_000_000_000_000 + i, "name": name, "ai": False}
             for i, name in enumerate(("alice", "bob", "carol", "dave", "erin", "frank")
                                      [:players])]
    row = TableRow(id=1, guild_id=1, channel_id=1, game=game, status="playing", host_id=seats[0]
                   ["user_id"], seats=seats, options={}, state=None, version=0,
                   board_message_id=None, meta={}, created_at=time.time())
    return LiveTable(row=row, ui=UIS[game])


def text_of(content: str | None, embeds) -> str:
    parts = [content] if content else []
    for embed in embeds:
        parts += [embed.title, embed.description]
        for field in embed.fields:
            parts += [field.name, field.value]
        parts += [embed.footer.text, embed.author.name]
    return "\n".join(p for p in parts if p)


def boards(game: str, players: int, seed: int, max_moves: int = 3000) -> Iterator[Board]:
    """The board after every move of one random whole game (default options)."""
    engine = ENGINES[game]
    rng = random.Random(seed)
    table = _table(game, players, seed)
    table.state = engine.new_game(players, seed)
    for move in range(max_moves):
        notice = NOTICE.format(title=engine.title) if engine.waiting_for(table.state) else None
        embeds = render.board_embeds(table, notice)
        text = text_of(notice, embeds)
        yield Board(game, seed, move, len(text.splitlines()), len(text), text)
        if engine.outcome(table.state) is not None:
            return
        seat = rng.choice(sorted(engine.to_act(table.state)))
        step = engine.apply(table.state, seat,
                            rng.choice(list(engine.legal_actions(table.state, seat))))
        table.state = step.state
        table.add_log(list(step.events))
        table.history_pending.clear()
