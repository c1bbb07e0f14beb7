"""Record docs/protocol.md's ```session blocks again, after a change that
moves the engine's answers (a search default, a new prior): each block's
requests are replayed through a fresh ``python -m tabuleiro engine`` and
every ``< `` answer line that no longer equals (as JSON) what the engine
says is replaced by the engine's own line; the rest of the file is kept
byte for byte. ``tests/test_engine.py::test_the_documented_sessions_replay``
then holds again. Read the prose around the changed lines afterwards: it
may describe a move that changed.

    python scripts/record_protocol_sessions.py            # list what would change
    python scripts/record_protocol_sessions.py --write    # and write it
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"


def replay(block: str, changed: list[tuple[str, str, str]]) -> str:
    """The block with its stale answers replaced; each change appended to ``changed``."""
    lines = block.split("\n")
    eng = subprocess.Popen([sys.executable, "-m", "tabuleiro", "engine"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True, bufsize=1)
    assert eng.stdin is not None and eng.stdout is not None
    out = []
    try:
        for line in lines:
            if line.startswith("> "):
                eng.stdin.write(line[2:] + "\n")
                eng.stdin.flush()
            elif line.startswith("< "):
                got = eng.stdout.readline().rstrip("\n")
                if json.loads(got) != json.loads(line[2:]):
                    changed.append((lines[0], line[2:], got))
                    line = "< " + got
            out.append(line)
    finally:
        eng.stdin.close()
        eng.wait(timeout=60)
    return "\n".join(out)


def main() -> int:
    text = DOC.read_text("utf-8")
    changed: list[tuple[str, str, str]] = []
    new = re.sub(r"(```session\n)(.*?)(```)", lambda m: m.group(1) + replay(m.group(2), changed) + m.group(3),
                 text, flags=re.S)
    for first, old, got in changed:
        print(f"{first[:70]}\n  was {old[:150]}\n  now {got[:150]}")
    print(f"{len(changed)} answers differ")
    if "--write" in sys.argv[1:] and changed:
        DOC.write_text(new, "utf-8")
        print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
