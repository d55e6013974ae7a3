"""dynamoemu.start and the binary's search, from the user's side."""

import os
import subprocess
import sys
import time

import boto3
import pytest

import dynamoemu


def _client(emu, key="test"):
    return boto3.client("dynamodb", endpoint_url=emu.endpoint, region_name=emu.region,
                        aws_access_key_id=key, aws_secret_access_key="x")


def test_start_serves_and_stops():
    with dynamoemu.start() as emu:
        assert emu.endpoint.startswith("http://127.0.0.1:")
        assert emu.region == "us-east-1"
        c = _client(emu)
        c.create_table(TableName="things", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                       AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                       BillingMode="PAY_PER_REQUEST")
        assert c.list_tables()["TableNames"] == ["things"]
        proc = emu.process
    assert proc.poll() is not None


def test_table_exists_waiter_describes_once():
    # CreateTable's answer says CREATING, as AWS's does, and the table is
    # ACTIVE from the next request on: boto3's table_exists waiter, which
    # asks DescribeTable at once and sleeps (Delay, 20 s) before each
    # further ask, is satisfied by its first DescribeTable.
    with dynamoemu.start() as emu:
        c = _client(emu)
        asked = []
        c.meta.events.register("before-call.dynamodb.DescribeTable", lambda **kw: asked.append(kw["model"].name))
        made = c.create_table(TableName="orders", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                              AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                              BillingMode="PAY_PER_REQUEST")
        assert made["TableDescription"]["TableStatus"] == "CREATING"
        c.get_waiter("table_exists").wait(TableName="orders", WaiterConfig={"Delay": 20, "MaxAttempts": 3})
        assert asked == ["DescribeTable"], "the waiter asked DescribeTable more than once"
        assert c.describe_table(TableName="orders")["Table"]["TableStatus"] == "ACTIVE"


def test_a_taken_port_says_so():
    with dynamoemu.start() as emu:
        with pytest.raises(dynamoemu.DynamoemuError, match="is taken"):
            dynamoemu.start(port=emu.port)


def test_bad_flag_gives_the_log():
    with pytest.raises(dynamoemu.DynamoemuError, match="exited at start-up"):
        dynamoemu.start(args=["-noSuchFlag"])


def test_binary_from_the_environment(monkeypatch, tmp_path):
    real = dynamoemu.find_binary()
    monkeypatch.setenv("DYNAMOEMU_BINARY", real)
    assert dynamoemu.find_binary() == real
    monkeypatch.setenv("DYNAMOEMU_BINARY", str(tmp_path / "missing"))
    with pytest.raises(dynamoemu.DynamoemuError, match="is not a file"):
        dynamoemu.find_binary()


def test_branch_sees_base_and_own_writes():
    with dynamoemu.start() as emu:
        base = _client(emu, "base")
        base.create_table(TableName="things", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                          AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                          BillingMode="PAY_PER_REQUEST")
        base.put_item(TableName="things", Item={"pk": {"S": "seed"}})
        b = emu.branch("base/us-east-1", "b1")
        c = _client(emu, b.access_key)
        c.put_item(TableName="things", Item={"pk": {"S": "mine"}})
        assert len(c.scan(TableName="things")["Items"]) == 2
        assert len(base.scan(TableName="things")["Items"]) == 1
        b.drop()


def test_connect_leaves_the_server_running():
    with dynamoemu.start() as emu:
        other = dynamoemu.connect(emu.endpoint)
        other.stop()
        assert emu.process.poll() is None
    with pytest.raises(dynamoemu.DynamoemuError, match="no dynamoemu server answers"):
        dynamoemu.connect(emu.endpoint)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_stops_when_its_parent_is_killed():
    # A Python process that starts a server and is then SIGKILLed: the
    # server's -parentPid stops it.
    code = "import dynamoemu, sys; e = dynamoemu.start(); print(e.process.pid, flush=True); sys.stdin.read()"
    p = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    pid = int(p.stdout.readline())
    p.kill()
    p.wait()
    for _ in range(100):
        if not _alive(pid):
            return
        time.sleep(0.1)
    os.kill(pid, 9)
    pytest.fail("the server outlived its parent by 10 s")


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has stopped
    except FileNotFoundError:
        return False
