"""What is kept after a game: ratings per server and game (`records.ratings`, openskill's Plackett–Luce) and the
per-player figures of a finished game (`records.figures`). Pure: no discord, no I/O. Storage stores a game's
result and updates the ratings in the transaction of its final move, running the arithmetic it is handed
(`records.figures.RATER`: storage never imports records/); cogs/records.py shows them
(/leaderboard, /stats, /ratings rebuild); render/charts.py draws them."""
