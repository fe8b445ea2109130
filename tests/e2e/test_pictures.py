"""Pictures end to end, per game, against the fake Discord: the board and each private view
carry a PNG uploaded as Discord documents it (multipart, `files[n]` with a description as
alt text, the embed image `attachment://…`), a board edit replaces its picture, the picture a
player gets is exactly the one drawn from their own view, and the server and personal
settings turn pictures off while the text stays complete."""

from __future__ import annotations

import pytest

from tests.e2e.driver import TableDriver
from tests.pictures.games import GAMES

pytestmark = pytest.mark.e2e

COMMANDS = {"six_suit": "sixsuit", "taboo": "taboo", "hidden_rules": "hiddenrules",
            "suspense": "suspense", "suit_taboo": "suittaboo"}
GAME_LIST = [g for g in COMMANDS if g in GAMES]


@pytest.fixture
async def bot(bots):
    return await bots.start(pictures=True)


def pictures_of(message) -> list[dict]:
    """Every picture of a message, each the image of one of its embeds, with alt text."""
    urls = [e["image"]["url"] for e in message.embeds if e.get("image")]
    assert [a["url"] for a in message.attachments] == urls
    for attachment in message.attachments:
        assert attachment["filename"].endswith(".png") and attachment.get("description")
    return message.attachments


def only_picture(message) -> dict:
    [attachment] = message.attachments
    assert attachment["filename"].endswith(".png")
    assert attachment.get("description"), "every picture has alt text"
    [with_image] = [e for e in message.embeds if e.get("image")]
    assert with_image["image"]["url"] == attachment["url"]  # attachment://name resolved
    return attachment


@pytest.mark.parametrize("game", GAME_LIST)
async def test_board_and_hands_come_as_pictures(fake, world, bots, bot, game):
    d = TableDriver(fake, world, bots, COMMANDS[game])
    engine = ENGINES = bot.tables.uis[game].engine
    del ENGINES
    await d.open(world.alice, [world.bob], ai=max(0, engine.min_players - 2))
    board = d.board()
    first = only_picture(board)
    upload = next(c for c in fake.calls if c.files and c.route.startswith("POST"))
    assert upload.files[0]["field"] == "files[0]"
    for user in (world.alice, world.bob):
        if fake.dms(user):
            only_picture(fake.dms(user)[-1])
    # My hand: the picture is exactly the one drawn from alice's own view, not bob's
    answer = await d.click(world.alice, d.board(), "My hand")
    shown = only_picture(answer.message)
    table = d.table
    seat, other = table.seat_of(world.alice.id), table.seat_of(world.bob.id)
    ui = table.ui
    mine = ui.hand_picture(engine.view(table.state, seat), table.plain_names, seat)
    theirs = ui.hand_picture(engine.view(table.state, other), table.plain_names, other)
    assert fake.upload_data(shown) == mine.data != theirs.data
    # a move: the board (edited or posted anew) carries one new picture, never two
    seat_to_move = await d.next_human()
    await d.take_turn(d.seat_user(seat_to_move))
    await d.synced()
    now = only_picture(d.board())
    assert now["id"] != first["id"]
    if d.table is not None:  # the board's picture is the public view's, byte for byte
        table = d.table
        public = ui.board_picture(engine.view(table.state, None), table.plain_names)
        assert fake.upload_data(now) == public.data
    for user in (world.alice, world.bob):  # a DM edited in place keeps one picture only
        for message in fake.dms(user):
            if not message.deleted and message.attachments:
                only_picture(message)
    # the server turns pictures off: boards are text only, still complete
    result = await fake.slash(world.mod, "config server", {"setting": "pictures",
                                                          "value": "false"},
                              channel=world.channel)
    assert "✅" in result.text
    await fake.slash(world.alice, f"{COMMANDS[game]} board", {}, channel=world.channel)
    await d.synced()
    board = d.board()
    assert board.attachments == [] and not any(e.get("image") for e in board.embeds)
    assert "To act" in board.text
    answer = await d.click(world.bob, board, "My hand")
    assert answer.message.attachments == []
    # alice wants pictures for herself all the same: her My hand brings her hand and, since
    # the channel's board is text, the board as a picture too (the public view's, exactly)
    result = await fake.slash(world.alice, "pictures", {"mode": "on"}, channel=world.channel)
    assert "on" in result.text
    answer = await d.click(world.alice, board, "My hand")
    hand, table_picture = pictures_of(answer.message)
    assert "hand" in hand["filename"] and "board" in table_picture["filename"]
    if d.table is not None:
        table = d.table
        public = ui.board_picture(engine.view(table.state, None), table.plain_names)
        assert fake.upload_data(table_picture) == public.data
    d.assert_no_leaks()


async def test_a_member_with_pictures_off_gets_text_where_only_they_look(fake, world, bots,
                                                                         bot):
    """`/pictures off` in a server with pictures on: the channel's board (one message for
    everyone) keeps its picture; what only that member sees (My hand, their DM) is text."""
    await fake.slash(world.bob, "pictures", {"mode": "off"}, channel=world.channel)
    d = TableDriver(fake, world, bots, "sixsuit")
    await d.open(world.alice, [world.bob], ai=1)
    only_picture(d.board())
    answer = await d.click(world.bob, d.board(), "My hand")
    assert answer.message.attachments == [] and "hand" in answer.message.text.lower()
    assert all(m.attachments == [] for m in fake.dms(world.bob))
    answer = await d.click(world.alice, d.board(), "My hand")
    [_] = pictures_of(answer.message)  # the server's board has its picture: hand only


async def test_alt_text_names_players_plainly_for_screen_readers(fake, world, bots, bot):
    """Alt text read `\\*\\*bold\\*\\* \\@​everyone` and `\\[nitro\\]\\(https\\:…`: the markdown
    escapes of message text, which a screen reader reads aloud. An attachment's description
    is not markdown (nor can it ping), so it names players in the plain form: invisible
    characters stripped and length bounded, nothing escaped."""
    world.alice.name = "**bold** @everyone\u200b"
    world.bob.name = "[nitro](https://evil.example)"
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob])
    alt = only_picture(d.board())["description"]
    assert "**bold** @everyone" in alt and "[nitro](https://evil.example)" in alt
    assert "\\" not in alt and "\u200b" not in alt
    answer = await d.click(world.bob, d.board(), "My hand")
    assert "\\" not in only_picture(answer.message)["description"]
