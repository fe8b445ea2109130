"""What happens when someone clicks a table's button or picks from its panel."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.delivery import dm_pause_hint
from bot.hooks import Hook, handed_over
from bot.late_interactions import is_expiry, note_expired
from bot.tables.service import AI_MARK, TableError, need_unpaused
from bot.threads import CHANNEL, THREAD, thread_refusal
from bot.ui import panel, render
from bot.ui.components import (
    STALE_BUTTON,
    PanelSelect,
    RoutedView,
    TableButton,
    on_clicked_message,
)
from bot.ui.names import clean_name, escape_markdown, pings, safe_name
from bot.ui.replies import ACK_AFTER, acknowledge, edit_answer, reply, reply_error
from bot.ui.text import (
    BUTTON_LABEL_LIMIT,
    DESCRIPTION_LIMIT,
    INPUT_PLACEHOLDER_LIMIT,
    MODAL_TITLE_LIMIT,
    OPTION_LIMIT,
    chunks,
    plain,
    shown,
)

if TYPE_CHECKING:
    from bot.app import CardTableBot
    from bot.tables.live import LiveTable

log = logging.getLogger("cardtable.ui")


def is_moderator(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms and (perms.manage_guild or perms.manage_messages or perms.administrator))


def display_name(user: discord.abc.User) -> str:
    """The member's name as a seat stores it: one line, bounded (`bot.ui.names`); escape it
    with `safe_name` wherever it goes into markdown. Only AI seats carry 🤖 in front of
    their name (`TableService.add_ai`): a member called "🤖 Ada" would pass for one."""
    name = clean_name(getattr(user, "display_name", None) or user.name)
    return clean_name(name.lstrip(AI_MARK + "\ufe0f "))


# What the bot needs in a table's channel to post and update its board.
BOARD_PERMISSIONS = (("view_channel", "View Channel"), ("send_messages", "Send Messages"),
                     ("embed_links", "Embed Links"))


def missing_channel_permissions(interaction: discord.Interaction) -> str:
    """The board permissions the bot lacks in the interaction's channel, by name ("" if
    none). Discord sends the bot's permissions there with every interaction."""
    perms = interaction.app_permissions
    return " and ".join(name for attr, name in BOARD_PERMISSIONS if not getattr(perms, attr))


def number(text: str) -> int:
    """A number read from a custom id or a menu value. Discord only sends ids the bot put on
    a message, but a modified client or an old message may send anything: crafted text is a
    friendly refusal, not a logged crash."""
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise TableError(STALE_BUTTON)
    return int(text)


def prefix_of(text: str) -> tuple[int, ...]:
    """A panel path (`0.2.1`) from a custom id, refused like `number` when malformed."""
    return tuple(number(part) for part in text.split(".") if part != "")


# A finished game's Play again pings its other players at most once in this many seconds:
# a player could otherwise press it, cancel the lobby and press it again, pinging everyone
# every command cooldown (10 s). Later lobbies of the same game still name them.
REMATCH_PING_SECONDS = 600.0


class TableInteractions:
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self._rematch_pings: dict[int, float] = {}  # match id -> when its players were pinged

    @property
    def service(self):
        return self.bot.tables

    # ------------------------------------------------------------------ where from
    def check_place(self, interaction: discord.Interaction, table_id: int) -> None:
        """Refuse a click or form about a table that does not come from where the table is:
        its server, and its lobby's channel or its game's channel (or thread). Discord only
        sends clicks on buttons the bot put on a message, but a modified client can send any
        custom id from anywhere (a crafted id from another server joined a table and got
        its own hand). A finished table is no longer live: its History button must at
        least be on the message it was clicked on. No table is played in DMs and the bot
        puts no table button in one, so a click from a DM is refused too."""
        table = self.service.live.get(table_id)
        if table is None:
            if not on_clicked_message(interaction):
                raise TableError(STALE_BUTTON)
            return
        if interaction.guild_id is None or interaction.guild_id != table.row.guild_id:
            raise TableError("That button belongs to a game on another server.")
        if interaction.channel_id not in table.places:
            raise TableError(f"That button belongs to the {table.engine.title} table in "
                             f"<#{table.row.channel_id}>: use it there.")

    # ------------------------------------------------------------------ buttons
    async def on_button(self, interaction: discord.Interaction, table_id: int, op: str,
                        arg: str) -> None:
        try:
            self.check_place(interaction, table_id)
            handler = getattr(self, f"_op_{op}", None)
            if handler is None:
                raise TableError("That button is no longer supported.")
            await handler(interaction, table_id, arg)
        except TableError as exc:
            await reply_error(interaction, str(exc))

    async def _lobby_changed(self, interaction: discord.Interaction, table: LiveTable | None,
                             note: str) -> None:
        if table is None:
            await interaction.response.edit_message(content=note, embeds=[], view=None)
            return
        await interaction.response.edit_message(embed=render.lobby_embed(table),
                                                view=render.lobby_view(table))

    async def _op_join(self, interaction, table_id, _arg):
        table = await self.service.join(table_id, interaction.user.id,
                                        display_name(interaction.user))
        await self._lobby_changed(interaction, table, "")

    async def _op_leave(self, interaction, table_id, _arg):
        table = await self.service.leave(table_id, interaction.user.id)
        await self._lobby_changed(interaction, table, "The lobby closed: everyone left.")

    async def _op_ai(self, interaction, table_id, _arg):
        table = await self.service.add_ai(table_id, interaction.user.id)
        await self._lobby_changed(interaction, table, "")

    async def _op_start(self, interaction, table_id, _arg):
        missing = missing_channel_permissions(interaction)
        if missing:
            # The start note would promise a board that can never come: say why instead.
            raise TableError(f"I can't post the board in this channel: I'm missing the "
                             f"{missing} permission here. Ask a moderator to allow it, then "
                             "press **Start** again.")
        place, refusal = await self._place(interaction)
        async with handed_over(interaction) as hook:
            table = await self.service.start_game(table_id, interaction.user.id, place=place)
            table.hook = hook  # the first board goes out with this click's token
            names = ", ".join(table.names)
            where = ("The game opens in its own thread of this message." if place == THREAD
                     else "The board is below." + (
                         f" It is played right here: I couldn't open a thread for "
                         f"it ({refusal})." if refusal else ""))
            await interaction.response.edit_message(
                content=f"▶️ **{table.engine.title}** has started with {names}. {where}",
                embed=None, view=None)

    async def _place(self, interaction: discord.Interaction) -> tuple[str, str | None]:
        """Where a game started by this click is played (the server's `table_place`), and
        why not in a thread when the server wants one but the bot can't make it here."""
        if not self.bot.settings.threads:
            return CHANNEL, None
        server = await self.service.server_settings(interaction.guild_id)
        if server.table_place != THREAD:
            return CHANNEL, None
        refusal = thread_refusal(interaction)
        return (CHANNEL, refusal) if refusal else (THREAD, None)

    async def show_rules(self, interaction: discord.Interaction, ui) -> None:
        """A game's full rules text, ephemeral, over as many messages as it needs (an
        embed's description holds 4,096 characters, a message's embeds 6,000 together)."""
        parts = chunks(ui.rules_markdown(), DESCRIPTION_LIMIT)
        messages: list[list[discord.Embed]] = [[]]
        size = 0
        for i, part in enumerate(parts):
            embed = discord.Embed(title=f"{ui.emoji} {ui.engine.title} — rules" if i == 0
                                  else None, description=part, colour=ui.colour)
            if messages[-1] and (size + len(embed) > 5800 or len(messages[-1]) == 10):
                messages.append([])
                size = 0
            messages[-1].append(embed)
            size += len(embed)
        for embeds in messages:
            await reply(interaction, embeds=embeds, ephemeral=True)

    async def _op_hist(self, interaction, table_id, arg):
        """History: the table's public lines, paged, only for the one who asked. Works on a
        finished game's board too (the lines are kept in storage)."""
        table = self.service.live.get(table_id)
        title = table.engine.title if table is not None else _game_title(interaction)
        lines = await self.service.history(table_id)
        embed, view = render.history_page(table_id, title, lines,
                                          number(arg) if arg else None)
        if arg:  # a page button of an earlier answer: turn that page
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await reply(interaction, embed=embed, view=view, ephemeral=True)

    async def _op_quit(self, interaction, table_id, _arg):
        """The board's Leave button: ask first (an AI will finish the game for them)."""
        table = self.service.get(table_id)
        self._seat(table, interaction)
        await self.confirm_leave(interaction, table)

    async def confirm_leave(self, interaction: discord.Interaction, table: LiveTable) -> None:
        view = RoutedView()
        view.add_item(TableButton(table.id, "resign", label="Leave the game", emoji="🚪",
                                  style=discord.ButtonStyle.danger))
        await reply(interaction, f"Leave this {table.engine.title} game? An AI plays your seat "
                    "to the end, and the result records that you left (a game played, not "
                    "won). You can't come back to this game.", view=view, ephemeral=True)

    async def _op_resign(self, interaction, table_id, _arg):
        _table, notice = await self.service.resign(table_id, interaction.user.id)
        await interaction.response.edit_message(content=f"You left. {notice}", view=None)
        _table.notices.append(notice)  # posted by the table's delivery task
        self.service.schedule_delivery(_table)

    async def on_remove(self, interaction: discord.Interaction, table_id: int,
                        value: str) -> None:
        """The host's "remove a seat" menu in the lobby."""
        try:
            self.check_place(interaction, table_id)
            if not (value.isascii() and value.isdigit()) or len(value) > 3:
                raise TableError("That seat is already empty.")
            table, _name = await self.service.remove_seat(table_id, interaction.user.id,
                                                          int(value))
            await self._lobby_changed(interaction, table, "")
        except TableError as exc:
            await reply_error(interaction, str(exc))

    async def on_rematch(self, interaction: discord.Interaction, match_id: int) -> None:
        """**Play again** under a result: a new lobby in the channel, players invited."""
        try:
            if interaction.guild_id is None or interaction.channel_id is None:
                raise TableError("Games are played in server channels.")
            if not on_clicked_message(interaction):
                raise TableError(STALE_BUTTON)
            if await self._join_rematch(interaction, match_id):
                return
            self.bot.cooldowns.ready(interaction.user.id, "lobby")
            table = await self.service.rematch(
                match_id, user_id=interaction.user.id, name=display_name(interaction.user),
                guild_id=interaction.guild_id, channel_id=interaction.channel_id)
            self.bot.cooldowns.used(interaction.user.id, "lobby")
        except TableError as exc:
            await reply_error(interaction, str(exc))
            return
        await self.post_lobby(interaction, table, ping=self._may_ping_for(match_id))

    async def _join_rematch(self, interaction: discord.Interaction, match_id: int) -> bool:
        """A player pressing **Play again** after another one did: the rematch lobby is in
        the channel already, so they take their seat in it. (They were told "This channel
        already has a lobby" and left to find its Join, as both players of a game that
        just ended tend to press it at once.) False if there is no such lobby for them."""
        table = self.service.in_channel(interaction.channel_id or 0)
        user_id = interaction.user.id
        if (table is None or table.playing or table.meta.get("rematch_of") != match_id
                or (user_id not in (table.meta.get("invited") or [])
                    and table.seat_of(user_id) is None)):
            return False
        table = await self.service.join(table.id, user_id, display_name(interaction.user))
        host = table.seat_of(table.row.host_id)
        whose = f"{table.names[host]}'s" if host is not None else "the"
        await reply(interaction, f"✅ You joined {whose} rematch lobby.", ephemeral=True)
        await self.service.publisher.refresh_lobby(table)
        return True

    def _may_ping_for(self, match_id: int) -> bool:
        """Whether a Play again of this game may ping its players (see REMATCH_PING_SECONDS)."""
        now = asyncio.get_running_loop().time()
        if now - self._rematch_pings.get(match_id, -REMATCH_PING_SECONDS) < REMATCH_PING_SECONDS:
            return False
        if len(self._rematch_pings) >= 10_000:
            self._rematch_pings = {m: t for m, t in self._rematch_pings.items()
                                   if now - t < REMATCH_PING_SECONDS}
        self._rematch_pings[match_id] = now
        return True

    async def post_lobby(self, interaction: discord.Interaction, table: LiveTable, *,
                         ping: bool = True) -> None:
        """Answer with the lobby (its message is the lobby from then on); invited players
        are mentioned, and pinged if `ping`."""
        invited = table.meta.get("invited") or []
        content = (" ".join(f"<@{uid}>" for uid in invited) + f" — {safe_name(display_name(interaction.user))}"
                   " asks you to play again: press **Join**.") if invited else None
        try:
            response = await interaction.response.send_message(
                content=content, embed=render.lobby_embed(table), view=render.lobby_view(table),
                allowed_mentions=pings(*invited) if ping else pings())
        except discord.HTTPException:
            await self.service.cancel(table.id, interaction.user.id, moderator=True)
            raise
        table.row.board_message_id = response.message_id
        self.service.meta_changed(table)

    async def _op_cancel(self, interaction, table_id, _arg):
        """Answered first; the board or lobby message is closed by the delivery task."""
        table = self.service.get(table_id)
        await self.service.cancel(table_id, interaction.user.id,
                                  moderator=is_moderator(interaction))
        if table.playing:
            await reply(interaction, f"Cancelled the {table.engine.title} table.", ephemeral=True)
        else:
            await interaction.response.edit_message(
                content=f"❌ This {table.engine.title} lobby was cancelled.", embed=None,
                view=None)

    async def _op_hand(self, interaction, table_id, _arg):
        table = self.service.get(table_id)
        await self.show_hand(interaction, table)

    async def _op_turn(self, interaction, table_id, arg):
        table = self.service.get(table_id)
        seat = self._seat(table, interaction)
        if arg and number(arg) != table.version and not table.playing:
            raise TableError("This board is out of date.")
        await self.show_panel(interaction, table, seat, (), edit=False)

    async def _op_act(self, interaction, table_id, arg):
        version_text, _, index_text = arg.partition(".")
        version, index = number(version_text), number(index_text)
        table = self.service.get(table_id)
        seat = self._seat(table, interaction)
        if version != table.version:
            raise TableError("These buttons are out of date; the game has moved on.")
        legal = list(table.engine.legal_actions(table.state, seat))
        if not legal or index >= len(legal):
            raise TableError("It's not your turn.")
        await self.perform(interaction, table, legal[index], version=version)

    async def _op_pn(self, interaction, table_id, arg):
        """Panel navigation: arg = `{version}:{prefix}[:{page}]`."""
        version, _, rest = arg.partition(":")
        prefix_text, _, page = rest.partition(":")
        await self._panel_step(interaction, table_id, number(version), prefix_text,
                               number(page or "0"))

    async def on_team(self, interaction: discord.Interaction, table_id: int, team: str) -> None:
        try:
            self.check_place(interaction, table_id)
            table = await self.service.choose_team(table_id, interaction.user.id, number(team))
            await self._lobby_changed(interaction, table, "")
        except TableError as exc:
            await reply_error(interaction, str(exc))

    # ------------------------------------------------------------------ panel
    async def on_panel_select(self, interaction: discord.Interaction, table_id: int,
                              version: int, prefix: str, value: str) -> None:
        try:
            self.check_place(interaction, table_id)
            if value.startswith("page:"):
                await self._panel_step(interaction, table_id, version, prefix,
                                       number(value.partition(":")[2]))
            else:
                joined = f"{prefix}.{value}" if prefix else value
                await self._panel_step(interaction, table_id, version, joined, 0)
        except TableError as exc:
            await reply_error(interaction, str(exc))

    async def _panel_step(self, interaction, table_id: int, version: int, prefix_text: str,
                          page: int) -> None:
        table = self.service.get(table_id)
        seat = self._seat(table, interaction)
        if version != table.version:
            await interaction.response.edit_message(
                content="⌛ This panel is out of date — the game has moved on. Press **Take my "
                "turn** on the board again.", embed=None, view=None)
            return
        await self.show_panel(interaction, table, seat, prefix_of(prefix_text), edit=True,
                              page=page)

    async def show_panel(self, interaction: discord.Interaction, table: LiveTable, seat: int,
                         prefix: tuple[int, ...], *, edit: bool, page: int = 0,
                         note: str = "") -> None:
        if not table.playing:
            raise TableError("The game hasn't started yet.")
        need_unpaused(table)
        engine = table.engine
        back = (not prefix and not edit and bool(table.seats[seat].get("replaced"))
                and await self._take_back(interaction, table))
        if back:
            note = "\n".join(filter(None, [SEAT_BACK, note]))
        if seat not in engine.to_act(table.state):
            waiting = ", ".join(table.names[s] for s in sorted(engine.waiting_for(table.state)))
            if back:  # the seat is theirs again: not an error
                await reply(interaction, f"{SEAT_BACK}\nIt's not your turn yet — waiting for "
                            f"{waiting or 'nobody'}.", ephemeral=True)
                return
            raise TableError(f"It's not your turn — waiting for {waiting or 'nobody'}.")
        self.service.hold_ai_for(table, seat)
        try:
            level = panel.resolve(engine, table.state, seat, table.plain_names, prefix)
        except IndexError:
            raise TableError("That choice is no longer available.") from None
        if level.action is not None:
            prompt = table.ui.text_prompt(level.action)
            if prompt is not None:
                if interaction.response.is_done():  # acknowledged: no form can follow
                    raise TableError(f"{SEAT_BACK} Press **Take my turn** again to play.")
                await interaction.response.send_modal(TextModal(
                    prompt, f"tm:{table.id}:{table.version}:{panel.encode(level.prefix)}"))
                return
            await self.perform(interaction, table, level.action, version=table.version,
                               edit=edit)
            return
        view = RoutedView()
        code = panel.encode(level.prefix)
        if len(level.options) <= panel.MAX_BUTTONS:
            for i, label in enumerate(level.options):
                nxt = panel.encode((*level.prefix, i))
                view.add_item(TableButton(table.id, "pn", f"{table.version}:{nxt}",
                                          label=plain(label, BUTTON_LABEL_LIMIT),
                                          style=discord.ButtonStyle.primary, row=0))
        else:
            start = page * panel.PAGE
            chunk = list(enumerate(level.options))[start:start + panel.PAGE]
            options = [discord.SelectOption(label=plain(label, OPTION_LIMIT), value=str(i))
                       for i, label in chunk]
            if start + panel.PAGE < len(level.options):
                options.append(discord.SelectOption(label="More…", value=f"page:{page + 1}",
                                                    emoji="➡️"))
            elif page > 0:
                options.append(discord.SelectOption(label="Back to the first page",
                                                    value="page:0", emoji="⬅️"))
            view.add_item(PanelSelect(table.id, table.version, code, options,
                                      placeholder="Choose…"))
        back = panel.back_of(engine, table.state, seat, table.plain_names, level.prefix)
        if back is not None:
            view.add_item(TableButton(table.id, "pn", f"{table.version}:{panel.encode(back)}",
                                      label="Back", emoji="↩️", row=1))
        # the labels carry plain names (buttons show no markdown); the text above them does
        crumbs = " › ".join(escape_markdown(crumb) for crumb in level.crumbs)
        text = f"**Your move** in {engine.title}" + (f" — {crumbs}" if crumbs else "") + ":"
        if note:
            text = f"{note}\n\n{text}"
        if self._dm_hint(table, interaction.user.id):
            text = f"{DMS_STOPPED}\n\n{text}"
            view.add_item(_retry_dms_button(table, row=2))
        hand = render.private_embed(table, seat)  # your hand above your choices
        if edit:
            await edit_answer(interaction, content=text, embed=hand, view=view)
        elif interaction.response.is_done():  # acknowledged while the seat was taken back
            await interaction.followup.send(text, embed=hand, view=view, ephemeral=True)
        else:
            await interaction.response.send_message(text, embed=hand, view=view,
                                                    ephemeral=True)

    async def _take_back(self, interaction: discord.Interaction, table: LiveTable) -> bool:
        """Give a replaced player their seat back (`TableService.reclaim`); a save slower
        than ACK_AFTER has the click acknowledged first, as a move's does (`_perform`)."""
        taking = asyncio.ensure_future(self.service.reclaim(table.id, interaction.user.id))
        try:
            return await asyncio.wait_for(asyncio.shield(taking), ACK_AFTER)
        except TimeoutError:
            await acknowledge(interaction, edit=False)
            return await taking

    async def on_text_submit(self, interaction: discord.Interaction, custom_id: str,
                             text: str) -> None:
        """A panel move's text form came back: custom id `tm:{table}:{version}:{prefix}`."""
        try:
            _, table_id, version_text, prefix = [*custom_id.split(":", 3), "", "", ""][:4]
            version = number(version_text)
            self.check_place(interaction, number(table_id))
            table = self.service.get(number(table_id))
            seat = self._seat(table, interaction)
            if version != table.version:
                raise TableError("The game moved on while you were typing; please choose "
                                 "your move again.")
            try:
                level = panel.resolve(table.engine, table.state, seat, table.plain_names,
                                      prefix_of(prefix))
            except IndexError:
                raise TableError("That choice is no longer available.") from None
            if level.action is None:
                raise TableError("That choice is no longer available.")
            action = table.ui.with_text(level.action, text)
            await self.perform(interaction, table, action, version=version)
        except TableError as exc:
            await reply_error(interaction, str(exc))

    # ------------------------------------------------------------------ acting
    async def perform(self, interaction: discord.Interaction, table: LiveTable, action: Any, *,
                      version: int | None = None, edit: bool = False) -> None:
        """Apply a human's move and confirm it to them (ephemerally). The interaction's token
        goes to the table's delivery (bot.hooks): the board is posted with it."""
        async with handed_over(interaction) as hook:
            await self._perform(interaction, table, action, version=version, edit=edit,
                                hook=hook)

    async def _perform(self, interaction: discord.Interaction, table: LiveTable, action: Any,
                       *, version: int | None, edit: bool, hook: Hook) -> None:
        # The move is confirmed once it is saved, and the save waits for the disk (fsync):
        # on a busy machine that took seconds, and the click's answer came after Discord's
        # 3 s. So a save not done within ACK_AFTER has the click acknowledged first (a
        # deferred answer), and the confirmation follows when the move is durable.
        acting = asyncio.ensure_future(self.service.act(
            table.id, interaction.user.id, action, version=version, hook=hook))
        try:
            _table, text, secrets = await asyncio.wait_for(asyncio.shield(acting), ACK_AFTER)
        except TimeoutError:
            await acknowledge(interaction, edit=edit)
            _table, text, secrets = await acting
        confirmation = "\n".join([f"✅ {text}", *(f"🤫 {line}" for line in secrets)])
        seat = table.seat_of(interaction.user.id)
        try:
            if (edit and not table.finished and seat is not None
                    and seat in table.engine.waiting_for(table.state)):
                # still this player's turn (e.g. after drawing): the panel goes on in place
                await self.show_panel(interaction, table, seat, (), edit=True,
                                      note=confirmation)
            elif edit:
                await edit_answer(interaction, content=confirmation, embed=None, view=None)
            else:
                await reply(interaction, confirmation, ephemeral=True)
        except (discord.HTTPException, TimeoutError) as exc:
            if is_expiry(exc):  # saved and on the board; its confirmation came too late
                note_expired(interaction)
                return
            # The move is saved: the generic "something went wrong; nothing was changed"
            # would be untrue. Say what happened in a plain answer instead (a reply falls
            # back to a followup when the failed callback went through after all).
            log.warning("confirming a move on table %s failed", table.id, exc_info=True)
            await reply(interaction, confirmation, ephemeral=True)

    async def show_hand(self, interaction: discord.Interaction, table: LiveTable) -> None:
        if not table.playing:
            raise TableError("The game hasn't started yet.")
        seat = self._seat(table, interaction)
        embed = render.private_embed(table, seat)
        embeds, files = [embed], []
        jobs = [render.hand_picture_job(table, seat)]  # the same state as the embed
        prefs = self.service.publisher.pictures
        guild = table.row.guild_id
        if await prefs.for_user(interaction.user.id, guild):
            if not await prefs.server(guild):  # the channel's board is text: show it here
                jobs.append(render.board_picture_job(table))
            pictures = await asyncio.gather(*(
                render.draw(job, timeout=render.INTERACTION_PICTURE_SECONDS) for job in jobs))
            render.show_picture(embed, pictures[0])
            if len(pictures) > 1 and pictures[1] is not None:
                embeds.append(render.show_picture(discord.Embed(
                    title="The table as a picture", colour=embed.colour), pictures[1]))
            files = [render.picture_file(p) for p in pictures if p is not None]
        view = None
        if seat in table.engine.to_act(table.state):
            view = RoutedView()
            view.add_item(TableButton(table.id, "turn", str(table.version), label="Take my turn",
                                      emoji="▶️", style=discord.ButtonStyle.primary))
        text = None
        if self._dm_hint(table, interaction.user.id):
            text = DMS_STOPPED
            view = view or RoutedView()
            view.add_item(_retry_dms_button(table))
        await reply(interaction, text, embeds=embeds, view=view, ephemeral=True, files=files)

    def _dm_hint(self, table: LiveTable, user_id: int) -> bool:
        """Say once per pause that the player's DMs stopped (bot.delivery.dm_pause_hint)."""
        if not dm_pause_hint(table, user_id):
            return False
        self.service.meta_changed(table)
        return True

    async def _op_dms(self, interaction, table_id, _arg):
        """**Try DMs again**: one new try at the player's hand DM in this game."""
        table = self.service.get(table_id)
        self._seat(table, interaction)  # players only
        if not self.service.publisher.retry_dms(interaction.user.id, [table]):
            await reply(interaction, "📬 Your DMs for this game are on: nothing to try again.",
                        ephemeral=True)
            return
        await reply(interaction, "📬 I'll try to DM you your hand once more. If it still "
                    "can't get through, I'll stop again; **My hand** always shows your cards.",
                    ephemeral=True)

    def _seat(self, table: LiveTable, interaction: discord.Interaction) -> int:
        return self.service.seat_for(table, interaction.user.id)


#: What a player an AI replaced is told when **Take my turn** gives them their seat back.
SEAT_BACK = "🙋 You have your seat back: the AI no longer plays it."

#: What a closed-DM player's next ephemeral answer says (once per pause), above the button.
DMS_STOPPED = ("📪 Discord refused my direct message to you (your DMs may be closed for this "
               "server), so I stopped DMing you for this game. Your cards are always here "
               "in **My hand**; **Try DMs again** once you've opened them.")


def _retry_dms_button(table: LiveTable, *, row: int | None = None) -> TableButton:
    return TableButton(table.id, "dms", label="Try DMs again", emoji="📬", row=row)


def _game_title(interaction: discord.Interaction) -> str:
    """A finished table's game, read from the clicked message's title ("🎭 Suspense —
    table #1" on a board, "📜 Suspense — history" on a page of History)."""
    embeds = interaction.message.embeds if interaction.message else []
    title = (embeds[0].title or "") if embeds else ""
    name = title.split(" — ")[0].removeprefix("📜 ").strip()
    return name.split(" ", 1)[1] if " " in name and not name[0].isalnum() else name or "Game"


class TextModal(discord.ui.Modal):
    """The form for a move's free text. Submissions are routed by custom id in
    `CardTableBot.on_interaction`, so they work even if the bot restarted meanwhile.

    discord.py need not keep the form: it would store it with a 15-minute timeout task until
    it was submitted, and a form opened again under the same custom id left the earlier one's
    task behind (hundreds of them after a 500-table bench.load run)."""

    def __init__(self, prompt, custom_id: str) -> None:
        super().__init__(title=plain(prompt.title, MODAL_TITLE_LIMIT), custom_id=custom_id,
                         timeout=None)
        self.add_item(discord.ui.TextInput(label=plain(prompt.label, MODAL_TITLE_LIMIT),
                                           custom_id="text",
                                           placeholder=plain(prompt.placeholder,
                                                             INPUT_PLACEHOLDER_LIMIT) or None,
                                           required=prompt.required,
                                           max_length=prompt.max_length))

    def is_finished(self) -> bool:
        return True  # never stored by discord.py (see the class docstring)


def action_label(table: LiveTable, action: Any) -> str:
    return shown(table.engine.describe(table.state, action), table.names)
