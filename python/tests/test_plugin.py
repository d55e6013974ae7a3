"""The pytest plugin, run by pytest in a project of its own (pytester)."""

import json
import textwrap

import pytest

TABLES = [{
    "TableName": "things",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    "BillingMode": "PAY_PER_REQUEST",
}]

# Each test writes an item of its own and sees the seed and that item
# only, whatever ran before it, in its worker or another.
ISOLATED = textwrap.dedent('''
    import os
    import boto3
    import pytest

    @pytest.mark.parametrize("i", range(12))
    def test_isolated(dynamodb, i):
        dynamodb.put_item(TableName="things", Item={"pk": {"S": f"t{i}"}})
        keys = sorted(it["pk"]["S"] for it in dynamodb.scan(TableName="things")["Items"])
        assert keys == sorted(["seed", f"t{i}"])

    def test_resource_and_environment(dynamodb_resource, dynamoemu_endpoint):
        assert os.environ["AWS_ENDPOINT_URL_DYNAMODB"] == dynamoemu_endpoint
        own = boto3.client("dynamodb", endpoint_url=os.environ["AWS_ENDPOINT_URL_DYNAMODB"])
        dynamodb_resource.Table("things").put_item(Item={"pk": "r"})
        assert {it["pk"]["S"] for it in own.scan(TableName="things")["Items"]} == {"seed", "r"}
''')


def _project(pytester, ini="", items=True):
    pytester.makefile(".json", tables=json.dumps(TABLES))
    pytester.makefile(".json", seed=json.dumps({"things": [{"pk": "seed", "n": 1.5}]}))
    pytester.makeini("[pytest]\ndynamoemu_tables = tables.json\n" + ("dynamoemu_items = seed.json\n" if items else "") + ini)
    pytester.makepyfile(test_isolated=ISOLATED)


def test_branch_per_test(pytester):
    _project(pytester)
    pytester.runpytest_subprocess().assert_outcomes(passed=13)


def test_branch_per_test_with_xdist(pytester):
    pytest.importorskip("xdist")
    _project(pytester)
    pytester.runpytest_subprocess("-n", "3").assert_outcomes(passed=13)


def test_options_on_the_command_line(pytester):
    pytester.makefile(".json", tables=json.dumps(TABLES))
    pytester.makefile(".json", seed=json.dumps({"things": [{"pk": {"S": "seed"}}]}))  # DynamoDB JSON
    pytester.makepyfile(test_isolated=ISOLATED)
    pytester.runpytest_subprocess("--dynamoemu-tables", "tables.json", "--dynamoemu-items", "seed.json",
                                  "--dynamoemu-region", "eu-west-1").assert_outcomes(passed=13)


def test_seed_from_a_function_and_a_hook(pytester):
    _project(pytester, ini="dynamoemu_seed = seeding:seed\n", items=False)
    pytester.makepyfile(seeding='''
        def seed(client):
            client.put_item(TableName="things", Item={"pk": {"S": "seed"}})
    ''')
    pytester.makeconftest('''
        def pytest_dynamoemu_seed(client, endpoint, region):
            assert endpoint.startswith("http://") and region == "us-east-1"
            client.put_item(TableName="things", Item={"pk": {"S": "hooked"}})
    ''')
    pytester.makepyfile(test_more='''
        def test_hooked(dynamodb):
            got = {it["pk"]["S"] for it in dynamodb.scan(TableName="things")["Items"]}
            assert got == {"seed", "hooked"}
    ''')
    result = pytester.runpytest_subprocess("-k", "hooked")
    result.assert_outcomes(passed=1)


def test_seed_from_infrastructure_code(pytester):
    pytester.makefile(".yaml", template=textwrap.dedent('''
        AWSTemplateFormatVersion: "2010-09-09"
        Resources:
          Things:
            Type: AWS::DynamoDB::Table
            Properties:
              TableName: things
              BillingMode: PAY_PER_REQUEST
              KeySchema: [{AttributeName: pk, KeyType: HASH}]
              AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]
    '''))
    pytester.makefile(".json", seed=json.dumps({"things": [{"pk": "seed"}]}))
    pytester.makeini("[pytest]\ndynamoemu_load = template.yaml\ndynamoemu_items = seed.json\n")
    pytester.makepyfile(test_isolated=ISOLATED)
    pytester.runpytest_subprocess("-n", "2").assert_outcomes(passed=13)


def test_a_shared_server(pytester):
    import dynamoemu

    with dynamoemu.start() as emu:
        _project(pytester)
        pytester.runpytest_subprocess("-n", "2", "--dynamoemu-endpoint", emu.endpoint).assert_outcomes(passed=13)


def test_bad_seed_option(pytester):
    _project(pytester, ini="dynamoemu_seed = nocolon\n")
    result = pytester.runpytest_subprocess()
    result.stdout.fnmatch_lines(["*dynamoemu_seed is 'nocolon': want MODULE:FUNCTION*"])
    assert result.ret != 0
