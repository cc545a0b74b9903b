"""Random complete games of Azul: Queen's Garden for 2, 3 and 4 players with every contract check
(tests/engine/playout.py) plus the game's invariants: tile and expansion conservation, storage limits (Q8, Q21),
no group with two identical hexagons (Q26b), hidden information (bag order, seed, face-down expansions) out of
views, the scoring breakdown each seat keeps equal to what the game's scoring events said, and illegal actions
rejected. PROPERTY_GAMES=300 for the full run."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.queens_garden import RULES, geometry
from engine.queens_garden.actions import Acquire, BuyExpansion, Pass, PlaceExpansion, PlaceTile
from engine.queens_garden.components import (
    EXPANSION_KIND,
    N_EXPANSIONS,
    N_TILES,
    STORAGE_EXPANSIONS,
    STORAGE_TILES,
    TILE_KIND,
)
from engine.queens_garden.geometry import AREAS, FOUNTAIN_ELEMENTS, SPACES
from engine.queens_garden.state import HIDDEN, QGState
from tests.conftest import property_games
from tests.engine.playout import play_random_game


def invariants(rules, s: QGState) -> None:
    # Q1/Q25/Q29/Q34: every tile is in exactly one place (the tower holds all discards)
    tiles = [*s.bag, *s.tower, *s.stack_tiles, *(t for p in s.display for t in p.tiles)]
    for seat in s.seats:
        tiles += [*seat.tiles, *seat.garden.values()]
    assert sorted(tiles) == list(range(N_TILES))
    exps = [*s.stack, *s.supply, *(p.expansion for p in s.display), *(e for st in s.stacks for e in st)]
    for seat in s.seats:
        exps += [*seat.expansions, *(p.expansion for p in seat.placed)]
    assert sorted(exps) == list(range(N_EXPANSIONS))
    assert (not s.stack) or s.stack_tiles, "a round stack without tiles on top (Q24)"
    for p in s.display:
        assert p.face_up == (not p.tiles), "Q23: emptied display expansions are face up, others hold tiles"
    for seat in s.seats:
        assert len(seat.tiles) + seat.jokers <= STORAGE_TILES  # Q8
        assert len(seat.expansions) <= STORAGE_EXPANSIONS  # Q8
        assert seat.score >= 0  # Q37
        assert len(seat.placed) <= len(AREAS) and len({p.area for p in seat.placed}) == len(seat.placed)
        hexmap = geometry.hexagons(seat)
        assert not set(hexmap) & set(geometry.elements(seat)), "a hexagon on a garden element (Q39)"
        for by in (0, 1):  # Q26b: no group ever holds two identical hexagons
            for _key, spaces in geometry.groups(hexmap, by):
                kinds = [hexmap[sp] for sp in spaces]
                assert len(set(kinds)) == len(kinds), f"group with identical hexagons: {spaces}"
                assert len(spaces) <= 6
    # hidden information never in a view
    for viewer in (None, *s.players):
        v = rules.view(s, viewer)
        assert v.seed == 0 and v.rng_counter == 0 and list(v.bag) == sorted(s.bag)
        assert all(e == HIDDEN for e in v.stack + v.supply) and all(e == HIDDEN for st in v.stacks for e in st)
        assert all(p.expansion == HIDDEN for p in v.display if not p.face_up)
        assert all(p.expansion == HIDDEN for seat in v.seats for p in seat.placed if not p.face_up)


def illegal(rules, s: QGState, player: str, rnd: random.Random):
    """A few actions that break a rule in the current position."""
    seat = s.seats[s.players.index(player)]
    hexmap = geometry.hexagons(seat)
    out = []
    # a tile that is not in storage (Q25), and a joker "tile" (Q27)
    not_mine = [t for t in range(N_TILES) if t not in seat.tiles]
    out.append(PlaceTile(rnd.choice(not_mine), "M1"))
    # a storage tile on an occupied space or a garden element (Q26, Q39)
    if seat.tiles:
        busy = sorted(set(hexmap) | set(FOUNTAIN_ELEMENTS))
        out.append(PlaceTile(seat.tiles[0], rnd.choice(busy)))
        # a space in an area with no expansion
        empty_areas = [a for a in AREAS if a not in {p.area for p in seat.placed}]
        if empty_areas:
            out.append(PlaceTile(seat.tiles[0], f"{rnd.choice(empty_areas)}1"))
        # a wrong payment size (Q25)
        out.append(PlaceTile(seat.tiles[0], "M1", jokers=6))
    # more jokers than owned
    out.append(PlaceTile(seat.tiles[0] if seat.tiles else 0, rnd.choice(SPACES), jokers=seat.jokers + 1))
    # acquire something absent or incomplete (Q19)
    out.append(Acquire("colour", 0, (), ()))
    out.append(Acquire("pattern", 9, (), ()))
    # a blank expansion without enough points, or on a used area (Q28)
    if seat.score < 6:
        out.append(BuyExpansion(rnd.choice(AREAS)))
    for p in seat.placed:
        out.append(BuyExpansion(p.area))
        if seat.expansions:
            out.append(PlaceExpansion(seat.expansions[0], p.area, 0, (), (), EXPANSION_KIND[seat.expansions[0]][1] - 1))
    # discard what you do not own (Q29)
    out.append(Pass(tiles=tuple(not_mine[:1])))
    # a legal action with its payment tampered (two identical hexagons / mixed payment), kept only if really
    # different from every legal action
    legal = rules.legal_actions(s, player)
    for a in legal:
        if isinstance(a, PlaceTile) and a.pay_tiles:
            bad = dataclasses.replace(a, pay_tiles=a.pay_tiles + a.pay_tiles[:1], jokers=max(0, a.jokers - 1))
            out.append(bad)
            break
    # a legal tile moved to a free space where Q26 forbids it
    for a in legal:
        if isinstance(a, PlaceTile):
            kind = TILE_KIND[a.tile]
            bad_spaces = [
                sp for sp in geometry.free_spaces(seat, hexmap) if geometry.placement_problem(hexmap, sp, kind)
            ]
            if bad_spaces:
                out.append(dataclasses.replace(a, space=rnd.choice(bad_spaces)))
                break
    return out


class Game:
    """The invariants of one game, called on its states in order; gathers the events of every action (each
    state's log holds its action's only) and checks that the breakdown the seats keep for the results
    (`round_points`, Q31–Q33; `final`, Q35) is what those events said."""

    def __init__(self) -> None:
        self.events: list = []

    def __call__(self, rules, s: QGState) -> None:
        invariants(rules, s)
        self.events += s.log
        for p, seat in zip(s.players, s.seats, strict=True):
            told = [e.data for e in self.events if e.player == p and e.kind in ("round_scoring", "final_scoring")]
            assert seat.round_points == tuple(d["points"] for d in told if "round" in d)
            finals = [d for d in told if "round" not in d]
            assert (seat.final is None) == (not finals) and len(finals) <= 1
            if seat.final is not None:
                f = finals[0]
                assert (seat.final.before, seat.final.after_storage, seat.final.bonus) == (
                    f["before"],
                    f["after_storage"],
                    f["bonus"],
                )
                assert seat.final.colour_points == sum(g["points"] for g in f["colour_groups"])
                assert seat.final.pattern_points == sum(g["points"] for g in f["pattern_groups"])


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_random_games_keep_every_invariant(n_players):
    """Q1–Q39 end to end: random complete games stay legal, conserve components and end after round 4."""
    for seed in range(property_games(6)):
        game = Game()
        state, _log = play_random_game(RULES, n_players, {}, seed * 7919 + n_players, invariants=game, illegal=illegal)
        assert state.over and state.round == 4
        kinds = [e.kind for e in game.events]
        assert kinds.count("round_scoring") == 4 * n_players
        assert kinds.count("final_scoring") == n_players
        assert kinds.count("round_start") == 4
        assert kinds[-1] == "game_over" and state.log[-1].kind == "game_over"


def _builder_policy(rnd: random.Random, acts: list):
    """Random, but building: pass only when nothing else is possible (or rarely), place before acquiring."""
    place = [a for a in acts if isinstance(a, (PlaceTile, PlaceExpansion))]
    other = [a for a in acts if not isinstance(a, Pass)]
    if place and rnd.random() < 0.7:
        return rnd.choice(place)
    if other and rnd.random() < 0.97:
        return rnd.choice(other)
    return rnd.choice([a for a in acts if isinstance(a, Pass)])


@pytest.mark.parametrize("n_players", [2, 4])
def test_building_games_reach_deep_positions(n_players):
    """Q22–Q35 deep: players who keep building fill gardens, place expansions, surround elements (Q30) and
    score groups (Q35); every listed action applies and every invariant holds throughout."""
    counts = {"jokers": 0, "expansions": 0, "groups": 0}
    for seed in range(max(2, property_games(6) // 2)):
        rnd = random.Random(seed)
        s = RULES.new_game([f"p{i}" for i in range(n_players)], {}, 1000 + seed)
        game = Game()
        while not RULES.is_over(s):
            player = RULES.to_move(s)[0]
            acts = RULES.legal_actions(s, player)
            texts = [str(RULES.describe_in(s, a)) for a in acts]
            assert len(set(texts)) == len(texts), "two legal actions read the same"
            s = RULES.apply(s, player, _builder_policy(rnd, acts))
            game(RULES, s)
        assert RULES.from_json(RULES.to_json(s)) == s
        counts["jokers"] += sum(1 for e in game.events if e.kind == "jokers")
        counts["expansions"] += sum(len(seat.placed) for seat in s.seats)
        counts["groups"] += sum(
            len(e.data["colour_groups"]) + len(e.data["pattern_groups"])
            for e in game.events
            if e.kind == "final_scoring"
        )
    assert all(counts.values()), counts
