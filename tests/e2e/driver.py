"""Play any game through the fake Discord the way a person would: buttons and panels.

The driver reads the bot's table only to know *who* should act next; every move is made by
clicking what that user sees, and leak checks read only what each user was shown.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from fakediscord import FakeDiscord, Message, User

CONFIRM = "✅"


@dataclass
class TableDriver:
    fake: FakeDiscord
    world: object
    bots: object  # tests/e2e/conftest.BotRunner
    command: str
    players: list[User] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    table_id: int | None = None
    earlier: dict[int, set[str]] = field(default_factory=dict)

    @property
    def bot(self):
        return self.bots.current

    @property
    def channel(self):
        return self.world.channel

    # ------------------------------------------------------------------ finding things
    def message_with(self, custom_id_part: str, channel=None) -> Message:
        for message in reversed(self.fake.channel_messages(channel or self.channel)):
            if any(custom_id_part in b.get("custom_id", "") for b in message.buttons()):
                return message
        raise AssertionError(f"no message with a {custom_id_part!r} component")

    def custom_id(self, message: Message, label: str) -> str:
        for comp in message.buttons():
            if comp.get("label") == label or (label and label in (comp.get("label") or "")):
                return comp["custom_id"]
        raise AssertionError(f"no {label!r} button on message: {message.buttons()}")

    async def click(self, user: User, message: Message, label: str):
        return await self.fake.click(user, message, self.custom_id(message, label))

    @property
    def table(self):
        return self.bot.tables.live.get(self.table_id)

    def seat_user(self, seat: int) -> User | None:
        uid = self.table.seats[seat].get("user_id")
        return next((u for u in self.players if u.id == uid), None)

    # ------------------------------------------------------------------ lobby
    async def open(self, host: User, others: list[User], ai: int = 0, options: str | None = None):
        # texts from earlier games in this channel may name the same cards legitimately
        for user in [host, *others, self.world.outsider]:
            self.earlier[user.id] = set(self.fake.visible_texts(user))
        args = {"options": options} if options else {}
        result = await self.fake.slash(host, f"{self.command} new", args, channel=self.channel)
        assert not result.ephemeral, result.text
        await self.fake.settle()
        lobby = result.message
        self.table_id = int(re.search(r"t:(\d+):join", str(lobby.buttons())).group(1))
        self.players = [host, *others]
        for user in others:
            answer = await self.click(user, lobby, "Join")
            assert not answer.ephemeral, answer.text
        for _ in range(ai):
            await self.click(host, lobby, "Add AI")
        await self.click(host, lobby, "Start")
        await self.fake.settle()
        return lobby

    def board(self) -> Message:
        return self.message_with(f"t:{self.table_id}:hand")

    # ------------------------------------------------------------------ playing
    async def take_turn(self, user: User, choose=None) -> str:
        """Open the panel from the board and pick (randomly by default) until a move is made."""
        choose = choose or (lambda labels: self.rng.randrange(len(labels)))
        result = await self.click(user, self.board(), "Take my turn")
        for _ in range(12):
            message = result.message
            assert result.ephemeral, result.text
            text = message.text
            if CONFIRM in text or "⚠️" in text or "out of date" in text:
                return text
            comps = [c for c in message.buttons() if not c["custom_id"].endswith("back")]
            selects = [c for c in comps if c.get("type") == 3]
            if selects:
                sel = selects[0]
                options = [o for o in sel["options"] if not o["value"].startswith("page:")]
                pick = options[choose([o["label"] for o in options])]
                result = await self.fake.select(user, message, sel["custom_id"], [pick["value"]])
            else:
                buttons = [c for c in comps if c.get("label") not in ("Back",)]
                pick = buttons[choose([b["label"] for b in buttons])]
                result = await self.fake.click(user, message, pick["custom_id"])
        raise AssertionError("the panel never reached a move")

    async def play_to_end(self, *, max_moves: int = 2000, check_leaks_every: int = 1,
                          choose=None) -> int:
        """Every waiting human moves through the panel until the game is over."""
        moves = 0
        while self.table is not None and moves < max_moves:
            table = self.table
            engine = table.engine
            humans = [s for s in sorted(engine.waiting_for(table.state)) if not table.is_ai(s)]
            if not humans:
                await self.fake.settle()
                await self._wait_for_ai()
                continue
            user = self.seat_user(humans[0])
            text = await self.take_turn(user, choose)
            assert CONFIRM in text, text
            moves += 1
            await self.fake.settle()
            if moves % check_leaks_every == 0:
                self.assert_no_leaks()
        assert self.table is None, "game did not finish"
        return moves

    async def _wait_for_ai(self) -> None:
        import asyncio

        for _ in range(200):
            table = self.table
            if table is None:
                return
            if any(not table.is_ai(s) for s in table.engine.waiting_for(table.state)):
                return
            await asyncio.sleep(0.01)

    # ------------------------------------------------------------------ secrecy
    def assert_no_leaks(self, extra_users: list[User] | None = None) -> None:
        """No user has ever been shown a card that is still hidden from them."""
        table = self.table
        if table is None:
            return
        engine, state = table.engine, table.state
        for user in [*self.players, *(extra_users or [self.world.outsider])]:
            seat = table.seat_of(user.id)
            hidden = engine.secret_labels(state, seat)
            if not hidden:
                continue
            before = self.earlier.get(user.id, set())
            seen = "\n".join(t for t in self.fake.visible_texts(user) if t not in before)
            leaked = sorted(label for label in hidden if label in seen)
            assert not leaked, f"{user.name} (seat {seat}) saw hidden {leaked}"
