"""Play a whole game of each game against the fake Discord and print what people saw.

    python -m scripts.sample_transcript [--games all] [--players 3] [--seed 1]

Every seat is a human clicking through **Take my turn** (random legal choices); games are
kept short with their own options. The README's sample transcripts come from this script,
so they show the bot as it really is: the channel at the end (the lobby note linking the
game's thread, Discord's "started a thread" line, the result with **Play again**), the
game's thread at the end (the final board), the whole game as the board's **History**
button shows it, and the first player's one living DM.
"""

from __future__ import annotations

import argparse
import asyncio

from scripts.table_report import COMMANDS, play

SHORT = {  # whole games, kept short by each game's own options
    "suspense": "points_target=2",
    "suit_taboo": "max_turns_per_round=60 max_rounds=3",
    "hidden_rules": "target=1 max_turns=50",
    "taboo": "max_turns=24",
    "six_suit": "max_rounds=4 free_time_rounds=1",
}


async def main(games: list[str], players: int, seed: int) -> None:
    for game in games:
        n = min(players, 3) if game == "suspense" else players
        _report, text = await play(game, n, seed, options=SHORT[game], transcript=True)
        print(f"\n########## {game} ({n} players, options: {SHORT[game]}) ##########")
        print(text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="all", help="comma-separated engine names")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    chosen = list(COMMANDS) if args.games == "all" else args.games.split(",")
    asyncio.run(main(chosen, args.players, args.seed))
