"""Each game's own marks of the last move on its board image (per-game knowledge, kept out of the shared
test_render.py): Queen's Garden from the last action's move event (it carries the action), Alhambra from the
marks the engine keeps for the whole turn (`marks`), the Gardens from `last_space`."""

from __future__ import annotations

import dataclasses

from engine import get_rules
from render import render_png
from scripts.gallery import names_for, playthrough
from tests.render.test_render import game_states


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
