"""The Alhambra game state: frozen dataclasses the rules, renderers and AI share.

Conventions (see also components.py):
- Money cards are ints (stable ids; `components.card_key` gives (currency, value)); in a view, cards the
  viewer may not see are `HIDDEN_CARD` (-1), so `len(hand)` is still every hand's public card count (A20).
- Tiles are string ids from data/alhambra_tiles.json ("tower-9-NE"); `components.TILES` describes them.
- An Alhambra is {(x, y): tile id} with the fountain at (0, 0), x east, y south; `cell_name` gives "M13".
- `deck` and `bag` are drawn from the END (last item = top). In a view the deck is hidden cards and the bag
  is sorted (its contents are public knowledge, its order is not).

The Vizier's Favour modules (options `vizier`, `huts`, `exchange`, `bonus`) add fields with neutral defaults,
so base-game states (and stored JSON from before the modules) are unchanged:
- vizier: `PlayerState.vizier` (active side up), `GameState.window` (the V12 window after a turn is open) and
  the VIZIER phase, in which `claimant` places the tile bought with their vizier (V6);
- huts: `GameState.huts` (six stacks by type, top = last = face up; hidden below the top in a view) and
  `PlayerState.huts_taken` (V25 counts acquisitions); huts are tile ids ("hut-garden-NE") and lie in
  Alhambras, reserves and `pending` like tiles;
- exchange: exchange cards are ints 2001–2006 (components.EXCHANGE_PAIRS) that travel like money cards
  through deck, display, hands and discard;
- bonus: `PlayerState.bonus_hand` (unplayed, hidden from others), `bonus_played` (public), `bonus_auto`
  (the standing order, private) and `GameState.bonus_aside` (set aside unseen, V61). A bonus card is named by
  the tile it depicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from engine._common import Event, Text, native_dataclasses
from engine.alhambra.components import (
    BONUS_CARDS,
    BUILDING_TILES,
    EXCHANGE_CARDS,
    EXCHANGE_PAIRS,
    HUT_LIMIT,
    HUT_TYPE,
    HUTS,
    SCORING_CARDS,
    TYPES,
    is_money,
    money_cards,
)
from engine.alhambra.geometry import alhambra_problem

Cell = tuple[int, int]

# Phases: whose move it is and what kind of move (to_move and legal_actions follow from it).
ACTION = "action"  # the current player chooses an action (A18), or another one after an exact purchase (A22)
PLACE = "place"  # the current player places the tiles bought this turn (A24, A27)
FINAL = "final"  # the game has ended (A50): players who received leftover market tiles place them (A51)
OVER = "over"  # final scoring done (A52)
VIZIER = "vizier"  # V6: `claimant` places the tile just bought with their vizier; nobody else acts meanwhile
PHASES = (ACTION, PLACE, FINAL, OVER, VIZIER)

# V66 standing orders for unplayed bonus cards, applied right before each scoring round [BOT]
AUTO_EVERY = "every"  # play every playable card before every scoring round (the default)
AUTO_FINAL = "final"  # keep them until the final scoring
AUTO_NEVER = "never"  # only play them by hand (PlayBonus)
AUTOPLAY_MODES = (AUTO_EVERY, AUTO_FINAL, AUTO_NEVER)
HIDDEN = "hidden"  # what view() shows for a hut or bonus card the viewer may not see


@dataclass(frozen=True, init=False)  # no slots: `replace` copies its instance dict at once
class PlayerState:
    """One seat: hand, Alhambra, reserve board, score, and tiles waiting to be placed at turn end."""

    hand: tuple[int, ...]  # money card ids, sorted (HIDDEN_CARD placeholders in other players' views)
    alhambra: dict[Cell, str]  # cell -> tile id; the fountain at (0, 0)
    reserve: tuple[str, ...] = ()  # A8: tiles on the reserve board (no scoring)
    score: int = 0
    pending: tuple[str, ...] = ()  # A27/A28: bought this turn (or received at game end, A51), not placed yet
    vizier: bool = False  # V1/V2: the vizier shows its active side (only with the vizier module)
    huts_taken: int = 0  # V25: huts acquired in this game (at most 3)
    bonus_hand: tuple[str, ...] = ()  # V61/V64: unplayed bonus cards (HIDDEN in other players' views)
    bonus_played: tuple[str, ...] = ()  # V62/V63: played face up, each one extra building while it stays
    bonus_auto: str = AUTO_EVERY  # V66 [BOT]: the standing order ("" in other players' views)

    def __init__(  # the fields in order (tests/engine/test_compiled.py): mypyc compiles it to native stores
        self,
        hand: tuple[int, ...],
        alhambra: dict[Cell, str],
        reserve: tuple[str, ...] = (),
        score: int = 0,
        pending: tuple[str, ...] = (),
        vizier: bool = False,
        huts_taken: int = 0,
        bonus_hand: tuple[str, ...] = (),
        bonus_played: tuple[str, ...] = (),
        bonus_auto: str = AUTO_EVERY,
    ) -> None:
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "alhambra", alhambra)
        object.__setattr__(self, "reserve", reserve)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "pending", pending)
        object.__setattr__(self, "vizier", vizier)
        object.__setattr__(self, "huts_taken", huts_taken)
        object.__setattr__(self, "bonus_hand", bonus_hand)
        object.__setattr__(self, "bonus_played", bonus_played)
        object.__setattr__(self, "bonus_auto", bonus_auto)

    def copied(self, ch: dict[str, Any]) -> PlayerState:
        """`replace(self, **ch)` in compiled code (engine._common.replace calls it when compiled; the test of the
        written-out classes checks it copies every field): the hot path of every step. A copy by the constructor
        (native loads and stores), then the changed fields set."""
        new = PlayerState(
            self.hand,
            self.alhambra,
            self.reserve,
            self.score,
            self.pending,
            self.vizier,
            self.huts_taken,
            self.bonus_hand,
            self.bonus_played,
            self.bonus_auto,
        )
        for name, value in ch.items():
            if name not in _PLAYER_FIELDS:
                raise TypeError(f"unknown field for PlayerState: {name}")
            object.__setattr__(new, name, value)
        return new


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One participant's result in one scoring round (for announcements and the results image)."""

    player: str | None  # None: Dirk, the neutral player of the 2-player game (A61)
    counts: dict[str, int]  # buildings per type in the Alhambra (A44)
    majorities: dict[str, int]  # points per type (A45–A47); only types that scored
    wall: int  # A48: segments of the longest outer wall = wall points (always 0 for Dirk)
    total: int  # points this round
    score: int  # running total after this round (A49)
    huts: dict[str, int] = field(default_factory=dict)  # V27: buildings counted for huts, per type (in counts)
    bonus: dict[str, int] = field(default_factory=dict)  # V63: played bonus cards per type (in counts)


@dataclass(frozen=True, slots=True)
class ScoringRound:
    round: int  # 1, 2 or 3 (A43)
    lines: tuple[ScoreLine, ...]


@dataclass(frozen=True, slots=True)
class Marks:
    """What the board image marks as the last move, kept up to date by every action (`marks.mark`), so that no
    history is needed: the latest move (its player and words: `describe`'s, or a leftover tile received, A51)
    and, per player, the Alhambra cells their moves filled or swapped (or whose building a played bonus card
    depicts) and the market spaces they bought from, since another player's last turn move (a free action of
    another player, a bonus card, does not interrupt a turn). The image marks the latest mover's whole turn.
    At most one entry per player; cells and spaces sorted; only players with something to mark. `text` is the
    move's Text (a plain str in states stored before texts were data)."""

    player: str | None = None
    text: str | Text = ""
    cells: dict[str, tuple[Cell, ...]] = field(default_factory=dict)
    spaces: dict[str, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True, init=False)  # no slots: `replace` copies its instance dict at once
class GameState:
    players: tuple[str, ...]
    seed: int | None  # None in a view (A view never reveals the seed)
    rng_counter: int
    options: dict[str, Any]
    phase: str
    current: int  # index into players of the player whose turn it is
    bonus: bool  # A22: the current player paid exactly and may take another action
    seats: tuple[PlayerState, ...]
    market: tuple[str | None, ...]  # A6: spaces 1–4 (currencies denar, dirham, ducat, florin); None = empty
    display: tuple[int, ...]  # A7: face-up money cards (up to 4)
    deck: tuple[int, ...]  # A16: face-down money deck with the scoring cards, top = last
    discard: tuple[int, ...]  # A21: paid cards (public), reshuffled when the deck runs out (A41)
    bag: tuple[str, ...]  # A11: undrawn building tiles, top = last
    dirk: tuple[str, ...] = ()  # A61: the neutral player's tiles (2 players only)
    dirk_score: int = 0  # A65/A68: Dirk's points (not in scores(); shown beside them)
    removed: tuple[str, ...] = ()  # A51: leftover market tiles nobody received, out of the game
    scorings: tuple[ScoringRound, ...] = ()  # every scoring round so far, with its breakdown
    turn: int = 1  # number of the current turn (1 = first)
    log: tuple[Event, ...] = field(default=())  # the last action's events: its "move" event, then what it caused
    window: bool = False  # V12: a turn has ended and the current player has not acted yet (vizier window)
    claimant: int = -1  # V6: in the VIZIER phase, the seat placing its vizier purchase
    huts: tuple[tuple[str, ...], ...] = ()  # V21: six stacks in TYPES order, top (face up) = last
    bonus_aside: tuple[str, ...] = ()  # V61: bonus cards not dealt, unseen for the whole game
    marks: Marks = field(default_factory=Marks)  # the last move and each player's turn so far, for the image
    reshuffled: bool = False  # A41: the discard pile has been shuffled into a new deck (both scoring cards are out)

    def __init__(  # the fields in order (tests/engine/test_compiled.py): mypyc compiles it to native stores
        self,
        players: tuple[str, ...],
        seed: int | None,
        rng_counter: int,
        options: dict[str, Any],
        phase: str,
        current: int,
        bonus: bool,
        seats: tuple[PlayerState, ...],
        market: tuple[str | None, ...],
        display: tuple[int, ...],
        deck: tuple[int, ...],
        discard: tuple[int, ...],
        bag: tuple[str, ...],
        dirk: tuple[str, ...] = (),
        dirk_score: int = 0,
        removed: tuple[str, ...] = (),
        scorings: tuple[ScoringRound, ...] = (),
        turn: int = 1,
        log: tuple[Event, ...] = (),
        window: bool = False,
        claimant: int = -1,
        huts: tuple[tuple[str, ...], ...] = (),
        bonus_aside: tuple[str, ...] = (),
        marks: Marks | None = None,
        reshuffled: bool = False,
    ) -> None:
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "rng_counter", rng_counter)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "current", current)
        object.__setattr__(self, "bonus", bonus)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "market", market)
        object.__setattr__(self, "display", display)
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "discard", discard)
        object.__setattr__(self, "bag", bag)
        object.__setattr__(self, "dirk", dirk)
        object.__setattr__(self, "dirk_score", dirk_score)
        object.__setattr__(self, "removed", removed)
        object.__setattr__(self, "scorings", scorings)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "log", log)
        object.__setattr__(self, "window", window)
        object.__setattr__(self, "claimant", claimant)
        object.__setattr__(self, "huts", huts)
        object.__setattr__(self, "bonus_aside", bonus_aside)
        object.__setattr__(self, "marks", Marks() if marks is None else marks)
        object.__setattr__(self, "reshuffled", reshuffled)

    def copied(self, ch: dict[str, Any]) -> GameState:
        """`replace(self, **ch)` in compiled code (engine._common.replace calls it when compiled; the test of the
        written-out classes checks it copies every field): the hot path of every step. A copy by the constructor
        (native loads and stores), then the changed fields set."""
        new = GameState(
            self.players,
            self.seed,
            self.rng_counter,
            self.options,
            self.phase,
            self.current,
            self.bonus,
            self.seats,
            self.market,
            self.display,
            self.deck,
            self.discard,
            self.bag,
            self.dirk,
            self.dirk_score,
            self.removed,
            self.scorings,
            self.turn,
            self.log,
            self.window,
            self.claimant,
            self.huts,
            self.bonus_aside,
            self.marks,
            self.reshuffled,
        )
        for name, value in ch.items():
            if name not in _STATE_FIELDS:
                raise TypeError(f"unknown field for GameState: {name}")
            object.__setattr__(new, name, value)
        return new

    def module(self, name: str) -> bool:
        """Whether an expansion module (`vizier`, `huts`, `exchange`, `bonus`) is on in this game."""
        return bool(self.options.get(name))

    def seat(self, player: str) -> PlayerState:
        return self.seats[self.players.index(player)]

    @property
    def current_player(self) -> str:
        return self.players[self.current]

    @property
    def two_player(self) -> bool:
        """A17/A60–A69: the 2-player game with Dirk."""
        return len(self.players) == 2


native_dataclasses(PlayerState, ScoreLine, ScoringRound, Marks, GameState)  # compiled, as their sources
_PLAYER_FIELDS: Final = frozenset(PlayerState.__dataclass_fields__)  # what `copied` accepts
_STATE_FIELDS: Final = frozenset(GameState.__dataclass_fields__)


def index_of(players: tuple[str, ...], player: str) -> int:
    """`players.index(player)` as a compiled loop (the method call costs more on every step)."""
    for i in range(len(players)):
        if players[i] == player:
            return i
    raise ValueError(f"{player!r} is not a player of this game")


def state_problem(state: GameState) -> str | None:
    """Why a decoded state is impossible (A80–A82 and shape checks), or None. Views (seed None) skip what
    they hide."""
    n = len(state.players)
    if n not in range(2, 7) or len(set(state.players)) != n:
        return "bad players"
    if len(state.seats) != n or not 0 <= state.current < n:
        return "bad seats or current player"
    if state.phase not in PHASES:
        return f"unknown phase {state.phase!r}"
    if state.phase == VIZIER and not (0 <= state.claimant < n and state.seats[state.claimant].pending):
        return "the vizier phase needs a claimant with a tile to place (V6)"
    if len(state.market) != 4:
        return "the market must have 4 spaces"
    for seat in state.seats:
        problem = alhambra_problem(seat.alhambra)
        if problem:
            return f"illegal Alhambra (A82): {problem}"
        if seat.huts_taken > HUT_LIMIT:
            return f"a player acquired {seat.huts_taken} huts (V25: at most {HUT_LIMIT})"
        if any(t not in seat.alhambra.values() for t in seat.bonus_played):
            return "a played bonus card whose building is not in that Alhambra (V62, V64)"
    if state.seed is None:
        return None
    # A80: every building tile exactly once; V20/V25: every hut exactly once, each player's count matching
    tiles = list(state.bag) + [t for t in state.market if t is not None] + list(state.dirk) + list(state.removed)
    huts = [h for stack in state.huts for h in stack]
    for k, stack in enumerate(state.huts):
        if len(state.huts) != 6 or any(HUT_TYPE.get(h) != TYPES[k] for h in stack):
            return "hut stacks must be the six colours in order (V21)"
    for seat in state.seats:
        held = [t for c, t in seat.alhambra.items() if c != (0, 0)] + list(seat.reserve) + list(seat.pending)
        mine = [t for t in held if t in HUT_TYPE]
        if len(mine) != seat.huts_taken:
            return f"a player holds {len(mine)} huts but took {seat.huts_taken} (V25)"
        huts += mine
        tiles += [t for t in held if t not in HUT_TYPE]
    if sorted(tiles) != sorted(BUILDING_TILES):
        return f"tile conservation (A80) broken: {len(tiles)} tiles"
    if sorted(huts) != (sorted(HUTS) if state.options.get("huts") else []):
        return f"hut conservation (V20) broken: {len(huts)} huts"
    # V40/V48: the exchange cards exactly once (they are never money)
    exchange = [c for c in (*state.deck, *state.display, *state.discard) if c in EXCHANGE_PAIRS]
    exchange += [c for seat in state.seats for c in seat.hand if c in EXCHANGE_PAIRS]
    if sorted(exchange) != (list(EXCHANGE_CARDS) if state.options.get("exchange") else []):
        return f"exchange card conservation (V40) broken: {len(exchange)} cards"
    # V60/V61: the bonus cards exactly once (hands, played, set aside)
    bonus = list(state.bonus_aside) + [c for seat in state.seats for c in (*seat.bonus_hand, *seat.bonus_played)]
    if sorted(bonus) != (sorted(BONUS_CARDS) if state.options.get("bonus") else []):
        return f"bonus card conservation (V60) broken: {len(bonus)} cards"
    # A81: every money card exactly once
    cards = [c for c in (*state.deck, *state.display, *state.discard) if is_money(c)]
    for seat in state.seats:
        cards += [c for c in seat.hand if is_money(c)]
    if sorted(cards) != list(money_cards(n)):
        return f"money conservation (A81) broken: {len(cards)} cards"
    elsewhere = [*state.display, *state.discard, *(c for seat in state.seats for c in seat.hand)]
    if any(c in SCORING_CARDS for c in elsewhere) or len(set(state.deck)) != len(state.deck):
        return "a scoring card outside the deck, or a card twice in the deck (A40, A81)"
    return None
