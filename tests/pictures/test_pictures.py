"""Pictures checked structurally: size, cards that differ from their neighbours, backs for
hidden cards, and the image leak scan — a picture must not change when only cards hidden
from its viewer change (the state re-dealt by `engine.determinize` for that viewer)."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from PIL import Image, ImageChops

from bot.pictures import cards
from bot.pictures.fonts import drawable
from engines import ENGINES
from tests.pictures.games import GAMES, names_for, played_state


def _image(picture) -> Image.Image:
    assert picture.data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(picture.data))
    image.load()
    return image.convert("RGB")


@pytest.mark.parametrize("game", GAMES)
def test_pictures_have_a_sensible_size_and_alt_text(game):
    ui, engine = GAMES[game], ENGINES[game]
    for n in (engine.min_players, engine.max_players):
        state = played_state(game, n)
        names = names_for(n)
        board = ui.board_picture(engine.view(state, None), names)
        hand = ui.hand_picture(engine.view(state, 0), names, 0)
        for picture in (board, hand):
            image = _image(picture)
            assert 300 <= image.width <= 1400 and 150 <= image.height <= 2000, image.size
            assert len(picture.data) < 150_000
            assert 10 < len(picture.description) <= 1024
            assert picture.filename.endswith(".png")


@pytest.mark.parametrize("game", GAMES)
def test_pictures_do_not_depend_on_cards_hidden_from_the_viewer(game):
    """The image leak scan: re-deal every card a viewer cannot see; the viewer's picture must
    stay byte for byte the same (and the spectator's board too)."""
    ui, engine = GAMES[game], ENGINES[game]
    n = engine.max_players
    state = played_state(game, n)
    names = names_for(n)
    for seat in (0, 1):
        base_hand = ui.hand_picture(engine.view(state, seat), names, seat).data
        base_board = ui.board_picture(engine.view(state, None), names).data
        for k in range(3):
            other = engine.determinize(state, seat, random.Random(k))
            assert ui.hand_picture(engine.view(other, seat), names, seat).data == base_hand
            assert ui.board_picture(engine.view(other, None), names).data == base_board


@pytest.mark.parametrize("game", GAMES)
def test_a_private_picture_shows_what_only_its_seat_sees(game):
    """The same table drawn for two seats gives two different hand pictures (the leak scan
    above has teeth: a seat's hidden cards do change the picture of the one who sees them)."""
    ui, engine = GAMES[game], ENGINES[game]
    state = played_state(game, engine.max_players)
    names = names_for(engine.max_players)
    mine = ui.hand_picture(engine.view(state, 0), names, 0).data
    theirs = ui.hand_picture(engine.view(state, 1), names, 1).data
    assert mine != theirs


def test_card_sprites_differ_from_their_neighbours_and_backs():
    """Every card face is distinct from the next card's and from a back."""
    back = cards.back(72, 100)
    sprites = [cards.six_suit(c, 72, 100) for c in range(125)]
    sprites += [cards.french(f"{r}{s}", 72, 100) for s in "♠♥♦♣"
                for r in ("A", "2", "10", "J", "Q", "K")]
    def differ(a, b) -> bool:
        return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is not None

    for a, b in itertools.pairwise(sprites):
        assert differ(a, b)
    for sprite in sprites:
        assert differ(sprite, back)


def test_names_are_drawn_with_characters_the_font_has():
    assert drawable("Zoë 🎲 Ünal") == "Zoë Ünal"
    assert drawable("Дмитрий 李") == "Дмитрий"
    assert drawable("🎲🎲", "Seat 3") == "Seat 3"


def test_every_character_the_pictures_write_is_in_the_shipped_font(monkeypatch):
    """The font ships with its licence next to it, and every character any picture writes
    (labels, card words, symbols) is a real glyph of it, not the empty box of a missing one."""
    from bot.pictures import canvas, fonts

    assert fonts.REGULAR.is_file() and fonts.BOLD.is_file()
    assert "Bitstream" in (fonts.ASSETS / "LICENSE-DejaVu.txt").read_text()
    written: set[str] = set("♠♥♦♣★→←·…—×")
    real = canvas.rendered

    def spy(text, size, anchor="lt"):
        written.update(text)
        return real(text, size, anchor)

    monkeypatch.setattr(canvas, "rendered", spy)
    canvas._text_tile.cache_clear()
    for game, ui in GAMES.items():
        engine = ENGINES[game]
        for n in (engine.min_players, engine.max_players):
            for moves in (0, 30, 90):
                state = played_state(game, n, moves=moves)
                ui.board_picture(engine.view(state, None), names_for(n))
                ui.hand_picture(engine.view(state, 0), names_for(n), 0)
    from engines.suspense.rules import CARD_LABELS, condition_text

    for label in CARD_LABELS:  # written on the Suspense card sprites
        written.update(condition_text(label))
    written.update("JOKER WHITE BLACK SPECIAL RED YEL GRN BLU BLK ?")
    missing = sorted(ch for ch in written if not fonts.has_glyph(ch))
    assert not missing, missing
    assert len(written) > 40


def test_six_suit_board_shows_each_top_card_in_its_place():
    """Structural check of a whole board: every pile's region holds that pile's top card
    (the cached sprite laid on the panel), differs from its neighbour when the cards
    differ, and no region shows a card back (no pile is hidden); under a pile that covers
    cards their edges and the count are drawn, under one that covers none only panel."""
    from bot.pictures import theme
    from bot.pictures.canvas import flat
    from cogs.six_suit import pictures as six

    engine = ENGINES["six_suit"]
    state = played_state("six_suit", 12, moves=120)
    view = engine.view(state, None)
    image = _image(GAMES["six_suit"].board_picture(view, names_for(12)))
    grid = six.layout(12)
    assert image.size == (grid.width, grid.height)

    def as_shown(sprite):  # the sprite laid on the panel, in the palette
        return flat(sprite, theme.PANEL).convert("RGB")

    back = as_shown(cards.back(six.CW, six.CH))
    seen = deep = 0
    for k, seat in enumerate(view["seats"]):  # solo game: seats in order
        if not seat["alive"]:
            continue
        boxes = [(*grid.pile_xy(k, p), grid.pile_xy(k, p)[0] + six.CW,
                  grid.pile_xy(k, p)[1] + six.CH) for p in range(6)]
        regions = [image.crop(box) for box in boxes]
        for p, region in enumerate(regions):
            expected = as_shown(six._sprite(seat["piles"][p], six.CW, six.CH))
            body = (0, 0, six.CW, six.CH - 8)  # (a deep pile's corners lie on card edges)
            assert ImageChops.difference(region.crop(body), expected.crop(body)).getbbox() is None
            x0, y0, x1, y1 = boxes[p]
            below = image.crop((x0, y1 + 1, x1, y0 + six.LINE_H))
            drawn = {c for _, c in below.getcolors(1 << 16)} != {theme.PANEL}
            assert drawn == bool(seat["depth"][p]), (k, p, seat["depth"])
            assert ImageChops.difference(region, back).getbbox() is not None
            if p and seat["piles"][p] != seat["piles"][p - 1]:
                assert ImageChops.difference(region, regions[p - 1]).getbbox() is not None
            seen += 1
            deep += bool(seat["depth"][p])
    assert seen >= 6 and deep >= 3


@pytest.mark.parametrize("n", range(2, 13))
def test_six_suit_board_layout_keeps_cards_large_at_phone_size(n):
    """Discord scales an embed's picture to the chat's width (about 400 px on a phone) and
    a tall one to the preview's height: from 9 players on, the board is about square (four
    or three columns of panels with their piles in 3 x 2), so a top card stays at least 26 px
    wide in a 400 x 400 preview (a 12-player board of two long columns showed them at 20).
    Every pile has its own place: none overlaps another, each lies inside its panel, and the
    panels inside the picture and apart."""
    from cogs.six_suit import pictures as six

    grid = six.layout(n)
    assert grid.cols * grid.rows >= n and grid.rows - 1 < -(-n // grid.cols)
    assert grid.width <= 1400 and grid.height <= 2000
    if n >= 9:
        assert 0.8 <= grid.height / grid.width <= 1.4, (grid.width, grid.height)
    assert six.CW * grid.phone_scale((400, 400)) >= 26
    assert six.CW * grid.phone_scale((400, 550)) >= 27
    piles, panels = [], []
    for k in range(n):
        px, py = grid.panel_xy(k)
        panel = (px, py, px + grid.panel_w, py + grid.panel_h)
        assert panel[0] >= 0 and panel[2] <= grid.width and panel[1] >= grid.top_h
        assert panel[3] <= grid.height
        panels.append(panel)
        for p in range(6):
            x, y = grid.pile_xy(k, p)
            box = (x, y, x + six.CW, y + six.LINE_H)
            assert panel[0] < box[0] and box[2] < panel[2] and panel[1] < box[1] < box[3] < panel[3]
            piles.append(box)

    def apart(a, b) -> bool:
        return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]

    for boxes in (piles, panels):
        for a, b in itertools.combinations(boxes, 2):
            assert apart(a, b), (a, b)


def test_six_suit_team_mates_share_a_row_and_ghosts_show():
    """With three teams of four at 12 players each row of the board is one team (team-mates
    are drawn in reading order), and an eliminated player's panel is the dim ghost panel
    with no card in it."""
    from bot.pictures import theme
    from bot.pictures.samples import random_state
    from cogs.six_suit import pictures as six

    engine = ENGINES["six_suit"]
    grid = six.layout(12)
    assert grid.cols == 4
    state = None
    for seed in range(20):
        state = random_state(engine, 12, seed, 200, {"teams": 3})
        if not all(state.alive):
            break
    view = engine.view(state, None)
    image = _image(GAMES["six_suit"].board_picture(view, names_for(12)))
    order = sorted(view["seats"], key=lambda s: (s["team"], s["seat"]))
    for k, seat in enumerate(order):
        assert seat["team"] == k // grid.cols
        x, y = grid.panel_xy(k)
        inside = image.crop((x + 8, y + six.INNER + six.TITLE_H, x + grid.panel_w - 8,
                             y + six.INNER + six.TITLE_H + 2 * six.LINE_H))
        colours = {c for _, c in inside.getcolors(1 << 16)}
        if seat["alive"]:
            assert theme.FACE in colours
        else:
            assert theme.FACE not in colours and theme.PANEL_DIM in colours
    assert not all(s["alive"] for s in order)



@pytest.mark.parametrize("game", [g for g in GAMES if g != "six_suit"])
def test_other_players_hands_are_drawn_as_backs(game):
    """Hands hidden from the viewer show as card backs (with their count) on the board;
    the leak scan above checks no face of them is drawn. (Six Suit's board gives each hand's
    size in words: its piles are all face up.)"""
    from bot.pictures import theme

    ui, engine = GAMES[game], ENGINES[game]
    state = played_state(game, engine.max_players)
    image = _image(ui.board_picture(engine.view(state, None), names_for(engine.max_players)))
    colours = {c for _, c in image.getcolors(1 << 16)}
    assert theme.BACK in colours and theme.BACK_LINE in colours
