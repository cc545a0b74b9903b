"""Nim: a tiny game that exists only in the tests, to prove that a game is a plugin (ARCHITECTURE.md, "Adding a
game"). Its rules (rules.py), its own tests (test_nim.py) and what the shared tests need of it (profile.py, with
its registry entry) are all it has: no renderer (the placeholder image), no AI, no presenter (generic words).
The shared tests run it like the real games without a shared file naming it (tests/games.py finds it)."""
