"""What a hung test was waiting for: the stacks of the running event loop's tasks."""

from __future__ import annotations

import asyncio
import io


def asyncio_stacks() -> str:
    """Where every task of the running event loop is waiting. A hung async test is stuck in
    the loop's select(); the thread stacks pytest-timeout prints say nothing about which
    await never returned, these do."""
    loop = asyncio._get_running_loop()
    if loop is None:
        return ""
    out = io.StringIO()
    for task in sorted(asyncio.all_tasks(loop), key=lambda t: t.get_name()):
        out.write(f"--- {task!r}\n")
        task.print_stack(limit=12, file=out)
    return out.getvalue()
