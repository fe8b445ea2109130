"""Suit Taboo in Discord: the board, the private role/hand view and the `/suittaboo` moves.

Everything shown comes from `engine.view` (the public view on the board, a seat's own view in
its private embed), so a hidden role, hand card or doubt can never reach the wrong person.
Moves: `pick`, `build`, `cast`, `dropout` and (Taboo on the Wire, McNulty only) `accuse`;
the "Take my turn" panel offers the same moves step by step from the engine's menu paths.
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
from bot.ui.text import clip, plural
from engines import ENGINES
from engines.cards import SUIT_NAMES, SUIT_SYMBOLS, Card
from engines.core import GameError
from engines.suit_taboo.rules import HAND_LIMIT, Accuse, Build, Cast, DropOut, Pick

from . import pictures

ENGINE = ENGINES["suit_taboo"]
SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
STATUS_TEXT = {
    "stuck": "stuck: sits out this round",
    "dropped": "dropped out",
    "done": "done: no cards left",
}
WIRE_GOALS = {
    "bad guy": "To win you must stay unexposed **and** keep at least one shield spare.",
    "detective": "To win you must stay unexposed **and** every bad guy in this round must "
                 "end up exposed (each exposed bad guy gives you an extra shield).",
    "McNulty": "To win you must stay unexposed **and**, before the reveal, name correctly "
               "who holds each black ace (or that it is out of play).",
}


# No card labels in here: a rules text must never look like a card someone may not see.
PLAYING_HERE = """## Playing here
- `/suittaboo new` opens a lobby (options such as `wire=true`, `wins_needed=3`, \
`max_reshuffles=2`); players **Join**, the host may **Add AI**, then **Start**.
- The board shows every history line (catapult, shields, doubt count, hand size, the catapult \
suits shown this round), the open cards, deck and dump. After a round it keeps the reveal: \
each role, each doubt (rightful ones in bold), penalties, shields and why each player won or \
lost.
- **My hand** or `/suittaboo hand`: your role, hand, the doubts cast at you and what they add \
up to. Only you see it; changes also reach you by DM.
- **Take my turn** or `/suittaboo turn` only offers legal choices; a cast goes shot type → \
ammunition → a target for each card.
- Typing: `/suittaboo pick source:`, `/suittaboo build card:`, `/suittaboo cast shot:` (type \
cards and names to narrow the suggestions), `/suittaboo dropout` (end mode) and, for McNulty, \
`/suittaboo accuse ace: holder:`. Cards can be typed as short codes like `7h`, `10s`, `Qd`."""


# --------------------------------------------------------------------------- small helpers
def _cards(labels: list[str] | None, empty: str = "—") -> str:
    return " ".join(f"`{label}`" for label in labels or []) or empty



def _name(names: list[str], seat: int | None) -> str:
    if seat is None:
        return "out of play"
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _own_suit(role: str) -> str | None:
    """The suit symbol of an ace role ("A♠" → "♠"); None for the joker."""
    return role[-1] if role.startswith("A") and role[-1] in SYMBOL_TO_SUIT else None



def _penalty(label: str) -> int:
    return 2 if label[:-1] in ("J", "Q", "K") else 1


def normalise(text: str) -> list[str]:
    """Words of typed text, with card names written the way the bot shows them (7h → 7♥)."""
    words = []
    for word in text.replace(",", " ").replace("→", " ").replace(">", " ").split():
        try:
            card = Card.parse(word)
        except GameError:
            card = None
        # a joker is never a play card, so "jo" stays a word (it may be part of a name)
        words.append(str(card) if card is not None and not card.is_joker else word.lower())
    return words


def matches(words: list[str], label: str) -> bool:
    low = label.lower()
    return all(word.lower() in low for word in words)


# --------------------------------------------------------------------------- rendering
class SuitTabooUI(GameUI):
    engine = ENGINE
    pictures = pictures
    command = "suittaboo"
    emoji = "🏹"
    colour = 0x1ABC9C
    blurb = ("3–5 players each hide a secret suit role and cast doubts at each other from "
             "catapults; stay unexposed to win the round.")

    def rules_markdown(self) -> str:
        return f"{super().rules_markdown()}\n\n{PLAYING_HERE}"

    # ---- the public board ----------------------------------------------------------------
    def render_board(self, view: dict[str, Any], names: list[str]) -> list[discord.Embed]:
        embeds = [self._table_embed(view, names), self._players_embed(view, names)]
        last = view.get("last_round")
        if last and view.get("phase") == "over":
            embeds.append(self._reveal_embed(last, view, names))
        return embeds

    def _table_embed(self, view: dict[str, Any], names: list[str]) -> discord.Embed:
        # whose turn it is shows as "To act" above and ▶️ beside their line
        phase = view["phase"]
        turn = (f" · turn {view['turns_this_round'] + 1}"
                if phase == "play" and view.get("turn") is not None else "")
        lines = [f"**Round {view['round']}**{turn} · dealer **{_name(names, view['dealer'])}**"
                 f" · first to **{view['wins_needed']}** round wins"]
        last = view.get("last_round")
        if last and phase != "over":  # the last round's reveal, one line (📜 History: all)
            lines.append(self._reveal_line(last, names))
        if view.get("wire"):
            lines.append("📡 **Taboo on the Wire**: black aces are bad guys, red aces are "
                         "detectives, the joker is McNulty.")
        if phase == "accuse":
            who = ", ".join(_name(names, s) for s in view.get("to_act", [])) or "McNulty"
            lines.append(f"🕵️ **Accusation:** the round is over. Before the reveal, McNulty "
                         f"(**{who}**) privately names who holds each black ace.")
        elif phase == "over":
            lines.append("🏁 The match is over.")
        if view.get("end_mode"):
            lines.append("⏳ **End mode:** no more reshuffles; the open cards can still be "
                         "picked and anyone may **drop out**.")
        deck = f"**Deck** {plural(view['deck'], 'card')}"
        if view.get("reshuffles"):
            deck += f" (reshuffled {view['reshuffles']}×)"
        lines.append(f"{deck} · **Dump** {plural(view['dump'], 'card')} · **Open cards** "
                     f"{_cards(view['open'], 'none')}")  # one line: a phone stacks fields
        return discord.Embed(description="\n".join(lines), colour=self.colour)

    def _players_embed(self, view: dict[str, Any], names: list[str]) -> discord.Embed:
        # each player's line of cards in front of them; the title is the legend
        embed = discord.Embed(title="Players · 🏹 catapult · 🛡️ shields · ❓ doubts received · "
                              "✋ hand", colour=self.colour)
        turn = view.get("turn") if view["phase"] == "play" else None
        acting = set(view.get("to_act") or [])
        for player in view["players"]:
            seat = player["seat"]
            mark = "▶️ " if seat == turn or (view["phase"] == "accuse" and seat in acting) \
                else ""
            title = f"{mark}{_name(names, seat)} · 🏆 {player['round_wins']}"
            status = STATUS_TEXT.get(player["status"])
            if status:
                title += f" · {status}"
            catapult = f"`{player['catapult']}`" if player.get("catapult") else "none"
            doubts = f"{player['doubts']}"
            if player.get("open_doubts"):
                doubts += f" (seen: {_cards(player['open_doubts'])})"
            hand = f"{player['hand_size']}"
            if player.get("known_hand"):
                hand += f" (known: {_cards(player['known_hand'])})"
            suits = " ".join(dict.fromkeys(player.get("built_suits") or []))
            if suits:  # the suits a catapult showed this round rule those aces out
                title += f" · catapult suits shown: {suits}"
            value = (f"🏹 {catapult} · 🛡️ {_cards(player['shields'], 'none')} · "
                     f"❓ {doubts} · ✋ {hand}")
            embed.add_field(name=clip(title, 256), value=clip(value), inline=False)
        return embed

    def _reveal_embed(self, last: dict[str, Any], view: dict[str, Any], names: list[str]
                      ) -> discord.Embed:
        winners = ", ".join(_name(names, w) for w in last.get("winners", [])) or "nobody"
        cap = view.get("max_turns_per_round")
        why = ((f"reached its {cap}-turn safety cap" if cap else "reached its safety cap")
               if last.get("reason") == "turn cap" else "ended: everyone was done")
        embed = discord.Embed(
            title=f"Round {last['round']} reveal",
            description=(f"The round {why}. Roles and doubts are turned face up; each "
                         f"player's below.\n**Round winners:** {winners}"),
            colour=0x7F8C8D)
        for line in last.get("players", []):
            embed.add_field(name=clip(self._reveal_title(line, names), 256),
                            value=clip(self._reveal_value(line, names)), inline=False)
        accusations = last.get("accusations")
        if accusations is not None:
            parts = [f"{'✅' if a['right'] else '❌'} ace of "
                     f"{SUIT_NAMES.get(SYMBOL_TO_SUIT.get(a['suit'], ''), a['suit'])} "
                     f"({a['suit']}): named **{_name(names, a['named'])}**, it was "
                     f"**{_name(names, a['truth'])}**"
                     for a in accusations]
            embed.add_field(name="🕵️ McNulty's accusations",
                            value=clip("\n".join(parts) or "none were made"), inline=False)
        return embed

    @staticmethod
    def _reveal_line(last: dict[str, Any], names: list[str]) -> str:
        """During the next round, who was what and who won, on one line."""
        return f"**Round {last['round']} reveal:** " + " · ".join(
            f"{'✅' if line.get('won') else '❌'} {_name(names, line['seat'])} was "
            f"{line['role']}" + (f" ({line['wire_role']})" if line.get("wire_role") else "")
            for line in last.get("players", []))

    @staticmethod
    def _reveal_title(line: dict[str, Any], names: list[str]) -> str:
        verdict = "✅ wins" if line.get("won") else "❌ loses"
        role = f"{line['role']} ({line['role_name']}"
        if line.get("wire_role"):
            role += f", {line['wire_role']}"
        role += ")"
        return f"{verdict} · {_name(names, line['seat'])} was {role}"

    @staticmethod
    def _reveal_value(line: dict[str, Any], names: list[str]) -> str:
        rightful = list(line.get("rightful", []))
        shown = []
        for label in line.get("doubts", []):
            if label in rightful:
                rightful.remove(label)
                shown.append(f"**`{label}`**")
            else:
                shown.append(f"`{label}`")
        doubts = " ".join(shown) or "none"
        shields = len(line.get("shields", []))
        extra = line.get("extra_shields", 0)
        shield_text = f"{plural(shields, 'shield')} {_cards(line.get('shields'), '')}".rstrip()
        if extra:
            shield_text += f" + {extra} extra"
        per = line.get("per_shield", 1)
        why = line.get("why", "")
        verdict = line.get("verdict") or (why.split(":", 1)[0] if why else "")
        verdict = verdict or ("unexposed" if line.get("won") else "exposed")
        status = STATUS_TEXT.get(line.get("status", ""))
        rows = [
            f"Doubts (rightful in bold): {doubts}",
            f"Penalties **{line.get('penalties', 0)}** · {shield_text} (each cancels {per}) → "
            f"{line.get('cancelled', 0)} cancelled, **{line.get('left_penalties', 0)}** left, "
            f"{line.get('left_shields', 0)} spare",
            f"**{'Wins' if line.get('won') else 'Loses'}:** {verdict}"
            + (f" ({status})" if status else ""),
        ]
        return "\n".join(rows)

    # ---- the private view ----------------------------------------------------------------
    def render_private(self, view: dict[str, Any], names: list[str], seat: int, *,
                       with_table: bool = True) -> discord.Embed:
        you = view["you"]
        role = you["role"]
        own = _own_suit(role)
        lines = [f"**Your role this round: `{role}` — {you['role_name']}**"]
        wire = you.get("wire_role")
        if wire:
            lines.append(f"On the wire you are **{wire}**. {WIRE_GOALS.get(wire, '')}")
        if own:
            lines.append(f"Doubts of {own} count against you (2–10: 1 penalty, J/Q/K: 2); "
                         "each of your shields cancels 1. Never build a catapult of "
                         f"{own}.")
        else:
            lines.append("Every doubt counts against you (2–10: 1 penalty, J/Q/K: 2), but "
                         "each of your shields cancels 2. You may build any suit.")
        embed = discord.Embed(title="🏹 Your Suit Taboo role and hand",
                              description="\n".join(lines), colour=self.colour)
        hand = you.get("hand") or []
        shown = [f"`{c}`" + (" ⛔" if own and c.endswith(own) else "") for c in hand]
        note = f"{len(hand)}/{HAND_LIMIT} cards"
        if own and any(c.endswith(own) for c in hand):
            note += " · ⛔ = your own suit: it can't be your catapult"
        embed.add_field(name="Your hand", value=clip(" ".join(shown) or "empty") + f"\n{note}",
                        inline=False)
        me = next((p for p in view.get("players", []) if p["seat"] == seat), None)
        doubts = you.get("doubts") or []
        if doubts:
            rows, total = [], 0
            for d in doubts:
                card = d["card"]
                rightful = own is None or card.endswith(own)
                if rightful:
                    total += _penalty(card)
                how = "open card" if d.get("open") else "from hand"
                rows.append(f"`{card}` from {_name(names, d.get('from'))} ({how})"
                            + (f" — rightful, {plural(_penalty(card), 'penalty', 'penalties')}"
                               if rightful else ""))
            shields = len(me["shields"]) if me else 0
            per = 1 if own else 2
            left = max(0, total - shields * per)
            if not with_table:  # the DM: shields are on the table (see GameUI)
                rows.append(f"So far: **{plural(total, 'penalty', 'penalties')}** before "
                            "your shields (**My hand** counts them in).")
            else:
                # "your 0 shields cancel 0 → 1 uncovered" read as jargon: say "no shields"
                # and name the outcome the rules name (exposed / unexposed)
                cancel = (", no shields" if shields == 0 else
                          f", your {plural(shields, 'shield')} "
                          f"{'cancels' if shields == 1 else 'cancel'} "
                          f"{min(total, shields * per)}")
                outcome = ("**unexposed**" if left == 0 else
                           f"**exposed** ({plural(left, 'penalty', 'penalties')} not "
                           "cancelled)")
                rows.append(f"So far: **{plural(total, 'penalty', 'penalties')}**{cancel} → "
                            f"{outcome}")
            embed.add_field(name="Doubts cast at you", value=clip("\n".join(rows)),
                            inline=False)
        else:
            embed.add_field(name="Doubts cast at you", value="none yet", inline=False)
        sent = you.get("sent") or []
        if sent:
            embed.add_field(name="Hand cards you cast (only you and the target know)",
                            value=clip(" · ".join(f"`{s['card']}` → {_name(names, s['to'])}"
                                                   for s in sent)), inline=False)
        accusations = you.get("accusations")
        if accusations is not None and (accusations or (with_table
                                                        and view["phase"] == "accuse")):
            said = "\n".join(f"Ace of {a['suit']}: {_name(names, a['target'])}"
                             for a in accusations) or "nothing yet"
            embed.add_field(name="🕵️ Your accusations (secret until the reveal)", value=said,
                            inline=False)
        if with_table and view["phase"] == "accuse" and seat in (view.get("to_act") or []):
            embed.add_field(name="Your move", value="Name who holds each black ace: **Take my "
                            "turn** or `/suittaboo accuse`.", inline=False)
        return embed

    # ---- the result ----------------------------------------------------------------------
    def score_text(self, score: float) -> str:
        wins = int(score)
        return f"{wins} round win" + ("" if wins == 1 else "s")


# --------------------------------------------------------------------------- labels for typing
def _pick_label(_table: LiveTable, action: Any) -> str:
    return "Top of the deck (hidden)" if action.card is None else f"Open card {action.card}"


def _build_label(_table: LiveTable, action: Any) -> str:
    return str(action.card)


def cast_labeller(table: LiveTable) -> Callable[[LiveTable, Any], str]:
    """Cast labels for this table as it is now (which ammunition is open, which in hand)."""
    open_cards = table.engine.view(table.state, None)["open"]
    names = table.plain_names  # labels: choices show no markdown
    return lambda _table, action: cast_text(action, open_cards, names)


def cast_text(action: Cast, open_cards: list[str], names: list[str]) -> str:
    how = ("Same number (catapult → shield)" if action.mode == "number"
           else "Same suit (catapult → dump)")
    shots = ", ".join(f"{card} {'open' if str(card) in open_cards else 'hand'} → "
                      f"{_name(names, target)}" for card, target in action.shots)
    return f"{how}: {shots}"


def _accuse_label(table: LiveTable, action: Any) -> str:
    return "Out of play" if action.target is None else _name(table.plain_names, action.target)


def _cached(label: Callable[[LiveTable, Any], str]) -> Callable[[LiveTable, Any], str]:
    """Memoise a label function for one command (legal actions are stable objects)."""
    cache: dict[Any, str] = {}

    def text(table: LiveTable, action: Any) -> str:
        if action not in cache:
            cache[action] = label(table, action)
        return cache[action]

    return text


# --------------------------------------------------------------------------- the commands
class SuitTabooCog(GameCog, group_name="suittaboo", group_description="Play Suit Taboo."):
    ui = SuitTabooUI()

    # ---- shared plumbing -----------------------------------------------------------------
    # (each fits in a suggestion's note: 100 characters without markdown, bot.ui.notes)
    ACCUSE_FIRST = ("The round is over: McNulty, name who holds each black ace before "
                    "the reveal (`/suittaboo accuse`).")
    # why a move of each kind is not possible (a command and its suggestions say the same)
    NO_PICK = (f"You can't pick now: you already hold {HAND_LIMIT} cards (or nothing is left "
               "to pick). Build or cast.")
    NO_BUILD = ("You have no card you may build with (your hand is empty or holds only your "
                "own suit).")
    NO_CAST = ("You can't cast now: you need a catapult and a card of its suit or number, in "
               "hand or open.")
    NO_ACCUSE = ("Only McNulty (the joker in Taboo on the Wire) names the bad guys, between a "
                 "round and its reveal.")

    def _reason(self, why_not: str) -> Callable[[LiveTable, int, list[Any]], str]:
        """`why_not`, unless McNulty must accuse first (then that is why)."""
        def reason(_table: LiveTable, _seat: int, legal: list[Any]) -> str:
            return self.ACCUSE_FIRST if all(isinstance(a, Accuse) for a in legal) else why_not

        return reason

    def _only(self, interaction: discord.Interaction, kind: type, why_not: str
              ) -> tuple[LiveTable, int, list[Any]]:
        return self.moves_of(interaction, kind, self._reason(why_not))

    def _typed(self, interaction: discord.Interaction, value: str, kind: type,
               label: Callable[[LiveTable, Any], str], why_not: str,
               extra: Callable[[Any], bool] = lambda a: True) -> tuple[LiveTable, Any]:
        """Resolve an autocomplete value or typed words (card names like 7h allowed)."""
        table, seat, _mine = self._only(interaction, kind, why_not)
        refuse_notes(value)
        label = _cached(label)

        def keep(action: Any) -> bool:
            return isinstance(action, kind) and extra(action)

        if choice_value(value) is not None:
            return self.choose_action(interaction, value, keep, label)
        words = normalise(value)
        legal = list(table.engine.legal_actions(table.state, seat))
        found = [i for i, a in enumerate(legal) if keep(a) and words
                 and matches(words, label(table, a))]
        exact = [i for i in found if label(table, legal[i]).lower() == " ".join(words).lower()]
        if len(exact) == 1 or len(found) == 1:
            index = (exact or found)[0]
            return self.choose_action(interaction, f"{table.version}.{index}", keep, label)
        if len(found) > 1:
            raise TableError(f"{echo(value)} fits {len(found)} moves; please pick one of the "
                             "suggestions.")
        raise TableError(f"{echo(value)} isn't a legal move right now. Pick one of the "
                         "suggestions, or use **Take my turn** on the board.")

    async def _suggest(self, interaction: discord.Interaction, current: str, kind: type,
                       label: Callable[[LiveTable, Any], str], why_not: str,
                       extra: Callable[[Any], bool] = lambda a: True,
                       ) -> list[app_commands.Choice[str]]:
        """Legal moves of one kind whose label contains every typed word (7h = 7♥); none:
        the command's refusal (`_reason`), which `explained` offers as a note."""
        words = normalise(current)

        def keep(action: Any) -> bool:
            return isinstance(action, kind) and extra(action)

        return await self.autocomplete_actions(
            interaction, current, keep, _cached(label), why_not=self._reason(why_not),
            fits=lambda text: not words or matches(words, text))

    # ---- pick ----------------------------------------------------------------------------
    @app_commands.command(name="pick", description="Take a hand card: the top of the deck or "
                          "an open card (only with 4 cards or fewer).")
    @app_commands.describe(source="Deck or one of the open cards (suggestions list them).")
    async def pick(self, interaction: discord.Interaction, source: str) -> None:
        table, action = self._typed(interaction, source, Pick, _pick_label, self.NO_PICK)
        await self.perform(interaction, table, action)

    @pick.autocomplete("source")
    @explained()
    async def _pick_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, current, Pick, _pick_label, self.NO_PICK)

    # ---- build ---------------------------------------------------------------------------
    @app_commands.command(name="build", description="Lay a hand card face up as your new "
                          "catapult (never your own suit).")
    @app_commands.describe(card="A card from your hand, e.g. 7h or 7♥.")
    async def build(self, interaction: discord.Interaction, card: str) -> None:
        try:
            table, action = self._typed(interaction, card, Build, _build_label, self.NO_BUILD)
        except TableError:
            self._explain_build(interaction, card)
            raise
        await self.perform(interaction, table, action)

    def _explain_build(self, interaction: discord.Interaction, typed: str) -> None:
        """A precise refusal for a typed card: not in hand, or the player's own suit."""
        try:
            wanted = str(Card.parse(typed))
        except GameError:
            return
        table = self.table_here(interaction)
        seat = self.my_seat(table, interaction)
        if seat not in table.engine.to_act(table.state):
            return
        you = table.engine.view(table.state, seat)["you"]
        if wanted not in you["hand"]:
            raise TableError(f"{echo(wanted)} isn't in your hand. Your hand: "
                             f"{_cards(you['hand'], 'empty')}.")
        own = _own_suit(you["role"])
        if own and wanted.endswith(own):
            raise TableError(f"{echo(wanted)} is your own suit ({own}): a catapult may never show "
                             "your own suit. Pick another card.")

    @build.autocomplete("card")
    @explained()
    async def _build_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, current, Build, _build_label, self.NO_BUILD)

    # ---- cast ----------------------------------------------------------------------------
    @app_commands.command(name="cast", description="Shoot 1–3 doubts from your catapult "
                          "(the Take my turn panel walks you through it).")
    @app_commands.describe(shot="Type cards and names to narrow the suggestions, e.g. 7h bob.")
    async def cast(self, interaction: discord.Interaction, shot: str) -> None:
        table, action = self._typed(
            interaction, shot, Cast, cast_labeller(self.table_here(interaction)), self.NO_CAST)
        await self.perform(interaction, table, action)

    @cast.autocomplete("shot")
    @explained()
    async def _cast_autocomplete(self, interaction: discord.Interaction, current: str):
        table = self.table_here(interaction)
        return await self._suggest(interaction, current, Cast, cast_labeller(table),
                                   self.NO_CAST)

    # ---- drop out ------------------------------------------------------------------------
    @app_commands.command(name="dropout", description="End mode only: dump your hand and "
                          "stop playing this round.")
    async def dropout(self, interaction: discord.Interaction) -> None:
        table, _seat, mine = self._only(
            interaction, DropOut, "You can only drop out in end mode (once the deck and the "
            "dump have both run out, or the reshuffle limit is reached).")
        await self.perform(interaction, table, mine[0])

    # ---- accuse (Taboo on the Wire) ------------------------------------------------------
    @app_commands.command(name="accuse", description="McNulty only (Taboo on the Wire): name "
                          "who holds a black ace before the reveal.")
    @app_commands.describe(ace="Which black ace (the spade is named first).",
                           holder="The player you accuse, or out of play.")
    @app_commands.choices(ace=[app_commands.Choice(name="Ace of spades (♠)", value="s"),
                               app_commands.Choice(name="Ace of clubs (♣)", value="c")])
    async def accuse(self, interaction: discord.Interaction, holder: str,
                     ace: app_commands.Choice[str] | None = None) -> None:
        _table, _seat, mine = self._only(interaction, Accuse, self.NO_ACCUSE)
        suit = self._ace_left(mine, ace.value if ace is not None else None)
        table, action = self._typed(interaction, holder, Accuse, _accuse_label, self.NO_ACCUSE,
                                    extra=lambda a: a.suit == suit)
        await self.perform(interaction, table, action)

    @staticmethod
    def _ace_left(mine: list[Accuse], chosen: str | None) -> str:
        """The suit of the ace to name: the chosen one (refused if already named), by
        default the first one left."""
        if chosen is None:
            return mine[0].suit
        if all(a.suit != chosen for a in mine):
            raise TableError(f"You already named the ace of {SUIT_NAMES[chosen]} "
                             f"({SUIT_SYMBOLS[chosen]}).")
        return chosen

    @accuse.autocomplete("holder")
    @explained()
    async def _accuse_autocomplete(self, interaction: discord.Interaction, current: str):
        _table, _seat, mine = self._only(interaction, Accuse, self.NO_ACCUSE)
        chosen = getattr(interaction.namespace, "ace", None)
        suit = self._ace_left(mine, chosen if chosen in SUIT_NAMES else None)
        return await self._suggest(interaction, current, Accuse, _accuse_label, self.NO_ACCUSE,
                                   extra=lambda a: a.suit == suit)


async def setup(bot) -> None:
    await bot.add_cog(SuitTabooCog(bot))
