"""Colours shared by every picture.

Pictures carry their own opaque background (a dark felt green), so they read the same on
Discord's dark and light themes. Meaning never rests on colour alone: suits and Six Suit
shapes are distinct shapes, colours are also written out, numbers are always printed.
"""

FELT = (22, 70, 52)
PANEL = (30, 88, 66)
PANEL_DIM = (44, 58, 54)  # an eliminated (ghost) player's panel
TEXT = (244, 244, 238)
MUTED = (184, 204, 194)
ACCENT = (255, 206, 84)  # whose move it is
DANGER = (255, 122, 102)
FACE = (252, 250, 242)
INK = (28, 28, 30)
BORDER = (18, 24, 22)
BACK = (40, 62, 128)
BACK_LINE = (92, 120, 190)

# French suits in a four-colour deck (the shape already tells them apart).
SUIT_COLOURS = {"♠": (24, 24, 28), "♥": (200, 30, 45), "♦": (24, 88, 200), "♣": (18, 118, 52)}
# Six Suit's colours, in cards.COLOURS order (red, yellow, green, blue, black = wild).
SIX_COLOURS = ((214, 40, 40), (246, 196, 0), (36, 150, 70), (30, 100, 220), (24, 24, 24))
SIX_COLOUR_WORDS = ("RED", "YEL", "GRN", "BLU", "BLK")
TEAM_COLOURS = ((120, 200, 255), (255, 140, 200), (170, 240, 140), (255, 170, 90),
                (200, 170, 255), (236, 236, 236))  # no yellow: that marks whose move it is
