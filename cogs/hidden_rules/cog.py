"""Hidden Rules in Discord: rendering and the `/hiddenrules` commands.

Commands: `play card: [ace_as:] [say:]`, `enforce player: holder: hint:`, `keep trigger:
action:`, `pass`, `next` (start the next trick), `accept`, `challenge`, plus the inherited
`new/hand/rules/move/turn/board/cancel`. The "Take my turn" panel asks for what a player says
with a card (or the hint of an enforcement) in a form; the accused's panel shows exactly
Accept and Challenge. The turn timer of the table framework is the game's time limit
(`turn_seconds`): running out costs a point and passes the turn (the engine's TimeOut).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import discord
from discord import app_commands

from bot.game_cog import GameCog, fresh_choice
from bot.game_ui import GameUI, TextPrompt
from bot.tables.live import LiveTable
from bot.tables.service import TableError
from bot.ui.names import clean_name, echo, escape_markdown, said
from bot.ui.notes import explained, refuse_notes
from bot.ui.text import DESCRIPTION_LIMIT, OPTION_LIMIT, cap_note, clip, plain, plural
from engines import ENGINES
from engines.cards import Card
from engines.core import GameError, one_line
from engines.hidden_rules.rules import (
    QUIET,
    QUIET_NAME,
    SAY_MAX,
    Accept,
    Challenge,
    Enforce,
    Keep,
    Pass,
    Play,
    StartTrick,
)

from . import pictures

ENGINE = ENGINES["hidden_rules"]
MINUS = "−"
BOARD_BUDGET = 3900  # characters for our embeds; the framework's header needs the rest
SAY_SHOWN = 60  # what a player said, as shown on the board
HINT_SHOWN = 80
HISTORY_SHOWN = 1  # enforcements on the board (all of them are in 📜 History)
TRICK_SHOWN = 3  # cards of the current trick on the board, the newest
_CHOICE_RE = re.compile(r"^[0-9]{1,12}\.[0-9]{1,6}$", re.ASCII)


# --------------------------------------------------------------------------- small texts
def _signed(value: int) -> str:
    return f"{value:+d}".replace("-", MINUS)


def _num(value: int) -> str:
    return str(value).replace("-", MINUS)


def _points(value: int) -> str:
    return f"{_num(value)} pt" + ("" if abs(value) == 1 else "s")


def _clip(text: str, limit: int) -> str:
    """One line (whitespace folded), shortened to `limit`."""
    return clip(" ".join(str(text).split()), limit)


def _quote(text: str, limit: int) -> str:
    """What a player said or hinted, in quotes: shortened as typed, then escaped (the engine
    keeps it unescaped so that its limits count what was typed)."""
    return (f"“{escape_markdown(clean_name(one_line(text), limit, fallback=''))}”"
            if text else "")


def _card(label: str) -> str:
    return f"`{label}`"


def _changes(changes: list[int], names: list[str]) -> str:
    parts = [f"{names[p]} {_signed(d)}" for p, d in enumerate(changes) if d]
    return ", ".join(parts) or "no change"


def _rule_lines(rule: dict | None) -> str:
    if not rule:
        return "—"
    return f"{rule['trigger']['label']}\n{rule['action']['label']}"


def _fit_text(lines: list[str], limit: int, *, keep_last: bool = True, more: str = "") -> str:
    """Join lines within `limit` characters, dropping the oldest (or newest) ones first."""
    lines = list(lines)
    dropped = 0
    while lines and len("\n".join(lines)) + (len(more) + 12 if dropped else 0) > limit:
        lines.pop(0 if keep_last else -1)
        dropped += 1
    if dropped:
        note = f"… {dropped} {more or 'more'}"
        lines = [note, *lines] if keep_last else [*lines, note]
    return clip("\n".join(lines), limit, keep="end" if keep_last else "start")


# --------------------------------------------------------------------------- the UI
class HiddenRulesUI(GameUI):
    engine = ENGINE
    pictures = pictures
    command = "hiddenrules"
    emoji = "📜"
    colour = 0xC27C0E
    blurb = ("2–5 players race to 21 in tricks while secret rules — one per player, every one "
             "in force — are enforced on each other. Work out the rules you don't know!")

    # ---- board ----------------------------------------------------------------------------
    def render_board(self, view: dict[str, Any], names: list[str]) -> list[discord.Embed]:
        embeds = [self._trick_embed(view, names), self._scores_embed(view, names)]
        rules = self._all_rules_embed(view, names)  # at the end of the game only
        if rules is not None:
            embeds.append(rules)
        history = self._history_embed(view, names)
        if history is not None and view["phase"] != "over":
            # during play the last enforcement is a line under the scores (📜 History
            # has them all); at the end they come with the result
            embeds[1].description += f"\n**{history.title}** · last: {history.description}"
        elif history is not None:
            embeds.append(history)
        named = self._named_embed(view)
        if named is not None:
            embeds.append(named)
        kept, used = [], 0
        for embed in embeds:
            if used + len(embed) > BOARD_BUDGET and kept:
                break
            kept.append(embed)
            used += len(embed)
        return kept

    def _status_lines(self, view: dict[str, Any], names: list[str]) -> list[str]:
        phase = view["phase"]
        trick = view["trick"]
        lines: list[str] = []
        if phase == "choose":
            done = [names[p] for p, c in enumerate(view["chosen"]) if c]
            waiting = [names[p] for p, c in enumerate(view["chosen"]) if not c]
            lines.append("🤫 **Everyone secretly keeps a rule** — 1 of their 2 triggers and 1 of "
                         "their 2 actions (**Take my turn** or `/hiddenrules keep`).")
            lines.append(f"Chosen: {', '.join(done) or 'nobody yet'} · still choosing: "
                         f"**{', '.join(waiting)}**")
            return lines
        if phase == "over":
            lines.append(f"🏁 **Game over** — {view.get('end_reason') or ''}")
            return lines
        pending = view.get("pending")
        window = view.get("window")
        if pending:
            enforcer, holder, accused = pending["enforcer"], pending["holder"], pending["accused"]
            whose = ("**unnecessary talking**" if holder == QUIET else "their own rule"
                     if holder == enforcer else f"**{names[holder]}**'s rule")
            lines.append(f"⚖️ **{names[enforcer]}** enforces {whose} against "
                         f"**{names[accused]}**'s {_card(pending['card'])}: "
                         f"{_quote(pending['hint'], HINT_SHOWN)}")
            lines.append(f"➡️ **{names[accused]}** must **Accept** (card back, {MINUS}1 point) or "
                         "**Challenge** (the bot checks the rule) now.")
            if view.get("to_play") is not None:
                lines.append(f"Then **{names[view['to_play']]}** plays.")
            return lines
        if trick["over"]:
            starter = view.get("next_starter")
            if trick["discarded"]:
                lines.append("🗑️ Nobody can play: the trick will be discarded.")
            elif trick["total"] == 21:
                lines.append(f"🎯 Exactly 21: **{names[trick['taker']]}** takes the trick.")
            else:
                lines.append(f"💥 Over 21: **{names[trick['taker']]}** takes the trick.")
            if starter is not None:
                lines.append(f"➡️ **{names[starter]}** starts the next trick (which scores this "
                             "one).")
        elif view.get("to_play") is not None:
            lines.append(f"➡️ **{names[view['to_play']]}** plays next.")
        if window:
            others = [names[p] for p in window["may_enforce"]]
            if others:
                lines.append(f"⚖️ Did {names[window['seat']]}'s {_card(window['card'])} break a "
                             f"rule? Still free to **enforce**: {', '.join(others)}.")
        return lines

    def _trick_embed(self, view: dict[str, Any], names: list[str]) -> discord.Embed:
        trick = view["trick"]
        embed = discord.Embed(colour=self.colour)
        lines = []
        running = 0
        for entry in trick["cards"]:
            running += entry["value"]
            who = names[entry["seat"]]
            if entry["turned_up"]:
                lines.append(f"{_card(entry['card'])} turned up by {who} → **{_num(running)}**")
                continue
            said = f" · {_quote(entry['say'], SAY_SHOWN)}" if entry["say"] else ""
            lines.append(f"{_card(entry['card'])} **{who}** ({_signed(entry['value'])}) → "
                         f"**{_num(running)}**{said}")
        if view["phase"] == "choose":
            embed.title = "Choosing secret rules"
        elif trick["cards"]:
            embed.title = f"Current trick — total {_num(trick['total'])}"
            if len(lines) > TRICK_SHOWN:  # the newest cards; the rest are in 📜 History
                embed.title += f" ({len(lines)} cards, the last {TRICK_SHOWN} below)"
                lines = lines[-TRICK_SHOWN:]
        else:
            embed.title = "No trick in progress"
        status = "\n".join(self._status_lines(view, names))
        body = _fit_text(lines, 1800 - len(status), more="earlier cards")
        embed.description = clip(f"{body}\n{status}" if body else status, DESCRIPTION_LIMIT)
        return embed

    def _scores_embed(self, view: dict[str, Any], names: list[str]) -> discord.Embed:
        embed = discord.Embed(title=f"Scores — first to {plural(view['target'], 'point')}",
                              colour=self.colour)
        lines = []
        acting, after = self._acting(view)
        pending = view.get("pending")
        for seat, score in enumerate(view["scores"]):
            marks = []
            if view["phase"] in ("play", "pending") and seat == acting:
                marks.append("▶️")
            if pending and seat == pending["accused"]:
                marks.append("⚖️")
            if view.get("winners") and seat in view["winners"]:
                marks.append("🏆")
            prefix = " ".join(marks) + " " if marks else ""
            cards = view["hand_sizes"][seat]
            line = (f"{prefix}**{names[seat]}** — {_points(score)} · {cards} card"
                    f"{'' if cards == 1 else 's'}")
            if pending and seat == acting:
                line += " · **answers now**: Accept or Challenge"
            elif seat == after:
                line += " · plays after that"
            lines.append(line)
        embed.description = "\n".join(lines)
        extras = [f"deck {view['deck_size']}"]
        if view.get("turn_seconds"):
            extras.append(f"⏱️ {view['turn_seconds']} s per card ({MINUS}1 point if time runs "
                          "out)")
        else:
            extras.append("no time limit")
        if view.get("referee"):
            extras.append("🧑‍⚖️ referee on")
        near = cap_note(view["turns"], view["max_turns"], "turn")
        if near and view["phase"] != "over":  # a finished game has no cap ahead of it
            extras.append(near)
        # one line with the title rather than a footer of its own (a phone shows ~20)
        embed.title = clip(f"{embed.title} · {' · '.join(extras)}", 256)
        return embed

    @staticmethod
    def _acting(view: dict[str, Any]) -> tuple[int | None, int | None]:
        """Who acts now (▶️ on the scores) and, during an accusation, who plays once it is
        settled. The accused answers first: ▶️ on the next player, as it was, read as
        "their turn" to a new player while the game waited for the accused."""
        pending = view.get("pending")
        if pending:
            return pending["accused"], view.get("to_play")
        acting = view.get("to_play")
        return (view.get("next_starter") if acting is None else acting), None

    def _history_embed(self, view: dict[str, Any], names: list[str]) -> discord.Embed | None:
        history = view.get("history") or []
        if not history:
            return None
        lines = [self.history_line(r, names) for r in history[-HISTORY_SHOWN:]]
        total = view.get("enforcements", len(history))
        embed = discord.Embed(title=f"Enforcements ({total} so far)", colour=0x7F8C8D)
        embed.description = _fit_text(lines, 1500, more="older")
        return embed

    @staticmethod
    def history_line(record: dict[str, Any], names: list[str]) -> str:
        accused = names[record["accused"]]
        quiet = record["holder"] == QUIET
        holder = QUIET_NAME if quiet else names[record["holder"]]
        play = f"{accused}'s {_card(record['card'])} (→ {_num(record['total'])})"
        said = f", said {_quote(record['say'], 40)}" if record.get("say") else ", said nothing"
        hint = _quote(record["hint"], 60)
        if record["result"] == "referee":
            broke = f"was **{QUIET_NAME}**" if quiet else f"broke **{holder}**'s rule"
            return (f"🧑‍⚖️ Referee: {play}{said} — {broke} {hint} → taken back; "
                    f"{_changes(record['changes'], names)}")
        enforcer = names[record["enforcer"]]
        whose = (QUIET_NAME if quiet else "own rule" if record["enforcer"] == record["holder"]
                 else f"{holder}'s rule")
        verdict = {"accepted": "accepted",
                   "right": "challenged: **rule broken**",
                   "wrong": "challenged: **not broken**, the play stands"}[record["result"]]
        # "said “x”: “y”" read as two things said: the enforcer's words are named a hint
        hint = f" · hint {hint}" if hint else ""
        return (f"⚖️ **{enforcer}** ({whose}) vs {play}{said}{hint} → {verdict}; "
                f"{_changes(record['changes'], names)}")

    def _all_rules_embed(self, view: dict[str, Any], names: list[str]) -> discord.Embed | None:
        rules = view.get("all_rules")
        if not rules:
            return None
        embed = discord.Embed(title="Everyone's secret rule", colour=self.colour)
        for seat, rule in enumerate(rules):
            embed.add_field(name=names[seat], value=clip(_rule_lines(rule)), inline=False)
        return embed

    @staticmethod
    def _named_embed(view: dict[str, Any]) -> discord.Embed | None:
        named = view.get("named") or {}
        animals, characters = named.get("animals") or [], named.get("characters") or []
        if not animals and not characters:
            return None
        embed = discord.Embed(title="Already named this game", colour=0x7F8C8D)
        if animals:
            embed.add_field(name="Animals", value=_clip(", ".join(animals), 400), inline=False)
        if characters:
            embed.add_field(name="Characters", value=_clip(", ".join(characters), 400),
                            inline=False)
        return embed

    def render_result(self, outcome: Any, view: dict[str, Any], names: list[str]) -> str:
        order = sorted(outcome.scores, key=lambda s: (s not in outcome.winners,
                                                      -outcome.scores[s], s))
        return "\n".join(f"{'🏆 ' if seat in outcome.winners else ''}**{names[seat]}** — "
                         f"{_points(int(outcome.scores[seat]))}" for seat in order)

    # ---- private view ---------------------------------------------------------------------
    def render_private(self, view: dict[str, Any], names: list[str], seat: int, *,
                       with_table: bool = True) -> discord.Embed:
        embed = discord.Embed(title="📜 Your Hidden Rules hand", colour=self.colour)
        hand = view.get("hand") or []
        if view.get("hand_hidden"):
            embed.description = "Your cards are dealt face down: you see them once you have " \
                "kept your secret rule."
        else:
            embed.description = (" ".join(_card(c) for c in hand) if hand
                                 else "Your hand is empty.")
        rule = view.get("my_rule")
        dealt = view.get("dealt") or {"triggers": [], "actions": []}
        if rule:
            embed.add_field(name="🤫 Your secret rule", value=clip(_rule_lines(rule)),
                            inline=False)
            kept = {rule["trigger"]["id"], rule["action"]["id"]}
            out = [c["label"] for c in dealt["triggers"] if c["id"] not in kept]
            out += [c["label"] for c in dealt["actions"] if c["id"] not in kept]
            if out:
                embed.add_field(name="Out of play (you did not keep them: nobody has them)",
                                value=clip("\n".join(out)), inline=False)
        else:
            text = "**Triggers** (keep one)\n" + "\n".join(
                f"• {c['label']}" for c in dealt["triggers"])
            text += "\n**Actions** (keep one)\n" + "\n".join(
                f"• {c['label']}" for c in dealt["actions"])
            text += "\nChoose with **Take my turn** or `/hiddenrules keep`."
            embed.add_field(name="🤫 Choose your secret rule", value=clip(text), inline=False)
        known = view.get("known_rules") or {}
        for holder, known_rule in sorted(known.items(), key=lambda kv: int(kv[0])):
            embed.add_field(name=f"🔎 {names[int(holder)]}'s rule (shown to you)",
                            value=clip(_rule_lines(known_rule)), inline=False)
        pending = view.get("pending")
        if with_table and pending and pending["accused"] == seat:  # (public: not in the DM)
            holder = (QUIET_NAME if pending["holder"] == QUIET
                      else f"{names[pending['holder']]}'s rule")
            embed.add_field(
                name="⚖️ You are accused",
                value=(f"**{names[pending['enforcer']]}** says your {_card(pending['card'])} "
                       f"broke {holder}: {_quote(pending['hint'], 200)}\n"
                       f"**Accept** (card back, {MINUS}1 point) or **Challenge** (you see the "
                       "rule; whoever is wrong pays) — **Take my turn** or "
                       "`/hiddenrules accept` / `challenge`."),
                inline=False)
        return embed

    # ---- free text of a move --------------------------------------------------------------
    def turn_hint(self, view: dict[str, Any], names: list[str]) -> str | None:
        phase = view.get("phase")
        if phase == "choose":
            return "keep one trigger and one action as your secret rule"
        if phase == "pending":
            return "accept the enforcement or challenge it"
        if phase == "play":
            trick = view.get("trick") or {}
            if trick.get("over") or view.get("to_play") is None:
                return "start the next trick"
            return "play a card (and say what your rule asks)"
        return None

    def text_prompt(self, action: Any) -> TextPrompt | None:
        if isinstance(action, Play):
            shown = f"{action.card} as {action.ace_as}" if action.ace_as else str(action.card)
            return TextPrompt(title=f"Play {shown}", label="What do you say with it? (optional)",
                              placeholder="Leave empty to say nothing.", required=False,
                              max_length=SAY_MAX)
        if isinstance(action, Enforce):
            return TextPrompt(title="Enforce a secret rule",
                              label="Your hint: what went wrong?",
                              placeholder="e.g. You forgot to mention the suit.",
                              required=True, max_length=200)
        return None

    def with_text(self, action: Any, text: str) -> Any:
        if isinstance(action, Play):
            return dataclasses.replace(action, say=said(text))
        if isinstance(action, Enforce):
            return dataclasses.replace(action, hint=said(text))
        return action


# --------------------------------------------------------------------------- the cog
def _is_play(action: Any) -> bool:
    return isinstance(action, Play)


def _is_card_entry(action: Any) -> bool:
    """One autocomplete entry per hand card (an ace's 1/11 is the `ace_as` option)."""
    return isinstance(action, Play) and action.ace_as != 11


def _is_enforce(action: Any) -> bool:
    return isinstance(action, Enforce)


def _card_label(_table: LiveTable, action: Any) -> str:
    if action.card.rank == 1:
        return f"{action.card} (ace: set ace_as to 1 or 11)"
    return str(action.card)


class HiddenRulesCog(GameCog, group_name="hiddenrules",
                     group_description="Play Hidden Rules (secret rules on top of Up 'N Over)."):
    ui = HiddenRulesUI()

    # ---- helpers --------------------------------------------------------------------------
    def _view(self, table: LiveTable) -> dict[str, Any]:
        return table.engine.view(table.state, None)

    def _why_not(self, table: LiveTable, seat: int, what: str) -> str:
        """A friendly reason why `seat` can't do `what` now (nothing was changed)."""
        view = self._view(table)
        names = table.names
        if view["phase"] == "choose":
            return "Everyone is still choosing a secret rule (`/hiddenrules keep`)."
        pending = view.get("pending")
        if pending:
            accused = names[pending["accused"]]
            if pending["accused"] == seat and what not in ("accept", "challenge"):
                return "You are accused: **Accept** or **Challenge** first."
            if pending["accused"] != seat:
                return f"The game waits for {accused} to accept or challenge an enforcement."
        waiting = ", ".join(names[s] for s in sorted(table.engine.waiting_for(table.state)))
        over, starter = view["trick"]["over"], view.get("next_starter")
        if what in ("play", "next") and over and starter == seat:
            # (it said "not your turn to play — waiting for <you>" to the trick's starter)
            return ("The trick is over: you start the next one first (`/hiddenrules next` or "
                    "**Take my turn**).")
        if what in ("play", "next") and over and starter is not None:
            return f"The trick is over: waiting for {names[starter]} to start the next one."
        if what == "play":
            return f"It's not your turn to play — waiting for {waiting}."
        if what in ("accept", "challenge"):
            return "Nobody is enforcing a rule against you right now."
        if what == "next":
            return ("The trick isn't over yet: it ends at a total of 21 or more, or when "
                    "nobody has a card left.")
        window = view.get("window")
        if what == "pass" and seat in table.engine.waiting_for(table.state):
            return ("It's your turn: playing your card (or starting the next trick) lets the "
                    "play stand.")
        if window is None:
            return "There's no play to enforce against right now."
        if window["seat"] == seat:
            return "You can't enforce against your own play."
        return ("You already enforced or let this play stand." if what in ("enforce", "pass")
                else f"That isn't possible now — waiting for {waiting}.")

    def _reason(self, what: str):
        """`_why_not` for `what`, as `legal_where` asks for it."""
        return lambda table, seat, _legal: self._why_not(table, seat, what)

    def _legal(self, interaction: discord.Interaction, keep: Any, what: str
               ) -> tuple[LiveTable, int, list[Any]]:
        """Like `legal_where`, but every refusal (even with no move at all) says why in this
        game's words (accused, still choosing rules, …)."""
        return self.legal_where(interaction, keep, self._reason(what), turn_first=False)

    def _one(self, interaction: discord.Interaction, kind: type, what: str
             ) -> tuple[LiveTable, Any]:
        table, _seat, legal = self._legal(interaction, lambda a: isinstance(a, kind), what)
        return table, next(a for a in legal if isinstance(a, kind))

    # ---- play -----------------------------------------------------------------------------
    @app_commands.command(name="play", description="Play a card, optionally saying something "
                          "with it.")
    @app_commands.describe(card="The card (suggestions show your hand).",
                           ace_as="For an ace: does it count 1 or 11?",
                           say="What you say with the card (rules may demand words).")
    @app_commands.choices(ace_as=[app_commands.Choice(name="1", value=1),
                                  app_commands.Choice(name="11", value=11)])
    async def play(self, interaction: discord.Interaction, card: str,
                   ace_as: app_commands.Choice[int] | None = None,
                   say: app_commands.Range[str, 0, SAY_MAX] | None = None) -> None:
        table, _seat, legal = self._legal(interaction, _is_play, "play")
        refuse_notes(card)
        if _CHOICE_RE.match(card.strip()):
            table, chosen = self.choose_action(interaction, card.strip(), _is_card_entry,
                                               _card_label)
            played = chosen.card
        else:
            try:
                played = Card.parse(card)
            except (GameError, ValueError):
                raise TableError(f"{echo(card)} isn't a card. Pick one of the suggestions (or type "
                                 "it like `7h`, `qs` or `ace of spades`).") from None
            if not any(_is_play(a) and a.card == played for a in legal):
                raise TableError(f"You don't have {played} in your hand.")
        value = ace_as.value if ace_as is not None else None
        if played.rank == 1:
            if value not in (1, 11):
                raise TableError(f"Your {played} counts 1 or 11: choose `ace_as` and play "
                                 "again.")
            action = Play(played, value, said(say))
        else:
            action = Play(played, 0, said(say))
        await self.perform(interaction, table, action)

    @play.autocomplete("card")
    @explained()
    async def _play_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self.autocomplete_actions(interaction, current, _is_card_entry,
                                               _card_label, why_not=self._reason("play"),
                                               turn_first=False)

    # ---- enforce --------------------------------------------------------------------------
    def _holder_label(self, seat: int | None):
        def label(table: LiveTable, action: Any) -> str:
            if action.holder == QUIET:
                return "Unnecessary talking (a part nobody's rule asked for)"
            name = table.plain_names[action.holder]
            return f"Your own rule ({name})" if action.holder == seat else f"{name}'s rule"
        return label

    def _accused_choice(self, table: LiveTable) -> tuple[int, str] | None:
        window = self._view(table).get("window")
        if window is None:
            return None
        return window["seat"], (f"{table.plain_names[window['seat']]} — {window['card']} (total "
                                f"{_num(window['total'])})")

    @app_commands.command(name="enforce", description="Say the last card broke a secret rule "
                          "(yours or someone else's).")
    @app_commands.describe(player="Who played the card (only the last card can be enforced "
                           "against).", holder="Whose rule was broken (yours or another "
                           "player's).", hint="Tell them what went wrong (more specific than "
                           "“you broke a rule”).")
    async def enforce(self, interaction: discord.Interaction, player: str, holder: str,
                      hint: app_commands.Range[str, 1, 200]) -> None:
        table, seat, _legal = self._legal(interaction, _is_enforce, "enforce")
        refuse_notes(player, holder)
        accused = self._accused_choice(table)
        assert accused is not None  # an Enforce is legal only with an open window
        accused_seat, accused_label = accused
        wanted = player.strip()
        named = table.plain_names[accused_seat].lower()
        if _CHOICE_RE.match(wanted):
            version, _, who = wanted.partition(".")
            ok = fresh_choice(table, int(version)) and int(who) == accused_seat
        else:
            low = wanted.lower()
            ok = bool(low) and (low in (named, accused_label.lower()) or low in named)
        if not ok:
            raise TableError(f"You can only enforce against the last card played: "
                             f"{escape_markdown(accused_label)}.")
        table, action = self.choose_action(interaction, holder, _is_enforce,
                                           self._holder_label(seat))
        if not hint.strip():
            raise TableError("Give a hint: tell them what went wrong.")
        await self.perform(interaction, table, dataclasses.replace(action, hint=said(hint)))

    @enforce.autocomplete("player")
    @explained()
    async def _player_autocomplete(self, interaction: discord.Interaction, current: str):
        table, _seat, _legal = self._legal(interaction, _is_enforce, "enforce")
        accused = self._accused_choice(table)
        assert accused is not None  # an Enforce is legal only with an open window
        seat, label = accused
        if current.strip() and current.strip().lower() not in label.lower():
            return []
        return [app_commands.Choice(name=plain(label, OPTION_LIMIT), value=f"{table.version}.{seat}")]

    @enforce.autocomplete("holder")
    @explained()
    async def _holder_autocomplete(self, interaction: discord.Interaction, current: str):
        table = self.bot.tables.in_channel(interaction.channel_id)
        seat = table.seat_of(interaction.user.id) if table is not None else None
        return await self.autocomplete_actions(interaction, current, _is_enforce,
                                               self._holder_label(seat),
                                               why_not=self._reason("enforce"),
                                               turn_first=False)

    # ---- choosing the rule ----------------------------------------------------------------
    @app_commands.command(name="keep", description="Choose your secret rule: keep one dealt "
                          "trigger and one dealt action.")
    @app_commands.describe(trigger="The trigger to keep (when…).",
                           action="The action to keep (…you must).")
    async def keep(self, interaction: discord.Interaction, trigger: str, action: str) -> None:
        table, seat = self._choosing(interaction)
        refuse_notes(trigger, action)
        mine = table.engine.view(table.state, seat)["dealt"]
        t = self._dealt_id(mine["triggers"], trigger, "trigger")
        a = self._dealt_id(mine["actions"], action, "action")
        await self.perform(interaction, table, Keep(t, a))

    def _choosing(self, interaction: discord.Interaction) -> tuple[LiveTable, int]:
        """The table and seat of a player who may still keep a rule, or why not."""
        table, seat, legal = self.legal_for(interaction)
        if not any(isinstance(a, Keep) for a in legal):
            raise TableError("You have already chosen your rule." if
                             self._view(table)["phase"] == "choose" else
                             "Rules are chosen at the start of the game only.")
        return table, seat

    @staticmethod
    def _dealt_id(cards: list[dict[str, Any]], value: str, what: str) -> int:
        wanted = value.strip().lower()
        for card in cards:
            if wanted in (str(card["id"]), card["label"].lower(), card["label"][:3].lower()):
                return card["id"]
        matches = [c for c in cards if wanted and wanted in c["label"].lower()]
        if len(matches) == 1:
            return matches[0]["id"]
        raise TableError(f"{echo(value)} isn't one of the {what}s you were dealt. Pick one of the "
                         "suggestions.")

    async def _dealt_autocomplete(self, interaction: discord.Interaction, current: str,
                                  key: str) -> list[app_commands.Choice[str]]:
        table, seat = self._choosing(interaction)
        needle = current.strip().lower()
        cards = table.engine.view(table.state, seat)["dealt"][key]
        return [app_commands.Choice(name=plain(c["label"], OPTION_LIMIT), value=str(c["id"]))
                for c in cards if not needle or needle in c["label"].lower()]

    @keep.autocomplete("trigger")
    @explained()
    async def _trigger_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._dealt_autocomplete(interaction, current, "triggers")

    @keep.autocomplete("action")
    @explained()
    async def _action_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._dealt_autocomplete(interaction, current, "actions")

    # ---- one-click moves ------------------------------------------------------------------
    @app_commands.command(name="pass", description="Let the last play stand (you won't "
                          "enforce against it).")
    async def pass_(self, interaction: discord.Interaction) -> None:
        table, action = self._one(interaction, Pass, "pass")
        await self.perform(interaction, table, action)

    @app_commands.command(name="next", description="Start the next trick (the taker, or the "
                          "starter of a discarded trick).")
    async def next_(self, interaction: discord.Interaction) -> None:
        table, action = self._one(interaction, StartTrick, "next")
        await self.perform(interaction, table, action)

    @app_commands.command(name="accept", description="Accused: take the card back and lose 1 "
                          "point.")
    async def accept(self, interaction: discord.Interaction) -> None:
        table, action = self._one(interaction, Accept, "accept")
        await self.perform(interaction, table, action)

    @app_commands.command(name="challenge", description="Accused: the bot checks the rule and "
                          "shows it to you; whoever is wrong pays.")
    async def challenge(self, interaction: discord.Interaction) -> None:
        table, action = self._one(interaction, Challenge, "challenge")
        await self.perform(interaction, table, action)


async def setup(bot) -> None:
    await bot.add_cog(HiddenRulesCog(bot))
