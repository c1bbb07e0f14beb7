"""The summary of an arena's game records (:func:`summarize`,
:func:`summarize_file`): win shares with their intervals, scores and
margins, ratings, W/D/L and Elo of two-player pairs, the SPRT, and timing.
"""

from __future__ import annotations

import itertools
import math
import os
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from .engines import TERMINATIONS
from .records import _key, check_record, read_scan
from .report import Summary
from .stats import SPRT, _openskill, _pair_points, _pentanomial_stats, _t95

__all__ = ["summarize", "summarize_file", "format_terminations"]


def _agent_order(records: Sequence[Mapping[str, Any]]) -> list[str]:
    order: list[str] = []
    for r in records:
        for a in list(r.get("agents") or []) + list(r["seats"]):
            if a not in order:
                order.append(a)
    return order


def _deal_key(r: Mapping[str, Any]) -> tuple[int, int]:
    return (int(r.get("seed", 0)), int(r.get("deal", 0)))


def _check_pairs(recs: Sequence[Mapping[str, Any]], labels: Sequence[str]) -> None:
    """Two agents in a two-player game: each record seats both, and a deal
    holds at most one game of each seating (else the pair points of a deal,
    which the pentanomial counts, mean nothing).

    :raises ValueError: naming the first record or deal that breaks it.
    """
    seatings: dict[tuple[int, int], set[tuple[str, ...]]] = {}
    for r in recs:
        seating = tuple(r["seats"])
        if sorted(seating) != sorted(labels):
            raise ValueError(f"a record seats {list(seating)}, not the two agents {list(labels)} once each")
        seen = seatings.setdefault(_deal_key(r), set())
        if seating in seen:
            raise ValueError(f"deal {_deal_key(r)[1]} holds two games seated {list(seating)}: records "
                             "of one deal disagree (a deal field edited?)")
        seen.add(seating)


def _sprt_prefix(records: Sequence[Mapping[str, Any]], labels: Sequence[str],
                 sprt: SPRT) -> dict[str, Any]:
    """Walk the deals in order while each is complete (both seatings of the
    pair), up to the first crossing of a bound (or, with ``sprt.stop``
    False, on to the last complete pair). Returns the decision and, at the
    decision (at the end when undecided): the deals counted, the games, the
    LLR and the pentanomial counts; and the trajectory [[games, llr], ...]
    and the last LLR and pair count of the whole walk."""
    by_deal: dict[tuple[int, int], list[Mapping[str, Any]]] = {}
    for r in records:
        by_deal.setdefault(_deal_key(r), []).append(r)
    penta = [0] * 5
    traj: list[list[float]] = [[0, 0.0]]
    llr = 0.0
    games = 0
    counted = 0
    at: Optional[dict[str, Any]] = None
    for dk in sorted(by_deal):
        rs = by_deal[dk]
        pts = 0.0
        seen = set()
        for r in rs:
            seats = r["seats"]
            i = seats.index(labels[0])
            seen.add(i)
            pts += _pair_points(r["returns"][i], r["returns"][1 - i])
        if seen != {0, 1}:
            break
        penta[int(round(pts * 2))] += 1
        games += len(rs)
        counted += 1
        llr = sprt.llr(penta)
        traj.append([games, llr])
        if at is None and sprt.status(llr):
            at = {"result": sprt.status(llr), "deals": counted, "games": games, "llr": llr, "penta": list(penta)}
            if sprt.stop:
                break
    if at is None:
        at = {"result": None, "deals": counted, "games": games, "llr": llr, "penta": list(penta)}
    return dict(at, trajectory=traj, final_llr=llr, final_pairs=counted)


def summarize(records: Iterable[Mapping[str, Any]], *, agents: Optional[Sequence[str]] = None,
              sprt: Optional[SPRT] = None) -> Summary:
    """The statistics of game records (from :func:`run` or :func:`read_results`).

    ``agents``: the labels in table order (default: as the records list them).
    With ``sprt`` (two agents, two players) only the deals up to the SPRT's
    decision count, in deal order, so the summary is the same however many
    games were in flight when it decided; with ``sprt.stop`` False every
    game counts, and the SPRT entry also holds the LLR over every complete
    pair (``final_llr``, ``final_pairs``).

    Win share: each game's win (the top return; a tie at the top is split,
    an all-round tie gives everyone 1/n) credited to the seats, averaged over
    an agent's seats; its 95% interval treats each deal as one sample (games
    of one deal are not independent) with Student's t; the fair share is 1/n.
    Margin: an agent's score minus the best other score at its table.
    """
    recs = []
    keys = set()
    for i, r in enumerate(records):        # a game listed twice counts once
        problem = check_record(r)
        if problem is not None:
            raise ValueError(f"record {i} is not a valid game record: {problem}")
        gk = _key(r)
        if gk not in keys:
            keys.add(gk)
            recs.append(r)
    if not recs:
        raise ValueError("no game records to summarize")
    g0 = recs[0]
    for r in recs:
        if r["game"] != g0["game"] or r["params"] != g0["params"]:
            raise ValueError(f"records of different games: {g0['game']} {g0['params']} and {r['game']} {r['params']}")
        if len(r["seats"]) != len(g0["seats"]):
            raise ValueError(f"records of {len(g0['seats'])} and of {len(r['seats'])} players")
    labels = list(agents) if agents is not None else _agent_order(recs)
    index = {a: i for i, a in enumerate(labels)}
    for r in recs:
        for s in r["seats"]:
            if s not in index:
                raise ValueError(f"a record seats agent {s!r}, not one of {labels}")
    # one canonical order: by deal, then by seating (completion order never matters)
    recs.sort(key=lambda r: (_deal_key(r), [index[s] for s in r["seats"]]))
    n_players = len(recs[0]["returns"])
    k = len(labels)
    summary = Summary(game=g0["game"], params=dict(g0["params"]), players=n_players, agents=labels)
    two = k == 2 and n_players == 2
    if sprt is not None:
        if not isinstance(sprt, SPRT):
            raise TypeError(f"sprt must be an SPRT (SPRT.parse reads its text), not {type(sprt).__name__}")
        if not two:
            raise ValueError("an SPRT compares two agents in a two-player game")
        _check_pairs(recs, labels)
        walk = _sprt_prefix(recs, labels, sprt)
        extra = 0
        if sprt.stop:           # the statistics are those of the games up to the decision
            keep = set(sorted({_deal_key(r) for r in recs})[:walk["deals"]])
            extra = sum(1 for r in recs if _deal_key(r) not in keep)
            recs = [r for r in recs if _deal_key(r) in keep]
        summary["sprt"] = dict(sprt.to_dict(), llr=walk["llr"], lower=sprt.lower, upper=sprt.upper,
                               result=walk["result"], pairs=sum(walk["penta"]), games=walk["games"],
                               trajectory=walk["trajectory"])
        if not sprt.stop:       # play went on past the decision: the LLR over every complete pair too
            summary["sprt"].update(final_llr=walk["final_llr"], final_pairs=walk["final_pairs"])
    deals = sorted({_deal_key(r) for r in recs})
    summary["deals"] = len(deals)
    summary["games"] = len(recs)
    # --- per agent: win share, score, margin, returns -------------------------------
    share_deal = [[0.0] * len(deals) for _ in range(k)]
    seats_deal = [[0] * len(deals) for _ in range(k)]
    dpos = {d: i for i, d in enumerate(deals)}
    score_sum = [0.0] * k
    margin_sum = [0.0] * k
    ret_sum = [0.0] * k
    seat_games = [0] * k
    first_sum = [0.0] * k
    for r in recs:
        ret, sc = r["returns"], r["scores"]
        top = max(ret)
        winners = [p for p, x in enumerate(ret) if x == top]
        d = dpos[_deal_key(r)]
        for p, lab in enumerate(r["seats"]):
            a = index[lab]
            w = 1.0 / len(winners) if p in winners else 0.0
            share_deal[a][d] += w
            seats_deal[a][d] += 1
            seat_games[a] += 1
            score_sum[a] += sc[p]
            margin_sum[a] += sc[p] - max(x for q, x in enumerate(sc) if q != p)
            ret_sum[a] += ret[p]
            first_sum[a] += 1.0 if winners == [p] else 0.0
    standings = []
    fair = 1.0 / n_players
    for a, lab in enumerate(labels):
        n = seat_games[a]
        row: dict[str, Any] = {"agent": lab, "games": n}
        if n == 0:
            standings.append(row)
            continue
        share = sum(share_deal[a]) / n
        used = [(s, c) for s, c in zip(share_deal[a], seats_deal[a]) if c]
        lo = hi = None
        if len(used) >= 2:
            cbar = n / len(used)
            dev = [((s - share * c) / cbar) ** 2 for s, c in used]
            se = math.sqrt(sum(dev) / (len(used) * (len(used) - 1)))
            half = _t95(len(used) - 1) * se
            lo, hi = max(0.0, share - half), min(1.0, share + half)
        verdict = None
        if lo is not None and hi is not None:
            verdict = "above" if lo > fair else "below" if hi < fair else "fair"
        row.update(win_share=share, win_share_lo=lo, win_share_hi=hi, fair_share=fair, vs_fair=verdict,
                   sole_wins=first_sum[a] / n, mean_score=score_sum[a] / n, mean_margin=margin_sum[a] / n,
                   mean_return=ret_sum[a] / n)
        standings.append(row)
    ratings = _openskill(recs, labels, index)
    for row, rt in zip(standings, ratings):
        row.update(rt)
    summary["standings"] = standings
    if ratings and ratings[0].get("rating_mu") is None:
        summary["note"] = "ratings need openskill: pip install 'tabuleiro[arena]'"
    # --- two players: W/D/L, pentanomial, Elo of each pair of agents ---------------
    if two:
        summary["pair"] = _pair_stats(recs, labels[0], labels[1])
    elif n_players == 2:
        summary["head_to_head"] = [_pair_stats(recs, a, b) for a, b in itertools.combinations(labels, 2)]
    summary["timing"] = _timing(recs, labels, index)
    if any("termination" in r for r in recs):
        summary["terminations"] = _terminations(recs, labels)
    if sprt is not None:
        # games that were in flight when the SPRT decided: they depend on the
        # backend and job count, so they live outside the statistics
        summary["extra_games"] = extra
    return summary


def _pair_stats(recs: Sequence[Mapping[str, Any]], a: str, b: str) -> dict[str, Any]:
    """``a`` against ``b`` in two-player games: W/D/L, the pentanomial counts of
    the deals where both seatings were played, the score and Elo with its 95%
    interval from the pair scores."""
    wins = draws = losses = 0
    by_deal: dict[tuple[int, int], list[float]] = {}
    for r in recs:
        seats = r["seats"]
        if a not in seats or b not in seats:
            continue
        i = seats.index(a)
        pts = _pair_points(r["returns"][i], r["returns"][1 - i])
        wins += pts == 1.0
        draws += pts == 0.5
        losses += pts == 0.0
        by_deal.setdefault(_deal_key(r), []).append(pts)
    penta = [0] * 5
    for pts_list in by_deal.values():
        if len(pts_list) == 2:
            penta[int(round(sum(pts_list) * 2))] += 1
    return dict(agent=a, opponent=b, wins=wins, draws=draws, losses=losses, penta=penta, pairs=sum(penta),
                **_pentanomial_stats(penta))


def _terminations(recs: Sequence[Mapping[str, Any]], labels: Sequence[str]) -> dict[str, dict[str, int]]:
    """How each agent's games ended: ``normal`` (it did not forfeit), or lost
    by its ``timeout``, ``illegal`` move or ``crash``; a count per seat it held."""
    out = {lab: {t: 0 for t in TERMINATIONS} for lab in labels}
    for r in recs:
        term = r.get("termination", "normal")
        lost = r.get("forfeit") if term != "normal" else None
        for p, lab in enumerate(r["seats"]):
            out[lab][term if p == lost else "normal"] += 1
    return out


def format_terminations(summary: Mapping[str, Any]) -> str:
    """The per-agent termination counts of a summary as text lines ('' when
    the run had no external engines).

    >>> print(format_terminations({"terminations": {"engine:a": {"normal": 9, "timeout": 1, "illegal": 0,
    ...                                                           "crash": 0}}}))
    terminations (games lost by timeout, illegal move, crash):
      engine:a: normal 9, timeout 1, illegal 0, crash 0
    """
    t = summary.get("terminations")
    if not t:
        return ""
    lines = ["terminations (games lost by timeout, illegal move, crash):"]
    for lab, counts in t.items():
        lines.append(f"  {lab}: " + ", ".join(f"{k} {counts.get(k, 0)}" for k in TERMINATIONS))
    return "\n".join(lines)


def _timing(recs: Sequence[Mapping[str, Any]], labels: Sequence[str], index: Mapping[str, int]) -> dict[str, Any]:
    """Thinking time and search iterations per move of each agent (these vary
    from machine to machine; every other part of a summary is deterministic)."""
    moves = [0] * len(labels)
    us = [0] * len(labels)
    it_moves = [0] * len(labels)
    it_sum = [0] * len(labels)
    for r in recs:
        seats = [index[s] for s in r["seats"]]
        n = len(seats)
        tot, cnt, itt, itc = [0] * n, [0] * n, [0] * n, [0] * n
        movers = r.get("movers") or ()
        for m, t in zip(movers, r.get("us") or ()):
            tot[m] += t
            cnt[m] += 1
        its = r.get("iters")
        if its is not None:
            for m, it in zip(movers, its):
                if it is not None:
                    itt[m] += it
                    itc[m] += 1
        for p, a in enumerate(seats):
            moves[a] += cnt[p]
            us[a] += tot[p]
            it_moves[a] += itc[p]
            it_sum[a] += itt[p]
    out = {}
    for a, lab in enumerate(labels):
        out[lab] = {"moves": moves[a], "ms_per_move": us[a] / moves[a] / 1000 if moves[a] else None,
                    "iterations_per_move": it_sum[a] / it_moves[a] if it_moves[a] else None}
    return out


def summarize_file(path: Union[str, os.PathLike[str]], *, agents: Optional[Sequence[str]] = None,
                   sprt: Optional[SPRT] = None) -> Summary:
    """:func:`summarize` of a results file, from its lines alone: its run
    header's agents (when ``agents`` is not given) and its valid records.
    Skipped lines (:func:`read_scan`) are listed in ``skipped_lines``.

    :raises ResultsFileError: for a path that is not a regular file or not a
        results file.
    """
    scan = read_scan(path)
    if agents is None and scan.header is not None:
        agents = scan.header["agents"]
    return _note_skipped(summarize(scan.records, agents=agents, sprt=sprt), scan.bad_lines)


def _note_skipped(summary: Summary, bad_lines: Sequence[int]) -> Summary:
    """Record in a summary the lines of its file that were skipped."""
    if bad_lines:
        summary["skipped_lines"] = list(bad_lines)
    return summary
