"""Taboo in Discord: the board, the private hand and the `/taboo` moves.

The board is drawn from `engine.view(state, None)` only (row, stock, discard pile, hand sizes,
points piles); a player's own embed from `engine.view(state, seat)`. Moves: `play` (a capture,
`card:` plus an optional `take:`), `draw`, `place`, `jack` and `joker`; the "Take my turn"
panel offers the same moves from the engine's menu paths (Capture › card › what it takes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.game_cog import GameCog, choice_value
from bot.game_ui import GameUI
from bot.tables.live import LiveTable
from bot.tables.service import TableError
from bot.ui.names import echo
from bot.ui.notes import explained, refuse_notes
from bot.ui.text import OPTION_LIMIT, cap_note, clip, plain, plural, shown
from engines import ENGINES
from engines.cards import Card
from engines.core import GameError, Outcome
from engines.taboo.rules import (
    EMPTY,
    PLACE,
    TURN,
    USE,
    VALUE,
    Capture,
    Draw,
    Jack,
    Joker,
    Place,
    capture_options,
    typed_take,
)

from . import pictures

ENGINE = ENGINES["taboo"]


# --------------------------------------------------------------------------- small helpers


def _cards(labels: list[str], empty: str = "—") -> str:
    return " ".join(f"`{label}`" for label in labels) or empty


def _label_value(label: str) -> int:
    try:
        return VALUE[Card.parse(label).rank]
    except GameError:
        return 0


def _hand_line(entries: list[dict[str, Any]], drawn: str | None = None) -> str:
    """`7♠` `A♥`(1) `Q♦`(11) `J♣`(jack): values spelled out where the label doesn't say."""
    parts = []
    marked = False
    for entry in entries:
        label = entry["card"]
        text = f"`{label}`"
        if entry["special"]:
            if entry["special"] != "joker":  # a joker's label (🃏Joker) already says it
                text += f"({entry['special']})"
        elif not label[:-1].isdigit():
            text += f"({entry['value']})"
        if drawn == label and not marked:
            text = f"**{text}** (new)"
            marked = True
        parts.append(text)
    return " ".join(parts) or "Your hand is empty."


def _name(names: list[str], seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "—"
    return names[seat]


def take_text(action: Capture) -> str:
    """What a capture takes, the way `take:` is typed: "7 + (3,4)", "(3,4)", "7"."""
    return typed_take(action.single, action.group, VALUE[action.card.rank])


def play_label(table: LiveTable, action: Capture) -> str:
    """"9♥ captures 2♣ + 7♦": a capture as the `card:` suggestions show it."""
    return ENGINE.capture_text(table.state, action)


def place_label(_table: LiveTable | None, action: Place) -> str:
    card = action.card
    worth = "jack" if card.rank == 11 else "joker" if card.rank == 0 else VALUE[card.rank]
    return f"{card} (value {worth})" if isinstance(worth, int) else f"{card} ({worth})"


def _row_counts(row: list[dict[str, Any]]) -> tuple[int, ...]:
    counts = [0] * 13
    for entry in row:
        counts[entry["value"]] += 1
    return tuple(counts)


# --------------------------------------------------------------------------- rendering
class TabooUI(GameUI):
    engine = ENGINE
    pictures = pictures
    command = "taboo"
    emoji = "🧮"
    colour = 0x27AE60
    blurb = ("2–6 players capture face-up cards that add up to a card in hand; clearing the "
             "whole row scores. Jacks sweep the row, jokers make everyone else draw.")

    # ---- the public board ----------------------------------------------------------------
    def render_board(self, view: dict[str, Any], names: list[str]) -> list[discord.Embed]:
        embeds = [self._row_embed(view, names), self._players_embed(view, names)]
        if view.get("final_hands") is not None:
            embeds.append(self._final_embed(view, names))
        return embeds

    @staticmethod
    def phase_line(view: dict[str, Any], names: list[str]) -> str:
        who = f"**{_name(names, view.get('current'))}**"
        phase = view["phase"]
        if phase == TURN:
            return (f"▶️ {who}'s turn: capture, play a jack or a joker, or draw from the "
                    "stock.")
        if phase == USE:
            return (f"▶️ {who} drew a card and now either uses it at once (a capture with it, "
                    "or its jack/joker move) or places a hand card face up.")
        if phase == EMPTY:
            return f"▶️ The row is empty: {who} draws, then places a card face up."
        if phase == PLACE:
            return f"▶️ {who} places a hand card face up."
        return "🏁 The game is over: points pile minus hand."

    def _row_embed(self, view: dict[str, Any], names: list[str]) -> discord.Embed:
        lines = [self.phase_line(view, names)]
        row = view["row"]
        if row:
            lines.append(f"**Row ({len(row)}):** " + _cards([c["card"] for c in row]))
            hint = f"Total **{view['row_total']}**"
            clears = view.get("row_clears_with") or []
            if clears:
                hint += " · a card of value " + " or ".join(f"**{v}**" for v in clears) + \
                    " takes it all"
            lines.append(hint)
        else:
            lines.append("**Row:** *empty*")
        # one line for the piles (a phone shows inline fields one under the other)
        stock = f"**Stock** {plural(view['stock_size'], 'card')}"
        if view.get("reshuffles"):
            stock += f" (reshuffled {view['reshuffles']}×)"
        discard = f"**Discard pile** {plural(view['discard_size'], 'card')}"
        if view.get("discard_top"):
            discard += f", top `{view['discard_top']}`"
        lines.append(f"{stock} · {discard}")
        near = cap_note(view["turn"] - 1, view["max_turns"], "turn")  # turn = the current one
        if near and view["phase"] != "over":  # a finished game has no cap ahead of it
            lines.append(near)
        embed = discord.Embed(title="The row", description="\n".join(lines), colour=self.colour)
        decks = "two decks" if view.get("decks") == 2 else "one deck"
        embed.set_footer(text=f"Dealer: {_name(names, view['dealer'])} · {decks} · "
                         "A=1, Q=11, K=12; jacks and jokers 0")
        return embed

    def _players_embed(self, view: dict[str, Any], names: list[str]) -> discord.Embed:
        over = view.get("final_hands") is not None
        lines = []
        for seat, name in enumerate(names[:view["players"]]):  # one line each
            marker = "▶️ " if seat == view.get("current") and not over else ""
            pile = view["points"][seat]
            size = view["hand_sizes"][seat]
            lines.append(f"{marker}**{name}** · hand {plural(size, 'card')} · points pile "
                         f"**{pile['total']}** ({plural(len(pile['cards']), 'card')})")
        return discord.Embed(title="Players", description=clip("\n".join(lines), 4096),
                             colour=self.colour)

    def _final_embed(self, view: dict[str, Any], names: list[str]) -> discord.Embed:
        embed = discord.Embed(title="Final hands and scores", colour=0x7F8C8D,
                              description="Score = points pile minus the value of the cards "
                                          "left in hand.")
        scores = (view.get("outcome") or {}).get("scores") or []
        for seat, hand in enumerate(view["final_hands"]):
            held = sum(_label_value(label) for label in hand)
            pile = view["points"][seat]["total"]
            score = scores[seat] if seat < len(scores) else pile - held
            embed.add_field(
                name=clip(f"{_name(names, seat)}: {score:g}", 256),
                value=clip(f"{pile} − {held} · hand {_cards(hand, 'empty')}"), inline=False)
        return embed

    def render_result(self, outcome: Outcome, view: dict[str, Any], names: list[str]) -> str:
        order = sorted(outcome.scores, key=lambda s: (s not in outcome.winners,
                                                      -outcome.scores[s], s))
        final = view.get("final_hands") or []
        lines = []
        for seat in order:
            crown = "🏆 " if seat in outcome.winners else ""
            pile = view["points"][seat]["total"]
            held = sum(_label_value(label) for label in final[seat]) if seat < len(final) else 0
            lines.append(f"{crown}**{_name(names, seat)}** — {outcome.scores[seat]:g} "
                         f"(points pile {pile} − hand {held})")
        out = [seat for seat, hand in enumerate(final) if not hand]
        if out:
            who = ", ".join(_name(names, seat) for seat in out)
            lines.append(f"*{who} went out: no cards left in hand.*")
        return "\n".join(lines)

    # ---- a player's own view -------------------------------------------------------------
    def render_private(self, view: dict[str, Any], names: list[str], seat: int, *,
                       with_table: bool = True) -> discord.Embed:
        hand = view.get("hand") or []
        embed = discord.Embed(title=f"{self.emoji} Your Taboo hand ({plural(len(hand), 'card')})",
                              description=_hand_line(hand, view.get("drawn")), colour=self.colour)
        if not with_table:  # the DM: the score, the row and the turn are the table's
            embed.add_field(name="Hand total", value=f"{view.get('hand_total', 0)} (it counts "
                            "against you when the game ends)", inline=False)
            return embed
        pile = view["points"][seat]["total"]
        embed.add_field(
            name="Score if the game ended now",
            value=f"points pile {pile} − hand {view.get('hand_total', 0)} = "
                  f"**{view.get('score_now', pile)}**", inline=False)
        drawn = view.get("drawn")
        if drawn:
            if view["phase"] == USE:
                special = next((e["special"] for e in view.get("hand") or []
                                if e["card"] == drawn), None)
                use = {"jack": "play it at once (it clears the row)",
                       "joker": "play it at once (everyone else draws a card)"}.get(
                    special or "", "capture with it at once")
                text = f"`{drawn}`: {use}, or place any hand card face up."
            else:
                text = f"`{drawn}`: now place it or another hand card face up."
            text += (" Finish your turn with **Take my turn** on the board, or `/taboo play` / "
                     "`/taboo place`.")
            embed.add_field(name="You just drew", value=text, inline=False)
        if view.get("current") == seat and view["phase"] in (TURN, USE):
            hint = self._capture_hint(view)
            if hint:
                embed.add_field(name="With the row as it is now", value=clip(hint),
                                inline=False)
        return embed

    @staticmethod
    def _capture_hint(view: dict[str, Any]) -> str:
        """Which of the seat's cards can capture now, and which would clear the row."""
        row = view["row"]
        if not row:
            return ""
        counts = _row_counts(row)
        total = len(row)
        drawn = view.get("drawn") if view["phase"] == USE else None
        can, clears = [], []
        for entry in view.get("hand") or []:
            if entry["special"] or (drawn and entry["card"] != drawn):
                continue
            opts = capture_options(counts, entry["value"])
            if not opts:
                continue
            label = f"`{entry['card']}`"
            if label in can:
                continue
            can.append(label)
            if any(int(single) + len(group) == total for single, group in opts):
                clears.append(label)
        if not can:
            return "None of your cards can capture anything."
        text = "Can capture: " + " ".join(can)
        if clears:
            text += "\nClears the row (scores): " + " ".join(clears)
        return text


# --------------------------------------------------------------------------- the commands
def _is(kind: type) -> Callable[[Any], bool]:
    return lambda action: isinstance(action, kind)


class TabooCog(GameCog, group_name="taboo", group_description="Play Taboo."):
    ui = TabooUI()

    # ---- shared plumbing -----------------------------------------------------------------
    def _mine(self, interaction: discord.Interaction, kind: type
              ) -> tuple[LiveTable, int, list[Any]]:
        return self.moves_of(interaction, kind, self._reason(kind))

    def _reason(self, kind: type) -> Callable[[LiveTable, int, list[Any]], str]:
        """Why a move of `kind` is not possible (`_why_not`), as `legal_where` asks."""
        return lambda table, seat, _legal: self._why_not(table, seat, kind)

    @staticmethod
    def _why_not(table: LiveTable, seat: int, kind: type) -> str:
        view = table.engine.view(table.state, seat)
        phase = view["phase"]
        drawn = view.get("drawn")
        if phase == EMPTY:
            return ("The row is empty, so this turn you draw (`/taboo draw`) and then place a "
                    "card face up.")
        if phase == PLACE:
            return "Now place a card face up: `/taboo place` (or **Take my turn**)."
        if phase == USE:
            if kind is Draw:
                return "You already drew this turn."
            if kind in (Jack, Joker):
                return (f"After a draw only the card you just drew (`{drawn}`) can be used: "
                        "a jack or joker in hand waits a turn.")
            special = next((e["special"] for e in view.get("hand") or []
                            if e["card"] == drawn), None)
            if special in ("jack", "joker"):
                # the drawn card is the move: say which command plays it (under 100
                # characters, so the suggestion note shows it whole)
                return (f"The card you just drew (`{drawn}`) is a {special}: use "
                        f"`/taboo {special}`, or `/taboo place` a card.")
            return (f"After a draw only the card you just drew (`{drawn}`) may capture, and "
                    "it can't: use `/taboo place`.")
        if kind is Place:
            return ("You can only place a card face up after drawing: `/taboo draw` first, or "
                    "capture with `/taboo play`.")
        if kind is Jack:
            return "You have no jack in your hand."
        if kind is Joker:
            return "You have no joker in your hand."
        if kind is Capture:
            return ("No capture is possible now: draw (`/taboo draw`), or play a jack or "
                    "joker if you have one.")
        return "That move isn't possible right now."

    async def _suggest(self, interaction: discord.Interaction, current: str, kind: type,
                       label: Callable[[LiveTable, Any], str]
                       ) -> list[app_commands.Choice[str]]:
        return await self.autocomplete_actions(interaction, " ".join(_words(current)),
                                               _is(kind), label, normal=_normal,
                                               why_not=self._reason(kind))

    # ---- play (capture) ------------------------------------------------------------------
    @app_commands.command(name="play", description="Capture: play a hand card and take row "
                          "cards of the same value or adding up to it.")
    @app_commands.describe(card="A hand card that can capture (suggestions list your legal "
                                "captures), e.g. 7s (seven of spades) or just 7.",
                           take="Optional: the row cards to take, by value, e.g. 7, 3+4 or "
                                "7+3+4. Empty = the best capture.")
    async def play(self, interaction: discord.Interaction, card: str,
                   take: str | None = None) -> None:
        table, action = self.find_play(interaction, card, take)
        await self.perform(interaction, table, action)

    def find_play(self, interaction: discord.Interaction, card: str, take: str | None
                  ) -> tuple[LiveTable, Capture]:
        """The capture meant by `card:` (a suggestion or typed) and `take:`."""
        table, seat, caps = self._mine(interaction, Capture)
        refuse_notes(card, take)
        take = (take or "").strip() or None
        head, dot, tail = card.strip().partition(".")
        if dot and head.isdigit() and tail.isdigit():  # a picked suggestion
            table, action = self.choose_action(interaction, card.strip(), _is(Capture),
                                               play_label)
            if take is None:
                return table, action
            card = str(action.card)
        try:
            return table, ENGINE.find_capture(table.state, seat, card, take)
        except GameError as exc:
            problem = shown(str(exc), table.names)  # it may quote what was typed in take:
        # the whole suggestion label typed out ("7♠ captures 3♣ + 4♦")
        if take is None:
            wanted = _normal(card)
            found = [a for a in caps if _normal(play_label(table, a)) == wanted]
            if len(found) == 1:
                return table, found[0]
        held = [e["card"] for e in table.engine.view(table.state, seat).get("hand") or []]
        try:
            typed = Card.parse(card)
        except GameError:
            typed = None
            if not _is_value(card):
                # (not the parser's own text: its example card could name a hidden card)
                problem = (f"{echo(card)} isn't a card: write its value and suit letter, like "
                           "10h or qs, or just the value, like 7 or Q.")
        if typed is not None and str(typed) not in held:
            problem = f"You don't hold `{typed}`."
        drawn = table.state.drawn if table.state.phase == USE else None
        if drawn is not None and (typed is None or typed != drawn):
            problem = (f"After a draw you can only capture with the card you just drew "
                       f"(`{drawn}`).")
        options = ", ".join(sorted({f"`{a.card}`" for a in caps}))
        raise TableError(f"{problem} Cards that can capture now: {options}. The suggestions "
                         "list every legal capture.")

    @play.autocomplete("card")
    @explained()
    async def _play_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, current, Capture, play_label)

    @play.autocomplete("take")
    @explained()
    async def _take_autocomplete(self, interaction: discord.Interaction, current: str):
        """What the chosen card can take: shown as the capture reads ("7♠ captures 3♣ + 4♦"),
        sent as `take:` text ("(3,4)")."""
        table, seat, caps = self._mine(interaction, Capture)
        chosen = str(getattr(interaction.namespace, "card", "") or "").strip()
        legal = list(table.engine.legal_actions(table.state, seat))
        picked = choice_value(chosen)
        if picked is not None:
            version, index = picked
            if version == table.version and index < len(legal) and \
                    isinstance(legal[index], Capture):
                chosen = str(legal[index].card)
        if chosen:
            caps = [a for a in caps if _same_card(a.card, chosen)] or caps
        words = _words(current)
        out: list[app_commands.Choice[str]] = []
        seen: set[str] = set()
        for action in caps:
            value = take_text(action)
            name = ENGINE.capture_text(table.state, action)
            if value in seen or not all(w in _normal(name) for w in words):
                continue
            seen.add(value)
            out.append(app_commands.Choice(name=plain(name, OPTION_LIMIT), value=value))
            if len(out) == 25:
                break
        return out

    # ---- draw / place / jack / joker -----------------------------------------------------
    @app_commands.command(name="draw", description="Draw the top card of the stock (then use "
                          "it at once or place a card face up).")
    async def draw(self, interaction: discord.Interaction) -> None:
        table, _seat, mine = self._mine(interaction, Draw)
        await self.perform(interaction, table, mine[0])

    @app_commands.command(name="place", description="After drawing: put a hand card face up "
                          "in the row.")
    @app_commands.describe(card="The hand card to put face up, e.g. 7s (seven of spades).")
    async def place(self, interaction: discord.Interaction, card: str) -> None:
        table, _seat, mine = self._mine(interaction, Place)
        refuse_notes(card)
        text = card.strip()
        if choice_value(text) is not None:
            table, action = self.choose_action(interaction, text, _is(Place), place_label)
            await self.perform(interaction, table, action)
            return
        found = [a for a in mine if _same_card(a.card, text)
                 or _normal(place_label(table, a)) == _normal(text)]
        if len({VALUE[a.card.rank] for a in found}) > 1 or not found:
            offered = " ".join(f"`{a.card}`" for a in mine)
            if found:
                raise TableError(f"{echo(text)} fits several cards; name one: {offered}.")
            raise TableError(f"{echo(text)} isn't a card you can place. You can place: "
                             f"{offered}.")
        await self.perform(interaction, table, found[0])

    @place.autocomplete("card")
    @explained()
    async def _place_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, current, Place, place_label)

    @app_commands.command(name="jack", description="Play a jack: the whole row goes to the "
                          "discard pile (no points).")
    async def jack(self, interaction: discord.Interaction) -> None:
        table, _seat, mine = self._mine(interaction, Jack)
        await self.perform(interaction, table, mine[0])

    @app_commands.command(name="joker", description="Play a joker: every other player draws a "
                          "card.")
    async def joker(self, interaction: discord.Interaction) -> None:
        table, _seat, mine = self._mine(interaction, Joker)
        await self.perform(interaction, table, mine[0])


# --------------------------------------------------------------------------- text matching
_SUIT_LETTERS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def _normal(text: str) -> str:
    """Lower case with suit symbols as letters, so "7s" finds "7♠"."""
    out = text.lower().replace("🃏", "")
    for symbol, letter in _SUIT_LETTERS.items():
        out = out.replace(symbol, letter)
    return " ".join(out.split())


def _words(text: str) -> list[str]:
    return _normal(text.replace(",", " ").replace("+", " ")).split()


_VALUES = {"A": 1, "Q": 11, "K": 12, **{str(k): k for k in range(1, 13)}}


def _is_value(text: str) -> bool:
    return text.strip().upper() in _VALUES or text.strip().upper() in ("J", "JOKER")


def _same_card(card: Card, text: str) -> bool:
    """Does typed `text` name this card ("7♠", "7s", "seven of spades") or its value ("7")?"""
    text = text.strip()
    if not text:
        return False
    try:
        return Card.parse(text) == card
    except GameError:
        pass
    return card.rank not in (0, 11) and _VALUES.get(text.upper()) == VALUE[card.rank]


async def setup(bot) -> None:
    await bot.add_cog(TabooCog(bot))
