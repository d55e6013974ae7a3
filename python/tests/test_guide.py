"""docs/python.md's guide from moto: the "after" test runs as written, and
its assertions are the "before" test's."""

import json
import re
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def _block(marker):
    text = GUIDE.read_text(encoding="utf-8")
    m = re.search(r"```python\n(# " + marker + r":[^\n]*\n.*?)```", text, re.S)
    assert m, f"docs/python.md has no python block starting # {marker}:"
    return m.group(1)


def _asserts(src):
    return [line.strip() for line in src.splitlines() if line.strip().startswith("assert")]


@pytest.mark.skipif(not GUIDE.exists(), reason="runs in the repository")
def test_guide_keeps_the_assertions(pytester):
    before, after = _block("before"), _block("after")
    assert _asserts(before) and _asserts(before) == _asserts(after)
    assert "mock_aws" in before and "mock_aws" not in after
    pytester.makefile(".json", tables=json.dumps({
        "TableName": "orders",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}],
        "BillingMode": "PAY_PER_REQUEST",
    }))
    pytester.makeini("[pytest]\ndynamoemu_tables = tables.json\n")
    pytester.makepyfile(test_orders=after)
    pytester.runpytest_subprocess().assert_outcomes(passed=1)
