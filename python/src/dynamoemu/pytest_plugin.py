"""The dynamoemu pytest plugin: a server per session, a branch per test.

pytest loads it on its own once the package is installed (entry point
``pytest11``, name ``dynamoemu``; ``-p no:dynamoemu`` turns it off). Nothing
starts until a test asks for one of its fixtures:

``dynamodb``
    a boto3 DynamoDB client of the test's branch
``dynamodb_resource``
    a boto3 DynamoDB service resource of the test's branch
``dynamoemu_endpoint``
    the server's URL
``dynamoemu_branch``
    the test's :class:`dynamoemu.Branch`
``dynamoemu_server``
    the session's :class:`dynamoemu.Server`

How it isolates: each session (each pytest-xdist worker: a worker is a
session) starts one server and seeds one base namespace, once: the tables,
the items, the ``-load`` file and the seed function. Before each test that
uses a fixture the base is forked into the worker's branch (O(1), whatever
the seed holds) and after it the branch is dropped, so a test sees the seed
and its own writes only. The branch is reached by an access key, the same
for every test of a worker, so the clients are made once per session; the
test's environment names the branch too (``AWS_ENDPOINT_URL_DYNAMODB``,
``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_DEFAULT_REGION``,
``AWS_REGION``), so clients the code under test makes during the test reach
it as well.
"""

from __future__ import annotations

import importlib
import re
import shlex
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional

import pytest

from . import _seed
from ._server import Branch, DynamoemuError, Server, connect, start

# The options: (ini name, command-line flag, help, ini type).
_OPTIONS = [
    ("dynamoemu_tables", "--dynamoemu-tables", "CreateTable inputs to make in the seed: a JSON file (one or a list) or a directory of them", "paths"),
    ("dynamoemu_items", "--dynamoemu-items", 'items to put in the seed: a JSON file {"TABLE": [items]} or a directory of TABLE.json lists (DynamoDB JSON or plain JSON)', "paths"),
    ("dynamoemu_load", "--dynamoemu-load", "infrastructure code whose tables the server makes in the seed (its -load): a CloudFormation/SAM template, cdk.out, a serverless.yml, or a NoSQL Workbench model", "paths"),
    ("dynamoemu_seed", "--dynamoemu-seed", "MODULE:FUNCTION called once per session with a boto3 client of the seed, after the tables and items", "string"),
    ("dynamoemu_region", "--dynamoemu-region", "the region of the seed and of every test's branch (default us-east-1)", "string"),
    ("dynamoemu_args", "--dynamoemu-args", "more flags for the server, as a shell would split them", "string"),
    ("dynamoemu_endpoint", "--dynamoemu-endpoint", "use the dynamoemu server running at this URL instead of starting one", "string"),
    ("dynamoemu_binary", "--dynamoemu-binary", "the server binary to run (else DYNAMOEMU_BINARY, the wheel's, or dynamoemu on PATH)", "string"),
]


class DynamoemuSeedSpec:
    """Hook specifications of the plugin."""

    @pytest.hookspec
    def pytest_dynamoemu_seed(self, client: Any, endpoint: str, region: str) -> None:  # type: ignore[empty-body]
        """Seed the base once per session (per xdist worker), in a ``conftest.py``.

        ``client`` is a boto3 DynamoDB client of the base namespace; it runs
        after the tables, items and ``-load`` file are in. Every test starts
        from a fork of what it leaves.
        """


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(DynamoemuSeedSpec)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dynamoemu", "dynamoemu (a DynamoDB emulator per session, a branch per test)")
    for ini, flag, help_, type_ in _OPTIONS:
        group.addoption(flag, dest=ini, default=None, help=help_ + f" (ini: {ini})")
        parser.addini(ini, help_, type=type_)  # type: ignore[arg-type]


def _option(config: pytest.Config, name: str) -> Optional[str]:
    """An option's value: the command line's (relative to the invocation directory) or the ini's (to its file)."""
    flag = config.getoption(name)
    typ = next(t for n, _, _, t in _OPTIONS if n == name)
    if flag is not None:
        return str(Path(config.invocation_params.dir, flag)) if typ == "paths" else str(flag)
    value = config.getini(name)
    if typ == "paths":
        if not value:
            return None
        if len(value) > 1:
            raise pytest.UsageError(f"dynamoemu: {name} names one path, not {len(value)}")
        return str(value[0])
    return str(value) if value else None


def _worker(config: pytest.Config) -> str:
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    return re.sub(r"[^A-Za-z0-9]", "", str(worker)) or "main"


def _seed_function(spec: str) -> Callable[..., Any]:
    module, sep, name = spec.partition(":")
    if not sep or not module or not name:
        raise pytest.UsageError(f"dynamoemu: dynamoemu_seed is {spec!r}: want MODULE:FUNCTION")
    fn = getattr(importlib.import_module(module), name, None)
    if not callable(fn):
        raise pytest.UsageError(f"dynamoemu: dynamoemu_seed: {module} has no function {name}")
    return fn  # type: ignore[no-any-return]


def _client(kind: str, server: Server, key: str, region: str) -> Any:
    import boto3
    from botocore.config import Config

    session = boto3.session.Session(aws_access_key_id=key, aws_secret_access_key="dynamoemu", region_name=region)
    make = session.client if kind == "client" else session.resource
    return make("dynamodb", endpoint_url=server.endpoint, config=Config(retries={"max_attempts": 2}))


class _Session:
    """The session's server and base, and the worker's branch name."""

    def __init__(self, server: Server, base: str, branch_name: str, region: str) -> None:
        self.server = server
        self.base = base
        self.branch_name = branch_name
        self.region = region
        self._clients: Dict[str, Any] = {}

    def client(self, kind: str) -> Any:
        if kind not in self._clients:
            self._clients[kind] = _client(kind, self.server, self.branch_name, self.region)
        return self._clients[kind]


@pytest.fixture(scope="session")
def dynamoemu_server(pytestconfig: pytest.Config) -> Iterator[Server]:
    """The session's dynamoemu server: started once per session (per xdist worker), or the one ``dynamoemu_endpoint`` names."""
    region = _option(pytestconfig, "dynamoemu_region") or "us-east-1"
    endpoint = _option(pytestconfig, "dynamoemu_endpoint")
    if endpoint:
        yield connect(endpoint, region)
        return
    args: List[str] = shlex.split(_option(pytestconfig, "dynamoemu_args") or "")
    load = _option(pytestconfig, "dynamoemu_load")
    if load:
        args += ["-load", load, "-loadNamespace", f"dynamoemuseed{_worker(pytestconfig)}/{region}"]
    server = start(region=region, args=args, binary=_option(pytestconfig, "dynamoemu_binary"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def _dynamoemu_session(pytestconfig: pytest.Config, dynamoemu_server: Server) -> _Session:
    worker = _worker(pytestconfig)
    region = dynamoemu_server.region
    key = f"dynamoemuseed{worker}"
    base = _client("client", dynamoemu_server, key, region)
    tables = _option(pytestconfig, "dynamoemu_tables")
    if tables:
        _seed.create_tables(base, _seed.read_tables(tables))
    items = _option(pytestconfig, "dynamoemu_items")
    if items:
        _seed.put_items(base, _seed.read_items(items))
    seed = _option(pytestconfig, "dynamoemu_seed")
    if seed:
        _seed_function(seed)(base)
    pytestconfig.hook.pytest_dynamoemu_seed(client=base, endpoint=dynamoemu_server.endpoint, region=region)
    return _Session(dynamoemu_server, f"{key}/{region}", f"dynamoemu{worker}", region)


@pytest.fixture
def dynamoemu_branch(_dynamoemu_session: _Session, monkeypatch: pytest.MonkeyPatch) -> Iterator[Branch]:
    """The test's branch of the seed: forked before the test, dropped after it.

    The test's environment names it (``AWS_ENDPOINT_URL_DYNAMODB``, the
    access key, the region), so boto3 clients made in the test reach it.
    """
    s = _dynamoemu_session
    try:
        branch = s.server.branch(s.base, s.branch_name)
    except DynamoemuError:  # left by a run that was killed (a shared server): dropped, forked again
        s.server.admin("DELETE", "/dynamoemu/branches/" + s.branch_name)
        branch = s.server.branch(s.base, s.branch_name)
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", s.server.endpoint)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", branch.access_key)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "dynamoemu")
    monkeypatch.setenv("AWS_DEFAULT_REGION", s.region)
    monkeypatch.setenv("AWS_REGION", s.region)
    try:
        yield branch
    finally:
        branch.drop()


@pytest.fixture
def dynamoemu_endpoint(dynamoemu_branch: Branch) -> str:
    """The server's URL (also in ``AWS_ENDPOINT_URL_DYNAMODB`` for the test)."""
    return dynamoemu_branch.server.endpoint


@pytest.fixture
def dynamodb(dynamoemu_branch: Branch, _dynamoemu_session: _Session) -> Any:
    """A boto3 DynamoDB client of the test's branch (made once per session)."""
    return _dynamoemu_session.client("client")


@pytest.fixture
def dynamodb_resource(dynamoemu_branch: Branch, _dynamoemu_session: _Session) -> Any:
    """A boto3 DynamoDB service resource of the test's branch (made once per session)."""
    return _dynamoemu_session.client("resource")
