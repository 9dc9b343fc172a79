"""`credo serve` as a child process: started with given env and arguments, waited for on /health with a deadline,
stopped with SIGINT (uvicorn's graceful shutdown; the command then exits 0) and SIGKILL after a grace period.

The test suite (tests/api/rest/test_serve.py `serving`), the soak (bench/soak.py) and the history run's servers
(bench/history/run.py, killed and restarted by bench/history/nemesis.py) all start it here. A server that exits or
does not answer in time raises `ServeNotReady`, naming the end of its log.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

CREDO = str(Path(sys.executable).with_name("credo"))
TAIL_CHARS = 2000


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(response: httpx.Response) -> bool:
    """/health answers 200."""
    return response.status_code == 200


def embedder_ready(response: httpx.Response) -> bool:
    """/health answers with the embedder loaded (or off): the first calls are not spent loading the model."""
    return response.json().get("embedder") in ("ready", "off")


class ServeNotReady(RuntimeError):
    """`credo serve` exited, or did not answer /health as asked before its deadline; the message ends with its log."""


class ServeProcess:
    """One `credo serve` on a fixed loopback port (a free one unless given), its output appended to `log`.

    `args` are added to `credo serve --port N`; `ready` says which /health answer counts as up; `nice` runs it under
    `nice -n`; `new_session` keeps it out of the caller's process group (a Ctrl-C of the caller does not reach it);
    `grace_s` is how long `stop` waits after SIGINT before SIGKILL. It can be started again after `kill` or `stop`,
    on the same port."""

    def __init__(self, env: dict[str, str], *, log: Path, port: int | None = None, args: Sequence[str] = (),
                 ready: Callable[[httpx.Response], bool] = healthy, nice: int | None = None,
                 new_session: bool = False, grace_s: float = 20.0, poll_s: float = 0.3) -> None:
        self.env, self.log, self.args, self.ready = env, Path(log), list(args), ready
        self.port = port if port is not None else free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.nice, self.new_session, self.grace_s, self.poll_s = nice, new_session, grace_s, poll_s
        self.proc: subprocess.Popen | None = None

    @property
    def pid(self) -> int | None:
        """The process id of the running server (None before it is launched)."""
        return self.proc.pid if self.proc is not None else None

    def start(self, timeout_s: float = 180.0) -> None:
        """Launch it and wait until /health answers as `ready` asks."""
        self.launch()
        self.wait_ready(timeout_s)

    def launch(self) -> None:
        """Start the process, not waiting for it."""
        command = [CREDO, "serve", "--port", str(self.port), *self.args]
        if self.nice is not None:
            command = ["nice", "-n", str(self.nice), *command]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(command, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=self.new_session)

    def wait_ready(self, timeout_s: float = 180.0) -> None:
        """Wait until /health answers as `ready` asks (ServeNotReady when the process exits or the time is up)."""
        assert self.proc is not None, "launch it first"
        deadline = time.monotonic() + timeout_s
        while True:
            if self.proc.poll() is not None:
                raise ServeNotReady(self._failure(f"exited with status {self.proc.returncode}"))
            try:
                if self.ready(httpx.get(f"{self.url}/health", timeout=2)):
                    return
            except (httpx.HTTPError, ValueError):  # not listening yet, or a body that is not JSON yet
                pass
            if time.monotonic() > deadline:
                raise ServeNotReady(self._failure(f"did not answer /health as ready within {timeout_s:.0f} s"))
            time.sleep(self.poll_s)

    def running(self) -> bool:
        """Whether the process is alive."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL, then reap it."""
        if self.running():
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> None:
        """SIGINT (a graceful shutdown), SIGKILL when it has not exited after `grace_s`."""
        if not self.running():
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(self.grace_s)
        except subprocess.TimeoutExpired:
            self.kill()

    def output(self) -> str:
        """What it has written to its log so far (earlier runs' output included)."""
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    def _failure(self, what: str) -> str:
        return f"credo serve on port {self.port} {what}; the end of {self.log}:\n{self.output()[-TAIL_CHARS:]}"


@contextmanager
def serving(env: dict[str, str], *, log: Path, timeout_s: float = 180.0, **options) -> Iterator[ServeProcess]:
    """A started `ServeProcess` (options as its constructor takes them) for the block, stopped at its end."""
    server = ServeProcess(env, log=log, **options)
    try:
        server.start(timeout_s)
        yield server
    finally:
        server.stop()
