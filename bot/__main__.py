"""`python -m bot`: start the bot, or explain in one sentence why it cannot start (exit 2)."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from bot.settings import TOKEN_HELP, SettingsError, load_settings


def _point_at(settings) -> None:
    """Use another Discord endpoint (a local fake in tests) when the settings say so."""
    import discord
    import yarl

    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


LOST_STORAGE = ("The bot lost its PostgreSQL session, and with it its shards (the server "
                "restarted or the network failed); it stopped so that no two processes run one "
                "table. Start it again: it takes its shards back.")


async def _run(settings) -> int:
    from bot.app import create_bot
    from bot.storage import Storage

    _point_at(settings)
    # the database first: one that can't be used (or another process owns) stops the
    # process before it logs in (StorageUnavailable, reported by main)
    storage = await Storage.for_settings(settings, claim_wait=settings.shard_wait_seconds)
    bot = create_bot(settings, freeze_gc=True, storage=storage)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stopping.set)
        except NotImplementedError:  # pragma: no cover - Windows
            pass
    runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
    waiter = asyncio.create_task(stopping.wait())
    try:
        done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if waiter in done:
            logging.getLogger("cardtable").info("shutting down")
            await bot.close()
        waiter.cancel()
        await asyncio.gather(runner, return_exceptions=waiter in done)
    finally:
        if bot.storage is not None:  # e.g. the login failed: close the database anyway
            await bot.close()
    return bot.exit_code


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    import discord

    from bot.storage import StorageUnavailable

    try:
        code = asyncio.run(_run(settings))
    except StorageUnavailable as exc:
        print(exc, file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print("Discord rejected the token in DISCORD_TOKEN: copy it again from the developer "
              "portal (Bot → Reset Token) and update your environment or .env.", file=sys.stderr)
        return 2
    if code == 3:
        print(LOST_STORAGE, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
