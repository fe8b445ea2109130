"""Who gets pictures: a server setting (`/config server pictures`) for its boards and as the
default for its members, and each member's own choice (`/pictures`) for what only they see
(DMs, My hand). Text is always sent in full; a picture is added to it, never replaces it, so
members who browse with images off miss nothing.

Both are cached in memory (read on every board and DM); changing one through the bot's
commands updates the cache at once, and a member's choice made in another process of the
bot (shards on PostgreSQL) drops it from this one's cache (Storage.on_user_settings_changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.pictures import warm_up

if TYPE_CHECKING:
    from bot.tables.service import TableService

USER_KEY = "pictures"  # in the user_settings row: True, False, or absent = the server's choice


class PicturePrefs:
    def __init__(self, service: TableService) -> None:
        self.service = service
        self._servers: dict[int | None, bool] = {}
        self._users: dict[int, bool | None] = {}
        if self.enabled:
            warm_up()

    @property
    def enabled(self) -> bool:
        """The bot's own switch (`PICTURES`, default on) over every server's setting."""
        return self.service.bot.settings.pictures

    async def server(self, guild_id: int | None) -> bool:
        if not self.enabled:
            return False
        if guild_id not in self._servers:
            settings = await self.service.server_settings(guild_id)
            self._servers[guild_id] = settings.pictures
        return self._servers[guild_id]

    async def user_choice(self, user_id: int) -> bool | None:
        if user_id not in self._users:
            stored = await self.service.storage.get_user_settings(user_id)
            value = stored.get(USER_KEY)
            self._users[user_id] = value if isinstance(value, bool) else None
        return self._users[user_id]

    async def for_user(self, user_id: int, guild_id: int | None) -> bool:
        """Pictures in what only this member sees: their own choice, else the server's."""
        if not self.enabled:
            return False
        choice = await self.user_choice(user_id)
        return await self.server(guild_id) if choice is None else choice

    async def set_user(self, user_id: int, choice: bool | None) -> None:
        stored = await self.service.storage.get_user_settings(user_id)
        if choice is None:
            stored.pop(USER_KEY, None)
        else:
            stored[USER_KEY] = choice
        await self.service.storage.set_user_settings(user_id, stored)
        self._users[user_id] = choice

    def user_changed(self, user_id: int) -> None:
        """The user's stored choice changed (maybe in another process): read it again."""
        self._users.pop(user_id, None)

    def server_changed(self, guild_id: int | None) -> None:
        self._servers.pop(guild_id, None)
