"""The rules of Azul: Queen's Garden (spec rules Q1–Q39) behind the engine contract.

`check` is the single legality test (player's words, rule cited); `candidates` lists exactly the legal actions,
with equivalent choices collapsed to one representative: a payment per multiset of (kind, tile-or-expansion)
used, one copy per kind in storage, one copy per kind and display source when acquiring. `check` accepts every
equivalent variant. Passing lists no discard, one hexagon of each kind, or everything; `check` accepts any
subset of storage (a menu may offer a multi-select). `step` applies a legal action. Round ends, scoring and preparation run inside `step`.

The log: every applied action first writes a public "move" event (`describe`'s words, the action's JSON as
`data["action"]`, and the `space` of a placed expansion's printed hexagon), then the events it caused.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import combinations, product
from typing import Any

from engine._common import Event, Rules, replace, rng, shuffled, visible_log
from engine.queens_garden import garden as G
from engine.queens_garden.components import (
    BLANK_EXPANSION_COST,
    COLOURS,
    EXPANSION_KIND,
    FIRST_PASS_PENALTY,
    JOKER_REWARD,
    N_EXPANSIONS,
    N_TILES,
    PASS_DISCARDS_JOKERS,
    PATTERN_PLURALS,
    PATTERNS,
    RETURN_TO_BOTTOM,
    ROUNDS,
    STACK_SIZE,
    START_JOKERS,
    START_PLAYER,
    START_SCORE,
    STORAGE_EXPANSIONS,
    STORAGE_TILES,
    TILE_KIND,
    TILES_PER_FILL,
    VALUES,
    WHEEL,
    Kind,
    colour_name,
    criterion_name,
    kind_code,
    kind_name,
    provisional,
)
from engine.queens_garden.geometry import AREAS, NEIGHBOURS, SPACE_COORD, printed_space
from engine.queens_garden.state import (
    ACTION_TYPES,
    HIDDEN,
    Acquire,
    BuyExpansion,
    Pass,
    Piece,
    Placed,
    PlaceExpansion,
    PlaceTile,
    QGState,
    Seat,
)

Payment = tuple[tuple[int, ...], tuple[int, ...], int]  # (tile ids, expansion ids, jokers)


def _criterion_words(by: str, value: int) -> str:
    return colour_name(value) if by == "colour" else PATTERN_PLURALS[value]


def _payment_words(pay_tiles: Iterable[int], pay_expansions: Iterable[int], jokers: int) -> str:
    parts = [kind_code(TILE_KIND[t]) for t in pay_tiles]
    parts += [f"the {kind_code(EXPANSION_KIND[e])} expansion" for e in pay_expansions]
    if jokers:
        parts.append(f"{jokers} joker{'s' if jokers > 1 else ''}")
    return " + ".join(parts)


class QueensGardenRules(Rules):
    name = "queens_garden"
    title = "Azul: Queen's Garden"
    player_counts = range(2, 5)
    options: Mapping[str, Any] = {}  # Q38: the variant side has no known numbers, so it is not offered
    state_type = QGState
    action_types = ACTION_TYPES

    # ------------------------------------------------------------------------------------------ set-up

    def _new_game(self, players: tuple[str, ...], options: dict[str, Any], seed: int) -> QGState:
        counter = 0
        bag, counter = shuffled(range(N_TILES), seed, counter)  # Q12
        expansions, counter = shuffled(range(N_EXPANSIONS), seed, counter)
        n = STACK_SIZE[len(players)]  # Q13: 5 / 7 / 8 per round stack, the rest is the supply
        stacks = tuple(expansions[i * n : (i + 1) * n] for i in range(ROUNDS))
        supply = expansions[ROUNDS * n :]
        first = 0  # Q15 [?]: RB says the youngest player; the bot picks at random (data: start_player)
        if START_PLAYER == "random":
            first = rng(seed, counter).randrange(len(players))
            counter += 1
        seats = tuple(Seat(jokers=START_JOKERS, score=START_SCORE) for _ in players)  # Q10, Q11
        d = _Draft(
            QGState(
                players=players, seed=seed, rng_counter=counter, round=1, current=first, first_player=first,
                marker=None, bag=bag, tower=(), stack=stacks[0], stack_tiles=(), display=(), stacks=stacks[1:],
                supply=supply, seats=seats,
            )
        )
        d.fill_top()  # Q16: exactly 4 tiles on the top expansion of round stack 1; Q14: nothing else
        d.log_round_start()
        return d.freeze()

    # ------------------------------------------------------------------------------------------ turn order

    def to_move(self, state: QGState) -> list[str]:
        if state.over or state.current is None:
            return []
        return [state.players[state.current]]

    def is_over(self, state: QGState) -> bool:
        return state.over

    def scores(self, state: QGState) -> dict[str, int]:
        return {p: seat.score for p, seat in zip(state.players, state.seats, strict=True)}

    # ------------------------------------------------------------------------------------------ listing

    def legal_actions(self, state: QGState, player: str) -> list[Any]:
        # `candidates` lists exactly the legal actions (the property tests apply every one through `apply`).
        if player not in self.to_move(state):
            return []
        return list(self.candidates(state, player))

    def candidates(self, state: QGState, player: str) -> Iterator[Any]:
        seat = state.seats[state.players.index(player)]
        yield from self._acquire_options(state, seat)
        hexmap = G.hexagons(seat)
        free = G.free_spaces(seat, hexmap)
        firsts: dict[Kind, int] = {}
        for t in seat.tiles:  # sorted: the lowest id of each kind represents its copies
            firsts.setdefault(TILE_KIND[t], t)
        # a free space with no neighbouring hexagon takes any hexagon (Q26a; it joins no group)
        lonely = {sp for sp in free if not any(n in hexmap for n in NEIGHBOURS[sp])}
        for kind, t in firsts.items():
            spaces = [sp for sp in free if sp in lonely or G.placement_problem(hexmap, sp, kind) is None]
            if not spaces:
                continue
            payments = payment_options(seat, kind, tile=t)
            for sp in spaces:
                for pt, pe, j in payments:
                    yield PlaceTile(t, sp, pt, pe, j)
        areas = G.free_areas(seat)
        for e in seat.expansions:
            kind = EXPANSION_KIND[e]
            spots = [
                (a, turn) for a in areas for turn in range(6)
                if G.placement_problem(hexmap, printed_space(a, turn), kind) is None
            ]
            if not spots:
                continue
            payments = payment_options(seat, kind, expansion=e)
            for a, turn in spots:
                for pt, pe, j in payments:
                    yield PlaceExpansion(e, a, turn, pt, pe, j)
        if state.supply and seat.score >= BLANK_EXPANSION_COST:
            for a in areas:
                yield BuyExpansion(a)
        yield from _pass_options(seat)

    def _acquire_options(self, state: QGState, seat: Seat) -> Iterator[Acquire]:
        """Q19–Q21: every colour/pattern in the display, every choice among identical hexagons, if it fits."""
        # criterion -> kind -> the distinct ways to take that kind: a tile per source (copies on one source are
        # interchangeable, Q20) or the face-up expansion
        tables: tuple[dict[int, dict[Kind, list[tuple[str, int]]]], ...] = ({}, {})
        seen: set[tuple[Kind, int]] = set()
        for t, src in _display_tiles(state).items():
            k = TILE_KIND[t]
            if (k, src) not in seen:
                seen.add((k, src))
                for idx in (0, 1):
                    tables[idx].setdefault(k[idx], {}).setdefault(k, []).append(("t", t))
        for p in state.display:
            if p.face_up:
                k = EXPANSION_KIND[p.expansion]
                for idx in (0, 1):
                    tables[idx].setdefault(k[idx], {}).setdefault(k, []).append(("e", p.expansion))
        room_tiles = STORAGE_TILES - len(seat.tiles) - seat.jokers
        room_exps = STORAGE_EXPANSIONS - len(seat.expansions)
        for by, table in zip(("colour", "pattern"), tables, strict=True):
            for value in sorted(table):
                for choice in product(*table[value].values()):
                    tiles = tuple(sorted(i for s, i in choice if s == "t"))
                    if len(tiles) > room_tiles:  # Q21
                        continue
                    exps = tuple(sorted(i for s, i in choice if s == "e"))
                    if len(exps) <= room_exps:
                        yield Acquire(by, value, tiles, exps)

    # ------------------------------------------------------------------------------------------ checking

    def check(self, state: QGState, player: str, action: Any) -> str | None:
        if state.over:
            return "The game is over."
        if player not in state.players:
            return "You are not playing in this game."
        if state.current is None or state.players[state.current] != player:
            return "It is not your turn."
        seat = state.seats[state.current]
        if isinstance(action, Acquire):
            return self._check_acquire(state, seat, action)
        if isinstance(action, PlaceTile):
            return self._check_place_tile(seat, action)
        if isinstance(action, PlaceExpansion):
            return self._check_place_expansion(seat, action)
        if isinstance(action, BuyExpansion):
            return self._check_buy(state, seat, action)
        if isinstance(action, Pass):
            return self._check_pass(seat, action)
        return "That is not an action of this game."

    def _check_acquire(self, state: QGState, seat: Seat, a: Acquire) -> str | None:
        if a.by == "colour":
            if not 0 <= a.value < len(COLOURS):
                return "Choose one of the six colours (Q19)."
            idx = 0
        elif a.by == "pattern":
            if a.value not in PATTERNS:
                return "Choose a pattern from 1 (tree) to 6 (lily) (Q19)."
            idx = 1
        else:
            return "Choose a colour or a pattern (Q19)."
        what = _criterion_words(a.by, a.value)
        sources = _display_tiles(state)
        face_up = {p.expansion for p in state.display if p.face_up}
        if len(set(a.tiles)) != len(a.tiles) or len(set(a.expansions)) != len(a.expansions):
            return "Each tile and expansion can be taken only once."
        kinds = []
        for ids, available, kind_of, noun, unavailable in (
            (a.tiles, sources, TILE_KIND, "", "One of those tiles is not in the display."),
            (a.expansions, face_up, EXPANSION_KIND, " expansion", "Only face-up expansions in the display can be "
                                                                  "taken (Q23)."),
        ):
            for i in ids:
                if i not in available:
                    return unavailable
                if kind_of[i][idx] != a.value:
                    return f"The {kind_name(kind_of[i])}{noun} is not {what} (Q19)."
                kinds.append(kind_of[i])
        if len(set(kinds)) != len(kinds):
            return "Of identical hexagons (same colour and pattern) you take exactly one (Q20)."
        present = {TILE_KIND[t] for t in sources if TILE_KIND[t][idx] == a.value}
        present |= {EXPANSION_KIND[e] for e in face_up if EXPANSION_KIND[e][idx] == a.value}
        if not present:
            return f"There is no {what} hexagon in the display (Q19)."
        missing = present - set(kinds)
        if missing:
            left = ", ".join(kind_name(k) for k in sorted(missing))
            return f"You must take every {what} hexagon in the display (one of each kind); you left out {left} (Q19)."
        room = STORAGE_TILES - len(seat.tiles) - seat.jokers
        if len(a.tiles) > room:
            return (
                f"Your storage has room for {room} more tile{'s' if room != 1 else ''} (jokers included), but "
                f"taking {what} brings {len(a.tiles)}; choose something else (Q21)."
            )
        room = STORAGE_EXPANSIONS - len(seat.expansions)
        if len(a.expansions) > room:
            return f"Your storage has room for {room} more expansion(s), not {len(a.expansions)} (Q21)."
        return None

    def _check_place_tile(self, seat: Seat, a: PlaceTile) -> str | None:
        if a.tile not in seat.tiles:
            return "That tile is not in your storage. Only storage tiles can be planted; jokers never (Q25, Q27)."
        kind = TILE_KIND[a.tile]
        if (why := _space_problem(seat, a.space)) is not None:
            return why
        if (why := G.placement_problem(G.hexagons(seat), a.space, kind)) is not None:
            return f"The {kind_name(kind)} cannot go on {a.space}: {why}."
        return _payment_problem(seat, kind, a.pay_tiles, a.pay_expansions, a.jokers, tile=a.tile)

    def _check_place_expansion(self, seat: Seat, a: PlaceExpansion) -> str | None:
        if a.expansion not in seat.expansions:
            return "That expansion is not in your storage (Q28)."
        if (why := _area_problem(seat, a.area)) is not None:
            return why
        if not 0 <= a.turn < 6:
            return "Turn the expansion 0 to 5 sixth-turns (Q28)."
        kind = EXPANSION_KIND[a.expansion]
        space = printed_space(a.area, a.turn)
        if (why := G.placement_problem(G.hexagons(seat), space, kind)) is not None:
            return f"Its {kind_name(kind)} cannot sit on {space}: {why}; try another turn or area (Q28)."
        return _payment_problem(seat, kind, a.pay_tiles, a.pay_expansions, a.jokers, expansion=a.expansion)

    def _check_buy(self, state: QGState, seat: Seat, a: BuyExpansion) -> str | None:
        if not state.supply:
            return "The supply of expansions is empty (Q28)."
        if seat.score < BLANK_EXPANSION_COST:
            return (
                f"An expansion from the supply costs exactly {BLANK_EXPANSION_COST} points and you have "
                f"{seat.score}; a score cannot go below 0 (Q28, Q37)."
            )
        return _area_problem(seat, a.area)

    def _check_pass(self, seat: Seat, a: Pass) -> str | None:
        if len(set(a.tiles)) != len(a.tiles) or not set(a.tiles) <= set(seat.tiles):
            return "You can only discard tiles from your storage, each once (Q29)."
        if len(set(a.expansions)) != len(a.expansions) or not set(a.expansions) <= set(seat.expansions):
            return "You can only discard expansions from your storage, each once (Q29)."
        if a.jokers and not PASS_DISCARDS_JOKERS:
            return "Jokers are not hexagons: you keep them when you pass (Q29)."
        if not 0 <= a.jokers <= seat.jokers:
            return f"You have {seat.jokers} joker{'s' if seat.jokers != 1 else ''} (Q29)."
        return None

    # ------------------------------------------------------------------------------------------ stepping

    def step(self, state: QGState, player: str, action: Any) -> QGState:
        d = _Draft(state)
        i = state.current
        assert i is not None
        d.event("move", self.describe(action), i, **self._move_data(action))  # first: what follows comes of it
        if isinstance(action, Acquire):
            d.acquire(i, action)
        elif isinstance(action, PlaceTile):
            d.place_tile(i, action)
        elif isinstance(action, PlaceExpansion):
            d.place_expansion(i, action)
        elif isinstance(action, BuyExpansion):
            d.buy_expansion(i, action)
        elif isinstance(action, Pass):
            d.pass_(i, action)
        d.advance()
        return d.freeze()

    def _move_data(self, action: Any) -> dict[str, Any]:
        """The data of an action's public "move" event: the action's JSON and, for an expansion placed face up,
        the `space` of its printed hexagon (the action names the `area`). Nothing in it is secret: storages and
        face-up hexagons are public (Q8), and buying a blank expansion names only the area, never which
        expansion came from the face-down supply (Q28 ii)."""
        data: dict[str, Any] = {"action": self.action_to_json(action)}
        if isinstance(action, PlaceExpansion):
            data["space"] = printed_space(action.area, action.turn)
        return data

    # ------------------------------------------------------------------------------------------ views

    def view(self, state: QGState, player: str | None) -> QGState:
        """No hand is secret here (storages are public): hide the bag order, the seed, and every face-down
        expansion's identity (round stacks, supply, display pieces with tiles, blank garden expansions)."""
        def hide(ids: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(HIDDEN for _ in ids)

        seats = tuple(
            replace(
                s, placed=tuple(p if p.face_up else replace(p, expansion=HIDDEN) for p in s.placed)
            )
            for s in state.seats
        )
        return replace(
            state,
            seed=0,
            rng_counter=0,
            bag=tuple(sorted(state.bag)),
            stack=hide(state.stack),
            display=tuple(p if p.face_up else replace(p, expansion=HIDDEN) for p in state.display),
            stacks=tuple(hide(s) for s in state.stacks),
            supply=hide(state.supply),
            seats=seats,
            log=visible_log(state.log, player),
        )

    def validate(self, state: QGState) -> None:
        if not 2 <= len(state.players) <= 4 or len(state.seats) != len(state.players):
            raise ValueError("bad number of players")
        tiles = list(state.bag) + list(state.tower) + list(state.stack_tiles)
        for p in state.display:
            tiles += p.tiles
        for s in state.seats:
            tiles += s.tiles
            tiles += s.garden.values()
            if len(s.tiles) + s.jokers > STORAGE_TILES or len(s.expansions) > STORAGE_EXPANSIONS:
                raise ValueError("a storage holds too much")
            if s.score < 0 or s.jokers < 0:
                raise ValueError("negative score or jokers")
        if sorted(tiles) != list(range(N_TILES)):
            raise ValueError("the tiles do not add up to the 108 of the game")
        exps = [*state.stack, *state.supply, *(p.expansion for p in state.display)]
        exps += [e for s in state.stacks for e in s]
        for s in state.seats:
            exps += [*s.expansions, *(p.expansion for p in s.placed)]
        if sorted(exps) != list(range(N_EXPANSIONS)):
            raise ValueError("the expansions do not add up to the 36 of the game")
        if not 1 <= state.round <= ROUNDS:
            raise ValueError("bad round")

    # ------------------------------------------------------------------------------------------ words

    def describe(self, action: Any) -> str:
        if isinstance(action, Acquire):
            what = _criterion_words(action.by, action.value)
            items = [kind_code(TILE_KIND[t]) for t in action.tiles]
            items += [f"the {kind_code(EXPANSION_KIND[e])} expansion" for e in action.expansions]
            return f"takes all {what} from the display: {', '.join(items)}"
        if isinstance(action, PlaceTile):
            text = f"plants a {kind_name(TILE_KIND[action.tile])} on {action.space}"
            paid = _payment_words(action.pay_tiles, action.pay_expansions, action.jokers)
            return f"{text}, paying {paid}" if paid else f"{text} for free"
        if isinstance(action, PlaceExpansion):
            kind = EXPANSION_KIND[action.expansion]
            text = (
                f"places the {kind_name(kind)} expansion in area {action.area}, "
                f"its hexagon on {printed_space(action.area, action.turn)}"
            )
            paid = _payment_words(action.pay_tiles, action.pay_expansions, action.jokers)
            return f"{text}, paying {paid}" if paid else f"{text} for free"
        if isinstance(action, BuyExpansion):
            return f"buys a blank expansion for {BLANK_EXPANSION_COST} points and places it in area {action.area}"
        if isinstance(action, Pass):
            items = [kind_code(TILE_KIND[t]) for t in action.tiles]
            items += [f"the {kind_code(EXPANSION_KIND[e])} expansion" for e in action.expansions]
            if action.jokers:
                items.append(f"{action.jokers} joker{'s' if action.jokers > 1 else ''}")
            if not items:
                return "passes"
            loss = sum(TILE_KIND[t][1] for t in action.tiles) + sum(EXPANSION_KIND[e][1] for e in action.expansions)
            return f"passes, discarding {', '.join(items)} (−{loss})"
        return "does something unknown"

    def describe_in(self, state: QGState, action: Any) -> str:
        """describe(), plus where each acquired tile lies when identical hexagons gave a choice (Q20): "from the
        stack" or "from display piece n" (1-based position in `state.display`). Works on views too; menus use it
        so every listed action reads differently."""
        if not isinstance(action, Acquire):
            return self.describe(action)
        shown = [TILE_KIND[t] for t in _display_tiles(state)]
        shown += [EXPANSION_KIND[p.expansion] for p in state.display if p.face_up]
        items = []
        for t in action.tiles:
            text = kind_code(TILE_KIND[t])
            if shown.count(TILE_KIND[t]) > 1:
                where = next((n for n, p in enumerate(state.display, 1) if t in p.tiles), None)
                text += " from the stack" if where is None else f" from display piece {where}"
            items.append(text)
        items += [f"the {kind_code(EXPANSION_KIND[e])} expansion" for e in action.expansions]
        return f"takes all {_criterion_words(action.by, action.value)} from the display: {', '.join(items)}"

    def summary(self, options: Mapping[str, Any] | None = None) -> str:
        wheel = "; ".join(
            f"round {r}: " + ", ".join(criterion_name(c) for c in WHEEL[r]) for r in range(1, ROUNDS + 1)
        )
        colours = ", ".join(f"{c.name} ({c.letter})" for c in COLOURS)
        patterns = ", ".join(f"{v} {n}" for v, n in PATTERNS.items())
        lines = [
            f"**{self.title}**: 2–4 players, {ROUNDS} rounds. Build the finest garden of hexagons.",
            f"Colours: {colours}. Patterns (value = cost = points): {patterns}.",
            "**On your turn do one thing:**",
            "- **Acquire**: take every hexagon of one colour *or* one pattern from the display (tiles and face-up "
            f"expansions), only one of identical ones. It must fit your storage ({STORAGE_TILES} tiles incl. "
            f"jokers, {STORAGE_EXPANSIONS} expansions). Taking from the stack's top grows the display.",
            "- **Place a tile**: pay its value in hexagons, the tile counting as one: the others share its pattern "
            "in different colours, or its colour with different patterns; jokers stand in for any. It must touch "
            "no hexagon or share colour/pattern with at least one neighbour, and no group may ever hold two "
            "identical hexagons.",
            "- **Place an expansion**: from storage, paid like a tile, or the supply's top one blank side up for "
            f"{BLANK_EXPANSION_COST} points, on a free area around your fountain board, turned any way.",
            f"- **Pass** (final for the round), discarding hexagons at their value if you like; the first to pass "
            f"loses {FIRST_PASS_PENALTY} point and starts the next round.",
            "Surround a fountain, statue, bench or pavilion completely to earn jokers "
            + ", ".join(f"{k} {v}" for k, v in JOKER_REWARD.items())
            + ".",
            f"**Round scoring** (wheel): {wheel}; +1 per pavilion.",
            "**Game end**: +1 per joker, −value of every hexagon left in storage; every group of 3+ hexagons of one "
            "colour or one pattern scores the sum of its values, +6 for a group of 6. Ties are shared.",
            "Spaces: M1–M6 around the fountain, N0–N6 … NW0–NW6 in the expansion areas (0 = centre).",
        ]
        unsure = provisional()
        if unsure:
            lines.append("*Provisional values (not yet checked against the printed game):*")
            for v in unsure:
                lines.append(f"- {v['title']} ({v['rule']}, {_STATUS_WORDS.get(v['status'], v['status'])})")
        return "\n".join(lines)


_STATUS_WORDS = {"S": "stand-in", "?": "our reading", "1": "one unofficial source"}
assert all(v["status"] in {"ok", *_STATUS_WORDS} for v in VALUES.values())


# ---------------------------------------------------------------------------------------------- helpers


def _display_tiles(state: QGState) -> dict[int, int]:
    """Every tile in the display -> its source: -2 for the stack's top, else the display expansion's id."""
    out = {t: -2 for t in state.stack_tiles}
    for p in state.display:
        for t in p.tiles:
            out[t] = p.expansion
    return out


def _space_problem(seat: Seat, space: str) -> str | None:
    if space not in SPACE_COORD:
        return f"There is no space '{space}'; spaces are named like M3 or SE4."
    hexmap = G.hexagons(seat)
    if space in hexmap:
        return f"{space} already holds a hexagon (Q26)."
    elements = G.elements(seat)
    if space in elements:
        return f"{space} is a {elements[space]}, not a free space (Q39)."
    if space not in G.free_spaces(seat, hexmap):
        return f"{space} is in an expansion area with no expansion yet; place an expansion there first (Q26, Q28)."
    return None


def _area_problem(seat: Seat, area: str) -> str | None:
    if area not in AREAS:
        return f"There is no expansion area '{area}'; areas are {', '.join(AREAS)} (Q7)."
    if area not in G.free_areas(seat):
        free = ", ".join(G.free_areas(seat)) or "none"
        return f"Area {area} already holds an expansion; free areas: {free} (Q28)."
    return None


def _payment_problem(
    seat: Seat, kind: Kind, pay_tiles: tuple[int, ...], pay_expansions: tuple[int, ...], jokers: int,
    *, tile: int | None = None, expansion: int | None = None,
) -> str | None:
    """Q25: the placed hexagon plus value−1 others: one pattern in distinct colours or one colour in distinct
    patterns, jokers for any of the others."""
    need = kind[1] - 1
    name = kind_name(kind)
    if jokers < 0:
        return "You cannot pay with a negative number of jokers."
    offered = len(pay_tiles) + len(pay_expansions) + jokers
    if offered != need:
        return (
            f"A {name} costs {kind[1]}: itself and {need} more hexagon{'s' if need != 1 else ''} or jokers; "
            f"you offered {offered} (Q25)."
        )
    if jokers > seat.jokers:
        return f"You have only {seat.jokers} joker{'s' if seat.jokers != 1 else ''} (Q25)."
    if len(set(pay_tiles)) != len(pay_tiles) or any(t == tile or t not in seat.tiles for t in pay_tiles):
        return "Pay only with other tiles from your storage, each once (Q25)."
    if len(set(pay_expansions)) != len(pay_expansions) or any(
        e == expansion or e not in seat.expansions for e in pay_expansions
    ):
        return "Pay only with other expansions from your storage, each once (Q25)."
    kinds = [kind, *(TILE_KIND[t] for t in pay_tiles), *(EXPANSION_KIND[e] for e in pay_expansions)]
    if len(set(kinds)) != len(kinds):
        return "A payment may not hold two identical hexagons (Q25)."
    if len({k[0] for k in kinds}) > 1 and len({k[1] for k in kinds}) > 1:
        return (
            f"Pay for the {name} with {PATTERN_PLURALS[kind[1]]} of other colours, or {colour_name(kind[0])} "
            "hexagons of other patterns, never a mix (jokers fit either) (Q25)."
        )
    return None


def payment_options(seat: Seat, kind: Kind, *, tile: int | None = None, expansion: int | None = None) -> list[Payment]:
    """Q25: every distinct way to pay for a hexagon of `kind` (the placed `tile` or `expansion` left out), one
    representative per multiset of (kind, tile-or-expansion) used, fewest jokers first."""
    need = kind[1] - 1
    if need == 0:
        return [((), (), 0)]
    families: tuple[dict[Kind, list[tuple[str, int]]], dict[Kind, list[tuple[str, int]]]] = ({}, {})
    for t in seat.tiles:
        k = TILE_KIND[t]
        if t == tile or k == kind or (k[0] != kind[0] and k[1] != kind[1]):
            continue
        opts = families[0 if k[0] == kind[0] else 1].setdefault(k, [])
        if not opts or opts[0][0] != "t":
            opts.insert(0, ("t", t))
    for e in seat.expansions:
        k = EXPANSION_KIND[e]
        if e == expansion or k == kind or (k[0] != kind[0] and k[1] != kind[1]):
            continue
        families[0 if k[0] == kind[0] else 1].setdefault(k, []).append(("e", e))
    out: list[Payment] = []
    for family in families:
        keys = sorted(family)
        for k in range(min(need, len(keys)), max(1, need - seat.jokers) - 1, -1):
            for combo in combinations(keys, k):
                for choice in product(*(family[x] for x in combo)):
                    pt = tuple(sorted(i for s, i in choice if s == "t"))
                    pe = tuple(sorted(i for s, i in choice if s == "e"))
                    out.append((pt, pe, need - k))
    if seat.jokers >= need:
        out.append(((), (), need))
    out.sort(key=lambda p: p[2])
    return out


def _pass_options(seat: Seat) -> Iterator[Pass]:
    """Q29: pass plainly, discarding one hexagon (one per kind), or discarding all of them. Any other subset is
    legal too (`check` accepts it): a menu can build it as a multi-select; the list stays short."""
    yield Pass()
    firsts: dict[Kind, int] = {}
    for t in seat.tiles:
        firsts.setdefault(TILE_KIND[t], t)
    for t in firsts.values():
        yield Pass(tiles=(t,))
    for e in seat.expansions:
        yield Pass(expansions=(e,))
    if len(seat.tiles) + len(seat.expansions) > 1:
        yield Pass(tiles=seat.tiles, expansions=seat.expansions)
    if PASS_DISCARDS_JOKERS and seat.jokers:
        yield Pass(jokers=1)


# ---------------------------------------------------------------------------------------------- the draft


class _Draft:
    """A mutable working copy of a state for one step; `freeze()` gives the new immutable state."""

    def __init__(self, s: QGState) -> None:
        self.s = s
        self.counter = s.rng_counter
        self.round = s.round
        self.current = s.current
        self.first_player = s.first_player
        self.marker = s.marker
        self.bag = s.bag
        self.tower = s.tower
        self.stack = s.stack
        self.stack_tiles = s.stack_tiles
        self.display = s.display
        self.stacks = s.stacks
        self.supply = s.supply
        self.seats = list(s.seats)
        self.over = s.over
        self.log = list(s.log)

    def freeze(self) -> QGState:
        return QGState(
            players=self.s.players, seed=self.s.seed, rng_counter=self.counter, round=self.round,
            current=self.current, first_player=self.first_player, marker=self.marker, bag=self.bag,
            tower=self.tower, stack=self.stack, stack_tiles=self.stack_tiles, display=self.display,
            stacks=self.stacks, supply=self.supply, seats=tuple(self.seats), over=self.over, log=tuple(self.log),
        )

    def event(self, kind: str, text: str, player: int | None = None, **data: Any) -> None:
        who = self.s.players[player] if player is not None else None
        self.log.append(Event(kind, text, who, data))

    # -- the display -------------------------------------------------------------------------------------

    def fill_top(self) -> None:
        """Q16/Q22/Q24: 4 bag tiles on the stack's top; refill the bag from the tower when short; with no tile
        at all, the stack's empty expansions go face up into the display."""
        if not self.stack:
            self.stack_tiles = ()
            return
        if len(self.bag) < TILES_PER_FILL and self.tower:
            self.bag, self.counter = shuffled(self.bag + self.tower, self.s.seed, self.counter)
            self.tower = ()
        self.stack_tiles, self.bag = self.bag[:TILES_PER_FILL], self.bag[TILES_PER_FILL:]
        if not self.stack_tiles:
            self.display += tuple(Piece(e, (), True) for e in self.stack)
            self.stack = ()

    def acquire(self, i: int, a: Acquire) -> None:
        taken = set(a.tiles)
        gone = set(a.expansions)
        from_top = any(t in taken for t in self.stack_tiles)
        self.stack_tiles = tuple(t for t in self.stack_tiles if t not in taken)
        self.display = tuple(
            Piece(p.expansion, tuple(t for t in p.tiles if t not in taken), p.face_up) if p.tiles else p
            for p in self.display
            if not (p.face_up and p.expansion in gone)
        )
        if from_top:  # Q22: the top expansion moves out with its leftover tiles; the new top gets 4 tiles
            self.display += (Piece(self.stack[0], self.stack_tiles),)
            self.stack = self.stack[1:]
            self.fill_top()
        # Q23: display expansions with no tiles left turn face up
        self.display = tuple(Piece(p.expansion, (), True) if not p.tiles else p for p in self.display)
        seat = self.seats[i]
        self.seats[i] = replace(
            seat,
            tiles=tuple(sorted(seat.tiles + a.tiles)),
            expansions=tuple(sorted(seat.expansions + a.expansions)),
        )

    # -- placing ------------------------------------------------------------------------------------------

    def pay(self, i: int, pay_tiles: tuple[int, ...], pay_expansions: tuple[int, ...], jokers: int,
            used_tile: int | None = None, used_expansion: int | None = None) -> Seat:
        """Q25: discarded tiles to the tower, expansions face down to the supply, jokers to the joker supply."""
        seat = self.seats[i]
        out_tiles = set(pay_tiles) | ({used_tile} if used_tile is not None else set())
        out_exps = set(pay_expansions) | ({used_expansion} if used_expansion is not None else set())
        self.tower += tuple(pay_tiles)
        self.return_expansions(tuple(pay_expansions))
        return replace(
            seat,
            tiles=tuple(t for t in seat.tiles if t not in out_tiles),
            expansions=tuple(e for e in seat.expansions if e not in out_exps),
            jokers=seat.jokers - jokers,
        )

    def return_expansions(self, exps: tuple[int, ...]) -> None:
        # Q34 [1]: returned and discarded expansions go face down to the bottom of the supply
        self.supply = self.supply + exps if RETURN_TO_BOTTOM else exps + self.supply

    def place_tile(self, i: int, a: PlaceTile) -> None:
        seat = self.pay(i, a.pay_tiles, a.pay_expansions, a.jokers, used_tile=a.tile)
        self.seats[i] = replace(seat, garden={**seat.garden, a.space: a.tile})
        self.reward_surrounded(i)

    def place_expansion(self, i: int, a: PlaceExpansion) -> None:
        seat = self.pay(i, a.pay_tiles, a.pay_expansions, a.jokers, used_expansion=a.expansion)
        self.seats[i] = replace(seat, placed=seat.placed + (Placed(a.expansion, a.area, a.turn, True),))
        self.reward_surrounded(i)

    def buy_expansion(self, i: int, a: BuyExpansion) -> None:
        # Q28 ii: exactly 6 points for the supply's top expansion, placed blank side up (7 free spaces)
        seat = self.seats[i]
        e, self.supply = self.supply[0], self.supply[1:]
        self.seats[i] = replace(
            seat, score=seat.score - BLANK_EXPANSION_COST, placed=seat.placed + (Placed(e, a.area, 0, False),)
        )

    def reward_surrounded(self, i: int) -> None:
        """Q30: jokers for every element now completely surrounded; those that do not fit in storage are lost."""
        seat = self.seats[i]
        done = G.newly_surrounded(seat, G.hexagons(seat))
        if not done:
            return
        jokers, rewarded = seat.jokers, set(seat.rewarded)
        for space, element in done:
            owed = JOKER_REWARD[element]
            room = STORAGE_TILES - len(seat.tiles) - jokers
            got = min(owed, max(room, 0))
            jokers += got
            rewarded.add(space)
            lost = f" ({owed - got} lost: storage full)" if got < owed else ""
            self.event(
                "jokers", f"surrounds the {element} at {space} and takes {got} joker{'s' if got != 1 else ''}{lost}.",
                i, element=element, space=space, jokers=got, lost=owed - got,
            )
        self.seats[i] = replace(seat, jokers=jokers, rewarded=frozenset(rewarded))

    # -- passing, turns and rounds ----------------------------------------------------------------------------

    def pass_(self, i: int, a: Pass) -> None:
        seat = self.seats[i]
        loss = sum(TILE_KIND[t][1] for t in a.tiles) + sum(EXPANSION_KIND[e][1] for e in a.expansions)
        seat = self.pay(i, a.tiles, a.expansions, a.jokers)
        score = max(0, seat.score - loss)  # Q29, Q37
        if self.marker is None:  # Q29: the first to pass takes the first-player marker and loses 1 point
            self.marker = i
            score = max(0, score - FIRST_PASS_PENALTY)
            self.event(
                "first_pass", f"passes first: takes the first-player marker, −{FIRST_PASS_PENALTY} point.", i,
                penalty=FIRST_PASS_PENALTY,
            )
        self.seats[i] = replace(seat, score=score, passed=True)

    def advance(self) -> None:
        n = len(self.seats)
        assert self.current is not None
        for k in range(1, n + 1):
            j = (self.current + k) % n
            if not self.seats[j].passed:
                self.current = j
                return
        self.end_round()  # Q18: phase 1 ends when everyone has passed

    def end_round(self) -> None:
        n = len(self.seats)
        for k in range(n):  # Q31: scoring starts with the first player
            i = (self.first_player + k) % n
            seat = self.seats[i]
            points, lines = G.round_score(seat, self.round)
            self.seats[i] = replace(seat, score=seat.score + points)
            parts = [
                f"{'pavilions' if ln['criterion'] == 'pavilions' else criterion_name((ln['criterion'], ln['key']))}"
                f" ×{ln['hexagons']} = {ln['points']}"
                for ln in lines
                if ln["hexagons"]
            ]
            detail = "; ".join(parts) or "nothing matches the wheel"
            self.event(
                "round_scoring", f"scores {points} point{'s' if points != 1 else ''} in round {self.round} ({detail}).", i,
                round=self.round, points=points, lines=lines, score=self.seats[i].score,
            )
        if self.round == ROUNDS:
            self.final_scoring()
            return
        # Q34: preparation. Tiles on face-down display expansions go to the tower; every display expansion
        # (and what is left of the round stack) goes face down to the supply; the next stack comes out.
        self.tower += self.stack_tiles + tuple(t for p in self.display for t in p.tiles)
        self.return_expansions(tuple(p.expansion for p in self.display) + self.stack)
        self.stack, self.stacks = self.stacks[0], self.stacks[1:]
        self.stack_tiles, self.display = (), ()
        self.round += 1
        self.fill_top()
        assert self.marker is not None
        self.first_player = self.current = self.marker  # Q15, Q34: the marker's holder starts
        self.marker = None
        self.seats = [replace(s, passed=False) for s in self.seats]
        self.log_round_start()

    def log_round_start(self) -> None:
        crit = ", ".join(criterion_name(c) for c in WHEEL[self.round])
        self.event(
            "round_start", f"starts round {self.round}; the wheel scores {crit}.", self.first_player,
            round=self.round, criteria=[list(c) for c in WHEEL[self.round]],
        )

    def final_scoring(self) -> None:
        """Q35: storage (+1 per joker, −value per hexagon left), then groups of 3+ by colour, then by pattern
        (sum of values, +6 for a group of 6). Q36: the best total wins; ties are shared."""
        for i, seat in enumerate(self.seats):
            jokers, tiles, exps = G.storage_value(seat)
            after_storage = max(0, seat.score + jokers + tiles + exps)  # Q37
            colour_groups, pattern_groups = G.scored_groups(seat)
            group_points = sum(g["points"] for g in colour_groups + pattern_groups)
            bonus = sum(g["bonus"] for g in colour_groups + pattern_groups)
            total = after_storage + group_points + bonus
            self.seats[i] = replace(seat, score=total)
            text = (  # after the player's name: "Ana ends with 54 points: ..."
                f"ends with {total} points: storage {jokers + tiles + exps:+d}, colour groups "
                f"{sum(g['points'] for g in colour_groups)}, pattern groups {sum(g['points'] for g in pattern_groups)}"
                f", bonuses {bonus} (final scoring)."
            )
            self.event(
                "final_scoring", text, i,
                before=seat.score, storage={"jokers": jokers, "tiles": tiles, "expansions": exps},
                after_storage=after_storage, colour_groups=colour_groups, pattern_groups=pattern_groups,
                bonus=bonus, total=total,
            )
        best = max(s.score for s in self.seats)
        winners = [p for p, s in zip(self.s.players, self.seats, strict=True) if s.score == best]
        shared = f", shared by {len(winners)} players" if len(winners) > 1 else ""
        self.event("game_over", f"The game is over: the best score is {best}{shared}.", None, winners=winners, score=best)
        self.over = True
        self.current = None
