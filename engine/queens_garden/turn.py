"""Azul: Queen's Garden turn flow: `step` applies a legal action through a `Draft` (a mutable working copy of the
state, frozen at the end): taking from the display and its refill (Q19–Q24), placing and paying (Q25–Q28), jokers
for surrounded elements (Q30), passing (Q29), round scoring (Q31–Q33), preparation of the next round (Q34) and the
final scoring (Q35–Q36).

The log: a `Draft` starts the log afresh, so after an action it holds exactly that action's events: first a
public "move" event (`describe`'s words, the action's JSON as `data["action"]`, and the `space` of a placed
expansion's printed hexagon), then the events it caused. The scoring breakdown the results need is kept in each
seat (`round_points`, `final`).
"""

from __future__ import annotations

from typing import Any

from engine._common import Event, Text, action_to_json, join_texts, shuffled
from engine.queens_garden.actions import Acquire, Action, BuyExpansion, Pass, PlaceExpansion, PlaceTile, describe
from engine.queens_garden.components import (
    BLANK_EXPANSION_COST,
    EXPANSION_KIND,
    FIRST_PASS_PENALTY,
    JOKER_REWARD,
    RETURN_TO_BOTTOM,
    ROUNDS,
    STORAGE_TILES,
    TILE_KIND,
    TILES_PER_FILL,
    WHEEL,
    criterion_name,
    element_text,
)
from engine.queens_garden.geometry import (
    FOUNTAIN_ELEMENTS,
    NEIGHBOURS,
    hexagons,
    newly_surrounded,
    printed_space,
    space_text,
)
from engine.queens_garden.scoring import round_score, scored_groups, storage_value
from engine.queens_garden.state import FinalScore, Piece, Placed, QGState, Seat


def step(state: QGState, player: str, action: Action, quiet: bool = False) -> QGState:
    """Apply a legal action (unchecked): the move event, the action, then the next player, round end and scoring.
    `quiet` (AI playouts): the same next state, but no event is built (an empty log)."""
    d = Draft(state, quiet)
    i = state.current
    if i is None:
        raise ValueError("The game is over: nobody is to move.")
    if not quiet:
        d.event("move", describe(action), i, **_move_data(action))  # first: what follows comes of it
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


def reveals(before: QGState, player: str, action: Action, after: QGState) -> bool:
    """True if `action` showed anyone something hidden (storages are public, Q8; the bag's order and face-down
    expansions are not): tiles drawn from the bag onto the stack's top (Q16, Q22, Q34) or the tower shuffled
    into the bag (Q24), or a face-down expansion turned face up in the display (Q23, Q24). Placing, buying a
    blank expansion (it stays face down, Q28 ii), passing and the scorings show nothing hidden."""
    if after.bag != before.bag or after.rng_counter != before.rng_counter:
        return True
    shown = {p.expansion for p in before.display if p.face_up}
    return any(p.face_up and p.expansion not in shown for p in after.display)


def _move_data(action: Action) -> dict[str, Any]:
    """The data of an action's public "move" event: the action's JSON and, for an expansion placed face up,
    the `space` of its printed hexagon (the action names the `area`). Nothing in it is secret: storages and
    face-up hexagons are public (Q8), and buying a blank expansion names only the area, never which
    expansion came from the face-down supply (Q28 ii)."""
    data: dict[str, Any] = {"action": action_to_json(action)}
    if isinstance(action, PlaceExpansion):
        data["space"] = printed_space(action.area, action.turn)
    return data


def _surrounds(seat: Seat, changed: tuple[str, ...]) -> bool:
    """Q30's quick test: is an element on or next to the `changed` spaces now surrounded and not yet rewarded?
    (The seat's elements are the fountain board's and the pavilions of its face-up expansions.)"""
    printed = [printed_space(p.area, p.turn) for p in seat.placed if p.face_up]
    pavilions = [f"{p.area}0" for p in seat.placed if p.face_up]
    garden = seat.garden
    for space in changed:
        for e in (space, *NEIGHBOURS[space]):
            if (
                (e in FOUNTAIN_ELEMENTS or e in pavilions)
                and e not in seat.rewarded
                and all(n in garden or n in printed for n in NEIGHBOURS[e])
            ):
                return True
    return False


def _reseat(seat: Seat, **changes: Any) -> Seat:
    """`replace(seat, **changes)`, a native call into the seat's own compiled copy when compiled."""
    return seat.copied(changes)


class Draft:
    """A mutable working copy of a state for one step; `freeze()` gives the new immutable state."""

    def __init__(self, s: QGState, quiet: bool = False) -> None:
        self.s = s
        self.quiet = quiet  # build no events (AI playouts)
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
        self.log: list[Event] = []  # this action's events only

    def freeze(self) -> QGState:
        s = self.s
        return QGState(  # positional: a native constructor call when compiled
            s.players,
            s.seed,
            self.counter,
            self.round,
            self.current,
            self.first_player,
            self.marker,
            self.bag,
            self.tower,
            self.stack,
            self.stack_tiles,
            self.display,
            self.stacks,
            self.supply,
            tuple(self.seats),
            self.over,
            tuple(self.log),
        )

    def event(self, kind: str, text: Text, player: int | None = None, **data: Any) -> None:
        if self.quiet:
            return
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
        gone = a.expansions
        top = self.stack_tiles
        from_top = any(t in taken for t in top)
        if from_top:
            top = self.stack_tiles = tuple(t for t in top if t not in taken)
        # the pieces that keep what they hold stay as they are; Q23: display expansions with no tiles left turn
        # face up (taken face-up expansions leave)
        display = []
        for p in self.display:
            if p.tiles:
                left = tuple(t for t in p.tiles if t not in taken)
                if len(left) == len(p.tiles):
                    display.append(p)
                else:
                    display.append(Piece(p.expansion, left, p.face_up) if left else Piece(p.expansion, (), True))
            elif not p.face_up:
                display.append(Piece(p.expansion, (), True))
            elif p.expansion not in gone:
                display.append(p)
        self.display = tuple(display)
        if from_top:  # Q22: the top expansion moves out with its leftover tiles; the new top gets 4 tiles
            self.display += (Piece(self.stack[0], top, not top),)
            self.stack = self.stack[1:]
            self.fill_top()
        seat = self.seats[i]
        self.seats[i] = _reseat(
            seat,
            tiles=tuple(sorted(seat.tiles + a.tiles)),
            expansions=tuple(sorted(seat.expansions + a.expansions)),
        )

    # -- placing ------------------------------------------------------------------------------------------

    def pay(
        self,
        i: int,
        pay_tiles: tuple[int, ...],
        pay_expansions: tuple[int, ...],
        jokers: int,
        used_tile: int | None = None,
        used_expansion: int | None = None,
    ) -> Seat:
        """Q25: discarded tiles to the tower, expansions face down to the supply, jokers to the joker supply."""
        seat = self.seats[i]
        out_tiles = set(pay_tiles) | ({used_tile} if used_tile is not None else set())
        out_exps = set(pay_expansions) | ({used_expansion} if used_expansion is not None else set())
        self.tower += tuple(pay_tiles)
        self.return_expansions(tuple(pay_expansions))
        return _reseat(
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
        self.seats[i] = _reseat(seat, garden={**seat.garden, a.space: a.tile})
        self.reward_surrounded(i, a.space)

    def place_expansion(self, i: int, a: PlaceExpansion) -> None:
        seat = self.pay(i, a.pay_tiles, a.pay_expansions, a.jokers, used_expansion=a.expansion)
        self.seats[i] = _reseat(seat, placed=seat.placed + (Placed(a.expansion, a.area, a.turn, True),))
        self.reward_surrounded(i, printed_space(a.area, a.turn), f"{a.area}0")

    def buy_expansion(self, i: int, a: BuyExpansion) -> None:
        # Q28 ii: exactly 6 points for the supply's top expansion, placed blank side up (7 free spaces)
        seat = self.seats[i]
        e, self.supply = self.supply[0], self.supply[1:]
        self.seats[i] = _reseat(
            seat, score=seat.score - BLANK_EXPANSION_COST, placed=seat.placed + (Placed(e, a.area, 0, False),)
        )

    def reward_surrounded(self, i: int, *changed: str) -> None:
        """Q30: jokers for every element now completely surrounded; those that do not fit in storage are lost.
        `changed`: the spaces of the new hexagon (and pavilion). Only an element on or next to them can have
        become surrounded (every other one was rewarded when its last neighbour came), so the whole garden is
        looked at only when one of them is."""
        seat = self.seats[i]
        if not _surrounds(seat, changed):
            return
        done = newly_surrounded(seat, hexagons(seat))
        if not done:
            return
        jokers, rewarded = seat.jokers, set(seat.rewarded)
        for space, element in done:
            owed = JOKER_REWARD[element]
            room = STORAGE_TILES - len(seat.tiles) - jokers
            got = min(owed, max(room, 0))
            jokers += got
            rewarded.add(space)
            if self.quiet:
                continue
            if got < owed:
                text = Text(
                    "surrounds the {element} at {space} and takes {n} joker ({lost} lost: storage full).",
                    "surrounds the {element} at {space} and takes {n} jokers ({lost} lost: storage full).",
                    element=element_text(element),
                    space=space_text(space),
                    n=got,
                    lost=owed - got,
                )
            else:
                text = Text(
                    "surrounds the {element} at {space} and takes {n} joker.",
                    "surrounds the {element} at {space} and takes {n} jokers.",
                    element=element_text(element),
                    space=space_text(space),
                    n=got,
                )
            self.event(
                "jokers",
                text,
                i,
                element=element,
                space=space,
                jokers=got,
                lost=owed - got,
            )
        self.seats[i] = _reseat(seat, jokers=jokers, rewarded=frozenset(rewarded))

    # -- passing, turns and rounds ----------------------------------------------------------------------------

    def pass_(self, i: int, a: Pass) -> None:
        seat = self.seats[i]
        loss = sum(TILE_KIND[t][1] for t in a.tiles) + sum(EXPANSION_KIND[e][1] for e in a.expansions)
        seat = self.pay(i, a.tiles, a.expansions, a.jokers)
        score = max(0, seat.score - loss)  # Q29, Q37
        if self.marker is None:  # Q29: the first to pass takes the first-player marker and loses 1 point
            self.marker = i
            score = max(0, score - FIRST_PASS_PENALTY)
            if not self.quiet:
                self.event(
                    "first_pass",
                    Text(
                        "passes first: takes the first-player marker, −{n} point.",
                        "passes first: takes the first-player marker, −{n} points.",
                        n=FIRST_PASS_PENALTY,
                    ),
                    i,
                    penalty=FIRST_PASS_PENALTY,
                )
        self.seats[i] = _reseat(seat, score=score, passed=True)

    def advance(self) -> None:
        n = len(self.seats)
        if self.current is None:
            raise ValueError("The game is over: nobody is to move.")
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
            points, lines = round_score(seat, self.round)
            self.seats[i] = _reseat(seat, score=seat.score + points, round_points=seat.round_points + (points,))
            if self.quiet:
                continue
            parts = [
                Text(
                    "{criterion} ×{hexagons} = {points}",
                    criterion=Text("pavilions")
                    if ln["criterion"] == "pavilions"
                    else criterion_name((ln["criterion"], ln["key"])),
                    hexagons=ln["hexagons"],
                    points=ln["points"],
                )
                for ln in lines
                if ln["hexagons"]
            ]
            detail = join_texts(parts, "; ") if parts else Text("nothing matches the wheel")
            self.event(
                "round_scoring",
                Text(
                    "scores {n} point in round {round} ({detail}).",
                    "scores {n} points in round {round} ({detail}).",
                    n=points,
                    round=self.round,
                    detail=detail,
                ),
                i,
                round=self.round,
                points=points,
                lines=lines,
                score=self.seats[i].score,
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
        if self.marker is None:
            raise ValueError("A round ended with nobody holding the first-player marker (Q29).")
        self.first_player = self.current = self.marker  # Q15, Q34: the marker's holder starts
        self.marker = None
        self.seats = [_reseat(s, passed=False) for s in self.seats]
        self.log_round_start()

    def log_round_start(self) -> None:
        if self.quiet:
            return
        crit = join_texts([criterion_name(c) for c in WHEEL[self.round]])
        self.event(
            "round_start",
            Text("starts round {round}; the wheel scores {criteria}.", round=self.round, criteria=crit),
            self.first_player,
            round=self.round,
            criteria=[list(c) for c in WHEEL[self.round]],
        )

    def final_scoring(self) -> None:
        """Q35: storage (+1 per joker, −value per hexagon left), then groups of 3+ by colour, then by pattern
        (sum of values, +6 for a group of 6). Q36: the best total wins; ties are shared."""
        for i, seat in enumerate(self.seats):
            jokers, tiles, exps = storage_value(seat)
            after_storage = max(0, seat.score + jokers + tiles + exps)  # Q37
            colour_groups, pattern_groups = scored_groups(seat)
            group_points = sum(g["points"] for g in colour_groups + pattern_groups)
            bonus = sum(g["bonus"] for g in colour_groups + pattern_groups)
            total = after_storage + group_points + bonus
            final = FinalScore(
                before=seat.score,
                after_storage=after_storage,
                colour_points=sum(g["points"] for g in colour_groups),
                pattern_points=sum(g["points"] for g in pattern_groups),
                bonus=bonus,
            )
            self.seats[i] = _reseat(seat, score=total, final=final)
            if self.quiet:
                continue
            text = Text(  # after the player's name: "Ana ends with 54 points: ..."
                "ends with {n} point: storage {storage}, colour groups {colour}, pattern groups {pattern}, bonuses "
                "{bonus} (final scoring).",
                "ends with {n} points: storage {storage}, colour groups {colour}, pattern groups {pattern}, bonuses "
                "{bonus} (final scoring).",
                n=total,
                storage=f"{jokers + tiles + exps:+d}",
                colour=final.colour_points,
                pattern=final.pattern_points,
                bonus=bonus,
            )
            self.event(
                "final_scoring",
                text,
                i,
                before=seat.score,
                storage={"jokers": jokers, "tiles": tiles, "expansions": exps},
                after_storage=after_storage,
                colour_groups=colour_groups,
                pattern_groups=pattern_groups,
                bonus=bonus,
                total=total,
            )
        self.over = True
        self.current = None
        if self.quiet:
            return
        best = max(s.score for s in self.seats)
        winners = [p for p, s in zip(self.s.players, self.seats, strict=True) if s.score == best]
        if len(winners) > 1:
            text = Text(
                "The game is over: the best score is {best}, shared by {n} player.",
                "The game is over: the best score is {best}, shared by {n} players.",
                best=best,
                n=len(winners),
            )
        else:
            text = Text("The game is over: the best score is {best}.", best=best)
        self.event("game_over", text, None, winners=winners, score=best)
