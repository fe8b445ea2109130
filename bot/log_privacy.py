"""Keep hidden information out of the logs, including discord.py's own DEBUG lines.

The bot's own log lines name tables, seats, interactions and error kinds, never what a
player may not show others (a hand, a role, a secret rule, a DM's text). discord.py is less
careful: at DEBUG its HTTP client logs every request and response body (a DM with a hand is
one) and its gateway logs every event it receives (a MESSAGE_CREATE of that DM, a click with
its chosen option). With LOG_LEVEL=DEBUG those lines would put every player's cards in the
log. aiosqlite, at DEBUG, logs every statement with its parameters: a saved table's state,
every hand in it. `install()` withholds such payloads from those libraries' records and keeps
the rest of the line (method, route, status, event name, that a statement ran), which is
what DEBUG is read for.
"""

from __future__ import annotations

import logging
from typing import Any

# The libraries whose loggers get the filter (each and every one of their modules' loggers).
LIBRARIES = ("discord", "aiosqlite")

# How long a plain text argument may be before it is treated as a payload: routes, methods,
# bucket hashes and event names are shorter; a body of JSON starts with { or [.
PLAIN_LIMIT = 200


def withheld(value: Any) -> Any:
    """`value` as it may appear in a log line: payloads replaced by their size and, for a
    gateway event, its name and opcode."""
    if isinstance(value, dict):
        if "op" in value and "d" in value:  # a gateway message: keep what it was
            return f"<gateway op={value.get('op')} t={value.get('t')} s={value.get('s')}>"
        return f"<payload withheld: {len(value)} keys>"
    if isinstance(value, (list, tuple)):
        return f"<payload withheld: {len(value)} items>"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return f"<payload withheld: {len(value)} bytes>"
    if isinstance(value, str):
        text = value.lstrip()
        if text.startswith(("{", "[")) or len(value) > PLAIN_LIMIT:
            return f"<payload withheld: {len(value)} chars>"
        return value
    if isinstance(value, (int, float, bool, type(None))):
        return value
    if isinstance(value, BaseException):  # an error's words, within the same bounds
        return f"{type(value).__name__}: {withheld(str(value))}"
    if type(value).__name__ in ("URL", "Route", "WSMsgType"):
        return value
    # anything else (aiohttp's FormData of an upload, a WSMessage) may carry a body
    return f"<{type(value).__name__} withheld>"


class PayloadFilter(logging.Filter):
    """Rewrites a library record's arguments through `withheld` (never drops the line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, dict):
            record.args = {key: withheld(value) for key, value in args.items()}
        elif args:
            record.args = tuple(withheld(value) for value in args)
        return True


_FILTER = PayloadFilter()


def install() -> None:
    """Put the filter on every logger of LIBRARIES (idempotent; called by create_bot).

    A logger's filter sees only records made on that very logger, not its children's, so it
    goes on each one the libraries made at import (`logging.getLogger(__name__)` per
    module, or aiosqlite's one "aiosqlite")."""
    import aiosqlite  # noqa: F401  (modules create their loggers on import)
    import discord
    import discord.ext.commands
    import discord.webhook.async_  # noqa: F401

    for name in list(logging.Logger.manager.loggerDict):
        if name in LIBRARIES or name.startswith(tuple(f"{lib}." for lib in LIBRARIES)):
            logger = logging.getLogger(name)
            if _FILTER not in logger.filters:
                logger.addFilter(_FILTER)
