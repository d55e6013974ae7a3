"""The example suite's fixtures the way such suites are written without the
plugin: a client made per test, the tables made and seeded before each
test and deleted after it. python/bench.sh runs the suite with these
(-p no:dynamoemu -p per_test_tables) on DynamoDB Local, on moto's mock_aws
and on dynamoemu itself, beside the plugin's fixtures.

BENCH_ENDPOINT is the server's URL; BENCH_MOTO=1 runs each test in
moto's mock_aws instead.
"""

import os
from pathlib import Path

import boto3
import pytest

from dynamoemu import _seed


@pytest.fixture
def _tables(pytestconfig, monkeypatch):
    root = Path(pytestconfig.rootpath)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    endpoint = os.environ.get("BENCH_ENDPOINT")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "bench" + worker)  # a namespace per worker
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "bench")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    mock = None
    if os.environ.get("BENCH_MOTO") == "1":
        from moto import mock_aws

        mock = mock_aws()
        mock.start()
        endpoint = None
    else:
        monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", endpoint)
    client = boto3.client("dynamodb", endpoint_url=endpoint)
    tables = _seed.read_tables(root / "tables.json")
    _seed.create_tables(client, tables)
    _seed.put_items(client, _seed.read_items(root / "seed.json"))
    try:
        yield endpoint
    finally:
        for t in tables:
            client.delete_table(TableName=t["TableName"])
        if mock is not None:
            mock.stop()


@pytest.fixture
def dynamodb(_tables):
    return boto3.client("dynamodb", endpoint_url=_tables)


@pytest.fixture
def dynamodb_resource(_tables):
    return boto3.resource("dynamodb", endpoint_url=_tables)


@pytest.fixture
def dynamoemu_endpoint(_tables):
    return _tables
