"""A game's thread is named after the game and its players (bot.threads.thread_name):
Discord takes 1–100 characters (resources/channel.mdx, Start Thread from Message) and shows
the name raw, so names keep their markdown characters and a long table is clipped."""

from __future__ import annotations

from types import SimpleNamespace

from bot.threads import NAME_LIMIT, thread_name


def table(*names: str) -> SimpleNamespace:
    return SimpleNamespace(seats=[{"name": n} for n in names],
                           ui=SimpleNamespace(emoji="🧮"),
                           engine=SimpleNamespace(title="Taboo"))


def test_the_name_is_the_game_and_its_players_as_typed():
    assert thread_name(table("a_b", "*c*", "🤖 Ada")) == "🧮 Taboo: a_b, *c*, 🤖 Ada"


def test_a_long_table_is_clipped_to_discords_limit():
    name = thread_name(table(*(f"player-{'x' * 30}-{i}" for i in range(12))))
    assert 1 <= len(name) <= NAME_LIMIT == 100 and name.endswith("…")
    assert "\n" not in thread_name(table("two\nlines"))
