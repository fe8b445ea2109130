"""Draw one board and one hand per game into docs/pictures/ for the README.

    python -m scripts.readme_pictures

The pictures come from seeded random play through the engines and the same drawing code the
bot uses (`GameUI.board_picture` / `hand_picture` on `engine.view`), so the README shows the
pictures as they really are. Run it again after changing any picture code.
"""

from __future__ import annotations

from pathlib import Path

from bot.game_ui import registered_uis
from bot.pictures.samples import random_state
from engines import ENGINES

OUT = Path(__file__).resolve().parents[1] / "docs" / "pictures"
NAMES = ["Ada", "Bruno", "Chiara", "Dmitri", "Esi", "Farah", "Gus", "Hana", "Ivo", "Jun",
         "Kemal", "Lena"]
# players and moves for a table worth looking at; Six Suit at its largest (12 seats)
TABLES = {"six_suit": (12, 150, 4), "taboo": (4, 14, 2), "hidden_rules": (4, 9, 2),
          "suspense": (3, 4, 5), "suit_taboo": (4, 40, 3)}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game, ui in registered_uis().items():
        n, moves, seed = TABLES.get(game, (ENGINES[game].min_players, 10, 1))
        engine = ENGINES[game]
        state = random_state(engine, n, seed, moves)
        names = NAMES[:n]
        board = ui.board_picture(engine.view(state, None), names)
        hand = ui.hand_picture(engine.view(state, 0), names, 0)
        for kind, picture in (("board", board), ("hand", hand)):
            if picture is None:
                continue
            path = OUT / f"{game}-{kind}.png"
            path.write_bytes(picture.data)
            print(f"{path.relative_to(OUT.parents[1])}: {len(picture.data) / 1000:.0f} KB")


if __name__ == "__main__":
    main()
