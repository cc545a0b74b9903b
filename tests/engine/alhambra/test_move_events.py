"""The public "move" event every applied action writes first in the log: describe's words, the action's JSON and
where it happened (`space` of a purchase, `cell` of a swap or a played bonus card), so the bot can skip it (it
prints the action itself). The log holds that action's events only; what the board image marks across the
actions of a turn is kept in `state.marks`. Private things stay out of both (A20, V61, V66), and event texts
read well after the player's name, as the bot shows them."""

from __future__ import annotations

import random

from engine.alhambra import RULES
from engine.alhambra.actions import (
    BuyTile,
    GiveToDirk,
    Pass,
    PlaceTile,
    PlayBonus,
    RedesignSwap,
    SetBonusAutoplay,
    VizierBuy,
)
from engine.alhambra.state import OVER, Marks
from tests.engine.alhambra.helpers import act, arrange, card, new

MARKET = ("pavilion-2-NEW", "seraglio-3-ESW", "arcades-4-NES", "chambers-5-NSW")
G10 = "garden-10-open"
MODULES = {"vizier": True, "huts": True, "exchange": True, "bonus": True}


def moves(after):
    return [e for e in after.log if e.kind == "move"]


def scan_marks(history):
    """What the board image marks, as it once read it from the whole history, newest first: the latest move
    event's player and words, and that player's cells and market spaces back to another player's last move that
    was not free (the reference `marks.mark` must agree with)."""
    cells: set = set()
    spaces: set = set()
    who = None
    text = ""
    for e in reversed(history):
        action = e.data.get("action")
        if e.player is None or not (e.kind in ("move", "leftover") or isinstance(action, dict)):
            continue
        if who is None:
            who, text = e.player, e.text
        elif e.player != who:
            if e.data.get("free"):
                continue
            break
        for src in (e.data, action) if isinstance(action, dict) else (e.data,):
            if isinstance(src.get("cell"), list):
                cells.add(tuple(src["cell"]))
            if isinstance(src.get("space"), int):
                spaces.add(src["space"])
    return who, text, tuple(sorted(cells)), tuple(sorted(spaces))


def shown(marks: Marks):
    """The part of the marks the image shows: the latest mover's."""
    who = marks.player
    return who, marks.text, marks.cells.get(who, ()), marks.spaces.get(who, ())


def test_A21_A27_a_purchase_and_its_placement_write_their_move_events_first():
    """A21: the purchase's event names the market space (before the refill hides it); A27: the placement's
    action carries the cell. Each comes before the events it causes."""
    s = arrange(new(3, 4), market=MARKET, hands={0: (card("dirham", 3),)}, current=0)
    buy = BuyTile("seraglio-3-ESW", (card("dirham", 3),))
    t = act(s, buy)
    (move,) = moves(t)
    assert t.log[0] is move and move.player == s.players[0] and move.private_to is None
    assert move.text == RULES.describe(buy) and move.data == {"action": RULES.action_to_json(buy), "space": 1}
    t = act(t, Pass())
    place = next(a for a in RULES.legal_actions(t, s.players[0]) if isinstance(a, PlaceTile))
    u = act(t, place)
    (move,) = moves(u)
    assert move.data == {"action": {"kind": "place_tile", "tile": "seraglio-3-ESW", "cell": list(place.cell)}}
    assert u.log[0] is move  # then the refill's and the next turn's events, if any
    # the image marks the whole turn: the space bought from (refilled since) and the cell placed
    me = s.players[0]
    assert u.marks == Marks(me, RULES.describe(place), {me: (place.cell,)}, {me: (1,)})


def test_A66_the_gift_to_dirk_reads_with_dirk_as_subject():
    """A66: the gift's event has no player (the bot would put the giver's name before "Dirk receives..."); the
    giver is in its data, and the move event says who gave it."""
    s = arrange(new(2, 14), market=MARKET, hands={0: (card("denar", 2),)}, current=0)
    s = act(act(s, BuyTile("pavilion-2-NEW", (card("denar", 2),))), Pass())
    t = act(s, GiveToDirk("pavilion-2-NEW"))
    gift = next(e for e in t.log if e.kind == "dirk_tiles")
    assert gift.player is None and str(gift.text).startswith("Dirk receives the Pavilion (2")
    assert gift.data == {"tiles": ["pavilion-2-NEW"], "reason": "gift", "from": s.players[0]}
    (move,) = moves(t)
    assert move.player == s.players[0] and str(move.text) == "gives the Pavilion (2) to Dirk"


def test_V62_a_played_bonus_card_is_a_free_public_move_at_its_building():
    """V62: playing a bonus card (public once played) writes a move event marked free, naming the building's
    cell; the card goes face up."""
    s = arrange(new(3, 2, bonus=True), bonus_hands={2: [G10]}, alhambras={2: {"N13": G10}}, current=0)
    p2 = s.players[2]
    t = act(s, PlayBonus(G10), p2)
    (move,) = moves(t)
    assert move.player == p2 and move.private_to is None
    assert move.data == {"action": {"kind": "play_bonus", "card": G10}, "cell": [1, 0], "free": True}
    assert [e.kind for e in t.log] == ["move", "bonus_play"]


def test_V62_another_players_bonus_card_does_not_end_the_turn_on_the_image():
    """V62: a bonus card played during someone else's turn is marked alone while it is the latest move; once
    the turn's player acts again, the image marks their whole turn again (the bonus card interrupts nothing),
    and the bonus card's mark goes."""
    s = arrange(
        new(3, 4, bonus=True),
        market=MARKET,
        hands={0: (card("dirham", 3), card("ducat", 4))},
        bonus_hands={2: [G10]},
        alhambras={2: {"N13": G10}},
        current=0,
    )
    me, p2 = s.players[0], s.players[2]
    t = act(s, BuyTile("seraglio-3-ESW", (card("dirham", 3),)))  # exact: another action follows (A22)
    t = act(t, PlayBonus(G10), p2)
    assert t.marks == Marks(p2, RULES.describe(PlayBonus(G10)), {p2: ((1, 0),)}, {me: (1,)})
    u = act(t, BuyTile("arcades-4-NES", (card("ducat", 4),)))
    assert u.marks.player == me and u.marks.spaces == {me: (1, 2)} and u.marks.cells == {}


def test_V66_a_standing_order_stays_private():
    """V66 [BOT]: changing the standing order writes no public event at all, only a note for the player that
    reads after their name."""
    s = new(3, 2, bonus=True)
    p = s.players[1]
    t = act(s, SetBonusAutoplay("never"), p)
    assert RULES.view(t, None).log == () and RULES.view(t, s.players[0]).log == ()
    assert t.marks == s.marks  # nothing for the image to mark either
    (note,) = t.log
    assert note.private_to == p and str(note.text) == "will play the bonus cards only by hand (V66)."


def test_A18_V3_every_action_of_a_random_game_with_the_modules_has_one_move_event():
    """A18–A33, V3–V62 over a whole random game with all modules (free bonus plays mixed in): each action adds
    exactly one public move event, first, by the mover, with the action; purchases name the space the tile
    lay on, swaps the cell of the replaced tile, bonus cards the cell of their building. The log holds that
    action's events only, and the marks kept in the state are what the whole history says."""
    s = RULES.new_game(["a", "b", "c", "d"], MODULES, 10)
    rnd = random.Random(10)
    seen = set()
    history = list(s.log)
    while s.phase != OVER:
        p = rnd.choice(RULES.to_move(s))
        free = [a for q in s.players for a in RULES.free_actions(s, q) if isinstance(a, PlayBonus)]
        if free and rnd.random() < 0.3:
            a = free[0]
            p = next(q for q in s.players if a in RULES.free_actions(s, q))
        else:
            a = rnd.choice(RULES.legal_actions(s, p))
        t = RULES.apply(s, p, a)
        (move,) = moves(t)
        assert t.log[0] is move and move.player == p and move.private_to is None
        history += t.log
        assert shown(t.marks) == scan_marks(history)
        assert move.text == RULES.describe(a) and RULES.action_from_json(move.data["action"]) == a
        seat = s.seat(p)
        if isinstance(a, (BuyTile, VizierBuy)):
            assert move.data["space"] == s.market.index(a.tile)
        elif isinstance(a, RedesignSwap):
            assert tuple(move.data["cell"]) == next(c for c, x in seat.alhambra.items() if x == a.replaces)
        elif isinstance(a, PlayBonus):
            assert seat.alhambra[tuple(move.data["cell"])] == a.card and move.data["free"] is True
        seen.add(a.kind)
        s = t
    assert {
        "buy_tile",
        "place_tile",
        "take_money",
        "take_hut",
        "vizier_buy",
        "play_bonus",
        "redesign_swap",
        "pass",
    } <= seen


def test_event_texts_read_after_the_players_name():
    """The bot shows an event as "**name** text" when it has a player, else the text alone: so texts with a
    player start in lower case (a predicate), texts without one start with a capital (A14–A68, V6–V66)."""
    for n, options, seed in ((2, {}, 3), (4, MODULES, 5)):
        s = RULES.new_game([str(i) for i in range(n)], options, seed)
        events = list(s.log)
        rnd = random.Random(seed)
        while s.phase != OVER:
            p = rnd.choice(RULES.to_move(s))
            s = RULES.apply(s, p, rnd.choice(RULES.legal_actions(s, p)))
            events += s.log
        for e in events:
            text = str(e.text)
            assert text[0].islower() if e.player is not None else text[0].isupper(), (e.kind, text)
