"""Whether a table's channel takes the board's picture (Attach Files), and when to try again.

A channel that denies the bot Attach Files makes Discord refuse any message carrying a file
(403, 50013). The board then goes as text and the table remembers the refusal (meta
`no_uploads`, kept across restarts), so it does not collect a refusal on every move:
Discord bans a bot that collects 10,000 401/403/429 answers in 10 minutes.

A moderator may grant Attach Files later. The gateway keeps the bot's view of the server's
permissions current (CHANNEL_UPDATE carries a channel's overwrites, GUILD_ROLE_UPDATE a
role's, GUILD_MEMBER_UPDATE the bot's roles), so each board reads the permission from that
cache, with no REST call, and tries its picture again once the cache allows it.

What is remembered with the refusal is the bot's permissions in the channel as cached at
that moment. Only a change from them is worth another try: where the cache does not show
the denial (it allowed Attach Files when Discord refused), the picture is tried again once
per change of the bot's permissions there, never on every move.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.tables.live import LiveTable

log = logging.getLogger("cardtable.delivery")

NO_UPLOADS = "no_uploads"  # table meta: its channel refused a board's picture
MISSING_PERMISSIONS = 50013  # Discord's error code, e.g. a file without Attach Files


def cached_permissions(client: discord.Client, table: LiveTable) -> discord.Permissions | None:
    """The bot's permissions in the table's channel as the gateway's cache has them (a
    thread's are its parent channel's overwrites); None if the cache does not hold it."""
    for channel_id in (table.row.channel_id, table.row.parent_id):
        channel = client.get_channel(channel_id) if channel_id else None
        guild = getattr(channel, "guild", None)
        if channel is not None and guild is not None and guild.me is not None:
            return channel.permissions_for(guild.me)
    return None


def refused(client: discord.Client, table: LiveTable) -> None:
    """Discord refused the board's picture: remember it, with the permissions cached now."""
    permissions = cached_permissions(client, table)
    table.meta[NO_UPLOADS] = {"cached": permissions.value if permissions is not None else None}
    log.warning("table %s: its channel refuses uploads (Attach Files): boards go without "
                "pictures", table.id)


def allowed(client: discord.Client, table: LiveTable) -> bool:
    """Whether the next board may carry a picture: never refused (and the cache does not
    deny Attach Files: then it counts as refused without asking Discord), or refused while
    the bot's cached permissions were other than they are now and now allow Attach Files."""
    was = table.meta.get(NO_UPLOADS)
    permissions = cached_permissions(client, table)
    if not was:
        if permissions is not None and not permissions.attach_files:
            refused(client, table)  # the cache already says Discord would refuse: no 403
            return False
        return True
    if permissions is None or not permissions.attach_files:
        return False
    # a table saved before the permissions were remembered says only True: try once
    if isinstance(was, dict) and was.get("cached") == permissions.value:
        return False
    del table.meta[NO_UPLOADS]
    log.info("table %s: Attach Files is allowed in its channel now: boards go with pictures "
             "again", table.id)
    return True


class EmbedsRefused(Exception):
    """The table's channel denies the bot Embed Links: a board posted there would show its
    ping line and buttons without the board (Discord drops a bot's embeds without an error
    when the message has content), so the table pauses instead (TableService.pause)."""


def need_embeds(client: discord.Client, table: LiveTable) -> None:
    """Raise EmbedsRefused if the gateway's cache says the bot lacks Embed Links in the
    table's channel (no REST call; a cache that does not know lets the board go)."""
    permissions = cached_permissions(client, table)
    if permissions is None or permissions.embed_links:
        return
    # without Send Messages (in a thread: Send Messages in Threads) discord.py reports Embed
    # Links denied too (Discord's implicit denial): the post itself is refused then, and
    # that refusal says what is missing
    in_thread = table.row.parent_id is not None
    if permissions.send_messages and (permissions.send_messages_in_threads or not in_thread):
        raise EmbedsRefused
