"""Alhambra images with the Vizier's Favour modules: they render (public, private, focus, end) and show the
module pieces; the public image never depends on hidden module information (other players' exchange cards
and unplayed bonus cards, the huts below the stack tops)."""

from __future__ import annotations

import dataclasses
import functools

from engine.alhambra import RULES
from engine.alhambra.components import is_exchange
from render import render_png
from render.alhambra import model_from_view
from scripts.gallery import mid_state, playthrough
from tests.render.test_render import check_image, decode

MODULES = {"vizier": True, "huts": True, "exchange": True, "bonus": True}


@functools.cache
def states(n: int = 4, seed: int = 4) -> tuple:
    return tuple(playthrough("alhambra", n, seed, MODULES))


def test_module_images_render_public_private_focus_and_end():
    """Every stage of a module game renders; the private and focus images too."""
    run = states()
    for s in (run[0], mid_state(list(run), 0.5), run[-1]):
        check_image(render_png("alhambra", RULES.view(s, None)))
        p = s.players[1]
        check_image(render_png("alhambra", RULES.view(s, p), viewer=p))
        decode(render_png("alhambra", RULES.view(s, p), viewer=p, focus=True))


def test_the_model_carries_viziers_huts_bonus_cards_and_exchange_cards():
    """V1 viziers per player, V21 hut stacks (top and count), V62 played bonus cards, V42 exchange cards in the
    display; in the private model the viewer's exchange cards and unplayed bonus cards with their playability."""
    s = next(x for x in states() if any(map(is_exchange, x.display)) and any(map(is_exchange, x.seats[0].hand)))
    p = s.players[0]
    b = model_from_view(RULES.view(s, None), None, None)
    assert [pb.vizier for pb in b.players] == [seat.vizier for seat in s.seats]
    assert b.huts == [(st[-1] if st else None, len(st)) for st in s.huts]
    assert any(isinstance(c, str) and c.startswith("exchange:") for c in b.display)
    assert b.hand is None and b.bonus_hand is None
    mine = model_from_view(RULES.view(s, p), p, None)
    assert any(isinstance(c, str) and c.startswith("exchange:") for c in mine.hand)
    built = set(s.seats[0].alhambra.values())
    assert mine.bonus_hand == [(c, c in built) for c in s.seats[0].bonus_hand]
    assert mine.bonus_auto == "every"
    end = model_from_view(RULES.view(states()[-1], None), None, None)
    assert [pb.bonus_played for pb in end.players] == [seat.bonus_played for seat in states()[-1].seats]


def test_base_game_images_show_no_module_pieces():
    """Without modules the model has no viziers, hut stacks or bonus rows (the base images are unchanged)."""
    run = playthrough("alhambra", 3, 5)
    b = model_from_view(RULES.view(run[len(run) // 2], None), None, None)
    assert b.huts is None and all(pb.vizier is None and pb.bonus_played is None for pb in b.players)


def test_public_module_image_does_not_leak_hidden_module_information():
    """Other players' exchange cards and unplayed bonus cards, the huts under the tops, the aside cards: changing
    them changes no public image byte (V44, V61, V21) and not another player's private image."""
    s = mid_state(list(states()), 0.5)
    seat = s.seats[0]
    x = next(c for c in (*s.deck, *s.discard) if is_exchange(c))
    hand = tuple(sorted((*seat.hand[1:], x))) if seat.hand else (x,)
    swapped = dataclasses.replace(seat, hand=hand, bonus_hand=tuple(s.bonus_aside[: len(seat.bonus_hand)]))
    stacks = tuple((*st[:-1][::-1], st[-1]) if len(st) > 2 else st for st in s.huts)
    other = dataclasses.replace(
        s,
        seats=(swapped, *s.seats[1:]),
        huts=stacks,
        bonus_aside=tuple(seat.bonus_hand) + s.bonus_aside[len(seat.bonus_hand) :],
    )
    assert other != s
    assert render_png("alhambra", RULES.view(s, None)) == render_png("alhambra", RULES.view(other, None))
    p = s.players[2]
    assert render_png("alhambra", RULES.view(s, p), viewer=p) == render_png("alhambra", RULES.view(other, p), viewer=p)
    q = s.players[0]
    assert render_png("alhambra", RULES.view(s, q), viewer=q) != render_png("alhambra", RULES.view(other, q), viewer=q)
