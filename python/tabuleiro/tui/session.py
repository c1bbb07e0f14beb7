"""One terminal game: people at some seats, agents at the others.

The screen of a person is drawn from their seat's view only; what agents do
is announced as the other players see it (``Event``s with an audience).
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable, Optional, Sequence

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from .._errors import IllegalMoveError, InvalidMoveError, InvalidStateError, TabuleiroError
from .._game import Game, game_class, load_game, load_state
from .._state import State
from ..agents import Agent, SearchResult, StopFlag
from .render import Event
from .seats import Seat, make_seat

__all__ = ["Event", "Session", "SAVE_FORMAT", "load_save", "public_events"]

SAVE_FORMAT = "tabuleiro-play"
PROMPT = "move> "

COMMANDS = [
        ("a number", "play that move from the numbered list"),
        ("a move", "in the notation of RULES.md (below)"),
        ("moves", "list the legal moves again (moves 2: the list's page 2, if any)"),
        ("board", "draw the table again"),
        ("hint", "the AI's top three moves for you, with their visit shares"),
        ("undo", "back to your previous decision"),
        ("save FILE", "save the game as JSON (resume with --load FILE)"),
        ("rules", "how to play: goal, scoring, what the screen shows (rules 2: page 2)"),
        ("help", "this text"),
        ("quit", "leave the game (it is not saved)"),
]


def public_events(before: State, after: State, move: Any, mover: int, labels: Sequence[str],
                  scored: Optional[State] = None) -> list[Event]:
    """What one move shows, each line with its audience: the game's
    presentation decides (``Presentation.events``). ``before`` and ``after``
    are the states around the move, ``scored`` what ``Presentation.apply``
    returned for it."""
    return before.game.presentation().events(before, after, move, mover, labels, scored)


def load_save(data: Any) -> tuple[State, Optional[list[str]]]:
    """A saved game: ``{"format": "tabuleiro-play", "game", "params",
    "seats", "root", "history"}``, or ``{"state": <state dict>, "seats"}``,
    or a bare state dict. Returns the state (with its move stack) and the
    seat specs if the file has them.

    :raises ValueError: naming what is wrong.
    """
    if not isinstance(data, dict):
        raise ValueError("a saved game is a JSON object")
    seats = data.get("seats")
    if seats is not None and (not isinstance(seats, list) or not all(isinstance(s, str) for s in seats)):
        raise ValueError("seats must be a list of seat specs (strings)")
    if "root" in data:
        name, params = data.get("game"), data.get("params", {})
        if not isinstance(name, str):
            raise ValueError(f"unknown game {name!r}")
        game_class(name)                        # ValueError naming the registered games
        if not isinstance(params, dict):
            raise ValueError("params must be an object")
        game = load_game(name, **params)
        state = game.from_dict(data["root"])
        history = data.get("history", [])
        if not isinstance(history, list):
            raise ValueError("history must be a list of action ids")
        for i, a in enumerate(history):
            try:
                state.push(a)
            except (TabuleiroError, TypeError) as e:
                raise ValueError(f"history entry {i} ({a!r}) does not replay: {e}") from None
        return state, seats
    d = data.get("state", data)
    if not isinstance(d, dict):
        raise ValueError("state must be an object")
    return load_state(d), seats


def _names(text: str, q: int) -> bool:
    """Whether an announcement begins with player ``q`` (``P1 ...``, ``P1:``)."""
    head = f"P{q}"
    return text.startswith(head) and not text[len(head):len(head) + 1].isdigit()


class Quit(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class Session:
    """A game between the seats, people typing at ``input``."""

    def __init__(self, console: Console, state: State, seats: Sequence[Seat], *, hint: str = "ismcts:iterations=5000",
                 seed: int = 0, input_fn: Callable[[str], str] = input) -> None:
        self.console = console
        self.state: Any = state
        self.game: Game = state.game
        self.shown = self.game.presentation()   # everything that differs between games
        self.seats = list(seats)
        self.humans = [i for i, s in enumerate(self.seats) if s.human]
        if not self.humans:
            raise ValueError("at least one seat must be human")
        many = len(self.humans) > 1
        self.labels = [("human" if many else "you") if s.human else s.label for s in self.seats]
        self.hint_spec = hint
        hint_agent = make_seat(hint, 99, seed).agent
        if hint_agent is None:
            raise ValueError("the hint needs an agent, not human")
        self.hint_agent: Agent = hint_agent
        self.input = input_fn
        self.viewer: Optional[int] = None      # the person who holds the device
        self.log: list[Event] = []              # everything announced (for a handover)
        self.seen_upto: dict[int, int] = {}     # log position each person has seen
        self.fresh = True                       # draw the whole table at the next prompt
        self.stats: dict[int, tuple[int, float, int]] = {}   # per agent since its last announced move

    # --- output ---------------------------------------------------------------------------
    def say(self, events: Sequence[Event]) -> None:
        for e in events:
            self.log.append(e)
            if e.audience is None or e.audience == self.viewer:
                self.console.print(e.text)
        if self.viewer is not None:
            self.seen_upto[self.viewer] = len(self.log)

    def error(self, text: str) -> None:
        self.console.print(Text("✗ " + " ".join(text.split()), style="bold red"), no_wrap=True, overflow="ellipsis")

    def board(self, me: int) -> RenderableType:
        return self.shown.board(self.game, self.state.view(me), me, self.labels)

    def moves_view(self, me: int) -> RenderableType:
        return self.shown.moves_view(self.state, me)

    def compact(self, me: int) -> None:
        """A short status between a person's consecutive decisions."""
        for part in self.shown.compact(self.state, me, self.labels):
            self.console.print(part)

    # --- the game loop --------------------------------------------------------------------------
    def run(self) -> int:
        self.intro()
        try:
            while not self.state.is_terminal:
                p = self.state.current_player
                assert p is not None
                if self.seats[p].human:
                    self.human_turn(p)
                else:
                    self.agent_turn(p)
        except Quit as q:
            return q.code
        except KeyboardInterrupt:
            self.console.print("\ninterrupted: the game was not saved")
            return 130
        self.final()
        return 0

    def intro(self) -> None:
        title = self.shown.title(self.game)
        seats = ", ".join(f"P{i} {'you' if s.human and len(self.humans) == 1 else s.label}"
                          for i, s in enumerate(self.seats))
        self.console.print(Rule(Text(f"{title} · {seats}", style="bold")))
        plays: dict[str, list[str]] = {}
        for i, s in enumerate(self.seats):
            if not s.human:
                plays.setdefault(f"{s.label} plays {s.describe(self.game.name)}", []).append(f"P{i}")
        for what, who_ in plays.items():
            self.console.print(Text(f"{', '.join(who_)} {what}", style="dim"))
        self.console.print(Text("Type a move's number or its notation; help lists the commands, "
                                "rules says how to play.", style="dim"))

    def clear(self) -> None:
        """Clear the screen and, where the terminal allows, its scrollback
        (the previous person's hand must not be a scroll away)."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def handover(self, p: int) -> None:
        if len(self.humans) > 1 and self.viewer is not None and self.viewer != p:
            self.clear()
            self.viewer = None
            try:
                self.input(f"Pass the device to P{p} and press Enter ")
            except EOFError:
                raise Quit(0) from None
            self.clear()
            news = [e for e in self.log[self.seen_upto.get(p, 0):] if e.audience in (None, p)]
            if news:
                self.console.print(Text(f"P{p}, since your last turn:", style="bold"))
                for e in news:
                    self.console.print(e.text)
        self.viewer = p
        self.seen_upto[p] = len(self.log)

    def human_turn(self, p: int) -> None:
        if self.viewer != p:
            self.fresh = True
        self.handover(p)
        if self.fresh:
            self.console.print(Rule(style="grey42"))
            self.console.print(self.board(p))
            self.fresh = False
        else:
            self.compact(p)
        self.console.print(self.moves_view(p))
        who = f"P{p}" + ("" if len(self.humans) == 1 else " (human)")
        self.console.print(Text(f"{who} to move: a number, a move, or help", style="dim"))
        while True:
            try:
                line = self.input(PROMPT)
            except EOFError:
                self.console.print("\nend of input: the game was not saved")
                raise Quit(0) from None
            if self.command(p, line):
                return

    def command(self, p: int, line: str) -> bool:
        """Handle one line; True once the person's decision is made (or the
        position changed under them, as after undo)."""
        text = line.strip()
        if not text:
            return False
        word, _, rest = text.partition(" ")
        cmd = word.lower()
        if cmd in ("help", "?") and rest.strip().lower().startswith("rules"):
            word, _, rest = rest.strip().partition(" ")
            cmd = "rules"
        if cmd in ("help", "?"):
            self.show_help()
            return False
        if cmd == "rules":
            self.show_rules(rest.strip())
            return False
        if cmd in ("moves", "m"):
            page = self.page_number(rest.strip(), "moves")
            if page is not None:
                try:
                    self.console.print(self.shown.moves_view(self.state, p, page))
                except ValueError as e:
                    self.error(str(e))
            return False
        if cmd in ("board", "b") and not rest:
            self.console.print(self.board(p))
            self.console.print(self.moves_view(p))
            return False
        if cmd == "hint" and not rest:
            self.hint(p)
            return False
        if cmd in ("undo", "u") and not rest:
            return self.undo(p)
        if cmd == "save":
            self.save(rest.strip())
            return False
        if cmd in ("quit", "exit", "q") and not rest:
            self.console.print("bye: the game was not saved")
            raise Quit(0)
        moves = self.state.legal_moves()
        if text.isdigit():
            k = int(text)
            if not 1 <= k <= len(moves):
                self.error(f"no move {k}: " + ("the only move is 1" if len(moves) == 1 else
                                                 f"choose a number from 1 to {len(moves)}"))
                return False
            self.play(moves[k - 1], p)
            return True
        try:
            move = self.parse(text)
        except IllegalMoveError:
            self.error(f"{text!r} is not legal now (moves lists the legal ones)")
            return False
        except InvalidMoveError as e:
            self.error(f"not a move or a command: {e} (help lists both)")
            return False
        self.play(move, p)
        return True

    def page_number(self, text: str, command: str) -> Optional[int]:
        """The page a command names (1 without one), or None after saying why."""
        if not text:
            return 1
        if text.isdigit() and int(text) >= 1:
            return int(text)
        self.error(f"{command} takes a page number: {command} 2, not {command} {text}")
        return None

    def parse(self, text: str) -> Any:
        try:
            return self.state.parse_move(text)
        except InvalidMoveError:
            fixed = self.normalise(text)
            if fixed == text:
                raise
            try:
                return self.state.parse_move(fixed)
            except InvalidMoveError:
                raise InvalidMoveError(f"{text!r} is not {self.game.title} notation") from None

    def normalise(self, text: str) -> str:
        """Typed input made into notation (``c3`` → ``C3``, ``f13 R>2`` → ``F13 r>2``): the game's rule."""
        return self.shown.normalise(text)

    # --- moves --------------------------------------------------------------------------------
    def play(self, move: Any, mover: int) -> None:
        before = self.state.clone()
        scored = self.shown.apply(self.state, move)
        events = self.shown.events(before, self.state, move, mover, self.labels, scored)
        seen: dict[Optional[int], int] = {}       # per audience, the first line naming the mover
        for i, e in enumerate(events):
            if e.audience != mover and e.audience not in seen and _names(e.text.plain, mover):
                seen[e.audience] = i
        if mover in self.stats and seen:          # else a hidden move: counted with the next one shown
            note = self.search_note(*self.stats.pop(mover))
            for i in seen.values():
                if note:
                    t = events[i].text.copy()
                    t.append(note, style="dim")
                    events[i] = Event(t, events[i].audience, events[i].banner)
        self.say([e for e in events if not e.banner])
        if scored is not None and not self.state.is_terminal:     # the last one: in the final screen
            screen = self.shown.scored_screen(scored, self.viewer, self.labels)
            if screen is not None:
                self.console.print(screen)
        self.say([e for e in events if e.banner])                # a new round: after the old one's scores
        if mover != self.viewer or scored is not None or any(e.audience is None for e in events):
            self.fresh = True       # something the person did not just do themselves: draw the table

    @staticmethod
    def search_note(iterations: int, secs: float, moves: int) -> str:
        """What an agent's searches took, per move as docs/levels.md counts
        them: ``moves`` searched (a forced move searches nothing) since its
        last announced move (a hidden move is announced with the next one
        the others see).

        >>> Session.search_note(5000, 0.31, 1)
        '   5,000 iterations, 0.3 s'
        >>> Session.search_note(15000, 0.9, 3)
        '   5,000 iterations a move over 3 moves, 0.9 s'
        >>> Session.search_note(0, 0.0, 2)
        ''
        """
        if not iterations:
            return ""
        per = f"{iterations:,} iterations" if moves == 1 else \
            f"{round(iterations / moves):,} iterations a move over {moves} moves"
        return f"   {per}" + (f", {secs:.1f} s" if secs >= 0.1 else "")

    def think(self, agent: Agent, what: Any, label: str, budget: Optional[int]) -> SearchResult:
        """Run a search in a thread, with a spinner while it takes time."""
        stop = StopFlag()
        box: dict[str, Any] = {}

        def work() -> None:
            try:
                box["r"] = agent.search(what, stop=stop)
            except BaseException as e:  # handed to the main thread
                box["e"] = e

        t0 = time.monotonic()
        th = threading.Thread(target=work, daemon=True)
        th.start()
        try:
            th.join(0.25)
            if th.is_alive():
                cap = f" (up to {budget:,} iterations)" if budget else ""
                with self.console.status(f"{label} is thinking{cap}…", spinner="dots") as status:
                    while th.is_alive():
                        th.join(0.1)
                        status.update(f"{label} is thinking{cap}… {time.monotonic() - t0:.1f} s")
        except KeyboardInterrupt:
            stop.set()
            th.join()
            raise
        if "e" in box:
            raise box["e"]
        r: SearchResult = box["r"]
        return r

    def agent_turn(self, p: int) -> None:
        seat = self.seats[p]
        assert seat.agent is not None
        t0 = time.monotonic()
        r = self.think(seat.agent, self.state, f"P{p} ({seat.label})", seat.budget_in(self.state.game.name))
        it, secs, n = self.stats.get(p, (0, 0.0, 0))
        self.stats[p] = (it + r.iterations, secs + time.monotonic() - t0, n + (r.iterations > 0))
        self.play(r.move, p)

    # --- commands --------------------------------------------------------------------------------
    def show_help(self) -> None:
        t = Text()
        for k, v in COMMANDS:
            t.append(f"  {k:<12}", style="bold cyan")
            t.append(v + "\n")
        t.append(f"{self.shown.title(self.game)} notation:\n", style="bold")
        for line in self.shown.help_notation(self.game):
            t.append(f"  {line}\n")
        self.console.print(t, end="")

    def show_rules(self, page_text: str) -> None:
        """A page of the game's how-to-play (``rules``, ``rules 2``)."""
        pages = self.shown.rules(self.game)
        page = self.page_number(page_text, "rules")
        if page is None:
            return
        if not 1 <= page <= len(pages):
            self.error(f"no page {page} of rules: " + ("it has one" if len(pages) == 1 else
                                                       f"pages 1 to {len(pages)}"))
            return
        self.console.print(Text(pages[page - 1]))

    def hint(self, p: int) -> None:
        moves = self.state.legal_moves()
        if len(moves) == 1:
            self.console.print(Text.assemble(("hint: ", "bold"), (str(moves[0]), "bold"), " is the only legal move"))
            return
        view = self.state.view(p)
        try:
            r = self.think(self.hint_agent, view, f"hint ({self.hint_spec.split(':seed=')[0]})",
                           getattr(self.hint_agent, "iterations", None) or None)
        except InvalidStateError:          # a view the engine cannot rebuild: same choice from the state (contract)
            r = self.think(self.hint_agent, self.state, "hint", None)
        total = sum(a.visits for a in r.analysis)
        t = Text(f"hint ({r.iterations:,} iterations):" if r.iterations else "hint:", style="bold")
        for a in r.analysis[:3]:
            num = moves.index(a.move) + 1 if a.move in moves else 0
            t.append(f"  {num}. ", style="bold cyan")
            t.append(str(a.move), style="bold")
            if total:
                t.append(f" {100 * a.visits / total:.0f}%")
        self.console.print(t)

    def undo(self, p: int) -> bool:
        st = self.state
        popped = []
        while st.history():
            popped.append(st.pop())
            if st.current_player == p:
                break
        if st.current_player != p or not popped:
            for m in reversed(popped):
                st.push(m)
            self.error("nothing to undo: you have made no decision since the game began or was loaded")
            return False
        self.console.print(Text(f"undone {len(popped)} move{'s' if len(popped) != 1 else ''}: "
                                "back to your previous decision", style="yellow"))
        self.stats.clear()
        self.fresh = True
        return True

    def save_data(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "version": 1, "game": self.game.name, "params": self.game.params,
                "seats": [s.spec for s in self.seats], "hint": self.hint_spec,
                "root": self.state.root().to_dict(), "history": self.state.history()}

    def save(self, path: str) -> None:
        if not path:
            self.error("save needs a file name: save FILE")
            return
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(self.save_data(), f, indent=1)
                f.write("\n")
        except OSError as e:
            self.error(f"cannot save to {path}: {e.strerror or e}")
            return
        self.console.print(Text(f"saved to {path} (resume with tabuleiro play --load {path})", style="green"))

    # --- the end --------------------------------------------------------------------------------------
    def final(self) -> None:
        me = self.humans[0] if len(self.humans) == 1 else None
        viewer = self.viewer if self.viewer is not None else self.humans[0]
        self.console.print(Rule(Text("Game over", style="bold")))
        for part in self.shown.final_screen(self.state, viewer, me, self.labels):
            self.console.print(part)
