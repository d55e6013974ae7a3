"""Running the dynamoemu server as a child process."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any, Dict, List, Mapping, Optional, Sequence, Type

__all__ = ["DynamoemuError", "Server", "Branch", "connect", "find_binary", "start"]

#: The environment variable that names a server binary to run instead of
#: the wheel's (or the one on PATH).
BINARY_ENV = "DYNAMOEMU_BINARY"

_LISTENING = re.compile(r'dynamoemu listening"? addr=(\S+)')


class DynamoemuError(RuntimeError):
    """The server could not be found, started or asked something."""


def _exe_name() -> str:
    return "dynamoemu.exe" if sys.platform == "win32" else "dynamoemu"


def find_binary() -> str:
    """Return the path of the server binary to run.

    In order: the file named by ``DYNAMOEMU_BINARY``; the binary the wheel
    installed (``dynamoemu/bin/dynamoemu`` inside this package); a
    ``dynamoemu`` on ``PATH``. Raises :class:`DynamoemuError` naming all
    three when none is there.
    """
    named = os.environ.get(BINARY_ENV)
    if named:
        if not os.path.isfile(named):
            raise DynamoemuError(f"dynamoemu: {BINARY_ENV}={named} is not a file")
        return named
    bundled = Path(__file__).resolve().parent / "bin" / _exe_name()
    if bundled.is_file():
        if sys.platform != "win32" and not os.access(bundled, os.X_OK):
            try:  # an installer that dropped the mode bits
                bundled.chmod(0o755)
            except OSError as err:
                raise DynamoemuError(f"dynamoemu: {bundled} is not executable ({err}); set {BINARY_ENV}") from err
        return str(bundled)
    on_path = shutil.which("dynamoemu")
    if on_path:
        return on_path
    raise DynamoemuError(
        "dynamoemu: no server binary: this installation of the package has none "
        f"(install the wheel built for your platform), there is no dynamoemu on PATH, "
        f"and {BINARY_ENV} is not set"
    )


class Branch:
    """A branch: a copy-on-write fork of a namespace, reached by its access key.

    A client signed with :attr:`access_key` (any secret) in :attr:`region`
    reads and writes the branch; no other namespace sees its writes.
    """

    def __init__(self, server: "Server", name: str, namespace: str, base: str, access_key: str) -> None:
        self.server = server
        self.name = name
        self.namespace = namespace
        self.base = base
        self.access_key = access_key

    @property
    def region(self) -> str:
        """The branch's region: its base's."""
        return self.namespace.rsplit("/", 1)[-1]

    def drop(self) -> None:
        """Delete the branch and what only it held."""
        self.server.admin("DELETE", "/dynamoemu/branches/" + self.name)


class Server:
    """A running dynamoemu server (see :func:`start`).

    Usable as a context manager: the server stops when the block ends.
    """

    def __init__(self, process: "Optional[subprocess.Popen[str]]", endpoint: str, region: str,
                 log: List[str]) -> None:
        #: The server's process; None for a server :func:`connect` reached.
        self.process = process
        #: The server's URL, for ``endpoint_url`` (or ``AWS_ENDPOINT_URL_DYNAMODB``).
        self.endpoint = endpoint
        #: The region clients should name (any works; this is the tests' default).
        self.region = region
        self._log = log

    @property
    def port(self) -> int:
        """The TCP port the server listens on."""
        return int(self.endpoint.rsplit(":", 1)[1])

    def log(self) -> str:
        """What the server has written to its standard error so far."""
        return "".join(self._log)

    def admin(self, method: str, path: str, body: Optional[Mapping[str, Any]] = None) -> Any:
        """Call one of the server's admin endpoints (``/dynamoemu/...``).

        Returns the decoded JSON answer; raises :class:`DynamoemuError` with
        the status and body of an answer that is not 2xx.
        """
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.endpoint + path, data=data, method=method,
                                     headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                text = res.read().decode()
        except urllib.error.HTTPError as err:
            raise DynamoemuError(f"dynamoemu: {method} {path}: {err.code} {err.read().decode(errors='replace')}") from None
        return json.loads(text) if text else {}

    def branch(self, base: str, name: str) -> Branch:
        """Fork namespace ``base`` (``ACCESSKEY/REGION``) into branch ``name``.

        O(1) whatever the base holds. The branch's namespace is
        ``name/REGION``: a client with access key ``name`` reaches it.
        """
        b = self.admin("POST", "/dynamoemu/branches", {"base": base, "name": name})
        return Branch(self, b["name"], b["namespace"], b["base"], b.get("accessKey", b["name"]))

    def snapshot(self) -> str:
        """Take a copy-on-write snapshot of every table; return its id."""
        return str(self.admin("POST", "/dynamoemu/snapshots")["id"])

    def restore(self, snapshot_id: str) -> None:
        """Rewind every table to snapshot ``snapshot_id``."""
        self.admin("POST", f"/dynamoemu/snapshots/{urllib.parse.quote(snapshot_id, safe='')}/restore")

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server (SIGTERM, a clean stop; killed after ``timeout`` s).

        A server :func:`connect` reached is left running.
        """
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException],
                 tb: Optional[TracebackType]) -> None:
        self.stop()

    def __repr__(self) -> str:
        pid = self.process.pid if self.process is not None else None
        return f"<dynamoemu.Server {self.endpoint} pid={pid}>"


def connect(endpoint: str, region: str = "us-east-1") -> Server:
    """Return a :class:`Server` for a dynamoemu server already running at ``endpoint``.

    Its :meth:`Server.stop` leaves it running. Raises :class:`DynamoemuError`
    when nothing there answers the admin API.
    """
    server = Server(None, endpoint.rstrip("/"), region, [])
    try:
        server.admin("GET", "/dynamoemu/namespaces")
    except (OSError, DynamoemuError) as err:
        raise DynamoemuError(f"dynamoemu: no dynamoemu server answers at {endpoint}: {err}") from None
    return server


def start(port: int = 0, host: str = "127.0.0.1", *, region: str = "us-east-1",
          args: Sequence[str] = (), env: Optional[Mapping[str, str]] = None,
          binary: Optional[str] = None, timeout: float = 60.0) -> Server:
    """Start a dynamoemu server and return it once it answers.

    ``port`` 0 (the default) picks a free port on ``host``. ``args`` are
    more of the server's flags (``["-load", "template.yaml"]``; see
    ``dynamoemu -help``), ``env`` more environment variables for it,
    ``binary`` a server binary to run instead of :func:`find_binary`'s.
    The server is started with ``-parentPid`` of this process, so it stops
    by itself if this process dies without stopping it.

    Raises :class:`DynamoemuError` with the server's log when it exits at
    start-up or does not listen within ``timeout`` seconds.
    """
    exe = binary or find_binary()
    argv = [exe, "-host", host, "-port", str(port), "-parentPid", str(os.getpid()), *args]
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, errors="replace",
                                env={**os.environ, **(env or {})})
    except OSError as err:
        raise DynamoemuError(f"dynamoemu: cannot run {exe}: {err}") from err
    log: List[str] = []
    found: Dict[str, str] = {}
    listening = threading.Event()

    def drain() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:  # read to the end, or the server blocks on a full pipe
            log.append(line)
            if not listening.is_set():
                m = _LISTENING.search(line)
                if m:
                    found["addr"] = m.group(1)
                    listening.set()
        listening.set()

    threading.Thread(target=drain, name="dynamoemu-log", daemon=True).start()
    deadline = time.monotonic() + timeout
    if not listening.wait(timeout) or "addr" not in found:
        proc.kill()
        proc.wait()
        text = "".join(log)
        if "address already in use" in text:
            raise DynamoemuError(f"dynamoemu: port {port} on {host} is taken: stop what listens there, or start with port=0 for a free one")
        if time.monotonic() >= deadline:
            raise DynamoemuError(f"dynamoemu: the server did not start within {timeout} s; its log:\n{text}")
        raise DynamoemuError(f"dynamoemu: the server exited at start-up (status {proc.returncode}); its log:\n{text}")
    listen_port = found["addr"].rsplit(":", 1)[1]
    shown = f"[{host}]" if ":" in host else host
    server = Server(proc, f"http://{shown}:{listen_port}", region, log)
    try:
        server.admin("GET", "/dynamoemu/namespaces")  # ready means answering, not only listening
    except Exception:
        server.stop()
        raise
    return server
