"""The Gardens of the Alhambra: the rules behind the engine contract (set-up, turns, completion, scoring, views).

Rule numbers refer to the G-rules spec. Design choices the spec leaves open, all documented in `summary()` too:

* G17 colours are chosen by the players as actions at the start, in seat order (`ChooseColours`); whoever is
  left with a single possibility gets it without being asked. In the G37 two-colours game the first seat picks
  a pair of kinds and the second seat gets the other two.
* G20 the first seat starts (the lobby decides the seat order); play goes on in seat order.
* G27 several buildings completed by one tile are scored NW, NE, SE, SW of the placed tile.

The log holds the last action's events only: a colour choice (with the colours given without a question), or a
placement with its draw, the buildings it completed and the end of the game. The results need no history: a
completed building's scoring is a function of the board (`building_scores`). `migrate` reads states stored by
earlier versions.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping
from typing import Any

from engine._common import N_, Event, Option, Rules, Text, join_texts, replace, shuffled, visible_log
from engine.gardens import migrate
from engine.gardens.actions import ACTION_TYPES, Action, ChooseColours, PlaceTile, describe, plays
from engine.gardens.components import (
    BUILDING_TYPES,
    BUILDING_VALUES,
    KIND_INDEX,
    KIND_TITLES,
    KINDS,
    TILE_IDS,
    TILE_TREES,
    building_label,
    kind_text,
    tile_text,
)
from engine.gardens.geometry import (
    BUILDING_NAMES,
    DEGREES,
    GARDEN_BUILDINGS,
    GARDEN_INDEX,
    GARDEN_NAMES,
    GARDEN_NEIGHBOURS,
    INNER_GARDENS,
    N_BUILDINGS,
    N_GARDENS,
    SCORING_ORDER,
    Board,
    facing_kinds,
    open_spaces,
)
from engine.gardens.scoring import building_points, is_complete, tree_counts
from engine.gardens.state import COLOURS, HIDDEN, OVER, PLAY, GardensState

# Every possible placement action, built once: legal_actions hands out these shared objects (speed).
_PLACE: dict[str, tuple[tuple[PlaceTile, ...], ...]] = {
    t: tuple(tuple(PlaceTile(t, GARDEN_NAMES[g], q) for q in range(4)) for g in range(N_GARDENS)) for t in TILE_IDS
}


def completed_buildings(state: GardensState) -> frozenset[str]:
    """Names of the buildings already complete, hence scored and turned to their finished side (G26, G32)."""
    return frozenset(BUILDING_NAMES[b] for b in range(N_BUILDINGS) if is_complete(state.board, b))


def kind_owners(state: GardensState) -> dict[str, str]:
    """Which player owns each chosen kind (G17, G37); kinds missing here are unowned (G31)."""
    return {k: state.players[seat] for seat, ks in enumerate(state.colours) for k in ks}


def player_colours(state: GardensState, player: str) -> tuple[str, ...]:
    """The kind(s) a player plays (empty before they chose)."""
    return state.colours[state.players.index(player)]


def building_scores(state: GardensState) -> dict[str, dict[str, Any]]:
    """Every completed building's scoring, by building name in board order: the data of its "building" event
    without `completed_by` (G26–G32). A pure function of the board: a building is scored once, when complete,
    and neither the gardens around it nor the players' kinds (chosen before any tile, G17) change afterwards,
    so no history is kept for the results."""
    owners = {KIND_INDEX[k]: state.players[s] for s, ks in enumerate(state.colours) for k in ks}
    accounts = tuple(sorted(owners))
    return {
        BUILDING_NAMES[b]: _building_data(state.board, b, state.buildings[b], accounts, owners)[1]
        for b in range(N_BUILDINGS)
        if is_complete(state.board, b)
    }


def breakdown(state: GardensState) -> dict[str, list[dict[str, Any]]]:
    """Per player, the building scorings that gave them points (`building_scores`, in board order): for results
    images."""
    out: dict[str, list[dict[str, Any]]] = {p: [] for p in state.players}
    for data in building_scores(state).values():
        if data["winner"] is not None:
            out[data["winner"]].append(data)
    return out


def _building_data(
    board: Board, b: int, value: int, accounts: tuple[int, ...], owners: dict[int, str]
) -> tuple[int | None, dict[str, Any]]:
    """G28–G31: the winning kind index (None: nobody) and the scoring's data (without `completed_by`)."""
    counts = tree_counts(board, b)
    winner, kinds, points = building_points(counts, accounts, value)
    who = owners[winner] if winner is not None else None
    data = {
        "building": BUILDING_NAMES[b],
        "value": value,
        "type": BUILDING_TYPES[value],
        "trees": {k: counts[i] for i, k in enumerate(KINDS)},
        "owned": [KINDS[i] for i in accounts],
        "kinds": kinds,
        "winner": who,
        "colour": KINDS[winner] if winner is not None else None,
        "points": points,
    }
    return winner, data


@functools.cache
def _trees(kind: str, n: int, owned: bool) -> Text:
    """A kind's trees facing a scored building, "purple 6" or "yellow 3 (unowned)" (made once: every scoring
    names them)."""
    if owned:
        return Text("{kind} {n}", kind=kind_text(kind), n=n)
    return Text("{kind} {n} (unowned)", kind=kind_text(kind), n=n)


class GardensRules(Rules[GardensState, Action]):
    """The Gardens of the Alhambra (Dirk Henn, Queen Games 2004), G1–G37."""

    name = "gardens"
    title = N_("The Gardens of the Alhambra")
    player_counts = range(2, 5)
    options = {
        "three_tile_hand": Option(
            "three_tile_hand", False, Text("G36: hold 3 garden tiles and choose which to place (a longer game).")
        ),
        "two_colours": Option(
            "two_colours",
            False,
            Text("G37, 2 players only: each plays two tree kinds, scored apart, added at the end."),
        ),
    }
    state_type = GardensState
    action_types = ACTION_TYPES
    json_version = 2  # 2: the log holds the last action's events (1: the whole history)

    # -- set-up ------------------------------------------------------------------------------------------

    def _new_game(self, players: tuple[str, ...], options: dict[str, Any], seed: int) -> GardensState:
        if options["two_colours"] and len(players) != 2:
            raise ValueError(Text("The two-colours game (G37) is for 2 players, not {n}.", n=len(players)))
        hand_size = 3 if options["three_tile_hand"] else 1  # G18, G36
        buildings, counter = shuffled(BUILDING_VALUES, seed, 0)  # G16
        tiles, counter = shuffled(TILE_IDS, seed, counter)  # G18
        n = len(players)
        hands = tuple(tiles[i * hand_size : (i + 1) * hand_size] for i in range(n))
        return GardensState(
            players=players,
            seed=seed,
            counter=counter,
            hand_size=hand_size,
            two_colours=bool(options["two_colours"]),
            buildings=buildings,
            board=(None,) * N_GARDENS,
            hands=hands,
            supply=tiles[n * hand_size :],
            colours=((),) * n,
            kind_scores=(0, 0, 0, 0),
            phase=COLOURS,
            turn=0,
        )

    # -- whose turn, what may they do ----------------------------------------------------------------------

    def to_move(self, state: GardensState) -> list[str]:
        return [] if state.phase == OVER else [state.players[state.turn]]

    def _colour_choices(self, state: GardensState) -> list[tuple[str, ...]]:
        taken = {k for ks in state.colours for k in ks}
        free = [k for k in KINDS if k not in taken]
        return list(itertools.combinations(free, 2 if state.two_colours else 1))

    def candidates(self, state: GardensState, player: str) -> Iterable[Any]:
        if state.phase == COLOURS:
            return [ChooseColours(c) for c in self._colour_choices(state)]
        return self.legal_actions(state, player)

    def legal_actions(self, state: GardensState, player: str) -> list[Any]:
        if state.phase == OVER or player != state.players[state.turn]:
            return []
        if state.phase == COLOURS:
            return [ChooseColours(c) for c in self._colour_choices(state)]
        spaces = open_spaces(state.board)
        # G12/G13: each of the four quarter-turn rotations of every hand tile on every open space.
        return [a for t in state.hands[state.turn] if t in _PLACE for g in spaces for a in _PLACE[t][g]]

    def check(self, state: GardensState, player: str, action: Action) -> Text | None:
        if state.phase == OVER:
            return Text("The game is over (G34).")
        if player != state.players[state.turn]:
            return Text("It is not your turn.")
        if isinstance(action, ChooseColours):
            return self._check_colours(state, action)
        return self._check_place(state, action)

    def _check_colours(self, state: GardensState, action: ChooseColours) -> Text | None:
        if state.phase != COLOURS:
            return Text("Colours were chosen at the start of the game (G17).")
        want = 2 if state.two_colours else 1
        chosen = action.colours
        if not isinstance(chosen, tuple) or not all(isinstance(k, str) for k in chosen):
            return Text("Name your colour: purple, green, yellow or orange (G17).")
        taken = {k for ks in state.colours for k in ks}
        free = join_texts([kind_text(k) for k in KINDS if k not in taken])
        if len(chosen) != want or len(set(chosen)) != want:
            if want == 2:
                return Text("Choose two different tree kinds (G37); free: {free}.", free=free)
            return Text("Choose one tree kind (G17); free: {free}.", free=free)
        for k in chosen:
            if k not in KIND_INDEX:
                return Text("'{kind}' is not a tree kind; choose from {free} (G7).", kind=k, free=free)
            if k in taken:
                kind = Text.marked(KIND_TITLES[k])
                return Text("{kind} is already taken; free: {free} (G17).", kind=kind, free=free)
        return None

    def _check_place(self, state: GardensState, action: PlaceTile) -> Text | None:
        if state.phase != PLAY:
            return Text("First everyone chooses a colour (G17).")
        hand = state.hands[state.turn]
        if action.tile not in hand or action.tile == HIDDEN:
            held = [Text("{tile} ({id})", tile=tile_text(t), id=t) for t in hand if t in TILE_TREES]
            if not held:
                return Text("You don't hold that tile; you hold nothing (G21).")
            return Text("You don't hold that tile; you hold {tiles} (G21).", tiles=join_texts(held))
        rot = action.rotation
        if type(rot) is not int or not 0 <= rot <= 3:
            return Text("Turn the tile by 0, 90, 180 or 270 degrees so each tree kind faces one building (G12, G13).")
        g = GARDEN_INDEX.get(action.space) if isinstance(action.space, str) else None
        if g is None:
            return Text(
                "'{space}' is not a garden space; use a column A–F and a row 1–6, like C3 (G1).",
                space=str(action.space),
            )
        board = state.board
        if board[g] is not None:
            return Text("{space} already holds a tile; choose an empty garden space (G21).", space=action.space)
        if not any(board):
            if g not in INNER_GARDENS:
                return Text(
                    "The first tile must go in the inner 4×4 (B2–E5), not on the edge like {space} (G22).",
                    space=action.space,
                )
        elif not any(board[n] is not None for n in GARDEN_NEIGHBOURS[g]):
            return Text(
                "{space} does not touch a placed tile along a side; place next to one, "
                "left, right, above or below it (G23).",
                space=action.space,
            )
        return None

    # -- applying ----------------------------------------------------------------------------------------

    def step(self, state: GardensState, player: str, action: Action) -> GardensState:
        if isinstance(action, ChooseColours):
            return self._step_colours(state, player, action)
        return self._step_place(state, player, action)

    def _step_colours(self, state: GardensState, player: str, action: ChooseColours) -> GardensState:
        colours = list(state.colours)
        log: list[Event] = []  # the log holds this action's events only
        seat = state.turn
        chosen = tuple(sorted(action.colours, key=KIND_INDEX.__getitem__))
        colours[seat] = chosen
        log.append(Event("colour", plays(chosen), player, {"colours": list(chosen)}))
        n = len(state.players)
        seat += 1
        # Whoever is left with exactly one possibility gets it without a question (G17, G37 [D]).
        while seat < n:
            taken = {k for ks in colours for k in ks}
            free = [k for k in KINDS if k not in taken]
            options = list(itertools.combinations(free, 2 if state.two_colours else 1))
            if len(options) != 1:
                break
            colours[seat] = options[0]
            who = state.players[seat]
            log.append(Event("colour", plays(options[0]), who, {"colours": list(options[0])}))
            seat += 1
        done = seat >= n
        return replace(
            state,
            colours=tuple(colours),
            phase=PLAY if done else COLOURS,
            turn=0 if done else seat,  # G20: the first seat starts
            log=tuple(log),
        )

    def _step_place(self, state: GardensState, player: str, action: PlaceTile) -> GardensState:
        seat = state.turn
        tile, rot, g = action.tile, action.rotation, GARDEN_INDEX[action.space]
        cells = list(state.board)
        cells[g] = (tile, rot)
        board = tuple(cells)
        log: list[Event] = []  # the log holds this action's events only
        facing = facing_kinds(tile, rot)
        bnames = [BUILDING_NAMES[b] for b in GARDEN_BUILDINGS[g]]
        log.append(
            Event(
                "place",
                Text(
                    "places {tile} at {space} turned {degrees}°",
                    tile=tile_text(tile),
                    space=action.space,
                    degrees=DEGREES[rot],
                ),
                player,
                {
                    "tile": tile,
                    "space": action.space,
                    "rotation": rot,
                    "facing": dict(zip(facing, bnames, strict=True)),
                },
            )
        )
        # G21: place, then draw if the supply is not empty (G25: otherwise just play on).
        hands = list(state.hands)
        hand = tuple(t for t in hands[seat] if t != tile)
        supply = state.supply
        if supply:
            drawn, supply = supply[0], supply[1:]
            hand += (drawn,)
            said = Text("draws {tile}", tile=tile_text(drawn)) if drawn in TILE_TREES else Text("draws a tile")
            log.append(Event("draw", said, player, {"tile": drawn}, private_to=player))
        hands[seat] = hand

        # G26/G27: every building this tile completes is scored at once, in a fixed order.
        kind_scores = list(state.kind_scores)
        owners = {KIND_INDEX[k]: state.players[s] for s, ks in enumerate(state.colours) for k in ks}
        accounts = tuple(sorted(owners))
        around = GARDEN_BUILDINGS[g]
        for d in SCORING_ORDER:
            b = around[d]
            if is_complete(board, b):
                log.append(self._score(board, b, state.buildings[b], accounts, owners, kind_scores, player))

        n = len(state.players)
        full = all(x is not None for x in board)
        if full:  # G34: the last tile is placed and every building scored
            phase, turn = OVER, seat
        else:
            phase, turn = PLAY, (seat + 1) % n
            while not hands[turn]:  # a seat with an empty hand has nothing to place (G25)
                turn = (turn + 1) % n
        new = replace(
            state,
            board=board,
            hands=tuple(hands),
            supply=supply,
            kind_scores=tuple(kind_scores),
            phase=phase,
            turn=turn,
            last_space=action.space,
            log=tuple(log),
        )
        if full:
            scores = self.scores(new)
            best = max(scores.values())
            winners = [p for p in new.players if scores[p] == best]  # G35: all tied players win
            end = Event(
                "game_end",
                Text("The game is over: every garden is planted and every building scored."),
                None,
                {"scores": scores, "kind_scores": dict(zip(KINDS, kind_scores, strict=True)), "winners": winners},
            )
            new = replace(new, log=new.log + (end,))
        return new

    @staticmethod
    def _score(
        board: Board,
        b: int,
        value: int,
        accounts: tuple[int, ...],
        owners: dict[int, str],
        kind_scores: list[int],
        placer: str,
    ) -> Event:
        """G28–G32: score building b (complete), add the points to the winning kind, and say why."""
        winner, data = _building_data(board, b, value, accounts, owners)
        counts = tree_counts(board, b)
        name, label, points, kinds = data["building"], building_label(value), data["points"], data["kinds"]
        counted = [_trees(k, counts[i], i in owners) for i, k in enumerate(KINDS) if counts[i]]
        trees = join_texts(counted) if counted else Text("no trees")
        if winner is not None:
            kind_scores[winner] += points
            text = Text(
                "scores {points} with {colour} for the {building} at {space} ({trees}: {n} kind × {value})",
                "scores {points} with {colour} for the {building} at {space} ({trees}: {n} kinds × {value})",
                points=points,
                colour=kind_text(data["colour"]),
                building=label,
                space=name,
                trees=trees,
                n=kinds,
                value=value,
            )
        else:
            text = Text(
                "Nobody scores the {building} at {space} ({trees}: equal counts cancel out, G29)",
                building=label,
                space=name,
                trees=trees,
            )
        return Event("building", text, data["winner"], {**data, "completed_by": placer})

    # -- outcome -----------------------------------------------------------------------------------------

    def is_over(self, state: GardensState) -> bool:
        return state.phase == OVER

    def scores(self, state: GardensState) -> dict[str, int]:
        # G37: a player's total is the sum of their kinds' separate scores.
        return {
            p: sum(state.kind_scores[KIND_INDEX[k]] for k in ks)
            for p, ks in zip(state.players, state.colours, strict=True)
        }

    # -- information -------------------------------------------------------------------------------------

    def view(self, state: GardensState, player: str | None) -> GardensState:
        """G19: other players' hands and the supply order become HIDDEN tiles (counts stay); the seed goes."""
        hands = tuple(h if p == player else (HIDDEN,) * len(h) for p, h in zip(state.players, state.hands, strict=True))
        return replace(
            state,
            seed=0,
            hands=hands,
            supply=(HIDDEN,) * len(state.supply),
            log=visible_log(state.log, player),
        )

    def turn_over(self, before: GardensState, player: str, action: Action, after: GardensState) -> bool:
        """G17, G21: a turn is one colour choice or one placement; a seat whose rivals' hands are empty (G25)
        takes several turns in a row."""
        return True

    def reveals(self, before: GardensState, player: str, action: Action, after: GardensState) -> bool:
        """G19, G21: a placed tile comes out of a hidden hand, and a tile is drawn from the hidden supply (even
        when the supply is empty, G25, the placed tile was hidden). Choosing colours (G17) hides nothing."""
        return isinstance(action, PlaceTile)

    def describe(self, action: Action) -> Text:
        return describe(action)

    def describe_move(self, state: GardensState, action: Action) -> Text:
        """Like `describe`, naming the buildings each kind faces: "…, purple facing the tower (5) at d3, …"."""
        if not isinstance(action, PlaceTile) or action.tile not in TILE_TREES or action.space not in GARDEN_INDEX:
            return self.describe(action)
        if action.rotation not in range(4):
            return self.describe(action)
        around = GARDEN_BUILDINGS[GARDEN_INDEX[action.space]]
        faces = join_texts(
            [
                Text(
                    "{kind} facing the {building} at {space}",
                    kind=kind_text(k),
                    building=building_label(state.buildings[around[d]]),
                    space=BUILDING_NAMES[around[d]],
                )
                for d, k in enumerate(facing_kinds(action.tile, action.rotation))
            ]
        )
        return Text(
            "places {tile} at {space} turned {degrees}°: {faces}",
            tile=tile_text(action.tile),
            space=action.space,
            degrees=DEGREES[action.rotation],
            faces=faces,
        )

    def preview(self, state: GardensState, player: str, action: PlaceTile) -> list[dict[str, Any]]:
        """The building scorings a legal placement would cause (event data; works on the player's own view)."""
        after = self.step(state, player, action)
        return [e.data for e in after.log if e.kind == "building"]

    def summary(self, options: Mapping[str, Any] | None = None) -> Text:
        return _SUMMARY

    # -- stored states -----------------------------------------------------------------------------------

    def migrate(self, version: Any, payload: Any) -> Any:
        return migrate.migrate(version, payload)

    def validate(self, state: GardensState) -> None:
        n = len(state.players)
        if n not in self.player_counts:
            raise ValueError(f"{n} players is not a Gardens game")
        if state.hand_size not in (1, 3):
            raise ValueError("hand size must be 1 or 3")
        if state.two_colours and n != 2:
            raise ValueError("the two-colours game has 2 players")
        if len(state.buildings) != N_BUILDINGS or sorted(state.buildings) != sorted(BUILDING_VALUES):
            raise ValueError("the buildings must be the 49 foundation tiles (G6)")
        if len(state.board) != N_GARDENS or len(state.hands) != n or len(state.colours) != n:
            raise ValueError("board, hands or colours have the wrong size")
        placed = [x for x in state.board if x is not None]
        for tile, rot in placed:
            if tile not in TILE_TREES or rot not in range(4):
                raise ValueError(f"bad placed tile {tile!r} turned {rot!r}")
        tiles = [t for t, _ in placed] + [t for h in state.hands for t in h] + list(state.supply)
        if len(tiles) != len(TILE_IDS):
            raise ValueError(f"{len(tiles)} garden tiles in play; there are {len(TILE_IDS)} (G2)")
        known = [t for t in tiles if t != HIDDEN]
        if len(set(known)) != len(known) or not set(known) <= set(TILE_TREES):
            raise ValueError("unknown or repeated garden tiles")
        if any(len(h) > state.hand_size for h in state.hands):
            raise ValueError("a hand holds too many tiles")
        chosen = [k for ks in state.colours for k in ks]
        if len(set(chosen)) != len(chosen) or not set(chosen) <= set(KINDS):
            raise ValueError("bad colour choices")
        if len(state.kind_scores) != 4 or any(s < 0 for s in state.kind_scores):
            raise ValueError("bad scores")
        if state.phase not in (COLOURS, PLAY, OVER) or not 0 <= state.turn < n:
            raise ValueError("bad phase or turn")
        if state.phase == COLOURS and placed:
            raise ValueError("tiles placed before colours were chosen")
        if state.phase == OVER and len(placed) != N_GARDENS:
            raise ValueError("a finished game has every garden planted (G25, G34)")
        if state.last_space is not None and state.last_space not in GARDEN_INDEX:
            raise ValueError("bad last space")


_SUMMARY = join_texts(
    [
        Text("**The Gardens of the Alhambra** (2–4 players)"),
        Text(
            "• **Board**: 6×6 garden spaces (A1–F6) and 7×7 buildings (a1–g7) at their corners; building values 1–5 "
            "shuffled at the start. Garden C3 touches buildings c3 (NW), d3 (NE), d4 (SE), c4 (SW)."
        ),
        Text(
            "• **Colours**: in seat order each player picks a tree kind (purple, green, yellow, orange); unpicked "
            "kinds belong to nobody. The first seat starts."
        ),
        Text(
            "• **Your turn**: place your hand tile on an empty space, turned 0/90/180/270° so each of its four tree "
            "kinds faces one building; then draw. The first tile goes in the inner 4×4 (B2–E5); every later one must "
            "touch a placed tile by a side (left, right, above, below)."
        ),
        Text(
            "• **Buildings** score when every garden around them is filled (4, 2 on the edge, 1 in a corner). Add up "
            "the trees of each player's kind facing it; counts that two or more players share cancel out, and the "
            "highest remaining count wins — even 0. Points = number of owned kinds facing it × its value."
        ),
        Text("• **End**: when all 36 tiles are placed. Most points wins; ties share the win."),
        Text(
            "• **Options**: *three_tile_hand* — hold 3 tiles, place any one. *two_colours* (2 players) — each plays "
            "two kinds, scored separately (you can cancel yourself out), added at the end."
        ),
        Text(
            "_Not confirmed from a physical set: the colour order on each tile (one of each 6 cyclic orders per "
            "value) [D]; hands are kept private, choosing colours in seat order and scoring several buildings NW, "
            "NE, SE, SW are our choices [D]._"
        ),
    ],
    "\n",
)
