"""Board images: every game × smallest/largest player count × phase renders to a PNG that decodes with sane
dimensions and size; rendering is deterministic; public images only depend on the public view (leak tests);
names, private views, previews and the placeholder for a game without a renderer."""

from __future__ import annotations

import dataclasses
import functools
import io
from pathlib import Path

import pytest
from PIL import Image

import render
from engine import GAMES, get_rules
from render import render_png
from scripts.gallery import mid_state, names_for, playthrough
from tests.conftest import property_games

MAX_BYTES = 400 * 1024


@functools.cache
def game_states(game: str, n: int, seed: int = 1) -> tuple:
    """(start, mid-game, end) states of one seeded random game."""
    states = playthrough(game, n, seed)
    return states[0], mid_state(states, 0.5), states[-1]


def sizes(game: str) -> list[int]:
    counts = get_rules(game).player_counts
    return sorted({counts[0], counts[-1]})


PHASES = ("start", "mid", "end")
CASES = [(g, n, phase) for g in GAMES for n in sizes(g) for phase in range(3)]


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


@pytest.mark.parametrize(("game", "n", "phase"), CASES, ids=[f"{g}-{n}p-{PHASES[p]}" for g, n, p in CASES])
def test_public_image_renders_and_decodes(game, n, phase):
    """Every game at its smallest and largest player count, at the start, mid-game and at the end."""
    rules = get_rules(game)
    state = game_states(game, n)[phase]
    check_image(render_png(game, rules.view(state, None), names=names_for(n)))


@pytest.mark.parametrize("game", GAMES)
def test_private_image_renders_for_every_player(game):
    """A private image (viewer set, given that player's view) renders for each seat."""
    rules = get_rules(game)
    n = sizes(game)[-1]
    state = game_states(game, n)[1]
    for p in state.players:
        check_image(render_png(game, rules.view(state, p), viewer=p))


@pytest.mark.parametrize("game", GAMES)
def test_rendering_is_deterministic(game):
    """The same view gives the same bytes."""
    rules = get_rules(game)
    state = game_states(game, sizes(game)[-1])[1]
    view = rules.view(state, None)
    assert render_png(game, view) == render_png(game, view)


@pytest.mark.parametrize("game", GAMES)
def test_names_are_used_and_optional(game):
    """Display names change the picture; without them the image still renders ("Player N")."""
    rules = get_rules(game)
    state = game_states(game, 2)[1]
    view = rules.view(state, None)
    plain = render_png(game, view)
    named = render_png(game, view, names={state.players[0]: "Zoë the Builder"})
    assert plain != named
    check_image(plain)


@pytest.mark.parametrize("game", GAMES)
def test_focus_preview_renders(game):
    """The small preview image of the viewer's own board (the bot's preview before commit)."""
    rules = get_rules(game)
    state = game_states(game, sizes(game)[-1])[1]
    p = state.players[0]
    png = render_png(game, rules.view(state, p), viewer=p, focus=True)
    img = decode(png)
    assert 400 <= img.size[0] <= 1200 and img.size[1] >= 200


def test_highlight_marks_a_tentative_placement():
    """A highlight argument changes the image (the preview marks the new piece)."""
    cases = {"alhambra": (1, 0), "gardens": "C3", "queens_garden": "M1"}
    for game, where in cases.items():
        rules = get_rules(game)
        state = game_states(game, 2)[1]
        view = rules.view(state, state.players[0])
        plain = render_png(game, view, viewer=state.players[0])
        marked = render_png(game, view, viewer=state.players[0], highlight=where)
        assert plain != marked, game


# --------------------------------------------------------------------------------------------- leaks


def hidden_variant(game: str, state):
    """The same game with different hidden information: other hands, deck/bag/supply order, face-down pieces."""
    if game == "alhambra":
        seat = state.seats[0]
        deck = list(state.deck)
        money = [i for i, c in enumerate(deck) if 0 <= c < 108]
        assert seat.hand and money
        j = money[0]
        hand = tuple(sorted((deck[j], *seat.hand[1:])))
        deck[j] = seat.hand[0]
        seats = (dataclasses.replace(seat, hand=hand), *state.seats[1:])
        return dataclasses.replace(
            state, seats=seats, deck=tuple(reversed(deck)), bag=tuple(reversed(state.bag)), seed=state.seed + 1
        )
    if game == "gardens":
        hands = list(state.hands)
        supply = list(state.supply)
        assert hands[0] and supply
        hands[0], supply[0] = (supply[0], *hands[0][1:]), hands[0][0]
        return dataclasses.replace(state, hands=tuple(hands), supply=tuple(reversed(supply)), seed=state.seed + 1)
    if game == "queens_garden":
        stacks = tuple(tuple(reversed(s)) for s in state.stacks)
        return dataclasses.replace(
            state,
            bag=tuple(reversed(state.bag)),
            supply=tuple(reversed(state.supply)),
            stacks=stacks,
            seed=state.seed + 1,
        )
    raise AssertionError(game)


@pytest.mark.parametrize("game", GAMES)
def test_public_image_does_not_leak_hidden_information(game):
    """Two states differing only in hidden information give byte-identical public images (and the hidden
    change is real: the owner's private image differs where there is a private hand)."""
    rules = get_rules(game)
    state = game_states(game, 2)[1]
    other = hidden_variant(game, state)
    assert other != state
    a = render_png(game, rules.view(state, None))
    b = render_png(game, rules.view(other, None))
    assert a == b
    p = state.players[1]
    assert render_png(game, rules.view(state, p), viewer=p) == render_png(game, rules.view(other, p), viewer=p)
    if game != "queens_garden":  # QG has no private hand: nothing differs for any player
        p = state.players[0]
        assert render_png(game, rules.view(state, p), viewer=p) != render_png(game, rules.view(other, p), viewer=p)


# --------------------------------------------------------------------------------------------- random runs


@pytest.mark.parametrize("game", GAMES)
def test_random_games_render_at_every_stage(game):
    """Property run: random games (PROPERTY_GAMES per player count) render every few moves, public and private."""
    rules = get_rules(game)
    for n in rules.player_counts:
        for seed in range(property_games(1)):
            states = playthrough(game, n, 1000 + seed)
            step = max(1, len(states) // 6)
            for state in states[::step] + [states[-1]]:
                check_image(render_png(game, rules.view(state, None)))
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


def test_last_move_is_highlighted():
    """The last move is marked and printed: Queen's Garden from the last action's move event (it carries the
    action), Alhambra from the marks the engine keeps for the whole turn (`marks`), Gardens from `last_space`."""
    from engine import Event
    from engine.alhambra.state import Marks

    rules = get_rules("queens_garden")
    state = game_states("queens_garden", 2)[1]
    view = rules.view(state, None)
    action = {"kind": "place_tile", "tile": 0, "space": "M1"}
    moved = dataclasses.replace(view, log=(Event("move", "does something", state.players[0], {"action": action}),))
    assert render_png("queens_garden", view) != render_png("queens_garden", moved)
    rules = get_rules("alhambra")
    state = game_states("alhambra", 2)[1]
    view = rules.view(state, None)
    p = state.players[0]
    moved = dataclasses.replace(view, marks=Marks(p, "does something", {p: ((0, 0),)}, {p: (2,)}))
    assert render_png("alhambra", view) != render_png("alhambra", moved)
    rules = get_rules("gardens")
    state = game_states("gardens", 2)[1]
    assert state.last_space is not None
    view = rules.view(state, None)
    assert render_png("gardens", view) != render_png("gardens", dataclasses.replace(view, last_space=None))


def test_last_move_marks_come_from_the_engines_move_events():
    """The engines write a move event per action: after an Alhambra placement the image marks the cell placed
    and the market space the turn bought from some actions earlier (refilled since: the engine keeps the turn's
    marks), and names the move; after a Queen's Garden planting it marks the planted space. The gallery picks
    such a state for its mid-game images."""
    from render import alhambra as RA
    from render import queens_garden as RQ
    from scripts.gallery import showcase_state

    rules = get_rules("alhambra")
    states = playthrough("alhambra", 2, 102)
    state = showcase_state(states)
    view = rules.view(state, None)
    (move,) = [e for e in view.log if e.kind == "move"]  # the log: the last action's events
    assert move.data["action"]["kind"] == "place_tile"
    board = RA.model_from_view(view, None, names_for(2))
    mover = next(p for p in board.players if p.id == move.player)
    assert mover.last_cells == {tuple(move.data["action"]["cell"])}
    assert board.last_move == f"{mover.name} {move.text}"
    turn = []  # this turn's move events, newest first, from the states before
    for earlier in reversed(states[: next(i for i, s in enumerate(states) if s is state) + 1]):
        moved = [e for e in earlier.log if e.kind == "move"]
        if not moved or moved[0].player != mover.id:
            break
        turn += moved
    buy = next(e for e in turn if e.data["action"]["kind"] == "buy_tile")  # this turn's purchase
    assert buy is not move and board.market_last == {buy.data["space"]}

    rules = get_rules("queens_garden")
    state = showcase_state(playthrough("queens_garden", 2, 102))
    view = rules.view(state, None)
    (move,) = [e for e in view.log if e.kind == "move"]
    board = RQ.model_from_view(view, None, None)
    mover = next(p for p in board.players if p.id == move.player)
    assert move.data["action"]["space"] in mover.last_spaces
