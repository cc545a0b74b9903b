"""Board images: every game × smallest/largest player count × phase renders to a PNG that decodes with sane
dimensions and size; rendering is deterministic; public images only depend on the public view (leak tests);
names, private views, previews and the placeholder for a game without a renderer (a game without one gets the
placeholder in every test; what only a real board can show is skipped, saying so). Each game's hidden
information and highlight come from its profile (tests/games.py); each game's own marks are in test_marks.py."""

from __future__ import annotations

import functools
import io
from pathlib import Path

import pytest
from PIL import Image

import render
from engine import get_rules
from render import render_png
from scripts.gallery import mid_state, names_for, playthrough
from tests.conftest import property_games
from tests.games import has_renderer, names, profile, rules_of

MAX_BYTES = 400 * 1024


@functools.cache
def game_states(game: str, n: int, seed: int = 1) -> tuple:
    """(start, mid-game, end) states of one seeded random game."""
    states = playthrough(game, n, seed)
    return states[0], mid_state(states, 0.5), states[-1]


def sizes(game: str) -> list[int]:
    counts = rules_of(game).player_counts
    return sorted({counts[0], counts[-1]})


PHASES = ("start", "mid", "end")
CASES = [(g, n, phase) for g in names() for n in sizes(g) for phase in range(3)]


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def check_image(png: bytes, min_w: int = 900) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    img = decode(png)
    assert img.format == "PNG"
    w, h = img.size
    assert min_w <= w <= 1700, f"width {w}"
    assert 200 <= h <= 4000, f"height {h}"
    assert len(png) <= MAX_BYTES, f"{len(png)} bytes"
    return img


def check_placeholder(png: bytes) -> Image.Image:
    """The small readable image a game without a renderer gets."""
    img = decode(png)
    assert img.format == "PNG" and img.size[0] >= 600 and len(png) < 50_000
    return img


def check_game_image(game: str, png: bytes, min_w: int = 900) -> Image.Image:
    """A board image of the game, or the placeholder if it has no renderer."""
    return check_image(png, min_w) if has_renderer(game) else check_placeholder(png)


def needs_renderer(game: str, why: str) -> None:
    if not has_renderer(game):
        pytest.skip(f"{game} has no renderer: {why}")


@pytest.mark.parametrize(("game", "n", "phase"), CASES, ids=[f"{g}-{n}p-{PHASES[p]}" for g, n, p in CASES])
def test_public_image_renders_and_decodes(game, n, phase):
    """Every game at its smallest and largest player count, at the start, mid-game and at the end."""
    rules = get_rules(game)
    state = game_states(game, n)[phase]
    check_game_image(game, render_png(game, rules.view(state, None), names=names_for(n)))


def test_private_image_renders_for_every_player(game):
    """A private image (viewer set, given that player's view) renders for each seat."""
    rules = get_rules(game)
    n = sizes(game)[-1]
    state = game_states(game, n)[1]
    for p in state.players:
        check_game_image(game, render_png(game, rules.view(state, p), viewer=p))


def test_rendering_is_deterministic(game):
    """The same view gives the same bytes."""
    rules = get_rules(game)
    state = game_states(game, sizes(game)[-1])[1]
    view = rules.view(state, None)
    assert render_png(game, view) == render_png(game, view)


def test_names_are_used_and_optional(game):
    """Display names change the picture; without them the image still renders ("Player N")."""
    needs_renderer(game, "the placeholder shows no names")
    rules = get_rules(game)
    state = game_states(game, 2)[1]
    view = rules.view(state, None)
    plain = render_png(game, view)
    named = render_png(game, view, names={state.players[0]: "Zoë the Builder"})
    assert plain != named
    check_image(plain)


def test_focus_preview_renders(game):
    """The small preview image of the viewer's own board (the bot's preview before commit)."""
    rules = get_rules(game)
    state = game_states(game, sizes(game)[-1])[1]
    p = state.players[0]
    png = render_png(game, rules.view(state, p), viewer=p, focus=True)
    if not has_renderer(game):
        check_placeholder(png)
        return
    img = decode(png)
    assert 400 <= img.size[0] <= 1200 and img.size[1] >= 200


def test_highlight_marks_a_tentative_placement(game):
    """A highlight argument (the game's profile names one) changes the image (the preview marks the new piece)."""
    needs_renderer(game, "the placeholder marks nothing")
    where = profile(game).highlight
    if where is None:
        pytest.skip(f"{game}'s profile names no highlight")
    rules = get_rules(game)
    state = game_states(game, 2)[1]
    view = rules.view(state, state.players[0])
    plain = render_png(game, view, viewer=state.players[0])
    marked = render_png(game, view, viewer=state.players[0], highlight=where)
    assert plain != marked


# --------------------------------------------------------------------------------------------- leaks


def test_public_image_does_not_leak_hidden_information(game):
    """Two states differing only in hidden information (the `variant` of the profile's `hidden`) give byte-identical
    public images (and the hidden change is real: the owner's private image differs where there is a private
    hand)."""
    hidden = profile(game).hidden
    if hidden is None:
        pytest.skip(f"{game} hides nothing (its profile has no `hidden`)")
    rules = get_rules(game)
    state = game_states(game, 2)[1]
    other = hidden.variant(state)
    assert other != state
    a = render_png(game, rules.view(state, None))
    b = render_png(game, rules.view(other, None))
    assert a == b
    p = state.players[1]
    assert render_png(game, rules.view(state, p), viewer=p) == render_png(game, rules.view(other, p), viewer=p)
    if hidden.private_view and has_renderer(game):  # a private hand: its owner sees the change
        p = state.players[0]
        assert render_png(game, rules.view(state, p), viewer=p) != render_png(game, rules.view(other, p), viewer=p)


# --------------------------------------------------------------------------------------------- random runs


def test_random_games_render_at_every_stage(game):
    """Property run: random games (PROPERTY_GAMES per player count) render every few moves, public and private."""
    rules = get_rules(game)
    for n in rules.player_counts:
        for seed in range(property_games(1)):
            states = playthrough(game, n, 1000 + seed)
            step = max(1, len(states) // 6)
            for state in states[::step] + [states[-1]]:
                check_game_image(game, render_png(game, rules.view(state, None)))
                p = state.players[seed % n]
                decode(render_png(game, rules.view(state, p), viewer=p))


# --------------------------------------------------------------------------------------------- plumbing


def test_unknown_game_is_refused():
    with pytest.raises(ValueError):
        render_png("chess", None)


def test_placeholder_for_a_game_without_renderer(monkeypatch):
    """A game whose renderer (or engine) is missing gets a small readable placeholder PNG."""
    monkeypatch.setattr(render, "_module", lambda game: None)
    png = render_png("alhambra", object())
    img = decode(png)
    assert img.size[0] >= 600 and len(png) < 50_000


def test_fonts_are_bundled_and_never_read_from_the_system():
    """The renderer reads its fonts from data/fonts (with their licence), never from /usr/share."""
    root = Path(render.__file__).resolve().parent
    fonts = root.parent / "data" / "fonts"
    assert (fonts / "DejaVuSans.ttf").is_file() and (fonts / "DejaVuSans-Bold.ttf").is_file()
    assert "Bitstream" in (fonts / "LICENSE").read_text(encoding="utf-8")
    for src in root.glob("*.py"):
        assert "/usr/share" not in src.read_text(encoding="utf-8"), src.name
