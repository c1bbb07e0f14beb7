"""Read the kept results: the games behind the published tables, under
``results/`` as gzip-compressed JSON lines (``*.jsonl.gz``; results/README.md
is their index), and plain ``*.jsonl`` files of new runs alike.

    python bench/result_files.py results/strength-capivarias.jsonl.gz   # the arena's report of a file

``tabuleiro arena`` and ``arena.summarize_file`` read plain JSONL only; this
module gives the bench scripts the same scan and summary of a compressed
file (``arena.scan_results`` of the decompressed lines, so a record is read
and checked exactly as the arena reads it). New runs are written as plain
``.jsonl`` (the arena appends and resumes); a run kept for a doc is
compressed with ``gzip -9n`` (deterministic: no name, no time stamp) and
moved under ``results/``.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import sys
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from tabuleiro import arena

#: The project root (this file is bench/result_files.py).
ROOT = Path(__file__).resolve().parents[1]
#: Where the kept results live.
RESULTS = ROOT / "results"

PathLike = Union[str, "os.PathLike[str]"]


def is_compressed(path: PathLike) -> bool:
    """Whether ``path`` names a gzip file (by its ``.gz`` suffix)."""
    return os.fspath(path).endswith(".gz")


def open_lines(path: PathLike) -> Union[gzip.GzipFile, io.BufferedReader]:
    """The file at ``path`` open for reading bytes, decompressed if its name
    ends in ``.gz``.

    :raises FileNotFoundError: if there is no such file.
    """
    if is_compressed(path):
        return gzip.open(path, "rb")
    return open(path, "rb")


def existing(path: PathLike) -> Optional[Path]:
    """``path`` if it exists, else the same path with ``.gz`` appended if
    that exists (a kept, compressed result), else None."""
    p = Path(path)
    if p.exists():
        return p
    gz = p.with_name(p.name + ".gz")
    return gz if gz.exists() else None


def refuse_compressed_out(path: PathLike) -> None:
    """Refuse to append new games to a compressed file: runs write plain
    JSONL; compressing is the last step of keeping one.

    :raises ValueError: naming the path, if it ends in ``.gz``.
    """
    if is_compressed(path):
        raise ValueError(f"{os.fspath(path)!r} is compressed: write new games to a plain .jsonl file, "
                         f"then gzip -9n it to keep it under results/ (results/README.md)")


def read_scan(path: PathLike) -> arena.ResultsScan:
    """``arena.scan_results`` of the (possibly compressed) arena results file
    at ``path``: its header, valid records and skipped lines.

    :raises FileNotFoundError: if there is no such file.
    :raises tabuleiro.arena.ResultsFileError: if it is not an arena results file.
    """
    with open_lines(path) as f:
        return arena.scan_results(f, name=f"results file {os.fspath(path)!r}")


def read_results(path: PathLike) -> list[dict[str, Any]]:
    """The valid game records of the (possibly compressed) arena results file
    at ``path``, in file order (``arena.read_results`` of a plain file)."""
    return read_scan(path).records


def summarize_file(path: PathLike, *, agents: Optional[Sequence[str]] = None) -> arena.Summary:
    """``arena.summarize_file`` of a (possibly compressed) arena results file:
    its header's agents (unless ``agents`` is given) and its valid records;
    skipped lines are listed in ``skipped_lines`` as the arena lists them."""
    scan = read_scan(path)
    if agents is None and scan.header is not None:
        agents = scan.header["agents"]
    s = arena.summarize(scan.records, agents=agents)
    if scan.bad_lines:
        s["skipped_lines"] = list(scan.bad_lines)
    return s


def read_json_lines(path: PathLike) -> list[dict[str, Any]]:
    """Every non-blank line of a (possibly compressed) JSON-lines file that is
    not an arena results file (bench scripts' own records), parsed.

    :raises ValueError: naming the file and line of a line that is not JSON.
    """
    out: list[dict[str, Any]] = []
    with open_lines(path) as f:
        for n, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except ValueError:
                raise ValueError(f"{os.fspath(path)!r} line {n} is not JSON") from None
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print the arena's report of each results file named (``.jsonl`` or ``.jsonl.gz``)."""
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path, metavar="FILE")
    ap.add_argument("--json", action="store_true", help="print each summary as JSON")
    a = ap.parse_args(argv)
    for p in a.files:
        s = summarize_file(p)
        print(json.dumps(s, indent=1) if a.json else f"{p}\n{s}\n")
        warning = arena.skipped_warning(s)
        if warning:
            print(warning, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
