"""LiveTable.adopt keeps what the delivery task wrote while a move was being saved: above
all each player's living DM (meta dm_message). A draft taken before a new DM replaced the
old one used to bring the old id back: the next new DM then deleted a message that was
already gone (404) and the DM sent in between stayed in the player's DMs, never edited
again (a second, stale copy of their hand)."""

from __future__ import annotations

from tests.bot.board_sizes import _table


def test_a_saved_move_keeps_the_living_dm_the_delivery_sent_meanwhile():
    table = _table("suspense", 2, seed=1)
    table.meta["dm_message"] = {"0": 111}
    draft = table.draft()  # a click takes its copy ...
    table.meta["dm_message"]["0"] = 222  # ... the delivery DMs seat 0 anew meanwhile
    draft.row.version += 1
    assert table.adopt(draft), "the draft's DM ids were stale: it must be saved again"
    assert table.meta["dm_message"] == {"0": 222}


def test_every_meta_key_the_delivery_writes_survives_adopt():
    from bot.tables.live import DELIVERY_META

    for key in ("dm_message", "private_shown", "dm_closed", "dm_told", "turn_for",
                "delivered_version", "final_posted", "thread_failed", "thread_closed"):
        assert key in DELIVERY_META, key
