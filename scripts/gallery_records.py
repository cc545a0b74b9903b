"""The records gallery: a /stats card and the score progression charts of finished games, drawn from games the AI
plays (normal level) and stored through the real storage path (results and ratings in the final move's
transaction), written to docs/gallery/ for review.

    python -m scripts.gallery_records            # from the repository root
    python -m scripts.gallery_records --lang de  # the same in another language

Writes records_stats.png (a player's statistics in three games with their rating history),
records_scores_<game>_<n>p.png (one finished game's scores over the game, for each game) and
review_alhambra_4p.png (the coach's win-chance chart of a reviewed game, ai/coach.py, at REVIEW_ITERATIONS).

    python -m scripts.gallery_records --review-only   # just the review's chart
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from pathlib import Path
from typing import Any

import ai
import engine
import present
from ai import coach
from cogs.records import player_stats, stats_card_of
from i18n import words
from records.figures import RATER, finish_of, score_progression
from render.charts import chance_chart, progression_chart, stats_card
from storage import Seat
from storage.sqlite import SQLiteStorage

OUT = Path(__file__).resolve().parent.parent / "docs" / "gallery"
GUILD = 1
NAMES = {"1": "Ana", "2": "Bo", "3": "Cyd", "4": "Dee", "5": "Eve"}
SERIES = [("gardens", 12), ("alhambra", 3), ("queens_garden", 3)]  # games of each kind for the stats card
CHARTS = [("alhambra", 6), ("gardens", 4), ("queens_garden", 4)]


def playthrough(game: str, players: list[str], seed: int) -> tuple[list[tuple[str, dict[str, Any]]], object]:
    """A whole game played by the normal AI for every seat: the move log (player, action JSON) and the end."""
    rules = engine.get_rules(game)
    state = rules.new_game(players, {}, seed)
    log = []
    n = 0
    while not rules.is_over(state):
        player = rules.to_move(state)[0]
        action = ai.choose(game, state, player, "normal", seed * 1000 + n)
        log.append((player, rules.action_to_json(action)))
        state = rules.apply(state, player, action)
        n += 1
    return log, state


async def store(db: SQLiteStorage, game: str, players: list[str], seed: int, channel: int, t: float) -> float:
    """Play a game and store it move by move (a minute or more per turn), the last with its finish."""
    rules = engine.get_rules(game)
    log, final = playthrough(game, players, seed)
    seats = [Seat(p, NAMES.get(p) or ai.display_name(p)) for p in players]
    row = await db.create_game(guild_id=GUILD, channel_id=channel, game=game, options={}, seed=seed, creator=seats[0])
    row = await db.start_game(row.id, seats=seats, state_json="{}", now=t)
    rnd = random.Random(seed)
    for n, (player, action) in enumerate(log):
        last = n == len(log) - 1
        t += rnd.uniform(60, 4 * 3600) if n == 0 or log[n - 1][0] != player else rnd.uniform(2, 20)
        finish = finish_of(game, rules, final, [(s.id, s.name) for s in seats], {}) if last else None
        row = await db.commit_move(
            row, player=player, action=action, state_json="{}", finished=last, finish=finish, now=t
        )
    return t


REVIEW_ITERATIONS = 20  # a smaller budget than the bot's 60: the picture shows the chart, not the AI's best


def review_chart(lang: str) -> None:
    """The review of a 4-player Alhambra (three people and a normal AI, played by the normal AI) as the bot
    draws its chart: every move judged from its mover's view, each player's chance at their own moves."""
    _ = words(lang)
    game, players = "alhambra", ["1", "2", "3", ai.ai_player_id("normal", 4)]
    log, _final = playthrough(game, players, 5)
    entries: list[dict[str, Any]] = []
    state = None
    while len(entries) < len(log):
        chunk, state = coach.review_chunk(game, {}, 5, players, log, len(entries), REVIEW_ITERATIONS, state)
        entries += chunk
    summary = coach.summary(entries, players)
    names = {p: NAMES.get(p) or ai.display_name(p) for p in players}
    title = _("{title} (game #{id}): chance to win over the game", title=_.text(present.title(game)), id=12)
    png = chance_chart(title, {p: s["chances"] for p, s in summary.items()}, names, lang)
    suffix = "" if lang == "en" else f"_{lang}"
    (OUT / f"review_{game}_4p{suffix}.png").write_bytes(png)


async def main(lang: str) -> None:
    _ = words(lang)
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = await SQLiteStorage.open(str(Path(tmp) / "gallery.sqlite3"), synchronous="NORMAL", rater=RATER)
        try:
            t, channel, rnd = 1.79e9, 1, random.Random(7)
            for game, count in SERIES:
                for k in range(count):
                    others = rnd.sample(["2", "3", "4", "5"], rnd.randint(1, 2))
                    players = ["1", *others] + (["ai:normal:9"] if k % 2 else [])
                    t = await store(db, game, players, 100 + channel, channel, t)
                    channel += 1
            found = await player_stats(db, GUILD, "1", None)
            history = await db.rating_history(GUILD, found[0][0].game, "1")
            card = stats_card_of("Ana", "Board Game Club", found, [(r.mu, r.sigma) for _at, r in history], _)
            suffix = "" if lang == "en" else f"_{lang}"
            (OUT / f"records_stats{suffix}.png").write_bytes(stats_card(card, lang))
        finally:
            await db.close()
    for game, n in CHARTS:
        players = [str(i) for i in range(1, n)] + [ai.ai_player_id("normal", n)]
        log, _final = playthrough(game, players, 5)
        names = {p: NAMES.get(p) or ai.display_name(p) for p in players}
        title = _("{title}: scores over the game", title=_.text(present.title(game)))
        png = progression_chart(title, score_progression(game, {}, 5, players, log), names, lang)
        suffix = "" if lang == "en" else f"_{lang}"
        (OUT / f"records_scores_{game}_{n}p{suffix}.png").write_bytes(png)
    review_chart(lang)
    print(f"written to {OUT}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="en")
    parser.add_argument("--review-only", action="store_true", help="only the review's chart")
    args = parser.parse_args()
    if args.review_only:
        OUT.mkdir(parents=True, exist_ok=True)
        review_chart(args.lang)
    else:
        asyncio.run(main(args.lang))
