"""Python processes for the tests without paying each one's imports: a pre-imported process server.

Starting ``python bot.py`` or ``python -m harness.bot_process`` costs about 1.5 s of CPU before the
bot does anything, nearly all of it importing discord.py, SQLAlchemy and the bot's packages; the
tests start dozens. A *zygote* is a Python process that imported those modules once (``bot``'s or
``db.__main__``'s, the module itself dropped again) and then forks a child for each command it is
asked to run. The child is made to look like a fresh ``python -m MODULE ARGS`` / ``python SCRIPT
ARGS``: its own standard streams (the caller's file descriptors, passed over a unix socket), working
directory, environment, umask, ``sys.argv``, ``sys.path`` (PYTHONPATH's included) and bytecode flag,
process group or new session; every other descriptor closed; what the imports printed (warnings)
printed again on its own stderr and stdout; the module run by :mod:`runpy` as ``__main__``, as
``python -m`` does, and the interpreter's own ending (atexit, threads joined, the exit code, death
by SIGINT for an uncaught KeyboardInterrupt). Signals go straight to its pid or group. The imported
objects are frozen (``gc.freeze``, as bot.main does at its start): a child that ends runs no
collection over them, 0.1 s of CPU instead of 0.5 s, and about 0.1 s in all instead of 2 s for
``bot.py --version``.

What a fork cannot give, the tests that need it keep a real interpreter for (they call
:mod:`subprocess` directly): which modules a fresh start loads (tests/test_memory.py,
tests/db/test_db_schema.py), the warnings of the imports themselves (tests/test_startup.py), a
process's own hash seed (tests/engine/test_player.py), the image's command (tests/test_deploy.py).
Anything else is served by a zygote only when it can be: the command is ``sys.executable`` with ``-m
MODULE`` or a script that :data:`PRELOADS` knows, maybe after a wrapper that execs it with fewer
capabilities (``setpriv``: the zygote runs under the same wrapper), and one zygote serves one set of
the interpreter's environment variables (``PYTHON*``, ``LC_*``, ``LANG``), started with them.
``TEST_ZYGOTE=0`` runs every command as a real process.

Each test process starts its zygotes on first use; they end with it. Under pytest-xdist the workers
share them (:data:`SHARED`, named by the controller: tests/conftest.py): the first worker to need one
starts it under a file lock, the others use it, and it ends with the controller (each zygote costs
about 1.3 s of CPU to start). :data:`served_cpu` adds up the CPU seconds of the children served
(``os.wait4``), which no ``RUSAGE_CHILDREN`` of the tests' process sees until the zygote ends."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import fcntl
import gc
import hashlib
import json
import logging
import os
import runpy
import secrets
import select
import selectors
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What a command's zygote imports, by the module (``-m``) or the script's name it runs.
PRELOADS: dict[str, str] = {
    "harness.bot_process": "bot",
    "bot.py": "bot",
    "db": "db.__main__",
    "tests.gm.crash_child": "bot",  # dies in the middle of a close (tests/gm/phases/test_gm_reliability.py)
    "tests.helpers.drawn": "bot",  # tests/test_zygote.py: what a child draws anew
}
WRAPPERS = {
    "setpriv"
}  # commands that exec the rest as it is, with fewer capabilities: the zygote runs under it
INTERPRETER_PREFIXES = ("PYTHON", "LC_", "LANG")  # read by the interpreter at its start: fixed per zygote
SET_IN_CHILD = ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")  # but these two a child sets for itself

SHARED = "TEST_ZYGOTE_DIR"
"""The environment variable naming the directory of the zygotes shared by the test processes of one run
(each zygote's address and hash seed, under a lock; its ``lifeline`` file: the process whose end
ends them)."""

served_cpu = 0.0  # CPU seconds (user + system) of the children served so far, counted at their exit


# The zygote's side.


@dataclass
class Request:
    module: str | None  # ``-m`` MODULE, or
    script: str | None  # a script's path
    args: list[str]
    cwd: str
    env: dict[str, str]
    umask: int
    new_session: bool
    pgid: int
    fds: list[int]  # stdin, stdout, stderr


def _preload(module: str) -> tuple[bytes, bytes]:
    """Import ``module`` (then forget it: the child imports or runs it itself) with what the imports
    print to the standard streams captured, to be printed again by every child."""
    saved = [os.dup(1), os.dup(2)]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        try:
            __import__(module)
            sys.modules.pop(module, None)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for fd, old in zip((1, 2), saved, strict=True):
                os.dup2(old, fd)
                os.close(old)
        out.seek(0)
        err.seek(0)
        return out.read(), err.read()


def _receive(conn: socket.socket) -> Request:
    size = struct.unpack("!I", _read_exactly(conn, 4))[0]
    data, fds, _flags, _addr = socket.recv_fds(conn, size, 3)
    while len(data) < size:
        data += _read_exactly(conn, size - len(data))
    fields = json.loads(data)
    return Request(**fields, fds=list(fds))


def _read_exactly(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def _serve(path: str, lifeline: int = 0) -> tuple[Request, socket.socket]:
    """Serve until the test process goes (stdin at its end, or the process whose pidfd is ``lifeline``
    ended: the zygote exits with its children killed); returns in each child, with what to run and the
    caller's connection."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    os.write(1, b"ready\n")
    children: dict[int, tuple[int, socket.socket]] = {}  # pidfd: (pid, the caller's connection)
    callers: dict[int, int] = {}  # a connection's fd: the pidfd of its child
    conns: dict[int, socket.socket] = {}
    while True:
        readable, _, _ = select.select([lifeline, listener.fileno(), *children, *conns], [], [])
        for fd in readable:
            if fd == lifeline and (lifeline != 0 or not os.read(0, 4096)):
                for pid, _conn in children.values():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                for pid, _conn in children.values():
                    os.waitpid(pid, 0)
                raise SystemExit(0)
            if fd == listener.fileno():
                conn, _ = listener.accept()
                try:
                    request = _receive(conn)
                except (EOFError, OSError, ValueError):
                    conn.close()
                    continue
                pid = os.fork()
                if pid == 0:
                    listener.close()
                    if lifeline != 0:
                        os.close(lifeline)
                    for other in conns.values():
                        other.close()
                    for pidfd in children:
                        os.close(pidfd)
                    return request, conn
                for received in request.fds:
                    os.close(received)
                pidfd = os.pidfd_open(pid)
                children[pidfd] = (pid, conn)
                callers[conn.fileno()] = pidfd
                conns[conn.fileno()] = conn  # the child says its pid once it is ready (_become)
            elif fd in children:
                pid, conn = children.pop(fd)
                os.close(fd)
                _, status, usage = os.wait4(pid, 0)
                ended = {"exit": os.waitstatus_to_exitcode(status), "cpu": usage.ru_utime + usage.ru_stime}
                with contextlib.suppress(OSError):
                    conn.sendall(json.dumps(ended).encode() + b"\n")
                callers.pop(conn.fileno(), None)
                conns.pop(conn.fileno(), None)
                conn.close()
            elif fd in conns:  # the caller went away (or wrote): its child does not outlive it
                try:
                    said = conns[fd].recv(4096)
                except OSError:
                    said = b""
                if not said and fd in callers and callers[fd] in children:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(children[callers[fd]][0], signal.SIGKILL)
                    del conns[fd]


def _become(request: Request, conn: socket.socket, printed: tuple[bytes, bytes]) -> None:
    """In the forked child: the process ``python -m MODULE ARGS`` (or ``python SCRIPT ARGS``) would be.
    Its pid goes to the caller once its session, streams and directory are set, as subprocess returns
    once the exec is done."""
    if request.new_session:
        os.setsid()
    else:
        with contextlib.suppress(OSError):
            os.setpgid(0, request.pgid)
    for target, fd in enumerate(request.fds):
        os.dup2(fd, target)
    os.chdir(request.cwd)
    os.umask(request.umask)
    os.environ.clear()
    os.environ.update(request.env)
    conn.sendall(json.dumps({"pid": os.getpid()}).encode() + b"\n")
    conn.close()
    os.closerange(3, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1024)
    for fd, text in ((1, printed[0]), (2, printed[1])):
        if text:
            os.write(fd, text)
    _redraw()
    if request.module is not None:
        sys.argv = ["-m", *request.args]
        _set_path(os.getcwd(), request.env)
        runpy.run_module(request.module, run_name="__main__", alter_sys=True)
    else:
        assert request.script is not None
        sys.argv = [request.script, *request.args]
        _set_path(os.path.dirname(os.path.realpath(request.script)), request.env)
        runpy.run_path(request.script, run_name="__main__")


def _set_path(first: str, env: Mapping[str, str]) -> None:
    """``sys.path`` and the bytecode flag as the interpreter sets them at its start from ``env``: the
    script's directory (or the working directory), PYTHONPATH's entries, then the installation's (the
    zygote runs without PYTHONPATH, from ROOT)."""
    sys.path[:] = [first, *_python_path(env), *sys.path[1:]]
    sys.dont_write_bytecode = bool(env.get("PYTHONDONTWRITEBYTECODE"))


def _python_path(env: Mapping[str, str]) -> list[str]:
    return [entry for entry in env.get("PYTHONPATH", "").split(os.pathsep) if entry]


def _redraw() -> None:
    """What the imports drew or noted for their process, drawn or noted again for the child, as a fresh
    start would (tests/test_zygote.py finds any other module-level value that differs from start to
    start)."""
    vars(logging)["_startTime"] = time.time()  # log records' relativeCreated
    outbox = sys.modules.get("gm.delivery.outbox")
    if outbox is not None:
        vars(outbox)["INSTANCE"] = secrets.token_hex(4)  # the run in this process's claim tokens
    process = sys.modules.get("multiprocessing.process")
    if process is not None:
        vars(process)["ORIGINAL_DIR"] = os.getcwd()
        process.current_process().authkey = os.urandom(32)


def main(argv: Sequence[str]) -> None:
    path, module, *until = argv  # until: the pid whose end ends a shared zygote (else stdin's end)
    lifeline = os.pidfd_open(int(until[0])) if until else 0
    printed = _preload(module)
    gc.freeze()  # the imports' objects: a child's collections (its end's above all) leave their pages shared
    request, conn = _serve(path, lifeline)
    _become(request, conn, printed)  # then the interpreter ends as a fresh one would


# The tests' side.


@dataclass
class _Zygote:
    process: subprocess.Popen[bytes] | None  # None: another test process's (shared)
    path: str
    hash_seed: str  # its children's (drawn at random where the command's environment names none)
    pid: int = 0

    def alive(self) -> bool:
        if self.process is not None:
            return self.process.poll() is None
        try:
            os.kill(self.pid, 0)
        except OSError:
            return False
        return True


_zygotes: dict[tuple[tuple[str, ...], str, tuple[tuple[str, str], ...]], _Zygote | None] = {}


def _interpreter_env(env: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(
        sorted((k, v) for k, v in env.items() if k.startswith(INTERPRETER_PREFIXES) and k not in SET_IN_CHILD)
    )


@dataclass(frozen=True)
class _Plan:
    wrapper: tuple[str, ...]  # a command that execs the rest with less (setpriv), or nothing
    preload: str
    module: str | None
    script: str | None
    args: list[str]


def _plan(argv: Sequence[str]) -> _Plan | None:
    """How a zygote runs ``argv``, or None where it cannot."""
    if os.environ.get("TEST_ZYGOTE", "1") == "0" or sys.executable not in argv:
        return None
    at = list(argv).index(sys.executable)
    wrapper, command = tuple(argv[:at]), list(argv[at + 1 :])
    if (wrapper and Path(wrapper[0]).name not in WRAPPERS) or not command:
        return None
    if command[0] == "-m" and len(command) >= 2 and command[1] in PRELOADS:
        return _Plan(wrapper, PRELOADS[command[1]], command[1], None, command[2:])
    if not command[0].startswith("-") and Path(command[0]).name in PRELOADS:
        return _Plan(wrapper, PRELOADS[Path(command[0]).name], None, command[0], command[1:])
    return None


def _finds_root(plan: _Plan, cwd: str | os.PathLike[str], env: Mapping[str, str]) -> bool:
    """Whether the child's ``sys.path`` holds ROOT, where the zygote imported the project from."""
    first = cwd if plan.script is None else os.path.dirname(os.path.realpath(os.path.join(cwd, plan.script)))
    return any(Path(os.path.join(cwd, entry)).resolve() == ROOT for entry in [first, *_python_path(env)])


def _zygote(plan: _Plan, env: Mapping[str, str]) -> _Zygote | None:
    key = (plan.wrapper, plan.preload, _interpreter_env(env))
    if key not in _zygotes:
        shared = os.environ.get(SHARED)
        _zygotes[key] = _start(plan, env) if not shared else _shared(plan, env, Path(shared), repr(key))
    return _zygotes[key]


def _shared(plan: _Plan, env: Mapping[str, str], shared: Path, key: str) -> _Zygote | None:
    """The run's zygote for ``key``: the one a test process started already, else one started now
    that ends with the process named in ``shared``/lifeline (or not shared, without that file)."""
    try:
        lifeline = int((shared / "lifeline").read_text())
    except (OSError, ValueError):
        return _start(plan, env)
    name = hashlib.sha256(key.encode()).hexdigest()[:16]
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        known = shared / f"{name}.json"
        if known.exists():
            found = _Zygote(None, **json.loads(known.read_text()))
            if found.alive():
                return found
        started = _start(plan, env, lifeline)
        if started is not None:
            known.write_text(
                json.dumps({"path": started.path, "hash_seed": started.hash_seed, "pid": started.pid})
            )
        return started


def _start(plan: _Plan, env: Mapping[str, str], lifeline: int | None = None) -> _Zygote | None:
    """A zygote that ends with this process (its stdin's end), or with the process ``lifeline``."""
    folder = tempfile.mkdtemp(prefix="zygote-")
    path = os.path.join(folder, "socket")
    start_env = {k: v for k, v in os.environ.items() if not k.startswith(INTERPRETER_PREFIXES)}
    start_env.update(_interpreter_env(env))
    start_env.setdefault("PYTHONHASHSEED", str(secrets.randbelow(2**32 - 1) + 1))
    until = [] if lifeline is None else [str(lifeline)]
    with open(os.path.join(folder, "log"), "wb") as log:
        process = subprocess.Popen(
            [*plan.wrapper, sys.executable, "-m", "harness.zygote", path, plan.preload, *until],
            cwd=ROOT,
            env=start_env,
            stdin=subprocess.PIPE if lifeline is None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=log,
        )
    assert process.stdout is not None
    if process.stdout.readline() != b"ready\n":
        process.wait()
        return None
    process.stdout.close()
    if lifeline is None:
        atexit.register(_stop, process)
    return _Zygote(process, path, start_env["PYTHONHASHSEED"], process.pid)


def hash_seed(argv: Sequence[str], cwd: str | os.PathLike[str], env: Mapping[str, str]) -> str | None:
    """The hash seed of the children a zygote forks to run ``argv`` (starting it if need be), or None
    where a real process would run it."""
    plan = _plan(argv)
    if plan is None or not _finds_root(plan, cwd, env):
        return None
    zygote = _zygote(plan, env)
    return None if zygote is None else zygote.hash_seed


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.stdin is not None:
        with contextlib.suppress(OSError):
            process.stdin.close()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _ask(
    argv: Sequence[str],
    cwd: str | os.PathLike[str],
    env: Mapping[str, str],
    fds: list[int],
    new_session: bool,
) -> tuple[socket.socket, int, bytes] | None:
    """The connection to the zygote that forked ``argv``, the child's pid and what followed it, or None
    (not servable)."""
    plan = _plan(argv)
    if plan is None or not _finds_root(plan, cwd, env):
        return None
    zygote = _zygote(plan, env)
    if zygote is None or not zygote.alive():
        return None
    umask = os.umask(0)
    os.umask(umask)
    request = {
        "module": plan.module,
        "script": plan.script,
        "args": plan.args,
        "cwd": os.path.abspath(cwd),
        "env": dict(env),
        "umask": umask,
        "new_session": new_session,
        "pgid": os.getpgrp(),
    }
    data = json.dumps(request).encode()
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(zygote.path)
        conn.sendall(struct.pack("!I", len(data)))
        socket.send_fds(conn, [data], fds)
    except OSError:  # the zygote is gone: a real process instead
        conn.close()
        return None
    said = b""
    while b"\n" not in said:
        chunk = conn.recv(4096)
        if not chunk:
            raise RuntimeError(f"the zygote did not start {argv}")
        said += chunk
    line, rest = said.split(b"\n", 1)  # the rest: the child's end, if it came as quickly
    return conn, json.loads(line)["pid"], rest


def _ended(line: bytes) -> int:
    global served_cpu
    ended = json.loads(line)
    served_cpu += ended["cpu"]
    return int(ended["exit"])


def run(
    argv: Sequence[str],
    *,
    cwd: str | os.PathLike[str],
    env: Mapping[str, str],
    timeout: float | None = None,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(argv, cwd=, env=, capture_output=True, text=True, timeout=, input=)``, by a
    zygote where one can run it."""
    stdin_r, stdin_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        asked = _ask(argv, cwd, env, [stdin_r, out_w, err_w], False)
    finally:
        for fd in (stdin_r, out_w, err_w):
            os.close(fd)
    if asked is None:
        for fd in (stdin_w, out_r, err_r):
            os.close(fd)
        return subprocess.run(
            list(argv), cwd=cwd, env=dict(env), capture_output=True, text=True, timeout=timeout, input=input
        )
    conn, pid, rest = asked
    with contextlib.suppress(BrokenPipeError):
        os.write(stdin_w, (input or "").encode())
    os.close(stdin_w)
    chunks: dict[int, list[bytes]] = {out_r: [], err_r: [], conn.fileno(): [rest]}
    deadline = None if timeout is None else time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        for fd in chunks:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                conn.close()
                os.close(out_r)
                os.close(err_r)
                raise subprocess.TimeoutExpired(list(argv), timeout or 0)
            for key, _ in selector.select(left):
                data = os.read(key.fd, 65536)
                if data:
                    chunks[key.fd].append(data)
                else:
                    selector.unregister(key.fd)
    code = _ended(b"".join(chunks[conn.fileno()]))
    conn.close()
    os.close(out_r)
    os.close(err_r)
    out, err = (b"".join(chunks[fd]).decode("utf-8", "replace") for fd in (out_r, err_r))
    return subprocess.CompletedProcess(list(argv), code, out, err)


class Process:
    """What :func:`create_subprocess_exec` gives for a child a zygote forked: the parts of
    :class:`asyncio.subprocess.Process` the tests use."""

    def __init__(
        self,
        pid: int,
        conn: socket.socket,
        rest: bytes,
        stdin: asyncio.StreamWriter | None,
        stdout: asyncio.StreamReader | None,
        stderr: asyncio.StreamReader | None,
    ) -> None:
        self.pid = pid
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.returncode: int | None = None
        self._conn = conn
        self._rest = rest
        self._waiter = asyncio.create_task(self._wait_for_exit())

    async def _wait_for_exit(self) -> int:
        reader, writer = await asyncio.open_unix_connection(sock=self._conn)
        line = self._rest if self._rest.endswith(b"\n") else self._rest + await reader.readline()
        writer.close()
        self.returncode = _ended(line)
        return self.returncode

    async def wait(self) -> int:
        return await asyncio.shield(self._waiter)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    async def communicate(self, input: bytes | None = None) -> tuple[bytes, bytes]:
        """Its output and errors (empty where not a pipe), once it ended."""
        if self.stdin is not None:
            if input:
                self.stdin.write(input)
                with contextlib.suppress(ConnectionError):
                    await self.stdin.drain()
            self.stdin.close()
        out, err = await asyncio.gather(_read_all(self.stdout), _read_all(self.stderr))
        await self.wait()
        return out, err


async def _read_pipe(loop: asyncio.AbstractEventLoop, fd: int) -> asyncio.StreamReader:
    reader = asyncio.StreamReader(limit=2**16)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", 0))
    return reader


async def _read_all(stream: asyncio.StreamReader | None) -> bytes:
    return b"" if stream is None else await stream.read()


async def create_subprocess_exec(
    *argv: str,
    cwd: str | os.PathLike[str],
    env: Mapping[str, str],
    stdin: int | None = None,
    stdout: int | None = None,
    stderr: int | None = None,
    start_new_session: bool = False,
) -> Process | asyncio.subprocess.Process:
    """``asyncio.create_subprocess_exec`` (stdin, stdout, stderr: PIPE, DEVNULL, STDOUT for stderr, or
    None to share the caller's), by a zygote where one can run it."""

    def real() -> Awaitable[asyncio.subprocess.Process]:  # the command run as a real process
        return asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            env=dict(env),
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            start_new_session=start_new_session,
        )

    if _plan(argv) is None:
        return await real()
    theirs: list[int] = []  # the child's ends, closed here once passed
    ours: dict[str, int] = {}

    def end(name: str, option: int | None, default: int, reading: bool) -> int:
        if option == subprocess.PIPE:
            r, w = os.pipe()
            ours[name] = r if reading else w
            theirs.append(w if reading else r)
            return theirs[-1]
        if option == subprocess.DEVNULL:
            theirs.append(os.open(os.devnull, os.O_RDWR))
            return theirs[-1]
        return default

    fds = [end("stdin", stdin, 0, False), end("stdout", stdout, 1, True)]
    fds.append(fds[1] if stderr == subprocess.STDOUT else end("stderr", stderr, 2, True))
    try:
        asked = _ask(argv, cwd, env, fds, start_new_session)
    finally:
        for fd in theirs:
            os.close(fd)
    if asked is None:
        for fd in ours.values():
            os.close(fd)
        return await real()
    conn, pid, rest = asked
    loop = asyncio.get_running_loop()
    readers: dict[str, asyncio.StreamReader] = {}
    for name in ("stdout", "stderr"):
        if name in ours:
            readers[name] = await _read_pipe(loop, ours[name])
    writer = None
    if "stdin" in ours:
        transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.streams.FlowControlMixin(), os.fdopen(ours["stdin"], "wb", 0)
        )
        writer = asyncio.StreamWriter(transport, protocol, None, loop)
    return Process(pid, conn, rest, writer, readers.get("stdout"), readers.get("stderr"))


if __name__ == "__main__":
    main(sys.argv[1:])
