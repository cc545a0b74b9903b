"""Tests of the Discord layer, driven through a fake Discord at the network boundary (harness.py)."""
