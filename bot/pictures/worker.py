"""The picture worker: a process of its own that draws pictures for the bot.

The bot writes jobs (`PictureJob`, pickled, each behind a 4-byte length) to the worker's
stdin and reads the pictures back from its stdout. When the bot's process ends, however it
ends (kill -9 included), the worker reads the end of its input and exits: it never outlives
the bot, and it holds none of the bot's output streams.
"""

from __future__ import annotations

import os
import pickle
import struct
import sys

HEADER = struct.Struct(">I")


def read_frame(stream) -> bytes | None:
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    size = HEADER.unpack(head)[0]
    data = stream.read(size)
    return data if len(data) == size else None


def write_frame(stream, data: bytes) -> None:
    stream.write(HEADER.pack(len(data)) + data)
    stream.flush()


def main() -> None:
    if hasattr(os, "nice"):
        # answering clicks (the bot) comes before drawing when CPUs are busy. On a machine
        # busy with other processes at normal priority (a parallel test run) a niced worker
        # starved: a picture took over JOB_TIMEOUT and the board went out as text only.
        os.nice(int(os.environ.get("PICTURE_WORKER_NICE", "10")))
    from bot.game_ui import registered_uis
    from bot.pictures import _uis

    _uis(registered_uis)  # import every game's picture code before the first job
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    while True:
        frame = read_frame(source)
        if frame is None:
            return  # the bot closed the pipe or is gone
        try:
            reply = (True, pickle.loads(frame).draw())
        except Exception as exc:  # the bot logs it and sends text only
            reply = (False, f"{type(exc).__name__}: {exc}")
        write_frame(sink, pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))


if __name__ == "__main__":
    main()
