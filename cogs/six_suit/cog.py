"""Six Suit in Discord: the board, the private hand view and the `/sixsuit` moves.

Everything shown comes from `engine.view` (the public view on the board, a seat's own view in
its private embed), so a hidden hand card or draw can never reach the wrong person.
Moves: `predict number: colour: shape:`, `play card: player: pile:`, `discard card:`, and in
free time the pile owner's `consent` / `veto` (also two buttons on their "Take my turn" panel).
Teams are chosen in the lobby (option `teams=k`, the framework's team select).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.game_cog import MAX_CHOICES, GameCog
from bot.game_ui import GameUI
from bot.tables.live import LiveTable
from bot.tables.service import TableError
from bot.ui.names import echo
from bot.ui.notes import NOTE_NUMBER, explained, is_note, refuse_notes
from bot.ui.text import DESCRIPTION_LIMIT, OPTION_LIMIT, cap_note, clip, plain, plural
from engines import ENGINES
from engines.core import GameError, Outcome, render_seats
from engines.six_suit.cards import (
    COLOUR_NAMES,
    COLOURS,
    LABELS,
    NAMES,
    NUMBERS,
    SHAPE_NAMES,
    SHAPES,
    SHARED,
    parse_card,
)
from engines.six_suit.rules import PLAY, PREDICT, Consent, Discard, Play, Predict, Veto

from . import pictures

ENGINE = ENGINES["six_suit"]
SEATS_PER_EMBED = 6
DISCARDS_SHOWN = 16
PILES = 6  # each player's piles, numbered 1–6 in commands
ATTRIBUTES = ("number", "colour", "shape")
CARD_NAME = dict(zip(LABELS, NAMES, strict=True))

# Words a player may type for each attribute (index 4 is the wild: ?, black, blob).
NUMBER_WORDS = {"1": 0, "one": 0, "2": 1, "two": 1, "3": 2, "three": 2, "4": 3, "four": 3,
                "?": 4, "q": 4, "question": 4, "question mark": 4, "wild": 4}
COLOUR_WORDS = {**{name: i for i, name in enumerate(COLOUR_NAMES)},
                **{sym: i for i, sym in enumerate(COLOURS)},
                "r": 0, "y": 1, "g": 2, "b": 3, "k": 4, "grey": 4, "gray": 4}
SHAPE_WORDS = {**{name: i for i, name in enumerate(SHAPE_NAMES)},
               **{sym: i for i, sym in enumerate(SHAPES)},
               "c": 0, "h": 1, "t": 2, "s": 3, "cloud": 4, "❤": 1, "❤️": 1, "♡": 1}
ATTRIBUTE_WORDS = (NUMBER_WORDS, COLOUR_WORDS, SHAPE_WORDS)
ME_WORDS = {"me", "myself", "mine", "my", "my piles", "own", "my own piles", "self"}


# --------------------------------------------------------------------------- small helpers
def _card(label: str) -> str:
    return f"`{label}`"


def _cards(labels: list[str] | None, empty: str = "—") -> str:
    return " ".join(_card(label) for label in labels or []) or empty



def _name(names: list[str], seat: int | None) -> str:
    if seat is None or seat < 0:
        return "nobody"
    return names[seat] if seat < len(names) else f"Seat {seat + 1}"



def _ordinal(k: int) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def _round_heading(view: dict[str, Any]) -> str:
    """`**Round 4**`; a round beyond the `max_rounds` cap is only ever one of a begun final
    phase, which always runs to its end (RULINGS), so it says why it is still being played."""
    heading = f"**Round {view['round']}**"
    if view["round"] > view["max_rounds"]:
        heading += f" (final phase, past the {view['max_rounds']}-round cap)"
    return heading


def card_words(label: str) -> str:
    """ "3🟥▲" → "three red triangle" (for autocomplete and the hand list)."""
    return CARD_NAME.get(label, label)


def attribute_value(text: str, which: int) -> int | None:
    """An attribute index typed or picked ("3", "red", "🟥", "triangle"), or None."""
    words = ATTRIBUTE_WORDS[which]
    low = text.strip().lower()
    if low in words:
        return words[low]
    for part in low.replace("·", " ").split():
        if part in words:
            return words[part]
    return None


def danger_notes(seat: dict[str, Any]) -> list[str]:
    """The attributes where six tops are close to (or at) a six suit."""
    notes = []
    for name, reach in zip(ATTRIBUTES, seat.get("reach") or [], strict=False):
        if reach >= 6:
            notes.append(f"💥 **six suit ({name})**")
        elif reach == 5:
            notes.append(f"⚠️ {name} 5/6")
    return notes


# --------------------------------------------------------------------------- rendering
class SixSuitUI(GameUI):
    engine = ENGINE
    pictures = pictures
    command = "sixsuit"
    emoji = "🎲"
    colour = 0xE67E22
    blurb = ("2–12 players (solo or in teams) predict their draws and cover each other's six "
             "piles: force a six suit on an opponent to eliminate them.")

    def turn_hint(self, view: dict[str, Any], names: list[str]) -> str | None:
        phase = view.get("phase")
        if phase == "consent":
            offer = view.get("offer") or {}
            return (f"consent to or veto {_name(names, offer.get('from'))}'s "
                    f"{_card(offer.get('card', '?'))} on your pile {offer.get('pile', 0) + 1}")
        if phase in (PREDICT, PLAY):
            # one hint serves the whole turn (the board is not re-posted between its two steps)
            return "predict and draw, then play a card on a pile or discard"
        return None

    def rules_markdown(self) -> str:
        return (f"{super().rules_markdown()}\n\n**Playing here**\n"
                "• **Take my turn** on the board walks you through every move with buttons.\n"
                "• `/sixsuit predict number: colour: shape:` starts your turn (predict, then "
                "draw).\n"
                "• `/sixsuit play card: player: pile:` covers a pile (the suggestions list "
                "only the players and piles your card fits); `/sixsuit discard card:` "
                "discards.\n"
                "• In free time the pile owner answers an offer with `/sixsuit consent` or "
                "`/sixsuit veto` (or the two buttons of **Take my turn**).\n"
                "• `/sixsuit hand` shows your hand privately. Piles are listed 1 → 6 from "
                "left to right. Team games: `/sixsuit new options:teams=2`, then each player "
                "picks a team in the lobby.")

    # ---- the public board ----------------------------------------------------------------
    def render_board(self, view: dict[str, Any], names: list[str]) -> list[discord.Embed]:
        embeds = [self._status_embed(view, names)]
        seats = view["seats"]
        if view.get("teams"):
            totals = {t["team"]: t["score"] for t in view.get("team_scores", [])}
            for team in range(view["teams"]):
                members = [s for s in seats if s["team"] == team]
                alive = sum(1 for s in members if s["alive"])
                title = (f"Team {team + 1} · {plural(totals.get(team, 0), 'pt')} · "
                         f"{alive}/{len(members)} alive · piles 1 → 6")
                embeds.append(self._seats_embed(view, names, members, title))
        else:
            for start in range(0, len(seats), SEATS_PER_EMBED):
                chunk = seats[start:start + SEATS_PER_EMBED]
                # one group of seats needs no title line (the status says "piles 1 → 6")
                title = (None if len(seats) <= SEATS_PER_EMBED
                         else f"Players {start + 1}–{start + len(chunk)} · piles 1 → 6")
                embeds.append(self._seats_embed(view, names, chunk, title))
        return embeds

    def _phase_lines(self, view: dict[str, Any], names: list[str]) -> list[str]:
        phase, current = view["phase"], view["current"]
        who = f"**{_name(names, current)}**"
        lines = []
        chain = view.get("extra_turn") or 0
        if phase == "over":
            return ["🏁 **The game is over.**"]
        if chain:  # one line: the chain, and (before its prediction) how it goes on
            target = _name(names, view.get("chain_target", -1))
            more = (f"; one more needs another double match on {target} (or on anyone right "
                    "after an elimination)" if phase == PREDICT else "")
            lines.append(f"🔁 {who} is on **extra turn {chain}**, earned by a double match on "
                         f"{target}{more}.")
        if phase == PREDICT:  # whose turn and its step on one line
            step = ("**step 1 of 2, predict:** a number, colour and shape, then draw.")
        elif phase == PLAY:
            step = ("**step 2 of 2, play or discard:** cover any pile with a hand card "
                    "that shares an attribute, or discard.")
        else:
            step = ""
        if not chain:
            lines.append(f"▶️ Turn of {who}" + (f" — {step}" if step else "."))
        elif step:
            lines.append(step)
        if phase == "consent":
            offer = view.get("offer") or {}
            owner = _name(names, offer.get("target"))
            lines.append(f"✋ **Consent or veto:** {who} offers {_card(offer.get('card', '?'))} "
                         f"on **{owner}**'s pile {offer.get('pile', 0) + 1} (covering "
                         f"{_card(offer.get('covered', '?'))}). **{owner}** decides.")
        prediction = view.get("prediction")
        if prediction and phase != PREDICT:
            said = f"{prediction['number']} · {prediction['colour']} · {prediction['shape']}"
            got = f"shown {_card(view['revealed'])}, " if view.get("revealed") else ""
            lines.append(f"🔮 Predicted *{said}* → {got}drew "
                         f"{plural(view.get('drawn_count', 0), 'card')}.")
        return lines

    def _status_embed(self, view: dict[str, Any], names: list[str]) -> discord.Embed:
        mode = (f"{view['teams']} teams" if view.get("teams")
                else f"{view['players']} players, each for themselves")
        lines = [f"{_round_heading(view)} · dealer {_name(names, view['dealer'])} · {mode} · "
                 "piles read 1 → 6, +n: cards under a pile"]
        # a finished game has no cap ahead of it, and a final phase always runs to its end
        near = cap_note(view["round"] - 1, view["max_rounds"], "round")
        if near and view["phase"] != "over" and not view.get("final_phase"):
            lines.append(near)
        lines += self._phase_lines(view, names)
        if view.get("free_time") and view["phase"] != "over":
            left = view.get("free_time_rounds_left", 0)
            if view["players"] == 2:
                rule = "you may only play on your own piles."
            else:
                rule = "a play on someone else's pile needs their **consent** (they may veto)."
            lines.append(f"🕊️ **Free time** ({plural(left, 'round')} left, this one "
                         f"included): nobody can be eliminated; {rule}")
        if view.get("final_phase") and view["phase"] != "over":
            turns = view.get("final_turns_left") or 0
            if turns:
                lines.append(f"⏳ **Final phase:** one side is left alive; "
                             f"{plural(turns, 'turn')} to go (about "
                             f"{plural(view.get('final_rounds_left', 0), 'round')}).")
            else:
                lines.append(f"⏳ **Final phase** starts after this turn: "
                             f"{plural(view.get('final_rounds_left', 0), 'more round')}.")
        pending = view.get("pending_six_suits") or []
        if pending and view["phase"] != "over":
            who = ", ".join(f"**{_name(names, s)}**" for s in pending)
            if view.get("free_time"):
                lines.append(f"💥 Six suit showing on {who}: harmless in free time, deadly "
                             "after it unless broken.")
            else:
                lines.append(f"💥 Six suit showing on {who}: the next opponent who plays on "
                             "them while it holds eliminates them.")
        vetoed = view.get("vetoed") or []
        if vetoed:
            lines.append("🚫 Vetoed this turn: " + ", ".join(
                f"{_card(v['card'])} on {_name(names, v['target'])}'s pile {v['pile'] + 1}"
                for v in vetoed))
        # piles, team scores and eliminations one line each (a phone stacks fields)
        discard = view.get("discard") or []
        shown = discard[-DISCARDS_SHOWN:]
        more = "… " if len(discard) > len(shown) else ""
        lines.append(f"**Draw pile** {plural(view['draw_pile'], 'card')} · **Discard pile** "
                     f"({len(discard)}, newest last) {more}{_cards(shown, 'empty')}")
        if view.get("teams"):
            lines.append("**Team scores** " + " · ".join(
                f"Team {t['team'] + 1}: **{t['score']}**" for t in view["team_scores"]))
        elims = view.get("eliminations") or []
        if elims:
            lines.append("**Eliminations** " + " · ".join(
                f"{_ordinal(e['number'])}: {_name(names, e['by'])} → "
                f"{_name(names, e['victim'])} (+{plural(e['points'], 'point')})"
                for e in elims))
        return discord.Embed(description=clip("\n".join(lines), DESCRIPTION_LIMIT),
                             colour=self.colour)

    def _seats_embed(self, view: dict[str, Any], names: list[str], seats: list[dict[str, Any]],
                     title: str | None) -> discord.Embed:
        """A line per seat (its name, score, hand and the piles on a second line for a
        living seat; a ghost's line says how it went out), in the description: a field per
        seat cost a ghost two lines."""
        acting = set(view.get("to_act") or [])
        lines = []
        by = {e["victim"]: e for e in view.get("eliminations") or []}
        for seat in seats:
            i = seat["seat"]
            mark = ""
            if view["phase"] != "over":
                if i in acting:
                    mark = "✋ " if view["phase"] == "consent" else "▶️ "
                elif i == view["current"]:
                    mark = "⏸️ "
            team = f" · Team {seat['team'] + 1}" if view.get("teams") else ""
            name = f"{mark}{i + 1}. {_name(names, i)}{team} · {plural(seat['score'], 'pt')}"
            hand = f"{plural(seat['hand_count'], 'card')} in hand"
            if seat.get("known_hand"):
                hand += f" (shown: {_cards(seat['known_hand'])})"
            if seat["alive"]:  # two lines a seat: who and what they hold, then the piles
                depths = seat.get("depth")
                piles = " ".join(_card(label) + (f"+{d}" if d else "") for label, d in
                                 zip(seat["piles"], depths or [0] * 6, strict=False))
                covered = "" if depths else f" · {len(seat.get('under') or [])} covered"
                lines += [f"**{name}** · {hand}{covered}",
                          " · ".join([piles, *danger_notes(seat)])]
            else:
                elim = by.get(i)
                how = (f", {_ordinal(elim['number'])} out (by {_name(names, elim['by'])})"
                       if elim else "")
                lines.append(f"**{name}** · 👻 ghost{how}, plays on · {hand}")
        return discord.Embed(title=title, description=clip("\n".join(lines), DESCRIPTION_LIMIT),
                             colour=self.colour)

    # ---- the private view ----------------------------------------------------------------
    def render_private(self, view: dict[str, Any], names: list[str], seat: int, *,
                       with_table: bool = True) -> discord.Embed:
        me = view["seats"][seat]
        hand = view.get("hand") or []
        drawn = list(view.get("drawn") or [])
        known = set(me.get("known_hand") or [])
        rows = []
        for label in hand:
            notes = []
            if label in drawn:
                drawn.remove(label)
                notes.append("new")
            if label in known:
                notes.append("everyone saw it")
            rows.append(f"{_card(label)} {card_words(label)}"
                        + (f" *({', '.join(notes)})*" if notes else ""))
        embed = discord.Embed(title=f"{self.emoji} Your Six Suit hand", colour=self.colour)
        embed.description = "\n".join(rows) or "Your hand is empty."
        if view.get("teams"):  # (fixed for the whole game: the DM may show it)
            mates = [_name(names, s["seat"]) for s in view["seats"]
                     if s["team"] == me["team"] and s["seat"] != seat]
            embed.add_field(name=f"Team {me['team'] + 1}",
                            value=clip("With " + (", ".join(mates) or "nobody")), inline=False)
        if not with_table:  # the DM: piles, ghosts and turns are the table's (see GameUI)
            return embed
        if me["alive"]:
            notes = danger_notes(me)
            embed.add_field(name="Your piles (1 → 6)",
                            value=" ".join(_card(p) for p in me["piles"])
                            + ("\n" + " · ".join(notes) if notes else ""), inline=False)
        else:
            embed.add_field(name="👻 You are a ghost",
                            value="You were eliminated, but you keep playing: you can still "
                            "eliminate others (no survival points).", inline=False)
        move = self._your_move(view, names, seat)
        if move:
            embed.add_field(name="Your move", value=move, inline=False)
        return embed

    @staticmethod
    def _your_move(view: dict[str, Any], names: list[str], seat: int) -> str | None:
        if seat not in (view.get("to_act") or []):
            return None
        phase = view["phase"]
        if phase == PREDICT:
            extra = (f" (extra turn {view['extra_turn']})" if view.get("extra_turn") else "")
            return (f"Predict{extra}: `/sixsuit predict` or **Take my turn**. 2 of 3 right shows "
                    "the card and draws 1 more; 3 right draws 2 more.")
        if phase == PLAY:
            return ("Play a card on any pile it shares an attribute with (`/sixsuit play`), or "
                    "discard one (`/sixsuit discard`) — or use **Take my turn**.")
        if phase == "consent":
            offer = view.get("offer") or {}
            return (f"{_name(names, offer.get('from'))} offers {_card(offer.get('card', '?'))} "
                    f"on your pile {offer.get('pile', 0) + 1} (covering "
                    f"{_card(offer.get('covered', '?'))}). **Consent** or **Veto**: "
                    "`/sixsuit consent`, `/sixsuit veto` or **Take my turn**.")
        return None

    # ---- the result ----------------------------------------------------------------------
    def render_result(self, outcome: Outcome, view: dict[str, Any], names: list[str]) -> str:
        if not view.get("teams"):
            order = sorted(outcome.scores, key=lambda s: (s not in outcome.winners,
                                                          -outcome.scores[s], s))
            return "\n".join(
                f"{'🏆 ' if s in outcome.winners else ''}**{_name(names, s)}** — "
                f"{plural(int(outcome.scores[s]), 'pt')}"
                + ("" if view["seats"][s]["alive"] else " (👻)") for s in order)
        totals = {t["team"]: t["score"] for t in view["team_scores"]}
        lines = []
        for team in sorted(totals, key=lambda t: (-totals[t], t)):
            members = [s for s in view["seats"] if s["team"] == team]
            won = any(s["seat"] in outcome.winners for s in members)
            who = ", ".join(f"{_name(names, s['seat'])} {int(outcome.scores[s['seat']])}"
                            for s in members)
            lines.append(f"{'🏆 ' if won else ''}**Team {team + 1}** — "
                         f"{plural(totals[team], 'pt')} ({who})")
        return "\n".join(lines)


# --------------------------------------------------------------------------- the commands
def _card_choice_name(label: str, detail: str = "") -> str:
    return f"{label} {card_words(label)}" + (f" — {detail}" if detail else "")


class SixSuitCog(GameCog, group_name="sixsuit", group_description="Play Six Suit."):
    ui = SixSuitUI()

    # ---- shared plumbing -----------------------------------------------------------------
    def _mine(self, interaction: discord.Interaction, kind: type | tuple[type, ...],
              why_not: str | Callable[[LiveTable, list[Any]], str]
              ) -> tuple[LiveTable, int, list[Any]]:
        return self.moves_of(interaction, kind, self._why(why_not))

    @staticmethod
    def _why(why_not: str | Callable[[LiveTable, list[Any]], str]) -> Any:
        """A reason as `legal_where` takes it (these take the table and the legal moves)."""
        return why_not if isinstance(why_not, str) else (
            lambda table, _seat, legal: why_not(table, legal))

    @staticmethod
    def _phase_hint(table: LiveTable, legal: list[Any]) -> str:
        first = legal[0] if legal else None
        if isinstance(first, Predict):
            return ("First predict (`/sixsuit predict`): every turn starts with a prediction "
                    "and a draw.")
        if isinstance(first, Consent | Veto):
            return ("Someone offered you a card: answer with `/sixsuit consent` or "
                    "`/sixsuit veto` first.")
        if isinstance(first, Play | Discard):
            return ("You already predicted this turn: play a card (`/sixsuit play`) or discard "
                    "one (`/sixsuit discard`).")
        return "That move isn't possible right now; `/sixsuit move` lists what is."

    # ---- predict -------------------------------------------------------------------------
    @app_commands.command(name="predict", description="Start your turn: predict the number, "
                          "colour and shape of your draw.")
    @app_commands.describe(number="1, 2, 3, 4 or ? (the wild number)",
                           colour="red, yellow, green, blue or black",
                           shape="circle, heart, triangle, square or blob")
    async def predict(self, interaction: discord.Interaction, number: str, colour: str,
                      shape: str) -> None:
        table, _seat, _mine = self._mine(interaction, Predict, self._phase_hint)
        refuse_notes(number, colour, shape)
        values = []
        for which, text in enumerate((number, colour, shape)):
            value = attribute_value(text, which)
            if value is None:
                choices = {0: "1, 2, 3, 4 or ?", 1: ", ".join(COLOUR_NAMES),
                           2: ", ".join(SHAPE_NAMES)}[which]
                # ("`7` isn't a number" read as nonsense: 7 is one, just not on a card)
                raise TableError(f"No card has the {ATTRIBUTES[which]} {echo(text)}: choose "
                                 f"{choices}.")
            values.append(value)
        await self.perform(interaction, table, Predict(*values))

    async def _attribute_choices(self, interaction: discord.Interaction, current: str,
                                 which: int) -> list[app_commands.Choice[str]]:
        self._mine(interaction, Predict, self._phase_hint)  # only the player about to predict
        if which == 0:
            options = [(f"{n}" if n != "?" else "? (wild number)", n) for n in NUMBERS]
        elif which == 1:
            options = [(f"{sym} {name}" + (" (wild colour)" if name == "black" else ""), name)
                       for sym, name in zip(COLOURS, COLOUR_NAMES, strict=True)]
        else:
            options = [(f"{sym} {name}" + (" (wild shape)" if name == "blob" else ""), name)
                       for sym, name in zip(SHAPES, SHAPE_NAMES, strict=True)]
        needle = current.strip().lower()
        return [app_commands.Choice(name=name, value=value) for name, value in options
                if not needle or needle in name.lower()]

    @predict.autocomplete("number")
    @explained()
    async def _number_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._attribute_choices(interaction, current, 0)

    @predict.autocomplete("colour")
    @explained()
    async def _colour_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._attribute_choices(interaction, current, 1)

    @predict.autocomplete("shape")
    @explained()
    async def _shape_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._attribute_choices(interaction, current, 2)

    # ---- play ----------------------------------------------------------------------------
    @staticmethod
    def _parse_card(text: str | None) -> int | None:
        if not text:
            return None
        try:
            return parse_card(text.split(" — ")[0].strip())
        except GameError:
            pass
        first = text.strip().split()[0] if text.strip() else ""
        try:
            return parse_card(first)
        except GameError:
            return None

    @staticmethod
    def _parse_player(table: LiveTable, seat: int, text: str | None) -> int | None:
        if text is None:
            return None
        text = str(text).strip()
        low = text.lower()
        if not low:
            return None
        if low in ME_WORDS or low.startswith("me ") or low.startswith("me—"):
            return seat
        head = low.split(".")[0].strip()
        if re.fullmatch(r"[0-9]{1,3}", head, re.ASCII) and 1 <= int(head) <= len(table.seats):
            return int(head) - 1
        names = [n.lower() for n in table.plain_names]
        exact = [i for i, n in enumerate(names) if n == low]
        if len(exact) == 1:
            return exact[0]
        partial = [i for i, n in enumerate(names) if low in n]
        return partial[0] if len(partial) == 1 else None

    @staticmethod
    def _pile(value: Any) -> int | None:
        try:
            pile = int(str(value).strip().split(":")[0].replace("Pile", "").strip())
        except (TypeError, ValueError):
            return None
        return pile - 1 if 1 <= pile <= PILES else None

    def _plays(self, interaction: discord.Interaction, *, card: bool = True,
               player: bool = True, pile: bool = True) -> tuple[LiveTable, int, list[Play]]:
        """Legal plays consistent with the options already filled in (for suggestions);
        none: the refusal saying why, which `explained` offers as a note."""
        table, seat, plays = self._mine(interaction, Play, self._no_play_reason)
        ns = interaction.namespace
        wanted = self._wanted(table, seat, getattr(ns, "card", None) if card else None,
                              getattr(ns, "player", None) if player else None,
                              getattr(ns, "pile", None) if pile else None)
        return table, seat, self._fitting(table, seat, plays, *wanted)

    def _wanted(self, table: LiveTable, seat: int, card: Any, player: Any, pile: Any
                ) -> tuple[int | None, int | None, int | None]:
        """The card, seat and pile the options filled in so far name (None: not filled, not
        readable, or a suggestion's note)."""
        return (None if is_note(card) else self._parse_card(card),
                None if is_note(player) else self._parse_player(table, seat, player),
                None if is_note(pile) else self._pile(pile))

    def _fitting(self, table: LiveTable, seat: int, plays: list[Play], card: int | None,
                 target: int | None, pile: int | None) -> list[Play]:
        """The plays with this card, on this player's piles, on this pile (None: any), or
        the refusal saying why there is none."""
        fitting = [a for a in plays if (card is None or a.card == card)
                   and (target is None or a.target == target)
                   and (pile is None or a.pile == pile)]
        if fitting:
            return fitting
        hand = table.engine.view(table.state, seat)["hand"]
        if card is not None and LABELS[card] not in hand:
            raise TableError(f"{_card(LABELS[card])} isn't in your hand. Your hand: "
                             f"{_cards(hand)}.")
        if card is not None and target is not None and pile is not None:
            raise TableError(self._explain_play(table, seat, Play(card, target, pile)))
        whose = None if target is None else "your" if target == seat else \
            f"{_name(table.names, target)}'s"
        if pile is None:
            where = "any of " + (f"{whose} piles" if whose else "the piles you may play on")
        else:
            where = f"{whose} pile {pile + 1}" if whose else \
                f"pile {pile + 1} of anyone you may play on"
        if card is not None:
            raise TableError(f"{_card(LABELS[card])} doesn't fit {where}: choose another card "
                             "or pile.")
        raise TableError(f"None of your cards fits {where}: choose another player or pile.")

    NO_PILE_0 = ("Pile 0 is only a note, no pile: choose pile 1–6 (the suggestions list those "
                 "your card fits).")

    @app_commands.command(name="play", description="Cover a pile (yours, a teammate's or an "
                          "opponent's) with a card that shares an attribute.")
    @app_commands.describe(card="A card from your hand, e.g. 3🟥▲ or 3 red triangle.",
                           player="Whose pile: me, a name or a seat number (suggestions list "
                           "only where the card fits).",
                           pile="Pile 1–6 (suggestions list only the piles it fits).")
    async def play(self, interaction: discord.Interaction, card: str, player: str,
                   pile: app_commands.Range[int, NOTE_NUMBER, PILES]) -> None:
        table, seat, plays = self._mine(interaction, Play, self._no_play_reason)
        if is_note(card) or is_note(player) or is_note(pile):
            # a suggestion's note: why it was given, if that still holds
            self._fitting(table, seat, plays, *self._wanted(table, seat, card, player, pile))
            refuse_notes(card, player)
            refuse_notes(pile, then=self.NO_PILE_0)  # (also typed by hand: say so)
        if not 1 <= pile <= PILES:  # a crafted number: Discord checks the range in its client
            raise TableError(f"There's no pile {pile}: each player's piles are numbered "
                             f"1–{PILES}.")
        wanted = self._parse_card(card)
        if wanted is None:
            raise TableError(f"{echo(card)} isn't a Six Suit card. Pick one of the suggestions or "
                             "type it like `3 red triangle`.")
        target = self._parse_player(table, seat, player)
        if target is None:
            raise TableError(f"{echo(player)} isn't a player at this table. Type `me`, a name or "
                             "a seat number from the board.")
        action = Play(wanted, target, pile - 1)
        if action not in plays:
            raise TableError(self._explain_play(table, seat, action))
        await self.perform(interaction, table, action)

    @staticmethod
    def _no_play_reason(table: LiveTable, legal: list[Any]) -> str:
        if any(isinstance(a, Discard) for a in legal):
            return ("None of your cards fits any pile you may play on: discard one with "
                    "`/sixsuit discard`.")
        return SixSuitCog._phase_hint(table, legal)

    def _explain_play(self, table: LiveTable, seat: int, action: Play) -> str:
        view = table.engine.view(table.state, seat)
        label = LABELS[action.card]
        names = table.names
        if label not in view["hand"]:
            return f"{_card(label)} isn't in your hand. Your hand: {_cards(view['hand'])}."
        target = view["seats"][action.target]
        whose = "your" if action.target == seat else f"{_name(names, action.target)}'s"
        if not target["alive"]:
            return f"{_name(names, action.target)} has been eliminated: a ghost has no piles."
        if any(v["card"] == label and v["target"] == action.target and v["pile"] == action.pile
               for v in view.get("vetoed") or []):
            return (f"{_name(names, action.target)} already vetoed {_card(label)} on that pile "
                    "this turn. Choose another pile or card.")
        top = target["piles"][action.pile]
        if not SHARED[action.card][parse_card(top)]:
            return (f"{_card(label)} shares no number, colour or shape with {_card(top)} on "
                    f"{whose} pile {action.pile + 1}. (A ? matches only a ?, black only "
                    "black, blob only blob.)")
        if action.target != seat and view.get("free_time"):
            if view["players"] == 2:
                return "In free time with 2 players you may only play on your own piles."
            return ("You've been vetoed too often this turn: only your own piles (or a "
                    "discard) remain.")
        return "That play isn't allowed right now. Pick one of the suggestions."

    @play.autocomplete("card")
    @explained()
    async def _play_card_autocomplete(self, interaction: discord.Interaction, current: str):
        _table, _seat, plays = self._plays(interaction, card=False)
        fits: dict[int, int] = {}
        for a in plays:
            fits[a.card] = fits.get(a.card, 0) + 1
        needle = current.strip().lower()
        out = []
        for card, count in fits.items():
            label = LABELS[card]
            name = _card_choice_name(label, f"fits {plural(count, 'pile')}")
            if needle and needle not in name.lower():
                continue
            out.append(app_commands.Choice(name=plain(name, OPTION_LIMIT), value=label))
        return out[:MAX_CHOICES]

    @play.autocomplete("player")
    @explained()
    async def _play_player_autocomplete(self, interaction: discord.Interaction, current: str):
        table, seat, plays = self._plays(interaction, player=False)
        fits: dict[int, int] = {}
        for a in plays:
            fits[a.target] = fits.get(a.target, 0) + 1
        needle = current.strip().lower()
        out = []
        for target in sorted(fits, key=lambda t: (t != seat, t)):
            who = ("Me (my own piles)" if target == seat
                   else f"{target + 1}. {_name(table.plain_names, target)}")
            name = f"{who} — {plural(fits[target], 'pile')} fit"
            if needle and needle not in name.lower():
                continue
            out.append(app_commands.Choice(name=plain(name, OPTION_LIMIT), value=str(target + 1)))
        return out[:MAX_CHOICES]

    @play.autocomplete("pile")
    @explained(NOTE_NUMBER, top=PILES)
    async def _play_pile_autocomplete(self, interaction: discord.Interaction, current: str):
        table, _seat, plays = self._plays(interaction, pile=False)
        ns = interaction.namespace
        both = (self._parse_card(getattr(ns, "card", None)) is not None
                and getattr(ns, "player", None))
        labels: dict[int, str] = {}
        for a in plays:
            if a.pile in labels:
                continue
            if both:
                text = render_seats(table.engine.menu_path(table.state, a)[-1],
                                    table.plain_names)
            else:
                text = f"Pile {a.pile + 1}"
            labels[a.pile] = text
        needle = str(current or "").strip().lower()
        return [app_commands.Choice(name=plain(text, OPTION_LIMIT), value=pile + 1)
                for pile, text in sorted(labels.items())
                if not needle or needle in text.lower()][:MAX_CHOICES]

    # ---- discard -------------------------------------------------------------------------
    @staticmethod
    def _discard_label(_table: LiveTable, action: Any) -> str:
        return _card_choice_name(LABELS[action.card])

    @staticmethod
    def _is_discard(action: Any) -> bool:
        return isinstance(action, Discard)

    @app_commands.command(name="discard", description="Put a hand card face up on the discard "
                          "pile (ends your turn; never an extra turn).")
    @app_commands.describe(card="A card from your hand (suggestions list them).")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        table, seat, mine = self._mine(interaction, Discard, self._phase_hint)
        refuse_notes(card)
        wanted = self._parse_card(card)
        if wanted is not None:
            action = Discard(wanted)
            if action not in mine:
                hand = table.engine.view(table.state, seat)["hand"]
                raise TableError(f"{_card(LABELS[wanted])} isn't in your hand. Your hand: "
                                 f"{_cards(hand)}.")
        else:
            table, action = self.choose_action(interaction, card, self._is_discard,
                                               self._discard_label)
        await self.perform(interaction, table, action)

    @discard.autocomplete("card")
    @explained()
    async def _discard_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self.autocomplete_actions(interaction, current, self._is_discard,
                                               self._discard_label,
                                               why_not=self._why(self._phase_hint))

    # ---- consent / veto ------------------------------------------------------------------
    NO_OFFER = ("There's no offer for you to answer. In free time, when someone offers a card "
                "on one of your piles, you consent or veto.")

    @app_commands.command(name="consent", description="Free time: accept the card offered on "
                          "your pile.")
    async def consent(self, interaction: discord.Interaction) -> None:
        table, _seat, mine = self._mine(interaction, Consent, self.NO_OFFER)
        await self.perform(interaction, table, mine[0])

    @app_commands.command(name="veto", description="Free time: refuse the card offered on your "
                          "pile (it goes back to its player).")
    async def veto(self, interaction: discord.Interaction) -> None:
        table, _seat, mine = self._mine(interaction, Veto, self.NO_OFFER)
        await self.perform(interaction, table, mine[0])


async def setup(bot) -> None:
    await bot.add_cog(SixSuitCog(bot))
