"""ExternalBot: a bot that is a program, in any language, speaking JSON lines (docs/protocol.md).

The engine writes to the program's stdin one JSON object a line: a ``hello`` at the start of each
hand (protocol, version, the seat, the rules, a seed), then every event the seat may see exactly
as in the event log (docs/events.md), and a ``request`` listing the legal actions whenever the
seat must decide (with ``observation=True`` also the seat's observation, ``state.observation(seat)``).
At a table with wild tiles (docs/rules.md §12) the ``hello`` and every request also carry
``wilds``: the wild kinds (and the 本金 once turned up, in a request), as the observation shows
them.
The program answers each request, and only requests, with ``{"id": N}``.

A late answer (past ``timeout`` seconds), a line that is not such an object, an id that is not
legal, or a program that has died gives ``None`` from :meth:`ExternalBot.decide`: the caller then
takes docs/rules.md §8's default (``state.apply_timeout``). The counts of each are in ``counts``. A late
answer that arrives later is read and dropped (each request gets exactly one line), so the
conversation stays in step. A program that dies is reported once, by one warning line on
standard error (the bot, its seat, the hand and the exit status). Writes never block: what the program has not read yet stays queued. Pipes are polled, so external
bots need a POSIX system (Linux, macOS).

>>> bot = ExternalBot("python3 examples/random_bot.py")     # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from ..game import Action
from ..game.events import event_lines
from ..rules import KNOBS, Rules
from ..tiles import PHYSICAL_NAMES

__all__ = ["ExternalBot", "PROTOCOL", "PROTOCOL_VERSION", "parse_command"]

PROTOCOL = "xueliu-bot"
PROTOCOL_VERSION = 1
STARTUP_SECONDS = 10.0
"""Extra time a program gets for its first request (interpreter start-up, loading a model)."""
_MAX_LINE = 1 << 20  # a "line" longer than this without a newline: the program is broken

_action_json: Dict[int, bytes] = {}
# One encoder: json.dumps with non-default options would build a new one for every line.
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _action_text(a: Action) -> bytes:
    text = _action_json.get(a.id)
    if text is None:
        text = _action_json[a.id] = _JSON.encode(
            {"id": a.id, "kind": a.kind, "tile": a.tile,
             "tiles": None if a.tiles is None else list(a.tiles), "suit": a.suit,
             "value": a.value}).encode()
    return text


SPIN_SECONDS = 0.0002
"""How long the engine reads a program's answer without sleeping before it waits in ``poll``.

Most answers of a quick program come within this time, and waking a process that slept costs
more than that on a virtual machine (the ``cmd:`` benchmark: ~140 µs a decision sleeping at
once, ~90 µs with this spin; docs/learning.md). A program that answers later makes the engine
skip the spin for its next :data:`SPIN_SKIP` requests, so a slow bot costs at most one spin in
``SPIN_SKIP + 1`` requests."""
SPIN_SKIP = 8


def _spin_read(fd: int) -> Optional[bytes]:
    """What the program wrote within :data:`SPIN_SECONDS`, read without sleeping (``None``:
    nothing yet; ``b""``: its end of output)."""
    end = time.perf_counter() + SPIN_SECONDS
    while True:
        try:
            return os.read(fd, 1 << 16)
        except BlockingIOError:
            pass
        except OSError:
            return b""
        if time.perf_counter() > end:
            return None


def _line(obj: Mapping[str, Any]) -> bytes:
    return _JSON.encode(obj).encode() + b"\n"


def _rules_of(knobs: Mapping[str, Any]) -> Optional[Rules]:
    """The rules of a ``to_dict()`` given to :meth:`ExternalBot.start_hand` when they hold wild
    tiles (the knobs ``Rules`` knows; anything else the mapping carries is the caller's)."""
    if not knobs.get("wild_kinds") and not knobs.get("extra_wilds"):
        return None
    return Rules.from_dict({k: v for k, v in knobs.items() if k in KNOBS})


def _hello_wilds(rules: Optional[Rules]) -> Optional[Dict[str, Any]]:
    """The ``wilds`` of a hand's ``hello`` at a table with wild tiles (docs/protocol.md), else
    ``None``: the wild kinds as far as the rules fix them (none yet under a 本金 rule: the
    ``benjin`` event and each request's ``wilds`` name them once the 本金 is turned up)."""
    if rules is None or not rules.has_wilds:
        return None
    kinds = [] if rules.uses_benjin else [PHYSICAL_NAMES[k] for k in sorted(rules.wild_set())]
    return {"kinds": kinds, "benjin": None, "in_wall": rules.wild_count_in_wall()}


def _request_wilds(state: Any, seat: int) -> bytes:
    """``,"wilds":{...}`` for a request at a table with wild tiles (the seat's observation's
    ``wilds``: the hand's wild kinds, the 本金 once turned up, the wall set's wilds), else
    nothing."""
    if not state.rules.has_wilds:
        return b""
    view = state.view(seat)
    wilds = {"kinds": [PHYSICAL_NAMES[k] for k in view.wild_kinds],
             "benjin": None if view.benjin < 0 else PHYSICAL_NAMES[view.benjin],
             "in_wall": state.rules.wild_count_in_wall()}
    return b',"wilds":' + _JSON.encode(wilds).encode()


def _exit_status(code: int) -> str:
    if code >= 0:
        return f"exit status {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return f"killed by {name}"


def parse_command(command: Union[str, Sequence[str]]) -> List[str]:
    """The argv of a command line (``"python3 mybot.py --fast"``), checked to name a program that
    exists; ``ValueError`` otherwise."""
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if not argv:
        raise ValueError("an external bot needs a command, e.g. 'cmd:python3 mybot.py'")
    if shutil.which(argv[0]) is None:
        raise ValueError(f"external bot command {argv[0]!r} is not a program on PATH or a file "
                         "that can be run")
    return argv


class ExternalBot:
    """One program playing one seat, kept running for every hand it is given.

    ``command`` is a command line (or an argv list); ``timeout`` the seconds it has for each
    answer; ``observation=True`` adds the seat's observation (``state.observation(seat)``,
    docs/events.md) to each request as ``"observation"``, so the program need not rebuild its hand
    from the events. Call :meth:`start_hand` at the start of each hand, :meth:`decide` whenever
    its seat must decide, :meth:`end_hand` when the hand is over, and :meth:`close` at the end
    (or use it as a context manager).
    """

    def __init__(self, command: Union[str, Sequence[str]], *, timeout: float = 5.0,
                 name: Optional[str] = None, observation: bool = False) -> None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
            raise ValueError(f"the bot timeout must be a positive number of seconds, got "
                             f"{timeout!r}")
        self._argv = parse_command(command)
        self.name = name if name is not None else "cmd:" + (
            command if isinstance(command, str) else shlex.join(self._argv))
        self.timeout = float(timeout)
        if not isinstance(observation, bool):
            raise TypeError(f"observation is True or False, got {observation!r}")
        self.observation = observation
        self.counts: Dict[str, int] = dict.fromkeys(
            ("decisions", "late", "garbage", "illegal", "dead"), 0)
        self.dead = False
        self._proc: Optional[subprocess.Popen[bytes]] = None
        self._out = bytearray()  # queued for the program's stdin
        self._in = bytearray()  # read from its stdout, not yet a whole line
        self._owed = 0  # answers to requests we stopped waiting for
        self._skip_spin = 0  # requests left before the next spin (the program was slow)
        self._asked = False  # has it had its first request (which gets the start-up time)
        self._sent = 0  # events of the current hand already written
        self._seat: Optional[int] = None  # where it plays now: for the warning when it dies
        self._hand: Optional[int] = None
        self._closing = False

    # -- the conversation ------------------------------------------------------------------------

    def start_hand(self, seat: int, rules: Union[Rules, Mapping[str, Any]], seed: int = 0, *,
                   hand: Optional[int] = None) -> None:
        """Queues the ``hello`` of a new hand (sent with the first request). ``rules`` is a
        :class:`~xueliu.Rules` or its ``to_dict()``; ``hand`` (the driver's hand index) only
        labels the warning if the program dies in this hand."""
        self._sent = 0
        self._seat = seat
        self._hand = hand
        if self._proc is None and not self.dead:
            self._start()
        to_dict = getattr(rules, "to_dict", None)
        knobs = to_dict() if callable(to_dict) else dict(rules)  # type: ignore[arg-type]
        hello: Dict[str, Any] = {"type": "hello", "protocol": PROTOCOL,
                                 "version": PROTOCOL_VERSION, "seat": seat, "rules": knobs,
                                 "seed": seed}
        wilds = _hello_wilds(rules if isinstance(rules, Rules) else _rules_of(knobs))
        if wilds is not None:  # a table with wild tiles (docs/rules.md §12)
            hello["wilds"] = wilds
        self._out += _line(hello)

    def decide(self, state: Any, seat: int) -> Optional[Action]:
        """The program's answer to the decision ``seat`` faces now, or ``None`` (late, garbage,
        an illegal id, or a dead program: the caller takes the default)."""
        self.counts["decisions"] += 1
        if self.dead:
            self.counts["dead"] += 1
            return None
        legal = state.legal_actions(seat)
        self._queue_events(state, seat)
        self._out += b'{"type":"request","actions":[' + b",".join(map(_action_text, legal)) \
            + b"]" + _request_wilds(state, seat)
        if self.observation:
            self._out += b',"observation":' + _JSON.encode(state.observation(seat)).encode() \
                + b"}\n"
        else:
            self._out += b"}\n"
        wait = self.timeout if self._asked else self.timeout + STARTUP_SECONDS
        self._asked = True
        line = self._answer(time.monotonic() + wait)
        if line is None:
            if self.dead:
                self.counts["dead"] += 1
            else:
                self.counts["late"] += 1
                self._owed += 1
            return None
        try:
            msg = json.loads(line)
            choice = msg["id"] if isinstance(msg, dict) else None
        except (ValueError, KeyError):
            choice = None
        if isinstance(choice, bool) or not isinstance(choice, int):
            self.counts["garbage"] += 1
            return None
        for a in legal:
            if a.id == choice:
                action: Action = a
                return action
        self.counts["illegal"] += 1
        return None

    def end_hand(self, state: Any, seat: int) -> None:
        """Sends the events the program has not seen yet (the end of the hand)."""
        if self.dead:
            return
        self._queue_events(state, seat)
        self._flush(time.monotonic())  # what the pipe takes now; the rest goes with the next write

    def take_counts(self) -> Dict[str, int]:
        """The counts since the last call (and resets them)."""
        out = self.counts
        self.counts = dict.fromkeys(out, 0)
        return out

    def close(self) -> None:
        """Ends the program: closes its stdin (a well-behaved bot exits on end of input), waits a
        moment, then kills it."""
        proc = self._proc
        self._proc = None
        self.dead = True
        self._closing = True
        if proc is None:
            return
        for f in (proc.stdin, proc.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __enter__(self) -> "ExternalBot":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ExternalBot {self.name!r}{' dead' if self.dead else ''}>"

    # -- the pipes -------------------------------------------------------------------------------

    def _start(self) -> None:
        try:
            self._proc = subprocess.Popen(self._argv, stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, bufsize=0)
        except OSError as e:
            raise ValueError(f"external bot {self.name!r} cannot start: {e}") from None
        assert self._proc.stdin is not None and self._proc.stdout is not None
        os.set_blocking(self._proc.stdin.fileno(), False)
        os.set_blocking(self._proc.stdout.fileno(), False)

    def _queue_events(self, state: Any, seat: int) -> None:
        # Only the events since the last request: a hand's log is rendered once, not once a
        # decision (the whole log again at every request was a third of the cost per decision).
        # Draws and discards, most of the events, come as ready JSON lines (event_lines).
        n = state.event_count
        if n > self._sent:
            self._out += event_lines(state, seat, self._sent)
            self._sent = n

    def _die(self, why: Optional[str] = None) -> None:
        """The program is gone (it exited, closed a pipe) or is given up on (``why``: it broke
        the protocol): it is killed if still running, and reported once on stderr."""
        if self.dead:
            return
        self.dead = True
        proc = self._proc
        status = "not started"
        if proc is not None:
            if why is None:
                try:  # it closed its pipe: usually it is exiting, so wait for its status
                    proc.wait(timeout=0.5)
                except subprocess.TimeoutExpired:
                    why = "it closed its pipe but kept running"
            if proc.poll() is None:
                proc.kill()
                proc.wait()
                status = f"killed: {why}"
            else:
                status = _exit_status(proc.returncode)
        if not self._closing:
            where = f"seat {self._seat}" if self._seat is not None else "no seat yet"
            hand = f"hand {self._hand}" if self._hand is not None else "this hand"
            prefix = "\r\x1b[K" if getattr(sys.stderr, "isatty", lambda: False)() else ""
            sys.stderr.write(f"{prefix}xueliu: warning: bot {self.name!r} at {where} died in "
                             f"{hand} ({status}); docs/rules.md §8's default plays for it from now on\n")
            sys.stderr.flush()

    def _flush(self, deadline: float) -> None:
        """Writes queued bytes until done, the deadline, or a broken pipe (the program died)."""
        proc = self._proc
        if proc is None or proc.stdin is None:
            self._die()
            return
        fd = proc.stdin.fileno()
        while self._out:
            try:
                n = os.write(fd, self._out)
            except BlockingIOError:
                n = 0
            except (BrokenPipeError, OSError):
                self._die()
                return
            del self._out[:n]
            if self._out:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                poll = select.poll()
                poll.register(fd, select.POLLOUT)
                poll.poll(left * 1000.0)

    def _answer(self, deadline: float) -> Optional[bytes]:
        """The next answer line (late answers to earlier requests are skipped), or ``None`` at the
        deadline or when the program has died."""
        proc = self._proc
        if proc is None or proc.stdout is None:
            self._die()
            return None
        fd_in = proc.stdout.fileno()
        spin = self._skip_spin == 0  # at most once a request, not for a program that is slow
        if not spin:
            self._skip_spin -= 1
        while True:
            nl = self._in.find(b"\n")
            while nl >= 0:
                line = bytes(self._in[:nl])
                del self._in[:nl + 1]
                if self._owed:
                    self._owed -= 1  # the late answer to a request already defaulted
                else:
                    return line
                nl = self._in.find(b"\n")
            if len(self._in) > _MAX_LINE:
                self._die(f"a line longer than {_MAX_LINE} bytes")
                return None
            self._flush(0.0)  # what the pipe takes now, without waiting
            if self.dead:
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if spin and not self._out:
                spin = False
                data = _spin_read(fd_in)
                if data is None:
                    self._skip_spin = SPIN_SKIP
                elif not data:  # end of file: the program has exited
                    self._die()
                    return None
                else:
                    self._in += data
                    continue
            poll = select.poll()
            poll.register(fd_in, select.POLLIN)
            if self._out and proc.stdin is not None:
                poll.register(proc.stdin.fileno(), select.POLLOUT)
            ready = poll.poll(left * 1000.0)
            if any(fd == fd_in for fd, _ in ready):
                try:
                    data = os.read(fd_in, 1 << 16)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:  # end of file: the program has exited
                    self._die()
                    return None
                self._in += data
