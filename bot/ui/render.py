"""Generic rendering of lobbies, boards and private views around a game's own renderer."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.pictures import Picture, PictureJob, render_off_loop
from bot.tables.settings import TableSettings, describe_options
from bot.ui.components import RemoveSelect, RoutedView, TableButton, TeamSelect
from bot.ui.text import (
    DESCRIPTION_LIMIT,
    FIELD_LIMIT,
    FIELD_NAME_LIMIT,
    FOOTER_LIMIT,
    TITLE_LIMIT,
    chunks,
    clip,
    pages_of,
    shown,
    signs,
)
from engines.core import Event

if TYPE_CHECKING:
    from bot.tables.live import LiveTable

EMBED_TEXT_LIMIT = 5800
RECENT_LINES = 4  # the board's Recent lines: the newest public events, one short line each
BOARD_LINES = 20  # a board (turn notice, header, game) fits a phone screen (issue 16)
BOARD_CHARS = 1500
RECENT_WIDTH = 90  # characters of one Recent line (cut between words) before the rest goes
log = logging.getLogger("cardtable.pictures")


def _seat_line(table: LiveTable, seat: int) -> str:
    info = table.seats[seat]
    host = " 👑" if info.get("user_id") == table.row.host_id else ""
    if table.team_count and isinstance(info.get("team"), int):
        host += f" · Team {info['team'] + 1}"
    who = (f"<@{info['user_id']}>" if info.get("user_id") and not info.get("ai")
           else table.names[seat])
    return f"`{seat + 1}.` {who}{host}"


def lobby_embed(table: LiveTable) -> discord.Embed:
    engine, ui = table.engine, table.ui
    embed = discord.Embed(
        title=f"{ui.emoji} {engine.title} — lobby",
        description=(f"{ui.blurb}\n\n**Seats ({len(table.seats)}/{engine.max_players}, "
                     f"{engine.min_players} needed)**\n"
                     + "\n".join(_seat_line(table, i) for i in range(len(table.seats)))),
        colour=ui.colour)
    options = engine.Options.model_validate(table.game_options)
    table_settings = TableSettings.model_validate(table.row.options.get("table", {}))
    text = "\n".join(describe_options(engine, options, table_settings))
    invited = [uid for uid in table.meta.get("invited") or [] if table.seat_of(uid) is None]
    if invited:
        embed.add_field(name="Invited to play again",
                        value=clip(" ".join(f"<@{uid}>" for uid in invited) + " — press **Join**"),
                        inline=False)
    # every option is shown, over several fields if need be (Six Suit's do not fit one)
    for i, part in enumerate(chunks(text, FIELD_LIMIT)):
        embed.add_field(name="Options" if i == 0 else "More options", value=part, inline=False)
    embed.set_footer(text=f"Table #{table.id} · Join, then the host presses Start · "
                     f"/{ui.command} rules")
    return clip_embed(embed)


def lobby_view(table: LiveTable) -> discord.ui.View:
    view = RoutedView()
    tid = table.id
    full = len(table.seats) >= table.engine.max_players
    ready = table.engine.min_players <= len(table.seats)
    view.add_item(TableButton(tid, "join", label="Join", style=discord.ButtonStyle.success,
                              disabled=full))
    view.add_item(TableButton(tid, "leave", label="Leave"))
    view.add_item(TableButton(tid, "ai", label="Add AI", emoji="🤖", disabled=full))
    view.add_item(TableButton(tid, "start", label="Start", style=discord.ButtonStyle.primary,
                              disabled=not ready))
    view.add_item(TableButton(tid, "cancel", label="Cancel", style=discord.ButtonStyle.danger))
    if table.team_count:
        view.add_item(TeamSelect(tid, table.team_count))
    removable = [(i, name) for i, (s, name) in enumerate(zip(table.seats, table.plain_names,
                                                              strict=True))
                 if s.get("user_id") != table.row.host_id]
    if removable:
        view.add_item(RemoveSelect(tid, removable))
    return view


def one_minus(embed: discord.Embed) -> discord.Embed:
    """Numbers below zero read `−2` everywhere in an embed (games and engines wrote `-2`
    in some places and `−2` in others)."""
    if embed.description:
        embed.description = signs(embed.description)
    for i, field in enumerate(embed.fields):
        embed.set_field_at(i, name=signs(field.name or ""), value=signs(field.value or ""),
                           inline=bool(field.inline))
    return embed


def clip_embed(embed: discord.Embed) -> discord.Embed:
    """Every text of the embed within Discord's limit for it, cut by `clip` (a game's
    renderer cuts where it knows better; this is the net under all of them)."""
    if embed.title:
        embed.title = clip(embed.title, TITLE_LIMIT)
    if embed.description:
        embed.description = clip(embed.description, DESCRIPTION_LIMIT)
    for index, field in enumerate(embed.fields):
        name, value = clip(field.name or "", FIELD_NAME_LIMIT), clip(field.value or "")
        if (name, value) != (field.name, field.value):
            embed.set_field_at(index, name=name, value=value, inline=field.inline)
    if embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, FOOTER_LIMIT),
                         icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(name=clip(embed.author.name, TITLE_LIMIT), url=embed.author.url,
                         icon_url=embed.author.icon_url)
    return embed


def _fit(embeds: list[discord.Embed]) -> list[discord.Embed]:
    """Keep within Discord's limits: each text, 10 embeds and 6000 characters a message
    (and one minus sign)."""
    kept, total = [], 0
    for embed in (clip_embed(one_minus(e)) for e in embeds[:10]):
        size = len(embed)
        if total + size > EMBED_TEXT_LIMIT:
            break
        kept.append(embed)
        total += size
    return kept


def shown_text(content: str | None, embeds: list[discord.Embed]) -> str:
    """What a message shows as text, a line per line: its content, then each embed's
    title, description, every field's name and value, footer and author (buttons and
    pictures are not text). A phone wraps long lines too; our lines are kept short."""
    parts = [content] if content else []
    for embed in embeds:
        parts += [embed.title, embed.description]
        for field in embed.fields:
            parts += [field.name, field.value]
        parts += [embed.footer.text, embed.author.name]
    return "\n".join(part for part in parts if part)


def board_embeds(table: LiveTable, content: str | None = None) -> list[discord.Embed]:
    """The board: a header (whose move it is, the newest events) and the game's own
    embeds. `content` is the message text that goes with it (the turn notice): together
    they stay within BOARD_LINES, the newest events giving way first (History keeps them)."""
    engine, ui = table.engine, table.ui
    state, names = table.state, table.names
    header = discord.Embed(title=f"{ui.emoji} {engine.title} — table #{table.id}",
                           colour=ui.colour)
    outcome = engine.outcome(state)
    log = table.meta.get("log", [])[-RECENT_LINES:]
    if outcome is None:
        waiting = sorted(engine.waiting_for(state))
        who = ", ".join(_mention(table, s) for s in waiting) or "—"
        body = ui.render_board(engine.view(state, None), names)
        # the title, the To act line, the game's own lines and the turn notice come first;
        # then as many of the newest events as fit in BOARD_LINES and BOARD_CHARS
        fixed = shown_text(content, body)
        lines = _recent(log, names)
        while lines and (len(fixed.splitlines()) + 2 + len(lines) > BOARD_LINES
                         or len(fixed) + len(header.title) + len(who) + 12
                         + sum(len(line) + 1 for line in lines) > BOARD_CHARS):
            lines.pop(0)
        header.description = clip("\n".join([f"**To act:** {who}", *lines]),
                                  DESCRIPTION_LIMIT)
        return _fit([header, *body])
    recent = "\n".join(_recent(log, names))
    # Over: the standings and the last events; the game's own final picture (hands, the
    # reveal) goes with the result message below the board.
    standings = ui.render_result(outcome, engine.view(state, None), names)
    header.description = clip(f"**Game over** — {shown(outcome.reason, names)}\n"
                              f"{standings}\n{recent}".strip(), DESCRIPTION_LIMIT)
    return [clip_embed(one_minus(header))]


def _recent(log: list[str], names: list[str]) -> list[str]:
    """The board's Recent lines, newest last: one short line per event (the whole game
    is behind the History button)."""
    return [clip(f"• {shown(line, names)}", RECENT_WIDTH) for line in log]


def result_embeds(table: LiveTable, result: discord.Embed) -> list[discord.Embed]:
    """The result message: the result, then the game's own board as it ended (hands, the
    reveal, scores), within Discord's limits."""
    return _fit([result, *table.ui.render_board(table.engine.view(table.state, None),
                                                table.names)])


def _mention(table: LiveTable, seat: int) -> str:
    info = table.seats[seat]
    if info.get("user_id") and not info.get("ai"):
        return f"<@{info['user_id']}>"
    return table.names[seat]


def board_view(table: LiveTable) -> discord.ui.View | None:
    view = RoutedView()
    if table.engine.outcome(table.state) is not None:
        view.add_item(history_button(table.id))  # the whole game stays readable
        return view
    view.add_item(TableButton(table.id, "hand", label="My hand", emoji="🃏",
                              style=discord.ButtonStyle.secondary))
    view.add_item(TableButton(table.id, "turn", str(table.version), label="Take my turn",
                              emoji="▶️", style=discord.ButtonStyle.primary))
    view.add_item(history_button(table.id))
    view.add_item(TableButton(table.id, "quit", label="Leave", emoji="🚪"))
    return view


def history_button(table_id: int) -> TableButton:
    return TableButton(table_id, "hist", label="History", emoji="📜")


HISTORY_PAGE = 15  # lines per page of the History button's answer, at most
HISTORY_CHARS = DESCRIPTION_LIMIT  # a page's text, numbers included: one embed description


def _numbered(index: int, line: str) -> str:
    return f"`{index + 1}.` {line}"


def history_pages(lines: list[str]) -> list[tuple[int, int]]:
    """Where each page of a history starts and ends (`pages_of`): long lines, such as
    Hidden Rules plays saying 200 escaped characters, make shorter pages."""
    return pages_of([_numbered(i, line) for i, line in enumerate(lines)], HISTORY_PAGE,
                    HISTORY_CHARS)


def history_page(table_id: int, title: str, lines: list[str], page: int | None
                 ) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page of a table's public history (the last page unless `page` is given)."""
    bounds = history_pages(lines)
    pages = len(bounds)
    page = pages - 1 if page is None else max(0, min(page, pages - 1))
    start, end = bounds[page]
    text = "\n".join(_numbered(i, lines[i]) for i in range(start, end))
    embed = discord.Embed(title=f"📜 {title} — history", description=clip(
        text or "Nothing has happened yet.", DESCRIPTION_LIMIT), colour=0x7F8C8D)
    embed.set_footer(text=f"Page {page + 1} of {pages} · only you see this")
    if pages == 1:
        return embed, None
    view = RoutedView()
    view.add_item(TableButton(table_id, "hist", str(page - 1), label="Older", emoji="◀️",
                              disabled=page == 0))
    view.add_item(TableButton(table_id, "hist", str(page + 1), label="Newer", emoji="▶️",
                              disabled=page == pages - 1))
    return embed, view


def private_embed(table: LiveTable, seat: int, events: list[Event] | None = None, *,
                  with_table: bool = True) -> discord.Embed:
    """A seat's private view: complete for **My hand** and the move panel (rendered on each
    click); `with_table=False` for the living DM, which is edited only when what it shows
    changes, so it shows the seat's own secrets and where the table is, never the public
    table (see `GameUI.render_private`)."""
    names = table.names
    embed = table.ui.render_private(table.engine.view(table.state, seat), names, seat,
                                    with_table=with_table)
    embed.title = embed.title or f"{table.ui.emoji} Your hand"
    embed.set_author(name=f"{table.engine.title} · table #{table.id}")
    if not with_table:
        name, value = dm_place(table)
        embed.add_field(name=name, value=value, inline=False)
    if events:
        text = "\n".join(f"• {shown(e.text, names)}" for e in events[-10:])
        embed.add_field(name="Just now (only you see this)", value=clip(text, keep="end"),
                        inline=False)
    embed.set_footer(text="Secret: only you can see this.")
    return clip_embed(one_minus(embed))


def dm_place(table: LiveTable) -> tuple[str, str]:
    """The living DM's last field (name, value): where the game is played, or, once it has
    ended, where its result is. The DM outlives the game, and its old words ("**Take my
    turn** there") pointed at a board that no longer takes a move."""
    if table.finished:
        result = f"<#{table.row.parent_id or table.row.channel_id}>"
        return "🏁 Game over", f"This game is over: its result is in {result}."
    return "📍 The table", (f"<#{table.row.channel_id}>: the board, **My hand** and "
                           "**Take my turn** there show the game as it is now.")


def closed_embed(table: LiveTable, seat: int) -> discord.Embed | None:
    """The living DM of a player whose game went on without them (they left: an AI plays
    the seat, whose hand is no longer theirs to follow) or is gone (cancelled): it says
    so and shows no cards. None while the DM shows the seat."""
    result = f"<#{table.row.parent_id or table.row.channel_id}>"
    title = table.engine.title
    if table.seats[seat].get("left"):
        head, text = "You left this game", (f"🚪 You left this {title} game: an AI plays your "
                                            f"seat to the end. The result will be in {result}.")
    elif table.dropped:
        head, text = "Game cancelled", (f"❌ This {title} game was cancelled; there is "
                                        "nothing left to play.")
    else:
        return None
    embed = discord.Embed(title=f"{table.ui.emoji} {head}", description=text,
                          colour=table.ui.colour)
    embed.set_author(name=f"{title} · table #{table.id}")
    return embed


# ---------------------------------------------------------------------- pictures
# A picture and its alt text (the attachment's description) are not markdown: a screen
# reader would read `\*\*bold\*\*` aloud. Pictures get the plain names (invisible
# characters stripped, length bounded: LiveTable.plain_names), never the escaped ones.
def board_picture_job(table: LiveTable) -> PictureJob:
    """The board's picture to draw, bound to the public view *now*."""
    return PictureJob(table.engine.name, table.engine.view(table.state, None),
                      list(table.plain_names))


def hand_picture_job(table: LiveTable, seat: int, *, with_table: bool = True
                     ) -> PictureJob:
    """A seat's private picture to draw, bound to that seat's own view *now* (`with_table`:
    as `private_embed`)."""
    return PictureJob(table.engine.name, table.engine.view(table.state, seat),
                      list(table.plain_names), seat, with_table)


INTERACTION_PICTURE_SECONDS = 1.5  # an answer to a click must leave within Discord's 3 s


async def draw(job: PictureJob, timeout: float | None = None) -> Picture | None:
    """Draw a picture off the event loop. A picture that fails, or is not ready within
    `timeout` (answers to clicks: the worker may still be starting, or the machine busy),
    is left out: the text it goes with is complete, and nothing waits on a drawing."""
    try:
        return await asyncio.wait_for(render_off_loop(job), timeout)
    except TimeoutError:
        log.warning("a picture took over %s s; sending text only", timeout)
        return None
    except Exception:
        log.exception("a picture failed to draw; sending text only")
        return None


def picture_file(picture: Picture) -> discord.File:
    """The upload for a picture, its description as the attachment's alt text."""
    return discord.File(io.BytesIO(picture.data), filename=picture.filename,
                        description=picture.description)


def show_picture(embed: discord.Embed, picture: Picture | None) -> discord.Embed:
    """Make the picture the embed's image (`attachment://…`, uploaded with the message)."""
    if picture is not None:
        embed.set_image(url=picture.url)
    return embed
