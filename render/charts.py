"""Charts and tables of what is kept after a game (records/): a player's rating history, a game's score
progression, the coach's win-chance chart of a reviewed game, and a player's statistics as a table. Pure Pillow, no discord; drawn in the image worker pool.

Every word is in the reader's language: each function takes the language code (`lang`; the functions run in a
worker process, where a code crosses over and a `Words` need not) and draws through `i18n.words(lang)`; names and
game titles come already worded. Lines are told apart by a marker shape and a label at their end as well as by
colour (never by hue alone), with a colour-blind-safe palette (Okabe–Ito).
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from i18n import ENGLISH, Words, words
from records.figures import Figure, GameStats
from render._draw import BG, INK, MUTED, PANEL, PANEL_EDGE, RGB, canvas, encode_png, fit_text, mix, text, text_size

# Okabe–Ito: distinguishable with the common colour-vision deficiencies
SERIES: tuple[RGB, ...] = (
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
    (0, 0, 0),
)
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "star", "circle")
GRID: RGB = (222, 212, 192)
WIDTH = 1000


def number(value: float, digits: int = 1) -> str:
    """A number as the charts and tables print it: a whole number plainly, else with `digits` decimals; a true
    minus sign, never on a zero ("0.0" for −0.04)."""
    if abs(value - round(value)) < 1e-9:
        return str(int(round(value))).replace("-", "−")
    shown = f"{value:.{digits}f}"
    if float(shown) == 0:
        shown = shown.lstrip("-")
    return shown.replace("-", "−")


def duration(seconds: float | None, _: Words = ENGLISH) -> str:
    """A span of time, short, as every post, reply and image shows one (the only such function): "2 d 3 h",
    "3 d", "5 h 12 min", "3 h", "7 min", and seconds below a minute, "40 s", "0 s". Each unit is cut down, never rounded up
    (a 59-second turn is not "1 min"); None (no turns): "–"."""
    if seconds is None:
        return "–"
    whole = max(int(seconds), 0)
    if whole < 60:
        # i18n: a duration below a minute, in seconds, short
        return _("{seconds} s", seconds=whole)
    minutes = whole // 60
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days and hours:
        # i18n: a duration in days and hours, short
        return _("{days} d {hours} h", days=days, hours=hours)
    if days:
        # i18n: a duration in whole days, short
        return _("{days} d", days=days)
    if hours and minutes:
        # i18n: a duration in hours and minutes, short
        return _("{hours} h {minutes} min", hours=hours, minutes=minutes)
    if hours:
        # i18n: a duration in whole hours, short
        return _("{hours} h", hours=hours)
    # i18n: a duration in minutes, short
    return _("{minutes} min", minutes=minutes)


def figure_text(label: str, figure: Figure, _: Words) -> str:
    """One of a game's own figures over a player's games, in words: "Longest wall: 6.2 on average, best 11",
    or per scoring round "Points per scoring round: 8 · 21.5 · 40"."""
    name = _.text(label)
    if figure.per_round:
        rounds = " · ".join(number(v) for v in figure.per_round)
        # i18n: a game's figure averaged per scoring round over a player's games, e.g. "Points per scoring round: 8 · 21.5 · 40"
        return _("{figure}: {rounds}", figure=name, rounds=rounds)
    # i18n: a game's figure over a player's games, e.g. "Longest wall: 6.2 on average, best 11"
    return _(
        "{figure}: {average} on average, best {best}",
        figure=name,
        average=number(figure.average or 0.0),
        best=number(figure.best or 0.0),
    )


# --------------------------------------------------------------------------------------------- line charts


@dataclasses.dataclass(frozen=True, slots=True)
class Series:
    label: str
    points: tuple[tuple[float, float], ...]
    band: tuple[tuple[float, float], ...] = ()  # (low, high) per point: a shaded range around the line


def _ticks(lo: float, hi: float, most: int = 6, *, whole: bool = False) -> list[float]:
    """Round tick values covering [lo, hi] (`whole`: whole numbers only, for counts of games or moves)."""
    span = max(hi - lo, 1e-9)
    raw = max(span / max(most - 1, 1), 1.0 if whole else 0.0)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(lo / step) * step
    out = []
    v = first
    while v <= hi + step * 0.5:
        out.append(round(v, 10))
        v += step
    return out


def _taller(img: Image.Image, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """The image so far on a taller canvas."""
    bigger, d = canvas(img.width, height)
    bigger.paste(img, (0, 0))
    return bigger, d


def _marker(d: ImageDraw.ImageDraw, kind: str, x: float, y: float, colour: RGB, r: float = 5) -> None:
    if kind == "square":
        d.rectangle((x - r, y - r, x + r, y + r), fill=colour)
    elif kind == "triangle":
        d.polygon([(x, y - r - 1), (x - r - 1, y + r), (x + r + 1, y + r)], fill=colour)
    elif kind == "diamond":
        d.polygon([(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)], fill=colour)
    elif kind == "cross":
        d.line((x - r, y - r, x + r, y + r), fill=colour, width=3)
        d.line((x - r, y + r, x + r, y - r), fill=colour, width=3)
    elif kind == "star":
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r + 2 if i % 2 == 0 else (r + 2) / 2.2
            pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
        d.polygon(pts, fill=colour)
    else:
        d.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def line_chart(
    title: str,
    series: Sequence[Series],
    x_label: str,
    y_label: str,
    *,
    step: bool = False,
    note: str = "",
    width: int = WIDTH,
    height: int = 440,
) -> bytes:
    """A titled line chart of `series` (each with its marker shape and end label), PNG. `step`: the value holds
    until the next point (scores that change at moments)."""
    img, d = canvas(width, height)
    shown, size = fit_text(title, width - 40, 22, bold=True)
    text(d, (20, 14), shown, size, bold=True)
    top = 56
    if note:
        text(d, (20, 42), fit_text(note, width - 40, 13)[0], 13, MUTED)
        height += 20
        top += 20
        img, d = _taller(img, height)
    label_w = min(190, max((text_size(s.label, 15, True)[0] for s in series), default=0) + 36)
    left, right, bottom = 70, width - label_w - 20, height - 52
    d.rectangle((left, top, right, bottom), fill=PANEL, outline=PANEL_EDGE)
    xs = [x for s in series for x, _y in s.points]
    ys = [y for s in series for _x, y in s.points] + [v for s in series for b in s.band for v in b]
    if not xs:
        text(d, ((left + right) / 2, (top + bottom) / 2), "–", 20, MUTED, anchor="mm")
        return encode_png(img)
    x0, x1 = min(xs), max(xs)
    if x1 == x0:
        x1 = x0 + 1
    yticks = _ticks(min(ys), max(ys))
    y0, y1 = yticks[0], yticks[-1] if yticks[-1] > yticks[0] else yticks[0] + 1

    def px(x: float) -> float:
        return left + 10 + (x - x0) / (x1 - x0) * (right - left - 20)

    def py(y: float) -> float:
        return bottom - 8 - (y - y0) / (y1 - y0) * (bottom - top - 16)

    for v in yticks:
        d.line((left, py(v), right, py(v)), fill=GRID)
        text(d, (left - 8, py(v)), number(v), 13, MUTED, anchor="rm")
    for v in _ticks(x0, x1, 8, whole=all(float(x).is_integer() for x in xs)):
        if x0 <= v <= x1:
            text(d, (px(v), bottom + 6), number(v), 13, MUTED, anchor="ma")
    text(d, ((left + right) / 2, height - 24), x_label, 14, MUTED, anchor="ma")
    text(d, (14, top - 18), y_label, 14, MUTED)
    ends: list[tuple[float, str, RGB, str]] = []
    for n, s in enumerate(series):
        colour, marker = SERIES[n % len(SERIES)], MARKERS[n % len(MARKERS)]
        if s.band:
            upper = [(px(x), py(hi)) for (x, _y), (_lo, hi) in zip(s.points, s.band, strict=True)]
            lower = [(px(x), py(lo)) for (x, _y), (lo, _hi) in zip(s.points, s.band, strict=True)]
            if len(upper) > 1:
                d.polygon(upper + lower[::-1], fill=mix(colour, PANEL, 0.82))
        line: list[tuple[float, float]] = []
        for i, (x, y) in enumerate(s.points):
            if step and i:
                line.append((px(x), line[-1][1]))
            line.append((px(x), py(y)))
        if len(line) > 1:
            d.line(line, fill=colour, width=3, joint="curve")
        every = max(1, len(s.points) // 24)  # markers on at most ~24 points of a long line
        for i, (x, y) in enumerate(s.points):
            if i % every == 0 or i == len(s.points) - 1:
                _marker(d, marker, px(x), py(y), colour)
        ends.append((py(s.points[-1][1]), s.label, colour, marker))
    _end_labels(d, ends, right + 12, top, bottom, width - right - 24)
    return encode_png(img, SERIES)


def _end_labels(
    d: ImageDraw.ImageDraw, ends: list[tuple[float, str, RGB, str]], x: float, top: float, bottom: float, w: float
) -> None:
    """Each line's name at the height where it ends, pushed apart so that none overlaps another."""
    gap = 22
    placed: list[float] = []
    for y, _label, _c, _m in sorted(ends):
        y = max(y, top + 8, (placed[-1] + gap) if placed else -math.inf)
        placed.append(y)
    overflow = (placed[-1] - (bottom - 8)) if placed else 0
    if overflow > 0:
        placed = [max(top + 8, y - overflow) for y in placed]
    for y, (_y, label, colour, marker) in zip(placed, sorted(ends), strict=True):
        _marker(d, marker, x + 6, y, colour)
        shown, size = fit_text(label, int(w) - 20, 15, bold=True)
        text(d, (x + 18, y), shown, size, colour if colour != (0, 0, 0) else INK, bold=True, anchor="lm")


def rating_chart(title: str, history: Sequence[tuple[float, float]], lang: str) -> bytes:
    """A player's rating after each of their rated games: the shown value μ − 3σ as the line, the range up to μ
    shaded (it narrows as the games make the rating surer). `history`: (μ, σ) per game, oldest first."""
    _ = words(lang)
    points = tuple((float(n), mu - 3 * sigma) for n, (mu, sigma) in enumerate(history, 1))
    band = tuple((mu - 3 * sigma, mu) for mu, sigma in history)
    # i18n: the line of a rating history chart (the conservative value shown on leaderboards)
    series = [Series(_("Rating"), points, band)]
    # i18n: the note under a rating history chart: what its shaded band means
    note = _("Shaded: up to μ, the rating's best guess; the band narrows as the rating gets surer.")
    # i18n: the x axis of a rating history chart: the player's rated games, 1, 2, 3...
    return line_chart(title, series, _("Rated games"), _("Rating (μ − 3σ)"), note=note)


def progression_chart(
    title: str, points: Sequence[tuple[int, Mapping[str, int]]], names: Mapping[str, str], lang: str
) -> bytes:
    """Everyone's score over a game: (move number, scores) whenever a score changed (records.figures
    `score_progression`), a line per player (in seat order, `names`), holding its value between changes."""
    _ = words(lang)
    series = [
        Series(name, tuple((float(move), float(scores.get(p, 0))) for move, scores in points))
        for p, name in names.items()
    ]
    # i18n: the axes of the score progression chart of a finished game
    return line_chart(title, series, _("Moves"), _("Score"), step=True)


def chance_chart(
    title: str, chances: Mapping[str, Sequence[tuple[int, float]]], names: Mapping[str, str], lang: str
) -> bytes:
    """The coach's review (ai/coach.py): each player's estimated chance to win, in percent, at each of their own
    moves (move number, chance in [0, 1]), judged from what that player could see then; a line per player in
    seat order (`names`), holding between their moves."""
    _ = words(lang)
    series = [Series(name, tuple((float(n), 100 * c) for n, c in chances.get(p, ()))) for p, name in names.items()]
    # i18n: the note under the review's win-chance chart
    note = _("Each player's chance as the AI saw it at their own moves, from what they could see then.")
    # i18n: the axes of the review's win-chance chart
    return line_chart(title, series, _("Moves"), _("Chance to win (%)"), step=True, note=note)


# --------------------------------------------------------------------------------------------- stats table


@dataclasses.dataclass(frozen=True, slots=True)
class StatsCard:
    """What the /stats image shows: the player, each kind of game's statistics (with its title and the
    labels of its own figures, N_-marked), and the rating history of one of them."""

    name: str
    server: str
    games: tuple[tuple[str, GameStats, Mapping[str, str]], ...]
    rating: str = ""  # "Rating 21.4 (#3 of 17)" already worded, or ""
    history: tuple[tuple[float, float], ...] = ()
    history_title: str = ""


def stats_card(card: StatsCard, lang: str) -> bytes:
    """The statistics table (a row per kind of game, the game's own figures under it) and, below, the rating
    history chart of the first game, as one PNG."""
    _ = words(lang)
    heads = [
        _("Games"),
        _("Wins"),
        _("Win rate"),
        _("Avg score"),
        _("Best"),
        # i18n: column heads of the statistics table: the average and median time a player took per turn
        _("Avg turn"),
        _("Median turn"),
    ]
    cell_w = max(86, max(text_size(h, 14, True)[0] for h in heads) + 14)
    first_w, title_h, row_h = WIDTH - 30 - cell_w * len(heads), 30, 32
    figure_lines = sum(len(stats.figures) for _t, stats, _l in card.games)
    height = 96 + 34 + (title_h + row_h) * len(card.games) + 24 * figure_lines + 24
    img, d = canvas(WIDTH, height)
    title, size = fit_text(card.name, WIDTH - 40, 24, bold=True)
    text(d, (20, 14), title, size, bold=True)
    sub = " · ".join(x for x in (card.server, card.rating) if x)
    text(d, (20, 48), fit_text(sub, WIDTH - 40, 15)[0], 15, MUTED)
    y = 84
    d.rectangle((14, y, WIDTH - 14, height - 12), fill=PANEL, outline=PANEL_EDGE)
    for i, head in enumerate(heads):
        shown, s = fit_text(head, cell_w - 8, 14, bold=True)
        text(d, (first_w + cell_w * i + cell_w - 6, y + 10), shown, s, MUTED, bold=True, anchor="ra")
    y += 34
    for n, (game_title, stats, labels) in enumerate(card.games):
        d.line((20, y, WIDTH - 20, y), fill=GRID)
        colour = SERIES[n % len(SERIES)]
        shown, s = fit_text(game_title, WIDTH - 60, 18, bold=True)
        text(d, (26, y + 8), shown, s, colour if colour != (0, 0, 0) else INK, bold=True)
        y += title_h
        cells = [
            str(stats.games),
            str(stats.wins),
            f"{round(stats.win_rate * 100)} %",
            number(stats.average_score),
            str(stats.best_score),
            duration(stats.average_turn, _),
            duration(stats.median_turn, _),
        ]
        for i, cell in enumerate(cells):
            text(d, (first_w + cell_w * i + cell_w - 6, y + 4), cell, 17, anchor="ra")
        y += row_h
        for f in stats.figures:
            line = figure_text(labels.get(f.key, f.key), f, _)
            text(d, (44, y), fit_text(line, WIDTH - 80, 14)[0], 14, MUTED)
            y += 24
    if not card.history:
        return encode_png(img, SERIES)
    chart = rating_chart(card.history_title, card.history, lang)
    below = Image.open(io.BytesIO(chart)).convert("RGB")
    both = Image.new("RGB", (WIDTH, img.height + below.height), BG)
    both.paste(img, (0, 0))
    both.paste(below, (0, img.height))
    return encode_png(both, SERIES)


def progression_png(
    game: str,
    options: Mapping[str, object],
    seed: int,
    players: Sequence[str],
    actions: Sequence[tuple[str, object]],
    names: Mapping[str, str],
    title: str,
    lang: str,
) -> bytes:
    """A finished game's score progression chart from its move log (a job for the image worker pool: the game is
    replayed there, `records.figures.score_progression`)."""
    from records.figures import score_progression

    return progression_chart(title, score_progression(game, options, seed, players, actions), names, lang)


def stats_png(card: StatsCard, lang: str) -> bytes:
    """The /stats image (a job for the image worker pool)."""
    return stats_card(card, lang)
