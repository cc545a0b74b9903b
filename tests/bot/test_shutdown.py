"""Stopping the bot the way hosts do (SIGTERM): the real bot process, against the fake Discord, exits with
status 0 and no leaked resources, in the middle of a move or of an AI decision, and nothing is lost."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BAD = ("leaked semaphore", "Task was destroyed", "Traceback", "Unclosed", "ERROR")


class Bot:
    """The bot as a process (tests/bot/fakeprocess.py): commands in on stdin, its messages out in a file."""

    def __init__(self, tmp: Path, **env: str):
        self.out = tmp / "messages.jsonl"
        self.db = tmp / "games.sqlite3"
        full = {
            **os.environ,
            "DISCORD_TOKEN": "fake",
            "DATABASE_PATH": str(self.db),
            "FAKE_OUT": str(self.out),
            "LOG_LEVEL": "INFO",
            "AI_WAIT": "0",
            **env,
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.bot.fakeprocess"],
            cwd=ROOT,
            env=full,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def send(self, **cmd) -> None:
        self.proc.stdin.write((json.dumps(cmd) + "\n").encode())
        self.proc.stdin.flush()

    def messages(self) -> list[dict]:
        if not self.out.exists():
            return []
        return [json.loads(line) for line in self.out.read_text().splitlines()]

    def wait_for(self, test, timeout: float = 60) -> dict:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = [m for m in self.messages() if not m["ephemeral"] and test(m["content"])]
            if found:
                return found[-1]
            if self.proc.poll() is not None:
                raise AssertionError(f"the bot exited early:\n{self.proc.stderr.read().decode()}")
            time.sleep(0.05)
        raise AssertionError(f"no such post; posts: {[m['content'] for m in self.messages()]}")

    def stop(self, timeout: float = 30) -> tuple[int, str]:
        self.proc.send_signal(signal.SIGTERM)
        _, err = self.proc.communicate(timeout=timeout)
        return self.proc.returncode, err.decode()


def start_gardens(b: Bot, **values) -> None:
    b.send(user=0, command="game create", values={"game": "gardens", **values})
    b.wait_for(lambda c: "a new game" in c)
    if not values.get("ai_players"):
        b.send(user=1, click="Join")
        time.sleep(0.3)
    b.send(user=0, click="Start")
    b.wait_for(lambda c: "begins" in c)


def db_state(path: Path) -> tuple[int, int, int]:
    con = sqlite3.connect(path)
    try:
        version = con.execute("SELECT version FROM games ORDER BY id DESC LIMIT 1").fetchone()[0]
        moves = con.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
        notices = con.execute("SELECT COUNT(*) FROM notices").fetchone()[0]
    finally:
        con.close()
    return version, moves, notices


def move_posts(b: Bot) -> list[dict]:
    return [m for m in b.messages() if not m["ephemeral"] and m["files"] and "begins" not in m["content"]]


def test_sigterm_during_a_move_lets_it_finish_and_exits_cleanly(tmp_path):
    """The move under way when SIGTERM arrives is committed and posted before the process exits with 0."""
    mark = tmp_path / "committing"
    b = Bot(tmp_path, FAKE_COMMIT_DELAY="2", FAKE_MARK=str(mark))
    start_gardens(b)
    b.send(user=0, play=7)
    for _ in range(1500):  # until the move's commit is under way (it takes 2 s; the bot may start slowly)
        if mark.exists():
            break
        time.sleep(0.02)
    assert mark.exists()
    code, err = b.stop()
    assert code == 0, err
    assert not any(bad in err for bad in BAD), err
    version, moves, notices = db_state(b.db)
    assert (version, moves, notices) == (1, 1, 0)
    assert len(move_posts(b)) == 1  # the move was posted before the exit


def test_sigterm_during_an_ai_decision_exits_cleanly_and_the_ai_plays_after_the_restart(tmp_path):
    b = Bot(tmp_path, AI_BUDGET="8s", AI_PROCESSES="1")  # hard thinks 8 seconds
    start_gardens(b, ai_players=1, ai_level="hard")
    b.send(user=0, play=7)
    b.wait_for(lambda c: c.startswith("**Ana**"))
    time.sleep(1.5)  # the hard AI is thinking (8 s) in its worker process
    code, err = b.stop()
    assert code == 0, err
    assert not any(bad in err for bad in BAD), err
    assert db_state(b.db) == (1, 1, 0)  # Ana's move stored and posted; the AI's decision was dropped
    b = Bot(tmp_path, AI_BUDGET="20", AI_PROCESSES="1")  # a restart: the AI plays its move now
    b.wait_for(lambda c: c.startswith("**AI (hard) 1**"))
    code, err = b.stop()
    assert code == 0, err
    assert not any(bad in err for bad in BAD), err
    version, moves, notices = db_state(b.db)
    assert version == moves >= 2 and notices == 0
