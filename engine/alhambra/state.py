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
from typing import Any

from engine._common import Event

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


@dataclass(frozen=True, slots=True)
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
    log: tuple[Event, ...] = field(default=())  # a "move" event per action, then what it caused (rules.py)
    window: bool = False  # V12: a turn has ended and the current player has not acted yet (vizier window)
    claimant: int = -1  # V6: in the VIZIER phase, the seat placing its vizier purchase
    huts: tuple[tuple[str, ...], ...] = ()  # V21: six stacks in TYPES order, top (face up) = last
    bonus_aside: tuple[str, ...] = ()  # V61: bonus cards not dealt, unseen for the whole game

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
