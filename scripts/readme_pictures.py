"""Draw one board and one hand per game into docs/pictures/ for the README.

    python -m scripts.readme_pictures

The pictures come from seeded random play through the engines and the same drawing code the
bot uses (`GameUI.board_picture` / `hand_picture` on `engine.view`), so the README shows the
pictures as they really are. Run it again after changing any picture code.

It also draws the 12-player Six Suit board as a phone shows it before a tap (scaled to fit
400 x 400 px: Discord scales an embed's picture to the chat's width, about 400 px on a phone,
and a tall one to a limited height) and prints, for 4 to 12 players, the board's size and how
large a top card, its number, shape and colour word come out in previews of 400 x 400 and
400 x 550 px: the figures in the README's picture section.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.game_ui import registered_uis
from bot.pictures.samples import random_state
from engines import ENGINES

OUT = Path(__file__).resolve().parents[1] / "docs" / "pictures"
NAMES = ["Ada", "Bruno", "Chiara", "Dmitri", "Esi", "Farah", "Gus", "Hana", "Ivo", "Jun",
         "Kemal", "Lena"]
# players, moves and seed for a table worth looking at; Six Suit at its largest (12 seats,
# three teams of four, two of them ghosts, cards on the discard)
TABLES = {"six_suit": (12, 200, 2), "taboo": (4, 14, 2), "hidden_rules": (4, 9, 2),
          "suspense": (3, 4, 5), "suit_taboo": (4, 40, 3)}
OPTIONS = {"six_suit": {"teams": 3}}
PREVIEWS = ((400, 400), (400, 550))


def preview(data: bytes, box: tuple[int, int]) -> Image.Image:
    """A picture scaled down to fit `box`, as a chat preview shows it."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    scale = min(box[0] / image.width, box[1] / image.height, 1.0)
    return image.resize((round(image.width * scale), round(image.height * scale)),
                        Image.Resampling.LANCZOS)


def six_suit_glyphs() -> dict[str, int]:
    """How many pixel rows a board card's number, shape and colour word take (measured on
    the drawn sprite of a red four square)."""
    from bot.pictures import cards
    from cogs.six_suit.pictures import CH, CW
    from engines.six_suit.cards import card_of

    sprite = cards.six_suit(card_of(3, 0, 3), CW, CH).convert("RGB")

    def rows(box, inked) -> int:
        part = sprite.crop(box)
        return sum(any(inked(part.getpixel((x, y))) for x in range(part.width))
                   for y in range(part.height))

    band = round(CH * 0.65)
    return {"number": rows((5, 5, int(CW * 0.4), band), lambda p: max(p) < 90),
            "shape": rows((int(CW * 0.4), 0, CW - 4, band - 2),
                          lambda p: p[0] > 150 and p[1] < 90),
            "colour word": rows((4, band + 2, CW - 4, CH - 4), lambda p: min(p) > 200)}


def phone_figures() -> None:
    from cogs.six_suit.pictures import CH, CW, layout

    glyphs = six_suit_glyphs()
    print("Six Suit board at a phone's preview size (px):")
    print("players | picture | preview box | scale | top card | " + " | ".join(glyphs))
    for n in (4, 6, 9, 12):
        grid = layout(n)
        for box in PREVIEWS:
            s = grid.phone_scale(box)
            print(f"{n} | {grid.width}x{grid.height} | {box[0]}x{box[1]} | {s:.3f} | "
                  f"{CW * s:.1f}x{CH * s:.1f} | "
                  + " | ".join(f"{v * s:.1f}" for v in glyphs.values()))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game, ui in registered_uis().items():
        n, moves, seed = TABLES.get(game, (ENGINES[game].min_players, 10, 1))
        engine = ENGINES[game]
        state = random_state(engine, n, seed, moves, OPTIONS.get(game))
        names = NAMES[:n]
        board = ui.board_picture(engine.view(state, None), names)
        hand = ui.hand_picture(engine.view(state, 0), names, 0)
        for kind, picture in (("board", board), ("hand", hand)):
            if picture is None:
                continue
            path = OUT / f"{game}-{kind}.png"
            path.write_bytes(picture.data)
            print(f"{path.relative_to(OUT.parents[1])}: {len(picture.data) / 1000:.0f} KB")
        if game == "six_suit":
            path = OUT / "six_suit-board-phone.png"
            preview(board.data, PREVIEWS[0]).quantize(256).save(path, optimize=True)
            print(f"{path.relative_to(OUT.parents[1])}: {path.stat().st_size / 1000:.0f} KB")
    phone_figures()


if __name__ == "__main__":
    main()
