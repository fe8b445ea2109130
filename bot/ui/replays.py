"""`/history` and `/replay`: a server's finished games, and stepping through one of them.

Everything here answers one person ephemerally and is routed by custom id
(bot.ui.components), so its buttons keep working after a restart:

- `rp:{match}:{view}:{op}:{step}` — a replay's buttons: `view` is `c` (as the channel saw
  it) or `m` (my own view: only a player of that game gets it, checked at every click);
  `op` names the button (first, back, next, last, −10, +10, view switch) so ids are
  unique; `o` opens a new replay message (the result message's **Replay** button);
  `step` is the step to show.
- `rx:{match}:{view}` — **Export** (a JSON file of what that view shows).
- `hs:{game}:{user}:{page}` — /history's page buttons; `hp:{page}` its "Replay a game" menu.

Who may see a game: its players always; other members if they can see the channel it was
played in now (Discord's permissions for them there), so /history and /replay show no
member a game from a channel hidden from them.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord

from bot.replay.record import GameRecord, Replay, ReplayMismatch, replay, rules_fingerprint
from bot.replay.show import export_json, frame_embeds
from bot.ui.components import RoutedView
from bot.ui.names import clean_name, safe_name
from bot.ui.replies import reply, reply_error
from bot.ui.text import DESCRIPTION_LIMIT, OPTION_LIMIT, clip, pages_of, plain, plural

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger("cardtable.replays")

CACHE = 8  # replayed games kept in memory (the last ones people stepped through)
JUMP = 10  # moves the ⏪ / ⏩ buttons skip
HISTORY_PAGE = 8  # games per /history page
HISTORY_SCAN = 400  # matches looked at per /history page at most (visibility is per member)
OPS = {"f": "first", "b": "back", "n": "next", "l": "last", "j": "−10", "k": "+10",
       "v": "view", "o": "open"}


class Refused(Exception):
    """Why someone may not see a replay (shown to them ephemerally)."""


def duration_text(seconds: float | None) -> str:
    if not seconds or seconds < 0:
        return "—"
    if seconds < 60:
        return f"{int(seconds)} s"
    minutes = int(seconds // 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min"


class ReplayInteractions:
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self._replays: OrderedDict[int, Replay | str] = OrderedDict()

    # ------------------------------------------------------------------ access
    def may_see(self, interaction: discord.Interaction, match: dict[str, Any]) -> bool:
        """A game's players always; others if they can see its channel (for a game in a
        thread, the lobby's channel) now."""
        if match.get("guild_id") != interaction.guild_id:
            return False
        if any(p.get("user_id") == interaction.user.id for p in match["players"]):
            return True
        guild = interaction.guild
        # a game played in its own (public) thread: whoever sees the lobby's channel may
        # see it (bot.threads); an archived thread is not in discord.py's cache anyway
        where = match.get("parent_id") or match["channel_id"]
        channel = guild.get_channel_or_thread(where) if guild else None
        if channel is None or not isinstance(interaction.user, discord.Member):
            return False  # a deleted channel: nobody can tell who could see it
        if isinstance(channel, discord.Thread) and channel.is_private():
            return False
        return channel.permissions_for(interaction.user).view_channel

    @staticmethod
    def seat_of(match: dict[str, Any], user_id: int) -> int | None:
        return next((p["seat"] for p in match["players"] if p.get("user_id") == user_id),
                    None)

    async def _match(self, interaction: discord.Interaction, match_id: int
                     ) -> dict[str, Any]:
        match = await self.bot.storage.match(match_id)
        if match is None or not self.may_see(interaction, match):
            raise Refused(f"I don't know a finished game #{match_id} you can see on this "
                          "server. `/history` lists them.")
        return match

    async def _replay(self, match: dict[str, Any]) -> Replay:
        """The game replayed (kept for the next clicks), or Refused saying why not."""
        match_id = match["id"]
        cached = self._replays.get(match_id)
        if cached is None:
            cached = await self._load(match)
            self._replays[match_id] = cached
            while len(self._replays) > CACHE:
                self._replays.popitem(last=False)
        self._replays.move_to_end(match_id)
        if isinstance(cached, str):
            raise Refused(cached)
        return cached

    async def _load(self, match: dict[str, Any]) -> Replay | str:
        ui = self.bot.tables.uis.get(match["game"])
        if ui is None:
            return "That game is not available on this bot any more."
        text = await self.bot.storage.match_record(match["id"])
        days = self.bot.settings.replay_retention_days
        if text is None:
            kept = f"kept for {plural(days, 'day')}" if days else "kept"
            return (f"No replay is kept for game #{match['id']}: records are {kept}, and "
                    "games from before replays existed have none. `/history` still lists "
                    "it.")
        damaged = f"The record of game #{match['id']} is damaged; it can't be replayed."
        try:
            record = GameRecord.from_json(text)
        except (ValueError, KeyError, TypeError):
            log.exception("game #%s: unreadable record", match["id"])
            return damaged
        try:
            return await asyncio.to_thread(replay, ui.engine, record)
        except ReplayMismatch as exc:
            log.warning("game #%s does not replay: %s", match["id"], exc)
            now = rules_fingerprint(match["game"])
            why = (f"it was recorded under an earlier version of {ui.engine.title}'s rules "
                   f"(`{record.rules}`, now `{now}`), and {exc}" if record.rules != now
                   else f"its record does not match the game ({exc})")
            return (f"Game #{match['id']} can't be replayed faithfully: {why}. Rather than "
                    "show a game that differs from the one played, I don't show it.")
        except Exception:  # an engine that breaks on an old record: still not a wrong game
            log.exception("game #%s: replaying it failed", match["id"])
            return damaged

    # ------------------------------------------------------------------ replay screens
    def _screen(self, match: dict[str, Any], game: Replay, step: int, view: str,
                user_id: int) -> tuple[list[discord.Embed], discord.ui.View]:
        step = max(0, min(step, game.last))
        seat = self.seat_of(match, user_id) if view == "m" else None
        ui = self.bot.tables.uis[match["game"]]
        embeds = frame_embeds(ui, game, step, match_id=match["id"], seat=seat)
        return embeds, self._buttons(match, game, step, view, user_id)

    def _buttons(self, match: dict[str, Any], game: Replay, step: int, view: str,
                 user_id: int) -> discord.ui.View:
        def button(op: str, target: int, label: str, emoji: str, *, row: int,
                   disabled: bool = False, style=discord.ButtonStyle.secondary):
            return discord.ui.Button(label=label, emoji=emoji, style=style, row=row,
                                     disabled=disabled,
                                     custom_id=f"rp:{match['id']}:{view}:{op}:{target}")

        last, mid = game.last, match["id"]
        out = RoutedView()
        out.add_item(button("f", 0, "First", "⏮️", row=0, disabled=step == 0))
        out.add_item(button("b", step - 1, "Back", "◀️", row=0, disabled=step == 0))
        out.add_item(button("n", step + 1, "Next", "▶️", row=0, disabled=step == last,
                            style=discord.ButtonStyle.primary))
        out.add_item(button("l", last, "Last", "⏭️", row=0, disabled=step == last))
        out.add_item(button("j", max(0, step - JUMP), f"{JUMP} back", "⏪", row=1,
                            disabled=step == 0))
        out.add_item(button("k", min(last, step + JUMP), f"{JUMP} on", "⏩", row=1,
                            disabled=step == last))
        if self.seat_of(match, user_id) is not None:
            other, label, emoji = ("m", "My view", "🃏") if view == "c" else \
                ("c", "Channel view", "📺")
            out.add_item(discord.ui.Button(label=label, emoji=emoji, row=1,
                                           custom_id=f"rp:{mid}:{other}:v:{step}"))
        out.add_item(discord.ui.Button(label="Export", emoji="📄", row=1,
                                       custom_id=f"rx:{mid}:{view}"))
        return out

    async def open(self, interaction: discord.Interaction, match_id: int, *,
                   view: str = "c", step: int = 0) -> None:
        """A new replay message for the one who asked (/replay, the result's **Replay**
        button, /history's menu)."""
        try:
            match = await self._match(interaction, match_id)
            if view == "m" and self.seat_of(match, interaction.user.id) is None:
                view = "c"
            if match_id not in self._replays:  # replaying may take a moment: say so first
                await interaction.response.defer(ephemeral=True, thinking=True)
            game = await self._replay(match)
        except Refused as exc:
            await reply_error(interaction, str(exc))
            return
        embeds, buttons = self._screen(match, game, step, view, interaction.user.id)
        await reply(interaction, embeds=embeds, view=buttons, ephemeral=True)

    async def on_step(self, interaction: discord.Interaction, match_id: int, view: str,
                      op: str, step: int) -> None:
        """A replay button: show `step` in place (the ephemeral message is edited)."""
        if op == "o":
            await self.open(interaction, match_id, view=view, step=step)
            return
        try:
            match = await self._match(interaction, match_id)
            if view == "m" and self.seat_of(match, interaction.user.id) is None:
                raise Refused("Only the players of that game can see their own view of it.")
            deferred = match_id not in self._replays
            if deferred:
                await interaction.response.defer()
            game = await self._replay(match)
        except Refused as exc:
            await reply_error(interaction, str(exc))
            return
        embeds, buttons = self._screen(match, game, step, view, interaction.user.id)
        if deferred:
            await interaction.edit_original_response(embeds=embeds, view=buttons)
        else:
            await interaction.response.edit_message(embeds=embeds, view=buttons)

    async def on_export(self, interaction: discord.Interaction, match_id: int,
                        view: str) -> None:
        """**Export**: the game as a JSON file, as this view shows it (see bot.replay.show)."""
        try:
            match = await self._match(interaction, match_id)
            seat = self.seat_of(match, interaction.user.id) if view == "m" else None
            if view == "m" and seat is None:
                raise Refused("Only the players of that game can export their own view.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            game = await self._replay(match)
        except Refused as exc:
            await reply_error(interaction, str(exc))
            return
        limit = max(getattr(interaction, "filesize_limit", 0) or 0, 0) or 10 * 1024 * 1024
        data, whole = await asyncio.to_thread(export_json, game, match, seat=seat,
                                              limit_bytes=limit - 4096)
        name = f"{match['game']}-game-{match_id}{'-my-view' if seat is not None else ''}.json"
        what = "what the channel saw" if seat is None else "what the channel saw and your own view"
        note = "" if whole else " (the views of the deal and the end only: with every step's, " \
            "the file would be over Discord's upload limit)"
        too_big = (f"⚠️ Game #{match_id} is too long to export: even without the views of "
                   f"every step the file would be over Discord's upload limit "
                   f"({limit / (1024 * 1024):.0f} MiB). **Next** and **Last** still show "
                   "every step here.")
        if len(data) > limit:  # Discord would refuse it (413): say so instead
            await interaction.followup.send(too_big, ephemeral=True)
            return
        try:
            await interaction.followup.send(
                f"📄 Game #{match_id} of {game.engine.title}: every move, with {what}{note}.",
                file=discord.File(io.BytesIO(data), filename=name), ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not send the export of game #%s", match_id, exc_info=True)
            with contextlib.suppress(discord.HTTPException):  # never leave "thinking…"
                await interaction.followup.send(
                    too_big if exc.status == 413 else
                    f"⚠️ Discord refused the export of game #{match_id}; try again later.",
                    ephemeral=True)

    # ------------------------------------------------------------------ history
    async def history(self, interaction: discord.Interaction, *, game: str | None,
                      user_id: int | None, page: int, edit: bool) -> None:
        """A page of the server's finished games (newest first), only those this member
        may see."""
        storage = self.bot.storage
        wanted = (page + 1) * HISTORY_PAGE + 1
        seen: list[dict[str, Any]] = []
        before = None
        scanned = 0
        while len(seen) < wanted and scanned < HISTORY_SCAN * (page + 1):
            batch = await storage.history_matches(interaction.guild_id, game=game,
                                                  user_id=user_id, before=before, limit=50)
            if not batch:
                break
            scanned += len(batch)
            before = batch[-1]["id"]
            seen += [m for m in batch if self.may_see(interaction, m)]
        lines = [self._filter_text(game, user_id)] if game or user_id else []
        # at most HISTORY_PAGE games a page, and no more than its embed holds: a 12-seat
        # game's entry (every name escaped) can take a thousand characters, and a page cut
        # to fit would show its last games nowhere
        entries = [self._entry(m) for m in seen]
        budget = DESCRIPTION_LIMIT - sum(len(line) + 2 for line in lines)
        bounds = pages_of(entries, HISTORY_PAGE, budget, "\n\n")
        start, end = bounds[page] if page < len(bounds) else (len(seen), len(seen))
        shown, more = seen[start:end], end < len(seen)
        embed = discord.Embed(title="📜 Finished games", colour=0x7F8C8D)
        lines += entries[start:end] or [
            "No finished games to show yet." if page == 0 else "No older games."]
        embed.description = clip("\n\n".join(lines), DESCRIPTION_LIMIT)
        embed.set_footer(text=f"Page {page + 1} · newest first · only you see this · "
                         "/replay game: steps through one")
        view = RoutedView()
        replayable = [m for m in shown if m.get("moves") is not None]
        if replayable:
            view.add_item(discord.ui.Select(
                custom_id=f"hp:{page}", placeholder="Replay a game…",
                options=[discord.SelectOption(label=plain(self._label(m), OPTION_LIMIT),
                                              value=str(m["id"]), emoji="🎞️")
                         for m in replayable]))
        if page > 0 or more:  # one page only (or none): no pager to press
            key = f"hs:{game or '-'}:{user_id or 0}"
            view.add_item(discord.ui.Button(label="Newer", emoji="◀️",
                                            custom_id=f"{key}:{max(page - 1, 0)}",
                                            disabled=page == 0, row=1))
            view.add_item(discord.ui.Button(label="Older", emoji="▶️",
                                            custom_id=f"{key}:{page + 1}",
                                            disabled=not more, row=1))
        if edit:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await reply(interaction, embed=embed, view=view, ephemeral=True)

    def _filter_text(self, game: str | None, user_id: int | None) -> str:
        """The filters, as the page's first line (a mention in an embed pings nobody)."""
        parts = [f"**{self._title(game)}**"] if game else []
        if user_id:
            parts.append(f"games of <@{user_id}>")
        return "Showing " + " · ".join(parts)

    def _title(self, game: str) -> str:
        ui = self.bot.tables.uis.get(game)
        return ui.engine.title if ui else game

    def _label(self, match: dict[str, Any]) -> str:
        names = ", ".join(clean_name(p.get("name")) for p in match["players"])
        return f"#{match['id']} {self._title(match['game'])} — {names}"

    def _entry(self, match: dict[str, Any]) -> str:
        """Two lines: the game, where, when and how long; then the players in order."""
        scores = {int(k): v for k, v in match["scores"].items()}
        winners = set(match["winners"])
        players = sorted(match["players"], key=lambda p: (p["seat"] not in winners,
                                                          -scores.get(p["seat"], 0.0),
                                                          p["seat"]))
        standings = " · ".join(
            ("🏆 " if p["seat"] in winners else "") + f"**{safe_name(p.get('name'))}**"
            + (" (left)" if p.get("left") else "") + f" {_score(scores.get(p['seat'], 0))}"
            for p in players)
        moves = match.get("moves")
        length = duration_text(match.get("duration")) + (
            f", {plural(moves, 'move')} · 🎞️ replay" if moves is not None else "")
        where = f" in <#{match['channel_id']}>" if match.get("channel_id") else ""
        return (f"`#{match['id']}` **{self._title(match['game'])}**{where} · "
                f"<t:{int(match['finished_at'])}:f> · {length}\n{standings}")


def _score(value: float) -> str:
    return (str(int(value)) if float(value).is_integer() else f"{value:.1f}").replace("-", "−")
