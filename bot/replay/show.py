"""What a replay shows: one step as Discord embeds, and the whole game as a JSON export.

Hidden cards stay hidden, by construction as on the live table: the channel's view of a
step is rendered from `engine.view(state, None)` and the step's public events only (what
the channel saw then); a player's own view adds `engine.view(state, seat)`, the events only
that seat was told, and their own move as their confirmation read — and nothing of any
other seat. The seed and the moves themselves (which hold face-down cards) are never shown
or exported; see the README ("Replays") for why.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.replay.record import Frame, Replay
from bot.ui.names import seat_names as told_apart
from bot.ui.render import _fit as fit_embeds
from bot.ui.text import DESCRIPTION_LIMIT, clip, shown
from engines.core import render_seats

if TYPE_CHECKING:
    from bot.game_ui import GameUI

EXPORT_FORMAT = "cardtable-replay/1"


def seat_names(replay: Replay) -> list[str]:
    """Seat names escaped for embeds (as the live board showed them)."""
    return told_apart([s.get("name") or f"Seat {i + 1}"
                      for i, s in enumerate(replay.record.seats)], markdown=True)


def plain_names(replay: Replay) -> list[str]:
    """Seat names as typed (one line, bounded): for the JSON export, which is no markdown."""
    return told_apart([s.get("name") or f"Seat {i + 1}"
                      for i, s in enumerate(replay.record.seats)], markdown=False)


def _who(replay: Replay, frame: Frame, names: list[str]) -> str:
    """Who made the move, and how (an AI for a person, or the turn timer)."""
    name = f"**{names[frame.seat]}**"
    human = bool(replay.record.seats[frame.seat].get("user_id"))
    if frame.by == "timer":
        return f"{name} (⏰ time ran out: the timer's move)"
    if frame.by == "ai" and human:
        return f"{name} (🤖 an AI played for them)"
    return name


def frame_embeds(ui: GameUI, replay: Replay, step: int, *, match_id: int,
                 seat: int | None = None) -> list[discord.Embed]:
    """Step `step` (0 = the deal) as the channel saw it, or, with `seat`, as that seat saw
    it: its own hand and secrets beside the public board."""
    engine = replay.engine
    frame = replay.frame(step)
    names = seat_names(replay)
    state = frame.state
    lines = []
    if step == 0:
        lines.append(f"**The deal** — the game begins with {replay.record.n_players} "
                     "players.")
    else:
        lines.append(f"**Move {step} of {replay.last}** · {_who(replay, frame, names)}")
    lines += [f"• {shown(note, names)}" for note in frame.notes]
    lines += [f"• {shown(e.text, names)}" for e in frame.events if e.visible_to is None]
    if seat is not None:
        if step and frame.seat == seat:
            lines.append(f"✅ Your move: {shown(engine.describe(frame.before, frame.action), names)}")
        lines += [f"🤫 {shown(e.text, names)}" for e in frame.events
                  if e.visible_to is not None and seat in e.visible_to]
    outcome = engine.outcome(state)
    if outcome is None:
        waiting = sorted(engine.waiting_for(state))
        lines.append("**To act:** " + (", ".join(names[s] for s in waiting) or "—"))
    else:
        lines.append(f"**Game over** — {shown(outcome.reason, names)}")
        lines.append(ui.render_result(outcome, engine.view(state, None), names))
    whose = ("as the channel saw it" if seat is None
             else f"as {plain_names(replay)[seat]} saw it")
    header = discord.Embed(title=f"🎞️ {engine.title} — game #{match_id}, replay",
                           description=clip("\n".join(lines), DESCRIPTION_LIMIT),
                           colour=ui.colour)
    header.set_footer(text=f"Move {step} of {replay.last} · {whose} · only you see this")
    embeds = [header]
    if seat is not None:
        private = ui.render_private(engine.view(state, seat), names, seat)
        private.title = private.title or f"{ui.emoji} Your hand"
        private.set_footer(text="Your view at this step: only you see it.")
        embeds.append(private)
    embeds += ui.render_board(engine.view(state, None), names)
    # within Discord's limits like a board: the header and a private view come first, so
    # they are the ones kept
    return fit_embeds(embeds)


# ---------------------------------------------------------------------- the export
def export_json(replay: Replay, match: dict[str, Any], *, seat: int | None = None,
                limit_bytes: int | None = None) -> tuple[bytes, bool]:
    """The game as a JSON file: every step with what the channel saw (public events and
    view) and, with `seat`, what that seat saw too. (bytes, whole): when the file would be
    over `limit_bytes` (Discord's upload limit), the views are kept for the deal and the end
    only, and `whole` is False."""
    engine = replay.engine
    names = plain_names(replay)
    steps = []
    for frame in replay.frames():
        k = frame.index
        step: dict[str, Any] = {"step": k}
        if k:
            step.update(player=names[frame.seat], seat=frame.seat)
            if frame.by:
                step["by"] = frame.by
        if frame.notes:
            step["notes"] = [render_seats(n, names) for n in frame.notes]
        step["events"] = [render_seats(e.text, names) for e in frame.events
                          if e.visible_to is None]
        step["view"] = engine.view(frame.state, None)
        if seat is not None:
            mine: dict[str, Any] = {}
            if k and frame.seat == seat:
                mine["move"] = render_seats(engine.describe(frame.before, frame.action), names)
            told = [render_seats(e.text, names) for e in frame.events
                    if e.visible_to is not None and seat in e.visible_to]
            if told:
                mine["events"] = told
            mine["view"] = engine.view(frame.state, seat)
            step["you"] = mine
        steps.append(step)
    outcome = engine.outcome(replay.frame(replay.last).state)
    doc = {
        "format": EXPORT_FORMAT,
        "game": engine.name,
        "title": engine.title,
        "match": match["id"],
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(match["finished_at"])),
        "duration_seconds": match.get("duration"),
        "rules_version": replay.record.rules,
        "options": replay.record.options,
        "players": [{"seat": i, "name": names[i],
                     **{k: s[k] for k in ("ai", "left", "replaced", "team") if s.get(k)}}
                    for i, s in enumerate(replay.record.seats)],
        "result": {"winners": [names[s] for s in sorted(outcome.winners)],
                   "scores": {names[s]: v for s, v in sorted(outcome.scores.items())},
                   "reason": render_seats(outcome.reason, names)},
        "seen_by": "the channel" if seat is None else f"{names[seat]} (seat {seat})",
        "views": "every step",
        "steps": steps,
    }
    data = _dump(doc)
    if limit_bytes is None or len(data) <= limit_bytes:
        return data, True
    doc["views"] = "the deal and the end only: with every step's the file would pass " \
                   "Discord's upload limit"
    for step in steps[1:-1]:
        step.pop("view", None)
        if "you" in step:
            step["you"].pop("view", None)
    return _dump(doc), False


def _dump(doc: dict[str, Any]) -> bytes:
    """Compact, one step per line (readable in any editor, a third of an indented file)."""
    steps = doc["steps"]
    assert list(doc)[-1] == "steps"
    head = json.dumps({**doc, "steps": []}, ensure_ascii=False, separators=(",", ":"))
    body = ",\n".join(json.dumps(step, ensure_ascii=False, separators=(",", ":"))
                       for step in steps)
    return (head[:-len("[]}")] + "[\n" + body + "\n]}\n").encode()
