"""The game-independent half of the AI players: budgets, the per-game adapter base class, and the three levels.

A decision only ever starts from `rules.view(state, seat)`: what that seat may see. Everything the seat cannot see
(other hands, deck or bag order, the seed) is re-dealt by the game's adapter (`GameAI.determinise`) into a full,
plausible state; the levels then use the engine contract only (`to_move`, `legal_actions`, `step`, `is_over`,
`scores`, `winners`) plus the adapter's evaluation.

- easy:   a random move among the adapter's "sensible" moves (obviously wasteful moves filtered out).
- normal: one-move lookahead: every legal move is played on a determinised state and scored by the adapter's
          evaluation (points now + game-specific potential), the best margin over the strongest opponent wins
          (`root_margins`: a game may look a little further, e.g. Alhambra through an exact purchase's extra action).
- hard:   information-set MCTS (`ismcts`, Cowling, Powley and Whitehouse 2012) over the best `normal` candidates:
          each iteration samples a fresh determinisation (so hidden information is handled honestly: the search
          averages over what the seat cannot know), walks and grows a tree of the actions legal in that deal (UCB1
          with availability counts, progressive widening by the evaluation), then plays on with a cheap
          evaluation-guided playout for a limited number of actions, and scores the result as a win (game over) or
          a squashed evaluation margin, for each mover from their own side. The `normal` evaluation also seeds each
          root candidate as a prior, so few iterations never play worse than `normal` by much. A clearly best move
          (`clear_margin`) is played at once. Options per game: `tree = False` is the earlier flat Monte Carlo at
          the root (`search`), `paired = True` flat rounds with common random numbers (`paired_search`),
          `lookahead = True` (Alhambra) a determinised lookahead with common random numbers (`lookahead`): each
          of normal's best moves on the same re-deals, the others replying by normal's policy, scored at the
          seat's next turn by its best move there; normal's choice kept unless another is clearly better.

Optional movers (`decide(..., optional=True)`, e.g. Alhambra's vizier claimants out of turn, V4/V12) may also do
nothing: each level compares its best move with the position as it stands (by the same evaluation; `hard` searches
"do nothing" as one more candidate) and returns None when doing nothing is better. `optional=False` never takes
that path, so ordinary decisions are exactly what they were.

Pure: no discord, no asyncio, no I/O. Deterministic for a seed when the budget counts iterations (a time budget
stops at a wall-clock moment, so its result may vary).
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import json
import math
import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

from engine import Rules

AnyRules = Rules[Any, Any]  # the AI plays every game through the contract alone

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


@dataclasses.dataclass(frozen=True, slots=True)
class Budget:
    """How long `hard` may think: a number of search iterations, a number of seconds, or both (first one wins).

    Tests use iterations (deterministic); the bot uses seconds.
    """

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("A budget needs iterations or seconds.")

    @classmethod
    def of(cls, budget: Budget | int | float | None, default: Budget) -> Budget:
        """`budget` as a Budget: an int counts iterations, a float counts seconds, None gives `default`."""
        if budget is None:
            return default
        if isinstance(budget, Budget):
            return budget
        if isinstance(budget, bool):
            raise ValueError("A budget is a Budget, an int (iterations) or a float (seconds).")
        if isinstance(budget, int):
            return cls(iterations=budget)
        if isinstance(budget, float):
            return cls(seconds=budget)
        raise ValueError("A budget is a Budget, an int (iterations) or a float (seconds).")


# A decision of `hard` must take at most 1.5 s at p95 on the 2-core reference machine: a second of
# search leaves room for the set-up (ranking every legal move) and for the last iteration running over.
DEFAULT_BUDGET = Budget(seconds=1.0)


class GameAI:
    """What the levels need to know about one game. Subclasses live in `ai/<game>.py` as `ADAPTER`.

    Only `determinise` and `evaluate` are required. `determinise` may read the game's state fields, but must use
    only what the view shows plus random sampling consistent with it.
    """

    game: str = ""
    #: evaluation margin (points) that counts as "clearly ahead": the squashing scale of playout rewards
    margin_scale: float = 10.0
    #: how many of `normal`'s best moves the `hard` search considers
    root_width: int = 10
    #: how many actions a `hard` playout plays before it is scored by `evaluate` (0 = only the root action)
    playout_depth: int = 20
    #: how many random legal actions the greedy playout policy compares per step (1 = pure random, 0 = all:
    #: the playout plays `normal`'s move)
    playout_sample: int = 4
    #: the weight, in playouts, of `normal`'s opinion of each root move (a prior for the UCB statistics)
    prior_weight: float = 2.0
    #: UCB1 exploration constant for rewards in [0, 1]
    exploration: float = 0.6
    #: a reward for a finished game: this much for the win/draw/loss, the rest for the squashed margin
    win_weight: float = 0.7
    #: an optional mover (see `decide`) acts only if its best move beats doing nothing by this margin
    optional_threshold: float = 0.0
    #: `hard`'s search: True = information-set MCTS (`ismcts`) below the root, False = flat Monte Carlo at the root
    tree: bool = True
    #: ISMCTS: actions deep the tree may grow (the playout then continues to `playout_depth` actions in all)
    tree_depth: int = 6
    #: progressive widening: a node may have ceil(widen_k * visits ** widen_alpha) children; each new one is the
    #: best by `margins` among `widen_sample` untried legal actions
    widen_k: float = 1.5
    widen_alpha: float = 0.5
    widen_sample: int = 6
    #: the best `normal` move is played at once when it leads the second by this margin (points): clearly best
    clear_margin: float = 1e9
    #: flat search (`tree` False): rounds in which every candidate is played from the same re-deal with the same
    #: random choices after it (common random numbers), each playout stopping when the seat is to move again
    paired: bool = False
    #: `hard`'s decision by `lookahead` instead (False keeps the searches above, as every game had them): each of
    #: `normal`'s best `look_width` moves is played on the same re-deals, the others reply by `normal`'s policy
    #: (`reply_action`) until the seat is to move again, which is scored by the seat's best move there
    #: (`root_margins`); `normal`'s choice stays unless another move is better on these deals by `look_z`
    #: standard errors (and `look_gain` points)
    lookahead: bool = False
    look_width: int = 6
    look_z: float = 1.0
    look_gain: float = 0.0
    #: at most this many actions of the others (and of the seat finishing its turn) before the seat's next turn
    look_steps: int = 12
    #: a deal counts `look_width` iterations of a `Budget`; a time budget plays at least `look_min_deals`
    look_min_deals: int = 1

    def determinise(self, rules: AnyRules, view: Any, seat: str, rnd: random.Random) -> Any:
        """A full state whose `rules.view(state, seat)` equals `view`, hidden parts re-dealt at random."""
        raise NotImplementedError

    def evaluate(self, rules: AnyRules, state: Any) -> dict[str, float]:
        """Each player's expected final points: points so far plus the game's potential (the heuristic)."""
        raise NotImplementedError

    def sensible(self, rules: AnyRules, state: Any, seat: str, actions: list[Any]) -> list[Any]:
        """The moves `easy` picks from: `actions` without the obviously wasteful ones (never empty)."""
        return actions

    def margins(self, rules: AnyRules, state: Any, player: str, actions: Sequence[Any]) -> list[float]:
        """`margin` of `evaluate` after each action: what `normal` and the playouts maximise.

        A game may override this with an incremental version that gives the same numbers faster.
        """
        return [margin(self.evaluate(rules, rules.step(state, player, a, quiet=True)), player) for a in actions]

    def root_margins(self, rules: AnyRules, state: Any, player: str, actions: Sequence[Any]) -> list[float]:
        """The margins `normal` ranks its moves by (by default `margins`): a game may look a little further here,
        e.g. through the extra action an exact purchase gives, without slowing the playouts that use `margins`."""
        return self.margins(rules, state, player, actions)

    def reply_action(self, rules: AnyRules, state: Any, player: str, rnd: random.Random) -> Any:
        """What `lookahead` expects `player` to do (by default `normal`'s move by `margins`, ties at random)."""
        return self.best_of(
            rules, state, player, self.prune(rules, state, player, rules.legal_actions(state, player)), rnd
        )

    def best_of(self, rules: AnyRules, state: Any, player: str, actions: Sequence[Any], rnd: random.Random) -> Any:
        """The best of `actions` by `margins`, ties at random (one action: that one, drawing nothing)."""
        if len(actions) == 1:
            return actions[0]
        values = self.margins(rules, state, player, actions)
        best = max(values)
        return rnd.choice([a for a, v in zip(actions, values, strict=True) if v == best])

    def prune(self, rules: AnyRules, state: Any, seat: str, actions: list[Any]) -> list[Any]:
        """The legal actions worth ranking (never empty; by default all): a game whose listing can explode may
        drop actions its evaluation cannot tell apart."""
        return actions

    def is_optional(self, rules: AnyRules, state: Any, seat: str) -> bool:
        """Whether `seat`, asked with `optional=True`, may really also do nothing now. By default the first
        player in `to_move` must act and the others may; a game with other obligations overrides this."""
        return rules.to_move(state)[:1] != [seat]

    def playout_step(self, rules: AnyRules, state: Any, movers: list[str], rnd: random.Random) -> tuple[str, Any]:
        """Who acts next in a playout, and with what: by default the first mover, by `playout_action`. A game
        with optional movers (out-of-turn windows) may let them act first."""
        player = movers[0]
        actions = rules.legal_actions(state, player)
        return player, self.playout_action(rules, state, player, actions, rnd)

    def playout_action(self, rules: AnyRules, state: Any, player: str, actions: list[Any], rnd: random.Random) -> Any:
        """The playout policy: the best by `margins` among a few random legal actions (all if sample is 0)."""
        if len(actions) == 1:
            return actions[0]
        k = self.playout_sample
        sample = actions if k <= 0 or len(actions) <= k else rnd.sample(actions, k)
        return self.best_of(rules, state, player, sample, rnd)


def margin(values: dict[str, float], player: str) -> float:
    """`player`'s value minus the best opponent's: what a player who wants to win maximises."""
    mine = values.get(player, 0.0)
    others = [v for p, v in values.items() if p != player]
    return mine - max(others) if others else mine


def squash(x: float, scale: float) -> float:
    """A margin mapped to (0, 1): 0.5 is level, `scale` points ahead is about 0.73."""
    return 1.0 / (1.0 + math.exp(-x / scale))


def action_key(rules: AnyRules, action: Any) -> str:
    """A stable sort key (the action's JSON text): the order of legal_actions may depend on set iteration."""
    return json.dumps(rules.action_to_json(action), sort_keys=True)


# --------------------------------------------------------------------------------------------- the decision


def decide(
    rules: AnyRules,
    ai: GameAI,
    view: Any,
    seat: str,
    level: str,
    seed: int,
    budget: Budget | int | float | None = None,
    optional: bool = False,
    report: dict[str, Any] | None = None,
) -> Any:
    """The move `seat` makes at `level`, from `view` (what the seat may see) alone.

    With `optional`, the seat may also do nothing (e.g. an out-of-turn vizier claimant): None when that is what
    the AI prefers, or when the seat cannot act at all (any more).

    `report` (a dict, for the coach, ai/coach.py) is filled with what the decision weighed, changing nothing of
    it: "ranked" ([(margin, action)] of every move `normal` ranked, best first) and, when `hard` searched,
    "searched" ([(action, visits, mean reward)] of its candidates).
    """
    if level not in LEVELS:
        raise ValueError(f"Unknown AI level '{level}' (levels: {', '.join(LEVELS)}).")
    start = time.perf_counter()
    rnd = random.Random(seed)
    base = ai.determinise(rules, view, seat, rnd)
    if seat not in rules.to_move(base):
        if optional:
            return None
        raise ValueError(f"{seat} is not to move.")
    actions = ai.prune(rules, base, seat, sorted(rules.legal_actions(base, seat), key=lambda a: action_key(rules, a)))
    if not actions:
        if optional:
            return None
        raise ValueError(f"{seat} has no legal action.")
    if optional and ai.is_optional(rules, base, seat):
        return decide_optional(
            rules, ai, view, base, seat, level, actions, rnd, Budget.of(budget, DEFAULT_BUDGET), start, report
        )
    if len(actions) == 1:
        if report is not None:
            report["ranked"] = [(0.0, actions[0])]
        return actions[0]
    if level == "easy":
        return rnd.choice(ai.sensible(rules, base, seat, actions) or actions)
    ranked = rank(rules, ai, base, seat, actions, rnd)
    if report is not None:
        report["ranked"] = ranked
    if level == "normal":
        return ranked[0][1]
    if len(ranked) > 1 and ranked[0][0] - ranked[1][0] >= ai.clear_margin:
        return ranked[0][1]  # clearly best: no search needed
    method = lookahead if ai.lookahead else paired_search if ai.paired else ismcts if ai.tree else search
    with paused_gc():
        return method(rules, ai, view, seat, ranked, rnd, Budget.of(budget, DEFAULT_BUDGET), start, report)


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a search runs (at most its budget). A search's playouts
    allocate millions of short-lived tuples and lists, none of them in reference cycles (the engines make no
    cyclic garbage: tests/ai/test_players.py), which reference counting frees at once; the collector's passes over
    them and over the long-lived caches cost about a quarter of a playout. It runs again afterwards as before."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def decide_optional(
    rules: AnyRules,
    ai: GameAI,
    view: Any,
    base: Any,
    seat: str,
    level: str,
    actions: list[Any],
    rnd: random.Random,
    budget: Budget,
    start: float,
    report: dict[str, Any] | None = None,
) -> Any:
    """An optional mover's choice: the best action if it beats doing nothing (the position as it is, by the same
    evaluation), else None. easy: a random one of the actions that beat it; normal: the best of them; hard: the
    search, with "do nothing" as one more candidate whose playouts start with the obliged mover's move (unless
    every action is clearly worse than doing nothing)."""
    stay = margin(ai.evaluate(rules, base), seat) + ai.optional_threshold
    if level == "easy":
        values = ai.margins(rules, base, seat, actions)
        better = [a for a, v in zip(actions, values, strict=True) if v > stay]
        return rnd.choice(better) if better else None
    ranked = rank(rules, ai, base, seat, actions, rnd)
    if report is not None:
        report["ranked"] = sorted([*ranked, (stay, None)], key=lambda t: -t[0])
    if level == "normal":
        return ranked[0][1] if ranked[0][0] > stay else None
    if ranked[0][0] < stay - ai.margin_scale / 2:
        return None  # clearly worse than doing nothing: not worth a search (optional movers are asked often)
    cands = ranked[: max(1, ai.root_width - 1)] + [(stay, None)]
    with paused_gc():
        return search(rules, ai, view, seat, cands, rnd, budget, start, report)


def rank(
    rules: AnyRules, ai: GameAI, state: Any, seat: str, actions: Sequence[Any], rnd: random.Random
) -> list[tuple[float, Any]]:
    """[(margin after the move, action)], best first; equal margins in random order (so `normal` varies)."""
    values = ai.root_margins(rules, state, seat, actions)
    scored = [(v, rnd.random(), a) for v, a in zip(values, actions, strict=True)]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(m, a) for m, _, a in scored]


def search(
    rules: AnyRules,
    ai: GameAI,
    view: Any,
    seat: str,
    ranked: list[tuple[float, Any]],
    rnd: random.Random,
    budget: Budget,
    start: float,
    report: dict[str, Any] | None = None,
) -> Any:
    """Determinised flat Monte Carlo with UCB1 over `normal`'s best `root_width` moves (a None "move": an optional
    mover does nothing).

    (Paired rounds, every candidate played from the same determinisation, did no better in the arena.)
    """
    cands = ranked[: ai.root_width]
    if len(cands) == 1:
        return cands[0][1]
    # prior: normal's evaluation, squashed, counted as `prior_weight` playouts
    visits = [ai.prior_weight] * len(cands)
    totals = [ai.prior_weight * squash(m, ai.margin_scale) for m, _ in cands]
    deadline = start + budget.seconds if budget.seconds is not None else math.inf
    limit = budget.iterations if budget.iterations is not None else math.inf
    done = 0
    while done < limit and time.perf_counter() < deadline:
        n = sum(visits)
        log_n = math.log(n)
        best_i, best_u = 0, -math.inf
        for i in range(len(cands)):
            u = totals[i] / visits[i] + ai.exploration * math.sqrt(log_n / visits[i])
            if u > best_u:
                best_i, best_u = i, u
        # a fresh determinisation each iteration: the seat's uncertainty is averaged over, never resolved
        state = ai.determinise(rules, view, seat, rnd)
        action = cands[best_i][1]
        if action is None:  # an optional mover lets the moment pass: the player who must move acts instead
            first = rules.to_move(state)[0]
            action = ai.playout_action(rules, state, first, rules.legal_actions(state, first), rnd)
            state = rules.step(state, first, action, quiet=True)
        else:
            state = rules.step(state, seat, action, quiet=True)
        totals[best_i] += playout(rules, ai, state, seat, rnd)
        visits[best_i] += 1
        done += 1
    if report is not None:
        report["searched"] = [(a, visits[i], totals[i] / visits[i]) for i, (_, a) in enumerate(cands)]
    best = max(range(len(cands)), key=lambda i: (visits[i], totals[i] / visits[i]))
    return cands[best][1]


def paired_search(
    rules: AnyRules,
    ai: GameAI,
    view: Any,
    seat: str,
    ranked: list[tuple[float, Any]],
    rnd: random.Random,
    budget: Budget,
    start: float,
    report: dict[str, Any] | None = None,
) -> Any:
    """Determinised flat Monte Carlo in paired rounds: each round re-deals what the seat cannot see once and plays
    every one of `normal`'s best `root_width` moves from that same deal, the others' replies drawn with the same
    random numbers, until the seat is to move again (or `playout_depth` actions), then scores the evaluation
    margin. Common random numbers make the comparison of the moves far less noisy than independent playouts,
    which matters when a second buys only some hundred playouts. `normal`'s opinion is the prior (as in
    `search`); an iteration is one playout, a round is `root_width` of them."""
    cands = ranked[: ai.root_width]
    if len(cands) == 1:
        return cands[0][1]
    totals = [ai.prior_weight * squash(m, ai.margin_scale) for m, _ in cands]
    visits = [ai.prior_weight] * len(cands)
    deadline = start + budget.seconds if budget.seconds is not None else math.inf
    limit = budget.iterations if budget.iterations is not None else math.inf
    done = 0
    while done < limit and time.perf_counter() < deadline:
        deal = ai.determinise(rules, view, seat, rnd)
        seed = rnd.getrandbits(32)
        for i, (_, action) in enumerate(cands):
            if done >= limit or (done and time.perf_counter() >= deadline):
                break
            same = random.Random(seed)
            if action is None:  # an optional mover lets the moment pass: the player who must move acts instead
                first = rules.to_move(deal)[0]
                state = rules.step(
                    deal,
                    first,
                    ai.playout_action(rules, deal, first, rules.legal_actions(deal, first), same),
                    quiet=True,
                )
            else:
                state = rules.step(deal, seat, action, quiet=True)
            for _ in range(ai.playout_depth):
                if rules.is_over(state):
                    break
                movers = rules.to_move(state)
                if movers[0] == seat:
                    break
                player, reply = ai.playout_step(rules, state, movers, same)
                state = rules.step(state, player, reply, quiet=True)
            totals[i] += reward(rules, ai, state, seat)
            visits[i] += 1
            done += 1
    if report is not None:
        report["searched"] = [(a, visits[i], totals[i] / visits[i]) for i, (_, a) in enumerate(cands)]
    best = max(range(len(cands)), key=lambda i: totals[i] / visits[i])
    return cands[best][1]


def lookahead(
    rules: AnyRules,
    ai: GameAI,
    view: Any,
    seat: str,
    ranked: list[tuple[float, Any]],
    rnd: random.Random,
    budget: Budget,
    start: float,
    report: dict[str, Any] | None = None,
) -> Any:
    """A determinised lookahead with common random numbers over `normal`'s best `look_width` moves.

    Each round re-deals what the seat cannot see once (`determinise`, from `view` alone) and plays every candidate
    on that same deal: the seat finishes its turn and the others reply by `reply_action` (with the same random
    numbers for every candidate) until the seat is to move again, where the position is worth the seat's best
    move by `root_margins` ("my move, their replies, my best next move"); a finished game is worth its final
    margin. `normal`'s choice (the first candidate) is kept unless another one beats it on the same deals by
    `look_z` standard errors of the paired differences and by `look_gain` points: far less noise per deal than a
    playout's, and never a change on thin evidence. An iteration of a `Budget` is one candidate on one deal;
    only complete rounds count."""
    cands = ranked[: ai.look_width]
    if len(cands) == 1:
        return cands[0][1]
    deadline = start + budget.seconds if budget.seconds is not None else math.inf
    limit = budget.iterations if budget.iterations is not None else math.inf
    width = len(cands)
    rows: list[list[float]] = []  # per round: each candidate's value
    done = 0
    while done + width <= limit:
        if len(rows) >= ai.look_min_deals and time.perf_counter() >= deadline:
            break
        deal = ai.determinise(rules, view, seat, rnd)
        seed = rnd.getrandbits(32)
        row = []
        for _, action in cands:
            if len(rows) >= ai.look_min_deals and time.perf_counter() >= deadline:
                break
            row.append(_look_value(rules, ai, rules.step(deal, seat, action, quiet=True), seat, random.Random(seed)))
        if len(row) < width:
            break
        rows.append(row)
        done += width
    best = 0
    if len(rows) >= 2:
        k = len(rows)
        top = 0.0
        for i in range(1, width):
            diffs = [r[i] - r[0] for r in rows]
            mean = sum(diffs) / k
            var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
            if mean > ai.look_gain and mean > ai.look_z * math.sqrt(var / k) and mean > top:
                best, top = i, mean
    if report is not None:
        # as the searches report it: a squashed mean margin (ai/coach.py reads it as a chance)
        report["searched"] = [
            (a, len(rows), squash(sum(r[i] for r in rows) / len(rows) if rows else m, ai.margin_scale))
            for i, (m, a) in enumerate(cands)
        ]
    return cands[best][1]


def _look_value(rules: AnyRules, ai: GameAI, state: Any, seat: str, rnd: random.Random) -> float:
    """`lookahead`'s value of `state` for `seat` (points of margin): play on by `reply_action` until the seat is
    to move after another player has acted (or `look_steps` actions), then the seat's best move by
    `root_margins`; a finished game: its final margin, plus `margin_scale` for a win."""
    other = False
    for _ in range(ai.look_steps):
        if rules.is_over(state):
            break
        player = rules.to_move(state)[0]
        if player == seat and other:
            break
        other = other or player != seat
        state = rules.step(state, player, ai.reply_action(rules, state, player, rnd), quiet=True)
    if rules.is_over(state):
        scores = {p: float(v) for p, v in rules.scores(state).items()}
        won = ai.margin_scale / len(rules.winners(state)) if seat in rules.winners(state) else 0.0
        return margin(scores, seat) + won
    player = rules.to_move(state)[0]
    if player != seat:
        return margin(ai.evaluate(rules, state), seat)
    actions = ai.prune(rules, state, seat, rules.legal_actions(state, seat))
    return max(ai.root_margins(rules, state, seat, actions)) if actions else margin(ai.evaluate(rules, state), seat)


class _Node:
    """A node of the ISMCTS tree: the statistics of the action leading to it, from its mover's point of view."""

    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self, visits: float = 0.0, total: float = 0.0) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = visits
        self.total = total
        self.avail = 1.0


def ismcts(
    rules: AnyRules,
    ai: GameAI,
    view: Any,
    seat: str,
    ranked: list[tuple[float, Any]],
    rnd: random.Random,
    budget: Budget,
    start: float,
    report: dict[str, Any] | None = None,
) -> Any:
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012) over `normal`'s best
    `root_width` moves (a None move: an optional mover does nothing).

    Each iteration re-deals what the seat cannot see (`determinise`, from `view` alone), walks the tree by UCB1
    among the children legal in that deal (ISMCTS's availability counts stand in for the parent's visits),
    grows it by progressive widening (a node gets a new child, the best by `margins` of a few untried legal
    actions, when ceil(widen_k * visits ** widen_alpha) allows), then plays on with the evaluation-guided
    playout policy to `playout_depth` actions in all and backs up each mover's own reward (its squashed
    evaluation margin, or the result of a finished game). The root moves start with `normal`'s opinion as a
    prior of `prior_weight` playouts; the most visited one is played."""
    cands = ranked[: ai.root_width]
    if len(cands) == 1:
        return cands[0][1]
    roots = [_Node(ai.prior_weight, ai.prior_weight * squash(m, ai.margin_scale)) for m, _ in cands]
    deadline = start + budget.seconds if budget.seconds is not None else math.inf
    limit = budget.iterations if budget.iterations is not None else math.inf
    done = 0
    c = ai.exploration
    while done < limit and time.perf_counter() < deadline:
        n_root = sum(r.visits for r in roots)
        log_n = math.log(n_root)
        best_i = max(
            range(len(cands)),
            key=lambda i: roots[i].total / roots[i].visits + c * math.sqrt(log_n / roots[i].visits),
        )
        state = ai.determinise(rules, view, seat, rnd)
        action = cands[best_i][1]
        if action is None:  # an optional mover lets the moment pass: the player who must move acts instead
            first = rules.to_move(state)[0]
            action = ai.playout_action(rules, state, first, rules.legal_actions(state, first), rnd)
            state = rules.step(state, first, action, quiet=True)
        else:
            state = rules.step(state, seat, action, quiet=True)
        node = roots[best_i]
        path: list[tuple[_Node, str]] = [(node, seat)]
        depth = 1
        while depth < ai.tree_depth and not rules.is_over(state):
            player = rules.to_move(state)[0]
            legal = rules.legal_actions(state, player)
            if not legal:
                break
            children = node.children
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            if len(children) < math.ceil(ai.widen_k * (node.visits + 1) ** ai.widen_alpha) and len(children) < len(
                legal
            ):
                untried = [a for a in legal if a not in children]
                k = ai.widen_sample
                sample = untried if len(untried) <= k else rnd.sample(untried, k)
                values = ai.margins(rules, state, player, sample) if len(sample) > 1 else [0.0]
                top = max(values)
                pick = rnd.choice([a for a, v in zip(sample, values, strict=True) if v == top])
                node = children[pick] = _Node()
                state = rules.step(state, player, pick, quiet=True)
                path.append((node, player))
                depth += 1
                break  # expanded: a playout follows
            best_a, best_u = None, -math.inf
            for a in legal:
                child = children.get(a)
                if child is None or child.visits <= 0:
                    continue
                u = child.total / child.visits + c * math.sqrt(math.log(child.avail + 1) / child.visits)
                if u > best_u:
                    best_a, best_u = a, u
            if best_a is None:
                break
            node = children[best_a]
            state = rules.step(state, player, best_a, quiet=True)
            path.append((node, player))
            depth += 1
        rewards = _rollout_rewards(rules, ai, state, max(0, ai.playout_depth - depth), rnd, {p for _, p in path})
        for nd, p in path:
            nd.visits += 1
            nd.total += rewards[p]
        done += 1
    if report is not None:
        report["searched"] = [(a, r.visits, r.total / r.visits) for (_, a), r in zip(cands, roots, strict=True)]
    best = max(range(len(cands)), key=lambda i: (roots[i].visits, roots[i].total / roots[i].visits))
    return cands[best][1]


def _rollout_rewards(
    rules: AnyRules, ai: GameAI, state: Any, steps: int, rnd: random.Random, players: set[str]
) -> dict[str, float]:
    """Play on `steps` actions by the playout policy; each of `players`' reward in [0, 1] (see `reward`)."""
    for _ in range(steps):
        if rules.is_over(state):
            break
        player, action = ai.playout_step(rules, state, rules.to_move(state), rnd)
        state = rules.step(state, player, action, quiet=True)
    if rules.is_over(state):
        return {p: reward(rules, ai, state, p) for p in players}
    values = ai.evaluate(rules, state)
    return {p: squash(margin(values, p), ai.margin_scale) for p in players}


def playout(rules: AnyRules, ai: GameAI, state: Any, seat: str, rnd: random.Random) -> float:
    """Play on with the playout policy for `playout_depth` actions; the reward for `seat` in [0, 1]."""
    for _ in range(ai.playout_depth):
        if rules.is_over(state):
            break
        # several movers (out-of-turn windows): the game's playout_step decides who acts (by default the first)
        player, action = ai.playout_step(rules, state, rules.to_move(state), rnd)
        state = rules.step(state, player, action, quiet=True)
    return reward(rules, ai, state, seat)


def reward(rules: AnyRules, ai: GameAI, state: Any, seat: str) -> float:
    """A finished game: mostly the result (shared wins split); otherwise the squashed evaluation margin."""
    if rules.is_over(state):
        winners = rules.winners(state)
        won = 1.0 / len(winners) if seat in winners else 0.0
        scores = {p: float(v) for p, v in rules.scores(state).items()}
        return ai.win_weight * won + (1 - ai.win_weight) * squash(margin(scores, seat), ai.margin_scale)
    return squash(margin(ai.evaluate(rules, state), seat), ai.margin_scale)
