"""Calibrate the strength levels (``agents.make("level", level=n)``).

Plays, for one game, every adjacent pair (level n against level n-1) and
every pair three apart (n against n-3) on the same paired deals: each deal
once per seat rotation, so both seats of a deal are played by both levels.
Every match is one ``tabuleiro arena`` run whose games are appended to the
plain JSONL file ``<runs>/<game>/L<n>-L<m>.jsonl`` (``--runs``, default
``runs/levels``); re-running resumes them. The tables (``--table``,
``--write-doc``) are recomputed from the match files alone, so they can be
regenerated without replaying a game: by default from the kept games,
``results/levels/<game>/L<n>-L<m>.jsonl.gz`` (``--results``; a plain
``.jsonl`` there is read before its ``.gz``).

    python bench/calibrate_levels.py capivarias --deals 100 --jobs 2
    python bench/calibrate_levels.py capulana --players 2 --deals 100 --jobs 2
    python bench/calibrate_levels.py --write-doc docs/levels.md
    python bench/calibrate_levels.py --table --results runs/levels   # the tables of a new run

Each match is the same as, for instance,
``tabuleiro arena capivarias --agents level:5 level:4 --deals 100 --seed 9
--out runs/levels/capivarias/L5-L4.jsonl``. To keep a new run, compress each
file into results/ (results/README.md): ``gzip -9n -c runs/levels/capivarias/L5-L4.jsonl >
results/levels/capivarias/L5-L4.jsonl.gz``.

A level n "passes" against n-1 when it scores more than half (draws count
half) and against n-3 when it scores at least 0.65.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Optional

from result_files import RESULTS, existing, read_results
from tabuleiro import agents, arena

#: The kept games, read for the tables by default.
KEPT = RESULTS / "levels"
#: Where new matches are played (plain JSONL, resumable), relative to the working directory.
RUNS = Path("runs") / "levels"
SEED = 9
#: The tables: name -> (game, its parameters, the deals a match of that table plays).
TABLES: dict[str, tuple[str, dict[str, Any], int]] = {
    "capivarias": ("capivarias", {}, 100),
    "capulana": ("capulana", {"players": 2}, 50),
    "capulana-3p": ("capulana", {"players": 3}, 50),
    "capulana-4p": ("capulana", {"players": 4}, 50),
    "capulana-5p": ("capulana", {"players": 5}, 50),
}
#: The ladders' own tables (a game at the player count its ladder was calibrated with): the CLI's games.
GAMES = {name: params for name, (game, params, _) in TABLES.items() if name == game}


def table_name(game: str, players: Optional[int] = None) -> str:
    """The :data:`TABLES` key of a game at a player count (Capulana's default: 2)."""
    return game if players in (None, 2) else f"{game}-{players}p"


def pairs() -> list[tuple[int, int]]:
    """The matches, cheapest first: (n, n-1) and (n, n-3) for n = 2..10."""
    out: list[tuple[int, int]] = []
    for n in range(2, 11):
        out.append((n, n - 1))
        if n >= 4:
            out.append((n, n - 3))
    return out


def path_of(root: Path, game: str, hi: int, lo: int, players: Optional[int] = None) -> Path:
    """The plain JSONL file of a match under ``root``. Two-player Capulana
    (the calibration's) lives under capulana/; another player count under
    capulana-<n>p/."""
    return root / table_name(game, players) / f"L{hi}-L{lo}.jsonl"


def play(runs: Path, game: str, params: dict[str, Any], hi: int, lo: int, deals: int, jobs: int) -> arena.Summary:
    out = path_of(runs, game, hi, lo, params.get("players"))
    out.parent.mkdir(parents=True, exist_ok=True)
    return arena.run(game, [f"level:{hi}", f"level:{lo}"], deals=deals, seed=SEED, params=params, out=out,
                     jobs=jobs, progress=sys.stderr.isatty())


def _describe(game: str, level: int) -> str:
    name, params = agents.LEVELS.get(game, agents.LEVELS["default"])[level]
    if "iterations" in params:
        return f"{name} {params['iterations']:,}"
    return name


def row(root: Path, game: str, hi: int, lo: int, players: Optional[int] = None) -> Optional[dict[str, Any]]:
    """The table row of a match from its file under ``root`` (``.jsonl``, else
    ``.jsonl.gz``), or None if it has not been played.

    ``score`` is level ``hi``'s share of the two levels' wins per seat,
    ``hi / (hi + lo)`` of their win shares (draws and ties split): with two
    players that is the usual score (a draw counts half); with more, where a
    table seats both levels in every rotation, 0.5 means the two win as
    often per seat as each other."""
    p = existing(path_of(root, game, hi, lo, players))
    if p is None:
        return None
    recs = read_results(p)
    if not recs:
        return None
    s = arena.summarize(recs, agents=[f"level:{hi}", f"level:{lo}"])
    need = 0.5 if hi - lo == 1 else 0.65
    seatings = max(Counter(r["deal"] for r in recs if "deal" in r).values())
    out = {"hi": hi, "lo": lo, "games": s["games"], "deals": s["deals"], "seatings": seatings, "need": need}
    if "pair" in s:
        pair = s["pair"]
        out.update(score=pair["score"], wins=pair["wins"], draws=pair["draws"], losses=pair["losses"],
                   elo=pair["elo"], elo_lo=pair["elo_lo"], elo_hi=pair["elo_hi"])
    else:
        st = {row["agent"]: row for row in s["standings"]}
        h, l = st[f"level:{hi}"], st[f"level:{lo}"]
        tot = h["win_share"] + l["win_share"]
        out.update(score=h["win_share"] / tot if tot else 0.5, share_hi=h["win_share"], share_lo=l["win_share"],
                   share_hi_lo=h["win_share_lo"], share_hi_hi=h["win_share_hi"])
    out["ok"] = out["score"] > need if hi - lo == 1 else out["score"] >= need
    return out


def _elo(x: Optional[float]) -> str:
    return "inf" if x is None else f"{x:+.0f}"


def table(name: str, root: Path = KEPT) -> str:
    """The markdown table ``name`` (a key of :data:`TABLES`) of the matches under ``root``."""
    game, params, deals = TABLES[name]
    players = params.get("players")
    multi = players is not None and players > 2
    if multi:
        lines = [f"| level | plays as | vs | games | win share per seat, n / n-1 | score | needs | "
                 f"n's win share (95%), fair 1/{players} |", "|---|---|---|---|---|---|---|---|"]
    else:
        lines = ["| level | plays as | vs | games | W-D-L | score | needs | Elo (95%) |",
                 "|---|---|---|---|---|---|---|---|"]
    for hi, lo in pairs():
        r = row(root, game, hi, lo, players)
        desc = _describe(game, hi)
        if r is None:
            lines.append(f"| {hi} | {desc} | {lo} ({_describe(game, lo)}) | not measured | | | | |")
            continue
        # a match may be played on past the table's deals (--deals): then its own deals count
        expected = max(deals, r["deals"]) * r["seatings"]
        full = r["games"] >= expected
        mark = ("yes" if r["ok"] else "**no**") if full else f"so far ({r['games']} of {expected} games)"
        need = f"{'>' if r['need'] == 0.5 else '>='} {r['need']:.2f}: {mark}"
        if multi:
            lines.append(f"| {hi} | {desc} | {lo} ({_describe(game, lo)}) | {r['games']} | "
                         f"{r['share_hi']:.3f} / {r['share_lo']:.3f} | {r['score']:.3f} | {need} | "
                         f"{r['share_hi']:.3f} ({r['share_hi_lo']:.3f} to {r['share_hi_hi']:.3f}) |")
        else:
            lines.append(f"| {hi} | {desc} | {lo} ({_describe(game, lo)}) | {r['games']} | "
                         f"{r['wins']}-{r['draws']}-{r['losses']} | {r['score']:.3f} | {need} | "
                         f"{_elo(r['elo'])} ({_elo(r['elo_lo'])} to {_elo(r['elo_hi'])}) |")
    return "\n".join(lines)


def timing(game: str, params: dict[str, Any], positions: int = 40) -> str:
    """Mean milliseconds per move of each level on ``positions`` positions
    spread over seeded random games (every position has two or more legal
    moves), on this machine as it is now."""
    import random
    import time

    from tabuleiro import load_game

    g = load_game(game, **params)
    rng = random.Random(SEED)
    states = []
    while len(states) < positions:
        s = g.new_initial_state(seed=rng.randrange(2**63))
        stop = rng.randrange(g.info.max_game_length // 2)
        for _ in range(stop):
            if s.is_terminal:
                break
            s.push(rng.choice(s.legal_actions()))
        if not s.is_terminal and len(s.legal_actions()) > 1:
            states.append(s)
    cells = []
    for level in range(1, 11):
        bot = agents.make("level", level=level, seed=1)
        bot.choose(states[0])                   # warm-up: the first search's allocations
        t = time.perf_counter()
        for s in states:
            bot.choose(s)
        cells.append(f"{(time.perf_counter() - t) / len(states) * 1e3:.1f}")
    return "| " + " | ".join(cells) + " |"


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", choices=sorted(GAMES))
    ap.add_argument("--players", type=int, default=None, help="Capulana's player count (default 2)")
    ap.add_argument("--deals", type=int, default=None,
                    help="deals per match, each once per seating (default: the table's, 100 in Capivarias, 50 in Capulana)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", default=None, help="matches to play, e.g. 10-9,10-7 (default: all, cheapest first)")
    ap.add_argument("--runs", type=Path, default=RUNS,
                    help="where matches are played, plain JSONL (default: runs/levels)")
    ap.add_argument("--results", type=Path, default=KEPT,
                    help="where --table and --write-doc read the matches (default: results/levels)")
    ap.add_argument("--table", action="store_true", help="print the measured tables (markdown) and stop")
    ap.add_argument("--write-doc", type=Path, default=None, metavar="MD",
                    help="replace the tables between the markers of MD (docs/levels.md) and stop")
    ap.add_argument("--timing", action="store_true",
                    help="print each level's mean ms per move (Capivarias, Capulana 2-5 players) and stop")
    a = ap.parse_args(argv)
    if a.timing:
        print("| game | " + " | ".join(f"L{n}" for n in range(1, 11)) + " |")
        print("|---" * 11 + "|")
        for g, params in [("capivarias", {})] + [("capulana", {"players": n}) for n in range(2, 6)]:
            label = g if g == "capivarias" else f"capulana {params['players']}p"
            print(f"| {label} {timing(g, params)}", flush=True)
        return 0
    if a.table:
        for name in TABLES:
            print(f"### {name}\n\n{table(name, a.results)}\n")
        return 0
    if a.write_doc is not None:
        text = a.write_doc.read_text("utf-8")
        for name in TABLES:
            start, end = f"<!-- table {name} -->", f"<!-- end table {name} -->"
            if start not in text:
                continue
            i, j = text.index(start) + len(start), text.index(end)
            text = text[:i] + "\n" + table(name, a.results) + "\n" + text[j:]
        a.write_doc.write_text(text, "utf-8")
        return 0
    if a.game is None:
        ap.error("give a game, or --table")
    params = dict(GAMES[a.game])
    if a.players is not None:
        params["players"] = a.players
    name = table_name(a.game, params.get("players"))
    if name not in TABLES:
        ap.error(f"no table for {a.game} with {params.get('players')} players")
    deals = a.deals if a.deals is not None else TABLES[name][2]
    todo = pairs()
    if a.only:
        want = {tuple(int(x) for x in item.split("-")) for item in a.only.split(",")}
        todo = [p for p in todo if p in want]
    for hi, lo in todo:
        s = play(a.runs, a.game, params, hi, lo, deals, a.jobs)
        r = row(a.runs, a.game, hi, lo, params.get("players"))
        assert r is not None
        print(f"{a.game} {params.get('players', 2)}p level {hi} vs {lo}: score {r['score']:.3f} "
              f"(needs {r['need']}) {'ok' if r['ok'] else 'FAILS'}; {s['timing'][f'level:{hi}']['ms_per_move']:.1f} "
              f"ms/move", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
