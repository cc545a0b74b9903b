"""A tournament's standings as a table image: place, player, points and the tie-breaks (Buchholz for a Swiss
tournament, the game scores), the leader's row marked. Pure Pillow, no discord; drawn in the image worker pool,
its words in the reader's language (`lang`), the names and the title already worded."""

from __future__ import annotations

import dataclasses

from i18n import words
from records.tournaments import Standing
from render._draw import INK, MUTED, PANEL, PANEL_EDGE, canvas, encode_png, fit_text, mix, text, text_size
from render.charts import GRID, SERIES, WIDTH, number

GOLD = (230, 159, 0)


@dataclasses.dataclass(frozen=True, slots=True)
class StandingsCard:
    title: str  # "Spring cup · The Gardens of the Alhambra"
    subtitle: str  # "Swiss · after round 2 of 3"
    rows: tuple[Standing, ...]
    names: dict[str, str]
    buchholz: bool = True  # the Swiss tie-break's column
    dropped: tuple[str, ...] = ()  # players who left (marked, still ranked)


def points_text(value: float) -> str:
    """Points as a club shows them: 3, 2½, 0½ -> "½"."""
    whole, half = int(value), abs(value - int(value)) >= 0.25
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def standings_png(card: StandingsCard, lang: str) -> bytes:
    """The standings table as one PNG."""
    _ = words(lang)
    # i18n: column heads of a tournament's standings image (Buchholz: the Swiss tie-break's usual name)
    heads = [_("Points"), _("Buchholz"), _("Score"), _("Games")]
    if not card.buchholz:
        heads.pop(1)
    cell_w = max(96, max(text_size(h, 14, True)[0] for h in heads) + 16)
    row_h, top = 34, 96
    height = top + 34 + row_h * len(card.rows) + 24
    img, d = canvas(WIDTH, height)
    title, size = fit_text(card.title, WIDTH - 40, 24, bold=True)
    text(d, (20, 14), title, size, bold=True)
    text(d, (20, 50), fit_text(card.subtitle, WIDTH - 40, 15)[0], 15, MUTED)
    d.rectangle((14, top - 12, WIDTH - 14, height - 12), fill=PANEL, outline=PANEL_EDGE)
    first_w = WIDTH - 30 - cell_w * len(heads)
    for i, head in enumerate(heads):
        shown, s = fit_text(head, cell_w - 8, 14, bold=True)
        text(d, (first_w + cell_w * i + cell_w - 6, top - 2), shown, s, MUTED, bold=True, anchor="ra")
    y = top + 22
    place = 0
    previous: tuple[float, float, float] | None = None
    for n, row in enumerate(card.rows):
        key = (row.points, row.buchholz, row.score)
        place = place if key == previous else n + 1  # equal on every tie-break: a shared place
        previous = key
        if place == 1:
            d.rectangle((18, y, WIDTH - 18, y + row_h - 2), fill=mix(PANEL, GOLD, 0.25))
        d.line((20, y, WIDTH - 20, y), fill=GRID)
        text(d, (44, y + 7), f"{place}.", 18, bold=True, anchor="ra")
        name = card.names.get(row.player, row.player)
        # i18n: after a player's name in the standings image: they left the tournament
        shown_name = f"{name} ({_('left')})" if row.player in card.dropped else name
        colour = SERIES[n % len(SERIES)] if n < 3 else None
        shown, s = fit_text(shown_name, first_w - 70, 18, bold=n < 3)
        text(d, (56, y + 7), shown, s, MUTED if row.player in card.dropped else colour or INK, bold=n < 3)
        cells = [points_text(row.points)]
        if card.buchholz:
            cells.append(points_text(row.buchholz))
        cells += [number(row.score, 0), str(row.games + row.byes)]
        for i, cell in enumerate(cells):
            text(d, (first_w + cell_w * i + cell_w - 6, y + 7), cell, 18, bold=i == 0, anchor="ra")
        y += row_h
    return encode_png(img, SERIES)
