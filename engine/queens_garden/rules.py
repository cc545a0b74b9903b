"""The rules of Azul: Queen's Garden (spec rules Q1–Q39) behind the engine contract: set-up, whose move it is,
views, words and stored-state checks. The rules themselves are in `check` (the single legality test), `listing`
(exactly the legal actions) and `turn` (`step`: the action, round ends, scoring and preparation); `migrate` reads
states stored by earlier versions.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from engine._common import N_, Rules, Text, join_texts, replace, rng, shuffled, visible_log
from engine.queens_garden import check, listing, migrate, turn
from engine.queens_garden.actions import ACTION_TYPES, Acquire, Action, criterion_words, describe, hexagon_items
from engine.queens_garden.components import (
    BLANK_EXPANSION_COST,
    COLOURS,
    ELEMENT_NAMES,
    EXPANSION_KIND,
    FIRST_PASS_PENALTY,
    JOKER_REWARD,
    N_EXPANSIONS,
    N_TILES,
    PATTERNS,
    ROUNDS,
    STACK_SIZE,
    START_JOKERS,
    START_PLAYER,
    START_SCORE,
    STORAGE_EXPANSIONS,
    STORAGE_TILES,
    TILE_KIND,
    VALUES,
    WHEEL,
    code_text,
    criterion_name,
    provisional,
)
from engine.queens_garden.state import HIDDEN, QGState, Seat, display_tiles
from engine.queens_garden.turn import Draft


class QueensGardenRules(Rules[QGState, Action]):
    name = "queens_garden"
    title = N_("Azul: Queen's Garden")
    player_counts = range(2, 5)
    options: Mapping[str, Any] = {}  # Q38: the variant side has no known numbers, so it is not offered
    state_type = QGState
    action_types = ACTION_TYPES
    json_version = 2  # 2: the log holds the last action's events; seats keep `round_points`, `final` (1: history)

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
        d = Draft(
            QGState(
                players=players,
                seed=seed,
                rng_counter=counter,
                round=1,
                current=first,
                first_player=first,
                marker=None,
                bag=bag,
                tower=(),
                stack=stacks[0],
                stack_tiles=(),
                display=(),
                stacks=stacks[1:],
                supply=supply,
                seats=seats,
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

    def legal_actions(self, state: QGState, player: str) -> list[Action]:
        # `candidates` lists exactly the legal actions (the property tests apply every one through `apply`).
        if player not in self.to_move(state):
            return []
        return listing.listed(state, player)

    def candidates(self, state: QGState, player: str) -> Iterator[Action]:
        return listing.candidates(state, player)

    def check(self, state: QGState, player: str, action: Action) -> Text | None:
        return check.check(state, player, action)

    def step(self, state: QGState, player: str, action: Action, quiet: bool = False) -> QGState:
        return turn.step(state, player, action, quiet)

    # ------------------------------------------------------------------------------------------ views

    def view(self, state: QGState, player: str | None) -> QGState:
        """No hand is secret here (storages are public): hide the bag order, the seed, and every face-down
        expansion's identity (round stacks, supply, display pieces with tiles, blank garden expansions)."""

        def hide(ids: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(HIDDEN for _ in ids)

        seats = tuple(
            replace(s, placed=tuple(p if p.face_up else replace(p, expansion=HIDDEN) for p in s.placed))
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

    def migrate(self, version: Any, payload: Any) -> Any:
        return migrate.migrate(version, payload)

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

    def turn_over(self, before: QGState, player: str, action: Action, after: QGState) -> bool:
        """Q18: a turn is one action (A, B, C or D); once the others passed (Q29), a player's actions in a row
        are as many turns."""
        return True

    def reveals(self, before: QGState, player: str, action: Action, after: QGState) -> bool:
        return turn.reveals(before, player, action, after)

    def describe(self, action: Action) -> Text:
        return describe(action)

    def describe_in(self, state: QGState, action: Action) -> Text:
        """describe(), plus where each acquired tile lies when identical hexagons gave a choice (Q20): "from the
        stack" or "from display piece n" (1-based position in `state.display`). Works on views too; menus use it
        so every listed action reads differently."""
        if not isinstance(action, Acquire):
            return self.describe(action)
        shown = [TILE_KIND[t] for t in display_tiles(state)]
        shown += [EXPANSION_KIND[p.expansion] for p in state.display if p.face_up]
        items: list[Text | str] = []
        for t in action.tiles:
            code = code_text(TILE_KIND[t])
            if shown.count(TILE_KIND[t]) > 1:
                where = next((n for n, p in enumerate(state.display, 1) if t in p.tiles), None)
                if where is None:
                    items.append(Text("{code} from the stack", code=code))
                else:
                    items.append(Text("{code} from display piece {piece}", code=code, piece=where))
            else:
                items.append(code)
        items += hexagon_items((), action.expansions, 0)
        return Text(
            "takes all {what} from the display: {items}",
            what=criterion_words(action.by, action.value),
            items=join_texts(items),
        )

    def summary(self, options: Mapping[str, Any] | None = None) -> Text:
        wheel = join_texts(
            [
                Text("round {round}: {criteria}", round=r, criteria=join_texts([criterion_name(c) for c in WHEEL[r]]))
                for r in range(1, ROUNDS + 1)
            ],
            "; ",
        )
        colours = join_texts(
            [Text("{colour} ({letter})", colour=Text.marked(c.name), letter=Text.marked(c.letter)) for c in COLOURS]
        )
        patterns = join_texts([Text("{value} {pattern}", value=v, pattern=Text.marked(n)) for v, n in PATTERNS.items()])
        rewards = join_texts(
            [Text("{element} {n}", element=Text.marked(ELEMENT_NAMES[k]), n=v) for k, v in JOKER_REWARD.items()]
        )
        lines = [
            Text(
                "**{game}**: 2–4 players, {rounds} rounds. Build the finest garden of hexagons.",
                game=Text.marked(self.title),
                rounds=ROUNDS,
            ),
            Text(
                "Colours: {colours}. Patterns (value = cost = points): {patterns}.", colours=colours, patterns=patterns
            ),
            Text("**On your turn do one thing:**"),
            Text(
                "- **Acquire**: take every hexagon of one colour *or* one pattern from the display (tiles and face-up "
                "expansions), only one of identical ones. It must fit your storage ({tiles} tiles incl. "
                "jokers, {expansions} expansions). Taking from the stack's top grows the display.",
                tiles=STORAGE_TILES,
                expansions=STORAGE_EXPANSIONS,
            ),
            Text(
                "- **Place a tile**: pay its value in hexagons, the tile counting as one: the others share its pattern "
                "in different colours, or its colour with different patterns; jokers stand in for any. It must touch "
                "no hexagon or share colour/pattern with at least one neighbour, and no group may ever hold two "
                "identical hexagons."
            ),
            Text(
                "- **Place an expansion**: from storage, paid like a tile, or the supply's top one blank side up for "
                "{n} point, on a free area around your fountain board, turned any way.",
                "- **Place an expansion**: from storage, paid like a tile, or the supply's top one blank side up for "
                "{n} points, on a free area around your fountain board, turned any way.",
                n=BLANK_EXPANSION_COST,
            ),
            Text(
                "- **Pass** (final for the round), discarding hexagons at their value if you like; the first to pass "
                "loses {n} point and starts the next round.",
                "- **Pass** (final for the round), discarding hexagons at their value if you like; the first to pass "
                "loses {n} points and starts the next round.",
                n=FIRST_PASS_PENALTY,
            ),
            Text(
                "Surround a fountain, statue, bench or pavilion completely to earn jokers {rewards}.", rewards=rewards
            ),
            Text("**Round scoring** (wheel): {wheel}; +1 per pavilion.", wheel=wheel),
            Text(
                "**Game end**: +1 per joker, −value of every hexagon left in storage; every group of 3+ hexagons of "
                "one colour or one pattern scores the sum of its values, +6 for a group of 6. Ties are shared."
            ),
            Text("Spaces: M1–M6 around the fountain, N0–N6 … NW0–NW6 in the expansion areas (0 = centre)."),
        ]
        unsure = provisional()
        if unsure:
            lines.append(Text("*Provisional values (not yet checked against the printed game):*"))
            for v in unsure:
                title = _VALUE_TITLES.get(v["name"], v["title"])
                status = _STATUS_WORDS.get(v["status"], v["status"])
                lines.append(
                    Text(
                        "- {title} ({rule}, {status})",
                        title=Text.marked(title) if title == v["title"] else v["title"],
                        rule=v["rule"],
                        status=Text.marked(status),
                    )
                )
        return join_texts(lines, "\n")


_STATUS_WORDS = {"S": N_("stand-in"), "?": N_("our reading"), "1": N_("one unofficial source")}
# the provisional values' titles as players read them (data/queens_garden_values.json has the same English)
_VALUE_TITLES = {
    "wheel": N_("Wheel faces (what each round scores)"),
    "colour_points": N_("Points per hexagon matching a scored colour"),
    "pattern_points_mode": N_("How a hexagon matching a scored pattern scores"),
    "pattern_points_by_round": N_("Points per hexagon matching a scored pattern, by round"),
    "joker_reward": N_("Jokers for completely surrounding a garden element"),
    "fountain_board_elements": N_("Garden elements printed on the fountain board"),
    "expansion_areas": N_("Geometry of the six expansion areas"),
    "adjacency": N_("Which neighbours a new hexagon must match"),
    "pass_discards_jokers": N_("May jokers be discarded when passing?"),
    "returned_expansions_go_to": N_("Where expansions returned to the supply go"),
    "start_player": N_("Who starts round 1"),
}
if any(v["status"] not in {"ok", *_STATUS_WORDS} for v in VALUES.values()):
    raise ValueError(f"queens_garden_values.json: a status is not one of ok, {', '.join(_STATUS_WORDS)}")
