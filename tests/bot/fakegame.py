"""A tiny game on the engine contract, for testing the Discord layer independently of the real engines.

"Race to the target": players take turns; the player to move adds 1–30 to a shared total, or plays a secret
hand card with a boost (0–9). Crossing a multiple of 7 opens a clap window in which every other player may
clap (out of turn) for a point. The game ends when the total reaches the target. Hands are private: `view`
hides other hands and the deck. Anyone seated may wave at any time: a free action (like Alhambra's bonus cards,
V62/V66), listed by `free_actions`, never by `legal_actions`. Like the real engines, every turn action also
writes a public "move" log entry (its describe() text and JSON) for the images to mark the last move, and its
log holds the events of the last action only (the engine contract). It
exercises everything the bot must handle: several action kinds, more than 25 actions of one kind (paging), a
two-field kind (narrowing), out-of-turn actions, free actions, private and public events.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

from engine._common import Event, Option, Rules, shuffled
from present import Presenter

HIDDEN = -1


@dataclasses.dataclass(frozen=True, slots=True)
class FakeState:
    players: tuple[str, ...]
    seed: int | None
    rng_counter: int
    options: dict[str, Any]
    total: int
    current: int
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    points: tuple[int, ...]
    window: bool = False
    log: tuple[Event, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Add:
    kind: ClassVar[str] = "add"
    n: int


@dataclasses.dataclass(frozen=True, slots=True)
class Play:
    kind: ClassVar[str] = "play"
    card: int
    boost: int


@dataclasses.dataclass(frozen=True, slots=True)
class Clap:
    kind: ClassVar[str] = "clap"


@dataclasses.dataclass(frozen=True, slots=True)
class Wave:
    """A free action: any seated player, at any time, changes nobody's turn."""

    kind: ClassVar[str] = "wave"


def card_value(card: int) -> int:
    return card % 9 + 1


class FakeRules(Rules):
    name = "fake"
    title = "Race to the Target"
    player_counts = range(2, 5)
    options = {
        "target": Option("target", 60, "Total that ends the game", (30, 60, 100)),
        "claps": Option("claps", True, "Others may clap out of turn when a multiple of 7 is crossed"),
    }
    state_type = FakeState
    action_types = (Add, Play, Clap, Wave)

    def _new_game(self, players, options, seed):
        deck, counter = shuffled(range(40), seed, 0)
        hands = tuple(deck[3 * i : 3 * i + 3] for i in range(len(players)))
        return FakeState(
            players,
            seed,
            counter,
            options,
            0,
            0,
            tuple(tuple(sorted(h)) for h in hands),
            deck[3 * len(players) :],
            (0,) * len(players),
        )

    def to_move(self, s):
        if self.is_over(s):
            return []
        cur = s.players[s.current]
        if s.window:
            return [cur] + [p for p in s.players if p != cur]
        return [cur]

    def candidates(self, s, player):
        if player == s.players[s.current]:
            yield from (Add(n) for n in range(1, 31))
            for card in s.hands[s.players.index(player)]:
                yield from (Play(card, b) for b in range(10))
        if s.window:
            yield Clap()

    def out_of_turn(self, s):
        """The clap window: everyone but the player to move may clap (the optional contract)."""
        cur = s.players[s.current]
        return [p for p in s.players if p != cur] if s.window and not self.is_over(s) else []

    def has_free_actions(self, options):
        return True

    def free_actions(self, s, player):
        return [Wave()] if not self.is_over(s) and player in s.players else []

    def is_free_action(self, a):
        return isinstance(a, Wave)

    def check(self, s, player, a):
        if self.is_over(s):
            return "The race is over."
        if isinstance(a, Wave):
            return None if player in s.players else "Only players may wave."
        if player not in self.to_move(s):
            return "It's not your turn."
        cur = s.players[s.current]
        if isinstance(a, Clap):
            if not s.window:
                return "You can only clap right after a multiple of 7 is crossed."
            if player == cur:
                return "The player to move can't clap; add or play instead."
            return None
        if player != cur:
            return "Only the player to move may add or play."
        if isinstance(a, Add):
            return None if 1 <= a.n <= 30 else "Add between 1 and 30."
        if isinstance(a, Play):
            if a.card not in s.hands[s.current]:
                return "That card is not in your hand."
            return None if 0 <= a.boost <= 9 else "The boost is 0 to 9."
        return "Unknown action."

    def step(self, s, player, a):
        i = s.players.index(player)
        log: list[Event] = []  # the events of this action only
        if isinstance(a, Wave):
            log.append(Event("wave", "waves at the table", player))
            return dataclasses.replace(s, log=tuple(log))
        log.append(Event("move", self.describe(a), player, {"action": self.action_to_json(a)}))  # as engines do
        points = list(s.points)
        if isinstance(a, Clap):
            points[i] += 1
            log.append(Event("clap", "claps for a point", player))
            return dataclasses.replace(s, points=tuple(points), window=False, log=tuple(log))
        hands = list(s.hands)
        deck = s.deck
        if isinstance(a, Add):
            gain = a.n
        else:
            gain = card_value(a.card) + a.boost
            hand = [c for c in hands[i] if c != a.card]
            if deck:
                drawn, deck = deck[-1], deck[:-1]
                hand.append(drawn)
                log.append(Event("draw", f"draw the {card_value(drawn)} card #{drawn}", player, private_to=player))
                log.append(Event("draw", "draws a card", player))
            hands[i] = tuple(sorted(hand))
        total = s.total + gain
        points[i] += gain
        window = s.options["claps"] and total // 7 > s.total // 7
        if window:
            log.append(Event("window", f"The total passed {total // 7 * 7}: others may clap!"))
        if total >= s.options["target"]:
            log.append(Event("end", f"The race ends at {total}."))
            window = False
        return dataclasses.replace(
            s,
            total=total,
            current=(s.current + 1) % len(s.players),
            hands=tuple(hands),
            deck=deck,
            points=tuple(points),
            window=window,
            log=tuple(log),
        )

    def is_over(self, s):
        return s.total >= s.options["target"]

    def scores(self, s):
        return dict(zip(s.players, s.points, strict=True))

    def view(self, s, player):
        hands = tuple(h if p == player else (HIDDEN,) * len(h) for p, h in zip(s.players, s.hands, strict=True))
        log = tuple(e for e in s.log if e.private_to is None or e.private_to == player)
        return dataclasses.replace(s, seed=None, hands=hands, deck=(HIDDEN,) * len(s.deck), log=log)

    def describe(self, a):
        if isinstance(a, Add):
            return f"adds {a.n}"
        if isinstance(a, Play):
            return f"plays the {card_value(a.card)} card #{a.card} with boost {a.boost}"
        if isinstance(a, Wave):
            return "waves"
        return "claps"

    def summary(self, options: Mapping[str, Any] | None = None) -> str:
        target = (options or {}).get("target", 60)
        return f"Add 1–30 or play a card to the shared total; the race ends at {target}. Most points wins."


RULES = FakeRules()
PRESENTER = Presenter()  # the generic words: the test game needs no special wording
