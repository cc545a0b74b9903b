"""The AI's knowledge of Alhambra: re-dealing hidden cards and tiles, and judging a position.

Hidden from a seat (A13, A20, view()): the other hands (their sizes are public), the money deck's order and where
the undrawn scoring cards lie in it, the bag's order, the seed. Public: the display, the discard pile, the market,
every Alhambra, reserve and score, Dirk's tiles, which scoring rounds have happened.

The Vizier's Favour hides more (view() again): the huts below the face-up top of each stack (V21), where the
exchange cards are that are not face up or discarded (other hands or the deck, V41/V44), the other players'
unplayed bonus cards, their standing orders and the cards set aside (V61, V66). `determinise` re-deals all of it;
base games (no module hiding anything) take exactly the path they always took, draw for draw.

Evaluation (points a player can expect): points so far; for every scoring round still to come, the majority
points (A45–A47, with Dirk in the 2-player game) as a race: each participant's expected points from rank
probabilities (Plackett-Luce, weights exp(buildings / temperature)), sharp when the next scoring is near and the
bag has emptied its share, open for later rounds (`_race`; `smooth = False` gives the earlier count-only form); the
longest outer wall (A48) once per remaining round; money in hand by currency against the market (its face value,
plus each market tile it can pay exactly, A22, or at all, A21: `_money_value`), reserve tiles and a pending extra
action (A22) at a few points each. `normal` also values an exact purchase by the best action it lets follow
(`root_margins`). With the modules: huts in the
Alhambra add the buildings V27 counts (a hut still to be placed counts one where it has a same-type neighbour to
go to), played bonus cards and playable ones in hand add one building each (V63; the standing order plays them
before the scoring, V66), unplayable ones a little hope, exchange cards count as money (V45), and an active vizier
is worth a couple of points while tiles remain (V3).

Hard decides by `lookahead` (ai/core.py): the others' replies there are normal's moves among those `_follow_ups`
keeps (`reply_action`). Its earlier search's playouts (`playout_action`, `playout_focus`) weigh every exact purchase (A22) and a few random other moves,
redesigns (A33) and passing left out while anything else is legal: a sample of all moves mostly weighs poor ones.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections.abc import Sequence
from typing import Any

from ai.core import AnyRules, GameAI, margin
from engine.alhambra.actions import (
    BuyTile,
    GiveToDirk,
    Pass,
    PlaceTile,
    RedesignAdd,
    RedesignRemove,
    RedesignSwap,
    ReserveTile,
    TakeHut,
    VizierBuy,
)
from engine.alhambra.components import (
    BONUS_CARDS,
    EXCHANGE_CARDS,
    EXCHANGE_PAIRS,
    HUT_TYPE,
    HUTS,
    POINTS,
    PRICE,
    SCORING_1,
    SCORING_2,
    TYPE_OF,
    TYPES,
    is_money,
    money_cards,
    value_of,
)
from engine.alhambra.geometry import longest_wall
from engine.alhambra.scoring import hut_counts, majority_points
from engine.alhambra.state import ACTION, AUTO_EVERY, AUTO_NEVER

# Weights of future scoring rounds: the next one is closest to the present counts; later ones less so.
NEXT_ROUND_WEIGHT = 0.75
LATER_ROUND_WEIGHT = 0.4
WALL_WEIGHT = 0.8  # per remaining round: walls can still be broken or grow
MONEY_WEIGHT = 0.45  # per denomination point in hand: what money turns into once spent
RESERVE_WEIGHT = 1.0  # a reserve tile can still be built in by a redesign
BONUS_ACTION = 3.0  # A22: an extra action after an exact purchase
START_HAND_CARDS = 4.6  # A13: the average number of cards in a starting hand (deal until worth ≥ 20)
_TYPE_INDEX = {t: i for i, t in enumerate(TYPES)}

# The Vizier's Favour (only ever used when its module is on, so base games are valued as they always were)
EXCHANGE_WEIGHT = 1.2  # V45: an exchange card in hand, in points (it turns the wrong currency into the right one)
VIZIER_WEIGHT = 1.5  # V3: an active vizier is a purchase out of turn still to come (while tiles remain)
BONUS_HOPE_MARKET = 1.0  # V62: an unplayable bonus card whose tile is on the market (it may still be bought)
BONUS_HOPE_BAG = 0.4  # ... or still in the bag
HIDDEN_MODULES = ("huts", "exchange", "bonus")  # modules whose components view() partly hides


class AlhambraAI(GameAI):
    game = "alhambra"
    margin_scale = 12.0
    root_width = 8
    playout_depth = 8
    playout_sample = 4
    # V4: a vizier purchase out of turn must beat letting the window pass by this many points: the evaluation
    # does not see the action it later costs to re-activate the vizier (V8); with 0.25, normal claiming every
    # window lost 11/30 to a normal that never claimed, with 3.0 it scored 21/40
    optional_threshold = 3.0
    # the evaluation (tuned in bench/ai_arena.py and head-to-head runs; `smooth`/`currency` False give the old one)
    smooth = True  # majorities as a race (expected points by rank probabilities), not today's counts alone
    currency = True  # money valued by currency against the market (exact payments, tiles it can pay)
    race_base = 0.35  # rank "temperature" (buildings) when the scoring is imminent
    race_spread = 1.1  # ... grows with the tiles still to be bought before it
    next_weight = 0.9
    later_weight = 0.55
    wall_weight = WALL_WEIGHT
    money_weight = 0.38  # per money point in hand
    exact_weight = 0.9  # per market tile the hand can pay exactly now (an extra action, A22)
    cover_weight = 0.35  # per market tile the hand can pay at all
    reserve_weight = RESERVE_WEIGHT
    bonus_action = BONUS_ACTION
    #: rank: the value of an exact purchase is the best follow-up action's (A22), this many purchases deep
    exact_depth = 1
    #: hard plays normal's best move at once when it leads the next by this many points of evaluation
    clear_margin = 8.0
    #: hard's playouts weigh a sample of the moves a player would consider: no redesign or pass while another
    #: move is legal, and every exact purchase (A22) besides the random sample (False: a sample of all moves)
    playout_focus = True
    #: hard decides by `lookahead` (ai/core.py): the same re-deals for every candidate, the others replying by
    #: normal's policy, scored at the seat's next turn by its best move there
    lookahead = True
    reply_focus = True
    #: at a table of `crowd_players` or more (6-player games), the next scoring round weighs `crowd_next_weight`:
    #: normal against five easy players won 90.2 % of 200 games with 1.1, 82.0 % with 0.9 (and the same against
    #: greedy); smaller tables keep `next_weight`
    crowd_players = 5
    crowd_next_weight = 1.1

    def _progress(self, state: Any) -> float:
        """Roughly how much of the stage before the next scoring is still to come, 0..1 (the bag empties evenly
        over the game; scoring cards lie in the 2nd and 4th fifths of the deck, A16)."""
        gone = 1.0 - len(state.bag) / 54.0  # A3: 54 building tiles (huts lie in stacks of their own, V21)
        done = len(state.scorings)
        ends = (0.3, 0.7, 1.0)[min(done, 2)]
        start = (0.0, 0.3, 0.7)[min(done, 2)]
        return max(0.0, min(1.0, (ends - gone) / max(0.05, ends - start)))

    def root_margins(self, rules: AnyRules, state: Any, player: str, actions: Sequence[Any]) -> list[float]:
        """`margins`, but an exact purchase (A22: the player acts again) is worth the best action that follows it
        (searched `exact_depth` purchases deep), so `normal` sees what the extra action buys."""
        return [self._deep_margin(rules, state, player, a, self.exact_depth) for a in actions]

    def _deep_margin(self, rules: AnyRules, state: Any, player: str, action: Any, depth: int) -> float:
        after = rules.step(state, player, action, quiet=True)
        if depth > 0 and after.bonus and after.phase == ACTION and after.players[after.current] == player:
            follow = _follow_ups(rules.legal_actions(after, player))
            if follow:
                if depth > 1:
                    return max(self._deep_margin(rules, after, player, b, depth - 1) for b in follow)
                return max(self.margins(rules, after, player, follow))
        return margin(self.evaluate(rules, after), player)

    def determinise(self, rules: AnyRules, view: Any, seat: str, rnd: random.Random) -> Any:
        """Deal the cards the seat has not seen to the other hands and the deck, scoring cards per A16."""
        options = view.options
        if options and any(options.get(m) for m in HIDDEN_MODULES):
            return self._determinise_modules(rules, view, seat, rnd)
        n = len(view.players)
        me = view.players.index(seat)
        seen = set(view.seats[me].hand) | set(view.display) | set(view.discard)
        unseen = [c for c in money_cards(n) if c not in seen]
        rnd.shuffle(unseen)
        done = {s.round for s in view.scorings}
        scoring_left = [c for c, r in ((SCORING_1, 1), (SCORING_2, 2)) if r not in done and len(view.deck) > 0]
        if view.reshuffled:
            scoring_left = []  # A41: the deck ran out once, so both scoring cards have been drawn
        seats, k = _deal_hands(view, me, unseen)
        money = unseen[k:]  # the deck's money cards, top first
        deck_money = len(view.deck) - len(scoring_left)
        if len(money) != deck_money:
            raise ValueError("inconsistent view: hidden card counts do not match the unseen cards")
        top_first = list(money)
        if scoring_left:
            # A16: scoring card 1 was shuffled into the 2nd fifth of the split deck, card 2 into the 4th. The
            # split size is estimated from an average start hand; the cards drawn since then are known.
            outside = len(money_cards(n)) - deck_money
            drawn = max(0, outside - round(START_HAND_CARDS * n) - 4)
            fifth = (deck_money + drawn) / 5
            positions = _scoring_positions(scoring_left, deck_money, drawn, fifth, rnd)
            for card in sorted(positions, key=lambda c: -positions[c]):  # deeper first keeps indices right
                top_first.insert(positions[card], card)
        deck = tuple(reversed(top_first))  # top = last
        bag = list(view.bag)
        rnd.shuffle(bag)
        return dataclasses.replace(view, seed=rnd.getrandbits(48), seats=tuple(seats), deck=deck, bag=tuple(bag))

    def evaluate(self, rules: AnyRules, state: Any) -> dict[str, float]:
        done = {s.round for s in state.scorings}
        if state.phase == "over":
            return {p: float(s.score) for p, s in zip(state.players, state.seats, strict=True)}
        remaining = [r for r in (1, 2, 3) if r not in done]
        # A44: buildings in the Alhambra; tiles waiting to be placed count as built (they mostly will be)
        counts = [_type_counts(s.alhambra, s.pending) for s in state.seats]
        options = state.options
        huts, bonus = options.get("huts"), options.get("bonus")
        if huts or bonus:
            for c, s in zip(counts, state.seats, strict=True):
                _module_buildings(c, s, huts, bonus)
        if state.two_player:
            dirk = [0] * len(TYPES)
            for t in state.dirk:
                dirk[_TYPE_INDEX[TYPE_OF[t]]] += 1
            counts.append(dirk)
        value = [float(s.score) for s in state.seats]
        if self.smooth:
            next_weight = self.crowd_next_weight if len(value) >= self.crowd_players else self.next_weight
            left = self._progress(state)
            for j, r in enumerate(remaining):
                # the majority race: how sure each lead is depends on how many tiles are still to be bought
                # before that round (the next scoring: this stage's share of the bag; later ones: more)
                temp = self.race_base + self.race_spread * (left if j == 0 else 1.0 + j * 0.5)
                w = next_weight if j == 0 else self.later_weight
                _race(counts, POINTS[r], temp, w, value, zero_out=j == 0)
        else:
            for j, r in enumerate(remaining):
                w = NEXT_ROUND_WEIGHT if j == 0 else LATER_ROUND_WEIGHT
                table = POINTS[r]
                for ti, typ in enumerate(TYPES):
                    pts = majority_points([c[ti] for c in counts], table[typ])
                    for i in range(len(value)):
                        value[i] += w * pts[i]
        rounds_left = len(remaining)
        market = state.market
        for i, s in enumerate(state.seats):
            value[i] += self.wall_weight * rounds_left * _wall(frozenset(s.alhambra.items()))
            # money cards only (exchange cards and HIDDEN_CARD are not money; in a base game it is all money)
            if self.currency:
                value[i] += _money_value(s.hand, market, self.money_weight, self.exact_weight, self.cover_weight)
            else:
                value[i] += MONEY_WEIGHT * sum(value_of(c) for c in s.hand if 0 <= c < 108)
            value[i] += self.reserve_weight * len(s.reserve)
        if state.bonus:
            value[state.current] += self.bonus_action
        if options and (bonus or options.get("exchange") or options.get("vizier")):
            for i, s in enumerate(state.seats):
                value[i] += _module_extras(state, s)
        return dict(zip(state.players, value, strict=True))

    def sensible(self, rules: AnyRules, state: Any, seat: str, actions: list[Any]) -> list[Any]:
        """Easy never tears down its Alhambra, builds tiles in rather than shelving them, and does not overpay
        by 3 or more (A21: no change is given). With the modules it also never spends an exchange card on a
        tile it could pay plainly (V45), nor takes a hut with no building of its colour to count beside (V27)."""
        placeable = {a.tile for a in actions if isinstance(a, PlaceTile)}
        plain = None
        keep = []
        for a in actions:
            if isinstance(a, RedesignRemove):
                continue
            if isinstance(a, ReserveTile | GiveToDirk) and a.tile in placeable:
                continue
            if isinstance(a, BuyTile) and sum(value_of(c) for c in a.cards if is_money(c)) - PRICE[a.tile] >= 3:
                continue
            if isinstance(a, BuyTile | VizierBuy) and any(c in EXCHANGE_PAIRS for c in a.cards):
                if plain is None:
                    plain = {
                        b.tile
                        for b in actions
                        if isinstance(b, BuyTile | VizierBuy) and not any(c in EXCHANGE_PAIRS for c in b.cards)
                    }
                if a.tile in plain:
                    continue
            if isinstance(a, TakeHut):
                typ = HUT_TYPE[a.hut]
                if not any(TYPE_OF[t] == typ for t in state.seat(seat).alhambra.values()):
                    continue
            keep.append(a)
        return keep or actions

    def prune(self, rules: AnyRules, state: Any, seat: str, actions: list[Any]) -> list[Any]:
        """V45: with exchange cards in a big hand the mixed payments run into thousands, and the evaluation values
        money by its total, not its currency: keep one payment (the fewest cards) per tile, exchange card and
        amount paid. Base games (and hands without exchange cards) are never pruned."""
        if not state.options.get("exchange"):
            return actions
        hand = state.seat(seat).hand
        if not hand or hand[-1] < 2000:  # exchange cards sort last
            return actions
        best: dict[tuple[Any, ...], Any] = {}
        for a in actions:
            if isinstance(a, BuyTile | VizierBuy) and a.cards[-1] > 2000:  # sorted cards: the exchange card last
                key = (type(a), a.tile, a.cards[-1], sum(value_of(c) for c in a.cards[:-1]))
                if key not in best or len(a.cards) < len(best[key].cards):
                    best[key] = a
        if not best:
            return actions
        keep = set(map(id, best.values()))
        return [a for a in actions if not (isinstance(a, BuyTile | VizierBuy) and a.cards[-1] > 2000) or id(a) in keep]

    def is_optional(self, rules: AnyRules, state: Any, seat: str) -> bool:
        """V4, V12: only a vizier claimant during the window, who is not the player whose turn it is, may also
        let the moment pass; the current player (and everybody in the PLACE, VIZIER and FINAL phases) must act."""
        return bool(state.phase == ACTION and state.window and seat != state.players[state.current])

    def playout_action(self, rules: AnyRules, state: Any, player: str, actions: list[Any], rnd: random.Random) -> Any:
        """The playout policy (`playout_focus`): the best by `margins` of every exact purchase (A22) and
        `playout_sample` random other moves, redesigns (A33) and passing left out while anything else is legal;
        they are many and rarely right, so a plain sample of all moves mostly weighs poor ones."""
        if len(actions) == 1 or not self.playout_focus:
            return GameAI.playout_action(self, rules, state, player, actions, rnd)
        exact, other = [], []
        for a in actions:
            if isinstance(a, BuyTile):
                if all(is_money(c) for c in a.cards) and sum(value_of(c) for c in a.cards) == PRICE[a.tile]:
                    exact.append(a)
                else:
                    other.append(a)
            elif not isinstance(a, RedesignAdd | RedesignRemove | RedesignSwap | Pass):
                other.append(a)
        if not exact and not other:
            return GameAI.playout_action(self, rules, state, player, actions, rnd)
        k = self.playout_sample
        sample = exact + (other if k <= 0 or len(other) <= k else rnd.sample(other, k))
        return self.best_of(rules, state, player, sample, rnd)

    def reply_action(self, rules: AnyRules, state: Any, player: str, rnd: random.Random) -> Any:
        """`lookahead`'s expected move of `player` (`reply_focus`): normal's best by `margins` among the moves
        `_follow_ups` keeps (redesigns left out, the two cheapest payments of each tile), all if it keeps none."""
        if not self.reply_focus:
            return GameAI.reply_action(self, rules, state, player, rnd)
        actions = self.prune(rules, state, player, rules.legal_actions(state, player))
        return self.best_of(rules, state, player, _follow_ups(actions) or actions, rnd)

    def playout_step(self, rules: AnyRules, state: Any, movers: list[str], rnd: random.Random) -> tuple[str, Any]:
        """V4, V7, V12: while the vizier window is open, each claimant (in V7 order) buys out of turn if one of a
        few sampled exact purchases beats letting the window pass; otherwise the current player acts."""
        if state.window and len(movers) > 1:
            for player in movers[1:]:
                buys = rules.legal_actions(state, player)
                if not buys:
                    continue
                k = self.playout_sample
                sample = buys if k <= 0 or len(buys) <= k else rnd.sample(buys, k)
                values = self.margins(rules, state, player, sample)
                best = max(values)
                if best > margin(self.evaluate(rules, state), player) + self.optional_threshold:
                    return player, sample[values.index(best)]
        return GameAI.playout_step(self, rules, state, movers, rnd)

    # ------------------------------------------------------------------------------------ the modules

    def _determinise_modules(self, rules: AnyRules, view: Any, seat: str, rnd: random.Random) -> Any:
        """The re-deal with the Vizier's Favour modules that hide components (V21, V41, V44, V61, V66)."""
        options = view.options
        n = len(view.players)
        me = view.players.index(seat)
        mine = view.seats[me]
        seen = set(mine.hand) | set(view.display) | set(view.discard)
        money = [c for c in money_cards(n) if c not in seen]
        exchange = [c for c in EXCHANGE_CARDS if c not in seen] if options.get("exchange") else []
        rnd.shuffle(money)
        rnd.shuffle(exchange)
        done = {s.round for s in view.scorings}
        reshuffled = view.reshuffled  # A41
        scoring_left = (
            []
            if reshuffled
            else [c for c, r in ((SCORING_1, 1), (SCORING_2, 2)) if r not in done and len(view.deck) > 0]
        )
        hand_slots = sum(len(s.hand) for i, s in enumerate(view.seats) if i != me)
        deck_slots = len(view.deck) - len(scoring_left)  # money and exchange cards in the deck
        if len(money) + len(exchange) != hand_slots + deck_slots:
            raise ValueError("inconsistent view: hidden card counts do not match the unseen cards")
        # cards drawn from the split deck since set-up (A13, A15: start hands and the first display came before)
        outside = len(money_cards(n)) + (len(EXCHANGE_CARDS) if options.get("exchange") else 0) - deck_slots
        drawn = max(0, outside - round(START_HAND_CARDS * n) - 4)
        fifth = (deck_slots + drawn) / 5
        in_deck: dict[int, int] = {}  # exchange card -> depth in the deck (from the top)
        in_hands: list[int] = []
        if reshuffled:
            # A41/V46: the deck was rebuilt from the shuffled discard; an unseen card is anywhere hidden
            pool = money + exchange
            rnd.shuffle(pool)
            to_hands, to_deck = pool[:hand_slots], pool[hand_slots:]
        else:
            # V41: exchange cards went into piles 2-4 of the split deck; one whose depth has been drawn already is
            # not face up or discarded, so another player took it (V43, V44)
            for x in exchange:
                depth = rnd.uniform(fifth, 4 * fifth)
                if depth < drawn and len(in_hands) < hand_slots or len(in_deck) >= deck_slots:
                    in_hands.append(x)
                else:
                    in_deck[x] = int(depth - drawn) if depth >= drawn else rnd.randint(0, deck_slots)
            k = hand_slots - len(in_hands)
            to_hands = in_hands + money[:k]
            rnd.shuffle(to_hands)
            to_deck = money[k:]
        seats, _ = _deal_hands(view, me, to_hands)
        top_first = list(to_deck)
        # deeper first keeps the indices right; scoring cards last, so they land at their own depth
        for x in sorted(in_deck, key=lambda c: -in_deck[c]):
            top_first.insert(min(in_deck[x], len(top_first)), x)
        if scoring_left:
            positions = _scoring_positions(scoring_left, len(top_first), drawn, fifth, rnd)
            for card in sorted(positions, key=lambda c: -positions[c]):
                top_first.insert(positions[card], card)
        deck = tuple(reversed(top_first))  # top = last
        bag = list(view.bag)
        rnd.shuffle(bag)
        changes: dict[str, Any] = {}
        if view.huts:
            changes["huts"] = _redeal_huts(view, rnd)
        if options.get("bonus"):
            seats, changes["bonus_aside"] = _redeal_bonus(view, seats, me, rnd)
        return dataclasses.replace(
            view, seed=rnd.getrandbits(48), seats=tuple(seats), deck=deck, bag=tuple(bag), **changes
        )


def _deal_hands(view: Any, me: int, cards: list[int]) -> tuple[list[Any], int]:
    """The seats with every other hand refilled, in seat order, from the front of `cards` (each hand keeps its
    public size and is sorted, exchange cards last, as the engine keeps hands); also how many cards were used."""
    seats, k = [], 0
    for i, s in enumerate(view.seats):
        if i == me:
            seats.append(s)
            continue
        seats.append(dataclasses.replace(s, hand=tuple(sorted(cards[k : k + len(s.hand)]))))
        k += len(s.hand)
    return seats, k


def _scoring_positions(
    cards: list[int], deck_size: int, drawn: int, fifth: float, rnd: random.Random
) -> dict[int, int]:
    """A16: depths (from the top) of the undrawn scoring cards: card 1 in the 2nd fifth of the split deck, card 2
    in the 4th, less what has been drawn since; card 1 never below card 2."""
    positions = {}
    for card in cards:
        pile = 1 if card == SCORING_1 else 3
        lo = int(pile * fifth) - drawn
        hi = int((pile + 1) * fifth) - drawn
        lo, hi = max(0, min(lo, deck_size)), max(0, min(hi, deck_size))
        positions[card] = rnd.randint(lo, max(lo, hi))
    if SCORING_1 in positions and SCORING_2 in positions:
        positions[SCORING_1] = min(positions[SCORING_1], positions[SCORING_2])
    return positions


def _redeal_huts(view: Any, rnd: random.Random) -> tuple[tuple[str, ...], ...]:
    """V21: below each face-up hut lie, in unknown order, the huts of its colour that are nowhere in sight."""
    visible = {stack[-1] for stack in view.huts if stack}
    for s in view.seats:
        visible.update(t for t in (*s.alhambra.values(), *s.reserve, *s.pending) if t in HUT_TYPE)
    stacks = []
    for typ, stack in zip(TYPES, view.huts, strict=True):
        if not stack:
            stacks.append(())
            continue
        below = [h for h in HUTS if HUT_TYPE[h] == typ and h not in visible]
        if len(below) != len(stack) - 1:
            raise ValueError("inconsistent view: a hut stack does not match the huts out of sight")
        rnd.shuffle(below)
        stacks.append(tuple(below) + stack[-1:])
    return tuple(stacks)


def _redeal_bonus(view: Any, seats: list[Any], me: int, rnd: random.Random) -> tuple[list[Any], tuple[str, ...]]:
    """V61: the bonus cards not in the seat's hand nor played by anyone go to the other hands (their sizes are
    public) and to the cards set aside; V66: the others' standing orders are taken to be the default."""
    known = set(view.seats[me].bonus_hand)
    for s in view.seats:
        known.update(s.bonus_played)
    unseen = [c for c in BONUS_CARDS if c not in known]
    rnd.shuffle(unseen)
    if len(unseen) != sum(len(s.bonus_hand) for i, s in enumerate(seats) if i != me) + len(view.bonus_aside):
        raise ValueError("inconsistent view: hidden bonus cards do not match the cards out of sight")
    k = 0
    out = []
    for i, s in enumerate(seats):
        if i != me:
            s = dataclasses.replace(
                s, bonus_hand=tuple(unseen[k : k + len(s.bonus_hand)]), bonus_auto=s.bonus_auto or AUTO_EVERY
            )
            k += len(s.bonus_hand)
        out.append(s)
    return out, tuple(unseen[k:])


def _follow_ups(actions: list[Any]) -> list[Any]:
    """The moves worth weighing for the extra action of an exact purchase (A22), kept few so `normal` stays fast:
    every way to take money, the two cheapest payments of each tile, huts, passing; redesigns are left out."""
    out = []
    per_tile: dict[str, int] = {}
    for a in actions:
        if isinstance(a, BuyTile):
            k = per_tile.get(a.tile, 0)
            if k >= 2:
                continue
            per_tile[a.tile] = k + 1
        elif isinstance(a, RedesignAdd | RedesignRemove | RedesignSwap):
            continue
        out.append(a)
    return out


def _race(
    counts: list[list[int]],
    table: dict[str, tuple[int, ...]],
    temp: float,
    w: float,
    value: list[float],
    zero_out: bool,
) -> None:
    """A45–A47 as a race: each participant's expected majority points of one scoring round, `w` times, added to
    `value` (Dirk, a last extra row of `counts`, is left out of `value`); see `_race_column`."""
    pts = _race_round(tuple(zip(*counts, strict=True)), tuple(table[typ] for typ in TYPES), round(temp, 2), zero_out)
    for i in range(len(value)):
        value[i] += w * pts[i]


@functools.lru_cache(maxsize=1 << 16)
def _race_round(
    columns: tuple[tuple[int, ...], ...], places: tuple[tuple[int, ...], ...], temp: float, zero_out: bool
) -> tuple[float, ...]:
    """`_race_column` summed over the building types (columns in TYPES order), per participant; cached."""
    out = [0.0] * len(columns[0])
    for col, pl in zip(columns, places, strict=True):
        for i, x in enumerate(_race_column(col, pl, temp, zero_out)):
            out[i] += x
    return tuple(out)


@functools.lru_cache(maxsize=1 << 16)
def _race_column(ks: tuple[int, ...], places: tuple[int, ...], temp: float, zero_out: bool) -> tuple[float, ...]:
    """Expected points of one building type in one round for participants with `ks` buildings: ranks drawn
    Plackett-Luce with weights exp(buildings / temp), so a small `temp` is today's counts (ties split) and a
    large one an open race. With `zero_out` (the next round) a participant without the type cannot score it,
    as in the rules (A45); later, a small chance remains. Cached: the same columns recur all through a search."""
    ws = [0.0 if (k == 0 and zero_out) else math.exp(min(k, 30) / temp) * (0.25 if k == 0 else 1.0) for k in ks]
    n = len(ws)
    out = [0.0] * n
    total = sum(ws)
    if total <= 0.0:
        return tuple(out)
    p1 = [x / total for x in ws]
    for i in range(n):
        out[i] += places[0] * p1[i]
    if len(places) < 2:
        return tuple(out)
    for j, wj in enumerate(ws):  # j first, then i second
        rest = total - wj
        if wj <= 0.0 or rest <= 1e-12:
            continue
        pj = p1[j]
        for i in range(n):
            if i == j or ws[i] <= 0.0:
                continue
            out[i] += places[1] * pj * ws[i] / rest
            if len(places) > 2:
                for k, wk in enumerate(ws):  # j, k, then i third
                    if k in (i, j) or wk <= 0.0:
                        continue
                    rest2 = rest - wk
                    if rest2 > 1e-12:
                        out[i] += places[2] * pj * (wk / rest) * (ws[i] / rest2)
    return tuple(out)


def _money_value(hand: tuple[int, ...], market: tuple[Any, ...], per_point: float, exact: float, cover: float) -> float:
    """Money in hand by currency against the market: its face value, plus each market tile the hand can pay
    exactly (A22: an extra action) or at all, in that tile's space's currency (A21)."""
    totals = [0, 0, 0, 0]
    have: list[list[int]] = [[], [], [], []]
    for c in hand:
        if 0 <= c < 108:
            v = (c % 27) // 3 + 1
            totals[c // 27] += v
            have[c // 27].append(v)
    out = per_point * sum(totals)
    for space, tile in enumerate(market):
        if tile is None:
            continue
        price = PRICE[tile]
        if totals[space] >= price:
            out += cover
            if _subset_sum(tuple(sorted(have[space])), price):
                out += exact
    return out


@functools.lru_cache(maxsize=1 << 14)
def _subset_sum(values: tuple[int, ...], target: int) -> bool:
    """Can some of `values` add up to exactly `target`?"""
    reach = 1
    for v in values:
        reach |= reach << v
    return bool(reach >> target & 1)


def _module_buildings(counts: list[int], seat: Any, huts: bool, bonus: bool) -> None:
    """Add the buildings the modules give `seat` at a scoring to `counts` (TYPES order): V27 huts in the
    Alhambra (a hut still to be placed counts one if a building of its colour is there to lie beside), V63
    played bonus cards, and bonus cards in hand whose building is built (the standing order plays them, V66)."""
    if huts and seat.huts_taken:
        for typ, k in hut_counts(seat.alhambra).items():
            counts[_TYPE_INDEX[typ]] += k
        for t in seat.pending:
            colour = HUT_TYPE.get(t)
            if colour is not None and any(TYPE_OF[b] == colour for b in seat.alhambra.values()):
                counts[_TYPE_INDEX[colour]] += 1
    if bonus:
        for card in seat.bonus_played:
            counts[_TYPE_INDEX[TYPE_OF[card]]] += 1
        if seat.bonus_hand and seat.bonus_auto != AUTO_NEVER:
            built = set(seat.alhambra.values()).union(seat.pending)
            for card in seat.bonus_hand:
                if card in built:
                    counts[_TYPE_INDEX[TYPE_OF[card]]] += 1


def _module_extras(state: Any, seat: Any) -> float:
    """Points for module components that are not buildings: exchange cards (V45), an active vizier (V3) while
    tiles remain, and the hope of bonus cards whose tile may still be bought (V62)."""
    value = 0.0
    if state.options.get("exchange"):
        value += EXCHANGE_WEIGHT * sum(1 for c in seat.hand if c in EXCHANGE_PAIRS)
    if seat.vizier and state.bag:
        value += VIZIER_WEIGHT
    if seat.bonus_hand:
        built = set(seat.alhambra.values()).union(seat.pending)
        for card in seat.bonus_hand:
            if card in built and seat.bonus_auto != AUTO_NEVER:
                continue  # counted as a building already
            if card in state.market:
                value += BONUS_HOPE_MARKET
            elif card in state.bag:
                value += BONUS_HOPE_BAG
    return value


def _type_counts(alhambra: dict[tuple[int, int], str], pending: tuple[str, ...]) -> list[int]:
    counts = [0] * len(TYPES)
    for t in alhambra.values():
        i = _TYPE_INDEX.get(TYPE_OF[t])
        if i is not None:  # the fountain has no type (A1)
            counts[i] += 1
    for t in pending:
        i = _TYPE_INDEX.get(TYPE_OF[t])
        if i is not None:  # a hut is no building (V27): the modules' code counts what it adds
            counts[i] += 1
    return counts


@functools.lru_cache(maxsize=1 << 14)
def _wall(items: frozenset[tuple[tuple[int, int], str]]) -> int:
    """A48: the longest outer wall (cached: Alhambras repeat across the search)."""
    return longest_wall(dict(items))


ADAPTER = AlhambraAI()
