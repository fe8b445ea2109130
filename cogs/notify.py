"""`/notify`: how a player is told that their turn has come (per user, on every server)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.delivery import CHANNEL, DM, NOTIFY_MODES, OFF
from bot.ui.replies import reply

EXPLAINED = {
    CHANNEL: "the board mentions you in the channel (a ping) when your turn starts",
    DM: "a new direct message tells you when your turn starts; the board names you "
        "without a ping",
    OFF: "no ping at all: the board names you without one (your hand DM is still kept up "
         "to date, silently)",
}


class NotifyCog(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="notify", description="How your turn pings you: in the "
                          "channel, by DM, or not at all.")
    @app_commands.describe(mode="Leave empty to see your current choice")
    @app_commands.choices(mode=[app_commands.Choice(name=f"{m} — {EXPLAINED[m]}"[:100],
                                                    value=m) for m in NOTIFY_MODES])
    async def notify(self, interaction: discord.Interaction, mode: str | None = None) -> None:
        user_id = interaction.user.id
        if mode is None:
            current = (await self.bot.tables.notify_modes([user_id]))[user_id]
            await reply(interaction, f"🔔 Your turn pings: **{current}** — {EXPLAINED[current]}."
                        " Change it with `/notify mode:`.", ephemeral=True)
            return
        await self.bot.tables.set_notify(user_id, mode)
        text = f"✅ Your turn pings: **{mode}** — {EXPLAINED[mode]}."
        if mode == DM:  # DMs stopped after a refusal: one new try at each of their games
            tables = self.bot.tables
            resumed = tables.publisher.retry_dms(user_id, list(tables.live.values()))
            if resumed:
                text += (" I stopped DMing you in a game after Discord refused a DM; I'll try "
                         "once more now.")
        await reply(interaction, text, ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(NotifyCog(bot))
