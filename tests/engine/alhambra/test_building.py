"""Building rules and redesign: A27–A35, A82 (placements, holes, walkability, exchange)."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.alhambra import RULES
from engine.alhambra import actions as move
from engine.alhambra.geometry import alhambra_problem, creates_hole, has_hole, legal_cells, placement_problem
from tests.engine.alhambra.helpers import act, arrange, card, cells, new

OPEN = [
    "pavilion-8-open",
    "seraglio-9-open",
    "arcades-9-open",
    "arcades-10-open",
    "chambers-10-open",
    "chambers-11-open",
    "garden-10-open",
    "garden-11-open",
    "tower-11-open",
    "tower-12-open",
]


def placing(pending, layout=None, reserve=(), n=3):
    """A position where player 0 is placing `pending` at turn end, with `layout` as Alhambra."""
    s = new(n, seed=4)
    return arrange(
        s, alhambras={0: layout or {}}, pending={0: pending}, reserves={0: reserve}, current=0, phase="place"
    )


def test_A30_A31_2_tiles_are_not_rotated_and_sides_must_match():
    """A30/A31.2: a west wall can't touch the fountain's open east side; the same tile fits west of it."""
    alh = cells({})
    assert "A31.2" in str(placement_problem(alh, "tower-10-W", (1, 0)))
    assert placement_problem(alh, "tower-10-W", (-1, 0)) is None  # its open east side faces the fountain


def test_A31_1_edge_contact_needed():
    """A31.1: a diagonal neighbour is not enough."""
    s = placing(["garden-10-open"])
    with pytest.raises(IllegalAction, match=r"N12.*A31\.1"):
        act(s, move.PlaceTile("garden-10-open", (1, -1)))
    t = act(s, move.PlaceTile("garden-10-open", (1, 0)))
    assert t.seats[0].alhambra[(1, 0)] == "garden-10-open"


def test_A31_2_both_walled_is_fine():
    """A31.2: two walls back to back match (the tile is reached through another open side)."""
    alh = cells({"N13": "pavilion-7-E", "M14": "garden-10-open", "N14": "garden-11-open"})
    assert placement_problem(alh, "tower-10-W", (2, 0)) is not None  # no open side to walk in yet
    alh = cells({"N13": "pavilion-7-E", "M14": "garden-10-open", "N14": "garden-11-open", "O14": "tower-11-open"})
    assert placement_problem(alh, "tower-10-W", (2, 0)) is None


def test_A31_3_walkability():
    """A31.3: a tile touching only through walls can't be reached on foot."""
    alh = cells({"M12": "pavilion-6-N"})  # wall on its north side
    assert "A31.3" in str(placement_problem(alh, "garden-12-S", (0, -2)))  # south wall meets north wall


def test_A31_4_no_enclosed_cell():
    """A31.4: closing a U around an empty cell is illegal."""
    layout = {"N13": OPEN[0], "O13": OPEN[1], "O14": OPEN[2], "O15": OPEN[3], "N15": OPEN[4], "M15": OPEN[5]}
    s = placing([OPEN[6]], layout)
    with pytest.raises(IllegalAction, match=r"A31\.4"):
        act(s, move.PlaceTile(OPEN[6], (0, 1)))  # M14 would enclose N14
    assert (0, 1) not in legal_cells(s.seats[0].alhambra, OPEN[6])
    assert has_hole({**s.seats[0].alhambra, (0, 1): OPEN[6]})
    act(s, move.PlaceTile(OPEN[6], (1, 1)))  # filling N14 itself is fine


def test_A31_4_diagonal_gap_counts_as_enclosed():
    """A31.4: empty cells that reach the outside only through a diagonal gap are enclosed."""
    layout = {
        "N13": OPEN[0],
        "O13": OPEN[1],
        "O14": OPEN[2],
        "O15": OPEN[3],
        "N15": OPEN[4],
        "M15": OPEN[5],
        "L13": OPEN[6],
    }
    alh = cells(layout)
    assert alhambra_problem(alh) is None
    assert creates_hole(alh, (-1, 1))  # L14: M14/N14 would only see the outside diagonally via L15
    assert has_hole({**alh, (-1, 1): OPEN[7]})
    assert "A31.4" in str(placement_problem(alh, OPEN[7], (-1, 1)))


def test_A27_placement_order_is_free_and_reserve_always_possible():
    """A27: a tile placed first can make a later one legal; any tile may go to the reserve (A8: no limit);
    A29: every legal position is offered."""
    s = placing(
        ["tower-10-W", "garden-10-open"], {"N13": "pavilion-7-E", "M14": "chambers-10-open", "N14": "garden-11-open"}
    )
    p = s.players[0]
    assert move.PlaceTile("tower-10-W", (2, 0)) not in RULES.legal_actions(s, p)
    offered = {
        a.cell for a in RULES.legal_actions(s, p) if isinstance(a, move.PlaceTile) and a.tile == "garden-10-open"
    }
    everywhere = {
        (x, y)
        for x in range(-4, 5)
        for y in range(-4, 5)
        if placement_problem(s.seats[0].alhambra, "garden-10-open", (x, y)) is None
    }
    assert offered == everywhere and len(offered) == 7
    s = act(s, move.PlaceTile("garden-10-open", (2, 1)))
    assert move.PlaceTile("tower-10-W", (2, 0)) in RULES.legal_actions(s, p)
    assert move.ReserveTile("tower-10-W") in RULES.legal_actions(s, p)
    s = act(s, move.PlaceTile("tower-10-W", (2, 0)))
    assert s.current == 1  # all placed: the turn ended


def test_A27_the_reserve_and_not_dirk_in_a_3_player_game():
    """A27/A61: with three players there is no Dirk to give tiles to; A8: the reserve has no limit."""
    s = placing(
        ["garden-10-open"],
        reserve=[t for t in OPEN if t != "garden-10-open"] + ["tower-13-E", "tower-9-NE", "tower-9-NW"],
    )
    assert move.GiveToDirk("garden-10-open") not in RULES.legal_actions(s, s.players[0])
    with pytest.raises(IllegalAction, match="A61"):
        act(s, move.GiveToDirk("garden-10-open"))
    t = act(s, move.ReserveTile("garden-10-open"))
    assert len(t.seats[0].reserve) == 13 and t.seats[0].reserve[-1] == "garden-10-open"


def redesigning(layout, reserve=()):
    s = new(3, seed=6)
    return arrange(s, alhambras={0: layout}, reserves={0: reserve}, current=0)


def test_A33a_reserve_tile_into_the_alhambra():
    """A33(a): legal when A31 holds; it is the whole action (A34: no further action)."""
    s = redesigning({}, reserve=["garden-10-open", "tower-10-W"])
    t = act(s, move.RedesignAdd("garden-10-open", (0, 1)))
    assert t.seats[0].alhambra[(0, 1)] == "garden-10-open" and t.seats[0].reserve == ("tower-10-W",)
    assert t.current == 1  # A34
    with pytest.raises(IllegalAction, match=r"A33a, A31\.2"):
        act(s, move.RedesignAdd("tower-10-W", (1, 0)))


def test_A33b_remove_to_reserve_legal_and_illegal():
    """A33(b): an end tile may go; a tile others need to be reached may not; nor one that leaves a hole;
    A32: never the fountain."""
    layout = {
        "N13": OPEN[0],
        "O13": OPEN[1],
        "O14": OPEN[2],
        "N14": OPEN[3],
        "M14": OPEN[4],
        "L14": OPEN[5],
        "L13": OPEN[6],
        "L12": OPEN[7],
        "M12": OPEN[8],
        "N12": OPEN[9],
    }
    s = redesigning(layout)
    t = act(s, move.RedesignRemove(OPEN[1]))
    assert (2, 0) not in t.seats[0].alhambra and t.seats[0].reserve == (OPEN[1],)
    with pytest.raises(IllegalAction, match="A32"):
        act(s, move.RedesignRemove(s.seats[0].alhambra[(0, 0)]))
    # M14 (0,1) and N13 (1,0) have open neighbours; the fountain is surrounded by N13, M14, L13, M12
    s2 = redesigning({"N13": OPEN[0], "O13": OPEN[1]})
    with pytest.raises(IllegalAction, match=r"A33b, A31\.3"):
        act(s2, move.RedesignRemove(OPEN[0]))  # O13 would be cut off
    full = {"N13": OPEN[0], "M14": OPEN[1], "N14": OPEN[2], "O14": OPEN[3], "N15": OPEN[4]}
    s3 = redesigning(full)
    with pytest.raises(IllegalAction, match=r"hole.*A33b"):
        act(s3, move.RedesignRemove(OPEN[2]))  # N14 has neighbours on all four sides


def test_A33c_exchange_legal_and_illegal():
    """A33(c): the reserve tile takes exactly the same cell; sides must match (A31.2)."""
    s = redesigning({"N13": "garden-10-open", "O13": "tower-11-open"}, reserve=["chambers-10-open", "tower-13-E"])
    t = act(s, move.RedesignSwap("chambers-10-open", "garden-10-open"))
    assert t.seats[0].alhambra[(1, 0)] == "chambers-10-open" and t.seats[0].reserve == ("tower-13-E", "garden-10-open")
    with pytest.raises(IllegalAction, match=r"A33c, A31\.2"):
        act(s, move.RedesignSwap("tower-13-E", "garden-10-open"))  # its east wall meets the open tower
    assert move.RedesignSwap("tower-13-E", "tower-11-open") in RULES.legal_actions(s, s.players[0])
    with pytest.raises(IllegalAction, match="A32"):
        act(s, move.RedesignSwap("chambers-10-open", s.seats[0].alhambra[(0, 0)]))


def test_A33_redesign_may_follow_an_exact_purchase_A34():
    """A34: redesign can be the follow-up action after an exact purchase; it then ends the actions."""
    s = redesigning({}, reserve=["garden-10-open"])
    s = arrange(
        s,
        hands={0: (card("denar", 2),)},
        market=("pavilion-2-NEW", "seraglio-3-ESW", "arcades-4-NES", "chambers-5-NSW"),
    )
    s = act(s, move.BuyTile("pavilion-2-NEW", (card("denar", 2),)))
    s = act(s, move.RedesignAdd("garden-10-open", (1, 0)))
    assert s.phase == "place" and s.seats[0].pending == ("pavilion-2-NEW",)


def test_A28_tiles_bought_cannot_replace_alhambra_tiles_at_turn_end():
    """A28: at turn end a bought tile can only go to an empty cell or the reserve."""
    s = placing(["garden-11-open"], {"N13": "garden-10-open"})
    with pytest.raises(IllegalAction, match="already taken"):
        act(s, move.PlaceTile("garden-11-open", (1, 0)))
    with pytest.raises(IllegalAction, match="A24"):
        act(s, move.TakeMoney(s.display[:1]))


def test_A82_alhambra_problem_detects_broken_layouts():
    """A82: matching sides, walkability, no holes, the fountain at M13."""
    assert alhambra_problem(cells({"N13": "garden-10-open"})) is None
    assert alhambra_problem(cells({"N13": "tower-10-W"})) is not None
    assert alhambra_problem(cells({"O13": "garden-10-open"})) is not None
    assert alhambra_problem({(1, 0): "garden-10-open"}) is not None
