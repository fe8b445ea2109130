"""Play a short Suspense game against the fake Discord and print what each person saw.

    python -m scripts.sample_transcript [--game suspense] [--seed 3]

The README's sample transcript comes from this script, so it shows the bot as it really is.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import tempfile
from pathlib import Path

from bot.app import create_bot
from bot.settings import Settings
from fakediscord import FakeDiscord, running_bot


def _show(title: str, texts: list[str], names: dict[int, str]) -> None:
    print(f"\n===== {title} =====")
    for text in texts:
        # mentions as a Discord client shows them
        print(re.sub(r"<@!?(\d+)>", lambda m: "@" + names.get(int(m.group(1)), m.group(1)),
                     text.strip()))
        print("-----")


async def main(game: str, seed: int, moves: int) -> None:
    fake = await FakeDiscord().start()
    undo = fake.patch_discord()
    guild = fake.add_guild("Card Club")
    channel = fake.add_channel(guild, "games")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    for user in (alice, bob):
        fake.add_member(guild, user)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, discord_token="fake-token",
                            database_path=Path(tmp) / "demo.db", ai_delay=0, turn_seconds=0,
                            dev_guild_id=guild.id)
        bot = create_bot(settings, guild_ready_timeout=0.05)
        async with running_bot(fake, bot):
            command = bot.tables.uis[game].command
            lobby = (await fake.slash(alice, f"{command} new", channel=channel)).message
            for user, label in ((bob, "Join"), (alice, "Add AI"), (alice, "Start")):
                button = next(b for b in lobby.buttons() if b.get("label") == label)
                await fake.click(user, lobby, button["custom_id"])
            await fake.settle()
            for _ in range(moves):
                table = next(iter(bot.tables.live.values()), None)
                if table is None:
                    break
                waiting = [s for s in table.engine.waiting_for(table.state)
                           if not table.is_ai(s)]
                if not waiting:
                    await fake.settle()
                    continue
                user = alice if table.seats[waiting[0]]["user_id"] == alice.id else bob
                board = next(m for m in reversed(fake.channel_messages(channel))
                             if any(":hand" in b.get("custom_id", "") for b in m.buttons()))
                turn = next(b for b in board.buttons() if b.get("label") == "Take my turn")
                result = await fake.click(user, board, turn["custom_id"])
                while "✅" not in result.text and "⚠️" not in result.text:
                    if result.modal is not None:  # a move that carries text: say something
                        result = await fake.submit_modal(user, result.modal.custom_id,
                                                         {"text": "hello"})
                        continue
                    comps = [c for c in result.message.buttons() if c.get("label") != "Back"]
                    pick = comps[rng.randrange(len(comps))]
                    if pick.get("type") == 3:
                        option = rng.choice([o for o in pick["options"]
                                             if not o["value"].startswith("page:")])
                        result = await fake.select(user, result.message, pick["custom_id"],
                                                   [option["value"]])
                    else:
                        result = await fake.click(user, result.message, pick["custom_id"])
                await fake.settle()
        names = {alice.id: alice.name, bob.id: bob.name}
        _show(f"#{channel.name} (everyone)", [m.text for m in fake.channel_messages(channel)],
              names)
        _show("alice's DMs", [m.text for m in fake.dms(alice)][-2:], names)
        _show("alice's ephemeral replies", [m.text for m in fake.ephemerals(alice)][-3:],
              names)
    undo()
    await fake.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="suspense")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--moves", type=int, default=4)
    args = parser.parse_args()
    asyncio.run(main(args.game, args.seed, args.moves))
