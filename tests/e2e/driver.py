"""Play any game through the fake Discord the way a person would: buttons and panels.

The driver reads the bot's table only to know *who* should act next; every move is made by
clicking what that user sees, and leak checks read only what each user was shown.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from fakediscord import FakeDiscord, Message, MessageVersion, User
from fakediscord.text import iter_custom_ids

CONFIRM = "✅"
#: play_to_end waits for the table's delivered state every this many moves (and at the end).
SYNC_EVERY = 50


def dm_messages(fake: FakeDiscord, user: User) -> list[Message]:
    """Every message the bot posted in `user`'s DMs, oldest first (deleted ones included);
    unlike `dm_updates`, a later edit of one of them does not count again."""
    channel = fake._dm_channels.get(user.id)
    if channel is None:
        return []
    return fake.channel_messages(channel, include_deleted=True)


def dm_updates(fake: FakeDiscord, user: User) -> list[MessageVersion]:
    """Every state the bot showed in `user`'s DMs, oldest first: each new DM and each edit
    of the living one (deleted DMs included)."""
    channel = fake._dm_channels.get(user.id)
    if channel is None:
        return []
    return [v for m in fake.channel_messages(channel, include_deleted=True)
            for v in m.versions()]


def pings(fake: FakeDiscord, user: User, channel) -> int:
    """New messages in `channel` that pinged `user`: their mention in the content and
    allowed_mentions letting it through (an edit never pings)."""
    count = 0
    for call in fake.calls:
        if call.method != "POST" or not posts_in(fake, call, channel):
            continue
        body = call.json or {}
        if int(body.get("flags") or 0) & 64:
            continue  # ephemeral: seen by one user, pings nobody else
        if f"<@{user.id}>" not in (body.get("content") or ""):
            continue
        allowed = body.get("allowed_mentions")
        if (allowed is None or "users" in allowed.get("parse", [])
                or user.id in {int(u) for u in allowed.get("users", [])}):
            count += 1
    return count


def posts_in(fake: FakeDiscord, call, channel) -> bool:
    """The call posts a new message in `channel`: through the channel endpoint, or as a
    followup of an interaction from that channel (boards go out with the move's token)."""
    if call.path == f"/channels/{channel.id}/messages":
        return True
    hook = re.fullmatch(r"/webhooks/\d+/([^/]+)", call.path)
    pending = fake._by_token.get(hook[1]) if hook else None
    return pending is not None and pending.channel.id == channel.id


def public_calls(fake: FakeDiscord, channel, since: int = 0) -> list:
    """Calls that wrote what everyone in `channel` sees: channel endpoints, and the webhook
    calls of interactions from that channel that touch public messages (followups that are
    not ephemeral, edits and deletes by message id); the answers to the clicks themselves
    (callbacks, @original) are not counted."""
    found = []
    for call in fake.calls[since:]:
        if call.path.startswith(f"/channels/{channel.id}/"):
            found.append(call)
            continue
        hook = re.fullmatch(r"/webhooks/\d+/([^/]+)(/messages/(\d+))?", call.path)
        pending = fake._by_token.get(hook[1]) if hook else None
        if pending is None or pending.channel.id != channel.id or call.method == "GET":
            continue
        if call.method == "POST" and int((call.json or {}).get("flags") or 0) & 64:
            continue
        found.append(call)
    return found


def notifying_dms(fake: FakeDiscord, user: User) -> list[Message]:
    """The DMs that notified `user`: each new message (edits do not notify)."""
    channel = fake._dm_channels.get(user.id)
    return [] if channel is None else fake.channel_messages(channel, include_deleted=True)


@dataclass
class TableDriver:
    fake: FakeDiscord
    world: object
    bots: object  # tests/e2e/conftest.BotRunner
    command: str
    players: list[User] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    table_id: int | None = None
    lobby_id: int = 0  # the table's lobby message: its result comes after it
    earlier: dict[int, set[str]] = field(default_factory=dict)
    # What a player types into a move's text form (modal); default: nothing, or "…" when the
    # form requires text. Called with the ShownModal.
    modal_text: object = None

    @property
    def bot(self):
        return self.bots.current

    # where the game is played once started: its thread (bot.threads) or the lobby's channel
    game_channel: object = None

    @property
    def channel(self):
        """The lobby's channel, then the channel or thread the game is played in."""
        table = self.table if self.table_id is not None and self.bot else None
        if table is not None and table.row.channel_id in self.fake.channels:
            self.game_channel = self.fake.channels[table.row.channel_id]
        return self.game_channel or self.world.channel

    @property
    def command_channel(self):
        """Where a member types commands about this game: where it is played, or the
        lobby's channel once its thread is archived (Discord offers no commands there)."""
        channel = self.channel
        return self.world.channel if channel.is_thread and channel.archived else channel

    @property
    def thread(self):
        """The game's thread (None while it has none)."""
        channel = self.channel
        return channel if channel.is_thread else None

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
    async def open(self, host: User, others: list[User], ai: int = 0, options: str | None = None,
                   before_start=None):
        """`/<game> new`, everyone joins, AI seats added, Start. `before_start(lobby)`, if
        given, is awaited just before Start (e.g. to choose teams)."""
        # texts from earlier games in this channel may name the same cards legitimately
        for user in [host, *others, self.world.outsider]:
            self.earlier[user.id] = set(self.fake.visible_texts(user))
        args = {"options": options} if options else {}
        result = await self.fake.slash(host, f"{self.command} new", args, channel=self.channel)
        assert not result.ephemeral, result.text
        await self.fake.settle()
        lobby = result.message
        self.lobby_id = lobby.id
        self.table_id = int(re.search(r"t:(\d+):join", str(lobby.buttons())).group(1))
        self.players = [host, *others]
        for user in others:
            answer = await self.click(user, lobby, "Join")
            assert not answer.ephemeral, answer.text
        for _ in range(ai):
            await self.click(host, lobby, "Add AI")
        if before_start is not None:
            await before_start(lobby)
        await self.click(host, lobby, "Start")
        await self.synced()
        return lobby

    def board(self) -> Message:
        """The table's current board (the newest message with its buttons)."""
        return self.message_with(f"t:{self.table_id}:hand")

    def boards(self) -> list[Message]:
        """Every board message the table has had, oldest first, deleted ones included: the
        board is posted anew (and the old one deleted) whenever the turn passes to others."""
        marker = f"t:{self.table_id}:hand"
        return [m for m in self.fake.channel_messages(self.channel, include_deleted=True)
                if any(marker in c.get("custom_id", "")
                       for v in m.versions() for c in iter_custom_ids(v.components))]

    def board_versions(self) -> list[MessageVersion]:
        """Every state the board was shown in, over all its messages, oldest first."""
        return [v for m in self.boards() for v in m.versions()]

    # ------------------------------------------------------------------ for typed commands
    def legal(self, seat: int) -> list:
        return list(self.table.engine.legal_actions(self.table.state, seat))

    def action_at(self, seat: int, value: str):
        """The move an autocomplete value (`version.index`) stands for."""
        version, _, index = value.partition(".")
        assert int(version) == self.table.version
        return self.legal(seat)[int(index)]

    async def next_human(self) -> int | None:
        """Let AI seats move until a human must act; that human's seat (None once over)."""
        for _ in range(500):
            table = self.table
            if table is None:
                return None
            humans = sorted(s for s in table.engine.waiting_for(table.state)
                            if not table.is_ai(s))
            if humans:
                return humans[0]
            # the AI's move, not its delivery: under Discord's rate limits the board may
            # follow a second or more later, and a player acts on the game as it is
            await self._wait_for_ai()
        raise AssertionError("no human was ever asked to move")

    async def refused(self, user: User, command: str, options: dict | None = None, *,
                      says: str = "") -> str:
        """`/<game> command` must be refused ephemerally, saying `says`, changing nothing."""
        version, dump = self.table.version, self.table.row.state
        result = await self.fake.slash(user, f"{self.command} {command}", options or {},
                                       channel=self.channel)
        assert result.ephemeral and "⚠️" in result.text, result.text
        assert says in result.text, result.text
        assert self.table.version == version and self.table.row.state == dump
        return result.text

    async def note(self, user: User, command: str, focused: str,
                   options: dict | None = None, *, says: str = "", channel=None,
                   sends: object = None) -> dict:
        """The suggestions of `/<game> command` for `focused` are one note saying `says`
        (not Discord's bare "no options"), within Discord's limits: its name plain text of
        1–100 characters, its value `sends` or the note's (a string, or for a whole-number
        option an integer)."""
        choices = await self.fake.autocomplete(user, f"{self.command} {command}",
                                               options or {}, focused=focused,
                                               channel=channel or self.channel)
        assert len(choices) == 1, choices
        [choice] = choices
        name = choice["name"]
        assert 1 <= len(name) <= 100 and not re.search(r"`|\*\*|__", name), choice
        assert says in name, (says, choice)
        assert choice["value"] == sends if sends is not None else \
            choice["value"] in ("-", 0), choice
        return choice

    async def note_refused(self, user: User, command: str, focused: str,
                           options: dict | None = None, *, says: str = "",
                           channel=None) -> str:
        """`note`, then its value submitted (with `options` for the other options): refused
        ephemerally in the same words as the note, nothing changed."""
        choice = await self.note(user, command, focused, options, says=says, channel=channel)
        version = self.table.version if self.table_id is not None and self.table else None
        dump = self.table.row.state if version is not None else None
        result = await self.fake.slash(user, f"{self.command} {command}",
                                       {**(options or {}), focused: choice["value"]},
                                       channel=channel or self.channel)
        assert result.ephemeral and result.text.startswith("⚠️ "), result.text
        from bot.ui.text import OPTION_LIMIT, plain

        # a channel the refusal links to is named in the note (a choice shows no links)
        words = re.sub(r"<#(\d+)>", lambda m: f"#{self.fake.channels[int(m[1])].name}",
                       result.text.removeprefix("⚠️ "))
        assert plain(words, OPTION_LIMIT) == choice["name"], (
            "the note and the refusal say different things", choice["name"], result.text)
        if version is not None:
            assert self.table.version == version and self.table.row.state == dump
        return result.text

    # ------------------------------------------------------------------ playing
    async def take_turn(self, user: User, choose=None) -> str:
        """Open the panel from the board and pick (randomly by default) until a move is made."""
        choose = choose or (lambda labels: self.rng.randrange(len(labels)))
        result = await self.click(user, self.board(), "Take my turn")
        for _ in range(12):
            if result.modal is not None:  # the move carries text: fill in the form
                result = await self.fake.submit_modal(
                    user, result.modal.custom_id, {"text": self._modal_answer(result.modal)})
                continue
            if result.deferred:
                # acknowledged first (a slow save, bot.ui.replies.ACK_AFTER): the panel's
                # answer follows once the move is durable; wait for that, not for quiet
                pending = self.fake.interactions[result.interaction_id]
                assert await self.fake._wait_until(lambda p=pending: p.touches > 0, 30), (
                    "a deferred move was never confirmed")
            message = result.message
            assert result.ephemeral, result.text
            text = message.text
            said = message.content  # the panel's own words (the hand shown above it aside)
            if CONFIRM in said or "⚠️" in said or "out of date" in said:
                return text
            comps = [c for c in message.buttons() if not c["custom_id"].endswith("back")]
            selects = [c for c in comps if c.get("type") == 3]
            if selects:
                sel = selects[0]
                options = [o for o in sel["options"] if not o["value"].startswith("page:")]
                pick = options[choose([o["label"] for o in options])]
                result = await self.fake.select(user, message, sel["custom_id"], [pick["value"]])
            else:
                # the moves: not Back, nor Try DMs again (shown once to a closed-DM player)
                buttons = [c for c in comps if c.get("label") not in ("Back", "Try DMs again")]
                pick = buttons[choose([b["label"] for b in buttons])]
                result = await self.fake.click(user, message, pick["custom_id"])
        raise AssertionError("the panel never reached a move")

    def _modal_answer(self, modal) -> str:
        if callable(self.modal_text):
            return self.modal_text(modal)
        inputs = [c for c in iter_custom_ids(modal.components) if c.get("custom_id") == "text"]
        required = any(c.get("required", True) for c in inputs)
        return "…" if required else ""

    async def history(self, user: User | None = None) -> str:
        """Every public line of the game so far, as the board's History button shows them
        (all pages)."""
        user = user or self.world.outsider
        boards = self.boards()
        result = await self.fake.click(user, boards[-1], f"t:{self.table_id}:hist")
        pages = [result.message.text]
        while True:
            older = next((b for b in result.message.buttons()
                          if b.get("label") == "Older" and not b.get("disabled")), None)
            if older is None:
                return "\n".join(reversed(pages))
            result = await self.fake.click(user, result.message, older["custom_id"])
            pages.append(result.message.text)

    async def play_to_end(self, *, max_moves: int = 2000, check_leaks_every: int = 1,
                          choose=None, pause_after: int | None = None,
                          sync_every: int = SYNC_EVERY) -> int:
        """Every waiting human moves through the panel until the game is over (or, with
        `pause_after`, until they made that many moves: the game may go on, and what it
        shows is delivered when this returns).

        Players act as soon as the bot lets them, as people do, not after every delivery:
        under Discord's rate limits (5 edits per 5 s of a channel's board) a board follows
        the moves about once a second, showing the table as it is by then. Every
        `sync_every` moves the driver waits until the latest move is delivered; the leak
        check runs after every move on everything delivered so far."""
        moves = stale = 0
        while self.table is not None and moves < max_moves:
            table = self.table
            engine = table.engine
            humans = [s for s in sorted(engine.waiting_for(table.state)) if not table.is_ai(s)]
            if not humans:
                await self._wait_for_ai()
                continue
            await self._wait_for_ai_idle()
            if self.table is None or humans[0] not in self.table.engine.waiting_for(
                    self.table.state):
                continue  # an AI seat acted meanwhile (e.g. an optional move)
            user = self.seat_user(humans[0])
            version = self.table.version
            text = await self.take_turn(user, choose)
            timed_out = ("not your turn" in text and self.table is not None
                         and self.table.version != version)  # a turn timer moved for them
            if CONFIRM not in text and ("out of date" in text or "moved on" in text
                                        or timed_out):
                stale += 1
                assert stale < 100, text
                await self._wait_for_ai_idle()
                continue  # an AI seat acted while this player was choosing: choose again
            assert CONFIRM in text, text
            moves += 1
            if moves % sync_every == 0 or moves == pause_after:
                await self.synced()
            if moves % check_leaks_every == 0:
                self.assert_no_leaks()
            if moves == pause_after:
                return moves
        assert self.table is None, "game did not finish"
        await self.result_posted()
        return moves

    def results(self) -> list[Message]:
        """The result messages ("… — game over") posted in the channel since this table's
        lobby, oldest first."""
        lobby = self.fake.messages.get(self.lobby_id)
        where = lobby.channel_id if lobby is not None else self.world.channel.id
        return [m for m in self.fake.channel_messages(where)  # the lobby's, not a thread
                if m.id > self.lobby_id and "game over" in m.text]

    async def result_posted(self, timeout: float = 30) -> Message:
        """Wait until the finished game's result shows in the channel, as its members see
        it, and the bot has gone quiet. The table leaves the bot's live tables before its
        result goes out (on a busy machine, seconds before): neither that nor `settle()`
        says the result is there."""
        import asyncio

        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not self.results():
            assert loop.time() < end, f"no result was posted within {timeout:.0f} s"
            await asyncio.sleep(0.02)
        await self.fake.settle()
        return self.results()[-1]

    async def synced(self, timeout: float = 60) -> None:
        """Wait until the bot has delivered the table's latest move (board, DMs, notice) and
        gone quiet: `settle()` alone can return early on a busy machine. A delivery that
        does not come within `timeout` fails the test here, saying what was awaited (it
        used to return silently and leave the test to fail later on a stale board)."""
        import asyncio

        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            table = self.bot.tables.live.get(self.table_id) if self.bot else None
            if table is None:
                break
            task = table.delivery_task
            # DMs wait for their channel's open in the background (the board does not):
            # the table is delivered again once it is open
            busy = (table.dirty or (task is not None and not task.done())
                    or bool(self.bot.tables.publisher.dm_opens))
            delivered = table.meta.get("delivered_version")
            if not busy and delivered == table.version:
                break
            if loop.time() >= end:
                raise AssertionError(
                    f"table {self.table_id}: version {table.version} not delivered within "
                    f"{timeout:.0f} s (delivered: {delivered}, dirty: {table.dirty}, "
                    f"delivery task: {'running' if task and not task.done() else 'none'}, "
                    f"paused: {table.paused!r})")
            await asyncio.sleep(0.01)
        await self.fake.settle()

    async def _wait_for_ai_idle(self) -> None:
        """Let AI seats that may act optionally (not waited for) finish deciding first."""
        import asyncio

        for _ in range(500):
            table = self.table
            if table is None or table.ai_task is None or table.ai_task.done():
                return
            await asyncio.sleep(0.01)

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
            if seat is None:  # a player who left knew their seat's hand until then
                seat = table.left_seat_of(user.id)
            hidden = engine.secret_labels(state, seat)
            if not hidden:
                continue
            before = self.earlier.get(user.id, set())
            seen = "\n".join(t for t in self.fake.visible_texts(user) if t not in before)
            leaked = sorted(label for label in hidden if label in seen)
            assert not leaked, f"{user.name} (seat {seat}) saw hidden {leaked}"
        self.assert_no_picture_leaks(extra_users)

    def assert_no_picture_leaks(self, extra_users: list[User] | None = None) -> None:
        """The image leak scan end to end: every picture of this table a user can see was
        drawn from a view they may see: in the server's channels only the public view's,
        in their DMs and ephemeral answers the public view's or their own seat's. (That a
        picture shows nothing but its view is checked by tests/pictures: re-dealing what
        the viewer cannot see leaves it byte for byte the same.)"""
        table = self.table
        drawn = getattr(self.bots, "drawn", None)
        if table is None or not drawn:
            return
        names = tuple(table.plain_names)
        fake = self.fake
        public = [m for guild in fake.guilds.values()
                  for channel in [*guild.channels, *guild.threads]
                  for m in fake.channel_messages(channel, include_deleted=True)]
        for user in [*self.players, *(extra_users or [self.world.outsider])]:
            seat = table.seat_of(user.id)
            if seat is None:
                seat = table.left_seat_of(user.id)
            private = [*notifying_dms(fake, user), *fake.ephemerals(user)]
            for messages, allowed in ((public, {None}), (private, {None, seat})):
                for message in messages:
                    for attachment in message.attachments:
                        data = bytes(fake.uploads.get(str(attachment["id"]), b""))
                        sources = {s for n, s in drawn.get(data, ()) if n == names}
                        assert not sources or sources & allowed, (
                            f"{user.name} (seat {seat}) was shown a picture drawn for seats "
                            f"{sorted(sources, key=str)}")
