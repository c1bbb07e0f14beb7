"""``tabuleiro play`` through a pseudo-terminal, whole games (issue 28's
acceptance): every new round has its banner, ``help`` lists only the
notation of the game being played and reaches the how-to-play pages, and
Capulana's table never puts more known cards in a hand than it holds.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("rich")

from test_play import PROMPT, check_known, known_in_hands, plain, spawn  # noqa: E402

#: Wide enough that every row of the players' table is one line.
WIDE = 240


def whole_game(*args: str) -> list[str]:
    """Play a game answering 1 at every prompt (after ``help`` and ``help
    rules`` at the first); what was printed before each prompt, and the end."""
    child = spawn(*args)
    child.setwinsize(60, WIDE)
    screens: list[str] = []
    child.expect_exact(PROMPT)
    screens.append(plain(child.before))
    for line in ("help", "help rules"):
        child.sendline(line)
        child.expect_exact(PROMPT)
        screens.append(plain(child.before))
    child.sendline("1")
    while child.expect_exact([PROMPT, "Game over"], timeout=120) == 0:
        screens.append(plain(child.before))
        child.sendline("1")
    screens.append(plain(child.before))
    child.expect(pexpect.EOF, timeout=60)
    screens.append(plain(child.before))
    child.close()
    assert child.exitstatus == 0, child.exitstatus
    assert not any("Traceback" in s for s in screens)
    return screens


def banners(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"━━ Round (\d+) begins", text)]


@pytest.mark.parametrize("players,seed", [(3, 4), (2, 7)])
def test_capulana_rounds_help_and_known_cards(players: int, seed: int, monkeypatch: Any) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDE))
    screens = whole_game("capulana", "--players", str(players), "--seed", str(seed),
                         "--seats", ",".join(["human"] + ["greedy"] * (players - 1)))
    text = "\n".join(screens)
    assert banners(text) == [2, 3, 4]                 # one banner a new round, in order
    helped, rules = screens[1], screens[2]
    assert "Capulana notation:" in helped and "offer F13" in helped and "rules" in helped
    assert "OP1@2" not in helped and "KC/C4" not in helped          # not the other game's notation
    assert "How to play Capulana (1 of 2" in rules and "Scoring:" in rules
    hands = [h for s in screens for h in known_in_hands(s)]
    over = sum(check_known(s) for s in screens)
    assert len(hands) >= 8, len(hands)
    assert over >= 1                                 # more known cards than a hand holds did arise
    assert any("in hand or offer" in s for s in screens)


@pytest.mark.parametrize("expansion", [False, True])
def test_capivarias_rounds_and_help(expansion: bool, monkeypatch: Any) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDE))
    screens = whole_game("capivarias", "--seed", "4", "--seats", "human,greedy",
                         *(["--expansion"] if expansion else []))
    text = "\n".join(screens)
    rounds = re.findall(r"End of round (\d+)", text)
    assert len(rounds) >= 2
    assert banners(text) == list(range(2, len(rounds) + 1))        # every round after the first, not after the last
    helped, rules = screens[1], screens[2]
    assert "Capivárias" in helped and "OP1@2/C3" in helped and "offer F13" not in helped
    for word in ("KC/C4", "S1/KC", "capiolin"):
        assert (word in helped) == expansion, word
    assert "How to play Capivárias" in rules and ("capitico" in rules) == expansion
