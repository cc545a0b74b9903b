"""The records charts and the stats card (render/charts.py): PNGs that are the same bytes for the same data, every
word through the catalogs (drawn in the pseudo-language, each string is catalog words, names or numbers), and a
game's score progression replayed from its move log ending at the engine's final scores."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

import engine
import i18n
from i18n import catalogs, words
from records.figures import Figure, GameStats, Recent, Summary, score_progression
from render import _draw
from render.charts import (
    StatsCard,
    duration,
    figure_text,
    number,
    progression_chart,
    progression_png,
    rating_chart,
    stats_card,
)

HISTORY = [(25.0 + n / 3, 8.3 - n / 5) for n in range(25)]
NAMES = {"1": "Ana", "2": "Bo", "3": "Cyd"}


def card(_: i18n.Words) -> StatsCard:
    stats = GameStats.of(
        Summary("alhambra", 12, 5, 12 * 90.5, 140, 300, 300 * 4000.0),
        [Recent(90, 1, 3000.0, {"longest_wall": 9, "round_points": [10, 30, 60]}), Recent(80, 2, 5000.0, {})],
    )
    labels = {"longest_wall": "Longest wall", "round_points": "Points per scoring round"}
    return StatsCard("Ana", "Club", (("Alhambra", stats, labels),), _("Games"), tuple(HISTORY), _("Rating"))


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_the_same_data_gives_the_same_bytes():
    en = words("en")
    assert stats_card(card(en), "en") == stats_card(card(en), "en")
    assert size(stats_card(card(en), "en"))[0] == 1000
    assert rating_chart("History", HISTORY, "en") == rating_chart("History", HISTORY, "en")
    points = [(0, {"1": 0, "2": 0}), (5, {"1": 3, "2": 1}), (9, {"1": 3, "2": 7})]
    assert size(progression_chart("Scores", points, NAMES, "en")) == (1000, 440)
    assert size(rating_chart("Empty", [], "en"))  # nothing to draw yet: a frame, no error


def test_words_and_numbers():
    en = words("en")
    assert [duration(s, en) for s in (None, 40, 600, 3 * 3600, 3 * 86400)] == ["–", "40 s", "10 min", "3 h", "3 d"]
    seconds = (0.4, 2.6, 59.9, 60, 119, 3 * 3600 + 60, 86400 + 7200)  # cut down, never rounded up (issue 20)
    assert [duration(s, en) for s in seconds] == ["0 s", "2 s", "59 s", "1 min", "1 min", "3 h 1 min", "1 d 2 h"]
    assert (number(2.0), number(-1.25), number(7.456)) == ("2", "−1.2", "7.5")
    assert figure_text("Longest wall", Figure("longest_wall", 6.25, 11.0), en) == (
        "Longest wall: 6.2 on average, best 11"
    )
    assert figure_text("Points per scoring round", Figure("r", per_round=(8.0, 21.5)), en) == (
        "Points per scoring round: 8 · 21.5"
    )


@pytest.fixture
def pseudo():
    i18n.install(i18n.PSEUDO, catalogs.pseudo(catalogs.code_entries()[0]))
    try:
        yield i18n.PSEUDO
    finally:
        i18n.uninstall(i18n.PSEUDO)


def test_every_word_drawn_comes_from_the_catalogs(pseudo):
    _ = words(pseudo)
    given = {"Ana", "Bo", "Cyd", "Club", "Alhambra", "Scores", "Longest wall", "Points per scoring round"}
    with _draw.recording() as drawn:
        stats_card(card(_), pseudo)
        progression_chart("Scores", [(0, {"1": 0}), (4, {"1": 5})], NAMES, pseudo)
    for s in drawn:
        rest = s
        while re.search(r"⟦[^⟦⟧]*⟧", rest):  # catalog words, nested or not
            rest = re.sub(r"⟦[^⟦⟧]*⟧", "", rest)
        rest = re.sub(r"⟦.*", "", rest)  # shortened with '…' to fit: its closing ⟧ may be gone
        for name in given:
            rest = rest.replace(name, "")
        assert not re.search(r"[A-Za-zμσ]{2,}", rest), (s, rest)


@pytest.mark.parametrize(("game", "n"), [("gardens", 2), ("queens_garden", 2), ("alhambra", 3)])
def test_the_score_progression_ends_at_the_final_scores(game, n):
    rules = engine.get_rules(game)
    players = [str(i) for i in range(1, n + 1)]
    state, log, rnd = rules.new_game(players, {}, 4), [], random.Random(4)
    while not rules.is_over(state):
        p = rules.to_move(state)[0]
        action = rnd.choice(rules.legal_actions(state, p))
        log.append((p, rules.action_to_json(action)))
        state = rules.apply(state, p, action)
    points = score_progression(game, {}, 4, players, log)
    assert points[0][0] == 0 and points[-1] == (len(log), rules.scores(state))
    assert [m for m, _s in points] == sorted({m for m, _s in points})
    assert progression_png(game, {}, 4, players, log, {p: p for p in players}, "t", "en").startswith(b"\x89PNG")
